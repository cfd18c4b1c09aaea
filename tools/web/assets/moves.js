// damka-web page: the move list (numbered, the current ply marked, scrolled inside its own
// box) and the board after a move the server has not confirmed yet.

import { squareIndex } from "/assets/board.js";

/** Draws `moves` into the list `movesEl`, ply `ply` current; `blackFirst`: Black moved first. */
export function drawMoveList(movesEl, moves, ply, blackFirst) {
  const items = moves.map((mv, i) => {
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
  // Scrolled inside its own box only: scrollIntoView would drag the whole page on a phone.
  const cur = movesEl.querySelector(".current");
  if (cur) {
    const top = cur.offsetTop - movesEl.offsetTop;
    if (top < movesEl.scrollTop) movesEl.scrollTop = top;
    else if (top + cur.offsetHeight > movesEl.scrollTop + movesEl.clientHeight) {
      movesEl.scrollTop = top + cur.offsetHeight - movesEl.clientHeight;
    }
  }
}

// The board after a move not yet confirmed: the piece on its last square, the captured gone
// (a crowning shows when the server answers).
export function afterMove(cells, mv) {
  const out = cells.split("");
  const piece = out[squareIndex(mv.from)];
  out[squareIndex(mv.from)] = ".";
  for (const c of mv.captured || []) out[squareIndex(c)] = ".";
  out[squareIndex(mv.path[mv.path.length - 1])] = piece;
  return out.join("");
}
