//! The half family's helpers against an independent model: `host_model_check` compiles the
//! generated helpers with g++ and compares them with an exact reference model
//! (tests/amd_models/half_check.cpp). The family's cases are data (`[[rule.test]]` in
//! rules/half.toml, run by the verification crate's `rule_cases` test).

use crate::common;

/// The generated helpers of every half form against the independent reference of
/// tests/amd_models/half_check.cpp (exact integer arithmetic), plus the AMD compile check when
/// clang-19 is installed. Skipped where g++ or python3 is missing.
#[test]
fn host_model_check() {
    if !common::require(&["g++", "python3"], "the half host model check") {
        return;
    }
    let script = format!(
        "{}/tests/amd_models/run_half_check.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = std::process::Command::new("sh")
        .arg(&script)
        .env("PTX2HIP", env!("CARGO_BIN_EXE_ptx2hip"))
        .output()
        .expect("run_half_check.sh runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(", 0 mismatches"), "{stdout}");
    // The --fast translation (bare v_pk_fma_f16 and friends) differs from the exact result in NaN
    // lanes only: the script's FAST_MODEL build fails on any other difference, and the rules'
    // `deviation` texts quote its count.
    if stdout.contains("amd --fast") {
        assert!(
            stdout.contains("differ from the exact result, all only in NaN lanes"),
            "{stdout}"
        );
    }
}
