//! The DXP initiator in memory against a scripted follower: a whole match with alternating
//! colours and the stop code of the last game, and a refused match.

use crate::dxp_support;

use damka::core::{Color, Rng};
use damka::game::Game;
use damka::protocol::dxp::message::{AccCode, EndReason, Message};
use damka::protocol::dxp::wire::Event;
use damka::protocol::dxp::{GameOver, Match};
use damka::variant::{Position, RussianPosition, TurkishPosition};
use dxp_support::*;
use std::time::Duration;

/// A match of `games` one-minute games from the start, damka playing `color` in each
/// (alternating when `None`).
fn one_minute_match<P: Position>(games: u32, color: Option<Color>) -> Match<P> {
    Match {
        games,
        minutes: 1,
        moves: 0,
        color,
        start: P::start(),
    }
}

#[test]
fn initiator_plays_a_match_against_a_scripted_follower() {
    let (cfg, _) = test_config();
    let (mut peer, handle) = spawn_initiator(cfg, one_minute_match::<RussianPosition>(2, None));
    let mut rng = Rng::new(3);
    for (i, damka) in [Color::White, Color::Black].into_iter().enumerate() {
        let Message::GameReq(req) = peer.expect() else {
            panic!("expected GAMEREQ")
        };
        assert_eq!(req.follower_color, damka.opposite());
        assert_eq!(req.minutes, 1);
        assert_eq!(
            req.setup,
            Some(damka::protocol::dxp::board::setup_of(
                &RussianPosition::start()
            ))
        );
        peer.send(&Message::GameAcc {
            name: "scripted follower".into(),
            code: AccCode::Accept,
        });
        let mut game = Game::<RussianPosition>::from_start();
        loop {
            if game.position().side_to_move() == damka {
                match peer.expect() {
                    Message::GameEnd { stop, .. } => {
                        assert!(game.is_over());
                        assert_eq!(stop, i == 1, "stop code 1 with the last game only");
                        peer.text("E00");
                        break;
                    }
                    m => take_move(&mut game, &m),
                }
            } else if game.is_over() {
                peer.text("E10");
                assert_eq!(
                    peer.expect(),
                    Message::GameEnd {
                        reason: EndReason::Unknown,
                        stop: i == 1
                    }
                );
                break;
            } else {
                let m = random_move(&mut game, &mut rng);
                peer.send(&m);
            }
        }
    }
    let (records, outcome) = handle.join().unwrap();
    assert_eq!(outcome, Ok(()));
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(|r| matches!(r.end, GameOver::Rules(_))));
    // The connection was closed after the match: nothing more comes.
    assert!(matches!(
        peer.next(Duration::from_millis(200)),
        None | Some(Event::Closed(_))
    ));
}

#[test]
fn initiator_stops_when_refused() {
    let (cfg, _) = test_config();
    let (mut peer, handle) = spawn_initiator(
        cfg,
        one_minute_match::<TurkishPosition>(3, Some(Color::Black)),
    );
    let Message::GameReq(req) = peer.expect() else {
        panic!("expected GAMEREQ")
    };
    assert_eq!(req.follower_color, Color::White);
    assert_eq!(req.setup.unwrap().squares.len(), 64);
    peer.send(&Message::GameAcc {
        name: "scripted follower".into(),
        code: AccCode::WrongVersion,
    });
    let (records, outcome) = handle.join().unwrap();
    assert!(records.is_empty());
    let why = outcome.unwrap_err();
    assert!(why.contains("does not speak this version of DXP"), "{why}");
}
