//! The human-port pair benchmark (bench/human_pairs/) is a Python script over public repositories;
//! its own specification (bench/human_pairs/test_run.py) needs neither the repositories nor a GPU:
//! the manifest parses, every pair's category and exactness verdict are known values, every pair's
//! snippet fingerprint is recorded, and the instruction count follows isa_count's rule.

mod common;

#[test]
fn the_manifest_and_the_counting_rule_hold() {
    if !common::require(&["python3"], "the human-pair manifest check") {
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/human_pairs/test_run.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "bench/human_pairs/test_run.py failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
