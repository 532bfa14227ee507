//! The searches' pseudo-random numbers (xorshift64, seeded from `--seed` and the search): the
//! signs of `--sign-def=rnd` and the variables of `--rand-freq`'s random decisions. A search's
//! numbers depend on its seed alone, so that a run repeats exactly.

/// A xorshift64 generator.
/// Invariant: the state is never 0 (xorshift would stay there).
#[derive(Clone, Copy, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value, 0 too).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// Generator `stream` of `seed`: draws of one search that must not follow one another's
    /// (its random signs and its random decisions).
    pub fn stream(seed: u64, stream: u64) -> Rng {
        Rng::new(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        debug_assert_ne!(x, 0, "xorshift's state 0");
        x
    }

    /// A number below `n` (> 0).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0, "a number below 0");
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// True with probability `p` (0 never, 1 always).
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn draws_repeat_from_a_seed_and_spread() {
        let (mut a, mut b, mut c) = (Rng::new(7), Rng::new(7), Rng::new(8));
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        assert_eq!(xs, (0..8).map(|_| b.next_u64()).collect::<Vec<_>>(), "one seed, one sequence");
        assert_ne!(xs, (0..8).map(|_| c.next_u64()).collect::<Vec<_>>(), "another seed, another");
        let mut counts = [0; 4];
        for _ in 0..4000 {
            counts[a.below(4)] += 1;
        }
        assert!(counts.iter().all(|&k| (800..1200).contains(&k)), "{counts:?}");
        let hits = (0..4000).filter(|_| a.chance(0.25)).count();
        assert!((800..1200).contains(&hits), "{hits} of 4000 at 0.25");
        assert!((0..100).all(|_| !a.chance(0.0)) && (0..100).all(|_| a.chance(1.0)));
    }
}
