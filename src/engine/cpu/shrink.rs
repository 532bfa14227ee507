//! Shrinking a learned nogood (Feng and Bacchus's all-UIP shrinking, as CaDiCaL's `--shrink`):
//! the literals of one lower decision level are replaced by that level's own UIP, a literal of
//! the level that they all follow from, where the reasons on the way name no literal of another
//! level that the nogood lacks. The nogood keeps its levels, so its LBD and backjump level, and
//! gets shorter.

use super::CpuEngine;
use crate::engine::assignment::Reason;
use crate::nogoods::Lit;

/// A variable of the nogood (of a level below the conflict's).
const IN: u8 = 1;
/// A literal of the level being shrunk that the walk back along the trail has yet to pass.
const OPEN: u8 = 2;

impl CpuEngine {
    /// Shrinks the learned nogood `ng` (its asserted literal first, of the conflict level; the
    /// others of lower levels): each level with two literals or more gives them up for its UIP
    /// where one is found. The marks are clear before and after.
    pub(super) fn shrink(&mut self, ng: &mut Vec<Lit>) {
        if ng.len() <= 2 {
            return;
        }
        let mut marks = std::mem::take(&mut self.marks);
        marks.resize(self.p.num_vars as usize, 0);
        let mut touched = std::mem::take(&mut self.touched);
        let mut ante = std::mem::take(&mut self.ante);
        let a = &self.a;
        ng[1..].sort_unstable_by_key(|l| std::cmp::Reverse(a.trail_pos[l.var() as usize]));
        for l in &ng[1..] {
            marks[l.var() as usize] = IN;
            touched.push(l.var());
        }
        let level = |l: &Lit| self.a.level[l.var() as usize];
        let (mut i, mut out) = (1, 1);
        while i < ng.len() {
            let lv = level(&ng[i]);
            let j = i + ng[i..].iter().take_while(|l| level(l) == lv).count();
            let uip = if j - i >= 2 {
                self.block_uip(&ng[i..j], &mut marks, &mut touched, &mut ante)
            } else {
                None
            };
            match uip {
                Some(u) => {
                    ng[out] = u;
                    out += 1;
                }
                None => {
                    ng.copy_within(i..j, out);
                    out += j - i;
                }
            }
            i = j;
        }
        ng.truncate(out);
        for &v in &touched {
            marks[v as usize] = 0;
        }
        touched.clear();
        ante.clear();
        (self.marks, self.touched, self.ante) = (marks, touched, ante);
    }

    /// The UIP of `block` (the nogood's literals of one level, latest first, marked `IN`): walking
    /// back along the level's trail from the latest, each literal still open is replaced by its
    /// reason's literals of the level, until one is left. `None` where a reason names a literal
    /// of another level that the nogood lacks, or an open literal has no reason to follow (a
    /// decision or a unit below it: several literals of the level without one).
    fn block_uip(
        &self,
        block: &[Lit],
        marks: &mut [u8],
        touched: &mut Vec<u32>,
        ante: &mut Vec<Lit>,
    ) -> Option<Lit> {
        let a = &self.a;
        let lv = a.level[block[0].var() as usize];
        let first = touched.len();
        for l in block {
            marks[l.var() as usize] |= OPEN;
        }
        let mut open = block.len();
        let mut idx = a.trail_pos[block[0].var() as usize] as usize + 1;
        let uip = loop {
            debug_assert!(idx > a.level_start[lv as usize - 1] as usize, "walked out of level {lv}");
            idx -= 1;
            let t = a.trail[idx];
            let v = t.var() as usize;
            if marks[v] & OPEN == 0 {
                continue;
            }
            open -= 1;
            if open == 0 {
                break Some(t);
            }
            if matches!(a.reason[v], Reason::Decision | Reason::Unit) {
                break None;
            }
            ante.clear();
            self.antecedents(t, ante);
            let lacking = ante.iter().find_map(|x| {
                let xv = x.var() as usize;
                match a.level[xv] {
                    0 => None,
                    l if l == lv => {
                        if marks[xv] & OPEN == 0 {
                            marks[xv] |= OPEN;
                            touched.push(xv as u32);
                            open += 1;
                        }
                        None
                    }
                    _ => (marks[xv] & IN == 0).then_some(()),
                }
            });
            if lacking.is_some() {
                break None;
            }
        };
        debug_assert!(uip.is_none() || a.level[uip.unwrap().var() as usize] == lv, "a UIP of another level");
        for l in block {
            marks[l.var() as usize] &= !OPEN;
        }
        for &v in &touched[first..] {
            marks[v as usize] &= !OPEN;
        }
        uip
    }
}
