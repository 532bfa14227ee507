//! Reader for the smodels (lparse) format: rule types 1, 2, 3, 5, 6, 8 and clasp's 90-92, the
//! symbol table, `B+`/`B-`, the optional `E` section and the trailing model count.
//!
//! smodels constructs become the same statements aspif uses: a cardinality rule is a weight body
//! with unit weights, `B+ a` is `:- not a.`, `B- a` is `:- a.`, every symbol-table entry is an
//! output statement, and each minimize statement gets the next priority (later ones weigh more).

use super::cursor::{Cursor, ReadError};
use crate::program::{Atom, BodyRef, ExternalValue, HeadKind, Lit, ProgramSink, WeightLit};

pub struct SmodelsReader<'a> {
    cur: Cursor<'a>,
    incremental: bool,
    steps: u32,
    min_priority: i32,
    atoms: Vec<Atom>,
    lits: Vec<Lit>,
    wlits: Vec<WeightLit>,
}

impl<'a> SmodelsReader<'a> {
    pub fn new(input: &'a [u8]) -> Self {
        // clasp's extension: a program that starts with rule type 90 is incremental.
        let incremental = input.starts_with(b"90 ") || input.starts_with(b"90\t");
        SmodelsReader {
            cur: Cursor::new(input),
            incremental,
            steps: 0,
            min_priority: 0,
            atoms: Vec::new(),
            lits: Vec::new(),
            wlits: Vec::new(),
        }
    }

    pub fn has_step(&mut self) -> bool {
        self.steps == 0 || !self.cur.at_end()
    }

    pub fn read_step(&mut self, sink: &mut dyn ProgramSink) -> Result<(), ReadError> {
        if self.steps > 0 && !self.incremental {
            return Err(self.cur.error("input continues after the number of models"));
        }
        self.steps += 1;
        let at = self.cur.position();
        sink.begin_step(self.incremental).map_err(|e| self.cur.error_at(at, e))?;
        self.rules(sink)?;
        self.symbols(sink)?;
        self.compute(sink, b"B+", -1)?;
        self.compute(sink, b"B-", 1)?;
        self.externals(sink)?;
        let at = self.cur.position();
        let models = self.cur.int_in("the number of models", 0, i64::MAX)?;
        self.cur.end_line()?;
        let wrap = |c: &Cursor, r: Result<(), String>| r.map_err(|e| c.error_at(at, e));
        wrap(&self.cur, sink.requested_models(models as u64))?;
        wrap(&self.cur, sink.end_step())
    }

    fn rules(&mut self, sink: &mut dyn ProgramSink) -> Result<(), ReadError> {
        loop {
            if self.cur.at_end() {
                return Err(self.cur.error("unexpected end of input in the rules section (missing '0')"));
            }
            let at = self.cur.position();
            let ty = self.cur.int("a rule type (1, 2, 3, 5, 6, 8) or 0")?;
            let res = match ty {
                0 => return self.cur.end_line(),
                1 => {
                    let head = self.cur.atom()?;
                    self.body()?;
                    sink.rule(HeadKind::Disjunction, &[head], BodyRef::Normal(&self.lits))
                }
                2 | 5 => {
                    let head = self.cur.atom()?;
                    let bound = self.weight_body(ty == 5)?;
                    sink.rule(HeadKind::Disjunction, &[head], BodyRef::Weight { bound, lits: &self.wlits })
                }
                3 | 8 => {
                    self.atoms.clear();
                    let n = self.cur.int_in("a head size", 1, i64::from(u32::MAX))?;
                    for _ in 0..n {
                        let a = self.cur.atom()?;
                        self.atoms.push(a);
                    }
                    self.body()?;
                    let kind = if ty == 3 { HeadKind::Choice } else { HeadKind::Disjunction };
                    sink.rule(kind, &self.atoms, BodyRef::Normal(&self.lits))
                }
                6 => {
                    let zero_at = self.cur.peek_pos();
                    if self.weight_body(true)? != 0 {
                        return Err(self.cur.error_at(zero_at, "expected 0 after rule type 6 (minimize)"));
                    }
                    let prio = self.min_priority;
                    self.min_priority += 1;
                    sink.minimize(prio, &self.wlits)
                }
                90 => {
                    self.cur.int_in("0 after rule type 90", 0, 0)?;
                    Ok(())
                }
                91 => {
                    let a = self.cur.atom()?;
                    let v = match self.cur.int_in("an external value (0 false, 1 true, 2 free)", 0, 2)? {
                        0 => ExternalValue::False,
                        1 => ExternalValue::True,
                        _ => ExternalValue::Free,
                    };
                    sink.external(a, v)
                }
                92 => {
                    let a = self.cur.atom()?;
                    sink.external(a, ExternalValue::Release)
                }
                _ => {
                    let msg = format!("unsupported rule type {ty} (expected 1, 2, 3, 5, 6, 8 or 0)");
                    return Err(self.cur.error_at(at, msg));
                }
            };
            res.map_err(|e| self.cur.error_at(at, e))?;
            self.cur.end_line()?;
        }
    }

    /// `n neg negs... poss...` into `self.lits`.
    fn body(&mut self) -> Result<(), ReadError> {
        self.lits.clear();
        let n = self.cur.count("the number of body literals")?;
        let neg = self.neg_count(n)?;
        for i in 0..n {
            let a = self.cur.atom()? as Lit;
            self.lits.push(if i < neg { -a } else { a });
        }
        Ok(())
    }

    fn neg_count(&mut self, n: usize) -> Result<usize, ReadError> {
        let at = self.cur.peek_pos();
        let neg = self.cur.count("the number of negative literals")?;
        if neg > n {
            return Err(self.cur.error_at(at, format!("{neg} negative literals in a body of {n}")));
        }
        Ok(neg)
    }

    /// A cardinality (`n neg bound ...`) or weight (`bound n neg ... weights`) body into
    /// `self.wlits`; returns the bound.
    fn weight_body(&mut self, weighted: bool) -> Result<i64, ReadError> {
        self.wlits.clear();
        let (bound, n, neg);
        if weighted {
            bound = self.cur.u32("a non-negative bound")?;
            n = self.cur.count("the number of body literals")?;
            neg = self.neg_count(n)?;
        } else {
            n = self.cur.count("the number of body literals")?;
            neg = self.neg_count(n)?;
            bound = self.cur.u32("a non-negative bound")?;
        }
        for i in 0..n {
            let a = self.cur.atom()? as Lit;
            self.wlits.push(WeightLit { lit: if i < neg { -a } else { a }, weight: 1 });
        }
        if weighted {
            for w in self.wlits.iter_mut() {
                w.weight = i64::from(self.cur.u32("a non-negative weight")?);
            }
        }
        Ok(i64::from(bound))
    }

    fn symbols(&mut self, sink: &mut dyn ProgramSink) -> Result<(), ReadError> {
        loop {
            if self.cur.at_end() {
                return Err(self.cur.error("unexpected end of input in the symbol table (missing '0')"));
            }
            let at = self.cur.position();
            let atom = self.cur.atom_or_zero()?;
            if atom == 0 {
                return self.cur.end_line();
            }
            if !self.cur.keyword(b" ") {
                return Err(self.cur.error("expected a blank and a name after the atom"));
            }
            let name = self.cur.rest_of_line();
            if name.is_empty() {
                return Err(self.cur.error_at(at, "expected a name after the atom"));
            }
            sink.output(name, &[atom as Lit]).map_err(|e| self.cur.error_at(at, e))?;
        }
    }

    /// `B+` / `B-` and their atoms; each becomes a constraint on `sign * atom`.
    fn compute(&mut self, sink: &mut dyn ProgramSink, word: &[u8], sign: Lit) -> Result<(), ReadError> {
        let name = String::from_utf8_lossy(word).into_owned();
        if self.cur.at_end() || !self.cur.keyword(word) {
            return Err(self.cur.error(format!("expected the compute section '{name}'")));
        }
        self.cur.end_line()?;
        loop {
            if self.cur.at_end() {
                return Err(self.cur.error(format!("unexpected end of input in '{name}' (missing '0')")));
            }
            let at = self.cur.position();
            let atom = self.cur.atom_or_zero()?;
            self.cur.end_line()?;
            if atom == 0 {
                return Ok(());
            }
            let lit = sign * atom as Lit;
            sink.rule(HeadKind::Disjunction, &[], BodyRef::Normal(&[lit]))
                .map_err(|e| self.cur.error_at(at, e))?;
        }
    }

    fn externals(&mut self, sink: &mut dyn ProgramSink) -> Result<(), ReadError> {
        if self.cur.at_end() || !self.cur.keyword(b"E") {
            return Ok(());
        }
        self.cur.end_line()?;
        loop {
            if self.cur.at_end() {
                return Err(self.cur.error("unexpected end of input in 'E' (missing '0')"));
            }
            let at = self.cur.position();
            let atom = self.cur.atom_or_zero()?;
            self.cur.end_line()?;
            if atom == 0 {
                return Ok(());
            }
            sink.external(atom, ExternalValue::Free).map_err(|e| self.cur.error_at(at, e))?;
        }
    }
}
