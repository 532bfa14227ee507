//! The sink that turns reader statements into a [`Program`], renumbering atoms densely.

use super::atom_map::AtomMap;
use super::model::{Edge, Heuristic, Minimize, Output, Program, Statement};
use super::{
    Atom, BodyRef, ExternalValue, HeadKind, HeuristicModifier, Lit, ProgramSink, TheoryStatement, WeightLit,
    atom_of,
};

/// Builds a [`Program`]; keeps the atom numbering across steps so later steps can refer to
/// atoms of earlier ones.
///
/// A later step of an incremental program sees the earlier steps' atoms as clasp does (every input
/// number up to the largest an earlier step used): an external one that gets rules is external
/// no more; any other keeps the value the earlier steps give it (false for one without rules): a
/// later rule `h :- B` is the constraint `:- B, not h`. clasp refuses a rule for such an atom as
/// a redefinition unless its preprocessing found the atom false; yasmin warns.
pub struct ProgramBuilder {
    program: Program,
    map: AtomMap,
    atoms: Vec<Atom>,
    lits: Vec<Lit>,
    wlits: Vec<WeightLit>,
    /// The atoms the earlier steps knew: as clasp numbers them, every input number up to the
    /// largest an earlier step used (`old`); `largest` is the largest used so far.
    old: Atom,
    largest: Atom,
    /// Per dense atom: the step that gave it its first rule (0: none yet), and whether it is
    /// external now.
    defined: Vec<u32>,
    external: Vec<bool>,
    /// Whether the warning about rules for earlier atoms was given.
    warned: bool,
}

impl ProgramBuilder {
    /// A builder for an input of `input_len` bytes (sizes the renumbering table).
    pub fn new(input_len: usize) -> Self {
        ProgramBuilder {
            program: Program::default(),
            map: AtomMap::for_input_len(input_len),
            atoms: Vec::new(),
            lits: Vec::new(),
            wlits: Vec::new(),
            old: 0,
            largest: 0,
            defined: Vec::new(),
            external: Vec::new(),
            warned: false,
        }
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    pub fn into_program(self) -> Program {
        self.program
    }

    fn atom(&mut self, a: Atom) -> Atom {
        self.largest = self.largest.max(a);
        let d = self.map.dense(a);
        self.program.atom_count = self.map.count();
        d
    }

    fn lit(&mut self, l: Lit) -> Lit {
        let d = self.atom(atom_of(l)) as Lit;
        if l < 0 { -d } else { d }
    }

    fn map_atoms(&mut self, atoms: &[Atom]) -> Vec<Atom> {
        atoms.iter().map(|&a| self.atom(a)).collect()
    }

    fn map_lits(&mut self, lits: &[Lit]) -> Vec<Lit> {
        lits.iter().map(|&l| self.lit(l)).collect()
    }

    fn map_wlits(&mut self, lits: &[WeightLit]) -> Vec<WeightLit> {
        lits.iter().map(|w| WeightLit { lit: self.lit(w.lit), weight: w.weight }).collect()
    }

    fn flag<T: Copy + Default>(v: &mut Vec<T>, d: Atom, value: T) {
        if v.len() <= d as usize {
            v.resize(d as usize + 1, T::default());
        }
        v[d as usize] = value;
    }

    /// The heads (input numbers) a rule of this step keeps, numbered densely into `heads` (see the
    /// struct's doc). The atoms of earlier steps it drops (their values are the earlier steps')
    /// go to `fixed`, unnumbered yet: their numbers come after the body's, as they would in the
    /// rule the step's rule becomes.
    fn later_step_heads(&mut self, input: &[Atom], heads: &mut Vec<Atom>, fixed: &mut Vec<Atom>) {
        let step = self.program.steps;
        for &a in input {
            if a > self.old {
                let d = self.atom(a);
                heads.push(d);
                continue;
            }
            // An earlier step's number (every number up to the largest it used is an atom).
            let Some(d) = self.map.get(a) else {
                fixed.push(a);
                continue;
            };
            let since = self.defined.get(d as usize).copied().unwrap_or(0);
            if since == step {
                heads.push(d);
            } else if self.external.get(d as usize).copied().unwrap_or(false) && since == 0 {
                // An external atom of an earlier step gets rules: they decide it now.
                Self::flag(&mut self.external, d, false);
                self.program.add_statement(Statement::External(d, ExternalValue::Release));
                heads.push(d);
            } else {
                // clasp refuses a redefinition where its preprocessing has not found the atom
                // false; an atom without rules stays false.
                if since != 0 && !self.warned {
                    self.warned = true;
                    log::warn!(
                        "atom <'{}',{a}> of an earlier step keeps its rules: a later rule cannot derive it (clasp refuses such a redefinition unless the atom is false)",
                        self.name_of(d)
                    );
                }
                fixed.push(a);
            }
        }
    }

    /// The name an output statement gives atom `d` alone (empty if none does).
    fn name_of(&self, d: Atom) -> String {
        self.program
            .statements()
            .find_map(|s| match s {
                Statement::Output(o) if o.condition == [d as Lit] => {
                    Some(String::from_utf8_lossy(&o.name).into())
                }
                _ => None,
            })
            .unwrap_or_default()
    }
}

impl ProgramSink for ProgramBuilder {
    fn begin_step(&mut self, incremental: bool) -> Result<(), String> {
        self.program.steps += 1;
        self.program.incremental |= incremental;
        Ok(())
    }

    fn rule(&mut self, head: HeadKind, atoms: &[Atom], body: BodyRef<'_>) -> Result<(), String> {
        let mut ha = std::mem::take(&mut self.atoms);
        ha.clear();
        let mut fixed = Vec::new();
        if self.program.steps > 1 && self.old > 0 {
            self.later_step_heads(atoms, &mut ha, &mut fixed);
            // A choice left without heads chooses nothing.
            if head == HeadKind::Choice && !atoms.is_empty() && ha.is_empty() {
                self.atoms = ha;
                return Ok(());
            }
        } else {
            for &a in atoms {
                let d = self.atom(a);
                ha.push(d);
            }
        }
        // A rule cannot derive an earlier step's atom: where its body holds, the atom must
        // already be true or another head is. (A weight body takes no more literals: there the
        // rule acts as if the atom were false, as clasp has it for an atom without rules.)
        let disjunctive = head == HeadKind::Disjunction;
        // Which atoms have rules matters to later steps only (a one-step input keeps no record).
        if self.program.incremental {
            let step = self.program.steps;
            for &d in &ha {
                if self.defined.get(d as usize).is_none_or(|&s| s == 0) {
                    Self::flag(&mut self.defined, d, step);
                }
            }
        }
        match body {
            BodyRef::Normal(lits) => {
                let mut bl = std::mem::take(&mut self.lits);
                bl.clear();
                for &l in lits {
                    let d = self.lit(l);
                    bl.push(d);
                }
                if disjunctive {
                    for &a in &fixed {
                        let d = self.atom(a);
                        bl.push(-(d as Lit));
                    }
                }
                self.program.add_rule(head, &ha, BodyRef::Normal(&bl));
                self.lits = bl;
            }
            BodyRef::Weight { bound, lits } => {
                let mut wl = std::mem::take(&mut self.wlits);
                wl.clear();
                for w in lits {
                    let lit = self.lit(w.lit);
                    wl.push(WeightLit { lit, weight: w.weight });
                }
                self.program.add_rule(head, &ha, BodyRef::Weight { bound, lits: &wl });
                self.wlits = wl;
            }
        }
        self.atoms = ha;
        Ok(())
    }

    fn minimize(&mut self, priority: i32, lits: &[WeightLit]) -> Result<(), String> {
        let lits = self.map_wlits(lits);
        self.program.add_statement(Statement::Minimize(Minimize { priority, lits }));
        Ok(())
    }

    fn project(&mut self, atoms: &[Atom]) -> Result<(), String> {
        let atoms = self.map_atoms(atoms);
        self.program.add_statement(Statement::Project(atoms));
        Ok(())
    }

    fn output(&mut self, name: &[u8], condition: &[Lit]) -> Result<(), String> {
        let condition = self.map_lits(condition);
        self.program.add_statement(Statement::Output(Output { name: name.to_vec(), condition }));
        Ok(())
    }

    fn external(&mut self, atom: Atom, value: ExternalValue) -> Result<(), String> {
        // An earlier step's atom that is not external stays as those steps left it (clasp
        // ignores the declaration).
        let external = |d: Atom| self.external.get(d as usize).copied().unwrap_or(false);
        if self.program.steps > 1 && atom <= self.old && !self.map.get(atom).is_some_and(external) {
            return Ok(());
        }
        let a = self.atom(atom);
        Self::flag(&mut self.external, a, value != ExternalValue::Release);
        self.program.add_statement(Statement::External(a, value));
        Ok(())
    }

    fn assume(&mut self, lits: &[Lit]) -> Result<(), String> {
        let lits = self.map_lits(lits);
        self.program.add_statement(Statement::Assume(lits));
        Ok(())
    }

    fn heuristic(
        &mut self,
        atom: Atom,
        modifier: HeuristicModifier,
        bias: i32,
        priority: u32,
        condition: &[Lit],
    ) -> Result<(), String> {
        let atom = self.atom(atom);
        let condition = self.map_lits(condition);
        self.program.add_statement(Statement::Heuristic(Heuristic {
            atom,
            modifier,
            bias,
            priority,
            condition,
        }));
        Ok(())
    }

    fn edge(&mut self, u: i32, v: i32, condition: &[Lit]) -> Result<(), String> {
        let condition = self.map_lits(condition);
        self.program.add_statement(Statement::Edge(Edge { u, v, condition }));
        Ok(())
    }

    fn theory(&mut self, statement: TheoryStatement) -> Result<(), String> {
        let statement = match statement {
            TheoryStatement::Element { id, terms, condition } => {
                TheoryStatement::Element { id, terms, condition: self.map_lits(&condition) }
            }
            TheoryStatement::Atom { atom, term, elements, guard } => {
                let atom = if atom == 0 { 0 } else { self.atom(atom) };
                TheoryStatement::Atom { atom, term, elements, guard }
            }
            other => other,
        };
        self.program.add_statement(Statement::Theory(statement));
        Ok(())
    }

    fn requested_models(&mut self, count: u64) -> Result<(), String> {
        self.program.requested_models = Some(count);
        Ok(())
    }

    fn end_step(&mut self) -> Result<(), String> {
        self.old = self.largest;
        debug_assert_eq!(self.program.check_invariants(), Ok(()));
        Ok(())
    }
}
