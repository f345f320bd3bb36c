//! Exact directed rounding of f64 `mul`, `fma`/`mad`, `div`, `rcp` and `sqrt` (`.rz`, `.rm`, `.rp`):
//! the rule table's helpers (`rules/helpers/float64.h`, `ptx2hip_*_dir_f64`), computed from
//! round-to-nearest operations only, must agree bit for bit with the hardware.
//!
//! - `helpers_match_x86_directed_rounding`: the helpers, compiled on the host with the ptx2hip host
//!   shim (`HOST_SHIM`, as the golden tests compile translations), run in round-to-nearest against
//!   the x86 instruction (mulsd, vfmadd, divsd, sqrtsd) executed under `fesetround` in each
//!   direction; any NaN matches any NaN. Inputs: a crossed table of edge values (zeros, subnormal
//!   bounds, DBL_MIN, DBL_MAX, Inf, NaN, powers of two at every threshold the helpers use) and
//!   millions of fixed-seed random inputs, concentrated where results change format (subnormal,
//!   overflow) or where the helpers change method, with structured significands (exact products,
//!   quotients, squares and ties). The driver also checks the oracle on hand-computed cases and that
//!   every path of every helper is taken. `$CXX` (default `g++`) on an x86-64 host with FMA.
//! - `helpers_compile_for_amd`: the header as HIP device code (clang-19; gfx90a, gfx942, gfx1100)
//!   and the gfx942 host+device front end.
//! - `write_gpu_check` (ignored): writes a CUDA program that compares the helpers (nvcc) with the
//!   PTX instructions themselves on the same inputs; run it on an NVIDIA GPU.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The directed-rounding helpers exactly as the rule table emits them, with what they require.
fn helpers() -> String {
    let rules = ptx2hip_core::lower::RuleSet::embedded().expect("rule table loads");
    let roots: Vec<String> = ["mul", "fma", "div", "sqrt"]
        .iter()
        .map(|op| format!("ptx2hip_{op}_dir_f64"))
        .collect();
    rules.helper_definitions(roots.iter(), ptx2hip_core::lower::Target::Portable)
}

/// Writes `f64_directed_helpers.h` into `dir`: `prelude` (the host shim, or nothing), then the
/// helpers; the check programs of `tests/cpp/f64_directed_*` include it.
fn write_helpers(dir: &Path, prelude: &str) {
    let text = format!("{prelude}\n{}", helpers());
    std::fs::write(dir.join("f64_directed_helpers.h"), text).unwrap();
}

/// A file of `tests/cpp`.
fn cpp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cpp")
        .join(name)
}

/// Default number of random inputs per operation (twice that for fma, half for rcp and sqrt).
const RANDOM_PER_OP: u64 = 5_000_000;

fn work_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[cfg(target_arch = "x86_64")]
fn host_has_fma() -> bool {
    std::arch::is_x86_feature_detected!("fma")
}

#[cfg(not(target_arch = "x86_64"))]
fn host_has_fma() -> bool {
    false
}

#[test]
fn helpers_match_x86_directed_rounding() {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".to_string());
    if !common::installed(&cxx) {
        return common::skip(&cxx, "the f64 directed-rounding check");
    }
    if !host_has_fma() {
        // A property of the machine, not a missing tool: no CI failure.
        eprintln!(
            "note: {cxx} or an x86-64 CPU with FMA is missing: f64 directed-rounding check skipped"
        );
        return;
    }
    let dir = work_dir("f64_directed_host");
    let src = cpp("f64_directed_host_check.cpp");
    let exe = dir.join("check");
    write_helpers(&dir, ptx2hip_verify::golden::HOST_SHIM);
    // -frounding-math: no folding or motion of the oracle's operations across fesetround;
    // -mfma: __builtin_fma is one vfmadd (not a libm call); -ffp-contract=off: the helpers see
    // exactly the operations they are written with, as in the golden host programs.
    let out = Command::new(&cxx)
        .args([
            "-std=c++17",
            "-O2",
            "-frounding-math",
            "-fno-math-errno",
            "-mfma",
            "-ffp-contract=off",
            "-Wall",
            "-Wextra",
            "-I",
        ])
        .arg(&dir)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{cxx} failed on {}:\n{}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let warnings = String::from_utf8_lossy(&out.stderr);
    assert!(
        !warnings.contains("warning"),
        "{cxx} warns on {}:\n{warnings}",
        src.display()
    );
    let n = std::env::var("PTX2HIP_F64_DIRECTED_N")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(RANDOM_PER_OP);
    let run = Command::new(&exe).arg(n.to_string()).output().unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    println!("{stdout}");
    let total = stdout
        .lines()
        .find_map(|l| l.strip_prefix("TOTAL "))
        .unwrap_or_else(|| panic!("no summary from {}:\n{stdout}", exe.display()));
    let fields: Vec<u64> = total.split(' ').filter_map(|w| w.parse().ok()).collect();
    assert!(
        run.status.success() && fields.len() == 2 && fields[1] == 0,
        "directed-rounding helpers differ from the hardware:\n{stdout}"
    );
    assert!(
        fields[0] >= 12 * n,
        "too few cases checked ({}):\n{stdout}",
        fields[0]
    );
}

#[test]
fn helpers_compile_for_amd() {
    const CLANG: &str = "clang-19";
    if !common::installed(CLANG) {
        return common::skip(CLANG, "the HIP compile check of the f64 directed helpers");
    }
    let dir = work_dir("f64_directed_amd");
    let src = cpp("f64_directed_kernels.hip");
    write_helpers(&dir, "");
    let include = format!("-I{}", dir.display());
    let common = [
        "-x",
        "hip",
        "-std=c++17",
        "-nogpulib",
        "-Wall",
        "-Wextra",
        &include,
    ];
    let mut jobs: Vec<(String, Vec<String>)> = ["gfx90a", "gfx942", "gfx1100"]
        .iter()
        .map(|arch| {
            let asm = dir.join(format!("kernels-{arch}.s"));
            (
                format!("{arch} device code"),
                common
                    .iter()
                    .map(|s| s.to_string())
                    .chain([
                        format!("--offload-arch={arch}"),
                        "--cuda-device-only".into(),
                        "-O2".into(),
                        "-S".into(),
                        src.display().to_string(),
                        "-o".into(),
                        asm.display().to_string(),
                    ])
                    .collect(),
            )
        })
        .collect();
    jobs.push((
        "gfx942 host+device front end".into(),
        common
            .iter()
            .map(|s| s.to_string())
            .chain([
                "--offload-arch=gfx942".into(),
                "-fsyntax-only".into(),
                src.display().to_string(),
            ])
            .collect(),
    ));
    common::in_parallel(jobs, |(label, args)| {
        let out = Command::new(CLANG).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !stderr.contains("warning"),
            "{label}: clang-19 {}\n{stderr}",
            args.join(" ")
        );
    });
    // Every helper is instantiated in every mode.
    let asm = std::fs::read_to_string(dir.join("kernels-gfx942.s")).unwrap();
    for op in ["mul", "fma", "div", "rcp", "sqrt"] {
        for m in 1..=3 {
            assert!(asm.contains(&format!("\n{op}_{m}:")), "{op}_{m} missing");
        }
    }
}

/// Writes `check.cu` (`tests/cpp/f64_directed_gpu_check.cu`: inputs, a kernel running the PTX
/// instructions and the helpers) and the headers it includes into `$PTX2HIP_GPU_CHECK_DIR` (default: `target/tmp/f64_directed_gpu`). On a machine with an
/// NVIDIA GPU (sm_90 here):
/// `nvcc -O2 -std=c++17 -arch=sm_90 -Xcompiler -frounding-math,-fno-math-errno,-mfma,-ffp-contract=off -o check check.cu && ./check 3000000`
/// must end with `HELPER-MISMATCHES 0 X86-MISMATCHES 0 MAD-VS-FMA 0`.
#[test]
#[ignore = "writes the NVIDIA GPU check program; run by hand"]
fn write_gpu_check() {
    let dir = std::env::var("PTX2HIP_GPU_CHECK_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| work_dir("f64_directed_gpu"));
    std::fs::create_dir_all(&dir).unwrap();
    write_helpers(&dir, "");
    for (from, to) in [
        ("f64_directed_gpu_check.cu", "check.cu"),
        ("f64_directed_common.h", "f64_directed_common.h"),
    ] {
        std::fs::copy(cpp(from), dir.join(to)).unwrap();
    }
    println!("wrote {}", dir.join("check.cu").display());
}
