//! The process-wide evaluation choice through the engine's options (a test binary of its own:
//! the choice is global to the process).

use damka::core::{Rng, Variant};
use damka::engine::{Engine, OptionKind};
use damka::eval::pattern::Net;
use damka::eval::{netfile, select};

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
    assert!(select::active(Variant::Russian).is_none());
    assert!(select::active(Variant::Turkish).is_none());
    assert!(damka::engine::eval_names().contains("russian:classic"));
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
    assert!(select::active(Variant::Russian).is_none());

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
    assert_eq!(select::name(Variant::Russian), "loaded-net");
    assert_eq!(select::name(Variant::Turkish), "classic");
    let value = e
        .options()
        .into_iter()
        .find(|o| o.name == "eval-file")
        .unwrap()
        .value;
    assert_eq!(value, good.to_str().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}
