//! Lex-leader constraints (Crawford, Ginsberg, Luks and Roy; BreakID's encoding): for each
//! generator `g` of the program's symmetries, over the atoms it moves in ascending order
//! `x1 < x2 < ...`, an assignment must be at least its image (true above false): where `xj` and
//! `g(xj)` agree for every `j < i`, `xi` is true or `g(xi)` false. The greatest assignment of
//! each orbit meets every generator's constraint, so a program with an answer set keeps one.
//!
//! A new variable `ei` is true exactly when the first `i` positions agree, so that every
//! constraint is a nogood of at most four literals; a 2-cycle's second atom adds nothing and
//! is left out, and at most [`MAX_POSITIONS`] positions are compared per generator.

use crate::nogoods::{Lit, Problem, Var};

/// Positions compared per generator at most (BreakID's default limit is 50 to 100).
pub const MAX_POSITIONS: usize = 100;

/// The constraints over a problem's variables: `vars` new ones (numbered from its `num_vars`),
/// nogoods, and units (literals that must be false).
#[derive(Debug, Default)]
pub struct Constraints {
    pub vars: u32,
    pub nogoods: Vec<Vec<Lit>>,
    pub units: Vec<Lit>,
}

/// The lex-leader constraints of `perms` (each a list of atoms and their images, sorted by
/// atom); `None` where one can never hold (the units already contradict it).
pub fn constraints(p: &Problem, perms: &[Vec<(Var, Var)>]) -> Option<Constraints> {
    let lit = |a: Var| p.equal_to[a as usize];
    let mut c = Constraints::default();
    for g in perms {
        let image = |a: Var| g.binary_search_by_key(&a, |e| e.0).ok().map(|i| g[i].1);
        let positions: Vec<(Lit, Lit)> = g
            .iter()
            .filter(|&&(x, y)| !(y < x && image(y) == Some(x)))
            .take(MAX_POSITIONS)
            .map(|&(x, y)| (lit(x), lit(y)))
            .collect();
        let mut prefix: Option<Lit> = None;
        for (i, &(x, y)) in positions.iter().enumerate() {
            let under = prefix.into_iter();
            c.add(under.clone().chain([!x, y]))?;
            if i + 1 == positions.len() {
                break;
            }
            let e = Lit::pos(p.num_vars + c.vars);
            c.vars += 1;
            // e <-> prefix & (x <-> y)
            if let Some(q) = prefix {
                c.add([e, !q])?;
            }
            c.add([e, x, !y])?;
            c.add([e, !x, y])?;
            c.add(under.clone().chain([!e, x, y]))?;
            c.add(under.chain([!e, !x, !y]))?;
            prefix = Some(e);
        }
    }
    Some(c)
}

impl Constraints {
    /// Adds a nogood, simplified: the constant true left out, one with the constant false or
    /// a complementary pair dropped, a unit kept apart; `None` for the empty nogood.
    fn add(&mut self, lits: impl IntoIterator<Item = Lit>) -> Option<()> {
        let mut ng: Vec<Lit> = lits.into_iter().filter(|&l| l != Lit::TRUE).collect();
        if ng.contains(&Lit::FALSE) {
            return Some(());
        }
        ng.sort_unstable();
        ng.dedup();
        if ng.windows(2).any(|w| w[0].var() == w[1].var()) {
            return Some(());
        }
        match ng.len() {
            0 => return None,
            1 => self.units.push(ng[0]),
            _ => self.nogoods.push(ng),
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::constraints;
    use crate::input::read_program;
    use crate::nogoods::{Lit, complete};
    use crate::stop::StopToken;

    /// Every assignment of `{a; b; c}` (atoms 1 to 3) against the constraints of the
    /// permutation a -> b -> c -> a, extended by the only values of the prefix variables.
    #[test]
    fn the_greatest_assignment_of_each_orbit_is_kept_and_no_smaller_one() {
        let prog = read_program(b"asp 1 0 0\n1 1 3 1 2 3 0 0\n0\n").expect("valid");
        let p = complete(&prog, &StopToken::never(), 0).expect("compiles");
        let g = vec![(1, 2), (2, 3), (3, 1)];
        let c = constraints(&p, &[g]).expect("satisfiable");
        assert_eq!(c.vars, 2, "three positions, two prefixes");
        let n = p.num_vars as usize + c.vars as usize;
        for bits in 0..8u32 {
            let atom = |a: u32| bits >> (a - 1) & 1 == 1;
            let mut value = vec![false; n];
            value[0] = true;
            for a in 1..=3 {
                value[a as usize] = atom(a);
            }
            // e1: a == b's image position agrees; e2: and b == c.
            let (e1, e2) = (p.num_vars as usize, p.num_vars as usize + 1);
            value[e1] = atom(1) == atom(2);
            value[e2] = value[e1] && atom(2) == atom(3);
            let holds = |l: Lit| value[l.var() as usize] == l.is_pos();
            let kept = c.nogoods.iter().all(|ng| !ng.iter().all(|&l| holds(l)))
                && c.units.iter().all(|&l| !holds(l));
            // The image under g: position i holds the value of g(xi).
            let me = [atom(1), atom(2), atom(3)];
            let its = [atom(2), atom(3), atom(1)];
            assert_eq!(kept, me >= its, "assignment {bits:03b}");
        }
    }
}
