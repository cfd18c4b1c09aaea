// The engine and the rules for the analysis board, the review and the board editor: damka
// compiled to WebAssembly in this thread for the rules (views of positions, the review's
// classification, the editor's check), and a web worker of its own for each searching tool,
// so analysis and review never wait behind the game's own engine (local.js).

import { available, rules } from "/assets/local.js";

const ROOT = new URL("..", import.meta.url);

// The rules' instance and the check for the engine's files are local.js's, shared.
export { available };

/** Calls the WebAssembly function `name` (damka_view, damka_review, damka_setup) with `text`;
 * resolves with its JSON answer, rejects with its error. */
export async function call(name, variant, text) {
  const w = await rules();
  const bytes = new TextEncoder().encode(text);
  const at = w.damka_input(bytes.length);
  new Uint8Array(w.memory.buffer, at, bytes.length).set(bytes);
  w[name](variant === "turkish" ? 1 : 0);
  const out = new Uint8Array(w.memory.buffer, w.damka_output(), w.damka_output_len());
  const v = JSON.parse(new TextDecoder().decode(out));
  if (v.error) throw new Error(v.error);
  return v;
}

/** The view (board, moves, status) after `moves` from `fen` ("" for the usual start). */
export function view(variant, fen, moves) {
  return call("damka_view", variant, [fen || "", moves.join(" "), ""].join("\n"));
}

const FILES = "abcdefgh";

/** The square name of board index `i` (8 * rank + file, a1 first). */
export function squareName(i) {
  return FILES[i % 8] + (Math.floor(i / 8) + 1);
}

/** FEN of a board of 64 characters (w/W white man/king, b/B black, "." empty). */
export function fenOf(board, side) {
  const list = (man, king) => {
    const out = [];
    for (let i = 0; i < 64; i++) {
      if (board[i] === man) out.push(squareName(i));
      else if (board[i] === king) out.push("K" + squareName(i));
    }
    return out.join(",");
  };
  return (side === "black" ? "B" : "W") + ":W" + list("w", "W") + ":B" + list("b", "B");
}

/** What a searching tool needs of the page's game: variant, start FEN and the moves
 * (algebraic) up to `ply` (all when absent). */
export function gameSetup(game, ply) {
  const n = game.moves.length;
  const blackFirst = (game.side === "black") === (n % 2 === 0);
  const fen = fenOf(game.boards[0], blackFirst ? "black" : "white");
  const upto = ply === undefined ? n : ply;
  return { variant: game.variant, fen, moves: game.moves.slice(0, upto).map((m) => m.text) };
}

/** The fields of a Hub `info` line: depth, score (pawns, side to move), pv (Hub), rank. */
export function parseInfo(line) {
  const field = (key) => {
    const m = line.match(new RegExp(`(?:^| )${key}=("[^"]*"|\\S+)`));
    return m ? m[1].replace(/"/g, "") : "";
  };
  return {
    depth: Number(field("depth") || 0),
    score: Number(field("score") || 0),
    pv: field("pv").split(" ").filter((x) => x),
    rank: Number(field("multipv") || 1),
  };
}

/** A worker speaking Hub lines, one search at a time. */
export class Engine {
  constructor() {
    this.worker = new Worker(new URL("damka-worker.js", ROOT));
    this.worker.onmessage = (e) => this.line(String(e.data));
    this.worker.postMessage("hub");
    this.worker.postMessage("init");
    this.job = null;
    this.queue = [];
  }

  line(l) {
    const j = this.job;
    if (!j) return;
    if (l.startsWith("info") && j.onInfo) j.onInfo(parseInfo(l));
    if (l.startsWith("info")) j.last = l;
    if (l.startsWith("done") || l.startsWith("error")) {
      this.job = null;
      j.resolve({ done: l, info: j.last ? parseInfo(j.last) : null });
      this.next();
    }
  }

  next() {
    if (this.job || this.queue.length === 0) return;
    this.job = this.queue.shift();
    for (const l of this.job.lines) this.worker.postMessage(l);
  }

  /** Runs the Hub `lines` (ending with `go`); resolves with {done, info} (null if dropped). */
  search(lines, onInfo) {
    return new Promise((resolve) => {
      this.queue.push({ lines, onInfo, resolve, last: null });
      this.next();
    });
  }

  /** Drops the searches waiting and stops the running one (it still answers). */
  stop() {
    for (const j of this.queue.splice(0)) j.resolve(null);
    if (this.job) this.worker.postMessage("stop");
  }

  /** Ends the worker at once; the running search resolves with null. */
  terminate() {
    this.worker.terminate();
    for (const j of this.queue.splice(0)) j.resolve(null);
    if (this.job) this.job.resolve(null);
    this.job = null;
  }
}

/** The Hub lines that set up a position: the game, then the start and the moves. */
export function positionLines(setup) {
  const moves = setup.moves.join(" ");
  return [`set-param name=variant value=${setup.variant}`, `pos pos="${setup.fen}" moves="${moves}"`];
}

/** The move with `key` from a `done` line. */
export function doneField(line, key) {
  const m = line.match(new RegExp(`(?:^| )${key}=(\\S+)`));
  return m ? m[1] : "";
}

/** The server's engine for a page without the engine in the browser: analysis and review
 * over a WebSocket of its own (the game's connection is app.js's), within the share of the
 * engine the server gives this address. */
export class ServerEngine {
  constructor() {
    this.waiting = new Map(); // reply type -> {resolve, reject, progress}
    this.ready = new Promise((resolve, reject) => {
      const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
      this.socket = new WebSocket(url);
      this.socket.onopen = () => resolve();
      this.socket.onerror = () => reject(new Error("no connection to the server"));
      this.socket.onclose = () => this.fail(new Error("the connection to the server closed"));
      this.socket.onmessage = (e) => this.message(JSON.parse(e.data));
    });
  }

  message(msg) {
    if (msg.type === "review-progress") {
      const w = this.waiting.get("review");
      if (w && w.progress) w.progress(msg.done, msg.total);
      return;
    }
    if (msg.type === "error") {
      // Answers come in order of the requests: the error is the oldest request's.
      const [kind, w] = this.waiting.entries().next().value || [];
      if (!w) return;
      this.waiting.delete(kind);
      w.reject(new Error(msg.message));
      return;
    }
    const w = this.waiting.get(msg.type);
    if (!w) return;
    this.waiting.delete(msg.type);
    w.resolve(msg);
  }

  fail(e) {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }

  async ask(msg, answer, progress) {
    await this.ready;
    if (this.waiting.has(answer)) throw new Error(`a ${msg.type} is already waiting for the server`);
    return new Promise((resolve, reject) => {
      this.waiting.set(answer, { resolve, reject, progress });
      this.socket.send(JSON.stringify(msg));
    });
  }

  /** The best lines of the position after `setup`'s moves: {ply, depth, lines}. */
  analyse(setup, lines) {
    return this.ask({ type: "analyse", variant: setup.variant, fen: setup.fen, moves: setup.moves, lines }, "analysis");
  }

  /** The review of `setup`'s game (kept with server game `game`, if given). */
  review(setup, game, progress) {
    const msg = { type: "review", variant: setup.variant, fen: setup.fen, moves: setup.moves };
    if (game) msg.game = game;
    return this.ask(msg, "review", progress);
  }

  /** Stops the running review. */
  cancel() {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: "review-cancel" }));
  }

  close() {
    this.socket.close();
  }
}
