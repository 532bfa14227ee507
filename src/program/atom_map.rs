//! Dense renumbering of input atoms, with memory bounded by the input rather than the largest number.
//!
//! Numbers up to a limit derived from the input's length go through a direct table (gringo numbers
//! atoms densely, so this is the fast path); larger numbers go through a hash map. A 20-byte file
//! naming atom 268,435,454 thus costs one hash entry, not a gigabyte-sized table.

use super::Atom;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiplicative hashing for `u32` keys (the keys are atom numbers, not attacker-chosen strings;
/// a reader rejects malformed input long before a collision pattern could matter).
#[derive(Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (u64::from(n) ^ self.0).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

pub type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// Maps input atom numbers to dense numbers `1..=len()` in order of first appearance.
pub struct AtomMap {
    direct: Vec<u32>,
    limit: u32,
    sparse: IdMap<u32, u32>,
    next: u32,
}

impl AtomMap {
    /// A map whose direct table may grow to an eighth of `input_len` entries (at least 4096).
    pub fn for_input_len(input_len: usize) -> Self {
        let limit = (input_len / 8).clamp(4096, 1 << 28) as u32;
        AtomMap { direct: Vec::new(), limit, sparse: IdMap::default(), next: 0 }
    }

    /// The number of distinct atoms seen.
    pub fn count(&self) -> u32 {
        self.next
    }

    /// The dense number of `original` if it was seen.
    pub fn get(&self, original: Atom) -> Option<Atom> {
        if original < self.limit {
            self.direct.get(original as usize).copied().filter(|&d| d != 0)
        } else {
            self.sparse.get(&original).copied()
        }
    }

    /// The dense number of `original`, allocating the next one on first sight.
    #[inline]
    pub fn dense(&mut self, original: Atom) -> Atom {
        if original < self.limit {
            let i = original as usize;
            if i >= self.direct.len() {
                let size = (i + 1).next_power_of_two().min(self.limit as usize);
                self.direct.resize(size, 0);
            }
            let slot = &mut self.direct[i];
            if *slot == 0 {
                self.next += 1;
                *slot = self.next;
            }
            *slot
        } else {
            let next = &mut self.next;
            *self.sparse.entry(original).or_insert_with(|| {
                *next += 1;
                *next
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_in_order_of_first_sight() {
        let mut m = AtomMap::for_input_len(100);
        assert_eq!(m.dense(7), 1);
        assert_eq!(m.dense(268_435_454), 2);
        assert_eq!(m.dense(7), 1);
        assert_eq!(m.dense(1), 3);
        assert_eq!(m.count(), 3);
        assert!(m.direct.len() <= 4096);
    }
}
