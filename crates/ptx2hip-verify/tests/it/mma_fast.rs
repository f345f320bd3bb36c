//! The `--fast` mma helpers (`rules/helpers/matrix_fast.h`):
//!
//! - they move data right: `tests/wave_sim/mma_fast_check.cpp` runs them on the lockstep wave
//!   model (`tests/wave_sim/sim.h`, with its MFMA and WMMA models) with random small-integer
//!   fragments, whose products and sums are exact in f32, and compares every output register
//!   with the plain matrix product; a partial wave must take the exact path. Each processor's
//!   code is compiled by defining its macros: gfx942 and gfx90a (MFMA, wave64, two different warps
//!   in the halves; they differ in tf32), gfx1100 (WMMA, wave32) and gfx1100 built for wave64 (the
//!   fmaf path);
//! - they compile without warnings for gfx90a, gfx942, gfx1100 and gfx1100 in wave64, within the
//!   static instruction budgets of issue 20 (per call, both PTX warps of a wave64: ≤ 160 on
//!   gfx942, ≤ 168 on gfx1100; counted as `isa_count` counts; the table is in BENCHMARKS.md) and
//!   without scratch memory.
//!
//! Needs clang-19 (the helpers use clang's vector types): without it skipped with a note, or a
//! failure when `CI` is set.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use ptx2hip_core::lower::{RuleSet, Target};

/// The helpers the rules' fast templates call.
const FAST: [&str; 9] = [
    "ptx2hip_wave_full",
    "ptx2hip_mma_fast_m16n8k16_f32_f16",
    "ptx2hip_mma_fast_m16n8k16_f32_bf16",
    "ptx2hip_mma_fast_m16n8k8_f32_f16",
    "ptx2hip_mma_fast_m16n8k8_f32_bf16",
    "ptx2hip_mma_fast_m16n8k16_f16_f16",
    "ptx2hip_mma_fast_m16n8k8_f16_f16",
    "ptx2hip_mma_fast_m16n8k8_f32_tf32",
    "ptx2hip_mma_fast_m16n8k4_f32_tf32",
];

fn sim_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/wave_sim")
}

/// The `--target amd` code of the fast helpers and what they require, in emission order.
fn helpers(rules: &RuleSet) -> String {
    let names: Vec<String> = FAST.iter().map(|s| s.to_string()).collect();
    let mut s = String::new();
    s.push_str(&rules.helper_definitions(names.iter(), Target::Amd));
    s
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn fast_mma_helpers_give_the_matrix_product_on_every_wave_shape() {
    if !common::require(&["clang++-19"], "the --fast mma simulation") {
        return;
    }
    // (processor, the macros its compile defines, wave size).
    let processors: [(&str, &[&str], u32); 3] = [
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
    let rules = RuleSet::embedded().expect("rule table loads");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mma_fast_helpers.h"), helpers(&rules)).unwrap();
    for (name, macros, wave) in processors {
        let bin = dir.path().join(name.replace(' ', "_"));
        run(
            Command::new("clang++-19")
                .args(["-std=c++17", "-O1", "-w", "-I"])
                .arg(sim_dir())
                .arg("-I")
                .arg(dir.path())
                .args(macros)
                .arg(format!("-DWAVE_SIZE={wave}"))
                .arg(sim_dir().join("mma_fast_check.cpp"))
                .arg("-o")
                .arg(&bin),
            &format!("{name}: compiling the check"),
        );
        run(&mut Command::new(&bin), name);
    }
}

/// Machine instructions of each function `count_NAME` in `asm`, counted as `isa_count` counts
/// (between the label and `.Lfunc_end`, without the return and the calling convention's first
/// `s_waitcnt`), and how many of them touch scratch memory.
fn counts(asm: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut current: Option<(String, usize, usize)> = None;
    for line in asm.lines() {
        if let Some(name) = line
            .strip_prefix("count_")
            .and_then(|l| l.split(':').next())
        {
            if !line.starts_with('\t') && line.contains(':') {
                current = Some((name.to_string(), 0, 0));
                continue;
            }
        }
        if line.starts_with(".Lfunc_end") {
            out.extend(current.take());
            continue;
        }
        let Some((_, n, scratch)) = current.as_mut() else {
            continue;
        };
        let code = line.split(';').next().unwrap_or("").trim();
        let instruction = line.starts_with('\t')
            && !code.is_empty()
            && !code.starts_with('.')
            && !code.starts_with("s_setpc_b64")
            && code != "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)";
        *n += usize::from(instruction);
        *scratch += usize::from(instruction && code.starts_with("scratch_"));
    }
    out
}

fn compile_counts(dir: &Path, processor: &str, wave: Option<&str>) -> Vec<(String, usize, usize)> {
    let asm = dir.join(format!("{processor}{}.s", wave.unwrap_or("")));
    run(
        Command::new("clang-19")
            .args(["-x", "hip", "-std=c++17", "-include", "hip/hip_runtime.h"])
            .args(["--cuda-device-only", "-nogpulib", "-O2", "-S"])
            .args(["-Wall", "-Wextra", "-Werror"])
            .arg(format!("--offload-arch={processor}"))
            .args(wave)
            .arg("-o")
            .arg(&asm)
            .arg(dir.join("count.hip")),
        &format!("{processor} {}", wave.unwrap_or("")),
    );
    counts(&std::fs::read_to_string(&asm).unwrap())
}

#[test]
fn fast_mma_helpers_compile_within_their_instruction_budget() {
    if !common::require(&["clang-19"], "the --fast mma compile check") {
        return;
    }
    let rules = RuleSet::embedded().expect("rule table loads");
    let dir = tempfile::tempdir().unwrap();
    let mut unit = format!("#include <stdint.h>\n{}", helpers(&rules));
    // (form, A registers, B registers, C/D type).
    let forms = [
        ("m16n8k16_f32_f16", 4, 2, "ptx2hip_vec<float, 4>"),
        ("m16n8k16_f32_bf16", 4, 2, "ptx2hip_vec<float, 4>"),
        ("m16n8k8_f32_f16", 2, 1, "ptx2hip_vec<float, 4>"),
        ("m16n8k8_f32_bf16", 2, 1, "ptx2hip_vec<float, 4>"),
        ("m16n8k16_f16_f16", 4, 2, "ptx2hip_vec<uint32_t, 2>"),
        ("m16n8k8_f16_f16", 2, 1, "ptx2hip_vec<uint32_t, 2>"),
        ("m16n8k8_f32_tf32", 4, 2, "ptx2hip_vec<float, 4>"),
        ("m16n8k4_f32_tf32", 2, 1, "ptx2hip_vec<float, 4>"),
    ];
    for (form, a, b, acc) in forms {
        unit.push_str(&format!(
            "extern \"C\" __device__ __attribute__((noinline, used)) {acc} \
             count_{form}(ptx2hip_vec<uint32_t, {a}> a, ptx2hip_vec<uint32_t, {b}> b, \
             {acc} c) {{ return ptx2hip_mma_fast_{form}(a, b, c); }}\n"
        ));
    }
    std::fs::write(dir.path().join("count.hip"), unit).unwrap();
    // (processor, wave option, budget per call: issue 20; none where no matrix path exists).
    let builds = [
        ("gfx90a", None, Some(160)),
        ("gfx942", None, Some(160)),
        ("gfx1100", None, Some(168)),
        ("gfx1100", Some("-mwavefrontsize64"), None),
    ];
    let mut report = String::new();
    let mut over = Vec::new();
    for (processor, wave, budget) in builds {
        let counted = compile_counts(dir.path(), processor, wave);
        assert_eq!(
            counted.len(),
            forms.len(),
            "{processor}: functions not found"
        );
        for (form, n, scratch) in counted {
            report.push_str(&format!("{processor} {} {form}: {n}\n", wave.unwrap_or("")));
            if budget.is_some_and(|b| n > b) {
                over.push(format!("{processor} {form}: {n} > {}", budget.unwrap()));
            }
            // A fragment spilled to scratch memory (an array indexed by a lane-varying value)
            // costs more than the whole helper.
            if scratch > 0 {
                over.push(format!(
                    "{processor} {form}: {scratch} scratch instructions"
                ));
            }
        }
    }
    eprint!("{report}");
    assert!(over.is_empty(), "over budget: {over:?}\n{report}");
}
