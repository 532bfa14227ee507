//! Weight constraints `W <-> sum(w_i * [l_i]) >= bound`, stored flat for native propagation.
//!
//! Invariants: every weight is in `1..=bound` (weights above the bound are clamped: the
//! constraint cannot tell them apart), the literals of one constraint are distinct (a variable
//! may occur with both signs) and sorted by weight, heaviest first (so propagation can stop at the first weight that fits the
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

    /// The constraints `c` with `keep[c]`, in order.
    pub fn retain(&self, keep: &[bool]) -> WeightConstraints {
        let mut out = WeightConstraints::new();
        for c in (0..self.len()).filter(|&c| keep[c]) {
            out.push(
                self.lit[c],
                self.bound[c],
                self.range(c).map(|i| (self.lits[i], self.weights[i])).collect(),
            );
        }
        out
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
            let mut lits: Vec<Lit> = self.lits[r].to_vec();
            lits.sort_unstable();
            if lits.windows(2).any(|p| p[0] == p[1]) || lits.iter().any(|l| l.var() == self.lit[c].var()) {
                return Err(format!("weight constraint {c}: repeated literal"));
            }
        }
        Ok(())
    }
}

/// Normalises `sum(w_i * [l_i]) >= bound`: merges repeated literals, drops zero weights and the
/// constant literals (true -> subtract from bound), and clamps weights to the bound.
/// Complementary pairs are kept: `[l] + [not l]` is a constant for the completion but not for
/// stability, where the positive literal still needs its atom to be derived.
/// Negative weights are rejected by the readers; `terms` are non-negative.
pub fn normalize(terms: &[(Lit, i64)], mut bound: i64) -> (Vec<(Lit, i64)>, i64) {
    let mut t: Vec<(Lit, i64)> = terms.iter().copied().filter(|&(_, w)| w != 0).collect();
    t.sort_by_key(|&(l, _)| l);
    let mut out: Vec<(Lit, i64)> = Vec::with_capacity(t.len());
    for (l, w) in t {
        if l == Lit::TRUE {
            bound -= w;
            continue;
        }
        if l == Lit::FALSE {
            continue;
        }
        match out.last_mut() {
            Some((pl, pw)) if *pl == l => *pw += w,
            _ => out.push((l, w)),
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
    fn normalization_merges_keeps_complements_and_clamps() {
        let a = Lit::pos(1);
        let b = Lit::pos(2);
        let (t, bound) = normalize(&[(a, 2), (!a, 3), (b, 9), (a, 1), (Lit::TRUE, 1)], 6);
        // bound 6 - 1 (true) = 5; a merged to 3; not a kept; b clamped to 5.
        assert_eq!(bound, 5);
        assert_eq!(t, vec![(a, 3), (!a, 3), (b, 5)]);
    }
}
