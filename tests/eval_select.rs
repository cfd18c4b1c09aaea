//! The evaluation choice through the engine's options: each engine's own.

use damka::core::{Rng, Variant};
use damka::engine::{Engine, OptionKind};
use damka::eval::netfile;
use damka::eval::pattern::Net;

#[test]
fn eval_and_eval_file_options() {
    let mut e = Engine::new(Variant::Russian);
    let opts = e.options();
    let eval = opts.iter().find(|o| o.name == "eval").expect("eval option");
    assert_eq!(eval.kind, OptionKind::Enum(vec!["learned", "classic"]));
    let file = opts
        .iter()
        .find(|o| o.name == "eval-file")
        .expect("eval-file option");
    assert_eq!(file.kind, OptionKind::Text);

    e.set_option("eval", "classic").unwrap();
    assert!(e.evaluators().get(Variant::Russian).net().is_none());
    assert!(e.evaluators().get(Variant::Turkish).net().is_none());
    assert!(e.evaluators().names().contains("russian:classic"));
    assert!(e.set_option("eval", "neural").is_err());

    // A missing and a malformed file are refused with the reason; nothing changes.
    let dir = std::env::temp_dir().join(format!("damka-select-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let err = e
        .set_option("eval-file", dir.join("none.pat").to_str().unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("none.pat"), "{err}");
    std::fs::write(dir.join("bad.pat"), [0u8; 100]).unwrap();
    let err = e
        .set_option("eval-file", dir.join("bad.pat").to_str().unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("DAMKAPAT"), "{err}");
    assert!(e.evaluators().get(Variant::Russian).net().is_none());

    // A good file is used for its game and named.
    let mut net = Net::zeros(Variant::Russian, "loaded-net");
    let mut rng = Rng::new(4);
    for p in net.patterns.iter_mut() {
        *p = [rng.below(200) as i16 - 100, rng.below(200) as i16 - 100];
    }
    net.material = [[1600, 1600], [-1600, -1600], [4800, 4800], [-4800, -4800]];
    let good = dir.join("good.pat");
    std::fs::write(&good, netfile::to_bytes(&net)).unwrap();
    e.set_option("eval-file", good.to_str().unwrap()).unwrap();
    assert_eq!(e.evaluators().get(Variant::Russian).name(), "loaded-net");
    assert_eq!(e.evaluators().get(Variant::Turkish).name(), "classic");
    let value = e
        .options()
        .into_iter()
        .find(|o| o.name == "eval-file")
        .unwrap()
        .value;
    assert_eq!(value, good.to_str().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The score and node count of a depth-`depth` analysis by a fresh engine with `eval`.
fn analyse(eval: &str, depth: u32) -> (i32, u64) {
    let mut e = Engine::new(Variant::Russian);
    e.set_option("eval", eval).unwrap();
    let start = e.fen();
    e.set_position(&start, &["c3-d4", "f6-g5"]).unwrap();
    let limits = damka::engine::Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let out = e
        .search_blocking(limits, damka::engine::GoMode::Analyze, Box::new(|_| {}))
        .unwrap();
    (out.score, out.nodes)
}

#[test]
fn two_engines_in_one_process_each_use_their_own_evaluation() {
    let classic = analyse("classic", 7);
    let learned = analyse("learned", 7);
    assert_ne!(classic, learned, "the two evaluations should differ here");
    // Both at the same time, several times over: each keeps its own evaluation (with a
    // process-wide choice the last one set would serve both).
    let runs: Vec<_> = (0..3)
        .flat_map(|_| {
            [
                std::thread::spawn(|| ("classic", analyse("classic", 7))),
                std::thread::spawn(|| ("learned", analyse("learned", 7))),
            ]
        })
        .collect();
    for run in runs {
        let (eval, got) = run.join().unwrap();
        let want = if eval == "classic" { classic } else { learned };
        assert_eq!(got, want, "{eval}");
    }
}
