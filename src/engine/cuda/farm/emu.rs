//! The search farm's kernel run on the host (tests/farm_emu: kernels/farm.cu compiled by a C++
//! compiler, one lane a search, the searches one after another), so that its search is tested
//! where there is no GPU: on the conformance corpus's programs it takes (tight ones, and normal
//! ones that are not), every model it finds must be an answer set, and it must find one exactly
//! where the corpus lists one.

use super::tables::{Buf, FarmConfig, FarmTables, unsupported};
use crate::input::read_program;
use crate::nogoods::complete;
use crate::program::deps::Dependencies;
use crate::solve::verify::{Verdict, check_answer_set};
use crate::stop::StopToken;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles the harness with warps of `lanes` lanes into a directory of its own; `None` (the test
/// then skips, saying so) where there is no C++ compiler.
fn harness(dir: &Path, lanes: u32) -> Option<PathBuf> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let exe = dir.join(format!("farm_emu_{lanes}"));
    let src = root().join("tests/farm_emu/harness.cpp");
    let out = Command::new(&cxx)
        .args(["-O2", "-std=c++20", "-pthread", "-DFARM_CHECK", &format!("-DFARM_EMU_LANES={lanes}"), "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "the farm's harness does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(exe)
}

fn dump(t: &FarmTables, path: &Path) {
    let mut b: Vec<u8> = Vec::new();
    b.extend((t.bufs.len() as u32).to_le_bytes());
    for buf in &t.bufs {
        let (kind, len) = match buf {
            Buf::Words(w) => (0u32, w.len()),
            Buf::Zeros(n) => (1u32, *n),
        };
        b.extend(kind.to_le_bytes());
        b.extend((len as u64).to_le_bytes());
        if let Buf::Words(w) = buf {
            w.iter().for_each(|x| b.extend(x.to_le_bytes()));
        }
    }
    let a = &t.args;
    b.extend(a.slice_ns.to_le_bytes());
    for x in [
        a.nvars,
        a.ngoods,
        a.nweights,
        a.nunits,
        a.searches,
        a.arena,
        a.max_learned,
        a.xcap,
        a.seed,
        a.restart_base,
        a.flags,
        a.chunks,
        a.ncubes,
        a.cube_len,
        a.mcap,
        a.mwords,
        a.smem,
        a.smem_words,
    ] {
        b.extend(x.to_le_bytes());
    }
    std::fs::write(path, b).expect("the dump is written");
}

/// The corpus's programs that the farm takes (tight ones, and those without head cycles that are
/// not: its unfounded-set check), with tests/farm_emu/recursive's (aggregates on positive cycles):
/// each path, its program, its problem and its answer sets' text.
fn farm_corpus() -> Vec<(PathBuf, crate::program::Program, crate::nogoods::Problem, String)> {
    let mut out = Vec::new();
    let families =
        ["conformance/tight", "conformance/aggregates", "conformance/nontight", "farm_emu/recursive"];
    for family in families {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests").join(family))
            .expect("the conformance corpus")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "smodels"))
            .collect();
        files.sort();
        // YASMIN_FARM_EMU_ONLY=TEXT: only the programs whose path contains TEXT (debugging).
        let only = std::env::var("YASMIN_FARM_EMU_ONLY").unwrap_or_default();
        files.retain(|f| f.display().to_string().contains(&only));
        for f in files {
            let text = std::fs::read(&f).expect("a program");
            let expected = std::fs::read_to_string(f.with_extension("expected")).expect("its answer sets");
            let program = read_program(&text).expect("the program reads");
            let Ok(problem) = complete(&program, &StopToken::never(), 3) else { continue };
            if unsupported(&problem).is_none() {
                out.push((f, program, problem, expected));
            }
        }
    }
    out
}

/// tests/farm_emu/recursive has what it is for: programs where a weight body supports an atom
/// on a positive cycle, with answer sets and without.
#[test]
fn the_recursive_corpus_has_weight_bodies_on_cycles() {
    let recursive: Vec<_> = farm_corpus()
        .into_iter()
        .filter(|(f, ..)| f.parent().is_some_and(|d| d.ends_with("recursive")))
        .filter(|(_, _, p, _)| {
            (0..p.num_vars)
                .filter(|&x| p.is_cyclic(x))
                .flat_map(|x| p.supports(x))
                .any(|&b| !p.bodies.is_normal(b as usize))
        })
        .collect();
    let sat = recursive.iter().filter(|(.., e)| !e.is_empty()).count();
    assert!(sat >= 15 && recursive.len() - sat >= 3, "{} programs, {sat} with answer sets", recursive.len());
}

/// Runs the harness on `problem` under `c`: its verdict line and the rest of its output.
fn harness_run(
    exe: &Path,
    dir: &Path,
    name: &Path,
    problem: &crate::nogoods::Problem,
    c: &FarmConfig,
) -> String {
    let path = dir.join("dump.bin");
    dump(&FarmTables::new(problem, c), &path);
    // A generous limit: the tests beside this one may load the machine, and a lane a thread
    // waits on every barrier for all 32.
    let out = Command::new(exe).arg(&path).arg("300").output().expect("the harness runs");
    assert!(
        out.status.success(),
        "{}: the harness failed: {:?}\n{}",
        name.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs the harness on `problem` under `c`: the winner's values (a word a variable), or `None`
/// where the farm proved that there is no model.
fn run(
    exe: &Path,
    dir: &Path,
    name: &Path,
    problem: &crate::nogoods::Problem,
    c: &FarmConfig,
) -> Option<Vec<u32>> {
    let text = harness_run(exe, dir, name, problem, c);
    let mut lines = text.lines();
    let verdict = lines.next().unwrap_or("");
    let name = name.display();
    if std::env::var("YASMIN_FARM_EMU_ONLY").is_ok() {
        eprintln!("{name}: {verdict}; conflicts {}", text.lines().nth_back(1).unwrap_or(""));
    }
    let refuted =
        text.lines().last().and_then(|l| l.strip_prefix("CUBES ")).and_then(|l| l.split(' ').next());
    LAST_REFUTED.with(|r| r.set(refuted.and_then(|x| x.parse().ok()).unwrap_or(0)));
    if let Some(s) = verdict.strip_prefix("SAT ") {
        let vals: Vec<u32> =
            lines.next().unwrap_or("").split_whitespace().map(|x| x.parse().unwrap()).collect();
        assert_eq!(vals.len(), problem.num_vars as usize, "{name}: search {s}'s values");
        return Some(vals);
    }
    assert_eq!(verdict, "UNSAT", "{name}: the farm answered {verdict}");
    None
}

thread_local! {
    /// The cubes the last [`run`] refuted (split mode within the farm).
    static LAST_REFUTED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Asserts that `vals` are an answer set of `program`.
fn assert_answer_set(name: &Path, program: &crate::program::Program, vals: &[u32]) {
    let m: Vec<bool> = (0..=program.atom_count() as usize).map(|a| a > 0 && vals[a] == 1).collect();
    let deps = Dependencies::new(program);
    assert!(
        matches!(check_answer_set(program, &m, &deps, &StopToken::never()), Verdict::AnswerSet),
        "{}: the farm's model is not an answer set",
        name.display()
    );
}

/// What the farm answered over the corpus.
#[derive(Default)]
struct Answers {
    /// Programs answered with a model, and without.
    sat: usize,
    unsat: usize,
    /// Programs split into cubes (split mode within the farm), and those proved to have no
    /// model by refuting every cube.
    split: usize,
    by_cubes: usize,
}

/// Runs the farm on every program of the corpus it takes, each under `config(problem)`: every model
/// must be an answer set, and the farm must find one exactly where the corpus lists some.
fn corpus(exe: &Path, dir: &Path, config: impl Fn(&crate::nogoods::Problem) -> FarmConfig) -> Answers {
    let mut a = Answers::default();
    for (f, program, problem, expected) in farm_corpus() {
        let c = config(&problem);
        a.split += usize::from(c.parts.len() > 1);
        match run(exe, dir, &f, &problem, &c) {
            Some(vals) => {
                assert_answer_set(&f, &program, &vals);
                assert!(!expected.is_empty(), "{}: a model where there is none", f.display());
                a.sat += 1;
            }
            None => {
                assert!(
                    expected.is_empty(),
                    "{}: the farm found no model where the corpus lists some",
                    f.display()
                );
                a.unsat += 1;
                // Proved by refuting every cube, or by a conflict at level 0 before that.
                let refuted = LAST_REFUTED.with(|r| r.get()) as usize;
                assert!(refuted <= c.parts.len(), "{}: {refuted} cubes refuted", f.display());
                a.by_cubes += usize::from(c.parts.len() > 1 && refuted == c.parts.len());
            }
        }
    }
    a
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yasmin-farm-emu-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// The configurations run: small arenas and frequent restarts (deletion, dropped nogoods and the
/// exchange all run) with every array that may be in shared memory there, and one search alone
/// with none. `YASMIN_FARM_EMU_SKIP=k` skips the first k.
fn configs() -> impl Iterator<Item = FarmConfig> {
    let all = [
        FarmConfig {
            arena: 2048,
            max_learned: 128,
            xcap: 16,
            restart_base: 4,
            slice_ns: 200_000,
            shared_words: u32::MAX,
            ..FarmConfig::new(3, true, 7)
        },
        FarmConfig { slice_ns: 1_000_000, ..FarmConfig::new(1, false, 1) },
    ];
    let skip = std::env::var("YASMIN_FARM_EMU_SKIP").map_or(0, |s| s.parse().unwrap_or(0));
    all.into_iter().skip(skip)
}

fn run_corpus(lanes: u32, configs: impl Iterator<Item = FarmConfig>) {
    let dir = scratch(&lanes.to_string());
    let Some(exe) = harness(&dir, lanes) else {
        eprintln!("skipping the farm's host emulation: no C++ compiler (set CXX)");
        return;
    };
    for c in configs {
        let Answers { sat, unsat, .. } = corpus(&exe, &dir, |_| c.clone());
        let all = std::env::var("YASMIN_FARM_EMU_ONLY").is_err();
        assert!(!all || (sat > 50 && unsat > 10), "{sat} programs with a model and {unsat} without");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A lane a warp: the search's logic, with its invariants checked at every conflict.
#[test]
fn the_farm_kernel_answers_the_corpus_on_the_host() {
    run_corpus(1, configs());
}

/// 32 lanes a warp, a thread each: the lanes' races (claims of a variable, counts, the trail's
/// slots) as on the GPU, the invariants checked at every conflict.
#[test]
fn the_farm_kernel_answers_the_corpus_with_32_lanes_racing() {
    // Longer slices: a slice starts 32 threads.
    run_corpus(32, configs().take(1).map(|c| FarmConfig { slice_ns: 5_000_000, ..c }));
}

/// Split mode across devices: each program's space in the cubes of four devices, a farm a cube.
/// A model has its cube's literals and is an answer set; some cube has one exactly where the
/// corpus lists answer sets.
#[test]
fn the_farm_answers_the_corpus_in_cubes() {
    let dir = scratch("cubes");
    let Some(exe) = harness(&dir, 1) else {
        eprintln!("skipping the farm's host emulation in cubes: no C++ compiler (set CXX)");
        return;
    };
    let base = configs().next().expect("a configuration");
    let mut split = 0;
    for (f, program, problem, expected) in farm_corpus() {
        let cubes = crate::solve::cubes::Cubes::of(&problem, 4);
        let (mut found, k) = (false, cubes.len());
        for cube in cubes {
            let c = FarmConfig { cube: cube.clone(), ..base.clone() };
            if let Some(vals) = run(&exe, &dir, &f, &problem, &c) {
                assert_answer_set(&f, &program, &vals);
                for l in &cube {
                    assert_eq!(
                        vals[l.var() as usize],
                        if l.is_pos() { 1 } else { 2 },
                        "{}: cube {cube:?}",
                        f.display()
                    );
                }
                found = true;
            }
        }
        split += usize::from(k > 1);
        assert_eq!(found, !expected.is_empty(), "{}: a model in some cube of {k}", f.display());
    }
    assert!(split > 50, "{split} programs were split");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Split mode within a farm: its searches take the cubes of each program's space one at a time,
/// 32 lanes a warp. A model is an answer set; the farm finds one exactly where the corpus lists
/// answer sets, and proves there is none only when every cube is refuted.
#[test]
fn the_farm_answers_the_corpus_with_its_searches_on_cubes() {
    let dir = scratch("parts");
    let Some(exe) = harness(&dir, 32) else {
        eprintln!("skipping the farm's host emulation on parts: no C++ compiler (set CXX)");
        return;
    };
    let base = configs().next().expect("a configuration");
    let a = corpus(&exe, &dir, |p| FarmConfig {
        parts: crate::solve::cubes::Cubes::for_searches(p, base.searches, &[]),
        slice_ns: 5_000_000,
        ..base.clone()
    });
    assert!(a.split > 50 && a.unsat > 10, "{} programs split, {} without a model", a.split, a.unsat);
    assert!(a.by_cubes > 0, "no proof refuted every cube ({} without a model)", a.unsat);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Enumerates every program of the corpus the farm takes that lists at most `most` answer sets, with a farm
/// of three searches on twelve cubes (as the farm makes them, split by three threads), warps of
/// `lanes` lanes, small arenas (deletion, and conflicts whose nogood has no room) and a ring of
/// `ring` entries. The models, read from the ring as the host reads them, are answer sets, no two
/// alike, as many as the corpus lists: all of them. Returns the programs and the models.
fn enumerate_corpus(lanes: u32, most: usize, ring: u32) -> (usize, usize) {
    let dir = scratch(&format!("enum-{lanes}"));
    let Some(exe) = harness(&dir, lanes) else {
        eprintln!("skipping the farm's host emulation of enumeration: no C++ compiler (set CXX)");
        return (0, 0);
    };
    let (mut programs, mut models) = (0, 0);
    let never = crate::stop::StopToken::never();
    for (f, program, problem, expected) in farm_corpus() {
        // A line an answer set (an empty line the empty one), the last line ended.
        let listed = if expected.is_empty() {
            0
        } else {
            expected.strip_suffix('\n').unwrap_or(&expected).split('\n').count()
        };
        if listed > most {
            continue;
        }
        let c = FarmConfig {
            arena: 2048,
            max_learned: 128,
            restart_base: 4,
            slice_ns: 5_000_000,
            parts: crate::solve::cubes::Cubes::balanced_on(&problem.clone().into(), 12, &[], &never, 3)
                .expect("no stop"),
            enumerate: true,
            ring,
            // Some arrays in shared memory, not all.
            shared_words: 3 * problem.num_vars,
            ..FarmConfig::new(3, false, 5)
        };
        let text = harness_run(&exe, &dir, &f, &problem, &c);
        let name = f.display();
        let verdict = text.lines().next().unwrap_or("");
        assert_eq!(verdict, "UNSAT", "{name}: the enumeration ended {verdict}");
        let mut seen = std::collections::BTreeSet::new();
        for line in text.lines().filter_map(|l| l.strip_prefix("M ")) {
            let words: Vec<u32> = line.split(' ').map(|w| w.parse().expect("a word")).collect();
            let vals: Vec<u32> = (0..=program.atom_count() as usize)
                .map(|a| if words[a / 32] >> (a % 32) & 1 == 1 { 1 } else { 2 })
                .collect();
            assert_answer_set(&f, &program, &vals);
            // The entry's last word: the number of the search that found it.
            let (&search, bits) = words.split_last().expect("an entry");
            assert!(search < c.searches, "{name}: a model of search {search} of {}", c.searches);
            assert!(seen.insert(bits.to_vec()), "{name}: a model twice");
        }
        assert_eq!(seen.len(), listed, "{name}: models found, and listed");
        programs += 1;
        models += seen.len();
    }
    let _ = std::fs::remove_dir_all(&dir);
    (programs, models)
}

/// Enumeration within a farm, a lane a warp, every program of the corpus it takes (a ring of two
/// entries: searches find it full and find their model again).
#[test]
fn the_farm_enumerates_the_corpus_with_its_searches_on_cubes() {
    let (programs, models) = enumerate_corpus(1, usize::MAX, 2);
    assert!(programs == 0 || (programs > 60 && models > 1000), "{programs} programs, {models} models");
}

/// The same with 32 lanes a warp racing, on the programs of at most eight answer sets (a slice
/// starts 32 threads).
#[test]
fn the_farm_enumerates_small_programs_with_32_lanes_racing() {
    let (programs, models) = enumerate_corpus(32, 8, 4);
    assert!(programs == 0 || (programs > 40 && models > 50), "{programs} programs, {models} models");
}
