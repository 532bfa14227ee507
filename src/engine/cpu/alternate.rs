//! `--decisions=alternate`: one search that decides by turns, from one restart to another: on
//! applicable rules, by `mixed` (the rules, and every other variable, false), on rules again, then
//! on any variable, and round again. Each turn lasts a span of effort (below), ended at the next
//! restart; the span doubles after every round, so rules get about half of any run's time and
//! mixed and variables a quarter each: a program that only rules solve quickly costs about twice
//! their time, one that only variables solve four times theirs. The learned nogoods, activities
//! and saved values (`--save-progress`: saved in every way) stay across turns; the decider is
//! rebuilt for the new way at the restart that begins a turn (at level 0, or at backtracking
//! enumeration's floor: its heap holds every variable, and what the rules allow is asked at each
//! decision, `decide/`).
//!
//! Why these three: deciding on rules plans forward (planning Visit-all: a move's rule applies
//! only where the robot is; variables solve none of it); mixed, whose atoms made false cut the
//! space as deciding on variables does, proves planning Sokoban faster than variables do; and
//! variables, which make choice atoms false too, find the plans of planning Nomistery, HanoiTower
//! and Sokoban that the other two miss (BENCHMARKS.md, "Mixed decisions" and "Three ways by
//! turns").
//!
//! Effort, not conflicts, measures a turn: on some programs a conflict deciding on rules costs
//! twice one deciding on variables (longer nogoods to analyse, more variables popped off the heap
//! before an applicable one), and turns of equal conflicts gave rules two thirds of the time.
//! Effort is counted, not timed, so that a search stays the same from one run to the next.

use super::CpuEngine;
use super::decide::Decider;
use crate::solve::config::{Decisions, SearchOptions};

/// A search's effort, in units of 7 to 15 ns on the project VM: 5 a literal propagated, 12 a
/// literal met by conflict analysis, 18 a variable taken off the decision heap. The weights come
/// from a least-squares fit of the time of 20,000 conflicts on five planning and competition
/// programs, each decided both ways; on each program the two ways' effort a second agree within
/// 25 %. Over each pair of turns of rules and variables, rules took 0.46 to 0.56 of the time on
/// eight tight competition programs.
pub fn effort(propagations: u64, analysed: u64, pops: u64) -> u64 {
    5 * propagations + 12 * analysed + 18 * pops
}

/// Effort of each turn of the first round: 30 to 60 ms on the VM.
/// Debug builds, where the tests check the invariants, turn after a little effort, so that small
/// programs see many turns.
pub const FIRST_SPAN: u64 = if cfg!(debug_assertions) { 400 } else { 4_000_000 };

/// The ways of deciding of one round of turns, in order.
const ROUND: [Decisions; 4] = [Decisions::Rules, Decisions::Mixed, Decisions::Rules, Decisions::Vars];

/// Which way a search decides now, and until when.
/// Invariant: `span > 0`, at least the first round's; `until` is the effort at which the turn
/// ends; `turn` counts the turns begun before this one.
#[derive(Clone, Debug)]
pub struct Alternation {
    turn: usize,
    span: u64,
    until: u64,
}

impl Alternation {
    /// Turns starting on rules, at `effort`.
    pub fn new(effort: u64) -> Self {
        Self::spanning(effort, FIRST_SPAN)
    }

    /// Turns starting on rules, at `effort`, those of the first round of `first` each.
    fn spanning(effort: u64, first: u64) -> Self {
        Alternation { turn: 0, span: first, until: effort + first }
    }

    /// The way the search decides now: [`Decisions::Rules`], [`Decisions::Mixed`] or
    /// [`Decisions::Vars`].
    pub fn decisions(&self) -> Decisions {
        ROUND[self.turn % ROUND.len()]
    }

    /// At a restart at `effort`: whether a turn ends (then the next begins).
    fn turn(&mut self, effort: u64) -> bool {
        debug_assert!(self.span > 0, "a turn of no effort");
        if effort < self.until {
            return false;
        }
        self.turn += 1;
        if self.turn.is_multiple_of(ROUND.len()) {
            self.span *= 2;
        }
        self.until = effort + self.span;
        true
    }
}

impl CpuEngine {
    /// At a restart: begins the next turn if this one is over, with a decider for its
    /// way of deciding that takes over the scores.
    pub(super) fn alternate(&mut self) {
        let spent = effort(self.stats.propagations, self.analysed, self.dec.pops);
        if self.alternation.as_mut().is_some_and(|t| t.turn(spent)) {
            self.rebuild_decider();
        }
    }

    /// A decider for the way the search decides now, with this one's scores.
    pub(super) fn rebuild_decider(&mut self) {
        let Some(turn) = &self.alternation else { return };
        debug_assert!(self.a.decision_level() <= self.floor);
        let opts = SearchOptions { decisions: turn.decisions(), ..self.opts.clone() };
        let mut dec = Decider::new(&self.p, &opts);
        dec.inherit(&self.dec);
        self.dec = dec;
        if let Some(b) = &mut self.berk {
            b.reset();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Completion, Engine};
    use crate::solve::config::SearchOptions;

    /// `{in(P,H)}` for `pigeons` pigeons and `holes` holes; every pigeon in some hole, no two in
    /// one (unsatisfiable with more pigeons than holes), as aspif.
    fn pigeonhole(pigeons: u32, holes: u32) -> String {
        let atom = |p: u32, h: u32| p * holes + h + 1;
        let mut text = String::from("asp 1 0 0\n");
        for p in 0..pigeons {
            for h in 0..holes {
                text += &format!("1 1 1 {} 0 0\n", atom(p, h));
            }
            let none: Vec<String> = (0..holes).map(|h| format!("-{}", atom(p, h))).collect();
            text += &format!("1 0 0 0 {} {}\n", holes, none.join(" "));
            for q in p + 1..pigeons {
                for h in 0..holes {
                    text += &format!("1 0 0 0 2 {} {}\n", atom(p, h), atom(q, h));
                }
            }
        }
        text + "0\n"
    }

    /// The way the decider decides now.
    fn way(e: &CpuEngine) -> Decisions {
        match (e.dec.on_variables(), e.dec.is_mixed()) {
            (true, _) => Decisions::Vars,
            (false, true) => Decisions::Mixed,
            (false, false) => Decisions::Rules,
        }
    }

    /// A search restarting after every conflict changes its way of deciding as the turns say,
    /// keeps what it learned across the changes, and proves the pigeonhole unsatisfiable.
    #[test]
    fn a_search_by_turns_proves_the_pigeonhole_unsatisfiable() {
        let opts = SearchOptions { decisions: Decisions::Alternate, ..Default::default() };
        let mut e = CpuEngine::for_aspif(&pigeonhole(8, 7), 0, &opts);
        // Short turns in every build (release builds' first span outlasts this proof).
        e.alternation = Some(Alternation::spanning(0, 400));
        let mut ways = vec![way(&e)];
        assert_eq!(ways, [Decisions::Rules], "the first turn is on rules");
        loop {
            if e.propagate().unwrap() {
                if e.decide().unwrap().is_none() {
                    assert_ne!(
                        e.complete().unwrap(),
                        Completion::Total,
                        "a model of an unsatisfiable program"
                    );
                }
                continue;
            }
            if !e.resolve_conflict().unwrap() {
                break;
            }
            e.restart().unwrap();
            let now = e.alternation.as_ref().map(Alternation::decisions);
            assert_eq!(Some(way(&e)), now, "the decider decides as the turn says");
            if ways.last() != now.as_ref() {
                ways.extend(now);
            }
        }
        assert!(ways.len() > ROUND.len(), "{ways:?} in {} conflicts", e.stats.conflicts);
        assert_eq!(ways[..ROUND.len()], ROUND, "a round's turns in order");
    }

    /// Turns go rules, mixed, rules, variables, rules, …, each ending at its first restart past
    /// its span; the span doubles after each round.
    #[test]
    fn turns_go_round_and_spans_double() {
        let mut t = Alternation::new(0);
        assert_eq!(t.decisions(), Decisions::Rules);
        assert!(!t.turn(FIRST_SPAN - 1));
        assert!(t.turn(FIRST_SPAN + 5));
        assert_eq!(t.decisions(), Decisions::Mixed);
        assert!(!t.turn(2 * FIRST_SPAN + 4));
        assert!(t.turn(2 * FIRST_SPAN + 5));
        assert_eq!(t.decisions(), Decisions::Rules);
        assert!(t.turn(3 * FIRST_SPAN + 5));
        assert_eq!(t.decisions(), Decisions::Vars);
        assert!(t.turn(4 * FIRST_SPAN + 5));
        assert_eq!(t.decisions(), Decisions::Rules);
        assert_eq!(t.until, 6 * FIRST_SPAN + 5, "the second round's turns are twice as long");
        assert!(!t.turn(6 * FIRST_SPAN + 4));
        assert!(t.turn(6 * FIRST_SPAN + 5));
        assert_eq!(t.decisions(), Decisions::Mixed);
    }
}
