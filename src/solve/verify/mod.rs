//! The independent check every answer set passes before it is printed: the interpretation is a
//! model of the program, and (for programs without head cycles) it equals the least model of its
//! reduct; with head cycles, it is a supported model that no nonempty set of its atoms is
//! unfounded for (`unfounded_free`), which is to say a minimal model of its reduct.
//!
//! It reads the [`Program`] directly, not the solver's nogoods, and shares no code with the
//! search, so a bug in the completion, a propagator or the search's own minimality check cannot
//! hide itself. Reduct of a weight body w.r.t. `M`: its bound is lowered by the weights of the
//! negative literals true in `M`, and only positive literals count afterwards.
//!
//! The check for head cycles is a search, coNP-hard in general; it polls the stop token, and a
//! check that was stopped says so ([`Verdict::Interrupted`]): its set is then never printed.
//!
//! Along a sequence of models (one search's), the check follows the change where the program
//! allows: `support.rs` keeps whether the model is supported (for a tight program, the whole
//! check); then `founded.rs` derives the cyclic atoms of a program without head cycles, or
//! `unfounded_free.rs` searches for an unfounded set over constraints made once. Debug builds
//! compare each such verdict with the check from scratch.

mod founded;
mod support;
mod unfounded_free;

use crate::program::deps::{Dependencies, NO_SCC};
use crate::program::{Atom, Body, Edge, ExternalValue, HeadKind, Lit, Program, Rule, atom_of};
use crate::solve::acyclicity::{EdgeGraph, Scratch};
use crate::stop::{Stop, StopToken};
use support::Support;

/// The verdict on one interpretation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    AnswerSet,
    /// Not an answer set, and why.
    Not(String),
    /// The check was stopped before it could say.
    Interrupted(Stop),
}

fn holds(m: &[bool], l: Lit) -> bool {
    m[atom_of(l) as usize] == (l > 0)
}

fn body_holds(m: &[bool], b: Body<'_>) -> bool {
    match b {
        Body::Normal(lits) => lits.iter().all(|&l| holds(m, l)),
        Body::Weight { .. } => slack(b, m).is_some(),
    }
}

/// A body's slack in `m`: the weight of its true literals above its bound, if it holds (a normal
/// body's is 0).
fn slack(body: Body<'_>, m: &[bool]) -> Option<i64> {
    let (bound, weights): (i64, &[i64]) = match body {
        Body::Normal(l) => (l.len() as i64, &[]),
        Body::Weight { bound, weights, .. } => (bound, weights),
    };
    let lits = body.lits();
    let true_weight: i64 =
        (0..lits.len()).filter(|&i| holds(m, lits[i])).map(|i| weights.get(i).copied().unwrap_or(1)).sum();
    (true_weight >= bound).then_some(true_weight - bound)
}

/// Per atom: whether it may be unfounded, that is, it is in a cyclic component and not a true or
/// free external (which are founded); and the rules with such an atom in the head (indices).
fn may_be_unfounded(
    program: &Program,
    deps: &Dependencies,
    externals: &[(Atom, ExternalValue)],
) -> (Vec<bool>, Vec<u32>) {
    let n = program.atom_count() as usize;
    let mut may: Vec<bool> = (0..=n).map(|a| a > 0 && deps.scc[a] != NO_SCC).collect();
    for &(a, v) in externals {
        if matches!(v, ExternalValue::Free | ExternalValue::True) {
            may[a as usize] = false;
        }
    }
    let rules = (0..program.rule_count())
        .filter(|&i| program.rule(i).head.iter().any(|&a| may[a as usize]))
        .map(|i| i as u32)
        .collect();
    (may, rules)
}

/// Checks whether `m` (indexed by atom, index 0 unused) is an answer set of `program`.
pub fn check_answer_set(program: &Program, m: &[bool], deps: &Dependencies, stop: &StopToken) -> Verdict {
    Verifier::new(program, deps).check(program, m, deps, stop, &mut Kept::default())
}

/// What the check needs of a program beyond the program itself, computed once for the checks of
/// all its models: the externals no rule can define, and each atom's positive occurrences in the
/// bodies of rules that are not constraints.
/// What one sequence of models (one search's) keeps from one check to the next: the support
/// counts of its last model, and the cycle check's working memory.
#[derive(Default)]
pub struct Kept {
    support: Option<Support>,
    cycles: Scratch,
    unfounded: unfounded_free::Scratch,
    founded: founded::Scratch,
}

pub struct Verifier {
    externals: Vec<(u32, ExternalValue)>,
    /// The program's `#edge` statements (acyclicity), and their graph.
    edges: Vec<Edge>,
    graph: EdgeGraph,
    assumptions: Vec<Lit>,
    /// Whether a model is supported, kept up to date across models where the program allows (for
    /// a tight program that is the whole check; otherwise the check of its cyclic components
    /// follows): the counts for no model (each sequence of models keeps its own, in its [`Kept`]).
    support: Option<Support>,
    /// The check of a supported model's cyclic components, without head cycles.
    founded: Option<founded::Prepared>,
    /// The unfounded-set check's view of the program (with head cycles).
    unfounded: Option<unfounded_free::Prepared>,
    /// Atom `a`'s occurrences, (rule, weight), are `occ[occ_start[a]..occ_start[a + 1]]`.
    occ_start: Vec<u32>,
    occ: Vec<(u32, i64)>,
}

impl Verifier {
    pub fn new(program: &Program, deps: &Dependencies) -> Verifier {
        let n = program.atom_count() as usize;
        let mut count = vec![0u32; n + 2];
        for r in program.rules().filter(|r| !r.is_constraint()) {
            for (a, _) in positive(r.body) {
                count[a + 1] += 1;
            }
        }
        for a in 1..count.len() {
            count[a] += count[a - 1];
        }
        let mut fill = count.clone();
        let mut occ = vec![(0u32, 0i64); count[n + 1] as usize];
        for (i, r) in program.rules().enumerate().filter(|(_, r)| !r.is_constraint()) {
            for (a, w) in positive(r.body) {
                occ[fill[a] as usize] = (i as u32, w);
                fill[a] += 1;
            }
        }
        let externals = program.effective_externals();
        let support = Support::new(program, &externals);
        let founded = (!deps.is_tight() && deps.is_head_cycle_free())
            .then(|| founded::Prepared::new(program, deps, &externals));
        let assumptions = program.assumptions();
        let edges: Vec<Edge> = program.edges().cloned().collect();
        let graph = EdgeGraph::new(&edges);
        let unfounded =
            (!deps.is_head_cycle_free()).then(|| unfounded_free::Prepared::new(program, deps, &externals));
        Verifier { externals, edges, graph, assumptions, support, founded, unfounded, occ_start: count, occ }
    }

    /// Checks whether `m` (indexed by atom, index 0 unused) is an answer set of `program`, the
    /// program this verifier was made for. `kept` is what the sequence of models `m` belongs to
    /// (the search that found it) kept from its last check: the check of tight programs is kept
    /// up to date along each.
    pub fn check(
        &self,
        program: &Program,
        m: &[bool],
        deps: &Dependencies,
        stop: &StopToken,
        kept: &mut Kept,
    ) -> Verdict {
        // Acyclicity (#edge): the edges that hold form no cycle.
        if let Some(c) =
            (!self.graph.is_empty()).then(|| self.graph.cycle_kept(m, &mut kept.cycles)).flatten()
        {
            let path: Vec<String> =
                c.iter().map(|&i| format!("{}->{}", self.edges[i].u, self.edges[i].v)).collect();
            return Verdict::Not(format!("the edges {} that hold form a cycle", path.join(", ")));
        }
        let sized = m.len() == program.atom_count() as usize + 1;
        let quick = match &self.support {
            Some(s) if sized && self.assumptions.iter().all(|&l| holds(m, l)) => {
                Some(kept.support.get_or_insert_with(|| s.clone()).update(m))
            }
            _ => None,
        };
        if quick == Some(true) {
            // A supported model: an answer set if the program is tight, and otherwise if no set of
            // its atoms is unfounded.
            let verdict = match (&self.founded, kept.support.as_ref()) {
                (Some(f), Some(s)) => match founded::check(f, m, s, &mut kept.founded) {
                    None => Verdict::AnswerSet,
                    Some(a) => Verdict::Not(format!(
                        "atom {a} is true but unfounded (not in the least model of the reduct)"
                    )),
                },
                _ => self.minimal(program, m, stop, &mut kept.unfounded, kept.support.as_ref()),
            };
            // Debug builds: the same verdict from scratch, where neither check was stopped.
            #[cfg(debug_assertions)]
            if !matches!(verdict, Verdict::Interrupted(_)) {
                let full = self.full_check(program, m, deps, stop, &mut kept.unfounded);
                assert!(
                    matches!(full, Verdict::Interrupted(_))
                        || (verdict == Verdict::AnswerSet) == (full == Verdict::AnswerSet),
                    "incremental check: {verdict:?}, from scratch {full:?}"
                );
            }
            return verdict;
        }
        // Not an answer set (the full check says why), or no incremental check.
        let verdict = self.full_check(program, m, deps, stop, &mut kept.unfounded);
        debug_assert!(
            quick.is_none() || verdict != Verdict::AnswerSet,
            "incremental check rejects an answer set"
        );
        verdict
    }

    fn full_check(
        &self,
        program: &Program,
        m: &[bool],
        deps: &Dependencies,
        stop: &StopToken,
        scratch: &mut unfounded_free::Scratch,
    ) -> Verdict {
        match self.model_and_founded(program, m, deps) {
            Err(why) => Verdict::Not(why),
            Ok(()) => self.minimal(program, m, stop, scratch, None),
        }
    }

    /// The verdict on a supported model `m` (a least model of its reduct, where the program is
    /// free of head cycles): with head cycles, whether no set of its atoms is unfounded.
    /// `support`: the counts kept for `m`, if they are.
    fn minimal(
        &self,
        program: &Program,
        m: &[bool],
        stop: &StopToken,
        scratch: &mut unfounded_free::Scratch,
        support: Option<&Support>,
    ) -> Verdict {
        match &self.unfounded {
            None => Verdict::AnswerSet,
            Some(prepared) => match unfounded_free::check(program, prepared, m, stop, scratch, support) {
                Ok(None) => Verdict::AnswerSet,
                Ok(Some(u)) => Verdict::Not(format!(
                    "atoms {} are unfounded (a smaller model of the reduct leaves them out)",
                    u.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")
                )),
                Err(i) => Verdict::Interrupted(i.0),
            },
        }
    }

    /// A model of the program that equals the least model of its reduct (without head cycles),
    /// or is supported (with them). Each is one pass over the rules that also checks that none is
    /// violated.
    fn model_and_founded(&self, program: &Program, m: &[bool], deps: &Dependencies) -> Result<(), String> {
        let n = program.atom_count() as usize;
        if m.len() != n + 1 {
            return Err(format!("interpretation has {} atoms, program {n}", m.len() - 1));
        }
        for &l in &self.assumptions {
            if !holds(m, l) {
                return Err(format!("assumption {l} does not hold"));
            }
        }
        if deps.is_head_cycle_free() {
            self.least_model_equals(program, m)
        } else {
            self.supported(program, m)
        }
    }

    /// Least model of the reduct (disjunctions shifted) by counting unmet body weight per rule.
    fn least_model_equals(&self, program: &Program, m: &[bool]) -> Result<(), String> {
        let n = program.atom_count() as usize;
        let mut derived = vec![false; n + 1];
        let mut queue: Vec<u32> = Vec::new();
        // need[r]: weight still missing from derived positive literals; None if the reduct drops r.
        let mut need: Vec<Option<i64>> = vec![None; program.rule_count()];
        let derive = |h: u32, derived: &mut Vec<bool>, queue: &mut Vec<u32>| {
            if !derived[h as usize] {
                derived[h as usize] = true;
                queue.push(h);
            }
        };
        let fire = |rule: Rule<'_>, derived: &mut Vec<bool>, queue: &mut Vec<u32>| match rule.kind {
            HeadKind::Choice => {
                for &h in rule.head.iter().filter(|&&h| m[h as usize]) {
                    derive(h, derived, queue);
                }
            }
            HeadKind::Disjunction => {
                if let Some(h) = only_true_head(m, rule.head) {
                    derive(h, derived, queue);
                }
            }
        };
        for (r, rule) in program.rules().enumerate() {
            violated(m, r, rule)?;
            if rule.is_constraint() {
                continue;
            }
            // The reduct: a normal body with a false negative literal is dropped; a weight
            // body's bound is lowered by the weights of its true negative literals.
            let lits = rule.body.lits();
            let mut bound = match rule.body {
                Body::Normal(l) => l.len() as i64,
                Body::Weight { bound, .. } => bound,
            };
            let mut kept = true;
            for (i, &l) in lits.iter().enumerate().filter(|(_, l)| **l < 0) {
                if holds(m, l) {
                    bound -= rule.body.weight(i);
                } else if matches!(rule.body, Body::Normal(_)) {
                    kept = false;
                    break;
                }
            }
            if !kept {
                continue;
            }
            need[r] = Some(bound);
            if bound <= 0 {
                fire(rule, &mut derived, &mut queue);
            }
        }
        for &(a, v) in &self.externals {
            match v {
                ExternalValue::Free if m[a as usize] => derive(a, &mut derived, &mut queue),
                ExternalValue::True => derive(a, &mut derived, &mut queue),
                _ => {}
            }
        }
        while let Some(a) = queue.pop() {
            let (from, to) = (self.occ_start[a as usize] as usize, self.occ_start[a as usize + 1] as usize);
            for &(r, w) in &self.occ[from..to] {
                if let Some(k) = need[r as usize].as_mut() {
                    let before = *k;
                    *k -= w;
                    if before > 0 && *k <= 0 {
                        fire(program.rule(r as usize), &mut derived, &mut queue);
                    }
                }
            }
        }
        match (1..=n).find(|&a| m[a] != derived[a]) {
            None => Ok(()),
            Some(a) if m[a] => {
                Err(format!("atom {a} is true but unfounded (not in the least model of the reduct)"))
            }
            Some(a) => Err(format!("atom {a} is false but derivable")),
        }
    }

    /// Every true atom has a rule whose body holds and in whose head it is the only true atom.
    fn supported(&self, program: &Program, m: &[bool]) -> Result<(), String> {
        let mut sup = vec![false; m.len()];
        for &(a, v) in &self.externals {
            if matches!(v, ExternalValue::Free | ExternalValue::True) {
                sup[a as usize] = true;
            }
        }
        for (i, r) in program.rules().enumerate() {
            violated(m, i, r)?;
            if !body_holds(m, r.body) {
                continue;
            }
            if r.kind == HeadKind::Choice {
                r.head.iter().filter(|&&h| m[h as usize]).for_each(|&h| sup[h as usize] = true);
            } else if let Some(h) = only_true_head(m, r.head) {
                sup[h as usize] = true;
            }
        }
        match (1..m.len()).find(|&a| m[a] && !sup[a]) {
            Some(a) => Err(format!("atom {a} is true but unsupported")),
            None => Ok(()),
        }
    }
}

/// An error if `r`, rule `i`, is a disjunctive rule (or a constraint) that `m` violates.
#[inline]
fn violated(m: &[bool], i: usize, r: Rule<'_>) -> Result<(), String> {
    if r.kind == HeadKind::Disjunction && !r.head.iter().any(|&h| m[h as usize]) && body_holds(m, r.body) {
        return Err(format!("rule {} is violated", i + 1));
    }
    Ok(())
}

/// A body's positive literals: (atom, weight).
fn positive(b: Body<'_>) -> impl Iterator<Item = (usize, i64)> + '_ {
    let lits = b.lits();
    (0..lits.len()).filter(move |&i| lits[i] > 0).map(move |i| (lits[i] as usize, b.weight(i)))
}

/// The one atom of a disjunctive head true in `m` (an atom may be listed twice), if exactly one is.
fn only_true_head(m: &[bool], head: &[u32]) -> Option<u32> {
    let mut true_heads = head.iter().copied().filter(|&h| m[h as usize]);
    let h = true_heads.next()?;
    if true_heads.all(|g| g == h) { Some(h) } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;
    use crate::stop::Stop;

    /// `a :- b. b :- a.` beside a head cycle `c | d. c :- d. d :- c.` (a, b, c, d are 1 to 4):
    /// the one answer set is {c, d}.
    const LOOPS: &str =
        "asp 1 0 0\n1 0 1 1 0 1 2\n1 0 1 2 0 1 1\n1 0 2 3 4 0 0\n1 0 1 3 0 1 4\n1 0 1 4 0 1 3\n0\n";

    fn verdict(text: &str, true_atoms: &[usize], stop: &StopToken) -> Verdict {
        let p = read_program(text.as_bytes()).unwrap();
        let mut m = vec![false; p.atom_count() as usize + 1];
        for &a in true_atoms {
            m[a] = true;
        }
        check_answer_set(&p, &m, &Dependencies::new(&p), stop)
    }

    #[test]
    fn a_supported_model_with_an_unfounded_loop_is_rejected() {
        let go = StopToken::default();
        assert_eq!(verdict(LOOPS, &[3, 4], &go), Verdict::AnswerSet);
        match verdict(LOOPS, &[1, 2, 3, 4], &go) {
            Verdict::Not(why) => assert!(why.contains("atoms 1, 2 are unfounded"), "{why}"),
            v => panic!("{{a, b, c, d}} is supported but not minimal: {v:?}"),
        }
        assert!(matches!(verdict(LOOPS, &[3], &go), Verdict::Not(_)), "d :- c is violated");
        // `a | b. a :- b. b :- a.`: {a, b} is minimal.
        let both = "asp 1 0 0\n1 0 2 1 2 0 0\n1 0 1 1 0 1 2\n1 0 1 2 0 1 1\n0\n";
        assert_eq!(verdict(both, &[1, 2], &go), Verdict::AnswerSet);
    }

    #[test]
    fn a_stopped_check_says_so_and_accepts_nothing() {
        let stopped = StopToken::default();
        stopped.stop(Stop::Signal);
        assert_eq!(verdict(LOOPS, &[3, 4], &stopped), Verdict::Interrupted(Stop::Signal));
        assert_eq!(verdict(LOOPS, &[1, 2, 3, 4], &stopped), Verdict::Interrupted(Stop::Signal));
    }
}
