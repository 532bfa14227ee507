//! The coloured graph of a ground program whose automorphisms are the program's symmetries: a
//! vertex per atom, per rule and per minimize statement, each edge labelled by the atom's role
//! (head, choice head, positive or negative body literal, with its weight where it has one).
//!
//! A permutation of the vertices that keeps colours and labelled edges maps each rule onto a
//! rule of the program and each minimize statement onto one of the same priority with the same
//! weights: restricted to the atoms, it maps answer sets to answer sets of equal cost.
//!
//! A fact is not a rule but a colour of its atom, and a rule repeated is one vertex.
//!
//! Invariants: vertex `a - 1` is atom `a` (atoms first, then rules, then minimize statements);
//! edges are undirected, stored in both rows, and each row is sorted by (neighbour, label).

use crate::program::{Body, HeadKind, Lit, Program, atom_of};

/// splitmix64's finaliser: labels and colours as well-spread 64-bit values (the refinement adds
/// them up, so that small numbers would collide).
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const ATOM: u64 = 1;
const RULE: u64 = 2;
const MINIMIZE: u64 = 3;
const FACT: u64 = 4;
const HEAD: u64 = 10;
const CHOICE_HEAD: u64 = 11;
const POSITIVE: u64 = 12;
const NEGATIVE: u64 = 13;

pub struct Graph {
    pub atoms: u32,
    pub colour: Vec<u64>,
    start: Vec<u32>,
    nbr: Vec<u32>,
    label: Vec<u64>,
}

impl Graph {
    /// The program's graph; `None` when it has more than `max_edges` edges.
    pub fn of(p: &Program, max_edges: usize) -> Option<Graph> {
        let atoms = p.atom_count();
        let mut colour = vec![mix(ATOM); atoms as usize];
        let vertex = |l: Lit| atom_of(l) - 1;
        let body_label = |l: Lit, w: i64| mix(if l > 0 { POSITIVE } else { NEGATIVE } ^ mix(w as u64));
        // The rules' vertices as rows (colour, sorted edges), in one buffer.
        let (mut rule_colour, mut row_start, mut rows) = (Vec::new(), vec![0u32], Vec::<(u32, u64)>::new());
        for r in p.rules() {
            // A fact is a colour of its atom, not a vertex: the facts gringo leaves in no other
            // rule are then alone, and the search passes them by.
            if let (HeadKind::Disjunction, [a], Body::Normal([])) = (r.kind, r.head, r.body) {
                colour[*a as usize - 1] = mix(FACT);
                continue;
            }
            let (weighted, bound) = match r.body {
                Body::Normal(_) => (0, 0),
                Body::Weight { bound, .. } => (1, bound),
            };
            let choice = u64::from(r.kind == HeadKind::Choice);
            rule_colour.push(mix(RULE ^ mix(choice ^ mix(weighted ^ mix(bound as u64)))));
            let head = if choice == 1 { mix(CHOICE_HEAD) } else { mix(HEAD) };
            let from = rows.len();
            rows.extend(r.head.iter().map(|&a| (a - 1, head)));
            let lits = r.body.lits();
            rows.extend(lits.iter().enumerate().map(|(i, &l)| (vertex(l), body_label(l, r.body.weight(i)))));
            rows[from..].sort_unstable();
            row_start.push(rows.len() as u32);
            if rows.len() > max_edges {
                return None;
            }
        }
        // A rule repeated says nothing more: as twin vertices, each pair would cost the search a
        // level. The repeats are found by sorting the rows; the first of each is kept.
        let row = |i: usize| (rule_colour[i], &rows[row_start[i] as usize..row_start[i + 1] as usize]);
        let mut order: Vec<u32> = (0..rule_colour.len() as u32).collect();
        order.sort_by(|&a, &b| row(a as usize).cmp(&row(b as usize)).then(a.cmp(&b)));
        let mut repeated = vec![false; rule_colour.len()];
        for w in order.windows(2) {
            repeated[w[1] as usize] = row(w[0] as usize) == row(w[1] as usize);
        }
        drop(order);
        let mut edges: Vec<(u32, u32, u64)> = Vec::new();
        for i in (0..rule_colour.len()).filter(|&i| !repeated[i]) {
            let v = colour.len() as u32;
            colour.push(rule_colour[i]);
            edges.extend(row(i).1.iter().map(|&(a, l)| (v, a, l)));
        }
        drop((rule_colour, row_start, rows, repeated));
        for m in p.minimize() {
            let v = colour.len() as u32;
            colour.push(mix(MINIMIZE ^ mix(m.priority as u64)));
            edges.extend(m.lits.iter().map(|w| (v, vertex(w.lit), body_label(w.lit, w.weight))));
        }
        if edges.len() > max_edges {
            return None;
        }
        // Both rows of each edge, by counting.
        let n = colour.len();
        let mut start = vec![0u32; n + 1];
        for &(u, x, _) in &edges {
            start[u as usize + 1] += 1;
            start[x as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut pairs = vec![(0u32, 0u64); 2 * edges.len()];
        for &(u, x, l) in &edges {
            pairs[fill[u as usize] as usize] = (x, l);
            fill[u as usize] += 1;
            pairs[fill[x as usize] as usize] = (u, l);
            fill[x as usize] += 1;
        }
        drop(edges);
        for v in 0..n {
            pairs[start[v] as usize..start[v + 1] as usize].sort_unstable();
        }
        let (nbr, label) = pairs.into_iter().unzip();
        Some(Graph { atoms, colour, start, nbr, label })
    }

    pub fn len(&self) -> usize {
        self.colour.len()
    }

    pub fn edges(&self) -> usize {
        self.nbr.len()
    }

    /// Whether `v` is in no rule and no minimize statement.
    pub fn alone(&self, v: u32) -> bool {
        self.start[v as usize] == self.start[v as usize + 1]
    }

    /// The neighbours of `v` and their edges' labels, sorted.
    pub fn row(&self, v: u32) -> (&[u32], &[u64]) {
        let r = self.start[v as usize] as usize..self.start[v as usize + 1] as usize;
        (&self.nbr[r.clone()], &self.label[r])
    }

    /// Whether `image` (a map of the vertices, as an array) is a permutation that keeps every
    /// colour and labelled edge; only the vertices it moves need a look, as every edge is in both
    /// rows.
    pub fn is_automorphism(&self, image: &[u32]) -> bool {
        let mut hit = vec![false; self.len()];
        for &w in image {
            if std::mem::replace(&mut hit[w as usize], true) {
                return false;
            }
        }
        let mut mapped: Vec<(u32, u64)> = Vec::new();
        for v in 0..self.len() as u32 {
            let w = image[v as usize];
            if w == v {
                continue;
            }
            if self.colour[v as usize] != self.colour[w as usize] {
                return false;
            }
            let (nv, lv) = self.row(v);
            let (nw, lw) = self.row(w);
            if nv.len() != nw.len() {
                return false;
            }
            mapped.clear();
            mapped.extend(nv.iter().zip(lv).map(|(&x, &l)| (image[x as usize], l)));
            mapped.sort_unstable();
            if !mapped.iter().zip(nw.iter().zip(lw)).all(|(&(x, l), (&y, &k))| x == y && l == k) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Graph;
    use crate::input::read_program;

    #[test]
    fn swapping_two_interchangeable_atoms_is_an_automorphism_and_a_head_for_a_body_is_not() {
        // {a; b}. c :- a. c :- b. d :- not a.  (atoms 1..4)
        let text = b"asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 1 1\n1 0 1 3 0 1 2\n1 0 1 4 0 1 -1\n0\n";
        let g = Graph::of(&read_program(text).unwrap(), usize::MAX).unwrap();
        let n = g.len() as u32;
        let identity: Vec<u32> = (0..n).collect();
        assert!(g.is_automorphism(&identity));
        // a <-> b with the rules `c :- a` (vertex 5) and `c :- b` (vertex 6) swapped too: but
        // `d :- not a` has no partner, so no automorphism swaps a and b.
        let mut swap = identity.clone();
        swap.swap(0, 1);
        swap.swap(5, 6);
        assert!(!g.is_automorphism(&swap));
        // Without the last rule, it is one.
        let text = b"asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 1 1\n1 0 1 3 0 1 2\n0\n";
        let g = Graph::of(&read_program(text).unwrap(), usize::MAX).unwrap();
        let mut swap: Vec<u32> = (0..g.len() as u32).collect();
        swap.swap(0, 1);
        swap.swap(4, 5);
        assert!(g.is_automorphism(&swap));
        // A head is not a body: c <-> a is none.
        let mut wrong: Vec<u32> = (0..g.len() as u32).collect();
        wrong.swap(0, 2);
        assert!(!g.is_automorphism(&wrong));
    }
}
