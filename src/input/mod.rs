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

use crate::program::{Program, ProgramBuilder, ProgramSink};
use std::io::Read;

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

/// Where the input comes from: a file, or standard input for `-` or no file.
pub fn load(path: Option<&str>) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    match path {
        None | Some("-") => {
            std::io::stdin().lock().read_to_end(&mut buf)?;
        }
        Some(p) => {
            std::fs::File::open(p)?.read_to_end(&mut buf)?;
        }
    }
    Ok(buf)
}
