// Whether the page has a server, and the page kept for offline play. Served as static files
// (target/wasm/), offline, or with damka-web down, the page plays local games only (against
// the engine in this browser, hot seat) and offers only what works without a server; app.js
// asks here which it is, and the page starts here.

import * as start from "/assets/start.js";
import * as local from "/assets/local.js";
import { roomFromPath } from "/assets/online.js";

/** Where the page plays: "here" with a server (damka-web answers /api/info), "none" served as
 *  static files (anything else answers), "unreachable" when nothing answers (offline, or
 *  damka-web down); null until known. */
export let server = null;

/** Asks the server; resolves with what `server` is to be (and sets it). */
export async function probe() {
  let answer;
  try {
    answer = await fetch("/api/info", { cache: "no-store" });
  } catch (e) {
    server = "unreachable";
    return server;
  }
  try {
    server = answer.ok && (await answer.json()).name === "damka-web" ? "here" : "none";
  } catch (e) {
    server = "none"; // a static server's page for every address, not damka-web's JSON
  }
  return server;
}

/** The WebSocket opened: the page has its server after all (it came back). */
export function reached() {
  if (server === "here") return;
  server = "here";
  start.setServer(true);
}

/** Sets the header's word on the connection (`data-state`: online, offline, connecting,
 *  local). */
export function setConnection(state, text) {
  const el = document.querySelector("#connection");
  el.dataset.state = state;
  el.textContent = text;
  el.classList.toggle("online", state === "online");
}

/** Whether the page is known to have no server now. */
export function serverless() {
  return server === "none" || server === "unreachable";
}

// What the page says without a server, once: in the header and, until a game starts, in the
// status line.
const WORDS = {
  none: ["no server: engine in this browser", "This page has no server"],
  unreachable: ["offline: engine in this browser", "Offline (no server reachable)"],
};

/** The header's words without a server. */
export function badge() {
  return WORDS[server][0];
}

/** The status line's words without a server: why, and (`local`: this browser plays) what is
 *  left to do. */
export function sentence(local) {
  const why = WORDS[server][1];
  if (!local) return why + " and this browser cannot run the engine itself";
  return why + ": play against the engine or with a friend on this device. Choose a game and press Start";
}

/** The page's start, once it knows whether it has a server and whether this browser can play
 *  itself (`here`): with a server, local games in the browser (the WebSocket opened only for
 *  what needs it: an online room, the server's engine) or on the server; without one, local
 *  games only, and only what works without a server on the page. `page` has `connect()` (the
 *  WebSocket), `join(id)` (a local game) and `form(notice)` (the new-game form). */
export function begin(here, page) {
  const connection = document.querySelector("#connection");
  start.setServer(!serverless());
  if (serverless() && here) document.querySelector("#engine-place").value = "browser";
  const id = location.hash.slice(1) || start.lastGame();
  const inRoom = roomFromPath();
  const onServer = inRoom || (id && !id.startsWith(local.PREFIX));
  let notice = "";
  if (!serverless()) {
    if (!local.chosen() || onServer) return page.connect();
    connection.textContent = "engine in this browser";
    connection.dataset.state = "local";
  } else if (!here) {
    // Nothing to play here: only the server can help, so it is called until it answers.
    connection.textContent = "offline";
    connection.dataset.state = "offline";
    if (server === "unreachable") page.connect();
    return page.form("");
  } else {
    connection.textContent = badge();
    connection.dataset.state = "local";
    if (onServer) {
      notice = "The " + (inRoom ? "room " + inRoom : "game " + id) + " is played on the server, which is not reachable";
      history.replaceState(null, "", "/");
    }
  }
  if (id && id.startsWith(local.PREFIX)) page.join(id);
  else page.form(notice);
}

/** Calls `back` when the page, started without reaching its server, reaches it again. */
export function onBack(back) {
  window.addEventListener("online", async () => {
    if (server !== "unreachable" || (await probe()) !== "here") return;
    start.setServer(true);
    back();
  });
}

/** Keeps the page and the in-browser engine in the browser's cache (the service worker,
 *  sw.js), so that after one visit the page opens and plays with no network. A new version
 *  served takes over at once (see sw.js): a page that ran the version before is reloaded onto
 *  it, so that its scripts and the engine's files it loads later are of one version. Where the
 *  browser refuses (no secure context, a file missing), the page works as before, from the
 *  network. */
export function keep() {
  if (!("serviceWorker" in navigator)) return;
  const before = navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (before) location.reload();
  });
  navigator.serviceWorker.register("/sw.js").catch((e) => {
    console.warn("damka: the page is not kept for offline play:", e.message);
  });
}
