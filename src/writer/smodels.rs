//! Prints statements as smodels, for the programs that format can express.
//!
//! Rules keep their order; single-literal integrity constraints go to `B+`/`B-`, other
//! constraints get a `false` atom listed in `B-`, and weight bodies under choice or disjunctive
//! heads, and outputs whose condition is not one atom, go through auxiliary atoms (numbered from
//! the first free atom given at construction). Minimize statements are written in place when their
//! priorities already increase in input order, and sorted (same priorities merged) otherwise.
//! Projection, assumptions, heuristics, edges, theory statements and negative minimize weights
//! have no smodels form and are refused.

use crate::program::{
    Atom, BodyRef, ExternalValue, HeadKind, HeuristicModifier, Lit, ProgramSink, TheoryStatement, WeightLit,
    atom_of,
};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;

enum Piece {
    Text(String),
    Minimize(usize),
}

pub struct SmodelsWriter<W: Write> {
    out: W,
    pieces: Vec<Piece>,
    minimize: Vec<(i32, Vec<WeightLit>)>,
    symbols: String,
    b_plus: Vec<Atom>,
    b_minus: Vec<Atom>,
    free_externals: Vec<Atom>,
    false_atom: Option<Atom>,
    next_aux: Atom,
    models: u64,
    incremental: bool,
}

fn io(e: std::io::Error) -> String {
    e.to_string()
}

impl<W: Write> SmodelsWriter<W> {
    /// A writer that may use atoms from `first_free` on for `false` and auxiliary atoms.
    pub fn new(out: W, first_free: Atom) -> Self {
        SmodelsWriter {
            out,
            pieces: Vec::new(),
            minimize: Vec::new(),
            symbols: String::new(),
            b_plus: Vec::new(),
            b_minus: Vec::new(),
            free_externals: Vec::new(),
            false_atom: None,
            next_aux: first_free,
            models: 1,
            incremental: false,
        }
    }

    /// The output, or the error from `end_step` if the program could not be expressed.
    pub fn into_inner(self) -> Result<W, String> {
        Ok(self.out)
    }

    fn aux(&mut self) -> Atom {
        let a = self.next_aux;
        self.next_aux += 1;
        a
    }

    fn false_atom(&mut self) -> Atom {
        if let Some(f) = self.false_atom {
            return f;
        }
        let f = self.aux();
        self.false_atom = Some(f);
        self.b_minus.push(f);
        f
    }

    fn line(&mut self, text: String) {
        self.pieces.push(Piece::Text(text));
    }

    /// ` n neg negs... poss...`
    fn body(s: &mut String, lits: &[Lit]) {
        let neg = lits.iter().filter(|&&l| l < 0).count();
        let _ = write!(s, " {} {}", lits.len(), neg);
        for &l in lits.iter().filter(|&&l| l < 0).chain(lits.iter().filter(|&&l| l > 0)) {
            let _ = write!(s, " {}", atom_of(l));
        }
    }

    /// A weight rule (`2` when all weights are 1, else `5`) with one head atom.
    fn weight_rule(&mut self, head: Atom, bound: i64, lits: &[WeightLit]) {
        let bound = bound.max(0);
        let neg: Vec<&WeightLit> = lits.iter().filter(|w| w.lit < 0).collect();
        let pos: Vec<&WeightLit> = lits.iter().filter(|w| w.lit > 0).collect();
        let ordered = neg.iter().chain(pos.iter());
        let mut s = String::new();
        if lits.iter().all(|w| w.weight == 1) {
            let _ = write!(s, "2 {head} {} {} {bound}", lits.len(), neg.len());
            ordered.for_each(|w| {
                let _ = write!(s, " {}", atom_of(w.lit));
            });
        } else {
            let _ = write!(s, "5 {head} {bound} {} {}", lits.len(), neg.len());
            ordered.clone().for_each(|w| {
                let _ = write!(s, " {}", atom_of(w.lit));
            });
            ordered.for_each(|w| {
                let _ = write!(s, " {}", w.weight);
            });
        }
        self.line(s);
    }

    fn minimize_line(lits: &[WeightLit]) -> String {
        let neg: Vec<&WeightLit> = lits.iter().filter(|w| w.lit < 0).collect();
        let pos: Vec<&WeightLit> = lits.iter().filter(|w| w.lit > 0).collect();
        let mut s = format!("6 0 {} {}", lits.len(), neg.len());
        neg.iter().chain(pos.iter()).for_each(|w| {
            let _ = write!(s, " {}", atom_of(w.lit));
        });
        neg.iter().chain(pos.iter()).for_each(|w| {
            let _ = write!(s, " {}", w.weight);
        });
        s
    }
}

impl<W: Write> ProgramSink for SmodelsWriter<W> {
    fn begin_step(&mut self, incremental: bool) -> Result<(), String> {
        self.incremental = incremental;
        Ok(())
    }

    fn rule(&mut self, head: HeadKind, atoms: &[Atom], body: BodyRef<'_>) -> Result<(), String> {
        match (head, atoms.len(), body) {
            (HeadKind::Disjunction, 0, BodyRef::Normal(&[l])) => {
                if l > 0 {
                    self.b_minus.push(l as Atom)
                } else {
                    self.b_plus.push(atom_of(l))
                }
            }
            (HeadKind::Disjunction, 0, BodyRef::Normal(lits)) => {
                let f = self.false_atom();
                let mut s = format!("1 {f}");
                Self::body(&mut s, lits);
                self.line(s);
            }
            (HeadKind::Disjunction, 1, BodyRef::Normal(lits)) => {
                let mut s = format!("1 {}", atoms[0]);
                Self::body(&mut s, lits);
                self.line(s);
            }
            (_, _, BodyRef::Normal(lits)) => {
                let ty = if head == HeadKind::Choice { 3 } else { 8 };
                let mut s = format!("{ty} {}", atoms.len());
                atoms.iter().for_each(|a| {
                    let _ = write!(s, " {a}");
                });
                Self::body(&mut s, lits);
                self.line(s);
            }
            (HeadKind::Disjunction, 0 | 1, BodyRef::Weight { bound, lits }) => {
                let h = if atoms.is_empty() { self.false_atom() } else { atoms[0] };
                self.weight_rule(h, bound, lits);
            }
            (_, _, BodyRef::Weight { bound, lits }) => {
                let aux = self.aux();
                self.weight_rule(aux, bound, lits);
                return self.rule(head, atoms, BodyRef::Normal(&[aux as Lit]));
            }
        }
        Ok(())
    }

    fn minimize(&mut self, priority: i32, lits: &[WeightLit]) -> Result<(), String> {
        if lits.iter().any(|w| w.weight < 0) {
            return Err("smodels cannot express negative minimize weights".into());
        }
        self.pieces.push(Piece::Minimize(self.minimize.len()));
        self.minimize.push((priority, lits.to_vec()));
        Ok(())
    }

    fn project(&mut self, _: &[Atom]) -> Result<(), String> {
        Err("smodels cannot express projection".into())
    }

    fn output(&mut self, name: &[u8], condition: &[Lit]) -> Result<(), String> {
        if name.contains(&b'\n') || name.is_empty() {
            return Err("smodels cannot express an empty name or one with a newline".into());
        }
        let atom = match *condition {
            [l] if l > 0 => l as Atom,
            _ => {
                let aux = self.aux();
                self.rule(HeadKind::Disjunction, &[aux], BodyRef::Normal(condition))?;
                aux
            }
        };
        let _ = writeln!(self.symbols, "{atom} {}", String::from_utf8_lossy(name));
        Ok(())
    }

    fn external(&mut self, atom: Atom, value: ExternalValue) -> Result<(), String> {
        match value {
            ExternalValue::Free => self.free_externals.push(atom),
            ExternalValue::True => self.line(format!("91 {atom} 1")),
            ExternalValue::False => self.line(format!("91 {atom} 0")),
            ExternalValue::Release => self.line(format!("92 {atom}")),
        }
        Ok(())
    }

    fn assume(&mut self, _: &[Lit]) -> Result<(), String> {
        Err("smodels cannot express assumptions".into())
    }

    fn heuristic(&mut self, _: Atom, _: HeuristicModifier, _: i32, _: u32, _: &[Lit]) -> Result<(), String> {
        Err("smodels cannot express heuristic statements".into())
    }

    fn edge(&mut self, _: i32, _: i32, _: &[Lit]) -> Result<(), String> {
        Err("smodels cannot express edge statements".into())
    }

    fn theory(&mut self, _: TheoryStatement) -> Result<(), String> {
        Err("smodels cannot express theory statements".into())
    }

    fn requested_models(&mut self, count: u64) -> Result<(), String> {
        self.models = count;
        Ok(())
    }

    fn end_step(&mut self) -> Result<(), String> {
        let in_order = self.minimize.windows(2).all(|w| w[0].0 < w[1].0);
        let mut text = String::new();
        if self.incremental {
            text.push_str("90 0\n");
        }
        for p in &self.pieces {
            match p {
                Piece::Text(t) => {
                    text.push_str(t);
                    text.push('\n');
                }
                Piece::Minimize(i) if in_order => {
                    text.push_str(&Self::minimize_line(&self.minimize[*i].1));
                    text.push('\n');
                }
                Piece::Minimize(_) => {}
            }
        }
        if !in_order {
            let mut by_prio: BTreeMap<i32, Vec<WeightLit>> = BTreeMap::new();
            for (p, l) in &self.minimize {
                by_prio.entry(*p).or_default().extend_from_slice(l);
            }
            for lits in by_prio.values() {
                text.push_str(&Self::minimize_line(lits));
                text.push('\n');
            }
        }
        text.push_str("0\n");
        text.push_str(&self.symbols);
        text.push_str("0\nB+\n");
        self.b_plus.iter().for_each(|a| {
            let _ = writeln!(text, "{a}");
        });
        text.push_str("0\nB-\n");
        self.b_minus.iter().for_each(|a| {
            let _ = writeln!(text, "{a}");
        });
        text.push_str("0\n");
        if !self.free_externals.is_empty() {
            text.push_str("E\n");
            self.free_externals.iter().for_each(|a| {
                let _ = writeln!(text, "{a}");
            });
            text.push_str("0\n");
        }
        let _ = writeln!(text, "{}", self.models);
        self.pieces.clear();
        self.minimize.clear();
        self.symbols.clear();
        self.b_plus.clear();
        self.b_minus.clear();
        self.free_externals.clear();
        self.out.write_all(text.as_bytes()).map_err(io)
    }
}
