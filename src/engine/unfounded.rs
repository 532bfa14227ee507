//! Unfounded-set propagation over the cyclic atoms (clasp's `unfounded_check`, with source
//! pointers), so that every total assignment the search reaches is stable.
//!
//! Invariant (between checks): every cyclic atom that is not false either has a *source*, a
//! supporting body that is not false and whose positive cyclic atoms are sourced (so following
//! sources never loops), or is queued in `recheck`. A check first withdraws the sources of
//! falsified bodies (and, transitively, of bodies that relied on withdrawn atoms), then looks for
//! new sources; the atoms left without one form an unfounded set `U`. Each atom of `U` is then
//! false by the loop nogood `{T a} + {F B : B an external body of U}`; a true one is a conflict.
//!
//! An unfounded set is falsified one closed part at a time, with propagation in between; the
//! rest of it (`rest`) stays unfounded until a backtrack, since until then atoms only become false
//! and sources only go, so the next check takes it as it is instead of looking for its sources
//! again (which made a check cost the whole set, not the change, where a large set falls apart
//! into many small parts).
//!
//! In components with head cycles a shifted body is judged by its unshifted base (ignoring the
//! other heads): weaker, hence sound, and the minimality check completes it.

use crate::engine::assignment::{Assignment, Reason};
use crate::engine::loops::Loops;
use crate::nogoods::{Csr, Lit, NONE, Problem, Var};

pub struct Unfounded {
    cyclic: Vec<bool>,
    source: Vec<u32>,
    /// Closures, witnesses, and the effective body of each body.
    pub loops: Loops,
    /// Per body: whether it is a weight or disjunctive body (watched on its members too).
    is_sum: Vec<bool>,
    /// Per variable: bodies whose definition contains it positively and that support cyclic atoms.
    pos_occ_start: Vec<u32>,
    pos_occ: Vec<u32>,
    /// Per literal index: bodies (with cyclic heads) falsified when the literal becomes true.
    falsifies: Csr<u32>,
    /// Per body: the cyclic atoms it supports (heads and choice heads).
    cyclic_heads: Csr<u32>,
    pending: Vec<u32>,
    recheck: Vec<Var>,
    in_recheck: Vec<bool>,
    /// Atoms of the last unfounded set not yet falsified: unsourced, and unfounded until a
    /// backtrack, which queues them in `recheck` again.
    rest: Vec<Var>,
    unsource_queue: Vec<Var>,
    in_u: Vec<bool>,
    in_closure: Vec<bool>,
    /// Per variable: queued for a new source (each atom is queued once at a time).
    in_work: Vec<bool>,
    /// Scratch of a check, kept to reuse their memory: the atoms queued for a new source, and
    /// the heads whose source a body takes away.
    work: Vec<Var>,
    lost: Vec<Var>,
    /// Antecedents of loop-nogood implications, with the level they were made at.
    pub reasons: Vec<(u32, Vec<Lit>)>,
    pub found: u64,
}

/// A true atom in an unfounded set: the violated loop nogood.
#[derive(Debug)]
pub struct LoopConflict(pub Vec<Lit>);

impl Unfounded {
    pub fn new(p: &Problem) -> Self {
        let nv = p.num_vars as usize;
        let cyclic: Vec<bool> = (0..nv).map(|v| p.is_cyclic(v as Var)).collect();
        let bt = &p.bodies;
        let nb = bt.len();
        let loops = Loops::new(p);
        let head_pairs =
            (0..nb).flat_map(|b| bt.supported(b).filter(|&h| cyclic[h as usize]).map(move |h| (b, h)));
        let cyclic_heads = Csr::from_pairs(nb, head_pairs);
        let mut occ: Vec<Vec<u32>> = vec![Vec::new(); nv];
        let mut falsify_pairs = Vec::new();
        let mut is_sum_body = vec![false; nb];
        for b in 0..nb {
            // The effective bodies of b, one per kind of head it supports (own or shifted base).
            let mut effs: Vec<usize> = cyclic_heads.get(b).iter().map(|&h| loops.eff(b as u32, h)).collect();
            effs.sort_unstable();
            effs.dedup();
            for e in effs {
                let lits = bt.def(e).0;
                for &l in lits {
                    if l.is_pos() && cyclic[l.var() as usize] {
                        occ[l.var() as usize].push(b as u32);
                    }
                }
                let lit = bt.lit[e];
                if lit != Lit::TRUE {
                    falsify_pairs.push(((!lit).index(), b as u32));
                }
                // A weight or disjunctive body can stay true while a false member leaves it
                // leaning on the atoms it supports: watch its members too.
                if !bt.is_normal(e) {
                    is_sum_body[e] = true;
                    falsify_pairs.extend(lits.iter().map(|&l| ((!l).index(), b as u32)));
                }
            }
        }
        let falsifies = Csr::from_pairs(2 * nv, falsify_pairs.into_iter());
        let mut pos_occ_start = vec![0u32];
        let mut pos_occ = Vec::new();
        for o in &mut occ {
            o.sort_unstable();
            o.dedup();
            pos_occ.extend_from_slice(o);
            pos_occ_start.push(pos_occ.len() as u32);
        }
        let recheck: Vec<Var> = (0..nv as Var).filter(|&v| cyclic[v as usize]).collect();
        let mut in_recheck = vec![false; nv];
        for &v in &recheck {
            in_recheck[v as usize] = true;
        }
        Unfounded {
            cyclic,
            source: vec![NONE; nv],
            loops,
            is_sum: is_sum_body,
            pos_occ_start,
            pos_occ,
            falsifies,
            cyclic_heads,
            pending: Vec::new(),
            recheck,
            in_recheck,
            rest: Vec::new(),
            unsource_queue: Vec::new(),
            in_u: vec![false; nv],
            in_closure: vec![false; nv],
            in_work: vec![false; nv],
            work: Vec::new(),
            lost: Vec::new(),
            reasons: Vec::new(),
            found: 0,
        }
    }

    /// A literal became true.
    #[inline]
    pub fn on_true(&mut self, l: Lit) {
        self.pending.extend_from_slice(self.falsifies.get(l.index()));
    }

    pub fn has_trigger(&self, l: Lit) -> bool {
        !self.falsifies.get(l.index()).is_empty()
    }

    /// A variable became unassigned.
    #[inline]
    pub fn on_unassign(&mut self, v: Var) {
        let vi = v as usize;
        if self.cyclic[vi] && self.source[vi] == NONE && !self.in_recheck[vi] {
            self.in_recheck[vi] = true;
            self.recheck.push(v);
        }
    }

    /// Drops loop reasons made above `level`; the rest of the last unfounded set may have sources
    /// again.
    pub fn backtrack(&mut self, level: u32) {
        while self.reasons.last().is_some_and(|r| r.0 > level) {
            self.reasons.pop();
        }
        for x in std::mem::take(&mut self.rest) {
            self.queue_recheck(x);
        }
    }

    pub fn needs_check(&self) -> bool {
        !self.pending.is_empty() || !self.recheck.is_empty() || !self.rest.is_empty()
    }

    /// Whether body `b` can be the source of `h`: not false, and reaching its bound with
    /// literals that are not false and whose cyclic atoms are sourced.
    fn valid(&self, p: &Problem, a: &Assignment, b: usize, h: Var) -> bool {
        let e = self.loops.eff(b as u32, h);
        if a.is_false(p.bodies.lit[e]) {
            return false;
        }
        let (lits, ws) = p.bodies.def(e);
        let mut sum = 0;
        let bound = p.bodies.bound[e];
        // A normal body (weight 1 a literal, bound its length) fails at its first such literal.
        let normal = !self.is_sum[e];
        for (&l, &w) in lits.iter().zip(ws) {
            if a.is_false(l)
                || (l.is_pos() && self.cyclic[l.var() as usize] && self.source[l.var() as usize] == NONE)
            {
                if normal {
                    return false;
                }
                continue;
            }
            sum += w;
            if sum >= bound {
                return true;
            }
        }
        sum >= bound
    }

    fn unsource(&mut self, v: Var) {
        self.source[v as usize] = NONE;
        self.unsource_queue.push(v);
    }

    fn queue_recheck(&mut self, v: Var) {
        if !self.in_recheck[v as usize] {
            self.in_recheck[v as usize] = true;
            self.recheck.push(v);
        }
    }

    /// Runs the check; falsified atoms are assigned (and appended to `assigned`).
    pub fn check(
        &mut self,
        p: &Problem,
        a: &mut Assignment,
        assigned: &mut Vec<Lit>,
    ) -> Result<(), LoopConflict> {
        // 1. Withdraw sources of falsified bodies, then of bodies relying on withdrawn atoms.
        // A sum body whose member became false may now lean on the very atoms it supports (a
        // re-check would count them as sourced): its sources are withdrawn and found again.
        let mut lost = std::mem::take(&mut self.lost);
        while let Some(b) = self.pending.pop() {
            let b = b as usize;
            lost.clear();
            lost.extend(
                self.cyclic_heads
                    .get(b)
                    .iter()
                    .copied()
                    .filter(|&h| self.source[h as usize] == b as u32)
                    .filter(|&h| {
                        let e = self.loops.eff(b as u32, h);
                        a.is_false(p.bodies.lit[e]) || self.is_sum[e]
                    }),
            );
            for &h in &lost {
                self.unsource(h);
            }
        }
        while let Some(x) = self.unsource_queue.pop() {
            self.queue_recheck(x);
            for i in self.pos_occ_start[x as usize]..self.pos_occ_start[x as usize + 1] {
                let b = self.pos_occ[i as usize] as usize;
                // Unconditionally: a sum body might still reach its bound through other atoms,
                // but those may owe their own source to `h` (a cycle); re-sourcing decides.
                lost.clear();
                lost.extend(
                    self.cyclic_heads.get(b).iter().copied().filter(|&h| self.source[h as usize] == b as u32),
                );
                for &h in &lost {
                    self.unsource(h);
                }
            }
        }
        self.lost = lost;
        // 2. Find new sources, propagating forward through the bodies a new source enables.
        let mut work = std::mem::take(&mut self.work);
        work.clear();
        work.extend_from_slice(&self.recheck);
        for &x in &work {
            self.in_work[x as usize] = true;
        }
        while let Some(x) = work.pop() {
            let xi = x as usize;
            self.in_work[xi] = false;
            if self.source[xi] != NONE || a.is_false(Lit::pos(x)) {
                continue;
            }
            let found = p.supports(x).iter().copied().find(|&b| self.valid(p, a, b as usize, x));
            if let Some(b) = found {
                self.source[xi] = b;
                for i in self.pos_occ_start[xi]..self.pos_occ_start[xi + 1] {
                    for &h in self.cyclic_heads.get(self.pos_occ[i as usize] as usize) {
                        let hi = h as usize;
                        if self.source[hi] == NONE && !self.in_work[hi] && !a.is_false(Lit::pos(h)) {
                            self.in_work[hi] = true;
                            work.push(h);
                        }
                    }
                }
            }
        }
        self.work = work;
        // 3. What is left unsourced and not false is unfounded, with the rest of the last set.
        let recheck = std::mem::take(&mut self.recheck);
        let mut unfounded = std::mem::take(&mut self.rest);
        debug_assert!(
            unfounded.iter().all(|&x| self.source[x as usize] == NONE),
            "a sourced atom in the rest"
        );
        unfounded.retain(|&x| self.source[x as usize] == NONE && !a.is_false(Lit::pos(x)));
        for &x in &unfounded {
            self.in_u[x as usize] = true;
        }
        for &x in &recheck {
            self.in_recheck[x as usize] = false;
            if self.source[x as usize] == NONE && !a.is_false(Lit::pos(x)) && !self.in_u[x as usize] {
                self.in_u[x as usize] = true;
                unfounded.push(x);
            }
        }
        self.recheck = recheck;
        self.recheck.clear();
        if unfounded.is_empty() {
            self.rest = unfounded;
            return Ok(());
        }
        self.found += 1;
        // Falsify one closed part of U at a time (small loop nogoods make short reasons): the
        // atoms that the internal supports of one atom depend on, transitively. Its external
        // bodies are U's, so all false; the rest of U is checked again after propagation.
        // Start in the lowest component (its closure stays inside it, as no atom of a lower
        // component is in U), preferring a true atom there (a conflict).
        let scc = |x: Var| p.scc[x as usize];
        let lowest = unfounded.iter().map(|&x| scc(x)).min().expect("non-empty");
        let mut in_lowest = unfounded.iter().copied().filter(|&x| scc(x) == lowest);
        let first = in_lowest.next().expect("non-empty");
        let start =
            std::iter::once(first).chain(in_lowest).find(|&x| a.is_true(Lit::pos(x))).unwrap_or(first);
        let closed = self.loops.closure(p, start, &self.in_u, &mut self.in_closure, |l| a.is_false(l));
        let ext = self.loops.witnesses(p, &closed, &self.in_closure, |l| a.is_false(l));
        for &x in &unfounded {
            self.in_u[x as usize] = false;
            if !self.in_closure[x as usize] {
                self.rest.push(x);
            }
        }
        for &x in &closed {
            self.in_closure[x as usize] = false;
        }
        let Some(ext) = ext else {
            // Not unfounded after all (cannot happen at a propagation fixpoint): keep checking.
            debug_assert!(false, "unfounded set with a body that can support it");
            for &x in &closed {
                self.queue_recheck(x);
            }
            return Ok(());
        };
        if a.is_true(Lit::pos(start)) {
            let mut ng = vec![Lit::pos(start)];
            ng.extend_from_slice(&ext);
            // Atoms of U stay unsourced: requeue them so the next check sees them again.
            for &x in &closed {
                self.queue_recheck(x);
            }
            return Err(LoopConflict(ng));
        }
        log::trace!(
            "unfounded: {} of {} atoms falsified, {} external bodies",
            closed.len(),
            unfounded.len(),
            ext.len()
        );
        let id = self.reasons.len() as u32;
        self.reasons.push((a.decision_level(), ext));
        for &x in &closed {
            debug_assert!(!a.is_true(Lit::pos(x)), "a true atom in the closure of a non-true one");
            a.assign(Lit::neg(x), Reason::Loop(id));
            assigned.push(Lit::neg(x));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Unfounded;
    use crate::engine::assignment::{Assignment, Reason};
    use crate::input::read_program;
    use crate::nogoods::{Lit, complete};
    use crate::stop::StopToken;

    /// `{c}.` and `n` loops `p :- q. q :- p. p :- c.` (atoms 1, then 2i and 2i+1): with `c` false
    /// all loops are unfounded at once, each a closed part of its own.
    fn loops(n: u32) -> crate::nogoods::Problem {
        let mut text = String::from("asp 1 0 0\n1 1 1 1 0 0\n");
        for i in 1..=n {
            let (p, q) = (2 * i, 2 * i + 1);
            text += &format!("1 0 1 {p} 0 1 {q}\n1 0 1 {q} 0 1 {p}\n1 0 1 {p} 0 1 1\n");
        }
        text += "0\n";
        complete(&read_program(text.as_bytes()).unwrap(), &StopToken::never(), 0).unwrap()
    }

    /// Checks until a fixpoint, as the propagation loop does; the number of checks that falsified.
    fn run(u: &mut Unfounded, p: &crate::nogoods::Problem, a: &mut Assignment, limit: usize) -> usize {
        let mut rounds = 0;
        while u.needs_check() && rounds < limit {
            let mut assigned = Vec::new();
            u.check(p, a, &mut assigned).expect("no true atom is unfounded");
            if assigned.is_empty() {
                break;
            }
            rounds += 1;
            for l in assigned {
                u.on_true(l);
            }
        }
        rounds
    }

    #[test]
    fn the_rest_of_an_unfounded_set_is_falsified_and_sourced_again_after_a_backtrack() {
        let n = 6;
        let p = loops(n);
        let atoms: Vec<u32> = (2..=2 * n + 1).collect();
        assert!(atoms.iter().all(|&x| p.is_cyclic(x)) && !p.is_cyclic(1));
        let mut a = Assignment::new(p.num_vars);
        let mut u = Unfounded::new(&p);
        u.on_true(Lit::TRUE);
        assert_eq!(run(&mut u, &p, &mut a, usize::MAX), 0, "all sourced by c");
        let make_c_false = |a: &mut Assignment, u: &mut Unfounded| {
            a.new_level();
            a.assign(Lit::neg(1), Reason::Decision);
            u.on_true(Lit::neg(1));
        };
        // Two loops falsified, then a backtrack: the other four are sourced again.
        make_c_false(&mut a, &mut u);
        assert_eq!(run(&mut u, &p, &mut a, 2), 2);
        a.backtrack(0, |_, l| u.on_unassign(l.var()));
        u.backtrack(0);
        assert_eq!(run(&mut u, &p, &mut a, usize::MAX), 0, "sourced again");
        // All of them this time, one loop a check.
        make_c_false(&mut a, &mut u);
        assert_eq!(run(&mut u, &p, &mut a, usize::MAX), n as usize);
        assert!(atoms.iter().all(|&x| a.is_false(Lit::pos(x))));
        assert_eq!(u.found, 2 + n as u64);
    }
}
