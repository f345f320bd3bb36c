//! ptx2hip: finds inline PTX assembly in CUDA C++ sources and translates it to portable C++ or AMD
//! HIP code from a data-driven rule table.
//!
//! Data flows one way through the stages:
//! [`walk`] (files) → [`scan`] (asm statements) → [`ptx`] (PTX syntax trees) → [`lower`] (rules
//! applied, blocks composed) → [`emit`] (splice, helpers, diff) → [`report`] (human, JSON).
//! [`pipeline`] runs one file through them; [`cli`] is the command line.

pub mod cli;
pub mod emit;
pub mod evidence;
pub mod lower;
pub mod pipeline;
pub mod ptx;
pub mod report;
pub mod scan;
pub mod walk;
