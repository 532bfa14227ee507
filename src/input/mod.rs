//! Reading ground programs: format detection, the aspif and smodels readers, and input sources.
//!
//! Both readers push statements into a [`ProgramSink`]; a step at a time, so that incremental
//! inputs can be solved between steps.

mod aspif;
mod cursor;
mod smodels;

pub use aspif::AspifReader;
pub use cursor::ReadError;
pub use smodels::SmodelsReader;

use crate::program::{
    Atom, BodyRef, ExternalValue, HeadKind, HeuristicModifier, Lit, Program, ProgramBuilder, ProgramSink,
    TheoryStatement, WeightLit,
};
use crate::stop::{Stop, StopToken};
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd};

/// The two formats gringo writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Aspif,
    Smodels,
}

impl Format {
    /// `asp ...` on the first line is aspif, anything else smodels.
    pub fn detect(input: &[u8]) -> Format {
        if input.starts_with(b"asp") { Format::Aspif } else { Format::Smodels }
    }
}

/// A reader of either format.
pub enum Reader<'a> {
    Aspif(AspifReader<'a>),
    Smodels(SmodelsReader<'a>),
}

impl<'a> Reader<'a> {
    pub fn new(input: &'a [u8]) -> Result<Self, ReadError> {
        if input.iter().all(|b| b.is_ascii_whitespace()) {
            return Err(ReadError {
                line: 1,
                column: 1,
                message: "empty input: expected a ground program (aspif or smodels)".into(),
            });
        }
        Ok(match Format::detect(input) {
            Format::Aspif => Reader::Aspif(AspifReader::new(input)?),
            Format::Smodels => Reader::Smodels(SmodelsReader::new(input)),
        })
    }

    pub fn format(&self) -> Format {
        match self {
            Reader::Aspif(_) => Format::Aspif,
            Reader::Smodels(_) => Format::Smodels,
        }
    }

    /// Whether another step is there to read.
    pub fn has_step(&mut self) -> bool {
        match self {
            Reader::Aspif(r) => r.has_step(),
            Reader::Smodels(r) => r.has_step(),
        }
    }

    pub fn read_step(&mut self, sink: &mut dyn ProgramSink) -> Result<(), ReadError> {
        match self {
            Reader::Aspif(r) => r.read_step(sink),
            Reader::Smodels(r) => r.read_step(sink),
        }
    }
}

/// Reads every step of `input` into `sink`.
pub fn read_into(input: &[u8], sink: &mut dyn ProgramSink) -> Result<Format, ReadError> {
    let mut reader = Reader::new(input)?;
    while reader.has_step() {
        reader.read_step(sink)?;
    }
    Ok(reader.format())
}

/// Reads a whole program (all steps accumulated).
pub fn read_program(input: &[u8]) -> Result<Program, ReadError> {
    let mut builder = ProgramBuilder::new(input.len());
    read_into(input, &mut builder)?;
    Ok(builder.into_program())
}

/// What loading the input gave: its bytes, or the stop that came first.
pub enum Loaded {
    Bytes(Inputs),
    Stopped(Stop),
}

/// The inputs, read one after another into one stream as clasp reads several files (what
/// follows the end of the first program is not read), and where each begins, to name the file
/// of a line.
pub struct Inputs {
    pub bytes: Vec<u8>,
    /// Per input: its name (`stdin` where no file was given) and its first line in the stream.
    parts: Vec<(String, usize)>,
}

impl Inputs {
    /// The name clasp's header gives: the first input's, with ` ...` after it if there are more.
    pub fn title(&self) -> String {
        let first = self.parts.first().map_or("stdin", |p| p.0.as_str());
        if self.parts.len() > 1 { format!("{first} ...") } else { first.to_string() }
    }

    /// The input and the line within it of the stream's `line` (from 1).
    pub fn locate(&self, line: usize) -> (&str, usize) {
        let (name, first) = self.parts.iter().rev().find(|p| p.1 <= line).unwrap_or(&self.parts[0]);
        (name, line - first + 1)
    }
}

/// The error of an input that cannot be read, naming it.
pub struct Unreadable {
    pub name: String,
    pub error: std::io::Error,
}

/// Reads the inputs (`-` is standard input, as is none), one after another.
pub fn load(paths: &[String], stop: &StopToken) -> Result<Loaded, Unreadable> {
    let stdin = [String::from("stdin")];
    let names = if paths.is_empty() { &stdin[..] } else { paths };
    let mut inputs = Inputs { bytes: Vec::new(), parts: Vec::new() };
    let mut line = 1;
    for name in names {
        let path = (name != "-" && !paths.is_empty()).then_some(name.as_str());
        // An input whose last line has no line break ends there, as clasp reads one stream.
        if inputs.bytes.last().is_some_and(|&b| b != b'\n') {
            inputs.bytes.push(b'\n');
            line += 1;
        }
        let start = inputs.bytes.len();
        inputs.parts.push((name.clone(), line));
        match load_one(path, &mut inputs.bytes, stop) {
            Ok(None) => {}
            Ok(Some(why)) => return Ok(Loaded::Stopped(why)),
            Err(error) => return Err(Unreadable { name: name.clone(), error }),
        }
        line += inputs.bytes[start..].iter().filter(|&&b| b == b'\n').count();
    }
    Ok(Loaded::Bytes(inputs))
}

/// Appends a file, or standard input for `None`, to `buf`, polling `stop` between chunks, and
/// while standard input has nothing to read (a grounder still at work) every 100 ms.
fn load_one(path: Option<&str>, buf: &mut Vec<u8>, stop: &StopToken) -> std::io::Result<Option<Stop>> {
    let file = path.map(std::fs::File::open).transpose()?;
    // SAFETY: fd 0 stays open for the process's life; ManuallyDrop never closes it.
    let stdin = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(0) });
    let mut src: &std::fs::File = file.as_ref().unwrap_or(&stdin);
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        if let Some(s) = stop.reached() {
            return Ok(Some(s));
        }
        let mut p = libc::pollfd { fd: src.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        // SAFETY: one valid pollfd.
        if unsafe { libc::poll(&mut p, 1, 100) } == 0 {
            continue;
        }
        match src.read(&mut chunk) {
            Ok(0) => return Ok(None),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// A sink that passes every statement on to another, polling a stop token as it goes (reading a
/// large input takes seconds); once stopped it refuses the next statement and says why.
pub struct Polled<'s> {
    sink: &'s mut dyn ProgramSink,
    stop: &'s StopToken,
    count: usize,
    pub stopped: Option<Stop>,
}

impl<'s> Polled<'s> {
    pub fn new(sink: &'s mut dyn ProgramSink, stop: &'s StopToken) -> Self {
        Polled { sink, stop, count: 0, stopped: None }
    }

    fn poll(&mut self) -> Result<(), String> {
        self.count += 1;
        match self.stop.check_every(self.count) {
            Ok(()) => Ok(()),
            Err(i) => {
                self.stopped = Some(i.0);
                Err("stopped".into())
            }
        }
    }
}

impl ProgramSink for Polled<'_> {
    fn begin_step(&mut self, incremental: bool) -> Result<(), String> {
        self.poll()?;
        self.sink.begin_step(incremental)
    }
    fn rule(&mut self, head: HeadKind, atoms: &[Atom], body: BodyRef<'_>) -> Result<(), String> {
        self.poll()?;
        self.sink.rule(head, atoms, body)
    }
    fn minimize(&mut self, priority: i32, lits: &[WeightLit]) -> Result<(), String> {
        self.poll()?;
        self.sink.minimize(priority, lits)
    }
    fn project(&mut self, atoms: &[Atom]) -> Result<(), String> {
        self.poll()?;
        self.sink.project(atoms)
    }
    fn output(&mut self, name: &[u8], condition: &[Lit]) -> Result<(), String> {
        self.poll()?;
        self.sink.output(name, condition)
    }
    fn external(&mut self, atom: Atom, value: ExternalValue) -> Result<(), String> {
        self.poll()?;
        self.sink.external(atom, value)
    }
    fn assume(&mut self, lits: &[Lit]) -> Result<(), String> {
        self.poll()?;
        self.sink.assume(lits)
    }
    fn heuristic(
        &mut self,
        atom: Atom,
        modifier: HeuristicModifier,
        bias: i32,
        priority: u32,
        condition: &[Lit],
    ) -> Result<(), String> {
        self.poll()?;
        self.sink.heuristic(atom, modifier, bias, priority, condition)
    }
    fn edge(&mut self, u: i32, v: i32, condition: &[Lit]) -> Result<(), String> {
        self.poll()?;
        self.sink.edge(u, v, condition)
    }
    fn theory(&mut self, statement: TheoryStatement) -> Result<(), String> {
        self.poll()?;
        self.sink.theory(statement)
    }
    fn requested_models(&mut self, count: u64) -> Result<(), String> {
        self.sink.requested_models(count)
    }
    fn end_step(&mut self) -> Result<(), String> {
        self.sink.end_step()
    }
}
