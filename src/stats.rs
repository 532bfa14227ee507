//! The statistics, declared once. [`counters!`] declares each counter the engines keep with how
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

/// One counter of [`EngineStats`].
pub struct Counter {
    pub label: &'static str,
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
    ($($(#[$m:meta])* $field:ident: $label:literal, [$($path:literal),+], $sum:ident, rate: $rate:literal, zero: $zero:literal;)+) => {
        /// Counters every engine keeps.
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct EngineStats {
            $($(#[$m])* pub $field: u64,)+
        }

        /// The counters, in the order they are printed.
        pub const COUNTERS: &[Counter] = &[$(Counter {
            label: $label,
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
    decisions: "Choices", ["Core", "Choices"], Add, rate: true, zero: true;
    /// Conflicts met.
    conflicts: "Conflicts", ["Core", "Conflicts"], Add, rate: true, zero: true;
    restarts: "Restarts", ["Core", "Restarts"], Add, rate: false, zero: true;
    /// Literals assigned by propagation.
    propagations: "Propagations", ["Yasmin", "Propagations"], Add, rate: true, zero: true;
    /// Nogoods learned.
    learned: "Lemmas", ["More", "Lemma", "Sum"], Add, rate: true, zero: true;
    /// Their literals, together.
    learned_literals: "Lemma lits", ["Yasmin", "LemmaLiterals"], Add, rate: false, zero: true;
    /// Learned nogoods deleted.
    deleted: "Deleted", ["More", "Lemma", "Deleted"], Add, rate: false, zero: true;
    /// Unfounded sets found.
    unfounded_sets: "Unfounded", ["Yasmin", "Unfounded"], Add, rate: false, zero: true;
    /// Completions of an assignment no rule was applicable in.
    completions: "Completions", ["Yasmin", "Completions"], Add, rate: false, zero: true;
    /// Learned nogoods given to the other searches of a parallel run.
    exported: "Exported", ["More", "Distributed", "Sum"], Add, rate: false, zero: false;
    /// Learned nogoods taken from them.
    imported: "Imported", ["More", "Integrated", "Sum"], Add, rate: false, zero: false;
    /// Propagation rounds on the device (the CUDA engine's; none on the CPU).
    rounds: "Rounds", ["Yasmin", "Rounds"], Add, rate: true, zero: false;
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
    /// Before the counters (the engine) or after them (the rest).
    pub first: bool,
    /// `None`: not shown (a figure that does not apply).
    pub value: fn(&Source<'_>) -> Option<Value>,
}

/// The figures beside the counters, in the order they are printed.
pub const FIGURES: &[Figure] = &[
    Figure {
        label: "Engine",
        json: &["Yasmin", "Engine"],
        first: true,
        value: |s| Some(Value::Text(s.engine.into())),
    },
    Figure {
        label: "Config",
        json: &["Yasmin", "Configuration"],
        first: true,
        value: |s| Some(Value::Text(s.config.into())),
    },
    Figure {
        label: "Lemma length",
        json: &["Yasmin", "LemmaAvgLen"],
        first: false,
        value: |s| {
            let n = s.stats.learned;
            Some(Value::Float(if n > 0 { s.stats.learned_literals as f64 / n as f64 } else { 0.0 }))
        },
    },
    Figure {
        label: "Atoms",
        json: &["LP", "Atoms"],
        first: false,
        value: |s| Some(Value::Int(s.problem.atoms.into())),
    },
    Figure {
        label: "Tight",
        json: &["LP", "Tight"],
        first: false,
        value: |s| Some(Value::Bool(s.problem.tight)),
    },
    Figure {
        label: "Variables",
        json: &["Problem", "Variables"],
        first: false,
        value: |s| Some(Value::Int(s.problem.variables.into())),
    },
    Figure {
        label: "Nogoods",
        json: &["Problem", "Constraints", "Sum"],
        first: false,
        value: |s| Some(Value::Int(s.problem.nogoods as u64)),
    },
    Figure {
        label: "Weight",
        json: &["Yasmin", "WeightConstraints"],
        first: false,
        value: |s| Some(Value::Int(s.problem.weight_constraints as u64)),
    },
];

/// Every figure, in print order, as (label, JSON path, value, rate per second of `seconds` where
/// the text gives one); counters that are 0 where the table says so are left out.
pub fn rows(
    s: &Source<'_>,
    seconds: f64,
) -> Vec<(&'static str, &'static [&'static str], Value, Option<f64>)> {
    let t = seconds.max(1e-9);
    let figure = |f: &Figure| (f.value)(s).map(|v| (f.label, f.json, v, None));
    let mut out: Vec<_> = FIGURES.iter().filter(|f| f.first).filter_map(figure).collect();
    for c in COUNTERS {
        let v = (c.get)(s.stats);
        if v == 0 && !c.zero {
            continue;
        }
        out.push((c.label, c.json, Value::Int(v), c.rate.then(|| v as f64 / t)));
    }
    out.extend(FIGURES.iter().filter(|f| !f.first).filter_map(figure));
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
