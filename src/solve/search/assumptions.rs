//! Assumptions: literals a search decides, in order, before any decision of its own (clasp's
//! solve assumptions). Split mode's guiding paths (`solve/split.rs`) are assumptions, and so are
//! the candidates the minimality check's testers are asked about (`solve/minimality/`). Restarts
//! keep them: they are decided again. A false one means that nothing is left under them; what
//! was learned meanwhile holds without them, since they were only ever decisions.

use crate::engine::{Engine, EngineResult};
use crate::nogoods::Lit;

/// What a search makes of its assumptions at a decision point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Every assumption is true: search on.
    Established,
    /// An assumption was decided: propagate first.
    Decided,
    /// An assumption is false (under the ones before it): nothing is left under them.
    Refuted(Lit),
}

/// Literals to decide first, and how far they were last seen to hold.
#[derive(Clone, Debug, Default)]
pub struct Assumptions {
    pub lits: Vec<Lit>,
    pub at: Established,
}

/// How far a search's assumptions hold.
///
/// Invariant: while `levels` is `Some(k)` and the engine is at level `k` or deeper, every
/// assumption is true and the levels up to `k` are their decisions. Each `(level, next)` of
/// `marks` says that the assumption decided at `level` (levels increasing) and every one before
/// it were true when it was decided, so that they are while the engine is at `level` or deeper:
/// the search goes on from `next`, and establishing many assumptions takes linear time.
#[derive(Clone, Debug, Default)]
pub struct Established {
    pub levels: Option<u32>,
    marks: Vec<(u32, usize)>,
}

impl Established {
    /// Keeps the marks of the levels that decided assumptions among the first `prefix` (which
    /// stay the same) and that the engine, at `level`, still has; the deepest such level (0 if
    /// none), to which the engine is to go back.
    pub fn keep(&mut self, prefix: usize, level: u32) -> u32 {
        self.levels = None;
        // Marks grow in both level and position: those kept are a prefix.
        self.marks.retain(|&(lv, next)| lv <= level && next <= prefix);
        self.marks.last().map_or(0, |&(lv, _)| lv)
    }
}

impl Assumptions {
    /// At a propagation fixpoint: decides the first assumption not yet true, if any, or says
    /// that they all hold, or that one is false.
    pub fn establish(&mut self, e: &mut dyn Engine) -> EngineResult<Path> {
        establish(&self.lits, &mut self.at, e)
    }
}

/// [`Assumptions::establish`] over `lits`, with `at` as far as they were seen to hold.
pub fn establish(lits: &[Lit], at: &mut Established, e: &mut dyn Engine) -> EngineResult<Path> {
    let level = e.decision_level();
    if at.levels.is_some_and(|lv| level >= lv) {
        debug_assert!(holds(lits, e), "an established assumption no longer holds");
        return Ok(Path::Established);
    }
    at.levels = None;
    while at.marks.last().is_some_and(|&(lv, _)| lv > level) {
        at.marks.pop();
    }
    let from = at.marks.last().map_or(0, |&(_, next)| next);
    debug_assert!(holds(&lits[..from], e), "an assumption before a mark no longer holds");
    for (i, &l) in lits.iter().enumerate().skip(from) {
        match e.lit_value(l)? {
            Some(true) => {}
            Some(false) => return Ok(Path::Refuted(l)),
            None => {
                e.assume(l)?;
                at.marks.push((e.decision_level(), i + 1));
                return Ok(Path::Decided);
            }
        }
    }
    at.levels = Some(level);
    Ok(Path::Established)
}

/// Whether no literal of `lits` is false or unassigned (for the invariant's checks in debug
/// builds; an engine that fails says nothing, and the search sees its error next).
fn holds(lits: &[Lit], e: &dyn Engine) -> bool {
    lits.iter().all(|&l| !matches!(e.lit_value(l), Ok(Some(false) | None)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Assumptions 0 and 1 decided at levels 1 and 2 (2 followed), 3 at level 5: asked again
    /// under assumptions that begin with the same three, levels 1 and 2 stay.
    #[test]
    fn the_levels_of_a_shared_beginning_stay() {
        let at = Established { levels: Some(6), marks: vec![(1, 1), (2, 3), (5, 4)] };
        let keep = |prefix, level| {
            let mut a = at.clone();
            let kept = a.keep(prefix, level);
            assert_eq!(a.levels, None);
            (kept, a.marks)
        };
        assert_eq!(keep(3, 6), (2, vec![(1, 1), (2, 3)]));
        assert_eq!(keep(4, 6), (5, vec![(1, 1), (2, 3), (5, 4)]));
        assert_eq!(keep(2, 6), (1, vec![(1, 1)]), "assumption 2 differs: level 2 goes");
        assert_eq!(keep(4, 1), (1, vec![(1, 1)]), "the engine went back to level 1 since");
        assert_eq!(keep(0, 6), (0, vec![]), "nothing shared: a restart");
    }
}
