//! A compressed-sparse-row multimap from dense indices to lists, for the static indices (per
//! literal, per variable, per body) that never change after construction: one offset array and
//! one item array instead of a vector per key.

use crate::stop::{Interrupted, StopToken};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csr<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy + Default> Csr<T> {
    /// Groups `(key, item)` pairs by key (keys `< n`), keeping their order within a key. The
    /// iterator is walked twice (count, then fill).
    pub fn from_pairs<I>(n: usize, pairs: I) -> Self
    where
        I: Iterator<Item = (usize, T)> + Clone,
    {
        Self::from_pairs_until(n, pairs, &StopToken::never()).expect("never stopped")
    }

    /// [`from_pairs`](Self::from_pairs), polling `stop` (an index of millions of pairs takes a
    /// while).
    pub fn from_pairs_until<I>(n: usize, pairs: I, stop: &StopToken) -> Result<Self, Interrupted>
    where
        I: Iterator<Item = (usize, T)> + Clone,
    {
        let mut start = vec![0u32; n + 1];
        for (i, (k, _)) in pairs.clone().enumerate() {
            stop.check_every(i)?;
            start[k + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill = start.clone();
        let mut items = vec![T::default(); start[n] as usize];
        for (i, (k, x)) in pairs.enumerate() {
            stop.check_every(i)?;
            items[fill[k] as usize] = x;
            fill[k] += 1;
        }
        Ok(Csr { start, items })
    }

    #[inline]
    pub fn get(&self, k: usize) -> &[T] {
        &self.items[self.start[k] as usize..self.start[k + 1] as usize]
    }

    /// Key `k`'s entry in the index, and its first item: what a prefetch asks for, ahead of a
    /// [`get`](Self::get) of `k` (the first is read to find the second).
    #[inline]
    pub fn index_entry(&self, k: usize) -> Option<&u32> {
        self.start.get(k)
    }

    #[inline]
    pub fn first(&self, k: usize) -> Option<&T> {
        self.items.get(*self.start.get(k)? as usize)
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn total(&self) -> usize {
        self.items.len()
    }

    /// The offsets and the items, for uploading.
    pub fn into_parts(self) -> (Vec<u32>, Vec<T>) {
        (self.start, self.items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_in_order() {
        let pairs = [(2usize, 'a'), (0, 'b'), (2, 'c')];
        let c = Csr::from_pairs(3, pairs.iter().copied());
        assert_eq!(c.get(0), &['b']);
        assert_eq!(c.get(1), &[] as &[char]);
        assert_eq!(c.get(2), &['a', 'c']);
        assert_eq!((c.len(), c.total()), (3, 3));
    }
}
