//! Fuzz target for the whole pipeline on small programs: read, complete, solve under a
//! configuration taken from the input (200 ms limit), and check what is certainly true of any
//! run: no panic and no `SolveError::Internal` (`solve` verifies every model before reporting it:
//! a set that is not an answer set is an internal error); as many models reported as the outcome
//! counts; enumerated models pairwise distinct (as sets of atoms, or their projections under
//! `--project`); optimization's costs decreasing; and a run that ended on its own agrees with a
//! run of the same program and mode under the default search options (one search): the same
//! answer sets (or projections), the same optimum and optimal models, the same consequences.
//!
//! The input is a program when it reads as aspif or smodels (the configuration then comes from a
//! hash of the bytes; only programs of at most 40 atoms and 80 rules are solved), else a recipe
//! ([`decode`]): four bytes of configuration, then a small ground program of at most 10 atoms
//! and 16 statements, written as aspif text.
//!
//! Run from the repository root: `bash fuzz/run.sh pipeline 1000000`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::time::{Duration, Instant};
use yasmin::input::read_program;
use yasmin::program::Program;
use yasmin::solve::config::{
    Backend, Decisions, Deletion, Distribute, EnumMode, Heuristic, Learning, OptMode, ProjectMode, Restarts,
    SearchOptions,
};
use yasmin::solve::{ModelEvent, Outcome, Report, SolveError, SolveOptions, solve};
use yasmin::stop::StopToken;

/// The time limit of each solve.
const LIMIT: Duration = Duration::from_millis(200);

/// The largest program read from the input that is solved (larger ones take milliseconds each,
/// and the readers target covers their reading).
const MAX_READ_ATOMS: u32 = 40;
const MAX_READ_RULES: usize = 80;

/// What the configuration bytes choose (everything but the stop token).
#[derive(Clone, Debug)]
pub struct Config {
    pub models: Option<u64>,
    pub opt_mode: OptMode,
    pub enum_mode: EnumMode,
    pub project: Option<ProjectMode>,
    pub search: SearchOptions,
    pub threads: u32,
    pub split: bool,
    pub distribute: Option<Distribute>,
    pub seed: u64,
}

/// A fuzz input decoded: the program (as read, or the recipe's aspif text) and the configuration.
pub enum Source {
    /// The input read as aspif or smodels.
    Read(Program),
    /// A recipe's program, as aspif text.
    Recipe(Vec<u8>),
}

/// Bytes taken one at a time; 0 once they run out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The configuration of four bytes.
fn config(c: [u8; 4]) -> Config {
    let [c0, c1, c2, c3] = c;
    let enum_mode = match c0 & 3 {
        0 => EnumMode::Auto,
        1 => EnumMode::Record,
        2 => EnumMode::Brave,
        _ => EnumMode::Cautious,
    };
    let opt_mode = [OptMode::Opt, OptMode::OptN, OptMode::Enum, OptMode::Ignore][usize::from((c0 >> 2) & 3)];
    let project = match (c0 >> 4) & 3 {
        2 => Some(ProjectMode::Auto),
        3 if c0 & 0x40 != 0 => Some(ProjectMode::Show),
        3 => Some(ProjectMode::Project),
        _ => None,
    };
    let heuristics =
        [Heuristic::Activity, Heuristic::Occurrence, Heuristic::JeroslowWang, Heuristic::Activity];
    let search = SearchOptions {
        learning: if c0 & 0x80 != 0 { Learning::Fwd } else { Learning::Res },
        heuristic: heuristics[usize::from(c1 & 3)],
        decisions: if c1 & 4 != 0 { Decisions::Vars } else { Decisions::Rules },
        save_progress: c1 & 8 != 0,
        restarts: match (c1 >> 4) & 3 {
            0 => Restarts::Luby(100),
            1 => Restarts::Luby(1),
            2 => Restarts::Geometric(2, 1.5),
            _ => Restarts::No,
        },
        deletion: [Deletion::Lbd, Deletion::Activity, Deletion::No, Deletion::Lbd][usize::from(c1 >> 6)],
        ..SearchOptions::default()
    };
    let threads = [1, 1, 2, 3][usize::from(c2 & 3)];
    let models = match (c2 >> 2) & 3 {
        2 => Some(1),
        3 if c2 & 0x10 != 0 => None,
        3 => Some(2),
        _ => Some(0),
    };
    let seed = 1 + u64::from(c2 >> 5);
    // A parallel run's searches compete or split the search space, sharing nogoods or not.
    let split = c3 & 1 != 0;
    let distribute = match (c3 >> 1) & 3 {
        2 => None,
        3 => Some(Distribute { lbd: 2, size: 8 }),
        _ => Some(Distribute::DEFAULT),
    };
    Config { models, opt_mode, enum_mode, project, search, threads, split, distribute, seed }
}

/// Decodes a fuzz input: a program it reads as, with a configuration from a hash of the bytes;
/// else a recipe (see [`recipe`]) after four configuration bytes.
pub fn decode(data: &[u8]) -> (Source, Config) {
    if let Ok(p) = read_program(data) {
        // FNV-1a.
        let h = data
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        let h = h ^ (h >> 29);
        return (Source::Read(p), config([h as u8, (h >> 8) as u8, (h >> 16) as u8, (h >> 24) as u8]));
    }
    let mut b = Bytes(data);
    let c = config([b.next(), b.next(), b.next(), b.next()]);
    (Source::Recipe(recipe(&mut b)), c)
}

/// A small ground program in aspif: a byte of atoms (1-10), a byte of flags (bit 0: every atom
/// shown as `aN`), a byte of statements (0-16), then each statement (while bytes are left): a
/// byte of kind and its arguments (0 where the bytes run out). Literals are a byte each (atom
/// `1 + (b >> 2) % n`, negative when `b & 3 == 0`).
fn recipe(b: &mut Bytes<'_>) -> Vec<u8> {
    use std::fmt::Write;
    let n = 1 + u32::from(b.next() % 10);
    let flags = b.next();
    let statements = b.next() % 17;
    let mut out = String::from("asp 1 0 0\n");
    let atom = |x: u8| 1 + u32::from(x) % n;
    let lit = |x: u8| {
        let a = 1 + u32::from(x >> 2) % n;
        if x & 3 == 0 { -(a as i64) } else { a as i64 }
    };
    let lits = |b: &mut Bytes<'_>, k: usize| -> Vec<i64> { (0..k).map(|_| lit(b.next())).collect() };
    let list = |v: &[i64]| v.iter().fold(v.len().to_string(), |s, x| s + " " + &x.to_string());
    // A body: normal (`0 n lits`) or, when `weight`, a weight body (`1 bound n lit weight ...`).
    let body = |b: &mut Bytes<'_>, weight: bool| -> String {
        if weight {
            let k = 1 + usize::from(b.next() % 4);
            let wl: Vec<(i64, i64)> = (0..k).map(|_| (lit(b.next()), 1 + i64::from(b.next() % 3))).collect();
            let sum: i64 = wl.iter().map(|w| w.1).sum();
            let bound = i64::from(b.next()) % (sum + 2);
            let mut s = format!("1 {bound} {k}");
            for (l, w) in wl {
                let _ = write!(s, " {l} {w}");
            }
            s
        } else {
            let k = usize::from(b.next() % 4);
            format!("0 {}", list(&lits(b, k)))
        }
    };
    let head = |b: &mut Bytes<'_>, k: usize| -> String {
        let h: Vec<i64> = (0..k).map(|_| i64::from(atom(b.next()))).collect();
        list(&h)
    };
    if flags & 1 != 0 {
        for a in 1..=n {
            let _ = writeln!(out, "4 {} a{a} 1 {a}", 1 + a.to_string().len());
        }
    }
    for _ in 0..statements {
        if b.is_empty() {
            break;
        }
        let k = b.next();
        match k % 16 {
            // a :- body.
            0..=3 => {
                let h = head(b, 1);
                let bd = body(b, false);
                let _ = writeln!(out, "1 0 {h} {bd}");
            }
            // a1 | a2 (| a3) :- body.
            4 | 5 => {
                let h = head(b, 2 + usize::from(k & 16 != 0));
                let bd = body(b, false);
                let _ = writeln!(out, "1 0 {h} {bd}");
            }
            // {a1; ...} :- body (normal or weight).
            6 | 7 => {
                let h = head(b, usize::from(k >> 4) % 4);
                let bd = body(b, k & 0x40 != 0);
                let _ = writeln!(out, "1 1 {h} {bd}");
            }
            // a :- bound { lits = weights }.
            8 => {
                let h = head(b, 1);
                let bd = body(b, true);
                let _ = writeln!(out, "1 0 {h} {bd}");
            }
            // :- body.
            9 => {
                let bd = body(b, k & 16 != 0);
                let _ = writeln!(out, "1 0 0 {bd}");
            }
            // #minimize { weight@priority: lit } (weights -1..3).
            10 | 11 => {
                let prio = b.next() % 3;
                let m = 1 + usize::from(b.next() % 3);
                let mut s = format!("2 {prio} {m}");
                for _ in 0..m {
                    let l = lit(b.next());
                    let _ = write!(s, " {l} {}", i64::from(b.next() % 5) - 1);
                }
                let _ = writeln!(out, "{s}");
            }
            // #show name : condition (0-2 literals); names from a small pool, so that some repeat.
            12 => {
                let name = match b.next() % 4 {
                    0 => "x".to_string(),
                    1 => "y".to_string(),
                    _ => format!("a{}", atom(b.next())),
                };
                let k = usize::from(b.next() % 3);
                let c = lits(b, k);
                let _ = writeln!(out, "4 {} {name} {}", name.len(), list(&c));
            }
            // #project {atoms}.
            13 => {
                let p = b.next();
                let _ = writeln!(out, "3 {}", head(b, usize::from(p % 4)));
            }
            // #external a. [free, true, false, release]
            14 => {
                let a = atom(b.next());
                let _ = writeln!(out, "5 {a} {}", b.next() % 4);
            }
            // An assumption, or a heuristic statement (which never changes the answer sets).
            _ => {
                if k & 16 != 0 {
                    let k = 1 + usize::from(b.next() % 2);
                    let c = lits(b, k);
                    let _ = writeln!(out, "6 {}", list(&c));
                } else {
                    let a = atom(b.next());
                    let (m, bias, prio) = (b.next() % 6, i64::from(b.next() % 5) - 2, b.next() % 3);
                    let k = usize::from(b.next() % 2);
                    let c = lits(b, k);
                    let _ = writeln!(out, "7 {m} {a} {bias} {prio} {}", list(&c));
                }
            }
        }
    }
    out.push_str("0\n");
    out.into_bytes()
}

/// A reported model: its atoms, costs, and (brave/cautious) the outputs selected so far.
struct Event {
    atoms: Vec<bool>,
    costs: Option<Vec<i64>>,
    selected: Option<Vec<bool>>,
}

#[derive(Default)]
struct Collect(Vec<Event>);

impl Report for Collect {
    fn model(&mut self, ev: &ModelEvent<'_>) -> std::io::Result<()> {
        self.0.push(Event {
            atoms: ev.atoms.to_vec(),
            costs: ev.costs.map(<[i64]>::to_vec),
            selected: ev.selected.map(<[bool]>::to_vec),
        });
        Ok(())
    }
}

/// Solves under `c` with a fresh 200 ms limit; `None` for an unsupported program.
fn run(program: &Program, c: &Config) -> Option<(Outcome, Vec<Event>)> {
    let opts = SolveOptions {
        models: c.models,
        opt_mode: c.opt_mode,
        enum_mode: c.enum_mode,
        project: c.project,
        backend: Backend::Cpu,
        search: c.search.clone(),
        stop: StopToken::new(Some(Instant::now() + LIMIT)),
        threads: c.threads,
        split: c.split,
        distribute: c.distribute,
        seed: c.seed,
        ..SolveOptions::default()
    };
    let mut got = Collect::default();
    match solve(program, &opts, &mut got) {
        Ok(o) => {
            assert_eq!(o.models, got.0.len() as u64, "models counted and reported differ ({c:?})");
            Some((o, got.0))
        }
        Err(SolveError::Unsupported(_)) => None,
        Err(e @ SolveError::Internal(_)) => panic!("{e} ({c:?})"),
        Err(e) => panic!("unexpected error: {e} ({c:?})"),
    }
}

/// The atoms of the projection the enumeration blocks on (as `Driver::projection_atoms`).
fn projection_atoms(program: &Program, mode: Option<ProjectMode>) -> Option<Vec<u32>> {
    let mut atoms = match (mode?, program.projection()) {
        (ProjectMode::Show, _) | (ProjectMode::Auto, None) => {
            program.outputs().flat_map(|o| o.condition.iter().map(|&l| l.unsigned_abs())).collect()
        }
        (_, Some(p)) => p,
        (ProjectMode::Project, None) => Vec::new(),
    };
    atoms.sort_unstable();
    atoms.dedup();
    Some(atoms)
}

/// What a run found that any other run of the same program and mode, ended on its own, finds
/// too (`None` where a run may differ: stopped by the limit).
#[derive(Debug, PartialEq, Eq)]
enum Summary {
    /// Enumeration: exhausted or not, the models (or projections), sorted when all were asked for
    /// (else only their number is compared).
    Enumerated { exhausted: bool, count: u64, models: Option<Vec<Vec<bool>>> },
    /// Optimization: the proven optimum (None: no model) and, for optN, the optimal models.
    Optimum { costs: Option<Vec<i64>>, optimal: Option<Vec<Vec<bool>>> },
    /// Brave or cautious consequences: satisfiable, and the outputs selected at the end.
    Consequences { satisfiable: bool, selected: Option<Vec<bool>> },
}

fn sorted(mut v: Vec<Vec<bool>>) -> Vec<Vec<bool>> {
    v.sort_unstable();
    v
}

/// Checks the models of one run and returns its [`Summary`].
fn check(program: &Program, c: &Config, o: &Outcome, models: &[Event]) -> Option<Summary> {
    let optimizing = program.minimize().next().is_some() && c.opt_mode != OptMode::Ignore;
    let finished = o.interrupted.is_none();
    if matches!(c.enum_mode, EnumMode::Brave | EnumMode::Cautious) {
        if !finished {
            return None;
        }
        assert!(o.exhausted, "consequences ended without being exhausted ({c:?})");
        return Some(Summary::Consequences {
            satisfiable: !models.is_empty(),
            selected: models.last().map(|e| e.selected.clone().expect("consequences select outputs")),
        });
    }
    if optimizing && c.opt_mode != OptMode::Enum {
        // Branch and bound: each model costs less than the one before; optN then enumerates
        // models of the optimal cost (opt counts the last model of branch and bound as optimal).
        let optimal = if c.opt_mode == OptMode::OptN { o.optimal_models as usize } else { 0 };
        let bb = &models[..models.len() - optimal];
        for w in bb.windows(2) {
            assert!(
                w[1].costs < w[0].costs,
                "costs do not decrease: {:?} then {:?} ({c:?})",
                w[0].costs,
                w[1].costs
            );
        }
        for e in &models[models.len() - optimal..] {
            assert_eq!(e.costs, o.costs, "an optimal model of another cost ({c:?})");
        }
        if let Some(last) = bb.last() {
            assert_eq!(last.costs, o.costs, "the best cost is not the last model's ({c:?})");
        }
        if !finished {
            return None;
        }
        if c.opt_mode == OptMode::Opt && !o.exhausted {
            // Stopped at the model limit.
            return None;
        }
        // optN proves the optimum whatever the limit (which only limits its optimal models).
        assert_eq!(o.optimum_proven, o.costs.is_some(), "finished, but no optimum proven ({c:?})");
        let optimal = (c.opt_mode == OptMode::OptN && o.optimum_proven && c.models == Some(0)).then(|| {
            assert!(o.exhausted, "all optimal models asked for, not exhausted ({c:?})");
            sorted(models[models.len() - optimal..].iter().map(|e| e.atoms.clone()).collect())
        });
        if let Some(m) = &optimal {
            assert!(m.windows(2).all(|w| w[0] != w[1]), "an optimal model reported twice ({c:?})");
        }
        return Some(Summary::Optimum { costs: o.costs.clone(), optimal });
    }
    // Enumeration: pairwise distinct models (or projections).
    let projection = projection_atoms(program, c.project);
    let keys: Vec<Vec<bool>> = models
        .iter()
        .map(|e| match &projection {
            Some(p) => p.iter().map(|&a| e.atoms[a as usize]).collect(),
            None => e.atoms.clone(),
        })
        .collect();
    let keys = sorted(keys);
    if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
        panic!(
            "a model reported twice ({}): {:?} ({c:?})",
            if projection.is_some() { "projected" } else { "atoms" },
            w[0]
        );
    }
    if let Some(k) = c.models.filter(|&k| k > 0) {
        assert!(o.models <= k, "more models than asked for ({c:?})");
    }
    if !finished {
        return None;
    }
    Some(Summary::Enumerated {
        exhausted: o.exhausted,
        count: o.models,
        models: (c.models == Some(0)).then_some(keys),
    })
}

fuzz_target!(|data: &[u8]| {
    let (source, c) = decode(data);
    let program = match source {
        // Only small programs: the readers target reads the others.
        Source::Read(p) if p.atom_count() > MAX_READ_ATOMS || p.rule_count() > MAX_READ_RULES => return,
        Source::Read(p) => p,
        Source::Recipe(text) => read_program(&text).unwrap_or_else(|e| {
            panic!("a recipe's program does not read: {e:?}\n{}", String::from_utf8_lossy(&text))
        }),
    };
    let Some((o, models)) = run(&program, &c) else { return };
    let Some(summary) = check(&program, &c, &o, &models) else { return };
    // The same program and mode under the default search options, one search.
    let reference =
        Config { search: SearchOptions::default(), threads: 1, split: false, seed: 1, ..c.clone() };
    if c.threads == 1 && format!("{:?}", c.search) == format!("{:?}", reference.search) {
        return;
    }
    let Some((o2, models2)) = run(&program, &reference) else {
        panic!("unsupported under the default options only ({c:?})")
    };
    if let Some(s2) = check(&program, &reference, &o2, &models2) {
        assert_eq!(summary, s2, "{c:?} and the default options disagree");
    }
});
