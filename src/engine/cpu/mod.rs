//! The CPU engine: watched-literal propagation over the nogood database, native weight
//! constraints and cost bound, unfounded sets, decisions (the ASP computation's, any variable's,
//! BerkMin's, lookahead's), and both learning schemes.

mod acyclic;
mod alternate;
mod analyze;
mod berkmin;
mod db;
mod decide;
mod dom_mod;
mod domain;
mod extend;
mod forward;
mod interface;
mod lookahead;
mod minimize;
mod propagate;
mod reduce;
mod shrink;
mod weight;

pub use self::dom_mod::statements as dom_mod_statements;

use self::acyclic::Acyclic;
use self::alternate::Alternation;
use self::berkmin::Berkmin;
use self::db::NogoodDb;
use self::decide::Decider;
use self::forward::Deps;
use self::lookahead::Look;
use self::minimize::CostProp;
use self::weight::WeightProp;
use super::{Completion, EngineStats};
use crate::engine::assignment::{Assignment, Reason};
use crate::engine::unfounded::Unfounded;
use crate::nogoods::{Lit, Problem};
use crate::solve::config::{Decisions, Deletion, Distribute, Heuristic, Learning, SearchOptions};
use crate::stop::{Interrupted, StopToken};
use std::sync::Arc;

pub struct CpuEngine {
    p: Arc<Problem>,
    /// What the engine was built with (an extended problem's engine is built alike).
    opts: SearchOptions,
    learning: Learning,
    deletion: Deletion,
    a: Assignment,
    db: NogoodDb,
    wp: WeightProp,
    cost: CostProp,
    ufs: Unfounded,
    /// The acyclicity constraints' propagator, where the program has `#edge` statements.
    acyc: Option<Acyclic>,
    dec: Decider,
    /// `--decisions=alternate`: which way the decider decides now, and until when.
    alternation: Option<Alternation>,
    /// Literals met by conflict analysis so far (each antecedent's, each time): part of the
    /// effort that measures turns (`alternate.rs`).
    analysed: u64,
    /// `--heuristic=berkmin` (deciding on variables): the open learned nogood decides.
    berk: Option<Berkmin>,
    /// `--lookahead` (with 1-UIP learning), while it lasts.
    look: Option<Look>,
    fwd: Option<Deps>,
    /// Trail index of the next literal to propagate; literals before it have been counted by the
    /// weight and cost propagators (and have their dependency rows, under forward learning).
    qhead: usize,
    /// The violated nogood (all its literals true), if any.
    conflict: Vec<Lit>,
    /// Set once a conflict at level 0 was found: no (more) answer sets.
    unsat: bool,
    /// Backtracking enumeration's backtrack level: no backjump goes below it (0 otherwise).
    /// Invariant: every level above it starts with a decision whose other branch is unexplored;
    /// within a part, it is at least the part's root.
    floor: u32,
    /// The LBD of the nogood the last conflict taught (`None`: it taught none, as a conflict at
    /// the backtrack level, which flips a decision).
    last_lbd: Option<u32>,
    /// Literals fixed at level 0 when deletion last looked for nogoods they satisfy (`reduce.rs`).
    fixed_at_reduce: usize,
    /// Within a part of the space (split mode): the last level of its path.
    part_root: Option<u32>,
    /// Projective enumeration: the projected variables (decided first, in this order; the
    /// ones before `project_next` are assigned) and which variables they are.
    project_order: Vec<u32>,
    project_next: usize,
    projected: Vec<bool>,
    nogood_inc: f32,
    stats: EngineStats,
    scratch: Vec<Lit>,
    /// Analysis scratch: variable marks, the marked variables, antecedents, a stack, the
    /// learned nogood before and after its minimisation.
    marks: Vec<u8>,
    touched: Vec<u32>,
    ante: Vec<Lit>,
    stack: Vec<(Lit, bool)>,
    learnt: Vec<Lit>,
    minimised: Vec<Lit>,
    /// Counts the distinct levels of a nogood's literals (its LBD).
    levels: analyze::Levels,
    /// Per literal index: which propagators want to hear of it (`HOOK_*` bits), so that the
    /// propagation loop skips the others without touching their tables.
    hooks: Vec<u8>,
    /// What this engine shares with the other searches of a parallel run, and what it has
    /// learned for them since they last took it.
    share: Option<Distribute>,
    exports: Vec<(Vec<Lit>, u32)>,
    /// Loop reasons already looked at for export.
    loops_seen: usize,
}

pub(super) const HOOK_WEIGHT: u8 = 1;
pub(super) const HOOK_COST: u8 = 2;
pub(super) const HOOK_UNFOUNDED: u8 = 4;
pub(super) const HOOK_CHOICE: u8 = 8;
pub(super) const HOOK_EDGE: u8 = 16;

impl CpuEngine {
    /// Tests: the engine over the aspif program `text`, its equivalences substituted in
    /// `eq_rounds` rounds.
    #[cfg(test)]
    pub(super) fn for_aspif(text: &str, eq_rounds: u32, opts: &SearchOptions) -> CpuEngine {
        let program = crate::input::read_program(text.as_bytes()).expect("a program");
        let p = crate::nogoods::complete(&program, &StopToken::never(), eq_rounds).expect("completed");
        CpuEngine::new(Arc::new(p), opts)
    }

    /// Makes the search decide only on `vars`: the others get their values from elsewhere (a
    /// minimality tester's assumptions, and propagation from them and from `vars`). Popping them
    /// from the heap would cost a sift each time they were unassigned.
    /// A variable of `vars` that follows an equivalent literal (`--eq`) is decided through it.
    pub fn decide_only(&mut self, vars: std::ops::RangeInclusive<crate::nogoods::Var>) {
        let mut keep = vec![false; self.p.num_vars as usize];
        for v in vars {
            keep[v as usize] = true;
            if let Some(r) = self.p.leader(v) {
                keep[r.var() as usize] = true;
            }
        }
        self.dec.restrict(&keep);
    }

    /// Variables assigned (the trail's length).
    pub fn assigned(&self) -> usize {
        self.a.trail.len()
    }

    /// Backjumps to `level` (at a propagation fixpoint without a conflict).
    pub fn backjump_to(&mut self, level: u32) {
        self.backjump(level);
    }

    pub fn new(p: Arc<Problem>, opts: &SearchOptions) -> Self {
        Self::new_until(p, opts, &StopToken::never()).expect("never stopped")
    }

    /// [`new`](Self::new), polling `stop` between the parts it builds (a big program's take
    /// seconds).
    pub fn new_until(p: Arc<Problem>, opts: &SearchOptions, stop: &StopToken) -> Result<Self, Interrupted> {
        let nv = p.num_vars;
        let wp = WeightProp::new_until(&p.weights, nv, stop)?;
        let cost = CostProp::new_until(&p.costs, nv, stop)?;
        let ufs = Unfounded::new(&p);
        let acyc = Acyclic::new(&p, opts.acyc_prop);
        stop.check()?;
        let hooks = (0..2 * nv)
            .map(|i| {
                let l = Lit(i);
                // Choice heads wake up when a body of theirs becomes true; decisions on any
                // variable (--decisions=vars) have nothing to wake. (`auto` is resolved before a
                // search starts; left as it is, it decides on rules, as the decider does.)
                let choice = opts.decisions != Decisions::Vars
                    && p.bodies.bodies_of(l).iter().any(|&b| !p.bodies.choice_heads(b as usize).is_empty());
                (wp.has_occurrences(l) as u8 * HOOK_WEIGHT)
                    | (cost.has_occurrences(l) as u8 * HOOK_COST)
                    | (ufs.has_trigger(l) as u8 * HOOK_UNFOUNDED)
                    | (choice as u8 * HOOK_CHOICE)
                    | (acyc.as_ref().is_some_and(|g| g.has_edges(l)) as u8 * HOOK_EDGE)
            })
            .collect();
        stop.check()?;
        let db = NogoodDb::new(nv, &p.store);
        stop.check()?;
        let dec = Decider::new(&p, opts);
        let berk = (opts.heuristic == Heuristic::Berkmin && opts.decisions == Decisions::Vars)
            .then(|| Berkmin::new(nv as usize));
        let look = opts.lookahead.filter(|_| opts.learning == Learning::Res).map(|l| Look::new(&p, l));
        stop.check()?;
        let mut e = CpuEngine {
            hooks,
            learning: opts.learning,
            deletion: opts.deletion,
            a: Assignment::new(nv),
            db,
            wp,
            cost,
            ufs,
            acyc,
            dec,
            alternation: (opts.decisions == Decisions::Alternate).then(|| Alternation::new(0)),
            analysed: 0,
            berk,
            look,
            fwd: (opts.learning == Learning::Fwd).then(|| Deps::new(nv)),
            qhead: 0,
            conflict: Vec::new(),
            unsat: false,
            floor: 0,
            last_lbd: None,
            fixed_at_reduce: 0,
            part_root: None,
            project_order: Vec::new(),
            project_next: 0,
            projected: Vec::new(),
            nogood_inc: 1.0,
            stats: EngineStats::default(),
            scratch: Vec::new(),
            marks: Vec::new(),
            touched: Vec::new(),
            ante: Vec::new(),
            stack: Vec::new(),
            learnt: Vec::new(),
            minimised: Vec::new(),
            levels: Default::default(),
            share: opts.share,
            exports: Vec::new(),
            loops_seen: 0,
            p,
            opts: opts.clone(),
        };
        e.load(stop)?;
        Ok(e)
    }

    /// Copies the input nogoods into the database and asserts the units (the paper's initial
    /// propagation).
    fn load(&mut self, stop: &StopToken) -> Result<(), Interrupted> {
        let p = Arc::clone(&self.p);
        let st = &p.store;
        self.a.assign(Lit::TRUE, Reason::Unit);
        for i in st.class(3).start..st.len() {
            stop.check_every(i)?;
            self.db.add(st.nogood(i), false, 0);
        }
        for &u in &st.units {
            self.assert_unit(u);
        }
        Ok(())
    }

    /// Makes `l` false at level 0 (a unit nogood `{l}`).
    fn assert_unit(&mut self, l: Lit) {
        debug_assert_eq!(self.a.decision_level(), 0);
        match self.a.value(l) {
            1 => {
                self.conflict = vec![l];
                self.unsat = true;
            }
            0 => self.a.assign(!l, Reason::Unit),
            _ => {}
        }
    }

    /// The value of every variable (of a total assignment).
    pub fn var_values(&self) -> Vec<bool> {
        (0..self.p.num_vars).map(|v| self.a.is_true(Lit::pos(v))).collect()
    }

    /// Backjumps to `level`, or to the backtrack level if that is higher.
    fn backjump(&mut self, level: u32) {
        self.undo_to(level.max(self.floor));
    }

    /// Backtracks to `level`, keeping every propagator's state in step.
    fn undo_to(&mut self, level: u32) {
        if level >= self.a.decision_level() {
            return;
        }
        self.project_next = 0;
        debug_assert!(
            self.conflict.is_empty(),
            "backjump to {level} with a pending conflict {:?}",
            self.conflict
        );
        let qhead = self.qhead;
        let keep = self.a.level_start[level as usize] as usize;
        self.dec.on_backjump(self.a.decision_level() - level);
        let (wp, cost, ufs, dec, w, hooks) =
            (&mut self.wp, &mut self.cost, &mut self.ufs, &mut self.dec, &self.p.weights, &self.hooks);
        let mut idx = self.a.trail.len();
        self.a.backtrack(level, |a, l| {
            idx -= 1;
            let (h, hn) = (hooks[l.index()], hooks[(!l).index()]);
            if idx < qhead && h & HOOK_WEIGHT != 0 {
                wp.on_unassign(w, l);
            }
            if (h | hn) & HOOK_COST != 0 {
                cost.on_unassign(l, idx < qhead);
            }
            ufs.on_unassign(l.var());
            dec.on_unassign(a, l.var(), l);
        });
        debug_assert_eq!(idx, keep);
        self.qhead = self.qhead.min(keep);
        self.ufs.backtrack(level);
        if let Some(g) = &mut self.acyc {
            g.backtrack();
        }
        self.dec.on_backtrack();
        if let Some(b) = &mut self.berk {
            b.reset();
        }
    }

    /// The true literals that implied `p` (empty for decisions and level-0 units).
    fn antecedents(&self, p: Lit, out: &mut Vec<Lit>) {
        let start = out.len();
        self.antecedents_unchecked(p, out);
        debug_assert!(
            out[start..].iter().all(|&q| self.a.is_true(q)
                && self.a.trail_pos[q.var() as usize] < self.a.trail_pos[p.var() as usize]),
            "reason {:?} of {p:?} has a literal that is not true before it: {:?}",
            self.a.reason[p.var() as usize],
            &out[start..]
        );
    }

    fn antecedents_unchecked(&self, p: Lit, out: &mut Vec<Lit>) {
        match self.a.reason[p.var() as usize] {
            Reason::Decision | Reason::Unit => {}
            Reason::Binary(o) => out.push(o),
            Reason::Nogood(c) => out.extend(self.db.lits(c).iter().copied().filter(|l| l.var() != p.var())),
            Reason::Weight(c) => self.wp.explain(&self.p.weights, &self.a, c, p, out),
            Reason::Loop(id) => out.extend_from_slice(&self.ufs.reasons[id as usize].1),
            Reason::Cost => {
                let levels = self.cost.levels_for(p);
                let before = self.a.trail_pos[p.var() as usize];
                self.cost.explain(&self.a, levels, Some(before), out)
            }
        }
    }

    /// Assigns a decision at a new level.
    fn decide_lit(&mut self, l: Lit) {
        self.a.new_level();
        self.a.assign(l, Reason::Decision);
        self.stats.decisions += 1;
    }

    /// The unassigned atoms left when no rule is applicable form an unfounded set: each is made
    /// false by its loop nogood (the engine's unfounded-set propagator covers cyclic atoms only;
    /// this is the general check, over the whole program).
    fn falsify_unsupported(&mut self) -> bool {
        let a = &self.a;
        let nogoods = self.ufs.loops.unfounded_nogoods(&self.p, |l| match a.value(l) {
            0 => None,
            v => Some(v > 0),
        });
        let mut any = false;
        for ng in nogoods {
            let x = ng[0].var();
            if !self.a.is_unassigned(x) {
                continue;
            }
            let id = self.ufs.reasons.len() as u32;
            self.ufs.reasons.push((self.a.decision_level(), ng[1..].to_vec()));
            self.a.assign(Lit::neg(x), Reason::Loop(id));
            any = true;
        }
        any
    }

    fn value(&self, l: Lit) -> Option<bool> {
        match self.a.value(l) {
            0 => None,
            v => Some(v > 0),
        }
    }

    /// No rule is applicable: the assignment is total, or a candidate the heap lost is decided,
    /// or the unsupported atoms are falsified.
    fn complete_assignment(&mut self) -> Completion {
        if self.a.trail.len() == self.a.num_vars() {
            debug_assert_eq!(self.check_invariants(), Ok(()));
            return Completion::Total;
        }
        self.stats.completions += 1;
        // A candidate the heap lost (parking is a heuristic; answers must not depend on it).
        for v in 0..self.p.num_vars {
            self.dec.insert(v);
        }
        if let Some(l) = self.dec.pick(&self.p, &self.a) {
            log::debug!("completion found a missed candidate {l:?}");
            self.decide_lit(l);
            return Completion::Decided;
        }
        if self.falsify_unsupported() {
            return Completion::Falsified;
        }
        // Unreachable at a fixpoint by the argument in `decide`; decide something to progress.
        let v = (0..self.p.num_vars).find(|&v| self.a.is_unassigned(v)).expect("not total");
        log::warn!("no applicable rule and no unfounded set; deciding F{v}");
        self.decide_lit(Lit::neg(v));
        Completion::Decided
    }

    /// Keeps a nogood (literals and their levels as now) for the other searches, if it passes
    /// the sharing filter.
    pub(super) fn export(&mut self, ng: &[Lit], lbd: u32) {
        if self.share.is_some_and(|d| d.passes(ng.len(), lbd)) {
            self.exports.push((ng.to_vec(), lbd));
        }
    }

    /// The loop nogoods of the unfounded sets found since the last look: `{T a} + witnesses` for
    /// each atom `a` made false by one (consequences of the program, whatever the search).
    fn export_loops(&mut self) {
        if self.share.is_none() {
            self.loops_seen = self.ufs.reasons.len();
            return;
        }
        let from = std::mem::replace(&mut self.loops_seen, self.ufs.reasons.len());
        if from >= self.ufs.reasons.len() {
            return;
        }
        let mut found: Vec<Vec<Lit>> = Vec::new();
        for &l in &self.a.trail {
            if let Reason::Loop(id) = self.a.reason[l.var() as usize]
                && id as usize >= from
            {
                let mut ng = vec![!l];
                ng.extend_from_slice(&self.ufs.reasons[id as usize].1);
                found.push(ng);
            }
        }
        for ng in found {
            let lbd = self.levels.count(ng.iter().map(|l| self.a.level[l.var() as usize]), u32::MAX);
            self.export(&ng, lbd);
        }
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.a.check_invariants()?;
        self.db.check_invariants()
    }
}
