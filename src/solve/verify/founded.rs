//! Whether a supported model of a non-tight program free of head cycles is unfounded-free,
//! looking only at its cyclic components: the incremental counts (`support.rs`) have said that
//! the model is supported, and this pass derives its true cyclic atoms bottom-up from the rules
//! that support them. The check from scratch (`mod.rs`) computes the least model of the whole
//! reduct instead.
//!
//! With head cycles absent, a disjunctive rule supports a head only where it is the only true one
//! (shifting), a choice rule each of its true heads. A nonempty unfounded set of a supported model
//! has a cyclic atom (its lowest atom has a supporting rule, all of whose positive body atoms in
//! the set would have to be lower), and the true cyclic atoms that no sequence of supporting
//! rules derives from the true acyclic atoms (founded by support alone, as far as cycles go)
//! form one: so the model is an answer set exactly when every true cyclic atom is derived. A
//! weight body is met once the weight of its literals true in the model, less that of its positive
//! cyclic atoms not derived yet, reaches its bound.

use super::support::Support;
use crate::nogoods::Csr;
use crate::program::deps::Dependencies;
use crate::program::{Atom, ExternalValue, Program};

/// What the pass needs of a program, made once for all its models.
///
/// Invariant: `rules` are the program's rules with a cyclic atom in the head; `heads` and
/// `cyclic_body` are indexed by their place in `rules`, and `body_occ` lists, per atom, the places
/// of the rules whose body has it as a positive literal with its weight (cyclic atoms only).
pub struct Prepared {
    /// Cyclic atoms that may be unfounded (not true or free externals), per atom and as a list.
    cyclic: Vec<bool>,
    cyclic_atoms: Vec<Atom>,
    rules: Vec<u32>,
    heads: Csr<Atom>,
    /// Per rule place: its positive body literals over cyclic atoms, with their weights.
    cyclic_body: Csr<(Atom, i64)>,
    body_occ: Csr<(u32, i64)>,
}

impl Prepared {
    /// `externals` are the program's effective externals (`Program::effective_externals`).
    pub fn new(program: &Program, deps: &Dependencies, externals: &[(Atom, ExternalValue)]) -> Prepared {
        let n = program.atom_count() as usize;
        let (cyclic, rules) = super::may_be_unfounded(program, deps, externals);
        let cyclic_atoms = (1..=n as Atom).filter(|&a| cyclic[a as usize]).collect();
        let heads = Csr::from_pairs(
            rules.len(),
            rules
                .iter()
                .enumerate()
                .flat_map(|(k, &r)| program.rule(r as usize).head.iter().map(move |&a| (k, a))),
        );
        let body = |k: usize| {
            let b = program.rule(rules[k] as usize).body;
            let lits = b.lits();
            let cyclic = &cyclic;
            (0..lits.len())
                .filter(move |&i| lits[i] > 0 && cyclic[lits[i] as usize])
                .map(move |i| (lits[i] as Atom, b.weight(i)))
        };
        let cyclic_body =
            Csr::from_pairs(rules.len(), (0..rules.len()).flat_map(|k| body(k).map(move |x| (k, x))));
        let body_occ = Csr::from_pairs(
            n + 1,
            (0..rules.len()).flat_map(|k| body(k).map(move |(a, w)| (a as usize, (k as u32, w)))),
        );
        Prepared { cyclic, cyclic_atoms, rules, heads, cyclic_body, body_occ }
    }
}

/// The working memory of the pass, kept from one model to the next.
#[derive(Default)]
pub struct Scratch {
    /// Per rule place: the weight its body still lacks (positive cyclic atoms not yet derived).
    need: Vec<i64>,
    /// Per atom: whether it is derived (all false between checks: each check clears what it set).
    derived: Vec<bool>,
    /// The atoms derived, in order; the first `done` are propagated.
    queue: Vec<Atom>,
}

/// A true cyclic atom of `m` that is unfounded, if there is one; `m` is a supported model of the
/// program `prepared` was made for, and `support` its counts, kept for `m`.
pub fn check(prepared: &Prepared, m: &[bool], support: &Support, scratch: &mut Scratch) -> Option<Atom> {
    let Scratch { need, derived, queue } = scratch;
    derived.resize(m.len(), false);
    queue.clear();
    need.clear();
    need.resize(prepared.rules.len(), i64::MAX);
    for (k, &r) in prepared.rules.iter().enumerate() {
        if !support.supports_heads(r as usize) {
            continue; // its body is false in m, or it is disjunctive with other true heads
        }
        let slack = support.slack(r as usize).expect("a supporting rule's body holds");
        // The weight of its true positive cyclic atoms, none derived yet, less the slack.
        let lacking: i64 =
            prepared.cyclic_body.get(k).iter().filter(|&&(a, _)| m[a as usize]).map(|&(_, w)| w).sum();
        need[k] = lacking - slack;
        if need[k] <= 0 {
            fire(prepared, k, m, derived, queue);
        }
    }
    let mut done = 0;
    while done < queue.len() {
        let a = queue[done];
        done += 1;
        for &(k, w) in prepared.body_occ.get(a as usize) {
            let k = k as usize;
            if need[k] == i64::MAX {
                continue;
            }
            let before = need[k];
            need[k] -= w;
            if before > 0 && need[k] <= 0 {
                fire(prepared, k, m, derived, queue);
            }
        }
    }
    let unfounded = prepared.cyclic_atoms.iter().copied().find(|&a| m[a as usize] && !derived[a as usize]);
    for &a in queue.iter() {
        derived[a as usize] = false;
    }
    unfounded
}

/// Rule place `k`'s body is met: its true cyclic heads are derived (a supporting rule's true
/// heads: all of a choice rule's, the one of a disjunctive rule's).
fn fire(prepared: &Prepared, k: usize, m: &[bool], derived: &mut [bool], queue: &mut Vec<Atom>) {
    for &h in prepared.heads.get(k) {
        if m[h as usize] && prepared.cyclic[h as usize] && !derived[h as usize] {
            derived[h as usize] = true;
            queue.push(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;
    use crate::program::random::{Rng, smaller_model_exists};

    /// A program over atoms `1..=6`: two choice rules of one atom, and four to eight rules of one
    /// head and one or two body literals (other atoms, one in five negated): positive cycles are
    /// common.
    fn looping_program(rng: &mut Rng) -> String {
        let mut text = String::from("asp 1 0 0\n");
        for _ in 0..2 {
            text += &format!("1 1 1 {} 0 0\n", 1 + rng.below(6));
        }
        for _ in 0..4 + rng.below(5) {
            let h = 1 + rng.below(6);
            let mut body: Vec<i64> = Vec::new();
            for _ in 0..1 + rng.below(2) {
                let a = 1 + rng.below(6);
                if a != h && !body.iter().any(|&l| l.unsigned_abs() == a) {
                    body.push(if rng.below(5) == 0 { -(a as i64) } else { a as i64 });
                }
            }
            let lits: Vec<String> = body.iter().map(|l| l.to_string()).collect();
            text += &format!("1 0 1 {h} 0 {} {}\n", body.len(), lits.join(" "));
        }
        text + "0\n"
    }

    /// Random non-tight normal programs: on every interpretation the kept counts call a supported
    /// model, an unfounded atom is found exactly where a smaller model of the reduct exists.
    #[test]
    fn unfounded_atoms_are_found_where_a_smaller_model_exists() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut answer_sets, mut unfounded) = (0, 0);
        let mut scratch = Scratch::default();
        for _ in 0..1500 {
            let program = read_program(looping_program(&mut rng).as_bytes()).unwrap();
            let deps = Dependencies::new(&program);
            let externals = program.effective_externals();
            let Some(mut counts) = Support::new(&program, &externals) else { continue };
            if deps.is_tight() {
                continue;
            }
            let prepared = Prepared::new(&program, &deps, &externals);
            let n = program.atom_count() as usize;
            for bits in 0u32..1 << n {
                let m: Vec<bool> = (0..=n).map(|a| a > 0 && bits >> (a - 1) & 1 == 1).collect();
                if !counts.update(&m) {
                    continue;
                }
                let smaller = smaller_model_exists(&program, &m, |_| true);
                match check(&prepared, &m, &counts, &mut scratch) {
                    Some(a) => {
                        assert!(smaller && m[a as usize], "{m:?}: atom {a} unfounded");
                        unfounded += 1;
                    }
                    None => {
                        assert!(!smaller, "{m:?}: no unfounded atom found");
                        answer_sets += 1;
                    }
                }
            }
        }
        assert!(answer_sets > 200 && unfounded > 100, "{answer_sets} answer sets, {unfounded} not");
    }
}
