// damka-web page: one WebSocket to the server (README, "Web page"), the game drawn with
// DraughtsBoard, no rules of its own: legal moves, results and notation come from the server or,
// for a game played in this browser, from local.js (damka as WebAssembly) with the same messages.
// A view lists the moves played; earlier positions are rebuilt from the start (board.js replay).

import { DraughtsBoard, squareIndex } from "/assets/board.js";
import * as room from "/assets/online.js";
import * as feel from "/assets/feel.js";
import { animateMove } from "/assets/animate.js";
import { drawMoveList, afterMove, choose, downloadPdn, withBoards } from "/assets/moves.js";
import { resultWords, refusal, typedRefusal, gameLine, plainScore, numberedLine } from "/assets/words.js";
import * as start from "/assets/start.js";
import * as local from "/assets/local.js";
import * as net from "/assets/offline.js";
import * as premove from "/assets/premove.js";
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
  onChoose: (moves, pick) => choose(chooser, moves, pick),
  onRefuse: (square, from) => refused(square, from),
});

function connected() {
  return socket && socket.readyState === WebSocket.OPEN;
}


// Whether the game shown is played by the server (a room, or a local game kept there).
function serverGame() {
  return Boolean(room.online.room || (game && !game.id.startsWith(local.PREFIX)));
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
  const note = premove.click(game, square, premoveColour());
  if (note) {
    lastError = note;
    return draw();
  }
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

// The colour this page plays against someone who may be thinking now (premove.js), or null.
function premoveColour() {
  if (viewing !== null || offline) return null;
  if (room.online.room) {
    const seated = game.seats[0] && game.seats[1];
    return seated && /^(white|black)$/.test(room.online.role) ? room.online.role : null;
  }
  return game.opponent === "engine" && owned() ? game.color : null;
}

// A new state: a queued premove played, or dropped with the reason.
function playPremove() {
  const r = game && premove.settle(game, myTurn());
  if (r && r.move) return sendMove({ path: [r.move.from, ...r.move.path] }, r.move);
  if (r) {
    lastError = r.note;
    draw();
  }
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
    net.setConnection("online", "connected");
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
      document.body.classList.add("choosing");
      start.showForm();
      drawStatus();
    }
    if (offline) socket.send(JSON.stringify(offline.msg));
    draw();
  });
  socket.addEventListener("message", (e) => receive(JSON.parse(e.data)));
  socket.addEventListener("close", () => {
    if (!game || serverGame()) {
      net.setConnection("offline", "Offline: reconnecting, the clocks are stopped");
      room.freezeClocks();
    } else {
      net.setConnection("local", "engine in this browser");
    }
    draw();
    // Tried again twice a second, then every second: back at once when the server is, and
    // not called ten times a second while it is down.
    retryTimer = setTimeout(connect, retryDelay);
    retryDelay = Math.min(1000, retryDelay * 2);
  });
}

// A move was played since `before`: what was said about the position before is over (a
// refusal, a premove's note), so the status line says what is true now.
function moved(before) {
  if (before && before.id === game.id && before.moves.length !== game.moves.length) lastError = "";
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
    moved(before);
    if (!before || before.id !== game.id) start.began(game);
    if (before && before.id === game.id && !before.rematch && game.rematch) room.followRematch(game.rematch);
    arrived(before, game);
    settleOffline(game);
    settleTyped(game, before);
    draw();
    playPremove();
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
      moved(before);
      if (fresh) start.began(game);
      room.showClocks(game, clockOwner);
      arrived(before, game);
      settleOffline(game);
      settleTyped(game, before);
      start.rememberGame(game);
      if (location.hash.slice(1) !== game.id) history.replaceState(null, "", "#" + game.id);
      if (fresh) premove.reset();
      draw();
      playPremove();
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
    premove: live ? premove.squares() : [],
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
  const aborted = game.status.result === "*";
  const words = resultWords(game.status, game.board);
  $("#result-text").textContent = aborted ? words : words + " (" + game.status.result + ")";
  room.drawRematch();
}

// Whether Black made the game's first move: the side to move at the start, worked out from
// the side to move now and the number of moves.
function startsWithBlack() {
  const n = game.moves.length;
  return (game.side === "black") === (n % 2 === 0);
}

// The status line: one message, the one that matters now, worded for whoever is at this
// page (see gameLine in words.js).
function drawStatus() {
  if (!game) {
    let ready = connected() ? "Choose a game and press Start" : "Connecting to the server";
    if (net.serverless()) ready = net.sentence(localPlay());
    statusEl.textContent = lastError ? lastError + ". " + ready : ready;
    return;
  }
  statusEl.textContent = gameLine(game, {
    pending: offline && offline.move.text,
    note: lastError,
    viewing,
    cutOff: serverGame() && !connected(),
    room: room.online.room && room.statusText(game),
    watching: !owned(),
  });
}

function drawEvaluation() {
  const on = $("#eval-toggle").checked;
  const ev = current(evaluation), h = current(hint);
  $("#evalbar").hidden = !on;
  $("#evalbar").classList.toggle("stale", viewing !== null); // analysis.js fills in the viewed one
  const parts = [];
  if (h && viewing === null) parts.push("Hint: " + h.move.text);
  if (on && ev && viewing === null) {
    const share = 1 / (1 + Math.exp(-ev.white_score / 150));
    // White's share of the bar is on White's side of the board.
    $("#evalbar").classList.toggle("flipped", flipped);
    $("#evalfill").style.height = (share * 100).toFixed(1) + "%";
    const plies = game.moves.length + (startsWithBlack() ? 1 : 0);
    parts.push(plainScore(ev.white_score) + " (depth " + ev.depth + "): " + numberedLine(ev.pv.slice(0, 10), plies));
  }
  analysisEl.textContent = parts.join("  |  ");
}

function showPly(ply) {
  if (!game) return;
  viewing = ply >= game.moves.length ? null : Math.max(0, ply);
  draw();
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
  pdn: () => game && downloadPdn(game, room.online.room),
  import: importGame,
  rematch: () => {
    if (room.online.room) return send({ type: "rematch", room: room.online.room });
    if (game) startGame(start.rematchValues(game));
  },
  new: () => start.showForm(true),
  mute: feel.toggleMute,
  theme: feel.toggleTheme,
  "copy-link": feel.copyLink,
  ...room.actions(send),
};

document.addEventListener("click", (e) => {
  const el = e.target.closest("[data-action]");
  room.clicked(el);
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

form.elements.variant.addEventListener("change", () => game || start.movePlaceholder(form.elements.variant.value));

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
  // Wherever the focus is: on the board too, where the arrow keys reach here unless the board
  // is in keyboard mode (board.js keeps them then).
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

// The network back, or the page shown again: try the server at once.
window.addEventListener("online", () => serverGame() && connect());
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && game && serverGame()) connect();
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
      document.body.classList.add("choosing");
      start.showForm();
      drawStatus();
    },
  })
);
