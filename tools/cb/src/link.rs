//! The one module that uses the damka library: positions and legal moves (damka's own move
//! generator), game ends (damka's rules), and searches (a typed [`GameSession`] of Russian,
//! as damka-web and DXP hold). The rest of the crate sees only [`crate::board`] types and text, so a
//! change of the library's API is met here alone.

use crate::board::{Side, Sq};
use damka::core::{is_decisive, Bits, Color, Square, Variant, WIN};
use damka::egtb::Endgames;
use damka::engine::{
    default_book, pv_text, EndgameConfig, EngineSettings, GameSession, GoMode, Limits, MAX_HASH_MB,
    MAX_THREADS,
};
use damka::game::Game;
use damka::search::{Finished, Report};
use damka::variant::{GameMove, Notation, Outcome, Position, RussianPosition};
use std::sync::{Arc, Mutex};

/// The engine's name and version.
pub fn engine_name() -> String {
    format!("damka {}", env!("CARGO_PKG_VERSION"))
}

/// A legal move, spelled out for the GUIs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDetail {
    /// Start square.
    pub from: Sq,
    /// End square.
    pub to: Sq,
    /// Landing squares after the start, in order (a quiet move: just the end square).
    pub landings: Vec<Sq>,
    /// Captured squares in the order they are jumped.
    pub captured: Vec<Sq>,
    /// A man is crowned.
    pub promotes: bool,
    /// damka's algebraic text of the move (`c3:e5:g7`), which the engine reads back.
    pub text: String,
}

fn sq(s: Square) -> Sq {
    Sq {
        file: s.file(),
        rank: s.rank(),
    }
}

/// The captured pieces of `mv` in the order they are jumped: between two landing squares lies
/// exactly one of them, on the diagonal.
fn capture_order(from: Square, landings: &[Square], captured: u64) -> Vec<Sq> {
    let mut out = Vec::new();
    let mut left = captured;
    let mut prev = from;
    for &land in landings {
        let df = (i32::from(land.file()) - i32::from(prev.file())).signum();
        let dr = (i32::from(land.rank()) - i32::from(prev.rank())).signum();
        let (mut f, mut r) = (i32::from(prev.file()) + df, i32::from(prev.rank()) + dr);
        while (f, r) != (i32::from(land.file()), i32::from(land.rank()))
            && (0..8).contains(&f)
            && (0..8).contains(&r)
        {
            let s = Square::new(f as u8, r as u8);
            if left & s.bit() != 0 {
                left &= !s.bit();
                out.push(sq(s));
            }
            f += df;
            r += dr;
        }
        prev = land;
    }
    // Never lose a captured piece, even if a path were not a straight line.
    out.extend(Bits(left).map(sq));
    out
}

fn details(pos: &RussianPosition) -> Vec<MoveDetail> {
    pos.legal_moves()
        .iter()
        .map(|mv| {
            let path = pos.path(mv);
            MoveDetail {
                from: sq(mv.from()),
                to: sq(mv.to()),
                landings: path.iter().copied().map(sq).collect(),
                captured: capture_order(mv.from(), &path, mv.captured()),
                promotes: mv.promotes(),
                text: pos.move_to_algebraic(mv),
            }
        })
        .collect()
}

fn parse(fen: &str) -> Result<RussianPosition, String> {
    RussianPosition::from_fen(fen).map_err(|e| e.to_string())
}

/// The legal moves of a position given as FEN (algebraic squares, as [`crate::board::Diagram`]
/// writes it).
pub fn legal_moves(fen: &str) -> Result<Vec<MoveDetail>, String> {
    parse(fen).map(|p| details(&p))
}

/// The FEN as damka writes it, after reading it: two texts of one position compare equal.
pub fn canonical_fen(fen: &str) -> Result<String, String> {
    parse(fen).map(|p| p.to_fen())
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Drawn by a rule (repetition, the Russian move counters).
    Draw,
    /// This side won.
    Win(Side),
}

/// How long to think.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    /// Fixed time for this move, seconds.
    pub movetime: Option<f64>,
    /// Remaining clock time, seconds.
    pub time: Option<f64>,
    /// Increment per move, seconds.
    pub inc: f64,
    /// Depth limit, plies.
    pub depth: Option<u32>,
}

/// What kind of search to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Find a move within the budget.
    Think,
    /// Analyse until stopped (or the budget's limits).
    Analyse,
}

/// A search iteration as the GUIs show it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// Completed depth.
    pub depth: u32,
    /// Score for the side to move, centi-men; see [`score_plies`] for wins.
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: f64,
    /// Seconds so far.
    pub time: f64,
    /// Principal variation, damka algebraic.
    pub pv: Vec<String>,
}

/// The answer of a search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// The move, damka algebraic (`None`: no legal move).
    pub best: Option<String>,
    /// Its score for the side to move, centi-men.
    pub score: i32,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// A win or loss score as plies to the end (positive: the side to move wins); `None` for an
/// ordinary score.
pub fn score_plies(score: i32) -> Option<i32> {
    is_decisive(score).then(|| {
        let plies = WIN - score.abs();
        if score > 0 {
            plies
        } else {
            -plies
        }
    })
}

/// What a running search has said so far; shared with the search threads.
#[derive(Debug, Default)]
pub struct Watch {
    /// Bumped with each new [`Progress`].
    pub serial: u64,
    /// The latest iteration.
    pub progress: Option<Progress>,
    /// The result, once the search is over.
    pub answer: Option<Answer>,
}

/// The engine with the game it plays, typed: a Russian [`GameSession`] (the game so far and
/// its searcher), the endgame databases in use and whether the book is on. Moves from the
/// GUIs are read once, at this edge, and played onto the game one at a time.
pub struct Brain {
    session: GameSession<RussianPosition>,
    /// The settings the GUI can change (the session holds what it was given of them).
    settings: EngineSettings,
    endgames: EndgameConfig,
    /// Messages for the user not yet shown (tables of the default folder left out).
    notes: Vec<String>,
}

impl Default for Brain {
    fn default() -> Self {
        Self::new()
    }
}

impl Brain {
    /// Russian, start position, one thread, the default table, the default book setting, and
    /// the endgame databases of damka's default folder when they were built.
    pub fn new() -> Brain {
        let settings = EngineSettings::default();
        let mut brain = Brain {
            session: GameSession::new(settings.threads, settings.hash_mb),
            settings,
            endgames: EndgameConfig::new(),
            notes: Vec::new(),
        };
        let folder = damka::egtb::default_dir_if_present();
        // The book is left to `apply`, which turns "not set" into the game's default.
        brain.notes = brain.change(|s| {
            s.egtb_path = folder.map_or_else(String::new, |d| d.to_string_lossy().into_owned());
        });
        brain
    }

    /// Messages for the user not yet shown (endgame database files left out, a table found
    /// damaged in a search), each once. Call with no search running.
    pub fn take_notes(&mut self) -> Vec<String> {
        let mut out = std::mem::take(&mut self.notes);
        out.extend(self.session.searcher_mut().take_notices());
        out.extend(self.endgames.take_messages());
        out
    }

    /// Where the endgame databases in use were found (`russian tables up to 4 pieces in
    /// DIR`), or `none`.
    pub fn egtb_found(&self) -> String {
        self.endgames.found()
    }

    /// Sets the game: a start position (FEN) and the moves played from it (any notation damka
    /// reads). On error the game is unchanged.
    pub fn set_game(&mut self, fen: &str, moves: &[String]) -> Result<(), String> {
        let mut game = Game::new(parse(fen)?);
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        }
        self.session.set_game(game);
        Ok(())
    }

    /// Plays one more move (damka algebraic or Hub text). On error the game is unchanged.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        let mv = self
            .position()
            .parse_move(text)
            .map_err(|e| e.to_string())?;
        self.session.play(mv).map_err(|e| e.to_string())
    }

    fn position(&self) -> &RussianPosition {
        self.session.game().position()
    }

    /// The current position, damka's FEN.
    pub fn fen(&self) -> String {
        self.position().to_fen()
    }

    /// The side to move now.
    pub fn side_to_move(&self) -> Side {
        match self.position().side_to_move() {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }

    /// The legal moves now.
    pub fn legal(&self) -> Vec<MoveDetail> {
        details(self.position())
    }

    /// How the game ends after `text` is played now, if it does (`None`: it goes on, or the
    /// move is not legal).
    pub fn ending_after(&self, text: &str) -> Option<Ending> {
        let mut game = self.session.game().clone();
        game.play_text(text).ok()?;
        game.result().map(|end| match end.outcome {
            Outcome::Draw => Ending::Draw,
            Outcome::Win(Color::White) => Ending::Win(Side::White),
            Outcome::Win(Color::Black) => Ending::Win(Side::Black),
        })
    }

    /// Starts a search of the current position on the engine's threads and returns at once;
    /// the returned [`Watch`] fills in as it runs.
    pub fn go(&mut self, budget: Budget, mode: Mode) -> Result<Arc<Mutex<Watch>>, String> {
        self.halt();
        let infinite = mode == Mode::Analyse
            && budget.depth.is_none()
            && budget.movetime.is_none()
            && budget.time.is_none();
        let limits = Limits {
            depth: budget.depth,
            movetime: budget.movetime,
            time: budget.time,
            inc: budget.inc,
            infinite,
            ..Limits::default()
        };
        let go_mode = match mode {
            Mode::Think => GoMode::Think,
            Mode::Analyse => GoMode::Analyze,
        };
        let watch = Arc::new(Mutex::new(Watch::default()));
        let (w1, w2) = (watch.clone(), watch.clone());
        let root = *self.position();
        self.session
            .go(
                &limits,
                go_mode,
                move |r: &Report<RussianPosition>| {
                    let mut w = w1.lock().unwrap_or_else(|e| e.into_inner());
                    w.serial += 1;
                    w.progress = Some(Progress {
                        depth: r.depth,
                        score: r.score,
                        nodes: r.nodes,
                        nps: r.nps(),
                        time: r.time,
                        pv: pv_text(&root, &r.pv)
                            .into_iter()
                            .map(|m| m.algebraic)
                            .collect(),
                    });
                },
                move |f: Finished<RussianPosition>| {
                    let mut w = w2.lock().unwrap_or_else(|e| e.into_inner());
                    w.answer = Some(Answer {
                        best: f.best.map(|m| root.move_to_algebraic(&m)),
                        score: f.score,
                        depth: f.depth,
                        nodes: f.nodes,
                    });
                },
            )
            .map_err(|e| e.to_string())?;
        Ok(watch)
    }

    /// Asks a running search to stop soon; it still answers.
    pub fn stop(&self) {
        self.session.searcher().stop();
    }

    /// Stops a running search, if any, and waits until it is over.
    pub fn halt(&mut self) {
        self.session.stop_and_wait();
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.session.searcher().is_searching()
    }

    /// Transposition table size, MiB.
    pub fn hash_mb(&self) -> usize {
        self.session.searcher().hash_mb()
    }

    /// Search threads.
    pub fn threads(&self) -> usize {
        self.session.searcher().threads()
    }

    /// Whether the opening book is on.
    pub fn book(&self) -> bool {
        self.settings.book == Some(true)
    }

    /// The endgame database folder (empty: none).
    pub fn egtb_path(&self) -> &str {
        &self.settings.egtb_path
    }

    /// Changes the settings the GUI sets ([`Brain::apply`] of the settings in force as `edit`
    /// leaves them); the engine's messages.
    pub fn change(&mut self, edit: impl FnOnce(&mut EngineSettings)) -> Vec<String> {
        let mut new = self.settings.clone();
        edit(&mut new);
        self.apply(&new)
    }

    /// Applies `new`, changing only what differs from what is in force. Threads and table
    /// size are clamped to what the engine accepts, and asked for again while the engine
    /// grants less (a table is cleared only when its size changes); the book is the compiled
    /// one or none (`None`: the game's default); the endgame databases are opened again when
    /// their folder or cache changed, or when none are open yet (tables built since). Returns
    /// what opening them said (a folder that could not be opened, a table missing or
    /// damaged); messages from before stay for [`Brain::take_notes`].
    pub fn apply(&mut self, new: &EngineSettings) -> Vec<String> {
        self.halt();
        let old = std::mem::replace(&mut self.settings, new.clone());
        let s = &mut self.settings;
        s.threads = s.threads.clamp(1, MAX_THREADS);
        s.hash_mb = s.hash_mb.clamp(1, MAX_HASH_MB);
        s.book = Some(s.book.unwrap_or_else(|| default_book(Variant::Russian)));
        let searcher = self.session.searcher_mut();
        if searcher.threads() != s.threads {
            searcher.set_threads(s.threads);
        }
        if searcher.hash_mb() != s.hash_mb {
            searcher.set_hash_mb(s.hash_mb);
        }
        if s.book != old.book {
            let on = s.book == Some(true);
            let book = if on {
                damka::book::compiled_in(Variant::Russian)
            } else {
                None
            };
            self.session.set_book(book);
        }
        let folder = (&s.egtb_path, s.egtb_cache_mb) != (&old.egtb_path, old.egtb_cache_mb);
        if !folder && (self.endgames.tables.is_some() || s.egtb_path.is_empty()) {
            return Vec::new();
        }
        self.endgames.configure(&s.egtb_path, s.egtb_cache_mb);
        self.endgames.reopen(Variant::Russian);
        let tables = self.endgames.tables.clone();
        self.session
            .searcher_mut()
            .set_endgames(tables.map(|t| t as Arc<dyn Endgames<RussianPosition>>));
        self.endgames.take_messages()
    }

    /// Forgets what earlier games taught the table.
    pub fn new_game(&mut self) {
        self.halt();
        self.session.searcher_mut().clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_in_jump_order() {
        // White king a1 takes c3 and then e5... here: a man on c3 jumps d4 and f6.
        let moves = legal_moves("W:Wc3:Bd4,f6").unwrap();
        assert_eq!(moves.len(), 1);
        let m = &moves[0];
        assert_eq!(m.from.to_string(), "c3");
        assert_eq!(m.to.to_string(), "g7");
        let caps: Vec<String> = m.captured.iter().map(|s| s.to_string()).collect();
        assert_eq!(caps, ["d4", "f6"]);
        let lands: Vec<String> = m.landings.iter().map(|s| s.to_string()).collect();
        assert_eq!(lands, ["e5", "g7"]);
    }

    #[test]
    fn a_search_answers() {
        let mut b = Brain::new();
        let w = b
            .go(
                Budget {
                    depth: Some(3),
                    ..Budget::default()
                },
                Mode::Think,
            )
            .unwrap();
        b.halt();
        // `halt` returns once the result is computed; the callback may still be on its way.
        let t = std::time::Instant::now();
        loop {
            if let Some(a) = w.lock().unwrap().answer.clone() {
                assert!(a.best.is_some());
                break;
            }
            assert!(t.elapsed().as_secs() < 10);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}
