// Game review on the page: the engine in this browser searches every position of the game
// (0.3 s each by default, with a progress bar, cancellable), and damka's own rule, compiled
// to WebAssembly (damka_review: the library's review_of, as `damka review` applies it),
// marks the moves; without the engine in the browser the server reviews the game by the same
// rule and keeps the review with its game. Moves are marked `?!`, `?`, `??` with the better
// move, drawn as marks on the move list (data-mark), an evaluation graph (#eval-graph, one
// point per ply) and a summary per side; kept in this browser's storage with the game, and
// exported as PDN with [%eval] comments.

import * as tools from "/assets/engine-tools.js";

export const REVIEW_MOVETIME = 0.3; // seconds per position (docs/review.md)
const MAX_PLIES = 1000; // as the library's MAX_REVIEW_PLIES
const KEY = "damka-review:";
const $ = (sel) => document.querySelector(sel);

let running = null; // {engine, id, cancelled}
let shown = null; // {id, review, moves: texts}
let lastDrawn = null; // the page's last drawing

function panel() {
  let box = $("#review");
  if (!box) {
    box = document.createElement("section");
    box.id = "review";
    box.className = "review";
    box.hidden = true;
    $("#analysis-tools").after(box);
  }
  return box;
}

/** Says `text` in the review's message line (empty: nothing). */
export function say(text) {
  let p = $("#review-message");
  if (!p) {
    p = document.createElement("p");
    p.id = "review-message";
    p.className = "review-message";
    p.setAttribute("role", "status");
    $("#analysis-tools").after(p);
  }
  p.textContent = text;
  p.hidden = !text;
}

function progressBar(total) {
  const box = document.createElement("div");
  box.id = "review-progress";
  box.className = "review-progress";
  box.innerHTML =
    `<progress max="${total}" value="0"></progress> <span>Reviewing: 0 of ${total} positions</span> ` +
    '<button type="button" data-action="review-cancel">Cancel</button>';
  $("#analysis-tools").after(box);
  return box;
}

function storageKey(id) {
  return KEY + id;
}

function load(id) {
  try {
    const v = JSON.parse(localStorage.getItem(storageKey(id)) || "null");
    return v && v.review && Array.isArray(v.moves) ? v : null;
  } catch (e) {
    return null;
  }
}

function save(entry) {
  try {
    localStorage.setItem(storageKey(entry.id), JSON.stringify(entry));
  } catch (e) {
    say("The review is shown but could not be kept in this browser (storage full or private mode).");
  }
}

// The verdict on a position where the game is over: the rules', as the library scores it.
function rulesVerdict(v) {
  if (v.status.result === "1-1") return { score: 0 };
  const whiteWon = v.status.result === "2-0";
  return { score: (v.side === "white") === whiteWon ? 10000 : -10000 };
}

/** Reviews the game of `drawn` (the page's last drawing). */
export async function start(drawn) {
  if (running) {
    say("A review is already running: wait for it or cancel it first.");
    return;
  }
  if (!drawn || !drawn.game) {
    say("No game to review: start or import one first.");
    return;
  }
  const here = await tools.available();
  const game = drawn.game;
  const setup = tools.gameSetup(game);
  const total = setup.moves.length + 1;
  if (setup.moves.length === 0) {
    say("No move to review yet.");
    return;
  }
  if (setup.moves.length > MAX_PLIES) {
    say(`The game has ${setup.moves.length} plies; a review takes games of at most ${MAX_PLIES}.`);
    return;
  }
  say("");
  if (!here) return serverReview(game, setup, total);
  const job = { engine: new tools.Engine(), id: game.id, cancelled: false };
  running = job;
  const bar = progressBar(total);
  const verdicts = [];
  try {
    for (let i = 0; i < total; i++) {
      const at = { variant: setup.variant, fen: setup.fen, moves: setup.moves.slice(0, i) };
      let verdict;
      if (i === total - 1 && game.status.over) {
        verdict = rulesVerdict(await tools.view(at.variant, at.fen, at.moves));
      } else {
        const r = await job.engine.search([
          ...tools.positionLines(at),
          "set-param name=multipv value=1",
          `level move-time=${REVIEW_MOVETIME}`,
          "go analyze",
        ]);
        if (job.cancelled || !r) break;
        if (r.done.startsWith("error")) {
          // No legal move: the game ended here by the rules.
          verdict = rulesVerdict(await tools.view(at.variant, at.fen, at.moves));
        } else {
          const score = r.info ? Math.round(r.info.score * 100) : 0;
          verdict = { score, best: tools.doneField(r.done, "move") || null };
        }
      }
      verdicts.push(verdict);
      bar.querySelector("progress").value = i + 1;
      bar.querySelector("span").textContent = `Reviewing: ${i + 1} of ${total} positions`;
    }
    if (job.cancelled) {
      say("Review cancelled: nothing changed" + (load(game.id) ? " (the earlier review is kept)." : "."));
      return;
    }
    const tags = [["Event", "damka review"]];
    const review = await tools.call(
      "damka_review",
      setup.variant,
      JSON.stringify({ fen: setup.fen, moves: setup.moves, verdicts, tags })
    );
    finish(game, setup, review);
  } catch (e) {
    say("Review failed: " + e.message);
  } finally {
    job.engine.terminate();
    bar.remove();
    if (running === job) running = null;
  }
}

// The review by the server's engine (no engine in this browser); kept with the server's game
// there, and in this browser's storage as a local review is.
async function serverReview(game, setup, total) {
  const server = new tools.ServerEngine();
  const job = { server, id: game.id, cancelled: false };
  running = job;
  const bar = progressBar(total);
  try {
    const id = game.id.startsWith("local-") ? null : game.id;
    const review = await server.review(setup, id, (done) => {
      bar.querySelector("progress").value = done;
      bar.querySelector("span").textContent = `Reviewing: ${done} of ${total} positions`;
    });
    delete review.type;
    finish(game, setup, review);
  } catch (e) {
    if (job.cancelled) say("Review cancelled: nothing changed" + (load(game.id) ? " (the earlier review is kept)." : "."));
    else say("Review failed: " + e.message);
  } finally {
    server.close();
    bar.remove();
    if (running === job) running = null;
  }
}

function finish(game, setup, review) {
  const entry = { id: game.id, moves: setup.moves, review };
  save(entry);
  shown = entry;
  if (lastDrawn && lastDrawn.redraw) lastDrawn.redraw();
}

/** Stops the running review at once; an earlier review of the game stays. */
export function cancel() {
  if (!running) return;
  running.cancelled = true;
  if (running.engine) running.engine.terminate();
  if (running.server) running.server.cancel();
}

/** Downloads the reviewed game as PDN with [%eval] after every move and the marks. */
export function download(drawn) {
  if (!shown) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([shown.review.pdn], { type: "application/x-chess-pdn" }));
  a.download = "damka-" + shown.id + "-review.pdn";
  document.body.appendChild(a);
  a.click();
  a.remove();
  if (drawn && drawn.redraw) drawn.redraw();
}

/** Whether the game drawn has a review of all its moves (the PDN button exports it then). */
export function coversGame(d) {
  const entry = d && d.game ? fitting(d.game) : null;
  return Boolean(entry && entry.moves.length === d.game.moves.length);
}

// The review that fits the game drawn: its moves the first moves of the game.
function fitting(game) {
  let entry = shown && shown.id === game.id ? shown : load(game.id);
  if (!entry) return null;
  const texts = game.moves.map((m) => m.text);
  const fits = entry.moves.length <= texts.length && entry.moves.every((t, i) => t === texts[i]);
  if (!fits) return null;
  shown = entry;
  return entry;
}

/** Called after each drawing of the page: marks, graph and summary of the game's review. */
export function drawn(d) {
  lastDrawn = d;
  const box = panel();
  const entry = d && d.game ? fitting(d.game) : null;
  box.hidden = !entry;
  if (!entry) return;
  const byPly = new Map(entry.review.moves.map((m) => [m.ply, m]));
  for (const li of document.querySelectorAll("#moves li[data-ply]")) {
    const m = byPly.get(Number(li.dataset.ply));
    if (m && m.mark) {
      li.dataset.mark = m.mark;
      li.title = `${m.text}${m.mark} (${m.eval_text}); better ${m.better || "unknown"}`;
    } else {
      delete li.dataset.mark;
    }
  }
  if (box.dataset.for !== entry.id + entry.moves.length) {
    box.dataset.for = entry.id + entry.moves.length;
    box.replaceChildren(graph(entry.review, d), summary(entry.review), exportButton());
  }
  for (const c of box.querySelectorAll("#eval-graph [data-ply]")) {
    c.classList.toggle("current", Number(c.dataset.ply) === d.ply);
  }
}

const SVG = "http://www.w3.org/2000/svg";

function svgEl(name, attrs) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// The evaluation after each move, White's view, clipped to +-5 men: one point per ply.
function graph(review, d) {
  const n = review.moves.length;
  const w = 600;
  const h = 120;
  const x = (ply) => (n === 0 ? 0 : (ply / n) * (w - 8) + 4);
  const y = (ev) => h / 2 - (Math.max(-5, Math.min(5, ev)) / 5) * (h / 2 - 6);
  const svg = svgEl("svg", { id: "eval-graph", viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": "Evaluation graph" });
  svg.appendChild(svgEl("line", { x1: 0, x2: w, y1: h / 2, y2: h / 2, class: "axis" }));
  const points = [[x(0), y(review.start_eval)], ...review.moves.map((m) => [x(m.ply), y(m.eval)])];
  svg.appendChild(svgEl("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "eval-line" }));
  for (const m of review.moves) {
    const c = svgEl("circle", { cx: x(m.ply), cy: y(m.eval), r: m.mark ? 5 : 3, class: "eval-point" });
    c.dataset.ply = m.ply;
    c.dataset.eval = m.eval.toFixed(2);
    if (m.mark) c.dataset.mark = m.mark;
    const t = svgEl("title", {});
    t.textContent = `${m.ply}: ${m.text}${m.mark || ""} ${m.eval_text}`;
    c.appendChild(t);
    c.addEventListener("click", () => d.showPly(m.ply));
    svg.appendChild(c);
  }
  return svg;
}

function summary(review) {
  const box = document.createElement("div");
  box.id = "review-summary";
  box.className = "review-summary";
  for (const [side, s] of [["White", review.white], ["Black", review.black]]) {
    const p = document.createElement("p");
    p.dataset.side = side.toLowerCase();
    p.textContent =
      `${side}: ${s.inaccuracies} inaccuracies (?!), ${s.mistakes} mistakes (?), ${s.blunders} blunders (??), ` +
      `average loss ${Math.round(s.average_loss)} centi-men in ${s.moves} moves`;
    box.appendChild(p);
  }
  const marked = review.moves.filter((m) => m.mark);
  if (marked.length) {
    const ul = document.createElement("ul");
    for (const m of marked) {
      const li = document.createElement("li");
      li.textContent = `${m.text}${m.mark} (${m.eval_text}), better ${m.better || "unknown"}`;
      li.dataset.ply = m.ply;
      ul.appendChild(li);
    }
    box.appendChild(ul);
  }
  return box;
}

function exportButton() {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.action = "review-pdn";
  b.textContent = "PDN with review";
  b.title = "Download the game with the evaluation after every move and the marks";
  return b;
}
