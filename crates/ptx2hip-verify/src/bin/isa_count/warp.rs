//! `isa_count --warp`: instruction counts of the warp-level translations on gfx942 (wave64) and
//! gfx1100 (wave32), each beside the native HIP call a port would write for it. The native calls
//! are not warp-exact (they work on the whole wave, take widths instead of PTX's c operand, ...):
//! they are the yardstick the issue asks for ("within 2x of the native HIP call").
//!
//! Each form and its native counterpart become two `noinline` device functions with the same
//! arguments (in VGPRs); the count is the one of `super::count`. HIP's `__any`/`__all` call the
//! device library (`__ockl_wfany_i32`), which is linked: for gfx942 with `oclc_isa_version_940`,
//! for gfx1100 with `oclc_isa_version_1030` (Debian ships no 1100 file; the wave-vote functions do
//! not depend on the ISA version) and `oclc_wavefrontsize64_off`.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use ptx2hip_core::lower::{self, RuleSet, Target};
use ptx2hip_core::scan::AsmStatement;

/// (label, PTX statement, constraints, native HIP body over the same arguments `op1..`).
/// The first operand is the output (`=r`), the others are `r` inputs.
const FORMS: &[(&str, &str, &str, &str)] = &[
    ("shfl.sync.bfly b=16 (imm)", "shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0xffffffff;", "=r,r", "return __shfl_xor((int)op1, 16, 32);"),
    ("shfl.sync.bfly b=1 (imm)", "shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;", "=r,r", "return __shfl_xor((int)op1, 1, 32);"),
    ("shfl.sync.bfly b=5 (imm)", "shfl.sync.bfly.b32 %0, %1, 5, 0x1f, 0xffffffff;", "=r,r", "return __shfl_xor((int)op1, 5, 32);"),
    ("shfl.sync.bfly b=8, 8-lane segments (imm)", "shfl.sync.bfly.b32 %0, %1, 4, 0x181f, 0xffffffff;", "=r,r", "return __shfl_xor((int)op1, 4, 8);"),
    ("shfl.sync.bfly b (reg)", "shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;", "=r,r,r", "return __shfl_xor((int)op1, (int)op2, 32);"),
    ("shfl.sync.down b=1 (imm)", "shfl.sync.down.b32 %0, %1, 1, 0x1f, 0xffffffff;", "=r,r", "return __shfl_down((int)op1, 1u, 32);"),
    ("shfl.sync.down b (reg)", "shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;", "=r,r,r", "return __shfl_down((int)op1, op2, 32);"),
    ("shfl.sync.up b=1 (imm)", "shfl.sync.up.b32 %0, %1, 1, 0, 0xffffffff;", "=r,r", "return __shfl_up((int)op1, 1u, 32);"),
    ("shfl.sync.up b (reg)", "shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;", "=r,r,r", "return __shfl_up((int)op1, op2, 32);"),
    ("shfl.sync.idx b=0 (imm)", "shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;", "=r,r", "return __shfl((int)op1, 0, 32);"),
    ("shfl.sync.idx b (reg)", "shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;", "=r,r,r", "return __shfl((int)op1, (int)op2, 32);"),
    ("shfl.sync.down d|p, b, c, m (reg)", "{ .reg .pred p; shfl.sync.down.b32 %0|p, %1, %2, %3, %4; @p add.u32 %0, %0, %1; }", "=r,r,r,r,r", "return (uint32_t)__shfl_down((int)op1, op2, 32) + op1;"),
    ("vote.sync.ballot.b32", "{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }", "=r,r", "return (uint32_t)__ballot(op1 != 0);"),
    ("vote.sync.ballot.b32 m (reg)", "{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, %2; }", "=r,r,r", "return (uint32_t)__ballot(op1 != 0) & op2;"),
    ("vote.sync.any.pred", "{ .reg .pred q, d; setp.ne.u32 q, %1, 0; vote.sync.any.pred d, q, 0xffffffff; selp.u32 %0, 1, 0, d; }", "=r,r", "return __any(op1 != 0) ? 1u : 0u;"),
    ("vote.sync.all.pred", "{ .reg .pred q, d; setp.ne.u32 q, %1, 0; vote.sync.all.pred d, q, 0xffffffff; selp.u32 %0, 1, 0, d; }", "=r,r", "return __all(op1 != 0) ? 1u : 0u;"),
    ("vote.sync.uni.pred", "{ .reg .pred q, d; setp.ne.u32 q, %1, 0; vote.sync.uni.pred d, q, 0xffffffff; selp.u32 %0, 1, 0, d; }", "=r,r", "return (__all(op1 != 0) || !__any(op1 != 0)) ? 1u : 0u;"),
    ("activemask.b32", "activemask.b32 %0;", "=r", "return (uint32_t)__ballot(1);"),
    ("mov.u32 %laneid", "mov.u32 %0, %laneid;", "=r", "return __lane_id();"),
    ("mov.u32 %lanemask_lt", "mov.u32 %0, %lanemask_lt;", "=r", "return (uint32_t)__lanemask_lt();"),
    ("elect.sync d|p", "{ .reg .pred p; elect.sync %0|p, 0xffffffff; @p add.u32 %0, %0, 32; }", "=r", "uint32_t l = (uint32_t)__ffsll((unsigned long long)__ballot(1)) - 1u; return __lane_id() == l ? l + 32u : l;"),
    ("match.any.sync.b32", "match.any.sync.b32 %0, %1, 0xffffffff;", "=r,r", ""),
    ("match.all.sync.b32", "match.all.sync.b32 %0, %1, 0xffffffff;", "=r,r", ""),
    ("redux.sync.add.u32", "redux.sync.add.u32 %0, %1, 0xffffffff;", "=r,r", "int v = (int)op1; for (int o = 16; o > 0; o >>= 1) v += __shfl_xor(v, o, 32); return (uint32_t)v;"),
    ("redux.sync.max.s32", "redux.sync.max.s32 %0, %1, 0xffffffff;", "=r,r", "int v = (int)op1; for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor(v, o, 32)); return (uint32_t)v;"),
    ("redux.sync.or.b32 m (reg)", "redux.sync.or.b32 %0, %1, %2;", "=r,r,r", "int v = (int)op1; for (int o = 16; o > 0; o >>= 1) v |= __shfl_xor(v, o, 32); return (uint32_t)v;"),
];

struct Arch {
    name: &'static str,
    flags: &'static [&'static str],
    libs: &'static [&'static str],
}

const ARCHS: [Arch; 2] = [
    Arch {
        name: "gfx942",
        flags: &["--offload-arch=gfx942"],
        libs: &[
            "ockl",
            "oclc_isa_version_940",
            "oclc_wavefrontsize64_on",
            "oclc_abi_version_500",
        ],
    },
    Arch {
        name: "gfx1100",
        flags: &["--offload-arch=gfx1100"],
        libs: &[
            "ockl",
            "oclc_isa_version_1030",
            "oclc_wavefrontsize64_off",
            "oclc_abi_version_500",
        ],
    },
];

fn params(constraints: &str) -> String {
    constraints
        .split(',')
        .enumerate()
        .skip(1)
        .map(|(i, _)| format!("uint32_t op{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn source(rules: &RuleSet) -> Result<String, String> {
    let mut helpers = Vec::new();
    let mut bodies = String::new();
    for (k, (label, ptx, constraints, native)) in FORMS.iter().enumerate() {
        let cons: Vec<String> = constraints.split(',').map(String::from).collect();
        let a = lower::analyze(&AsmStatement::synthetic(ptx, &cons), rules, Target::Amd);
        let t = a.outcome.map_err(|u| format!("{label}: {}", u.message))?;
        helpers.extend(t.helpers.iter().cloned());
        let _ = writeln!(
            bodies,
            "// {label}: {ptx}\nextern \"C\" __device__ __attribute__((noinline, used)) uint32_t p2h_f{}({}) {{\n  uint32_t op0 = 0;",
            2 * k,
            params(constraints)
        );
        for l in lower::render(&t.lines, "  ", "  ") {
            bodies.push_str(&l);
            bodies.push('\n');
        }
        bodies.push_str("  return op0;\n}\n");
        if !native.is_empty() {
            let _ = writeln!(
                bodies,
                "extern \"C\" __device__ __attribute__((noinline, used)) uint32_t p2h_f{}({}) {{ {native} }}",
                2 * k + 1,
                params(constraints)
            );
        }
    }
    let mut s = String::from(
        "// generated by crates/ptx2hip-verify/src/bin/isa_count.rs --warp\n#include <hip/hip_runtime.h>\n#include <stdint.h>\n#include <string.h>\n",
    );
    s.push_str(&rules.helper_definitions(helpers.iter(), Target::Amd));
    s.push_str(&bodies);
    Ok(s)
}

fn compile(clang: &str, devlibs: &Path, arch: &Arch, src: &Path, asm: &Path) -> Result<(), String> {
    let mut cmd = Command::new(clang);
    cmd.args([
        "-x",
        "hip",
        "-std=c++17",
        "--cuda-device-only",
        "-nogpulib",
        "-O2",
        "-S",
    ])
    .args(arch.flags);
    for lib in arch.libs {
        cmd.args(["-Xclang", "-mlink-builtin-bitcode", "-Xclang"])
            .arg(devlibs.join(format!("{lib}.bc")));
    }
    let out = cmd
        .arg(src)
        .arg("-o")
        .arg(asm)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

pub fn main(rules: &RuleSet, clang: &str, devlibs: &Path, out: &Path) {
    let src_text = source(rules).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let src = out.join("warp.hip");
    std::fs::write(&src, src_text).expect("write warp.hip");
    let mut counts = Vec::new();
    for arch in &ARCHS {
        let asm = out.join(format!("warp-{}.s", arch.name));
        if let Err(e) = compile(clang, devlibs, arch, &src, &asm) {
            eprintln!("{}: {e}", arch.name);
            std::process::exit(1);
        }
        counts.push(super::count(
            &std::fs::read_to_string(&asm).expect("read asm"),
        ));
    }
    let mut table = String::from(
        "| form | native HIP call | gfx942 ptx2hip | gfx942 native | ratio | gfx1100 ptx2hip | gfx1100 native | ratio |\n|---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut worst: f64 = 0.0;
    for (k, (label, _, _, native)) in FORMS.iter().enumerate() {
        let mut row = format!(
            "| `{}` | {} |",
            label.replace('|', "\\|"),
            if native.is_empty() {
                "— (none in HIP 5.2)".to_string()
            } else {
                format!("`{}`", native.replace('|', "\\|"))
            }
        );
        for c in &counts {
            let ours = c.get(&(2 * k)).map(|(n, _)| *n);
            let theirs = c.get(&(2 * k + 1)).map(|(n, _)| *n);
            let cell = |v: Option<usize>| v.map_or("—".to_string(), |n| n.to_string());
            let ratio = match (ours, theirs) {
                (Some(o), Some(t)) if t > 0 => {
                    let r = o as f64 / t as f64;
                    worst = worst.max(r);
                    format!("{r:.2}")
                }
                _ => "—".into(),
            };
            let _ = write!(row, " {} | {} | {ratio} |", cell(ours), cell(theirs));
        }
        table.push_str(&row);
        table.push('\n');
    }
    println!("{table}");
    println!("Largest ratio ptx2hip / native: {worst:.2}.");
    eprintln!("sources and assembly in {}", out.display());
}
