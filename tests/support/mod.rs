//! Helpers shared by the integration tests: solving a program in-process and collecting its
//! answer sets as sorted lists of shown strings.
#![allow(dead_code)]

use std::path::PathBuf;
use yasmin::output::ShownTable;
use yasmin::program::Program;
use yasmin::solve::config::{Backend, GpuMode, Heuristic, Learning, SearchOptions};
use yasmin::solve::{ModelEvent, Outcome, Report, SolveOptions, solve};

/// `a ; b. a :- b. b :- a.` (aspif): a head cycle, one answer set, {a, b}.
pub const HEAD_CYCLE: &str =
    "asp 1 0 0\n1 0 2 1 2 0 0\n1 0 1 1 0 1 2\n1 0 1 2 0 1 1\n4 1 a 1 1\n4 1 b 1 2\n0\n";

/// The repository's root: `$YASMIN_REPO` (a copy on the GPU machine), or where this was built.
pub fn repo() -> PathBuf {
    match std::env::var_os("YASMIN_REPO") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")),
    }
}

/// The conformance corpus, `tests/conformance` (tests/conformance/README.md).
pub fn corpus() -> PathBuf {
    repo().join("tests/conformance")
}

/// Every `.smodels` file of a conformance family, with its expected answer sets.
pub fn conformance(family: &str) -> Vec<(PathBuf, Vec<String>)> {
    let dir = corpus().join(family);
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "smodels") {
            let raw = std::fs::read_to_string(p.with_extension("expected")).unwrap();
            let mut exp: Vec<String> = raw.split('\n').map(String::from).collect();
            exp.pop();
            exp.sort();
            out.push((p, exp));
        }
    }
    out.sort();
    out
}

pub fn options(learning: Learning, heuristic: Heuristic) -> SolveOptions {
    options_on(Backend::Cpu, learning, heuristic)
}

/// The options of a run on `backend`; a GPU's is the grid-wide engine's (the farm's tests ask
/// for it).
pub fn options_on(backend: Backend, learning: Learning, heuristic: Heuristic) -> SolveOptions {
    SolveOptions {
        models: Some(0),
        backend,
        gpu_mode: GpuMode::Grid,
        search: SearchOptions { learning, heuristic, ..SearchOptions::default() },
        ..SolveOptions::default()
    }
}

/// Collects the shown strings of every reported model, and their costs.
pub struct Collect {
    table: ShownTable,
    pub models: Vec<String>,
    pub costs: Vec<Vec<i64>>,
}

impl Collect {
    pub fn new(program: &Program) -> Self {
        Collect { table: ShownTable::new(program), models: Vec::new(), costs: Vec::new() }
    }
}

impl Report for Collect {
    fn model(&mut self, ev: &ModelEvent<'_>) -> std::io::Result<()> {
        let mut names: Vec<String> =
            self.table.shown(ev.atoms).iter().map(|s| String::from_utf8_lossy(s).into_owned()).collect();
        names.sort();
        self.models.push(names.join(" "));
        self.costs.push(ev.costs.map(|c| c.to_vec()).unwrap_or_default());
        Ok(())
    }
}

/// A report that keeps no model (as `-q -n 0` prints none): the solve may then only count them.
pub struct Counter;

impl Report for Counter {
    fn model(&mut self, _: &ModelEvent<'_>) -> std::io::Result<()> {
        Ok(())
    }

    fn wants_models(&self) -> bool {
        false
    }
}

/// Solves `program` with a report that keeps no model: the outcome (its models counted).
pub fn counted(program: &Program, opts: &SolveOptions) -> Outcome {
    solve(program, opts, &mut Counter).unwrap_or_else(|e| panic!("solve failed: {}", e))
}

/// Solves `program` and returns the outcome, the sorted answer sets (one string each, shown
/// atoms sorted and space-separated, as in the `.expected` files) and each one's costs.
pub fn answer_sets(program: &Program, opts: &SolveOptions) -> (Outcome, Vec<String>, Vec<Vec<i64>>) {
    let mut c = Collect::new(program);
    let outcome = solve(program, opts, &mut c).unwrap_or_else(|e| panic!("solve failed: {}", e));
    let mut found: Vec<(String, Vec<i64>)> = c.models.into_iter().zip(c.costs).collect();
    found.sort();
    let (models, costs) = found.into_iter().unzip();
    (outcome, models, costs)
}

/// A parallel run of `threads` searches for one model (`--parallel-mode`) on each program of the
/// conformance `families` without a minimize statement: one of its expected answer sets, or none
/// where it has none, answered by one of the searches. Returns the disagreements and the
/// programs checked.
pub fn one_model_in_parallel(backend: Backend, threads: u32, families: &[&str]) -> (Vec<String>, usize) {
    let mut opts = options_on(backend, Learning::Res, Heuristic::Activity);
    opts.models = Some(1);
    opts.threads = threads;
    let (mut failures, mut checked) = (Vec::new(), 0);
    for (path, expected) in families.iter().flat_map(|f| conformance(f)) {
        let program = yasmin::input::read_program(&std::fs::read(&path).unwrap()).unwrap();
        if program.minimize().next().is_some() {
            continue;
        }
        checked += 1;
        let (outcome, got, _) = answer_sets(&program, &opts);
        let answered = matches!(outcome.threads, Some((n, Some(w))) if n == threads && w < threads);
        let right = match got.as_slice() {
            [] => expected.is_empty() && outcome.exhausted,
            [m] => expected.contains(m) && !outcome.exhausted,
            _ => false,
        };
        if !right || !answered {
            failures.push(format!(
                "{}: {:?} (threads {:?}), expected one of {} answer sets",
                path.display(),
                got,
                outcome.threads,
                expected.len()
            ));
        }
    }
    (failures, checked)
}
