//! A problem extended by variables that stand for no atom and no body (core-guided
//! optimization's relaxations, symmetry breaking's prefixes), and by nogoods over them: every
//! table indexed by variable or literal grows by empty entries.

use super::lit::{Lit, Var};
use super::store::NogoodStore;
use super::{Problem, VarKind};
use crate::program::deps::NO_SCC;

impl Problem {
    /// Adds `n` variables of kind `kind` that no nogood, weight constraint or body names yet;
    /// returns the first.
    pub(super) fn add_vars(&mut self, n: u32, kind: VarKind) -> Var {
        let first = self.num_vars;
        self.num_vars += n;
        for v in first..first + n {
            self.kinds.push(kind);
            self.scc.push(NO_SCC);
            self.equal_to.push(Lit::pos(v));
            self.support_start.push(*self.support_start.last().expect("one entry per variable and one more"));
        }
        let occ_end = *self.store.occ_offsets.last().expect("an offset per literal and one more");
        self.store.occ_offsets.resize(self.store.occ_offsets.len() + 2 * n as usize, occ_end);
        if let Some(&end) = self.bodies.lit_start.last() {
            self.bodies.lit_start.resize(self.bodies.lit_start.len() + 2 * n as usize, end);
        }
        first
    }

    /// This problem with `n` new variables (numbered from the old `num_vars`), which stand for
    /// nothing of the program, and with these nogoods and units (literals that must be false)
    /// added. Each nogood has at least two literals and repeats no variable.
    pub fn with_nogoods(&self, n: u32, nogoods: Vec<Vec<Lit>>, units: &[Lit]) -> Problem {
        let mut p = self.clone();
        p.add_vars(n, VarKind::Relaxation);
        let mut all: Vec<Vec<Lit>> = (0..p.store.len()).map(|i| p.store.nogood(i).to_vec()).collect();
        all.extend(nogoods);
        let mut fixed = p.store.units.clone();
        fixed.extend_from_slice(units);
        fixed.sort_unstable();
        fixed.dedup();
        p.store = NogoodStore::build(all, fixed, p.num_vars);
        debug_assert_eq!(p.check_invariants(), Ok(()));
        p
    }
}

#[cfg(test)]
mod tests {
    use crate::input::read_program;
    use crate::nogoods::{Lit, VarKind, complete};

    #[test]
    fn added_nogoods_name_the_new_variables_and_keep_the_old_ones() {
        // {a; b}.
        let prog = read_program(b"asp 1 0 0\n1 1 2 1 2 0 0\n0\n").expect("valid");
        let p = complete(&prog, &crate::stop::StopToken::never(), 0).expect("compiles");
        let e = p.num_vars;
        let q = p.with_nogoods(1, vec![vec![Lit::pos(e), Lit::neg(1)]], &[Lit::pos(2)]);
        assert_eq!(q.num_vars, e + 1);
        assert_eq!(q.kinds[e as usize], VarKind::Relaxation);
        assert_eq!(q.store.len(), p.store.len() + 1);
        assert_eq!(q.store.occurrences(Lit::pos(e)).len(), 1);
        assert!(q.store.units.contains(&Lit::pos(2)));
        assert_eq!(q.check_invariants(), Ok(()));
    }
}
