//! Initial variable scores for the decision heuristics (shared by both engines): occurrence
//! counts, Jeroslow-Wang weights, or (for activity) occurrence counts or clasp's MOMS scores
//! scaled below one conflict; perturbed, for the searches of a parallel run after the first, so
//! that they take different orders.

use crate::nogoods::Problem;
use crate::solve::config::Heuristic;

/// Initial scores: occurrence counts, Jeroslow-Wang weights, or (for activity) occurrence counts
/// or, with `moms`, [`moms_scores`], scaled down so that the first conflicts dominate them. `key`
/// (0: none) keys a tiny pseudo-random addition to each ([`perturb`]).
pub fn initial_scores(p: &Problem, h: Heuristic, moms: bool, key: u64) -> Vec<f64> {
    let dynamic = matches!(h, Heuristic::Activity | Heuristic::Domain | Heuristic::Berkmin);
    let mut s = if moms && dynamic { moms_scores(p) } else { occurrences(p, h) };
    // A variable that follows an equivalent literal occurs only beside it: it takes its
    // representative's score (representatives come first).
    for v in 0..p.num_vars {
        if let Some(r) = p.leader(v) {
            s[v as usize] = s[r.var() as usize];
        }
    }
    if dynamic {
        let max = s.iter().cloned().fold(1.0, f64::max);
        for x in s.iter_mut() {
            *x /= max;
        }
    }
    if key != 0 {
        perturb(&mut s, key);
    }
    s
}

/// clasp's `--init-moms` (`momsScore`): a variable whose literals each imply many others through
/// binary nogoods first, `1024 * n+ * n- + n+ + n-` where `n+` and `n-` count the binary nogoods
/// that hold its positive and its negative literal (each such nogood makes the other literal
/// false); where the program has no binary nogood, the nogoods of any length that hold them.
pub fn moms_scores(p: &Problem) -> Vec<f64> {
    let st = &p.store;
    let mut binary = vec![0u64; 2 * p.num_vars as usize];
    let mut any = vec![0u64; 2 * p.num_vars as usize];
    for i in 0..st.len() {
        let ng = st.nogood(i);
        for l in ng {
            any[l.index()] += 1;
            if ng.len() == 2 {
                binary[l.index()] += 1;
            }
        }
    }
    let n = if binary.iter().any(|&c| c > 0) { &binary } else { &any };
    n.chunks_exact(2).map(|c| ((c[0] * c[1]) << 10) as f64 + (c[0] + c[1]) as f64).collect()
}

/// Occurrences of each variable in the nogoods and weight constraints, or for Jeroslow-Wang the
/// sum of 2^-length over them.
fn occurrences(p: &Problem, h: Heuristic) -> Vec<f64> {
    let mut s = vec![0f64; p.num_vars as usize];
    let st = &p.store;
    for i in 0..st.len() {
        let ng = st.nogood(i);
        let w = match h {
            Heuristic::JeroslowWang => (-(ng.len() as f64)).exp2(),
            _ => 1.0,
        };
        for l in ng {
            s[l.var() as usize] += w;
        }
    }
    let wc = &p.weights;
    for c in 0..wc.len() {
        let n = wc.range(c).len() as f64;
        let w = match h {
            Heuristic::JeroslowWang => (-n).exp2(),
            _ => 1.0,
        };
        for l in &wc.lits[wc.range(c)] {
            s[l.var() as usize] += w;
        }
        s[wc.lit[c].var() as usize] += w;
    }
    s
}

/// Adds to each score a pseudo-random amount below 10^-4 of the largest, from `key` and the
/// variable (splitmix64): ties, frequent among occurrence counts, break differently for each key,
/// and so does the order of the first decisions, while the first conflicts' bumps still outweigh
/// it. A search's order of decisions decides how long it takes on heavy-tailed instances
/// (BENCHMARKS.md, "How much the search varies"): a parallel run's searches differ this way.
pub fn perturb(s: &mut [f64], key: u64) {
    let scale = 1e-4 * s.iter().cloned().fold(1e-300, f64::max);
    for (v, x) in s.iter_mut().enumerate() {
        let mut h = key.wrapping_add((v as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
        *x += scale * (h >> 11) as f64 / (1u64 << 53) as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::{initial_scores, moms_scores, perturb};
    use crate::input::read_program;
    use crate::nogoods::{Lit, complete};
    use crate::solve::config::Heuristic;

    /// MOMS counts each literal's binary nogoods and favours variables with many in both
    /// polarities, where occurrences count both together.
    #[test]
    fn moms_favours_implications_both_ways() {
        // {a; b}, then x1..x5 with {x1, x2}, {-x1, x3}, {x4, x5}, {x4, x3}, {x4, x2}.
        let prog = read_program(b"asp 1 0 0\n1 1 2 1 2 0 0\n0\n").expect("valid");
        let base = complete(&prog, &crate::stop::StopToken::never(), 0).expect("compiles");
        let e = base.num_vars;
        let x = |i: u32, pos: bool| Lit::new(e + i - 1, pos);
        let nogoods = vec![
            vec![x(1, true), x(2, true)],
            vec![x(1, false), x(3, true)],
            vec![x(4, true), x(5, true)],
            vec![x(4, true), x(3, true)],
            vec![x(4, true), x(2, true)],
        ];
        let p = base.with_nogoods(5, nogoods, &[]);
        let m = moms_scores(&p);
        let at = |s: &[f64], i: u32| s[(e + i - 1) as usize];
        assert_eq!([1, 2, 3, 4, 5].map(|i| at(&m, i)), [1026.0, 2.0, 2.0, 3.0, 1.0]);
        let moms = initial_scores(&p, Heuristic::Activity, true, 0);
        let occurrences = initial_scores(&p, Heuristic::Activity, false, 0);
        assert!(at(&moms, 1) > at(&moms, 4) && at(&occurrences, 1) < at(&occurrences, 4));
        assert!(moms.iter().chain(&occurrences).all(|&s| (0.0..=1.0).contains(&s)), "scaled below one bump");
    }

    #[test]
    fn perturbation_is_small_keyed_and_breaks_ties() {
        let base = vec![0.5, 0.5, 0.5, 0.25, 1.0];
        let (mut a, mut b, mut c) = (base.clone(), base.clone(), base.clone());
        perturb(&mut a, 7);
        perturb(&mut b, 7);
        perturb(&mut c, 8);
        assert_eq!(a, b, "the same key gives the same scores");
        assert_ne!(a, c, "another key gives others");
        for (x, y) in a.iter().zip(&base) {
            assert!(*x >= *y && *x - *y < 1e-4, "{x} is not within 10^-4 above {y}");
        }
        // The ties among the first three are broken; the clear differences stay.
        assert!(a[0] != a[1] && a[1] != a[2] && a[0] != a[2]);
        assert!(a[3] < a[0].min(a[1]).min(a[2]) && a[4] > a[0].max(a[1]).max(a[2]));
    }
}
