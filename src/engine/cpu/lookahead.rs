//! Failed-literal detection and lookahead decisions (clasp's `--lookahead=TYPE,N`): at a
//! propagation fixpoint each unassigned variable of the chosen kind is assigned each way at a
//! level of its own and propagated. A value whose propagation conflicts is a *failed literal*:
//! the conflict goes to the search as any other, whose analysis learns a nogood that asserts the
//! other value. Otherwise each value's score is the number of literals it propagates, and the next
//! decision is the variable whose weaker value propagates most (its stronger value first), as
//! clasp's `UnitHeuristic` takes it. After `N` fixpoints the lookahead ends for good and the
//! heuristic decides, as clasp's `--lookahead=atom,10` beside another heuristic does.
//!
//! A literal that a test propagates is not tested itself in the same round: its propagation
//! would be part of the test's, whose count it takes as its score (clasp's dependency scores).
//!
//! A fixpoint's tests assign at most [`BUDGET`] literals together (and one test more), failed
//! literals' included, so that a big program's round does not keep the search from its stop
//! token for long: a round cut short, by the budget or by a failed literal, goes on from where it
//! was at the next fixpoint, keeping the scores it has, and chooses a decision only once it has
//! visited every variable.
//!
//! Invariant: a call starts and ends at the same decision level, with every test's level undone.

use super::CpuEngine;
use crate::engine::assignment::Reason;
use crate::nogoods::{Lit, Problem, Var};
use crate::solve::config::{LookKind, Lookahead};

/// The literals a fixpoint's tests may assign, together, before it hands back to the search.
const BUDGET: usize = 1 << 22;

pub(super) struct Look {
    /// The variables tested, in order.
    vars: Vec<Var>,
    /// Fixpoints left before the lookahead ends (`None`: it never does); a failed literal's does
    /// not count (the fixpoint comes after it is learned from).
    left: Option<u32>,
    /// Per literal index: the score of the round stamped in `stamps` (tested, or propagated by a
    /// test and so never tested itself).
    score: Vec<u32>,
    stamps: Vec<u32>,
    stamp: u32,
    /// The round's position in `vars`, and how many of them it has visited.
    pos: usize,
    visited: usize,
    /// Where the last round ended (trail length, level): a fixpoint there has nothing new.
    done_at: Option<(usize, u32)>,
    /// The decision the last round chose.
    best: Option<Lit>,
    /// [`BUDGET`] (tests take less), and what the calls since the last counted fixpoint spent
    /// of it (a failed literal's call ends early, and the next one goes on spending).
    budget: usize,
    spent: usize,
}

impl Look {
    pub(super) fn new(p: &Problem, opts: Lookahead) -> Self {
        let wanted = |v: Var| match opts.kind {
            LookKind::Atom => v <= p.num_atoms,
            LookKind::Body => v > p.num_atoms,
            LookKind::Hybrid => true,
        };
        let vars: Vec<Var> = (1..p.num_vars).filter(|&v| wanted(v) && p.leader(v).is_none()).collect();
        let n = 2 * p.num_vars as usize;
        Look {
            vars,
            left: (opts.limit > 0).then_some(opts.limit),
            score: vec![0; n],
            stamps: vec![0; n],
            stamp: 0,
            pos: 0,
            visited: 0,
            done_at: None,
            best: None,
            budget: BUDGET,
            spent: 0,
        }
    }

    /// A fixpoint's tests are done: one of the `N` gone; the lookahead itself once they all are.
    fn spend(mut self) -> Option<Look> {
        self.spent = 0;
        match self.left {
            Some(1) => None,
            left => {
                self.left = left.map(|n| n - 1);
                Some(self)
            }
        }
    }

    fn seen(&self, l: Lit) -> bool {
        self.stamps[l.index()] == self.stamp
    }

    fn score_of(&self, l: Lit) -> Option<u32> {
        self.seen(l).then(|| self.score[l.index()])
    }

    /// The variable whose weaker value propagates most (ties: the stronger value), unassigned
    /// and scored both ways; its stronger value (true where equal).
    fn choose(&self, e: &CpuEngine) -> Option<Lit> {
        let mut best: Option<(u32, u32, Lit)> = None;
        for &v in &self.vars {
            if !e.a.is_unassigned(v) || !e.dec.may_decide(v) {
                continue;
            }
            let (Some(p), Some(n)) = (self.score_of(Lit::pos(v)), self.score_of(Lit::neg(v))) else {
                continue;
            };
            let key = (p.min(n), p.max(n));
            if best.is_none_or(|(lo, hi, _)| key > (lo, hi)) {
                best = Some((key.0, key.1, if n > p { Lit::neg(v) } else { Lit::pos(v) }));
            }
        }
        best.map(|b| b.2)
    }
}

impl CpuEngine {
    /// A lookahead round at this fixpoint, where one is due; false with `conflict` set where a
    /// tested value failed (the search learns from it as from any conflict).
    pub(super) fn look_ahead(&mut self) -> bool {
        let Some(mut look) = self.look.take() else { return true };
        let level = self.a.decision_level();
        if look.done_at == Some((self.a.trail.len(), level)) {
            self.look = Some(look);
            return true;
        }
        if look.visited == 0 {
            look.stamp = look.stamp.wrapping_add(1);
            if look.stamp == 0 {
                look.stamps.fill(0);
                look.stamp = 1;
            }
        }
        while look.visited < look.vars.len() {
            if look.spent >= look.budget {
                self.look = look.spend();
                return true;
            }
            let v = look.vars[look.pos];
            for l in [Lit::pos(v), Lit::neg(v)] {
                if !self.a.is_unassigned(v) || look.seen(l) || !self.dec.may_decide(v) {
                    continue;
                }
                let start = self.a.trail.len();
                self.a.new_level();
                self.a.assign(l, Reason::Decision);
                if !self.propagate_all() {
                    // A failed literal: the round goes on from here once the search has learned.
                    self.stats.failed_literals += 1;
                    self.look = Some(look);
                    return false;
                }
                let n = (self.a.trail.len() - start) as u32;
                look.spent += n as usize;
                for &x in &self.a.trail[start..] {
                    if !look.seen(x) {
                        look.stamps[x.index()] = look.stamp;
                        look.score[x.index()] = n;
                    }
                }
                look.score[l.index()] = n;
                self.undo_to(level);
            }
            look.pos = (look.pos + 1) % look.vars.len();
            look.visited += 1;
        }
        look.visited = 0;
        look.best = look.choose(self);
        look.done_at = Some((self.a.trail.len(), level));
        self.look = look.spend();
        true
    }

    /// The decision the lookahead chose at this fixpoint, if it is still on and chose one.
    pub(super) fn look_pick(&self) -> Option<Lit> {
        let look = self.look.as_ref()?;
        let here = (self.a.trail.len(), self.a.decision_level());
        look.best.filter(|l| look.done_at == Some(here) && self.a.is_unassigned(l.var()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::solve::config::{Decisions, SearchOptions};

    /// `{a; b}. c :- a. d :- a.`
    const AB_CD: &str = "asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 1 1\n1 0 1 4 0 1 1\n0\n";

    fn engine(text: &str, eq_rounds: u32, kind: LookKind, limit: u32) -> CpuEngine {
        let look = Lookahead { kind, limit };
        let opts = SearchOptions { decisions: Decisions::Vars, lookahead: Some(look), ..Default::default() };
        CpuEngine::for_aspif(text, eq_rounds, &opts)
    }

    /// A round ends at the level it started; its decision is the atom that propagates most both
    /// ways; after `limit` rounds the lookahead is over.
    #[test]
    fn a_round_keeps_its_level_and_chooses_the_strongest_variable() {
        let mut e = engine(AB_CD, 3, LookKind::Atom, 2);
        assert!(e.propagate().unwrap());
        assert_eq!(e.a.decision_level(), 0);
        // `a` true propagates c and d (and its body): the strongest; `T a` first.
        assert_eq!(e.look_pick(), Some(Lit::pos(1)));
        assert_eq!(e.decide().unwrap(), Some(Lit::pos(1)));
        assert!(e.propagate().unwrap());
        // The second round was the last: the heuristic decides from here on.
        assert!(e.look.is_none());
    }

    /// With a budget of one test a call, a round takes a call a variable (and the fixpoints they
    /// come at count as the limit's), keeps the level, and chooses only once it is whole.
    #[test]
    fn a_round_cut_short_by_its_budget_goes_on_at_the_next_fixpoint() {
        let mut e = engine(AB_CD, 3, LookKind::Atom, 0);
        e.look.as_mut().unwrap().budget = 1;
        let vars = e.look.as_ref().unwrap().vars.len();
        assert!(vars >= 2, "a and b at least");
        for _ in 0..vars - 1 {
            assert!(e.propagate().unwrap());
            assert_eq!((e.a.decision_level(), e.look_pick()), (0, None), "the round is not whole yet");
        }
        assert!(e.propagate().unwrap());
        assert_eq!(e.look_pick(), Some(Lit::pos(1)), "whole: T a, which propagates most");
    }

    /// `{a}. b :- a. c :- a. :- b, c.`: no unit propagation shows that `a` must be false, the
    /// test of `T a` does, and the search learns `F a` from it.
    #[test]
    fn a_failed_literal_is_a_conflict_the_search_learns_from() {
        // {a}. b :- a. c :- a. :- b, c.
        let text = "asp 1 0 0\n1 1 1 1 0 0\n1 0 1 2 0 1 1\n1 0 1 3 0 1 1\n1 0 0 0 2 2 3\n0\n";
        let mut e = engine(text, 0, LookKind::Atom, 0);
        let mut conflicts = 0;
        while !e.propagate().unwrap() {
            conflicts += 1;
            assert!(e.resolve_conflict().unwrap(), "satisfiable");
        }
        assert_eq!(e.a.decision_level(), 0);
        assert!(e.a.is_false(Lit::pos(1)), "a is false at level 0");
        assert_eq!((conflicts, e.stats.failed_literals), (1, 1));
    }
}
