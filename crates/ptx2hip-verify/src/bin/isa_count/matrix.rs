//! `isa_count --matrix`: static instruction counts of the `mma` translations (docs/MATRIX.md) on
//! gfx90a and gfx942 (wave64) and gfx1100 (wave32), one `noinline` function per form
//! (`ptx2hip_verify::matrix::amd::source`: input registers in VGPRs, D registers returned),
//! counted as `super::count` counts.

use std::path::Path;
use std::process::Command;

use ptx2hip_core::lower::{RuleSet, TensorModel};
use ptx2hip_verify::matrix::amd;

const ARCHS: [&str; 3] = ["gfx90a", "gfx942", "gfx1100"];

pub fn main(rules: &RuleSet, clang: &str, out: &Path) {
    let forms = amd::translated_forms(rules).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let src = out.join("matrix.hip");
    let text = amd::source(rules, &forms, TensorModel::Sm90, false).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    std::fs::write(&src, text).expect("write matrix.hip");
    let mut counts = Vec::new();
    for arch in ARCHS {
        let asm = out.join(format!("matrix-{arch}.s"));
        let run = Command::new(clang)
            .args([
                "-x",
                "hip",
                "-std=c++17",
                "--cuda-device-only",
                "-nogpulib",
                "-O2",
                "-S",
            ])
            .arg(format!("--offload-arch={arch}"))
            .arg(&src)
            .arg("-o")
            .arg(&asm)
            .output()
            .expect("run clang");
        if !run.status.success() {
            eprintln!("{arch}: {}", String::from_utf8_lossy(&run.stderr));
            std::process::exit(1);
        }
        counts.push(super::count(
            &std::fs::read_to_string(&asm).expect("read asm"),
        ));
    }
    println!("| form | gfx90a | gfx942 | gfx1100 |\n|---|---:|---:|---:|");
    for (k, f) in forms.iter().enumerate() {
        let cells: Vec<String> = counts
            .iter()
            .map(|c| c.get(&k).map_or("—".to_string(), |(n, _)| n.to_string()))
            .collect();
        println!("| `{}` | {} |", f.name(), cells.join(" | "));
    }
}
