//! Initial variable scores for the decision heuristics (shared by both engines): occurrence
//! counts, Jeroslow-Wang weights, or (for activity) occurrence counts scaled below one conflict.

use crate::cli::Heuristic;
use crate::nogoods::Problem;

/// Initial scores: occurrence counts, Jeroslow-Wang weights, or (for activity) occurrence counts
/// scaled down so that the first conflicts dominate them.
pub fn initial_scores(p: &Problem, h: Heuristic) -> Vec<f64> {
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
    if h == Heuristic::Activity {
        let max = s.iter().cloned().fold(1.0, f64::max);
        for x in s.iter_mut() {
            *x /= max;
        }
    }
    s
}
