//! The integration tests of the verification crate, one test binary (cargo's recommended layout:
//! one link instead of one per file). Each module is one check; the fixtures they read stay where
//! they were (`tests/cpp/`, `tests/wave_sim/`, the repository's `tests/vectors/`).

#[path = "../../../../tests/common/mod.rs"]
mod common;

mod atomic_sync_forms_compile;
mod call_sites;
mod decomposition;
mod explain_forms;
mod fp8_mma_sync;
mod fp8_sync_helper;
mod fragment_forms_compile;
mod fragment_sim;
mod golden;
mod matrix;
mod memory_codegen;
mod memory_forms;
mod mma_fast;
mod rule_cases;
mod rules_float64_directed;
mod tensor_model;
mod tensor_model_published;
mod wave_sim;
mod wgmma;
mod wgmma_fast;
mod wgmma_sim;
