//! The ground program: the statement vocabulary shared by readers and writers, and the model they fill.
//!
//! Every reader pushes statements into a [`ProgramSink`]; the [`ProgramBuilder`] is the sink that
//! renumbers atoms densely and stores a [`Program`], and the writers in [`crate::writer`] are sinks
//! that print a format again. This mirrors libpotassco's `AbstractProgram`: converting aspif to
//! smodels is a reader feeding a writer, and tests can read into any sink.
//!
//! Atoms are positive integers, literals are signed atoms (`-3` is `not 3`), exactly as in aspif.
//! In a [`Program`] atoms are dense (`1..=atom_count`); at the sink interface they carry whatever
//! numbers the input used.

mod atom_map;
mod builder;
pub mod deps;
mod model;
#[cfg(test)]
pub mod random;
mod shown;

pub use builder::ProgramBuilder;
pub use model::{Body, Edge, Heuristic, Minimize, Output, Program, Rule, Statement};
pub use shown::{ShownTable, trivially_true};

/// An atom number (>= 1).
pub type Atom = u32;
/// A literal: a positive atom or a negated one (never 0).
pub type Lit = i32;
/// A weight in a weight body or a minimize statement.
pub type Weight = i64;

/// The largest atom number any reader accepts (aspif and smodels both use signed 32-bit literals).
pub const MAX_ATOM: Atom = i32::MAX as Atom;

/// The atom of a literal.
#[inline]
pub fn atom_of(lit: Lit) -> Atom {
    lit.unsigned_abs()
}

/// Whether a rule's head is a disjunction (a normal rule has one atom, a constraint none) or a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeadKind {
    Disjunction,
    Choice,
}

/// A literal with its weight, as in weight bodies and minimize statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WeightLit {
    pub lit: Lit,
    pub weight: Weight,
}

/// A rule body as readers pass it to a sink.
#[derive(Clone, Copy, Debug)]
pub enum BodyRef<'a> {
    /// A conjunction of literals.
    Normal(&'a [Lit]),
    /// Holds when the weights of the true literals add up to at least `bound`.
    Weight { bound: Weight, lits: &'a [WeightLit] },
}

/// The value an external atom is declared with (aspif statement 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExternalValue {
    Free,
    True,
    False,
    Release,
}

impl ExternalValue {
    pub fn from_code(code: i64) -> Option<Self> {
        Some(match code {
            0 => Self::Free,
            1 => Self::True,
            2 => Self::False,
            3 => Self::Release,
            _ => return None,
        })
    }
    pub fn code(self) -> u8 {
        match self {
            Self::Free => 0,
            Self::True => 1,
            Self::False => 2,
            Self::Release => 3,
        }
    }
}

/// The modifier of a heuristic statement (aspif statement 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicModifier {
    Level,
    Sign,
    Factor,
    Init,
    True,
    False,
}

impl HeuristicModifier {
    pub fn from_code(code: i64) -> Option<Self> {
        Some(match code {
            0 => Self::Level,
            1 => Self::Sign,
            2 => Self::Factor,
            3 => Self::Init,
            4 => Self::True,
            5 => Self::False,
            _ => return None,
        })
    }
    pub fn code(self) -> u8 {
        match self {
            Self::Level => 0,
            Self::Sign => 1,
            Self::Factor => 2,
            Self::Init => 3,
            Self::True => 4,
            Self::False => 5,
        }
    }
}

/// One theory statement (aspif statement 9), kept verbatim so a later stage can refuse or use it.
/// Term and element ids are the input's own; atoms and literals are renumbered like all others.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TheoryStatement {
    /// `9 0 u w`: numeric term `u` with value `w`.
    Number { id: u32, value: i32 },
    /// `9 1 u n s`: symbolic term `u` named `s`.
    Symbol { id: u32, name: Vec<u8> },
    /// `9 2 u t k u1..uk`: compound term `u`; `t` >= 0 is a term id, -1 a tuple, -2 a set, -3 a list.
    Compound { id: u32, functor: i32, args: Vec<u32> },
    /// `9 4 v n u1..un m l1..lm`: element `v` with its terms and condition.
    Element { id: u32, terms: Vec<u32>, condition: Vec<Lit> },
    /// `9 5 a t k v1..vk` (no guard) or `9 6 a t k v1..vk g u` (with guard `g` and right term `u`).
    /// `atom` is 0 for a theory directive.
    Atom { atom: Atom, term: u32, elements: Vec<u32>, guard: Option<(u32, u32)> },
}

/// Where statements go: implemented by the program builder, the writers and test observers.
///
/// Readers call `begin_step`, then any statements, then `end_step`, once per step of the input.
/// A sink may reject a statement (for instance a writer for a format that cannot express it).
pub trait ProgramSink {
    /// Starts a step; `incremental` is set when the input declared more steps may follow.
    fn begin_step(&mut self, incremental: bool) -> Result<(), String>;
    fn rule(&mut self, head: HeadKind, atoms: &[Atom], body: BodyRef<'_>) -> Result<(), String>;
    fn minimize(&mut self, priority: i32, lits: &[WeightLit]) -> Result<(), String>;
    fn project(&mut self, atoms: &[Atom]) -> Result<(), String>;
    fn output(&mut self, name: &[u8], condition: &[Lit]) -> Result<(), String>;
    fn external(&mut self, atom: Atom, value: ExternalValue) -> Result<(), String>;
    fn assume(&mut self, lits: &[Lit]) -> Result<(), String>;
    fn heuristic(
        &mut self,
        atom: Atom,
        modifier: HeuristicModifier,
        bias: i32,
        priority: u32,
        condition: &[Lit],
    ) -> Result<(), String>;
    fn edge(&mut self, u: i32, v: i32, condition: &[Lit]) -> Result<(), String>;
    fn theory(&mut self, statement: TheoryStatement) -> Result<(), String>;
    /// The number of models the input asks for (smodels' trailing count); the solve options'
    /// count, where given, overrides it.
    fn requested_models(&mut self, _count: u64) -> Result<(), String> {
        Ok(())
    }
    fn end_step(&mut self) -> Result<(), String>;
}
