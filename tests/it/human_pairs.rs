//! The human-port pair benchmark (bench/human_pairs/) is a Python script over public repositories;
//! its own specification (bench/human_pairs/test_run.py) needs neither the repositories nor a GPU:
//! the manifest parses, every pair's category and exactness verdict are known values, every pair's
//! snippet fingerprint is recorded, and the instruction count follows isa_count's rule.

use crate::common;

#[test]
fn the_manifest_and_the_counting_rule_hold() {
    let check = "the human-pair manifest check";
    if !common::require(&["python3"], check) {
        return;
    }
    // The manifest is TOML, read with the standard library's tomllib (Python 3.11).
    let has_tomllib = std::process::Command::new("python3")
        .args(["-c", "import tomllib"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_tomllib {
        common::skip("python3 >= 3.11 (tomllib)", check);
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
