//! Deletion of learned nogoods on the device, by LBD as the CPU engine does
//! ([`crate::engine::cpu`]'s `reduce`): nogoods of LBD <= 2 ("glue") stay, and of the others the
//! half with the highest LBD goes. It runs at the first restart after the search asks for it, so
//! at level 0, where no learned nogood is the reason of anything an analysis looks at; the short
//! groups (lengths 2 and 3), which a sweep checks cheaply, and the host's blocking nogoods stay.
//!
//! The policy matters to the CPU engine: on GraphColouring_0006 it needs 41,560 decisions with
//! LBD deletion, 36,962 with none and 240,546 ranking by activity. The CUDA engine deleted the
//! older half before; on the GPU the change to LBD made no difference measurable in 10 s runs
//! (BENCHMARKS.md, step 18), but both engines now follow the same policy and `--deletion`.

use super::CudaEngine;
use super::device::{DResult, err};
use super::layout::{LEARNED_GROUPS, group_of_reason, learned_reason};
use crate::solve::config::Deletion;

/// Groups with fewer nogoods than this are left alone.
const MIN_GROUP: usize = 64;

/// Which of `n` nogoods stay, given their LBDs and which are permanent: all glue and permanent
/// ones, and of the rest the half with the lowest LBD (the newer first among equal LBDs).
pub fn kept(lbd: &[u32], permanent: impl Fn(usize) -> bool) -> Vec<bool> {
    let mut keep = vec![true; lbd.len()];
    let mut cands: Vec<usize> = (0..lbd.len()).filter(|&i| lbd[i] > 2 && !permanent(i)).collect();
    cands.sort_by_key(|&i| (std::cmp::Reverse(lbd[i]), i));
    for &i in &cands[..cands.len() / 2] {
        keep[i] = false;
    }
    keep
}

impl CudaEngine {
    /// Deletes learned nogoods of the groups 2 and 3 (see the module docs) and compacts those
    /// groups on the device; the reason codes of the host's nogoods follow their new places.
    pub(super) fn reduce(&mut self) -> DResult<()> {
        debug_assert_eq!(self.mirror.ctl.level, 0);
        if self.learned.deletion == Deletion::No {
            return Ok(());
        }
        let permanent: std::collections::HashSet<u32> = self.learned.permanent.iter().copied().collect();
        let mut kept_codes = Vec::new();
        for g in 2..LEARNED_GROUPS {
            let grp = &self.dev.groups[g];
            let n = grp.count as usize;
            if n < MIN_GROUP {
                // Left as it is: its permanent nogoods keep their places, and stay permanent.
                kept_codes.extend(permanent.iter().copied().filter(|&c| group_of_reason(c) == g));
                continue;
            }
            let s = &self.dev.gpu.stream;
            let start = s.clone_dtoh(&grp.start.slice(..n + 1)).map_err(err("read-back"))?;
            let lits = s.clone_dtoh(&grp.lits.slice(..grp.used as usize)).map_err(err("read-back"))?;
            let lbd = s.clone_dtoh(&grp.lbd.slice(..n)).map_err(err("read-back"))?;
            let code = |i: usize| learned_reason(g, i as u32);
            let keep = kept(&lbd, |i| permanent.contains(&code(i)));
            let (mut new_start, mut new_lits, mut new_lbd) = (vec![0u32], Vec::new(), Vec::new());
            for i in (0..n).filter(|&i| keep[i]) {
                if permanent.contains(&code(i)) {
                    kept_codes.push(code(new_lbd.len()));
                }
                new_lits.extend_from_slice(&lits[start[i] as usize..start[i + 1] as usize]);
                new_start.push(new_lits.len() as u32);
                new_lbd.push(lbd[i]);
            }
            let d = &mut self.dev;
            let grp = &mut d.groups[g];
            let up = err("upload");
            d.gpu.stream.memcpy_htod(&new_start, &mut grp.start.slice_mut(..new_start.len())).map_err(&up)?;
            if !new_lits.is_empty() {
                d.gpu
                    .stream
                    .memcpy_htod(&new_lits, &mut grp.lits.slice_mut(..new_lits.len()))
                    .map_err(&up)?;
                d.gpu.stream.memcpy_htod(&new_lbd, &mut grp.lbd.slice_mut(..new_lbd.len())).map_err(&up)?;
            }
            self.stats.deleted += (n - new_lbd.len()) as u64;
            grp.count = new_lbd.len() as u32;
            grp.used = new_lits.len() as u32;
        }
        self.learned.permanent.retain(|&c| group_of_reason(c) < 2);
        self.learned.permanent.extend(kept_codes);
        self.dev.groups.upload_fill()
    }
}

#[cfg(test)]
mod tests {
    use super::kept;

    #[test]
    fn glue_and_permanent_stay_and_the_worse_half_of_the_rest_goes() {
        // Candidates: 1 (lbd 5), 2 (lbd 3), 3 (lbd 5), 5 (lbd 4); 0 and 4 are glue, 6 permanent.
        let lbd = [2, 5, 3, 5, 1, 4, 9];
        let keep = kept(&lbd, |i| i == 6);
        // The two with the highest LBD go, the older first among equals: 1 and 3.
        assert_eq!(keep, [true, false, true, false, true, true, true]);
    }

    #[test]
    fn an_odd_candidate_count_keeps_the_larger_half() {
        let keep = kept(&[3, 4, 5], |_| false);
        assert_eq!(keep, [true, true, false]);
        assert_eq!(kept(&[7], |_| false), [true]);
        assert!(kept(&[], |_| false).is_empty());
    }
}
