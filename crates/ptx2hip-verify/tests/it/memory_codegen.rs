//! What the `--target amd` memory translations become on gfx942 and gfx1100 (clang-19 -O2), where
//! speed depends on the instruction kind or on where the waits fall, not on the values:
//!
//! - two independent `ld.volatile.global` loads issue back to back: the second load is issued
//!   before the first wait for memory (`s_waitcnt vmcnt`), as two `ld.relaxed.sys` loads do;
//! - `ld.volatile.shared` through a `.shared` window address stays an LDS instruction;
//! - a `cp.async` with `src-size` (zero fill) writes its 16 bytes with one LDS store.
//!
//! Skipped with a note when clang-19 or the HIP headers are missing (failed when `CI` is set).

use crate::common;

use std::path::Path;
use std::process::Command;

use ptx2hip_core::lower::{self, RuleSet, Target};
use ptx2hip_core::scan::AsmStatement;

/// One kernel: its name, parameters, and statements `(ptx, constraints, operand expressions)`.
struct Kernel {
    name: &'static str,
    params: &'static str,
    statements: &'static [(&'static str, &'static str, &'static [&'static str])],
    result: &'static str,
}

const KERNELS: &[Kernel] = &[
    Kernel {
        name: "two_volatile_loads",
        params: "const uint32_t* a, const uint32_t* b, uint32_t* out",
        statements: &[
            ("ld.volatile.global.u32 %0, [%1];", "=r,l", &["x", "a"]),
            ("ld.volatile.global.u32 %0, [%1];", "=r,l", &["y", "b"]),
        ],
        result: "out[0] = x + y;",
    },
    Kernel {
        name: "shared_volatile_v4",
        params: "uint32_t s, uint32_t* out",
        statements: &[(
            "ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];",
            "=r,=r,=r,=r,r",
            &["x", "y", "z", "w", "s"],
        )],
        result: "out[0] = x + y + z + w;",
    },
    Kernel {
        name: "cp_async_zero_fill",
        params: "uint32_t s, const uint32_t* g, uint32_t n",
        statements: &[(
            "cp.async.cg.shared.global [%0], [%1], 16, %2;",
            "r,l,r",
            &["s", "g", "n"],
        )],
        result: "",
    },
];

fn source(rules: &RuleSet) -> String {
    let mut helpers = Vec::new();
    let mut kernels = String::new();
    for k in KERNELS {
        kernels.push_str(&format!(
            "extern \"C\" __global__ void {}({}) {{\n  uint32_t x = 0, y = 0, z = 0, w = 0;\n",
            k.name, k.params
        ));
        for (ptx, cons, args) in k.statements {
            let constraints: Vec<String> = cons.split(',').map(str::to_string).collect();
            let mut stmt = AsmStatement::synthetic(ptx, &constraints);
            stmt.qualifiers.clear();
            let t = lower::analyze(&stmt, rules, Target::Amd)
                .outcome
                .unwrap_or_else(|e| panic!("`{ptx}`: {}", e.message));
            helpers.extend(t.helpers);
            kernels.push_str("  {\n");
            for (i, arg) in args.iter().enumerate() {
                kernels.push_str(&format!("    auto& op{i} = {arg};\n"));
            }
            for line in lower::render(&t.lines, "    ", "  ") {
                kernels.push_str(&line);
                kernels.push('\n');
            }
            kernels.push_str("  }\n");
        }
        kernels.push_str(&format!("  {}\n}}\n", k.result));
    }
    let mut out = String::from("#include <hip/hip_runtime.h>\n#include <stdint.h>\n");
    out.push_str(&rules.helper_definitions(helpers.iter(), Target::Amd));
    out.push_str(&kernels);
    out
}

/// The instructions of kernel `name` in clang's assembly (no directives, labels or comments).
fn body<'a>(asm: &'a str, name: &str) -> Vec<&'a str> {
    asm.lines()
        .skip_while(|l| !l.starts_with(&format!("{name}:")))
        .skip(1)
        .take_while(|l| !l.starts_with(".Lfunc_end"))
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with([';', '.']) && !l.ends_with(':'))
        .collect()
}

fn compile(src: &Path, arch: &str) -> String {
    let out = Command::new("clang-19")
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
        .arg(src)
        .args(["-o", "-"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{arch}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn volatile_loads_overlap_shared_ones_stay_lds_and_zero_fill_stores_once() {
    if Command::new("clang-19").arg("--version").output().is_err()
        || !Path::new("/usr/include/hip/hip_runtime.h").exists()
    {
        return common::skip("clang-19 or /usr/include/hip", "the memory codegen check");
    }
    let rules = RuleSet::embedded().expect("rule table loads");
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("memory_codegen.hip");
    std::fs::write(&src, source(&rules)).unwrap();
    for arch in ["gfx942", "gfx1100"] {
        let asm = compile(&src, arch);

        let loads = body(&asm, "two_volatile_loads");
        let second_load = loads
            .iter()
            .enumerate()
            .filter(|(_, l)| l.starts_with("global_load") || l.starts_with("flat_load"))
            .map(|(i, _)| i)
            .nth(1);
        let first_wait = loads.iter().position(|l| l.starts_with("s_waitcnt vmcnt"));
        assert!(
            matches!((second_load, first_wait), (Some(l), Some(w)) if l < w),
            "{arch}: the second volatile load waits for the first:\n{}",
            loads.join("\n")
        );

        let shared = body(&asm, "shared_volatile_v4");
        assert!(
            shared
                .iter()
                .any(|l| l.starts_with("ds_read") || l.starts_with("ds_load"))
                && !shared.iter().any(|l| l.starts_with("flat_")),
            "{arch}: ld.volatile.shared is not an LDS load:\n{}",
            shared.join("\n")
        );

        let fill = body(&asm, "cp_async_zero_fill");
        let stores: Vec<&&str> = fill
            .iter()
            .filter(|l| l.starts_with("ds_write") || l.starts_with("ds_store"))
            .collect();
        assert!(
            !stores.is_empty() && stores.iter().all(|l| l.contains("b128")),
            "{arch}: the zero fill is not one 16-byte LDS store per path:\n{}",
            fill.join("\n")
        );
    }
}
