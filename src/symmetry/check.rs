//! A symmetry checked against the program itself, not its graph: the rules and minimize
//! statements that name an atom it moves are mapped onto the same rules and statements. What the
//! graph search finds passes this by construction; the check makes a fault there cost a
//! generator, never an answer.

use crate::program::{Atom, Body, Lit, Program, atom_of};
use std::collections::HashMap;

/// A rule or minimize statement as a sortable key: kind (a rule's 0 to 3: choice or not, weight
/// body or not), bound or priority, heads, and body literals with their weights, each list sorted.
type Key = (u8, i64, Vec<Atom>, Vec<(Lit, i64)>);

/// A minimize statement's kind.
const MINIMIZE: u8 = 4;

/// The program's rules and minimize statements as keys, and for each atom the keys naming it.
pub struct Statements {
    keys: Vec<Key>,
    naming: HashMap<Atom, Vec<u32>>,
}

impl Statements {
    pub fn of(p: &Program) -> Statements {
        let mut keys = Vec::new();
        for r in p.rules() {
            let (bound, weighted) = match r.body {
                Body::Normal(_) => (0, 0),
                Body::Weight { bound, .. } => (bound, 2),
            };
            let kind = u8::from(r.kind == crate::program::HeadKind::Choice) + weighted;
            let body: Vec<(Lit, i64)> =
                r.body.lits().iter().enumerate().map(|(i, &l)| (l, r.body.weight(i))).collect();
            keys.push((kind, bound, r.head.to_vec(), body));
        }
        for m in p.minimize() {
            keys.push((
                MINIMIZE,
                i64::from(m.priority),
                Vec::new(),
                m.lits.iter().map(|w| (w.lit, w.weight)).collect(),
            ));
        }
        for k in &mut keys {
            k.2.sort_unstable();
            k.3.sort_unstable();
        }
        let mut naming: HashMap<Atom, Vec<u32>> = HashMap::new();
        for (i, k) in keys.iter().enumerate() {
            let atoms = k.2.iter().copied().chain(k.3.iter().map(|&(l, _)| atom_of(l)));
            for a in atoms {
                let list = naming.entry(a).or_default();
                if list.last() != Some(&(i as u32)) {
                    list.push(i as u32);
                }
            }
        }
        Statements { keys, naming }
    }

    /// Whether `perm` (atoms and their images, sorted by atom) maps the statements naming its
    /// atoms onto themselves: the rules as a set, the minimize statements as a multiset.
    pub fn is_symmetry(&self, perm: &[(Atom, Atom)]) -> bool {
        let image = |a: Atom| perm.binary_search_by_key(&a, |e| e.0).map_or(a, |i| perm[i].1);
        let lit = |l: Lit| if l > 0 { image(atom_of(l)) as Lit } else { -(image(atom_of(l)) as Lit) };
        let mut ids: Vec<u32> =
            perm.iter().flat_map(|&(a, _)| self.naming.get(&a).into_iter().flatten().copied()).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut before: Vec<&Key> = ids.iter().map(|&i| &self.keys[i as usize]).collect();
        let mut after: Vec<Key> = before
            .iter()
            .map(|k| {
                let mut heads: Vec<Atom> = k.2.iter().map(|&a| image(a)).collect();
                let mut body: Vec<(Lit, i64)> = k.3.iter().map(|&(l, w)| (lit(l), w)).collect();
                heads.sort_unstable();
                body.sort_unstable();
                (k.0, k.1, heads, body)
            })
            .collect();
        // A rule repeated says nothing more (the graph has it once); a minimize statement
        // repeated counts twice.
        before.sort_unstable();
        before.dedup_by(|a, b| a == b && a.0 != MINIMIZE);
        after.sort_unstable();
        after.dedup_by(|a, b| a == b && a.0 != MINIMIZE);
        before.len() == after.len() && before.iter().zip(&after).all(|(a, b)| *a == b)
    }
}

#[cfg(test)]
mod tests {
    use super::Statements;
    use crate::input::read_program;

    #[test]
    fn a_swap_is_a_symmetry_only_where_every_statement_maps_onto_one() {
        // {a; b}. c :- a. c :- b. #minimize {1: a; 1: b}.  (atoms 1..3)
        let text = b"asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 1 1\n1 0 1 3 0 1 2\n2 0 2 1 1 2 1\n0\n";
        let s = Statements::of(&read_program(text).unwrap());
        assert!(s.is_symmetry(&[(1, 2), (2, 1)]));
        assert!(!s.is_symmetry(&[(1, 3), (3, 1)]), "a head is not a body");
        // A rule repeated is the same rule: `c :- a.` twice beside `c :- b.` once.
        let text = b"asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 1 1\n1 0 1 3 0 1 1\n1 0 1 3 0 1 2\n0\n";
        let s = Statements::of(&read_program(text).unwrap());
        assert!(s.is_symmetry(&[(1, 2), (2, 1)]));
        // With unequal weights it is none.
        let text = b"asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 1 1\n1 0 1 3 0 1 2\n2 0 2 1 1 2 2\n0\n";
        let s = Statements::of(&read_program(text).unwrap());
        assert!(!s.is_symmetry(&[(1, 2), (2, 1)]));
    }
}
