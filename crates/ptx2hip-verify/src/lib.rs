//! Verification tooling of ptx2hip, kept out of the product: the canonical statement of every form a
//! rule claims, its input vectors, the golden vector files recorded on NVIDIA hardware, the programs
//! that record and replay them, and the evidence table the product shows (docs/VECTORS.md,
//! ARCHITECTURE.md).

use std::path::PathBuf;

pub mod evidence;
pub mod forms;
pub mod golden;
pub mod inputs;

/// The repository root: the product crate, with `rules/`, `tests/vectors/` and `src/evidence/`.
pub fn repo_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}
