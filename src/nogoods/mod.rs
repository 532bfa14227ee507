//! The completion of a ground program as nogoods, plus what propagation needs beside them: the
//! [`Problem`] both engines solve.

mod bodies;
mod completion;
mod csr;
mod elimination;
mod equivalences;
mod extension;
mod lit;
mod minimize;
mod normal_rules;
mod relaxation;
mod store;
mod translation;
mod units;
mod weights;

pub use bodies::{BodyTable, NONE};
pub use completion::{CompileError, complete, complete_with};
pub use csr::Csr;
pub use elimination::{Eliminated, SatPrepro};
pub use equivalences::DEFAULT_ROUNDS as DEFAULT_EQ_ROUNDS;
pub use lit::{Lit, Var};
pub use minimize::CostLevels;
pub use relaxation::AtLeast;
pub use store::NogoodStore;
pub use translation::ExtendedRules;
pub use weights::WeightConstraints;

use crate::program::deps::NO_SCC;

/// What a solver variable stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// Variable 0, always true.
    Constant,
    /// A program atom (variables `1..=num_atoms`).
    Atom,
    /// An atom introduced while normalising rules (e.g. for a weight body under a disjunction).
    AuxAtom,
    /// A rule body (conjunction, disjunction or weighted sum).
    Body,
    /// Stands for nothing of the program (`extension.rs`): core-guided optimization's, true
    /// exactly when at least `k` of a core's literals are (`relaxation.rs`); symmetry breaking's,
    /// true exactly when a prefix of a permutation's atoms equals its image (`symmetry/`).
    Relaxation,
    /// A counter of a cardinality constraint translated into nogoods (`translation.rs`): true
    /// exactly when the constraint's terms from some position on reach some bound.
    Counter,
}

impl VarKind {
    pub fn is_atom(self) -> bool {
        matches!(self, VarKind::Atom | VarKind::AuxAtom)
    }
}

/// A compiled program: the completion nogoods in CSR layout, native weight constraints, the body
/// table for decisions and unfounded sets, cost levels, and the cyclic components.
#[derive(Clone, Debug)]
pub struct Problem {
    pub num_vars: u32,
    /// Program atoms are variables `1..=num_atoms`.
    pub num_atoms: u32,
    pub kinds: Vec<VarKind>,
    pub store: NogoodStore,
    pub weights: WeightConstraints,
    pub bodies: BodyTable,
    /// For each atom variable, the bodies that can support it (rules and choices):
    /// `support[support_start[v]..support_start[v+1]]`.
    pub support_start: Vec<u32>,
    pub support: Vec<u32>,
    /// The positive-dependency component of each variable, [`NO_SCC`] if it is on no cycle.
    pub scc: Vec<u32>,
    pub components: u32,
    /// Components with a head cycle (need the minimality check).
    pub non_hcf: Vec<bool>,
    /// Per variable, the literal it is equivalent to (`equivalences.rs`): `Lit::pos(v)` for the
    /// variables the search decides on, a representative's literal for the others, which follow it
    /// through two binary nogoods.
    pub equal_to: Vec<Lit>,
    pub costs: CostLevels,
    /// The program's `#heuristic` statements over its variables (the domain heuristic's,
    /// `--heuristic=Domain`), in input order.
    pub heuristics: Vec<DomainModifier>,
    /// The literals whose truth shows an atom (the conditions of one literal of the output
    /// statements), for `--dom-mod`'s `show`.
    pub shown: Vec<Lit>,
    /// The atoms on a cycle of positive dependencies that are in a disjunctive head, for
    /// `--dom-mod`'s `disj`.
    pub disjunctive: Vec<Var>,
    /// The program's `#edge` statements whose conditions can hold, over nodes numbered densely
    /// from 0 (`graph_nodes` of them): the edges that hold in an answer set form no cycle.
    pub edges: Vec<GraphEdge>,
    pub graph_nodes: u32,
    /// Generators of the program's symmetries whose lex-leader constraints are among the
    /// nogoods (`symmetry/`; 0: none).
    pub symmetries: u32,
    /// At-most-one constraints spelled out as binary nogoods (`translation::pair_at_most_one`).
    pub at_most_ones: u32,
    /// The nogoods `--sat-prepro` removed (`elimination/`), by which a model of the others
    /// is extended (empty: none).
    pub eliminated: Eliminated,
}

/// An edge `tail -> head` of an acyclicity constraint; it holds while `lit` (the variable of its
/// condition, a conjunction) is true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphEdge {
    pub tail: u32,
    pub head: u32,
    pub lit: Lit,
}

/// One `#heuristic` statement: `modifier` with `value` and `priority` on the atom `var` while
/// every literal of `condition` is true.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomainModifier {
    pub var: Var,
    pub modifier: crate::program::HeuristicModifier,
    pub value: i32,
    pub priority: u32,
    pub condition: Vec<Lit>,
}

impl DomainModifier {
    /// Of statements that hold, the one that counts: the highest priority, the last among equals.
    pub fn strongest<'d>(mods: impl Iterator<Item = &'d DomainModifier>) -> Option<&'d DomainModifier> {
        mods.fold(None, |best, m| match best {
            Some(b) if b.priority > m.priority => Some(b),
            _ => Some(m),
        })
    }

    /// Whether the statement holds from the start: each literal of its condition is true or a
    /// fact's (`facts`: [`Problem::facts`]).
    pub fn holds_from_start(&self, facts: &std::collections::HashSet<Lit>) -> bool {
        self.condition.iter().all(|l| *l == Lit::TRUE || facts.contains(l))
    }

    /// The value this sign, true or false statement gives its atom (`None`: a sign of 0).
    pub fn sign(&self) -> Option<bool> {
        use crate::program::HeuristicModifier as M;
        match self.modifier {
            M::True => Some(true),
            M::False => Some(false),
            _ => (self.value != 0).then_some(self.value > 0),
        }
    }
}

impl Problem {
    /// The literals true from the start: a fact's literal is the complement of a unit nogood
    /// (false at level 0).
    pub fn facts(&self) -> std::collections::HashSet<Lit> {
        self.store.units.iter().map(|&u| !u).collect()
    }

    pub fn supports(&self, v: Var) -> &[u32] {
        &self.support[self.support_start[v as usize] as usize..self.support_start[v as usize + 1] as usize]
    }

    pub fn is_tight(&self) -> bool {
        self.components == 0
    }

    /// The representative's literal that `v` follows (`equal_to`), if it is not one itself.
    pub fn leader(&self, v: Var) -> Option<Lit> {
        Some(self.equal_to[v as usize]).filter(|&r| r != Lit::pos(v))
    }

    pub fn is_cyclic(&self, v: Var) -> bool {
        self.scc[v as usize] != NO_SCC
    }

    pub fn has_head_cycles(&self) -> bool {
        self.non_hcf.iter().any(|&x| x)
    }

    pub fn check_invariants(&self) -> Result<(), String> {
        let nv = self.num_vars as usize;
        if self.kinds.len() != nv
            || self.scc.len() != nv
            || self.equal_to.len() != nv
            || self.support_start.len() != nv + 1
        {
            return Err("per-variable table sizes".into());
        }
        self.store.check_invariants()?;
        self.weights.check_invariants()?;
        self.bodies.check_invariants()?;
        if self.support.iter().any(|&b| b as usize >= self.bodies.len()) {
            return Err("support refers to a missing body".into());
        }
        for v in 0..self.num_vars {
            if let Some(r) = self.leader(v)
                && (r.var() >= v || self.leader(r.var()).is_some())
            {
                return Err(format!("variable {v} follows {r:?}, which is not a representative"));
            }
        }
        let max_lit = 2 * self.num_vars;
        if self.store.lits.iter().any(|&l| l >= max_lit) {
            return Err("nogood literal out of range".into());
        }
        if self.edges.iter().any(|e| e.lit.0 >= max_lit || e.tail.max(e.head) >= self.graph_nodes) {
            return Err("edge out of range".into());
        }
        Ok(())
    }
}
