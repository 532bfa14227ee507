//! Initial variable scores for the decision heuristics (shared by both engines): occurrence
//! counts, Jeroslow-Wang weights, or (for activity) occurrence counts scaled below one conflict;
//! perturbed, for the searches of a parallel run after the first, so that they take different
//! orders.

use crate::nogoods::Problem;
use crate::solve::config::Heuristic;

/// Initial scores: occurrence counts, Jeroslow-Wang weights, or (for activity) occurrence counts
/// scaled down so that the first conflicts dominate them. `key` (0: none) keys a tiny
/// pseudo-random addition to each ([`perturb`]).
pub fn initial_scores(p: &Problem, h: Heuristic, key: u64) -> Vec<f64> {
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
    // A variable that follows an equivalent literal occurs only beside it: it takes its
    // representative's occurrences (representatives come first).
    for v in 0..p.num_vars {
        if let Some(r) = p.leader(v) {
            s[v as usize] = s[r.var() as usize];
        }
    }
    if matches!(h, Heuristic::Activity | Heuristic::Domain | Heuristic::Berkmin) {
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
    use super::perturb;

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
