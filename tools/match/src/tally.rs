//! The results of a match as they come in: one line per game, the statistics (per opponent,
//! in total, in colour-swapped pairs), the SPRT stop, and the final report.

use crate::game::GameRecord;
use crate::stats::{elo_pentanomial, elo_trinomial, los, Pentanomial, Sprt, SprtDecision, Wdl};
use damka::core::Color;
use damka::game::pdn::result_text;
use damka::variant::Outcome;
use std::collections::HashMap;

/// The results so far, from the first engine's side.
pub struct Tally<'a> {
    /// Engine names; the first is measured against the others.
    names: &'a [String],
    /// Games in the whole match.
    total: usize,
    /// Results against each opponent (index 0 unused).
    per_opp: Vec<Wdl>,
    /// Results over all opponents.
    all: Wdl,
    /// Points of the finished colour-swapped pairs.
    penta: Pentanomial,
    /// The first game's points of each pair whose second game has not finished.
    halves: HashMap<usize, f64>,
    /// Games finished.
    finished: usize,
    /// The SPRT's decision and its log-likelihood ratio, once made.
    decision: Option<(SprtDecision, f64)>,
    /// Games decided by an engine failure.
    failures: usize,
}

impl<'a> Tally<'a> {
    /// An empty tally for a match of `total` games between `names`.
    pub fn new(names: &'a [String], total: usize) -> Tally<'a> {
        Tally {
            names,
            total,
            per_opp: vec![Wdl::default(); names.len()],
            all: Wdl::default(),
            penta: Pentanomial::default(),
            halves: HashMap::new(),
            finished: 0,
            decision: None,
            failures: 0,
        }
    }

    /// Counts game `g` (played from opening `opening`) and prints its line and any failure.
    pub fn add(&mut self, g: usize, opening: usize, rec: &GameRecord) {
        self.finished += 1;
        let opp = if rec.white == 0 { rec.black } else { rec.white };
        let first_color = if rec.white == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut r = Wdl::default();
        match rec.outcome {
            Outcome::Draw => r.draws = 1,
            Outcome::Win(c) if c == first_color => r.wins = 1,
            Outcome::Win(_) => r.losses = 1,
        }
        self.per_opp[opp].add(&r);
        self.all.add(&r);
        let pair = g / 2;
        match self.halves.remove(&pair) {
            Some(other) => self.penta.add_pair(other + r.points()),
            None => {
                self.halves.insert(pair, r.points());
            }
        }
        let names = self.names;
        println!(
            "Game {}/{} {} vs {}, opening {}: {} ({}); {} +{} ={} -{}, score {}/{}",
            g + 1,
            self.total,
            names[rec.white],
            names[rec.black],
            opening + 1,
            result_text(Some(rec.outcome)),
            rec.reason,
            names[0],
            self.all.wins,
            self.all.draws,
            self.all.losses,
            self.all.points(),
            self.all.games()
        );
        if let Some(f) = &rec.failure {
            self.failures += 1;
            let who = if f.side == Color::White {
                rec.white
            } else {
                rec.black
            };
            println!("  {} {}", names[who], f.failure);
            if !f.last_lines.is_empty() {
                println!("  last lines of {}:", names[who]);
                for l in &f.last_lines {
                    println!("    {l}");
                }
            }
        }
    }

    /// Runs the SPRT, if any, on the pairs so far; true when it has just decided (the match
    /// should stop).
    pub fn sprt_decides(&mut self, sprt: Option<&Sprt>) -> bool {
        let (Some(t), None) = (sprt, self.decision) else {
            return false;
        };
        let llr = t.llr_pentanomial(&self.penta);
        let Some(d) = t.decide(llr) else {
            return false;
        };
        self.decision = Some((d, llr));
        println!(
            "SPRT decided ({d:?}) after {} games; stopping",
            self.finished
        );
        true
    }

    /// Prints the final report: the table per opponent, the Elo estimate, the pairs, the SPRT
    /// verdict, and last the one line scripts read (`elo= error= games= score=`).
    pub fn report(&self, sprt: Option<&Sprt>) {
        let names = self.names;
        println!();
        println!(
            "{:<20} {:>6} {:>6} {:>6} {:>6} {:>8} {:>7}",
            "Opponent", "games", "wins", "draws", "losses", "points", "score"
        );
        for (i, r) in self.per_opp.iter().enumerate().skip(1) {
            let pct = if r.games() > 0 {
                100.0 * r.points() / r.games() as f64
            } else {
                0.0
            };
            println!(
                "{:<20} {:>6} {:>6} {:>6} {:>6} {:>8} {:>6.1}%",
                names[i],
                r.games(),
                r.wins,
                r.draws,
                r.losses,
                r.points(),
                pct
            );
        }
        println!("(wins, draws, losses and points are {}'s)", names[0]);
        if self.failures > 0 {
            println!(
                "{} game(s) decided by an engine failure (see above)",
                self.failures
            );
        }
        let (elo, error) = self.elo_lines();
        if let Some(t) = sprt {
            self.sprt_line(t);
        }
        println!(
            "elo={} error={} games={} score={}",
            fmt_elo(elo),
            fmt_elo(error),
            self.all.games(),
            self.all.points()
        );
    }

    /// Prints the Elo estimate and the pairs; returns the estimate and its error.
    fn elo_lines(&self) -> (f64, f64) {
        // Pentanomial when every finished game belongs to a finished pair (colours
        // balanced); trinomial otherwise (e.g. an odd number of games, or an SPRT stop
        // mid-pair).
        let pent_ok = self.penta.pairs() > 0 && self.halves.is_empty();
        let est = if pent_ok {
            elo_pentanomial(&self.penta)
        } else {
            elo_trinomial(&self.all)
        };
        let (elo, error) = match est {
            Some(e) if e.elo.is_finite() => (e.elo, e.error),
            Some(e) => (e.elo, f64::INFINITY),
            None => (0.0, f64::INFINITY),
        };
        println!(
            "Elo difference: {} +/- {} (95%, {}), LOS: {:.1}%",
            fmt_elo(elo),
            fmt_elo(error),
            if pent_ok {
                format!("pentanomial over {} pairs", self.penta.pairs())
            } else {
                "trinomial".to_string()
            },
            100.0 * los(&self.all)
        );
        if self.penta.pairs() > 0 {
            let p = self.penta.0;
            println!(
                "Pairs by points (0, 0.5, 1, 1.5, 2): {} {} {} {} {}",
                p[0], p[1], p[2], p[3], p[4]
            );
        }
        (elo, error)
    }

    fn sprt_line(&self, t: &Sprt) {
        let (lo, hi) = t.bounds();
        let llr = self
            .decision
            .map_or_else(|| t.llr_pentanomial(&self.penta), |d| d.1);
        let verdict = match self.decision {
            Some((SprtDecision::H1, _)) => "H1 accepted",
            Some((SprtDecision::H0, _)) => "H0 accepted",
            None => "no decision",
        };
        println!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] {}",
            t.elo0, t.elo1, t.alpha, t.beta, llr, lo, hi, verdict
        );
    }
}

/// An Elo figure with one decimal, or `inf`, `-inf`, `nan`.
fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else if x > 0.0 {
        "inf".into()
    } else if x < 0.0 {
        "-inf".into()
    } else {
        "nan".into()
    }
}
