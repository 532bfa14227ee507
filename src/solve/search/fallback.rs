//! A search whose engine fails (a device error) ends with an error, unless it has a fallback
//! (`--backend=auto`): then a CPU engine takes over, given again every nogood and bound the driver
//! gave the failed one ([`Search::add_nogood`], [`Search::set_cost_bound`]), and the search
//! starts afresh from level 0. What the failed engine had learned is lost, never wrong.

use super::{Fallback, Given, Search};
use crate::engine::{Engine, EngineError, EngineResult};
use crate::nogoods::Lit;
use crate::solve::SolveError;

impl<'e> Search<'e> {
    /// The engine that takes over if this one fails.
    pub fn set_fallback(&mut self, f: Fallback<'e>) {
        self.fallback = Some(f);
    }

    /// Adds a permanent nogood (a model's blocking nogood, say); false if no model is left.
    pub fn add_nogood(&mut self, lits: &[Lit]) -> Result<bool, SolveError> {
        if self.fallback.is_some() {
            self.given.push(Given::Nogood(lits.to_vec()));
        }
        match self.engine.add_nogood(lits) {
            Ok(ok) => Ok(ok),
            Err(e) => self.fail_over(e),
        }
    }

    /// Bounds the cost of further models (without offsets).
    pub fn set_cost_bound(&mut self, bound: Option<Vec<i64>>, strict: bool) -> Result<(), SolveError> {
        if self.fallback.is_some() {
            self.given.retain(|g| !matches!(g, Given::Bound(..)));
            self.given.push(Given::Bound(bound.clone(), strict));
        }
        match self.engine.set_cost_bound(bound, strict) {
            Ok(()) => Ok(()),
            Err(e) => self.fail_over(e).map(|_| ()),
        }
    }

    /// Reads what `f` reads from the engine at a model; `None` when the engine failed and was
    /// replaced (the model is then searched for again).
    pub fn read<T>(
        &mut self,
        f: impl FnOnce(&dyn Engine) -> EngineResult<T>,
    ) -> Result<Option<T>, SolveError> {
        match f(&*self.engine) {
            Ok(v) => Ok(Some(v)),
            Err(e) => self.fail_over(e).map(|_| None),
        }
    }

    /// Replaces a failed engine by the fallback, which is given what the driver gave the failed
    /// one; returns whether the problem still has models. Without a fallback, the error.
    pub(super) fn fail_over(&mut self, e: EngineError) -> Result<bool, SolveError> {
        let Some(make) = self.fallback.as_mut() else { return Err(SolveError::Engine(e.0)) };
        log::warn!("{e}; the search goes on with the CPU engine");
        let mut engine = make()?;
        let mut ok = true;
        for g in &self.given {
            let r = match g {
                Given::Nogood(ng) => engine.add_nogood(ng),
                Given::Bound(b, strict) => engine.set_cost_bound(b.clone(), *strict).map(|()| true),
            };
            ok &= r.map_err(|e| SolveError::Engine(e.0))?;
        }
        self.engine = engine;
        self.fallback = None;
        self.given.clear();
        // The new engine is at level 0 with none of the assumptions or the path decided.
        self.assumptions.at = Default::default();
        if let Some(g) = self.guide.as_mut() {
            g.engine_replaced();
        }
        Ok(ok)
    }
}
