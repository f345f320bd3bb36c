//! The integration tests of the `ptx2hip` package, one test binary (cargo's recommended layout:
//! one link instead of one per file). Each module is one concern; the fixtures they read stay at
//! the repository root (`corpus/`, `tests/snapshots/`, `tests/vectors/`, ...).

mod check_cache;
#[path = "../common/mod.rs"]
mod common;

mod cli;
mod cli_files;
mod codes;
mod corpus;
mod counted_barriers;
mod cpp_format;
mod cuda_arch;
mod deep_nesting;
mod dependencies;
mod docs;
mod evidence;
mod formatted;
mod fuzz;
mod helper_compile;
mod hip_compile;
mod human_pairs;
mod lint;
mod macro_uses;
mod models_async;
mod models_bits;
mod models_bulk;
mod models_convert;
mod models_half;
mod models_half_approx;
mod models_integer_arith;
mod models_named_barriers;
mod models_tensor_copy;
mod nvcc_compile;
mod operand_binding;
mod patch;
mod report;
mod rewrite_properties;
mod shared_helpers;
mod splicing;
mod tensor_map_encoder;
mod tensor_model;
mod tree;
mod wgmma_compile;
