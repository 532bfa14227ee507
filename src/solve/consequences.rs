//! Brave and cautious consequences (`--enum-mode=brave|cautious`), computed as clasp does: each
//! model extends (brave) or narrows (cautious) the consequences found so far, and a nogood then
//! asks the next model to change them, until none can.
//!
//! What they range over: the outputs, or, as in clasp, the projection atoms when the program has
//! `#project` statements (or `--project=project` asks for them), unless `--project=show`. Over
//! the projection, an output is shown when its condition is trivially true (a fact), or when it
//! is a single positive literal of a projection atom that is a consequence; the counts are of
//! projection atoms, shown or not. (clasp, checked against clingo 5.8.3: `{a;b;c}. :- a,b.
//! #project a/0.` has the brave consequence `a` alone, count 1.)

use super::search::Next;
use super::{Driver, ModelEvent, Outcome, Report, SolveError};
use crate::nogoods::Lit;
use crate::program::{Program, atom_of, trivially_true};
use crate::solve::config::{EnumMode, ProjectMode};
use std::collections::HashMap;

/// When an output is shown: always (a fact), or when one of these candidates is a consequence
/// (none: never).
enum Shown {
    Always,
    AnyOf(Vec<usize>),
}

impl Driver<'_> {
    /// The projection atoms consequences range over, sorted; `None`: the outputs.
    fn consequence_projection(&self) -> Option<Vec<u32>> {
        let atoms = match (self.opts.project, self.program.projection()) {
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

    /// The candidates (a literal each; `None` always holds) and, per output of the program
    /// searched, when it is shown. `original` is the program before its outputs were made atomic
    /// (`Program::with_atomic_outputs`), whose output conditions decide what the projection shows.
    fn candidates(&self, original: &Program) -> (Vec<Option<Lit>>, Vec<Shown>) {
        let Some(atoms) = self.consequence_projection() else {
            let cands =
                self.program.outputs().map(|o| o.condition.first().map(|&l| Lit::from_program(l))).collect();
            let shown = (0..self.program.outputs().count()).map(|i| Shown::AnyOf(vec![i])).collect();
            return (cands, shown);
        };
        let facts = trivially_true(original);
        let fact = |c: &[crate::program::Lit]| c.iter().all(|&l| facts[atom_of(l) as usize] == Some(l > 0));
        let mut by_name: HashMap<&[u8], Vec<&[crate::program::Lit]>> = HashMap::new();
        for o in original.outputs() {
            by_name.entry(o.name.as_slice()).or_default().push(o.condition.as_slice());
        }
        let shown = self
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

    /// Brave (union) or cautious (intersection) consequences; the program searched has atomic
    /// outputs (each condition at most one literal), `original` is the program as read.
    pub(super) fn consequences(
        &mut self,
        report: &mut dyn Report,
        mode: EnumMode,
        original: &Program,
    ) -> Result<Outcome, SolveError> {
        let Some(mut s) = self.search()? else {
            return Ok(self.outcome("none", 0, false, self.stopped(), None, false, 0, None));
        };
        let (conds, shown) = self.candidates(original);
        let brave = mode == EnumMode::Brave;
        let mut cons: Vec<bool> = Vec::new();
        let mut counts = (0, 0);
        let mut n = 0;
        let (exhausted, interrupted) = loop {
            match s.next_model()? {
                Next::Model => {
                    // The values, and which candidates are fixed (false for brave, true for
                    // cautious) at level 0.
                    let fixed_as = !brave;
                    let read = s.read(|e| {
                        let fixed: Vec<bool> = conds
                            .iter()
                            .map(|c| match c {
                                None => Ok(fixed_as),
                                Some(l) => e.fixed_value(*l).map(|v| v == Some(fixed_as)),
                            })
                            .collect::<crate::engine::EngineResult<_>>()?;
                        Ok((e.atom_values()?, fixed))
                    })?;
                    let Some((m, fixed)) = read else { continue };
                    if let Some(stop) = self.verify(&m)? {
                        break (false, Some(stop));
                    }
                    n += 1;
                    let holds = |c: &Option<Lit>| c.is_none_or(|l| m[l.var() as usize] == l.is_pos());
                    cons = if n == 1 {
                        conds.iter().map(holds).collect()
                    } else if brave {
                        conds.iter().zip(&cons).map(|(c, &x)| x || holds(c)).collect()
                    } else {
                        conds.iter().zip(&cons).map(|(c, &x)| x && holds(c)).collect()
                    };
                    let count = cons.iter().filter(|&&x| x).count() as u64;
                    counts = if brave {
                        let open = fixed.iter().zip(&cons).filter(|&(&f, &x)| x || !f);
                        (count, open.count() as u64)
                    } else {
                        // Fixed true and still a consequence: the cautious nogoods fix literals too
                        // (the last consequence's negation, say), which proves nothing.
                        let sure = fixed.iter().zip(&cons).filter(|&(&f, &x)| x && f);
                        (sure.count() as u64, count)
                    };
                    let selected: Vec<bool> = shown
                        .iter()
                        .map(|w| match w {
                            Shown::Always => true,
                            Shown::AnyOf(ix) => ix.iter().any(|&i| cons[i]),
                        })
                        .collect();
                    let event = ModelEvent {
                        number: n,
                        atoms: &m,
                        costs: None,
                        consequences: Some(counts),
                        selected: Some(&selected),
                    };
                    self.report(report, &event)?;
                    // Brave: some candidate not yet a consequence must hold; cautious: some
                    // consequence must fail.
                    let ng: Vec<Lit> = conds
                        .iter()
                        .zip(&cons)
                        .filter(|&(_, &x)| x != brave)
                        .filter_map(|(c, _)| c.map(|l| if brave { !l } else { l }))
                        .collect();
                    if ng.is_empty() || !s.add_nogood(&ng)? {
                        break (true, None);
                    }
                }
                Next::Exhausted => break (true, None),
                Next::Interrupted(stop) => break (false, Some(stop)),
            }
        };
        self.finish(&mut s);
        let c = Some((mode, counts.0, counts.1));
        Ok(self.outcome(s.engine.name(), n, exhausted, interrupted, None, false, 0, c))
    }
}
