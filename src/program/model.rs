//! The program model both readers fill: rules and statements in flat arrays over dense atoms.
//!
//! Invariants (checked by [`Program::check_invariants`] in debug builds and tests):
//! - every atom mentioned anywhere is in `1..=atom_count`;
//! - rule `i` owns `heads[rules[i].head_start..rules[i+1].head_start]` and likewise for body
//!   literals; weights exist exactly for weight bodies, aligned with their literals;
//! - weights in bodies are non-negative (minimize weights may be negative).
//!
//! Nothing here is per-atom except what a statement mentions, so memory grows with the input.

use super::{
    Atom, BodyRef, ExternalValue, HeadKind, HeuristicModifier, Lit, ProgramSink, TheoryStatement, Weight,
    WeightLit, atom_of,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RuleRec {
    head_start: u32,
    body_start: u32,
    weight_start: u32,
    bound: Weight,
    choice: bool,
    weighted: bool,
}

/// A rule body as stored: normal, or literals with parallel weights and a lower bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body<'a> {
    Normal(&'a [Lit]),
    Weight { bound: Weight, lits: &'a [Lit], weights: &'a [Weight] },
}

impl<'a> Body<'a> {
    pub fn lits(&self) -> &'a [Lit] {
        match *self {
            Body::Normal(l) => l,
            Body::Weight { lits, .. } => lits,
        }
    }

    /// The weight of literal `i` (1 in a normal body).
    pub fn weight(&self, i: usize) -> Weight {
        match *self {
            Body::Normal(_) => 1,
            Body::Weight { weights, .. } => weights[i],
        }
    }
}

/// One rule of a [`Program`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule<'a> {
    pub kind: HeadKind,
    pub head: &'a [Atom],
    pub body: Body<'a>,
}

impl Rule<'_> {
    /// An integrity constraint: a disjunctive head with no atoms.
    pub fn is_constraint(&self) -> bool {
        self.kind == HeadKind::Disjunction && self.head.is_empty()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimize {
    pub priority: i32,
    pub lits: Vec<WeightLit>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    pub name: Vec<u8>,
    pub condition: Vec<Lit>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heuristic {
    pub atom: Atom,
    pub modifier: HeuristicModifier,
    pub bias: i32,
    pub priority: u32,
    pub condition: Vec<Lit>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub u: i32,
    pub v: i32,
    pub condition: Vec<Lit>,
}

/// A statement other than a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    Minimize(Minimize),
    Project(Vec<Atom>),
    Output(Output),
    External(Atom, ExternalValue),
    Assume(Vec<Lit>),
    Heuristic(Heuristic),
    Edge(Edge),
    Theory(TheoryStatement),
}

/// A statement with its place in the input: the step it belongs to and how many rules came
/// before it, so that writing the program back reproduces the input's order (and numbering).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Placed {
    step: u32,
    rules_before: u32,
    statement: Statement,
}

/// A ground program over dense atoms `1..=atom_count`, accumulated over all steps read so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub(super) atom_count: u32,
    rules: Vec<RuleRec>,
    heads: Vec<Atom>,
    body_lits: Vec<Lit>,
    body_weights: Vec<Weight>,
    statements: Vec<Placed>,
    /// The number of models the input asked for (smodels only).
    pub requested_models: Option<u64>,
    /// Steps read so far, and whether the input declared itself incremental.
    pub steps: u32,
    pub incremental: bool,
}

impl Program {
    pub fn atom_count(&self) -> u32 {
        self.atom_count
    }

    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }

    #[inline]
    pub fn rule(&self, i: usize) -> Rule<'_> {
        let r = &self.rules[i];
        let (he, be, we) = match self.rules.get(i + 1) {
            Some(n) => (n.head_start, n.body_start, n.weight_start),
            None => (self.heads.len() as u32, self.body_lits.len() as u32, self.body_weights.len() as u32),
        };
        let head = &self.heads[r.head_start as usize..he as usize];
        let lits = &self.body_lits[r.body_start as usize..be as usize];
        let body = if r.weighted {
            Body::Weight {
                bound: r.bound,
                lits,
                weights: &self.body_weights[r.weight_start as usize..we as usize],
            }
        } else {
            Body::Normal(lits)
        };
        let kind = if r.choice { HeadKind::Choice } else { HeadKind::Disjunction };
        Rule { kind, head, body }
    }

    pub fn rules(&self) -> impl Iterator<Item = Rule<'_>> + '_ {
        (0..self.rules.len()).map(move |i| self.rule(i))
    }

    pub(super) fn add_rule(&mut self, kind: HeadKind, head: &[Atom], body: BodyRef<'_>) {
        let mut rec = RuleRec {
            head_start: self.heads.len() as u32,
            body_start: self.body_lits.len() as u32,
            weight_start: self.body_weights.len() as u32,
            bound: 0,
            choice: kind == HeadKind::Choice,
            weighted: false,
        };
        self.heads.extend_from_slice(head);
        match body {
            BodyRef::Normal(lits) => self.body_lits.extend_from_slice(lits),
            BodyRef::Weight { bound, lits } => {
                rec.weighted = true;
                rec.bound = bound;
                self.body_lits.extend(lits.iter().map(|w| w.lit));
                self.body_weights.extend(lits.iter().map(|w| w.weight));
            }
        }
        self.rules.push(rec);
    }

    pub(super) fn add_statement(&mut self, statement: Statement) {
        let rules_before = self.rules.len() as u32;
        self.statements.push(Placed { step: self.steps, rules_before, statement });
    }

    /// All statements other than rules, in input order.
    pub fn statements(&self) -> impl Iterator<Item = &Statement> + '_ {
        self.statements.iter().map(|p| &p.statement)
    }

    /// Minimize statements in input order (the same priority adds up).
    pub fn minimize(&self) -> impl Iterator<Item = &Minimize> + '_ {
        self.statements().filter_map(|s| if let Statement::Minimize(m) = s { Some(m) } else { None })
    }

    /// Output statements in input order.
    pub fn outputs(&self) -> impl Iterator<Item = &Output> + '_ {
        self.statements().filter_map(|s| if let Statement::Output(o) = s { Some(o) } else { None })
    }

    /// The projection atoms; `None` when the input has no project statement.
    pub fn projection(&self) -> Option<Vec<Atom>> {
        let mut any = false;
        let mut atoms = Vec::new();
        for s in self.statements() {
            if let Statement::Project(a) = s {
                any = true;
                atoms.extend_from_slice(a);
            }
        }
        any.then_some(atoms)
    }

    /// Assumptions of the latest step (earlier steps' assumptions expire with their step).
    pub fn assumptions(&self) -> Vec<Lit> {
        let mut lits = Vec::new();
        for p in &self.statements {
            if let (true, Statement::Assume(l)) = (p.step == self.steps, &p.statement) {
                lits.extend_from_slice(l);
            }
        }
        lits
    }

    pub fn heuristics(&self) -> impl Iterator<Item = &Heuristic> + '_ {
        self.statements().filter_map(|s| if let Statement::Heuristic(h) = s { Some(h) } else { None })
    }

    pub fn edges(&self) -> impl Iterator<Item = &Edge> + '_ {
        self.statements().filter_map(|s| if let Statement::Edge(e) = s { Some(e) } else { None })
    }

    pub fn theory(&self) -> impl Iterator<Item = &TheoryStatement> + '_ {
        self.statements().filter_map(|s| if let Statement::Theory(t) = s { Some(t) } else { None })
    }

    /// The value each external atom ends up with (the last declaration wins); `Release` drops it.
    pub fn external_values(&self) -> Vec<(Atom, ExternalValue)> {
        let mut last: std::collections::HashMap<Atom, ExternalValue> = Default::default();
        let mut order = Vec::new();
        for s in self.statements() {
            if let Statement::External(a, v) = *s
                && last.insert(a, v).is_none()
            {
                order.push(a);
            }
        }
        order
            .into_iter()
            .filter_map(|a| match last[&a] {
                ExternalValue::Release => None,
                v => Some((a, v)),
            })
            .collect()
    }

    /// A copy in which every shown name has exactly one output statement whose condition has at
    /// most one literal: a name shown under a longer condition, or under several, gets an
    /// auxiliary atom defined by one rule per condition. Consequences are then per atom.
    pub fn with_atomic_outputs(&self) -> Program {
        let mut p = self.clone();
        let mut groups: Vec<(Vec<u8>, Vec<Vec<Lit>>)> = Vec::new();
        let mut index: std::collections::HashMap<Vec<u8>, usize> = Default::default();
        for o in self.outputs() {
            let i = *index.entry(o.name.clone()).or_insert_with(|| {
                groups.push((o.name.clone(), Vec::new()));
                groups.len() - 1
            });
            groups[i].1.push(o.condition.clone());
        }
        p.statements.retain(|s| !matches!(s.statement, Statement::Output(_)));
        for (name, conds) in groups {
            let condition = match conds.as_slice() {
                [c] if c.len() <= 1 => c.clone(),
                cs if cs.iter().any(|c| c.is_empty()) => Vec::new(),
                cs => {
                    p.atom_count += 1;
                    let aux = p.atom_count;
                    for c in cs {
                        p.add_rule(HeadKind::Disjunction, &[aux], BodyRef::Normal(c));
                    }
                    vec![aux as Lit]
                }
            };
            p.add_statement(Statement::Output(Output { name, condition }));
        }
        p
    }

    /// The external declarations that take effect: clasp ignores the declaration of an atom that
    /// a rule defines (a rule whose body can hold and does not mention the atom itself, so
    /// `x :- x` and `{x} :- not x` do not count). Theory atoms count as free externals, as
    /// clasp takes them without a theory propagator.
    pub fn effective_externals(&self) -> Vec<(Atom, ExternalValue)> {
        let mut defined = vec![false; self.atom_count as usize + 1];
        for r in self.rules() {
            let lits = r.body.lits();
            let impossible = match r.body {
                Body::Normal(l) => l.iter().any(|&x| l.contains(&-x)),
                Body::Weight { bound, weights, .. } => weights.iter().sum::<Weight>() < bound,
            };
            if impossible {
                continue;
            }
            for &h in r.head {
                if !lits.iter().any(|&l| atom_of(l) == h) {
                    defined[h as usize] = true;
                }
            }
        }
        let mut externals = self.external_values();
        // Theory atoms, without a theory propagator, are free where no rule defines them, as clasp
        // takes them (an external's own value wins).
        let mut seen: std::collections::HashSet<Atom> = externals.iter().map(|e| e.0).collect();
        for t in self.theory() {
            if let TheoryStatement::Atom { atom, .. } = *t
                && atom != 0
                && seen.insert(atom)
            {
                externals.push((atom, ExternalValue::Free));
            }
        }
        externals.into_iter().filter(|&(a, _)| !defined[a as usize]).collect()
    }

    /// Feeds the whole program to a sink as one step, statements in their input order.
    pub fn emit(&self, sink: &mut dyn ProgramSink) -> Result<(), String> {
        sink.begin_step(self.incremental)?;
        let mut wl = Vec::new();
        let mut next = self.statements.iter().peekable();
        for i in 0..=self.rules.len() {
            while let Some(p) = next.next_if(|p| p.rules_before as usize == i) {
                emit_statement(&p.statement, sink)?;
            }
            if i == self.rules.len() {
                break;
            }
            let r = self.rule(i);
            match r.body {
                Body::Normal(lits) => sink.rule(r.kind, r.head, BodyRef::Normal(lits))?,
                Body::Weight { bound, lits, weights } => {
                    wl.clear();
                    wl.extend(lits.iter().zip(weights).map(|(&lit, &weight)| WeightLit { lit, weight }));
                    sink.rule(r.kind, r.head, BodyRef::Weight { bound, lits: &wl })?;
                }
            }
        }
        if let Some(n) = self.requested_models {
            sink.requested_models(n)?;
        }
        sink.end_step()
    }

    /// Checks the invariants stated in the module documentation.
    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.atom_count;
        let atom_ok = |a: Atom| a >= 1 && a <= n;
        let lit_ok = |l: Lit| l != 0 && atom_ok(atom_of(l));
        for (i, r) in self.rules().enumerate() {
            if !r.head.iter().all(|&a| atom_ok(a)) {
                return Err(format!("rule {i}: head atom out of range"));
            }
            if !r.body.lits().iter().all(|&l| lit_ok(l)) {
                return Err(format!("rule {i}: body literal out of range"));
            }
            if let Body::Weight { lits, weights, .. } = r.body
                && (lits.len() != weights.len() || weights.iter().any(|&w| w < 0))
            {
                return Err(format!("rule {i}: bad weights"));
            }
        }
        for s in self.statements() {
            let ok = match s {
                Statement::Minimize(m) => m.lits.iter().all(|w| lit_ok(w.lit)),
                Statement::Project(a) => a.iter().all(|&a| atom_ok(a)),
                Statement::Output(o) => o.condition.iter().all(|&l| lit_ok(l)),
                Statement::External(a, _) => atom_ok(*a),
                Statement::Assume(l) => l.iter().all(|&l| lit_ok(l)),
                Statement::Heuristic(h) => atom_ok(h.atom) && h.condition.iter().all(|&l| lit_ok(l)),
                Statement::Edge(e) => e.condition.iter().all(|&l| lit_ok(l)),
                Statement::Theory(TheoryStatement::Element { condition, .. }) => {
                    condition.iter().all(|&l| lit_ok(l))
                }
                Statement::Theory(TheoryStatement::Atom { atom, .. }) => *atom == 0 || atom_ok(*atom),
                Statement::Theory(_) => true,
            };
            if !ok {
                return Err(format!("statement {s:?}: atom out of range"));
            }
        }
        if self.statements.windows(2).any(|w| w[0].rules_before > w[1].rules_before) {
            return Err("statements out of input order".into());
        }
        Ok(())
    }
}

fn emit_statement(s: &Statement, sink: &mut dyn ProgramSink) -> Result<(), String> {
    match s {
        Statement::Minimize(m) => sink.minimize(m.priority, &m.lits),
        Statement::Project(a) => sink.project(a),
        Statement::Output(o) => sink.output(&o.name, &o.condition),
        Statement::External(a, v) => sink.external(*a, *v),
        Statement::Assume(l) => sink.assume(l),
        Statement::Heuristic(h) => sink.heuristic(h.atom, h.modifier, h.bias, h.priority, &h.condition),
        Statement::Edge(e) => sink.edge(e.u, e.v, &e.condition),
        Statement::Theory(t) => sink.theory(t.clone()),
    }
}
