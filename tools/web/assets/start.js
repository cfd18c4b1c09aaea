// damka-web's start: the new-game form (only the fields that apply to the chosen opponent are
// shown, and without a server only what works without one), the last local game of this browser (opened again on the next visit instead of a
// game nobody asked for) and a rematch's settings.

const $ = (sel) => document.querySelector(sel);
const form = $("#new-game");
const LAST_KEY = "damka-last-game";
const FORM_KEY = "damka-form";
// The form's settings this browser remembers (the place to play is local.js's).
const REMEMBERED = ["variant", "opponent", "color", "clock", "skill", "movetime"];
const tokenKey = (id) => "damka-game-" + id;

function storage(fn) {
  try {
    return fn(window.localStorage);
  } catch (e) {
    return null; // storage refused (private mode): nothing is remembered
  }
}

let serverHere = true;

/** Whether the page has a server: without one, whatever needs it (online rooms, and what is
 *  marked data-server: clocks, which the server keeps, the choice of where to play, the lobby)
 *  is hidden and cannot be chosen. */
export function setServer(present) {
  serverHere = present;
  const online = form.elements.opponent.querySelector('option[value="online"]');
  for (const el of [online, ...document.querySelectorAll("[data-server]")]) {
    el.hidden = !present;
    if (el.tagName === "OPTION") el.disabled = !present;
  }
  if (!present) {
    if (form.elements.opponent.value === "online") form.elements.opponent.value = "engine";
    form.elements.clock.value = "none";
  }
  showFields();
}

/** Shows the form's fields and clock choices that apply to its opponent (data-for lists the
 *  opponents); the engine's time per move only without a clock (with one it plays by it). */
export function showFields() {
  const opponent = form.elements.opponent.value;
  for (const el of form.querySelectorAll("[data-for]")) {
    el.hidden = !el.dataset.for.split(" ").includes(opponent) || (!serverHere && "server" in el.dataset);
  }
  // An online room always has a clock: "No clock" gives way to the usual one.
  const clock = form.elements.clock;
  if (clock.selectedOptions[0] && clock.selectedOptions[0].hidden) clock.value = "300+3";
  const unclocked = form.querySelector("[data-unclocked]");
  if (!unclocked.hidden) unclocked.hidden = clock.value !== "none";
}

/** The form's clock as seconds {time, increment}, or null for "No clock". */
export function clockValues() {
  const value = form.elements.clock.value;
  if (value === "none") return null;
  const [time, increment] = value.split("+").map(Number);
  return { time, increment };
}

/** Remembers the form's settings and the evaluation switch in this browser. */
export function saveForm() {
  const kept = {};
  for (const name of REMEMBERED) kept[name] = form.elements[name].value;
  kept.eval = document.querySelector("#eval-toggle").checked;
  storage((s) => s.setItem(FORM_KEY, JSON.stringify(kept)));
}

// The settings remembered, each only if the form still offers it.
function restoreForm() {
  let kept = null;
  try {
    kept = JSON.parse(storage((s) => s.getItem(FORM_KEY)) || "null");
  } catch (e) {
    kept = null; // damaged: the defaults
  }
  if (!kept || typeof kept !== "object") return;
  for (const name of REMEMBERED) {
    const field = form.elements[name];
    const value = String(kept[name]);
    if ([...field.options].some((o) => o.value === value)) field.value = value;
  }
  document.querySelector("#eval-toggle").checked = kept.eval === true;
}

/** Folds the form away (a game is being played; the New game button brings it back). */
export function hideForm() {
  form.hidden = true;
}

/** Shows the form; `focus`: and takes the person to it (the New game button). */
export function showForm(focus) {
  form.hidden = false;
  showFields();
  if (focus) {
    form.scrollIntoView({ block: "nearest" });
    form.elements.variant.focus({ preventScroll: true });
  }
}

/** The id of the last local game this browser played, if any. */
export function lastGame() {
  return storage((s) => s.getItem(LAST_KEY));
}

export function rememberGame(game) {
  if (game && game.id && gameToken(game.id)) storage((s) => s.setItem(LAST_KEY, game.id));
}

/** The owner's secret of local game `id`, if this browser started it. */
export function gameToken(id) {
  return storage((s) => s.getItem(tokenKey(id)));
}

/** Keeps the owner's secret the server gave for a game this browser started. */
export function keepToken(id, token) {
  storage((s) => s.setItem(tokenKey(id), token));
}

export function forgetGame() {
  storage((s) => s.removeItem(LAST_KEY));
}

/** The settings of a rematch of `game`: the same ones, colours swapped. */
export function rematchValues(game) {
  const values = {
    variant: game.variant,
    opponent: game.opponent,
    skill: game.skill,
    movetime: game.movetime,
    // The same clock, or none (whatever the form says now).
    time: game.time ? game.time[0] : null,
    increment: game.time ? game.time[1] : null,
  };
  if (game.opponent === "engine") values.color = game.color === "white" ? "black" : "white";
  return values;
}

// The typed-move box's examples, in the notation of `variant`.
export function movePlaceholder(variant) {
  document.querySelector("#move-input").placeholder = variant === "turkish" ? "d3-d4, d3xd5 or 10-14" : "c3-d4, c3:e5:g7 or 10-14";
}

// A game arrived to be played or watched: the form folds away (the New game button brings
// it back) and the board comes wholly into view, whatever the page was scrolled to.
export function began(game) {
  document.body.classList.remove("choosing");
  if (!game.status.over) hideForm();
  movePlaceholder(game.variant);
  requestAnimationFrame(boardInView);
}

// Scrolls the page so that the clocks, the board and the status are wholly on screen: to the
// top when they fit below the header (a phone's layout), else to the board's section.
function boardInView() {
  const bottom = document.querySelector("#status").getBoundingClientRect().bottom + window.scrollY;
  if (bottom <= window.innerHeight) window.scrollTo(0, 0);
  else document.querySelector(".play").scrollIntoView({ block: "start" });
}

form.elements.opponent.addEventListener("change", showFields);
form.elements.clock.addEventListener("change", showFields);
form.addEventListener("change", saveForm);
document.querySelector("#eval-toggle").addEventListener("change", saveForm);
restoreForm();
showFields();
movePlaceholder(form.elements.variant.value);
