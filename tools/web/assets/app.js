// damka-web page: talks to the server over one WebSocket (see README, "Web page"), draws the
// game with DraughtsBoard and keeps no rules of its own: legal moves, the result and the
// notation all come from the server, or for a game played in this browser from local.js
// (damka compiled to WebAssembly), which answers with the same messages. A view lists the
// moves played, not a board per move: the page rebuilds the earlier positions from the start
// board (see replay in board.js).

import { DraughtsBoard, squareIndex, playedMove, replay } from "/assets/board.js";
import * as room from "/assets/online.js";
import * as feel from "/assets/feel.js";
import { animateMove } from "/assets/animate.js";
import { drawMoveList, afterMove } from "/assets/moves.js";
import { resultWords, refusal, typedRefusal } from "/assets/words.js";
import * as start from "/assets/start.js";
import * as local from "/assets/local.js";
import * as net from "/assets/offline.js";
import "/assets/analysis.js";

const $ = (sel) => document.querySelector(sel);
const statusEl = $("#status");
const movesEl = $("#moves");
const analysisEl = $("#analysis");
const form = $("#new-game");
const chooser = $("#choose");

let socket = null;
let game = null; // the last state from the server
let viewing = null; // a ply looked back at, or null for the current position
let flipped = false;
let hint = null; // the hint shown, for game.version
let evaluation = null; // the last evaluation, for game.version
let lastError = "";
let mustCapture = []; // squares marked after a refused touch, until the next redraw of a move
let typed = null; // a typed move sent, kept in its box until the server plays it
let offline = null; // a move made while disconnected: {msg, move, plies}, sent on reconnect
let retryDelay = 500; // ms before the next connection attempt, doubled up to 8 s
const pendingRequests = [];

const board = new DraughtsBoard($("#board"), {
  onMove: (mv) => sendMove({ path: [mv.from, ...mv.path] }, mv),
  onChoose: (moves, pick) => choose(moves, pick),
  onRefuse: (square, from) => refused(square, from),
});

function connected() {
  return socket && socket.readyState === WebSocket.OPEN;
}

// Games against the engine and hot seat run in this browser (local.js) unless the settings
// say "on the server" or the browser cannot (no WebAssembly, or the engine's files are not
// served beside the page).
const localPlay = local.chosen;

function send(msg) {
  lastError = "";
  if (local.handles(msg, localPlay())) {
    local.request(msg, receive);
    return;
  }
  if (net.serverless() && !connected()) {
    // Nothing that needs a server is offered without one: this is a leftover, said once.
    lastError = "that needs the server, and there is none";
    return game ? draw() : drawStatus();
  }
  if (connected()) {
    socket.send(JSON.stringify(msg));
  } else {
    pendingRequests.push(msg);
    connect();
  }
}

// A move of the page: in a room a player's move or a spectator's proposal. Made while
// disconnected, it is drawn as pending and sent when the connection is back.
function sendMove(move, view) {
  if (!game) return;
  let msg;
  if (room.online.room) {
    const type = room.online.role === "spectator" ? "propose" : "play";
    msg = Object.assign({ type, room: room.online.room }, move);
  } else {
    msg = Object.assign({ type: "move", game: game.id, token: start.gameToken(game.id) }, move);
  }
  mustCapture = [];
  const isLocal = local.handles(msg, localPlay());
  if (!isLocal && !connected() && view && msg.type !== "propose") {
    offline = { msg, move: view, plies: game.moves.length };
    lastError = "";
    draw();
    connect();
    return;
  }
  send(msg);
}

// A touch or click that plays nothing: the reason in the status line, and the pieces that
// must capture marked.
function refused(square, from) {
  if (!game) return;
  const live = viewing === null;
  const mover = live && game.can_move && !offline ? moverNow() : null;
  let why = null;
  if (!live) why = "you are looking at an earlier move: click the last move to go back";
  else if (game.status.over) why = "the game is over";
  else if (offline) why = "wait until your move is sent";
  else if (game.thinking) why = "not your turn: the engine is thinking";
  else if (!owned()) why = READ_ONLY;
  const shown = game.boards[viewing === null ? game.moves.length : viewing];
  const r = refusal(game, shown, square, from, mover, why);
  if (!r) return;
  mustCapture = r.mustCapture;
  lastError = r.text;
  feel.sound("refused");
  draw();
}

const READ_ONLY = "this game belongs to the browser that started it: you are watching it";

// Whether this page may play the game: a room (its seat decides), or a local game this
// browser started (it holds the game's secret).
function owned() {
  return Boolean(room.online.room || (game && start.gameToken(game.id)));
}

// Whether the person at this page is to move (a spectator's proposal is not a move).
function myTurn() {
  if (!game || game.status.over || !game.can_move || offline || !owned()) return false;
  if (room.online.room) return room.online.role === game.side;
  return game.opponent !== "engine" || game.side === game.color;
}

// The colour this page may move now, or null.
function moverNow() {
  if (!game || !game.can_move || game.status.over || !owned()) return null;
  if (room.online.room) return room.online.role === "spectator" ? game.side : room.online.role;
  return game.side;
}

function formValues() {
  const f = new FormData(form);
  const clock = start.clockValues();
  return {
    variant: f.get("variant"),
    opponent: f.get("opponent"),
    color: f.get("color"),
    skill: Number(f.get("skill")),
    movetime: Number(f.get("movetime")),
    time: clock ? clock.time : null,
    increment: clock ? clock.increment : null,
  };
}

// The page's game of a view: every move with its squares, and every board of the game
// rebuilt from the start (the server sends the board now only, which the last one must be).
function withBoards(view) {
  const moves = view.moves.map(playedMove);
  const boards = replay(view.start, moves);
  if (boards[boards.length - 1] !== view.board) {
    // Counted for the browser tests (window.damkaReplayMismatches); the server's board wins.
    window.damkaReplayMismatches = (window.damkaReplayMismatches || 0) + 1;
    console.warn("damka: the moves replayed do not give the server's board", view.id);
    boards[boards.length - 1] = view.board;
  }
  return Object.assign({}, view, { moves, boards });
}

// Whose low time this page warns of in a local game: the person's against the engine, the
// side to move in hot seat (both players are here).
function clockOwner() {
  if (!game) return null;
  return game.opponent === "engine" ? game.color : game.running;
}

function startGame(extra) {
  const values = Object.assign(formValues(), extra || {});
  offline = null;
  if (values.opponent === "online") {
    const { time, increment } = start.clockValues() || {};
    const create = { type: "create", variant: values.variant, color: values.color, time, increment };
    if (values.fen) create.fen = values.fen;
    send(create);
    return;
  }
  if (values.color === "random") values.color = Math.random() < 0.5 ? "white" : "black";
  if (values.time === null) {
    delete values.time;
    delete values.increment;
  }
  send(Object.assign({ type: "new" }, values));
}

let retryTimer = null;

function connect() {
  if (socket && socket.readyState <= WebSocket.OPEN) return;
  if (retryTimer) {
    clearTimeout(retryTimer);
    retryTimer = null;
  }
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  socket = new WebSocket(url);
  socket.addEventListener("open", () => {
    net.reached();
    retryDelay = 500;
    $("#connection").textContent = "connected";
    $("#connection").classList.add("online");
    const id = location.hash.slice(1);
    const inRoom = room.online.room || room.roomFromPath();
    // Back in a room after a reload or a dropped connection: the same seat, by its token,
    // before anything waiting to be sent.
    if (inRoom) socket.send(JSON.stringify(room.enterMessage(inRoom)));
    if (pendingRequests.length > 0) {
      while (pendingRequests.length) socket.send(JSON.stringify(pendingRequests.shift()));
    } else if (inRoom) {
      // Entered already.
    } else if (game) {
      socket.send(JSON.stringify({ type: "join", game: game.id }));
    } else if (id || start.lastGame()) {
      // A game's link, or the last game this browser played: never one nobody asked for.
      socket.send(JSON.stringify({ type: "join", game: id || start.lastGame() }));
    } else {
      start.showForm();
      drawStatus();
    }
    if (offline) socket.send(JSON.stringify(offline.msg));
    draw();
  });
  socket.addEventListener("message", (e) => receive(JSON.parse(e.data)));
  socket.addEventListener("close", () => {
    $("#connection").textContent = "disconnected, retrying";
    $("#connection").classList.remove("online");
    draw();
    // Back-off, so that a server that is down is not called ten times a second.
    retryTimer = setTimeout(connect, retryDelay);
    retryDelay = Math.min(8000, retryDelay * 2);
  });
}

// A state that holds more moves than the one shown: the new move is animated and heard, and
// the end of the game is heard.
function arrived(before, after) {
  if (!before || before.id !== after.id) return;
  const n = before.moves.length;
  if (after.moves.length === n + 1 && viewing === null) {
    const mv = after.moves[n];
    const from = before.boards[n][squareIndex(mv.from)];
    const to = after.boards[n + 1][squareIndex(mv.path[mv.path.length - 1])];
    board.pendingAnimation = [mv, before.boards[n]];
    if (from !== to) feel.sound("crown");
    else feel.sound(mv.captured.length > 0 ? "capture" : "move");
  }
  if (!before.status.over && after.status.over) feel.sound("end");
}

// The server's answer settles a move made offline: played (the list grew) or, at an error,
// taken back with the reason.
function settleOffline(next) {
  if (offline && next.moves.length > offline.plies) offline = null;
}

// A typed move stays in its box until the server has played it.
function settleTyped(next, before) {
  if (typed && before && next.moves.length > before.moves.length) {
    const input = $("#move-input");
    if (input.value.trim() === typed) input.value = "";
    typed = null;
  }
}

function receive(msg) {
  if (msg.type === "seat") {
    // A seat comes first on every entry: the room's versions count anew after a restart.
    game = null;
    room.takeSeat(msg);
    flipped = msg.role === "black";
  } else if (msg.type === "room") {
    if (msg.room.id !== room.online.room) return;
    if (game && game.id === msg.room.id && msg.room.version < game.version) return;
    if (game && game.id === msg.room.id && msg.room.moves.length !== game.moves.length) viewing = null;
    const before = game;
    game = withBoards(room.asGame(msg.room));
    arrived(before, game);
    settleOffline(game);
    settleTyped(game, before);
    draw();
  } else if (msg.type === "owner") {
    start.keepToken(msg.game, msg.token);
  } else if (room.receiveOnline(msg)) {
    return;
  } else if (msg.type === "state") {
    if (room.online.room) room.leave();
    const fresh = !game || game.id !== msg.game.id;
    if (!game || fresh || msg.game.version >= game.version) {
      if (fresh) {
        viewing = null;
        // Against the engine the person's colour is at the bottom.
        flipped = msg.game.opponent === "engine" && msg.game.color === "black";
      }
      if (game && game.id === msg.game.id && msg.game.moves.length !== game.moves.length) {
        viewing = null;
      }
      const before = game;
      game = withBoards(msg.game);
      room.showClocks(game, clockOwner);
      arrived(before, game);
      settleOffline(game);
      settleTyped(game, before);
      start.rememberGame(game);
      if (location.hash.slice(1) !== game.id) history.replaceState(null, "", "#" + game.id);
      draw();
      requestEvaluation();
    }
  } else if (msg.type === "hint") {
    if (!game || msg.game !== game.id || msg.version !== game.version) return;
    if (msg.purpose === "eval") {
      evaluation = msg;
    } else {
      hint = msg;
      evaluation = msg;
    }
    draw();
  } else if (msg.type === "error") {
    const inRoom = room.roomFromPath();
    if (inRoom && /stale or forged token/.test(msg.message)) {
      // The seat this browser kept is not one the server knows: watch instead.
      room.forgetToken(inRoom);
      send(room.enterMessage(inRoom));
    }
    if (!game && /unknown game/.test(msg.message) && !inRoom) {
      // The link or the remembered game is gone: the form, not a game nobody asked for.
      history.replaceState(null, "", location.pathname);
      start.forgetGame();
      start.showForm();
      lastError = msg.message;
      drawStatus();
      return;
    }
    if (offline) {
      lastError = "your move " + offline.move.text + " was not played: " + msg.message;
      offline = null;
    } else {
      lastError = typed ? typedRefusal(game, msg.message) : msg.message;
      typed = null;
    }
    if (/^illegal move/.test(msg.message)) feel.sound("refused");
    draw();
  }
}

function requestEvaluation() {
  if (room.online.room) return;
  if (!$("#eval-toggle").checked || !game || game.status.over || game.thinking) return;
  if (evaluation && evaluation.version === game.version) return;
  send({ type: "hint", game: game.id, purpose: "eval" });
}

function current(version) {
  return version && game && version.version === game.version ? version : null;
}

function draw() {
  if (!game) return;
  const ply = viewing === null ? game.moves.length : viewing;
  const live = viewing === null;
  const shownHint = live ? current(hint) : null;
  const pendingMove = live && offline ? offline.move : null;
  board.set({
    playable: game.playable,
    board: pendingMove ? afterMove(game.boards[ply], pendingMove) : game.boards[ply],
    legal: live && game.can_move && !pendingMove && owned() ? game.legal : [],
    lastMove: pendingMove || (ply > 0 ? game.moves[ply - 1] : null),
    hint: shownHint ? shownHint.move : null,
    flipped: flipped,
    mustCapture: live ? mustCapture : [],
    pending: pendingMove ? [pendingMove.from, pendingMove.path[pendingMove.path.length - 1]] : [],
  });
  if (board.pendingAnimation) {
    const [mv, before] = board.pendingAnimation;
    board.pendingAnimation = null;
    animateMove(board, mv, before);
  }
  drawMoves(ply);
  drawStatus();
  drawEvaluation();
  drawResult();
  feel.setYourMove(live && myTurn());
  room.drawClocks();
  if (room.online.room) room.drawPanel();
  document.dispatchEvent(new CustomEvent("damka:drawn", { detail: { game, ply, board, showPly, redraw: draw } }));
}

function drawMoves(ply) {
  drawMoveList(movesEl, game.moves, ply, game.boards.length > 0 && startsWithBlack());
}

// The banner at the end of a game: the result in words and what to do next.
function drawResult() {
  const over = game && game.status.over && viewing === null;
  $("#result").hidden = !over;
  if (!over) return;
  $("#result-text").textContent = resultWords(game.status) + " (" + game.status.result + ")";
  // A rematch of an online game needs both players' consent, which the server does not
  // negotiate yet: offered for local games only.
  $('[data-action="rematch"]').hidden = Boolean(room.online.room);
}

// Whether Black made the game's first move: the side to move at the start, worked out from
// the side to move now and the number of moves.
function startsWithBlack() {
  const n = game.moves.length;
  return (game.side === "black") === (n % 2 === 0);
}

function drawStatus() {
  if (!game) {
    let ready = connected() ? "Choose a game and press Start" : "Connecting to the server";
    if (net.serverless()) ready = net.sentence(localPlay());
    statusEl.textContent = lastError ? lastError + ". " + ready : ready;
    return;
  }
  let text;
  if (room.online.room) {
    text = room.statusText(game);
  } else if (game.status.over) {
    text = "Game over: " + game.status.text + ", " + game.status.result;
  } else if (game.thinking) {
    text = game.status.text + ": the engine is thinking";
  } else if (game.opponent === "engine") {
    text = game.side === game.color ? "Your move (" + game.side + ")" : game.status.text;
  } else {
    text = game.status.text;
  }
  if (!room.online.room && !owned()) text += ". Read-only: " + READ_ONLY;
  if (viewing !== null) {
    text += ". Looking at move " + viewing + " of " + game.moves.length + " (click the last move to go back)";
  }
  if (game.notice) text += ". " + game.notice;
  if (offline) {
    text += ". Not connected: your move " + offline.move.text + " is pending and will be sent when the connection is back";
  }
  if (lastError) text += ". " + lastError;
  statusEl.textContent = text;
}

function drawEvaluation() {
  const on = $("#eval-toggle").checked;
  const ev = current(evaluation);
  const h = current(hint);
  $("#evalbar").hidden = !on;
  const parts = [];
  if (h) parts.push("Hint: " + h.move.text);
  if (on && ev) {
    const share = 1 / (1 + Math.exp(-ev.white_score / 150));
    // White's share of the bar is on White's side of the board.
    $("#evalbar").classList.toggle("flipped", flipped);
    $("#evalfill").style.height = (share * 100).toFixed(1) + "%";
    const forWhite = ev.white_score >= 0 ? "+" : "";
    parts.push("White " + forWhite + (ev.white_score / 100).toFixed(2) + " (" + ev.score_text + " for " + game.side + ", depth " + ev.depth + "): " + ev.pv.join(" "));
  }
  analysisEl.textContent = parts.join("  |  ");
}

function choose(moves, pick) {
  const box = $("#choices");
  box.replaceChildren(
    ...moves.map((m) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = m.text + " (takes " + m.captured.join(", ") + ")";
      b.dataset.move = m.text;
      b.addEventListener("click", () => {
        chooser.close();
        pick(m);
      });
      return b;
    })
  );
  chooser.showModal();
}

function showPly(ply) {
  if (!game) return;
  viewing = ply >= game.moves.length ? null : Math.max(0, ply);
  draw();
}

function downloadPdn() {
  if (!game) return;
  if (game.id.startsWith(local.PREFIX)) return local.downloadPdn(game.id);
  const a = document.createElement("a");
  const kind = room.online.room ? "/api/rooms/" : "/api/games/";
  a.href = kind + encodeURIComponent(game.id) + "/pdn";
  a.download = "damka-" + game.id + ".pdn";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

function importGame() {
  const text = $("#import-text").value.trim();
  if (!text) return;
  // A FEN is one line with colons; anything else is read as PDN.
  const isFen = /^[WB]:/i.test(text) && !text.includes("[");
  startGame(isFen ? { fen: text } : { pdn: text });
}

const actions = {
  undo: () => game && send({ type: "undo", game: game.id, token: start.gameToken(game.id) }),
  hint: () => game && !game.status.over && send({ type: "hint", game: game.id, purpose: "hint" }),
  flip: () => {
    flipped = !flipped;
    draw();
  },
  pdn: downloadPdn,
  import: importGame,
  rematch: () => game && startGame(start.rematchValues(game)),
  new: () => start.showForm(true),
  mute: feel.toggleMute,
  theme: feel.toggleTheme,
  "copy-link": feel.copyLink,
  resign: () => room.online.room && confirmResign() && send({ type: "resign", room: room.online.room }),
  draw: () => room.online.room && send({ type: "draw", room: room.online.room }),
  decline: () => room.online.room && send({ type: "decline", room: room.online.room }),
  opinion: () => room.online.room && send({ type: "opinion", room: room.online.room }),
};

// Resigning ends the game: asked once more, unless the page is driven by a test (the
// dialog would block it).
function confirmResign() {
  return navigator.webdriver || window.confirm("Resign this game?");
}

document.addEventListener("click", (e) => {
  const el = e.target.closest("[data-action]");
  if (el && actions[el.dataset.action]) {
    e.preventDefault();
    actions[el.dataset.action]();
  }
  const li = e.target.closest("#moves li");
  if (li) showPly(Number(li.dataset.ply));
});

$("#eval-toggle").addEventListener("change", () => {
  draw();
  requestEvaluation();
});

form.addEventListener("submit", (e) => {
  e.preventDefault();
  startGame();
});

$("#keyboard").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("#move-input");
  const text = input.value.trim();
  if (!text || !game) return;
  typed = text;
  sendMove({ move: text });
});

document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
  // On the board the arrow keys move its cursor (board.js).
  if (e.target.closest("#board")) return;
  if (!game) return;
  const ply = viewing === null ? game.moves.length : viewing;
  const keys = {
    ArrowLeft: () => showPly(ply - 1),
    ArrowRight: () => showPly(ply + 1),
    Home: () => showPly(0),
    End: () => showPly(game.moves.length),
    f: actions.flip,
    h: room.online.room ? () => {} : actions.hint,
    u: room.online.room ? () => {} : actions.undo,
    Escape: () => board.clearSelection(),
  };
  if (keys[e.key]) {
    e.preventDefault();
    keys[e.key]();
  }
});

net.keep();
net.onBack(() => {
  $("#connection").textContent = localPlay() ? "engine in this browser" : "connecting";
  if (!localPlay()) connect();
  drawStatus();
});
Promise.all([local.setup($("#engine-place"), connect), net.probe()]).then(() =>
  net.begin(local.able(), {
    connect,
    join: (id) => send({ type: "join", game: id }),
    form: (notice) => {
      lastError = notice;
      start.showForm();
      drawStatus();
    },
  })
);
