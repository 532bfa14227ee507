//! The value a decision on a variable gives it when nothing else says (clasp's `--sign-def`),
//! shared by both engines' decisions on variables (`--decisions=vars`).

use super::rng::Rng;
use crate::nogoods::{Lit, Problem, Var};
use crate::solve::config::SignDef;

/// `--sign-def` over a program: asp decides bodies true and other atoms false, pos true, neg
/// false, rnd either at random from the search's seed.
/// Invariant: `body` has an entry per variable of the program it was made for.
pub struct Signs {
    sign: SignDef,
    /// Program atoms are variables `1..=num_atoms`; the others are bodies and auxiliaries.
    num_atoms: u32,
    /// Per variable: whether it stands for a rule's body of two literals or more (an atom does
    /// where its only rule is `a :- B`, or `--eq` finds it equivalent to such a body):
    /// `--sign-def=asp` decides it true, as clasp does. A body of one atom (`h :- a`) is that
    /// atom, decided false: clasp gives such a body the atom's variable, which keeps the atom's
    /// sign.
    body: Vec<bool>,
    /// `--sign-def=rnd`: the generator of signs, from the seed.
    rng: std::cell::Cell<Rng>,
}

impl Signs {
    /// The signs of `p`'s variables under `sign`, `seed` drawing the random ones.
    pub fn new(p: &Problem, sign: SignDef, seed: u64) -> Signs {
        let nv = p.num_vars as usize;
        let bt = &p.bodies;
        let mut body = vec![false; nv];
        if sign == SignDef::Asp {
            // A body's literal true: a body of one negative literal (`h :- not q`) is true where
            // its atom is false, as atoms are anyway.
            let one_atom = |b: usize| bt.def(b).0.len() == 1 && bt.is_normal(b);
            for b in (0..bt.len()).filter(|&b| bt.has_heads(b) && bt.lit[b].is_pos() && !one_atom(b)) {
                body[bt.lit[b].var() as usize] = true;
            }
            for v in 0..nv {
                if let Some(r) = p.leader(v as Var).filter(|r| body[v] && r.is_pos()) {
                    body[r.var() as usize] = true;
                }
            }
        }
        debug_assert_eq!(body.len(), nv, "a sign per variable");
        Signs { sign, num_atoms: p.num_atoms, body, rng: std::cell::Cell::new(Rng::new(seed)) }
    }

    /// The decision on `v` by `--sign-def` (rnd: a new draw each call).
    pub fn lit(&self, v: Var) -> Lit {
        let positive = match self.sign {
            SignDef::Asp => v > self.num_atoms || self.body[v as usize],
            SignDef::Pos => true,
            SignDef::Neg => false,
            SignDef::Rnd => {
                let mut rng = self.rng.get();
                let x = rng.next_u64();
                self.rng.set(rng);
                x & 1 == 1
            }
        };
        if positive { Lit::pos(v) } else { Lit::neg(v) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stop::StopToken;

    #[test]
    fn asp_decides_bodies_true_and_atoms_false() {
        // a :- not b.  b :- not a.  c :- a.  d :- a, c.
        let text = "asp 1 0 0\n1 0 1 1 0 1 -2\n1 0 1 2 0 1 -1\n1 0 1 3 0 1 1\n1 0 1 4 0 2 1 3\n0\n";
        let program = crate::input::read_program(text.as_bytes()).expect("a program");
        let p = crate::nogoods::complete(&program, &StopToken::never(), 0).expect("completed");
        let s = Signs::new(&p, SignDef::Asp, 1);
        // `c :- a`: a is that rule's whole body, and an atom still, as in clasp.
        assert_eq!((s.lit(1), s.lit(2), s.lit(3)), (Lit::neg(1), Lit::neg(2), Lit::neg(3)));
        // d's only rule has two literals: d stands for that body, decided true.
        assert_eq!(s.lit(4), Lit::pos(4));
        for v in p.num_atoms + 1..p.num_vars {
            assert_eq!(s.lit(v), Lit::pos(v), "body variable {v}");
        }
        let neg = Signs::new(&p, SignDef::Neg, 1);
        assert!((1..p.num_vars).all(|v| neg.lit(v) == Lit::neg(v)));
        let rnd = Signs::new(&p, SignDef::Rnd, 7);
        let draws: Vec<bool> = (0..64).map(|_| rnd.lit(1).is_pos()).collect();
        assert!(draws.contains(&true) && draws.contains(&false), "both values drawn");
    }
}
