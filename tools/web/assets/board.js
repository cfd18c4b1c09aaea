// damka board: a reusable draughts board component for 8x8 games (Russian, Turkish).
//
// It knows no rules: it draws a board given as 64 characters (index 8 * rank + file, a1 first;
// "w" "W" "b" "B" men and kings, "." empty), the playable squares, and lets the user pick one
// of the legal moves it is given (each {text, from, path: [landing squares], captured: [...]}),
// by click-click, square by square through a capture, or by dragging. Every playable square
// carries data-square="c3" (its name as seen from White, whatever the orientation) and a piece
// is an element inside it with data-piece="w" | "W" | "b" | "B".
//
//   import { DraughtsBoard } from "/assets/board.js";
//   const board = new DraughtsBoard(element, {
//     onMove: (move) => ...,                 // a legal move was entered
//     onChoose: (moves, pick) => ...,        // several moves fit: call pick(move) or pick(null)
//     onRefuse: (square, from) => ...,       // a click that starts or ends no legal move
//   });
//   board.set({ board, playable, legal, lastMove, hint, flipped, mustCapture, pending, premove });
//
// The board takes the keyboard focus too. In keyboard mode (the board reached by Tab, or Enter
// pressed on it; a pointer on the board ends it) the arrow keys move a cursor and Enter or
// Space does what a click on the cursor's square does; out of it the keys go to the page.

const FILES = "abcdefgh";
const SVG = "http://www.w3.org/2000/svg";
const DRAG_START_PX = 6;

export function squareName(index) {
  return FILES[index % 8] + (Math.floor(index / 8) + 1);
}

export function squareIndex(name) {
  return (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);
}

/** A played move as the server lists it ({text, captured?, crown?}) with its squares: from, and
 *  path (every landing square, read from its text: `c3:e5:g7`, `d3xd5`, `c3-d4`). */
export function playedMove(m) {
  const squares = m.text.split(/[-:x]/);
  return { text: m.text, from: squares[0], path: squares.slice(1), captured: m.captured || [], crown: Boolean(m.crown) };
}

/** Every board of a game, `start` first, rebuilt from its played moves (see playedMove): the
 *  piece goes to its last square (a king if crowned there) and the captured pieces go. */
export function replay(start, moves) {
  const boards = [start];
  let cells = start.split("");
  for (const mv of moves) {
    const piece = cells[squareIndex(mv.from)];
    cells[squareIndex(mv.from)] = ".";
    for (const c of mv.captured) cells[squareIndex(c)] = ".";
    cells[squareIndex(mv.path[mv.path.length - 1])] = mv.crown ? piece.toUpperCase() : piece;
    boards.push(cells.join(""));
  }
  return boards;
}

export class DraughtsBoard {
  constructor(element, options) {
    this.el = element;
    this.onMove = (options && options.onMove) || function () {};
    this.onChoose = (options && options.onChoose) || function (moves, pick) { pick(moves[0]); };
    this.onRefuse = (options && options.onRefuse) || function () {};
    this.state = {
      board: ".".repeat(64),
      playable: "1".repeat(64),
      legal: [],
      lastMove: null,
      hint: null,
      flipped: false,
      mustCapture: [], // squares marked data-must-capture
      pending: [], // squares marked data-pending (a move not yet confirmed by the server)
      premove: [], // squares marked data-premove (a move queued for the player's turn)
    };
    this.cursor = null; // [column, row] on screen of the keyboard cursor
    this.keyboard = false; // keyboard mode (see setKeyboard)
    this.selection = null; // {from, steps: [landing squares entered so far]}
    this.legalKey = "[]";
    this.drag = null;
    this.suppressClick = false;
    this.el.classList.add("draughts-board");
    this.grid = document.createElement("div");
    this.grid.className = "board-grid";
    this.overlay = document.createElementNS(SVG, "svg");
    this.overlay.setAttribute("class", "board-overlay");
    this.overlay.setAttribute("viewBox", "0 0 8 8");
    this.overlay.setAttribute("aria-hidden", "true");
    this.el.replaceChildren(this.grid, this.overlay);
    this.el.tabIndex = 0;
    this.el.setAttribute("aria-label", "Board: arrow keys move the cursor, Enter picks a square");
    this.el.addEventListener("keydown", (e) => this.handleKey(e));
    this.el.addEventListener("click", (e) => this.handleClick(e));
    this.el.addEventListener("pointerdown", (e) => {
      this.pointedAt = performance.now();
      this.setKeyboard(false);
      this.pointerDown(e);
    });
    this.pointedAt = 0;
    // Focus that no pointer brought (Tab): the person is on the keyboard.
    this.el.addEventListener("focus", () => {
      if (performance.now() - this.pointedAt > 500) this.setKeyboard(true);
    });
    this.el.addEventListener("blur", () => this.setKeyboard(false));
    window.addEventListener("pointermove", (e) => this.pointerMove(e));
    window.addEventListener("pointerup", (e) => this.pointerUp(e));
    window.addEventListener("pointercancel", () => this.endDrag());
    this.render();
  }

  /** Changes any of board, playable, legal, lastMove, hint, flipped; redraws. */
  set(changes) {
    // A half-entered move survives a redraw unless the position or its moves changed.
    const newPosition = "board" in changes && changes.board !== this.state.board;
    const legalKey = "legal" in changes ? JSON.stringify(changes.legal) : this.legalKey;
    Object.assign(this.state, changes);
    if (newPosition || legalKey !== this.legalKey) {
      this.selection = null;
    }
    this.legalKey = legalKey;
    this.render();
  }

  get flipped() {
    return this.state.flipped;
  }

  /** Forgets a half-entered move. */
  clearSelection() {
    this.selection = null;
    this.render();
  }

  // The legal moves that fit the squares entered so far, one entry per path (a king may
  // pause on different squares between two captures on one line: the same move).
  candidates() {
    const sel = this.selection;
    if (!sel) return [];
    return this.state.legal
      .filter((m) => m.from === sel.from)
      .flatMap((m) => (m.paths || [m.path]).map((path) => ({ ...m, path })))
      .filter((m) => sel.steps.every((s, i) => m.path[i] === s));
  }

  movesFrom(square) {
    return this.state.legal.filter((m) => m.from === square);
  }

  // Where the next click may land: the next square of every fitting move.
  targets() {
    const n = this.selection ? this.selection.steps.length : 0;
    return new Set(this.candidates().map((m) => m.path[n]).filter(Boolean));
  }

  /** A click (or a drop) on square `name`: the move entry's one step. */
  pick(name) {
    const sel = this.selection;
    if (!sel) {
      if (this.movesFrom(name).length > 0) {
        this.selection = { from: name, steps: [] };
      } else {
        this.onRefuse(name, null);
      }
      this.render();
      return;
    }
    if (name === sel.from && sel.steps.length === 0) {
      this.selection = null;
      this.render();
      return;
    }
    const cands = this.candidates();
    const n = sel.steps.length;
    const next = cands.filter((m) => m.path[n] === name);
    if (next.length > 0) {
      sel.steps.push(name);
      const complete = next.filter((m) => m.path.length === n + 1);
      if (complete.length === next.length) {
        this.finish(complete);
      } else {
        this.render();
      }
      return;
    }
    // A capture may be given by its start and end alone.
    const ends = cands.filter((m) => m.path[m.path.length - 1] === name);
    if (ends.length > 0) {
      this.finish(ends);
      return;
    }
    if (this.movesFrom(name).length > 0 && sel.steps.length === 0) {
      this.selection = { from: name, steps: [] };
    } else {
      this.selection = null;
      this.onRefuse(name, sel.from);
    }
    this.render();
  }

  /** Keyboard mode on or off (`data-keyboard` on the board while on). */
  setKeyboard(on) {
    if (this.keyboard === on) return;
    this.keyboard = on;
    this.el.toggleAttribute("data-keyboard", on);
    this.render();
  }

  // In keyboard mode the arrow keys move the cursor on screen and Enter or Space clicks its
  // square; Enter or Space enters the mode, Escape leaves it; any other key is the page's.
  handleKey(event) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (!this.keyboard) {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      event.stopPropagation();
      this.setKeyboard(true);
      return;
    }
    if (event.key === "Escape") {
      event.stopPropagation();
      return this.setKeyboard(false);
    }
    if (!this.cursor) this.cursor = this.startCursor();
    if (steps[event.key]) {
      const [dc, dr] = steps[event.key];
      this.cursor = [Math.min(7, Math.max(0, this.cursor[0] + dc)), Math.min(7, Math.max(0, this.cursor[1] + dr))];
    } else if (event.key === "Enter" || event.key === " ") {
      const name = this.nameAt(this.cursor);
      if (name) this.pick(name);
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    this.render();
  }

  // Where the cursor starts: on a piece that can move, else in the middle.
  startCursor() {
    const from = this.state.legal.length > 0 ? this.state.legal[0].from : null;
    return from ? this.screen(squareIndex(from)) : [3, 4];
  }

  // The playable square's name at a screen place, or null.
  nameAt([col, row]) {
    const file = this.state.flipped ? 7 - col : col;
    const rank = this.state.flipped ? row : 7 - row;
    const index = rank * 8 + file;
    return this.state.playable[index] === "1" ? squareName(index) : null;
  }

  /** The element of square `name` (its centre is where a piece on it is drawn). */
  squareElement(name) {
    return this.el.querySelector(`[data-square="${name}"]`);
  }

  finish(entries) {
    // Several paths of one move are one choice.
    const moves = entries.filter((m, i) => entries.findIndex((o) => o.text === m.text) === i);
    this.selection = null;
    this.render();
    if (moves.length === 1) {
      this.onMove(moves[0]);
    } else {
      this.onChoose(moves, (m) => {
        if (m) this.onMove(m);
      });
    }
  }

  squareAt(event) {
    const el = event.target.closest && event.target.closest("[data-square]");
    return el && this.el.contains(el) ? el.dataset.square : null;
  }

  handleClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const name = this.squareAt(event);
    if (name) this.pick(name);
  }

  pointerDown(event) {
    if (event.button !== 0) return;
    const name = this.squareAt(event);
    if (!name || this.movesFrom(name).length === 0) return;
    this.drag = { from: name, x: event.clientX, y: event.clientY, ghost: null };
  }

  pointerMove(event) {
    const d = this.drag;
    if (!d) return;
    if (!d.ghost) {
      if (Math.hypot(event.clientX - d.x, event.clientY - d.y) < DRAG_START_PX) return;
      const piece = this.el.querySelector(`[data-square="${d.from}"] [data-piece]`);
      if (!piece) return;
      const rect = piece.getBoundingClientRect();
      this.selection = { from: d.from, steps: [] };
      this.render();
      d.ghost = piece.cloneNode(true);
      d.ghost.classList.add("ghost");
      d.ghost.removeAttribute("data-piece");
      d.ghost.style.width = rect.width + "px";
      d.ghost.style.height = rect.height + "px";
      document.body.appendChild(d.ghost);
      const source = this.el.querySelector(`[data-square="${d.from}"] [data-piece]`);
      if (source) source.classList.add("lifted");
    }
    d.ghost.style.left = event.clientX - d.ghost.offsetWidth / 2 + "px";
    d.ghost.style.top = event.clientY - d.ghost.offsetHeight / 2 + "px";
  }

  pointerUp(event) {
    const d = this.drag;
    if (!d) return;
    const dragged = Boolean(d.ghost);
    this.endDrag();
    if (!dragged) return;
    this.suppressClick = true;
    setTimeout(() => (this.suppressClick = false), 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const sq = under && under.closest("[data-square]");
    if (sq && this.el.contains(sq) && sq.dataset.square !== d.from) {
      this.pick(sq.dataset.square);
    } else {
      this.render();
    }
  }

  endDrag() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    this.drag = null;
  }

  // Column and row on screen (0..7, top-left first) of a square index.
  screen(index) {
    const file = index % 8;
    const rank = Math.floor(index / 8);
    return this.state.flipped ? [7 - file, rank] : [file, 7 - rank];
  }

  render() {
    const st = this.state;
    const targets = this.targets();
    const sel = this.selection;
    const entered = new Set(sel ? [sel.from, ...sel.steps] : []);
    const last = st.lastMove;
    const lastSquares = new Set(last ? [last.from, ...last.path] : []);
    const lastCaptured = new Set(last ? last.captured : []);
    const movable = new Set(sel ? [] : st.legal.map((m) => m.from));
    const must = new Set(st.mustCapture || []);
    const pending = new Set(st.pending || []);
    const premove = new Set(st.premove || []);
    const cursor = this.cursor;
    const cells = [];
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const file = st.flipped ? 7 - col : col;
        const rank = st.flipped ? row : 7 - row;
        const index = rank * 8 + file;
        const name = squareName(index);
        const cell = document.createElement("div");
        const playable = st.playable[index] === "1";
        cell.className = "sq " + ((file + rank) % 2 === 0 ? "dark" : "light");
        if (playable) {
          cell.dataset.square = name;
          cell.classList.add("playable");
          if (entered.has(name)) cell.classList.add("selected");
          if (targets.has(name)) cell.classList.add("target");
          if (lastSquares.has(name)) cell.classList.add("last");
          if (lastCaptured.has(name)) cell.classList.add("captured");
          if (movable.has(name)) cell.classList.add("movable");
          if (must.has(name)) cell.dataset.mustCapture = "true";
          if (pending.has(name)) cell.dataset.pending = "true";
          if (premove.has(name)) cell.dataset.premove = "true";
          const p = st.board[index];
          if (p !== ".") {
            const piece = document.createElement("div");
            piece.className = "piece " + (p.toLowerCase() === "w" ? "white" : "black");
            if (p === "W" || p === "B") piece.classList.add("king");
            piece.dataset.piece = p;
            cell.appendChild(piece);
          }
        }
        if (cursor && cursor[0] === col && cursor[1] === row) cell.classList.add("cursor");
        if (col === 0) cell.dataset.rank = rank + 1;
        if (row === 7) cell.dataset.file = FILES[file];
        cells.push(cell);
      }
    }
    this.grid.replaceChildren(...cells);
    this.drawLines();
  }

  // The last move's path and the hint, as lines through the square centres.
  drawLines() {
    const st = this.state;
    const lines = [];
    // The hint under the last move's line, which stays readable where they cross.
    if (st.hint) lines.push([st.hint, "hint-line"]);
    if (st.lastMove) lines.push([st.lastMove, "last-line"]);
    const shapes = [];
    for (const [mv, cls] of lines) {
      const points = [mv.from, ...mv.path].map((n) => {
        const [c, r] = this.screen(squareIndex(n));
        return `${c + 0.5},${r + 0.5}`;
      });
      const poly = document.createElementNS(SVG, "polyline");
      poly.setAttribute("points", points.join(" "));
      poly.setAttribute("class", cls);
      shapes.push(poly);
      const end = points[points.length - 1].split(",");
      const dot = document.createElementNS(SVG, "circle");
      dot.setAttribute("cx", end[0]);
      dot.setAttribute("cy", end[1]);
      dot.setAttribute("r", "0.12");
      dot.setAttribute("class", cls + "-end");
      shapes.push(dot);
    }
    this.overlay.replaceChildren(...shapes);
  }
}

