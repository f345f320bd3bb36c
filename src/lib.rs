//! ptx2hip: finds inline PTX assembly in CUDA C++ sources and translates it to portable C++ or AMD
//! HIP code from a data-driven rule table.
//!
//! The stages, the types that pass between them and where a change goes: ARCHITECTURE.md.

pub mod cli;
pub mod emit;
pub mod evidence;
pub mod lower;
pub mod pipeline;
pub mod ptx;
pub mod report;
pub mod scan;
pub mod walk;
