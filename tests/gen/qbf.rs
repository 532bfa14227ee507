//! Hard disjunctive programs with head cycles, whose answer sets are known without a solver: for
//! the tests that send signals and time limits to yasmin while it is inside its minimality checks.
//!
//! A random 2QBF `Φ = ∃X ∀Y ψ`, `ψ` a DNF of 3-literal terms, by the saturation encoding of Eiter
//! and Gottlob, written as ground aspif (no grounder):
//!
//! ```text
//! x_i | nx_i.   y_j | ny_j.   y_j :- w.   ny_j :- w.   w :- l1, l2, l3.   :- not w.
//! ```
//!
//! `Φ` is true iff the program has an answer set, and its answer sets are `{x_i or nx_i, as the
//! assignment says} ∪ {every y_j, ny_j} ∪ {w}` for each assignment of `X` under which `ψ` holds for
//! every assignment of `Y` (checked against clingo 5.8.3 on 800 small random instances, xs
//! 2..6, ys 3..6, 2..24 terms, 200 of each of generate.py's shapes: the same answer sets on
//! every one). Atoms print as `x(1)`,
//! `nx(1)`, `y(1)`, `ny(1)`, `w`. Every candidate answer set the search finds must pass a
//! minimality check (the whole program is one component with a head cycle), so the search of an
//! instance near the threshold spends most of its time in them: 61 to 73 % of yasmin's samples
//! under `perf` are in `Minimality::check` on the calibrated instances below (10,000 to 40,000
//! checks each).
//!
//! [`Qbf::random`] gives each term one `X` literal and two `Y` literals (distinct variables,
//! random signs). Measured against the other shapes (instances/gen/qbf/generate.py's `--x-lits`):
//! two `X` literals and one `Y` literal, or a mix of 1 and 2, or 0 and 1, make the instances
//! much easier for yasmin (at most 0.02 s at 16 × 20, where this shape needs up to 0.1 s and
//! grows fast): a term with one `Y` literal lets the search pick `X` so that `y` and `¬y` both survive.
//! The truth threshold is near `terms ≈ 1.8 · ys`, almost independent of `xs`.
//!
//! [`Qbf::answer_sets`] and friends decide the QBF exactly: a search over `X` that prunes a
//! partial assignment when even all terms it does not falsify leave a falsifying `Y`, and
//! accepts all its completions at once when the terms it already makes true cover every `Y`;
//! each "is this DNF over `Y` valid" question is a small DPLL over `Y` (bit masks, so
//! `xs ≤ 64`, `ys ≤ 64`). The unit tests check it against plain brute force over `X` and `Y` on
//! small instances. At the calibrated sizes, where plain brute force (2^(xs+ys) assignments) could
//! not, [`Qbf::is_true`] and [`Qbf::is_answer_set`] answer in well under a millisecond, and
//! counting or listing takes milliseconds for `MANY_MODELS` (the search accepts a whole subtree of
//! assignments at once), seconds for `HARD_SAT`'s millions.
//!
//! Calibration (`cargo build --release` of commit 8c0a020 on the 2-core development machine; wall
//! times of `yasmin -q -n 1` or `-n 0` and of `python -m clingo -q` 5.8.3 with the same model
//! count, each the median of 3 runs):
//!
//! | set           | seed | xs | ys | terms | Φ     | answer sets | yasmin | checks | in checks | clingo |
//! |---------------|------|----|----|-------|-------|-------------|--------|--------|-----------|--------|
//! | `HARD_UNSAT`  |    2 | 28 | 28 |    50 | false |           0 | 1.40 s |   8400 |      72 % | 0.05 s |
//! | `HARD_UNSAT`  |    3 | 28 | 28 |    50 | false |           0 | 2.28 s |  11523 |      71 % | 0.06 s |
//! | `HARD_UNSAT`  |    7 | 30 | 30 |    52 | false |           0 | 2.88 s |  14580 |      71 % | 0.04 s |
//! | `HARD_UNSAT`  |    9 | 30 | 30 |    50 | false |           0 | 4.61 s |  19985 |      61 % | 0.04 s |
//! | `HARD_SAT`    |    6 | 28 | 28 |    50 | true  |  24,117,248 | 1.75 s |  10365 |      73 % | 0.04 s |
//! | `HARD_SAT`    |    6 | 30 | 30 |    50 | true  |  79,691,776 | 2.77 s |  13580 |      67 % | 0.04 s |
//! | `HARD_SAT`    |    8 | 29 | 29 |    51 | true  |  13,254,656 | 3.51 s |  15991 |      68 % | 0.06 s |
//! | `HARD_SAT`    |    3 | 30 | 30 |    50 | true  |  12,746,752 | 5.23 s |  22810 |      62 % | 0.04 s |
//! | `MANY_MODELS` |    1 | 18 | 22 |    44 | true  |      16,128 | 2.51 s |  16978 | 72 (22) % | 0.11 s |
//! | `MANY_MODELS` |    2 | 20 | 24 |    52 | true  |      22,496 | 4.58 s |  24197 | 70 (22) % | 0.17 s |
//! | `MANY_MODELS` |    3 | 18 | 22 |    44 | true  |      40,456 | 7.43 s |  41478 | 63 (27) % | 0.21 s |
//! | (small)       |    4 | 16 | 20 |    40 | false |           0 | 0.09 s |    792 |           | 0.04 s |
//! | (small)       |    6 | 16 | 20 |    40 | true  |       4,096 | 0.02 s |        |           | 0.04 s |
//!
//! `HARD_UNSAT` and `HARD_SAT` times are for `-n 1` (the proof that there is no answer set, or the
//! first one), `MANY_MODELS` for `-n 0` (every answer set). clingo gave the same truth value on
//! every row, and the same number of answer sets on the `MANY_MODELS` rows (the counts are
//! [`Qbf::count_answer_sets`]'s). "checks": minimality checks yasmin made (`Minimality::checks`,
//! printed by a patched copy); "in checks": the share of `perf record` samples under
//! `Minimality::check` (in parentheses: under `verify::check_answer_set`, which checks each
//! reported model's minimality once more, in a search of its own). clingo's time includes
//! Python's start (about 0.04 s): clasp's minimality checks prune far better, and it answers each
//! in well under 0.25 s. yasmin's single search is deterministic, so its times vary only with the
//! machine's load (within 10 % over the runs, on an idle machine; 40 to 50 % more under a load
//! average of 4, so tests should not lean on these times closely). The same search at commit
//! 06a3874 (before the per-model verification) took the same time for `-n 1` within 10 %, and
//! 20 to 25 % less for `-n 0`; at 1e744be the same as at 8c0a020 (run side by side).
//! At the sizes plain brute force could afford (xs ≤ 16, ys ≤ 20) yasmin needs at most 0.1 s on
//! every seed tried (the last two rows), hence the exact search here. Times grow fast with the
//! size: 30 × 30 with 50 terms already has seeds that take 13 to 15 s.
//!
//! **Today** (2026-11-27, main after `32934ba`, the same machine, best of 3): the minimality check
//! asks one tester per component, built once, that keeps its levels from one candidate to the
//! next, and yasmin answers every `HARD_UNSAT` and `HARD_SAT` row in under 0.01 s (clingo 0.05 to
//! 0.08 s) and enumerates `MANY_MODELS` in 0.05 to 0.13 s (clingo 0.14 to 0.31 s); even 64 × 64
//! with 115 terms takes 0.01 s. They still serve signals sent early and in every phase (a phase
//! entered the n-th time), but not signals sent after a second. [`LONG_ENUMERATION`] keeps a run
//! going that long: `-n 0` over hundreds of thousands of answer sets, each checked for
//! minimality by the tester and again by the verifier (1.4 to 2.6 s for yasmin `-q`, 1.8 to 5.3 s
//! for clingo).
#![allow(dead_code)]

use super::Rng;

/// A 2QBF `∃X ∀Y ψ`, `ψ` the disjunction of `terms`: each term is three signed variables, `1..=xs`
/// over `X` (atom `x(v)`, negated `nx(v)`) and `xs + 1..=xs + ys` over `Y` (`y(v - xs)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Qbf {
    pub xs: usize,
    pub ys: usize,
    pub terms: Vec<[i32; 3]>,
}

/// A calibrated instance: [`Qbf::random`]'s parameters and what they give.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibrated {
    pub seed: u64,
    pub xs: usize,
    pub ys: usize,
    pub terms: usize,
    /// The number of answer sets (0: `Φ` is false).
    pub models: u64,
    /// yasmin's time on the development machine when the set was made, in seconds: for the first
    /// model (or the proof that there is none) for [`HARD_UNSAT`] and [`HARD_SAT`], for all models
    /// for [`MANY_MODELS`] and [`LONG_ENUMERATION`] (`-q`).
    pub secs: f64,
}

impl Calibrated {
    pub fn qbf(&self) -> Qbf {
        Qbf::random(self.seed, self.xs, self.ys, self.terms)
    }
}

/// `Φ` false: `yasmin -n 1` needed 1 to 10 s at 8c0a020 to prove that there is no answer set, in
/// many minimality checks (today: milliseconds).
pub const HARD_UNSAT: &[Calibrated] = &[
    Calibrated { seed: 2, xs: 28, ys: 28, terms: 50, models: 0, secs: 1.40 },
    Calibrated { seed: 3, xs: 28, ys: 28, terms: 50, models: 0, secs: 2.28 },
    Calibrated { seed: 7, xs: 30, ys: 30, terms: 52, models: 0, secs: 2.88 },
    Calibrated { seed: 9, xs: 30, ys: 30, terms: 50, models: 0, secs: 4.61 },
];

/// `Φ` true: `yasmin -n 1` needed 1 to 10 s at 8c0a020 for the first model (today: milliseconds).
pub const HARD_SAT: &[Calibrated] = &[
    Calibrated { seed: 6, xs: 28, ys: 28, terms: 50, models: 24_117_248, secs: 1.75 },
    Calibrated { seed: 6, xs: 30, ys: 30, terms: 50, models: 79_691_776, secs: 2.77 },
    Calibrated { seed: 8, xs: 29, ys: 29, terms: 51, models: 13_254_656, secs: 3.51 },
    Calibrated { seed: 3, xs: 30, ys: 30, terms: 50, models: 12_746_752, secs: 5.23 },
];

/// `Φ` true with many answer sets: `yasmin -n 0` needed a few seconds at 8c0a020 to enumerate them
/// (today: a tenth of a second).
pub const MANY_MODELS: &[Calibrated] = &[
    Calibrated { seed: 1, xs: 18, ys: 22, terms: 44, models: 16_128, secs: 2.51 },
    Calibrated { seed: 2, xs: 20, ys: 24, terms: 52, models: 22_496, secs: 4.58 },
    Calibrated { seed: 3, xs: 18, ys: 22, terms: 44, models: 40_456, secs: 7.43 },
];

/// `Φ` true with hundreds of thousands of answer sets: `yasmin -q -n 0` needs 1.4 to 2.6 s today
/// (2026-11-27); print them only with `-q` (a test would read tens of megabytes).
pub const LONG_ENUMERATION: &[Calibrated] = &[
    Calibrated { seed: 2, xs: 22, ys: 26, terms: 52, models: 431_104, secs: 2.56 },
    Calibrated { seed: 4, xs: 22, ys: 26, terms: 52, models: 289_400, secs: 1.36 },
];

/// The `i`-th long enumeration (modulo their number).
pub fn long_enumeration(i: usize) -> Qbf {
    LONG_ENUMERATION[i % LONG_ENUMERATION.len()].qbf()
}

/// The `i`-th calibrated unsatisfiable instance (modulo their number).
pub fn hard_unsat(i: usize) -> Qbf {
    HARD_UNSAT[i % HARD_UNSAT.len()].qbf()
}

/// The `i`-th calibrated satisfiable instance with a hard first model (modulo their number).
pub fn hard_sat(i: usize) -> Qbf {
    HARD_SAT[i % HARD_SAT.len()].qbf()
}

/// The `i`-th calibrated instance with many answer sets (modulo their number).
pub fn many_models(i: usize) -> Qbf {
    MANY_MODELS[i % MANY_MODELS.len()].qbf()
}

/// [`Qbf::answer_sets`] lists at most this many (count larger ones with
/// [`Qbf::count_answer_sets`]).
pub const MAX_LISTED: u64 = 1 << 20;

/// A term split into bit masks: its positive and negative literals over `X` and over `Y` (bit
/// `v - 1` for `x(v)`, bit `j - 1` for `y(j)`).
#[derive(Clone, Copy)]
struct Masks {
    xp: u64,
    xn: u64,
    yp: u64,
    yn: u64,
}

impl Qbf {
    /// `terms` random terms over `xs` existential and `ys` universal variables, each with one
    /// `X` literal and two `Y` literals, random signs. The same program, byte for byte, as
    /// `instances/gen/qbf/generate.py --xs XS --ys YS --terms TERMS --seed SEED`.
    pub fn random(seed: u64, xs: usize, ys: usize, terms: usize) -> Qbf {
        assert!((1..=64).contains(&xs) && (2..=64).contains(&ys), "Qbf: need 1 <= xs <= 64, 2 <= ys <= 64");
        let mut rng = Rng::new(seed);
        let mut out = Vec::with_capacity(terms);
        for _ in 0..terms {
            let mut vs = [0i32; 3];
            let mut k = 0;
            while k < 3 {
                let v = if k < 1 { 1 + rng.below(xs) } else { xs + 1 + rng.below(ys) } as i32;
                if !vs[..k].contains(&v) {
                    vs[k] = v;
                    k += 1;
                }
            }
            for v in &mut vs {
                if rng.below(2) == 1 {
                    *v = -*v;
                }
            }
            out.push(vs);
        }
        Qbf { xs, ys, terms: out }
    }

    /// The saturation program as ground aspif text. Atoms: `x(i)` = 2i-1, `nx(i)` = 2i (i in
    /// 1..=xs), then the same for the `Y` variables numbered on after the `X` ones, `w` last.
    pub fn to_aspif(&self) -> String {
        use std::fmt::Write as _;
        let n = self.xs + self.ys;
        let w = 2 * n + 1;
        let atom = |l: i32| if l > 0 { 2 * l as usize - 1 } else { 2 * l.unsigned_abs() as usize };
        let mut s = String::from("asp 1 0 0\n");
        for v in 1..=n {
            writeln!(s, "1 0 2 {} {} 0 0", 2 * v - 1, 2 * v).unwrap();
        }
        for v in self.xs + 1..=n {
            writeln!(s, "1 0 1 {} 0 1 {w}", 2 * v - 1).unwrap();
            writeln!(s, "1 0 1 {} 0 1 {w}", 2 * v).unwrap();
        }
        for t in &self.terms {
            writeln!(s, "1 0 1 {w} 0 3 {} {} {}", atom(t[0]), atom(t[1]), atom(t[2])).unwrap();
        }
        writeln!(s, "1 0 0 0 1 -{w}").unwrap();
        for v in 1..=n {
            let (p, i) = if v <= self.xs { ("x", v) } else { ("y", v - self.xs) };
            for (name, a) in [(format!("{p}({i})"), 2 * v - 1), (format!("n{p}({i})"), 2 * v)] {
                writeln!(s, "4 {} {name} 1 {a}", name.len()).unwrap();
            }
        }
        s.push_str("4 1 w 1 ");
        writeln!(s, "{w}").unwrap();
        s.push_str("0\n");
        s
    }

    /// Every answer set, each as its sorted atoms joined by spaces, the list sorted: one per
    /// assignment of `X` under which `ψ` holds for every assignment of `Y`. Panics where there
    /// are more than [`MAX_LISTED`].
    pub fn answer_sets(&self) -> Vec<String> {
        let n = self.count_answer_sets();
        assert!(n <= MAX_LISTED, "Qbf::answer_sets: {n} answer sets, too many to list");
        let mut out = Vec::with_capacity(n as usize);
        self.walk(&mut |val, free| {
            // Every subset of the free variables, set in `val`.
            let mut sub = free;
            loop {
                out.push(self.answer_set(val | sub));
                if sub == 0 {
                    break;
                }
                sub = (sub - 1) & free;
            }
            true
        });
        out.sort();
        out
    }

    /// The number of answer sets (assignments of `X` that make `∀Y ψ` true).
    pub fn count_answer_sets(&self) -> u64 {
        let mut n = 0u64;
        self.walk(&mut |_, free| {
            n = n.saturating_add(1u64.checked_shl(free.count_ones()).unwrap_or(u64::MAX));
            true
        });
        n
    }

    /// Whether `Φ` is true, i.e. the program has an answer set.
    pub fn is_true(&self) -> bool {
        let mut found = false;
        self.walk(&mut |_, _| {
            found = true;
            false
        });
        found
    }

    /// Whether `atoms` (one printed answer set, in any order) is an answer set: one of `x(i)`,
    /// `nx(i)` for each `i`, every `y(j)` and `ny(j)`, `w`, nothing else, and `ψ` true for every
    /// assignment of `Y` under that assignment of `X`.
    pub fn is_answer_set(&self, atoms: &[&str]) -> bool {
        let mut sorted: Vec<&str> = atoms.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != atoms.len() || atoms.len() != self.xs + 2 * self.ys + 1 {
            return false;
        }
        let mut val = 0u64;
        for i in 1..=self.xs {
            let (pos, neg) =
                (sorted.binary_search(&&*format!("x({i})")), sorted.binary_search(&&*format!("nx({i})")));
            match (pos.is_ok(), neg.is_ok()) {
                (true, false) => val |= 1 << (i - 1),
                (false, true) => {}
                _ => return false,
            }
        }
        let saturated = (1..=self.ys).all(|j| {
            sorted.binary_search(&&*format!("y({j})")).is_ok()
                && sorted.binary_search(&&*format!("ny({j})")).is_ok()
        });
        if !saturated || sorted.binary_search(&"w").is_err() {
            return false;
        }
        let all = self.x_mask();
        let masks = self.masks();
        valid(masks.iter().filter(|t| x_true(t, all, val)))
    }

    /// The answer set of the `X` assignment `val` (bit `i - 1` set: `x(i)`).
    fn answer_set(&self, val: u64) -> String {
        let mut atoms: Vec<String> = Vec::with_capacity(self.xs + 2 * self.ys + 1);
        for i in 1..=self.xs {
            atoms.push(if val >> (i - 1) & 1 == 1 { format!("x({i})") } else { format!("nx({i})") });
        }
        for j in 1..=self.ys {
            atoms.push(format!("y({j})"));
            atoms.push(format!("ny({j})"));
        }
        atoms.push("w".into());
        atoms.sort();
        atoms.join(" ")
    }

    fn x_mask(&self) -> u64 {
        u64::MAX >> (64 - self.xs)
    }

    fn masks(&self) -> Vec<Masks> {
        assert!(self.xs >= 1 && self.xs <= 64 && self.ys <= 64, "Qbf: at most 64 variables on each side");
        self.terms
            .iter()
            .map(|t| {
                let mut m = Masks { xp: 0, xn: 0, yp: 0, yn: 0 };
                for &l in t {
                    let v = l.unsigned_abs() as usize;
                    assert!(v >= 1 && v <= self.xs + self.ys, "Qbf: literal {l} out of range");
                    let (p, n, b) = if v <= self.xs {
                        (&mut m.xp, &mut m.xn, v - 1)
                    } else {
                        (&mut m.yp, &mut m.yn, v - self.xs - 1)
                    };
                    if l > 0 {
                        *p |= 1 << b;
                    } else {
                        *n |= 1 << b;
                    }
                }
                m
            })
            .collect()
    }

    /// Calls `f(val, free)` for disjoint sets of `X` assignments that make `∀Y ψ` true, each the
    /// assignments that agree with `val` outside `free` (bits of `free` clear in `val`), until
    /// `f` returns false.
    fn walk(&self, f: &mut dyn FnMut(u64, u64) -> bool) {
        let masks = self.masks();
        walk(&masks, self.x_mask(), 0, 0, f);
    }
}

/// Whether term `t`'s `X` literals all hold under the assignment `val` of the variables `set`.
fn x_true(t: &Masks, set: u64, val: u64) -> bool {
    t.xp & !(set & val) == 0 && t.xn & !(set & !val) == 0
}

/// Whether some `X` literal of `t` is false under the assignment `val` of the variables `set`.
fn x_false(t: &Masks, set: u64, val: u64) -> bool {
    (t.xp & set & !val) | (t.xn & set & val) != 0
}

/// The search over `X` (see the module's documentation); false when `f` asked to stop.
fn walk(masks: &[Masks], all: u64, set: u64, val: u64, f: &mut dyn FnMut(u64, u64) -> bool) -> bool {
    if !valid(masks.iter().filter(|t| !x_false(t, set, val))) {
        return true;
    }
    if valid(masks.iter().filter(|t| x_true(t, set, val))) {
        return f(val, all & !set);
    }
    // Some term is neither made true nor false yet: branch on the variable that occurs in most
    // of those.
    let mut occurs = [0u32; 64];
    for t in masks.iter().filter(|t| !x_false(t, set, val)) {
        let mut u = (t.xp | t.xn) & !set;
        while u != 0 {
            occurs[u.trailing_zeros() as usize] += 1;
            u &= u - 1;
        }
    }
    let v = (0..64).max_by_key(|&v| (occurs[v], std::cmp::Reverse(v))).unwrap();
    debug_assert!(occurs[v] > 0);
    let b = 1u64 << v;
    walk(masks, all, set | b, val, f) && walk(masks, all, set | b, val | b, f)
}

/// Whether the DNF of the `Y` parts of `terms` is valid: no assignment of `Y` falsifies them
/// all. Such an assignment satisfies the CNF whose clauses are the negated terms; DPLL looks for
/// one.
fn valid<'a>(terms: impl Iterator<Item = &'a Masks>) -> bool {
    // Clause (pos, neg) of term t: y_j for each ¬y_j in t, ¬y_j for each y_j in t.
    let clauses: Vec<(u64, u64)> = terms.map(|t| (t.yn, t.yp)).collect();
    !satisfiable(&clauses, 0, 0)
}

/// DPLL with unit propagation over at most 64 variables: is there an extension of the
/// assignment `val` of the variables `set` that satisfies every clause `(pos, neg)`?
fn satisfiable(clauses: &[(u64, u64)], mut set: u64, mut val: u64) -> bool {
    loop {
        let mut changed = false;
        let mut branch = 0u64;
        for &(p, n) in clauses {
            if (p & set & val) | (n & set & !val) != 0 {
                continue;
            }
            let free = (p | n) & !set;
            match free.count_ones() {
                0 => return false,
                1 => {
                    set |= free;
                    if p & free != 0 {
                        val |= free;
                    } else {
                        val &= !free;
                    }
                    changed = true;
                }
                _ => {
                    if branch == 0 {
                        branch = 1 << free.trailing_zeros();
                    }
                }
            }
        }
        if !changed {
            if branch == 0 {
                return true;
            }
            return satisfiable(clauses, set | branch, val | branch)
                || satisfiable(clauses, set | branch, val & !branch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// yasmin's answer sets of `aspif`, enumerated in-process on the CPU engine (as
    /// tests/support/mod.rs's `answer_sets`), each sorted and joined by spaces, the list sorted.
    fn yasmin_answer_sets(aspif: &str) -> Vec<String> {
        use yasmin::output::ShownTable;
        use yasmin::solve::{ModelEvent, Report, SolveOptions, solve};

        struct Collect {
            table: ShownTable,
            models: Vec<String>,
        }
        impl Report for Collect {
            fn model(&mut self, ev: &ModelEvent<'_>) -> std::io::Result<()> {
                let mut names: Vec<String> = self
                    .table
                    .shown(ev.atoms)
                    .iter()
                    .map(|s| String::from_utf8_lossy(s).into_owned())
                    .collect();
                names.sort();
                self.models.push(names.join(" "));
                Ok(())
            }
        }

        let program = yasmin::input::read_program(aspif.as_bytes()).unwrap_or_else(|e| panic!("{e:?}"));
        let opts = SolveOptions { models: Some(0), ..SolveOptions::default() };
        let mut c = Collect { table: ShownTable::new(&program), models: Vec::new() };
        let outcome = solve(&program, &opts, &mut c).unwrap_or_else(|e| panic!("solve failed: {e}"));
        assert!(outcome.exhausted, "the enumeration did not finish");
        c.models.sort();
        c.models
    }

    /// Plain brute force over `X` and `Y`, straight from the semantics.
    fn brute_force(q: &Qbf) -> Vec<String> {
        let holds = |a: u64, l: i32| {
            let v = l.unsigned_abs() - 1;
            (a >> v & 1 == 1) == (l > 0)
        };
        let mut out = Vec::new();
        for x in 0..1u64 << q.xs {
            let covered =
                (0..1u64 << q.ys).all(|y| q.terms.iter().any(|t| t.iter().all(|&l| holds(x | y << q.xs, l))));
            if covered {
                out.push(q.answer_set(x));
            }
        }
        out.sort();
        out
    }

    /// Small instances around their truth threshold (near 3 ys at these sizes), of both outcomes.
    fn small(seed: u64) -> Qbf {
        let mut rng = Rng::new(seed ^ 0x0051_BF00);
        let xs = 2 + rng.below(5);
        let ys = 2 + rng.below(5);
        let terms = 2 * ys + rng.below(2 * ys + 1);
        Qbf::random(seed, xs, ys, terms)
    }

    #[test]
    fn qbf_exact_search_agrees_with_brute_force() {
        let mut outcomes = [0; 2];
        for seed in 0..300 {
            let q = small(seed);
            let exp = brute_force(&q);
            assert_eq!(q.answer_sets(), exp, "seed {seed}: {q:?}");
            assert_eq!(q.count_answer_sets(), exp.len() as u64, "seed {seed}");
            assert_eq!(q.is_true(), !exp.is_empty(), "seed {seed}");
            outcomes[q.is_true() as usize] += 1;
        }
        assert!(outcomes[0] >= 50 && outcomes[1] >= 50, "outcomes {outcomes:?}");
    }

    #[test]
    fn qbf_yasmin_enumerates_the_answer_sets() {
        let mut outcomes = [0; 2];
        for seed in 0..32 {
            let q = small(seed);
            let exp = q.answer_sets();
            let got = yasmin_answer_sets(&q.to_aspif());
            assert_eq!(got, exp, "seed {seed}: {q:?}\n{}", q.to_aspif());
            for m in &got {
                assert!(q.is_answer_set(&m.split(' ').collect::<Vec<_>>()), "seed {seed}: {m}");
            }
            outcomes[!exp.is_empty() as usize] += 1;
        }
        assert!(outcomes[0] >= 8 && outcomes[1] >= 8, "outcomes {outcomes:?}");
    }

    #[test]
    fn qbf_is_answer_set_rejects_what_is_not_one() {
        let mut checked = 0;
        for seed in 0..100 {
            let q = small(seed);
            let sets = q.answer_sets();
            for m in &sets {
                let atoms: Vec<&str> = m.split(' ').collect();
                assert!(q.is_answer_set(&atoms));
                // Without w, without a y, with both x(1) and nx(1), with an atom twice.
                let drop = |a: &str| atoms.iter().copied().filter(|&b| b != a).collect::<Vec<_>>();
                assert!(!q.is_answer_set(&drop("w")));
                assert!(!q.is_answer_set(&drop("ny(1)")));
                let mut both = atoms.clone();
                both.push(if atoms.contains(&"x(1)") { "nx(1)" } else { "x(1)" });
                assert!(!q.is_answer_set(&both));
                let mut twice = drop("w");
                twice.push("y(1)");
                assert!(!q.is_answer_set(&twice));
                // The same X but x(1) flipped: an answer set iff that assignment is one.
                let flip: Vec<&str> = atoms
                    .iter()
                    .map(|&a| match a {
                        "x(1)" => "nx(1)",
                        "nx(1)" => "x(1)",
                        a => a,
                    })
                    .collect();
                let mut f = flip.clone();
                f.sort_unstable();
                assert_eq!(q.is_answer_set(&flip), sets.contains(&f.join(" ")));
                checked += 1;
            }
        }
        assert!(checked > 50, "{checked}");
    }

    #[test]
    fn qbf_aspif_text() {
        let q = Qbf { xs: 1, ys: 2, terms: vec![[1, -2, 3], [-1, 2, -3]] };
        let exp = "asp 1 0 0\n1 0 2 1 2 0 0\n1 0 2 3 4 0 0\n1 0 2 5 6 0 0\n\
                   1 0 1 3 0 1 7\n1 0 1 4 0 1 7\n1 0 1 5 0 1 7\n1 0 1 6 0 1 7\n\
                   1 0 1 7 0 3 1 4 5\n1 0 1 7 0 3 2 3 6\n1 0 0 0 1 -7\n\
                   4 4 x(1) 1 1\n4 5 nx(1) 1 2\n4 4 y(1) 1 3\n4 5 ny(1) 1 4\n4 4 y(2) 1 5\n4 5 ny(2) 1 6\n\
                   4 1 w 1 7\n0\n";
        assert_eq!(q.to_aspif(), exp);
        // instances/gen/qbf/generate.py --xs 3 --ys 4 --terms 3 --seed 7 gives these terms.
        assert_eq!(Qbf::random(7, 3, 4, 3).terms, GENERATE_PY_SEED_7);
    }

    /// `generate.py --xs 3 --ys 4 --terms 3 --seed 7`'s terms (the same splitmix64 draws).
    const GENERATE_PY_SEED_7: [[i32; 3]; 3] = [[1, -5, 4], [2, -7, -4], [-3, -4, 6]];

    /// Their truth values (the exact search answers at once); the answer sets counted where
    /// that is quick (counting `HARD_SAT`'s millions takes seconds).
    #[test]
    fn qbf_calibrated_instances_have_their_outcomes() {
        for c in HARD_UNSAT.iter().chain(HARD_SAT).chain(MANY_MODELS).chain(LONG_ENUMERATION) {
            let q = c.qbf();
            assert_eq!(q.is_true(), c.models > 0, "{c:?}");
            if c.models <= 500_000 {
                assert_eq!(q.count_answer_sets(), c.models, "{c:?}");
            }
        }
        assert_eq!(many_models(0).answer_sets().len(), 16_128);
    }
}
