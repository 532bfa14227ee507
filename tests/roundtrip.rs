//! Round trips over the conformance corpus: read, write, read again gives the same program.

use std::path::PathBuf;
use yasmin::input::read_program;
use yasmin::writer::{to_aspif, to_smodels};

fn corpus() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut files = Vec::new();
    for dir in ["tight", "nontight", "aggregates"] {
        let d = root.join(dir);
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for e in entries {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "smodels") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 100, "conformance corpus looks incomplete: {} files", files.len());
    files
}

#[test]
fn smodels_and_aspif_round_trips_preserve_every_conformance_program() {
    for path in corpus() {
        let text = std::fs::read(&path).unwrap();
        let p1 = read_program(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        p1.check_invariants().unwrap();
        let sm = to_smodels(&p1).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let p2 = read_program(&sm).unwrap_or_else(|e| panic!("{}: rewritten smodels: {e}", path.display()));
        assert_eq!(p1, p2, "{}: smodels round trip differs", path.display());
        let asp = to_aspif(&p1).unwrap();
        let mut p3 =
            read_program(&asp).unwrap_or_else(|e| panic!("{}: rewritten aspif: {e}", path.display()));
        assert_eq!(p3.requested_models, None);
        p3.requested_models = p1.requested_models;
        assert_eq!(p1, p3, "{}: aspif round trip differs", path.display());
    }
}
