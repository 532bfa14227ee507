//! clasp's `--enum-mode=domRec`: enumeration that records, after each model, a nogood over its
//! *domain atoms* only, the atoms whose `#heuristic` statements (or `--dom-mod`'s) give them a
//! positive level from the start. The nogood holds the model's value of each such atom, except
//! an atom that has the value its sign statements prefer: later models must move some atom to
//! its preferred value. With `--heuristic=Domain --dom-mod=false,show` (the shown atoms decided
//! false first) the models found so are the subset-minimal ones over the shown atoms, as in
//! clasp (`ModelEnumerator::initProjection`, `RecordFinder::addProjectNogood`).

use crate::engine::cpu::dom_mod_statements;
use crate::nogoods::{DomainModifier, Lit, Problem};
use crate::program::HeuristicModifier as M;
use crate::solve::config::{Backend, DomMod, DomModifier, EnumMode, GpuMode, Heuristic, SolveOptions};

/// The domain atoms and the sign statements that say their preferred values.
/// Invariant: `atoms` is sorted, without repeats, and `signs[i]` are the sign, true and false
/// statements of `atoms[i]`.
pub(super) struct DomRec {
    atoms: Vec<u32>,
    signs: Vec<Vec<DomainModifier>>,
}

/// The options a domRec run goes with: `None` where they stand as given; else without it where
/// the domain heuristic is not on (as clasp: the mode is ignored), or with one search of the CPU
/// engine (its nogoods are not shared, and only the CPU engine honours `#heuristic` statements,
/// without which the models would not be the minimal ones).
pub(super) fn options(opts: &SolveOptions) -> Option<SolveOptions> {
    if opts.enum_mode != EnumMode::DomRec {
        return None;
    }
    let mut o = opts.clone();
    if opts.search.heuristic != Heuristic::Domain {
        log::warn!("--enum-mode=domRec: needs the domain heuristic (--heuristic=Domain); ignored");
        o.enum_mode = EnumMode::Auto;
        return Some(o);
    }
    if opts.threads > 1 || opts.farm_asked() {
        log::warn!("--enum-mode=domRec: runs one search");
    }
    if opts.backend == Backend::Cuda {
        log::warn!("--enum-mode=domRec: runs on the CPU engine (the CUDA engine has no domain heuristic)");
    }
    (o.threads, o.gpu_mode, o.backend) = (1, GpuMode::Grid, Backend::Cpu);
    let same = (opts.threads, opts.farm(), opts.backend) == (1, None, Backend::Cpu);
    (!same).then_some(o)
}

impl DomRec {
    /// The domain atoms of `p` under `dom_mod`; `None` where there are none (clasp then
    /// enumerates as without domRec).
    pub fn new(p: &Problem, dom_mod: Option<DomMod>) -> Option<DomRec> {
        let defaults = dom_mod.map(|dm| dom_mod_statements(p, dm)).unwrap_or_default();
        let facts = p.facts();
        let holds = |m: &DomainModifier| m.holds_from_start(&facts);
        let mut atoms: Vec<u32> = Vec::new();
        // A level, true or false statement that holds from the start, the strongest of its kind
        // for its atom, with a positive level.
        for kind in [M::Level, M::True, M::False] {
            let mut best: Vec<Option<&DomainModifier>> = vec![None; p.num_vars as usize];
            for h in p.heuristics.iter().filter(|h| h.modifier == kind && holds(h)) {
                let b = &mut best[h.var as usize];
                if b.is_none_or(|b| b.priority <= h.priority) {
                    *b = Some(h);
                }
            }
            atoms.extend(best.iter().flatten().filter(|h| h.value > 0).map(|h| h.var));
        }
        // `--dom-mod`'s atoms where its modifier sets levels (clasp's `mod_level` bit).
        if dom_mod.is_some_and(|dm| {
            matches!(
                dm.modifier,
                DomModifier::Level | DomModifier::True | DomModifier::False | DomModifier::Factor
            )
        }) {
            atoms.extend(defaults.iter().map(|h| h.var));
        }
        atoms.sort_unstable();
        atoms.dedup();
        if atoms.is_empty() {
            return None;
        }
        let mut signs = vec![Vec::new(); atoms.len()];
        for h in p.heuristics.iter().chain(&defaults) {
            if matches!(h.modifier, M::Sign | M::True | M::False)
                && let Ok(i) = atoms.binary_search(&h.var)
            {
                signs[i].push(h.clone());
            }
        }
        let d = DomRec { atoms, signs };
        d.debug_check();
        Some(d)
    }

    /// Checks the invariant stated on [`DomRec`] (debug builds).
    fn debug_check(&self) {
        if cfg!(debug_assertions) {
            assert!(self.atoms.windows(2).all(|w| w[0] < w[1]), "domain atoms unsorted or repeated");
            assert_eq!(self.signs.len(), self.atoms.len());
            for (a, signs) in self.atoms.iter().zip(&self.signs) {
                assert!(
                    signs.iter().all(|m| m.var == *a && matches!(m.modifier, M::Sign | M::True | M::False))
                );
            }
        }
    }

    /// The domain atoms (sorted): the enumeration's projection.
    pub fn atoms(&self) -> &[u32] {
        &self.atoms
    }

    /// The nogood that excludes a model whose atoms have `values` (indexed by atom) and whose
    /// projection onto the domain atoms is `projected` (a literal each, in `atoms`' order): the
    /// literals of the atoms not at their preferred value in the model. Where every atom is,
    /// no model is left: the nogood `{T}`.
    pub fn nogood(&self, values: &[bool], projected: &[Lit]) -> Vec<Lit> {
        debug_assert_eq!(projected.len(), self.atoms.len());
        let holds =
            |l: &Lit| *l == Lit::TRUE || values.get(l.var() as usize).is_some_and(|&v| v == l.is_pos());
        let mut nogood: Vec<Lit> = projected
            .iter()
            .zip(&self.signs)
            .filter(|(l, signs)| {
                let active =
                    DomainModifier::strongest(signs.iter().filter(|m| m.condition.iter().all(holds)));
                active.and_then(DomainModifier::sign) != Some(l.is_pos())
            })
            .map(|(&l, _)| l)
            .collect();
        if nogood.is_empty() {
            nogood.push(Lit::TRUE);
        }
        nogood
    }
}
