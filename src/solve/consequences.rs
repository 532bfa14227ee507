//! Brave and cautious consequences (`--enum-mode=brave|cautious`), computed as clasp does: each
//! model extends (brave) or narrows (cautious) the consequences found so far, and a nogood then
//! asks the next model to change them, until none can.
//!
//! With a `#minimize` (`--opt-mode=opt` or `optN`), the consequences are those of the optimal
//! models: the optimum is proven first (its models printed with optN, as clasp prints them), then
//! the consequences range over the models that cost no more. clasp's opt mode takes them along
//! its way down to the optimum instead ("Consequences may depend on enumeration order", it
//! warns); where it meets the optimum first, as on small programs, the two agree.
//!
//! What they range over: the outputs, or, as in clasp, the projection atoms when the program has
//! `#project` statements (or `--project=project` asks for them), unless `--project=show`. Over
//! the projection, an output is shown when its condition is trivially true (a fact), or when it
//! is a single positive literal of a projection atom that is a consequence; the counts are of
//! projection atoms, shown or not. (clasp, checked against clingo 5.8.3: `{a;b;c}. :- a,b.
//! #project a/0.` has the brave consequence `a` alone, count 1.)

use super::driver::{Blocking, Driver, Flow, Found, Source, Tally, Task, Wants};
use super::one_search::OneSearch;
use super::optimize::optimize;
use super::{ModelEvent, Outcome, Report, SolveError};
use crate::nogoods::Lit;
use crate::program::{Program, atom_of, trivially_true};
use crate::solve::config::{EnumMode, OptMode, ProjectMode};
use std::collections::HashMap;

/// When an output is shown: always (a fact), or when one of these candidates is a consequence
/// (none: never).
enum Shown {
    Always,
    AnyOf(Vec<usize>),
}

/// The consequences so far: of the candidates (a literal each; `None` always holds), which are.
struct Consequences {
    brave: bool,
    candidates: Vec<Option<Lit>>,
    shown: Vec<Shown>,
    cons: Vec<bool>,
    /// (fixed, total): clasp's `Consequences: [lo;hi]`.
    counts: (u64, u64),
    /// With a `#minimize`: the costs are read and printed.
    costs: bool,
}

/// Brave (union) or cautious (intersection) consequences; the program searched has atomic
/// outputs (each condition at most one literal), `original` is the program as read.
pub(super) fn consequences(
    d: &Driver<'_>,
    report: &mut dyn Report,
    mode: EnumMode,
    original: &Program,
) -> Result<Outcome, SolveError> {
    let (candidates, shown) = candidates(d, original);
    let optimizing = !d.problem.costs.is_empty() && matches!(d.opts.opt_mode, OptMode::Opt | OptMode::OptN);
    let mut task = Consequences {
        brave: mode == EnumMode::Brave,
        candidates,
        shown,
        cons: Vec::new(),
        counts: (0, 0),
        costs: optimizing,
    };
    let mut src = OneSearch::new(d)?;
    // The optimum first (its models printed with optN), then the consequences of the models
    // that cost no more. An optimum not proven (a stopped run, no model) is the answer.
    let optimum = if optimizing {
        let o = match d.opts.opt_mode {
            OptMode::OptN => optimize(d, report, false)?,
            _ => optimize(d, &mut Silent, false)?,
        };
        match (&o.costs, o.optimum_proven) {
            (Some(opt), true) => src.set_cost_bound(Some(d.without_offset(opt)), false)?,
            // Stopped before the optimum: opt mode printed no model and knows no consequence.
            _ if d.opts.opt_mode == OptMode::Opt && o.models > 0 => {
                return Ok(Outcome { models: 0, costs: None, ..o });
            }
            _ => return Ok(o),
        }
        Some(o)
    } else {
        None
    };
    let mut tally = Tally::new();
    let ending = d.drive(&mut tally, &mut src, &mut task, report)?;
    let mut o = d.outcome(&tally, &ending);
    o.consequences = Some((mode, task.counts.0, task.counts.1));
    if let Some(first) = optimum {
        o.costs = first.costs;
        o.optimum_proven = true;
        o.optimal_models = 1;
        if d.opts.opt_mode == OptMode::OptN {
            o.models += first.models;
        }
    }
    Ok(o)
}

/// A report that prints nothing (the optimization before opt mode's consequences).
struct Silent;

impl Report for Silent {
    fn model(&mut self, _: &ModelEvent<'_>) -> std::io::Result<()> {
        Ok(())
    }
}

impl Task for Consequences {
    fn wants(&self) -> Wants<'_> {
        // Which candidates are fixed at level 0: false for brave, true for cautious.
        Wants { costs: self.costs, blocking: Blocking::Not, fixed: Some((&self.candidates, !self.brave)) }
    }

    fn model(
        &mut self,
        d: &Driver<'_>,
        number: u64,
        m: &Found,
        src: &mut dyn Source,
        report: &mut dyn Report,
    ) -> Result<Flow, SolveError> {
        let brave = self.brave;
        let holds = |c: &Option<Lit>| c.is_none_or(|l| m.atoms[l.var() as usize] == l.is_pos());
        self.cons = if number == 1 {
            self.candidates.iter().map(holds).collect()
        } else if brave {
            self.candidates.iter().zip(&self.cons).map(|(c, &x)| x || holds(c)).collect()
        } else {
            self.candidates.iter().zip(&self.cons).map(|(c, &x)| x && holds(c)).collect()
        };
        let count = self.cons.iter().filter(|&&x| x).count() as u64;
        self.counts = if brave {
            let open = m.fixed.iter().zip(&self.cons).filter(|&(&f, &x)| x || !f);
            (count, open.count() as u64)
        } else {
            // Fixed true and still a consequence: the cautious nogoods fix literals too (the
            // last consequence's negation, say), which proves nothing.
            let sure = m.fixed.iter().zip(&self.cons).filter(|&(&f, &x)| x && f);
            (sure.count() as u64, count)
        };
        let selected: Vec<bool> = self
            .shown
            .iter()
            .map(|w| match w {
                Shown::Always => true,
                Shown::AnyOf(ix) => ix.iter().any(|&i| self.cons[i]),
            })
            .collect();
        let event = ModelEvent {
            number,
            atoms: &m.atoms,
            costs: m.costs.as_deref(),
            consequences: Some(self.counts),
            selected: Some(&selected),
        };
        d.report(report, &event)?;
        // Brave: some candidate not yet a consequence must hold; cautious: some consequence
        // must fail.
        let ng: Vec<Lit> = self
            .candidates
            .iter()
            .zip(&self.cons)
            .filter(|&(_, &x)| x != brave)
            .filter_map(|(c, _)| c.map(|l| if brave { !l } else { l }))
            .collect();
        Ok(if ng.is_empty() || !src.add_nogood(&ng)? { Flow::Exhausted } else { Flow::More })
    }
}

/// The projection atoms consequences range over, sorted; `None`: the outputs.
fn consequence_projection(d: &Driver<'_>) -> Option<Vec<u32>> {
    let atoms = match (d.opts.project, d.program.projection()) {
        (Some(ProjectMode::Show), _) => None,
        (Some(ProjectMode::Project), p) => Some(p.unwrap_or_default()),
        (_, p) => p,
    };
    atoms.map(|mut a| {
        a.sort_unstable();
        a.dedup();
        a
    })
}

/// The candidates (a literal each; `None` always holds) and, per output of the program searched,
/// when it is shown. `original` is the program before its outputs were made atomic
/// (`Program::with_atomic_outputs`), whose output conditions decide what the projection shows.
fn candidates(d: &Driver<'_>, original: &Program) -> (Vec<Option<Lit>>, Vec<Shown>) {
    let Some(atoms) = consequence_projection(d) else {
        let cands = d.program.outputs().map(|o| o.condition.first().map(|&l| Lit::from_program(l))).collect();
        let shown = (0..d.program.outputs().count()).map(|i| Shown::AnyOf(vec![i])).collect();
        return (cands, shown);
    };
    let facts = trivially_true(original);
    let fact = |c: &[crate::program::Lit]| c.iter().all(|&l| facts[atom_of(l) as usize] == Some(l > 0));
    let mut by_name: HashMap<&[u8], Vec<&[crate::program::Lit]>> = HashMap::new();
    for o in original.outputs() {
        by_name.entry(o.name.as_slice()).or_default().push(o.condition.as_slice());
    }
    let shown = d
        .program
        .outputs()
        .map(|o| {
            let mut any = Vec::new();
            for &c in by_name.get(o.name.as_slice()).into_iter().flatten() {
                if fact(c) {
                    return Shown::Always;
                }
                if let &[l] = c
                    && l > 0
                    && let Ok(i) = atoms.binary_search(&(l as u32))
                {
                    any.push(i);
                }
            }
            Shown::AnyOf(any)
        })
        .collect();
    (atoms.iter().map(|&a| Some(Lit::pos(a))).collect(), shown)
}
