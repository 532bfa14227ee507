//! Interrupts never pass an unchecked set. yasmin is stopped, on hard disjunctive programs with
//! head cycles (tests/gen/qbf.rs, whose answer sets are known without a solver) and on the
//! conformance corpus's programs with head cycles, in three ways:
//! - SIGINT or SIGTERM sent at delays from 0 ms to seconds;
//! - the signal raised by yasmin itself the n-th time it enters a phase (reading, completion,
//!   set-up, search, minimality, verification, output: `YASMIN_SIGNAL_IN_PHASE`), so that every
//!   phase is hit however short it is;
//! - `--time-limit` from 1 ms to seconds.
//!
//! Every run must end by itself, print only answer sets (each once), count in `Models` exactly
//! what it printed, and say with its exit code and summary whether it was interrupted.
//! `YASMIN_INTERRUPT_RUNS` scales the number of runs (default: all of them in a release build, a
//! quarter in a debug build, whose binary is much slower); `YASMIN_INTERRUPT_BACKEND=cuda` runs
//! them on the GPU (the device machine; the grid-wide engine, or as `YASMIN_INTERRUPT_GPU_MODE`
//! says); `YASMIN_BIN` names the binary where cargo's is not there.

#[path = "gen/mod.rs"]
mod r#gen;
mod support;

use r#gen::qbf::{Qbf, hard_sat, hard_unsat, long_enumeration, many_models};
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Whether a printed set (its atoms) is an answer set.
type IsAnswer = Box<dyn Fn(&[&str]) -> bool + Sync>;

/// A program and how to tell its answer sets.
struct Case {
    name: String,
    file: tempfile::NamedTempFile,
    args: Vec<&'static str>,
    is_answer: IsAnswer,
}

fn qbf_case(name: &str, q: Qbf, args: Vec<&'static str>) -> Case {
    qbf_text_case(name, q.to_aspif(), q, args)
}

/// `q` with a `#minimize` over its atoms (weights 1 to 3, two priorities), which leaves its
/// answer sets as they are: optimized (by cores, the default) while stopped.
fn qbf_minimize_case(name: &str, q: Qbf, args: Vec<&'static str>) -> Case {
    let text = q.to_aspif();
    let atoms = 2 * (q.xs + q.ys);
    let terms = |level: usize| {
        let lits: Vec<String> =
            (1..=atoms).filter(|a| a % 2 == level).map(|a| format!("{a} {}", 1 + a % 3)).collect();
        format!("{} {}", lits.len(), lits.join(" "))
    };
    let text = text.strip_suffix("0\n").expect("aspif ends with 0");
    let text = format!("{text}2 1 {}\n2 0 {}\n0\n", terms(0), terms(1));
    qbf_text_case(name, text, q, args)
}

fn qbf_text_case(name: &str, text: String, q: Qbf, args: Vec<&'static str>) -> Case {
    let mut file = tempfile::Builder::new().suffix(".aspif").tempfile().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    Case { name: name.into(), file, args, is_answer: Box::new(move |atoms| q.is_answer_set(atoms)) }
}

/// The conformance programs with head cycles, with their expected answer sets.
fn conformance_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for family in ["nontight", "aggregates", "tight"] {
        for (path, expected) in support::conformance(family) {
            let bytes = std::fs::read(&path).unwrap();
            let p = yasmin::input::read_program(&bytes).unwrap();
            if yasmin::program::deps::Dependencies::new(&p).is_head_cycle_free() {
                continue;
            }
            let mut file = tempfile::Builder::new().suffix(".smodels").tempfile().unwrap();
            file.write_all(&bytes).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let is_answer = move |atoms: &[&str]| {
                let mut a: Vec<&str> = atoms.to_vec();
                a.sort_unstable();
                expected.contains(&a.join(" "))
            };
            out.push(Case { name, file, args: vec!["-n", "0"], is_answer: Box::new(is_answer) });
        }
    }
    out
}

/// How a run is stopped.
#[derive(Clone, Debug)]
enum Stimulus {
    /// `sig` after `after`; `twice`: sent again right after, as `timeout(1)` sends it twice (to the
    /// process, then to its group), which must still end the run with its summary.
    Signal {
        after: Duration,
        sig: i32,
        twice: bool,
    },
    InPhase {
        phase: &'static str,
        n: u32,
        sig: &'static str,
    },
    TimeLimit(f64),
}

/// What a run printed, checked; `Err` says what is wrong.
fn run(case: &Case, how: &Stimulus) -> Result<(), String> {
    let bin = std::env::var("YASMIN_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_yasmin").into());
    let backend = std::env::var("YASMIN_INTERRUPT_BACKEND").unwrap_or_else(|_| "cpu".into());
    let gpu_mode = std::env::var("YASMIN_INTERRUPT_GPU_MODE").unwrap_or_else(|_| "grid".into());
    let mut cmd = Command::new(bin);
    cmd.arg(format!("--backend={backend}")).arg(format!("--gpu-mode={gpu_mode}"));
    cmd.args(&case.args).arg(case.file.path());
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    match how {
        Stimulus::InPhase { phase, n, sig } => {
            // The run ends on its own if the phase comes fewer than n times; a limit keeps it short.
            cmd.env("YASMIN_SIGNAL_IN_PHASE", format!("{phase},{n},{sig}")).arg("--time-limit=30");
        }
        Stimulus::TimeLimit(s) => {
            cmd.arg(format!("--time-limit={s}"));
        }
        Stimulus::Signal { .. } => {}
    }
    // A shell starts background jobs with SIGINT ignored, and the child would inherit that: a
    // signal that comes before yasmin installs its handler would then be lost, not end the run.
    // SAFETY: signal() is async-signal-safe, as pre_exec requires.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGTERM, libc::SIG_DFL);
            Ok(())
        });
    }
    let child = cmd.spawn().map_err(|e| format!("cannot start yasmin: {e}"))?;
    let pid = child.id() as i32;
    let t0 = Instant::now();
    let waiter = std::thread::spawn(move || child.wait_with_output());
    if let Stimulus::Signal { after, sig, twice } = how {
        std::thread::sleep(*after);
        // SAFETY: the child is ours; if it has ended already, the signal goes nowhere (its pid is
        // not reused before we reap it).
        unsafe { libc::kill(pid, *sig) };
        // Again and again for 5 ms: one of these comes after the first was taken (a signal sent
        // while the same one is pending merges with it), before the run ends.
        let again = Instant::now();
        while *twice && again.elapsed() < Duration::from_millis(5) {
            // SAFETY: as above.
            unsafe { libc::kill(pid, *sig) };
            std::thread::yield_now();
        }
    }
    // A run that ignores its stop is killed after a minute and reported.
    while !waiter.is_finished() {
        if t0.elapsed() > Duration::from_secs(60) {
            // SAFETY: as above.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            return Err("did not end within 60 s".into());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = waiter.join().unwrap().map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let Some(code) = out.status.code() else {
        // A signal that came before yasmin installed its handler (as the process started) ends
        // it as the signal's default action does: that is right, if it printed no answer.
        use std::os::unix::process::ExitStatusExt;
        // (Sent twice, the signal comes after the handler is installed.)
        let early =
            matches!(how, Stimulus::Signal { sig, twice: false, .. } if out.status.signal() == Some(*sig));
        if early && !stdout.contains("Answer:") {
            return Ok(());
        }
        return Err(format!("ended by a signal: {:?}\n{stdout}", out.status));
    };
    if stderr.contains("panicked") || stderr.contains("ERROR") {
        return Err(format!("stderr: {stderr}"));
    }
    // clasp says so on standard error.
    if stdout.lines().any(|l| l.starts_with("INTERRUPTED"))
        && !stderr.contains("*** Info : (yasmin): INTERRUPTED by signal!")
    {
        return Err(format!("interrupted, and stderr does not say so: {stderr}"));
    }
    check_output(case, &stdout, code)
}

fn check_output(case: &Case, stdout: &str, code: i32) -> Result<(), String> {
    let lines: Vec<&str> = stdout.lines().collect();
    let mut sets: Vec<Vec<&str>> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("Answer: ") {
            let atoms = lines.get(i + 1).ok_or("an answer without its atoms")?;
            sets.push(atoms.split_whitespace().collect());
        }
    }
    for s in &sets {
        if !(case.is_answer)(s) {
            return Err(format!("printed a set that is not an answer set: {}", s.join(" ")));
        }
    }
    let mut distinct: Vec<Vec<&str>> = sets
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.sort_unstable();
            s
        })
        .collect();
    distinct.sort();
    distinct.dedup();
    if distinct.len() != sets.len() {
        return Err(format!(
            "printed an answer set twice ({} sets, {} distinct)",
            sets.len(),
            distinct.len()
        ));
    }
    let models = lines
        .iter()
        .find_map(|l| l.strip_prefix("Models       : "))
        .ok_or("no Models line: the summary is missing")?;
    let (count, more) = match models.strip_suffix('+') {
        Some(c) => (c, true),
        None => (models, false),
    };
    let count: usize = count.parse().map_err(|_| format!("Models : {models}"))?;
    // -q prints no model, only the count.
    if !case.args.contains(&"-q") && count != sets.len() {
        return Err(format!("Models : {models}, but {} sets printed", sets.len()));
    }
    let interrupted = lines.iter().any(|l| l.starts_with("INTERRUPTED") || l.starts_with("TIME LIMIT"));
    let want = if count == 0 { 0 } else { 10 }
        + if interrupted {
            1
        } else if more {
            0
        } else {
            20
        };
    if code != want {
        return Err(format!(
            "exit code {code}, expected {want} (interrupted: {interrupted}, Models : {models})"
        ));
    }
    Ok(())
}

/// Runs every (case, stimulus) pair, two at a time, and fails with all the bad runs.
fn run_all(runs: Vec<(&Case, Stimulus)>) {
    let share = std::env::var("YASMIN_INTERRUPT_RUNS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(if cfg!(debug_assertions) { 0.25 } else { 1.0 });
    let keep = ((runs.len() as f64 * share).ceil() as usize).clamp(1, runs.len());
    // Every k-th run, so that a share still covers every kind of stimulus.
    let step = runs.len() as f64 / keep as f64;
    let chosen: Vec<&(&Case, Stimulus)> = (0..keep).map(|i| &runs[(i as f64 * step) as usize]).collect();
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some((case, how)) = chosen.get(i) else { return };
                    if let Err(e) = run(case, how) {
                        failures.lock().unwrap().push(format!("{} {:?} {how:?}: {e}", case.name, case.args));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    eprintln!("{} runs, {} failed", chosen.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const PHASES: [&str; 7] =
    ["reading", "completion", "setup", "search", "minimality", "verification", "output"];

#[test]
fn signals_in_every_phase_print_only_answer_sets() {
    let cases = [
        qbf_case("qbf-unsat", hard_unsat(0), vec![]),
        qbf_case("qbf-sat", hard_sat(0), vec![]),
        qbf_case("qbf-many", many_models(0), vec!["-n", "0"]),
        qbf_minimize_case("qbf-many-minimize", many_models(0), vec![]),
    ];
    let mut runs = Vec::new();
    for case in &cases {
        for phase in PHASES {
            for (n, sig) in [(1, "INT"), (2, "TERM"), (7, "INT"), (40, "TERM")] {
                runs.push((case, Stimulus::InPhase { phase, n, sig }));
            }
        }
    }
    run_all(runs);
}

#[test]
fn signals_at_any_time_print_only_answer_sets() {
    let cases = [
        qbf_case("qbf-unsat", hard_unsat(1), vec![]),
        qbf_case("qbf-sat", hard_sat(1), vec![]),
        qbf_case("qbf-many", many_models(1), vec!["-n", "0"]),
        qbf_case("qbf-many-quiet", many_models(2), vec!["-n", "0", "-q"]),
        // Split mode's searches with their checks aside (portfolio/checks_aside.rs).
        qbf_case(
            "qbf-many-quiet-aside",
            many_models(2),
            vec!["-n", "0", "-q", "-t", "2", "--verify-thread=2"],
        ),
        qbf_minimize_case("qbf-many-minimize", many_models(1), vec![]),
        // Still going after seconds (the others end within a few tenths).
        qbf_case("qbf-long-quiet", long_enumeration(0), vec!["-n", "0", "-q"]),
    ];
    let mut runs = Vec::new();
    for case in &cases {
        for ms in [0, 1, 3, 10, 30, 100, 250, 600, 1200, 2500] {
            for sig in [libc::SIGINT, libc::SIGTERM] {
                runs.push((case, Stimulus::Signal { after: Duration::from_millis(ms), sig, twice: false }));
            }
        }
    }
    // Sent twice, to runs still going then.
    let long = [
        qbf_case("qbf-long-quiet", long_enumeration(1), vec!["-n", "0", "-q"]),
        qbf_case("qbf-long-quiet-t2", long_enumeration(1), vec!["-n", "0", "-q", "-t", "2"]),
        qbf_case(
            "qbf-long-quiet-aside",
            long_enumeration(1),
            vec!["-n", "0", "-q", "-t", "2", "--verify-thread=2"],
        ),
    ];
    for case in &long {
        for ms in [250, 600] {
            let how = Stimulus::Signal { after: Duration::from_millis(ms), sig: libc::SIGTERM, twice: true };
            runs.push((case, how));
        }
    }
    run_all(runs);
}

#[test]
fn time_limits_print_only_answer_sets() {
    let mut cases = vec![
        qbf_case("qbf-unsat", hard_unsat(2), vec![]),
        qbf_case("qbf-sat", hard_sat(2), vec![]),
        qbf_case("qbf-many", many_models(0), vec!["-n", "0"]),
        qbf_minimize_case("qbf-many-minimize", many_models(2), vec![]),
        qbf_minimize_case("qbf-sat-minimize-bb", hard_sat(2), vec!["--opt-strategy=bb"]),
        qbf_case("qbf-long-quiet", long_enumeration(0), vec!["-n", "0", "-q"]),
    ];
    let qbf = cases.len();
    cases.extend(conformance_cases());
    let mut runs = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let limits: &[f64] =
            if i < qbf { &[0.001, 0.01, 0.05, 0.2, 0.5, 1.0, 2.0] } else { &[0.001, 0.02, 0.3] };
        for &s in limits {
            runs.push((case, Stimulus::TimeLimit(s)));
        }
    }
    run_all(runs);
}

#[test]
fn the_output_checks_catch_what_they_must() {
    // The checker itself: a wrong set, a wrong count and a wrong exit code are all caught.
    let q = many_models(0);
    let good = q.answer_sets().into_iter().next();
    let Some(good) = good else { panic!("the calibrated instance has answer sets") };
    let case = qbf_case("qbf", q, vec![]);
    let ok = format!("Solving...\nAnswer: 1 (Time: 0.1s)\n{good}\nSATISFIABLE\n\nModels       : 1+\n");
    assert_eq!(check_output(&case, &ok, 10), Ok(()));
    assert!(check_output(&case, &ok, 11).is_err(), "exit code");
    assert!(check_output(&case, &ok.replace("1+", "2+"), 10).is_err(), "count");
    let wrong = ok.replace(" w", "");
    assert!(check_output(&case, &wrong, 10).is_err(), "a set without w");
    let stopped = ok.replace("Models       : 1+", "INTERRUPTED  : 1\nModels       : 1+");
    assert_eq!(check_output(&case, &stopped, 11), Ok(()));
}
