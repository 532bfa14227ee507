//! The tester of one component with head cycles: a search, built once, for a model `M'` of the
//! reduct `P^M` with `M' ⊊ M` that differs from `M` only inside the component, asked once per
//! candidate `M` under assumptions that say what `M` is (as clasp and wasp check minimality).
//! What it learns about one candidate holds for every other: the assumptions are only decisions.
//!
//! Its program, for the component `C`:
//! - `x_a` for each `a` in `C` (`a` stays in `M'`), `m_a` (`a` is in `M`), and `o_b` for each atom
//!   `b` outside `C` that a rule with a head in `C` mentions (`b` is in `M`, and so in `M'`): all
//!   free choices, the `m` and `o` fixed by the assumptions;
//! - `:- x_a, not m_a.` (`M' ⊆ M`); `d_a :- m_a, not x_a.` and `:- not d_1, ..., not d_k.`
//!   (`M' ≠ M`);
//! - for each rule `H :- B` with a head in `C`, that `M'` satisfies its reduct: in `B'` a positive
//!   literal of `a` in `C` reads `x_a`, of `b` outside it `o_b`, and a negative one `not m_a` or
//!   `not o_b` (the reduct reads negation in `M`); `H'` likewise (`x_a`, `o_b`):
//!   `:- B', not H'.` A choice rule `{H} :- B` keeps `h :- B+` for each `h` of `H` in `M`:
//!   `:- B', m_h, not x_h.` for each `h` of `H` in `C`. Weight bodies keep their weights and
//!   bound, through an auxiliary atom that holds when they do.

use super::super::SolveError;
use super::super::search::{Next, Search};
use crate::engine::cpu::CpuEngine;
use crate::nogoods::{CompileError, Lit, complete};
use crate::program::{
    Atom, Body, BodyRef, HeadKind, Program, ProgramBuilder, ProgramSink, WeightLit, atom_of,
};
use crate::solve::config::{Decisions, SearchOptions};
use crate::stop::{Stop, StopToken};
use std::collections::HashMap;
use std::sync::Arc;

/// What the tester found for a candidate.
pub enum Smaller {
    /// The atoms of `M` in the component that the smaller model leaves out: an unfounded set.
    Found(Vec<Atom>),
    None,
    Interrupted(Stop),
}

/// A component with head cycles: its id in `scc` (per atom), its atoms (ascending), and its
/// rules (those with a head in it).
pub struct Component<'a> {
    pub id: u32,
    pub scc: &'a [u32],
    pub atoms: Vec<Atom>,
    pub rules: &'a [u32],
}

/// Invariant: tester atom `i + 1` is `x` of `atoms[i]`, `k + i + 1` its `m` (`k = atoms.len()`),
/// and `2k + j + 1` the `o` of `outside[j]`.
pub struct Tester {
    /// The component's atoms.
    atoms: Vec<Atom>,
    /// The atoms outside it that its rules mention.
    outside: Vec<Atom>,
    search: Search<'static>,
}

impl Tester {
    /// The tester of `component`; a stop if it was stopped while being built. Its cost follows
    /// the component, not the program.
    pub fn new(
        program: &Program,
        component: Component<'_>,
        search: &SearchOptions,
        eq_rounds: u32,
        stop: &StopToken,
    ) -> Result<Result<Tester, Stop>, SolveError> {
        let Component { id: c, scc, atoms, rules } = component;
        debug_assert!(atoms.windows(2).all(|w| w[0] < w[1]), "ascending atoms");
        let k = atoms.len() as u32;
        let in_c = |a: Atom| scc[a as usize] == c;
        let id = |a: Atom| atoms.binary_search(&a).expect("an atom of the component") as u32 + 1;
        // The atoms outside the component that the rules mention, numbered after `m`.
        let mut outside = Vec::new();
        let mut o: HashMap<Atom, u32> = HashMap::new();
        for &i in rules {
            let r = program.rule(i as usize);
            for a in r.head.iter().copied().chain(r.body.lits().iter().map(|&l| atom_of(l))) {
                if !in_c(a) && !o.contains_key(&a) {
                    outside.push(a);
                    o.insert(a, 2 * k + outside.len() as u32);
                }
            }
        }
        let x = |a: Atom| id(a) as i32;
        let m = |a: Atom| (id(a) + k) as i32;
        // A literal of the rule as the tester reads it.
        let read = |l: i32| {
            let a = atom_of(l);
            match (l > 0, in_c(a)) {
                (true, true) => x(a),
                (false, true) => -m(a),
                (true, false) => o[&a] as i32,
                (false, false) => -(o[&a] as i32),
            }
        };
        let mut b = ProgramBuilder::new(0);
        let _ = b.begin_step(false);
        let free: Vec<Atom> = (1..=2 * k + outside.len() as u32).collect();
        let _ = b.rule(HeadKind::Choice, &free, BodyRef::Normal(&[]));
        let mut next = free.len() as u32 + 1;
        let mut dropped = Vec::with_capacity(k as usize);
        for &a in &atoms {
            let _ = b.rule(HeadKind::Disjunction, &[], BodyRef::Normal(&[x(a), -m(a)]));
            let _ = b.rule(HeadKind::Disjunction, &[next], BodyRef::Normal(&[m(a), -x(a)]));
            dropped.push(-(next as i32));
            next += 1;
        }
        let _ = b.rule(HeadKind::Disjunction, &[], BodyRef::Normal(&dropped));
        let mut body: Vec<i32> = Vec::new();
        for &i in rules {
            let r = program.rule(i as usize);
            body.clear();
            match r.body {
                Body::Normal(lits) => body.extend(lits.iter().map(|&l| read(l))),
                Body::Weight { bound, lits, weights } => {
                    let terms: Vec<WeightLit> = lits
                        .iter()
                        .zip(weights)
                        .map(|(&l, &w)| WeightLit { lit: read(l), weight: w })
                        .collect();
                    let _ = b.rule(HeadKind::Disjunction, &[next], BodyRef::Weight { bound, lits: &terms });
                    body.push(next as i32);
                    next += 1;
                }
            }
            match r.kind {
                HeadKind::Disjunction => {
                    body.extend(r.head.iter().map(|&h| -read(h as i32)));
                    let _ = b.rule(HeadKind::Disjunction, &[], BodyRef::Normal(&body));
                }
                HeadKind::Choice => {
                    for &h in r.head.iter().filter(|&&h| in_c(h)) {
                        let mut c = body.clone();
                        c.extend([m(h), -x(h)]);
                        let _ = b.rule(HeadKind::Disjunction, &[], BodyRef::Normal(&c));
                    }
                }
            }
        }
        let _ = b.end_step();
        let q = b.into_program();
        debug_assert_eq!(q.atom_count(), next - 1, "the tester's atoms keep their numbers");
        let problem = match complete(&q, stop, eq_rounds) {
            Ok(p) => Arc::new(p),
            Err(CompileError::Interrupted(s)) => return Ok(Err(s)),
            Err(CompileError::Unsupported(why)) => {
                return Err(SolveError::Internal(format!("the minimality check's program: {why}")));
            }
        };
        // The tester's program is choices and constraints: it decides on variables; its
        // searches are short and many, so lookahead (a search's start) is not for them.
        let mut opts = search.clone();
        opts.decisions = Decisions::Vars;
        opts.lookahead = None;
        let Ok(mut engine) = CpuEngine::new_until(problem, &opts, stop) else {
            return Ok(Err(stop.reached().unwrap_or(Stop::Signal)));
        };
        // `m` and `o` are assumed before every decision, and the other atoms (`d`, those of weight
        // bodies) and the bodies follow from them and `x` by propagation (the program is tight):
        // only `x` is decided.
        engine.decide_only(1..=k);
        let search = Search::new(Box::new(engine), &opts, stop.clone());
        Ok(Ok(Tester { atoms, outside, search }))
    }

    /// What keeping the tester costs, in atoms: its assumptions, and 64 for the rest of a
    /// search (a tester of two atoms takes some 6 KB).
    pub fn size(&self) -> usize {
        self.atoms.len() + self.outside.len() + 64
    }

    /// The conflicts of the tester's search so far.
    pub fn conflicts(&mut self) -> u64 {
        self.search.engine.stats().conflicts
    }

    /// A model of `P^M` strictly inside `m` that differs from it only in the component, if there
    /// is one.
    pub fn smaller(&mut self, m: &[bool], stop: &StopToken) -> Result<Smaller, SolveError> {
        let k = self.atoms.len() as u32;
        let mut assumptions = Vec::with_capacity(self.atoms.len() + self.outside.len());
        for (i, &a) in self.atoms.iter().enumerate() {
            assumptions.push(Lit::new(k + i as u32 + 1, m[a as usize]));
        }
        for (j, &b) in self.outside.iter().enumerate() {
            assumptions.push(Lit::new(2 * k + j as u32 + 1, m[b as usize]));
        }
        self.search.stop = stop.clone();
        self.search.assume(assumptions)?;
        Ok(match self.search.next_model()? {
            Next::Model => {
                let mut v = Vec::new();
                self.search.engine.atom_values(&mut v).map_err(|e| SolveError::Engine(e.0))?;
                let dropped = self.atoms.iter().enumerate().filter(|&(i, &a)| m[a as usize] && !v[i + 1]);
                Smaller::Found(dropped.map(|(_, &a)| a).collect())
            }
            Next::Exhausted => Smaller::None,
            Next::Interrupted(s) => Smaller::Interrupted(s),
        })
    }
}
