//! The minimality check for disjunctive programs with head cycles: a candidate `M` that passed
//! propagation is an answer set only if no `M' ⊊ M` is a model of the reduct `P^M`. Shifting
//! (and the unfounded-set propagation built on it) is exact only for head-cycle-free parts, so
//! for each component with a head cycle we ask a tester (`tester.rs`: a second search, built
//! once per component and asked under assumptions, as clasp and wasp do) for such an `M'` that
//! differs from `M` only inside the component. If there is one, `U = M \ M'` is unfounded, and
//! the loop nogood `{T a} + witnesses` (for every rule that could support `U` from outside: a
//! false body literal, or a true head outside `U`) is returned to be learned.
//!
//! The testers run under the main search's stop token. A check cut short proves nothing, and
//! says so ([`Candidate::Interrupted`]): the candidate is then never reported.

mod tester;

use super::SolveError;
use super::search::{Candidate, CandidateCheck};
use crate::engine::EngineStats;
use crate::nogoods::{Csr, Lit, Problem};
use crate::program::deps::NO_SCC;
use crate::program::{Atom, Body, HeadKind, Program, atom_of};
use crate::solve::config::SearchOptions;
use crate::stop::StopToken;
use tester::{Component, Smaller, Tester};

/// The literals of the loop nogoods that one rejected candidate adds, beyond the first nogood.
pub const LOOP_LITERALS: usize = 1 << 14;

/// The testers kept, by `Tester::size`: a program with very many components with head cycles
/// keeps the first ones' testers; the others are built for each candidate, used and dropped.
pub const KEPT_TESTERS: usize = 1 << 20;

pub struct Minimality<'p> {
    program: &'p Program,
    scc: Vec<u32>,
    non_hcf: Vec<bool>,
    /// Per component with head cycles: its atoms (ascending), and the rules with a head in it.
    atoms: Csr<Atom>,
    rules: Csr<u32>,
    search: SearchOptions,
    /// Rounds of equivalence substitution in the check's programs (`--eq`; they run on the CPU
    /// engine).
    eq_rounds: u32,
    /// Each component's tester, once it was first needed (while `keep`, [`KEPT_TESTERS`] but in
    /// tests, allows), their size, and the conflicts of those dropped after their question.
    testers: Vec<Option<Tester>>,
    kept: usize,
    keep: usize,
    dropped_conflicts: u64,
    /// Components checked (a candidate with atoms in several is checked once for each).
    checks: u64,
}

impl<'p> Minimality<'p> {
    pub fn new(program: &'p Program, problem: &Problem, search: &SearchOptions, eq_rounds: u32) -> Self {
        let n = program.atom_count() as usize;
        let scc = &problem.scc[..=n];
        let checked = |a: Atom| scc[a as usize] != NO_SCC && problem.non_hcf[scc[a as usize] as usize];
        let comps = problem.non_hcf.len();
        let atoms = Csr::from_pairs(
            comps,
            (1..=n as Atom).filter(|&a| checked(a)).map(|a| (scc[a as usize] as usize, a)),
        );
        let mut pairs = Vec::new();
        for (i, r) in program.rules().enumerate() {
            let mut cs: Vec<u32> = r.head.iter().filter(|&&h| checked(h)).map(|&h| scc[h as usize]).collect();
            cs.sort_unstable();
            cs.dedup();
            pairs.extend(cs.into_iter().map(|c| (c as usize, i as u32)));
        }
        let rules = Csr::from_pairs(comps, pairs.into_iter());
        Minimality {
            program,
            scc: scc.to_vec(),
            non_hcf: problem.non_hcf.clone(),
            atoms,
            rules,
            search: search.clone(),
            eq_rounds,
            testers: (0..problem.non_hcf.len()).map(|_| None).collect(),
            kept: 0,
            keep: KEPT_TESTERS,
            dropped_conflicts: 0,
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
            if !self.atoms.get(c as usize).iter().any(|&a| m[a as usize]) {
                continue;
            }
            self.checks += 1;
            match self.smaller_model(m, c, stop)? {
                Smaller::Found(u) => return Ok(Candidate::Rejected(self.loop_nogoods(m, c, &u))),
                Smaller::Interrupted(s) => return Ok(Candidate::Interrupted(s)),
                Smaller::None => {}
            }
        }
        Ok(Candidate::Accepted)
    }

    /// A model of `P^M` strictly inside `M` that differs from it only in component `c`, from the
    /// component's tester (built at its first question, and kept if [`KEPT_TESTERS`] allows).
    fn smaller_model(&mut self, m: &[bool], c: u32, stop: &StopToken) -> Result<Smaller, SolveError> {
        let c = c as usize;
        if self.testers[c].is_none() {
            let component = Component {
                id: c as u32,
                scc: &self.scc,
                atoms: self.atoms.get(c).to_vec(),
                rules: self.rules.get(c),
            };
            let mut t = match Tester::new(self.program, component, &self.search, self.eq_rounds, stop)? {
                Ok(t) => t,
                Err(s) => return Ok(Smaller::Interrupted(s)),
            };
            if self.kept + t.size() > self.keep {
                let found = t.smaller(m, stop);
                self.dropped_conflicts += t.conflicts();
                return found;
            }
            self.kept += t.size();
            self.testers[c] = Some(t);
        }
        self.testers[c].as_mut().expect("built above").smaller(m, stop)
    }

    /// `{T a} + witnesses` for the first atoms `a` of the unfounded set `u` (true in `m`, inside
    /// component `c`), as many as [`LOOP_LITERALS`] allow, and at least one.
    fn loop_nogoods(&self, m: &[bool], c: u32, u: &[Atom]) -> Vec<Vec<Lit>> {
        let mut in_u = vec![false; m.len()];
        for &a in u {
            in_u[a as usize] = true;
        }
        let holds = |l: i32| m[atom_of(l) as usize] == (l > 0);
        let mut witnesses: Vec<Lit> = Vec::new();
        for &i in self.rules.get(c as usize) {
            let r = self.program.rule(i as usize);
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
        // One nogood excludes the candidate (every atom of U is true in it); more prune more, up
        // to a budget of literals (for a large U with many witnesses, |U| of them would cost
        // more to add and to watch than they save).
        let per = witnesses.len() + 1;
        let count = (LOOP_LITERALS / per).clamp(1, u.len());
        u[..count]
            .iter()
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

    fn add_stats(&mut self, st: &mut EngineStats) {
        st.minimality_checks += self.checks;
        st.minimality_conflicts +=
            self.dropped_conflicts + self.testers.iter_mut().flatten().map(|t| t.conflicts()).sum::<u64>();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;
    use crate::program::random::{Rng, disjunctive_program, model_of_reduct, smaller_model_exists};
    use crate::stop::Stop;

    /// `a | b. a :- b. b :- a. c | d.`: {a, b, c} and {a, b, d} are the answer sets. The check of
    /// a candidate it has to search for stops when its token does, and accepts nothing then.
    #[test]
    fn an_interrupted_check_proves_nothing() {
        let text = "asp 1 0 0\n1 0 2 1 2 0 0\n1 0 1 1 0 1 2\n1 0 1 2 0 1 1\n1 0 2 3 4 0 0\n0\n";
        let program = read_program(text.as_bytes()).unwrap();
        let go = StopToken::default();
        let problem = crate::nogoods::complete(&program, &go, crate::nogoods::DEFAULT_EQ_ROUNDS).unwrap();
        let mut check = Minimality::new(&program, &problem, &SearchOptions::default(), 3);
        let m = [false, true, true, true, false];
        assert!(matches!(check.check(&m, &go), Ok(Candidate::Accepted)));
        let stopped = StopToken::default();
        stopped.stop(Stop::TimeLimit);
        assert!(matches!(check.check(&m, &stopped), Ok(Candidate::Interrupted(Stop::TimeLimit))));
    }

    /// Random programs of normal rules with disjunctive and choice heads, six atoms: one checker
    /// per program, asked about every model of it in turn (its testers keep what they learned
    /// from one to the next, or for a third of the programs are dropped after each question, and
    /// some checks are interrupted on the way), agrees with trying every smaller set.
    #[test]
    fn a_tester_asked_again_and_again_agrees_with_brute_force() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let go = StopToken::default();
        let stopped = StopToken::default();
        stopped.stop(Stop::Signal);
        let (mut programs, mut accepted, mut rejected) = (0, 0, 0);
        while programs < 60 {
            let text = disjunctive_program(&mut rng, 6);
            let program = read_program(text.as_bytes()).unwrap();
            let problem = crate::nogoods::complete(&program, &go, 0).unwrap();
            let n = program.atom_count() as usize;
            let cyclic: Vec<u32> =
                (0..problem.non_hcf.len() as u32).filter(|&c| problem.non_hcf[c as usize]).collect();
            if cyclic.is_empty() {
                continue;
            }
            programs += 1;
            let mut check = Minimality::new(&program, &problem, &SearchOptions::default(), 0);
            if programs % 3 == 0 {
                check.keep = 0; // every tester built for one question and dropped
            }
            for bits in 0u32..1 << n {
                let m: Vec<bool> = (0..=n).map(|a| a > 0 && bits >> (a - 1) & 1 == 1).collect();
                if !model_of_reduct(&program, &m, &m) {
                    continue; // the search asks about models of the program only
                }
                if rng.below(4) == 0 {
                    // A candidate with no atom in those components needs no tester.
                    let asks = (1..=n).any(|a| m[a] && cyclic.contains(&problem.scc[a]));
                    let verdict = check.check(&m, &stopped).unwrap();
                    assert!(if asks {
                        matches!(verdict, Candidate::Interrupted(Stop::Signal))
                    } else {
                        matches!(verdict, Candidate::Accepted)
                    });
                }
                let minimal =
                    !cyclic.iter().any(|&c| smaller_model_exists(&program, &m, |a| problem.scc[a] == c));
                match check.check(&m, &go).unwrap() {
                    Candidate::Accepted => {
                        assert!(minimal, "{text}: {m:?} accepted");
                        accepted += 1;
                    }
                    Candidate::Rejected(nogoods) => {
                        assert!(!minimal, "{text}: {m:?} rejected");
                        assert!(!nogoods.is_empty());
                        rejected += 1;
                    }
                    Candidate::Interrupted(s) => panic!("interrupted by {s:?}"),
                }
            }
        }
        assert!(accepted > 50 && rejected > 50, "{accepted} accepted, {rejected} rejected");
    }
}
