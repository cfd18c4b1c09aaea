// damka-web's words: the end of a game and the reason a move is refused, in sentences. The
// rules stay on the server: these read its status text and its list of legal moves.

import { squareIndex } from "/assets/board.js";

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const other = (c) => (c === "white" ? "black" : "white");

/** The banner's sentence for a finished game, from the server's status text (`White wins
 *  (no legal move)`, `draw (threefold repetition)`, `Black wins (White's time ran out)`) and
 *  the final `board` (64 characters), which tells a side with no pieces from one blocked. */
export function resultWords(status, board) {
  const aborted = /^game aborted \((.*)\)$/.exec(status.text || "");
  if (aborted) return "Game aborted: " + aborted[1];
  if (/^game aborted by /.test(status.text || "")) return cap(status.text);
  const m = /^(White wins|Black wins|draw)(?: \((.*)\))?$/.exec(status.text || "");
  if (!m) return cap(status.text || "Game over");
  const [, outcome, reason] = m;
  if (outcome === "draw") {
    if (reason === "draw agreed") return "Draw by agreement";
    return reason ? "Draw: " + reason : "Draw";
  }
  const winner = outcome.split(" ")[0];
  const loser = winner === "White" ? "Black" : "White";
  if (!reason) return outcome;
  if (reason === "no legal move") {
    const mine = loser === "White" ? /[wW]/ : /[bB]/;
    if (board && !mine.test(board)) return `${outcome}: ${loser} has no pieces left`;
    return `${outcome}: ${loser} has no legal move`;
  }
  if (/time ran out$/.test(reason)) return `${outcome} on time`;
  return `${outcome}: ${reason}`;
}

/** The side a piece letter belongs to, or null for an empty square. */
function owner(piece) {
  if (!piece || piece === ".") return null;
  return piece.toLowerCase() === "w" ? "white" : "black";
}

/** The compulsory captures in words: `c3:e5 or g3:e5` (at most four named). */
export function capturesText(legal) {
  const texts = [...new Set(legal.map((m) => m.text))];
  const named = texts.slice(0, 4);
  const more = texts.length > named.length ? " or another" : "";
  return named.length > 1 ? named.slice(0, -1).join(", ") + " or " + named[named.length - 1] + more : named[0];
}

/** Whether every legal move captures (so one must be played). */
export function capturesCompulsory(legal) {
  return legal.length > 0 && legal.every((m) => m.captured && m.captured.length > 0);
}

/**
 * Why a click on `square` (with the piece at `from` picked, or none) plays nothing:
 * {text, mustCapture: [squares]} or null when there is nothing to say (an empty square).
 * `game` is the page's game, `board` the 64 characters shown, `mover` the colour this page
 * may move now (null if none: not its turn, the engine thinking, the game over).
 */
export function refusal(game, board, square, from, mover, why) {
  const piece = board[squareIndex(square)];
  const legal = game.legal || [];
  if (!from && owner(piece) === null) return null;
  if (why) return { text: why, mustCapture: [] };
  if (!mover) return { text: "not your turn", mustCapture: [] };
  // Another of the mover's own pieces touched while one is picked: judged as a first touch.
  if (from && owner(piece) === mover) from = null;
  const mustCapture = capturesCompulsory(legal) ? [...new Set(legal.map((m) => m.from))] : [];
  const compulsory = "a capture is compulsory: " + capturesText(legal);
  if (!from) {
    if (owner(piece) !== mover) {
      return { text: `not your turn: ${cap(mover)} to move, that is ${other(mover)}'s piece`, mustCapture: [] };
    }
    if (mustCapture.length > 0) return { text: compulsory, mustCapture };
    return { text: "that piece cannot move", mustCapture: [] };
  }
  if (mustCapture.length > 0 && !mustCapture.includes(from)) return { text: compulsory, mustCapture };
  return { text: `the piece on ${from} cannot go to ${square}`, mustCapture };
}

/** Why the server refused a typed move, in more words when the list of legal moves says. */
export function typedRefusal(game, message) {
  const legal = (game && game.legal) || [];
  if (/^illegal move/.test(message) && capturesCompulsory(legal)) {
    return message + ": a capture is compulsory: " + capturesText(legal);
  }
  return message;
}

/** The status line of a game: one message, the one that matters now. `s` says what the page
 *  knows beside the game: `pending` (the text of a move held while offline), `note` (a
 *  refusal or a note, until the next move), `viewing` (an earlier ply looked at, or null),
 *  `cutOff` (the server, which plays the game, not reachable), `room` (the room's own line,
 *  worded for its player or watcher) and `watching` (a local game this browser did not start). */
export function gameLine(game, s) {
  if (s.pending) return "Not connected: your move " + s.pending + " is pending and will be sent when the connection is back";
  if (s.note) return s.note;
  if (s.viewing !== null) {
    return "Looking at move " + s.viewing + " of " + game.moves.length + " (click the last move or press End to go back)";
  }
  if (s.cutOff && !game.status.over) {
    return "Not connected to the server: the clocks are stopped until it is back; a move you make is held and sent then";
  }
  let text;
  if (s.room) text = s.room;
  else if (game.status.over) text = "Game over: " + game.status.text + ", " + game.status.result;
  else if (s.watching) text = "Read-only: you are watching this game. " + game.status.text;
  else if (game.thinking) text = game.status.text + ": the engine is thinking";
  else if (game.opponent === "engine" && game.side === game.color) text = "Your move (" + game.side + ")";
  else text = game.status.text;
  return game.notice ? text + ". " + game.notice : text;
}

/** A score in plain words, from White's (centi-men): "White +0.17", "Black +0.40", "Even". */
export function plainScore(whiteScore) {
  if (Math.abs(whiteScore) < 1) return "Even";
  return (whiteScore > 0 ? "White +" : "Black +") + (Math.abs(whiteScore) / 100).toFixed(2);
}

/** A line of moves numbered as on a score sheet, its first move being the game's ply `plies`
 *  (counted from a White first move): "12. c3-d4 f6-g5", "12... f6-g5 13. c3-d4". */
export function numberedLine(moves, plies) {
  return moves
    .map((m, i) => {
      const ply = plies + i;
      const number = Math.floor(ply / 2) + 1;
      if (ply % 2 === 0) return number + ". " + m;
      return i === 0 ? number + "... " + m : m;
    })
    .join(" ");
}
