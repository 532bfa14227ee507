//! clasp's domain heuristic (`--heuristic=Domain`): the `#heuristic` statements of a program
//! steer the decisions on variables. An atom with a positive level (`level`, `true`, `false`)
//! whose condition holds is decided before any atom of a lower level, the most active first;
//! `sign`, `true` and `false` choose its value; `init` adds to its initial score and `factor`
//! multiplies its bumps. Where several statements of one kind hold for an atom, the one of the
//! highest priority counts (the last given among equals). Levels below 0 count as 0, and `init`
//! and `factor` apply where their condition is empty (they shape the scores once).

use crate::engine::assignment::Assignment;
use crate::nogoods::{DomainModifier, Problem, Var};
use crate::program::HeuristicModifier as M;

pub struct Domain {
    /// The statements of each atom that has any (level, sign, true, false).
    atoms: Vec<(Var, Vec<DomainModifier>)>,
    /// Per variable: its index in `atoms`, or `ABSENT`.
    index: Vec<u32>,
    /// Per variable: the factor of its bumps.
    pub factor: Vec<f64>,
}

const ABSENT: u32 = u32::MAX;

impl Domain {
    /// The program's statements, or `None` where it has none; `scores` takes their `init`s.
    pub fn new(p: &Problem, scores: &mut [f64]) -> Option<Domain> {
        if p.heuristics.is_empty() {
            return None;
        }
        let nv = p.num_vars as usize;
        let mut d = Domain { atoms: Vec::new(), index: vec![ABSENT; nv], factor: vec![1.0; nv] };
        for h in &p.heuristics {
            let v = h.var as usize;
            if v >= nv {
                continue;
            }
            match h.modifier {
                M::Init if h.condition.is_empty() => scores[v] += f64::from(h.value),
                M::Factor if h.condition.is_empty() && h.value > 0 => d.factor[v] = f64::from(h.value),
                M::Init | M::Factor => {}
                M::Level | M::Sign | M::True | M::False => {
                    if d.index[v] == ABSENT {
                        d.index[v] = d.atoms.len() as u32;
                        d.atoms.push((h.var, Vec::new()));
                    }
                    d.atoms[d.index[v] as usize].1.push(h.clone());
                }
            }
        }
        Some(d)
    }

    /// The statement of the highest priority among `kinds` whose condition holds for `v`'s
    /// entry (the last of equal priority).
    fn active<'d>(mods: &'d [DomainModifier], a: &Assignment, kinds: &[M]) -> Option<&'d DomainModifier> {
        mods.iter().filter(|m| kinds.contains(&m.modifier) && m.condition.iter().all(|&l| a.is_true(l))).fold(
            None,
            |best: Option<&DomainModifier>, m| match best {
                Some(b) if b.priority > m.priority => Some(b),
                _ => Some(m),
            },
        )
    }

    fn level(mods: &[DomainModifier], a: &Assignment) -> i32 {
        Self::active(mods, a, &[M::Level, M::True, M::False]).map_or(0, |m| m.value.max(0))
    }

    /// The value a decision gives `v` where a statement says (`None`: the default sign's).
    pub fn sign(&self, a: &Assignment, v: Var) -> Option<bool> {
        let i = *self.index.get(v as usize)?;
        if i == ABSENT {
            return None;
        }
        match Self::active(&self.atoms[i as usize].1, a, &[M::Sign, M::True, M::False])? {
            m if m.modifier == M::True => Some(true),
            m if m.modifier == M::False => Some(false),
            m => (m.value != 0).then_some(m.value > 0),
        }
    }

    /// The unassigned atom of the highest positive level (the most active among equals), to be
    /// decided before the others, and the value its statements give it, if any.
    pub fn pick(&self, a: &Assignment, activity: &[f64]) -> Option<(Var, Option<bool>)> {
        let mut best: Option<(i32, f64, Var)> = None;
        for (v, mods) in &self.atoms {
            if !a.is_unassigned(*v) {
                continue;
            }
            let level = Self::level(mods, a);
            let key = (level, activity[*v as usize], *v);
            if level > 0 && best.is_none_or(|b| (key.0, key.1) > (b.0, b.1)) {
                best = Some(key);
            }
        }
        best.map(|(_, _, v)| (v, self.sign(a, v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;
    use crate::nogoods::Lit;
    use crate::nogoods::complete;
    use crate::stop::StopToken;

    /// `{a;b;c}. #heuristic a. [2,level] #heuristic b. [1,true] #heuristic c : b. [1,false]
    /// #heuristic c : b. [5@2,init]` (the last has a condition: not an init of the scores).
    const PROGRAM: &str = "asp 1 0 0\n1 1 3 1 2 3 0 0\n7 0 1 2 0 0\n7 4 2 1 0 0\n7 5 3 1 0 1 2\n\
        7 3 3 5 2 1 2\n7 3 1 4 0 0\n4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n0\n";

    #[test]
    fn levels_signs_and_inits() {
        let p = complete(&read_program(PROGRAM.as_bytes()).unwrap(), &StopToken::never(), 3).unwrap();
        let mut scores = vec![0.0; p.num_vars as usize];
        let d = Domain::new(&p, &mut scores).unwrap();
        assert_eq!(scores[1], 4.0, "a's init");
        assert_eq!(scores[3], 0.0, "c's init has a condition");
        let mut a = Assignment::new(p.num_vars);
        let activity = vec![0.0; p.num_vars as usize];
        // a first (level 2), with the default sign; then b (level 1, true).
        assert_eq!(d.pick(&a, &activity), Some((1, None)));
        a.assign(Lit::neg(1), crate::engine::assignment::Reason::Decision);
        assert_eq!(d.pick(&a, &activity), Some((2, Some(true))));
        // c has a level only while b is true; then it is decided false.
        assert_eq!(d.sign(&a, 3), None);
        a.assign(Lit::pos(2), crate::engine::assignment::Reason::Decision);
        assert_eq!(d.pick(&a, &activity), Some((3, Some(false))));
    }
}
