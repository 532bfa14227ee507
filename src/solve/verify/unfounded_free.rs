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

use crate::nogoods::Csr;
use crate::program::deps::{Dependencies, NO_SCC};
use crate::program::{Atom, Body, ExternalValue, HeadKind, Program, atom_of};
use crate::stop::{Interrupted, StopToken};

/// The constraints of one component over its variables (`atoms[i]` is `x_i`'s atom), stored
/// flat: constraint `k` says "if every variable of [`Component::premise`]`(k)` is true, the true
/// terms of [`Component::terms`]`(k)` weigh at least `need[k]`".
#[derive(Default)]
struct Component {
    atoms: Vec<Atom>,
    premises: Vec<u32>,
    premise_end: Vec<u32>,
    all_terms: Vec<(u32, i64)>,
    terms_end: Vec<u32>,
    need: Vec<i64>,
}

impl Component {
    fn len(&self) -> usize {
        self.need.len()
    }

    fn premise(&self, k: usize) -> &[u32] {
        let from = if k == 0 { 0 } else { self.premise_end[k - 1] as usize };
        &self.premises[from..self.premise_end[k] as usize]
    }

    fn terms(&self, k: usize) -> &[(u32, i64)] {
        let from = if k == 0 { 0 } else { self.terms_end[k - 1] as usize };
        &self.all_terms[from..self.terms_end[k] as usize]
    }

    /// Adds a constraint; `premise` is sorted and deduplicated here.
    fn push(&mut self, premise: &mut Vec<u32>, terms: impl Iterator<Item = (u32, i64)>, need: i64) {
        premise.sort_unstable();
        premise.dedup();
        self.premises.extend_from_slice(premise);
        self.premise_end.push(self.premises.len() as u32);
        self.all_terms.extend(terms);
        self.terms_end.push(self.all_terms.len() as u32);
        self.need.push(need);
    }
}

/// A nonempty unfounded set of `m`'s true atoms, if there is one; `m` is a supported model and
/// `externals` are the program's effective externals (`Program::effective_externals`).
pub fn check(
    program: &Program,
    m: &[bool],
    deps: &Dependencies,
    externals: &[(Atom, ExternalValue)],
    stop: &StopToken,
) -> Result<Option<Vec<Atom>>, Interrupted> {
    let mut founded = vec![false; m.len()];
    for &(a, v) in externals {
        founded[a as usize] = matches!(v, ExternalValue::Free | ExternalValue::True);
    }
    // The variables: true cyclic atoms that are not true or free externals; the components
    // that have some, in the order of their ids.
    let mut var: Vec<u32> = vec![u32::MAX; m.len()];
    let mut slot: Vec<u32> = vec![u32::MAX; deps.components as usize];
    let mut comps: Vec<(u32, Component)> = Vec::new();
    for a in 1..m.len() {
        let c = deps.scc[a];
        if m[a] && c != NO_SCC && !founded[a] {
            if slot[c as usize] == u32::MAX {
                slot[c as usize] = comps.len() as u32;
                comps.push((c, Component::default()));
            }
            let comp = &mut comps[slot[c as usize] as usize].1;
            var[a] = comp.atoms.len() as u32;
            comp.atoms.push(a as Atom);
        }
    }
    let is_var = |a: Atom| var[a as usize] != u32::MAX;
    let (mut terms, mut premise) = (Vec::new(), Vec::new());
    for (i, r) in program.rules().enumerate() {
        stop.check_every(i)?;
        if !r.head.iter().any(|&a| is_var(a)) || !super::body_holds(m, r.body) {
            continue;
        }
        let slack = body_terms(r.body, m, is_var, &mut terms);
        for &a in r.head {
            if !is_var(a) {
                continue;
            }
            let c = deps.scc[a as usize];
            premise.clear();
            premise.push(var[a as usize]);
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
            let in_c =
                terms.iter().filter(|&&(b, _)| deps.scc[b as usize] == c).map(|&(b, w)| (var[b as usize], w));
            comps[slot[c as usize] as usize].1.push(&mut premise, in_c, slack + 1);
        }
    }
    comps.sort_unstable_by_key(|&(c, _)| c);
    for (_, comp) in &comps {
        if let Some(x) = Dpll::new(comp).solve(stop)? {
            let mut u: Vec<Atom> = x.into_iter().map(|i| comp.atoms[i as usize]).collect();
            u.sort_unstable();
            return Ok(Some(u));
        }
    }
    Ok(None)
}

/// The positive true atoms of a true body that may be in `X` (into `terms`, as atoms, with their
/// weights), and the body's slack in `M`: the weight it has above its bound.
fn body_terms(
    body: Body<'_>,
    m: &[bool],
    is_var: impl Fn(Atom) -> bool,
    terms: &mut Vec<(Atom, i64)>,
) -> i64 {
    terms.clear();
    let (bound, weights): (i64, &[i64]) = match body {
        Body::Normal(l) => (l.len() as i64, &[]),
        Body::Weight { bound, weights, .. } => (bound, weights),
    };
    let mut true_weight = 0;
    for (i, &l) in body.lits().iter().enumerate() {
        let w = weights.get(i).copied().unwrap_or(1);
        let a = atom_of(l);
        if m[a as usize] != (l > 0) {
            continue;
        }
        true_weight += w;
        if l > 0 && w > 0 && is_var(a) {
            terms.push((a, w));
        }
    }
    true_weight - bound
}

const UNSET: i8 = 0;

/// Chronological DPLL with propagation over the constraints; decisions try `x = true` first.
struct Dpll<'c> {
    comp: &'c Component,
    value: Vec<i8>,
    /// Per variable: the constraints it occurs in.
    occ: Csr<u32>,
    trail: Vec<u32>,
    /// Trail length before each decision, the decision's variable, and whether it was flipped.
    decisions: Vec<(usize, u32, bool)>,
    /// Variables not false.
    alive: usize,
    head: usize,
    /// The variables in the order decisions take them: the most constrained (most occurrences)
    /// first, and each one's place in it.
    order: Vec<u32>,
    rank: Vec<u32>,
    /// No variable before it in `order` is unassigned.
    cursor: usize,
}

impl<'c> Dpll<'c> {
    fn new(comp: &'c Component) -> Self {
        let n = comp.atoms.len();
        // A variable in both a premise and the terms lists its constraint twice: visiting it
        // again changes nothing.
        let pairs = (0..comp.len()).flat_map(|k| {
            let vars = comp.premise(k).iter().copied().chain(comp.terms(k).iter().map(|&(v, _)| v));
            vars.map(move |v| (v as usize, k as u32))
        });
        let occ = Csr::from_pairs(n, pairs);
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_by_key(|&v| std::cmp::Reverse(occ.get(v as usize).len()));
        let mut rank = vec![0u32; n];
        for (i, &v) in order.iter().enumerate() {
            rank[v as usize] = i as u32;
        }
        Dpll {
            comp,
            value: vec![UNSET; n],
            occ,
            trail: Vec::new(),
            decisions: Vec::new(),
            alive: n,
            head: 0,
            order,
            rank,
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
        let comp = self.comp;
        let (premise, terms, need) = (comp.premise(i), comp.terms(i), comp.need[i]);
        let mut open = None;
        let mut open_count = 0;
        for &v in premise {
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
        for &(v, w) in terms {
            match self.value[v as usize] {
                UNSET => could += w,
                x if x > 0 => have += w,
                _ => {}
            }
        }
        if have >= need {
            return true;
        }
        match open_count {
            0 if have + could < need => false,
            0 => {
                for &(v, w) in terms {
                    if self.value[v as usize] == UNSET && have + could - w < need {
                        self.assign(v, 1);
                    }
                }
                true
            }
            1 if have + could < need => {
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
            for k in 0..self.occ.get(v).len() {
                if !self.visit(self.occ.get(v)[k] as usize) {
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
                self.cursor = self.cursor.min(self.rank[u as usize] as usize);
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
        for i in 0..self.comp.len() {
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
            while self.cursor < self.order.len() && self.value[self.order[self.cursor] as usize] != UNSET {
                self.cursor += 1;
            }
            match self.order.get(self.cursor).copied() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;
    use crate::program::random::{Rng, disjunctive_program, model_of_reduct, smaller_model_exists};

    /// Whether every true atom of `m` has a rule whose body holds and whose other heads are false
    /// (any head of a choice rule).
    fn supported(program: &Program, m: &[bool]) -> bool {
        (1..m.len()).filter(|&a| m[a]).all(|a| {
            program.rules().any(|r| {
                r.head.contains(&(a as Atom))
                    && super::super::body_holds(m, r.body)
                    && (r.kind == HeadKind::Choice
                        || r.head.iter().all(|&h| h as usize == a || !m[h as usize]))
            })
        })
    }

    /// Random programs with disjunctive and choice heads, six atoms: on every supported model, an
    /// unfounded set is found exactly where a smaller model of the reduct exists.
    #[test]
    fn unfounded_sets_are_found_where_a_smaller_model_exists() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let go = StopToken::default();
        let (mut founded, mut unfounded) = (0, 0);
        for _ in 0..300 {
            let program = read_program(disjunctive_program(&mut rng, 6).as_bytes()).unwrap();
            let deps = Dependencies::new(&program);
            let externals = program.effective_externals();
            let n = program.atom_count() as usize;
            for bits in 0u32..1 << n {
                let m: Vec<bool> = (0..=n).map(|a| a > 0 && bits >> (a - 1) & 1 == 1).collect();
                if !model_of_reduct(&program, &m, &m) || !supported(&program, &m) {
                    continue;
                }
                let smaller = smaller_model_exists(&program, &m, |_| true);
                match check(&program, &m, &deps, &externals, &go).unwrap() {
                    Some(u) => {
                        assert!(smaller, "{m:?}: {u:?} unfounded");
                        assert!(u.iter().all(|&a| m[a as usize]));
                        unfounded += 1;
                    }
                    None => {
                        assert!(!smaller, "{m:?}: no unfounded set found");
                        founded += 1;
                    }
                }
            }
        }
        assert!(founded > 100 && unfounded > 20, "{founded} answer sets, {unfounded} not");
    }
}
