//! ptx2hip: finds inline PTX assembly in CUDA C++ sources and translates it to portable C++ or AMD
//! HIP code from a data-driven rule table.
//!
//! The stages, the types that pass between them and where a change goes: ARCHITECTURE.md.
//! [`codes`] names every kind of finding; [`vocabulary`] holds the terms the rule table and the
//! lowering share (PTX and C types, code expressions, targets); [`suppress`] reads the inline
//! comments that keep a statement as written. The command line (arguments, commands, the lint
//! and the output formats) is the `ptx2hip` package's.

pub mod codes;
pub mod emit;
pub mod lower;
pub mod pages;
pub mod pipeline;
pub mod ptx;
pub mod rules;
pub mod scan;
pub mod suppress;
pub mod vocabulary;
pub mod walk;
