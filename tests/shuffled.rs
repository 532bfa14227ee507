//! `scripts/shuffle_aspif.py`, the benchmarks' copies of a ground program that break ties
//! differently, keeps each program's meaning: every answer set with its costs is the same on
//! the copies as on the original, for the regressions (aggregates, disjunction, optimization,
//! projection, externals), the example instances, and programs with `#edge` and incremental steps. The script runs under
//! `$YASMIN_PYTHON` or `.venv/bin/python` (scripts/setup-test-env.sh), as the differential test.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::repo;

/// Programs of statements the regressions lack, with their answer sets' number (and, under
/// `--project`, their projections'): `{a;b;c;d}. :- a, b. #project a/0. #project b/0.` (three
/// projected, four on any other two of its atoms); `#edge` over four arcs (eleven of the 16
/// subsets are acyclic); and two incremental steps, `{a}.` then `{b}. :- a, b.` (2 and 3).
const INLINE: [(&str, &str, usize, u64); 3] = [
    (
        "projected",
        "asp 1 0 0\n1 1 4 1 2 3 4 0 0\n1 0 0 0 2 1 2\n3 2 1 2\n4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n4 1 d 1 4\n0\n",
        12,
        3,
    ),
    (
        "edges",
        "asp 1 0 0\n1 1 4 1 2 3 4 0 0\n8 0 1 1 1\n8 1 2 1 2\n8 2 0 1 3\n8 0 2 1 4\n4 6 e(1,2) 1 1\n\
         4 6 e(2,3) 1 2\n4 6 e(3,1) 1 3\n4 6 e(1,3) 1 4\n0\n",
        11,
        11,
    ),
    (
        "steps",
        "asp 1 0 0 incremental\n1 1 1 1 0 0\n4 1 a 1 1\n0\n1 1 1 2 0 0\n1 0 0 0 2 1 2\n4 1 b 1 2\n0\n",
        5,
        5,
    ),
];

/// An answer set: its step (of an incremental program), its atoms sorted, and its costs.
type AnswerSet = (usize, Vec<String>, Vec<i64>);

/// The answer sets of `file` (`-n 0 --opt-mode=enum --project=no`: all of them, with their
/// costs), each as its step, its sorted atoms and its costs; and their number under its projection
/// (`--project`, all of them too).
fn answer_sets(file: &Path) -> (BTreeSet<AnswerSet>, u64) {
    let out = Command::new(env!("CARGO_BIN_EXE_yasmin"))
        .args(["--outf=2", "-n", "0", "--opt-mode=enum", "--project=no"])
        .arg(file)
        .output()
        .expect("yasmin runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let j: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: no JSON ({e}): {text}", file.display()));
    let mut sets = BTreeSet::new();
    for (step, call) in j["Call"].as_array().into_iter().flatten().enumerate() {
        for w in call["Witnesses"].as_array().into_iter().flatten() {
            let mut atoms: Vec<String> =
                w["Value"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect();
            atoms.sort();
            let costs = w["Costs"].as_array().map(|c| c.iter().map(|x| x.as_i64().unwrap()).collect());
            sets.insert((step, atoms, costs.unwrap_or_default()));
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_yasmin"))
        .args(["--outf=2", "-n", "0", "--opt-mode=enum", "--project"])
        .arg(file)
        .output()
        .unwrap();
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let projected = j["Models"]["Number"].as_u64().unwrap_or_else(|| panic!("{}: {j}", file.display()));
    (sets, projected)
}

fn programs() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["tests/regressions", "instances"] {
        for e in std::fs::read_dir(repo().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "aspif") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn shuffled_copies_have_the_same_answer_sets() {
    let python =
        std::env::var("YASMIN_PYTHON").map(PathBuf::from).unwrap_or_else(|_| repo().join(".venv/bin/python"));
    let out = std::env::temp_dir().join(format!("yasmin-shuffled-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let mut files = programs();
    for (name, text, _, _) in INLINE {
        files.push(out.join(format!("{name}.aspif")));
        std::fs::write(files.last().unwrap(), text).unwrap();
    }
    assert!(files.len() > 50, "the regressions and instances: {} programs", files.len());
    let status = Command::new(&python)
        .arg(repo().join("scripts/shuffle_aspif.py"))
        .args(["--copies", "2", "--out"])
        .arg(&out)
        .args(&files)
        .status()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start {} (set YASMIN_PYTHON or run scripts/setup-test-env.sh): {e}",
                python.display()
            )
        });
    assert!(status.success(), "shuffle_aspif.py failed");
    for (name, text, sets, projected) in INLINE {
        let (all, n) = answer_sets(&out.join(format!("{name}.aspif")));
        assert_eq!((all.len(), n), (sets, projected), "{text}");
    }
    let mut moved = 0;
    for f in &files {
        let original = answer_sets(f);
        let name = f.file_stem().unwrap().to_string_lossy();
        for k in 1..=2 {
            let copy = out.join(format!("{name}~s{k}.aspif"));
            let text = std::fs::read_to_string(&copy).unwrap();
            moved += usize::from(text != std::fs::read_to_string(f).unwrap());
            assert_eq!(answer_sets(&copy), original, "{} against {}", copy.display(), f.display());
        }
    }
    assert!(moved > files.len(), "the copies differ from their originals ({moved} of {})", 2 * files.len());
    std::fs::remove_dir_all(&out).ok();
}
