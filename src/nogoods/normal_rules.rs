//! Rules normalised for the completion: one key per distinct body (conjunction, disjunction or
//! weighted sum, canonical), disjunctive heads shifted, and each body given its literal (a
//! variable of its own, an equivalent atom's, or none for a constraint's) and the nogoods or
//! weight constraint that define it.

use super::VarKind;
use super::lit::{Lit, Var};
use super::weights::{WeightConstraints, normalize};
use crate::program::Body;
use crate::stop::{DROP_ASIDE_FROM, Interrupted, StopToken, drop_aside};
use std::collections::HashMap;

/// A body in canonical form (sorted literals), the key under which equal bodies share a variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Key {
    /// All literals must hold.
    And(Vec<Lit>),
    /// At least one literal must hold (two or more literals).
    Or(Vec<Lit>),
    /// Weighted sum reaches the bound (sorted by literal).
    Sum(Vec<(Lit, i64)>, i64),
}

pub(super) struct BodyRec {
    pub(super) key: Key,
    pub(super) lit: Option<Lit>,
    pub(super) in_rule: bool,
    /// The condition of an `#edge`: it needs a variable even outside rules.
    pub(super) named: bool,
    pub(super) shift_base: u32,
}

pub(super) struct NormalRule {
    pub(super) head: Var,
    pub(super) choice: bool,
    pub(super) body: u32,
}

/// Invariant-free scratch of one compilation; a big one is freed aside ([`drop_aside`]).
pub(super) struct Builder {
    pub(super) num_vars: u32,
    pub(super) kinds: Vec<VarKind>,
    pub(super) keys: HashMap<Key, u32>,
    pub(super) bodies: Vec<BodyRec>,
    pub(super) rules: Vec<NormalRule>,
    pub(super) constraints: Vec<u32>,
    pub(super) nogoods: Vec<Vec<Lit>>,
    pub(super) units: Vec<Lit>,
    pub(super) weights: WeightConstraints,
}

impl Drop for Builder {
    fn drop(&mut self) {
        if self.bodies.len() + self.nogoods.len() >= DROP_ASIDE_FROM {
            drop_aside((
                std::mem::take(&mut self.keys),
                std::mem::take(&mut self.bodies),
                std::mem::take(&mut self.nogoods),
                std::mem::take(&mut self.rules),
            ));
        }
    }
}

impl Builder {
    /// A builder over the program's `atoms` atoms (variables `1..=atoms`).
    pub(super) fn new(atoms: u32) -> Self {
        let mut kinds = vec![VarKind::Constant];
        kinds.extend((0..atoms).map(|_| VarKind::Atom));
        Builder {
            num_vars: atoms + 1,
            kinds,
            keys: HashMap::new(),
            bodies: Vec::new(),
            rules: Vec::new(),
            constraints: Vec::new(),
            nogoods: Vec::new(),
            units: Vec::new(),
            weights: WeightConstraints::new(),
        }
    }

    pub(super) fn new_var(&mut self, kind: VarKind) -> Var {
        let v = self.num_vars;
        self.num_vars += 1;
        self.kinds.push(kind);
        v
    }

    pub(super) fn body(&mut self, key: Key) -> u32 {
        if let Some(&b) = self.keys.get(&key) {
            return b;
        }
        let b = self.bodies.len() as u32;
        self.bodies.push(BodyRec {
            key: key.clone(),
            lit: None,
            in_rule: false,
            named: false,
            shift_base: b,
        });
        self.keys.insert(key, b);
        b
    }

    /// The canonical key of a conjunction, or `None` when it contains a complementary pair.
    pub(super) fn and_key(mut lits: Vec<Lit>) -> Option<Key> {
        lits.retain(|&l| l != Lit::TRUE);
        lits.sort_unstable();
        lits.dedup();
        if lits.contains(&Lit::FALSE) || lits.windows(2).any(|w| w[0] == !w[1]) {
            return None;
        }
        Some(Key::And(lits))
    }

    /// The canonical key of a weight body, or `None` when it can never hold.
    pub(super) fn sum_key(terms: &[(Lit, i64)], bound: i64) -> Option<Key> {
        let (terms, bound) = normalize(terms, bound);
        if bound <= 0 {
            return Some(Key::And(Vec::new()));
        }
        let total: i64 = terms.iter().map(|t| t.1).sum();
        if total < bound {
            return None;
        }
        let lits: Vec<Lit> = terms.iter().map(|t| t.0).collect();
        if terms.iter().all(|t| t.1 >= bound) {
            return if lits.len() == 1 { Some(Key::And(lits)) } else { Some(Key::Or(lits)) };
        }
        if terms.iter().all(|t| total - t.1 < bound) {
            return Self::and_key(lits);
        }
        Some(Key::Sum(terms, bound))
    }

    pub(super) fn key_of(body: Body<'_>) -> Option<Key> {
        match body {
            Body::Normal(lits) => Self::and_key(lits.iter().map(|&l| Lit::from_program(l)).collect()),
            Body::Weight { bound, lits, weights } => {
                let terms: Vec<(Lit, i64)> =
                    lits.iter().zip(weights).map(|(&l, &w)| (Lit::from_program(l), w)).collect();
                Self::sum_key(&terms, bound)
            }
        }
    }

    pub(super) fn add_rule(&mut self, head: Var, choice: bool, body: u32) {
        self.bodies[body as usize].in_rule = true;
        self.rules.push(NormalRule { head, choice, body });
    }

    /// `h1 | ... | hk :- key` as k shifted normal rules.
    pub(super) fn add_disjunction(&mut self, heads: &[Var], key: Key) {
        let base_lits = match key {
            Key::And(lits) => lits,
            other => {
                let aux = self.new_var(VarKind::AuxAtom);
                let b = self.body(other);
                self.add_rule(aux, false, b);
                vec![Lit::pos(aux)]
            }
        };
        let base = self.body(Key::And(base_lits.clone()));
        self.bodies[base as usize].in_rule = true;
        for (i, &h) in heads.iter().enumerate() {
            let mut lits = base_lits.clone();
            lits.extend(heads.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &o)| Lit::neg(o)));
            if let Some(k) = Self::and_key(lits) {
                let b = self.body(k);
                if b != base {
                    self.bodies[b as usize].shift_base = base;
                }
                self.add_rule(h, false, b);
            }
        }
    }

    /// Bodies equivalent to an atom: the body's only rule is `a :- B` and `a` has no other
    /// support (clasp's atom-body equivalence). Such a body takes `T a` as its literal instead
    /// of a variable of its own.
    pub(super) fn equivalent_atoms(&self) -> Vec<Option<Var>> {
        let nb = self.bodies.len();
        let mut heads: Vec<(u32, Option<Var>)> = vec![(0, None); nb];
        let mut supports: Vec<u32> = vec![0; self.num_vars as usize];
        for r in &self.rules {
            let h = &mut heads[r.body as usize];
            h.0 += 1;
            h.1 = (!r.choice).then_some(r.head);
            supports[r.head as usize] += 1;
        }
        (0..nb)
            .map(|b| match (&self.bodies[b].key, heads[b]) {
                (Key::And(l), _) if l.len() <= 1 => None,
                (key, (1, Some(a))) if supports[a as usize] == 1 && !key_mentions(key, a) => Some(a),
                _ => None,
            })
            .collect()
    }

    /// Gives each body its literal and its defining nogoods or weight constraint.
    pub(super) fn define_bodies(&mut self, stop: &StopToken) -> Result<(), Interrupted> {
        let equivalent = self.equivalent_atoms();
        for (b, &eq) in equivalent.iter().enumerate() {
            stop.check_every(b)?;
            let in_rule = self.bodies[b].in_rule || self.bodies[b].named;
            let key = self.bodies[b].key.clone();
            let var_for = |bld: &mut Self| match eq {
                Some(a) => Lit::pos(a),
                None => Lit::pos(bld.new_var(VarKind::Body)),
            };
            let lit = match key {
                Key::And(lits) if lits.is_empty() => Some(Lit::TRUE),
                Key::And(lits) if lits.len() == 1 => Some(lits[0]),
                Key::And(lits) if in_rule => {
                    let v = var_for(self);
                    let mut def = vec![!v];
                    def.extend_from_slice(&lits);
                    self.nogoods.push(def);
                    for &l in &lits {
                        self.nogoods.push(vec![v, !l]);
                    }
                    Some(v)
                }
                Key::Or(lits) if in_rule => {
                    let v = var_for(self);
                    let mut def = vec![v];
                    def.extend(lits.iter().map(|&l| !l));
                    self.nogoods.push(def);
                    for &l in &lits {
                        self.nogoods.push(vec![!v, l]);
                    }
                    Some(v)
                }
                Key::Sum(terms, bound) if in_rule => {
                    let v = var_for(self);
                    self.weights.push(v, bound, terms);
                    Some(v)
                }
                Key::Sum(terms, bound) => {
                    let v = Lit::pos(self.new_var(VarKind::Body));
                    self.weights.push(v, bound, terms);
                    Some(v)
                }
                // Used by integrity constraints only: no variable needed.
                Key::And(_) | Key::Or(_) => None,
            };
            self.bodies[b].lit = lit;
        }
        for i in 0..self.constraints.len() {
            let b = &self.bodies[self.constraints[i] as usize];
            match (&b.key, b.lit) {
                (_, Some(l)) => self.nogoods.push(vec![l]),
                (Key::And(lits), None) => self.nogoods.push(lits.clone()),
                (Key::Or(lits), None) => self.nogoods.extend(lits.iter().map(|&l| vec![l])),
                (Key::Sum(..), None) => unreachable!("sum bodies always get a variable"),
            }
        }
        Ok(())
    }
}

/// Whether a body mentions variable `v`.
fn key_mentions(key: &Key, v: Var) -> bool {
    match key {
        Key::And(l) | Key::Or(l) => l.iter().any(|x| x.var() == v),
        Key::Sum(t, _) => t.iter().any(|x| x.0.var() == v),
    }
}

/// Adds the simplified `ng` ([`simplify`]) to `nogoods`, or to `units` where one literal or
/// none is left (none: `T0`, no solution).
pub(super) fn keep_simplified(ng: Vec<Lit>, nogoods: &mut Vec<Vec<Lit>>, units: &mut Vec<Lit>) {
    match simplify(ng) {
        None => {}
        Some(ng) if ng.len() <= 1 => units.push(ng.first().copied().unwrap_or(Lit::TRUE)),
        Some(ng) => nogoods.push(ng),
    }
}

/// Simplifies a nogood against the constant: drops `T0`, discards nogoods with `F0` or a
/// complementary pair. `None` means the nogood can never be violated.
pub(super) fn simplify(mut ng: Vec<Lit>) -> Option<Vec<Lit>> {
    ng.retain(|&l| l != Lit::TRUE);
    ng.sort_unstable();
    ng.dedup();
    if ng.contains(&Lit::FALSE) || ng.windows(2).any(|w| w[0] == !w[1]) {
        return None;
    }
    Some(ng)
}
