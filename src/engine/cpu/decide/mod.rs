//! Decisions by the ASP computation: only an applicable rule may be applied, by making its body
//! true (which derives its head) or, for a choice rule whose body holds, its head; candidates are
//! ranked by the chosen heuristic. With `--decisions=vars` every unassigned variable is a
//! candidate instead, decided true if it is a rule body (or an atom that is one, as `a` in
//! `h :- a`, or equivalent to one) and false otherwise (clasp's default signs), or with the value
//! it last had (`--save-progress`): the completion, the unfounded-set propagator and the final
//! check make any total assignment an answer set, so the ASP computation's restriction is a
//! heuristic, not a condition of soundness.
//!
//! With `--decisions=mixed` the candidates are the rules' and every other variable that is not a
//! follower: one that no rule decision assigns (an atom neither a choice head nor under `not` in
//! a rule's body, or a constraint's body) is decided false, or with its saved value, in the
//! heap's order among the applicable rules.
//!
//! Candidates live in a heap of variables ordered by score. A body variable is a candidate when its
//! rule is applicable (positive literals true, negative ones not false); an atom `q` is one when
//! some rule has the body `not q` (deciding `F q` applies it) or when a choice rule for it has a
//! true body. A popped body that is not yet applicable is *parked* on one of its unassigned
//! positive literals and returns to the heap when that literal becomes true; choice heads return
//! when their body becomes true; every variable returns when it is unassigned. A candidate lost
//! anyway is found by the engine's completion scan, so parking affects speed, never answers.

use super::domain::Domain;
use crate::engine::assignment::Assignment;
use crate::engine::rng::Rng;
use crate::engine::signs::Signs;
use crate::nogoods::{Csr, Lit, Problem, Var};
use crate::solve::config::{Decisions, Heuristic, SearchOptions};
use crate::stop::{DROP_ASIDE_FROM, drop_aside};

mod activity;

pub struct Decider {
    /// The candidates, a binary heap by [`Decider::better`], each with its activity (a copy,
    /// kept equal to `activity`'s, so that comparing reads the heap alone).
    heap: Vec<(f64, Var)>,
    pos: Vec<u32>,
    pub activity: Vec<f64>,
    inc: f64,
    decay: f64,
    dynamic: bool,
    eligible: Vec<bool>,
    /// Per variable: the choice bodies of the atom (for choice decisions).
    choice_start: Vec<u32>,
    choice: Vec<u32>,
    park: Vec<Vec<Var>>,
    parked: Vec<bool>,
    /// Per variable: the literal it is parked on, or `Lit::FALSE`.
    parked_on: Vec<Lit>,
    /// `--decisions=vars`: every variable a candidate, with a sign of its own (below).
    any: bool,
    /// `--decisions=mixed`: per variable, whether it is a candidate that no rule decision
    /// assigns, decided false (or with its saved value); empty otherwise.
    free: Vec<bool>,
    /// `--save-progress`: the values saved.
    saved: Option<Saved>,
    /// `--sign-def`: the value a decision gives a variable without a saved one.
    signs: Signs,
    /// `--heuristic=Domain`: the program's `#heuristic` statements.
    domain: Option<Domain>,
    /// The domain's fixed levels (`Domain::take_fixed_levels`), which order the heap before the
    /// activities; empty without them.
    rank: Vec<i32>,
    /// Domain atoms popped while their level was below 0: decided after every other candidate,
    /// and back in the heap at the next backtrack (they were never assigned, so no unassignment
    /// returns them).
    deferred: Vec<Var>,
    /// Deciding on rules: per representative of equivalent literals, the variables that follow it
    /// (`Problem::equal_to`), which share its activity: learned nogoods name only representatives,
    /// while the candidates may be followers.
    followers: Csr<Var>,
    /// Variables taken off the heap so far, by this decider and those it inherited from: part of
    /// the effort that measures turns (`alternate.rs`).
    pub pops: u64,
    /// `--rand-freq`: the share of random decisions and their generator (`None`: none, and with
    /// the domain heuristic, whose levels come first).
    random: Option<(f64, Rng)>,
}

const ABSENT: u32 = u32::MAX;

/// `--save-progress=N`: per variable, the literal that was true when a backjump over more than
/// `over` levels last unassigned it (`Lit::FALSE` before that); `now`: whether the backjump
/// under way is one.
struct Saved {
    values: Vec<Lit>,
    over: u32,
    now: bool,
}

impl Drop for Decider {
    /// A big program's parking lists (a vector per variable) are freed aside.
    fn drop(&mut self) {
        if self.park.len() >= DROP_ASIDE_FROM {
            drop_aside(std::mem::take(&mut self.park));
        }
    }
}

impl Decider {
    /// The decisions of a search with `opts` (its heuristic, decisions, progress saving, sign,
    /// decay and perturbation).
    pub fn new(p: &Problem, opts: &SearchOptions) -> Self {
        let (heuristic, decisions, save_progress) = (opts.heuristic, opts.decisions, opts.save_progress);
        let (sign, perturb) = (opts.sign_def, opts.perturb);
        let nv = p.num_vars as usize;
        let bt = &p.bodies;
        let any = decisions == Decisions::Vars;
        // Variable 0 is the constant true.
        let mut eligible: Vec<bool> = (0..nv).map(|v| any && v > 0).collect();
        let mut choices: Vec<Vec<u32>> = vec![Vec::new(); nv];
        for b in 0..bt.len() {
            if !bt.has_heads(b) {
                continue;
            }
            // A body is decided through its literal unless it is that literal itself (`h :- a`:
            // applicable exactly when already true); `h :- not q` is applied by deciding `F q`.
            let l = bt.lit[b];
            if l.var() != 0 && (!l.is_pos() || bt.def(b).0 != [l]) {
                eligible[l.var() as usize] = true;
            }
            for &h in bt.choice_heads(b) {
                eligible[h as usize] = true;
                choices[h as usize].push(b as u32);
            }
        }
        let mut free = Vec::new();
        if decisions == Decisions::Mixed {
            free = (0..nv).map(|v| v > 0 && !eligible[v] && p.leader(v as Var).is_none()).collect();
            for (e, &f) in eligible.iter_mut().zip(&free) {
                *e |= f;
            }
        }
        // A variable equivalent to another's literal follows it (`nogoods/equivalences.rs`).
        let followers = if any {
            for v in (0..nv).filter(|&v| p.leader(v as Var).is_some()) {
                eligible[v] = false;
            }
            Csr::default()
        } else {
            Csr::from_pairs(nv, (0..nv as Var).filter_map(|v| p.leader(v).map(|r| (r.var() as usize, v))))
        };
        let mut choice_start = vec![0u32];
        let mut choice = Vec::new();
        for c in &choices {
            choice.extend_from_slice(c);
            choice_start.push(choice.len() as u32);
        }
        let mut activity = crate::engine::scores::initial_scores(p, heuristic, opts.init_moms, perturb);
        let mut domain = if heuristic == Heuristic::Domain && any {
            Domain::new(p, &mut activity, opts.dom_mod)
        } else {
            None
        };
        let rank = domain.as_mut().map(Domain::take_fixed_levels).unwrap_or_default();
        let mut d = Decider {
            rank,
            heap: Vec::new(),
            pos: vec![ABSENT; nv],
            activity,
            inc: 1.0,
            decay: 1.0 / opts.decay,
            dynamic: matches!(heuristic, Heuristic::Activity | Heuristic::Domain | Heuristic::Berkmin),
            eligible,
            choice_start,
            choice,
            park: vec![Vec::new(); 2 * nv],
            parked: vec![false; 2 * nv],
            parked_on: vec![Lit::FALSE; nv],
            any,
            free,
            saved: save_progress.map(|over| Saved { values: vec![Lit::FALSE; nv], over, now: false }),
            signs: Signs::new(p, sign, opts.random.seed),
            domain,
            deferred: Vec::new(),
            followers,
            pops: 0,
            random: None,
        };
        debug_assert!((0.0..=1.0).contains(&opts.random.freq), "--rand-freq {}", opts.random.freq);
        if opts.random.freq > 0.0 && d.domain.is_none() {
            // A stream of its own: --sign-def=rnd draws from the seed's first.
            d.random = Some((opts.random.freq, Rng::stream(opts.random.seed, 1)));
        }
        for v in 0..nv as Var {
            d.insert(v);
        }
        d
    }

    fn choices(&self, v: Var) -> &[u32] {
        &self.choice[self.choice_start[v as usize] as usize..self.choice_start[v as usize + 1] as usize]
    }

    /// Puts `v` (back) into the heap if it can ever be a candidate.
    pub fn insert(&mut self, v: Var) {
        let vi = v as usize;
        if !self.eligible[vi] || self.pos[vi] != ABSENT {
            return;
        }
        self.pos[vi] = self.heap.len() as u32;
        self.heap.push((self.activity[vi], v));
        self.sift_up(self.heap.len() - 1);
    }

    /// Only the variables `keep` marks can be decisions from now on (the others always get their
    /// values from elsewhere, such as assumptions made before every decision); the heap is
    /// rebuilt from them.
    pub fn restrict(&mut self, keep: &[bool]) {
        for (e, &k) in self.eligible.iter_mut().zip(keep) {
            *e &= k;
        }
        self.rebuild_heap();
    }

    fn rebuild_heap(&mut self) {
        self.heap.clear();
        self.pos.fill(ABSENT);
        for v in 0..self.pos.len() as Var {
            self.insert(v);
        }
    }

    /// Takes over the scores and saved phases of `old`, a decider over a problem this one's
    /// extends (its variables come first); the heap is rebuilt.
    pub fn inherit(&mut self, old: &Decider) {
        let n = old.activity.len().min(self.activity.len());
        self.activity[..n].copy_from_slice(&old.activity[..n]);
        self.inc = old.inc;
        self.pops = old.pops;
        if let (Some(mine), Some(theirs)) = (self.random.as_mut(), old.random.as_ref()) {
            mine.1 = theirs.1;
        }
        if let (Some(mine), Some(theirs)) = (self.saved.as_mut(), old.saved.as_ref()) {
            mine.values[..n].copy_from_slice(&theirs.values[..n]);
        }
        self.rebuild_heap();
    }

    /// A literal became true: what was parked on it goes back to the heap if it is a candidate
    /// now, or waits for its next unassigned positive literal; choice heads of its bodies return.
    pub fn on_true(&mut self, p: &Problem, a: &Assignment, l: Lit) {
        if self.parked[l.index()] {
            self.parked[l.index()] = false;
            let woken = std::mem::take(&mut self.park[l.index()]);
            for &v in &woken {
                if self.parked_on[v as usize] != l {
                    continue; // parked elsewhere since
                }
                self.parked_on[v as usize] = Lit::FALSE;
                if !a.is_unassigned(v) {
                    continue;
                }
                match self.candidate(p, a, v) {
                    Ok(_) => self.insert(v),
                    Err(Some(on)) => self.park_on(v, on),
                    Err(None) => {}
                }
            }
            let mut woken = woken;
            woken.clear();
            if self.park[l.index()].is_empty() {
                self.park[l.index()] = woken;
            }
        }
        if self.any {
            return; // every variable is a candidate already
        }
        for &b in p.bodies.bodies_of(l) {
            for &h in p.bodies.choice_heads(b as usize) {
                self.insert(h);
            }
        }
    }

    /// Whether every variable is a candidate (deciding on variables, not on rules).
    pub fn on_variables(&self) -> bool {
        self.any
    }

    /// Whether the candidates are the rules' and the variables no rule decision assigns
    /// (`--decisions=mixed`).
    #[cfg(test)]
    pub fn is_mixed(&self) -> bool {
        !self.free.is_empty()
    }

    fn park_on(&mut self, v: Var, on: Lit) {
        self.park[on.index()].push(v);
        self.parked[on.index()] = true;
        self.parked_on[v as usize] = on;
    }

    /// `v`, whose true literal was `was`, became unassigned: back to the heap, unless it is
    /// parked on a literal that is still unassigned (then it is still not applicable).
    pub fn on_unassign(&mut self, a: &Assignment, v: Var, was: Lit) {
        if let Some(saved) = self.saved.as_mut().filter(|s| s.now) {
            saved.values[v as usize] = was;
        }
        let on = self.parked_on[v as usize];
        if on != Lit::FALSE && a.value(on) == 0 {
            return;
        }
        self.parked_on[v as usize] = Lit::FALSE;
        self.insert(v);
    }

    /// A backjump over `levels` levels begins: it saves the values it undoes if it is longer
    /// than `--save-progress`'s N.
    pub fn on_backjump(&mut self, levels: u32) {
        if let Some(saved) = &mut self.saved {
            saved.now = levels > saved.over;
        }
    }

    /// Whether something waits for `l` to become true.
    #[inline]
    pub fn has_parked(&self, l: Lit) -> bool {
        self.parked[l.index()]
    }

    /// Drops all parked entries and refills the heap (on restarts, to keep parking lists short).
    pub fn reset_parking(&mut self) {
        for list in &mut self.park {
            list.clear();
        }
        self.parked.fill(false);
        self.parked_on.fill(Lit::FALSE);
        for v in 0..self.pos.len() as Var {
            self.insert(v);
        }
    }

    /// The best applicable decision, or `None` when the heap holds no candidate.
    pub fn pick(&mut self, p: &Problem, a: &Assignment) -> Option<Lit> {
        // The domain heuristic's atoms of a positive level come first: those of a fixed level
        // in the heap's order, those of a level under a condition as `Domain::pick` finds them.
        let dynamic = self.domain.as_ref().and_then(|d| d.pick(a, &self.activity));
        while let Some(v) = self.pop() {
            if !a.is_unassigned(v) {
                continue;
            }
            if self.domain.as_ref().is_some_and(|d| d.level_of(a, v) < 0) {
                self.deferred.push(v);
                continue;
            }
            if let Some((d, level, sign)) = dynamic {
                let fixed = self.rank.get(v as usize).copied().unwrap_or(0);
                if (level, self.activity[d as usize]) > (fixed, self.activity[v as usize]) {
                    self.insert(v);
                    return Some(self.signed(d, sign));
                }
            }
            match self.candidate(p, a, v) {
                Ok(l) => return Some(l),
                Err(Some(on)) => {
                    self.park_on(v, on);
                }
                Err(None) => {}
            }
        }
        if let Some((d, _, sign)) = dynamic {
            return Some(self.signed(d, sign));
        }
        // Only atoms of a negative level are left: the highest level first, the most active
        // among equals.
        let d = self.domain.as_ref()?;
        let key = |v: Var| (d.level_of(a, v), self.activity[v as usize]);
        let v = self
            .deferred
            .iter()
            .copied()
            .filter(|&v| a.is_unassigned(v))
            .max_by(|&x, &y| key(x).partial_cmp(&key(y)).unwrap_or(std::cmp::Ordering::Equal))?;
        Some(self.signed(v, d.sign(a, v)))
    }

    /// `--rand-freq`: with its probability, a variable of the heap drawn at random, if the search
    /// may decide it now (unassigned; deciding on rules, an applicable rule's), with the value
    /// the search would give it. It stays in the heap, which skips it while it is assigned. Asked
    /// before every heuristic (lookahead's and BerkMin's too), as clasp does.
    pub fn random_pick(&mut self, p: &Problem, a: &Assignment) -> Option<Lit> {
        let (freq, rng) = self.random.as_mut()?;
        if self.heap.is_empty() || !rng.chance(*freq) {
            return None;
        }
        let v = self.heap[rng.below(self.heap.len())].1;
        if !a.is_unassigned(v) {
            return None;
        }
        self.candidate(p, a, v).ok()
    }

    /// A backtrack: the deferred atoms go back to the heap.
    pub fn on_backtrack(&mut self) {
        for v in std::mem::take(&mut self.deferred) {
            self.insert(v);
        }
    }

    /// The decision `v` offers, or where to park it (if anywhere).
    fn candidate(&self, p: &Problem, a: &Assignment, v: Var) -> Result<Lit, Option<Lit>> {
        if self.any {
            return Ok(self.signed(v, self.domain.as_ref().and_then(|d| d.sign(a, v))));
        }
        if self.free.get(v as usize) == Some(&true) {
            return Ok(self.saved_value(v).unwrap_or(Lit::neg(v)));
        }
        let bt = &p.bodies;
        let mut park = None;
        let l = Lit::pos(v);
        for &b in bt.bodies_of(l) {
            let b = b as usize;
            if !bt.has_heads(b) || bt.def(b).0 == [l] {
                continue;
            }
            match applicable(p, a, b) {
                Ok(()) => return Ok(l),
                Err(on) => park = park.or(on),
            }
        }
        if bt.bodies_of(Lit::neg(v)).iter().any(|&b| bt.has_heads(b as usize)) {
            return Ok(Lit::neg(v));
        }
        if self.choices(v).iter().any(|&b| a.is_true(bt.lit[b as usize])) {
            return Ok(Lit::pos(v));
        }
        Err(park)
    }

    /// The decision on `v` with the value a domain statement gives (`Some`), else its saved or
    /// default one.
    fn signed(&self, v: Var, sign: Option<bool>) -> Lit {
        match sign {
            Some(true) => Lit::pos(v),
            Some(false) => Lit::neg(v),
            None => self.saved_or_default(v),
        }
    }

    /// Whether `v` may be a decision (not a follower of an equivalent literal, nor left out by
    /// [`Decider::restrict`]).
    pub fn may_decide(&self, v: Var) -> bool {
        self.eligible[v as usize]
    }

    /// BerkMin's decision on `v` (deciding on variables): its saved value where it has one, else
    /// the value its occurrences in learned nogoods favour (`occ`: as `F v` less as `T v`; true
    /// where positive), else the default.
    pub fn decide_with_occurrences(&self, v: Var, occ: i32) -> Lit {
        match self.saved_value(v) {
            Some(l) => l,
            None if occ > 0 => Lit::pos(v),
            None if occ < 0 => Lit::neg(v),
            None => self.default_sign(v),
        }
    }

    /// The value `v` had before it was last unassigned (`--save-progress`), where it had one.
    fn saved_value(&self, v: Var) -> Option<Lit> {
        self.saved.as_ref().map(|s| s.values[v as usize]).filter(|&l| l != Lit::FALSE)
    }

    /// The value `v` had before it was last unassigned (`--save-progress`), else the default's.
    fn saved_or_default(&self, v: Var) -> Lit {
        self.saved_value(v).unwrap_or_else(|| self.default_sign(v))
    }

    /// `--sign-def`'s value for `v`.
    fn default_sign(&self, v: Var) -> Lit {
        self.signs.lit(v)
    }
}

/// Whether body `b`'s rule is applicable: its positive literals true and its negative literals
/// not false, enough of them to reach its bound. Otherwise an unassigned positive literal to wait
/// for, if there is one.
pub fn applicable(p: &Problem, a: &Assignment, b: usize) -> Result<(), Option<Lit>> {
    let (lits, ws) = p.bodies.def(b);
    let bound = p.bodies.bound[b];
    let mut sum = 0;
    let mut wait = None;
    for (&l, &w) in lits.iter().zip(ws) {
        let ok = if l.is_pos() { a.is_true(l) } else { !a.is_false(l) };
        if ok {
            sum += w;
        } else if wait.is_none() && l.is_pos() && a.value(l) == 0 {
            wait = Some(l);
        }
    }
    if sum >= bound { Ok(()) } else { Err(wait) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;
    use crate::nogoods::complete;
    use crate::stop::StopToken;

    /// `{a;b}. h :- a. c :- b, not a.`
    const PROGRAM: &str = "asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 1 1\n1 0 1 4 0 2 2 -1\n\
        4 1 a 1 1\n4 1 b 1 2\n4 1 h 1 3\n4 1 c 1 4\n0\n";

    #[test]
    fn the_asp_sign_decides_bodies_and_the_atoms_equivalent_to_bodies_true() {
        let opts = SearchOptions { decisions: Decisions::Vars, ..Default::default() };
        // Without equivalences: c is the body of its only rule, of two literals (the completion
        // gives both one variable); a, whole body of `h :- a`, is an atom still (as in clasp),
        // and b and h are atoms only.
        let p = complete(&read_program(PROGRAM.as_bytes()).unwrap(), &StopToken::never(), 0).unwrap();
        let d = Decider::new(&p, &opts);
        let signs: Vec<bool> = (1..=4).map(|v| d.saved_or_default(v).is_pos()).collect();
        assert_eq!(signs, [false, false, false, true]);
        // With them, h is equivalent to a: the class is decided false through its representative.
        let p = complete(&read_program(PROGRAM.as_bytes()).unwrap(), &StopToken::never(), 3).unwrap();
        let d = Decider::new(&p, &opts);
        let leader = [1, 3].into_iter().find(|&v| p.leader(v).is_none()).expect("a representative");
        assert!(p.leader(1).is_some() || p.leader(3).is_some(), "h and a are equivalent");
        assert!(!d.saved_or_default(leader).is_pos());
    }

    /// `--rand-freq=1`: every decision is of a variable drawn at random from the seed; at 0 the
    /// heuristic's, whatever the seed.
    #[test]
    fn random_decisions_follow_the_seed() {
        let atoms: Vec<String> = (1..=20).map(|v| v.to_string()).collect();
        let text = format!("asp 1 0 0\n1 1 20 {} 0 0\n0\n", atoms.join(" "));
        let p = complete(&read_program(text.as_bytes()).unwrap(), &StopToken::never(), 0).unwrap();
        let a = Assignment::new(p.num_vars);
        let first = |freq: f64, seed: u64| {
            let random = crate::solve::config::RandomDecisions { freq, seed };
            let opts = SearchOptions { decisions: Decisions::Vars, random, ..Default::default() };
            let mut d = Decider::new(&p, &opts);
            d.random_pick(&p, &a).or_else(|| d.pick(&p, &a)).expect("a decision")
        };
        let drawn: std::collections::HashSet<Lit> = (0..40).map(|seed| first(1.0, seed)).collect();
        assert!(drawn.len() >= 8, "40 seeds drew {drawn:?}");
        assert!(drawn.iter().all(|l| (1..=20).contains(&l.var())), "{drawn:?}");
        assert_eq!(first(1.0, 7), first(1.0, 7), "one seed, one draw");
        assert!((0..40).all(|seed| first(0.0, seed) == first(0.0, 0)), "no draws at 0");
    }

    #[test]
    fn progress_is_saved_by_backjumps_over_more_than_n_levels() {
        let opts = SearchOptions { decisions: Decisions::Vars, save_progress: Some(2), ..Default::default() };
        let p = complete(&read_program(PROGRAM.as_bytes()).unwrap(), &StopToken::never(), 0).unwrap();
        let mut d = Decider::new(&p, &opts);
        let a = Assignment::new(p.num_vars);
        // b (an atom only) is decided false unless a value was saved.
        d.on_backjump(2);
        d.on_unassign(&a, 2, Lit::pos(2));
        assert_eq!(d.saved_or_default(2), Lit::neg(2), "a backjump over 2 levels saves nothing");
        d.on_backjump(3);
        d.on_unassign(&a, 2, Lit::pos(2));
        assert_eq!(d.saved_or_default(2), Lit::pos(2));
    }

    /// Mixed decisions take the rules' candidates as the rules do, and also h, which no rule
    /// decision assigns (`h :- a` is applied through a): false, or its saved value.
    #[test]
    fn mixed_decisions_add_what_no_rule_decides_made_false() {
        let p = complete(&read_program(PROGRAM.as_bytes()).unwrap(), &StopToken::never(), 0).unwrap();
        let on = |decisions| SearchOptions { decisions, save_progress: Some(0), ..Default::default() };
        let a = Assignment::new(p.num_vars);
        let (mut mixed, rules) =
            (Decider::new(&p, &on(Decisions::Mixed)), Decider::new(&p, &on(Decisions::Rules)));
        assert!(mixed.is_mixed() && !rules.is_mixed());
        assert!(mixed.may_decide(3) && !rules.may_decide(3), "h is mixed's only");
        assert_eq!(mixed.candidate(&p, &a, 3), Ok(Lit::neg(3)));
        for v in [1, 2, 4] {
            assert!(rules.may_decide(v) && mixed.may_decide(v));
            assert_eq!(mixed.candidate(&p, &a, v), rules.candidate(&p, &a, v), "variable {v}");
        }
        mixed.on_backjump(1);
        mixed.on_unassign(&a, 3, Lit::pos(3));
        assert_eq!(mixed.candidate(&p, &a, 3), Ok(Lit::pos(3)), "the saved value");
    }

    /// Deciding on rules (a turn of `--decisions=alternate`), values are saved too, and a
    /// decider on variables that takes over decides with them.
    #[test]
    fn saved_values_outlast_a_turn_on_rules() {
        let p = complete(&read_program(PROGRAM.as_bytes()).unwrap(), &StopToken::never(), 0).unwrap();
        let on = |decisions| SearchOptions { decisions, save_progress: Some(0), ..Default::default() };
        let a = Assignment::new(p.num_vars);
        let mut vars = Decider::new(&p, &on(Decisions::Vars));
        vars.on_backjump(1);
        vars.on_unassign(&a, 2, Lit::pos(2));
        let mut rules = Decider::new(&p, &on(Decisions::Rules));
        rules.inherit(&vars);
        let mut again = Decider::new(&p, &on(Decisions::Vars));
        again.inherit(&rules);
        assert_eq!(again.saved_or_default(2), Lit::pos(2), "kept through the turn on rules");
        rules.on_backjump(1);
        rules.on_unassign(&a, 2, Lit::neg(2));
        again.inherit(&rules);
        assert_eq!(again.saved_or_default(2), Lit::neg(2), "saved on rules");
    }
}
