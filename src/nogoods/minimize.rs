//! Minimize statements as lexicographic cost levels over solver literals.
//!
//! Level 0 is the most important (highest priority). Weights are positive: a negative weight
//! `w` on `l` is rewritten as `-w` on `not l` plus the constant `w`, kept in `offset`, so the
//! cost of a model is `offset + sum of weights of true literals`, level by level.

use super::lit::Lit;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CostLevels {
    /// The input priority of each level, highest first.
    pub priorities: Vec<i32>,
    pub offset: Vec<i64>,
    /// Level `i` owns `lits[start[i]..start[i+1]]` and the same range of `weights`.
    pub start: Vec<u32>,
    pub lits: Vec<Lit>,
    pub weights: Vec<i64>,
}

impl CostLevels {
    pub fn len(&self) -> usize {
        self.priorities.len()
    }

    pub fn is_empty(&self) -> bool {
        self.priorities.is_empty()
    }

    pub fn range(&self, level: usize) -> std::ops::Range<usize> {
        self.start[level] as usize..self.start[level + 1] as usize
    }

    /// The cost vector of a total assignment given by `is_true`.
    pub fn costs(&self, mut is_true: impl FnMut(Lit) -> bool) -> Vec<i64> {
        (0..self.len())
            .map(|i| {
                let r = self.range(i);
                self.offset[i]
                    + self.lits[r.clone()]
                        .iter()
                        .zip(&self.weights[r])
                        .filter(|(l, _)| is_true(**l))
                        .map(|(_, w)| w)
                        .sum::<i64>()
            })
            .collect()
    }
}
