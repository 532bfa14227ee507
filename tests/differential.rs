//! Differential test: random programs (tests/gen), ground by gringo, solved by yasmin under both
//! learning schemes and compared with clingo (tests/clingo_oracle.py) and with the brute-force
//! oracle (tests/oracle): answer sets, costs, optimum and optimal models (optN), projected answer
//! sets, brave and cautious consequences. Where clingo and the brute force disagree, the brute
//! force wins and the case is recorded. A disagreement with yasmin is shrunk and written to
//! tests/regressions/<name>.lp/.aspif, and the test fails.
//!
//! clingo solves the ground programs with `--trans-ext=weight`, not the `--trans-ext=all` that
//! ../shared/docs/oracles.md suggests: both avoid clasp's default-options bug on choice rules
//! whose weight bodies mention their own heads, but `all` never finishes (memory growing without
//! bound) on a choice rule whose body negates its only head, `{h} :- not h.`
//! (tests/clingo_oracle.py has the details). brave/cautious are compared on the program without
//! its #project statements: clasp computes consequences over the projection atoms when a program
//! has them, and which atoms it then prints depends on its preprocessing. With the statements
//! they are compared with clingo alone (`projected_consequences_agree_with_clingo`).
//!
//! Environment for that test: YASMIN_DIFF_PROJECTED (programs generated, 1,500 by default).
//!
//! Environment: YASMIN_DIFF_PROGRAMS (number of programs), YASMIN_DIFF_SEED (base seed),
//! YASMIN_DIFF_THREADS (workers, each with its own clingo process), YASMIN_PYTHON (the
//! interpreter with clingo 5.8.3; default `<repo>/.venv/bin/python`, see
//! scripts/setup-test-env.sh), YASMIN_DIFF_VERBOSE (print every program before checking it),
//! YASMIN_DIFF_BACKEND (`cpu`, the default, or `cuda` to check the GPU engine on the device),
//! YASMIN_DIFF_FARM (N: also one model, and every model, from the GPU search farm's N searches, on
//! the device),
//! YASMIN_DIFF_FARM_DEVICES (LIST: also from a farm on each of these devices, competing and in
//! split mode),
//! YASMIN_BIN (the yasmin binary that explains a failed check, where cargo's is not there: test
//! binaries copied to the device). Every solve runs in a forked child (`in_child`).
//! The test fails, never skips, when clingo cannot be imported.

mod r#gen;
mod oracle;

use r#gen::{AspifProgram, Config, Features, LpProgram, Rng, generate_aspif, generate_lp};
use oracle::{Ground, Mask};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};
use yasmin::input::read_program;
use yasmin::output::ShownTable;
use yasmin::program::Program;
use yasmin::solve::config::{
    Backend, Decisions, Deletion, DomMod, DomModifier, EnumMode, GpuMode, Heuristic, LbdUpdate, Learning,
    LookKind, Lookahead, OptMode, OptStrategy, ProjectMode, RandomDecisions, Restarts, Schedule,
    SearchOptions, Strengthen, StrengthenAntes,
};
use yasmin::solve::{ModelEvent, Outcome, Report, SolveOptions, solve};
use yasmin::stop::StopToken;

const DEFAULT_PROGRAMS: usize = 18000;
const DEFAULT_SEED: u64 = 1;
/// Per yasmin call; a search that runs longer counts as a failure (programs are tiny).
const YASMIN_TIME_LIMIT: Duration = Duration::from_secs(20);
/// yasmin disagreements shrunk and written per run (more are only listed).
const MAX_SHRUNK: usize = 10;
/// clingo-vs-brute-force disagreements shrunk and written per run.
const MAX_SHRUNK_CLINGO: usize = 4;
/// Candidate programs tried while shrinking one disagreement.
const MAX_SHRINK_STEPS: usize = 4000;

/// The checkout: where the test was built, or `$YASMIN_REPO` (a copy on the GPU machine).
fn repo() -> PathBuf {
    std::env::var_os("YASMIN_REPO").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

fn regressions_dir() -> PathBuf {
    repo().join("tests/regressions")
}

/// The engine under test: `YASMIN_DIFF_BACKEND=cuda` runs the differential test on the GPU.
fn backend() -> Backend {
    match std::env::var("YASMIN_DIFF_BACKEND").as_deref() {
        Ok("cuda") => Backend::Cuda,
        Ok("cpu") | Err(_) => Backend::Cpu,
        Ok(other) => panic!("YASMIN_DIFF_BACKEND={other}: expected cpu or cuda"),
    }
}

fn env_num(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| v.trim().parse().unwrap_or_else(|_| panic!("{name}={v}: not a number")))
}

// ---------------------------------------------------------------------------------------------
// The clingo process

struct Clingo {
    python: PathBuf,
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<String>,
    /// Times the process was restarted after it hung or died.
    restarts: usize,
    /// The process's work folder (its ground program and aspif), removed when it ends: it is
    /// killed, not asked to exit, so it cannot remove the folder itself.
    dir: PathBuf,
}

/// One clingo solve call: the models in order, and whether the search space was exhausted.
struct ClingoRun {
    models: Vec<(Vec<String>, Vec<i64>, bool)>,
    exhausted: bool,
}

/// How long one request may take before the clingo process is restarted.
const CLINGO_TIMEOUT: Duration = Duration::from_secs(20);

fn spawn_oracle(python: &Path) -> (Child, ChildStdin, Receiver<String>, PathBuf) {
    static N: AtomicUsize = AtomicUsize::new(0);
    let k = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("clingo-oracle-{}-{k}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let script = repo().join("tests/clingo_oracle.py");
    let mut child = Command::new(python)
        .arg(&script)
        .env("CLINGO_ORACLE_DIR", &dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start {} (set YASMIN_PYTHON or run scripts/setup-test-env.sh): {e}",
                python.display()
            )
        });
    let stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        loop {
            let mut line = String::new();
            match stdout.read_line(&mut line) {
                Ok(n) if n > 0 => {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
                _ => break,
            }
        }
    });
    (child, stdin, rx, dir)
}

impl Clingo {
    fn start() -> Clingo {
        let python = std::env::var("YASMIN_PYTHON")
            .map(PathBuf::from)
            .unwrap_or_else(|_| repo().join(".venv/bin/python"));
        let (child, stdin, replies, dir) = spawn_oracle(&python);
        let mut c = Clingo { python, child, stdin, replies, restarts: 0, dir };
        let v = c.try_request(&json!({"op": "version"})).unwrap_or_else(|e| {
            panic!(
                "clingo cannot be imported by {} ({e}); run scripts/setup-test-env.sh or set YASMIN_PYTHON",
                c.python.display()
            )
        });
        assert_eq!(v["clingo"], "5.8.3", "the differential test expects clingo 5.8.3, got {v}");
        c
    }

    /// Kills the process (it hung or died) and starts a fresh one.
    fn restart(&mut self) {
        self.stop();
        let (child, stdin, replies, dir) = spawn_oracle(&self.python);
        (self.child, self.stdin, self.replies, self.dir) = (child, stdin, replies, dir);
        self.restarts += 1;
    }

    /// Kills the process and removes its work folder.
    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }

    fn try_request(&mut self, req: &Value) -> Result<Value, String> {
        let sent = writeln!(self.stdin, "{req}").and_then(|_| self.stdin.flush());
        let line = match sent.map_err(|e| e.to_string()).and_then(|_| {
            self.replies.recv_timeout(CLINGO_TIMEOUT).map_err(|e| match e {
                RecvTimeoutError::Timeout => format!("no answer within {CLINGO_TIMEOUT:?}"),
                RecvTimeoutError::Disconnected => "the clingo process died".to_string(),
            })
        }) {
            Ok(line) => line,
            Err(e) => {
                self.restart();
                return Err(format!("clingo: {e} (restarted)"));
            }
        };
        let v: Value = serde_json::from_str(&line).map_err(|e| format!("bad reply {line:?}: {e}"))?;
        if v["ok"] != true {
            return Err(v["error"].as_str().unwrap_or("?").to_string());
        }
        Ok(v)
    }

    fn ground(&mut self, lp: &str) -> Result<String, String> {
        let v = self.try_request(&json!({"op": "ground", "program": lp}))?;
        Ok(v["aspif"].as_str().unwrap().to_string())
    }

    fn solve(&mut self, aspif: &str, jobs: &[Vec<&str>]) -> Result<Vec<ClingoRun>, String> {
        let v = self.try_request(&json!({"op": "solve", "aspif": aspif, "jobs": jobs}))?;
        Ok(v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| ClingoRun {
                models: r["models"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| {
                        let shown =
                            m["shown"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string());
                        let cost = m["cost"].as_array().unwrap().iter().map(|c| c.as_i64().unwrap());
                        (sorted(shown.collect()), cost.collect(), m["proven"] == true)
                    })
                    .collect(),
                exhausted: r["exhausted"] == true,
            })
            .collect())
    }
}

impl Drop for Clingo {
    fn drop(&mut self) {
        self.stop();
    }
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------------
// What a program's answers are, from one source

/// The answers a reference (brute force or clingo) gives for one ground program.
#[derive(Clone, Debug, PartialEq)]
struct Reference {
    source: &'static str,
    /// Every answer set's shown strings with its cost vector (empty without minimize), sorted.
    sets: Vec<(Vec<String>, Vec<i64>)>,
    optimum: Option<Vec<i64>>,
    /// Shown strings of the optimal answer sets, sorted (only with minimize statements).
    optimal: Vec<Vec<String>>,
    /// Distinct projections (shown strings of projection atoms), sorted (only with #project).
    projected: Option<Vec<Vec<String>>>,
    /// Brave and cautious consequences (shown strings); `None` without answer sets.
    brave: Option<Vec<String>>,
    cautious: Option<Vec<String>>,
    /// With minimize statements: the brave and cautious consequences of the optimal answer sets
    /// (what `--enum-mode=brave|cautious` computes with an objective, as clasp's optN does).
    optimal_brave: Option<Vec<String>>,
    optimal_cautious: Option<Vec<String>>,
}

/// Facts about a ground program the checks need.
struct Info {
    minimize: bool,
    /// Shown strings of projection atoms (`None` without project statements).
    projection: Option<BTreeSet<String>>,
    /// Whether each output shows one atom of its own (a condition of one positive literal, no
    /// two the same) or holds always (no condition), and no `#heuristic` statement names any
    /// atom: `--dom-mod=false,show` then decides every shown atom false first, and minimal
    /// models over the shown atoms are those over the printed strings.
    atoms_shown: bool,
}

impl Info {
    fn of(p: &Program) -> Info {
        let projection = p.projection().map(|atoms| {
            p.outputs()
                .filter(|o| matches!(o.condition.as_slice(), [l] if *l > 0 && atoms.contains(&(*l as u32))))
                .map(|o| String::from_utf8_lossy(&o.name).into_owned())
                .collect()
        });
        let mut seen = BTreeSet::new();
        let atoms_shown = p.heuristics().next().is_none()
            && p.outputs().all(|o| match o.condition.as_slice() {
                [] => true,
                [l] => *l > 0 && seen.insert(*l),
                _ => false,
            });
        Info { minimize: p.minimize().next().is_some(), projection, atoms_shown }
    }

    fn view(&self, shown: &[String]) -> Vec<String> {
        let p = self.projection.as_ref().unwrap();
        shown.iter().filter(|s| p.contains(*s)).cloned().collect()
    }
}

/// The aspif text without project statements (brave/cautious are compared on it: clasp computes
/// consequences over the projection atoms when a program has #project).
fn strip_project(aspif: &str) -> String {
    aspif.lines().filter(|l| l.split_whitespace().next() != Some("3")).map(|l| format!("{l}\n")).collect()
}

fn brute_reference(g: &Ground, info: &Info) -> Option<Reference> {
    let s = g.solve()?;
    let mut sets: Vec<(Vec<String>, Vec<i64>)> =
        s.answer_sets.iter().map(|&m| (g.shown(m), if info.minimize { g.cost(m) } else { vec![] })).collect();
    sets.sort();
    let mut optimal: Vec<Vec<String>> =
        if info.minimize { s.optimal.iter().map(|&m| g.shown(m)).collect() } else { vec![] };
    optimal.sort();
    let projected = info.projection.as_ref().map(|_| {
        let views: BTreeSet<Vec<String>> = s.answer_sets.iter().map(|&m| info.view(&g.shown(m))).collect();
        views.into_iter().collect()
    });
    Some(Reference {
        source: "brute force",
        sets,
        optimum: if info.minimize { s.optimum.clone() } else { None },
        optimal,
        projected,
        brave: Ground::brave(&s.answer_sets).map(|m: Mask| g.shown(m)),
        cautious: Ground::cautious(&s.answer_sets).map(|m: Mask| g.shown(m)),
        optimal_brave: Ground::brave(&s.optimal).filter(|_| info.minimize).map(|m: Mask| g.shown(m)),
        optimal_cautious: Ground::cautious(&s.optimal).filter(|_| info.minimize).map(|m: Mask| g.shown(m)),
    })
}

fn clingo_reference(clingo: &mut Clingo, aspif: &str, info: &Info) -> Result<Reference, String> {
    let mut jobs: Vec<Vec<&str>> = vec![vec!["0", "--opt-mode=enum"]];
    if info.minimize {
        jobs.push(vec!["0", "--opt-mode=optN"]);
    }
    if info.projection.is_some() {
        jobs.push(vec!["0", "--project", "--opt-mode=ignore"]);
    }
    let runs = clingo.solve(aspif, &jobs)?;
    let mut cons_jobs = vec![
        vec!["0", "--enum-mode=brave", "--opt-mode=ignore"],
        vec!["0", "--enum-mode=cautious", "--opt-mode=ignore"],
    ];
    if info.minimize {
        // clasp's optN proves the optimum, then takes the consequences of the optimal models.
        cons_jobs.push(vec!["0", "--enum-mode=brave", "--opt-mode=optN"]);
        cons_jobs.push(vec!["0", "--enum-mode=cautious", "--opt-mode=optN"]);
    }
    let cons = clingo.solve(&strip_project(aspif), &cons_jobs)?;
    if !runs.iter().chain(&cons).all(|r| r.exhausted) {
        return Err("clingo did not exhaust the search space".into());
    }
    let mut sets: Vec<(Vec<String>, Vec<i64>)> = runs[0]
        .models
        .iter()
        .map(|(s, c, _)| (s.clone(), if info.minimize { c.clone() } else { vec![] }))
        .collect();
    sets.sort();
    let (mut optimum, mut optimal) = (None, vec![]);
    if info.minimize {
        for (s, c, proven) in &runs[1].models {
            if *proven {
                optimum = Some(c.clone());
                optimal.push(s.clone());
            }
        }
        optimal.sort();
    }
    let projected = info.projection.as_ref().map(|_| {
        let views: BTreeSet<Vec<String>> =
            runs.last().unwrap().models.iter().map(|(s, _, _)| info.view(s)).collect();
        views.into_iter().collect()
    });
    Ok(Reference {
        source: "clingo",
        sets,
        optimum,
        optimal,
        projected,
        brave: cons[0].models.last().map(|m| m.0.clone()),
        cautious: cons[1].models.last().map(|m| m.0.clone()),
        optimal_brave: cons.get(2).and_then(|r| r.models.last()).map(|m| m.0.clone()),
        optimal_cautious: cons.get(3).and_then(|r| r.models.last()).map(|m| m.0.clone()),
    })
}

/// The fields in which two references differ.
fn reference_diff(a: &Reference, b: &Reference) -> Vec<&'static str> {
    let mut d = Vec::new();
    if a.sets != b.sets {
        d.push("answer-sets");
    }
    if a.optimum != b.optimum || a.optimal != b.optimal {
        d.push("optimum");
    }
    if a.projected != b.projected {
        d.push("projection");
    }
    if a.brave != b.brave {
        d.push("brave");
    }
    if a.cautious != b.cautious {
        d.push("cautious");
    }
    if (&a.optimal_brave, &a.optimal_cautious) != (&b.optimal_brave, &b.optimal_cautious) {
        d.push("optimal-consequences");
    }
    d
}

// ---------------------------------------------------------------------------------------------
// yasmin

struct Collect {
    table: ShownTable,
    models: Vec<(Vec<String>, Vec<i64>)>,
}

impl Report for Collect {
    fn model(&mut self, ev: &ModelEvent<'_>) -> std::io::Result<()> {
        // Brave/cautious report the consequences as the outputs they select.
        let shown = match ev.selected {
            Some(sel) => self.table.selected(sel),
            None => self.table.shown(ev.atoms),
        };
        let mut names: Vec<String> = shown.iter().map(|s| String::from_utf8_lossy(s).into_owned()).collect();
        names.sort();
        names.dedup();
        self.models.push((names, ev.costs.map(|c| c.to_vec()).unwrap_or_default()));
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Scheme {
    learning: Learning,
    heuristic: Heuristic,
    /// `--decisions=vars`, with `--save-progress=N` when `save` is `Some(N)` (CPU engine).
    vars: bool,
    save: Option<u32>,
    /// `--decisions=alternate` (where not `vars`): rules, mixed, rules and variables by
    /// turns (every few
    /// conflicts in debug builds, which turn often).
    alternate: bool,
    /// `--parallel-mode`: searches racing for an optimum (enumeration, projection and optN's
    /// models divide the space), or with `split` dividing the space for every check.
    threads: u32,
    split: bool,
    /// `--enum-mode=record`: a nogood per model, where the default backtracks (one search
    /// learning by resolution).
    record: bool,
    /// `--eq=0`: no substitution of equivalent literals (the CPU engine's default substitutes).
    no_eq: bool,
    /// `--acyc-prop=0`: the CPU engine only finds cycles of true edges (the default also makes
    /// false the edges that would close one).
    no_acyc_prop: bool,
    /// `--update-lbd=glucose,3 --del-cfl=+,20,20`: learned nogoods deleted often, those whose LBD
    /// an analysis lowered spared once.
    churn: bool,
    /// `--deletion=tiered`: those that took part in a conflict spared too.
    tiered: bool,
    /// `--restarts=D,4,0.8`: dynamic restarts over short windows (one search).
    dynamic: bool,
    /// `--opt-strategy`: by unsatisfiable cores (one search; disjoint where split, stratified
    /// where models are recorded), by branch and bound, or the default.
    opt: OptStrategy,
    /// `--lookahead`: failed-literal detection on atoms for five fixpoints, or on every variable
    /// at every fixpoint (learning by resolution).
    look: Option<Lookahead>,
    /// `--dom-mod`: the domain heuristic's modification of the atoms picked (deciding on
    /// variables).
    dom_mod: Option<DomMod>,
    /// `--strengthen`: learned nogoods not strengthened, strengthened locally, or recursively
    /// through short reasons only (the CPU engine; `None`: the default, recursive through all).
    strengthen: Option<(Strengthen, StrengthenAntes)>,
    /// `--rand-freq=0.3`: random decisions (the CPU engine).
    rand: bool,
}

impl Scheme {
    const fn new(learning: Learning, heuristic: Heuristic) -> Scheme {
        Scheme {
            learning,
            heuristic,
            vars: false,
            alternate: false,
            save: None,
            threads: 1,
            split: false,
            record: false,
            no_eq: false,
            no_acyc_prop: false,
            churn: false,
            tiered: false,
            dynamic: false,
            opt: OptStrategy::Auto,
            look: None,
            dom_mod: None,
            strengthen: None,
            rand: false,
        }
    }

    fn name(&self) -> String {
        let d = match (self.vars, self.save) {
            (false, _) if self.alternate => "-alternate".into(),
            (false, _) => String::new(),
            (true, None) => "-vars".into(),
            (true, Some(n)) => format!("-vars-saved{n}"),
        };
        let t = match (self.threads, self.split) {
            (1, _) => String::new(),
            (n, false) => format!("-t{n}"),
            (n, true) => format!("-t{n}-split"),
        };
        let e = if self.record { "-record" } else { "" };
        let q = if self.no_eq { "-noeq" } else { "" };
        let g = if self.no_acyc_prop { "-acyc0" } else { "" };
        let g = if self.churn { format!("{g}-churn") } else { g.to_string() };
        let g = if self.tiered { format!("{g}-tiered") } else { g };
        let g = if self.dynamic { format!("{g}-dynamic") } else { g };
        let u = match self.opt {
            OptStrategy::Auto => "",
            OptStrategy::Bb => "-bb",
            OptStrategy::Usc { .. } => "-usc",
        };
        let k = self.look.map_or(String::new(), |l| format!("-look-{}{}", l.kind.name(), l.limit));
        let k = match self.dom_mod {
            Some(m) => format!("{k}-dom-{}", m.to_string().replace(',', "-")),
            None => k,
        };
        let k = match self.strengthen {
            Some((m, a)) => format!("{k}-strengthen-{m}-{a}"),
            None => k,
        };
        let k = if self.rand { format!("{k}-rand") } else { k };
        format!("{:?}-{:?}{d}{t}{e}{q}{g}{u}{k}", self.learning, self.heuristic).to_lowercase()
    }
}

/// The share of random decisions of the schemes that make them (`--rand-freq`).
const RAND_FREQ: f64 = 0.3;

/// `--del-cfl=+,20,20`: deletions every 20 conflicts, then 40, 60, ...
const CHURN: Schedule = Schedule { sequence: Restarts::Arithmetic(20, 20), repeat: 0 };

fn options(s: Scheme) -> SolveOptions {
    SolveOptions {
        models: Some(0),
        backend: backend(),
        // YASMIN_DIFF_BACKEND=cuda checks the grid-wide engine (the farm: YASMIN_DIFF_FARM).
        gpu_mode: GpuMode::Grid,
        search: SearchOptions {
            learning: s.learning,
            heuristic: s.heuristic,
            decisions: match (s.vars || s.dom_mod.is_some(), s.alternate) {
                (true, _) => Decisions::Vars,
                (false, true) => Decisions::Alternate,
                (false, false) => Decisions::Rules,
            },
            dom_mod: s.dom_mod,
            save_progress: s.save,
            // Parallel searches restart after every conflict or two, so that they take in each
            // other's nogoods all the time (small programs have few conflicts); so do alternating
            // ones, which change their way of deciding at restarts.
            restarts: if s.threads > 1 || s.alternate {
                Restarts::Luby(1).into()
            } else if s.dynamic {
                Restarts::Dynamic(4, 0.8).into()
            } else {
                SearchOptions::default().restarts
            },
            acyc_prop: !s.no_acyc_prop,
            update_lbd: if s.churn {
                Some((LbdUpdate::Glucose, 3))
            } else {
                SearchOptions::default().update_lbd
            },
            del_cfl: if s.churn { Some(CHURN) } else { SearchOptions::default().del_cfl },
            deletion: if s.tiered { Deletion::Tiered } else { SearchOptions::default().deletion },
            lookahead: s.look,
            strengthen: s.strengthen.unwrap_or(SearchOptions::default().strengthen),
            random: RandomDecisions { freq: if s.rand { RAND_FREQ } else { 0.0 }, seed: 0 },
            ..SearchOptions::default()
        },
        stop: StopToken::new(Some(Instant::now() + YASMIN_TIME_LIMIT)),
        threads: s.threads,
        split: s.split,
        enum_mode: if s.record { EnumMode::Record } else { EnumMode::Auto },
        equivalences: if s.no_eq { 0 } else { SolveOptions::default().equivalences },
        opt_strategy: s.opt,
        ..SolveOptions::default()
    }
}

/// Shown strings and cost vector of each reported model.
type Models = Vec<(Vec<String>, Vec<i64>)>;

fn run_yasmin(p: &Program, opts: &SolveOptions) -> Result<(Outcome, Models), String> {
    // Brave/cautious select among the outputs of the program with atomic outputs (as app.rs).
    let table = if matches!(opts.enum_mode, EnumMode::Brave | EnumMode::Cautious) {
        ShownTable::new(&p.with_atomic_outputs())
    } else {
        ShownTable::new(p)
    };
    let mut c = Collect { table, models: Vec::new() };
    let o = solve(p, opts, &mut c).map_err(|e| format!("solve refused the program: {}", e))?;
    if o.interrupted.is_some() {
        return Err(format!("interrupted after {YASMIN_TIME_LIMIT:?}"));
    }
    Ok((o, c.models))
}

/// Runs yasmin (`who`, in the message) under `opts` and compares every answer set with the
/// reference's: the same, and the space exhausted.
fn enumerates_all(p: &Program, opts: &SolveOptions, r: &Reference, who: &str) -> Result<(), String> {
    let (o, mut got) = run_yasmin(p, opts)?;
    got.sort();
    if got != r.sets || !o.exhausted {
        return Err(format!(
            "{who} ({}) gives {} answer sets{}: {}\n{} gives {}: {}",
            o.engine,
            got.len(),
            if o.exhausted { "" } else { " (not exhausted)" },
            fmt_sets(&got),
            r.source,
            r.sets.len(),
            fmt_sets(&r.sets)
        ));
    }
    Ok(())
}

/// Runs yasmin (`who`, in the message) for one model under `opts`: one of the reference's answer
/// sets, or none where it has none and the space was exhausted.
fn finds_one(p: &Program, opts: &SolveOptions, r: &Reference, who: &str) -> Result<(), String> {
    let (o, got) = run_yasmin(p, opts)?;
    let right = match got.as_slice() {
        [] => r.sets.is_empty() && o.exhausted,
        [m] => r.sets.contains(m),
        _ => false,
    };
    if right {
        return Ok(());
    }
    Err(format!(
        "{who} gives {} ({}, {} variables eliminated): {}\n{} gives {}: {}",
        got.len(),
        o.engine,
        o.problem_size.eliminated,
        fmt_sets(&got),
        r.source,
        r.sets.len(),
        fmt_sets(&r.sets)
    ))
}

const CHECKS: [&str; 9] = [
    "enumerate",
    "optimize",
    "optN",
    "project",
    "brave",
    "cautious",
    "brave-optimal",
    "cautious-optimal",
    "domrec",
];

fn fmt_sets(v: &[(Vec<String>, Vec<i64>)]) -> String {
    let s: Vec<String> =
        v.iter()
            .map(|(m, c)| {
                if c.is_empty() {
                    format!("{{{}}}", m.join(" "))
                } else {
                    format!("{{{}}}@{c:?}", m.join(" "))
                }
            })
            .collect();
    s.join(" ")
}

fn fmt_list(v: &[Vec<String>]) -> String {
    v.iter().map(|m| format!("{{{}}}", m.join(" "))).collect::<Vec<_>>().join(" ")
}

/// Runs one check of yasmin against the reference; `Err` describes the disagreement.
fn check(
    check: &str,
    p: &Program,
    stripped: &Program,
    info: &Info,
    r: &Reference,
    s: Scheme,
) -> Result<(), String> {
    let mut opts = options(s);
    match check {
        "enumerate" => {
            if info.minimize {
                opts.opt_mode = OptMode::Enum;
            }
            enumerates_all(p, &opts, r, "yasmin")?;
            // One model after `--sat-prepro` (levels 2 and 3), deciding on variables.
            for level in [2, 3].into_iter().filter(|_| !info.minimize) {
                let mut one = opts.clone();
                one.models = Some(1);
                one.sat_prepro = Some(yasmin::nogoods::SatPrepro { level, ..Default::default() });
                one.search.decisions = Decisions::Vars;
                finds_one(p, &one, r, &format!("yasmin --sat-prepro={level} --decisions=vars"))?;
            }
            // YASMIN_DIFF_FARM=N (the device): one model, or none, from the GPU search farm's N
            // searches (tight programs; the others run the usual search).
            if let (Some(n), false) = (env_num("YASMIN_DIFF_FARM"), info.minimize) {
                let mut one = opts.clone();
                one.models = Some(1);
                (one.gpu_mode, one.gpu_searches) = (GpuMode::Farm, n as u32);
                one.opt_mode = OptMode::Ignore;
                // YASMIN_DIFF_FARM_DEVICES=LIST: also a farm on each device of LIST (0,0: two on
                // device 0), competing and dividing the space.
                // With -t 3 the farm races three CPU searches, sharing nogoods with them.
                let mut beside = one.clone();
                (beside.threads, beside.split) = (3, false);
                let mut runs = vec![one.clone(), beside];
                let mut all = one.clone();
                all.models = opts.models;
                // With -t 3 the farm takes parts of the space beside three CPU searches.
                let mut split = all.clone();
                (split.threads, split.split) = (3, true);
                let mut alls = vec![all.clone(), split];
                if let Ok(list) = std::env::var("YASMIN_DIFF_FARM_DEVICES") {
                    one.gpu_devices = list.split(',').filter_map(|d| d.trim().parse().ok()).collect();
                    all.gpu_devices.clone_from(&one.gpu_devices);
                    alls.push(all);
                    runs.push(one.clone());
                    one.split = true;
                    runs.push(one);
                }
                // Every model from the farm (its searches on cubes, the devices too).
                for all in alls {
                    let who = format!("the farm on devices {:?}, -t {}", all.gpu_devices, all.threads);
                    enumerates_all(p, &all, r, &who)?;
                }
                for one in runs {
                    let who = format!(
                        "the farm on devices {:?}{}{}",
                        one.gpu_devices,
                        if one.split { ", split" } else { "" },
                        if one.threads > 1 { format!(", -t {}", one.threads) } else { String::new() },
                    );
                    finds_one(p, &one, r, &who)?;
                }
            }
        }
        "optimize" => {
            let (o, got) = run_yasmin(p, &opts)?;
            let mut problems = Vec::new();
            if r.sets.is_empty() {
                if !got.is_empty() || o.optimum_proven {
                    problems.push("models reported for an incoherent program".to_string());
                }
            } else {
                if !o.optimum_proven {
                    problems.push("optimum not proven".into());
                }
                if o.costs != r.optimum {
                    problems.push(format!("optimum {:?}, expected {:?}", o.costs, r.optimum));
                }
                for (i, m) in got.iter().enumerate() {
                    if !r.sets.contains(m) {
                        problems.push(format!(
                            "model {} {} is not an answer set with that cost",
                            i + 1,
                            fmt_sets(std::slice::from_ref(m))
                        ));
                    }
                    if i > 0 && got[i - 1].1 <= m.1 {
                        problems.push(format!("model {} does not improve on model {i}", i + 1));
                    }
                }
                match got.last() {
                    Some(last) if r.optimal.contains(&last.0) => {}
                    last => problems.push(format!("last model {last:?} is not optimal")),
                }
            }
            if !problems.is_empty() {
                return Err(format!(
                    "{}\nyasmin reports {}\n{}: optimum {:?}, optimal {}",
                    problems.join("; "),
                    fmt_sets(&got),
                    r.source,
                    r.optimum,
                    fmt_list(&r.optimal)
                ));
            }
        }
        "optN" => {
            opts.opt_mode = OptMode::OptN;
            let (o, got) = run_yasmin(p, &opts)?;
            let k = (o.optimal_models as usize).min(got.len());
            let tail = &got[got.len() - k..];
            let mut opt: Vec<Vec<String>> = tail.iter().map(|m| m.0.clone()).collect();
            opt.sort();
            let costs_ok = tail.iter().all(|m| Some(&m.1) == r.optimum.as_ref());
            let expect_costs = if r.sets.is_empty() { None } else { r.optimum.clone() };
            if opt != r.optimal || !costs_ok || o.costs != expect_costs || !o.exhausted {
                return Err(format!(
                    "yasmin: optimum {:?}, {} optimal models: {}\n{}: optimum {:?}, {} optimal models: {}",
                    o.costs,
                    k,
                    fmt_sets(tail),
                    r.source,
                    r.optimum,
                    r.optimal.len(),
                    fmt_list(&r.optimal)
                ));
            }
        }
        "project" => {
            opts.project = Some(ProjectMode::Auto);
            opts.opt_mode = OptMode::Ignore;
            let (o, got) = run_yasmin(p, &opts)?;
            let views: Vec<Vec<String>> = got.iter().map(|m| info.view(&m.0)).collect();
            let mut distinct = views.clone();
            distinct.sort();
            distinct.dedup();
            let expected = r.projected.as_ref().unwrap();
            if distinct.len() != views.len() || &distinct != expected || !o.exhausted {
                return Err(format!(
                    "yasmin gives {} projected answer sets: {}\n{} gives {}: {}",
                    views.len(),
                    fmt_list(&views),
                    r.source,
                    expected.len(),
                    fmt_list(expected)
                ));
            }
        }
        "domrec" => {
            // clasp's way to the subset-minimal models over the shown atoms: decided false
            // first, and a nogood per model over its true ones (`solve/dom_rec.rs`).
            opts.enum_mode = EnumMode::DomRec;
            opts.search.heuristic = Heuristic::Domain;
            opts.search.decisions = Decisions::Vars;
            opts.search.dom_mod = Some(DomMod { modifier: DomModifier::False, pick: DomMod::SHOW });
            opts.search.lookahead = None;
            let (o, got) = run_yasmin(p, &opts)?;
            let mut views: Vec<Vec<String>> = got.iter().map(|m| m.0.clone()).collect();
            views.sort();
            let all: BTreeSet<&Vec<String>> = r.sets.iter().map(|(m, _)| m).collect();
            let subset =
                |a: &Vec<String>, b: &Vec<String>| a.len() < b.len() && a.iter().all(|x| b.contains(x));
            let minimal: Vec<Vec<String>> =
                all.iter().filter(|&&m| !all.iter().any(|&x| subset(x, m))).map(|&m| m.clone()).collect();
            if views != minimal || !o.exhausted {
                return Err(format!(
                    "yasmin's domRec gives {} models: {}\n{} gives {} subset-minimal ones: {}",
                    views.len(),
                    fmt_list(&views),
                    r.source,
                    minimal.len(),
                    fmt_list(&minimal)
                ));
            }
        }
        "brave" | "cautious" => {
            opts.enum_mode = if check == "brave" { EnumMode::Brave } else { EnumMode::Cautious };
            opts.opt_mode = OptMode::Ignore;
            let (o, got) = run_yasmin(stripped, &opts)?;
            let got = got.last().map(|m| m.0.clone());
            let expected = if check == "brave" { &r.brave } else { &r.cautious };
            if &got != expected || !o.exhausted {
                return Err(format!("yasmin: {got:?}\n{}: {expected:?}", r.source));
            }
        }
        "brave-optimal" | "cautious-optimal" => {
            let brave = check == "brave-optimal";
            opts.enum_mode = if brave { EnumMode::Brave } else { EnumMode::Cautious };
            opts.opt_mode = OptMode::Opt;
            let (o, got) = run_yasmin(stripped, &opts)?;
            let got = got.last().map(|m| m.0.clone());
            let expected = if brave { &r.optimal_brave } else { &r.optimal_cautious };
            let proven = o.optimum_proven || expected.is_none();
            let wrong_cost = expected.is_some() && o.costs != r.optimum;
            if &got != expected || !o.exhausted || !proven || wrong_cost {
                return Err(format!(
                    "yasmin: {got:?} (cost {:?}, proven {})\n{}: {expected:?} (cost {:?})",
                    o.costs, o.optimum_proven, r.source, r.optimum
                ));
            }
        }
        _ => unreachable!("{check}"),
    }
    Ok(())
}

/// The command line that runs the same check with the yasmin binary (`{}` is the input file;
/// for brave/cautious it must be the program without project statements).
fn cli_args(c: &str, info: &Info, s: Scheme) -> Vec<String> {
    let h = s.heuristic.name();
    let l = if s.learning == Learning::Res { "res" } else { "fwd" };
    let b = if backend() == Backend::Cuda { "cuda" } else { "cpu" };
    let mut a = vec![
        "0".to_string(),
        format!("--learning={l}"),
        format!("--heuristic={h}"),
        format!("--backend={b}"),
        "--gpu-mode=grid".to_string(),
    ];
    if s.vars {
        a.push("--decisions=vars".into());
    } else if s.alternate {
        a.push("--decisions=alternate".into());
    }
    if let Some(n) = s.save {
        a.push(format!("--save-progress={n}"));
    }
    if s.threads > 1 {
        a.push(format!("--parallel-mode={}{}", s.threads, if s.split { ",split" } else { "" }));
    }
    if s.threads > 1 || s.alternate {
        a.push("--restarts=luby,1".into());
    }
    if s.no_eq {
        a.push("--eq=0".into());
    }
    if s.no_acyc_prop {
        a.push("--acyc-prop=0".into());
    }
    if s.churn {
        a.push("--update-lbd=glucose,3".into());
        a.push("--del-cfl=+,20,20".into());
    }
    if s.tiered {
        a.push("--deletion=tiered".into());
    }
    if let Some((m, t)) = s.strengthen {
        a.push(if m == Strengthen::No { "--strengthen=no".into() } else { format!("--strengthen={m},{t}") });
    }
    if s.dynamic {
        a.push("--restarts=D,4,0.8".into());
    }
    if s.rand {
        a.push(format!("--rand-freq={RAND_FREQ}"));
    }
    if let Some(l) = s.look {
        a.push(format!("--lookahead={},{}", l.kind.name(), l.limit));
    }
    if let Some(m) = s.dom_mod {
        a.push(format!("--dom-mod={m}"));
    }
    match s.opt {
        OptStrategy::Auto => {}
        OptStrategy::Bb => a.push("--opt-strategy=bb".into()),
        OptStrategy::Usc { disjoint, stratify } => {
            a.push(format!("--opt-strategy=usc,oll,{}", u8::from(disjoint) | (4 * u8::from(stratify))))
        }
    }
    if s.record && !c.starts_with("brave") && !c.starts_with("cautious") {
        a.push("--enum-mode=record".into());
    }
    match c {
        "enumerate" if info.minimize => a.push("--opt-mode=enum".into()),
        "optN" => a.push("--opt-mode=optN".into()),
        "project" => a.extend(["--project".into(), "--opt-mode=ignore".into()]),
        "domrec" => a.extend(
            ["--heuristic=Domain", "--dom-mod=false,show", "--enum-mode=domRec", "--lookahead=no"]
                .map(String::from),
        ),
        "brave" | "cautious" => a.extend([format!("--enum-mode={c}"), "--opt-mode=ignore".into()]),
        "brave-optimal" => a.push("--enum-mode=brave".into()),
        "cautious-optimal" => a.push("--enum-mode=cautious".into()),
        _ => {}
    }
    a
}

/// Runs [`check`] in a forked child (see [`in_child`]): yasmin ends the process (exit 70) when
/// its own answer-set check rejects a model it found, and that must become a reported
/// disagreement, not the end of the test. On such an exit the yasmin binary is run on the same
/// input to get its message.
///
/// A child the alarm ended (stuck past three times yasmin's time limit) is run once more: the
/// fork copies the locks the test's other threads held at that moment (their own checks run
/// beside this one), and a child can wait on one of those forever. A second stall is reported.
fn isolated_check(c: &str, prep: &Prepared, r: &Reference, s: Scheme) -> Result<(), String> {
    let run = || in_child(|| check(c, &prep.program, &prep.stripped, &prep.info, r, s));
    let stalled = |e: &Result<(), Result<String, String>>| matches!(e, Err(Err(how)) if *how == format!("signal {}", libc::SIGALRM));
    let mut res = run();
    if stalled(&res) {
        res = run();
    }
    res.map_err(|e| {
        e.unwrap_or_else(|how| {
            format!("yasmin ended the process ({how}); the binary says: {}", run_cli(c, prep, s))
        })
    })
}

/// Runs `f` in a forked child and returns its result: `Err(Ok(message))` when `f` failed or
/// panicked, `Err(Err(how))` when the child ended otherwise (an exit code or a signal). Every
/// solve of this test runs in a child, never in the test process itself: CUDA, once initialised
/// in a process, cannot be used in the children that process forks
/// (`YASMIN_DIFF_BACKEND=cuda`).
fn in_child(f: impl FnOnce() -> Result<(), String>) -> Result<(), Result<String, String>> {
    in_child_within(3 * YASMIN_TIME_LIMIT.as_secs() as u32, f)
}

/// [`in_child`], the child ended by an alarm after `secs` seconds.
fn in_child_within(secs: u32, f: impl FnOnce() -> Result<(), String>) -> Result<(), Result<String, String>> {
    let mut fds = [0i32; 2];
    // SAFETY: plain POSIX calls; the child only runs `f`, writes to the pipe and `_exit`s
    // without running destructors or touching state shared with other threads.
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0, "pipe failed");
        let pid = libc::fork();
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            libc::close(fds[0]);
            // A child stuck past yasmin's own time limit (say, on a lock another thread held at
            // the fork) dies instead of hanging the test.
            libc::alarm(secs);
            // yasmin's own message on an internal error comes from `run_cli`.
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
            if null >= 0 {
                libc::dup2(null, 2);
            }
            let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
            let msg = match res {
                Ok(Ok(())) => "ok".to_string(),
                Ok(Err(e)) => format!("err\n{e}"),
                Err(p) => {
                    let what = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    format!("err\nyasmin panicked: {what}")
                }
            };
            let mut off = 0;
            let b = msg.as_bytes();
            while off < b.len() {
                let n = libc::write(fds[1], b[off..].as_ptr().cast(), b.len() - off);
                if n <= 0 {
                    break;
                }
                off += n as usize;
            }
            libc::_exit(0);
        }
        libc::close(fds[1]);
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        // The parent keeps the deadline too: a child's own alarm was once seen not to fire, and
        // the test then waited for good. Past it, the child gets the alarm's signal from here.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(u64::from(secs) + 10);
        loop {
            let mut pfd = libc::pollfd { fd: fds[0], events: libc::POLLIN, revents: 0 };
            if libc::poll(&mut pfd, 1, 1000) <= 0 {
                if std::time::Instant::now() >= deadline {
                    libc::kill(pid, libc::SIGALRM);
                }
                continue;
            }
            let n = libc::read(fds[0], buf.as_mut_ptr().cast(), buf.len());
            if n <= 0 {
                break;
            }
            out.extend_from_slice(&buf[..n as usize]);
        }
        libc::close(fds[0]);
        let mut status = 0;
        libc::waitpid(pid, &mut status, 0);
        let out = String::from_utf8_lossy(&out).into_owned();
        if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
            return match out.strip_prefix("err\n") {
                Some(e) => Err(Ok(e.to_string())),
                None if out == "ok" => Ok(()),
                None => Err(Ok(format!("garbled result from the checking process: {out:?}"))),
            };
        }
        Err(Err(if libc::WIFEXITED(status) {
            format!("exit code {}", libc::WEXITSTATUS(status))
        } else {
            format!("signal {}", libc::WTERMSIG(status))
        }))
    }
}

/// Runs the yasmin binary on the check's input and returns what it printed to stderr. The
/// binary is `YASMIN_BIN` where that is set (test binaries copied to another machine, where
/// cargo's paths do not exist), else the one cargo built.
fn run_cli(c: &str, prep: &Prepared, s: Scheme) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let k = N.fetch_add(1, Ordering::Relaxed);
    let file = std::env::temp_dir().join(format!("differential-cli-{}-{k}.aspif", std::process::id()));
    let text = if matches!(c, "brave" | "cautious" | "brave-optimal" | "cautious-optimal") {
        strip_project(&prep.aspif)
    } else {
        prep.aspif.clone()
    };
    if let Err(e) = std::fs::write(&file, text) {
        return format!("(cannot write {}: {e})", file.display());
    }
    let args = cli_args(c, &prep.info, s);
    let bin = std::env::var_os("YASMIN_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_yasmin")));
    let out = Command::new(&bin).args(&args).arg(&file).output();
    std::fs::remove_file(&file).ok();
    match out {
        Ok(out) => format!(
            "`yasmin {}` exits {:?}: {}",
            args.join(" "),
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).trim()
        ),
        Err(e) => format!("(cannot run {}: {e}; set YASMIN_BIN)", bin.display()),
    }
}

fn applicable(check: &str, info: &Info) -> bool {
    match check {
        "optimize" | "optN" | "brave-optimal" | "cautious-optimal" => info.minimize,
        "project" => info.projection.is_some(),
        "domrec" => !info.minimize && info.atoms_shown,
        _ => true,
    }
}

// ---------------------------------------------------------------------------------------------
// Cases, shrinking and regression files

#[derive(Clone, Debug)]
enum Case {
    Lp(LpProgram),
    Aspif(AspifProgram),
}

impl Case {
    fn text(&self) -> String {
        match self {
            Case::Lp(p) => p.to_string(),
            Case::Aspif(p) => p.to_string(),
        }
    }
    fn tags(&self) -> BTreeSet<&'static str> {
        match self {
            Case::Lp(p) => p.tags(),
            Case::Aspif(p) => p.tags(),
        }
    }
    fn candidates(&self) -> Vec<Case> {
        match self {
            Case::Lp(p) => p.shrink_candidates().into_iter().map(Case::Lp).collect(),
            Case::Aspif(p) => p.shrink_candidates().into_iter().map(Case::Aspif).collect(),
        }
    }
    fn aspif(&self, clingo: &mut Clingo) -> Result<String, String> {
        match self {
            Case::Lp(p) => clingo.ground(&p.to_string()),
            Case::Aspif(p) => Ok(p.to_string()),
        }
    }
}

/// A ground program ready for checking.
struct Prepared {
    aspif: String,
    program: Program,
    stripped: Program,
    info: Info,
    brute: Option<Reference>,
}

fn prepare(aspif: String) -> Result<Prepared, String> {
    let program = read_program(aspif.as_bytes()).map_err(|e| format!("yasmin cannot read the aspif: {e}"))?;
    let stripped = read_program(strip_project(&aspif).as_bytes()).map_err(|e| format!("{e}"))?;
    let info = Info::of(&program);
    let brute = Ground::from_program(&program).and_then(|g| brute_reference(&g, &info));
    Ok(Prepared { aspif, program, stripped, info, brute })
}

/// What went wrong with a program.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Fault {
    /// yasmin disagrees with the reference in one check.
    Yasmin { check: &'static str, scheme: Scheme },
    /// clingo disagrees with the brute force.
    Clingo { field: &'static str },
}

fn fault_holds(fault: &Fault, case: &Case, clingo: &mut Clingo) -> Option<String> {
    let aspif = case.aspif(clingo).ok()?;
    let prep = prepare(aspif.clone()).ok()?;
    match fault {
        Fault::Yasmin { check: c, scheme } => {
            let reference = match &prep.brute {
                Some(r) => r.clone(),
                None => clingo_reference(clingo, &aspif, &prep.info).ok()?,
            };
            if !applicable(c, &prep.info) {
                return None;
            }
            isolated_check(c, &prep, &reference, *scheme).err()
        }
        Fault::Clingo { field } => {
            let brute = prep.brute.as_ref()?;
            let cl = clingo_reference(clingo, &aspif, &prep.info).ok()?;
            reference_diff(brute, &cl)
                .contains(field)
                .then(|| format!("clingo: {cl:?}\nbrute force: {brute:?}"))
        }
    }
}

/// Greedily removes parts of the program while the fault persists.
fn shrink(case: &Case, fault: &Fault, clingo: &mut Clingo) -> (Case, String) {
    let mut cur = case.clone();
    let mut detail = fault_holds(fault, &cur, clingo).unwrap_or_default();
    let mut steps = 0;
    'outer: loop {
        for cand in cur.candidates() {
            steps += 1;
            if steps > MAX_SHRINK_STEPS {
                break 'outer;
            }
            if let Some(d) = fault_holds(fault, &cand, clingo) {
                cur = cand;
                detail = d;
                continue 'outer;
            }
        }
        break;
    }
    (cur, detail)
}

/// Writes the shrunk program to tests/regressions and returns the path of its aspif.
fn write_regression(name: &str, case: &Case, aspif: &str, note: &str) -> PathBuf {
    let dir = regressions_dir();
    std::fs::create_dir_all(&dir).unwrap();
    if let Case::Lp(p) = case {
        let comment: String = note.lines().map(|l| format!("% {l}\n")).collect();
        std::fs::write(dir.join(format!("{name}.lp")), format!("{comment}{p}")).unwrap();
    }
    let path = dir.join(format!("{name}.aspif"));
    std::fs::write(&path, aspif).unwrap();
    path
}

fn regression_name(prefix: &str, case: &Case, seed: u64) -> String {
    let tags: Vec<&str> =
        case.tags().into_iter().filter(|t| *t != "normal" && *t != "fact").take(4).collect();
    let mut name = format!("{prefix}-{}-seed{seed}", tags.join("-"));
    name.retain(|c| c.is_ascii_alphanumeric() || c == '-');
    name.to_lowercase()
}

// ---------------------------------------------------------------------------------------------
// The run

#[derive(Default)]
struct Stats {
    programs: usize,
    lp: usize,
    raw: usize,
    brute: usize,
    clingo_only: usize,
    answer_sets: usize,
    optimal: usize,
    projected: usize,
    consequences: usize,
    checks: usize,
    features: BTreeMap<&'static str, usize>,
    clingo_wrong: Vec<String>,
    /// clingo hung, died or gave up (its process is restarted).
    clingo_errors: Vec<String>,
    /// Programs neither clingo nor the brute force could answer.
    unchecked: usize,
    clingo_restarts: usize,
    /// yasmin disagreements not shrunk (one line each).
    unshrunk: Vec<String>,
    signatures: BTreeSet<String>,
    shrunk_clingo: usize,
    satisfiable: usize,
    failures: Vec<String>,
    shrunk: usize,
    max_atoms: u32,
}

/// Ground-level features of the program yasmin reads.
fn ground_tags(p: &Program) -> Vec<&'static str> {
    use yasmin::program::{Body, HeadKind};
    let mut t = Vec::new();
    for r in p.rules() {
        let weight = matches!(r.body, Body::Weight { .. });
        if weight {
            t.push("ground:weight-body");
        }
        if r.kind == HeadKind::Choice
            && weight
            && r.body.lits().iter().any(|l| r.head.contains(&l.unsigned_abs()))
        {
            t.push("ground:choice-weight-body-on-own-head");
        }
        if r.kind == HeadKind::Disjunction && r.head.len() > 1 {
            t.push("ground:disjunction");
        }
    }
    if p.external_values().iter().any(|(_, v)| *v == yasmin::program::ExternalValue::Free) {
        t.push("ground:free-external");
    }
    t.sort();
    t.dedup();
    t
}

fn scheme_for(i: u64) -> Scheme {
    let mut s = if i.is_multiple_of(2) {
        let h = [
            Heuristic::Activity,
            Heuristic::Occurrence,
            Heuristic::JeroslowWang,
            Heuristic::Domain,
            Heuristic::Berkmin,
        ][(i / 2 % 5) as usize];
        Scheme::new(Learning::Res, h)
    } else {
        Scheme::new(Learning::Fwd, Heuristic::Activity)
    };
    // Two programs in five decide on variables, one of them with progress saving; one in three
    // is solved by three searches in parallel, half of those dividing the space (split mode:
    // enumeration, projection and optN then run in parallel too).
    // BerkMin decides on variables (the command line makes it so).
    s.vars = i % 5 >= 3 || s.heuristic == Heuristic::Berkmin;
    // One in four of the others alternates between rules and variables.
    s.alternate = !s.vars && i % 4 == 3;
    // Progress is saved by every backjump, or by those over more than one level.
    s.save = (i % 5 == 4).then_some(if i % 10 == 4 { 0 } else { 1 });
    s.threads = if i % 3 == 1 { 3 } else { 1 };
    s.split = i % 6 == 4;
    // One program in four (learning by resolution) records its models as nogoods, where one
    // search otherwise backtracks from them (the default).
    s.record = i % 4 == 2;
    // One program in seven without equivalences substituted (the default substitutes).
    s.no_eq = i % 7 == 5;
    // One in four without the acyclicity checker's backward inference.
    s.no_acyc_prop = i % 4 == 1;
    // Two in nine (one of them in parallel) delete learned nogoods every 20 conflicts or so,
    // updating their LBDs.
    s.churn = matches!(i % 9, 2 | 4);
    // One of those two deletes in tiers.
    s.tiered = i % 9 == 4;
    // Seven in eight programs of the domain heuristic modify atoms by default (--dom-mod), each
    // modifier and class in turn.
    if s.heuristic == Heuristic::Domain {
        let m = |modifier, pick| Some(DomMod { modifier, pick });
        s.dom_mod = [
            None,
            m(DomModifier::Neg, DomMod::OPT),
            m(DomModifier::True, 0),
            m(DomModifier::Level, DomMod::SCC | DomMod::HCC | DomMod::DISJ),
            m(DomModifier::Init, DomMod::SHOW),
            m(DomModifier::False, DomMod::DISJ | DomMod::OPT),
            m(DomModifier::Factor, DomMod::HCC),
            m(DomModifier::Pos, DomMod::OPT | DomMod::SHOW),
        ][(i / 10 % 8) as usize];
    }
    // One search in five restarts dynamically.
    s.dynamic = s.threads == 1 && i % 5 == 3;
    // Two in five optimize by cores (one search, even where three are asked for), two by
    // branch and bound, one by the default (cores for one search, else branch and bound).
    s.opt = match i / 5 % 5 {
        1 | 2 => OptStrategy::Usc { disjoint: s.split, stratify: s.record },
        0 | 3 => OptStrategy::Bb,
        _ => OptStrategy::Auto,
    };
    // One in eleven (learning by resolution) tests atoms for five fixpoints, one in eleven every
    // variable at every fixpoint.
    s.look = match i % 11 {
        3 => Some(Lookahead { kind: LookKind::Atom, limit: 5 }),
        8 => Some(Lookahead { kind: LookKind::Hybrid, limit: 0 }),
        _ => None,
    }
    .filter(|_| s.learning == Learning::Res);
    // One in thirteen (learning by resolution) learns its nogoods as the 1-UIP gives them, one
    // strengthens them locally, one recursively through reasons of at most three literals.
    s.strengthen = match i % 13 {
        4 => Some((Strengthen::No, StrengthenAntes::All)),
        7 => Some((Strengthen::Local, StrengthenAntes::All)),
        11 => Some((Strengthen::Recursive, StrengthenAntes::Short)),
        _ => None,
    }
    .filter(|_| s.learning == Learning::Res);
    // One in seventeen makes random decisions.
    s.rand = i % 17 == 5;
    s
}

fn make_case(seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    let features: Features = Features::random(&mut rng, 0.6);
    let raw = rng.chance(0.25);
    let cfg = Config { features, ..Config::default() };
    if raw { Case::Aspif(generate_aspif(seed, &cfg)) } else { Case::Lp(generate_lp(seed, &cfg)) }
}

fn check_one(index: u64, seed: u64, clingo: &mut Clingo, stats: &Mutex<Stats>) {
    let case = make_case(seed);
    let text = case.text();
    if std::env::var_os("YASMIN_DIFF_VERBOSE").is_some() {
        // Straight to stderr, past the test harness's capture.
        #[allow(clippy::explicit_write)]
        writeln!(std::io::stderr(), "differential: program {index}, seed {seed}:\n{text}").unwrap();
    }
    let aspif = match case.aspif(clingo) {
        Ok(a) => a,
        Err(e) => {
            stats
                .lock()
                .unwrap()
                .failures
                .push(format!("seed {seed}: gringo rejects the generated program: {e}\n{text}"));
            return;
        }
    };
    let prep = match prepare(aspif.clone()) {
        Ok(p) => p,
        Err(e) => {
            let name = regression_name("read", &case, seed);
            let path = write_regression(&name, &case, &aspif, &e);
            stats.lock().unwrap().failures.push(format!("seed {seed}: {e} ({})", path.display()));
            return;
        }
    };
    let clingo_ref = clingo_reference(clingo, &aspif, &prep.info);
    let scheme = scheme_for(index);
    let mut faults: Vec<(Fault, String)> = Vec::new();
    let reference = match (&prep.brute, &clingo_ref) {
        (Some(b), Ok(cl)) => {
            for field in reference_diff(b, cl) {
                faults.push((Fault::Clingo { field }, String::new()));
            }
            b.clone()
        }
        (Some(b), Err(e)) => {
            let note =
                format!("seed {seed}: clingo failed ({e}); checked against the brute force only\n{aspif}");
            stats.lock().unwrap().clingo_errors.push(note);
            b.clone()
        }
        (None, Ok(cl)) => cl.clone(),
        (None, Err(e)) => {
            let note = format!(
                "seed {seed}: clingo failed ({e}) and the brute force cannot handle it; unchecked\n{aspif}"
            );
            let mut st = stats.lock().unwrap();
            st.clingo_errors.push(note);
            st.unchecked += 1;
            return;
        }
    };
    let mut checked = Vec::new();
    for c in CHECKS {
        if !applicable(c, &prep.info) {
            continue;
        }
        checked.push(c);
        if let Err(e) = isolated_check(c, &prep, &reference, scheme) {
            faults.push((Fault::Yasmin { check: c, scheme }, e));
        }
    }

    let mut st = stats.lock().unwrap();
    st.programs += 1;
    match case {
        Case::Lp(_) => st.lp += 1,
        Case::Aspif(_) => st.raw += 1,
    }
    if prep.brute.is_some() {
        st.brute += 1;
    } else {
        st.clingo_only += 1;
    }
    st.max_atoms = st.max_atoms.max(prep.program.atom_count());
    st.checks += checked.len();
    st.answer_sets += reference.sets.len();
    st.satisfiable += usize::from(!reference.sets.is_empty());
    st.optimal += if prep.info.minimize { reference.optimal.len() } else { 0 };
    st.projected += reference.projected.as_ref().map_or(0, |v| v.len());
    st.consequences += 2;
    for t in case.tags().into_iter().chain(ground_tags(&prep.program)) {
        *st.features.entry(t).or_default() += 1;
    }
    // Which faults to shrink: clingo's all (rare); of yasmin's, the first failing check of the
    // program (the others usually share its cause), and only if nothing with the same signature
    // was shrunk before.
    let yasmin_checks: Vec<&str> = faults
        .iter()
        .filter_map(|(f, _)| if let Fault::Yasmin { check, .. } = f { Some(*check) } else { None })
        .collect();
    let mut plan = Vec::new();
    let mut first_yasmin = true;
    for (fault, detail) in faults {
        let is_yasmin = matches!(fault, Fault::Yasmin { .. });
        let sig = signature(&fault, &detail);
        let budget = if is_yasmin { st.shrunk < MAX_SHRUNK } else { st.shrunk_clingo < MAX_SHRUNK_CLINGO };
        let shrink_it = (!is_yasmin || first_yasmin) && budget && st.signatures.insert(sig);
        if shrink_it && is_yasmin {
            st.shrunk += 1;
        } else if shrink_it {
            st.shrunk_clingo += 1;
        }
        first_yasmin &= !is_yasmin;
        plan.push((fault, detail, shrink_it));
    }
    drop(st);

    for (fault, detail, shrink_it) in plan {
        let header = match &fault {
            Fault::Yasmin { check, scheme } => format!("yasmin `{check}` ({})", scheme.name()),
            Fault::Clingo { field } => format!("clingo vs brute force ({field})"),
        };
        let also = match &fault {
            Fault::Yasmin { check, .. } if yasmin_checks.len() > 1 => {
                let others: Vec<&str> = yasmin_checks.iter().copied().filter(|c| c != check).collect();
                format!(" (the program also fails {})", others.join(", "))
            }
            _ => String::new(),
        };
        if !shrink_it {
            let first = detail.lines().next().unwrap_or("");
            let msg = format!("seed {seed}: {header}{also}: {first}");
            let mut st = stats.lock().unwrap();
            match fault {
                Fault::Clingo { .. } => st.clingo_wrong.push(format!("{msg}\n{text}")),
                Fault::Yasmin { .. } => st.unshrunk.push(msg),
            }
            continue;
        }
        let (small, detail) = shrink(&case, &fault, clingo);
        let small_aspif = small.aspif(clingo).unwrap_or_default();
        let prefix = match &fault {
            Fault::Yasmin { check, scheme } => format!("{check}-{}", scheme.name()),
            Fault::Clingo { field } => format!("clingo-wrong-{field}"),
        };
        let name = regression_name(&prefix, &small, seed);
        let note = format!("{header}, seed {seed}\n{detail}");
        let path = write_regression(&name, &small, &small_aspif, &note);
        let msg = format!(
            "seed {seed}: {header}{also}: {}\n{detail}\nshrunk program:\n{}",
            path.display(),
            small.text()
        );
        let mut st = stats.lock().unwrap();
        match fault {
            Fault::Clingo { .. } => st.clingo_wrong.push(msg),
            Fault::Yasmin { .. } => st.failures.push(msg),
        }
    }
}

/// A rough kind of fault, so that one run shrinks different problems rather than one many times.
fn signature(fault: &Fault, detail: &str) -> String {
    let kind: String = detail
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphabetic() || *c == ' ')
        .take(40)
        .collect();
    match fault {
        Fault::Yasmin { check, scheme } => format!("{check}/{:?}/{kind}", scheme.learning),
        Fault::Clingo { field } => format!("clingo/{field}"),
    }
}

#[test]
fn yasmin_agrees_with_clingo_and_brute_force_on_random_programs() {
    let start = Instant::now();
    let n = env_num("YASMIN_DIFF_PROGRAMS").unwrap_or(DEFAULT_PROGRAMS as u64);
    let base = env_num("YASMIN_DIFF_SEED").unwrap_or(DEFAULT_SEED);
    let threads = env_num("YASMIN_DIFF_THREADS").unwrap_or(2).max(1) as usize;
    let stats = Mutex::new(Stats::default());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut clingo = Clingo::start();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                    if i >= n {
                        break;
                    }
                    let seed = base.wrapping_mul(1_000_003).wrapping_add(i);
                    check_one(i, seed, &mut clingo, &stats);
                }
                stats.lock().unwrap().clingo_restarts += clingo.restarts;
            });
        }
    });
    let st = stats.into_inner().unwrap();
    let features: Vec<String> = st.features.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut err = std::io::stderr().lock();
    writeln!(
        err,
        "differential: {} programs ({} .lp via gringo, {} raw aspif; {} satisfiable; {} brute-forced, {} clingo only; \
         up to {} atoms), {} checks, {} answer sets, {} optimal models, {} projected answer sets, {} consequence \
         sets compared; \
         clingo wrong {}, clingo failed {} (restarts {}, unchecked programs {}), yasmin disagreements {}; \
         seed {base}, {:.1}s; features: {}",
        st.programs,
        st.lp,
        st.raw,
        st.satisfiable,
        st.brute,
        st.clingo_only,
        st.max_atoms,
        st.checks,
        st.answer_sets,
        st.optimal,
        st.projected,
        st.consequences,
        st.clingo_wrong.len(),
        st.clingo_errors.len(),
        st.clingo_restarts,
        st.unchecked,
        st.failures.len() + st.unshrunk.len(),
        start.elapsed().as_secs_f64(),
        features.join(" ")
    )
    .unwrap();
    for c in &st.clingo_wrong {
        writeln!(err, "note: clingo disagrees with the brute force (the brute force wins): {c}").unwrap();
    }
    for c in st.clingo_errors.iter().take(5) {
        writeln!(err, "note: {c}").unwrap();
    }
    drop(err);
    assert_eq!(
        (st.programs + st.unchecked) as u64,
        n,
        "not every program was checked:\n{}",
        st.failures.join("\n\n")
    );
    assert!(st.unchecked * 100 <= n as usize, "{} programs could not be checked at all", st.unchecked);
    let unshrunk: Vec<&str> = st.unshrunk.iter().take(40).map(String::as_str).collect();
    let programs: BTreeSet<&str> =
        st.failures.iter().chain(&st.unshrunk).filter_map(|m| m.split(':').next()).collect();
    assert!(
        st.failures.is_empty() && st.unshrunk.is_empty(),
        "yasmin fails {} checks on {} programs; shrunk reproducers (in {}):\n\n{}\n\n{} more (not shrunk){}:\n{}",
        st.failures.len() + st.unshrunk.len(),
        programs.len(),
        regressions_dir().display(),
        st.failures.join("\n\n"),
        st.unshrunk.len(),
        if st.unshrunk.len() > 40 { ", the first 40" } else { "" },
        unshrunk.join("\n")
    );
}

/// The names shown unconditionally (a condition of facts only): clingo's API leaves them out of
/// a consequence model over the projection (its text output prints them, as yasmin does).
fn fact_outputs(p: &Program) -> BTreeSet<String> {
    let facts = yasmin::program::trivially_true(p);
    p.outputs()
        .filter(|o| o.condition.iter().all(|&l| facts[l.unsigned_abs() as usize] == Some(l > 0)))
        .map(|o| String::from_utf8_lossy(&o.name).into_owned())
        .collect()
}

/// Brave and cautious consequences of random programs with `#project` statements, against
/// clingo's: clasp computes them over the projection atoms (src/solve/consequences.rs). The
/// outputs of projection atoms must agree exactly, and yasmin may show nothing clingo does not.
/// clingo may show more: an output atom that its preprocessing finds equivalent to a projection
/// atom shares that atom's variable and is shown with it (yasmin does not look for such
/// equivalences). clingo is the only reference: the brute force does not model this.
/// `YASMIN_DIFF_PROJECTED` programs are generated (1,500 by default); those with `#project`
/// statements are compared.
#[test]
fn projected_consequences_agree_with_clingo() {
    let n = env_num("YASMIN_DIFF_PROJECTED").unwrap_or(1500);
    let mut clingo = Clingo::start();
    let (mut programs, mut compared) = (0, 0);
    let mut differ = Vec::new();
    for i in 0..n {
        let seed = 770_000_000 + i;
        let Ok(aspif) = make_case(seed).aspif(&mut clingo) else { continue };
        let Ok(program) = read_program(aspif.as_bytes()) else { continue };
        if program.projection().is_none() {
            continue;
        }
        let jobs = [
            vec!["0", "--enum-mode=brave", "--opt-mode=ignore"],
            vec!["0", "--enum-mode=cautious", "--opt-mode=ignore"],
        ];
        let Ok(runs) = clingo.solve(&aspif, &jobs) else { continue };
        if !runs.iter().all(|r| r.exhausted) {
            continue;
        }
        let info = Info::of(&program);
        programs += 1;
        for (run, mode) in runs.iter().zip([EnumMode::Brave, EnumMode::Cautious]) {
            let mut opts = options(scheme_for(i));
            opts.enum_mode = mode;
            opts.opt_mode = OptMode::Ignore;
            let facts = fact_outputs(&program);
            let drop_facts =
                |v: &Vec<String>| v.iter().filter(|x| !facts.contains(*x)).cloned().collect::<Vec<_>>();
            let theirs = run.models.last().map(|m| drop_facts(&m.0));
            compared += 1;
            let res = in_child(|| {
                let ours = run_yasmin(&program, &opts).map(|(_, m)| m.last().map(|m| drop_facts(&m.0)));
                let agree = match (&ours, &theirs) {
                    (Ok(Some(o)), Some(t)) => info.view(o) == info.view(t) && o.iter().all(|x| t.contains(x)),
                    (Ok(o), t) => o == t,
                    (Err(_), _) => false,
                };
                if agree { Ok(()) } else { Err(format!("yasmin {ours:?}, clingo {theirs:?}")) }
            });
            if let Err(e) = res {
                let e = e.unwrap_or_else(|how| format!("yasmin ended the process ({how})"));
                differ.push(format!("seed {seed} {mode:?}: {e}\n{aspif}"));
            }
        }
    }
    eprintln!(
        "projected consequences: {programs} programs with #project, {compared} comparisons, {} differ",
        differ.len()
    );
    assert!(programs > 0 || n == 0, "no program with #project among {n}");
    assert!(differ.is_empty(), "{} of {compared} differ; the first:\n{}", differ.len(), differ[0]);
}

/// The clingo process works as the differential test assumes: gringo's aspif for a `.lp` text,
/// and clasp reading aspif through `Control.load` (it reproduces the answer sets
/// `python -m clingo --mode=clasp` gives, including the default-options bug that
/// ../shared/docs/oracles.md describes, which the test's `--trans-ext=weight` avoids).
#[test]
fn clingo_oracle_process_grounds_and_solves_aspif() {
    let mut clingo = Clingo::start();
    let aspif = clingo.ground("a :- not b. b :- not a. c :- a.").unwrap();
    assert!(aspif.starts_with("asp 1 0 0"), "{aspif}");
    let runs = clingo.solve(&aspif, &[vec!["0"]]).unwrap();
    let sets: Vec<Vec<String>> = runs[0].models.iter().map(|m| m.0.clone()).collect();
    assert_eq!(sorted_sets(sets), vec![vec!["a".to_string(), "c".to_string()], vec!["b".to_string()]]);
    assert!(clingo.ground("a :- ").is_err(), "a syntax error must be reported");

    let example = "asp 1 0 0\n1 1 2 1 3 1 1 2 -3 1 1 1\n4 2 x1 1 1\n4 2 x3 1 3\n0\n";
    let with = |clingo: &mut Clingo, trans_ext: &str| {
        let v = clingo
            .try_request(&json!({"op": "solve", "aspif": example, "jobs": [["0"]], "trans_ext": trans_ext}))
            .unwrap();
        let models: Vec<Vec<String>> = v["results"][0]["models"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["shown"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect())
            .collect();
        sorted_sets(models)
    };
    assert_eq!(with(&mut clingo, ""), vec![Vec::<String>::new()], "clasp's defaults (the known bug)");
    assert_eq!(with(&mut clingo, "--trans-ext=weight"), vec![vec![], vec!["x1".to_string()]]);
    // Optimization, projection and consequences come back as the test reads them.
    let prog = "{ a; b; c }. :- a, b. #minimize { 1,a: a; 1,b: b; -1,c: c }. #project c.";
    let aspif = clingo.ground(prog).unwrap();
    let p = read_program(aspif.as_bytes()).unwrap();
    let r = clingo_reference(&mut clingo, &aspif, &Info::of(&p)).unwrap();
    assert_eq!(r.sets.len(), 6);
    assert_eq!(r.optimum, Some(vec![-1]));
    assert_eq!(r.optimal, vec![vec!["c".to_string()]]);
    assert_eq!(r.projected, Some(vec![vec![], vec!["c".to_string()]]));
    assert_eq!(r.brave, Some(vec!["a".to_string(), "b".to_string(), "c".to_string()]));
    assert_eq!(r.cautious, Some(vec![]));
}

fn sorted_sets(mut v: Vec<Vec<String>>) -> Vec<Vec<String>> {
    for m in &mut v {
        m.sort();
    }
    v.sort();
    v
}

/// Every kept regression (tests/regressions/*.aspif) gives the brute force's answers under both
/// learning schemes (and every decision heuristic with resolution learning).
#[test]
fn regressions_agree_with_brute_force() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(regressions_dir())
        .expect("tests/regressions is missing")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "aspif"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no regression programs in {}", regressions_dir().display());
    let mut failures = Vec::new();
    for path in &files {
        let t0 = std::time::Instant::now();
        let failed = check_file(path);
        // Seen with --nocapture: which programs the engine under test is slow on.
        eprintln!("{:.2}s {}", t0.elapsed().as_secs_f64(), path.display());
        failures.extend(failed);
    }
    assert!(failures.is_empty(), "{} regressions fail:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// The most a child running every check of one regression program may take (see `check_file`).
const BATCH_LIMIT_SECS: u32 = 300;

fn check_file(path: &Path) -> Vec<String> {
    let aspif = std::fs::read_to_string(path).unwrap();
    let prep = match prepare(aspif) {
        Ok(p) => p,
        Err(e) => return vec![format!("{}: {e}", path.display())],
    };
    let Some(reference) = &prep.brute else {
        return vec![format!("{}: too large for the brute force", path.display())];
    };
    let schemes = [
        Scheme::new(Learning::Res, Heuristic::Activity),
        Scheme::new(Learning::Res, Heuristic::Occurrence),
        Scheme::new(Learning::Res, Heuristic::JeroslowWang),
        Scheme::new(Learning::Fwd, Heuristic::Activity),
        Scheme { vars: true, ..Scheme::new(Learning::Res, Heuristic::Activity) },
        Scheme { vars: true, save: Some(0), ..Scheme::new(Learning::Fwd, Heuristic::Activity) },
        Scheme { alternate: true, ..Scheme::new(Learning::Res, Heuristic::Activity) },
        Scheme { threads: 3, ..Scheme::new(Learning::Res, Heuristic::Activity) },
        Scheme { threads: 3, split: true, ..Scheme::new(Learning::Res, Heuristic::Activity) },
    ];
    let checks: Vec<&str> = CHECKS.into_iter().filter(|c| applicable(c, &prep.info)).collect();
    // Every check in one child first (a child opens the device afresh under
    // YASMIN_DIFF_BACKEND=cuda, which costs far more than a check); where that fails, each check
    // again in a child of its own, for the messages.
    let all = || {
        schemes.iter().try_for_each(|&s| {
            checks.iter().try_for_each(|c| check(c, &prep.program, &prep.stripped, &prep.info, reference, s))
        })
    };
    // A stalled child (threads it starts can wait for good on a lock of the standard library's
    // that another test's thread held at the fork) costs at most this; its checks then run
    // again, each in a child of its own.
    let secs = (3 * YASMIN_TIME_LIMIT.as_secs() as u32 * (schemes.len() * checks.len()).max(1) as u32)
        .min(BATCH_LIMIT_SECS);
    if in_child_within(secs, all).is_ok() {
        return vec![];
    }
    let mut failed = Vec::new();
    let mut first = None;
    for scheme in schemes {
        for &c in &checks {
            if let Err(e) = isolated_check(c, &prep, reference, scheme) {
                failed.push(format!("{c} ({})", scheme.name()));
                first.get_or_insert(e);
            }
        }
    }
    match first {
        None => vec![],
        Some(e) => vec![format!("{}: fails {}; the first: {e}", path.display(), failed.join(", "))],
    }
}

/// The brute force's fast enumeration (least models, guessing only negated and choice atoms)
/// agrees with checking the definition literally on every interpretation.
#[test]
fn brute_force_paths_agree() {
    let mut compared = 0;
    for seed in 0..400u64 {
        let mut rng = Rng::new(seed);
        let mut features = Features::random(&mut rng, 0.6);
        features.disjunction = false;
        features.head_cycles = false;
        let cfg = Config { features, max_atoms: 8, ..Config::default() };
        let text = generate_aspif(seed, &cfg).to_string();
        let p = read_program(text.as_bytes()).unwrap();
        let g = Ground::from_program(&p).unwrap();
        let (Some(fast), Some(slow)) = (g.answer_sets(), g.answer_sets_by_definition()) else { continue };
        assert_eq!(fast, slow, "seed {seed}:\n{text}");
        compared += 1;
    }
    assert!(compared > 300, "only {compared} programs compared");
}
