//! One game on the page, as the library plays it: the library's typed game of either variant
//! ([`damka::game::AnyGame`]), and the views the page draws from (boards, legal moves with their
//! paths, the move list, the result). Every rule (legality, notation, the end of the game,
//! PDN) is the library's; this file only turns its answers into data for the page.

pub mod review;

use damka::core::{Bits, Color, Square, Variant};
use damka::dispatch::PerGame;
use damka::game::pdn::{detect_variant, result_text};
use damka::game::{AnyGame, Game, Record};
use damka::variant::{GameMove, Move, Notation, Outcome, Position};
use serde::Serialize;

/// A move as the page needs it: its text, where it starts, every landing square in order and
/// the captured squares (all by algebraic name, as seen from White).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// Algebraic notation with every landing square (`c3:e5:g7`).
    pub text: String,
    /// Hub numbers (`10-14`, `14x5x10`).
    pub hub: String,
    /// The start square.
    pub from: String,
    /// The landing squares after the start, in order (the first of `paths`).
    pub path: Vec<String>,
    /// Every path of the move: a king may pause on different squares between two captures on
    /// one line, and each way of entering it is the same move.
    pub paths: Vec<Vec<String>>,
    /// The captured squares.
    pub captured: Vec<String>,
}

/// A move played, as the page's move list and its replay of the game need it: its text
/// (every landing square in it), the captured squares and whether the piece was crowned. The
/// page rebuilds every earlier position from the start board and these, so a view grows by
/// a few bytes a move, not by a board a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedMove {
    /// Algebraic notation with every landing square (`c3:e5:g7`, Turkish `d3xd5xf5`).
    pub text: String,
    /// The captured squares (left out when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub captured: Vec<String>,
    /// The moving man became a king (left out when not).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub crown: bool,
}

fn played_move<P: Position>(pos: &P, mv: &P::Move) -> PlayedMove {
    let mover = pos.side_to_move();
    let after = pos.play(mv);
    PlayedMove {
        text: pos.move_to_algebraic(mv),
        captured: Bits(mv.captured()).map(name).collect(),
        crown: pos.pieces(mover).men & mv.from().bit() != 0
            && after.pieces(mover).kings & mv.to().bit() != 0,
    }
}

/// Whether the game is over, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Status {
    /// The game is over.
    pub over: bool,
    /// The PDN result: `2-0`, `0-2`, `1-1`, or `*` while the game goes on.
    pub result: String,
    /// For people: `White to move`, or the result with its rule, as `damka play` says it
    /// (`White wins (no legal move)`).
    pub text: String,
}

/// A game of either variant, as the page shows it: the typed game, told apart once per
/// borrow ([`PageGame::view`]) and then asked through [`PageView`], so each answer is written
/// once for every variant.
#[derive(Clone, Debug)]
pub struct PageGame(AnyGame);

fn name(sq: Square) -> String {
    sq.to_string()
}

fn move_view<P: Position>(pos: &P, mv: &P::Move) -> MoveView {
    MoveView {
        text: pos.move_to_algebraic(mv),
        hub: pos.move_to_hub(mv),
        from: name(mv.from()),
        path: pos.path(mv).into_iter().map(name).collect(),
        paths: pos
            .paths(mv)
            .into_iter()
            .map(|p| p.into_iter().map(name).collect())
            .collect(),
        captured: Bits(mv.captured()).map(name).collect(),
    }
}

/// The board as 64 characters, index `8 * rank + file` (a1 first): `w`/`W` a white man/king,
/// `b`/`B` black, `.` empty.
fn board_text<P: Position>(pos: &P) -> String {
    let (w, b) = (pos.pieces(Color::White), pos.pieces(Color::Black));
    (0..64)
        .map(|i| damka::variant::notation::piece_letter(w, b, 1u64 << i, '.'))
        .collect()
}

fn parse_square(text: &str) -> Result<Square, String> {
    Square::parse(text.trim()).ok_or_else(|| format!("bad square {text:?}"))
}

/// Plays the legal move that starts on `squares[0]` and lands on the rest in order.
fn play_path<P: Position>(game: &mut Game<P>, squares: &[String]) -> Result<(), String> {
    if squares.len() < 2 {
        return Err("a move needs its start square and at least one landing square".into());
    }
    if squares.len() > 64 {
        return Err("too many squares in the move".into());
    }
    let from = parse_square(&squares[0])?;
    let landings = squares[1..]
        .iter()
        .map(|s| parse_square(s))
        .collect::<Result<Vec<_>, _>>()?;
    let pos = *game.position();
    let found = pos.legal_moves().into_iter().find(|m| {
        m.from() == from && Some(&m.to()) == landings.last() && pos.has_path(m, &landings)
    });
    match found {
        Some(m) => {
            game.play_unchecked(m);
            Ok(())
        }
        None => Err(format!("illegal move {}", squares.join("-"))),
    }
}

fn status<P: Position>(game: &Game<P>) -> Status {
    match game.result() {
        Some(end) => Status {
            over: true,
            result: result_text(Some(end.outcome)).to_string(),
            text: end.to_string(),
        },
        None => Status {
            over: false,
            result: "*".into(),
            text: match game.position().side_to_move() {
                Color::White => "White to move".into(),
                Color::Black => "Black to move".into(),
            },
        },
    }
}

fn pdn<P: Position>(game: &Game<P>, tags: &[(&str, &str)], declared: Option<Outcome>) -> String {
    let mut rec = Record::new(game.clone());
    if declared.is_some() {
        rec.result = declared;
    }
    for (k, v) in tags {
        rec.set_tag(k, v);
    }
    rec.to_pdn()
}

impl PageGame {
    /// A game of `variant` from its initial position, or from `fen` (FEN or Hub position).
    pub fn new(variant: Variant, fen: Option<&str>) -> Result<PageGame, String> {
        let fen = fen.map(str::trim).filter(|f| !f.is_empty());
        fn typed<P: Position>(fen: Option<&str>) -> Result<Game<P>, String> {
            match fen {
                None => Ok(Game::from_start()),
                Some(f) => Game::from_fen(f).map_err(|e| format!("bad FEN: {}", e.0)),
            }
        }
        Ok(PageGame(match variant {
            Variant::Russian => PerGame::Russian(typed(fen)?),
            Variant::Turkish => PerGame::Turkish(typed(fen)?),
        }))
    }

    /// The game of a PDN record; its `GameType` tag decides the variant, else `variant`.
    pub fn from_pdn(text: &str, variant: Variant) -> Result<PageGame, String> {
        fn typed<P: Position>(text: &str) -> Result<Game<P>, String> {
            Ok(Record::from_pdn(text).map_err(|e| e.to_string())?.game)
        }
        Ok(PageGame(match detect_variant(text).unwrap_or(variant) {
            Variant::Russian => PerGame::Russian(typed(text)?),
            Variant::Turkish => PerGame::Turkish(typed(text)?),
        }))
    }

    /// The typed game (what the engine searches).
    pub fn typed(&self) -> &AnyGame {
        &self.0
    }

    /// The page's game of a typed one.
    pub fn from_typed(game: AnyGame) -> PageGame {
        PageGame(game)
    }

    /// The typed game as the page asks it: the one place the variant is told apart. A request
    /// that reads several views takes this once.
    pub fn view(&self) -> &(dyn PageView + 'static) {
        damka::per_game!(&self.0, g => g)
    }

    /// [`PageGame::view`], to play or take back moves.
    pub fn view_mut(&mut self) -> &mut (dyn PageView + 'static) {
        damka::per_game!(&mut self.0, g => g)
    }
}

/// A one-off question to a [`PageGame`] reads as one to its typed game.
impl std::ops::Deref for PageGame {
    type Target = dyn PageView;
    fn deref(&self) -> &Self::Target {
        self.view()
    }
}

impl std::ops::DerefMut for PageGame {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.view_mut()
    }
}

/// What the page asks of a game, answered by the typed game of either variant
/// ([`damka::game::Game`]): each answer is written once, generic over the position, and
/// names the squares and moves as the page reads them.
pub trait PageView {
    /// The variant.
    fn variant(&self) -> Variant;
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// The side to move at the start.
    fn start_side(&self) -> Color;
    /// Plies played.
    fn ply(&self) -> usize;
    /// Whether the game is over by the rules.
    fn is_over(&self) -> bool;
    /// Plays `mv` if it is legal in the current position (the engine's move).
    fn play_move(&mut self, mv: Move) -> Result<(), String>;
    /// Plays a move given as text: algebraic or Hub numbers, a capture by its ends when that
    /// is unambiguous (the library's move reader).
    fn play_text(&mut self, text: &str) -> Result<(), String>;
    /// Plays a move given by its start square and every landing square, in order.
    fn play_path(&mut self, squares: &[String]) -> Result<(), String>;
    /// Takes back the last move; false at the start.
    fn undo(&mut self) -> bool;
    /// The start position as FEN.
    fn start_fen(&self) -> String;
    /// The current position as FEN.
    fn fen(&self) -> String;
    /// The moves played, in Hub numbers (unambiguous, for the engine).
    fn hub_moves(&self) -> Vec<String>;
    /// The legal moves of the current position (none once the game is over).
    fn legal(&self) -> Vec<MoveView>;
    /// The moves played, each seen from the position it was played in.
    fn history(&self) -> Vec<MoveView>;
    /// The moves played, as the page's move list and replay need them.
    fn played(&self) -> Vec<PlayedMove>;
    /// The start board: 64 characters, index `8 * rank + file` (a1 first), `w`/`W` a white
    /// man/king, `b`/`B` black, `.` empty.
    fn start_board(&self) -> String;
    /// The board now, in the same form as [`PageView::start_board`].
    fn board(&self) -> String;
    /// The playable squares as 64 characters `1`/`0`, index `8 * rank + file`.
    fn playable(&self) -> String;
    /// Whether the game is over and how, in words.
    fn status(&self) -> Status;
    /// The game as a PDN record, with the given tags (`White`, `Black`, `Event` ...).
    fn pdn(&self, tags: &[(&str, &str)]) -> String {
        self.pdn_with_result(tags, None)
    }
    /// The game as a PDN record with a result decided outside the rules (a loss on time, a
    /// resignation, a draw agreed); `None` is the rules' result.
    fn pdn_with_result(&self, tags: &[(&str, &str)], result: Option<Outcome>) -> String;
    /// The moves of a principal variation from the current position, written in algebraic
    /// notation (cut at the first move that is not legal).
    fn line_texts(&self, line: &[Move]) -> Vec<String>;
    /// A legal move of the current position, as the page draws it.
    fn move_view(&self, mv: &Move) -> Option<MoveView>;
    /// The review of this game from the verdicts of `req` (its moves must be this game's).
    fn review(&self, req: &review::ReviewRequest) -> Result<review::ReviewView, String>;
}

const OVER: &str = "the game is over";

impl<P: Position<Move = Move>> PageView for Game<P> {
    fn variant(&self) -> Variant {
        P::VARIANT
    }

    fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    fn start_side(&self) -> Color {
        self.start().side_to_move()
    }

    fn ply(&self) -> usize {
        Game::ply(self)
    }

    fn is_over(&self) -> bool {
        Game::is_over(self)
    }

    fn play_move(&mut self, mv: Move) -> Result<(), String> {
        if Game::is_over(self) {
            return Err(OVER.into());
        }
        self.play(mv).map_err(|e| e.to_string())
    }

    fn play_text(&mut self, text: &str) -> Result<(), String> {
        if Game::is_over(self) {
            return Err(OVER.into());
        }
        Game::play_text(self, text)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn play_path(&mut self, squares: &[String]) -> Result<(), String> {
        if Game::is_over(self) {
            return Err(OVER.into());
        }
        play_path(self, squares)
    }

    fn undo(&mut self) -> bool {
        Game::undo(self).is_some()
    }

    fn start_fen(&self) -> String {
        self.start().to_fen()
    }

    fn fen(&self) -> String {
        self.position().to_fen()
    }

    fn hub_moves(&self) -> Vec<String> {
        self.move_texts_hub()
    }

    fn legal(&self) -> Vec<MoveView> {
        if Game::is_over(self) {
            return Vec::new();
        }
        let pos = self.position();
        pos.legal_moves()
            .iter()
            .map(|m| move_view(pos, m))
            .collect()
    }

    fn history(&self) -> Vec<MoveView> {
        each_move(self, move_view)
    }

    fn played(&self) -> Vec<PlayedMove> {
        each_move(self, played_move)
    }

    fn start_board(&self) -> String {
        board_text(self.start())
    }

    fn board(&self) -> String {
        board_text(self.position())
    }

    fn playable(&self) -> String {
        (0..64)
            .map(|i| {
                if P::PLAYABLE & (1u64 << i) != 0 {
                    '1'
                } else {
                    '0'
                }
            })
            .collect()
    }

    fn status(&self) -> Status {
        status(self)
    }

    fn pdn_with_result(&self, tags: &[(&str, &str)], result: Option<Outcome>) -> String {
        pdn(self, tags, result)
    }

    fn line_texts(&self, line: &[Move]) -> Vec<String> {
        let mut pos = *self.position();
        let mut out = Vec::new();
        for m in line {
            if !pos.legal_moves().contains(m) {
                break;
            }
            out.push(pos.move_to_algebraic(m));
            pos = pos.play(m);
        }
        out
    }

    fn move_view(&self, mv: &Move) -> Option<MoveView> {
        let pos = self.position();
        pos.legal_moves().contains(mv).then(|| move_view(pos, mv))
    }

    fn review(&self, req: &review::ReviewRequest) -> Result<review::ReviewView, String> {
        review::typed_review(self, req)
    }
}

/// `f` of every move played and the position it was played in, in order.
fn each_move<P: Position, T>(game: &Game<P>, f: impl Fn(&P, &P::Move) -> T) -> Vec<T> {
    game.moves()
        .iter()
        .zip(game.positions())
        .map(|(m, p)| f(p, m))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_start_views() {
        let g = PageGame::new(Variant::Russian, None).unwrap();
        assert_eq!(g.legal().len(), 7);
        let b = &g.start_board();
        assert_eq!(&b[0..8], "w.w.w.w.");
        assert_eq!(g.playable().matches('1').count(), 32);
        assert_eq!(g.status().text, "White to move");
    }

    #[test]
    fn capture_by_path_and_by_text() {
        let fen = "W:Wc3:Bd4,f6";
        let mut g = PageGame::new(Variant::Russian, Some(fen)).unwrap();
        let legal = g.legal();
        assert_eq!(legal.len(), 1);
        assert_eq!(legal[0].path, vec!["e5", "g7"]);
        assert_eq!(legal[0].captured, vec!["d4", "f6"]);
        let mut h = g.clone();
        assert!(g.play_path(&["c3".into(), "g7".into()]).is_err());
        g.play_path(&["c3".into(), "e5".into(), "g7".into()])
            .unwrap();
        h.play_text("c3:g7").unwrap();
        assert_eq!(g.fen(), h.fen());
        let played = g.played();
        assert_eq!(played[0].captured, vec!["d4", "f6"]);
        assert!(!played[0].crown);
        let json = serde_json::to_string(&played).unwrap();
        assert_eq!(json, r#"[{"text":"c3:e5:g7","captured":["d4","f6"]}]"#);
        let s = g.status();
        assert!(s.over);
        assert_eq!(s.result, "2-0");
        assert_eq!(s.text, "White wins (no legal move)");
        assert!(g.play_text("g7-h8").is_err());
    }

    #[test]
    fn a_crowning_is_marked() {
        let mut g = PageGame::new(Variant::Russian, Some("W:Wg7:Bb4")).unwrap();
        g.play_text("g7-h8").unwrap();
        assert!(g.played()[0].crown);
        assert_eq!(g.board().as_bytes()[63], b'W');
        assert_eq!(g.start_board().as_bytes()[54], b'w');
    }

    #[test]
    fn turkish_and_pdn_round_trip() {
        let mut g = PageGame::new(Variant::Turkish, None).unwrap();
        assert_eq!(g.playable().matches('1').count(), 64);
        g.play_text("d3-d4").unwrap();
        let text = g.pdn(&[("White", "me")]);
        assert!(text.contains("[GameType \"30\"]"), "{text}");
        let back = PageGame::from_pdn(&text, Variant::Russian).unwrap();
        assert_eq!(back.variant(), Variant::Turkish);
        assert_eq!(back.fen(), g.fen());
        assert!(PageGame::from_pdn("1. zz-zz", Variant::Russian).is_err());
        assert!(PageGame::new(Variant::Russian, Some("W:Wz9")).is_err());
    }
}
