//! Optimization: branch and bound (each model must cost less than the last; when no model is
//! left, the last is optimal), by one search or by several sharing their bound
//! (`portfolio/`), or core-guided (`core_guided.rs`: models come from cores' lower bounds);
//! then, for `--opt-mode=optN`, the optimal models enumerated under the
//! optimum as a bound, by a fresh search (nogoods learned under the strict bound would exclude
//! them).

use super::core_guided::CoreGuided;
use super::driver::{Blocking, Driver, Flow, Found, Source, Tally, Task, Wants};
use super::enumerate::Enumerate;
use super::one_search::OneSearch;
use super::portfolio::{Mode, parallel};
use super::{ModelEvent, Outcome, Report, SolveError};

pub(super) struct BranchAndBound {
    /// Models to report (`None`: until the optimum is proven).
    pub limit: Option<u64>,
    /// The best cost so far (with offsets).
    pub best: Option<Vec<i64>>,
}

impl Task for BranchAndBound {
    fn wants(&self) -> Wants<'_> {
        Wants { costs: true, blocking: Blocking::Not, fixed: None }
    }

    fn model(
        &mut self,
        d: &Driver<'_>,
        number: u64,
        m: &Found,
        src: &mut dyn Source,
        report: &mut dyn Report,
    ) -> Result<Flow, SolveError> {
        let costs = m.costs.clone().expect("costs read");
        d.report(report, &ModelEvent::of_model(number, &m.atoms, Some(&costs)))?;
        src.set_cost_bound(Some(d.without_offset(&costs)), true)?;
        self.best = Some(costs);
        Ok(if self.limit.is_some_and(|k| number >= k) { Flow::Enough } else { Flow::More })
    }
}

/// An optimum (and with `all_optimal` every optimal model), as the options say.
pub(super) fn optimize(
    d: &Driver<'_>,
    report: &mut dyn Report,
    all_optimal: bool,
) -> Result<Outcome, SolveError> {
    let mut tally = Tally::new();
    let mut bb = BranchAndBound { limit: if all_optimal { None } else { d.limit(0) }, best: None };
    let initial = d.initial_bound();
    let ending = match d.parallel() {
        // The first search optimizes by cores where they are asked for (portfolio/).
        Some(mode) => parallel(d, &mut tally, &mut bb, report, mode, initial, &[])?,
        None => {
            let mut src: Box<dyn Source> = if CoreGuided::wanted(d) {
                Box::new(CoreGuided::new(d, &d.opts.stop)?)
            } else {
                Box::new(OneSearch::new(d)?)
            };
            if initial.is_some() {
                src.set_cost_bound(initial, false)?;
            }
            d.drive(&mut tally, &mut *src, &mut bb, report)?
        }
    };
    let proven = ending.exhausted && bb.best.is_some();
    if !ending.exhausted {
        // A race names the search that proved the optimum (or that there is no model), if any.
        tally.threads = tally.threads.map(|(n, _)| (n, None));
    }
    let mut o = d.outcome(&tally, &ending);
    o.costs.clone_from(&bb.best);
    o.optimum_proven = proven;
    o.optimal_models = u64::from(proven);
    if !all_optimal || !proven {
        return Ok(o);
    }
    let opt = bb.best.expect("a proven optimum");
    let mut optimal = Enumerate::optimal(d);
    let at = d.without_offset(&opt);
    // The optimal models are enumerated as models are: in parallel, the searches divide the space.
    let second = if d.parallel().is_some() {
        parallel(d, &mut tally, &mut optimal, report, Mode::Split, Some(at), &[])?
    } else {
        let mut src = OneSearch::new(d)?;
        src.set_cost_bound(Some(at), false)?;
        d.drive(&mut tally, &mut src, &mut optimal, report)?
    };
    debug_assert!(optimal.last_costs.as_ref().is_none_or(|c| *c == opt), "a model of another cost");
    let threads = o.threads;
    let mut o = d.outcome(&tally, &second);
    o.models += ending.models;
    o.costs = Some(opt);
    o.optimum_proven = true;
    o.optimal_models = second.models;
    o.enumerated_optimal = true;
    o.threads = threads;
    Ok(o)
}
