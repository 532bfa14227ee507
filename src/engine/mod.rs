//! The engine trait the search loop drives, and its two implementations: the CPU engine and the
//! CUDA engine. The loop (Algorithm 1 of the paper) lives once, in [`crate::solve`]; engines differ
//! only inside these operations.

pub mod assignment;
pub mod cpu;
pub mod cuda;
pub mod faulty;
pub mod loops;
pub mod rng;
pub mod scores;
pub mod signs;
pub mod unfounded;

use crate::nogoods::Lit;
#[cfg(doc)]
use crate::nogoods::Problem;

/// A failure inside an engine (a device or driver error, device memory exhausted): the search
/// cannot go on with this engine. The message says what failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError(pub String);

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub type EngineResult<T> = Result<T, EngineError>;

/// The LBD of a nogood: how many distinct decision levels its literals' `levels` are (both
/// engines' deletion ranks by it).
pub fn lbd(levels: impl IntoIterator<Item = u32>) -> u32 {
    let mut levels: Vec<u32> = levels.into_iter().collect();
    levels.sort_unstable();
    levels.dedup();
    levels.len() as u32
}

/// What the completion step did when no rule was applicable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// Every variable is assigned: the assignment is a candidate answer set.
    Total,
    /// Unsupported atoms were made false (propagate again).
    Falsified,
    /// A candidate the heap had missed was found and decided.
    Decided,
}

/// The counters every engine keeps (`--stats`), declared with the other statistics.
pub use crate::stats::EngineStats;

/// The operations of the paper's Algorithm 1, over one assignment.
///
/// Contract: `propagate` runs to a fixpoint or a conflict; after a conflict `resolve_conflict`
/// learns a nogood, backjumps and asserts (false when the conflict is at level 0: no more
/// answer sets); `decide` makes one decision by the ASP computation or reports none applicable,
/// in which case `complete` finishes the assignment. Nogoods added from outside (enumeration)
/// may be violated: the next `propagate` reports the conflict. `propagate` may also take, at the
/// fixpoints it reaches, the decisions `decide` would take there, and propagate on (the CUDA
/// engine, `--gpu-decisions`, saving a return to the host per decision): the search loop sees
/// them in the statistics and in `decisions`, and nothing it does between two decisions is lost,
/// since it only decides, or completes when `decide` finds no applicable rule. Likewise it may
/// resolve conflicts as `resolve_conflict` would, up to the budget the loop sets
/// (`set_conflict_budget`: the conflicts left before a restart or a deletion is due), and the
/// loop counts them (`take_resolved`); a conflict at level 0 it always reports.
///
/// Every operation that may touch a device returns an [`EngineError`] when it fails; the engine
/// is then not used again (the search drops it, or replaces it: `solve/search/fallback.rs`).
pub trait Engine {
    fn name(&self) -> &'static str;
    /// Unit propagation and the other propagators to a fixpoint (possibly past decisions of
    /// the engine's own, as above); false on a conflict.
    fn propagate(&mut self) -> EngineResult<bool>;
    fn decision_level(&self) -> u32;
    /// Learning (by the configured scheme) and backjump; false if the conflict is at level 0,
    /// or at or below the backtrack level ([`Engine::backtrack`]: the engine is then left at the
    /// conflict's level, to be backtracked from).
    fn resolve_conflict(&mut self) -> EngineResult<bool>;
    /// Decides the best applicable rule; `None` if there is none.
    fn decide(&mut self) -> EngineResult<Option<Lit>>;
    fn complete(&mut self) -> EngineResult<Completion>;
    /// Decides `l` (unassigned) at a new level: an assumption of the search (a guiding path's
    /// literal in split mode, `solve/split.rs`), at a propagation fixpoint like any decision.
    fn assume(&mut self, l: Lit) -> EngineResult<()>;
    /// Writes to `out` the value of every program atom (index 0 unused) of a total assignment;
    /// `out` is cleared first (a caller reading model after model keeps one buffer).
    fn atom_values(&self, out: &mut Vec<bool>) -> EngineResult<()>;
    /// The value of a literal (true, false, or unassigned as `None`).
    fn lit_value(&self, l: Lit) -> EngineResult<Option<bool>>;
    /// The value of a literal if it is fixed at level 0.
    fn fixed_value(&self, l: Lit) -> EngineResult<Option<bool>>;
    /// The decision literals, lowest level first.
    fn decisions(&self) -> EngineResult<Vec<Lit>>;
    /// Adds a permanent nogood; false if it makes the problem unsatisfiable at level 0.
    fn add_nogood(&mut self, lits: &[Lit]) -> EngineResult<bool>;
    /// Bounds the cost of further models (without offsets); `strict` asks for strictly less.
    fn set_cost_bound(&mut self, bound: Option<Vec<i64>>, strict: bool) -> EngineResult<()>;
    /// Backjumps to level 0, or to the backtrack level ([`Engine::backtrack`]).
    fn restart(&mut self) -> EngineResult<()>;
    /// Undoes the levels above `level`, which decided assumptions that still hold (a search
    /// asked again under assumptions that begin as the last ones did). By default a restart:
    /// it keeps none, which is always right.
    fn keep_levels(&mut self, level: u32) -> EngineResult<()> {
        let _ = level;
        self.restart()
    }
    /// Whether the engine backtracks for enumeration ([`Engine::backtrack`]).
    fn can_backtrack(&self) -> bool {
        false
    }
    /// Whether a step of the engine may fail ([`EngineError`]): a device's may; the CPU
    /// engine's never do.
    fn may_fail(&self) -> bool {
        true
    }
    /// Backtracking enumeration (clasp's `--enum-mode=bt`): undoes the deepest decision level
    /// and assigns the complement of its decision at the level below, without a reason; that
    /// level becomes the backtrack level, below which no backjump, restart or added nogood takes
    /// the search (the space beyond has been enumerated). False if nothing is left to flip: the
    /// deepest level is 0 (the whole space has been enumerated), or within a part
    /// ([`Engine::set_part_root`]) the flip would land on the part's path. Only for engines
    /// that [`Engine::can_backtrack`].
    fn backtrack(&mut self) -> EngineResult<bool> {
        Err(EngineError(format!("the {} engine does not backtrack", self.name())))
    }
    /// Backtracking within a part of the space (split mode): the levels up to `Some(k)` hold the
    /// part's path; no backjump undoes them, and [`Engine::backtrack`] flips decisions above
    /// level `k + 1` only, so that a flipped decision never lands at level 0, where what is
    /// learned would lose it (nogoods learned in a part then hold everywhere and can be shared).
    /// `None`: the whole space, and no backtrack level (a new part, after a restart).
    fn set_part_root(&mut self, _root: Option<u32>) {}
    /// Projective enumeration: decides these variables before any other, and
    /// [`Engine::backtrack`] flips the deepest decision on one of them (the decisions beyond it,
    /// on other variables, cannot change the projection).
    fn project_first(&mut self, _vars: &[u32]) {}
    /// The literals that [`Engine::backtrack`] put at `level` (flipped decisions of deeper levels).
    fn flipped_at(&self, _level: u32) -> EngineResult<Vec<Lit>> {
        Ok(Vec::new())
    }
    /// The assumptions behind `failed`, an assumption found false at a propagation fixpoint where
    /// every decision is an assumption: `failed` and the decisions its complement follows from,
    /// which cannot all hold (an unsatisfiable core of core-guided optimization,
    /// `solve/core_guided.rs`).
    fn core(&mut self, _failed: Lit) -> EngineResult<Vec<Lit>> {
        Err(EngineError(format!("the {} engine does not extract cores", self.name())))
    }
    /// Goes on over `p`, this engine's problem extended by variables and weight constraints
    /// ([`Problem::with_relaxations`]): what was learned, the heuristic's state and the cost
    /// bound are kept; the search restarts. False if `stop` stopped it first (the engine is left
    /// as it was, at level 0).
    fn extend(
        &mut self,
        _p: std::sync::Arc<crate::nogoods::Problem>,
        _stop: &crate::stop::StopToken,
    ) -> EngineResult<bool> {
        Err(EngineError(format!("the {} engine cannot take new variables", self.name())))
    }
    /// Deletes learned nogoods per the deletion policy.
    fn reduce_learned(&mut self);
    fn learned_count(&self) -> usize;
    /// How many conflicts `propagate` may resolve itself (learn, backjump, assert, and propagate
    /// on) before it must report one: the search loop's restart and deletion schedules fall due
    /// no earlier. Engines that resolve none (the CPU engine) ignore it.
    fn set_conflict_budget(&mut self, _conflicts: u64) {}
    /// The conflicts `propagate` resolved itself since the last call (each counted in the
    /// statistics as `resolve_conflict` would).
    fn take_resolved(&mut self) -> u64 {
        0
    }
    /// The nogoods learned (and loop nogoods found) since the last call that pass the sharing
    /// filter (`SearchOptions::share`), with their LBDs, for the other searches of a parallel run.
    /// An engine that shares none (the CUDA engine, for now) gives none.
    fn take_exports(&mut self, _out: &mut Vec<(Vec<Lit>, u32)>) {}
    /// Whether the engine says the LBD of each nogood it learns ([`Engine::last_lbd`]), which
    /// dynamic restarts follow.
    fn tells_lbd(&self) -> bool {
        false
    }
    /// The LBD of the nogood learned from the last conflict resolved, where the engine says
    /// ([`Engine::tells_lbd`]): `None` where it learned none.
    fn last_lbd(&self) -> Option<u32> {
        None
    }
    /// Adds a nogood another search learned: a consequence of the program (and of a cost bound
    /// at least as tight as any this engine will get), kept as a learned nogood of LBD `lbd`
    /// where the engine can delete it again; false if no model is left.
    fn import(&mut self, lits: &[Lit], _lbd: u32) -> EngineResult<bool> {
        self.add_nogood(lits)
    }
    /// The statistics so far, including work the engine has launched but not yet taken in (the
    /// CUDA engine's last conflict analysis when the search was interrupted after it; where that
    /// cannot be read back, the statistics without it).
    fn stats(&mut self) -> EngineStats;
}
