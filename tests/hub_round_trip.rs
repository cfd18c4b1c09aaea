//! What one side of the Hub protocol writes, the other reads back as written: a client's
//! commands (the match tool) read by the engine, the engine's replies read by a client.

use damka::engine::GoMode;
use damka::protocol::hub::command::{parse_command, Command, Level, LevelUpdate, PosSource};
use damka::protocol::hub::reply::{parse_reply, EngineReply, HubInfo, Id, ParamDecl, ParamKind};

fn command_round_trip(c: Command) -> String {
    let line = c.to_line();
    assert_eq!(parse_command(&line), Ok(Some(c)), "{line}");
    line
}

#[test]
fn every_command_reads_back_as_written() {
    assert_eq!(command_round_trip(Command::Hub), "hub");
    assert_eq!(command_round_trip(Command::Init), "init");
    assert_eq!(command_round_trip(Command::NewGame), "new-game");
    assert_eq!(command_round_trip(Command::Stop), "stop");
    assert_eq!(command_round_trip(Command::PonderHit), "ponder-hit");
    assert_eq!(command_round_trip(Command::Ping), "ping");
    assert_eq!(command_round_trip(Command::Quit), "quit");
    assert_eq!(
        command_round_trip(Command::SetParam {
            name: "variant".into(),
            value: "turkish".into()
        }),
        "set-param name=variant value=turkish"
    );
    assert_eq!(
        command_round_trip(Command::SetParam {
            name: "opts".into(),
            value: "a=b c".into()
        }),
        "set-param name=opts value=\"a=b c\""
    );
    assert_eq!(
        command_round_trip(Command::Pos {
            source: PosSource::Text("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww".into()),
            moves: vec!["10-14".into(), "23-18".into()],
        }),
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 23-18\""
    );
    assert_eq!(
        command_round_trip(Command::Pos {
            source: PosSource::Text("W:W21:B1".into()),
            moves: vec!["21-17".into()],
        }),
        "pos pos=W:W21:B1 moves=21-17"
    );
    assert_eq!(
        command_round_trip(Command::Pos {
            source: PosSource::Start,
            moves: vec![]
        }),
        "pos start"
    );
    for (mode, word) in [
        (GoMode::Think, "think"),
        (GoMode::Ponder, "ponder"),
        (GoMode::Analyze, "analyze"),
    ] {
        assert_eq!(command_round_trip(Command::Go(mode)), format!("go {word}"));
    }
}

#[test]
fn level_lines_read_back_exactly() {
    let level = |levels: &[Level]| Command::Level(LevelUpdate(levels.to_vec()));
    let clock = [Level::Time(9.523), Level::Inc(0.1), Level::Moves(40)];
    assert_eq!(
        command_round_trip(level(&clock)),
        "level time=9.523 inc=0.100 moves=40"
    );
    let fixed = [
        Level::Depth(3),
        Level::Nodes(2000),
        Level::MoveTime(0.005),
        Level::Infinite(true),
    ];
    assert_eq!(
        command_round_trip(level(&fixed)),
        "level depth=3 nodes=2000 move-time=0.005 infinite"
    );
    let odd = [Level::Time(-0.25), Level::Inc(0.0), Level::Infinite(false)];
    command_round_trip(level(&odd));
    // Finer than the millisecond is rounded to it.
    assert_eq!(level(&[Level::Time(1.23456)]).to_line(), "level time=1.235");
    assert_eq!(command_round_trip(level(&[])), "level");
}

/// Every reply reads back as itself.
fn reply_round_trip(r: EngineReply) {
    let line = r.to_line();
    assert_eq!(parse_reply(&line).unwrap(), Some(r), "{line}");
}

#[test]
fn replies_read_back_as_written() {
    reply_round_trip(EngineReply::Id(Id {
        name: Some("damka".into()),
        version: Some("0.1.0".into()),
        author: Some("the damka authors".into()),
    }));
    reply_round_trip(EngineReply::Param(ParamDecl {
        name: "variant".into(),
        value: Some("russian".into()),
        kind: Some(ParamKind::Enum(vec!["russian".into(), "turkish".into()])),
    }));
    reply_round_trip(EngineReply::Param(ParamDecl {
        name: "hash".into(),
        value: Some("64".into()),
        kind: Some(ParamKind::Int {
            min: Some(1),
            max: Some(4096),
        }),
    }));
    reply_round_trip(EngineReply::Param(ParamDecl {
        name: "book".into(),
        value: Some("".into()),
        kind: Some(ParamKind::Other("string".into())),
    }));
    for r in [EngineReply::Wait, EngineReply::Ready, EngineReply::Pong] {
        reply_round_trip(r);
    }
    reply_round_trip(EngineReply::Info(HubInfo {
        depth: Some(7),
        mean_depth: Some(8.3),
        score: Some(-0.31),
        nodes: Some(123_456),
        time: Some(0.5),
        nps: Some(0.25),
        pv: vec!["10-14".into(), "23x5x10x14".into()],
        string: None,
        egtb_hits: None,
        multipv: None,
        book: false,
    }));
    reply_round_trip(EngineReply::Info(HubInfo {
        depth: Some(9),
        pv: vec!["1-5".into()],
        egtb_hits: Some(42),
        ..Default::default()
    }));
    reply_round_trip(EngineReply::Info(HubInfo {
        depth: Some(3),
        pv: vec!["9-13".into()],
        multipv: Some(3),
        book: true,
        ..Default::default()
    }));
    reply_round_trip(EngineReply::Info(HubInfo {
        string: Some("threads: 256 asked, 3 started".into()),
        ..Default::default()
    }));
    reply_round_trip(EngineReply::Done {
        mv: "14x5x10".into(),
        ponder: Some("1-6".into()),
    });
    reply_round_trip(EngineReply::Done {
        mv: "9-13".into(),
        ponder: None,
    });
    reply_round_trip(EngineReply::Error {
        message: "no legal move".into(),
    });
}
