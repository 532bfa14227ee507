//! Core-guided optimization's relaxation variables (`solve/core_guided.rs`): a problem extended
//! by variables, each true exactly when at least `k` of a core's literals are, kept as native
//! weight constraints with unit weights. They stand for no atom and no body (`extension.rs`).

use super::lit::{Lit, Var};
use super::{Problem, VarKind};

/// A relaxation variable to add: true exactly when at least `k` of `lits` are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtLeast {
    pub lits: Vec<Lit>,
    pub k: i64,
}

impl Problem {
    /// This problem with one new variable per element of `sums`, in order (the variables are
    /// returned): `v <-> at least k of lits`. Each `k` is in `2..=lits.len()` and the literals
    /// of one sum are distinct.
    pub fn with_relaxations(&self, sums: &[AtLeast]) -> (Problem, Vec<Var>) {
        let mut p = self.clone();
        let n = sums.len() as u32;
        let first = p.add_vars(n, VarKind::Relaxation);
        for (i, s) in sums.iter().enumerate() {
            debug_assert!(s.k >= 2 && s.k <= s.lits.len() as i64, "a trivial relaxation: {s:?}");
            let v = first + i as u32;
            p.weights.push(Lit::pos(v), s.k, s.lits.iter().map(|&l| (l, 1)).collect());
        }
        debug_assert_eq!(p.check_invariants(), Ok(()));
        (p, (first..first + n).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;
    use crate::nogoods::complete;

    #[test]
    fn relaxations_are_weight_constraints_over_new_variables() {
        // {a; b; c}.
        let prog = read_program(b"asp 1 0 0\n1 1 3 1 2 3 0 0\n0\n").expect("valid");
        let p = complete(&prog, &crate::stop::StopToken::never(), 0).expect("compiles");
        let lits = vec![Lit::pos(1), Lit::pos(2), Lit::neg(3)];
        let (q, vars) = p.with_relaxations(&[AtLeast { lits: lits.clone(), k: 2 }]);
        assert_eq!(vars, vec![p.num_vars]);
        assert_eq!(q.num_vars, p.num_vars + 1);
        assert_eq!(q.kinds[vars[0] as usize], VarKind::Relaxation);
        let c = q.weights.len() - 1;
        assert_eq!((q.weights.lit[c], q.weights.bound[c]), (Lit::pos(vars[0]), 2));
        let mut got = q.weights.lits[q.weights.range(c)].to_vec();
        got.sort();
        let mut want = lits;
        want.sort();
        assert_eq!(got, want);
        assert_eq!(q.check_invariants(), Ok(()));
    }
}
