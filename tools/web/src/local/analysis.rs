//! Analysis and review on the server's engine, for pages without the engine in the browser:
//! the best lines (multi-PV) of any position, and the review of a game (every position
//! searched through the pool, marked by the library's rule, see docs/review.md), kept with the
//! server's game it belongs to. Each asker searches within its share of the engine
//! ([`App::engine_share`]): one position at a time, queued fairly with everyone else's.

use crate::app::App;
use crate::local::pool::{PoolRequest, MAX_ANALYSIS_LINES};
use crate::transport::api::ApiError;
use damka::core::{Color, Variant};
use damka::review::{rules_score, DEFAULT_REVIEW_MOVETIME, MAX_REVIEW_PLIES};
use damka_page::review::{ReviewRequest, ReviewView, VerdictIn};
use damka_page::PageGame;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Seconds an analysis of one position searches.
pub const ANALYSIS_TIME: f64 = 1.0;

/// A position and the game before it, as the page asks about it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PositionAsk {
    /// `russian` (the default) or `turkish`.
    pub variant: Option<String>,
    /// The start position (FEN; empty: the usual start).
    pub fen: String,
    /// The moves played from it (algebraic or Hub).
    pub moves: Vec<String>,
    /// Lines wanted (analysis; 3 when absent, 1 to 5).
    pub lines: Option<u32>,
    /// The server's game the moves are (review: the review is kept with it).
    pub game: Option<String>,
}

/// One line of an analysis.
#[derive(Clone, Debug, Serialize)]
pub struct LineView {
    /// Its rank, 1 the best.
    pub line: usize,
    /// Men from White's point of view (as the Hub `score`, turned to White's side).
    pub score: f64,
    /// The moves, algebraic.
    pub moves: Vec<String>,
    /// The board after each move (64 characters, as the page's views), for the side line.
    pub boards: Vec<String>,
}

/// The answer to an analysis.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisView {
    /// Moves before the position analysed.
    pub ply: usize,
    /// Depth completed.
    pub depth: u32,
    /// The lines, best first.
    pub lines: Vec<LineView>,
}

fn game_of(ask: &PositionAsk) -> Result<PageGame, ApiError> {
    if ask.moves.len() > MAX_REVIEW_PLIES {
        return Err(ApiError::Bad(format!(
            "the game has {} plies; at most {MAX_REVIEW_PLIES} are taken",
            ask.moves.len()
        )));
    }
    let variant: Variant = ask
        .variant
        .as_deref()
        .unwrap_or("russian")
        .parse()
        .map_err(|e| ApiError::Bad(format!("{e}")))?;
    let req = ReviewRequest {
        fen: ask.fen.clone(),
        moves: ask.moves.clone(),
        ..ReviewRequest::default()
    };
    PageGame::of_request(variant, &req).map_err(ApiError::Bad)
}

/// The boards after each move of `line` from `game`'s position (cut at an illegal move).
fn boards_of(game: &PageGame, line: &[damka::variant::Move]) -> Vec<String> {
    let mut g = game.clone();
    let mut out = Vec::new();
    for mv in line {
        if g.play_move(*mv).is_err() {
            break;
        }
        out.push(g.board());
    }
    out
}

fn white_men(score: damka::core::Score, side: Color) -> f64 {
    let s = if side == Color::White { score } else { -score };
    f64::from(s) / 100.0
}

impl App {
    /// The engine's best lines in the position after `ask`'s moves.
    pub async fn analyse(
        &self,
        ask: &PositionAsk,
        client: Option<std::net::IpAddr>,
    ) -> Result<AnalysisView, ApiError> {
        let game = game_of(ask)?;
        if game.is_over() {
            return Err(ApiError::Bad("the game is over in this position".into()));
        }
        let lines = ask.lines.unwrap_or(3).clamp(1, MAX_ANALYSIS_LINES);
        let r = self
            .pool
            .search(request(&game, ANALYSIS_TIME, lines, client, None))
            .await?;
        let side = game.side_to_move();
        Ok(AnalysisView {
            ply: game.ply(),
            depth: r.depth,
            lines: r
                .lines
                .iter()
                .enumerate()
                .map(|(k, (score, pv))| LineView {
                    line: k + 1,
                    score: white_men(*score, side),
                    moves: game.line_texts(pv),
                    boards: boards_of(&game, pv),
                })
                .collect(),
        })
    }

    /// Reviews the game of `ask`: every position searched for the default budget, `step(done,
    /// total)` after each; stops when `cancel` is set. Kept with the server's game `ask.game`
    /// when its moves are that game's.
    pub async fn review(
        &self,
        ask: &PositionAsk,
        client: Option<std::net::IpAddr>,
        cancel: Arc<AtomicBool>,
        mut step: impl FnMut(usize, usize),
    ) -> Result<ReviewView, ApiError> {
        let game = game_of(ask)?;
        let variant = game.variant();
        let total = ask.moves.len() + 1;
        let mut verdicts = Vec::with_capacity(total);
        let mut prefix = PageGame::new(variant, Some(&ask.fen)).map_err(ApiError::Bad)?;
        for i in 0..total {
            if i > 0 {
                prefix.play_text(&ask.moves[i - 1]).map_err(ApiError::Bad)?;
            }
            if cancel.load(Ordering::Relaxed) {
                return Err(ApiError::Bad("review cancelled".into()));
            }
            let over = damka::per_game!(prefix.typed(), g => rules_score(g));
            let verdict = match over {
                Some(score) => VerdictIn { score, best: None },
                None => {
                    let found = self
                        .pool
                        .search(request(
                            &prefix,
                            DEFAULT_REVIEW_MOVETIME,
                            1,
                            client,
                            Some(cancel.clone()),
                        ))
                        .await;
                    // A search dropped by the cancel says so, not how it was dropped.
                    if cancel.load(Ordering::Relaxed) {
                        return Err(ApiError::Bad("review cancelled".into()));
                    }
                    let r = found?;
                    VerdictIn {
                        score: r.score,
                        best: prefix.move_view(&r.best).map(|m| m.text),
                    }
                }
            };
            verdicts.push(verdict);
            step(i + 1, total);
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(ApiError::Bad("review cancelled".into()));
        }
        let req = ReviewRequest {
            fen: ask.fen.clone(),
            moves: ask.moves.clone(),
            verdicts,
            tags: vec![("Event".into(), "damka review".into())],
        };
        let view = game.review(&req).map_err(ApiError::Bad)?;
        if let Some(id) = &ask.game {
            self.keep_review(id, &game, &view);
        }
        Ok(view)
    }

    /// Keeps `view` with server game `id` if `game` is that game now (a failure is logged).
    fn keep_review(&self, id: &str, game: &PageGame, view: &ReviewView) {
        let db = &self.online.db;
        // The game's row as it is now first: the review goes into it.
        let saved = self.store.with(id, |e| {
            (e.game.hub_moves() == game.hub_moves()).then(|| db.save_game(id, e))
        });
        let json = serde_json::json!({ "moves": game.hub_moves(), "review": view }).to_string();
        let kept = match saved.flatten() {
            None => return,
            Some(Err(m)) => Err(m),
            Some(Ok(())) => db.save_review(id, &json),
        };
        match kept {
            Ok(true) => {}
            Ok(false) => eprintln!("damka-web: review of game {id}: the game is not saved"),
            Err(m) => eprintln!("damka-web: review of game {id}: {m}"),
        }
    }

    /// The review kept with server game `id`, if one was made of its moves now.
    pub fn kept_review(&self, id: &str) -> Option<serde_json::Value> {
        let moves = self.store.with(id, |e| e.game.hub_moves())?;
        let text = self.online.db.load_review(id).ok()??;
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        (v["moves"] == serde_json::json!(moves)).then(|| v["review"].clone())
    }
}

/// `v` with its message type.
pub fn tagged(kind: &str, mut v: serde_json::Value) -> Arc<str> {
    v["type"] = kind.into();
    v.to_string().into()
}

fn error_message(e: ApiError) -> Arc<str> {
    tagged("error", serde_json::json!({ "message": e.to_string() }))
}

impl App {
    /// The `analysis` message answering `ask` (an `error` when it fails).
    pub async fn analysis_message(
        &self,
        ask: &PositionAsk,
        client: Option<std::net::IpAddr>,
    ) -> Arc<str> {
        match self.analyse(ask, client).await {
            Ok(v) => tagged("analysis", serde_json::json!(v)),
            Err(e) => error_message(e),
        }
    }

    /// The `review` message answering `ask` (an `error` when it fails or is cancelled), with
    /// a `review-progress` message to `progress` after each position (which says whether it
    /// could pass it on: a connection that does not read misses some, not the review).
    pub async fn review_message(
        &self,
        ask: &PositionAsk,
        client: Option<std::net::IpAddr>,
        cancel: Arc<AtomicBool>,
        progress: impl Fn(Arc<str>) -> bool,
    ) -> Arc<str> {
        let step = |done: usize, total: usize| {
            progress(tagged(
                "review-progress",
                serde_json::json!({ "done": done, "total": total }),
            ));
        };
        match self.review(ask, client, cancel, step).await {
            Ok(v) => tagged("review", serde_json::json!(v)),
            Err(e) => error_message(e),
        }
    }
}

fn request(
    game: &PageGame,
    movetime: f64,
    lines: u32,
    client: Option<std::net::IpAddr>,
    cancel: Option<Arc<AtomicBool>>,
) -> PoolRequest {
    PoolRequest {
        client: client.map(crate::transport::guard::group),
        cancel,
        lines,
        ..PoolRequest::new(game.typed().clone(), movetime)
    }
}
