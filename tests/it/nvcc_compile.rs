//! Every corpus file that `check --target portable` finds fully translatable, translated as
//! portable C++ (`--emit replace`), must compile with nvcc: a portable translation is meant for
//! both vendors, and only nvcc shows what nvcc rejects (a builtin it lacks in device code, a
//! `__host__ __device__` helper calling a device intrinsic). The original file is compiled beside
//! it, so that a failure of the corpus itself is told apart from one of the translation.
//!
//! A corpus file whose code differs with project macros names them on a line
//! `// hip-compile-also: -DNAME...` (tests/it/hip_compile.rs): its translation is compiled with them
//! too.
//!
//! nvcc is never on CI: without it the test is skipped with a note, CI or not, unless
//! `PTX2HIP_REQUIRE_NVCC=1` (the GPU machine, `cargo test --test it nvcc_compile::`), which makes a
//! missing nvcc a failure. `PTX2HIP_NVCC` names another nvcc, `PTX2HIP_NVCC_ARCH` another
//! architecture than `sm_90`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ptx2hip(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("ptx2hip runs")
}

fn corpus_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join("corpus"))
        .expect("corpus/ exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cu") || n.ends_with(".cuh"))
        .map(|n| format!("corpus/{n}"))
        .collect();
    files.sort();
    files
}

/// The files of `files` in which `check --target portable` finds every asm statement
/// translatable.
fn fully_portable(files: &[String]) -> Vec<String> {
    let mut args = vec!["check", "--format", "json", "--target", "portable"];
    args.extend(files.iter().map(String::as_str));
    let o = ptx2hip(&args);
    let findings: serde_json::Value = serde_json::from_slice(&o.stdout).expect("check emits JSON");
    let findings = findings.as_array().unwrap();
    files
        .iter()
        .filter(|rel| {
            findings
                .iter()
                .filter(|f| f["file"] == rel.as_str())
                .all(|f| f["status"] == "translatable")
        })
        .cloned()
        .collect()
}

/// The definitions a corpus file names on its `// hip-compile-also:` line.
fn also_defined(source: &Path) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(source).ok()?;
    let flags = text
        .lines()
        .find_map(|l| l.strip_prefix("// hip-compile-also:"))?;
    Some(flags.split_whitespace().map(String::from).collect())
}

struct Job {
    label: String,
    file: PathBuf,
    defines: Vec<String>,
}

#[test]
fn portable_translations_of_the_corpus_compile_with_nvcc() {
    let nvcc = std::env::var("PTX2HIP_NVCC").unwrap_or_else(|_| "nvcc".into());
    if !common::installed(&nvcc) {
        assert!(
            std::env::var_os("PTX2HIP_REQUIRE_NVCC").is_none(),
            "{nvcc} is not available but PTX2HIP_REQUIRE_NVCC is set"
        );
        eprintln!(
            "note: {nvcc} not available: the nvcc compile of the portable translations skipped \
             (set PTX2HIP_REQUIRE_NVCC=1 to make this a failure)"
        );
        return;
    }
    let arch = std::env::var("PTX2HIP_NVCC_ARCH").unwrap_or_else(|_| "sm_90".into());
    let files = fully_portable(&corpus_files());
    assert!(!files.is_empty(), "no corpus file is fully translatable");
    let tmp = tempfile::tempdir().expect("temp dir");
    let out_dir = tmp.path().join("portable");
    let mut args = vec![
        "translate",
        "--emit",
        "replace",
        "--target",
        "portable",
        "--out-dir",
        out_dir.to_str().unwrap(),
    ];
    args.extend(files.iter().map(String::as_str));
    let o = ptx2hip(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "translate --target portable: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut jobs = Vec::new();
    for rel in &files {
        let original = root().join(rel);
        let translated = out_dir.join(Path::new(rel).file_name().unwrap());
        assert!(translated.exists(), "{} not written", translated.display());
        let defines = also_defined(&original);
        for (what, file) in [("original", original), ("translated", translated)] {
            jobs.push(Job {
                label: format!("{rel} ({what})"),
                file: file.clone(),
                defines: Vec::new(),
            });
            if let Some(defines) = &defines {
                jobs.push(Job {
                    label: format!("{rel} ({what}) [{}]", defines.join(" ")),
                    file,
                    defines: defines.clone(),
                });
            }
        }
    }
    let total = jobs.len();
    let failures: Vec<String> = common::in_parallel(jobs, |job| {
        let o = Command::new(&nvcc)
            .args(["-x", "cu", "-std=c++17", &format!("-arch={arch}"), "-c"])
            .args(&job.defines)
            .arg(&job.file)
            .args(["-o", "/dev/null"])
            .output()
            .expect("nvcc runs");
        (!o.status.success()).then(|| {
            format!(
                "{}\n  {}",
                job.label,
                String::from_utf8_lossy(&o.stderr).replace('\n', "\n  ")
            )
        })
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(
        failures.is_empty(),
        "{} of {total} nvcc compiles failed:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{total} nvcc compiles passed: {} corpus files, original and portable translation, -arch={arch}",
        files.len()
    );
}
