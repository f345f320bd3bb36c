//! The digest of the sources this binary is built from (`PTX2HIP_SOURCE_DIGEST`), which names
//! `check`'s cache file: two builds of the same sources share a cache (a CI job that installs the
//! tool on every run still finds the previous run's findings), and any change to the code or the
//! rule table starts a new one, whatever the version number says.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

/// What the findings and their rendering depend on, relative to this package: its own sources,
/// the library's and its build script, the rule table and the locked dependencies. A path that is
/// not there (a packaged crate has no sibling crates) is left out.
const INPUTS: &[&str] = &[
    "src",
    "crates/ptx2hip-core/src",
    "crates/ptx2hip-core/build.rs",
    "rules",
    "Cargo.lock",
];

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut hasher = DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut hasher);
    for input in INPUTS {
        let path = root.join(input);
        println!("cargo:rerun-if-changed={}", path.display());
        let mut files = Vec::new();
        collect(&path, &mut files);
        files.sort();
        for file in files {
            file.strip_prefix(&root).unwrap_or(&file).hash(&mut hasher);
            std::fs::read(&file).unwrap_or_default().hash(&mut hasher);
        }
    }
    println!(
        "cargo:rustc-env=PTX2HIP_SOURCE_DIGEST={:016x}",
        hasher.finish()
    );
}

/// Every file under `path` (or `path` itself).
fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    match std::fs::read_dir(path) {
        Ok(entries) => {
            for entry in entries.flatten() {
                collect(&entry.path(), files);
            }
        }
        Err(_) if path.is_file() => files.push(path.to_path_buf()),
        Err(_) => {}
    }
}
