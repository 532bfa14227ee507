//! Weight constraints `W <-> sum(w_i * [l_i]) >= bound`, stored flat for native propagation.
//!
//! Invariants: every weight is in `1..=bound` (weights above the bound are clamped: the
//! constraint cannot tell them apart), the literals of one constraint are over distinct variables
//! and sorted by weight, heaviest first (so propagation can stop at the first weight that fits the
//! slack), and `1 <= bound <= sum of weights` (trivial constraints never get this far).

use super::lit::Lit;

#[derive(Clone, Debug, Default)]
pub struct WeightConstraints {
    /// The literal that is true exactly when the sum reaches the bound.
    pub lit: Vec<Lit>,
    pub bound: Vec<i64>,
    /// Constraint `c` owns `lits[start[c]..start[c+1]]` and the same range of `weights`.
    pub start: Vec<u32>,
    pub lits: Vec<Lit>,
    pub weights: Vec<i64>,
}

impl WeightConstraints {
    pub fn new() -> Self {
        WeightConstraints { start: vec![0], ..Default::default() }
    }

    pub fn len(&self) -> usize {
        self.lit.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lit.is_empty()
    }

    /// Adds `lit <-> sum >= bound` over already normalised `(literal, weight)` pairs.
    pub fn push(&mut self, lit: Lit, bound: i64, mut terms: Vec<(Lit, i64)>) -> u32 {
        terms.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        self.lit.push(lit);
        self.bound.push(bound);
        for (l, w) in terms {
            self.lits.push(l);
            self.weights.push(w);
        }
        self.start.push(self.lits.len() as u32);
        (self.lit.len() - 1) as u32
    }

    pub fn range(&self, c: usize) -> std::ops::Range<usize> {
        self.start[c] as usize..self.start[c + 1] as usize
    }

    pub fn total(&self, c: usize) -> i64 {
        self.weights[self.range(c)].iter().sum()
    }

    pub fn check_invariants(&self) -> Result<(), String> {
        for c in 0..self.len() {
            let r = self.range(c);
            let ws = &self.weights[r.clone()];
            let b = self.bound[c];
            if b < 1 || b > ws.iter().sum::<i64>() {
                return Err(format!("weight constraint {c}: trivial bound {b}"));
            }
            if ws.iter().any(|&w| w < 1 || w > b) || ws.windows(2).any(|p| p[0] < p[1]) {
                return Err(format!("weight constraint {c}: weights not clamped and sorted"));
            }
            let mut vars: Vec<u32> = self.lits[r].iter().map(|l| l.var()).collect();
            vars.sort_unstable();
            if vars.windows(2).any(|p| p[0] == p[1]) || vars.contains(&self.lit[c].var()) {
                return Err(format!("weight constraint {c}: repeated variable"));
            }
        }
        Ok(())
    }
}

/// Normalises `sum(w_i * [l_i]) >= bound`: merges repeated literals, cancels complementary pairs
/// (`w1*[l] + w2*[not l] = min + (w1-min)*[l] + (w2-min)*[not l]`), drops zero weights and
/// literals fixed by `fixed` (true -> subtract from bound), and clamps weights to the bound.
/// Negative weights are rejected by the readers; `terms` are non-negative.
pub fn normalize(terms: &[(Lit, i64)], mut bound: i64) -> (Vec<(Lit, i64)>, i64) {
    let mut t: Vec<(Lit, i64)> = terms.iter().copied().filter(|&(_, w)| w != 0).collect();
    t.sort_by_key(|&(l, _)| l);
    let mut merged: Vec<(Lit, i64)> = Vec::with_capacity(t.len());
    for (l, w) in t {
        match merged.last_mut() {
            Some((pl, pw)) if *pl == l => *pw += w,
            _ => merged.push((l, w)),
        }
    }
    // Complementary pairs are adjacent (same variable, positive literal first).
    let mut out: Vec<(Lit, i64)> = Vec::with_capacity(merged.len());
    let mut i = 0;
    while i < merged.len() {
        let (l, w) = merged[i];
        if l == Lit::TRUE {
            bound -= w;
            i += 1;
            continue;
        }
        if l == Lit::FALSE {
            i += 1;
            continue;
        }
        if i + 1 < merged.len() && merged[i + 1].0 == !l {
            let w2 = merged[i + 1].1;
            let m = w.min(w2);
            bound -= m;
            if w > m {
                out.push((l, w - m));
            }
            if w2 > m {
                out.push((!l, w2 - m));
            }
            i += 2;
        } else {
            out.push((l, w));
            i += 1;
        }
    }
    if bound > 0 {
        for t in out.iter_mut() {
            t.1 = t.1.min(bound);
        }
    }
    (out, bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalization_merges_cancels_and_clamps() {
        let a = Lit::pos(1);
        let b = Lit::pos(2);
        let (t, bound) = normalize(&[(a, 2), (!a, 3), (b, 9), (a, 1), (Lit::TRUE, 1)], 6);
        // 3*[a] + 3*[not a] = 3 + 0*[a] ... : bound 6 - 1 (true) - 3 = 2; b clamped to 2.
        assert_eq!(bound, 2);
        assert_eq!(t, vec![(b, 2)]);
    }
}
