//! The operand glue (`ptx2hip_in_r`, `ptx2hip_out_r`, ..., `ptx2hip_imm` in
//! rules/helpers/operands.h) against what nvcc 13 did on an H100 for every probed operand
//! (`tests/operands/nvcc_sm90.tsv`, written by `tools/operands/probe.py`; docs/OPERANDS.md): where
//! nvcc accepted the operand the glue gives the same register bits (inputs, `"n"` constants) or the
//! same object bytes (outputs), compiled and run on the host; where nvcc rejected it the glue does
//! not compile either (clang-19, HIP device code with HIP's own `__half`, `__half2`, `short2`,
//! ...).
//!
//! Deliberate differences, checked as such: a `const` output (nvcc warns and writes it; the glue
//! refuses), a bit-field output (nvcc writes the field; the glue cannot bind a reference to it,
//! so it does not compile) and a class with one conversion function to a built-in type (nvcc
//! converts it; the glue refuses every class).
//!
//! Without a host C++ compiler or clang-19: skipped with a note, or a failure when `CI` is set.

use crate::common;
#[path = "operand_binding/direct.rs"]
mod direct;

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::Command;

use ptx2hip_core::lower::RuleSet;

/// nvcc accepts these, the glue deliberately does not compile them: a const or bit-field output,
/// and a class with a single conversion function to a built-in type (nvcc converts it).
const REFUSED_ON_PURPOSE: [&str; 5] = [
    "out.r.const_uint32",
    "out.r.bitfield_u12",
    "out.r.bitfield_s5",
    "in.r.class_to_unsigned",
    "in.f.class_to_float",
];

struct Case {
    name: String,
    dir: String,
    letter: String,
    ctype: String,
    decl: String,
    expr: String,
    v0: String,
    v1: String,
    accepted: bool,
    bits: [String; 2],
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The probed cases that concern binding (`in`, `out`, `n`; not instruction/register mismatches).
fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(root().join("tests/operands/nvcc_sm90.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 12, "{l}");
            Case {
                name: f[0].into(),
                dir: f[1].into(),
                letter: f[2].into(),
                ctype: f[3].into(),
                decl: f[4].into(),
                expr: f[5].into(),
                v0: f[6].into(),
                v1: f[7].into(),
                accepted: f[8] == "ok",
                bits: [f[9].into(), f[10].into()],
            }
        })
        .filter(|c| matches!(c.dir.as_str(), "in" | "out" | "n"))
        .collect()
}

fn register(letter: &str) -> &'static str {
    match letter {
        "h" => "uint16_t",
        "r" => "uint32_t",
        "l" => "uint64_t",
        "f" => "float",
        "d" => "double",
        other => panic!("letter {other}"),
    }
}

fn glue() -> String {
    let rules = RuleSet::embedded().unwrap();
    let names: Vec<String> = "hrlfd"
        .chars()
        .flat_map(|l| [format!("ptx2hip_in_{l}"), format!("ptx2hip_out_{l}")])
        .chain(["ptx2hip_imm".to_string()])
        .collect();
    let mut s = String::new();
    for h in rules.helper_closure(names.iter()) {
        s.push_str(rules.helpers[&h].portable.trim());
        s.push('\n');
    }
    s
}

fn decls() -> String {
    std::fs::read_to_string(root().join("tests/operands/decls.h")).unwrap()
}

/// One case's statements; `value` is the C++ value the operand (or register) starts from.
fn body(c: &Case, value: &str) -> String {
    let r = register(&c.letter);
    match c.dir.as_str() {
        "in" => format!(
            "{ct} x = {value}; {decl} {r} reg = ptx2hip_in_{l}({e}); memcpy(out, &reg, sizeof reg);",
            l = c.letter,
            ct = c.ctype,
            decl = c.decl,
            e = c.expr
        ),
        "out" => format!(
            "{r} v = {value}; {ct} y; memset((void*)&y, 0xa5, sizeof y); {decl} ptx2hip_out_{l}({e}) = v; \
             memcpy(out, (const void*)&y, sizeof y);",
            l = c.letter,
            ct = c.ctype,
            decl = c.decl,
            e = c.expr
        ),
        _ => format!(
            "{r} reg = ptx2hip_imm<{r}>({e}); memcpy(out, &reg, sizeof reg);",
            e = c.expr
        ),
    }
}

fn skip_or_fail(what: &str) {
    common::skip(what, "the operand binding checks")
}

#[test]
fn the_glue_gives_nvccs_bits_for_every_operand_nvcc_accepts() {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    if !common::installed(&cxx) {
        return skip_or_fail(&cxx);
    }
    let cases: Vec<Case> = cases()
        .into_iter()
        .filter(|c| c.accepted && !REFUSED_ON_PURPOSE.contains(&c.name.as_str()))
        .collect();
    assert!(cases.len() >= 40, "{} accepted cases", cases.len());
    let mut src = String::from(
        "#include <cstdint>\n#include <cstring>\n#include <cstdio>\n#define __host__\n#define __device__\n",
    );
    src.push_str(&glue());
    src.push_str(&decls());
    src.push_str("static void show(const char* name, unsigned char (*out)[16], int n) {\n  printf(\"%s\\tok\", name);\n");
    src.push_str("  for (int i = 0; i < 2; ++i) { printf(\"\\t0x\"); for (int b = n - 1; b >= 0; --b) printf(\"%02x\", out[i][b]); }\n  printf(\"\\n\");\n}\nint main() {\n");
    for c in &cases {
        let size = match c.dir.as_str() {
            "out" => format!("(int)sizeof({})", c.ctype),
            _ => format!("(int)sizeof({})", register(&c.letter)),
        };
        let _ = writeln!(src, "  {{ unsigned char o[2][16];");
        for (i, v) in [&c.v0, &c.v1].into_iter().enumerate() {
            let _ = writeln!(src, "    {{ unsigned char* out = o[{i}]; {} }}", body(c, v));
        }
        let _ = writeln!(src, "    show({:?}, o, {size}); }}", c.name);
    }
    src.push_str("  return 0;\n}\n");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("values.cpp");
    let exe = dir.path().join("values");
    std::fs::write(&file, &src).unwrap();
    let o = Command::new(&cxx)
        .args(["-std=c++17", "-O1", "-w"])
        .arg(&file)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}\n{src}",
        String::from_utf8_lossy(&o.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    let got = String::from_utf8(run.stdout).unwrap();
    let mut mismatches = Vec::new();
    for (c, line) in cases.iter().zip(got.lines()) {
        let expected = format!("{}\tok\t{}\t{}", c.name, c.bits[0], c.bits[1]);
        if line != expected {
            mismatches.push(format!("expected {expected}\n     got {line}"));
        }
    }
    assert_eq!(got.lines().count(), cases.len());
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// The cases of `cases` that fail to compile with the glue, as HIP device code. clang reports a
/// failing template instantiation once, so cases that may share one (`ptx2hip_in<uint16_t>` of a
/// `uint32_t` and of a `unsigned` bit-field) go to different translation units.
fn refused_by_clang(cases: &[&Case]) -> (BTreeSet<String>, String) {
    let mut src = String::from(
        "#include <hip/hip_fp16.h>\n#include <cstring>\n\
         struct __nv_bfloat16 { unsigned short x; __host__ __device__ operator float() const; \
         __host__ __device__ operator unsigned short() const; };\n\
         struct __nv_bfloat162 { __nv_bfloat16 x, y; };\n",
    );
    src.push_str(&glue());
    src.push_str(&decls());
    src.push_str(
        "template <class T> __device__ T zero() { T t; memset((void*)&t, 0, sizeof t); return t; }\n",
    );
    let mut lines_of = Vec::new();
    for (k, c) in cases.iter().enumerate() {
        let value = if c.dir == "out" {
            format!("{}()", register(&c.letter))
        } else {
            format!("zero<{}>()", c.ctype)
        };
        let _ = writeln!(src, "__device__ void case_{k}(unsigned char* out) {{");
        lines_of.push(src.lines().count() + 1);
        let _ = writeln!(src, "  {}\n}}", body(c, &value));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("refusals.hip");
    std::fs::write(&file, &src).unwrap();
    let o = Command::new("clang-19")
        .args([
            "-x",
            "hip",
            "--offload-arch=gfx942",
            "--cuda-device-only",
            "-nogpulib",
            "-fsyntax-only",
            "-ferror-limit=0",
            "-include",
            "hip/hip_runtime.h",
        ])
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let prefix = format!("{}:", file.to_string_lossy());
    let flagged: BTreeSet<usize> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter_map(|l| l.split(':').next()?.parse().ok())
        .collect();
    let refused = cases
        .iter()
        .zip(&lines_of)
        .filter(|(_, line)| flagged.contains(line))
        .map(|(c, _)| c.name.clone())
        .collect();
    (refused, stderr)
}

#[test]
fn the_glue_refuses_at_compile_time_every_operand_nvcc_rejects() {
    if !common::installed("clang-19") {
        return skip_or_fail("clang-19");
    }
    let cases = cases();
    let plain = |c: &&Case| c.decl.is_empty() && (c.expr == "x" || c.expr == "y" || c.dir == "n");
    let mut units: Vec<Vec<&Case>> = ["in", "out", "n"]
        .iter()
        .map(|d| cases.iter().filter(|c| c.dir == *d).filter(plain).collect())
        .collect();
    // The other cases (references, const, bit-fields, expressions): one unit per repeat of a
    // register and C++ type.
    let mut extra: Vec<Vec<&Case>> = Vec::new();
    for c in cases.iter().filter(|c| !plain(c)) {
        let clash = |u: &Vec<&Case>| {
            u.iter()
                .any(|o| (&o.letter, &o.ctype) == (&c.letter, &c.ctype))
        };
        match extra.iter_mut().find(|u| !clash(u)) {
            Some(u) => u.push(c),
            None => extra.push(vec![c]),
        }
    }
    units.extend(extra);
    let results: Vec<(BTreeSet<String>, String)> = std::thread::scope(|s| {
        let workers: Vec<_> = units
            .chunks(units.len().div_ceil(2))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|u| refused_by_clang(u))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let mut refused = BTreeSet::new();
    let mut stderr = String::new();
    for (r, e) in results {
        refused.extend(r);
        stderr.push_str(&e);
    }
    let mut wrong = Vec::new();
    for c in &cases {
        let glue_refuses = refused.contains(&c.name);
        let expected = !c.accepted || REFUSED_ON_PURPOSE.contains(&c.name.as_str());
        if glue_refuses != expected {
            wrong.push(format!(
                "{}: nvcc {}, glue {}",
                c.name,
                if c.accepted { "accepts" } else { "rejects" },
                if glue_refuses { "refuses" } else { "compiles" }
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{}\n{}",
        wrong.join("\n"),
        stderr.lines().take(40).collect::<Vec<_>>().join("\n")
    );
    assert!(
        stderr.contains("ptx2hip: nvcc rejects this asm operand"),
        "the refusals carry the static_assert message"
    );
}

/// `"q"` (measured separately: `tools/operands/probe_q.sh`, `tests/operands/nvcc_sm90_q.txt`):
/// `ptx2hip_in_q`/`ptx2hip_out_q` compile for exactly the types nvcc binds (`__int128`,
/// `unsigned __int128`, whose bits are the register) and refuse the others. The probe's `const`
/// rows are left out: its input case could not be declared, and a `const` output is refused on
/// purpose, as for the other letters.
#[test]
fn q_operands_bind_exactly_the_128_bit_integers_nvcc_binds() {
    if !common::installed("clang-19") {
        return skip_or_fail("clang-19");
    }
    let probe = std::fs::read_to_string(root().join("tests/operands/nvcc_sm90_q.txt")).unwrap();
    let cases: Vec<(&str, &str, bool)> = probe
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() >= 3 && !f[1].starts_with("const")).then(|| (f[0], f[1], f[2] == "ok"))
        })
        .collect();
    assert_eq!(cases.len(), 22, "probe rows");
    let rules = RuleSet::embedded().unwrap();
    let names = ["ptx2hip_in_q".to_string(), "ptx2hip_out_q".to_string()];
    let glue: String = rules
        .helper_closure(names.iter())
        .iter()
        .map(|h| format!("{}\n", rules.helpers[h].portable.trim()))
        .collect();
    let mut wrong = Vec::new();
    // One translation unit per direction: clang reports a failed instantiation only once.
    for direction in ["in", "out"] {
        let mut src =
            format!("#include <cstring>\nstruct S16 {{ unsigned long long a, b; }};\n{glue}");
        let mut line_of = Vec::new();
        for (k, (_, ty, _)) in cases.iter().filter(|c| c.0 == direction).enumerate() {
            let _ = writeln!(src, "__device__ void case_{k}(unsigned __int128* io) {{");
            line_of.push(src.lines().count() + 1);
            let _ = match direction {
                "in" => writeln!(
                    src,
                    "  {ty} x; memset((void*)&x, 0, sizeof x); *io = ptx2hip_in_q(x);\n}}"
                ),
                _ => writeln!(
                    src,
                    "  {ty} y; ptx2hip_out_q(y) = *io; memcpy(io, (const void*)&y, sizeof y);\n}}"
                ),
            };
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("q.hip");
        std::fs::write(&file, &src).unwrap();
        let o = Command::new("clang-19")
            .args([
                "-x",
                "hip",
                "--offload-arch=gfx942",
                "--cuda-device-only",
                "-nogpulib",
            ])
            .args([
                "-fsyntax-only",
                "-ferror-limit=0",
                "-include",
                "hip/hip_runtime.h",
            ])
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        let prefix = format!("{}:", file.to_string_lossy());
        let flagged: BTreeSet<usize> = stderr
            .lines()
            .filter_map(|l| l.strip_prefix(&prefix)?.split(':').next()?.parse().ok())
            .collect();
        let cases_here = cases.iter().filter(|c| c.0 == direction);
        for ((_, ty, accepted), line) in cases_here.zip(&line_of) {
            if flagged.contains(line) == *accepted {
                wrong.push(format!(
                    "{direction} {ty}: nvcc accepts: {accepted}\n{stderr}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// CUDA's built-in variables: `threadIdx`, `blockIdx`, `blockDim` and `gridDim` are `uint3`/`dim3`
/// values whose members nvcc binds as the `unsigned int` they are, `warpSize` an `int`. HIP
/// spells the coordinates as classes that convert to `unsigned int`; the glue binds exactly those
/// as nvcc binds an `unsigned int`.
const BUILTINS: [&str; 13] = [
    "threadIdx.x",
    "threadIdx.y",
    "threadIdx.z",
    "blockIdx.x",
    "blockIdx.y",
    "blockIdx.z",
    "blockDim.x",
    "blockDim.y",
    "blockDim.z",
    "gridDim.x",
    "gridDim.y",
    "gridDim.z",
    "warpSize",
];

/// The probed C++ type nvcc binds a built-in variable as.
fn builtin_type(builtin: &str) -> &'static str {
    if builtin == "warpSize" {
        "int32"
    } else {
        "uint32"
    }
}

#[test]
fn built_in_variables_bind_in_every_constraint_as_nvcc_binds_their_type() {
    if !common::installed("clang-19") {
        return skip_or_fail("clang-19");
    }
    let probed = cases();
    // One translation unit per built-in: the x, y and z of every variable bind as the same type,
    // whose refusal clang reports only once per unit.
    let units: Vec<Vec<Case>> = BUILTINS
        .iter()
        .map(|b| {
            ["in", "out"]
                .iter()
                .flat_map(|dir| "hrlfd".chars().map(move |l| (dir, l)))
                .map(|(dir, letter)| Case {
                    name: format!("{dir}.{letter}.{b}"),
                    dir: dir.to_string(),
                    letter: letter.to_string(),
                    ctype: "int".into(),
                    decl: String::new(),
                    expr: b.to_string(),
                    v0: String::new(),
                    v1: String::new(),
                    accepted: false,
                    bits: [String::new(), String::new()],
                })
                .collect()
        })
        .collect();
    let results = common::in_parallel(units.iter().collect(), |unit| {
        refused_by_clang(&unit.iter().collect::<Vec<_>>())
    });
    let mut wrong = Vec::new();
    for (unit, (refused, stderr)) in units.iter().zip(&results) {
        for c in unit {
            // Inputs bind as the probed type does; outputs are never assignable.
            let ty = builtin_type(&c.expr);
            let row = format!("in.{}.{ty}", c.letter);
            let nvcc_binds = c.dir == "in" && probed.iter().any(|p| p.name == row && p.accepted);
            if refused.contains(&c.name) == nvcc_binds {
                wrong.push(format!(
                    "{}: nvcc binds it: {nvcc_binds}\n{}",
                    c.name,
                    stderr.lines().take(20).collect::<Vec<_>>().join("\n")
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every built-in in `"r"`, translated for both targets by the tool and compiled as HIP device
/// code (`-Wall -Wextra -Werror`): the statements `check` calls translatable compile.
#[test]
fn built_in_variables_in_r_operands_translate_into_code_that_compiles_for_amd() {
    if !common::installed("clang-19") {
        return skip_or_fail("clang-19");
    }
    let mut src = String::from("#include <cstdint>\n__global__ void builtins(uint32_t* out) {\n");
    for (k, b) in BUILTINS.iter().enumerate() {
        let _ = writeln!(
            src,
            "  asm(\"add.u32 %0, %1, 1;\" : \"=r\"(out[{k}]) : \"r\"({b}));"
        );
    }
    src.push_str("}\n");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("builtins.cu");
    std::fs::write(&file, &src).unwrap();
    for target in ["amd", "portable"] {
        let out_dir = dir.path().join(target);
        let o = Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
            .args([
                "translate",
                "--emit",
                "replace",
                "--target",
                target,
                "--out-dir",
            ])
            .arg(&out_dir)
            .arg(&file)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.success() && said.contains("13 statements translated, 0 left"),
            "{target}: {said}"
        );
        let o = Command::new("clang-19")
            .args(["-x", "hip", "-std=c++17", "--offload-arch=gfx942"])
            .args(["--cuda-device-only", "-nogpulib", "-fsyntax-only"])
            .args([
                "-Wall",
                "-Wextra",
                "-Werror",
                "-include",
                "hip/hip_runtime.h",
            ])
            .arg(out_dir.join("builtins.cu"))
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{target}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
