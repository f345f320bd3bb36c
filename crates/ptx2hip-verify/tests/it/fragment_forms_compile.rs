//! Every fragment form (rules/fragment.toml: ldmatrix, stmatrix, movmatrix, each count, `.trans`
//! and way of addressing) translates for `--target amd` and compiles with clang-19 for gfx90a,
//! gfx942 and gfx1100, the latter in wave32 and in wave64 (`-mwavefrontsize64`), warning-free
//! under `-Wall -Wextra -Werror`. Values are `fragment_sim.rs`'s business.

use crate::common;

use std::fmt::Write as _;
use std::process::Command;

use ptx2hip_core::lower::{analyze, render, RuleSet, Target};
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_verify::fragment::all_forms;

/// The forms' statements, and the modifier order cutlass writes.
fn statements() -> Vec<(String, Vec<String>)> {
    let mut v: Vec<(String, Vec<String>)> = all_forms()
        .iter()
        .map(|f| (f.ptx(), f.constraints()))
        .collect();
    v.push((
        "ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];".into(),
        ["=r", "=r", "=r", "=r", "r"].map(String::from).to_vec(),
    ));
    v
}

#[test]
fn every_fragment_form_compiles_for_amd_targets() {
    if !common::require(&["clang-19"], "the fragment AMD compile check") {
        return;
    }
    let rules = RuleSet::embedded().unwrap();
    let mut functions = String::new();
    let mut helpers = Vec::new();
    for (n, (ptx, constraints)) in statements().into_iter().enumerate() {
        let t = analyze(
            &AsmStatement::synthetic(&ptx, &constraints),
            &rules,
            Target::Amd,
        )
        .outcome
        .unwrap_or_else(|u| panic!("{ptx}: {}", u.message));
        helpers.extend(t.helpers.clone());
        let _ = writeln!(
            functions,
            "__device__ void form_{n}(uint64_t* p) {{ // {ptx}"
        );
        for (k, c) in constraints.iter().enumerate() {
            let ty = if c.ends_with('l') {
                "uint64_t"
            } else {
                "uint32_t"
            };
            let _ = writeln!(functions, "  {ty} op{k} = ({ty})p[{k}];");
        }
        let _ = writeln!(functions, "{}", render(&t.lines, "  ", "  ").join("\n"));
        for k in 0..constraints.len() {
            let _ = writeln!(functions, "  p[{k}] = (uint64_t)op{k};");
        }
        functions.push_str("}\n");
    }
    let mut file = String::from("#include <stdint.h>\n");
    file.push_str(&rules.helper_definitions(helpers.iter(), Target::Amd));
    file.push_str(&functions);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fragment_forms.hip");
    std::fs::write(&path, file).unwrap();
    let sides: Vec<(&str, bool)> = vec![
        ("gfx90a", false),
        ("gfx942", false),
        ("gfx1100", false),
        ("gfx1100", true),
    ];
    let failures: Vec<String> = common::in_parallel(sides, |(arch, wave64)| {
        let mut cmd = Command::new("clang-19");
        cmd.args([
            "-x",
            "hip",
            "-std=c++17",
            "-include",
            "hip/hip_runtime.h",
            "-nogpulib",
        ])
        .args(["-Wall", "-Wextra", "-Werror"])
        .arg(format!("--offload-arch={arch}"));
        if wave64 {
            cmd.arg("-mwavefrontsize64");
        }
        let out = cmd
            .args(["--cuda-device-only", "-O2", "-S", "-o", "/dev/null"])
            .arg(&path)
            .output()
            .expect("clang-19 runs");
        (!out.status.success()).then(|| {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let head: Vec<&str> = stderr.lines().take(20).collect();
            format!("{arch} wave64={wave64}: {}", head.join("\n"))
        })
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
