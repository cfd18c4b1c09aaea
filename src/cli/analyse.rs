//! `damka analyse`: analyses one position, printing one line per completed iteration and last
//! `bestmove <move>` (algebraic, every landing square).

use crate::core::{score_text, ScoreStyle, Variant};
use crate::engine::{Engine, GoMode, Limits, SearchInfo};
use clap::Args;

/// Arguments of `damka analyse`.
#[derive(Args, Debug, Default)]
pub struct AnalyseArgs {
    /// The game.
    #[arg(long)]
    pub variant: Option<Variant>,
    /// The position and the moves played from it.
    #[command(flatten)]
    pub position: super::search_opts::PositionArgs,
    /// Depth, time or node limit.
    #[command(flatten)]
    pub limits: super::search_opts::LimitArgs,
    /// Root lines per iteration, best first, each with a different first move (multi-PV).
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=crate::engine::MAX_MULTIPV as i64))]
    pub multipv: u32,
    /// Search only these root moves (space separated, Hub numbers or algebraic).
    #[arg(long = "moves-only")]
    pub moves_only: Option<String>,
    /// Leave these root moves out of the search (space separated).
    #[arg(long)]
    pub exclude: Option<String>,
    /// The strength level.
    #[command(flatten)]
    pub strength: super::search_opts::StrengthArgs,
    /// Annotate the game in this PDN file instead of analysing one position.
    #[arg(long, conflicts_with_all = ["fen", "moves", "moves_only", "exclude"])]
    pub pdn: Option<std::path::PathBuf>,
    /// With `--pdn`: the file to write (standard output when omitted).
    #[arg(long, requires = "pdn")]
    pub out: Option<std::path::PathBuf>,
    /// With `--pdn`: a move losing more than this many centi-men against the best is
    /// marked `?`.
    #[arg(long, default_value_t = 50, requires = "pdn")]
    pub mistake: i32,
    /// With `--pdn`: a move losing more than this many centi-men is marked `??`.
    #[arg(long, default_value_t = 150, requires = "pdn")]
    pub blunder: i32,
    /// Threads, table, endgame databases, evaluation.
    #[command(flatten)]
    pub search: super::search_opts::SearchArgs,
}

/// One iteration line (`multipv=K` first for a line of a multi-PV search).
pub fn info_line(i: &SearchInfo) -> String {
    let pv: Vec<&str> = i.pv.iter().map(|m| m.algebraic.as_str()).collect();
    let rank = i.multipv.map_or(String::new(), |k| format!("multipv={k} "));
    rank + &format!(
        "depth={} mean-depth={:.1} score={} nodes={} time={:.3} nps={:.0} pv=\"{}\"",
        i.depth,
        i.mean_depth,
        score_text(i.score, ScoreStyle::Token),
        i.nodes,
        i.time,
        i.nps,
        pv.join(" ")
    ) + &i
        .egtb_hits
        .map_or(String::new(), |h| format!(" egtb-hits={h}"))
}

/// The engine `args` ask for (threads, table, databases, multi-PV, strength), or the error.
pub fn engine_for(args: &AnalyseArgs) -> Result<Engine, String> {
    let evals = args.search.eval.evaluators()?;
    let mut engine = Engine::new(args.variant.unwrap_or(Variant::Russian));
    engine.set_evaluators(evals);
    let mut settings = engine.settings().clone();
    if let Some(n) = args.search.threads {
        settings.threads = n as usize;
    }
    if let Some(h) = args.search.hash {
        settings.hash_mb = h as usize;
    }
    if let Some((path, cache)) = args.search.egtb.tables() {
        settings.egtb_path = path.to_string_lossy().into_owned();
        settings.egtb_cache_mb = cache;
    }
    settings.multipv = args.multipv;
    settings.skill = args.strength.skill;
    settings.seed = args.strength.seed;
    engine.apply(&settings).map_err(|e| e.to_string())?;
    for notice in engine.take_notices() {
        eprintln!("damka analyse: {notice}");
    }
    Ok(engine)
}

/// Default time when no limit is given, seconds.
pub const DEFAULT_MOVETIME: f64 = 5.0;

/// The limits of `args` with the root moves of `--moves-only` and `--exclude` as written.
pub fn root_move_texts(args: &AnalyseArgs) -> Limits {
    let words = |s: &Option<String>| -> Vec<String> {
        s.as_deref()
            .map(|m| m.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default()
    };
    Limits {
        moves_only: words(&args.moves_only),
        exclude: words(&args.exclude),
        ..args.limits.limits(DEFAULT_MOVETIME)
    }
}

/// Runs `damka analyse` of one position (with `--pdn`, [`super::annotate::run`] annotates
/// the games of a file instead); returns the exit status.
pub fn run(args: AnalyseArgs) -> i32 {
    let mut engine = match engine_for(&args) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("damka analyse: {e}");
            return 2;
        }
    };
    let moves = args.position.move_list();
    let pos = match &args.position.fen {
        Some(f) => f.clone(),
        None => engine.fen(),
    };
    if let Err(e) = engine.set_position(&pos, &moves) {
        eprintln!("damka analyse: {e}");
        return 2;
    }
    if engine.legal_moves().is_empty() {
        eprintln!("damka analyse: the side to move has no legal move: the game is over");
        return 2;
    }
    let limits = root_move_texts(&args);
    let res = engine.search_blocking(
        limits,
        GoMode::Analyze,
        Box::new(|i: &SearchInfo| println!("{}", info_line(i))),
    );
    for m in engine.take_notices() {
        eprintln!("damka analyse: {m}");
    }
    match res {
        Ok(out) => match out.best {
            Some(m) => {
                println!("bestmove {}", m.algebraic);
                0
            }
            None => {
                println!("bestmove none");
                1
            }
        },
        Err(e) => {
            eprintln!("damka analyse: {e}");
            1
        }
    }
}
