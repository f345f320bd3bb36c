//! What each crate of the workspace links: the translation library (`ptx2hip-core`) carries no
//! command-line dependency, and neither it nor the `ptx2hip` command line carries the
//! verification tooling (ARCHITECTURE.md).

use std::collections::BTreeSet;
use std::process::Command;

/// The names of the crates `package` is built from (its normal dependencies, transitively, and
/// itself), as `cargo tree` resolves them from Cargo.lock.
fn linked_crates(package: &str) -> BTreeSet<String> {
    let out = Command::new(env!("CARGO"))
        .args(["tree", "--locked", "--offline", "--edges", "normal"])
        .args(["--prefix", "none", "--format", "{p}", "--package", package])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// The crates of `linked` among `forbidden`.
fn among<'a>(linked: &BTreeSet<String>, forbidden: &[&'a str]) -> Vec<&'a str> {
    forbidden
        .iter()
        .copied()
        .filter(|name| linked.contains(*name))
        .collect()
}

/// The verification tooling: its crate and the gzip decoder it reads the vector files with.
const VERIFICATION: &[&str] = &["ptx2hip-verify", "flate2"];

#[test]
fn the_library_links_no_command_line_crate_and_no_verification_code() {
    let linked = linked_crates("ptx2hip-core");
    assert!(linked.contains("tree-sitter"), "{linked:?}");
    let command_line = [
        "ptx2hip",
        "clap",
        "indicatif",
        "rustix",
        "annotate-snippets",
        "serde-sarif",
        "html-escape",
        "rayon",
    ];
    assert_eq!(among(&linked, &command_line), Vec::<&str>::new());
    assert_eq!(among(&linked, VERIFICATION), Vec::<&str>::new());
}

#[test]
fn the_command_line_links_the_library_and_no_verification_code() {
    let linked = linked_crates("ptx2hip");
    assert!(linked.contains("ptx2hip-core"), "{linked:?}");
    assert_eq!(among(&linked, VERIFICATION), Vec::<&str>::new());
}
