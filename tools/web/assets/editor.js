// The board editor: a position set up square by square (men, kings, side to move), checked
// by damka's rules compiled to WebAssembly (damka_setup: a real position of the game, a piece
// or more a side, at most a full set, no man on its crowning row), given as FEN and as a link
// that opens it on this page (?variant=...&fen=...), where it is analysed like any game.

import * as tools from "/assets/engine-tools.js";

const $ = (sel) => document.querySelector(sel);
const PIECES = [
  [".", "Empty"],
  ["w", "White man"],
  ["W", "White king"],
  ["b", "Black man"],
  ["B", "Black king"],
];

const ed = { cells: ".".repeat(64).split(""), piece: "w", variant: "russian", side: "white" };

function playable(variant, i) {
  if (variant === "turkish") return true;
  return (Math.floor(i / 8) + (i % 8)) % 2 === 0;
}

function dialog() {
  let dlg = $("#board-editor");
  if (dlg) return dlg;
  dlg = document.createElement("dialog");
  dlg.id = "board-editor";
  dlg.className = "board-editor";
  dlg.innerHTML =
    "<h2>Board editor</h2>" +
    '<div class="editor-row"><label>Game <select id="editor-variant"><option value="russian">Russian</option>' +
    '<option value="turkish">Turkish</option></select></label>' +
    '<label>To move <select id="editor-side"><option value="white">White</option><option value="black">Black</option></select></label></div>' +
    '<div class="editor-row" id="editor-pieces" role="radiogroup" aria-label="Piece to place">' +
    PIECES.map(([p, name]) => `<button type="button" data-piece="${p}" aria-pressed="${p === "w"}">${name}</button>`).join("") +
    "</div>" +
    '<div id="editor-board" class="editor-board"></div>' +
    '<div class="editor-row"><button type="button" data-editor="start">Start position</button>' +
    '<button type="button" data-editor="clear">Clear</button>' +
    '<button type="button" data-editor="check">Check</button></div>' +
    '<p id="editor-message" role="status"></p>' +
    '<label>FEN <input id="editor-fen" spellcheck="false"></label>' +
    '<p><a id="editor-link" href="#" hidden>Open this position</a></p>' +
    '<form method="dialog"><button value="">Close</button></form>';
  document.body.appendChild(dlg);
  dlg.addEventListener("click", (e) => {
    const sq = e.target.closest("[data-square]");
    if (sq) return place(Number(sq.dataset.index));
    const piece = e.target.closest("[data-piece]");
    if (piece) {
      ed.piece = piece.dataset.piece;
      for (const b of dlg.querySelectorAll("[data-piece]")) b.setAttribute("aria-pressed", String(b === piece));
      return;
    }
    const act = e.target.closest("[data-editor]");
    if (act) editorAction(act.dataset.editor);
  });
  $("#editor-variant").addEventListener("change", (e) => {
    ed.variant = e.target.value;
    ed.cells = ".".repeat(64).split("");
    drawBoard();
  });
  $("#editor-side").addEventListener("change", (e) => {
    ed.side = e.target.value;
    invalidate();
  });
  $("#editor-fen").addEventListener("change", (e) => fromFen(e.target.value));
  return dlg;
}

function place(i) {
  if (!playable(ed.variant, i)) return;
  ed.cells[i] = ed.cells[i] === ed.piece ? "." : ed.piece;
  drawBoard();
}

function invalidate() {
  $("#editor-link").hidden = true;
  $("#editor-fen").value = tools.fenOf(ed.cells.join(""), ed.side);
  $("#editor-message").textContent = "";
}

function drawBoard() {
  const box = $("#editor-board");
  const squares = [];
  for (let row = 7; row >= 0; row--) {
    for (let file = 0; file < 8; file++) {
      const i = row * 8 + file;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "editor-square" + (playable(ed.variant, i) ? " dark" : " light");
      if (playable(ed.variant, i)) {
        b.dataset.square = tools.squareName(i);
        b.dataset.index = i;
        b.dataset.piece = ed.cells[i];
      } else {
        b.disabled = true;
      }
      b.textContent = { w: "○", W: "♔", b: "●", B: "♚", ".": "" }[ed.cells[i]];
      b.title = tools.squareName(i);
      squares.push(b);
    }
  }
  box.replaceChildren(...squares);
  invalidate();
}

async function fromFen(fen) {
  try {
    const v = await tools.call("damka_view", ed.variant, fen.trim() + "\n\n");
    ed.cells = v.board.split("");
    ed.side = v.side;
    $("#editor-side").value = v.side;
    drawBoard();
  } catch (e) {
    $("#editor-message").textContent = "Not a position: " + e.message;
  }
}

async function editorAction(what) {
  if (what === "clear") {
    ed.cells = ".".repeat(64).split("");
    return drawBoard();
  }
  if (what === "start") {
    const v = await tools.call("damka_view", ed.variant, "\n\n");
    ed.cells = v.board.split("");
    ed.side = "white";
    $("#editor-side").value = "white";
    return drawBoard();
  }
  if (what === "check") {
    const fen = tools.fenOf(ed.cells.join(""), ed.side);
    try {
      const v = await tools.call("damka_setup", ed.variant, fen);
      $("#editor-fen").value = v.fen;
      const link = $("#editor-link");
      const url = new URL(location.pathname, location.href);
      url.searchParams.set("variant", ed.variant);
      url.searchParams.set("fen", v.fen);
      link.href = url.href;
      link.hidden = false;
      $("#editor-message").textContent = "A legal position: open it by its link, or copy its FEN.";
    } catch (e) {
      $("#editor-link").hidden = true;
      $("#editor-message").textContent = "Not a legal position: " + e.message;
    }
  }
}

/** Opens the editor on the position shown on the page, if any. */
export async function open(drawn) {
  if (!(await tools.available())) {
    const dlg = dialog();
    $("#editor-message").textContent = "The board editor needs damka's rules in this browser, which this server does not serve.";
    dlg.showModal();
    return;
  }
  const dlg = dialog();
  if (drawn && drawn.game) {
    ed.variant = drawn.game.variant || "russian";
    ed.cells = drawn.game.boards[drawn.ply].split("");
    const n = drawn.game.moves.length;
    const sideNow = drawn.game.side;
    ed.side = (n - drawn.ply) % 2 === 0 ? sideNow : sideNow === "white" ? "black" : "white";
  }
  $("#editor-variant").value = ed.variant;
  $("#editor-side").value = ed.side;
  drawBoard();
  dlg.showModal();
}

/** At load: a link made by the editor (?fen=...) opens its position as a hot-seat game. */
export function boot() {
  const params = new URLSearchParams(location.search);
  const fen = params.get("fen");
  if (!fen) return;
  const variant = params.get("variant") === "turkish" ? "turkish" : "russian";
  // The link asks for its position, not for the last game this browser played.
  try {
    localStorage.removeItem("damka-last-game");
  } catch (e) {
    // storage refused: nothing was remembered either
  }
  const started = Date.now();
  const tryStart = () => {
    const state = $("#connection").dataset.state;
    const ready = state === "local" || state === "online" || Date.now() - started > 10000;
    if (!ready) return setTimeout(tryStart, 100);
    const form = $("#new-game");
    form.elements.variant.value = variant;
    form.elements.opponent.value = "human";
    form.elements.opponent.dispatchEvent(new Event("change", { bubbles: true }));
    $("#import-text").value = fen;
    history.replaceState(null, "", location.pathname + location.hash);
    document.querySelector('[data-action="import"]').click();
  };
  tryStart();
}
