// Premoves, as on lidraughts: while the other side (the engine, the online opponent) thinks,
// the player may queue one move of their own, its piece then its landing square; it is shown
// on the board, cancelled by another click on it, played at once on the player's turn when a
// legal move goes from that square to that square (a capture by its first or last landing
// square), and dropped with a note when none does. app.js asks here on every click the board
// refuses and on every new state.

import { squareIndex } from "/assets/board.js";

let queued = null; // {from} picked, or {from, to} queued

const PICK = "premove: now its landing square (played when it is your turn)";

/** A click on `square` of `game` while `colour` (the player's, or null: no premoves here)
 *  waits for the other side: the note to show if it picked, queued or cancelled a premove,
 *  else null (the click is for the usual refusal). */
export function click(game, square, colour) {
  if (!colour || game.status.over || game.side === colour) return null;
  const piece = game.boards[game.moves.length][squareIndex(square)];
  const own = piece !== "." && (piece.toLowerCase() === "w") === (colour === "white");
  if (queued && queued.to) {
    queued = null;
    return "premove cancelled";
  }
  if (!queued) {
    if (!own) return null;
    queued = { from: square };
    return PICK;
  }
  if (own) {
    queued = square === queued.from ? null : { from: square };
    return queued ? PICK : "premove cancelled";
  }
  queued.to = square;
  return "premove " + queued.from + "-" + square + " queued: played on your turn if legal then (click the board to cancel)";
}

/** The squares to mark on the board. */
export function squares() {
  return queued ? [queued.from, queued.to].filter(Boolean) : [];
}

/** Forgets the premove (another game). */
export function reset() {
  queued = null;
}

/** A new state of `game` (`mine`: the player's turn now): `{move}` to play, `{note}` when the
 *  premove is dropped, or null (nothing to do yet). */
export function settle(game, mine) {
  if (!queued) return null;
  if (!queued.to) {
    if (game.status.over || mine) queued = null;
    return null;
  }
  const { from, to } = queued;
  if (game.status.over) {
    queued = null;
    return { note: "premove " + from + "-" + to + " dropped: the game is over" };
  }
  if (!mine) return null;
  queued = null;
  const move = game.legal.find((m) => m.from === from && (m.path[m.path.length - 1] === to || m.path[0] === to));
  return move ? { move } : { note: "premove " + from + "-" + to + " dropped: not a legal move now" };
}
