//! The tensor-core model of the float forms ([`model`]), and per-warp recordings of the
//! `mma.sync` forms (docs/MATRIX.md): the forms and their fragment layouts ([`forms`]), the cases
//! ([`cases`]), the PTX semantics of the integer and f64 forms ([`reference`]), the CUDA programs
//! that record every output register of every lane on an NVIDIA GPU and their import
//! ([`harness`]; the file format is the warp recordings' `super::warp::record`), and the AMD
//! translations as one HIP file ([`amd`]).

pub mod amd;
pub mod cases;
pub mod forms;
pub mod harness;
pub mod model;
pub mod reference;

pub use cases::{generate, Case};
pub use forms::{all_forms, Elem, MmaForm, Operand};
