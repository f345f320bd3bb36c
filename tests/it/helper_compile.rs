//! The helpers themselves (`rules/helpers/*.h`) compile, each alone: per helper and target
//! (portable, amd) a namespace holding the helper and what it requires (as a translation that uses
//! only it gets), all in one translation unit per processor (gfx90a, gfx942, gfx1100 in wave32 and
//! wave64) with every declaration emitted, since clang checks a builtin against the processor's
//! features only when it generates code. The files whose portable definitions use no CUDA or HIP
//! API at all also compile as plain host C++. A requirement missing from a template helper shows
//! only where the template is instantiated (the translation tests and tests/it/hip_compile.rs).
//!
//! Without clang-19: skipped with a note, or a failure when the `CI` variable is set.

use crate::common;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::process::Command;

use ptx2hip_core::lower::{RuleSet, Target};

const CLANG: &str = "clang-19";
const ARCHS: [&str; 3] = ["gfx90a", "gfx942", "gfx1100"];

/// Whether `tool` is installed; when it is not, a note, or a failure when `CI` is set.
fn required(tool: &str, what: &str) -> bool {
    common::require(&[tool], what)
}

struct Job {
    label: String,
    program: String,
    args: Vec<String>,
}

/// Runs the jobs on every core; the failures, each with its command and diagnostics.
fn run_jobs(jobs: Vec<Job>) -> Vec<String> {
    common::in_parallel(jobs, |job| {
        let o = Command::new(&job.program)
            .args(&job.args)
            .output()
            .unwrap_or_else(|e| panic!("{}: {e}", job.program));
        (!o.status.success()).then(|| {
            format!(
                "{}\n  {} {}\n{}",
                job.label,
                job.program,
                job.args.join(" "),
                String::from_utf8_lossy(&o.stderr)
            )
        })
    })
    .into_iter()
    .flatten()
    .collect()
}

/// The helper files whose portable definitions use no CUDA or HIP API: plain C++, which host
/// checks (tests/it/models_*.rs, tests/it/operand_binding.rs) run. The others call device
/// intrinsics (`__shfl_sync`, `__cvta_*`, the atomic API, `__brkpt`), or hold `amd` code written as the
/// portable definition of a helper that only `amd` templates call.
const HOST_HELPER_FILES: [&str; 7] = [
    "helpers/compare.h",
    "helpers/convert.h",
    "helpers/core.h",
    "helpers/half.h",
    "helpers/integer_arith.h",
    "helpers/operands.h",
    "helpers/video.h",
];

/// One translation unit holding each helper of `files` alone: per helper and target a namespace
/// with the helper and those it requires, so that a helper called without being required is not
/// found. `#include` lines of helpers go first too (a header included inside a namespace would
/// declare the library there).
fn helper_unit(rules: &RuleSet, files: &[&str], targets: &[Target], prelude: &str) -> String {
    let mut includes = BTreeSet::new();
    let mut body = String::new();
    let helpers = rules
        .helper_order
        .iter()
        .filter(|n| files.contains(&rules.helpers[*n].file.as_str()));
    for (target, helper) in helpers.flat_map(|h| targets.iter().map(move |t| (t, h))) {
        writeln!(body, "namespace ptx2hip_check_{target}_{helper} {{").unwrap();
        for name in rules.helper_closure([helper]) {
            let h = &rules.helpers[&name];
            let code = match target {
                Target::Amd => h.amd.as_deref().unwrap_or(&h.portable),
                Target::Portable => &h.portable,
            };
            includes.extend(
                code.lines()
                    .filter(|l| l.trim_start().starts_with("#include"))
                    .map(str::to_string),
            );
            body.push_str(code);
            body.push('\n');
        }
        body.push_str("}\n");
    }
    let includes: Vec<String> = includes.into_iter().collect();
    format!("{prelude}{}\n{body}", includes.join("\n"))
}

#[test]
fn every_helper_compiles_alone_for_each_target() {
    let rules = RuleSet::embedded().expect("rule table loads");
    let mut files: Vec<&str> = rules.helpers.values().map(|h| h.file.as_str()).collect();
    files.sort_unstable();
    files.dedup();
    for host in HOST_HELPER_FILES {
        assert!(files.contains(&host), "{host}: no such helper file");
    }
    if !required(CLANG, "compile check of the helpers") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut jobs = Vec::new();
    let device = tmp.path().join("helpers.hip");
    let prelude = "#include <stdint.h>\n#include <string.h>\n#include <math.h>\n";
    let unit = helper_unit(&rules, &files, &[Target::Portable, Target::Amd], prelude);
    std::fs::write(&device, unit).unwrap();
    let processors = ARCHS
        .iter()
        .map(|a| (*a, None))
        .chain([("gfx1100", Some("-mwavefrontsize64"))]);
    for (arch, wave) in processors {
        let mut args: Vec<String> = [
            "-x",
            "hip",
            "-std=c++17",
            "-include",
            "hip/hip_runtime.h",
            "-nogpulib",
            "--cuda-device-only",
            "-femit-all-decls",
            "-emit-llvm",
            "-S",
            "-o",
            "/dev/null",
        ]
        .map(String::from)
        .into();
        args.push(format!("--offload-arch={arch}"));
        args.extend(wave.map(String::from));
        args.push(device.display().to_string());
        jobs.push(Job {
            label: format!(
                "helpers [{arch}{}]",
                wave.map(|w| format!(" {w}")).unwrap_or_default()
            ),
            program: CLANG.into(),
            args,
        });
    }
    let host = tmp.path().join("helpers.cpp");
    let prelude = "#include <stdint.h>\n#include <string.h>\n#include <math.h>\n\
                   #define __host__\n#define __device__\n";
    let unit = helper_unit(&rules, &HOST_HELPER_FILES, &[Target::Portable], prelude);
    std::fs::write(&host, unit).unwrap();
    jobs.push(Job {
        label: "portable helpers [host C++]".into(),
        program: CLANG.into(),
        args: ["-x", "c++", "-std=c++17", "-fsyntax-only"]
            .map(String::from)
            .into_iter()
            .chain([host.display().to_string()])
            .collect(),
    });
    let total = jobs.len();
    let failures = run_jobs(jobs);
    assert!(
        failures.is_empty(),
        "{} of {total} helper compiles failed:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}
