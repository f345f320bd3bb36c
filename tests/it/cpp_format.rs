//! The repository's C++ (the helpers `rules/helpers/*.h`, the test programs `tests/cpp/*`, `crates/ptx2hip-verify/tests/{cpp,wave_sim}/*`) is
//! formatted as the committed `.clang-format` says: `clang-format-19 --dry-run -Werror` finds
//! nothing to change. To format: `clang-format-19 -i rules/helpers/*.h tests/cpp/* crates/ptx2hip-verify/tests/cpp/*`.
//!
//! Without clang-format-19: skipped with a note, or a failure when the `CI` variable is set
//! (`.ci/run` installs it).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

const CLANG_FORMAT: &str = "clang-format-19";

/// The files of `dir` (relative to the crate root) whose names end with one of `exts`, sorted.
fn files(root: &Path, dir: &str, exts: &[&str]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            exts.iter().any(|ext| name.ends_with(ext))
        })
        .collect();
    found.sort();
    found
}

#[test]
fn helpers_and_test_programs_are_formatted() {
    let installed = Command::new(CLANG_FORMAT)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        return common::skip(CLANG_FORMAT, "the C++ format check");
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut sources = files(&root, "rules/helpers", &[".h"]);
    for dir in ["tests/cpp", "crates/ptx2hip-verify/tests/cpp"] {
        sources.extend(files(&root, dir, &[".h", ".cpp", ".cu", ".hip"]));
    }
    sources.extend(files(
        &root,
        "crates/ptx2hip-verify/tests/wave_sim",
        &[".cpp"],
    ));
    assert!(sources.len() > 20, "only {} C++ files found", sources.len());
    let out = Command::new(CLANG_FORMAT)
        .args(["--dry-run", "-Werror", "--style=file"])
        .args(&sources)
        .current_dir(&root)
        .output()
        .expect("clang-format runs");
    assert!(
        out.status.success(),
        "C++ not formatted (run `{CLANG_FORMAT} -i rules/helpers/*.h tests/cpp/*`):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
