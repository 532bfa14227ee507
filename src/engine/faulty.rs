//! A test hook: an engine that fails after a number of operations, as one does on a device error
//! (out of memory, a lost device), so that tests can check what the search, a race and the
//! `--backend=auto` fallback do with an engine that fails mid-search, without a GPU.

use super::{Completion, Engine, EngineError, EngineResult, EngineStats};
use crate::nogoods::Lit;

pub struct Faulty<'e> {
    inner: Box<dyn Engine + 'e>,
    /// Operations left before every operation fails.
    left: u64,
}

impl<'e> Faulty<'e> {
    pub fn new(inner: Box<dyn Engine + 'e>, after: u64) -> Self {
        Faulty { inner, left: after }
    }

    /// An error once the count is spent.
    fn spent(&self) -> EngineResult<()> {
        match self.left {
            0 => Err(EngineError(format!("{} engine: injected device failure", self.inner.name()))),
            _ => Ok(()),
        }
    }

    /// Counts an operation.
    fn tick(&mut self) -> EngineResult<()> {
        self.spent()?;
        self.left -= 1;
        Ok(())
    }
}

impl Engine for Faulty<'_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn propagate(&mut self) -> EngineResult<bool> {
        self.tick()?;
        self.inner.propagate()
    }
    fn decision_level(&self) -> u32 {
        self.inner.decision_level()
    }
    fn resolve_conflict(&mut self) -> EngineResult<bool> {
        self.tick()?;
        self.inner.resolve_conflict()
    }
    fn decide(&mut self) -> EngineResult<Option<Lit>> {
        self.tick()?;
        self.inner.decide()
    }
    fn complete(&mut self) -> EngineResult<Completion> {
        self.tick()?;
        self.inner.complete()
    }
    fn assume(&mut self, l: Lit) -> EngineResult<()> {
        self.tick()?;
        self.inner.assume(l)
    }
    fn atom_values(&self, out: &mut Vec<bool>) -> EngineResult<()> {
        self.spent()?;
        self.inner.atom_values(out)
    }
    fn lit_value(&self, l: Lit) -> EngineResult<Option<bool>> {
        self.spent()?;
        self.inner.lit_value(l)
    }
    fn fixed_value(&self, l: Lit) -> EngineResult<Option<bool>> {
        self.spent()?;
        self.inner.fixed_value(l)
    }
    fn decisions(&self) -> EngineResult<Vec<Lit>> {
        self.spent()?;
        self.inner.decisions()
    }
    fn add_nogood(&mut self, lits: &[Lit]) -> EngineResult<bool> {
        self.tick()?;
        self.inner.add_nogood(lits)
    }
    fn set_cost_bound(&mut self, bound: Option<Vec<i64>>, strict: bool) -> EngineResult<()> {
        self.tick()?;
        self.inner.set_cost_bound(bound, strict)
    }
    fn restart(&mut self) -> EngineResult<()> {
        self.tick()?;
        self.inner.restart()
    }
    fn can_backtrack(&self) -> bool {
        self.inner.can_backtrack()
    }
    fn backtrack(&mut self) -> EngineResult<bool> {
        self.tick()?;
        self.inner.backtrack()
    }

    fn set_part_root(&mut self, root: Option<u32>) {
        self.inner.set_part_root(root)
    }

    fn project_first(&mut self, vars: &[u32]) {
        self.inner.project_first(vars)
    }

    fn flipped_at(&self, level: u32) -> EngineResult<Vec<Lit>> {
        self.inner.flipped_at(level)
    }
    fn core(&mut self, failed: Lit) -> EngineResult<Vec<Lit>> {
        self.tick()?;
        self.inner.core(failed)
    }

    fn extend(
        &mut self,
        p: std::sync::Arc<crate::nogoods::Problem>,
        stop: &crate::stop::StopToken,
    ) -> EngineResult<bool> {
        self.tick()?;
        self.inner.extend(p, stop)
    }

    fn reduce_learned(&mut self) {
        self.inner.reduce_learned()
    }
    fn learned_count(&self) -> usize {
        self.inner.learned_count()
    }
    fn set_conflict_budget(&mut self, conflicts: u64) {
        self.inner.set_conflict_budget(conflicts)
    }
    fn take_resolved(&mut self) -> u64 {
        self.inner.take_resolved()
    }
    fn take_exports(&mut self, out: &mut Vec<(Vec<Lit>, u32)>) {
        self.inner.take_exports(out)
    }
    fn tells_lbd(&self) -> bool {
        self.inner.tells_lbd()
    }
    fn last_lbd(&self) -> Option<u32> {
        self.inner.last_lbd()
    }
    fn import(&mut self, lits: &[Lit], lbd: u32) -> EngineResult<bool> {
        self.tick()?;
        self.inner.import(lits, lbd)
    }
    fn stats(&mut self) -> EngineStats {
        self.inner.stats()
    }
}
