//! Equivalent literals of the completion (part of clasp's `--eq`): literals that imply one another
//! through binary nogoods form a class, and every nogood names only the class's representative,
//! its literal of the smallest variable. `a :- not b. b :- not a.` makes `a` and `not b` one.
//!
//! Each other variable of a class keeps the two binary nogoods that tie it to the representative,
//! so every variable is still assigned in every total assignment, and whatever reads variables
//! (bodies, weight constraints, unfounded sets, costs, the domain heuristic) is unchanged. The
//! search sees fewer variables: the substituted ones are not decided on, and learned nogoods name
//! the representatives (clasp: 880 variables instead of 1,591 on GraphColouring_0057).
//!
//! The nogoods after substitution are equivalent to those before, given the tying nogoods: a
//! nogood with `x` is violated exactly when the same nogood with `x`'s representative is.

use super::{Csr, Lit};
use crate::program::deps::{NO_SCC, cyclic_components};
use crate::stop::{Interrupted, StopToken};
use std::collections::HashSet;

/// Rounds of substitution by default (clasp's `--eq=3`).
pub const DEFAULT_ROUNDS: u32 = 3;

/// The classes found: per variable, the literal it equals (`Lit::pos(v)` where `v` is a
/// representative or in no class).
///
/// Invariant: `equal_to[v]` is `Lit::pos(v)` or a literal of a smaller variable that is its own
/// representative.
pub type EqualTo = Vec<Lit>;

/// Substitutes equivalent literals in `nogoods` (each of two or more literals, sorted, without
/// duplicates or complementary pairs, none on the constant), moving those that become units to
/// `units` (an empty nogood is the unit `Lit::TRUE`), and adds the nogoods that tie each
/// substituted variable to its representative. Returns each variable's representative literal.
///
/// Up to `rounds` rounds (clasp's `--eq=N`): a nogood that substitution shortens to two literals
/// may close a new class, which the next round finds.
pub fn substitute(
    nogoods: &mut Vec<Vec<Lit>>,
    units: &mut Vec<Lit>,
    num_vars: u32,
    rounds: u32,
    stop: &StopToken,
) -> Result<EqualTo, Interrupted> {
    let start = std::time::Instant::now();
    let mut equal_to: EqualTo = (0..num_vars).map(Lit::pos).collect();
    for _ in 0..rounds {
        // The followers of earlier rounds are in no nogood now: each round's classes are over
        // representatives, and composing keeps every follower on a representative.
        let Some((round, again)) = one_round(nogoods, units, num_vars as usize, stop)? else { break };
        for r in equal_to.iter_mut() {
            *r = follow(&round, *r);
        }
        if !again {
            break;
        }
    }
    log::debug!("equivalences substituted in {:.3}s", start.elapsed().as_secs_f64());
    for (v, &r) in equal_to.iter().enumerate() {
        if r != Lit::pos(v as u32) {
            // Sorted: the representative's variable is the smaller.
            nogoods.push(vec![!r, Lit::pos(v as u32)]);
            nogoods.push(vec![r, Lit::neg(v as u32)]);
        }
    }
    Ok(equal_to)
}

/// The literal that `l` equals under `equal_to`.
fn follow(equal_to: &[Lit], l: Lit) -> Lit {
    let r = equal_to[l.var() as usize];
    if l.is_pos() { r } else { !r }
}

/// One round: the classes of the binary nogoods as they are, substituted in every nogood and
/// unit, and whether another round may find more: only a longer nogood that became binary can
/// close a new class (the classes of the substituted binary nogoods are those found, merged).
/// `None` when there is no class, or when a variable is equivalent to its own negation (then the
/// unit `Lit::TRUE` says that nothing satisfies the nogoods).
fn one_round(
    nogoods: &mut Vec<Vec<Lit>>,
    units: &mut Vec<Lit>,
    nv: usize,
    stop: &StopToken,
) -> Result<Option<(EqualTo, bool)>, Interrupted> {
    let (scc, components) = implication_classes(nogoods, nv, stop)?;
    if components == 0 {
        return Ok(None);
    }
    // The representative of a class: its first literal in literal order (the smallest variable).
    let mut rep = vec![Lit::FALSE; components as usize];
    for (i, &c) in scc.iter().enumerate() {
        if c != NO_SCC && rep[c as usize] == Lit::FALSE {
            rep[c as usize] = Lit(i as u32);
        }
    }
    let mut equal_to: EqualTo = (0..nv as u32).map(Lit::pos).collect();
    for v in 1..nv {
        let (p, n) = (scc[2 * v], scc[2 * v + 1]);
        if p != NO_SCC && p == n {
            units.push(Lit::TRUE);
            return Ok(None);
        }
        if p != NO_SCC {
            equal_to[v] = rep[p as usize];
        }
    }
    let map = |l: Lit| follow(&equal_to, l);
    let mut kept: Vec<Vec<Lit>> = Vec::with_capacity(nogoods.len());
    let mut changed: Vec<Vec<Lit>> = Vec::new();
    let mut seen: HashSet<Vec<Lit>> = HashSet::new();
    let mut again = false;
    for (i, mut ng) in std::mem::take(nogoods).into_iter().enumerate() {
        stop.check_every(i)?;
        if !ng.iter().any(|&l| map(l) != l) {
            kept.push(ng);
            continue;
        }
        let len = ng.len();
        for l in ng.iter_mut() {
            *l = map(*l);
        }
        ng.sort_unstable();
        ng.dedup();
        if ng.windows(2).any(|w| w[0] == !w[1]) {
            continue;
        }
        // Two or more literals map to one or more.
        match ng.len() {
            1 => units.push(ng[0]),
            n if seen.insert(ng.clone()) => {
                again |= n == 2 && len > 2;
                changed.push(ng);
            }
            _ => {}
        }
    }
    // A nogood that was unchanged may repeat a substituted one (seldom: only those that begin
    // as one does are looked up).
    let mut first = vec![false; 2 * nv];
    for ng in &changed {
        first[ng[0].index()] = true;
    }
    kept.retain(|ng| !first[ng[0].index()] || !seen.contains(ng));
    kept.extend(changed);
    *nogoods = kept;
    for u in units.iter_mut() {
        *u = map(*u);
    }
    Ok(Some((equal_to, again)))
}

/// The strongly connected components of the binary nogoods' implication graph over literals
/// (`{a, b}`: `a` implies `not b`, `b` implies `not a`), as [`cyclic_components`] numbers them.
fn implication_classes(
    nogoods: &[Vec<Lit>],
    nv: usize,
    stop: &StopToken,
) -> Result<(Vec<u32>, u32), Interrupted> {
    let edges = nogoods
        .iter()
        .filter(|ng| ng.len() == 2)
        .flat_map(|ng| [(ng[0].index(), (!ng[1]).0), (ng[1].index(), (!ng[0]).0)]);
    let implies = Csr::from_pairs_until(2 * nv, edges, stop)?;
    cyclic_components(2 * nv, |i| implies.get(i), stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ng(lits: &[i32]) -> Vec<Lit> {
        let mut v: Vec<Lit> = lits.iter().map(|&l| Lit::from_program(l)).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn a_pair_of_binaries_makes_one_class() {
        // a <-> not b (variables 1 and 2), and a nogood over b and c.
        let mut nogoods = vec![ng(&[1, 2]), ng(&[-1, -2]), ng(&[2, 3, 4])];
        let mut units = vec![Lit::from_program(-2)];
        let eq = substitute(&mut nogoods, &mut units, 5, 1, &StopToken::never()).unwrap();
        assert_eq!(eq[2], Lit::neg(1));
        assert_eq!(eq[1], Lit::pos(1));
        assert!(nogoods.contains(&ng(&[-1, 3, 4])), "{nogoods:?}");
        assert!(nogoods.contains(&ng(&[1, 2])) && nogoods.contains(&ng(&[-1, -2])));
        assert_eq!(units, vec![Lit::pos(1)]);
    }

    #[test]
    fn a_variable_equal_to_its_negation_is_a_conflict() {
        // a -> b -> not a -> not b -> a.
        let mut nogoods = vec![ng(&[1, -2]), ng(&[2, 1]), ng(&[-1, 2]), ng(&[-2, -1])];
        let mut units = Vec::new();
        substitute(&mut nogoods, &mut units, 3, 1, &StopToken::never()).unwrap();
        assert_eq!(units, vec![Lit::TRUE]);
    }

    #[test]
    fn a_later_round_finds_the_classes_an_earlier_one_made() {
        // a <-> b; {a, b, c} and {-a, -b, -c} become {a, c} and {-a, -c}: c <-> not a.
        let given = vec![ng(&[1, -2]), ng(&[-1, 2]), ng(&[1, 2, 3]), ng(&[-1, -2, -3])];
        for (rounds, c) in [(1, Lit::pos(3)), (2, Lit::neg(1)), (u32::MAX, Lit::neg(1))] {
            let (mut nogoods, mut units) = (given.clone(), Vec::new());
            let eq = substitute(&mut nogoods, &mut units, 4, rounds, &StopToken::never()).unwrap();
            assert_eq!((eq[2], eq[3]), (Lit::pos(1), c), "{rounds} rounds");
        }
    }

    #[test]
    fn substituted_nogoods_are_deduplicated_and_tautologies_dropped() {
        // a <-> b; {a, c, d} and {b, c, d} are one nogood; {a, -b, c} never holds.
        let mut nogoods = vec![ng(&[1, -2]), ng(&[-1, 2]), ng(&[1, 3, 4]), ng(&[2, 3, 4]), ng(&[1, -2, 3])];
        let mut units = Vec::new();
        substitute(&mut nogoods, &mut units, 5, 1, &StopToken::never()).unwrap();
        assert_eq!(nogoods.iter().filter(|n| n.len() == 3).count(), 1, "{nogoods:?}");
        assert_eq!(nogoods.len(), 3);
    }
}
