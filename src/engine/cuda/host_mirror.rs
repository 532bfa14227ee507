//! The host's mirror of the device's search state: what the host knows of the control block,
//! the levels and the assignment without asking the device, and the flags that say what the
//! search must do next. Most operations read only this; the device is asked (a read-back of the
//! control block, a copy of the assignment) where the mirror cannot tell.

use super::layout::Control;
use std::cell::OnceCell;

/// The host's mirror of the device's search state.
///
/// Invariant: unless `learn_pending`, `ctl`'s level, trail length and frontier are the device's,
/// and `level_start` holds the trail position where each level up to `ctl.level` begins
/// (`ctl.level + 1` entries; asserted in debug builds where propagate_fix_k's events are
/// applied). While `learn_pending`, they are as before the analysis the device is running, until
/// the host applies its outcome from a control block published after it
/// (`CudaEngine::learned_applied`). `snapshot`, when set, holds the device's assignment and trail
/// as they are: every change clears it.
pub struct HostMirror {
    /// The control block after the last read-back, followed by the host's own launches since.
    pub ctl: Control,
    /// Trail length at the start of each level (index = level).
    pub level_start: Vec<u32>,
    /// Work for the next propagate: the frontier, or dirty weight constraints.
    pub pending: bool,
    /// A conflict waits for its analysis.
    pub conflict: bool,
    /// The nogoods are unsatisfiable: the search is over.
    pub unsat: bool,
    /// A learning kernel was launched and the host has not applied its outcome yet: the host's
    /// mirror (`ctl`, `level_start`, the groups' counts) is as before the analysis until
    /// `CudaEngine::learned_applied` runs with a control block published after it.
    pub learn_pending: bool,
    /// The assignment and trail last copied to the host, while still current.
    pub snapshot: OnceCell<(Vec<i32>, Vec<u32>)>,
}

impl Default for HostMirror {
    /// The state before the initial propagation: level 0, work pending.
    fn default() -> HostMirror {
        HostMirror {
            ctl: Control::default(),
            level_start: vec![0],
            pending: true,
            conflict: false,
            unsat: false,
            learn_pending: false,
            snapshot: OnceCell::new(),
        }
    }
}

impl HostMirror {
    /// Forgets the snapshot: the assignment or the trail changed on the device.
    pub fn forget_snapshot(&mut self) {
        self.snapshot = OnceCell::new();
    }
}
