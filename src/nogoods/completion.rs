//! Builds the completion of a program (Section 2 of the paper, with clasp's body variables):
//! normalised rules, one variable per distinct body, support and body nogoods, weight
//! constraints, cost levels and the loop structure the unfounded-set check needs.
//!
//! Rules are normalised first (`normal_rules.rs`): weight bodies are simplified (a bound every
//! literal meets alone becomes a disjunction, one that needs every literal a conjunction),
//! disjunctive heads are shifted (`a | b :- B` gives `a :- B, not b` and `b :- B, not a`; a weight body gets an auxiliary
//! atom first), externals become choices or facts, assumptions unit nogoods. The nogoods are then
//! substituted by equivalent literals (`equivalences.rs`) and simplified by the units (`units.rs`).

use super::bodies::{BodyTable, NONE};
use super::lit::{Lit, Var};
use super::minimize::CostLevels;
use super::normal_rules::{Builder, Key, keep_simplified};
use super::store::NogoodStore;
use super::translation::{self, ExtendedRules};
use super::{DomainModifier, GraphEdge, Problem, VarKind};
use super::{equivalences, units};
use crate::program::deps::{NO_SCC, cyclic_components};
use crate::program::{ExternalValue, HeadKind, Program};
use crate::stop::{Aside, Interrupted, Stop, StopToken};
use std::collections::{BTreeMap, HashMap};

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

/// [`complete_with`] the default handling of extended rules ([`ExtendedRules::default`]).
pub fn complete(program: &Program, stop: &StopToken, eq_rounds: u32) -> Result<Problem, CompileError> {
    complete_with(program, stop, eq_rounds, ExtendedRules::default(), false)
}

/// Compiles a program into nogoods and the tables the engines need, polling `stop` as it goes
/// (a large program takes seconds); equivalent literals are substituted in the nogoods in up to
/// `eq_rounds` rounds (`equivalences.rs`, clasp's `--eq`; 0: none), and extended rules are
/// translated as `extended` says (`translation.rs`, clasp's `--trans-ext`), small at-most-ones
/// spelled out as binary nogoods first where `pairs` says so (and `extended` translates).
pub fn complete_with(
    program: &Program,
    stop: &StopToken,
    eq_rounds: u32,
    extended: ExtendedRules,
    pairs: bool,
) -> Result<Problem, CompileError> {
    let n = program.atom_count();
    let mut bld = Builder::new(n);
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
        keep_simplified(std::mem::take(&mut nogoods[i]), &mut long, &mut units);
    }
    drop(nogoods);
    let mut equal_to = equivalences::substitute(&mut long, &mut units, bld.num_vars, eq_rounds, stop)?;
    units::simplify(&mut long, &mut units, bld.num_vars, stop)?;
    let mut paired = 0;
    if extended != ExtendedRules::Native {
        let (w, nb) = (&mut bld.weights, bld.bodies.len());
        if pairs {
            paired = translation::pair_at_most_one(w, &mut long, &mut units, &equal_to);
        }
        let counters =
            translation::translate_false_counts(w, &mut long, &mut units, &mut equal_to, bld.num_vars, n, nb);
        if counters > 0 {
            for _ in 0..counters {
                bld.new_var(VarKind::Counter);
            }
            supports.resize(bld.num_vars as usize, Vec::new());
        }
        if counters > 0 || paired > 0 {
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
        at_most_ones: paired as u32,
        eliminated: Default::default(),
    };
    debug_assert_eq!(problem.check_invariants(), Ok(()));
    Ok(problem)
}
