//! ptx2hip: finds inline PTX assembly in CUDA C++ sources and translates it to portable C++ or AMD
//! HIP code from a data-driven rule table.
//!
//! The stages, the types that pass between them and where a change goes: ARCHITECTURE.md.
//! [`codes`] names every kind of finding; [`lint`] decides which `check` reports, with [`config`]
//! (`ptx2hip.toml`), [`filter`] (excluded paths), [`suppress`] (inline comments) and [`baseline`].

pub mod baseline;
pub mod cli;
pub mod codes;
pub mod config;
pub mod emit;
pub mod filter;
pub mod lint;
pub mod lower;
pub mod pipeline;
pub mod ptx;
pub mod report;
pub mod rules;
pub mod scan;
pub mod suppress;
pub mod walk;
