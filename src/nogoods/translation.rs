//! Cardinality constraints translated into nogoods over auxiliary variables, as clasp's
//! `--trans-ext=dynamic` does with integrity constraints (`transformIntegrity`, its
//! `RuleTransform::transformSplit`): `:- B #count{...}` becomes a chain of counters that the
//! search can learn on, where a native weight constraint only ever explains itself by its true
//! literals (bootstrap percolation's `{ seed(X) } K`: clasp with the translation proves an
//! instance in 23 s that it does not in 60 s without).
//!
//! The counter `n(i, b)` is true exactly when the terms from position `i` on reach `b`:
//! `n(i, b) <-> (x_i & n(i+1, b - w_i)) | n(i+1, b)`, with `n(i, b)` true for `b <= 0` and false
//! once the terms left cannot reach `b`. The constraint is the unit `not n(0, bound)`.
//! Invariant: every counter is defined in both directions, so the program's atoms fix every
//! counter and a model of the atoms is one model of the problem (enumeration counts it once).

use super::lit::{Lit, Var};
use super::weights::WeightConstraints;
use std::collections::{HashMap, HashSet};

/// How extended rules are handled (clasp's `--trans-ext`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExtendedRules {
    /// Every weight and cardinality constraint is propagated natively.
    Native,
    /// Integrity constraints over counts are translated where clasp would translate them: one
    /// of them, or few among many bodies, within a budget of auxiliary variables (clasp's
    /// `integ`; yasmin's default, by measurement: BENCHMARKS.md, "Counters").
    #[default]
    Integrity,
    /// As `Integrity`, and a weight body of at most 6 terms with at most 15 ways to reach its
    /// bound, in a rule of at most one head atom, is spelled out as conjunctions, one rule each
    /// (clasp's `dynamic`, its default configurations' choice).
    Dynamic,
}

/// The conjunctions that a small weight body (clasp's `transformNoAux`: at most 6 terms, and
/// `C(terms, bound)` at most 15) is the disjunction of, as clasp's `transformSelect` makes them:
/// terms taken heaviest first until the bound is reached. `None` for a larger body.
pub fn spelled_out(terms: &[(Lit, i64)], bound: i64) -> Option<Vec<Vec<Lit>>> {
    let n = terms.len();
    let ways = |n: usize, k: usize| (0..k).fold(1u64, |c, i| c * (n - i) as u64 / (i as u64 + 1));
    if n > 6 || ways(n, (bound.max(0) as usize).min(n)) > 15 {
        return None;
    }
    let mut sorted = terms.to_vec();
    sorted.sort_by_key(|t| std::cmp::Reverse(t.1));
    let mut suffix = vec![0i64; n + 1];
    for i in (0..n).rev() {
        suffix[i] = suffix[i + 1] + sorted[i].1;
    }
    fn select(
        t: &[(Lit, i64)],
        suffix: &[i64],
        from: usize,
        sum: i64,
        bound: i64,
        chosen: &mut Vec<Lit>,
        out: &mut Vec<Vec<Lit>>,
    ) {
        if sum >= bound {
            out.push(chosen.clone());
            return;
        }
        for j in from..t.len() {
            if sum + suffix[j] < bound {
                break;
            }
            chosen.push(t[j].0);
            select(t, suffix, j + 1, sum + t[j].1, bound, chosen, out);
            chosen.pop();
        }
    }
    let mut out = Vec::new();
    select(&sorted, &suffix, 0, 0, bound, &mut Vec::new(), &mut out);
    Some(out)
}

/// An integrity constraint over a count: a weight constraint of unit weights whose literal is
/// false at level 0, so its terms must not reach `bound`.
#[derive(Clone, Copy, Debug)]
pub struct CountConstraint {
    pub index: u32,
    pub terms: u32,
    pub bound: i64,
}

/// `l` over the representatives of the variables (`equal_to`).
fn representative(equal_to: &[Lit], l: Lit) -> Lit {
    let r = equal_to[l.var() as usize];
    if l.is_pos() { r } else { !r }
}

/// The most terms of an at-most-one constraint that [`pair_at_most_one`] spells out as binary
/// nogoods (at most 276 of them, 11.5 a term).
pub const PAIRS_UP_TO: usize = 24;

/// Spells out each weight constraint of unit weights and bound 2 whose literal `units` makes
/// false, of at most [`PAIRS_UP_TO`] terms (an at-most-one: `:- 2 #count{...}`, or gringo's
/// `{ p(X) } 1`), as the binary nogoods `{x_i, x_j}` over representatives (`equal_to`), which
/// join `nogoods` (or `units`, simplified): no auxiliary variables, and each propagation and
/// each reason is a binary nogood's, through the implication lists, where the native constraint
/// is visited as a weight constraint. Each leaves `weights`; returns how many did.
pub fn pair_at_most_one(
    weights: &mut WeightConstraints,
    nogoods: &mut Vec<Vec<Lit>>,
    units: &mut Vec<Lit>,
    equal_to: &[Lit],
) -> usize {
    let pairs: Vec<usize> = false_counts(weights, units, equal_to)
        .into_iter()
        .filter(|&c| weights.bound[c] == 2 && weights.range(c).len() <= PAIRS_UP_TO)
        .collect();
    if pairs.is_empty() {
        return 0;
    }
    for &c in &pairs {
        let terms: Vec<Lit> = weights.range(c).map(|i| representative(equal_to, weights.lits[i])).collect();
        for (i, &x) in terms.iter().enumerate() {
            // A pair of one literal twice, or of a literal and its complement, simplifies.
            for &y in &terms[i + 1..] {
                super::normal_rules::keep_simplified(vec![x, y], nogoods, units);
            }
        }
    }
    remove(weights, pairs.iter().copied());
    log::info!("{} at-most-one constraints spelled out as binary nogoods", pairs.len());
    pairs.len()
}

/// Takes the constraints `gone` out of `weights` (they became nogoods).
fn remove(weights: &mut WeightConstraints, gone: impl Iterator<Item = usize>) {
    let mut keep = vec![true; weights.len()];
    for c in gone {
        keep[c] = false;
    }
    *weights = weights.retain(&keep);
}

/// The weight constraints of unit weights whose literal `units` makes false (over the
/// representatives, `equal_to`); none where the units hold a conflict.
fn false_counts(weights: &WeightConstraints, units: &[Lit], equal_to: &[Lit]) -> Vec<usize> {
    if units.contains(&Lit::TRUE) {
        return Vec::new();
    }
    let fixed: HashSet<Lit> = units.iter().copied().collect();
    (0..weights.len())
        .filter(|&c| {
            weights.weights[weights.range(c)].iter().all(|&w| w == 1)
                && fixed.contains(&representative(equal_to, weights.lit[c]))
        })
        .collect()
}

/// Translates the weight constraints that clasp would (`chosen`) among those of unit weights
/// whose literal `units` makes false (gringo writes `{ p(X) } K` as `a :- K+1 #count{...}` with
/// `a` false; a constraint `:- K #count{...}` has a false body): each leaves `weights`, and its
/// counters' nogoods (over representatives, `equal_to`, which grows by the counters) join
/// `nogoods` and `units`. The counters are numbered from `num_vars`; returns how many there are.
/// `atoms` and `bodies` are the program's numbers of atoms and bodies.
pub fn translate_false_counts(
    weights: &mut WeightConstraints,
    nogoods: &mut Vec<Vec<Lit>>,
    units: &mut Vec<Lit>,
    equal_to: &mut Vec<Lit>,
    num_vars: Var,
    atoms: u32,
    bodies: usize,
) -> u32 {
    let counts: Vec<CountConstraint> = false_counts(weights, units, equal_to)
        .into_iter()
        .map(|c| CountConstraint {
            index: c as u32,
            terms: weights.range(c).len() as u32,
            bound: weights.bound[c],
        })
        .collect();
    let chosen = chosen(&counts, atoms, bodies);
    if chosen.is_empty() {
        return 0;
    }
    let mut added = Vec::new();
    let mut next = num_vars;
    for &c in &chosen {
        let c = c as usize;
        let terms: Vec<(Lit, i64)> =
            weights.range(c).map(|i| (representative(equal_to, weights.lits[i]), 1)).collect();
        next += forbid(&terms, weights.bound[c], next, &mut added);
    }
    equal_to.extend((num_vars..next).map(Lit::pos));
    for ng in added {
        super::normal_rules::keep_simplified(ng, nogoods, units);
    }
    remove(weights, chosen.iter().map(|&c| c as usize));
    log::info!(
        "{} integrity constraints over counts translated into {} counters",
        chosen.len(),
        next - num_vars
    );
    next - num_vars
}

/// The constraints to translate, as clasp chooses them: only when there is one, or when atoms
/// are at least half the bodies and the constraints fewer than 1 % of them; in order, while the
/// estimate of auxiliary variables (`bound * (terms - bound)`) fits in `min(15000, 2 * atoms)`.
pub fn chosen(counts: &[CountConstraint], atoms: u32, bodies: usize) -> Vec<u32> {
    let few = counts.len() == 1
        || (atoms as f64 / bodies.max(1) as f64 > 0.5 && (counts.len() as f64) < bodies as f64 * 0.01);
    if !few {
        return Vec::new();
    }
    let mut budget = 15_000i64.min(2 * atoms as i64);
    let mut out = Vec::new();
    for c in counts {
        let estimate = c.bound * (c.terms as i64 - c.bound);
        if estimate > budget {
            break;
        }
        budget -= estimate;
        out.push(c.index);
    }
    out
}

/// The nogoods that keep `sum(w_i * [x_i]) < bound`, over new variables numbered from
/// `first`; returns how many variables they use. Weights are at least 1, `bound` at least 1 and
/// at most the sum of the weights.
pub fn forbid(terms: &[(Lit, i64)], bound: i64, first: Var, nogoods: &mut Vec<Vec<Lit>>) -> u32 {
    let n = terms.len();
    let mut suffix = vec![0i64; n + 1];
    for i in (0..n).rev() {
        suffix[i] = suffix[i + 1] + terms[i].1;
    }
    debug_assert!(bound >= 1 && bound <= suffix[0]);
    // The counters reachable from the root, level by level.
    let mut needed: Vec<Vec<i64>> = vec![Vec::new(); n + 1];
    needed[0].push(bound);
    for i in 0..n {
        let mut next = std::mem::take(&mut needed[i + 1]);
        for &b in &needed[i] {
            for c in [b - terms[i].1, b] {
                if c > 0 && suffix[i + 1] >= c {
                    next.push(c);
                }
            }
        }
        next.sort_unstable();
        next.dedup();
        needed[i + 1] = next;
    }
    let mut counter: HashMap<(usize, i64), Lit> = HashMap::new();
    let value = |counter: &HashMap<(usize, i64), Lit>, i: usize, b: i64| {
        if b <= 0 {
            Lit::TRUE
        } else if suffix[i] < b {
            Lit::FALSE
        } else {
            counter[&(i, b)]
        }
    };
    let mut next_var = first;
    for i in (0..n).rev() {
        let x = terms[i].0;
        for &b in &needed[i] {
            let t = value(&counter, i + 1, b - terms[i].1);
            let f = value(&counter, i + 1, b);
            let lit = if t == Lit::FALSE {
                f
            } else if f == Lit::FALSE && t == Lit::TRUE {
                x
            } else {
                let v = Lit::pos(next_var);
                next_var += 1;
                if f == Lit::FALSE {
                    // v <-> x & t
                    nogoods.extend([vec![v, !x], vec![v, !t], vec![!v, x, t]]);
                } else if t == Lit::TRUE {
                    // v <-> x | f
                    nogoods.extend([vec![!v, x], vec![!v, f], vec![v, !x, !f]]);
                } else {
                    // v <-> (x & t) | f
                    nogoods.extend([vec![!v, x, t], vec![!v, f], vec![v, !x, !f], vec![v, !t, !f]]);
                }
                v
            };
            counter.insert((i, b), lit);
        }
    }
    let root = value(&counter, 0, bound);
    debug_assert!(root != Lit::TRUE, "a bound no larger than the sum is never reached at once");
    if root != Lit::FALSE {
        nogoods.push(vec![root]);
    }
    next_var - first
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment of the terms: does unit propagation of the nogoods (the counters
    /// followed from the terms) reach a conflict exactly when the sum reaches the bound?
    fn agrees(weights: &[i64], bound: i64) {
        let terms: Vec<(Lit, i64)> =
            weights.iter().enumerate().map(|(i, &w)| (Lit::pos(i as Var + 1), w)).collect();
        let first = weights.len() as Var + 1;
        let mut nogoods = Vec::new();
        let aux = forbid(&terms, bound, first, &mut nogoods);
        let vars = first + aux;
        for mask in 0u32..1 << weights.len() {
            let sum: i64 =
                weights.iter().enumerate().filter(|&(i, _)| mask >> i & 1 == 1).map(|(_, w)| w).sum();
            // The counters' values follow from their definitions bottom-up: try every
            // completion of the auxiliary variables and keep those no nogood rejects.
            let mut solutions = 0;
            for extra in 0u32..1 << aux {
                let value = |l: Lit| {
                    let v = l.var();
                    let t = if v == 0 {
                        true
                    } else if v < first {
                        mask >> (v - 1) & 1 == 1
                    } else {
                        extra >> (v - first) & 1 == 1
                    };
                    t == l.is_pos()
                };
                if nogoods.iter().all(|ng| !ng.iter().all(|&l| value(l))) {
                    solutions += 1;
                }
            }
            let expected = if sum < bound { 1 } else { 0 };
            assert_eq!(solutions, expected, "weights {weights:?} bound {bound} mask {mask:b} ({vars} vars)");
        }
    }

    #[test]
    fn counters_allow_exactly_the_sums_below_the_bound_once() {
        agrees(&[1, 1, 1, 1], 2);
        agrees(&[1, 1, 1, 1, 1], 3);
        agrees(&[1, 1, 1], 3);
        agrees(&[1, 1, 1, 1], 1);
        agrees(&[3, 2, 2, 1], 4);
        agrees(&[2, 2, 1, 1, 1], 5);
    }

    #[test]
    fn small_bodies_are_spelled_out_as_clasp_selects_them() {
        let t = |ws: &[i64]| -> Vec<(Lit, i64)> {
            ws.iter().enumerate().map(|(i, &w)| (Lit::pos(i as Var + 1), w)).collect()
        };
        let lits = |vs: &[Var]| -> Vec<Lit> { vs.iter().map(|&v| Lit::pos(v)).collect() };
        // 2 of 4: the six pairs.
        let pairs = spelled_out(&t(&[1, 1, 1, 1]), 2).expect("C(4,2) = 6");
        assert_eq!(pairs.len(), 6);
        assert!(pairs.contains(&lits(&[2, 4])));
        // 3 of 6 has 20 ways: native.
        assert!(spelled_out(&t(&[1; 6]), 3).is_none());
        assert!(spelled_out(&t(&[1; 7]), 1).is_none());
        // Weighted, heaviest first: 4 <= 3a + 2b + 2c + 1d.
        let w = spelled_out(&t(&[3, 2, 2, 1]), 4).expect("small");
        assert_eq!(w, vec![lits(&[1, 2]), lits(&[1, 3]), lits(&[1, 4]), lits(&[2, 3])]);
    }

    #[test]
    fn clasp_translates_one_constraint_or_few_among_many_within_the_budget() {
        let c = |index, terms, bound| CountConstraint { index, terms, bound };
        assert_eq!(chosen(&[c(0, 100, 17)], 983, 373), vec![0]);
        // Two constraints among few bodies: not translated.
        assert!(chosen(&[c(0, 10, 2), c(1, 10, 2)], 100, 100).is_empty());
        // Among many bodies: translated in order until the budget (2 * atoms) is spent.
        let many: Vec<_> = (0..3).map(|b| c(b, 40, 5)).collect();
        assert_eq!(chosen(&many, 250, 400), vec![0, 1]);
    }

    #[test]
    fn false_at_most_ones_of_few_terms_become_pairs_and_leave_the_others() {
        let (x, y, z, w) = (Lit::pos(1), Lit::pos(2), Lit::neg(3), Lit::pos(4));
        let mut weights = WeightConstraints::new();
        // At most one of x, y, z: its literal 5 is false.
        weights.push(Lit::pos(5), 2, vec![(x, 1), (y, 1), (z, 1)]);
        // Its literal not fixed, a bound of 3, a weight of 2, too many terms: kept.
        weights.push(Lit::pos(6), 2, vec![(x, 1), (w, 1)]);
        weights.push(Lit::pos(5), 3, vec![(x, 1), (y, 1), (w, 1)]);
        weights.push(Lit::pos(5), 2, vec![(x, 2), (y, 1)]);
        let many = (0..=PAIRS_UP_TO as Var).map(|v| (Lit::pos(10 + v), 1)).collect();
        weights.push(Lit::pos(5), 2, many);
        // Variable 4 stands for 7 (`equal_to`); `push` sorts the terms.
        weights.push(Lit::pos(5), 2, vec![(Lit::neg(7), 1), (y, 1)]);
        let mut equal_to: Vec<Lit> = (0..40).map(Lit::pos).collect();
        equal_to[7] = w;
        let mut nogoods = Vec::new();
        let mut units = vec![Lit::pos(5)];
        assert_eq!(pair_at_most_one(&mut weights, &mut nogoods, &mut units, &equal_to), 2);
        assert_eq!(nogoods, vec![vec![x, y], vec![x, z], vec![y, z], vec![y, !w]]);
        assert_eq!(weights.len(), 4);
        assert_eq!(weights.lit, vec![Lit::pos(6), Lit::pos(5), Lit::pos(5), Lit::pos(5)]);
        // A conflict in the units: nothing changes.
        let mut nogoods = Vec::new();
        let mut units = vec![Lit::pos(6), Lit::TRUE];
        assert_eq!(pair_at_most_one(&mut weights, &mut nogoods, &mut units, &equal_to), 0);
        assert!(nogoods.is_empty());
    }
}
