//! Every corpus file, translated for AMD (guarded) and as portable C++ (replace), must compile
//! with clang-19 as HIP for gfx90a, gfx942 and gfx1100 (device code generation to LLVM IR), plus
//! one front-end check of the host side (the device side is already compiled; each job's time goes
//! mostly into reading the HIP headers, so none is repeated without need). The AMD translation in
//! replace mode, the same code without guards, compiles for gfx942 and the host.
//!
//! The corpus is CUDA source, which nvcc compiles with `cuda_runtime.h` implicitly included; the
//! HIP counterpart `hip/hip_runtime.h` is force-included here, as hipcc/hipify do, precompiled
//! once per side (`-include-pch`).
//! Files that still hold untranslated PTX (`check` reports `unsupported`) cannot compile for AMD
//! and are skipped with a note.
//!
//! The `--target amd` variants also compile for gfx1100 in wave64 mode (`-mwavefrontsize64`): the
//! warp translations serve both wave sizes. A `--target portable` translation that leaves
//! statements untranslated (the warp-level forms have no portable translation) is not compiled.
//!
//! A corpus file whose code differs with project macros (an `#if` inside an asm statement, whose
//! every arm is translated) names them on a line `// hip-compile-also: -DNAME...`: its translations
//! are also compiled for gfx942 with those definitions, so that every arm is compiled.
//!
//! Every compile takes `-Wall -Wextra -Werror`: emitted code draws no warning. The exceptions are
//! warnings of the corpus's own code, per file (`USER_CODE_WARNINGS`), and `#pragma once` in a
//! header compiled as a main file.
//!
//! Without clang-19: skipped with a note, or a failure when the `CI` variable is set.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

const CLANG: &str = "clang-19";
/// (emit mode, target, compiled on every side) variants to compile. `--emit replace --target amd`
/// holds the same translations as `--emit guarded` (compiled on every side) without the guards
/// around them: what differs is the file's structure, which no processor decides, so it is
/// compiled on the primary sides only (gfx942 device code and the host).
const VARIANTS: [(&str, &str, bool); 3] = [
    ("guarded", "amd", true),
    ("replace", "amd", false),
    ("replace", "portable", true),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn clang_available() -> bool {
    Command::new(CLANG)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn ptx2hip(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("ptx2hip runs")
}

/// Corpus files whose every asm statement is translatable, and the others.
fn corpus_split() -> (Vec<String>, Vec<String>) {
    let mut files: Vec<String> = std::fs::read_dir(root().join("corpus"))
        .expect("corpus/ exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cu") || n.ends_with(".cuh"))
        .map(|n| format!("corpus/{n}"))
        .collect();
    files.sort();
    let translatable = fully_translatable(&files, "amd");
    let (compilable, skipped): (Vec<_>, Vec<_>) = files
        .into_iter()
        .zip(translatable)
        .partition(|(_, all)| *all);
    (
        compilable.into_iter().map(|(f, _)| f).collect(),
        skipped.into_iter().map(|(f, _)| f).collect(),
    )
}

/// For each file of `files`, whether `check --target target` finds every asm statement in it
/// translatable or in a `__CUDA_ARCH__` arm the AMD device compilation does not take (one run
/// over all of them).
fn fully_translatable(files: &[String], target: &str) -> Vec<bool> {
    let mut args = vec!["check", "--format", "json", "--target", target];
    args.extend(files.iter().map(String::as_str));
    let o = ptx2hip(&args);
    let findings: serde_json::Value = serde_json::from_slice(&o.stdout).expect("check emits JSON");
    let findings = findings.as_array().unwrap();
    files
        .iter()
        .map(|rel| {
            findings
                .iter()
                .filter(|f| f["file"] == rel.as_str())
                .all(|f| {
                    matches!(
                        f["status"].as_str(),
                        Some("translatable" | "other-arch-arm")
                    )
                })
        })
        .collect()
}

struct Job {
    label: String,
    args: Vec<String>,
}

/// One compilation of a file: for a device (device code generation to LLVM IR) or the host side
/// (front end only), with its flags.
struct Side {
    label: &'static str,
    /// Name of its precompiled header in the work directory.
    pch: &'static str,
    flags: &'static [&'static str],
    /// Whether only `--target amd` code is compiled this way.
    amd_only: bool,
    /// Whether every variant is compiled this way (else only those compiled on every side).
    primary: bool,
}

/// Device sides generate LLVM IR at -O0: a builtin, type or atomic the processor lacks is an error
/// of the front end; optimising the IR would find nothing more and took a third of each job.
const SIDES: [Side; 5] = [
    Side {
        label: "gfx90a, device codegen",
        pch: "gfx90a.pch",
        flags: &["--offload-arch=gfx90a", "--cuda-device-only", "-O0"],
        amd_only: false,
        primary: false,
    },
    Side {
        label: "gfx942, device codegen",
        pch: "gfx942.pch",
        flags: &["--offload-arch=gfx942", "--cuda-device-only", "-O0"],
        amd_only: false,
        primary: true,
    },
    Side {
        label: "gfx1100, device codegen",
        pch: "gfx1100.pch",
        flags: &["--offload-arch=gfx1100", "--cuda-device-only", "-O0"],
        amd_only: false,
        primary: false,
    },
    Side {
        label: "gfx1100 -mwavefrontsize64, device codegen",
        pch: "gfx1100w64.pch",
        flags: &[
            "--offload-arch=gfx1100",
            "-mwavefrontsize64",
            "--cuda-device-only",
            "-O0",
        ],
        amd_only: true,
        primary: false,
    },
    Side {
        label: "gfx942, host -fsyntax-only",
        pch: "host.pch",
        flags: &["--offload-arch=gfx942", "--cuda-host-only"],
        amd_only: false,
        primary: true,
    },
];

const COMMON: [&str; 9] = [
    "-x",
    "hip",
    "-std=c++17",
    "-nogpulib",
    // A directive inside a macro invocation's arguments is undefined behaviour.
    "-Werror=embedded-directive",
    // Emitted code compiles warning-free in projects that build with `-Wall -Wextra -Werror`
    // (unused variables and parameters, helpers never called, ...).
    "-Wall",
    "-Wextra",
    "-Werror",
    // A corpus header is compiled here as a main file, which its `#pragma once` is not.
    "-Wno-pragma-once-outside-header",
];

/// Warnings the corpus's own code (as written, before translation) draws, switched off for that
/// file only: `-Werror` is about the emitted code.
const USER_CODE_WARNINGS: [(&str, &str); 1] = [
    // `lop3<(0xf0 & 0xcc) | ~0xaa & 0xff>`: the LUT expression as a user may write it.
    ("corpus/bits_kernels.cu", "-Wno-bitwise-op-parentheses"),
];

/// Precompiles `hip/hip_runtime.h` for every side into `dir`: the header is what each compile
/// spends most of its time on (about 0.9 s of 1 s per job), and a job that reads it precompiled
/// sees the same declarations as one that `-include`s it, as hipcc does.
fn precompile_headers(dir: &Path) {
    let header = dir.join("hip_runtime_include.h");
    std::fs::write(&header, "#include <hip/hip_runtime.h>\n").unwrap();
    common::in_parallel(SIDES.iter().collect(), |side| {
        let o = Command::new(CLANG)
            .args(COMMON)
            .args(side.flags)
            .args(["-S", "-Xclang", "-emit-pch", "-o"])
            .arg(dir.join(side.pch))
            .arg(&header)
            .output()
            .expect("clang-19 runs");
        assert!(
            o.status.success(),
            "precompiling hip/hip_runtime.h for {}: {}",
            side.label,
            String::from_utf8_lossy(&o.stderr)
        );
    });
}

fn clang_jobs(file: &Path, label: &str, amd: bool, every_side: bool, pch_dir: &Path) -> Vec<Job> {
    let f = file.to_string_lossy().into_owned();
    SIDES
        .iter()
        .filter(|side| (amd || !side.amd_only) && (every_side || side.primary))
        .map(|side| {
            let action: Vec<String> = if side.flags.contains(&"--cuda-host-only") {
                vec!["-fsyntax-only".into(), f.clone()]
            } else {
                ["-emit-llvm", "-S", &f, "-o", "/dev/null"]
                    .map(String::from)
                    .to_vec()
            };
            Job {
                label: format!("{label} [{}]", side.label),
                args: COMMON
                    .iter()
                    .chain(side.flags)
                    .map(|a| a.to_string())
                    .chain([
                        "-include-pch".into(),
                        pch_dir.join(side.pch).to_string_lossy().into_owned(),
                    ])
                    .chain(action)
                    .collect(),
            }
        })
        .collect()
}

/// The gfx942 compile of `file` (translated from `source`) with the definitions `source` names
/// on its `// hip-compile-also:` line, if any.
fn also_defined(source: &Path, file: &Path, label: &str, pch_dir: &Path) -> Option<Job> {
    let text = std::fs::read_to_string(source).ok()?;
    let flags = text
        .lines()
        .find_map(|l| l.strip_prefix("// hip-compile-also:"))?;
    let mut job = clang_jobs(file, label, false, false, pch_dir)
        .into_iter()
        .find(|j| j.label.contains("gfx942, device"))?;
    job.label = format!("{} [{}]", job.label, flags.trim());
    let at = job.args.len() - 5;
    job.args
        .splice(at..at, flags.split_whitespace().map(String::from));
    Some(job)
}

#[test]
fn translated_corpus_compiles_as_hip() {
    if !clang_available() {
        return common::skip(CLANG, "the HIP compile checks");
    }
    let (compilable, skipped) = corpus_split();
    assert!(!compilable.is_empty(), "no fully translatable corpus file");
    for rel in &skipped {
        eprintln!("note: {rel} keeps untranslated PTX (check reports unsupported statements): not compiled for AMD");
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    precompile_headers(tmp.path());
    let portable_ok = fully_translatable(&compilable, "portable");
    let mut jobs = Vec::new();
    for (mode, target, every_side) in VARIANTS {
        let dir = tmp.path().join(format!("{mode}-{target}"));
        let mut args = vec![
            "translate",
            "--emit",
            mode,
            "--target",
            target,
            "--out-dir",
            dir.to_str().unwrap(),
        ];
        args.extend(compilable.iter().map(String::as_str));
        let o = ptx2hip(&args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "translate --emit {mode} --target {target}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        for (rel, portable_ok) in compilable.iter().zip(&portable_ok) {
            if target == "portable" && !portable_ok {
                eprintln!(
                    "note: {rel} --target portable keeps untranslated PTX: not compiled for AMD"
                );
                continue;
            }
            let out = dir.join(Path::new(rel).file_name().unwrap());
            assert!(out.exists(), "{} not written", out.display());
            let label = format!("{rel} --emit {mode} --target {target}");
            let mut file_jobs = clang_jobs(&out, &label, target == "amd", every_side, tmp.path());
            file_jobs.extend(also_defined(&root().join(rel), &out, &label, tmp.path()));
            for job in &mut file_jobs {
                // After `-Wall`, which would turn it back on.
                let own = USER_CODE_WARNINGS.iter().filter(|(f, _)| f == rel);
                let at = COMMON.len();
                job.args
                    .splice(at..at, own.map(|(_, flag)| flag.to_string()));
            }
            jobs.extend(file_jobs);
        }
    }
    let total = jobs.len();
    let failures: Vec<String> = common::in_parallel(jobs, |job| {
        let o = Command::new(CLANG)
            .args(&job.args)
            .output()
            .expect("clang-19 runs");
        (!o.status.success()).then(|| {
            format!(
                "{}\n  {CLANG} {}\n{}",
                job.label,
                job.args.join(" "),
                String::from_utf8_lossy(&o.stderr)
            )
        })
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(
        failures.is_empty(),
        "{} of {total} HIP compiles failed:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{total} HIP compiles passed ({} files x {} variants)",
        compilable.len(),
        VARIANTS.len()
    );
}

/// The AMD device compilation of corpus/cuda_arch_arms.cu as written takes the host
/// implementations in the `#else` arms of its `__CUDA_ARCH__` chains (hipcc never defines the
/// macro), which do not compile as device code; translated (default `--cuda-arch 90`, guarded and
/// replace), it takes the sm_90 arms, translated, and compiles, while its host side still takes the
/// host implementations.
#[test]
fn amd_device_code_compiles_the_arms_of_the_chosen_architecture() {
    if !clang_available() {
        return common::skip(CLANG, "the HIP compile checks");
    }
    let rel = "corpus/cuda_arch_arms.cu";
    let tmp = tempfile::tempdir().expect("temp dir");
    let compile = |file: &Path, side: &[&str]| {
        Command::new(CLANG)
            .args(COMMON)
            .args(["--offload-arch=gfx942", "-include", "hip/hip_runtime.h"])
            .args(side)
            .arg(file)
            .output()
            .expect("clang-19 runs")
    };
    let device = [
        "--cuda-device-only",
        "-O0",
        "-emit-llvm",
        "-S",
        "-o",
        "/dev/null",
    ];
    let host = ["--cuda-host-only", "-fsyntax-only"];
    let original = compile(&root().join(rel), &device);
    let stderr = String::from_utf8_lossy(&original.stderr);
    assert!(
        !original.status.success() && stderr.contains("reference to __host__ function"),
        "as written, AMD device code takes the host arms: {stderr}"
    );
    for mode in ["guarded", "replace"] {
        let dir = tmp.path().join(mode);
        let o = ptx2hip(&[
            "translate",
            "--emit",
            mode,
            "--out-dir",
            dir.to_str().unwrap(),
            rel,
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let out = dir.join("cuda_arch_arms.cu");
        for side in [&device[..], &host[..]] {
            let o = compile(&out, side);
            assert!(
                o.status.success(),
                "--emit {mode} {side:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}
