//! ptx2hip: finds inline PTX assembly in CUDA C++ sources and translates it to portable C++ or AMD
//! HIP code from a data-driven rule table.
//!
//! Data flows one way through the stages:
//! [`walk`] (files) → [`scan`] (asm statements) → [`ptx`] (PTX syntax trees) → [`lower`] (rules
//! applied, blocks composed) → [`emit`] (splice, helpers, diff) → [`report`] (human, JSON).
//! [`pipeline`] runs one file through them; [`cli`] is the command line. [`codes`] names every kind
//! of finding; [`lint`] decides which `check` reports, with [`config`] (`ptx2hip.toml`),
//! [`filter`] (excluded paths), [`suppress`] (inline comments) and [`baseline`].

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
pub mod scan;
pub mod suppress;
pub mod verify;
pub mod walk;
