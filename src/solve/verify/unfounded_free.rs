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
//!
//! The constraints' shape is the program's, made once ([`Prepared`]): one per rule and head in a
//! cyclic component, over that component's atoms. A model only decides which constraints apply
//! (the head and body true, no other true head outside `C`) and what each needs, so a check
//! allocates nothing and builds no index: consecutive models of an enumeration are checked at the
//! cost of their components' rules and the search.

use super::support::Support;
use crate::nogoods::Csr;
use crate::program::deps::Dependencies;
use crate::program::{Atom, Body, ExternalValue, HeadKind, Program};
use crate::stop::{Interrupted, StopToken};

/// Rule `rule`'s constraint for its head `head`: its premise is `head` and `others` (the other
/// heads in `head`'s component that may be unfounded), `outside` are the other heads that never
/// are (a true one means the rule does not support `head`), and `terms` its positive body atoms in
/// the component with their weights. `others`, `outside` and `terms` are ranges (start, end) of
/// [`Prepared`]'s flat arrays.
#[derive(Clone, Copy)]
struct Constraint {
    rule: u32,
    head: Atom,
    others: (u32, u32),
    outside: (u32, u32),
    terms: (u32, u32),
    /// Whether it may force a value before any is set: a weight body, or no terms. Where a
    /// normal body applies, its atoms are true, those in the component are all its terms, and
    /// they meet its need of 1 while none is out of `X`.
    first: bool,
}

/// What the check needs of a program, made once for all its models.
///
/// Invariant: the constraints of component `c` are `cons[comp_cons.get(c)]`, contiguous and in
/// the order of the components; every atom a constraint names (head, others, terms) is of its
/// component and [`Prepared::may_be`] unfounded.
pub struct Prepared {
    /// Per atom: whether it may be unfounded (cyclic, not a true or free external).
    may_be: Vec<bool>,
    /// The components with such atoms, ascending.
    comps: Vec<u32>,
    /// The rules that have a head in a cyclic component (as indices of the program's rules).
    rules: Vec<u32>,
    cons: Vec<Constraint>,
    others: Vec<Atom>,
    outside: Vec<Atom>,
    terms: Vec<(Atom, i64)>,
    /// Per component: its constraints (a range of `cons`, as its first and last-plus-one index).
    comp_cons: Vec<(u32, u32)>,
    /// Per component: its atoms that may be unfounded, in the order decisions take them (most
    /// occurrences first).
    comp_atoms: Csr<Atom>,
    /// Per atom: its place among its component's atoms.
    rank: Vec<u32>,
    /// Per atom: the constraints it is a premise of (as head or other head), which its joining
    /// `X` may make unit, and those it is a term of, which its leaving `X` may make unit.
    in_premise: Csr<u32>,
    in_terms: Csr<u32>,
}

impl Prepared {
    /// `externals` are the program's effective externals (`Program::effective_externals`).
    pub fn new(program: &Program, deps: &Dependencies, externals: &[(Atom, ExternalValue)]) -> Prepared {
        let n = program.atom_count() as usize;
        let (may_be, rules) = super::may_be_unfounded(program, deps, externals);
        let may = |a: Atom| may_be[a as usize];
        // (component, rule slot, head), sorted by component.
        let mut pairs: Vec<(u32, u32, Atom)> = Vec::new();
        for (slot, &r) in rules.iter().enumerate() {
            let mut heads: Vec<Atom> =
                program.rule(r as usize).head.iter().copied().filter(|&a| may(a)).collect();
            heads.sort_unstable();
            heads.dedup();
            pairs.extend(heads.into_iter().map(|a| (deps.scc[a as usize], slot as u32, a)));
        }
        pairs.sort_by_key(|&(c, _, _)| c);
        let mut atoms: Vec<Atom> = (1..=n as Atom).filter(|&a| may(a)).collect();
        let mut comps: Vec<u32> = atoms.iter().map(|&a| deps.scc[a as usize]).collect();
        comps.sort_unstable();
        comps.dedup();
        let mut p = Prepared {
            comp_cons: vec![(0, 0); deps.components as usize],
            comps,
            may_be,
            rules,
            cons: Vec::with_capacity(pairs.len()),
            others: Vec::new(),
            outside: Vec::new(),
            terms: Vec::new(),
            comp_atoms: Csr::default(),
            rank: vec![0; n + 1],
            in_premise: Csr::default(),
            in_terms: Csr::default(),
        };
        for &(c, slot, a) in &pairs {
            let r = program.rule(p.rules[slot as usize] as usize);
            let same = |h: Atom| deps.scc[h as usize] == c && p.may_be[h as usize];
            let (o, x, t) = (p.others.len() as u32, p.outside.len() as u32, p.terms.len() as u32);
            let mut others: Vec<Atom> = Vec::new();
            if r.kind == HeadKind::Disjunction {
                for &h in r.head.iter().filter(|&&h| h != a) {
                    if same(h) { others.push(h) } else { p.outside.push(h) }
                }
            }
            others.sort_unstable();
            others.dedup();
            p.others.extend(others);
            let lits = r.body.lits();
            let terms = (0..lits.len())
                .filter(|&i| lits[i] > 0 && r.body.weight(i) > 0 && same(lits[i] as Atom))
                .map(|i| (lits[i] as Atom, r.body.weight(i)));
            p.terms.extend(terms);
            if p.comp_cons[c as usize].1 == 0 {
                p.comp_cons[c as usize].0 = p.cons.len() as u32;
            }
            p.cons.push(Constraint {
                rule: slot,
                head: a,
                others: (o, p.others.len() as u32),
                outside: (x, p.outside.len() as u32),
                terms: (t, p.terms.len() as u32),
                first: matches!(r.body, Body::Weight { .. }) || t as usize == p.terms.len(),
            });
            p.comp_cons[c as usize].1 = p.cons.len() as u32;
        }
        let premises = (0..p.cons.len()).flat_map(|k| {
            let c = &p.cons[k];
            std::iter::once(c.head).chain(p.others_of(c).iter().copied()).map(move |b| (b as usize, k as u32))
        });
        let in_premise = Csr::from_pairs(n + 1, premises);
        // An atom that is a term twice lists its constraint twice: visiting it again changes
        // nothing.
        let terms = (0..p.cons.len())
            .flat_map(|k| p.terms_of(&p.cons[k]).iter().map(move |&(b, _)| (b as usize, k as u32)));
        let in_terms = Csr::from_pairs(n + 1, terms);
        let occ = |a: Atom| in_premise.get(a as usize).len() + in_terms.get(a as usize).len();
        atoms.sort_by_key(|&a| std::cmp::Reverse(occ(a)));
        p.comp_atoms = Csr::from_pairs(
            deps.components as usize,
            atoms.iter().map(|&a| (deps.scc[a as usize] as usize, a)),
        );
        (p.in_premise, p.in_terms) = (in_premise, in_terms);
        for c in 0..p.comp_atoms.len() {
            for (i, &a) in p.comp_atoms.get(c).iter().enumerate() {
                p.rank[a as usize] = i as u32;
            }
        }
        p
    }

    fn others_of(&self, c: &Constraint) -> &[Atom] {
        &self.others[c.others.0 as usize..c.others.1 as usize]
    }

    fn outside_of(&self, c: &Constraint) -> &[Atom] {
        &self.outside[c.outside.0 as usize..c.outside.1 as usize]
    }

    fn terms_of(&self, c: &Constraint) -> &[(Atom, i64)] {
        &self.terms[c.terms.0 as usize..c.terms.1 as usize]
    }
}

/// A value of the search: an atom of the component may be unfounded (`x_a`) and is open, in `X`
/// or out of it; or it is false in `M` (`ABSENT`: never in `X`, and as another head of a rule
/// it does not stop the rule from supporting).
const UNSET: i8 = 0;
const IN: i8 = 1;
const OUT: i8 = -1;
const ABSENT: i8 = 2;

/// The working memory of checks, kept from one model to the next so that a check allocates
/// nothing once its arrays have grown.
#[derive(Default)]
pub struct Scratch {
    /// Per constraint (of the component being checked): whether it applies in `M`, and the weight
    /// in `X` it then needs.
    need: Vec<Option<i64>>,
    /// Per atom (of the component being checked): its value.
    value: Vec<i8>,
    trail: Vec<Atom>,
    /// Trail length before each decision, the decision's atom, and whether it was flipped.
    decisions: Vec<(usize, Atom, bool)>,
}

/// A nonempty unfounded set of `m`'s true atoms, if there is one; `m` is a supported model of
/// the program `prepared` was made for, and `support` its counts, where they are kept (the
/// bodies' slacks are read there).
pub fn check(
    program: &Program,
    prepared: &Prepared,
    m: &[bool],
    stop: &StopToken,
    scratch: &mut Scratch,
    support: Option<&Support>,
) -> Result<Option<Vec<Atom>>, Interrupted> {
    let slack_of = |slot: u32| {
        let r = prepared.rules[slot as usize] as usize;
        support.map_or_else(|| super::slack(program.rule(r).body, m), |s| s.slack(r))
    };
    // A check begun after a stop says so, however small the program.
    stop.check()?;
    scratch.value.resize(m.len(), ABSENT);
    scratch.need.resize(prepared.cons.len(), None);
    for c in prepared.comps.iter().map(|&c| c as usize) {
        let atoms = prepared.comp_atoms.get(c);
        if !atoms.iter().any(|&a| m[a as usize]) {
            continue;
        }
        for &a in atoms {
            scratch.value[a as usize] = if m[a as usize] { UNSET } else { ABSENT };
        }
        let (from, to) = prepared.comp_cons[c];
        for k in from as usize..to as usize {
            stop.check_every(k)?;
            let con = &prepared.cons[k];
            let applies = m[con.head as usize] && prepared.outside_of(con).iter().all(|&h| !m[h as usize]);
            scratch.need[k] = if applies { slack_of(con.rule).map(|s| s + 1) } else { None };
        }
        let mut dpll = Dpll { p: prepared, s: &mut *scratch, comp: c, atoms, alive: 0, head: 0, cursor: 0 };
        if let Some(mut u) = dpll.solve(stop)? {
            u.sort_unstable();
            return Ok(Some(u));
        }
    }
    Ok(None)
}

/// Chronological DPLL over one component's atoms with propagation over its constraints;
/// decisions try `x = true` first.
struct Dpll<'p, 's> {
    p: &'p Prepared,
    s: &'s mut Scratch,
    comp: usize,
    /// The component's atoms that may be unfounded, in decision order.
    atoms: &'p [Atom],
    /// Atoms true in `M` and not yet out of `X`.
    alive: usize,
    head: usize,
    /// No atom before it in `atoms` is open.
    cursor: usize,
}

impl Dpll<'_, '_> {
    fn assign(&mut self, a: Atom, val: i8) {
        debug_assert_eq!(self.s.value[a as usize], UNSET);
        self.s.value[a as usize] = val;
        if val == OUT {
            self.alive -= 1;
        }
        self.s.trail.push(a);
    }

    /// Makes constraint `k` hold or forces what it needs; false on a conflict.
    #[inline(always)]
    fn visit(&mut self, k: usize) -> bool {
        let Some(need) = self.s.need[k] else { return true };
        let value = &self.s.value;
        let c = &self.p.cons[k];
        let (mut open, mut open_count) = match value[c.head as usize] {
            UNSET => (Some(c.head), 1),
            OUT => return true,
            _ => (None, 0),
        };
        for &a in self.p.others_of(c) {
            match value[a as usize] {
                UNSET => {
                    open_count += 1;
                    open = Some(a);
                }
                OUT => return true,
                _ => {}
            }
        }
        let (mut have, mut could) = (0i64, 0i64);
        let terms = self.p.terms_of(c);
        for &(a, w) in terms {
            match value[a as usize] {
                UNSET => could += w,
                IN => have += w,
                _ => {}
            }
        }
        if have >= need {
            return true;
        }
        match open_count {
            0 if have + could < need => false,
            0 => {
                for &(a, w) in terms {
                    if self.s.value[a as usize] == UNSET && have + could - w < need {
                        self.assign(a, IN);
                    }
                }
                true
            }
            1 if have + could < need => {
                self.assign(open.expect("one open premise"), OUT);
                true
            }
            _ => true,
        }
    }

    /// Propagates the trail from `head`; false on a conflict. An atom that joins `X` can only
    /// make a constraint it is a premise of unit, one that leaves it one it is a term of.
    fn propagate(&mut self) -> bool {
        while self.head < self.s.trail.len() {
            let a = self.s.trail[self.head] as usize;
            self.head += 1;
            let occ = if self.s.value[a] == IN { &self.p.in_premise } else { &self.p.in_terms };
            for &k in occ.get(a) {
                if !self.visit(k as usize) {
                    return false;
                }
            }
        }
        self.alive > 0
    }

    /// Undoes the last decision not yet flipped and assigns it the other way; false when none is
    /// left (the search space is exhausted).
    fn backtrack(&mut self) -> bool {
        while let Some((len, a, flipped)) = self.s.decisions.pop() {
            for &u in &self.s.trail[len..] {
                if self.s.value[u as usize] == OUT {
                    self.alive += 1;
                }
                self.s.value[u as usize] = UNSET;
                self.cursor = self.cursor.min(self.p.rank[u as usize] as usize);
            }
            self.s.trail.truncate(len);
            self.head = len;
            if !flipped {
                self.s.decisions.push((len, a, true));
                self.assign(a, OUT);
                return true;
            }
        }
        false
    }

    /// An unfounded set, or none. The component's values are set: open for its atoms true in
    /// `M`, absent for the others.
    fn solve(&mut self, stop: &StopToken) -> Result<Option<Vec<Atom>>, Interrupted> {
        self.s.trail.clear();
        self.s.decisions.clear();
        self.alive = self.atoms.iter().filter(|&&a| self.s.value[a as usize] == UNSET).count();
        let (from, to) = self.p.comp_cons[self.comp];
        for k in from as usize..to as usize {
            stop.check_every(k)?;
            if self.p.cons[k].first && !self.visit(k) || self.alive == 0 {
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
            let value = &self.s.value;
            while self.cursor < self.atoms.len() && value[self.atoms[self.cursor] as usize] != UNSET {
                self.cursor += 1;
            }
            match self.atoms.get(self.cursor).copied() {
                Some(a) => {
                    self.s.decisions.push((self.s.trail.len(), a, false));
                    self.assign(a, IN);
                }
                None if self.atoms.iter().any(|&a| value[a as usize] == IN) => {
                    return Ok(Some(
                        self.atoms.iter().copied().filter(|&a| value[a as usize] == IN).collect(),
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
    /// unfounded set is found exactly where a smaller model of the reduct exists, whether the
    /// bodies' slacks are computed or read from the kept support counts.
    #[test]
    fn unfounded_sets_are_found_where_a_smaller_model_exists() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let go = StopToken::default();
        let (mut founded, mut unfounded, mut with_support) = (0, 0, 0);
        // One scratch for all programs: a check must not depend on what the last one left.
        let mut scratch = Scratch::default();
        for _ in 0..1000 {
            let program = read_program(disjunctive_program(&mut rng, 6).as_bytes()).unwrap();
            let deps = Dependencies::new(&program);
            let externals = program.effective_externals();
            let prepared = Prepared::new(&program, &deps, &externals);
            let mut counts = Support::new(&program, &externals);
            let n = program.atom_count() as usize;
            for bits in 0u32..1 << n {
                let m: Vec<bool> = (0..=n).map(|a| a > 0 && bits >> (a - 1) & 1 == 1).collect();
                let kept = counts.as_mut().map(|s| s.update(&m));
                if !model_of_reduct(&program, &m, &m) || !supported(&program, &m) {
                    continue;
                }
                let smaller = smaller_model_exists(&program, &m, |_| true);
                let found = check(&program, &prepared, &m, &go, &mut scratch, None).unwrap();
                if kept == Some(true) {
                    let with_counts = check(&program, &prepared, &m, &go, &mut scratch, counts.as_ref());
                    assert_eq!(with_counts.unwrap(), found, "{m:?}: with the kept counts");
                    with_support += 1;
                }
                match found {
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
        assert!(with_support > 20, "{with_support} checks with the kept counts");
    }
}
