//! Writers: sinks that print a program again, in aspif or (where it can express it) smodels.
//!
//! With the readers they give conversion (a reader feeding a writer) and the round-trip tests
//! (read, write, read again: the same [`crate::program::Program`]).

mod aspif;
mod smodels;

pub use aspif::AspifWriter;
pub use smodels::SmodelsWriter;

use crate::program::Program;

/// The program in aspif.
pub fn to_aspif(program: &Program) -> Result<Vec<u8>, String> {
    let mut w = AspifWriter::new(Vec::new());
    program.emit(&mut w)?;
    Ok(w.into_inner())
}

/// The program in smodels; atoms above the program's own are used for `false` and auxiliaries.
pub fn to_smodels(program: &Program) -> Result<Vec<u8>, String> {
    let mut w = SmodelsWriter::new(Vec::new(), program.atom_count() + 1);
    program.emit(&mut w)?;
    w.into_inner()
}
