//! Prints statements as aspif (the inverse of [`crate::input::AspifReader`]).

use crate::program::{
    Atom, BodyRef, ExternalValue, HeadKind, HeuristicModifier, Lit, ProgramSink, TheoryStatement, WeightLit,
};
use std::fmt::Display;
use std::io::Write;

pub struct AspifWriter<W: Write> {
    out: W,
    header_written: bool,
}

impl<W: Write> AspifWriter<W> {
    pub fn new(out: W) -> Self {
        AspifWriter { out, header_written: false }
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    fn put(&mut self, x: impl Display) -> Result<(), String> {
        write!(self.out, " {x}").map_err(|e| e.to_string())
    }

    fn start(&mut self, ty: u8) -> Result<(), String> {
        write!(self.out, "{ty}").map_err(|e| e.to_string())
    }

    fn end(&mut self) -> Result<(), String> {
        self.out.write_all(b"\n").map_err(|e| e.to_string())
    }

    fn list<T: Display + Copy>(&mut self, items: &[T]) -> Result<(), String> {
        self.put(items.len())?;
        items.iter().try_for_each(|&x| self.put(x))
    }

    fn wlits(&mut self, lits: &[WeightLit]) -> Result<(), String> {
        self.put(lits.len())?;
        lits.iter().try_for_each(|w| {
            self.put(w.lit)?;
            self.put(w.weight)
        })
    }

    fn string(&mut self, s: &[u8]) -> Result<(), String> {
        self.put(s.len())?;
        self.out.write_all(b" ").and_then(|_| self.out.write_all(s)).map_err(|e| e.to_string())
    }
}

impl<W: Write> ProgramSink for AspifWriter<W> {
    fn begin_step(&mut self, incremental: bool) -> Result<(), String> {
        if !self.header_written {
            self.header_written = true;
            let tag = if incremental { " incremental" } else { "" };
            writeln!(self.out, "asp 1 0 0{tag}").map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn rule(&mut self, head: HeadKind, atoms: &[Atom], body: BodyRef<'_>) -> Result<(), String> {
        self.start(1)?;
        self.put(u8::from(head == HeadKind::Choice))?;
        self.list(atoms)?;
        match body {
            BodyRef::Normal(lits) => {
                self.put(0)?;
                self.list(lits)?;
            }
            BodyRef::Weight { bound, lits } => {
                self.put(1)?;
                self.put(bound)?;
                self.wlits(lits)?;
            }
        }
        self.end()
    }

    fn minimize(&mut self, priority: i32, lits: &[WeightLit]) -> Result<(), String> {
        self.start(2)?;
        self.put(priority)?;
        self.wlits(lits)?;
        self.end()
    }

    fn project(&mut self, atoms: &[Atom]) -> Result<(), String> {
        self.start(3)?;
        self.list(atoms)?;
        self.end()
    }

    fn output(&mut self, name: &[u8], condition: &[Lit]) -> Result<(), String> {
        self.start(4)?;
        self.string(name)?;
        self.list(condition)?;
        self.end()
    }

    fn external(&mut self, atom: Atom, value: ExternalValue) -> Result<(), String> {
        self.start(5)?;
        self.put(atom)?;
        self.put(value.code())?;
        self.end()
    }

    fn assume(&mut self, lits: &[Lit]) -> Result<(), String> {
        self.start(6)?;
        self.list(lits)?;
        self.end()
    }

    fn heuristic(
        &mut self,
        atom: Atom,
        modifier: HeuristicModifier,
        bias: i32,
        priority: u32,
        condition: &[Lit],
    ) -> Result<(), String> {
        self.start(7)?;
        self.put(modifier.code())?;
        self.put(atom)?;
        self.put(bias)?;
        self.put(priority)?;
        self.list(condition)?;
        self.end()
    }

    fn edge(&mut self, u: i32, v: i32, condition: &[Lit]) -> Result<(), String> {
        self.start(8)?;
        self.put(u)?;
        self.put(v)?;
        self.list(condition)?;
        self.end()
    }

    fn theory(&mut self, t: TheoryStatement) -> Result<(), String> {
        self.start(9)?;
        match t {
            TheoryStatement::Number { id, value } => {
                self.put(0)?;
                self.put(id)?;
                self.put(value)?;
            }
            TheoryStatement::Symbol { id, name } => {
                self.put(1)?;
                self.put(id)?;
                self.string(&name)?;
            }
            TheoryStatement::Compound { id, functor, args } => {
                self.put(2)?;
                self.put(id)?;
                self.put(functor)?;
                self.list(&args)?;
            }
            TheoryStatement::Element { id, terms, condition } => {
                self.put(4)?;
                self.put(id)?;
                self.list(&terms)?;
                self.list(&condition)?;
            }
            TheoryStatement::Atom { atom, term, elements, guard } => {
                self.put(if guard.is_some() { 6 } else { 5 })?;
                self.put(atom)?;
                self.put(term)?;
                self.list(&elements)?;
                if let Some((g, rhs)) = guard {
                    self.put(g)?;
                    self.put(rhs)?;
                }
            }
        }
        self.end()
    }

    fn end_step(&mut self) -> Result<(), String> {
        self.out.write_all(b"0\n").map_err(|e| e.to_string())
    }
}
