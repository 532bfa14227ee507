//! Whether a model is supported, kept up to date from one model to the next: an enumeration's
//! consecutive models differ in few atoms, and only the rules those atoms occur in are looked at
//! again. For a tight program that is the answer-set check; with head cycles, the unfounded-set
//! check follows (`mod.rs`).
//!
//! A supported model `m` violates no rule, and each true atom is the only true head of a
//! disjunctive rule, or a head of a choice rule, whose body holds in `m`, or a free external. For
//! a tight program (no positive cycle, not even `a :- a`) whose rules with heads have normal
//! bodies, or weight bodies with weights of at least 0, the answer sets are the supported models
//! (Fages). [`Support`] keeps per
//! rule the counts that say whether its body holds and how many of its heads are true, per atom
//! the number of rules that support it, and the number of violated rules and unsupported true
//! atoms. Programs outside that class (or with a true external, a repeated head atom or body
//! atom, or an atom in a rule's body and head) get no `Support`, and every model is checked from scratch (`mod.rs`); debug builds
//! check every verdict of `Support` against that.

use crate::program::{Body, ExternalValue, HeadKind, Program, atom_of};
use std::sync::Arc;

/// One rule as the counts see it.
struct Counted {
    choice: bool,
    /// A weight body's bound; for a normal body, `None`.
    bound: Option<i64>,
    head: (u32, u32),
}

/// What the counts are kept over: the same for every model.
struct Tables {
    rules: Vec<Counted>,
    heads: Vec<u32>,
    /// Atom `a`'s body occurrences, (rule, literal's weight, whether positive), and the rules
    /// whose heads hold it, in CSR form.
    body_start: Vec<u32>,
    body_occ: Vec<(u32, i64, bool)>,
    head_start: Vec<u32>,
    head_occ: Vec<u32>,
    /// Free externals: supported when true.
    external: Vec<bool>,
}

/// The counts for one sequence of models (a clone starts another, sharing the tables).
#[derive(Clone)]
pub(super) struct Support {
    t: Arc<Tables>,
    /// The model the counts are for (all false at first).
    m: Vec<bool>,
    /// Per rule: normal body, its literals false in `m`; weight body, the weight of its literals
    /// true in `m`.
    body: Vec<i64>,
    true_heads: Vec<u32>,
    /// Per atom: the rules that support it in `m` if it is true there; 0 if it is false.
    supports: Vec<u32>,
    violated: usize,
    unsupported: usize,
    /// Scratch: the atoms that differ from the last model.
    changed: Vec<usize>,
}

impl Support {
    /// The counts for the all-false interpretation, or `None` if the program is not in the class
    /// (tightness aside: the caller knows what a supported model means for its program).
    pub fn new(program: &Program, externals: &[(u32, ExternalValue)]) -> Option<Support> {
        if externals.iter().any(|&(_, v)| v == ExternalValue::True) {
            return None;
        }
        let n = program.atom_count() as usize;
        let mut rules = Vec::with_capacity(program.rule_count());
        let mut heads = Vec::new();
        let (mut body_deg, mut head_deg) = (vec![0u32; n + 2], vec![0u32; n + 2]);
        let mut seen = vec![u32::MAX; n + 1];
        for (i, r) in program.rules().enumerate() {
            let lits = r.body.lits();
            for (j, &l) in lits.iter().enumerate() {
                let a = atom_of(l) as usize;
                // A repeated atom, or (with a head) a negative weight: not in the class.
                if seen[a] == i as u32 || (!r.is_constraint() && r.body.weight(j) < 0) {
                    return None;
                }
                seen[a] = i as u32;
                body_deg[a + 1] += 1;
            }
            for &h in r.head {
                // An atom in the rule's body and head (`a :- a` is a positive cycle that no
                // component shows), or a repeated head atom.
                if seen[h as usize] == i as u32 {
                    return None;
                }
                seen[h as usize] = i as u32;
                head_deg[h as usize + 1] += 1;
            }
            let from = heads.len() as u32;
            heads.extend_from_slice(r.head);
            let bound = match r.body {
                Body::Normal(_) => None,
                Body::Weight { bound, .. } => Some(bound),
            };
            rules.push(Counted {
                choice: r.kind == HeadKind::Choice,
                bound,
                head: (from, heads.len() as u32),
            });
        }
        for a in 1..n + 2 {
            body_deg[a] += body_deg[a - 1];
            head_deg[a] += head_deg[a - 1];
        }
        let (mut bf, mut hf) = (body_deg.clone(), head_deg.clone());
        let mut body_occ = vec![(0, 0, false); body_deg[n + 1] as usize];
        let mut head_occ = vec![0; head_deg[n + 1] as usize];
        let mut body = Vec::with_capacity(rules.len());
        for (i, r) in program.rules().enumerate() {
            let lits = r.body.lits();
            let mut count = 0;
            for (j, &l) in lits.iter().enumerate() {
                let a = atom_of(l) as usize;
                body_occ[bf[a] as usize] = (i as u32, r.body.weight(j), l > 0);
                bf[a] += 1;
                // All atoms false: a positive literal is false, a negative one true.
                count += match (r.body, l > 0) {
                    (Body::Normal(_), positive) => i64::from(positive),
                    (Body::Weight { .. }, true) => 0,
                    (Body::Weight { .. }, false) => r.body.weight(j),
                };
            }
            body.push(count);
            for &h in r.head {
                head_occ[hf[h as usize] as usize] = i as u32;
                hf[h as usize] += 1;
            }
        }
        let mut external = vec![false; n + 1];
        for &(a, _) in externals {
            external[a as usize] = true;
        }
        let nr = rules.len();
        let t =
            Tables { rules, heads, body_start: body_deg, body_occ, head_start: head_deg, head_occ, external };
        let mut s = Support {
            t: Arc::new(t),
            m: vec![false; n + 1],
            body,
            true_heads: vec![0; nr],
            supports: vec![0; n + 1],
            violated: 0,
            unsupported: 0,
            changed: Vec::new(),
        };
        s.violated = (0..nr).filter(|&r| s.is_violated(r)).count();
        Some(s)
    }

    fn body_holds(&self, r: usize) -> bool {
        match self.t.rules[r].bound {
            None => self.body[r] == 0,
            Some(bound) => self.body[r] >= bound,
        }
    }

    /// Rule `r`'s body's slack: the weight of its literals true in the model above its bound, if
    /// it holds (a normal body's is 0).
    pub fn slack(&self, r: usize) -> Option<i64> {
        match self.t.rules[r].bound {
            None => (self.body[r] == 0).then_some(0),
            Some(bound) => (self.body[r] >= bound).then(|| self.body[r] - bound),
        }
    }

    fn is_violated(&self, r: usize) -> bool {
        !self.t.rules[r].choice && self.true_heads[r] == 0 && self.body_holds(r)
    }

    /// Whether rule `r` supports its true heads: its body holds, and it is a choice rule or has
    /// exactly one true head.
    pub fn supports_heads(&self, r: usize) -> bool {
        self.body_holds(r) && (self.t.rules[r].choice || self.true_heads[r] == 1)
    }

    fn unsupported(&self, a: usize) -> bool {
        self.m[a] && self.supports[a] == 0 && !self.t.external[a]
    }

    /// Adds `delta` (+1 or -1) to the support count of atom `a`, true in `m`, keeping the count of
    /// unsupported atoms.
    fn add_support(&mut self, a: usize, delta: i32) {
        self.unsupported -= usize::from(self.unsupported(a));
        self.supports[a] = self.supports[a].wrapping_add_signed(delta);
        self.unsupported += usize::from(self.unsupported(a));
    }

    /// Rule `r`'s counts have moved; `was` is what it was before (violated, supporting its
    /// heads). Counts its violation anew and, where its support of its heads changed, moves the
    /// support counts of its true heads other than `except` (whose own step moves its count).
    fn restate(&mut self, r: usize, was: (bool, bool), except: usize) {
        let (violated, supported) = was;
        self.violated = self.violated + usize::from(self.is_violated(r)) - usize::from(violated);
        let supports = self.supports_heads(r);
        if supports != supported {
            let (from, to) = self.t.rules[r].head;
            for k in from..to {
                let h = self.t.heads[k as usize] as usize;
                if h != except && self.m[h] {
                    self.add_support(h, if supports { 1 } else { -1 });
                }
            }
        }
    }

    /// Moves the counts to `m`; whether it is a supported model violating no rule.
    ///
    /// The atoms that changed are taken one at a time, each step exact: the rules the atom occurs
    /// in, and the heads of those of them whose support of their heads changes. A constraint is
    /// one count and one comparison; a choice rule whose body holds throughout passes on only
    /// the changes of its own heads.
    pub fn update(&mut self, m: &[bool]) -> bool {
        debug_assert_eq!(m.len(), self.m.len());
        let mut changed = std::mem::take(&mut self.changed);
        changed.clear();
        // Index 0 is no atom.
        self.m[0] = m[0];
        crate::solve::changes::differences(m, &self.m, &mut changed);
        for &a in &changed {
            let value = m[a];
            self.unsupported -= usize::from(self.unsupported(a));
            // a's body occurrences: a is not a head of these rules (the class has no such rule).
            for k in self.t.body_start[a] as usize..self.t.body_start[a + 1] as usize {
                let (r, w, positive) = self.t.body_occ[k];
                let r = r as usize;
                let was = (self.is_violated(r), self.supports_heads(r));
                self.body[r] += match (self.t.rules[r].bound, value == positive) {
                    (None, true) => -1,
                    (None, false) => 1,
                    (Some(_), true) => w,
                    (Some(_), false) => -w,
                };
                self.restate(r, was, usize::MAX);
            }
            // a's head occurrences: a's own support moves with its value and the rule's status.
            for k in self.t.head_start[a] as usize..self.t.head_start[a + 1] as usize {
                let r = self.t.head_occ[k] as usize;
                let was = (self.is_violated(r), self.supports_heads(r));
                self.true_heads[r] = if value { self.true_heads[r] + 1 } else { self.true_heads[r] - 1 };
                self.restate(r, was, a);
                let (before, after) = (was.1 && self.m[a], self.supports_heads(r) && value);
                self.supports[a] = self.supports[a] + u32::from(after) - u32::from(before);
            }
            self.m[a] = value;
            self.unsupported += usize::from(self.unsupported(a));
        }
        self.changed = changed;
        self.violated == 0 && self.unsupported == 0
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Verdict, Verifier};
    use crate::input::read_program;
    use crate::program::deps::Dependencies;
    use crate::stop::StopToken;

    /// Ground programs (aspif) of up to 6 atoms: choice, disjunction, normal and weight bodies,
    /// constraints, a free external; and ones outside the class (`a :- a`, a repeated atom, a
    /// positive loop).
    const PROGRAMS: [(&str, bool); 9] = [
        // {a}. {b;c;d} :- a. e | f :- c. (a body that changes under heads that change with it)
        ("asp 1 0 0\n1 1 1 1 0 0\n1 1 3 2 3 4 0 1 1\n1 0 2 5 6 0 1 3\n0\n", true),
        // {a;b;c}. d :- a, not b. e :- 2 {a=1; b=1; c=1}. :- d, e.
        ("asp 1 0 0\n1 1 3 1 2 3 0 0\n1 0 1 4 0 2 1 -2\n1 0 1 5 1 2 3 1 1 2 1 3 1\n1 0 0 0 2 4 5\n0\n", true),
        // a | b. c :- a. c :- b. {d} :- c. :- d, not a.
        ("asp 1 0 0\n1 0 2 1 2 0 0\n1 0 1 3 0 1 1\n1 0 1 3 0 1 2\n1 1 1 4 0 1 3\n1 0 0 0 2 4 -1\n0\n", true),
        // #external a. {b}. c :- a, b. d :- not c. :- 3 {a=2; d=1}.
        ("asp 1 0 0\n5 1 0\n1 1 1 2 0 0\n1 0 1 3 0 2 1 2\n1 0 1 4 0 1 -3\n1 0 0 1 3 2 1 2 4 1\n0\n", true),
        // {a;b}. c :- a. c :- b. d | e :- c. f :- d, not e.
        (
            "asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 1 1\n1 0 1 3 0 1 2\n1 0 2 4 5 0 1 3\n1 0 1 6 0 2 4 -5\n0\n",
            true,
        ),
        // {c}. a | b :- c. a :- b. b :- a. (head cycles: {a, b} is supported, not minimal)
        ("asp 1 0 0\n1 1 1 3 0 0\n1 0 2 1 2 0 1 3\n1 0 1 1 0 1 2\n1 0 1 2 0 1 1\n0\n", true),
        // {b}. a :- a, b. (a positive loop of one atom: not in the class)
        ("asp 1 0 0\n1 1 1 2 0 0\n1 0 1 1 0 2 1 2\n0\n", false),
        // {a;b}. c :- a, a, not b. (a repeated body atom: not in the class)
        ("asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 3 1 1 -2\n0\n", false),
        // {a;b}. c :- a. c :- b. a :- c. (not tight, free of head cycles: {a, c} is supported,
        // and founded only through b)
        ("asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 1 1\n1 0 1 3 0 1 2\n1 0 1 1 0 1 3\n0\n", true),
    ];

    /// Interpretations in an order that changes one atom, then several, then all at a time.
    fn orders(n: usize) -> Vec<Vec<bool>> {
        let total = 1usize << n;
        let mut seq: Vec<usize> = (0..total).map(|i| i ^ (i >> 1)).collect();
        seq.extend(0..total);
        seq.extend((0..total).rev().step_by(3));
        seq.iter().map(|&bits| (0..=n).map(|a| a > 0 && bits >> (a - 1) & 1 == 1).collect()).collect()
    }

    #[test]
    fn the_kept_counts_agree_with_the_check_from_scratch() {
        let go = StopToken::default();
        for (text, in_class) in PROGRAMS {
            let p = read_program(text.as_bytes()).unwrap();
            let deps = Dependencies::new(&p);
            let v = Verifier::new(&p, &deps);
            assert_eq!(v.support.is_some(), in_class, "{text}");
            let mut mirror = v.support.clone();
            let n = p.atom_count() as usize;
            let mut answer_sets = 0;
            let mut keep = crate::solve::verify::Kept::default();
            let mut scratch = Default::default();
            for m in orders(n) {
                let full = v.full_check(&p, &m, &deps, &go, &mut scratch);
                let kept = mirror.as_mut().map(|s| s.update(&m));
                if let Some(k) = kept {
                    // Supported (tight: an answer set; otherwise the check of the cyclic
                    // components follows).
                    let supported = v.supported(&p, &m).is_ok();
                    assert_eq!(k, supported, "{text}: {m:?}: {full:?}");
                }
                assert_eq!(
                    v.check(&p, &m, &deps, &go, &mut keep) == Verdict::AnswerSet,
                    full == Verdict::AnswerSet
                );
                answer_sets += usize::from(full == Verdict::AnswerSet);
            }
            assert!(answer_sets > 0, "{text}: some interpretation is an answer set");
        }
    }
}
