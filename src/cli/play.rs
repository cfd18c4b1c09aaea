//! `damka play`: a game in the terminal, human or engine on either side.
//!
//! The board is drawn with coordinates after every move; a human types moves in algebraic
//! notation (`c3-d4`, `c3:e5`, a capture by its first and last squares when that is
//! unambiguous) or a command (`help` lists them). Engine moves come from the engine facade.
//! Input ends cleanly at end of file; nothing the user types makes it panic.

use crate::core::{score_text, Color, Score, ScoreStyle, Variant};
use crate::dispatch::{dispatch, GameTask};
use crate::engine::{GameSession, GoMode, Limits, DEFAULT_HASH_MB};
use crate::eval::{Evaluate, Evaluator};
use crate::game::pdn::today;
use crate::game::{sorted_legal_texts, Game, Record};
use crate::variant::{MoveError, Notation, Perft};
use clap::{Args, ValueEnum};
use std::io::{self, BufRead, Write};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Player {
    /// Moves typed on standard input.
    Human,
    /// The engine.
    Engine,
}

/// Arguments of `damka play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The game: russian or turkish.
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// Start from this position (FEN) instead of the initial one.
    #[arg(long)]
    pub fen: Option<String>,
    /// Who plays White.
    #[arg(long, value_enum, default_value = "human")]
    pub white: Player,
    /// Who plays Black.
    #[arg(long, value_enum, default_value = "engine")]
    pub black: Player,
    /// Engine thinking time per move, seconds.
    #[arg(long, default_value_t = 1.0)]
    pub time: f64,
    /// Search to this depth instead of for a time (engine moves and hints).
    #[arg(long)]
    pub depth: Option<u32>,
    /// The engine's strength level.
    #[command(flatten)]
    pub strength: super::search_opts::StrengthArgs,
    /// Play the first moves from the opening book (the default in Turkish).
    #[arg(long, overrides_with = "no_book")]
    pub book: bool,
    /// Do not use the opening book (the default in Russian).
    #[arg(long)]
    pub no_book: bool,
    /// Book moves up to this many centi-men below the best are played too.
    #[arg(long, default_value_t = 0)]
    pub book_variety: i32,
    /// Draw the board in plain ASCII instead of Unicode pieces.
    #[arg(long)]
    pub ascii: bool,
    /// Draw the board from Black's side.
    #[arg(long)]
    pub flip: bool,
    /// Threads, table, endgame databases, evaluation.
    #[command(flatten)]
    pub search: super::search_opts::SearchArgs,
}

impl Default for PlayArgs {
    fn default() -> Self {
        PlayArgs {
            variant: Variant::Russian,
            white: Player::Human,
            black: Player::Engine,
            time: 1.0,
            depth: None,
            fen: None,
            strength: Default::default(),
            book: false,
            no_book: false,
            book_variety: 0,
            ascii: false,
            flip: false,
            search: Default::default(),
        }
    }
}

/// Runs `damka play` on the terminal; returns the exit status.
pub fn run(args: PlayArgs) -> i32 {
    if let Err(status) = args.search.evaluators("play") {
        return status;
    }
    let stdin = io::stdin();
    let stdout = io::stdout();
    play(&args, stdin.lock(), stdout.lock())
}

/// Plays a game reading commands from `input` and writing to `out`; returns the exit status
/// (0 when the game ends, the user quits or the input ends; 1 if the engine fails; 2 for a bad
/// start position).
pub fn play(args: &PlayArgs, input: impl BufRead, mut out: impl Write) -> i32 {
    struct Play<'a, R, W> {
        args: &'a PlayArgs,
        input: R,
        out: W,
    }
    impl<R: BufRead, W: Write> GameTask for Play<'_, R, W> {
        type Output = io::Result<i32>;
        fn run<P: Evaluate + Perft>(self) -> io::Result<i32> {
            run_variant::<P>(self.args, self.input, self.out)
        }
    }
    let task = Play {
        args,
        input,
        out: &mut out,
    };
    let code = dispatch(args.variant, task);
    let _ = out.flush();
    // An error here means the output went away (closed pipe): nothing more to tell anyone.
    code.unwrap_or(0)
}

fn run_variant<P: Evaluate>(
    args: &PlayArgs,
    input: impl BufRead,
    mut out: impl Write,
) -> io::Result<i32> {
    let eval = match args.search.eval.evaluators() {
        Ok(e) => e.get(P::VARIANT).clone(),
        Err(e) => {
            writeln!(out, "damka play: {e}")?;
            return Ok(2);
        }
    };
    let game = match &args.fen {
        Some(f) => match Game::<P>::from_fen(f) {
            Ok(g) => g,
            Err(e) => {
                writeln!(out, "damka play: {e}")?;
                return Ok(2);
            }
        },
        None => Game::from_start(),
    };
    Session {
        args,
        input,
        out,
        game,
        eval,
        engine: None,
        tables: None,
        flipped: args.flip,
        announced: None,
    }
    .run()
}

/// Help text of the commands.
const HELP: &str = "\
Moves: algebraic, e.g. c3-d4, c3:e5, c3:e5:g7 (a capture may be given by its first and last
squares when that is unambiguous; Hub numbers such as 9-13 work too).
Commands:
  moves      list the legal moves
  hint       ask the engine for a move for the side to move
  undo       take back the last move (back to your turn against the engine)
  flip       turn the board around
  board      draw the board again
  fen        show the position as FEN
  save FILE  write the game to FILE as PDN
  load FILE  go on with the game in a PDN file
  help       this text
  quit       leave";

/// One game in progress with its players and display settings.
struct Session<'a, P: Evaluate, R: BufRead, W: Write> {
    args: &'a PlayArgs,
    input: R,
    out: W,
    game: Game<P>,
    /// The evaluation of the engine's session, made when it is first needed.
    eval: Evaluator,
    engine: Option<GameSession<P>>,
    /// The engine's endgame databases, for their messages (a table found damaged).
    tables: Option<std::sync::Arc<crate::egtb::Tablebase>>,
    flipped: bool,
    /// The ply at which the result was last announced (announce once per ending).
    announced: Option<usize>,
}

impl<'a, P: Evaluate, R: BufRead, W: Write> Session<'a, P, R, W> {
    fn player(&self, c: Color) -> Player {
        match c {
            Color::White => self.args.white,
            Color::Black => self.args.black,
        }
    }

    fn run(&mut self) -> io::Result<i32> {
        writeln!(
            self.out,
            "damka: {} draughts, White: {}, Black: {}. Type 'help' for commands.",
            P::VARIANT,
            name(self.args.white),
            name(self.args.black)
        )?;
        self.show()?;
        loop {
            let over = self.game.result();
            if let Some(end) = over {
                if self.announced != Some(self.game.ply()) {
                    self.announced = Some(self.game.ply());
                    writeln!(self.out, "Game over: {end}.")?;
                }
                if self.args.white == Player::Engine && self.args.black == Player::Engine {
                    return Ok(0);
                }
            }
            let side = self.game.position().side_to_move();
            if over.is_none() && self.player(side) == Player::Engine {
                match self.engine_move() {
                    Ok(text) => {
                        writeln!(self.out, "{} (engine) plays {text}", side.name())?;
                        self.show()?;
                        continue;
                    }
                    Err(e) => {
                        writeln!(self.out, "engine error: {e}")?;
                        return Ok(1);
                    }
                }
            }
            if over.is_some() {
                write!(self.out, "game over (undo, save FILE, load FILE, quit)> ")?;
            } else {
                write!(
                    self.out,
                    "{} to move ({})> ",
                    side.name(),
                    self.game.move_number()
                )?;
            }
            self.out.flush()?;
            let mut line = String::new();
            match self.input.read_line(&mut line) {
                Ok(0) => {
                    writeln!(self.out)?;
                    return Ok(0);
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    writeln!(self.out, "could not read that line (not UTF-8)")?;
                    continue;
                }
                Err(_) => {
                    writeln!(self.out)?;
                    return Ok(0);
                }
            }
            if !self.command(line.trim(), over.is_some())? {
                return Ok(0);
            }
        }
    }

    /// Runs one line of input; `false` to quit.
    fn command(&mut self, line: &str, over: bool) -> io::Result<bool> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => return Ok(false),
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "board" | "show" => self.show()?,
            "flip" => {
                self.flipped = !self.flipped;
                self.show()?;
            }
            "fen" => writeln!(self.out, "{}", self.game.position().to_fen())?,
            "moves" => {
                let list = sorted_legal_texts(self.game.position(), P::move_to_algebraic);
                if list.is_empty() {
                    writeln!(self.out, "no legal moves")?;
                } else {
                    writeln!(self.out, "legal moves ({}): {}", list.len(), list.join(" "))?;
                }
            }
            "undo" => self.undo()?,
            "hint" => {
                if over {
                    writeln!(self.out, "the game is over")?;
                } else {
                    self.hint()?;
                }
            }
            "save" => {
                if rest.is_empty() {
                    writeln!(self.out, "usage: save FILE")?;
                } else {
                    self.save(rest)?;
                }
            }
            "load" => {
                if rest.is_empty() {
                    writeln!(self.out, "usage: load FILE")?;
                } else {
                    self.load(rest)?;
                }
            }
            _ => {
                if over {
                    writeln!(
                        self.out,
                        "the game is over: {line:?} is not a command (undo, save FILE, load FILE, quit)"
                    )?;
                } else {
                    self.human_move(line)?;
                }
            }
        }
        Ok(true)
    }

    fn human_move(&mut self, text: &str) -> io::Result<()> {
        let side = self.game.position().side_to_move();
        let pos = *self.game.position();
        match pos.parse_move(text) {
            Ok(mv) => {
                self.game.play_unchecked(mv);
                writeln!(
                    self.out,
                    "{} plays {}",
                    side.name(),
                    pos.move_to_algebraic(&mv)
                )?;
                self.show()
            }
            Err(e) => {
                let msg = match &e {
                    MoveError::Syntax(_) => {
                        format!("{e}: neither a move nor a command (type 'help')")
                    }
                    MoveError::Illegal(_) if pos.has_capture() => {
                        let caps = sorted_legal_texts(&pos, P::move_to_algebraic);
                        format!("{e}: a capture is compulsory ({})", caps.join(" "))
                    }
                    MoveError::Illegal(_) => format!("{e} (type 'moves' for the legal moves)"),
                    MoveError::Ambiguous(_) => format!("{e}: give the squares in between"),
                };
                writeln!(self.out, "{msg}")
            }
        }
    }

    /// Takes back one ply, then more until a human is to move (so a human against the engine
    /// gets their own move back), as long as there is something to take back.
    fn undo(&mut self) -> io::Result<()> {
        let mut taken = Vec::new();
        loop {
            let pos_before = self.game.last_move().map(|(p, m)| p.move_to_algebraic(m));
            match self.game.undo() {
                Some(_) => taken.push(pos_before.unwrap_or_default()),
                None => break,
            }
            let side = self.game.position().side_to_move();
            if self.player(side) == Player::Human || self.game.ply() == 0 {
                break;
            }
        }
        if taken.is_empty() {
            writeln!(self.out, "nothing to undo")?;
        } else {
            self.announced = None;
            taken.reverse();
            writeln!(self.out, "took back {}", taken.join(" "))?;
            self.show()?;
        }
        Ok(())
    }

    fn engine(&mut self) -> &mut GameSession<P> {
        let egtb = self.args.search.egtb.tables();
        let (skill, seed) = (self.args.strength.skill, self.args.strength.seed);
        let book_on = if self.args.book {
            true
        } else if self.args.no_book {
            false
        } else {
            crate::engine::default_book(P::VARIANT)
        };
        let book = book_on
            .then(|| crate::book::compiled_in(P::VARIANT))
            .flatten();
        let variety = self.args.book_variety;
        let (threads, hash) = (
            self.args.search.threads_or(1),
            self.args.search.hash_or(DEFAULT_HASH_MB),
        );
        let eval = self.eval.clone();
        let kept = &mut self.tables;
        self.engine.get_or_insert_with(|| {
            let mut s = GameSession::new(threads, hash);
            // Made for this game by `run_variant`.
            let _ = s.set_evaluator(eval);
            s.set_skill(skill);
            s.set_seed(seed);
            s.set_book(book);
            s.set_book_variety(variety);
            if let Some((dir, cache)) = egtb {
                match crate::egtb::endgames::open_for::<P>(&dir, cache) {
                    Ok((tb, eg)) => {
                        // Files of the folder left out (another game's, cut short): once.
                        for m in tb.take_messages() {
                            eprintln!("damka play: {m}");
                        }
                        *kept = Some(tb);
                        s.searcher_mut().set_endgames(Some(eg))
                    }
                    Err(e) => eprintln!("damka play: endgame databases not used: {e}"),
                }
            }
            s
        })
    }

    fn limits(&self) -> Limits<P::Move> {
        match self.args.depth {
            Some(d) => Limits {
                depth: Some(d.max(1)),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(self.args.time.max(0.01)),
                ..Limits::default()
            },
        }
    }

    /// Searches the current position; returns the best move (checked against the legal moves)
    /// and the score.
    fn search(&mut self) -> Result<(P::Move, Score, u32), String> {
        let limits = self.limits();
        let game = self.game.clone();
        let engine = self.engine();
        engine.set_game(game);
        let res = engine
            .search_blocking(&limits, GoMode::Think, |_| {})
            .map_err(|e| e.to_string())?;
        // A table found damaged by this search: said once (the terminal's error stream).
        for m in self.tables.iter().flat_map(|t| t.take_messages()) {
            eprintln!("damka play: {m}");
        }
        let mv = res.best.ok_or("the engine found no move")?;
        Ok((mv, res.score, res.depth))
    }

    /// Plays the engine's move; returns it with the score and depth, for the user to read.
    fn engine_move(&mut self) -> Result<String, String> {
        let (mv, score, depth) = self.search()?;
        let text = self.game.position().move_to_algebraic(&mv);
        self.game
            .play(mv)
            .map_err(|e| format!("engine move {text}: {e}"))?;
        Ok(format!(
            "{text} (score {}, depth {depth})",
            score_text(score, ScoreStyle::Words)
        ))
    }

    fn hint(&mut self) -> io::Result<()> {
        match self.search() {
            Ok((mv, score, depth)) => {
                let text = self.game.position().move_to_algebraic(&mv);
                writeln!(
                    self.out,
                    "hint: {text} (score {}, depth {depth})",
                    score_text(score, ScoreStyle::Words)
                )
            }
            Err(e) => writeln!(self.out, "no hint: {e}"),
        }
    }

    fn save(&mut self, file: &str) -> io::Result<()> {
        let mut rec = Record::new(self.game.clone());
        rec.set_tag("Event", "damka play");
        rec.set_tag("Date", &today());
        rec.set_tag("White", player_tag(self.args.white));
        rec.set_tag("Black", player_tag(self.args.black));
        match std::fs::write(file, rec.to_pdn()) {
            Ok(()) => writeln!(self.out, "saved the game to {file}"),
            Err(e) => writeln!(self.out, "could not save to {file}: {e}"),
        }
    }

    /// Replaces the game by the first game of a PDN file (same variant), to go on from its
    /// last position.
    fn load(&mut self, file: &str) -> io::Result<()> {
        let text = match crate::core::file::read_text(std::path::Path::new(file), "a PDN file") {
            Ok(t) => t,
            Err(e) => return writeln!(self.out, "could not read {e}"),
        };
        match Record::<P>::from_pdn(&text) {
            Ok(rec) => {
                self.game = rec.game;
                self.announced = None;
                writeln!(self.out, "loaded {file}: {} moves played", self.game.ply())?;
                self.show()
            }
            Err(e) => writeln!(self.out, "could not load {file}: {e}"),
        }
    }

    fn show(&mut self) -> io::Result<()> {
        let board =
            crate::variant::board::render(self.game.position(), self.flipped, self.args.ascii);
        write!(self.out, "{board}")?;
        if let Some((p, m)) = self.game.last_move() {
            writeln!(self.out, "Last move: {}", p.move_to_algebraic(m))?;
        }
        Ok(())
    }
}

fn name(p: Player) -> &'static str {
    match p {
        Player::Human => "human",
        Player::Engine => "engine",
    }
}

fn player_tag(p: Player) -> &'static str {
    match p {
        Player::Human => "Human",
        Player::Engine => "damka",
    }
}
