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

/// `work` applied to every item on all cores, results in the items' order. The harness runs one
/// test binary at a time, so a test that starts compilers one after another leaves the other core
/// of a 2-core CI machine idle.
pub fn in_parallel<T: Send, R: Send>(items: Vec<T>, work: impl Fn(T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let queue = std::sync::Mutex::new(items.into_iter().enumerate().collect::<Vec<_>>());
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|threads| {
        for _ in 0..workers {
            threads.spawn(|| loop {
                let Some((k, item)) = queue.lock().unwrap().pop() else {
                    break;
                };
                let result = work(item);
                done.lock().unwrap().push((k, result));
            });
        }
    });
    let mut done = done.into_inner().unwrap();
    done.sort_by_key(|(k, _)| *k);
    done.into_iter().map(|(_, r)| r).collect()
}
