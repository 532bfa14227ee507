//! The body table: every rule body with the literal that stands for it, its definition, and the
//! atoms it supports. Decisions (the ASP computation), unfounded-set checks and the minimality
//! check all read rules through it.
//!
//! A body's definition is a weighted sum: normal bodies have weight 1 per literal and bound = their
//! length; weight bodies keep their (normalised) weights; a disjunction of literals has bound 1.
//! Invariants: a body's `lit` is true exactly when its definition holds (ensured by nogoods or a
//! weight constraint); `bodies_of(l)` lists every body standing for literal `l` (several bodies
//! can share one: an atom and the only body that supports it); `heads` are atoms the
//! body derives (normal rules, shifted disjunctions), `choice_heads` atoms it merely allows.

use super::lit::Lit;

pub const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub struct BodyTable {
    pub lit: Vec<Lit>,
    pub bound: Vec<i64>,
    /// Body `b` is `lits[def_start[b]..def_start[b+1]]` with the same range of `weights`.
    pub def_start: Vec<u32>,
    pub lits: Vec<Lit>,
    pub weights: Vec<i64>,
    /// For a body made by shifting a disjunctive rule: the body of the unshifted rule; else itself.
    pub shift_base: Vec<u32>,
    pub head_start: Vec<u32>,
    pub heads: Vec<u32>,
    pub choice_start: Vec<u32>,
    pub choice_heads: Vec<u32>,
    /// For each literal index `i`: the bodies it stands for, `lit_bodies[lit_start[i]..lit_start[i+1]]`.
    pub lit_start: Vec<u32>,
    pub lit_bodies: Vec<u32>,
}

impl BodyTable {
    pub fn len(&self) -> usize {
        self.lit.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lit.is_empty()
    }

    pub fn def(&self, b: usize) -> (&[Lit], &[i64]) {
        let r = self.def_start[b] as usize..self.def_start[b + 1] as usize;
        (&self.lits[r.clone()], &self.weights[r])
    }

    pub fn heads(&self, b: usize) -> &[u32] {
        &self.heads[self.head_start[b] as usize..self.head_start[b + 1] as usize]
    }

    pub fn choice_heads(&self, b: usize) -> &[u32] {
        &self.choice_heads[self.choice_start[b] as usize..self.choice_start[b + 1] as usize]
    }

    /// The atoms body `b` supports: its heads, then its choice heads.
    pub fn supported(&self, b: usize) -> impl Iterator<Item = u32> + Clone + '_ {
        self.heads(b).iter().chain(self.choice_heads(b)).copied()
    }

    /// The bodies a literal stands for.
    pub fn bodies_of(&self, l: Lit) -> &[u32] {
        match (self.lit_start.get(l.index()), self.lit_start.get(l.index() + 1)) {
            (Some(&a), Some(&b)) => &self.lit_bodies[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Builds the literal index from `lit` (after all bodies are in place).
    pub fn index_literals(&mut self, num_vars: u32) {
        let n = 2 * num_vars as usize;
        let mut count = vec![0u32; n + 1];
        for l in &self.lit {
            count[l.index() + 1] += 1;
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let mut fill = count.clone();
        self.lit_bodies = vec![0; self.lit.len()];
        for (b, l) in self.lit.iter().enumerate() {
            self.lit_bodies[fill[l.index()] as usize] = b as u32;
            fill[l.index()] += 1;
        }
        self.lit_start = count;
    }

    /// Whether body `b` is a conjunction: weight 1 a literal, and a bound its length (or more:
    /// then it never holds). Weight and disjunctive bodies are not.
    pub fn is_normal(&self, b: usize) -> bool {
        let (lits, ws) = self.def(b);
        self.bound[b] >= lits.len() as i64 && ws.iter().all(|&w| w == 1)
    }

    /// Whether the body is the head of at least one rule (and so a candidate of the ASP computation).
    pub fn has_heads(&self, b: usize) -> bool {
        self.head_start[b] < self.head_start[b + 1] || self.choice_start[b] < self.choice_start[b + 1]
    }

    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.len();
        if [self.def_start.len(), self.head_start.len(), self.choice_start.len()] != [n + 1; 3] {
            return Err("body table index sizes".into());
        }
        for b in 0..n {
            if !self.bodies_of(self.lit[b]).contains(&(b as u32)) {
                return Err(format!("body {b}: the literal index does not list it"));
            }
            let (lits, ws) = self.def(b);
            if ws.iter().any(|&w| w < 1) || ws.iter().sum::<i64>() < self.bound[b] {
                return Err(format!("body {b}: bad weights or unreachable bound"));
            }
            if lits.contains(&self.lit[b]) && lits.len() > 1 {
                return Err(format!("body {b}: contains its own literal"));
            }
        }
        Ok(())
    }
}
