//! Reader for aspif, gringo's default output (`asp 1 0 0`), statement types 0-10, step by step.

use super::cursor::{Cursor, ReadError};
use crate::program::{
    Atom, BodyRef, ExternalValue, HeadKind, HeuristicModifier, Lit, ProgramSink, TheoryStatement, WeightLit,
};

/// Reads an aspif program one step at a time into a sink.
pub struct AspifReader<'a> {
    cur: Cursor<'a>,
    incremental: bool,
    steps: u32,
    atoms: Vec<Atom>,
    lits: Vec<Lit>,
    wlits: Vec<WeightLit>,
}

impl<'a> AspifReader<'a> {
    /// Reads the header; the input must start with `asp`.
    pub fn new(input: &'a [u8]) -> Result<Self, ReadError> {
        let mut cur = Cursor::new(input);
        if !cur.keyword(b"asp") {
            return Err(cur.error("expected the aspif header 'asp 1 0 0'"));
        }
        cur.int_in("major version", 1, 1)?;
        cur.int_in("minor version", 0, 0)?;
        cur.int_in("revision", 0, i64::from(u32::MAX))?;
        let mut incremental = false;
        let tag_at = cur.position();
        let tags = std::str::from_utf8(cur.rest_of_line()).unwrap_or("?");
        for t in tags.split_ascii_whitespace() {
            match t {
                "incremental" => incremental = true,
                other => {
                    let msg = format!("unknown header tag '{other}' (expected 'incremental')");
                    return Err(cur.error_at(tag_at, msg));
                }
            }
        }
        Ok(AspifReader { cur, incremental, steps: 0, atoms: Vec::new(), lits: Vec::new(), wlits: Vec::new() })
    }

    /// Whether another step follows (the first step is always there, if only to be missing).
    pub fn has_step(&mut self) -> bool {
        self.steps == 0 || !self.cur.at_end()
    }

    /// Reads one step (up to and including its terminating `0`) into `sink`.
    pub fn read_step(&mut self, sink: &mut dyn ProgramSink) -> Result<(), ReadError> {
        if self.steps > 0 && !self.incremental {
            return Err(self
                .cur
                .error("input continues after the end of a program without the 'incremental' tag"));
        }
        self.steps += 1;
        let at = self.cur.position();
        sink.begin_step(self.incremental).map_err(|e| self.cur.error_at(at, e))?;
        loop {
            if self.cur.at_end() {
                return Err(self.cur.error("unexpected end of input: missing the '0' that ends a step"));
            }
            let at = self.cur.position();
            let ty = self.cur.int("a statement type (0-10)")?;
            let res = match ty {
                0 => {
                    self.cur.end_line()?;
                    sink.end_step().map_err(|e| self.cur.error_at(at, e))?;
                    return Ok(());
                }
                1 => self.rule(sink)?,
                2 => {
                    let prio = self.cur.i32("a priority")?;
                    self.weight_lits(false)?;
                    sink.minimize(prio, &self.wlits)
                }
                3 => {
                    self.atoms_list()?;
                    sink.project(&self.atoms)
                }
                4 => {
                    let len = self.cur.count("a string length")?;
                    let name = self.cur.string(len)?;
                    self.lits_list()?;
                    sink.output(name, &self.lits)
                }
                5 => {
                    let atom = self.cur.atom()?;
                    let v =
                        self.cur.int_in("an external value (0 free, 1 true, 2 false, 3 release)", 0, 3)?;
                    sink.external(atom, ExternalValue::from_code(v).expect("range checked"))
                }
                6 => {
                    self.lits_list()?;
                    sink.assume(&self.lits)
                }
                7 => {
                    let m = self.cur.int_in("a heuristic modifier (0-5)", 0, 5)?;
                    let atom = self.cur.atom()?;
                    let bias = self.cur.i32("a bias")?;
                    let prio = self.cur.u32("a non-negative priority")?;
                    self.lits_list()?;
                    let m = HeuristicModifier::from_code(m).expect("range checked");
                    sink.heuristic(atom, m, bias, prio, &self.lits)
                }
                8 => {
                    let u = self.cur.i32("a start node")?;
                    let v = self.cur.i32("an end node")?;
                    self.lits_list()?;
                    sink.edge(u, v, &self.lits)
                }
                9 => {
                    let t = self.theory()?;
                    sink.theory(t)
                }
                10 => {
                    self.cur.skip_line();
                    continue;
                }
                _ => {
                    return Err(self
                        .cur
                        .error_at(at, format!("unknown statement type {ty} (expected 0-10)")));
                }
            };
            res.map_err(|e| self.cur.error_at(at, e))?;
            self.cur.end_line()?;
        }
    }

    fn rule(&mut self, sink: &mut dyn ProgramSink) -> Result<Result<(), String>, ReadError> {
        let kind = match self.cur.int_in("a head type (0 disjunction, 1 choice)", 0, 1)? {
            0 => HeadKind::Disjunction,
            _ => HeadKind::Choice,
        };
        self.atoms_list()?;
        let body_type = self.cur.int_in("a body type (0 normal, 1 weight)", 0, 1)?;
        Ok(if body_type == 0 {
            self.lits_list()?;
            sink.rule(kind, &self.atoms, BodyRef::Normal(&self.lits))
        } else {
            let bound = self.cur.i32("a lower bound")?;
            self.weight_lits(true)?;
            sink.rule(kind, &self.atoms, BodyRef::Weight { bound: i64::from(bound), lits: &self.wlits })
        })
    }

    fn atoms_list(&mut self) -> Result<(), ReadError> {
        self.atoms.clear();
        let n = self.cur.count("a number of atoms")?;
        for _ in 0..n {
            let a = self.cur.atom()?;
            self.atoms.push(a);
        }
        Ok(())
    }

    fn lits_list(&mut self) -> Result<(), ReadError> {
        self.lits.clear();
        let n = self.cur.count("a number of literals")?;
        for _ in 0..n {
            let l = self.cur.lit()?;
            self.lits.push(l);
        }
        Ok(())
    }

    fn weight_lits(&mut self, non_negative: bool) -> Result<(), ReadError> {
        self.wlits.clear();
        let n = self.cur.count("a number of literals")?;
        for _ in 0..n {
            let lit = self.cur.lit()?;
            let weight = if non_negative {
                i64::from(self.cur.u32("a non-negative weight")?)
            } else {
                i64::from(self.cur.i32("a weight")?)
            };
            self.wlits.push(WeightLit { lit, weight });
        }
        Ok(())
    }

    fn ids(&mut self, what: &str) -> Result<Vec<u32>, ReadError> {
        let n = self.cur.count(what)?;
        let mut ids = Vec::new();
        for _ in 0..n {
            ids.push(self.cur.u32("an id")?);
        }
        Ok(ids)
    }

    fn theory(&mut self) -> Result<TheoryStatement, ReadError> {
        let at = self.cur.peek_pos();
        let sub = self.cur.int("a theory statement type (0, 1, 2, 4, 5 or 6)")?;
        Ok(match sub {
            0 => {
                let id = self.cur.u32("a term id")?;
                TheoryStatement::Number { id, value: self.cur.i32("a number")? }
            }
            1 => {
                let id = self.cur.u32("a term id")?;
                let len = self.cur.count("a string length")?;
                TheoryStatement::Symbol { id, name: self.cur.string(len)?.to_vec() }
            }
            2 => {
                let id = self.cur.u32("a term id")?;
                let functor = self.cur.int_in(
                    "a compound type (term id, -1 tuple, -2 set, -3 list)",
                    -3,
                    i64::from(i32::MAX),
                )? as i32;
                TheoryStatement::Compound { id, functor, args: self.ids("a number of terms")? }
            }
            4 => {
                let id = self.cur.u32("an element id")?;
                let terms = self.ids("a number of terms")?;
                self.lits_list()?;
                TheoryStatement::Element { id, terms, condition: self.lits.clone() }
            }
            5 | 6 => {
                let atom = self.cur.atom_or_zero()?;
                let term = self.cur.u32("a term id")?;
                let elements = self.ids("a number of elements")?;
                let guard = if sub == 6 {
                    Some((self.cur.u32("a guard term id")?, self.cur.u32("a term id")?))
                } else {
                    None
                };
                TheoryStatement::Atom { atom, term, elements, guard }
            }
            _ => {
                return Err(self.cur.error_at(
                    at,
                    format!("unknown theory statement type {sub} (expected 0, 1, 2, 4, 5 or 6)"),
                ));
            }
        })
    }
}
