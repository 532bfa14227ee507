//! Where the CUDA engine's time went: host wall time per operation, logged with the device's own
//! clocks (from the control block) when the engine ends (`-V`).

use super::budget::Budgets;
use super::kernels::Kernel;
use super::layout::Control;
use crate::engine::EngineStats;
use std::time::Duration;

/// Host wall time in the engine's operations. Invariant: `unfounded` is part of `propagate`
/// (the host's unfounded-set checks run within propagation).
#[derive(Debug, Default)]
pub struct Timing {
    pub propagate: Duration,
    pub decide: Duration,
    pub resolve: Duration,
    /// Within `propagate`: the host's unfounded-set checks.
    pub unfounded: Duration,
}

impl Timing {
    /// Says where the time went: host wall time per operation, and for device-driven rounds the
    /// device time in input rounds and in sweeps of the learned nogoods (`ctl`: the last control
    /// block; `kernel`: the propagation kernel).
    pub fn log(&self, stats: &EngineStats, ctl: &Control, budgets: &Budgets, kernel: Kernel) {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        log::info!(
            "CUDA engine time: propagate {:.1} ms ({} rounds; device: input rounds {:.1} ms, {} sweeps {:.1} ms), \
             decide {:.1} ms ({} decisions, {} of them by {k}), resolve {:.1} ms ({} conflicts, {} of them analysed by \
             {k}; device: analysis {:.1} ms); unfounded-set checks {:.1} ms ({} found)",
            ms(self.propagate),
            stats.rounds,
            ctl.ns_input as f64 / 1e6,
            ctl.sweeps,
            ctl.ns_sweep as f64 / 1e6,
            ms(self.decide),
            stats.decisions,
            budgets.decided_on_device,
            ms(self.resolve),
            stats.conflicts,
            budgets.learned_on_device,
            ctl.ns_learn as f64 / 1e6,
            ms(self.unfounded),
            stats.unfounded_sets,
            k = kernel.name(),
        );
    }
}
