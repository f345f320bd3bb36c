//! `--tensor-model` and `tensor-model` of ptx2hip.toml choose whose tensor cores the exact `mma`
//! translations reproduce; `--fast` takes the inexact tier and says so in the file.

use std::fs;
use std::path::Path;

use assert_cmd::Command;

const KERNEL: &str = r#"#include <stdint.h>
__global__ void tile(float* d, const uint32_t* a) {
  float c0 = d[0], c1 = d[1], c2 = d[2], c3 = d[3];
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};"
      : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]));
  d[0] = c0; d[1] = c1; d[2] = c2; d[3] = c3;
}
"#;

/// The diff `translate` prints for `k.cu` in `dir` with `args`.
fn diff(dir: &Path, args: &[&str]) -> String {
    let out = Command::cargo_bin("ptx2hip")
        .unwrap()
        .current_dir(dir)
        .arg("translate")
        .args(args)
        .arg("k.cu")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_configuration_names_the_tensor_model_and_the_option_wins() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("k.cu"), KERNEL).unwrap();
    assert!(diff(dir.path(), &[]).contains("ptx2hip_mma_float<ptx2hip_tc_sm90,"));
    fs::write(
        dir.path().join("ptx2hip.toml"),
        "tensor-model = \"sm_80\"\n",
    )
    .unwrap();
    assert!(diff(dir.path(), &[]).contains("ptx2hip_mma_float<ptx2hip_tc_sm80,"));
    assert!(
        diff(dir.path(), &["--tensor-model", "90"]).contains("ptx2hip_mma_float<ptx2hip_tc_sm90,")
    );
    fs::write(
        dir.path().join("ptx2hip.toml"),
        "tensor-model = \"sm_70\"\n",
    )
    .unwrap();
    let out = Command::cargo_bin("ptx2hip")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "k.cu"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`sm_70` is not a tensor model"));
}

#[test]
fn fast_translations_say_they_are_inexact_and_exact_is_the_default() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("k.cu"), KERNEL).unwrap();
    let exact = diff(dir.path(), &[]);
    assert!(exact.contains("// ptx2hip: X005\n") && !exact.contains("ptx2hip_mma_fast_"));
    let fast = diff(dir.path(), &["--fast"]);
    assert!(
        fast.contains("// ptx2hip: X005 (--fast, inexact: X005)"),
        "{fast}"
    );
    assert!(fast.contains("ptx2hip_wave_full() ? ptx2hip_mma_fast_m16n8k16_f32_f16("));
}
