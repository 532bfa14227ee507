//! clasp's `--dom-mod=MOD[,PICK]`: the domain heuristic's modification of atoms by default, as
//! if each atom of the classes picked had a `#heuristic` statement of kind MOD, unless the
//! program gives it one (clasp's `DomainTable::applyDefault` and `DomainHeuristic::addDefAction`).
//!
//! The classes, each with its weight (a level, an init of 100 times it, a factor) and its key:
//! every atom (1, 0), or the shown ones (16, 4); the `#minimize` literals with their signs, by
//! decreasing priority and weight (15 down to 4, one less at each new weight; 3); atoms on a
//! positive cycle in a disjunctive head (3, 2), else of a component with a head cycle (2, 1),
//! else on a positive cycle (1, 0), the cycles being those of the program as given (clasp's
//! preprocessing may merge some away first). An atom in several classes adds their levels
//! (inits, factors) up; its sign is that of the class of the lowest key, and a class that gives
//! it both signs gives it none.

use crate::nogoods::{DomainModifier, Lit, Problem, Var};
use crate::program::HeuristicModifier as M;
use crate::program::deps::NO_SCC;
use crate::solve::config::{DomMod, DomModifier as D};

/// What the defaults have given one variable so far.
#[derive(Clone, Copy, Default)]
struct Given {
    /// The key of the last class that modified it (`None`: none has).
    key: Option<u32>,
    value: i32,
    /// The value of its decisions (`Some(true)`: true), and whether a class set it.
    sign: Option<bool>,
}

/// The statements `dm` gives the atoms that no statement of `p` names: a level, sign, init or
/// factor each, with no condition and priority 0.
pub fn statements(p: &Problem, dm: DomMod) -> Vec<DomainModifier> {
    let nv = p.num_vars as usize;
    let mut given = vec![Given::default(); nv];
    let mut named = vec![false; nv];
    for h in &p.heuristics {
        if let Some(n) = named.get_mut(h.var as usize) {
            *n = true;
        }
    }
    let mut add = |x: Lit, weight: i32, key: u32| {
        let v = x.var() as usize;
        if v == 0 || v >= nv || named[v] || given[v].key.is_some_and(|k| k < key) {
            return;
        }
        let g = &mut given[v];
        if g.key.is_none_or(|k| k > key) {
            g.value += match dm.modifier {
                D::Level | D::True | D::False => weight,
                D::Init => 100 * weight,
                D::Factor => 1 + i32::from(weight > 3) + i32::from(weight > 15),
                D::Pos | D::Neg => 0,
            };
        }
        if matches!(dm.modifier, D::Pos | D::True | D::Neg | D::False) {
            let want = matches!(dm.modifier, D::Pos | D::True) == x.is_pos();
            match g.sign {
                None => g.sign = Some(want),
                Some(_) if g.key != Some(key) => g.sign = Some(want),
                Some(s) if s != want => g.sign = None,
                Some(_) => {}
            }
        }
        g.key = Some(key);
    };
    let pick = dm.pick;
    if pick & DomMod::SHOW != 0 {
        for &l in &p.shown {
            add(l, 16, 4);
        }
    } else if pick == 0 {
        for v in 1..=p.num_atoms {
            add(Lit::pos(v), 1, 0);
        }
    }
    if pick & DomMod::OPT != 0 {
        let mut lits: Vec<(usize, i64, Lit)> = Vec::new();
        for level in 0..p.costs.len() {
            let range = p.costs.start[level] as usize..p.costs.start[level + 1] as usize;
            lits.extend(range.map(|i| (level, p.costs.weights[i], p.costs.lits[i])));
        }
        // Highest priority first (level 0), heaviest first within a level.
        lits.sort_by_key(|&(level, w, _)| (level, std::cmp::Reverse(w)));
        let (mut weight, mut last) = (16, None);
        for (level, w, l) in lits {
            if last != Some((level, w)) && weight > 4 {
                weight -= 1;
                last = Some((level, w));
            }
            add(l, weight, 3);
        }
    }
    let cyclic = pick & (DomMod::SCC | DomMod::HCC | DomMod::DISJ);
    if cyclic & DomMod::SCC != 0 || (cyclic != 0 && p.non_hcf.iter().any(|&h| h)) {
        for v in 1..=p.num_atoms {
            let c = p.scc[v as usize];
            if c == NO_SCC {
                continue;
            }
            if cyclic & DomMod::DISJ != 0 && p.disjunctive.binary_search(&v).is_ok() {
                add(Lit::pos(v), 3, 2);
            } else if cyclic & DomMod::HCC != 0 && p.non_hcf[c as usize] {
                add(Lit::pos(v), 2, 1);
            } else if cyclic & DomMod::SCC != 0 {
                add(Lit::pos(v), 1, 0);
            }
        }
    }
    let statement = |var: usize, modifier: M, value: i32| DomainModifier {
        var: var as Var,
        modifier,
        value,
        priority: 0,
        condition: Vec::new(),
    };
    let kind = match dm.modifier {
        D::Level | D::True | D::False => Some(M::Level),
        D::Init => Some(M::Init),
        D::Factor => Some(M::Factor),
        D::Pos | D::Neg => None,
    };
    let mut out = Vec::new();
    for (v, g) in given.iter().enumerate().filter(|(_, g)| g.key.is_some()) {
        if let Some(kind) = kind.filter(|_| g.value != 0) {
            // A factor counts from 1, as clasp's.
            out.push(statement(v, kind, g.value + i32::from(kind == M::Factor)));
        }
        if let Some(s) = g.sign {
            out.push(statement(v, M::Sign, if s { 1 } else { -1 }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;
    use crate::nogoods::complete;
    use crate::stop::StopToken;

    fn problem(aspif: &str) -> Problem {
        complete(&read_program(aspif.as_bytes()).unwrap(), &StopToken::never(), 3).unwrap()
    }

    fn summary(p: &Problem, dm: DomMod) -> Vec<(Var, M, i32)> {
        let mut s: Vec<_> = statements(p, dm).iter().map(|h| (h.var, h.modifier, h.value)).collect();
        s.sort_by_key(|&(v, m, _)| (v, m as u8));
        s
    }

    /// `{a;b;c}. #minimize{2,a:a; 1,b:b; 1,c:not c}. #heuristic c. [1,level]`.
    const OPT: &str = "asp 1 0 0\n1 1 3 1 2 3 0 0\n2 0 3 1 2 2 1 -3 1\n7 0 3 1 0 0\n\
        4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n0\n";

    #[test]
    fn the_minimize_literals_by_weight_and_sign() {
        let p = problem(OPT);
        let neg = DomMod { modifier: D::Neg, pick: DomMod::OPT };
        // a and b false; c is named by a statement of its own, so left alone.
        assert_eq!(summary(&p, neg), vec![(1, M::Sign, -1), (2, M::Sign, -1)]);
        // Levels: the heavier a 15, b 14.
        let level = DomMod { modifier: D::False, pick: DomMod::OPT };
        let s = summary(&p, level);
        assert!(s.contains(&(1, M::Level, 15)) && s.contains(&(2, M::Level, 14)), "{s:?}");
        let init = DomMod { modifier: D::Init, pick: DomMod::OPT };
        assert!(summary(&p, init).contains(&(1, M::Init, 1500)));
    }

    /// `a :- b. b :- a. a :- not c. {c}.` shown `a` and `c`.
    const CYCLE: &str = "asp 1 0 0\n1 0 1 1 0 1 2\n1 0 1 2 0 1 1\n1 0 1 1 0 1 -3\n1 1 1 3 0 0\n\
        4 1 a 1 1\n4 1 c 1 3\n0\n";

    #[test]
    fn every_atom_the_shown_ones_and_the_cycles() {
        let p = problem(CYCLE);
        let all = DomMod { modifier: D::Level, pick: 0 };
        assert_eq!(summary(&p, all), vec![(1, M::Level, 1), (2, M::Level, 1), (3, M::Level, 1)]);
        let show = DomMod { modifier: D::Pos, pick: DomMod::SHOW };
        assert_eq!(summary(&p, show), vec![(1, M::Sign, 1), (3, M::Sign, 1)]);
        let scc = DomMod { modifier: D::Factor, pick: DomMod::SCC };
        assert_eq!(summary(&p, scc), vec![(1, M::Factor, 2), (2, M::Factor, 2)]);
        // Levels add up over the classes: a is shown and on a cycle.
        let both = DomMod { modifier: D::True, pick: DomMod::SCC | DomMod::SHOW };
        let s = summary(&p, both);
        assert!(
            s.contains(&(1, M::Level, 17)) && s.contains(&(2, M::Level, 1)) && s.contains(&(3, M::Level, 16))
        );
        // hcc alone: no component has a head cycle, so nothing.
        assert!(summary(&p, DomMod { modifier: D::Level, pick: DomMod::HCC }).is_empty());
    }
}
