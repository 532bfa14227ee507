//! The statistics, declared once. `counters!` declares each counter the engines keep with how
//! it is summed over the searches of a run, its label in the text output (`--stats`), whether
//! the text gives its rate, and its place in clasp's JSON `Stats` tree (`--outf=2 --stats`);
//! [`FIGURES`] adds what is derived from the counters and the problem. The sums
//! ([`EngineStats`]'s `+=`), the text and the JSON are all made from these two tables, so a new
//! counter is one line here.
//!
//! Where clasp has the figure, it sits where clasp puts it (`Core.Choices`, `More.Lemma.Sum`,
//! `LP.Atoms`, `Problem.Variables`...); yasmin's own go under `Yasmin`.

use crate::solve::ProblemSize;

/// How a counter of several searches (a parallel run, optN's two phases) is combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sum {
    /// Added up, as clasp sums its threads' counters.
    Add,
    /// The largest.
    Max,
}

/// Where a figure is printed in the text output: with clasp's search counters, with clasp's
/// problem figures (each section as clasp prints it, in that order), or among yasmin's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    Search,
    Problem,
    Yasmin,
}

/// One counter of [`EngineStats`].
pub struct Counter {
    pub label: &'static str,
    pub section: Section,
    pub json: &'static [&'static str],
    pub sum: Sum,
    /// Whether the text output gives it per second of solving too.
    pub rate: bool,
    /// Whether it is shown when it is 0 (not where it belongs to the other engine).
    pub zero: bool,
    pub get: fn(&EngineStats) -> u64,
    get_mut: fn(&mut EngineStats) -> &mut u64,
}

macro_rules! counters {
    ($($(#[$m:meta])* $field:ident: $label:literal, $section:ident, [$($path:literal),+], $sum:ident, rate: $rate:literal, zero: $zero:literal;)+) => {
        /// Counters every engine keeps.
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct EngineStats {
            $($(#[$m])* pub $field: u64,)+
        }

        /// The counters, in the order they are printed.
        pub const COUNTERS: &[Counter] = &[$(Counter {
            label: $label,
            section: Section::$section,
            json: &[$($path),+],
            sum: Sum::$sum,
            rate: $rate,
            zero: $zero,
            get: |s| s.$field,
            get_mut: |s| &mut s.$field,
        },)+];
    };
}

counters! {
    /// Decisions made.
    decisions: "Choices", Search, ["Core", "Choices"], Add, rate: false, zero: true;
    /// Conflicts met.
    conflicts: "Conflicts", Search, ["Core", "Conflicts"], Add, rate: false, zero: true;
    restarts: "Restarts", Search, ["Core", "Restarts"], Add, rate: false, zero: true;
    /// Nogoods learned.
    learned: "Lemmas", Search, ["More", "Lemma", "Sum"], Add, rate: false, zero: true;
    /// Learned nogoods deleted.
    deleted: "Deleted", Search, ["More", "Lemma", "Deleted"], Add, rate: false, zero: true;
    /// Learned nogoods given to the other searches of a parallel run.
    exported: "Distributed", Search, ["More", "Distributed", "Sum"], Add, rate: false, zero: false;
    /// Learned nogoods taken from them.
    imported: "Integrated", Search, ["More", "Integrated", "Sum"], Add, rate: false, zero: false;
    /// Literals assigned by propagation.
    propagations: "Propagations", Yasmin, ["Yasmin", "Propagations"], Add, rate: true, zero: true;
    /// Their literals, together.
    learned_literals: "Lemma lits", Yasmin, ["Yasmin", "LemmaLiterals"], Add, rate: false, zero: true;
    /// Unfounded sets found.
    unfounded_sets: "Unfounded", Yasmin, ["Yasmin", "Unfounded"], Add, rate: false, zero: true;
    /// Minimality checks of candidates in components with head cycles (one per component), and
    /// the conflicts of their testers' searches.
    minimality_checks: "Min. checks", Yasmin, ["Yasmin", "MinimalityChecks"], Add, rate: false, zero: false;
    minimality_conflicts: "Min. confl.", Yasmin, ["Yasmin", "MinimalityConflicts"], Add, rate: false, zero: false;
    /// Values that lookahead (`--lookahead`) found to fail: conflicts learned from.
    failed_literals: "Failed lits", Yasmin, ["Yasmin", "FailedLiterals"], Add, rate: false, zero: false;
    /// Completions of an assignment no rule was applicable in.
    completions: "Completions", Yasmin, ["Yasmin", "Completions"], Add, rate: false, zero: true;
    /// Nogoods the host relayed between the search farms of several devices, and their bytes.
    relayed: "Relayed", Yasmin, ["Yasmin", "Relayed"], Add, rate: true, zero: false;
    relayed_bytes: "Relayed bytes", Yasmin, ["Yasmin", "RelayedBytes"], Add, rate: true, zero: false;
    /// Propagation rounds on the device (the CUDA engine's; none on the CPU).
    rounds: "Rounds", Yasmin, ["Yasmin", "Rounds"], Add, rate: true, zero: false;
}

/// Sums the counters of several searches (a solve may run more than one, e.g. optN), each as
/// [`COUNTERS`] says.
impl std::ops::AddAssign<&EngineStats> for EngineStats {
    fn add_assign(&mut self, o: &EngineStats) {
        for c in COUNTERS {
            let (mine, theirs) = ((c.get_mut)(self), (c.get)(o));
            *mine = match c.sum {
                Sum::Add => *mine + theirs,
                Sum::Max => (*mine).max(theirs),
            };
        }
    }
}

/// A figure's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(u64),
    Float(f64),
    Bool(bool),
    Text(String),
}

impl Value {
    /// As the text output writes it.
    pub fn text(&self) -> String {
        match self {
            Value::Int(x) => x.to_string(),
            Value::Float(x) => format!("{x:.2}"),
            Value::Bool(b) => (if *b { "Yes" } else { "No" }).into(),
            Value::Text(s) => s.clone(),
        }
    }

    /// As JSON writes it.
    pub fn json(&self) -> String {
        match self {
            Value::Int(x) => x.to_string(),
            Value::Float(x) => format!("{x:.3}"),
            Value::Bool(b) => format!("\"{}\"", if *b { "yes" } else { "no" }),
            Value::Text(s) => format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
        }
    }
}

/// What the figures are made from: a solve's summed counters, its problem and engine.
pub struct Source<'a> {
    pub stats: &'a EngineStats,
    pub problem: &'a ProblemSize,
    /// The engine, and its configuration.
    pub engine: &'a str,
    pub config: &'a str,
}

/// A figure beside the counters: derived, or of the problem.
pub struct Figure {
    pub label: &'static str,
    pub json: &'static [&'static str],
    pub section: Section,
    /// Within its section, before the counters (the engine and its configuration).
    pub first: bool,
    /// `None`: not shown (a figure that does not apply).
    pub value: fn(&Source<'_>) -> Option<Value>,
}

/// The figures beside the counters, in the order they are printed.
pub const FIGURES: &[Figure] = &[
    Figure {
        label: "Engine",
        json: &["Yasmin", "Engine"],
        section: Section::Yasmin,
        first: true,
        value: |s| Some(Value::Text(s.engine.into())),
    },
    Figure {
        label: "Config",
        json: &["Yasmin", "Configuration"],
        section: Section::Yasmin,
        first: true,
        value: |s| Some(Value::Text(s.config.into())),
    },
    Figure {
        label: "Lemma length",
        json: &["Yasmin", "LemmaAvgLen"],
        section: Section::Yasmin,
        first: false,
        value: |s| {
            let n = s.stats.learned;
            Some(Value::Float(if n > 0 { s.stats.learned_literals as f64 / n as f64 } else { 0.0 }))
        },
    },
    Figure {
        label: "Atoms",
        json: &["LP", "Atoms"],
        section: Section::Problem,
        first: false,
        value: |s| Some(Value::Int(s.problem.atoms.into())),
    },
    Figure {
        label: "Equivalences",
        json: &["LP", "Equivalences", "Sum"],
        section: Section::Problem,
        first: false,
        value: |s| Some(Value::Int(s.problem.equivalences.into())),
    },
    Figure {
        label: "Tight",
        json: &["LP", "Tight"],
        section: Section::Problem,
        first: false,
        value: |s| Some(Value::Bool(s.problem.tight)),
    },
    Figure {
        label: "Variables",
        json: &["Problem", "Variables"],
        section: Section::Problem,
        first: false,
        value: |s| Some(Value::Int(s.problem.variables.into())),
    },
    Figure {
        label: "Eliminated",
        json: &["Problem", "Eliminated"],
        section: Section::Problem,
        first: false,
        value: |s| (s.problem.eliminated > 0).then(|| Value::Int(s.problem.eliminated.into())),
    },
    Figure {
        label: "Constraints",
        json: &["Problem", "Constraints", "Sum"],
        section: Section::Problem,
        first: false,
        value: |s| Some(Value::Int(s.problem.nogoods as u64)),
    },
    Figure {
        label: "Weight",
        json: &["Yasmin", "WeightConstraints"],
        section: Section::Yasmin,
        first: false,
        value: |s| Some(Value::Int(s.problem.weight_constraints as u64)),
    },
    Figure {
        label: "Counters",
        json: &["Yasmin", "Counters"],
        section: Section::Yasmin,
        first: false,
        value: |s| (s.problem.counters > 0).then(|| Value::Int(s.problem.counters.into())),
    },
    Figure {
        label: "At-most-one",
        json: &["Yasmin", "AtMostOne"],
        section: Section::Yasmin,
        first: false,
        value: |s| (s.problem.at_most_ones > 0).then(|| Value::Int(s.problem.at_most_ones.into())),
    },
    Figure {
        label: "Symmetries",
        json: &["Yasmin", "Symmetries"],
        section: Section::Yasmin,
        first: false,
        value: |s| (s.problem.symmetries > 0).then(|| Value::Int(s.problem.symmetries.into())),
    },
];

/// One printed figure: where, under which label and JSON path, its value, and its rate per
/// second where the text gives one.
pub struct Row {
    pub section: Section,
    pub label: &'static str,
    pub json: &'static [&'static str],
    pub value: Value,
    pub rate: Option<f64>,
}

/// Every figure, in print order (section by section: clasp's search counters, clasp's problem
/// figures, yasmin's own), the rate per second of `seconds`; counters that are 0 where the table
/// says so are left out.
pub fn rows(s: &Source<'_>, seconds: f64) -> Vec<Row> {
    let t = seconds.max(1e-9);
    let mut out = Vec::new();
    for section in [Section::Search, Section::Problem, Section::Yasmin] {
        let figures = |first: bool| {
            FIGURES.iter().filter(move |f| f.section == section && f.first == first).filter_map(|f| {
                (f.value)(s).map(|value| Row { section, label: f.label, json: f.json, value, rate: None })
            })
        };
        out.extend(figures(true));
        for c in COUNTERS.iter().filter(|c| c.section == section) {
            let v = (c.get)(s.stats);
            if v == 0 && !c.zero {
                continue;
            }
            let rate = c.rate.then(|| v as f64 / t);
            out.push(Row { section, label: c.label, json: c.json, value: Value::Int(v), rate });
        }
        out.extend(figures(false));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_follow_the_table() {
        let mut a = EngineStats { decisions: 3, rounds: 1, ..Default::default() };
        a += &EngineStats { decisions: 4, learned: 2, ..Default::default() };
        assert_eq!((a.decisions, a.learned, a.rounds), (7, 2, 1));
        // Every counter is summed: one of each, twice, is two of each.
        let mut ones = EngineStats::default();
        for c in COUNTERS {
            *(c.get_mut)(&mut ones) = 1;
        }
        let mut twice = ones.clone();
        twice += &ones;
        assert!(COUNTERS.iter().all(|c| (c.get)(&twice) == 2));
    }

    #[test]
    fn labels_and_paths_are_distinct() {
        let mut labels: Vec<&str> =
            COUNTERS.iter().map(|c| c.label).chain(FIGURES.iter().map(|f| f.label)).collect();
        let mut paths: Vec<String> = COUNTERS
            .iter()
            .map(|c| c.json.join("."))
            .chain(FIGURES.iter().map(|f| f.json.join(".")))
            .collect();
        let n = labels.len();
        labels.sort_unstable();
        labels.dedup();
        paths.sort();
        paths.dedup();
        assert_eq!((labels.len(), paths.len()), (n, n));
    }
}
