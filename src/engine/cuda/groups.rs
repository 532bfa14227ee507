//! The learned nogoods on the device: four groups by length (2, 3, 4..7, 8 and more; see
//! [`super::layout::group_of`]), each a CSR list that grows on the device when full, and the
//! device's counts of them.
//!
//! Invariant (stated with [`super::device`], where ARCHITECTURE.md looks for it): the device's
//! counts (`lg_fill`) equal the host's (each [`Group`]'s `count` and `used`) after every applied
//! analysis; checked in debug builds where the host applies one (`check_fill`, analyze.rs).

use super::device::{DResult, err, zeros};
use super::layout::{GROUP_MAX_LEN, LEARNED_GROUPS};
use cudarc::driver::{CudaSlice, CudaStream};
use std::sync::Arc;

/// One group of learned nogoods: CSR with room for `cap_n` nogoods and `cap_lits` literals, and
/// the LBD of each nogood (`lbd[i]` for every `i < count`; deletion ranks by it).
pub struct Group {
    pub start: CudaSlice<u32>,
    pub lits: CudaSlice<u32>,
    pub lbd: CudaSlice<u32>,
    pub count: u32,
    pub used: u32,
    pub cap_n: u32,
    pub cap_lits: u32,
}

/// The learned groups (indexed by group: `groups[g]`) and the device's counts of them.
/// Invariant: see the module docs. Whatever stores into a group (the host, a learning kernel)
/// first makes room ([`LearnedGroups::reserve`] and the `reserve_learning` functions), so each
/// group's `count` and `used` stay below its `cap_n` and `cap_lits`.
pub struct LearnedGroups {
    list: Vec<Group>,
    /// The device's counts of the groups (`Db::lg_fill`): each group's `count`, then its `used`.
    /// The learning kernels advance them; the host's copies in the groups follow (analyze.rs),
    /// and where the host appends or deletes it uploads its counts
    /// ([`LearnedGroups::upload_fill`]).
    pub lg_fill: CudaSlice<u32>,
    /// The engine's stream, on which the groups grow.
    stream: Arc<CudaStream>,
}

impl std::ops::Index<usize> for LearnedGroups {
    type Output = Group;
    fn index(&self, g: usize) -> &Group {
        &self.list[g]
    }
}

impl std::ops::IndexMut<usize> for LearnedGroups {
    fn index_mut(&mut self, g: usize) -> &mut Group {
        &mut self.list[g]
    }
}

impl LearnedGroups {
    /// The empty groups, with room for 4,096 nogoods each.
    pub fn empty(s: &Arc<CudaStream>) -> DResult<Vec<Group>> {
        let cap_n = 4096u32;
        (0..LEARNED_GROUPS)
            .map(|g| {
                let per = [2u32, 3, 7, 32][g];
                Ok(Group {
                    start: zeros(s, cap_n as usize + 1)?,
                    lits: zeros(s, (cap_n * per) as usize)?,
                    lbd: zeros(s, cap_n as usize)?,
                    count: 0,
                    used: 0,
                    cap_n,
                    cap_lits: cap_n * per,
                })
            })
            .collect()
    }

    /// The groups `list` ([`LearnedGroups::empty`]) and their counts on the device, allocated
    /// here (zero: empty groups).
    pub fn new(list: Vec<Group>, stream: &Arc<CudaStream>) -> DResult<LearnedGroups> {
        Ok(LearnedGroups { list, lg_fill: zeros(stream, 2 * LEARNED_GROUPS)?, stream: Arc::clone(stream) })
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Group> {
        self.list.iter()
    }

    /// Makes room for `n` more nogoods of `len` literals in all in group `g` (at least doubling
    /// on the device).
    pub fn reserve(&mut self, g: usize, n: u32, len: u32) -> DResult<()> {
        let s = Arc::clone(&self.stream);
        let grp = &mut self.list[g];
        if grp.count + n >= grp.cap_n {
            let cap = (grp.cap_n * 2).max(grp.count + n + 1);
            let mut start = zeros::<u32>(&s, cap as usize + 1)?;
            s.memcpy_dtod(&grp.start, &mut start.slice_mut(..grp.cap_n as usize + 1)).map_err(err("copy"))?;
            let mut lbd = zeros::<u32>(&s, cap as usize)?;
            s.memcpy_dtod(&grp.lbd, &mut lbd.slice_mut(..grp.cap_n as usize)).map_err(err("copy"))?;
            grp.start = start;
            grp.lbd = lbd;
            grp.cap_n = cap;
        }
        if grp.used + len >= grp.cap_lits {
            let cap = (grp.cap_lits * 2).max(grp.used + len + 1);
            let mut lits = zeros::<u32>(&s, cap as usize)?;
            s.memcpy_dtod(&grp.lits, &mut lits.slice_mut(..grp.cap_lits as usize)).map_err(err("copy"))?;
            grp.lits = lits;
            grp.cap_lits = cap;
        }
        Ok(())
    }

    /// Uploads the host's counts of the groups to `lg_fill` (after the host appended or deleted).
    pub fn upload_fill(&mut self) -> DResult<()> {
        let fill = self.fill();
        self.stream.memcpy_htod(&fill, &mut self.lg_fill).map_err(err("upload"))
    }

    /// The host's counts of the groups in the layout of `lg_fill`.
    pub fn fill(&self) -> Vec<u32> {
        let count = self.list.iter().map(|g| g.count);
        count.chain(self.list.iter().map(|g| g.used)).collect()
    }

    /// Makes room for one more nogood of any length (at most `max_len` literals) in every group,
    /// so that a learning kernel can append to the group the length it finds decides.
    pub fn reserve_learning(&mut self, max_len: u32) -> DResult<()> {
        self.reserve_learning_for(1, max_len)
    }

    /// Room in every group for `n` more nogoods of up to `max_len` literals (propagate_fix_k's
    /// own analyses, which store theirs without the host).
    pub fn reserve_learning_for(&mut self, n: u32, max_len: u32) -> DResult<()> {
        for g in 0..LEARNED_GROUPS {
            self.reserve(g, n, n * GROUP_MAX_LEN.get(g).copied().unwrap_or(max_len))?;
        }
        Ok(())
    }
}
