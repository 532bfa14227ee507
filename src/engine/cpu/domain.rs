//! clasp's domain heuristic (`--heuristic=Domain`): the `#heuristic` statements of a program
//! steer the decisions on variables. An atom with a positive level (`level`, `true`, `false`)
//! whose condition holds is decided before any atom of a lower level, the most active first; one
//! with a negative level after every atom of level 0 (the atoms without statements among them);
//! `sign`, `true` and `false` choose its value; `init` adds to its initial score, and `factor`
//! multiplies its bumps while its condition holds. Where several statements of one kind hold for
//! an atom, the one of the highest priority counts (the last given among equals). `init` shapes
//! the scores once, as clasp's does: only where its condition is empty or made of facts.
//! `--dom-mod` adds statements of its own for the atoms no statement names (`dom_mod.rs`).

use crate::engine::assignment::Assignment;
use crate::nogoods::{DomainModifier, Problem, Var};
use crate::program::HeuristicModifier as M;
use crate::solve::config::DomMod;

pub struct Domain {
    /// The statements of each atom that has any (level, sign, true, false, factor).
    atoms: Vec<(Var, Vec<DomainModifier>)>,
    /// Per variable: its index in `atoms`, or `ABSENT`.
    index: Vec<u32>,
    /// The indices in `atoms` of those with a level, true or false statement under a condition
    /// that can change: the only ones [`Domain::pick`] looks at.
    leveled: Vec<u32>,
    /// Per variable, the level of the atoms whose level statements all hold from the start (no
    /// condition, or facts): constant, so the decider's heap orders by it (0 for the others).
    /// Invariant: an atom with a nonzero entry is not in `leveled`. Empty once handed over
    /// ([`Domain::take_fixed_levels`]).
    fixed: Vec<i32>,
}

const ABSENT: u32 = u32::MAX;

/// The kinds of statement that give a level.
const LEVELS: [M; 3] = [M::Level, M::True, M::False];

/// A statement on a variable that follows another's literal (`--eq`, `nogoods/equivalences.rs`)
/// as one on that variable, which is decided in its place; through a negative literal its signs
/// turn over (clasp moves its statements to the representative likewise).
fn on_leader(p: &Problem, h: &DomainModifier) -> DomainModifier {
    let mut h = h.clone();
    if let Some(r) = p.leader(h.var) {
        h.var = r.var();
        if !r.is_pos() {
            h.modifier = match h.modifier {
                M::True => M::False,
                M::False => M::True,
                m => m,
            };
            if h.modifier == M::Sign {
                h.value = -h.value;
            }
        }
    }
    h
}

impl Domain {
    /// The program's statements and those `dom_mod` adds (`dom_mod.rs`), or `None` where there
    /// are none; `scores` takes their `init`s.
    pub fn new(p: &Problem, scores: &mut [f64], dom_mod: Option<DomMod>) -> Option<Domain> {
        let defaults = dom_mod.map(|dm| super::dom_mod::statements(p, dm)).unwrap_or_default();
        if p.heuristics.is_empty() && defaults.is_empty() {
            return None;
        }
        let nv = p.num_vars as usize;
        let mut d =
            Domain { atoms: Vec::new(), index: vec![ABSENT; nv], leveled: Vec::new(), fixed: Vec::new() };
        let facts = p.facts();
        let holds = |m: &DomainModifier| m.holds_from_start(&facts);
        let all: Vec<DomainModifier> =
            p.heuristics.iter().chain(&defaults).map(|h| on_leader(p, h)).collect();
        let mut inits: Vec<Option<&DomainModifier>> = vec![None; nv];
        for h in &all {
            let v = h.var as usize;
            if v >= nv {
                continue;
            }
            match h.modifier {
                M::Init if holds(h) => {
                    if inits[v].is_none_or(|b| b.priority <= h.priority) {
                        inits[v] = Some(h);
                    }
                }
                M::Init => {}
                M::Factor if h.value <= 0 => {}
                M::Level | M::Sign | M::True | M::False | M::Factor => {
                    if d.index[v] == ABSENT {
                        d.index[v] = d.atoms.len() as u32;
                        d.atoms.push((h.var, Vec::new()));
                    }
                    d.atoms[d.index[v] as usize].1.push(h.clone());
                }
            }
        }
        for (v, h) in inits.iter().enumerate() {
            if let Some(h) = h {
                scores[v] += f64::from(h.value);
            }
        }
        d.fixed = vec![0; nv];
        for (i, (v, mods)) in d.atoms.iter().enumerate() {
            let mut leveled = mods.iter().filter(|m| LEVELS.contains(&m.modifier)).peekable();
            if leveled.peek().is_none() {
                continue;
            }
            if leveled.clone().all(holds) {
                // Every level statement holds: the strongest counts, as it would in `level`.
                d.fixed[*v as usize] = DomainModifier::strongest(leveled).map_or(0, |m| m.value);
            } else {
                d.leveled.push(i as u32);
            }
        }
        d.debug_check();
        Some(d)
    }

    /// The statement of the highest priority among `kinds` whose condition holds for `v`'s
    /// entry (the last of equal priority).
    fn active<'d>(mods: &'d [DomainModifier], a: &Assignment, kinds: &[M]) -> Option<&'d DomainModifier> {
        DomainModifier::strongest(
            mods.iter().filter(|m| kinds.contains(&m.modifier) && m.condition.iter().all(|&l| a.is_true(l))),
        )
    }

    /// Checks the invariant stated on `fixed` (debug builds).
    fn debug_check(&self) {
        if cfg!(debug_assertions) {
            for &i in &self.leveled {
                assert_eq!(
                    self.fixed[self.atoms[i as usize].0 as usize], 0,
                    "an atom both fixed and leveled"
                );
            }
        }
    }

    /// The constant levels of the atoms whose level statements always hold (see `fixed`), handed
    /// over to the decider's heap (empty where all are 0); the domain keeps none.
    pub fn take_fixed_levels(&mut self) -> Vec<i32> {
        let fixed = std::mem::take(&mut self.fixed);
        if fixed.iter().any(|&l| l != 0) { fixed } else { Vec::new() }
    }

    fn level(mods: &[DomainModifier], a: &Assignment) -> i32 {
        Self::active(mods, a, &LEVELS).map_or(0, |m| m.value)
    }

    fn mods(&self, v: Var) -> Option<&[DomainModifier]> {
        let i = *self.index.get(v as usize)?;
        (i != ABSENT).then(|| self.atoms[i as usize].1.as_slice())
    }

    /// `v`'s level now (0 without a statement that holds).
    pub fn level_of(&self, a: &Assignment, v: Var) -> i32 {
        self.mods(v).map_or(0, |m| Self::level(m, a))
    }

    /// The factor of `v`'s bumps now (1 without a statement that holds).
    pub fn factor_of(&self, a: &Assignment, v: Var) -> f64 {
        self.mods(v).and_then(|m| Self::active(m, a, &[M::Factor])).map_or(1.0, |m| f64::from(m.value))
    }

    /// The value a decision gives `v` where a statement says (`None`: the default sign's).
    pub fn sign(&self, a: &Assignment, v: Var) -> Option<bool> {
        Self::active(self.mods(v)?, a, &[M::Sign, M::True, M::False])?.sign()
    }

    /// Among the atoms whose level depends on a condition, the unassigned one of the highest
    /// positive level now (the most active among equals), its level, and the value its
    /// statements give it, if any. (The decider's heap orders the atoms of fixed levels.)
    pub fn pick(&self, a: &Assignment, activity: &[f64]) -> Option<(Var, i32, Option<bool>)> {
        let mut best: Option<(i32, f64, Var)> = None;
        for (v, mods) in self.leveled.iter().map(|&i| &self.atoms[i as usize]) {
            if !a.is_unassigned(*v) {
                continue;
            }
            let level = Self::level(mods, a);
            let key = (level, activity[*v as usize], *v);
            if level > 0 && best.is_none_or(|b| (key.0, key.1) > (b.0, b.1)) {
                best = Some(key);
            }
        }
        best.map(|(level, _, v)| (v, level, self.sign(a, v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;
    use crate::nogoods::Lit;
    use crate::nogoods::complete;
    use crate::stop::StopToken;

    /// `{a;b;c}. #heuristic a. [2,level] #heuristic b. [1,true] #heuristic c : b. [1,false]
    /// #heuristic c : b. [5@2,init]` (the last has a condition: not an init of the scores).
    const PROGRAM: &str = "asp 1 0 0\n1 1 3 1 2 3 0 0\n7 0 1 2 0 0\n7 4 2 1 0 0\n7 5 3 1 0 1 2\n\
        7 3 3 5 2 1 2\n7 3 1 4 0 0\n4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n0\n";

    #[test]
    fn levels_signs_and_inits() {
        let p = complete(&read_program(PROGRAM.as_bytes()).unwrap(), &StopToken::never(), 3).unwrap();
        let mut scores = vec![0.0; p.num_vars as usize];
        let mut d = Domain::new(&p, &mut scores, None).unwrap();
        assert_eq!(scores[1], 4.0, "a's init");
        assert_eq!(scores[3], 0.0, "c's init has a condition");
        let mut a = Assignment::new(p.num_vars);
        let activity = vec![0.0; p.num_vars as usize];
        // a (level 2) and b (level 1, true) hold their levels from the start: the decider's
        // heap orders them; c's depends on b.
        assert_eq!(&d.take_fixed_levels()[1..4], &[2, 1, 0]);
        assert_eq!(d.sign(&a, 2), Some(true));
        assert_eq!(d.pick(&a, &activity), None, "c has no level while b is not true");
        // c has a level only while b is true; then it is decided false.
        assert_eq!(d.sign(&a, 3), None);
        a.assign(Lit::pos(2), crate::engine::assignment::Reason::Decision);
        assert_eq!(d.pick(&a, &activity), Some((3, 1, Some(false))));
    }

    /// `{a;b;c;d}. #heuristic c : a. [5,level] #heuristic b. [3,level] #heuristic a. [1,true]`.
    const ORDER: &str = "asp 1 0 0\n1 1 4 1 2 3 4 0 0\n7 0 3 5 0 1 1\n7 0 2 3 0 0\n7 4 1 1 0 0\n\
        4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n4 1 d 1 4\n0\n";

    #[test]
    fn fixed_levels_order_the_heap_and_conditional_ones_join_it() {
        use crate::engine::cpu::decide::Decider;
        use crate::solve::config::{Decisions, Heuristic, SearchOptions};
        let p = complete(&read_program(ORDER.as_bytes()).unwrap(), &StopToken::never(), 3).unwrap();
        let opts =
            SearchOptions { heuristic: Heuristic::Domain, decisions: Decisions::Vars, ..Default::default() };
        let mut dec = Decider::new(&p, &opts);
        let mut a = Assignment::new(p.num_vars);
        a.assign(Lit::TRUE, crate::engine::assignment::Reason::Unit);
        // Activities that say the opposite of the levels: d, then c, most active.
        for (v, bumps) in [(4, 3), (3, 2)] {
            for _ in 0..bumps {
                dec.bump(v, &a);
            }
        }
        let mut order = Vec::new();
        while let Some(l) = dec.pick(&p, &a) {
            order.push(l);
            a.new_level();
            a.assign(l, crate::engine::assignment::Reason::Decision);
        }
        // b (level 3), a (level 1, true), then c (level 5 once a is true), then d.
        let (a_, b, c, d) = (Lit::pos(1), Lit::pos(2), Lit::pos(3), Lit::pos(4));
        assert_eq!(
            order.iter().map(|l| l.var()).collect::<Vec<_>>(),
            vec![b.var(), a_.var(), c.var(), d.var()]
        );
        assert_eq!(order[1], a_, "a decided true");
    }

    /// `{a;b}. f. #heuristic a : f. [3,init] #heuristic b. [2@1,init] #heuristic b. [7,init]`.
    const INITS: &str = "asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 0\n7 3 1 3 0 1 3\n7 3 2 2 1 0\n\
        7 3 2 7 0 0\n4 1 a 1 1\n4 1 b 1 2\n4 1 f 1 3\n0\n";

    #[test]
    fn inits_of_facts_count_and_the_highest_priority_wins() {
        let p = complete(&read_program(INITS.as_bytes()).unwrap(), &StopToken::never(), 3).unwrap();
        let mut scores = vec![0.0; p.num_vars as usize];
        Domain::new(&p, &mut scores, None).unwrap();
        assert_eq!((scores[1], scores[2]), (3.0, 2.0));
    }

    /// `{a;b;c}. #heuristic a. [-1,level] #heuristic b : c. [3,factor]`.
    const NEGATIVE: &str = "asp 1 0 0\n1 1 3 1 2 3 0 0\n7 0 1 -1 0 0\n7 2 2 3 0 1 3\n\
        4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n0\n";

    #[test]
    fn negative_levels_come_last_and_factors_follow_their_condition() {
        use crate::engine::cpu::decide::Decider;
        use crate::solve::config::{Decisions, Heuristic, SearchOptions};
        let p = complete(&read_program(NEGATIVE.as_bytes()).unwrap(), &StopToken::never(), 3).unwrap();
        let mut scores = vec![0.0; p.num_vars as usize];
        let d = Domain::new(&p, &mut scores, None).unwrap();
        let mut a = Assignment::new(p.num_vars);
        assert_eq!((d.level_of(&a, 1), d.level_of(&a, 2)), (-1, 0));
        assert_eq!(d.factor_of(&a, 2), 1.0, "c is not true yet");
        a.assign(Lit::pos(3), crate::engine::assignment::Reason::Decision);
        assert_eq!(d.factor_of(&a, 2), 3.0);
        // Deciding: every other variable before a, whatever the scores say.
        let opts =
            SearchOptions { heuristic: Heuristic::Domain, decisions: Decisions::Vars, ..Default::default() };
        let mut dec = Decider::new(&p, &opts);
        dec.set_activity(1, 1e9);
        let mut a = Assignment::new(p.num_vars);
        a.assign(Lit::TRUE, crate::engine::assignment::Reason::Unit);
        let mut order = Vec::new();
        while let Some(l) = dec.pick(&p, &a) {
            order.push(l.var());
            a.new_level();
            a.assign(l, crate::engine::assignment::Reason::Decision);
        }
        assert_eq!(order.last(), Some(&1), "a (level -1) last: {order:?}");
        assert!(order.contains(&2) && order.contains(&3), "{order:?}");
        // After a backtrack the atom deferred comes back.
        a.backtrack(0, |a, l| dec.on_unassign(a, l.var(), l));
        dec.on_backtrack();
        let mut again = Vec::new();
        while let Some(l) = dec.pick(&p, &a) {
            again.push(l.var());
            a.new_level();
            a.assign(l, crate::engine::assignment::Reason::Decision);
        }
        assert_eq!((again.len(), again.last()), (order.len(), Some(&1)), "{again:?}");
    }

    /// `x. b :- not a. {a} :- x. #heuristic a. [1,false]` with equivalences substituted: `a`
    /// follows `not b`, so its statement is `b`'s, level and all, with the sign turned over.
    #[test]
    fn a_follower_s_statement_is_its_leader_s_turned_over() {
        let text = "asp 1 0 0\n1 0 1 1 0 0\n1 0 1 2 0 1 -3\n1 1 1 3 0 1 1\n7 5 3 1 0 0\n4 1 a 1 3\n0\n";
        let p = complete(&read_program(text.as_bytes()).unwrap(), &StopToken::never(), 3).unwrap();
        let leader = p.leader(3).expect("a follows a literal");
        assert!(!leader.is_pos(), "a follows not b: {leader:?}");
        let mut scores = vec![0.0; p.num_vars as usize];
        let mut d = Domain::new(&p, &mut scores, None).unwrap();
        let a = Assignment::new(p.num_vars);
        assert_eq!(d.sign(&a, leader.var()), Some(true), "b true, so a false");
        assert_eq!(d.take_fixed_levels()[leader.var() as usize], 1);
        assert_eq!(d.sign(&a, 3), None, "nothing is left on a");
    }
}
