// damka-web online rooms (see README, "Online play"): the seat and its token (kept in this
// browser's localStorage, so a reload or a dropped connection comes back to the same seat),
// the draw offer, and the spectators' proposals; and the clocks of any game that has them (a
// room, a local game with a clock: the server's times, counted down here between its
// messages). app.js draws the board and calls these.

import { sound } from "/assets/feel.js";

const $ = (sel) => document.querySelector(sel);
const LOW_TIME_MS = 10000;
const tokenKey = (room) => "damka-seat-" + room;

/** Where this page is: the room, its role in it, the last view and when it came. */
export const online = {
  room: null,
  role: null, // "white" | "black" | "spectator"
  view: null,
  receivedAt: 0,
  proposals: [], // the tally so far for the move to come (spectators only)
  opinion: null,
  confirming: false, // Resign pressed once: the confirmation is shown
};

/** The clocks shown: the last view that had them, when it came, and whose low time is heard. */
const clocks = { view: null, receivedAt: 0, mine: () => null, warned: null, frozen: null };

/** The room named by the page's address (/room/ID), if any. */
export function roomFromPath() {
  const m = location.pathname.match(/^\/room\/([A-Za-z0-9]+)$/);
  return m ? m[1] : null;
}

function storage(fn) {
  try {
    return fn(window.localStorage);
  } catch (e) {
    return null; // storage refused (private mode): the seat lasts as long as the page
  }
}

/** The message that enters `room`: with this browser's token for it, if it has one. */
export function enterMessage(room) {
  const token = storage((s) => s.getItem(tokenKey(room)));
  if (token) return { type: "enter", room, token };
  return { type: "enter", room, watch: new URLSearchParams(location.search).has("watch") };
}

/** The server refused the token kept for the room: forget it. */
export function forgetToken(room) {
  storage((s) => s.removeItem(tokenKey(room)));
}

/** A `seat` message: where this page sits. */
export function takeSeat(msg) {
  online.room = msg.room;
  online.role = msg.role;
  online.proposals = [];
  online.opinion = null;
  if (msg.token) storage((s) => s.setItem(tokenKey(msg.room), msg.token));
  const path = "/room/" + msg.room;
  if (location.pathname !== path) history.replaceState(null, "", path + location.search);
  document.body.classList.add("online");
  document.body.classList.toggle("spectator", msg.role === "spectator");
  $("#online").hidden = false;
  const link = $("#room-link");
  link.href = location.origin + path;
  link.textContent = location.origin + path;
}

/** Leaves online mode (a local game was started). */
export function leave() {
  online.room = null;
  online.role = null;
  online.view = null;
  document.body.classList.remove("online", "spectator");
  $("#online").hidden = true;
  if (roomFromPath()) history.replaceState(null, "", "/");
}

/** A room's view as the game app.js draws: it may move when it is its turn (a player) or
 *  propose a move (a spectator). */
export function asGame(view) {
  // A move was played: the proposals for it are over (the view holds their result).
  if (online.view && online.view.moves.length !== view.moves.length) online.proposals = [];
  online.view = view;
  online.receivedAt = performance.now();
  showClocks(view, () => (online.role === "spectator" ? null : online.role));
  const started = view.seats[0] && view.seats[1];
  const mine = online.role === view.side || online.role === "spectator";
  return Object.assign({}, view, {
    can_move: !view.status.over && started && mine,
    thinking: false,
    notice: null,
  });
}

/** The status line of a room: one message, worded for this page's player, their opponent or
 *  a spectator. */
export function statusText(game) {
  const v = online.view;
  const role = online.role;
  const player = role === "white" || role === "black";
  if (game.status.over) return overText(game, v, role, player);
  if (!(v.seats[0] && v.seats[1])) {
    return player ? "Waiting for an opponent: send them the room's link" : "Waiting for a second player";
  }
  if (v.draw_offer) {
    if (v.draw_offer === role) return "You offered a draw: waiting for your opponent's answer";
    if (player) return "Your opponent offers a draw: accept or decline it (a move declines it)";
    return cap(v.draw_offer) + " offers a draw";
  }
  if (v.draw_declined) {
    if (v.draw_declined === role) return "Your draw offer was declined. " + turnText(game, role, player);
    if (!player) return cap(other(v.draw_declined)) + " declined the draw. " + turnText(game, role, player);
  }
  return turnText(game, role, player);
}

function other(c) {
  return c === "white" ? "black" : "white";
}

function turnText(game, role, player) {
  if (!player) return "Watching: " + game.status.text + ". Make a move on the board to propose it";
  if (role === game.side) return "Your move (" + game.side + ")";
  return game.status.text + ": your opponent's move";
}

function overText(game, v, role, player) {
  const aborted = game.status.result === "*";
  let text = "Game over: " + game.status.text + (aborted ? "" : ", " + game.status.result);
  if (v.rematch) return text + ". The rematch is on";
  if (v.rematch_offer === role) return text + ". You offered a rematch: waiting for your opponent";
  if (v.rematch_offer && player) return text + ". Your opponent offers a rematch: press Rematch to accept";
  if (v.rematch_offer) return text + ". " + cap(v.rematch_offer) + " offers a rematch";
  return text;
}

/** The rematch of this room began: players (their token copied, each holding the other
 *  colour there) and spectators go to its room. */
export function followRematch(id) {
  const token = storage((s) => s.getItem(tokenKey(online.room)));
  if (token) storage((s) => s.setItem(tokenKey(id), token));
  location.assign("/room/" + id + (token ? "" : "?watch"));
}

function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function clockText(ms) {
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000);
  const s = Math.floor((t % 60000) / 1000);
  const tenths = t < 10000 ? "." + Math.floor((t % 1000) / 100) : "";
  return m + ":" + String(s).padStart(2, "0") + tenths;
}

/** Shows the clocks of `view` (its `clocks`, `running`; none: the clocks are hidden) from now
 *  on; `mine()` names the colour whose low time this page warns of (null: none). */
export function showClocks(view, mine) {
  clocks.view = view && view.clocks ? view : null;
  clocks.frozen = null;
  clocks.receivedAt = performance.now();
  clocks.mine = mine;
  $("#clocks").hidden = !clocks.view;
  drawClocks();
}

/** Stops the clocks shown where they are (the connection to the server is lost: the page
 *  does not know what the server counts, and a restart pauses the game) until the next
 *  view. */
export function freezeClocks() {
  if (clocks.view && clocks.frozen === null) clocks.frozen = performance.now() - clocks.receivedAt;
  drawClocks();
}

/** Redraws the clocks from the last view, the running one counted down since it came. */
export function drawClocks() {
  const v = clocks.view;
  if (!v) return;
  const since = clocks.frozen !== null ? clocks.frozen : performance.now() - clocks.receivedAt;
  ["white", "black"].forEach((c, i) => {
    const el = $("#clock-" + c);
    const running = v.running === c;
    const left = v.clocks[i] - (running ? since : 0);
    el.textContent = clockText(left);
    el.classList.toggle("running", running && clocks.frozen === null);
    el.classList.toggle("low", running && left < LOW_TIME_MS);
    // Heard once a game, by the player whose time is short.
    if (running && c === clocks.mine() && left < LOW_TIME_MS && clocks.warned !== v.id && !v.status.over) {
      clocks.warned = v.id;
      sound("lowtime");
    }
  });
}

function item(p, extra) {
  const li = document.createElement("li");
  li.dataset.move = p.move;
  li.dataset.count = p.count;
  li.textContent = p.move + ": " + p.count + (extra || "");
  return li;
}

/** The room's buttons' actions (data-action), each sending its message with `send`. Resign
 *  ends the game, so it is asked once more beside the button (resign-confirm). */
export function actions(send) {
  const say = (type) => () => online.room && send({ type, room: online.room });
  return {
    resign: () => {
      online.confirming = true;
      drawPanel();
    },
    "resign-confirm": () => {
      online.confirming = false;
      say("resign")();
    },
    abort: say("abort"),
    draw: say("draw"),
    decline: say("decline"),
    opinion: say("opinion"),
  };
}

/** A click on the page (on the element `el` with a data-action, or null): anywhere but the
 *  resignation's buttons it takes the question back. */
export function clicked(el) {
  if (online.confirming && !(el && /^resign/.test(el.dataset.action))) {
    online.confirming = false;
    drawPanel();
  }
}

/** The banner's Rematch button: local games start one at once; online it is offered to the
 *  opponent, who accepts with the same button (not a spectator's, nor once made). */
export function drawRematch() {
  const v = online.room ? online.view : null;
  const rematch = $('[data-action="rematch"]');
  const mine = Boolean(v && v.rematch_offer === online.role);
  rematch.hidden = Boolean(v && (online.role === "spectator" || v.rematch));
  rematch.disabled = mine;
  rematch.textContent = !v ? "Rematch" : mine ? "Rematch offered" : v.rematch_offer ? "Accept rematch" : "Offer a rematch";
}

/** Redraws the room's panel: seat, buttons, proposals, the engine's opinion. */
export function drawPanel() {
  const v = online.view;
  if (!v) return;
  const player = online.role === "white" || online.role === "black";
  const seat = player ? "You play " + online.role : "You are watching";
  $("#seat").textContent = seat + " · " + v.spectators + " watching · " + v.time[0] / 60 + " min + " + v.time[1] + " s";
  const live = !v.status.over && v.seats[0] && v.seats[1];
  // Before the first move either player may abort, even before the second seat is taken.
  const abortable = !v.status.over && v.moves.length === 0;
  $("#online-player").hidden = !player || !(live || abortable);
  const offered = v.draw_offer && v.draw_offer !== online.role;
  $('[data-action="decline"]').hidden = !offered;
  $('[data-action="draw"]').textContent = offered ? "Accept draw" : "Offer draw";
  $('[data-action="draw"]').hidden = !live;
  $('[data-action="abort"]').hidden = !abortable;
  $('[data-action="resign"]').hidden = !live || online.confirming;
  $('[data-action="resign-confirm"]').hidden = !live || !online.confirming;
  $("#online-spectator").hidden = player || v.status.over;
  $("#proposals").replaceChildren(...(player ? [] : online.proposals.map((p) => item(p))));
  const last = v.last_proposals;
  $("#last-proposals-title").textContent = last
    ? "Proposals for move " + last.ply + " (played " + last.played + ")"
    : "";
  $("#last-proposals").replaceChildren(
    ...(last ? last.proposals : []).map((p) => {
      const li = item(p, p.matched ? " ✓ matched" : "");
      li.dataset.matched = p.matched;
      if (p.matched) li.classList.add("matched");
      return li;
    })
  );
  const op = online.opinion && online.opinion.version === v.version ? online.opinion : null;
  $("#opinion").textContent = op ? "Engine: " + op.move.text + " (" + op.score_text + ", depth " + op.depth + "): " + op.pv.join(" ") : "";
}

/** A message about the room other than its state; true if it was one. */
export function receiveOnline(msg) {
  if (msg.type === "proposals") {
    if (msg.room !== online.room) return true;
    online.proposals = msg.proposals;
  } else if (msg.type === "spectators") {
    if (online.view && msg.room === online.room) online.view.spectators = msg.count;
  } else if (msg.type === "opinion") {
    online.opinion = msg;
  } else {
    return false;
  }
  drawPanel();
  return true;
}

setInterval(drawClocks, 100);
