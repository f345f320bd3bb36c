//! Verification tooling of ptx2hip, kept out of the product so that it never ships: golden vectors
//! recorded on NVIDIA hardware and their replay through the translations (docs/VECTORS.md), and
//! the per-warp recordings of the warp-level rules with their wave simulator (docs/WARP.md; the
//! modules: ARCHITECTURE.md).

use std::path::PathBuf;

pub mod evidence;
pub mod forms;
pub mod fragment;
pub mod golden;
pub mod inputs;
pub mod matrix;
pub mod matrix_fast;
pub mod warp;
pub mod wgmma;

/// The repository root: `rules/`, `tests/vectors/`, the library's evidence table (`TABLE_PATH`).
pub fn repo_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}
