//! Forward learning (Algorithm 4 of the paper): every assigned variable carries the set of
//! decision levels its value depends on, as a bitmap; a conflict's nogood is the set of decisions
//! in the union of its literals' bitmaps.
//!
//! Invariant: `row(v)` of an assigned variable at level > 0 is the union of the rows of its
//! antecedents, or `{level}` for a decision; rows of level-0 variables are empty. Rows have
//! `words` 64-bit words, doubled (and the table re-laid out) when the decision level outgrows
//! them, so there is no fixed cap on levels.

pub struct Deps {
    words: usize,
    bits: Vec<u64>,
    nvars: usize,
    scratch: Vec<u64>,
}

impl Deps {
    pub fn new(num_vars: u32) -> Self {
        let nvars = num_vars as usize;
        Deps { words: 1, bits: vec![0; nvars], nvars, scratch: vec![0; 1] }
    }

    /// Makes room for level `lv`.
    pub fn ensure_level(&mut self, lv: u32) {
        let need = lv as usize / 64 + 1;
        if need <= self.words {
            return;
        }
        let mut words = self.words;
        while words < need {
            words *= 2;
        }
        let mut bits = vec![0u64; self.nvars * words];
        for v in 0..self.nvars {
            bits[v * words..v * words + self.words]
                .copy_from_slice(&self.bits[v * self.words..(v + 1) * self.words]);
        }
        self.bits = bits;
        self.words = words;
        self.scratch = vec![0; words];
    }

    fn row(&self, v: u32) -> &[u64] {
        let s = v as usize * self.words;
        &self.bits[s..s + self.words]
    }

    pub fn set_decision(&mut self, v: u32, lv: u32) {
        self.ensure_level(lv);
        let s = v as usize * self.words;
        self.bits[s..s + self.words].fill(0);
        self.bits[s + lv as usize / 64] |= 1 << (lv % 64);
    }

    pub fn clear(&mut self, v: u32) {
        let s = v as usize * self.words;
        self.bits[s..s + self.words].fill(0);
    }

    /// Sets `row(v)` to the union of the rows of `antecedents`.
    pub fn set_union(&mut self, v: u32, antecedents: impl Iterator<Item = u32>) {
        self.scratch.fill(0);
        for a in antecedents {
            let s = a as usize * self.words;
            for (acc, &w) in self.scratch.iter_mut().zip(&self.bits[s..s + self.words]) {
                *acc |= w;
            }
        }
        let s = v as usize * self.words;
        self.bits[s..s + self.words].copy_from_slice(&self.scratch);
    }

    /// The levels the given variables depend on, highest first.
    pub fn levels_of(&self, vars: impl Iterator<Item = u32>) -> Vec<u32> {
        let mut acc = vec![0u64; self.words];
        for v in vars {
            for (x, &w) in acc.iter_mut().zip(self.row(v)) {
                *x |= w;
            }
        }
        let mut levels = Vec::new();
        for (i, &w) in acc.iter().enumerate().rev() {
            let mut w = w;
            while w != 0 {
                let b = 63 - w.leading_zeros();
                levels.push(i as u32 * 64 + b);
                w &= !(1u64 << b);
            }
        }
        levels
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unions_grow_past_64_levels() {
        let mut d = Deps::new(4);
        d.set_decision(1, 3);
        d.set_decision(2, 100);
        d.set_union(3, [1, 2].into_iter());
        assert_eq!(d.levels_of([3].into_iter()), vec![100, 3]);
        d.set_decision(0, 200);
        assert_eq!(d.levels_of([3, 0].into_iter()), vec![200, 100, 3]);
    }
}
