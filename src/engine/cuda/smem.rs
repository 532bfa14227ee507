//! Shared-memory plans: how much dynamic shared memory the kernels that take it get, and what
//! goes into it, decided once per engine from the program's size and the device's limit. The
//! propagation kernel's block 0 (propagate_fix_k or propagate_fix_fwd_k) keeps the values and a
//! round's proposals there (fixpoint.cu, `SharedView`), and after them the state of the conflicts
//! it analyses by resolution; learn_res_k prefetches the conflict level's short reasons and keeps
//! the seen and position marks there (learn.cu). A plan never asks for more than its limit; what
//! does not fit stays in global memory, which the kernels handle.

/// The dynamic shared memory of a conflict analysis (learn.cu, `ResShared`): the prefetch of up
/// to `seg_cap` positions of the conflict level (a literal and a 16-byte entry each), a pool of
/// `pool_cap` 8-byte entries for the prefetched literals of its longer reasons, two bitmaps
/// of `seen_words` words, the seen variables and the levels the LBD counted (0: the global `seen`
/// array and level stamps instead), and two bitmaps of `mark_words` words over the conflict
/// level's positions (longer levels use global scratch). learn_res_k has a plan of its own;
/// propagate_fix_k's block 0 has another, after its SharedView, for the conflicts it analyses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResPlan {
    pub seg_cap: u32,
    pub seen_words: u32,
    pub mark_words: u32,
    pub pool_cap: u32,
}

impl ResPlan {
    /// Positions of a level prefetched at most.
    const SEG_CAP: u32 = 4096;
    /// Words of each position bitmap at most (131,072 positions, 2 x 16 KiB).
    const MARK_WORDS: u32 = 4096;
    /// Pool entries at most (128 KiB).
    const POOL_CAP: u32 = 16384;

    /// The plan for `nvars` variables within `limit` bytes: the position bitmaps in up to a
    /// quarter, then the seen bitmaps if they take at most half of the rest, the prefetch in half
    /// of what is left and the pool in the other half. (A level opens with a decision on a
    /// variable of its own, so the levels are fewer than the variables and fit a bitmap of the
    /// variables' size.)
    pub fn new(nvars: u32, limit: u32) -> ResPlan {
        let mark_words = (limit / 32).min(Self::MARK_WORDS);
        let rest = limit - 8 * mark_words;
        let words = nvars.div_ceil(32);
        let seen_words = if 8 * words <= rest / 2 { words } else { 0 };
        let left = rest - 8 * seen_words;
        let seg_cap = (left / 40).min(Self::SEG_CAP);
        let pool_cap = ((left - 20 * seg_cap) / 8).min(Self::POOL_CAP);
        ResPlan { seg_cap, seen_words, mark_words, pool_cap }
    }

    pub fn bytes(&self) -> u32 {
        20 * self.seg_cap + 8 * self.pool_cap + 8 * self.seen_words + 8 * self.mark_words
    }
}

/// The shared memory of propagate_fix_k's block 0 (fixpoint.cu, `SharedView`): two bitmaps of
/// `words` words indexed by literal and a proposal list of `cap` entries (literal and reason),
/// then `weights` marks (common.cuh, `Marks`: a bit and a list entry each): its weight
/// constraints', then its wide nogoods' where those fit too (Device::new). `words` is 0 when the
/// values do not fit the limit: block 0 then uses global memory; `weights` is 0 when there are no
/// marks or they do not fit after the values: the weight constraints' then stay global.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SharedPlan {
    pub words: u32,
    pub cap: u32,
    pub weights: u32,
}

impl SharedPlan {
    /// Proposals a round keeps in shared memory; more continue in global memory.
    const CAP: u32 = 2048;

    /// The plan for `nvars` variables and `nweights` weight constraints within `limit` bytes.
    pub fn new(nvars: u32, nweights: u32, limit: u32) -> SharedPlan {
        let words = nvars.div_ceil(16);
        let plan = SharedPlan { words, cap: Self::CAP, weights: 0 };
        if words == 0 || plan.bytes() > limit {
            return SharedPlan::default();
        }
        let with_marks = SharedPlan { weights: nweights, ..plan };
        if with_marks.bytes() <= limit { with_marks } else { plan }
    }

    /// The dynamic shared memory a block of propagate_fix_k needs.
    pub fn bytes(&self) -> u32 {
        if self.words == 0 {
            0
        } else {
            4 * (2 * self.words + 2 * self.cap + self.weights.div_ceil(32) + self.weights)
        }
    }
}

/// At most this much of propagate_fix_k's dynamic shared memory goes to its analyses: every block
/// gets the dynamic shared memory of block 0, and what it takes is no longer L1 cache for the
/// others' sweeps. 32 KiB holds the seen bitmaps of 49,152 variables, the positions of a conflict
/// level of up to 32,768 literals, and for 3,000 variables (GraphColouring_0006) the prefetch of
/// 595 positions and a pool of 1,488 literals of their longer reasons.
const FIX_RES_LIMIT: u32 = 32 * 1024;

/// The engine's shared-memory plans, decided once by [`SmemPlans::new`]: block 0's of
/// propagate_fix_k (`fix`), its analyses' after it (`fix_res`), and learn_res_k's (`learn_res`).
/// Invariant: `fix_res` is the default (no analyses in propagate_fix_k) unless it has the seen
/// bitmaps in shared memory; [`SmemPlans::fix_bytes`] stays within the kernel's limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmemPlans {
    pub fix: SharedPlan,
    pub fix_res: ResPlan,
    pub learn_res: ResPlan,
}

impl SmemPlans {
    /// The plans for `nvars` variables, `nweights` weight constraints and `nwide` wide input
    /// nogoods: block 0's marks hold the weight constraints' and the wide nogoods' where both
    /// fit, else the weight constraints' alone (the wide nogoods then checked where their
    /// literals are); returns the plans and the wide nogoods block 0 has marks for (all or
    /// none). `shared_limit`: what block 0 may take (`--gpu-shared-kib`); `fix_limit` and
    /// `learn_limit`: the dynamic shared memory propagate_fix_k (or propagate_fix_fwd_k) and
    /// learn_res_k may be launched with; `analyses`: propagate_fix_k analyses conflicts by
    /// resolution (then it gets a plan for them).
    pub fn new(
        nvars: u32,
        nweights: u32,
        nwide: u32,
        shared_limit: u32,
        fix_limit: u32,
        learn_limit: u32,
        analyses: bool,
    ) -> (SmemPlans, u32) {
        let limit = shared_limit.min(fix_limit);
        let mut fix = SharedPlan::new(nvars, nweights + nwide, limit);
        if fix.weights == 0 && nwide > 0 {
            fix = SharedPlan::new(nvars, nweights, limit);
        }
        let nwide = if nwide > 0 && fix.weights == nweights + nwide { nwide } else { 0 };
        let fix_res = match fix_limit.checked_sub(fix.bytes().next_multiple_of(16)) {
            Some(left) if analyses => ResPlan::new(nvars, left.min(FIX_RES_LIMIT)),
            _ => ResPlan::default(),
        };
        let fix_res = if fix_res.seen_words > 0 { fix_res } else { ResPlan::default() };
        (SmemPlans { fix, fix_res, learn_res: ResPlan::new(nvars, learn_limit) }, nwide)
    }

    /// propagate_fix_k's dynamic shared memory: block 0's SharedView, then, 16-byte aligned, the
    /// state of its own analyses where there is a plan for them.
    pub fn fix_bytes(&self) -> u32 {
        if self.fix_res.seen_words == 0 {
            return self.fix.bytes();
        }
        self.fix.bytes().next_multiple_of(16) + self.fix_res.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::{ResPlan, SharedPlan, SmemPlans};

    #[test]
    fn shared_plan_fits_the_limit_or_falls_back_to_global_memory() {
        // GraphColouring_0006: 3,059 variables, 192 words a bitmap, no weight constraints.
        let p = SharedPlan::new(3059, 0, 96 * 1024);
        assert_eq!((p.words, p.weights), (192, 0));
        assert_eq!(p.bytes(), 4 * (2 * 192 + 2 * p.cap));
        assert!(p.bytes() <= 96 * 1024);
        // Labyrinth_0073's 115,049 variables fit 96 KiB, not 64.
        assert!(SharedPlan::new(115_049, 0, 96 * 1024).words > 0);
        assert_eq!(SharedPlan::new(115_049, 0, 64 * 1024), SharedPlan::default());
        assert_eq!(SharedPlan::new(3059, 0, 0).bytes(), 0);
        // 40 weight constraints: two bitmap words and 40 list entries more.
        let w = SharedPlan::new(3059, 40, 96 * 1024);
        assert_eq!(w.weights, 40);
        assert_eq!(w.bytes(), p.bytes() + 4 * (2 + 40));
        // Marks that do not fit after the values stay global; the values keep their place.
        let tight = SharedPlan::new(3059, 40, p.bytes() + 100);
        assert_eq!((tight.words, tight.weights), (192, 0));
        assert_eq!(SharedPlan::new(115_049, 40, 64 * 1024), SharedPlan::default());
    }

    #[test]
    fn res_plan_keeps_the_bitmaps_to_their_shares_and_caps_the_prefetch() {
        // What the bitmaps leave (190 KiB - 32 KiB - 768 bytes) goes half to the prefetch, half
        // to the pool.
        let p = ResPlan::new(3059, 190 * 1024);
        assert_eq!((p.seen_words, p.mark_words), (96, 4096));
        let left = 190 * 1024 - 8 * 4096 - 8 * 96;
        assert_eq!((p.seg_cap, p.pool_cap), (left / 40, (left - 20 * (left / 40)) / 8));
        assert!(p.bytes() <= 190 * 1024);
        // Too many variables for half of the rest: the global seen array, the rest for the
        // prefetch and the pool.
        let q = ResPlan::new(10_000_000, 16 * 1024);
        assert_eq!((q.seen_words, q.mark_words), (0, 512));
        assert_eq!((q.seg_cap, q.pool_cap), (307, 768));
        assert!(q.bytes() <= 16 * 1024);
        // The caps: a larger limit leaves the rest unused.
        let r = ResPlan::new(3059, 1 << 20);
        assert_eq!((r.seg_cap, r.pool_cap, r.mark_words), (4096, 16384, 4096));
        // Both seen bitmaps or neither: 4,096 words each (32 KiB together) exceed half of what
        // 64 KiB leaves after the position bitmaps (16 KiB), and fit half of what 96 KiB leaves.
        assert_eq!(ResPlan::new(32 * 4096, 64 * 1024).seen_words, 0);
        assert_eq!(ResPlan::new(32 * 4096, 96 * 1024).seen_words, 4096);
        assert_eq!(ResPlan::new(100, 0), ResPlan { seg_cap: 0, seen_words: 0, mark_words: 0, pool_cap: 0 });
    }

    #[test]
    fn wide_nogoods_get_marks_only_beside_the_weight_constraints() {
        let k = 96 * 1024;
        // Room for all marks: 40 weight constraints and 10 wide nogoods.
        let (p, nwide) = SmemPlans::new(3059, 40, 10, k, k, k, false);
        assert_eq!((p.fix.weights, nwide), (50, 10));
        assert_eq!(p.fix_res, ResPlan::default());
        assert_eq!(p.fix_bytes(), p.fix.bytes());
        // Room for the weight constraints' marks alone: the wide nogoods get none.
        let values = SharedPlan::new(3059, 0, k).bytes();
        let (p, nwide) = SmemPlans::new(3059, 40, 10, values + 4 * (2 + 40) + 20, k, k, false);
        assert_eq!((p.fix.weights, nwide), (40, 0));
        // Analyses by resolution: their plan after block 0's, 16-byte aligned, up to 32 KiB.
        let (p, _) = SmemPlans::new(3059, 0, 0, k, k, k, true);
        assert!(p.fix_res.seen_words > 0);
        assert!(p.fix_res.bytes() <= super::FIX_RES_LIMIT);
        assert_eq!(p.fix_bytes(), p.fix.bytes().next_multiple_of(16) + p.fix_res.bytes());
        assert_eq!(p.learn_res, ResPlan::new(3059, k));
    }
}
