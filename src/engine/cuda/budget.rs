//! How much the propagation kernel (propagate_fix_k) may do on its own before it returns to the
//! host, decisions and conflict analyses, and the counts of what it did.

/// propagate_fix_k's budgets and the counts of its own work.
///
/// Invariant: `decide_ahead` <= `DECIDE_MAX` and `learn_ahead` <= `LEARN_MAX` (the room for
/// its events in the control block); `decide_ahead` is 0 for programs that are not tight, and
/// `learn_ahead` unless the device drives the rounds of a tight program.
#[derive(Debug, Default)]
pub struct Budgets {
    /// Decisions propagate_fix_k may make at its fixpoints before it returns (`--gpu-decisions`;
    /// 0 for programs that are not tight, whose fixpoints the host checks).
    pub decide_ahead: u32,
    /// Conflicts propagate_fix_k may analyse itself before it returns one (`--gpu-conflicts`;
    /// 0 for programs that are not tight, and under resolution learning where its analyses have
    /// no shared memory for the seen bitmaps).
    pub learn_ahead: u32,
    /// How many conflicts the search loop lets `propagate` resolve itself (its restart and
    /// deletion schedules).
    pub conflict_budget: u64,
    /// The conflicts resolved within `propagate` since the search loop last asked.
    pub resolved_here: u64,
    /// The decisions propagate_fix_k made (for `-V`).
    pub decided_on_device: u64,
    /// The conflicts propagate_fix_k analysed (for `-V`).
    pub learned_on_device: u64,
}

impl Budgets {
    /// The budgets per launch; nothing done yet, and no conflicts allowed until the search loop
    /// sets its budget.
    pub fn new(decide_ahead: u32, learn_ahead: u32) -> Budgets {
        Budgets { decide_ahead, learn_ahead, ..Default::default() }
    }
}
