//! Whether a supported model of a program with head cycles is unfounded-free: no nonempty set
//! `X` of its true atoms is unfounded, which holds exactly when it is a minimal model of its
//! reduct (Leone, Rullo and Scarcello 1997). A small DPLL search of its own decides it, one cyclic
//! component at a time, sharing nothing with the solver's engines.
//!
//! `X ⊆ M` is unfounded when every rule `r` with a head `a ∈ X` fails to support `a` from outside
//! `X`: its body is false in `M`, or false in `M \ X` (through its positive atoms in `X`; for a
//! weight body, when the weights of those atoms exceed its slack in `M`), or another head of `r`
//! is true in `M` and not in `X` (disjunctive rules only). If some `X` is unfounded, so is its
//! part in a lowest component it meets (atoms of lower components are not in `X`), so checking
//! each cyclic component alone suffices; acyclic atoms are covered by supportedness. Externals
//! that are true or free are never unfounded.
//!
//! Encoding, per component `C`: a variable `x_a` for each true atom of `C` (`a ∈ X`), the clause
//! "some `x_a`", and per rule `r` and true head `a ∈ C` with a true body a constraint "if `x_a` and
//! `x_h` for each other true head `h` (all in `C`), then the weights of `r`'s positive true body
//! atoms in `X` reach `slack + 1`". A satisfying assignment is an unfounded set.

use crate::program::deps::{Dependencies, NO_SCC};
use crate::program::{Atom, Body, ExternalValue, HeadKind, Program, atom_of};
use crate::stop::{Interrupted, StopToken};
use std::collections::HashMap;

/// "If every premise variable is true, the true terms weigh at least `need`."
struct Constraint {
    premise: Vec<u32>,
    terms: Vec<(u32, i64)>,
    need: i64,
}

/// The constraints of one component over its variables (`atoms[i]` is `x_i`'s atom).
#[derive(Default)]
struct Component {
    atoms: Vec<Atom>,
    constraints: Vec<Constraint>,
}

/// A nonempty unfounded set of `m`'s true atoms, if there is one; `m` is a supported model.
pub fn check(
    program: &Program,
    m: &[bool],
    deps: &Dependencies,
    stop: &StopToken,
) -> Result<Option<Vec<Atom>>, Interrupted> {
    let mut founded = vec![false; m.len()];
    for (a, v) in program.effective_externals() {
        founded[a as usize] = matches!(v, ExternalValue::Free | ExternalValue::True);
    }
    // The variables: true cyclic atoms that are not true or free externals.
    let mut var: Vec<u32> = vec![u32::MAX; m.len()];
    let mut comps: HashMap<u32, Component> = HashMap::new();
    for a in 1..m.len() {
        let c = deps.scc[a];
        if m[a] && c != NO_SCC && !founded[a] {
            let comp = comps.entry(c).or_default();
            var[a] = comp.atoms.len() as u32;
            comp.atoms.push(a as Atom);
        }
    }
    let is_var = |a: Atom| var[a as usize] != u32::MAX;
    for (i, r) in program.rules().enumerate() {
        stop.check_every(i)?;
        if !r.head.iter().any(|&a| is_var(a)) || !super::body_holds(m, r.body) {
            continue;
        }
        let (terms, slack) = body_terms(r.body, m, |a| is_var(a).then(|| var[a as usize]));
        for &a in r.head {
            if !is_var(a) {
                continue;
            }
            let c = deps.scc[a as usize];
            let mut premise = vec![var[a as usize]];
            if r.kind == HeadKind::Disjunction {
                let others = r.head.iter().filter(|&&h| h != a && m[h as usize]);
                let mut outside = false;
                for &h in others {
                    if is_var(h) && deps.scc[h as usize] == c {
                        premise.push(var[h as usize]);
                    } else {
                        outside = true; // true, and never in X: r does not support a
                    }
                }
                if outside {
                    continue;
                }
            }
            // Terms in other components are never in X (a lowest component's X).
            let terms: Vec<(u32, i64)> = terms
                .iter()
                .filter(|&&(b, _)| deps.scc[b as usize] == c)
                .map(|&(b, w)| (var[b as usize], w))
                .collect();
            premise.sort_unstable();
            premise.dedup();
            comps.get_mut(&c).expect("a's component").constraints.push(Constraint {
                premise,
                terms,
                need: slack + 1,
            });
        }
    }
    let mut order: Vec<u32> = comps.keys().copied().collect();
    order.sort_unstable();
    for c in order {
        let comp = &comps[&c];
        if let Some(x) = Dpll::new(comp).solve(stop)? {
            let mut u: Vec<Atom> = x.into_iter().map(|i| comp.atoms[i as usize]).collect();
            u.sort_unstable();
            return Ok(Some(u));
        }
    }
    Ok(None)
}

/// The positive true atoms of a true body that may be in `X` (as atoms, with their weights), and
/// the body's slack in `M`: the weight it has above its bound.
fn body_terms(body: Body<'_>, m: &[bool], is_var: impl Fn(Atom) -> Option<u32>) -> (Vec<(Atom, i64)>, i64) {
    let (lits, weights, bound): (&[i32], Vec<i64>, i64) = match body {
        Body::Normal(l) => (l, vec![1; l.len()], l.len() as i64),
        Body::Weight { bound, lits, weights } => (lits, weights.to_vec(), bound),
    };
    let mut true_weight = 0;
    let mut terms = Vec::new();
    for (&l, &w) in lits.iter().zip(&weights) {
        let a = atom_of(l);
        if m[a as usize] != (l > 0) {
            continue;
        }
        true_weight += w;
        if l > 0 && w > 0 && is_var(a).is_some() {
            terms.push((a, w));
        }
    }
    (terms, true_weight - bound)
}

const UNSET: i8 = 0;

/// Chronological DPLL with propagation over the constraints; decisions try `x = true` first.
struct Dpll<'c> {
    comp: &'c Component,
    value: Vec<i8>,
    /// Per variable: the constraints it occurs in.
    occ: Vec<Vec<u32>>,
    trail: Vec<u32>,
    /// Trail length before each decision, the decision's variable, and whether it was flipped.
    decisions: Vec<(usize, u32, bool)>,
    /// Variables not false.
    alive: usize,
    head: usize,
    /// No variable below it is unassigned.
    cursor: usize,
}

impl<'c> Dpll<'c> {
    fn new(comp: &'c Component) -> Self {
        let n = comp.atoms.len();
        let mut occ: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, c) in comp.constraints.iter().enumerate() {
            for &v in c.premise.iter().chain(c.terms.iter().map(|(v, _)| v)) {
                if occ[v as usize].last() != Some(&(i as u32)) {
                    occ[v as usize].push(i as u32);
                }
            }
        }
        Dpll {
            comp,
            value: vec![UNSET; n],
            occ,
            trail: Vec::new(),
            decisions: Vec::new(),
            alive: n,
            head: 0,
            cursor: 0,
        }
    }

    fn assign(&mut self, v: u32, val: i8) {
        debug_assert_eq!(self.value[v as usize], UNSET);
        self.value[v as usize] = val;
        if val < 0 {
            self.alive -= 1;
        }
        self.trail.push(v);
    }

    /// Makes constraint `i` hold or forces what it needs; false on a conflict.
    fn visit(&mut self, i: usize) -> bool {
        let c = &self.comp.constraints[i];
        let mut open = None;
        let mut open_count = 0;
        for &v in &c.premise {
            match self.value[v as usize] {
                UNSET => {
                    open_count += 1;
                    open = Some(v);
                }
                x if x < 0 => return true,
                _ => {}
            }
        }
        let (mut have, mut could) = (0i64, 0i64);
        for &(v, w) in &c.terms {
            match self.value[v as usize] {
                UNSET => could += w,
                x if x > 0 => have += w,
                _ => {}
            }
        }
        if have >= c.need {
            return true;
        }
        match open_count {
            0 if have + could < c.need => false,
            0 => {
                let forced: Vec<u32> = c
                    .terms
                    .iter()
                    .filter(|&&(v, w)| self.value[v as usize] == UNSET && have + could - w < c.need)
                    .map(|&(v, _)| v)
                    .collect();
                for v in forced {
                    if self.value[v as usize] == UNSET {
                        self.assign(v, 1);
                    }
                }
                true
            }
            1 if have + could < c.need => {
                self.assign(open.expect("one open premise"), -1);
                true
            }
            _ => true,
        }
    }

    /// Propagates the trail from `head`; false on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let v = self.trail[self.head] as usize;
            self.head += 1;
            for k in 0..self.occ[v].len() {
                if !self.visit(self.occ[v][k] as usize) {
                    return false;
                }
            }
        }
        self.alive > 0
    }

    /// Undoes the last decision not yet flipped and assigns it the other way; false when none is
    /// left (the search space is exhausted).
    fn backtrack(&mut self) -> bool {
        while let Some((len, v, flipped)) = self.decisions.pop() {
            for &u in &self.trail[len..] {
                if self.value[u as usize] < 0 {
                    self.alive += 1;
                }
                self.value[u as usize] = UNSET;
                self.cursor = self.cursor.min(u as usize);
            }
            self.trail.truncate(len);
            self.head = len;
            if !flipped {
                self.decisions.push((len, v, true));
                self.assign(v, -1);
                return true;
            }
        }
        false
    }

    /// An unfounded set (its variables), or none.
    fn solve(mut self, stop: &StopToken) -> Result<Option<Vec<u32>>, Interrupted> {
        for i in 0..self.comp.constraints.len() {
            stop.check_every(i)?;
            if !self.visit(i) || self.alive == 0 {
                return Ok(None);
            }
        }
        let mut steps = 0usize;
        loop {
            steps += 1;
            stop.check_every(steps)?;
            if !self.propagate() {
                if !self.backtrack() {
                    return Ok(None);
                }
                continue;
            }
            while self.cursor < self.value.len() && self.value[self.cursor] != UNSET {
                self.cursor += 1;
            }
            match (self.cursor < self.value.len()).then_some(self.cursor as u32) {
                Some(v) => {
                    self.decisions.push((self.trail.len(), v, false));
                    self.assign(v, 1);
                }
                None if self.value.iter().any(|&x| x > 0) => {
                    return Ok(Some(
                        (0..self.value.len() as u32).filter(|&v| self.value[v as usize] > 0).collect(),
                    ));
                }
                None => {
                    if !self.backtrack() {
                        return Ok(None);
                    }
                }
            }
        }
    }
}
