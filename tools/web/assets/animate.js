// damka-web move animation: after the board is drawn at the new position, the moved piece
// slides from its start through every landing square (a capture shows each step) and each
// captured piece fades as the mover passes it. Web Animations only (no style attributes in
// the markup, so the page's Content-Security-Policy allows it); nothing moves when the
// system asks for reduced motion.

import { squareIndex } from "/assets/board.js";

const STEP_MS = 160;

/** The paths animated so far, for the browser tests (window.damkaAnimations). */
const log = [];
window.damkaAnimations = log;

function centre(el, boardRect) {
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2 - boardRect.left, r.top + r.height / 2 - boardRect.top];
}

/** Animates `move` ({from, path, captured}) on `board` (a DraughtsBoard already showing the
 *  position after it); `before` is the 64-character board before the move. */
export function animateMove(board, move, before) {
  const squares = [move.from, ...move.path];
  log.push(squares);
  if (log.length > 100) log.shift();
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const dest = board.squareElement(move.path[move.path.length - 1]);
  const piece = dest && dest.querySelector("[data-piece]");
  if (reduced || !piece || typeof piece.animate !== "function") return;
  const boardRect = board.el.getBoundingClientRect();
  const cells = squares.map((n) => board.squareElement(n));
  if (cells.some((c) => !c)) return;
  const [ex, ey] = centre(dest, boardRect);
  const frames = cells.map((c) => {
    const [x, y] = centre(c, boardRect);
    return { transform: `translate(${x - ex}px, ${y - ey}px)` };
  });
  const duration = STEP_MS * move.path.length;
  piece.animate(frames, { duration, easing: "ease-in-out" });
  piece.classList.add("moving");
  setTimeout(() => piece.classList.remove("moving"), duration);
  // The captured pieces stay drawn until the mover has passed them.
  (move.captured || []).forEach((name, i) => {
    const cell = board.squareElement(name);
    const kind = before[squareIndex(name)];
    if (!cell || !kind || kind === ".") return;
    const ghost = document.createElement("div");
    ghost.className = "piece fading " + (kind.toLowerCase() === "w" ? "white" : "black");
    if (kind === "W" || kind === "B") ghost.classList.add("king");
    cell.appendChild(ghost);
    const gone = STEP_MS * (i + 1);
    ghost.animate([{ opacity: 1 }, { opacity: 1, offset: 0.8 }, { opacity: 0 }], { duration: gone });
    setTimeout(() => ghost.remove(), gone);
  });
}
