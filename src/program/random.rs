//! Random small programs for the tests that check a part of the solver against trying every
//! interpretation (the minimality check's testers, the verifier's unfounded-set search): normal
//! rules with disjunctive and choice heads over a few atoms, and the reduct's models.

use super::{Body, HeadKind, Program, atom_of};

/// A deterministic xorshift generator.
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The aspif text of 4 to 9 rules over atoms `1..=atoms`: one head in five a choice of one or two
/// atoms, else a disjunction of one to three; bodies of up to three literals, three in ten negated.
pub fn disjunctive_program(rng: &mut Rng, atoms: u64) -> String {
    let mut text = String::from("asp 1 0 0\n");
    for _ in 0..4 + rng.below(6) {
        let choice = rng.below(5) == 0;
        let heads: Vec<String> = (0..1 + rng.below(if choice { 2 } else { 3 }))
            .map(|_| (1 + rng.below(atoms)).to_string())
            .collect();
        let body: Vec<String> = (0..rng.below(4))
            .map(|_| {
                let a = 1 + rng.below(atoms) as i64;
                (if rng.below(10) < 7 { a } else { -a }).to_string()
            })
            .collect();
        text += &format!(
            "1 {} {} {} 0 {} {}\n",
            choice as u8,
            heads.len(),
            heads.join(" "),
            body.len(),
            body.join(" ")
        );
    }
    text + "0\n"
}

/// Whether `m2` is a model of the reduct `P^m` (normal bodies only); `m2 = m`: whether `m` is a
/// model of `P`.
pub fn model_of_reduct(program: &Program, m: &[bool], m2: &[bool]) -> bool {
    program.rules().all(|r| {
        let Body::Normal(body) = r.body else { unreachable!("normal bodies only") };
        let holds = body.iter().all(|&l| if l > 0 { m2[l as usize] } else { !m[atom_of(l) as usize] });
        !holds
            || match r.kind {
                HeadKind::Disjunction => r.head.iter().any(|&h| m2[h as usize]),
                HeadKind::Choice => r.head.iter().all(|&h| !m[h as usize] || m2[h as usize]),
            }
    })
}

/// Whether some `M' ⊊ M` that differs from `M` only on the atoms `may_drop` accepts is a model of
/// `P^M`, by trying every one.
pub fn smaller_model_exists(program: &Program, m: &[bool], may_drop: impl Fn(usize) -> bool) -> bool {
    let inside: Vec<usize> = (1..m.len()).filter(|&a| m[a] && may_drop(a)).collect();
    (0..(1u32 << inside.len()) - 1).any(|keep| {
        let mut m2 = m.to_vec();
        for (i, &a) in inside.iter().enumerate() {
            m2[a] = keep >> i & 1 == 1;
        }
        model_of_reduct(program, m, &m2)
    })
}
