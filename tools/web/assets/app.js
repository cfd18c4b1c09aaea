// damka-web page: talks to the server over one WebSocket (see README, "Web page"), draws the
// game with DraughtsBoard and keeps no rules of its own: legal moves, the result and the
// notation all come from the server.

import { DraughtsBoard } from "/assets/board.js";
import * as room from "/assets/online.js";

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
const pendingRequests = [];

const board = new DraughtsBoard($("#board"), {
  onMove: (mv) => sendMove({ path: [mv.from, ...mv.path] }),
  onChoose: (moves, pick) => choose(moves, pick),
});

// A local game's moves are its creator's: the token the server gave this browser when it
// started the game, kept per game so that a reload (or a link opened again here) can play on.
function gameToken(id) {
  try {
    return localStorage.getItem("damka-game-token:" + id);
  } catch (e) {
    return null;
  }
}

function keepGameToken(id, token) {
  try {
    localStorage.setItem("damka-game-token:" + id, token);
  } catch (e) {
    // Storage refused (private mode): the game is still playable until the page is left.
  }
  sessionTokens[id] = token;
}

const sessionTokens = {};

function ownerFields(id) {
  const token = sessionTokens[id] || gameToken(id);
  return token ? { token } : {};
}

function send(msg) {
  lastError = "";
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(msg));
  } else {
    pendingRequests.push(msg);
    connect();
  }
}

// A move of the page: in a room a player's move or a spectator's proposal.
function sendMove(move) {
  if (!game) return;
  if (room.online.room) {
    const type = room.online.role === "spectator" ? "propose" : "play";
    send(Object.assign({ type, room: room.online.room }, move));
  } else {
    send(Object.assign({ type: "move", game: game.id }, move, ownerFields(game.id)));
  }
}

function formValues() {
  const f = new FormData(form);
  return {
    variant: f.get("variant"),
    opponent: f.get("opponent"),
    color: f.get("color"),
    skill: Number(f.get("skill")),
    movetime: Number(f.get("movetime")),
  };
}

function startGame(extra) {
  const values = Object.assign(formValues(), extra || {});
  if (values.opponent === "online") {
    const [time, increment] = new FormData(form).get("clock").split("+").map(Number);
    const create = { type: "create", variant: values.variant, color: values.color, time, increment };
    if (values.fen) create.fen = values.fen;
    send(create);
    return;
  }
  if (values.color === "random") values.color = Math.random() < 0.5 ? "white" : "black";
  send(Object.assign({ type: "new" }, values));
}

function connect() {
  if (socket && socket.readyState <= WebSocket.OPEN) return;
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  socket = new WebSocket(url);
  socket.addEventListener("open", () => {
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
    } else if (id) {
      socket.send(JSON.stringify({ type: "join", game: id }));
    } else {
      startGame();
    }
  });
  socket.addEventListener("message", (e) => receive(JSON.parse(e.data)));
  socket.addEventListener("close", () => {
    $("#connection").textContent = "disconnected, retrying";
    $("#connection").classList.remove("online");
    setTimeout(connect, 1000);
  });
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
    game = room.asGame(msg.room);
    draw();
  } else if (room.receiveOnline(msg)) {
    return;
  } else if (msg.type === "state") {
    if (room.online.room) room.leave();
    if (msg.game.token) keepGameToken(msg.game.id, msg.game.token);
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
      game = msg.game;
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
      history.replaceState(null, "", location.pathname);
      startGame();
      return;
    }
    lastError = msg.message;
    drawStatus();
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
  board.set({
    playable: game.playable,
    board: game.boards[ply],
    legal: live && game.can_move ? game.legal : [],
    lastMove: ply > 0 ? game.moves[ply - 1] : null,
    hint: shownHint ? shownHint.move : null,
    flipped: flipped,
  });
  drawMoves(ply);
  drawStatus();
  drawEvaluation();
  if (room.online.room) {
    room.drawClocks();
    room.drawPanel();
  }
}

function drawMoves(ply) {
  const blackFirst = game.boards.length > 0 && startsWithBlack();
  const items = game.moves.map((mv, i) => {
    const li = document.createElement("li");
    li.textContent = mv.text;
    const whiteMove = (i + (blackFirst ? 1 : 0)) % 2 === 0;
    li.className = whiteMove ? "white-move" : "black-move";
    if (whiteMove || i === 0) li.dataset.number = Math.floor((i + (blackFirst ? 1 : 0)) / 2) + 1 + (whiteMove ? "." : "...");
    li.dataset.ply = i + 1;
    if (i + 1 === ply) li.classList.add("current");
    li.title = "Show the position after " + mv.text;
    return li;
  });
  movesEl.replaceChildren(...items);
  const cur = movesEl.querySelector(".current");
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
}

// Whether Black made the game's first move: the side to move at the start, worked out from
// the side to move now and the number of moves.
function startsWithBlack() {
  const n = game.moves.length;
  return (game.side === "black") === (n % 2 === 0);
}

function drawStatus() {
  if (!game) {
    statusEl.textContent = lastError || "Connecting to the server";
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
  if (viewing !== null) {
    text += ". Looking at move " + viewing + " of " + game.moves.length + " (click the last move to go back)";
  }
  if (game.notice) text += ". " + game.notice;
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
  undo: () => game && send(Object.assign({ type: "undo", game: game.id }, ownerFields(game.id))),
  hint: () => game && !game.status.over && send({ type: "hint", game: game.id, purpose: "hint" }),
  flip: () => {
    flipped = !flipped;
    draw();
  },
  pdn: downloadPdn,
  import: importGame,
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
  sendMove({ move: text });
  input.value = "";
});

document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
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

connect();
