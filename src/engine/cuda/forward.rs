//! Forward learning's dependency bitmaps on the device: a row of `words` 64-bit words per
//! variable, a bit per decision level its value depends on (`FixArgs::deps` in common.cuh), and
//! their widening when the search goes deeper than the rows have bits for.
//!
//! Invariant (stated with `FixArgs::deps` in common.cuh, checked in debug builds by
//! `check_ground_rows`, analyze.rs): the row of every variable assigned at level 0 is empty.

use super::args::DepsGrowArgs;
use super::device::{DResult, ptr, zeros};
use super::launch::Gpu;
use cudarc::driver::CudaSlice;

/// The dependency table: `num_vars * words` words under forward learning, none otherwise.
/// Invariant: the rows cover every decision level opened so far (`level < words * 64`): each
/// launch that may open a level first calls [`DepsTable::ensure_level`].
pub struct DepsTable {
    pub table: Option<CudaSlice<u64>>,
    pub words: u32,
}

impl DepsTable {
    /// The device address of the table, or 0 without forward learning (the kernels take it as a
    /// pointer that may be null).
    pub fn ptr(&self, gpu: &Gpu) -> u64 {
        self.table.as_ref().map_or(0, |d| ptr(d, &gpu.stream))
    }

    /// Widens the table to cover `level`.
    pub fn ensure_level(&mut self, gpu: &Gpu, level: u32, num_vars: u32) -> DResult<()> {
        let Some(old) = &self.table else { return Ok(()) };
        if level < self.words * 64 {
            return Ok(());
        }
        let mut words = self.words;
        while level >= words * 64 {
            words *= 2;
        }
        let mut new = zeros::<u64>(&gpu.stream, num_vars as usize * words as usize)?;
        let args = DepsGrowArgs {
            old_deps: old,
            old_words: self.words,
            new_deps: &mut new,
            new_words: words,
            vars: num_vars,
        };
        gpu.launch(gpu.per_item(num_vars as usize), args)?;
        self.table = Some(new);
        self.words = words;
        log::debug!("dependency bitmaps widened to {} levels", words * 64);
        Ok(())
    }
}
