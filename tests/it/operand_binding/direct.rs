//! Direct operand binding (`lower::operands::Direct`): where the file shows an operand's type and
//! nvcc binds it, the translation uses the operand as written (`reg = x;`), and that gives the
//! bits the glue gives (`reg = ptx2hip_in_r((x))`) and, for every type nvcc was probed with, the
//! bits nvcc gave (`tests/operands/nvcc_sm90.tsv`). Each case is translated from a small CUDA
//! function by the whole pipeline (scan, lower, emit), once with the operand as a declared name
//! and once in parentheses, which hides its type and keeps the glue; both are compiled and run
//! on the host.

use std::fmt::Write;
use std::process::Command;

use ptx2hip_core::emit::EmitMode;
use ptx2hip_core::lower::{RuleSet, Target};
use ptx2hip_core::pipeline::{self, Options};

use super::{cases, common, decls, register, skip_or_fail, REFUSED_ON_PURPOSE};

/// An operand of type `ctype` bound to a `letter` register, read (`in`) or written (`out`) from
/// values `v0`, `v1` (of `ctype` for `in`, of the register's type for `out`); `direct`: the
/// translation binds it without the glue.
struct Binding {
    name: String,
    dir: &'static str,
    letter: &'static str,
    ctype: String,
    values: [String; 2],
    /// nvcc's bits for `mov`, where probed.
    nvcc: Option<[String; 2]>,
    direct: bool,
}

/// Spellings nvcc binds that the probe did not try; the glue is their reference.
const UNPROBED: [(&str, &str, &str, &str, &str, bool); 20] = [
    ("in", "h", "short", "(short)-11", "(short)0x1234", true),
    (
        "in",
        "h",
        "unsigned short",
        "(unsigned short)0xfff5",
        "(unsigned short)7",
        true,
    ),
    ("in", "r", "int", "-11", "0x12345678", true),
    ("in", "r", "unsigned", "0x89abcdefu", "1u", true),
    ("in", "r", "unsigned int", "0x89abcdefu", "0u", true),
    ("in", "r", "signed int", "-0x7fffffff", "5", true),
    (
        "in",
        "l",
        "unsigned long long",
        "0xfedcba9876543210ull",
        "1ull",
        true,
    ),
    ("in", "l", "long long", "-3ll", "0x123456789ll", true),
    ("in", "l", "size_t", "(size_t)-1", "(size_t)42", true),
    (
        "in",
        "l",
        "float*",
        "(float*)0x123456789abcull",
        "(float*)0",
        true,
    ),
    (
        "out",
        "h",
        "short",
        "(unsigned short)0xfff5",
        "(unsigned short)0x1234",
        true,
    ),
    (
        "out",
        "h",
        "unsigned short",
        "(unsigned short)0xfff5",
        "(unsigned short)1",
        true,
    ),
    ("out", "r", "int", "0xfffffff5u", "0x12345678u", true),
    ("out", "r", "unsigned", "0xfffffff5u", "0u", true),
    (
        "out",
        "l",
        "unsigned long long",
        "0xfffffffffffffff5ull",
        "2ull",
        true,
    ),
    (
        "out",
        "l",
        "long long",
        "0xfffffffffffffff5ull",
        "2ull",
        true,
    ),
    ("out", "l", "size_t", "0xfffffffffffffff5ull", "2ull", true),
    // A pointer is read as its bits, but stored through the glue (no implicit conversion).
    ("out", "l", "float*", "0x123456789abcull", "0ull", false),
    // A typedef the file does not show: the glue.
    ("in", "r", "my_word", "0x89abcdefu", "3u", false),
    ("out", "r", "my_word", "0x89abcdefu", "3u", false),
];

fn bindings() -> Vec<Binding> {
    let probed = cases().into_iter().filter(|c| {
        c.accepted
            && !REFUSED_ON_PURPOSE.contains(&c.name.as_str())
            && c.decl.is_empty()
            && (c.expr == "x" || c.expr == "y")
            && c.dir != "n"
    });
    let mut all: Vec<Binding> = probed
        .map(|c| Binding {
            // Enums are not in the table of types that bind (their size is the compiler's).
            direct: !(c.ctype.starts_with('E') || (c.dir == "out" && c.ctype.ends_with('*'))),
            name: c.name.clone(),
            dir: if c.dir == "in" { "in" } else { "out" },
            letter: ["h", "r", "l", "f", "d"]
                .into_iter()
                .find(|l| *l == c.letter)
                .unwrap(),
            ctype: c.ctype,
            values: [c.v0, c.v1],
            nvcc: Some(c.bits),
        })
        .collect();
    all.extend(
        UNPROBED
            .iter()
            .map(|&(dir, letter, ctype, v0, v1, direct)| Binding {
                name: format!("{dir}.{letter}.{}", ctype.replace([' ', '*'], "_")),
                dir,
                letter,
                ctype: ctype.into(),
                values: [v0.into(), v1.into()],
                nvcc: None,
                direct,
            }),
    );
    all
}

/// The PTX that moves a `letter` register, and one that computes with it (signed for integers:
/// the read of an `int` as the `.s32` value it is).
fn instructions(letter: &str) -> [&'static str; 2] {
    match letter {
        "h" => ["mov.b16 %0, %1;", "add.s16 %0, %1, 1;"],
        "r" => ["mov.b32 %0, %1;", "add.s32 %0, %1, 1;"],
        "l" => ["mov.b64 %0, %1;", "add.s64 %0, %1, 1;"],
        "f" => ["mov.f32 %0, %1;", "neg.f32 %0, %1;"],
        _ => ["mov.f64 %0, %1;", "neg.f64 %0, %1;"],
    }
}

/// `void NAME(const T& value, unsigned char* out)`: the asm statement `ptx` reading or writing the
/// operand, named `operand` (`x`, or `(x)` to hide its type), and the bytes it gives in `out`.
fn function(b: &Binding, name: &str, ptx: &str, hidden: bool) -> String {
    let r = register(b.letter);
    let l = b.letter;
    if b.dir == "in" {
        let x = if hidden { "(x)" } else { "x" };
        format!(
            "__device__ void {name}({ct} x, unsigned char* out) {{\n  {r} reg;\n  \
             asm(\"{ptx}\" : \"={l}\"(reg) : \"{l}\"({x}));\n  memcpy(out, &reg, sizeof reg);\n}}\n",
            ct = b.ctype
        )
    } else {
        let y = if hidden { "(y)" } else { "y" };
        format!(
            "__device__ void {name}({r} v, unsigned char* out) {{\n  {ct} y;\n  \
             memset((void*)&y, 0xa5, sizeof y);\n  asm(\"{ptx}\" : \"={l}\"({y}) : \"{l}\"(v));\n  \
             memcpy(out, (const void*)&y, sizeof y);\n}}\n",
            ct = b.ctype
        )
    }
}

#[test]
fn operands_of_visible_types_bind_directly_with_the_glues_and_nvccs_bits() {
    let Some(cxx) = common::host_cxx() else {
        return skip_or_fail("a host C++ compiler");
    };
    let bindings = bindings();
    assert!(bindings.iter().filter(|b| b.nvcc.is_some()).count() >= 20);
    let mut cuda = String::from(
        "#include <stdint.h>\n#include <string.h>\n#include <stdio.h>\ntypedef unsigned int my_word;\n",
    );
    cuda.push_str(&decls());
    for (k, b) in bindings.iter().enumerate() {
        for (i, ptx) in instructions(b.letter).into_iter().enumerate() {
            cuda.push_str(&function(b, &format!("direct_{k}_{i}"), ptx, false));
            cuda.push_str(&function(b, &format!("glue_{k}_{i}"), ptx, true));
        }
    }
    let rules = RuleSet::embedded().unwrap();
    let options = Options {
        target: Target::Portable,
        emit: Some(EmitMode::Replace),
        provenance: false,
        tensor_model: Default::default(),
        fast: false,
        evidence: Default::default(),
    };
    let outcome = pipeline::process(cuda.as_bytes(), &rules, options);
    let translated = String::from_utf8(outcome.rewritten.expect("translated").bytes).unwrap();
    // Each function's translated body, by name.
    let body = |name: &str| {
        let start = translated.find(&format!("void {name}(")).unwrap();
        let end = start + translated[start..].find("\n}\n").unwrap();
        translated[start..end].to_string()
    };
    for (k, b) in bindings.iter().enumerate() {
        for i in 0..2 {
            let direct = body(&format!("direct_{k}_{i}"));
            assert!(
                !direct.contains("asm("),
                "{}: not translated\n{direct}",
                b.name
            );
            let operand = if b.dir == "in" { "_in_" } else { "_out_" };
            let glued = direct.contains(&format!("ptx2hip{operand}"));
            assert_eq!(!glued, b.direct, "{}:\n{direct}", b.name);
            assert!(body(&format!("glue_{k}_{i}")).contains(&format!("ptx2hip{operand}")));
        }
    }
    let mut main = String::from(
        "static void show(const unsigned char* o, int n) {\n  printf(\"\\t0x\");\n  \
         for (int b = n - 1; b >= 0; --b) printf(\"%02x\", o[b]);\n}\nint main() {\n",
    );
    for (k, b) in bindings.iter().enumerate() {
        let size = match b.dir {
            "out" => format!("(int)sizeof({})", b.ctype),
            _ => format!("(int)sizeof({})", register(b.letter)),
        };
        let _ = writeln!(main, "  printf(\"{}\");", b.name);
        for f in ["direct", "glue"] {
            for i in 0..2 {
                for v in &b.values {
                    let _ = writeln!(
                        main,
                        "  {{ unsigned char o[16]; {f}_{k}_{i}({v}, o); show(o, {size}); }}"
                    );
                }
            }
        }
        main.push_str("  printf(\"\\n\");\n");
    }
    main.push_str("  return 0;\n}\n");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("direct.cpp");
    let exe = dir.path().join("direct");
    std::fs::write(&file, format!("{translated}{main}")).unwrap();
    let o = Command::new(cxx)
        .args([
            "-std=c++17",
            "-O1",
            "-w",
            "-D__device__=",
            "-D__host__=",
            "-x",
            "c++",
        ])
        .arg(&file)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run = Command::new(&exe).output().unwrap();
    let got = String::from_utf8(run.stdout).unwrap();
    assert_eq!(got.lines().count(), bindings.len());
    for (b, line) in bindings.iter().zip(got.lines()) {
        let f: Vec<&str> = line.split('\t').collect();
        // name, then direct mov v0 v1, direct op v0 v1, glue mov v0 v1, glue op v0 v1.
        assert_eq!(f.len(), 9, "{line}");
        assert_eq!(
            f[1..5],
            f[5..9],
            "{}: direct and glue differ: {line}",
            b.name
        );
        if let Some(bits) = &b.nvcc {
            assert_eq!(
                [f[1], f[2]],
                [bits[0].as_str(), bits[1].as_str()],
                "{}",
                b.name
            );
        }
    }
}
