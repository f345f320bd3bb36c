//! The `--fast` mma helpers move data right: `tests/wave_sim/mma_fast_check.cpp` runs them on
//! the lockstep wave model (`tests/wave_sim/sim.h`, with its MFMA and WMMA models) with random
//! small-integer fragments, whose products and sums are exact in f32, and compares every output
//! register with the plain matrix product; a partial wave must take the exact path. Each
//! processor's code is compiled by defining its macros: gfx942 (MFMA, wave64, two different warps
//! in the halves; gfx90a compiles the same code), gfx1100 (WMMA, wave32) and gfx1100 built for
//! wave64 (the fmaf path). Needs clang++-19 (the helpers use clang's vector types): without it
//! skipped with a note, or a failure when `CI` is set.

use std::path::PathBuf;
use std::process::Command;

use ptx2hip::lower::RuleSet;

const CLANG: &str = "clang++-19";

/// The helpers the rules' fast templates call.
const FAST: [&str; 5] = [
    "ptx2hip_wave_full",
    "ptx2hip_mma_fast_m16n8k16_f32_f16",
    "ptx2hip_mma_fast_m16n8k16_f32_bf16",
    "ptx2hip_mma_fast_m16n8k8_f32_f16",
    "ptx2hip_mma_fast_m16n8k8_f32_bf16",
];

/// (processor, macros its compile defines, wave size).
const PROCESSORS: [(&str, &[&str], u32); 3] = [
    (
        "gfx942",
        &["-D__gfx942__", "-D__AMDGCN_WAVEFRONT_SIZE=64"],
        64,
    ),
    (
        "gfx1100",
        &[
            "-D__gfx1100__",
            "-D__GFX11__",
            "-D__AMDGCN_WAVEFRONT_SIZE=32",
        ],
        32,
    ),
    (
        "gfx1100 -mwavefrontsize64",
        &[
            "-D__gfx1100__",
            "-D__GFX11__",
            "-D__AMDGCN_WAVEFRONT_SIZE=64",
        ],
        64,
    ),
];

fn sim_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/wave_sim")
}

fn clang_available() -> bool {
    let ok = Command::new(CLANG)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "{CLANG} is required in CI"
        );
        eprintln!("note: {CLANG} not found: the --fast mma simulation is skipped");
    }
    ok
}

/// The `--target amd` code of the fast helpers and what they require, in emission order.
fn helpers_header(rules: &RuleSet) -> String {
    let names: Vec<String> = FAST.iter().map(|s| s.to_string()).collect();
    let mut s = String::new();
    for name in rules.helper_closure(names.iter()) {
        let h = &rules.helpers[&name];
        s.push_str(h.amd.as_deref().unwrap_or(&h.portable).trim());
        s.push('\n');
    }
    s
}

#[test]
fn fast_mma_helpers_give_the_matrix_product_on_every_wave_shape() {
    if !clang_available() {
        return;
    }
    let rules = RuleSet::embedded().expect("rule table loads");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mma_fast_helpers.h"),
        helpers_header(&rules),
    )
    .unwrap();
    for (name, macros, wave) in PROCESSORS {
        let bin = dir.path().join(name.replace(' ', "_"));
        let out = Command::new(CLANG)
            .args(["-std=c++17", "-O1", "-w", "-I"])
            .arg(sim_dir())
            .arg("-I")
            .arg(dir.path())
            .args(macros)
            .arg(format!("-DWAVE_SIZE={wave}"))
            .arg(sim_dir().join("mma_fast_check.cpp"))
            .arg("-o")
            .arg(&bin)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: the check does not compile:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = Command::new(&bin).output().unwrap();
        assert!(
            run.status.success(),
            "{name}: {}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
    }
}
