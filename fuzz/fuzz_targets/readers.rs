//! Fuzz target for both readers (aspif when the input starts with `asp`, smodels otherwise):
//! reading must return Ok or Err without panicking, and whatever is accepted must keep its
//! invariants and come back unchanged from the aspif writer.
//!
//! Run from the repository root (stable toolchain, cargo-fuzz installed): `bash fuzz/run.sh readers
//! 1000000`, which seeds the corpus and runs `RUSTC_BOOTSTRAP=1 cargo fuzz run readers`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yasmin::input::read_program;
use yasmin::writer::to_aspif;

fuzz_target!(|data: &[u8]| {
    let Ok(program) = read_program(data) else { return };
    program.check_invariants().expect("invariants of an accepted program");
    let aspif = to_aspif(&program).expect("aspif writer");
    let mut again = read_program(&aspif).expect("rewritten aspif reads back");
    again.requested_models = program.requested_models;
    if program.steps == 1 {
        assert_eq!(again, program, "aspif round trip");
    }
    assert_eq!(to_aspif(&again).expect("aspif writer"), aspif, "writing is a fixpoint");
});
