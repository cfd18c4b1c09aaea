// The analysis board: the engine's best lines (multi-PV, 3 by default, 1-5) for whichever
// position the player looks at (a move of the list, the arrow keys, an imported or set-up
// position), following the viewed ply; a line clicked is played out on the board as a side
// line and left again. The page (app.js) says after each drawing what it shows through the
// `damka:drawn` event; this module adds its lines to #analysis and its buttons to the page,
// and starts the review (review.js) and the board editor (editor.js).

import * as tools from "/assets/engine-tools.js";
import { playedMove } from "/assets/board.js";
import * as review from "/assets/review.js";
import * as editor from "/assets/editor.js";

const ANALYSIS_TIME = 5; // seconds a position is analysed (lines shown as they deepen)
const $ = (sel) => document.querySelector(sel);

const state = {
  on: false,
  lines: 3,
  engine: null,
  key: null, // the position analysed: variant, start and moves
  found: new Map(), // rank -> {score (White's view, pawns), depth, pv (Hub), texts}
  side: null, // the side line shown: {texts, at, baseKey}
  drawn: null, // the last damka:drawn detail
  here: false, // the engine runs in this browser (else the server's analyses)
};

function loadStyle() {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/assets/analysis.css";
  document.head.appendChild(link);
}

function toolbar() {
  const bar = document.createElement("div");
  bar.className = "buttons analysis-tools";
  bar.id = "analysis-tools";
  bar.innerHTML =
    '<button type="button" data-action="analyse" title="The engine\'s best lines for the position shown">Analyse</button>' +
    '<label class="check">Lines <select id="analysis-multipv">' +
    [1, 2, 3, 4, 5].map((n) => `<option value="${n}"${n === 3 ? " selected" : ""}>${n}</option>`).join("") +
    "</select></label>" +
    '<button type="button" data-action="review" title="Mark every move of the game by the engine">Review</button>' +
    '<button type="button" data-action="board-editor" title="Set up a position">Board editor</button>';
  const buttons = document.querySelector(".play .buttons");
  buttons.after(bar);
  // At the end of a game, Analyse next to Rematch.
  const again = document.createElement("button");
  again.type = "button";
  again.dataset.action = "analyse";
  again.textContent = "Analyse";
  $("#result").appendChild(again);
  const box = document.createElement("div");
  box.id = "analysis-lines";
  box.className = "analysis-lines";
  box.hidden = true;
  state.box = box;
  const side = document.createElement("div");
  side.id = "side-line";
  side.className = "side-line";
  side.hidden = true;
  state.sideBox = side;
  $("#analysis-multipv").addEventListener("change", (e) => {
    state.lines = Number(e.target.value);
    restart(true);
  });
}

// An online game still being played is not analysed: the engine would play for a player.
function liveRoom(game) {
  return Boolean(game && game.seats && !game.status.over);
}

function positionKey(setup) {
  return setup.variant + "|" + setup.fen + "|" + setup.moves.join(" ");
}

/** Starts analysing the position shown, if it is not the one analysed already. */
function restart(force) {
  const d = state.drawn;
  if (!state.on || !d || !d.game) return;
  if (liveRoom(d.game)) {
    state.on = false;
    render();
    return;
  }
  const setup = tools.gameSetup(d.game, d.ply);
  const key = positionKey(setup);
  if (!force && key === state.key) return;
  state.key = key;
  state.found = new Map();
  state.side = null;
  state.message = "";
  if (d.game.status.over && d.ply === d.game.moves.length) {
    if (state.engine) state.engine.stop();
    state.message = "The game is over in this position: look at an earlier move.";
    return render();
  }
  if (!state.here) return serverAnalyse(setup, key);
  if (!state.engine) state.engine = new tools.Engine();
  state.engine.stop();
  const white = (d.ply + (startsBlack(d.game) ? 1 : 0)) % 2 === 0;
  const lines = [
    ...tools.positionLines(setup),
    `set-param name=multipv value=${state.lines}`,
    `level move-time=${ANALYSIS_TIME}`,
    "go analyze",
  ];
  render();
  state.engine
    .search(lines, (info) => {
      if (state.key !== key) return;
      const score = white ? info.score : -info.score;
      state.found.set(info.rank, { score, depth: info.depth, pv: info.pv, texts: null });
      scheduleRender(setup, key);
    })
    .then((r) => {
      if (state.key === key && r && r.done.startsWith("error")) {
        state.message = r.done.replace(/^error message="?/, "").replace(/"$/, "");
        render();
      }
    });
}

// Without the engine in the browser the server analyses, one position at a time: a request
// made while one runs waits for it, and asks for the position shown then.
function serverAnalyse(setup, key) {
  render();
  if (state.serverBusy) {
    state.serverNext = true;
    return;
  }
  state.serverBusy = true;
  if (!state.server) state.server = new tools.ServerEngine();
  state.server
    .analyse(setup, state.lines)
    .then(
      (v) => {
        if (state.key !== key) return;
        for (const l of v.lines) state.found.set(l.line, { score: l.score, depth: v.depth, pv: [], texts: l.moves, boards: l.boards });
      },
      (e) => {
        if (state.key === key) state.message = e.message;
      }
    )
    .finally(() => {
      state.serverBusy = false;
      if (state.serverNext) {
        state.serverNext = false;
        restart(true);
      } else {
        render();
      }
    });
}

function startsBlack(game) {
  const n = game.moves.length;
  return (game.side === "black") === (n % 2 === 0);
}

let renderTimer = null;

// Lines arrive many a second: their texts are worked out and drawn at most every 200 ms.
function scheduleRender(setup, key) {
  if (renderTimer) return;
  renderTimer = setTimeout(async () => {
    renderTimer = null;
    if (state.key !== key) return;
    for (const line of state.found.values()) {
      if (line.texts) continue;
      try {
        const v = await tools.view(setup.variant, setup.fen, setup.moves.concat(line.pv));
        line.texts = v.moves.slice(setup.moves.length).map((m) => m.text);
      } catch (e) {
        line.texts = [];
      }
    }
    if (state.key === key) render();
  }, 200);
}

function render() {
  const box = state.box;
  box.hidden = !state.on;
  if (!state.on) return;
  state.message = state.message || "";
  const ranks = [...state.found.keys()].filter((k) => k <= state.lines).sort((a, b) => a - b);
  const items = ranks.map((k) => {
    const line = state.found.get(k);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "analysis-line";
    b.dataset.line = k;
    b.dataset.score = line.score.toFixed(2);
    const texts = line.texts || [];
    b.dataset.moves = texts.join(" ");
    const sign = line.score >= 0 ? "+" : "";
    b.textContent = `${sign}${line.score.toFixed(2)} (depth ${line.depth}) ${texts.join(" ")}`;
    b.title = "Play this line out on the board";
    b.addEventListener("click", () => playLine(texts, line.boards));
    return b;
  });
  const best = state.found.get(1);
  if (best && !$("#evalbar").hidden) {
    // With Evaluation on, the bar shows the position analysed (the one looked at).
    $("#evalbar").classList.remove("stale");
    $("#evalfill").style.height = (100 / (1 + Math.exp((-best.score * 100) / 150))).toFixed(1) + "%";
  }
  if (items.length === 0) {
    const p = document.createElement("p");
    p.textContent = state.message || "The engine is looking at this position...";
    items.push(p);
  }
  box.replaceChildren(...items);
}

async function playLine(texts, boards) {
  if (!texts.length || !state.drawn) return;
  state.side = { texts, boards, at: texts.length, key: state.key };
  await showSide();
}

// The side line on the board: the game's board replaced by the line's, until Back.
async function showSide() {
  const d = state.drawn;
  const s = state.side;
  const box = state.sideBox;
  box.hidden = !s;
  if (!s || !d) return;
  const setup = tools.gameSetup(d.game, d.ply);
  let v;
  try {
    // The server's lines carry their boards; a line of the engine here is played by the rules.
    v = s.boards
      ? { board: s.at > 0 ? s.boards[s.at - 1] : d.game.boards[d.ply], moves: [] }
      : await tools.view(setup.variant, setup.fen, setup.moves.concat(s.texts.slice(0, s.at)));
  } catch (e) {
    state.side = null;
    box.hidden = true;
    return;
  }
  if (state.side !== s) return;
  const last = s.at > 0 && v.moves.length ? v.moves[v.moves.length - 1] : null;
  d.board.set({ board: v.board, legal: [], hint: null, mustCapture: [], pending: [], lastMove: last ? playedMove(last) : null });
  box.dataset.ply = String(s.at);
  box.replaceChildren(
    Object.assign(document.createElement("span"), {
      textContent: "Side line: " + s.texts.map((t, i) => (i < s.at ? t : "(" + t + ")")).join(" "),
    }),
    button("side-line-prev", "<", "One move back in the line"),
    button("side-line-next", ">", "One move on in the line"),
    button("side-line-back", "Back to the game", "Leave the side line")
  );
}

function button(action, text, title) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.action = action;
  b.textContent = text;
  b.title = title;
  return b;
}

function leaveSide() {
  state.side = null;
  state.sideBox.hidden = true;
  if (state.drawn) state.drawn.redraw();
}

const actions = {
  analyse: () => {
    if (state.drawn && liveRoom(state.drawn.game)) {
      review.say("Analysis opens when the online game is over.");
      return;
    }
    state.on = true;
    state.message = "";
    restart(true);
    state.box.scrollIntoView({ block: "nearest" });
  },
  review: () =>
    state.drawn && liveRoom(state.drawn.game)
      ? review.say("Review opens when the online game is over.")
      : review.start(state.drawn),
  "review-cancel": () => review.cancel(),
  "review-pdn": () => review.download(state.drawn),
  "board-editor": () => editor.open(state.drawn),
  "side-line-back": leaveSide,
  "side-line-prev": () => {
    if (state.side && state.side.at > 0) state.side.at -= 1;
    showSide();
  },
  "side-line-next": () => {
    if (state.side && state.side.at < state.side.texts.length) state.side.at += 1;
    showSide();
  },
};

document.addEventListener("click", (e) => {
  const el = e.target.closest("[data-action]");
  if (el && actions[el.dataset.action]) {
    e.preventDefault();
    actions[el.dataset.action]();
  }
});

// The page's PDN button exports the review with the game once the game has one (before
// app.js's own handler, which writes the plain record).
document.addEventListener(
  "click",
  (e) => {
    const el = e.target.closest('[data-action="pdn"]');
    if (el && review.coversGame(state.drawn)) {
      e.preventDefault();
      e.stopImmediatePropagation();
      review.download(state.drawn);
    }
  },
  true
);

document.addEventListener("damka:drawn", (e) => {
  const before = state.drawn;
  state.drawn = e.detail;
  const analysisEl = $("#analysis");
  // app.js rewrites #analysis's text on each drawing: the lines go back in after it.
  analysisEl.append(state.box, state.sideBox);
  const moved = !before || !before.game || before.game.id !== e.detail.game.id || before.ply !== e.detail.ply ||
    before.game.moves.length !== e.detail.game.moves.length;
  if (moved && state.side) {
    state.side = null;
    state.sideBox.hidden = true;
  }
  review.drawn(e.detail);
  if (state.side) {
    showSide();
    return;
  }
  if (state.on) {
    restart(false);
    render();
  }
});

loadStyle();
toolbar();
tools.available().then((here) => {
  state.here = here;
});
editor.boot();
