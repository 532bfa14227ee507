//! Solver variables and signed literals, encoded as plain `u32` so arrays of them can go to the GPU.
//!
//! Variable 0 is the constant `true`; variables `1..=atoms` are the program's atoms (same numbers as
//! the dense program atoms); body and auxiliary variables follow. A literal is `var << 1 | sign`
//! where sign 0 is `T var` and sign 1 is `F var` (the paper's signed atoms).

use std::fmt;

pub type Var = u32;

/// A signed variable: `T v` (`v` true) or `F v` (`v` false).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Lit(pub u32);

impl Lit {
    /// The constant `T 0`, true at level 0.
    pub const TRUE: Lit = Lit(0);
    /// The constant `F 0`, never true.
    pub const FALSE: Lit = Lit(1);

    #[inline]
    pub const fn pos(v: Var) -> Lit {
        Lit(v << 1)
    }
    #[inline]
    pub const fn neg(v: Var) -> Lit {
        Lit((v << 1) | 1)
    }
    #[inline]
    pub const fn new(v: Var, positive: bool) -> Lit {
        Lit((v << 1) | (!positive) as u32)
    }
    #[inline]
    pub const fn var(self) -> Var {
        self.0 >> 1
    }
    #[inline]
    pub const fn is_pos(self) -> bool {
        self.0 & 1 == 0
    }
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// From a program literal (positive or negated atom).
    #[inline]
    pub fn from_program(l: crate::program::Lit) -> Lit {
        Lit::new(l.unsigned_abs(), l > 0)
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    #[inline]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", if self.is_pos() { 'T' } else { 'F' }, self.var())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding() {
        let l = Lit::pos(5);
        assert_eq!(l.var(), 5);
        assert!(l.is_pos());
        assert_eq!(!l, Lit::neg(5));
        assert_eq!(!!l, l);
        assert_eq!(Lit::from_program(-3), Lit::neg(3));
        assert_eq!(!Lit::TRUE, Lit::FALSE);
    }
}
