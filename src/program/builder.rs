//! The sink that turns reader statements into a [`Program`], renumbering atoms densely.

use super::atom_map::AtomMap;
use super::model::{Edge, Heuristic, Minimize, Output, Program, Statement};
use super::{
    Atom, BodyRef, ExternalValue, HeadKind, HeuristicModifier, Lit, ProgramSink, TheoryStatement, WeightLit,
    atom_of,
};

/// Builds a [`Program`]; keeps the atom numbering across steps so later steps can refer to
/// atoms of earlier ones.
pub struct ProgramBuilder {
    program: Program,
    map: AtomMap,
    atoms: Vec<Atom>,
    lits: Vec<Lit>,
    wlits: Vec<WeightLit>,
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
        }
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    pub fn into_program(self) -> Program {
        self.program
    }

    fn atom(&mut self, a: Atom) -> Atom {
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
        for &a in atoms {
            let d = self.atom(a);
            ha.push(d);
        }
        match body {
            BodyRef::Normal(lits) => {
                let mut bl = std::mem::take(&mut self.lits);
                bl.clear();
                for &l in lits {
                    let d = self.lit(l);
                    bl.push(d);
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
        let a = self.atom(atom);
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
        debug_assert_eq!(self.program.check_invariants(), Ok(()));
        Ok(())
    }
}
