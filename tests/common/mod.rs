//! The test suite's one skip policy, shared by the product's and the verification crate's tests
//! (`mod common;`, or `#[path = ...]` from the verification crate): a check that needs a tool
//! that is not installed is skipped with a note locally and FAILS when the `CI` environment
//! variable is set (`.ci/run` installs every tool), so CI never passes a check it did not run.
#![allow(dead_code)] // each test file uses the part it needs

use std::process::Command;

/// Whether `tool --version` runs and succeeds.
pub fn installed(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Skips `check` because `missing` is not available: a note, or a failure when `CI` is set.
pub fn skip(missing: &str, check: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{missing} is not available but CI is set: {check} must run (.ci/run installs it)"
    );
    eprintln!("note: {missing} not available: {check} skipped (set CI=1 to make this a failure)");
}

/// Whether every tool is installed; if one is not, [`skip`]s `check` and says which.
pub fn require(tools: &[&str], check: &str) -> bool {
    match tools.iter().find(|t| !installed(t)) {
        None => true,
        Some(missing) => {
            skip(missing, check);
            false
        }
    }
}
