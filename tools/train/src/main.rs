//! `damka-train`: fits the weights of damka's learned evaluation ([`damka::eval::pattern`]) on
//! `damka datagen` records by logistic regression, and writes a weights file.
//!
//! The model is linear in its features (region patterns, king squares, material; each with an
//! opening and an ending weight blended by the number of pieces), so the engine's integer
//! score `s` (centi-men) is exactly what is fitted: the prediction is `sigmoid(s / K)`, the
//! target `lambda * result + (1 - lambda) * sigmoid(search score / K)` for the side to move
//! (result 1 win, 0.5 draw, 0 loss), the loss cross-entropy, the optimiser Adam on
//! mini-batches (only the weights a batch touches move). `K` is fitted first so that the
//! recorded search scores best predict the results: the learned evaluation then speaks the
//! same centi-men as the search's margins expect.
//!
//! Validation: whole games (told apart by their ply sequence) are held out by a seeded hash,
//! so no position of a validation game is trained on.

mod fit;
mod nn;

use clap::Parser;
use damka::core::Variant;
use damka::eval::data::{self, ScoredPosition};
use damka::eval::{netfile, network};
use std::path::PathBuf;

/// Fits the learned evaluation's weights on datagen records.
#[derive(Parser, Debug)]
#[command(name = "damka-train", version, about)]
pub struct Args {
    /// The game.
    #[arg(long, value_parser = |s: &str| s.parse::<Variant>().map_err(|e| e.to_string()))]
    pub variant: Variant,
    /// Datagen files (records of other games are skipped).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The weights file written.
    #[arg(long)]
    pub out: PathBuf,
    /// Name of the net (Hub `id` line, `damka --version`), printable ASCII, at most 32 bytes.
    #[arg(long)]
    pub name: String,
    /// Seed of the validation split and the shuffling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Share of the games held out for validation.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Passes over the training data.
    #[arg(long, default_value_t = 12)]
    pub epochs: usize,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    /// Adam step size (centi-men), multiplied by `--decay` after every epoch.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Step size factor per epoch.
    #[arg(long, default_value_t = 0.75)]
    pub decay: f64,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// L2 penalty on the pattern and king weights (per position).
    #[arg(long, default_value_t = 1e-6)]
    pub l2: f64,
    /// Use the hand-written evaluation as one more feature (its weight fitted too): the
    /// patterns then learn what it misses.
    #[arg(long)]
    pub with_classic: bool,
    /// With `--init` of a net that uses the hand-written evaluation, and without
    /// `--with-classic`: start from that net without it. The material the hand-written term
    /// counted (men 100, kings as its game values them, opening and ending) moves into the
    /// material weights, and the patterns and network learn the rest. A net without the term
    /// costs less per node.
    #[arg(long)]
    pub drop_classic: bool,
    /// Leave the region patterns out: their weights stay at zero, and the net written has
    /// none, so the engine computes none (the network learns what they gave). With `--init`
    /// of a net that has them, they are dropped; implied when `--init` names a net without.
    #[arg(long)]
    pub no_patterns: bool,
    /// Start from this net's weights (a weights file of the same game) instead of zeros: the
    /// next generation learns from new games without forgetting what the last one knew.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Add the network over the pieces (`damka::eval::network`), trained jointly with the
    /// linear terms; implied when `--init` names a net that has one.
    #[arg(long)]
    pub network: bool,
    /// Hidden units of the network (64 or 128). With `--init` of a net with fewer units, its
    /// units are kept and the new ones start at random, adding nothing until trained.
    #[arg(long, default_value_t = 64)]
    pub hidden: usize,
    /// Adam step size of the network's first layer (in units of a hidden unit's range; the
    /// output weights use `--lr`), decayed like `--lr`.
    #[arg(long, default_value_t = 0.002)]
    pub nn_lr: f64,
    /// L2 penalty on the network's output weights (per position, in centi-men): it keeps the
    /// network from large terms that cancel on the training positions and not elsewhere.
    #[arg(long, default_value_t = 0.0)]
    pub nn_l2: f64,
    /// Scale K of the sigmoid in centi-men; fitted on the data when omitted.
    #[arg(long)]
    pub k: Option<f64>,
}

fn main() {
    let args = Args::parse();
    if args.name.is_empty()
        || args.name.len() > 32
        || !args.name.bytes().all(|c| c.is_ascii_graphic())
    {
        eprintln!("damka-train: --name must be 1 to 32 printable ASCII characters");
        std::process::exit(2);
    }
    if args.drop_classic && (args.with_classic || args.init.is_none()) {
        eprintln!("damka-train: --drop-classic needs --init and no --with-classic");
        std::process::exit(2);
    }
    if !network::HIDDEN_SIZES.contains(&args.hidden) {
        eprintln!(
            "damka-train: --hidden {}: the engine reads networks of {:?} units",
            args.hidden,
            network::HIDDEN_SIZES
        );
        std::process::exit(2);
    }
    let mut records: Vec<ScoredPosition> = Vec::new();
    for p in &args.data {
        match data::read_file(p) {
            Ok(r) => {
                let n = r.len();
                records.extend(r.into_iter().filter(|r| r.variant == args.variant));
                eprintln!("read {n} records from {}", p.display());
            }
            Err(e) => {
                eprintln!("damka-train: {e}");
                std::process::exit(2);
            }
        }
    }
    let set = fit::DataSet::build(&records, args.variant, args.seed, args.validation);
    if set.train.len() == 0 || set.valid.len() == 0 {
        eprintln!(
            "damka-train: not enough quiet positions of {}",
            args.variant.name()
        );
        std::process::exit(2);
    }
    eprintln!(
        "{} positions ({} with a capture pending skipped), {} games: {} training, {} validation positions",
        records.len(),
        set.skipped,
        set.games,
        set.train.len(),
        set.valid.len()
    );
    let k = args.k.unwrap_or_else(|| fit::fit_k(&set.train));
    eprintln!("K = {k:.1} centi-men");
    let mut nn = None;
    let mut no_patterns = args.no_patterns;
    let start = match &args.init {
        None => None,
        Some(p) => match netfile::load(p) {
            Ok(mut net) if net.variant == args.variant => {
                if !net.has_patterns() && !no_patterns {
                    eprintln!("{}: a net without patterns: --no-patterns", p.display());
                    no_patterns = true;
                }
                if no_patterns {
                    net.patterns.clear();
                }
                if args.drop_classic && net.classic != [0, 0] {
                    fit::drop_classic(&mut net);
                }
                if (net.classic != [0, 0]) != args.with_classic {
                    eprintln!(
                        "damka-train: {}: --with-classic must match the net's (or --drop-classic to leave its term out)",
                        p.display()
                    );
                    std::process::exit(2);
                }
                nn = net.network.as_ref().map(|n| {
                    if n.hidden() < args.hidden {
                        eprintln!(
                            "network widened from {} to {} units",
                            n.hidden(),
                            args.hidden
                        );
                    }
                    nn::Floats::of_widened(n, args.hidden, args.seed)
                });
                Some(fit::weights_of(&net))
            }
            Ok(_) => {
                eprintln!("damka-train: {}: a net for another game", p.display());
                std::process::exit(2);
            }
            Err(e) => {
                eprintln!("damka-train: {e}");
                std::process::exit(2);
            }
        },
    };
    if args.network && nn.is_none() {
        nn = Some(nn::Floats::initial(args.seed, args.hidden));
    }
    let (weights, nn) = fit::train(&set, &args, k, start, nn, !no_patterns);
    let mut net = fit::quantize(&weights, args.variant, &args.name, !no_patterns);
    net.network = nn.as_ref().map(nn::Floats::quantize);
    let (ce, mse) = fit::evaluate_net(&net, &set.valid, k, args.lambda);
    eprintln!("integer net on validation: loss {ce:.5} mse {mse:.5}");
    if let Err(e) = std::fs::write(&args.out, netfile::to_bytes(&net)) {
        eprintln!("damka-train: {}: {e}", args.out.display());
        std::process::exit(1);
    }
    eprintln!("wrote {}", args.out.display());
}
