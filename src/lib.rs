//! The `ptx2hip` command line over the translation library (`ptx2hip_core`): arguments and
//! commands ([`cli`]), the lint ([`lint`] decides what `check` reports, with [`config`]
//! (`ptx2hip.toml`), [`filter`] (excluded paths) and [`baseline`]) and the output formats
//! ([`report`]). ARCHITECTURE.md says which crate holds what.

pub mod baseline;
pub mod cli;
pub mod config;
pub mod filter;
pub mod lint;
pub mod report;

// The library's modules, under the `crate::` paths this crate's modules name them by.
use ptx2hip_core::{codes, emit, lower, pages, pipeline, ptx, rules, scan, suppress, walk};
