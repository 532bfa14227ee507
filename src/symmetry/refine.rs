//! Ordered partitions of a graph's vertices, refined until equitable (every vertex of a cell has
//! as many edges of each label into each cell as the others): the step of every automorphism
//! search (nauty's, saucy's). Cells split the same way whatever the vertices' names, so two
//! refinements that an automorphism relates make the same splits; the *trace* of the splits
//! tells them apart when none does.
//!
//! Invariants: `perm` lists every vertex once and `pos` is its inverse; the cells are ranges of
//! `perm`, each named by its first position, with `cell[v]` the cell of `v` and `end[s]` the end
//! of the cell starting at `s`.

use super::graph::{Graph, mix};
use std::collections::VecDeque;

#[derive(Clone)]
pub struct Partition {
    pub perm: Vec<u32>,
    pos: Vec<u32>,
    pub cell: Vec<u32>,
    pub end: Vec<u32>,
}

/// What a refinement does with its splits: writes them down, or checks them against another's.
pub enum Trace<'t> {
    Record(&'t mut Vec<u64>),
    Compare(&'t [u64], usize),
}

impl Trace<'_> {
    /// Takes one split; false where it differs from the one recorded.
    fn take(&mut self, h: u64) -> bool {
        match self {
            Trace::Record(v) => {
                v.push(h);
                true
            }
            Trace::Compare(v, i) => {
                let same = v.get(*i) == Some(&h);
                *i += 1;
                same
            }
        }
    }

    /// Whether a comparison met exactly the splits recorded.
    pub fn finished(&self) -> bool {
        match self {
            Trace::Record(_) => true,
            Trace::Compare(v, i) => *i == v.len(),
        }
    }
}

/// A refinement's scratch, kept between refinements of one graph.
pub struct Scratch {
    count: Vec<u64>,
    touched: Vec<bool>,
    list: Vec<u32>,
    in_queue: Vec<bool>,
    queue: VecDeque<u32>,
    /// Edges looked at, over all refinements: the search's budget counts them.
    pub work: u64,
}

impl Scratch {
    pub fn new(n: usize) -> Self {
        Scratch {
            count: vec![0; n],
            touched: vec![false; n],
            list: Vec::new(),
            in_queue: vec![false; n],
            queue: VecDeque::new(),
            work: 0,
        }
    }
}

impl Partition {
    /// The vertices by colour, refined.
    pub fn equitable(g: &Graph, s: &mut Scratch) -> Partition {
        let n = g.len();
        let mut perm: Vec<u32> = (0..n as u32).collect();
        perm.sort_by_key(|&v| g.colour[v as usize]);
        let mut p = Partition { pos: vec![0; n], cell: vec![0; n], end: vec![0; n], perm };
        let mut first = Vec::new();
        for i in 0..n {
            let v = p.perm[i];
            p.pos[v as usize] = i as u32;
            if i == 0 || g.colour[p.perm[i - 1] as usize] != g.colour[v as usize] {
                first.push(i as u32);
            }
            p.cell[v as usize] = *first.last().expect("a cell");
        }
        for (k, &f) in first.iter().enumerate() {
            p.end[f as usize] = first.get(k + 1).copied().unwrap_or(n as u32);
        }
        let ok = p.refine(g, s, &first, &mut Trace::Record(&mut Vec::new()));
        debug_assert!(ok);
        p
    }

    /// The first non-singleton cell of the smallest size (by position: the same in two
    /// refinements an automorphism relates), but for cells of vertices alone (no refinement
    /// touches those: the two keep them in one order, matched as they are).
    pub fn target(&self, g: &Graph) -> Option<u32> {
        let mut best: Option<(u32, u32)> = None;
        let mut s = 0;
        while s < self.perm.len() {
            let size = self.end[s] - s as u32;
            if size > 1 && best.is_none_or(|(b, _)| size < b) && !g.alone(self.perm[s]) {
                best = Some((size, s as u32));
            }
            s = self.end[s] as usize;
        }
        best.map(|b| b.1)
    }

    /// The vertices of the cell starting at `s`.
    pub fn members(&self, s: u32) -> &[u32] {
        &self.perm[s as usize..self.end[s as usize] as usize]
    }

    /// Makes `v` a cell of its own (the first of its old cell) and refines; false where the
    /// trace differs.
    pub fn individualize(&mut self, g: &Graph, s: &mut Scratch, v: u32, trace: &mut Trace) -> bool {
        let c = self.cell[v as usize];
        let e = self.end[c as usize];
        debug_assert!(e - c > 1, "individualizing a vertex alone in its cell");
        self.swap(c, self.pos[v as usize]);
        self.end[c as usize] = c + 1;
        self.end[c as usize + 1] = e;
        for i in c + 1..e {
            self.cell[self.perm[i as usize] as usize] = c + 1;
        }
        trace.take(mix(u64::from(c))) && self.refine(g, s, &[c], trace)
    }

    fn swap(&mut self, i: u32, j: u32) {
        let (a, b) = (self.perm[i as usize], self.perm[j as usize]);
        self.perm.swap(i as usize, j as usize);
        self.pos[a as usize] = j;
        self.pos[b as usize] = i;
    }

    /// Splits cells by their vertices' edges into the cells of the queue, until equitable (the
    /// partition is equitable with respect to every cell not queued, as after a split only
    /// all but one of the parts need a look: Hopcroft's). False where the trace differs; the
    /// partition is then half refined and of no further use.
    fn refine(&mut self, g: &Graph, s: &mut Scratch, queue: &[u32], trace: &mut Trace) -> bool {
        for &c in queue {
            s.in_queue[c as usize] = true;
            s.queue.push_back(c);
        }
        let mut ok = true;
        while let Some(c) = s.queue.pop_front() {
            s.in_queue[c as usize] = false;
            if !ok {
                continue;
            }
            let list = &mut s.list;
            for i in c..self.end[c as usize] {
                let (nbr, label) = g.row(self.perm[i as usize]);
                s.work += nbr.len() as u64;
                for (&x, &l) in nbr.iter().zip(label) {
                    if !s.touched[x as usize] {
                        s.touched[x as usize] = true;
                        list.push(x);
                    }
                    s.count[x as usize] = s.count[x as usize].wrapping_add(l);
                }
            }
            let mut list = std::mem::take(&mut s.list);
            list.sort_unstable_by_key(|&x| (self.cell[x as usize], s.count[x as usize]));
            let mut i = 0;
            while i < list.len() {
                let cell = self.cell[list[i] as usize];
                let j = i + list[i..].iter().take_while(|&&x| self.cell[x as usize] == cell).count();
                if ok && self.end[cell as usize] - cell > 1 {
                    ok = self.split(s, cell, &list[i..j], trace);
                }
                i = j;
            }
            for &x in &list {
                s.touched[x as usize] = false;
                s.count[x as usize] = 0;
            }
            list.clear();
            s.list = list;
        }
        ok
    }

    /// Splits cell `c` by the counts of `touched` (its vertices with edges into the splitter,
    /// sorted by count): the others first, then one part per count, ascending.
    fn split(&mut self, s: &mut Scratch, c: u32, touched: &[u32], trace: &mut Trace) -> bool {
        let e = self.end[c as usize];
        let k = touched.len() as u32;
        let first = s.count[touched[0] as usize];
        if k == e - c && s.count[touched[k as usize - 1] as usize] == first {
            return true;
        }
        // The touched vertices to the back, in their order (those placed are behind `b`).
        let mut b = e;
        for &x in touched.iter().rev() {
            b -= 1;
            self.swap(b, self.pos[x as usize]);
        }
        // The parts: [c, e - k) untouched (if any), then a part per count.
        let mut starts = Vec::new();
        if k < e - c {
            starts.push(c);
        }
        for i in 0..k {
            if i == 0 || s.count[touched[i as usize] as usize] != s.count[touched[i as usize - 1] as usize] {
                starts.push(e - k + i);
            }
        }
        let mut h = mix(u64::from(c) ^ mix(u64::from(e - c)));
        for (i, &st) in starts.iter().enumerate() {
            let en = starts.get(i + 1).copied().unwrap_or(e);
            self.end[st as usize] = en;
            for p in st..en {
                self.cell[self.perm[p as usize] as usize] = st;
            }
            let count = if st < e - k { 0 } else { s.count[self.perm[st as usize] as usize] };
            h = mix(h ^ mix(u64::from(en - st) ^ mix(count)));
        }
        // All parts to the queue if the cell was there; else all but a largest one.
        let largest = if s.in_queue[c as usize] {
            None
        } else {
            starts.iter().copied().max_by_key(|&st| (self.end[st as usize] - st, std::cmp::Reverse(st)))
        };
        for &st in &starts {
            if Some(st) != largest && !s.in_queue[st as usize] {
                s.in_queue[st as usize] = true;
                s.queue.push_back(st);
            }
        }
        trace.take(h)
    }
}

#[cfg(test)]
mod tests {
    use super::{Partition, Scratch, Trace};
    use crate::input::read_program;
    use crate::symmetry::graph::Graph;

    #[test]
    fn interchangeable_atoms_share_a_cell_until_one_is_individualized() {
        // {a; b; c}. d :- a. d :- b. d :- c. e :- a.  (b and c interchangeable; a not)
        let text =
            b"asp 1 0 0\n1 1 3 1 2 3 0 0\n1 0 1 4 0 1 1\n1 0 1 4 0 1 2\n1 0 1 4 0 1 3\n1 0 1 5 0 1 1\n0\n";
        let g = Graph::of(&read_program(text).unwrap(), usize::MAX).unwrap();
        let mut s = Scratch::new(g.len());
        let p = Partition::equitable(&g, &mut s);
        assert_eq!(p.cell[1], p.cell[2], "b and c");
        assert_ne!(p.cell[0], p.cell[1], "a has a rule more");
        let t = p.target(&g).expect("not discrete");
        assert_eq!(p.end[t as usize] - t, 2);
        let mut left = p.clone();
        let mut trace = Vec::new();
        assert!(left.individualize(&g, &mut s, 1, &mut Trace::Record(&mut trace)));
        assert!(left.target(&g).is_none());
        let mut right = p.clone();
        let mut cmp = Trace::Compare(&trace, 0);
        assert!(right.individualize(&g, &mut s, 2, &mut cmp) && cmp.finished());
        let image: Vec<u32> = {
            let mut m = vec![0; g.len()];
            for (i, &v) in left.perm.iter().enumerate() {
                m[v as usize] = right.perm[i];
            }
            m
        };
        assert_eq!((image[1], image[2], image[0]), (2, 1, 0));
        assert!(g.is_automorphism(&image));
    }
}
