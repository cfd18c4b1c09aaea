// Local games in the browser: against the engine or hot seat, with no server at all. The
// rules (legal moves with their paths, notation, the end of the game, PDN) come from damka's
// own code compiled to WebAssembly (damka.wasm, instantiated here), and the engine runs in a
// web worker (damka-worker.js) that speaks Hub lines. Both load lazily, at the first local
// game. This module answers the page's requests (new, join, move, undo, hint) with the same
// messages damka-web sends (state, owner, hint, error), so app.js draws both alike.

const GAMES_KEY = "damka-local-games";
// A local game's id starts with this, so the page knows where to send its requests.
export const PREFIX = "local-";
const HINT_MAX_TIME = 2;
const ROOT = new URL("..", import.meta.url);

let availablePromise = null;

/** Whether this browser can run the engine itself: WebAssembly and workers, and the engine's
 * files served beside the page (a static copy of target/wasm/, or damka-web given them). */
export function available() {
  if (!availablePromise) {
    availablePromise =
      typeof WebAssembly !== "object" || typeof Worker !== "function"
        ? Promise.resolve(false)
        : fetch(new URL("damka-worker.js", ROOT), { method: "HEAD" }).then((r) => r.ok, () => false);
  }
  return availablePromise;
}

let rulesPromise = null;

/** damka.wasm in this thread, for the rules (the search never runs here); shared with the
 * analysis tools (engine-tools.js), so the page instantiates it once. */
export function rules() {
  if (!rulesPromise) {
    const env = { damka_now_ms: () => Date.now(), damka_yield: () => {} };
    rulesPromise = fetch(new URL("damka.wasm", ROOT))
      .then((r) => {
        if (!r.ok) throw new Error("damka.wasm: HTTP " + r.status);
        return r.arrayBuffer();
      })
      .then((bytes) => WebAssembly.instantiate(bytes, { env }))
      .then((m) => m.instance.exports);
  }
  return rulesPromise;
}

/** The view of a game from its start and moves (and `play`: `text ...` or `path ...`). */
async function view(g, play) {
  const w = await rules();
  const request = [g.fen || "", g.moves.join(" "), play || ""].join("\n");
  const bytes = new TextEncoder().encode(request);
  const at = w.damka_input(bytes.length);
  new Uint8Array(w.memory.buffer, at, bytes.length).set(bytes);
  w.damka_view(g.variant === "turkish" ? 1 : 0);
  const out = new Uint8Array(w.memory.buffer, w.damka_output(), w.damka_output_len());
  const v = JSON.parse(new TextDecoder().decode(out));
  if (v.error) throw new Error(v.error);
  return v;
}

// The engine: one worker, one search at a time, answered in order.
let worker = null;
let waiting = null; // {resolve, lines} of the running search
const searches = [];

function engineLine(line) {
  if (!waiting) return;
  waiting.lines.push(line);
  if (line.startsWith("done") || line.startsWith("error")) {
    const w = waiting;
    waiting = null;
    w.resolve(w.lines);
    nextSearch();
  }
}

function nextSearch() {
  if (waiting || searches.length === 0) return;
  const s = searches.shift();
  waiting = { resolve: s.resolve, lines: [] };
  for (const line of s.lines) worker.postMessage(line);
}

/** Runs one search (Hub lines ending with `go`); resolves with the lines it answered. */
function search(lines) {
  if (!worker) {
    worker = new Worker(new URL("damka-worker.js", ROOT));
    worker.onmessage = (e) => engineLine(e.data);
    worker.postMessage("hub");
    worker.postMessage("init");
  }
  return new Promise((resolve) => {
    searches.push({ lines, resolve });
    nextSearch();
  });
}

/** The engine's answer in `g`: best move (Hub), score (centi-men for the side to move), depth
 * and principal variation (Hub). */
async function think(g, movetime, skill) {
  const setup = (g.fen ? `pos pos="${g.fen}"` : "pos start") + ` moves="${g.moves.join(" ")}"`;
  const lines = await search([
    `set-param name=variant value=${g.variant}`,
    `set-param name=skill value=${skill}`,
    setup,
    `level move-time=${movetime}`,
    "go think",
  ]);
  const done = lines.find((l) => l.startsWith("done"));
  if (!done) throw new Error((lines.pop() || "no answer").replace(/^error message=/, ""));
  const info = lines.filter((l) => l.startsWith("info")).pop() || "";
  const field = (line, key) => {
    const m = line.match(new RegExp(`(?:^| )${key}=("[^"]*"|\\S+)`));
    return m ? m[1].replace(/"/g, "") : "";
  };
  return {
    move: field(done, "move"),
    score: Math.round(Number(field(info, "score") || 0) * 100),
    depth: Number(field(info, "depth") || 0),
    pv: field(info, "pv").split(" ").filter((x) => x),
  };
}

// The games of this browser, kept in localStorage so that they outlive a reload.
function load() {
  try {
    return JSON.parse(localStorage.getItem(GAMES_KEY)) || {};
  } catch (e) {
    return {};
  }
}

const games = load();

function save() {
  try {
    // Only the twenty most recent: storage is small.
    const ids = Object.keys(games).sort((a, b) => games[b].used - games[a].used);
    for (const id of ids.slice(20)) delete games[id];
    localStorage.setItem(GAMES_KEY, JSON.stringify(games));
  } catch (e) {
    // Storage refused (private mode): the game lives as long as the page.
  }
}

function engineToMove(g, v) {
  return g.opponent === "engine" && !v.status.over && v.side !== g.color;
}

/** The page's state message of game `g` with view `v`. */
function stateOf(g, v) {
  return {
    type: "state",
    game: Object.assign({}, v, {
      id: g.id,
      version: g.version,
      opponent: g.opponent,
      color: g.color,
      skill: g.skill,
      movetime: g.movetime,
      can_move: !v.status.over && !engineToMove(g, v),
      thinking: g.thinking,
      notice: g.notice || null,
    }),
  };
}

/** Sends the game's state, and lets the engine move when it is its turn. */
async function changed(g, reply) {
  g.used = Date.now();
  g.version += 1;
  save();
  const v = await view(g);
  if (engineToMove(g, v) && !g.thinking) {
    g.thinking = true;
    reply(stateOf(g, v));
    const version = g.version;
    let found = null;
    try {
      found = await think(g, g.movetime, g.skill);
    } catch (e) {
      g.notice = "the engine failed: " + e.message;
    }
    g.thinking = false;
    // An undo or a new game while it thought: the answer is for a position that is gone.
    if (g.version !== version) return;
    if (!found) {
      // Said once, not tried again and again (a file of the engine missing would fail every
      // time): reopening the game tries again.
      reply(stateOf(g, v));
      return;
    }
    try {
      const after = await view(g, "text " + found.move);
      g.moves.push(after.played);
      g.notice = null;
    } catch (e) {
      g.notice = "the engine's move " + found.move + " was refused: " + e.message;
      reply(stateOf(g, v));
      return;
    }
    return changed(g, reply);
  }
  reply(stateOf(g, v));
}

let counter = 0;

async function start(msg, reply) {
  const id = PREFIX + Date.now().toString(36) + (counter++).toString(36);
  const g = {
    id,
    variant: msg.variant === "turkish" ? "turkish" : "russian",
    opponent: msg.opponent === "human" ? "human" : "engine",
    color: msg.color === "black" ? "black" : "white",
    skill: Number(msg.skill) || 10,
    movetime: Number(msg.movetime) || 1,
    fen: "",
    moves: [],
    version: 0,
    used: Date.now(),
  };
  if (msg.pdn) throw new Error("PDN import needs the server; paste a FEN instead");
  if (msg.fen) {
    g.fen = msg.fen.trim();
    const v = await view(g);
    g.fen = v.start_fen;
  }
  games[id] = g;
  // Local games need no secret: only this browser has them.
  reply({ type: "owner", game: id, token: "local" });
  await changed(g, reply);
}

async function hint(msg, g, reply) {
  const v = await view(g);
  if (v.status.over) throw new Error("the game is over");
  const version = g.version;
  const found = await think(g, Math.min(g.movetime, HINT_MAX_TIME), 10);
  // The line in algebraic notation: the moves played on a copy of the game.
  const line = await view(Object.assign({}, g, { moves: g.moves.concat(found.pv) })).catch(() => null);
  const played = line ? line.moves.slice(g.moves.length).map((m) => m.text) : [];
  const mv = v.legal.find((m) => m.hub === found.move);
  if (!mv) throw new Error("the engine's move is not legal");
  const white = v.side === "white" ? found.score : -found.score;
  reply({
    type: "hint",
    purpose: msg.purpose || "hint",
    game: g.id,
    version,
    move: mv,
    score: found.score,
    white_score: white,
    score_text: (found.score >= 0 ? "+" : "") + (found.score / 100).toFixed(2),
    depth: found.depth,
    pv: played,
  });
}

/** Whether `msg` is for a local game (or starts one while local play is on). */
export function handles(msg, localPlay) {
  // A game with clocks is played on the server: the server keeps the time.
  if (msg.type === "new") return localPlay && msg.opponent !== "online" && !(msg.time > 0);
  return typeof msg.game === "string" && msg.game.startsWith(PREFIX);
}

/** Answers a request for a local game through `reply` (the page's receive). */
export async function request(msg, reply) {
  try {
    if (msg.type === "new") return await start(msg, reply);
    const g = games[msg.game];
    if (!g) throw new Error("unknown game " + msg.game);
    if (msg.type === "join") {
      g.thinking = false;
      return await changed(g, reply);
    }
    if (msg.type === "hint") return await hint(msg, g, reply);
    if (g.thinking) throw new Error("not your turn: the engine is thinking");
    if (msg.type === "move") {
      const v = await view(g);
      if (engineToMove(g, v)) throw new Error("not your turn");
      const play = msg.path ? "path " + msg.path.join(" ") : "text " + msg.move;
      const after = await view(g, play);
      g.moves.push(after.played);
      return await changed(g, reply);
    }
    if (msg.type === "undo") {
      if (g.moves.length === 0) throw new Error("nothing to take back");
      g.moves.pop();
      // Against the engine: back to the person's turn.
      while (g.opponent === "engine" && g.moves.length > 0 && (await view(g)).side !== g.color) g.moves.pop();
      return await changed(g, reply);
    }
    throw new Error("not available in local play: " + msg.type);
  } catch (e) {
    reply({ type: "error", message: e.message });
  }
}

/** The PDN of a local game. */
export async function pdn(id) {
  const g = games[id];
  return g ? (await view(g)).pdn : "";
}

/** Saves the PDN of a local game as a file. */
export async function downloadPdn(id) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([await pdn(id)], { type: "application/x-chess-pdn" }));
  a.download = "damka-" + id + ".pdn";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

const PLACE_KEY = "damka-engine";
let place = null;
let here = false;

/** Whether this browser can play local games itself (known once setup has resolved). */
export function able() {
  return here;
}

/** Whether local games are played in this browser now (able, and the setting says so). */
export function chosen() {
  return here && place !== null && place.value === "browser";
}

/** Sets up the setting `select` (in this browser / on the server, remembered); resolves
 * with whether local play is on. `connect` opens the server connection when the setting
 * turns to the server. */
export async function setup(select, connect) {
  place = select;
  try {
    place.value = localStorage.getItem(PLACE_KEY) || "browser";
  } catch (e) {
    place.value = "browser";
  }
  place.addEventListener("change", () => {
    try {
      localStorage.setItem(PLACE_KEY, place.value);
    } catch (e) {
      // Not remembered (private mode).
    }
    if (!chosen()) connect();
  });
  here = await available();
  place.disabled = !here;
  if (!here) place.value = "server";
  return chosen();
}
