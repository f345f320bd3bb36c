//! Warp-level golden recordings: per-warp cases for the warp instructions (`shfl`, `vote`,
//! `match`, `redux`, `elect`, `activemask`, lane registers), recorded on an NVIDIA GPU.
//!
//! A per-thread golden vector (`super::golden`) cannot check an instruction whose result depends
//! on the other lanes. Here one *case* is one warp: which lanes run the statement, whether the
//! others exited or only branched around it, and every register input of every lane. The GPU
//! program runs each case as one warp; the recording keeps every lane's outputs. Inputs are not
//! stored: [`cases::generate`] regenerates them from a seed derived from the form name, and the
//! recording carries a digest of them so a changed generator is caught (docs/WARP.md).
//!
//! The same statements and cases drive the lockstep wave simulator (`crates/ptx2hip-verify/tests/it/wave_sim.rs`), which
//! runs the `--target amd` translation of each statement on a 64-lane and a 32-lane host model
//! of an AMD wave and compares every defined lane bit for bit; [`reference`] is the PTX semantics
//! written out, which says which lanes are defined and is itself checked against the recording.

pub mod cases;
pub mod forms;
pub mod harness;
pub mod kernels;
pub mod record;
pub mod reference;

pub use cases::{generate, Case};
pub use forms::{all_forms, Op, Out, Role, WarpForm};
pub use record::{RecordedForm, Recording};

/// Lanes of a PTX warp.
pub const WARP: usize = 32;
