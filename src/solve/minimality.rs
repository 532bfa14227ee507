//! The minimality check for disjunctive programs with head cycles: a candidate `M` that passed
//! propagation is an answer set only if no `M' ⊊ M` is a model of the reduct `P^M`. Shifting
//! (and the unfounded-set propagation built on it) is exact only for head-cycle-free parts, so
//! for each component with a head cycle we ask, with a second search, for such an `M'` that
//! differs from `M` only inside the component (as clasp and wasp do).
//!
//! The check program has a choice `{a}` for each atom `a` of `M` in the component, and one
//! integrity constraint per rule of `P^M` with a head in the component: `:- B+, not h1, ...`.
//! A last constraint forbids `M' = M`. If it has an answer set `M'`, then `U = M \ M'` is
//! unfounded, and the loop nogood `{T a} + witnesses` (for every rule that could support `U`
//! from outside: a false body literal, or a true head outside `U`) is returned to be learned.
//!
//! The second search runs under the main search's stop token. A check it cuts short proves
//! nothing, and says so ([`Candidate::Interrupted`]): the candidate is then never reported.

use super::SolveError;
use super::search::{Candidate, CandidateCheck, Next, Search};
use crate::engine::cpu::CpuEngine;
use crate::nogoods::{CompileError, Lit, Problem, complete};
use crate::program::deps::NO_SCC;
use crate::program::{
    Atom, Body, BodyRef, HeadKind, Program, ProgramBuilder, ProgramSink, WeightLit, atom_of,
};
use crate::solve::config::SearchOptions;
use crate::stop::{Stop, StopToken};
use std::sync::Arc;

pub struct Minimality<'p> {
    program: &'p Program,
    scc: Vec<u32>,
    non_hcf: Vec<bool>,
    search: SearchOptions,
    /// Rounds of equivalence substitution in the check's programs (`--eq`; they run on the CPU
    /// engine).
    eq_rounds: u32,
    pub checks: u64,
}

impl<'p> Minimality<'p> {
    pub fn new(program: &'p Program, problem: &Problem, search: &SearchOptions, eq_rounds: u32) -> Self {
        let n = program.atom_count() as usize;
        Minimality {
            program,
            scc: problem.scc[..=n].to_vec(),
            non_hcf: problem.non_hcf.clone(),
            search: search.clone(),
            eq_rounds,
            checks: 0,
        }
    }

    /// Whether `m` is minimal in every component with a head cycle; if not, loop nogoods that
    /// exclude it.
    fn minimal(&mut self, m: &[bool], stop: &StopToken) -> Result<Candidate, SolveError> {
        for c in 0..self.non_hcf.len() as u32 {
            if !self.non_hcf[c as usize] {
                continue;
            }
            let inside: Vec<Atom> =
                (1..m.len() as Atom).filter(|&a| m[a as usize] && self.scc[a as usize] == c).collect();
            if inside.is_empty() {
                continue;
            }
            self.checks += 1;
            match self.smaller_model(m, c, &inside, stop)? {
                Smaller::Found(smaller) => {
                    let u: Vec<Atom> = inside.iter().copied().filter(|a| !smaller.contains(a)).collect();
                    return Ok(Candidate::Rejected(self.loop_nogoods(m, &u)));
                }
                Smaller::Interrupted(s) => return Ok(Candidate::Interrupted(s)),
                Smaller::None => {}
            }
        }
        Ok(Candidate::Accepted)
    }

    /// A model of `P^M` strictly inside `M` that differs only on `inside` (returned as the atoms
    /// of `inside` it keeps), if there is one.
    fn smaller_model(
        &self,
        m: &[bool],
        c: u32,
        inside: &[Atom],
        stop: &StopToken,
    ) -> Result<Smaller, SolveError> {
        let n = m.len();
        // Check-program atoms: 1..=k for `inside`, k+1.. for auxiliaries.
        let mut local = vec![0u32; n];
        for (i, &a) in inside.iter().enumerate() {
            local[a as usize] = i as u32 + 1;
        }
        let mut next_aux = inside.len() as u32 + 1;
        let mut b = ProgramBuilder::new(0);
        let _ = b.begin_step(false);
        let all: Vec<Atom> = (1..=inside.len() as Atom).collect();
        let _ = b.rule(HeadKind::Choice, &all, BodyRef::Normal(&[]));
        let in_c = |a: Atom| self.scc[a as usize] == c && c != NO_SCC;
        for r in self.program.rules() {
            if !r.head.iter().any(|&h| in_c(h))
                || r.kind == HeadKind::Choice && !r.head.iter().any(|&h| m[h as usize])
            {
                continue;
            }
            // Heads of the reduct rule that M' could still make true.
            let heads: Vec<Atom> = r.head.iter().copied().filter(|&h| m[h as usize]).collect();
            if r.kind == HeadKind::Disjunction && heads.iter().any(|&h| !in_c(h)) {
                continue; // a true head outside the component stays true in M'
            }
            // The positive part, as M' sees it: atoms outside the component keep M's value.
            let (bound, lits, weights): (i64, Vec<i32>, Vec<i64>) = match r.body {
                Body::Normal(l) => {
                    if l.iter().any(|&x| x < 0 && m[atom_of(x) as usize]) {
                        continue; // the reduct drops the rule
                    }
                    // Every literal counts 1; the true negative ones are subtracted below.
                    (l.len() as i64, l.to_vec(), vec![1; l.len()])
                }
                Body::Weight { bound, lits, weights } => (bound, lits.to_vec(), weights.to_vec()),
            };
            let mut need = bound;
            let mut terms: Vec<WeightLit> = Vec::new();
            for (&l, &w) in lits.iter().zip(&weights) {
                let a = atom_of(l) as usize;
                if l < 0 {
                    if !m[a] {
                        need -= w;
                    }
                } else if local[a] != 0 {
                    terms.push(WeightLit { lit: local[a] as i32, weight: w });
                } else if m[a] {
                    need -= w;
                }
            }
            if terms.iter().map(|t| t.weight).sum::<i64>() < need {
                continue; // the body cannot hold in any M' ⊆ M
            }
            let head_lits: Vec<i32> = match r.kind {
                HeadKind::Disjunction => heads.iter().map(|&h| -(local[h as usize] as i32)).collect(),
                HeadKind::Choice => Vec::new(),
            };
            let choice_heads: Vec<i32> = if r.kind == HeadKind::Choice {
                heads.iter().filter(|&&h| in_c(h)).map(|&h| -(local[h as usize] as i32)).collect()
            } else {
                vec![0]
            };
            let aux = next_aux;
            next_aux += 1;
            let _ = b.rule(HeadKind::Disjunction, &[aux], BodyRef::Weight { bound: need, lits: &terms });
            for &ch in &choice_heads {
                let mut body = vec![aux as i32];
                body.extend(&head_lits);
                if ch != 0 {
                    body.push(ch);
                }
                let _ = b.rule(HeadKind::Disjunction, &[], BodyRef::Normal(&body));
            }
        }
        let every: Vec<i32> = all.iter().map(|&a| a as i32).collect();
        let _ = b.rule(HeadKind::Disjunction, &[], BodyRef::Normal(&every));
        let _ = b.end_step();
        let q = b.into_program();
        let problem = match complete(&q, stop, self.eq_rounds) {
            Ok(p) => Arc::new(p),
            Err(CompileError::Interrupted(s)) => return Ok(Smaller::Interrupted(s)),
            Err(CompileError::Unsupported(why)) => {
                return Err(SolveError::Internal(format!("the minimality check's program: {why}")));
            }
        };
        let Ok(engine) = CpuEngine::new_until(problem, &self.search, stop) else {
            return Ok(Smaller::Interrupted(stop.reached().unwrap_or(Stop::Signal)));
        };
        let engine = Box::new(engine);
        let mut s = Search::new(engine, self.search.restarts, stop.clone());
        Ok(match s.next_model()? {
            Next::Model => {
                let v = s.engine.atom_values().map_err(|e| SolveError::Engine(e.0))?;
                Smaller::Found(inside.iter().enumerate().filter(|(i, _)| v[i + 1]).map(|(_, &a)| a).collect())
            }
            Next::Exhausted => Smaller::None,
            Next::Interrupted(s) => Smaller::Interrupted(s),
        })
    }

    /// `{T a} + witnesses` for each `a` in the unfounded set `u` (true in `m`).
    fn loop_nogoods(&self, m: &[bool], u: &[Atom]) -> Vec<Vec<Lit>> {
        let mut in_u = vec![false; m.len()];
        for &a in u {
            in_u[a as usize] = true;
        }
        let holds = |l: i32| m[atom_of(l) as usize] == (l > 0);
        let mut witnesses: Vec<Lit> = Vec::new();
        for r in self.program.rules() {
            if !r.head.iter().any(|&h| in_u[h as usize]) {
                continue;
            }
            let lits = r.body.lits();
            let internal = match r.body {
                Body::Normal(l) => l.iter().any(|&x| x > 0 && in_u[x as usize]),
                Body::Weight { bound, lits, weights } => {
                    lits.iter()
                        .zip(weights)
                        .filter(|(l, _)| !(**l > 0 && in_u[**l as usize]))
                        .map(|(_, w)| w)
                        .sum::<i64>()
                        < bound
                }
            };
            if internal {
                continue;
            }
            if r.kind == HeadKind::Disjunction
                && let Some(&h) = r.head.iter().find(|&&h| !in_u[h as usize] && m[h as usize])
            {
                witnesses.push(Lit::pos(h));
                continue;
            }
            // The body is false in M: its false literals (as true solver literals) witness it.
            let false_lits = lits.iter().filter(|&&l| !holds(l)).map(|&l| !Lit::from_program(l));
            match r.body {
                Body::Normal(_) => witnesses.extend(false_lits.take(1)),
                Body::Weight { .. } => witnesses.extend(false_lits),
            }
        }
        witnesses.sort_unstable();
        witnesses.dedup();
        u.iter()
            .map(|&a| {
                let mut ng = vec![Lit::pos(a)];
                ng.extend_from_slice(&witnesses);
                ng
            })
            .collect()
    }
}

impl CandidateCheck for Minimality<'_> {
    fn check(&mut self, atoms: &[bool], stop: &StopToken) -> Result<Candidate, SolveError> {
        self.minimal(atoms, stop)
    }
}

/// What the search for a smaller model found.
enum Smaller {
    /// The atoms of the component the smaller model keeps.
    Found(Vec<Atom>),
    None,
    Interrupted(Stop),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;
    use crate::stop::Stop;

    /// `a | b. a :- b. b :- a. c | d.`: {a, b, c} and {a, b, d} are the answer sets. The check of
    /// a candidate it has to search for stops when its token does, and accepts nothing then.
    #[test]
    fn an_interrupted_check_proves_nothing() {
        let text = "asp 1 0 0\n1 0 2 1 2 0 0\n1 0 1 1 0 1 2\n1 0 1 2 0 1 1\n1 0 2 3 4 0 0\n0\n";
        let program = read_program(text.as_bytes()).unwrap();
        let go = StopToken::default();
        let problem = complete(&program, &go, crate::nogoods::DEFAULT_EQ_ROUNDS).unwrap();
        let mut check = Minimality::new(&program, &problem, &SearchOptions::default(), 3);
        let m = [false, true, true, true, false];
        assert!(matches!(check.check(&m, &go), Ok(Candidate::Accepted)));
        let stopped = StopToken::default();
        stopped.stop(Stop::TimeLimit);
        assert!(matches!(check.check(&m, &stopped), Ok(Candidate::Interrupted(Stop::TimeLimit))));
    }
}
