// damka-web page: the move list (numbered, the current ply marked, scrolled inside its own
// box), the board after a move the server has not confirmed yet, the question which of two
// captures with the same ends is meant, and the game's PDN download.

import { squareIndex, playedMove, replay } from "/assets/board.js";
import * as local from "/assets/local.js";

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

/** Asks in the dialog `chooser` which of `moves` (captures with the same ends) is meant, and
 *  gives it to `pick`. */
export function choose(chooser, moves, pick) {
  const box = chooser.querySelector("#choices");
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

/** Downloads `game` as PDN: from this browser (a game played here) or from the server (a
 *  room when `inRoom`, else a local game kept there). */
export function downloadPdn(game, inRoom) {
  if (game.id.startsWith(local.PREFIX)) return local.downloadPdn(game.id);
  const a = document.createElement("a");
  const kind = inRoom ? "/api/rooms/" : "/api/games/";
  a.href = kind + encodeURIComponent(game.id) + "/pdn";
  a.download = "damka-" + game.id + ".pdn";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** The page's game of a view: every move with its squares, and every board of the game
 *  rebuilt from the start (the server sends the board now only, which the last one must be). */
export function withBoards(view) {
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
