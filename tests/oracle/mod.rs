//! A brute-force answer-set oracle for small ground programs, written independently of yasmin's
//! solver: it enumerates interpretations and keeps those that are answer sets by definition.
//!
//! Semantics (see `../shared/docs/oracles.md`): `M` is an answer set iff `M` is a model of the
//! program and no proper subset of `M` is a model of the reduct `P^M`, where
//! - a rule whose body's negative part fails in `M` is dropped; otherwise its body keeps only the
//!   positive literals (for a weight body: the bound is lowered by the weights of the negative
//!   literals true in `M`);
//! - a disjunctive head stays as it is, a choice head `{H}` becomes the rules `h :- B` for the
//!   atoms `h` in `H ∩ M`; a free (or true) external atom in `M` is a choice without body, and a
//!   true external must hold (an external declaration of an atom that a rule defines is ignored,
//!   as clasp does).
//!
//! Without disjunctive heads this is the same as "M is a model and the least model of the reduct
//! is M", which is what the fast paths use; the slow path checks subsets literally, and
//! [`Ground::answer_sets_by_definition`] lets tests compare the two.
//!
//! Only the program's public accessors are read (`rules()`, `outputs()`, `minimize()`,
//! `projection()`, `external_values()`, `assumptions()`); nothing of yasmin's search is used.
#![allow(dead_code)]

use std::collections::BTreeSet;
use yasmin::program::{Body, ExternalValue, HeadKind, Program};

/// Interpretations are bit masks over atoms `1..=127`.
pub type Mask = u128;
/// The largest atom number the oracle handles.
pub const MAX_ATOM: u32 = 127;
/// The most atoms whose values are enumerated (2^this interpretations at most).
pub const MAX_ENUMERATED: usize = 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OBody {
    Normal(Vec<i32>),
    Weight { bound: i64, lits: Vec<(i32, i64)> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ORule {
    pub choice: bool,
    pub head: Vec<u32>,
    pub body: OBody,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ext {
    Free,
    True,
    False,
}

/// A ground program in the oracle's own representation.
#[derive(Clone, Debug, Default)]
pub struct Ground {
    pub atoms: u32,
    pub rules: Vec<ORule>,
    /// (priority, weighted literals) per minimize statement.
    pub minimize: Vec<(i32, Vec<(i32, i64)>)>,
    /// (shown string, condition) per output statement.
    pub outputs: Vec<(String, Vec<i32>)>,
    pub externals: Vec<(u32, Ext)>,
    pub assumptions: Vec<i32>,
    pub projection: Option<Vec<u32>>,
    /// `#edge` statements: (u, v, condition); an answer set's holding edges form no cycle.
    pub edges: Vec<(i32, i32, Vec<i32>)>,
}

/// Everything the oracle computes about a program.
#[derive(Clone, Debug)]
pub struct Solution {
    /// All answer sets, sorted.
    pub answer_sets: Vec<Mask>,
    /// Minimize priorities, highest first (empty without minimize statements).
    pub priorities: Vec<i32>,
    /// The optimal cost vector (highest priority first), if there is an answer set and a minimize
    /// statement.
    pub optimum: Option<Vec<i64>>,
    /// The answer sets of optimal cost (all of them without minimize statements).
    pub optimal: Vec<Mask>,
}

#[inline]
fn bit(a: u32) -> Mask {
    1u128 << a
}

#[inline]
fn holds(l: i32, m: Mask) -> bool {
    let t = m & bit(l.unsigned_abs()) != 0;
    if l > 0 { t } else { !t }
}

fn body_true(b: &OBody, m: Mask) -> bool {
    match b {
        OBody::Normal(lits) => lits.iter().all(|&l| holds(l, m)),
        OBody::Weight { bound, lits } => {
            lits.iter().filter(|(l, _)| holds(*l, m)).map(|(_, w)| *w).sum::<i64>() >= *bound
        }
    }
}

/// Whether the reduct of body `b` w.r.t. `m` holds in `n`: negative literals are evaluated in `m`,
/// positive ones in `n`.
fn reduct_body_true(b: &OBody, n: Mask, m: Mask) -> bool {
    match b {
        OBody::Normal(lits) => lits.iter().all(|&l| if l > 0 { holds(l, n) } else { holds(l, m) }),
        OBody::Weight { bound, lits } => {
            lits.iter()
                .filter(|(l, _)| if *l > 0 { holds(*l, n) } else { holds(*l, m) })
                .map(|(_, w)| *w)
                .sum::<i64>()
                >= *bound
        }
    }
}

/// Spreads the low bits of `bits` onto the positions listed in `atoms`.
fn spread(bits: u64, atoms: &[u32]) -> Mask {
    let mut m = 0;
    for (i, &a) in atoms.iter().enumerate() {
        if bits >> i & 1 == 1 {
            m |= bit(a);
        }
    }
    m
}

impl Ground {
    /// Reads a yasmin [`Program`] through its public accessors. `None` if an atom is too large.
    pub fn from_program(p: &Program) -> Option<Ground> {
        if p.atom_count() > MAX_ATOM {
            return None;
        }
        let mut g = Ground { atoms: p.atom_count(), ..Ground::default() };
        for r in p.rules() {
            let body = match r.body {
                Body::Normal(l) => OBody::Normal(l.to_vec()),
                Body::Weight { bound, lits, weights } => {
                    OBody::Weight { bound, lits: lits.iter().copied().zip(weights.iter().copied()).collect() }
                }
            };
            g.rules.push(ORule { choice: r.kind == HeadKind::Choice, head: r.head.to_vec(), body });
        }
        for m in p.minimize() {
            g.minimize.push((m.priority, m.lits.iter().map(|w| (w.lit, w.weight)).collect()));
        }
        for o in p.outputs() {
            g.outputs.push((String::from_utf8_lossy(&o.name).into_owned(), o.condition.clone()));
        }
        // clasp ignores an external declaration for an atom that some rule defines (checked with
        // clingo 5.8.3: `5 1 0` or `5 1 1` plus `1 0 1 1 0 1 2`, `{x2}` gives {} and {x1, x2}).
        let defined: BTreeSet<u32> = g.rules.iter().flat_map(|r| r.head.iter().copied()).collect();
        for (a, v) in p.external_values() {
            if defined.contains(&a) {
                continue;
            }
            let e = match v {
                ExternalValue::Free => Ext::Free,
                ExternalValue::True => Ext::True,
                ExternalValue::False => Ext::False,
                ExternalValue::Release => continue,
            };
            g.externals.push((a, e));
        }
        g.assumptions = p.assumptions();
        g.projection = p.projection();
        g.edges = p.edges().map(|e| (e.u, e.v, e.condition.clone())).collect();
        Some(g)
    }

    /// Whether the edges that hold in `m` form no cycle: repeatedly removing the nodes without
    /// an incoming edge leaves none (Kahn).
    fn acyclic(&self, m: Mask) -> bool {
        let mut edges: Vec<(i32, i32)> = self
            .edges
            .iter()
            .filter(|(_, _, c)| c.iter().all(|&l| holds(l, m)))
            .map(|(u, v, _)| (*u, *v))
            .collect();
        loop {
            let sources: BTreeSet<i32> =
                edges.iter().map(|e| e.0).filter(|u| !edges.iter().any(|e| e.1 == *u)).collect();
            if sources.is_empty() {
                return edges.is_empty();
            }
            edges.retain(|e| !sources.contains(&e.0));
        }
    }

    fn has_disjunction(&self) -> bool {
        self.rules.iter().any(|r| !r.choice && r.head.len() > 1)
    }

    /// External atoms that act as open choices (free or assumed true). An atom that is also the
    /// head of a rule is treated like any other defined atom plus the open choice.
    fn open_externals(&self) -> Vec<u32> {
        self.externals.iter().filter(|(_, v)| *v != Ext::False).map(|(a, _)| *a).collect()
    }

    /// Atoms that can be true in some answer set: heads and open externals.
    fn candidates(&self) -> Vec<u32> {
        let mut s: BTreeSet<u32> = self.rules.iter().flat_map(|r| r.head.iter().copied()).collect();
        s.extend(self.open_externals());
        s.into_iter().collect()
    }

    /// Atoms true in every model: heads of facts.
    fn facts(&self) -> Mask {
        let mut m = 0;
        for r in &self.rules {
            if let (false, [h], OBody::Normal(b)) = (r.choice, r.head.as_slice(), &r.body)
                && b.is_empty()
            {
                m |= bit(*h);
            }
        }
        m
    }

    /// `m` satisfies every rule, the assumptions and the external values.
    pub fn is_model(&self, m: Mask) -> bool {
        for r in &self.rules {
            if !r.choice && body_true(&r.body, m) && !r.head.iter().any(|&h| m & bit(h) != 0) {
                return false;
            }
        }
        if !self.assumptions.iter().all(|&l| holds(l, m)) {
            return false;
        }
        self.externals.iter().all(|&(a, v)| match v {
            Ext::True => m & bit(a) != 0,
            _ => true,
        })
    }

    /// `n` is a model of the reduct `P^m` (including reduct constraints).
    pub fn is_reduct_model(&self, n: Mask, m: Mask) -> bool {
        for r in &self.rules {
            if !reduct_body_true(&r.body, n, m) {
                continue;
            }
            if r.choice {
                if r.head.iter().any(|&h| m & bit(h) != 0 && n & bit(h) == 0) {
                    return false;
                }
            } else if !r.head.iter().any(|&h| n & bit(h) != 0) {
                return false;
            }
        }
        self.open_externals().iter().all(|&a| m & bit(a) == 0 || n & bit(a) != 0)
    }

    /// The least model of the reduct `P^m` (disjunctive heads must be single atoms here).
    pub fn reduct_least_model(&self, m: Mask) -> Mask {
        let mut l: Mask = 0;
        for a in self.open_externals() {
            l |= m & bit(a);
        }
        loop {
            let before = l;
            for r in &self.rules {
                if r.head.is_empty() || !reduct_body_true(&r.body, l, m) {
                    continue;
                }
                for &h in &r.head {
                    if !r.choice || m & bit(h) != 0 {
                        l |= bit(h);
                    }
                }
            }
            if l == before {
                return l;
            }
        }
    }

    /// `m` is an answer set, checked literally: a model, and no proper subset of `m` is a model
    /// of the reduct.
    pub fn is_answer_set_by_definition(&self, m: Mask) -> bool {
        if !self.is_model(m) {
            return false;
        }
        let mut n = m;
        while n != 0 {
            n = (n - 1) & m;
            if self.is_reduct_model(n, m) {
                return false;
            }
        }
        true
    }

    /// `m` is an answer set (least-model test when there are no disjunctions).
    pub fn is_answer_set(&self, m: Mask) -> bool {
        if self.has_disjunction() {
            self.is_answer_set_by_definition(m)
        } else {
            self.is_model(m) && self.reduct_least_model(m) == m
        }
    }

    /// All answer sets by enumerating every interpretation of the candidate atoms and checking
    /// the definition. `None` if there are too many candidates.
    pub fn answer_sets_by_definition(&self) -> Option<Vec<Mask>> {
        let facts = self.facts();
        let free: Vec<u32> = self.candidates().into_iter().filter(|&a| facts & bit(a) == 0).collect();
        if free.len() > MAX_ENUMERATED {
            return None;
        }
        let mut out = Vec::new();
        for bits in 0..(1u64 << free.len()) {
            let m = facts | spread(bits, &free);
            if self.is_answer_set_by_definition(m) && self.acyclic(m) {
                out.push(m);
            }
        }
        out.sort_unstable();
        Some(out)
    }

    /// All answer sets, sorted. `None` if the program is too large to enumerate.
    ///
    /// Without disjunctions, the reduct depends on `M` only through the atoms that occur
    /// negatively and the choice heads (call them `G`): for each guess `g ⊆ G`, the only possible
    /// answer set is the least model `L` of `P^g`, and it is one iff `L ∩ G = g` and `L` is a
    /// model of `P`. With disjunctions (or when `G` is too large) every interpretation of the
    /// candidate atoms is checked instead.
    pub fn answer_sets(&self) -> Option<Vec<Mask>> {
        if self.atoms > MAX_ATOM {
            return None;
        }
        if !self.has_disjunction() {
            let mut g: BTreeSet<u32> = BTreeSet::new();
            for r in &self.rules {
                if r.choice {
                    g.extend(r.head.iter().copied());
                }
                let lits: Vec<i32> = match &r.body {
                    OBody::Normal(l) => l.clone(),
                    OBody::Weight { lits, .. } => lits.iter().map(|(l, _)| *l).collect(),
                };
                g.extend(lits.iter().filter(|&&l| l < 0).map(|l| l.unsigned_abs()));
            }
            g.extend(self.open_externals());
            let g: Vec<u32> = g.into_iter().collect();
            if g.len() <= MAX_ENUMERATED {
                let gmask = spread(u64::MAX, &g);
                let mut out = BTreeSet::new();
                for bits in 0..(1u64 << g.len()) {
                    let guess = spread(bits, &g);
                    let l = self.reduct_least_model(guess);
                    if l & gmask == guess && self.is_model(l) && self.acyclic(l) {
                        debug_assert!(self.is_answer_set(l));
                        out.insert(l);
                    }
                }
                return Some(out.into_iter().collect());
            }
        }
        self.answer_sets_by_definition()
    }

    /// The distinct minimize priorities, highest first.
    pub fn priorities(&self) -> Vec<i32> {
        let s: BTreeSet<i32> = self.minimize.iter().map(|(p, _)| *p).collect();
        s.into_iter().rev().collect()
    }

    /// The cost vector of `m`, highest priority first; statements of one priority add up.
    pub fn cost(&self, m: Mask) -> Vec<i64> {
        self.priorities()
            .iter()
            .map(|&p| {
                self.minimize
                    .iter()
                    .filter(|(q, _)| *q == p)
                    .flat_map(|(_, lits)| lits.iter())
                    .filter(|(l, _)| holds(*l, m))
                    .map(|(_, w)| *w)
                    .sum()
            })
            .collect()
    }

    /// Answer sets, optimum and optimal answer sets. `None` if the program is too large.
    pub fn solve(&self) -> Option<Solution> {
        let answer_sets = self.answer_sets()?;
        let priorities = self.priorities();
        if self.minimize.is_empty() {
            let optimal = answer_sets.clone();
            return Some(Solution { answer_sets, priorities, optimum: None, optimal });
        }
        let optimum = answer_sets.iter().map(|&m| self.cost(m)).min();
        let optimal = answer_sets.iter().copied().filter(|&m| Some(self.cost(m)) == optimum).collect();
        Some(Solution { answer_sets, priorities, optimum, optimal })
    }

    /// The strings `m` shows: outputs whose condition holds, each once, sorted.
    pub fn shown(&self, m: Mask) -> Vec<String> {
        let s: BTreeSet<&str> = self
            .outputs
            .iter()
            .filter(|(_, c)| c.iter().all(|&l| holds(l, m)))
            .map(|(n, _)| n.as_str())
            .collect();
        s.into_iter().map(String::from).collect()
    }

    /// The projection atoms as a mask (all atoms when there is no project statement).
    pub fn projection_mask(&self) -> Mask {
        match &self.projection {
            Some(atoms) => atoms.iter().fold(0, |m, &a| m | bit(a)),
            None => !0,
        }
    }

    /// The distinct projections of `sets` onto the projection atoms, sorted.
    pub fn projected(&self, sets: &[Mask]) -> Vec<Mask> {
        let p = self.projection_mask();
        let s: BTreeSet<Mask> = sets.iter().map(|&m| m & p).collect();
        s.into_iter().collect()
    }

    /// Brave consequences: the union of the answer sets (`None` without answer sets).
    pub fn brave(sets: &[Mask]) -> Option<Mask> {
        (!sets.is_empty()).then(|| sets.iter().fold(0, |a, &m| a | m))
    }

    /// Cautious consequences: the intersection of the answer sets (`None` without answer sets).
    pub fn cautious(sets: &[Mask]) -> Option<Mask> {
        (!sets.is_empty()).then(|| sets.iter().fold(!0, |a, &m| a & m))
    }

    /// Converts a yasmin interpretation (indexed by atom, index 0 unused) to a mask.
    pub fn mask_of(values: &[bool]) -> Mask {
        values.iter().enumerate().skip(1).filter(|(_, v)| **v).fold(0, |m, (a, _)| m | bit(a as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(lits: &[i32]) -> OBody {
        OBody::Normal(lits.to_vec())
    }
    fn rule(head: &[u32], body: OBody) -> ORule {
        ORule { choice: false, head: head.to_vec(), body }
    }
    fn choice(head: &[u32], body: OBody) -> ORule {
        ORule { choice: true, head: head.to_vec(), body }
    }
    fn prog(atoms: u32, rules: Vec<ORule>) -> Ground {
        let outputs = (1..=atoms).map(|a| (format!("x{a}"), vec![a as i32])).collect();
        Ground { atoms, rules, outputs, ..Ground::default() }
    }
    /// Answer sets as sorted lists of shown strings, each list joined by spaces.
    fn sets(g: &Ground) -> Vec<String> {
        let fast: Vec<String> = g.answer_sets().unwrap().iter().map(|&m| g.shown(m).join(" ")).collect();
        let slow: Vec<String> =
            g.answer_sets_by_definition().unwrap().iter().map(|&m| g.shown(m).join(" ")).collect();
        assert_eq!(fast, slow, "fast and literal enumeration disagree");
        let mut fast = fast;
        fast.sort();
        fast
    }

    #[test]
    fn oracles_md_example_choice_with_weight_body_on_own_heads() {
        // {x1; x3} :- 1 { not x3; x1 }.
        let g = prog(3, vec![choice(&[1, 3], OBody::Weight { bound: 1, lits: vec![(-3, 1), (1, 1)] })]);
        assert_eq!(sets(&g), vec!["", "x1"]);
    }

    #[test]
    fn oracles_md_example_read_from_aspif() {
        let text = "asp 1 0 0\n1 1 2 1 3 1 1 2 -3 1 1 1\n4 2 x1 1 1\n4 2 x3 1 3\n0\n";
        let p = yasmin::input::read_program(text.as_bytes()).unwrap();
        let g = Ground::from_program(&p).unwrap();
        let got: Vec<String> = g.answer_sets().unwrap().iter().map(|&m| g.shown(m).join(" ")).collect();
        let mut got = got;
        got.sort();
        assert_eq!(got, vec!["", "x1"]);
    }

    #[test]
    fn even_negative_loop() {
        // x1 :- not x2. x2 :- not x1.
        let g = prog(2, vec![rule(&[1], n(&[-2])), rule(&[2], n(&[-1]))]);
        assert_eq!(sets(&g), vec!["x1", "x2"]);
    }

    #[test]
    fn odd_negative_loop_has_no_answer_set() {
        // x1 :- not x1.
        let g = prog(1, vec![rule(&[1], n(&[-1]))]);
        assert!(sets(&g).is_empty());
    }

    #[test]
    fn positive_loop_is_unfounded() {
        // x1 :- x2. x2 :- x1.  then with x1 :- not x3.
        let mut g = prog(3, vec![rule(&[1], n(&[2])), rule(&[2], n(&[1]))]);
        assert_eq!(sets(&g), vec![""]);
        g.rules.push(rule(&[1], n(&[-3])));
        assert_eq!(sets(&g), vec!["x1 x2"]);
    }

    #[test]
    fn choice_supported_only_by_itself_through_weight_body() {
        // {x1} :- 1 {x1}.  Only {}: for M = {x1} the reduct x1 :- 1{x1} has least model {}.
        let g = prog(1, vec![choice(&[1], OBody::Weight { bound: 1, lits: vec![(1, 1)] })]);
        assert_eq!(sets(&g), vec![""]);
    }

    #[test]
    fn weight_body_reduct_lowers_the_bound() {
        // {x2}.  x1 :- 2 { not x2 = 1, x1 = 1, x3 = 1 }.  x3 :- not x2.
        // M = {x1, x3}: bound 2 - 1 = 1, x3 derived from `not x2`, so x1 is derived: answer set.
        // M = {x2}: nothing derives x1 (x3 false): answer set.
        let g = prog(
            3,
            vec![
                choice(&[2], n(&[])),
                rule(&[1], OBody::Weight { bound: 2, lits: vec![(-2, 1), (1, 1), (3, 1)] }),
                rule(&[3], n(&[-2])),
            ],
        );
        assert_eq!(sets(&g), vec!["x1 x3", "x2"]);
    }

    #[test]
    fn disjunction_is_minimal() {
        // x1 ; x2.
        let g = prog(2, vec![rule(&[1, 2], n(&[]))]);
        assert_eq!(sets(&g), vec!["x1", "x2"]);
        // x1 ; x2.  x1 :- x2.  x2 :- x1.  (head cycle): only {x1, x2}.
        let g = prog(2, vec![rule(&[1, 2], n(&[])), rule(&[1], n(&[2])), rule(&[2], n(&[1]))]);
        assert_eq!(sets(&g), vec!["x1 x2"]);
        // x1 ; x2 ; x3.  x1 :- x2.  x2 :- x1.  :- x3.  The minimal models {x1,x2} and {x3}; {x3}
        // violates the constraint.
        let g = prog(
            3,
            vec![rule(&[1, 2, 3], n(&[])), rule(&[1], n(&[2])), rule(&[2], n(&[1])), rule(&[], n(&[3]))],
        );
        assert_eq!(sets(&g), vec!["x1 x2"]);
    }

    #[test]
    fn disjunction_with_negation_is_not_shifted_away() {
        // x1 ; x2.  x1 :- x2.  x2 :- x1.  x3 :- not x1.  Answer set {x1, x2} only.
        // And the classic  x1 ; x2.  x2 :- x1.  x1 :- not x2.  : {x2} only ({x1,x2} is not minimal
        // for its reduct {x1;x2. x2 :- x1.}, which has the model {x2}).
        let g = prog(
            3,
            vec![rule(&[1, 2], n(&[])), rule(&[1], n(&[2])), rule(&[2], n(&[1])), rule(&[3], n(&[-1]))],
        );
        assert_eq!(sets(&g), vec!["x1 x2"]);
        let g = prog(2, vec![rule(&[1, 2], n(&[])), rule(&[2], n(&[1])), rule(&[1], n(&[-2]))]);
        assert_eq!(sets(&g), vec!["x2"]);
    }

    #[test]
    fn externals_and_assumptions() {
        // x1 :- x2.  #external x2 (free), #external x3 (true), x4 is external false.
        let mut g = prog(4, vec![rule(&[1], n(&[2]))]);
        g.externals = vec![(2, Ext::Free), (3, Ext::True), (4, Ext::False)];
        assert_eq!(sets(&g), vec!["x1 x2 x3", "x3"]);
        g.assumptions = vec![-2];
        assert_eq!(sets(&g), vec!["x3"]);
    }

    #[test]
    fn external_declaration_of_a_defined_atom_is_ignored() {
        // #external x1 (free, then true).  x1 :- x2.  {x2}.   clasp: {} and {x1, x2}.
        for v in ["0", "1"] {
            let text = format!("asp 1 0 0\n5 1 {v}\n1 0 1 1 0 1 2\n1 1 1 2 0 0\n4 2 x1 1 1\n4 2 x2 1 2\n0\n");
            let p = yasmin::input::read_program(text.as_bytes()).unwrap();
            let g = Ground::from_program(&p).unwrap();
            assert!(g.externals.is_empty());
            let mut got: Vec<String> =
                g.answer_sets().unwrap().iter().map(|&m| g.shown(m).join(" ")).collect();
            got.sort();
            assert_eq!(got, vec!["", "x1 x2"]);
        }
    }

    #[test]
    fn optimization_with_priorities_and_negative_weights() {
        // {x1; x2; x3}.  :- x1, x2.  minimize @2: x1 = 1, x2 = -1;  @1: x3 = -3, x2 = 2.
        let mut g = prog(3, vec![choice(&[1, 2, 3], n(&[])), rule(&[], n(&[1, 2]))]);
        g.minimize = vec![(2, vec![(1, 1), (2, -1)]), (1, vec![(3, -3)]), (1, vec![(2, 2)])];
        let s = g.solve().unwrap();
        assert_eq!(s.answer_sets.len(), 6);
        assert_eq!(s.priorities, vec![2, 1]);
        assert_eq!(s.optimum, Some(vec![-1, -1]));
        let opt: Vec<Vec<String>> = s.optimal.iter().map(|&m| g.shown(m)).collect();
        assert_eq!(opt, vec![vec!["x2".to_string(), "x3".to_string()]]);
        // Same priority from two statements adds up; a negative literal can carry the weight.
        g.minimize = vec![(0, vec![(-1, 5)]), (0, vec![(1, 4)])];
        let s = g.solve().unwrap();
        assert_eq!(s.optimum, Some(vec![4]));
        assert!(s.optimal.iter().all(|&m| m & bit(1) != 0));
    }

    #[test]
    fn projection_brave_and_cautious() {
        // {x1; x2}.  x3 :- x1.  x3 :- x2.  #project {x3}.
        let mut g = prog(3, vec![choice(&[1, 2], n(&[])), rule(&[3], n(&[1])), rule(&[3], n(&[2]))]);
        g.projection = Some(vec![3]);
        let s = g.solve().unwrap();
        assert_eq!(s.answer_sets.len(), 4);
        let proj: Vec<Vec<String>> = g.projected(&s.answer_sets).iter().map(|&m| g.shown(m)).collect();
        assert_eq!(proj, vec![vec![], vec!["x3".to_string()]]);
        assert_eq!(g.shown(Ground::brave(&s.answer_sets).unwrap()), vec!["x1", "x2", "x3"]);
        assert!(g.shown(Ground::cautious(&s.answer_sets).unwrap()).is_empty());
        g.rules.push(rule(&[], n(&[-3])));
        let s = g.solve().unwrap();
        assert_eq!(g.shown(Ground::cautious(&s.answer_sets).unwrap()), vec!["x3"]);
        assert_eq!(Ground::brave(&[]), None);
    }

    #[test]
    fn facts_and_output_conditions() {
        // x1.  x2 :- x1, not x3.  Output "both" when x1 and x2 hold, "never" when x3 holds,
        // "always" unconditionally.
        let mut g = prog(3, vec![rule(&[1], n(&[])), rule(&[2], n(&[1, -3]))]);
        g.outputs = vec![
            ("both".into(), vec![1, 2]),
            ("never".into(), vec![3]),
            ("always".into(), vec![]),
            ("both".into(), vec![2]),
        ];
        assert_eq!(sets(&g), vec!["always both"]);
    }
}
