//! Enumeration (clasp's model enumerator): each model is reported, then excluded from the rest:
//! by backtracking from it (`--enum-mode=bt`, where the search can: `search/`), or by a nogood,
//! its decisions (record) or, with `--project`, its projection; until the model limit or no
//! model is left. optN's second phase enumerates the optimal models the same way, under the
//! optimum as a bound (`optimize.rs`).

use super::dom_rec::DomRec;
use super::driver::{Blocking, Driver, Flow, Found, Source, Task, Wants};
use super::portfolio::Mode;
use super::{ModelEvent, Report, SolveError};
use crate::solve::config::{EnumMode, ProjectMode};

pub(super) struct Enumerate {
    /// Models to report (`None`: all).
    pub limit: Option<u64>,
    /// Whether models are reported with their costs.
    pub costs: bool,
    /// The projection atoms (sorted), or `None` to exclude each model by its decisions.
    pub projection: Option<Vec<u32>>,
    /// The costs of the last model reported.
    pub last_costs: Option<Vec<i64>>,
    /// Whether models are excluded by backtracking where the source can.
    pub backtrack: bool,
    /// `--enum-mode=domRec`: the domain atoms, the projection, and the nogood over them.
    dom_rec: Option<DomRec>,
}

impl Enumerate {
    /// Every model, or the first `limit`, excluded by decisions or by their projection as the
    /// options say.
    pub fn new(d: &Driver<'_>, costs: bool) -> Self {
        let dom_rec = match d.opts.enum_mode {
            EnumMode::DomRec => DomRec::new(&d.problem, d.opts.search.dom_mod).or_else(|| {
                log::warn!("--enum-mode=domRec: no domain atoms (of a positive level); ignored");
                None
            }),
            _ => None,
        };
        let projection = match &dom_rec {
            Some(r) => Some(r.atoms().to_vec()),
            None => projection_atoms(d),
        };
        if d.opts.enum_mode == EnumMode::Bt && projection.is_some() && d.parallel() == Some(Mode::Split) {
            log::warn!("--enum-mode=bt: a parallel projective enumeration records its projections");
        }
        let backtrack = dom_rec.is_none() && Self::backtracks(d);
        Enumerate { limit: d.limit(1), costs, projection, last_costs: None, backtrack, dom_rec }
    }

    /// optN's second phase: every optimal model with its costs, excluded as models are (not
    /// projected).
    pub fn optimal(d: &Driver<'_>) -> Self {
        Enumerate {
            limit: d.limit(1),
            costs: true,
            projection: None,
            last_costs: None,
            backtrack: Self::backtracks(d),
            dom_rec: None,
        }
    }

    /// Whether the models are projected (`--project`).
    pub fn projects(&self) -> bool {
        self.projection.is_some()
    }

    /// Whether the options let models be excluded by backtracking.
    pub fn backtracks(d: &Driver<'_>) -> bool {
        d.opts.enum_mode != EnumMode::Record
    }
}

impl Task for Enumerate {
    fn wants(&self) -> Wants<'_> {
        let blocking = match &self.projection {
            Some(atoms) if self.backtrack => Blocking::Backtrack(Some(atoms)),
            Some(atoms) => Blocking::Projection(atoms),
            None if self.backtrack => Blocking::Backtrack(None),
            None => Blocking::Decisions,
        };
        Wants { costs: self.costs, blocking, fixed: None }
    }

    fn model(
        &mut self,
        d: &Driver<'_>,
        number: u64,
        m: &Found,
        src: &mut dyn Source,
        report: &mut dyn Report,
    ) -> Result<Flow, SolveError> {
        d.report(report, &ModelEvent::of_model(number, &m.atoms, m.costs.as_deref()))?;
        self.last_costs.clone_from(&m.costs);
        if self.limit.is_some_and(|k| number >= k) {
            return Ok(Flow::Enough);
        }
        // A violated nogood shows as a conflict at level 0: the search then says it is done.
        if !m.excluded {
            match &self.dom_rec {
                Some(r) => src.add_nogood(&r.nogood(&m.atoms, &m.blocking))?,
                None => src.add_nogood(&m.blocking)?,
            };
        }
        Ok(Flow::More)
    }

    /// Models without costs, each excluded by backtracking from it, need not be seen.
    fn takes_counts(&self) -> bool {
        !self.costs && self.backtrack && self.projection.is_none()
    }

    fn counted(
        &mut self,
        d: &Driver<'_>,
        before: u64,
        k: u64,
        report: &mut dyn Report,
    ) -> Result<(u64, Flow), SolveError> {
        let taken = self.limit.map_or(k, |l| k.min(l.saturating_sub(before)));
        d.report_counted(report, before, taken)?;
        let enough = self.limit.is_some_and(|l| before + taken >= l);
        Ok((taken, if enough { Flow::Enough } else { Flow::More }))
    }
}

/// The atoms models are projected onto (`--project`), sorted; `None` without projection.
fn projection_atoms(d: &Driver<'_>) -> Option<Vec<u32>> {
    let mode = d.opts.project?;
    let from_show = || -> Vec<u32> {
        d.program.outputs().flat_map(|o| o.condition.iter().map(|&l| l.unsigned_abs())).collect()
    };
    let mut atoms = match (mode, d.program.projection()) {
        (ProjectMode::Show, _) | (ProjectMode::Auto, None) => from_show(),
        (_, Some(p)) => p,
        (ProjectMode::Project, None) => Vec::new(),
    };
    atoms.sort_unstable();
    atoms.dedup();
    Some(atoms)
}
