//! Generators of a program graph's automorphism group, found as nauty and saucy find them: a
//! first path of individualized vertices (each the first of the first smallest cell) refined
//! down to a discrete partition (but for vertices in no rule); then, from the deepest level up,
//! each other vertex `w` of a level's cell is tried as the image of that level's vertex: the
//! same individualizations, `w` in its place and below it the path's own vertices where their
//! cells hold them, until the partition matches the first path's at that depth, every cell of
//! more than one vertex holding the same vertices (saucy's observation that the rest is then the
//! identity); the match is checked to be an automorphism.
//!
//! Vertices already in the orbit of the level's vertex (under the generators found so far, all
//! of which fix the path above) are skipped. The search is not complete: where the image of a
//! deeper vertex would have to move too, no generator is found. Every generator it returns is
//! checked, so what it misses costs strength, never soundness.

use super::graph::Graph;
use super::refine::{Partition, Scratch, Trace};
use crate::stop::StopToken;

/// The first path's level: the partition before, the cell and vertex individualized, and the
/// splits that followed.
struct Level {
    before: Partition,
    target: u32,
    vertex: u32,
    trace: Vec<u64>,
}

/// How far the search may go: edges looked at by its refinements and vertices copied (its work),
/// and vertices kept in the first path's partitions (one copy a level).
pub struct Limits {
    pub work: u64,
    pub kept: usize,
}

/// Generators found (before the limits or `stop` ended the search), each as the vertices it
/// moves and their images.
pub fn generators(g: &Graph, limits: &Limits, stop: &StopToken) -> Vec<Vec<(u32, u32)>> {
    let n = g.len();
    let mut s = Scratch::new(n);
    let mut end = Partition::equitable(g, &mut s);
    let mut levels: Vec<Level> = Vec::new();
    // The first path, as deep as the limits let it go (half the work for it): cut short, the
    // levels below are not tried, and a level's tries end where the match is not yet known.
    while let Some(target) = end.target(g) {
        if (levels.len() + 1) * n > limits.kept || 2 * s.work > limits.work {
            log::info!("symmetry: the first path cut at depth {}", levels.len());
            break;
        }
        let vertex = end.perm[target as usize];
        let before = end.clone();
        let mut trace = Vec::new();
        let ok = end.individualize(g, &mut s, vertex, &mut Trace::Record(&mut trace));
        debug_assert!(ok, "a recording refinement has nothing to differ from");
        levels.push(Level { before, target, vertex, trace });
    }
    let mut orbits = Orbits::new(n);
    let mut found = Vec::new();
    for i in (0..levels.len()).rev() {
        let level = &levels[i];
        for &w in level.before.members(level.target) {
            if orbits.find(w) == orbits.find(level.vertex) {
                continue;
            }
            if s.work > limits.work || stop.check().is_err() {
                log::info!("symmetry: the search stopped by its budget, {} generators", found.len());
                return found;
            }
            if let Some(image) = probe(g, &mut s, &levels[i..], &end, w) {
                let moved: Vec<(u32, u32)> = (0..n as u32)
                    .filter(|&v| image[v as usize] != v)
                    .map(|v| (v, image[v as usize]))
                    .collect();
                for &(v, w) in &moved {
                    orbits.union(v, w);
                }
                found.push(moved);
            }
        }
    }
    found
}

/// The automorphism mapping the first level's vertex onto `w` along the path (which ends at
/// `end`), if this finds one.
fn probe(g: &Graph, s: &mut Scratch, levels: &[Level], end: &Partition, w: u32) -> Option<Vec<u32>> {
    let mut r = levels[0].before.clone();
    s.work += r.perm.len() as u64;
    for (k, level) in levels.iter().enumerate() {
        // Below the first level, the path's own vertex where its cell holds it.
        let c = level.target;
        let pick = match k {
            0 => w,
            _ if r.cell[level.vertex as usize] == c => level.vertex,
            _ => r.perm[c as usize],
        };
        let mut t = Trace::Compare(&level.trace, 0);
        if !r.individualize(g, s, pick, &mut t) || !t.finished() {
            return None;
        }
        // Where every cell of more than one vertex holds the same vertices as the first path's
        // at this depth, those stay where they are: the rest of the match is known. (At the
        // end of a whole path, only the cells of vertices alone are left, untouched by both.)
        let left = levels.get(k + 1).map_or(end, |l| &l.before);
        if let Some(image) = matched(&r, left) {
            return g.is_automorphism(&image).then_some(image);
        }
    }
    None
}

/// The permutation that maps `left`'s singleton cells onto `right`'s and fixes every other
/// vertex, where each cell of more than one vertex holds the same vertices in both.
fn matched(right: &Partition, left: &Partition) -> Option<Vec<u32>> {
    let n = left.perm.len();
    let mut image: Vec<u32> = (0..n as u32).collect();
    let mut p = 0;
    while p < n {
        let e = left.end[p] as usize;
        if e - p == 1 {
            image[left.perm[p] as usize] = right.perm[p];
        } else if left.perm[p..e].iter().any(|&v| right.cell[v as usize] != p as u32) {
            return None;
        }
        p = e;
    }
    Some(image)
}

/// Orbits of the vertices under the generators found so far (union-find).
struct Orbits(Vec<u32>);

impl Orbits {
    fn new(n: usize) -> Self {
        Orbits((0..n as u32).collect())
    }

    fn find(&mut self, mut v: u32) -> u32 {
        while self.0[v as usize] != v {
            let up = self.0[self.0[v as usize] as usize];
            self.0[v as usize] = up;
            v = up;
        }
        v
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra.max(rb) as usize] = ra.min(rb);
        }
    }
}
