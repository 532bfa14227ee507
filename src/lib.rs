//! yasmin: a conflict-driven answer set solver whose search runs on the CPU or on NVIDIA GPUs.

pub mod app;
pub mod engine;
pub mod input;
pub mod nogoods;
pub mod output;
pub mod program;
pub mod solve;
pub mod stats;
pub mod stop;
pub mod symmetry;
pub mod writer;
