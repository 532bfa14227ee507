//! Builds the completion of a program (Section 2 of the paper, with clasp's body variables):
//! normalised rules, one variable per distinct body, support and body nogoods, weight
//! constraints, cost levels and the loop structure the unfounded-set check needs.
//!
//! Rules are normalised first: weight bodies are simplified (a bound every literal meets alone
//! becomes a disjunction, one that needs every literal a conjunction), disjunctive heads are
//! shifted (`a | b :- B` gives `a :- B, not b` and `b :- B, not a`; a weight body gets an auxiliary
//! atom first), externals become choices or facts, assumptions unit nogoods. The nogoods are then
//! substituted by equivalent literals (`equivalences.rs`) and simplified by the units (`units.rs`).

use super::bodies::{BodyTable, NONE};
use super::lit::{Lit, Var};
use super::minimize::CostLevels;
use super::store::NogoodStore;
use super::translation::{self, ExtendedRules};
use super::weights::{WeightConstraints, normalize};
use super::{DomainModifier, GraphEdge, Problem, VarKind};
use super::{equivalences, units};
use crate::program::deps::{NO_SCC, cyclic_components};
use crate::program::{Body, ExternalValue, HeadKind, Program};
use crate::stop::{Aside, DROP_ASIDE_FROM, Interrupted, Stop, StopToken, drop_aside};
use std::collections::{BTreeMap, HashMap};

/// A body in canonical form (sorted literals), the key under which equal bodies share a variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    /// All literals must hold.
    And(Vec<Lit>),
    /// At least one literal must hold (two or more literals).
    Or(Vec<Lit>),
    /// Weighted sum reaches the bound (sorted by literal).
    Sum(Vec<(Lit, i64)>, i64),
}

struct BodyRec {
    key: Key,
    lit: Option<Lit>,
    in_rule: bool,
    /// The condition of an `#edge`: it needs a variable even outside rules.
    named: bool,
    shift_base: u32,
}

struct NormalRule {
    head: Var,
    choice: bool,
    body: u32,
}

/// Invariant-free scratch of one compilation; a big one is freed aside ([`drop_aside`]).
struct Builder {
    num_vars: u32,
    kinds: Vec<VarKind>,
    keys: HashMap<Key, u32>,
    bodies: Vec<BodyRec>,
    rules: Vec<NormalRule>,
    constraints: Vec<u32>,
    nogoods: Vec<Vec<Lit>>,
    units: Vec<Lit>,
    weights: WeightConstraints,
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

/// Why a program was not compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompileError {
    /// It uses what yasmin cannot solve (yet): the caller reports it as an input error.
    Unsupported(String),
    /// The stop token stopped the compilation.
    Interrupted(Stop),
}

impl From<Interrupted> for CompileError {
    fn from(i: Interrupted) -> Self {
        CompileError::Interrupted(i.0)
    }
}

impl Builder {
    fn new_var(&mut self, kind: VarKind) -> Var {
        let v = self.num_vars;
        self.num_vars += 1;
        self.kinds.push(kind);
        v
    }

    fn body(&mut self, key: Key) -> u32 {
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
    fn and_key(mut lits: Vec<Lit>) -> Option<Key> {
        lits.retain(|&l| l != Lit::TRUE);
        lits.sort_unstable();
        lits.dedup();
        if lits.contains(&Lit::FALSE) || lits.windows(2).any(|w| w[0] == !w[1]) {
            return None;
        }
        Some(Key::And(lits))
    }

    /// The canonical key of a weight body, or `None` when it can never hold.
    fn sum_key(terms: &[(Lit, i64)], bound: i64) -> Option<Key> {
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

    fn key_of(body: Body<'_>) -> Option<Key> {
        match body {
            Body::Normal(lits) => Self::and_key(lits.iter().map(|&l| Lit::from_program(l)).collect()),
            Body::Weight { bound, lits, weights } => {
                let terms: Vec<(Lit, i64)> =
                    lits.iter().zip(weights).map(|(&l, &w)| (Lit::from_program(l), w)).collect();
                Self::sum_key(&terms, bound)
            }
        }
    }

    fn add_rule(&mut self, head: Var, choice: bool, body: u32) {
        self.bodies[body as usize].in_rule = true;
        self.rules.push(NormalRule { head, choice, body });
    }

    /// `h1 | ... | hk :- key` as k shifted normal rules.
    fn add_disjunction(&mut self, heads: &[Var], key: Key) {
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
    fn equivalent_atoms(&self) -> Vec<Option<Var>> {
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
    fn define_bodies(&mut self, stop: &StopToken) -> Result<(), Interrupted> {
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

fn cost_levels(program: &Program) -> CostLevels {
    let mut by_prio: BTreeMap<i32, HashMap<Lit, i64>> = BTreeMap::new();
    for m in program.minimize() {
        let level = by_prio.entry(m.priority).or_default();
        for w in &m.lits {
            *level.entry(Lit::from_program(w.lit)).or_insert(0) += w.weight;
        }
    }
    let mut levels = CostLevels { start: vec![0], ..Default::default() };
    for (&prio, lits) in by_prio.iter().rev() {
        let mut per_var: BTreeMap<Var, (i64, i64)> = BTreeMap::new();
        for (&l, &w) in lits {
            let e = per_var.entry(l.var()).or_insert((0, 0));
            if l.is_pos() { e.0 += w } else { e.1 += w }
        }
        let mut offset = 0i64;
        for (v, (wp, wn)) in per_var {
            let d = wp - wn;
            offset += if d > 0 { wn } else { wp };
            if d != 0 {
                levels.lits.push(if d > 0 { Lit::pos(v) } else { Lit::neg(v) });
                levels.weights.push(d.abs());
            }
        }
        levels.priorities.push(prio);
        levels.offset.push(offset);
        levels.start.push(levels.lits.len() as u32);
    }
    levels
}

/// Compiles a program into nogoods and the tables the engines need, polling `stop` as it goes
/// (a large program takes seconds); equivalent literals are substituted in the nogoods in up to
/// `eq_rounds` rounds (`equivalences.rs`, clasp's `--eq`; 0: none).
/// The completion with clasp's default handling of extended rules ([`ExtendedRules`]).
pub fn complete(program: &Program, stop: &StopToken, eq_rounds: u32) -> Result<Problem, CompileError> {
    complete_with(program, stop, eq_rounds, ExtendedRules::default())
}

/// The completion, with `eq_rounds` rounds of equivalent-literal substitution and extended rules
/// handled as `extended` says.
pub fn complete_with(
    program: &Program,
    stop: &StopToken,
    eq_rounds: u32,
    extended: ExtendedRules,
) -> Result<Problem, CompileError> {
    let n = program.atom_count();
    let mut kinds = vec![VarKind::Constant];
    kinds.extend((0..n).map(|_| VarKind::Atom));
    let mut bld = Builder {
        num_vars: n + 1,
        kinds,
        keys: HashMap::new(),
        bodies: Vec::new(),
        rules: Vec::new(),
        constraints: Vec::new(),
        nogoods: Vec::new(),
        units: Vec::new(),
        weights: WeightConstraints::new(),
    };
    for (i, r) in program.rules().enumerate() {
        stop.check_every(i)?;
        let Some(key) = Builder::key_of(r.body) else {
            continue;
        };
        if extended == ExtendedRules::Dynamic
            && r.kind == HeadKind::Disjunction
            && r.head.len() <= 1
            && let Key::Sum(terms, bound) = &key
            && let Some(conjunctions) = translation::spelled_out(terms, *bound)
        {
            for k in conjunctions.into_iter().filter_map(Builder::and_key) {
                let b = bld.body(k);
                match r.head.first() {
                    Some(&h) => bld.add_rule(h, false, b),
                    None => bld.constraints.push(b),
                }
            }
            continue;
        }
        match (r.kind, r.head.len()) {
            (HeadKind::Disjunction, 0) => {
                let b = bld.body(key);
                bld.constraints.push(b);
            }
            (HeadKind::Disjunction, 1) => {
                let b = bld.body(key);
                bld.add_rule(r.head[0], false, b);
            }
            (HeadKind::Disjunction, _) => {
                let mut heads: Vec<Var> = r.head.to_vec();
                heads.sort_unstable();
                heads.dedup();
                if heads.len() == 1 {
                    let b = bld.body(key);
                    bld.add_rule(heads[0], false, b);
                } else {
                    bld.add_disjunction(&heads, key);
                }
            }
            (HeadKind::Choice, _) => {
                let b = bld.body(key);
                for &h in r.head {
                    bld.add_rule(h, true, b);
                }
            }
        }
    }
    // Each edge's condition is a body with a variable of its own (clasp's edge literal).
    let mut nodes: HashMap<i32, u32> = HashMap::new();
    let mut edge_bodies = Vec::new();
    for e in program.edges() {
        let Some(key) = Builder::and_key(e.condition.iter().map(|&l| Lit::from_program(l)).collect()) else {
            continue; // a condition that never holds
        };
        let b = bld.body(key);
        bld.bodies[b as usize].named = true;
        let mut node = |n: i32| {
            let next = nodes.len() as u32;
            *nodes.entry(n).or_insert(next)
        };
        edge_bodies.push((node(e.u), node(e.v), b));
    }
    let empty = bld.body(Key::And(Vec::new()));
    for (a, v) in program.effective_externals() {
        match v {
            ExternalValue::Free => bld.add_rule(a, true, empty),
            ExternalValue::True => bld.add_rule(a, false, empty),
            ExternalValue::False | ExternalValue::Release => {}
        }
    }
    bld.define_bodies(stop)?;
    stop.check()?;
    let graph_edges: Vec<GraphEdge> = edge_bodies
        .iter()
        .map(|&(tail, head, b)| GraphEdge { tail, head, lit: bld.bodies[b as usize].lit.expect("named") })
        .collect();

    // Rule and support nogoods.
    let nv = bld.num_vars as usize;
    let mut supports = Aside::new(vec![Vec::<u32>::new(); nv], nv);
    for (i, r) in bld.rules.iter().enumerate() {
        stop.check_every(i)?;
        let bl = bld.bodies[r.body as usize].lit.expect("rule bodies have literals");
        supports[r.head as usize].push(r.body);
        if !r.choice {
            bld.nogoods.push(vec![bl, Lit::neg(r.head)]);
        }
    }
    for (v, s) in supports.iter_mut().enumerate().skip(1) {
        stop.check_every(v)?;
        if !bld.kinds[v].is_atom() {
            continue;
        }
        s.sort_unstable();
        s.dedup();
        let mut ng = vec![Lit::pos(v as Var)];
        ng.extend(s.iter().map(|&b| !bld.bodies[b as usize].lit.expect("rule body")));
        bld.nogoods.push(ng);
    }
    for l in program.assumptions() {
        bld.nogoods.push(vec![!Lit::from_program(l)]);
    }

    stop.check()?;
    let n_nogoods = bld.nogoods.len();
    let mut long = Aside::new(Vec::with_capacity(n_nogoods), n_nogoods);
    let mut units = std::mem::take(&mut bld.units);
    let mut nogoods = Aside::new(std::mem::take(&mut bld.nogoods), n_nogoods);
    for i in 0..n_nogoods {
        stop.check_every(i)?;
        match simplify(std::mem::take(&mut nogoods[i])) {
            None => {}
            Some(ng) if ng.is_empty() => units.push(Lit::TRUE),
            Some(ng) if ng.len() == 1 => units.push(ng[0]),
            Some(ng) => long.push(ng),
        }
    }
    drop(nogoods);
    let mut equal_to = equivalences::substitute(&mut long, &mut units, bld.num_vars, eq_rounds, stop)?;
    units::simplify(&mut long, &mut units, bld.num_vars, stop)?;
    if extended != ExtendedRules::Native {
        let (w, nb) = (&mut bld.weights, bld.bodies.len());
        let counters =
            translation::translate_false_counts(w, &mut long, &mut units, &mut equal_to, bld.num_vars, n, nb);
        if counters > 0 {
            for _ in 0..counters {
                bld.new_var(VarKind::Counter);
            }
            supports.resize(bld.num_vars as usize, Vec::new());
            units::simplify(&mut long, &mut units, bld.num_vars, stop)?;
        }
    }
    units.sort_unstable();
    units.dedup();
    let store = NogoodStore::build_until(long.into_inner(), units, bld.num_vars, stop)?;
    stop.check()?;

    // The body table, in body order.
    let mut table =
        BodyTable { def_start: vec![0], head_start: vec![0], choice_start: vec![0], ..Default::default() };
    let nb = bld.bodies.len();
    let mut heads = Aside::new(vec![Vec::<u32>::new(); nb], nb);
    let mut choice = Aside::new(vec![Vec::<u32>::new(); nb], nb);
    for r in &bld.rules {
        let list = if r.choice { &mut choice } else { &mut heads };
        list[r.body as usize].push(r.head);
    }
    let mut body_index = vec![NONE; bld.bodies.len()];
    for (b, rec) in bld.bodies.iter().enumerate() {
        stop.check_every(b)?;
        let Some(lit) = rec.lit else { continue };
        if !rec.in_rule {
            continue;
        }
        let id = table.lit.len() as u32;
        body_index[b] = id;
        table.lit.push(lit);
        let (lits, ws, bound): (Vec<Lit>, Vec<i64>, i64) = match &rec.key {
            Key::And(l) => (l.clone(), vec![1; l.len()], l.len() as i64),
            Key::Or(l) => (l.clone(), vec![1; l.len()], 1),
            Key::Sum(t, bound) => (t.iter().map(|x| x.0).collect(), t.iter().map(|x| x.1).collect(), *bound),
        };
        table.lits.extend(lits);
        table.weights.extend(ws);
        table.bound.push(bound);
        table.def_start.push(table.lits.len() as u32);
        table.heads.extend(&heads[b]);
        table.head_start.push(table.heads.len() as u32);
        table.choice_heads.extend(&choice[b]);
        table.choice_start.push(table.choice_heads.len() as u32);
        table.shift_base.push(rec.shift_base);
    }
    table.index_literals(bld.num_vars);
    stop.check()?;
    for sb in table.shift_base.iter_mut() {
        *sb = body_index[*sb as usize];
    }
    let mut support_start = vec![0u32];
    let mut support = Vec::new();
    for s in supports.iter() {
        support.extend(s.iter().map(|&b| body_index[b as usize]));
        support_start.push(support.len() as u32);
    }
    drop((supports, heads, choice));

    // Positive dependencies among atoms, for the unfounded-set check.
    let nv = bld.num_vars as usize;
    let mut edges = Aside::new(vec![Vec::<u32>::new(); nv], nv);
    for (i, r) in bld.rules.iter().enumerate() {
        stop.check_every(i)?;
        let b = body_index[r.body as usize] as usize;
        let (lits, _) = table.def(b);
        for &l in lits {
            if l.is_pos() && bld.kinds[l.var() as usize].is_atom() {
                edges[r.head as usize].push(l.var());
            }
        }
    }
    stop.check()?;
    let (scc, components) = cyclic_components(nv, |v| &edges[v], stop)?;
    drop(edges);
    stop.check()?;
    let mut non_hcf = vec![false; components as usize];
    let mut disjunctive = Vec::new();
    for r in program.rules() {
        if r.kind == HeadKind::Disjunction && r.head.len() > 1 {
            for (i, &a) in r.head.iter().enumerate() {
                let c = scc[a as usize];
                if c != NO_SCC && r.head[i + 1..].iter().any(|&o| o != a && scc[o as usize] == c) {
                    non_hcf[c as usize] = true;
                }
                if c != NO_SCC {
                    disjunctive.push(a);
                }
            }
        }
    }
    disjunctive.sort_unstable();
    disjunctive.dedup();
    let mut shown: Vec<Lit> = program
        .outputs()
        .filter_map(|o| match o.condition[..] {
            [l] => Some(Lit::from_program(l)),
            _ => None,
        })
        .collect();
    shown.sort_unstable();
    shown.dedup();

    let problem = Problem {
        num_vars: bld.num_vars,
        num_atoms: n,
        kinds: std::mem::take(&mut bld.kinds),
        store,
        weights: std::mem::take(&mut bld.weights),
        bodies: table,
        support_start,
        support,
        scc,
        components,
        non_hcf,
        equal_to,
        costs: cost_levels(program),
        heuristics: program
            .heuristics()
            .map(|h| DomainModifier {
                var: h.atom,
                modifier: h.modifier,
                value: h.bias,
                priority: h.priority,
                condition: h.condition.iter().map(|&l| Lit::from_program(l)).collect(),
            })
            .collect(),
        shown,
        disjunctive,
        edges: graph_edges,
        graph_nodes: nodes.len() as u32,
        symmetries: 0,
    };
    debug_assert_eq!(problem.check_invariants(), Ok(()));
    Ok(problem)
}
