//! The `bits` (B001-) and `video` (V001-) families against independent models: (when a host C++
//! compiler is present) the translated code, portable and AMD (with the host models of
//! tests/amd_models/bits.h), is run against reference models of the PTX semantics on edge values,
//! and the AMD code compiles for each architecture. The families' cases are data (`[[rule.test]]`,
//! run by the verification crate's `rule_cases` test).

use crate::common;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use ptx2hip_core::lower::{self, RuleSet, Target};
use ptx2hip_core::scan::AsmStatement;

/// An asm statement with PTX `ptx` and operands `op0`, `op1`, ... of the given constraints.
fn statement(ptx: &str, constraints: &str) -> AsmStatement {
    let constraints: Vec<String> = constraints
        .split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect();
    AsmStatement::synthetic(ptx, &constraints)
}

fn rules() -> RuleSet {
    RuleSet::embedded().expect("rule table loads")
}

fn translate(
    rules: &RuleSet,
    ptx: &str,
    constraints: &str,
    target: Target,
) -> Result<lower::Translation, String> {
    lower::analyze(&statement(ptx, constraints), rules, target)
        .outcome
        .map_err(|u| u.message)
}

// ---------------------------------------------------------------------------------------------
// Host-side semantic check.

/// One translated function under test: PTX, constraints, and the C++ check body that calls it as
/// `F(out, in...)` (and may use the value tables and reference models of HARNESS).
struct Case {
    ptx: String,
    cons: String,
    check: String,
}

fn case(ptx: &str, cons: &str, check: &str) -> Case {
    Case {
        ptx: ptx.to_string(),
        cons: cons.to_string(),
        check: check.to_string(),
    }
}

fn c_type(constraint: &str) -> &'static str {
    match constraint.trim_start_matches(['=', '+']) {
        "h" => "uint16_t",
        "l" => "uint64_t",
        _ => "uint32_t",
    }
}

fn bits_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for (w, l) in [(32, "r"), (64, "l")] {
        let t = if w == 32 { "b32" } else { "b64" };
        let vals = if w == 32 { "V32" } else { "V64" };
        v.push(case(&format!("popc.{t} %0, %1;"), &format!("=r,{l}"),
            &format!("for (auto a : {vals}) {{ uint32_t d; F(d, a); EXPECT(d == ref_popc(a), a, 0, 0); }}")));
        v.push(case(&format!("clz.{t} %0, %1;"), &format!("=r,{l}"),
            &format!("for (auto a : {vals}) {{ uint32_t d; F(d, a); EXPECT(d == ref_clz(a, {w}), a, 0, 0); }}")));
        v.push(case(&format!("brev.{t} %0, %1;"), &format!("={l},{l}"),
            &format!("for (auto a : {vals}) {{ decltype(a) d; F(d, a); EXPECT(d == ref_brev(a, {w}), a, 0, 0); }}")));
        for s in ["u", "s"] {
            for sa in ["", ".shiftamt"] {
                v.push(case(&format!("bfind{sa}.{s}{w} %0, %1;"), &format!("=r,{l}"),
                    &format!("for (auto a : {vals}) {{ uint32_t d; F(d, a); EXPECT(d == ref_bfind(a, {w}, {}, {}), a, 0, 0); }}",
                        s == "s", !sa.is_empty())));
            }
            let bfe_check = format!(
                "for (auto a : {vals}) for (auto p : POS) for (auto n : POS) {{ decltype(a) d; F(d, a, p, n); EXPECT(d == (decltype(a))ref_bfe(a, p, n, {w}, {}), a, p, n); }}",
                s == "s");
            v.push(case(
                &format!("bfe.{s}{w} %0, %1, %2, %3;"),
                &format!("={l},{l},r,r"),
                &bfe_check,
            ));
        }
        v.push(case(&format!("bfi.{t} %0, %1, %2, %3, %4;"), &format!("={l},{l},{l},r,r"),
            &format!("for (auto a : {vals}) for (auto p : POS) for (auto n : POS) {{ decltype(a) b = a * 0x9e3779b97f4a7c15ull + 0x5555; decltype(a) d; F(d, a, b, p, n); EXPECT(d == ref_bfi(a, b, p, n, {w}), a, p, n); }}")));
    }
    v.push(case("fns.b32 %0, %1, %2, %3;", "=r,r,r,r",
        "for (auto m : V32) for (uint32_t base = 0; base < 32; ++base) for (auto o : OFFS) { uint32_t d; F(d, m, base, (uint32_t)o); EXPECT(d == ref_fns(m, base, o), m, base, (uint32_t)o); }"));
    for mode in ["clamp", "wrap"] {
        v.push(case(&format!("bmsk.{mode}.b32 %0, %1, %2;"), "=r,r,r",
            &format!("for (auto a : POS) for (auto b : POS) {{ uint32_t d; F(d, a, b); EXPECT(d == ref_bmsk(a, b, {}), a, b, 0); }}", mode == "clamp")));
        for s in ["u32", "s32"] {
            v.push(case(&format!("szext.{mode}.{s} %0, %1, %2;"), "=r,r,r",
                &format!("for (auto a : V32) for (auto b : POS) {{ uint32_t d; F(d, a, b); EXPECT(d == ref_szext(a, b, {}, {}), a, b, 0); }}",
                    mode == "clamp", s == "s32")));
        }
    }
    v.push(case("prmt.b32 %0, %1, %2, %3;", "=r,r,r,r",
        "for (auto a : V32) for (auto c : SEL) { uint32_t b = a ^ 0x80ff7f01u, d; F(d, a, b, c); EXPECT(d == ref_prmt(a, b, c, -1), a, b, c); }"));
    for (k, mode) in ["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]
        .iter()
        .enumerate()
    {
        v.push(case(&format!("prmt.b32.{mode} %0, %1, %2, %3;"), "=r,r,r,r",
            &format!("for (auto a : V32) for (auto c : V32) {{ uint32_t b = a * 2654435761u + 7u, d; F(d, a, b, c); EXPECT(d == ref_prmt(a, b, c, {k}), a, b, c); }}")));
    }
    // Every truth table, through a runtime table (the switch) and a few literal tables (folded).
    v.push(case("lop3.b32 %0, %1, %2, %3, %4;", "=r,r,r,r,r",
        "for (uint32_t lut = 0; lut < 256; ++lut) for (auto a : V32) { uint32_t b = a * 2654435761u + 0x1234u, c = ~a ^ (b >> 3), d; F(d, a, b, c, lut); EXPECT(d == ref_lop3(a, b, c, lut), a, b, lut); }"));
    for lut in ["0xca", "0xe8", "0x96", "0x1a", "0x00", "0xff", "0x3c"] {
        v.push(case(&format!("lop3.b32 %0, %1, %2, %3, {lut};"), "=r,r,r,r",
            &format!("for (auto a : V32) for (auto b : V32) {{ uint32_t c = a ^ (b * 3u), d; F(d, a, b, c); EXPECT(d == ref_lop3(a, b, c, {lut}), a, b, c); }}")));
    }
    for dir in ["l", "r"] {
        for mode in ["wrap", "clamp"] {
            v.push(case(&format!("shf.{dir}.{mode}.b32 %0, %1, %2, %3;"), "=r,r,r,r",
                &format!("for (auto a : V32) for (auto n : POS) {{ uint32_t b = ~a * 7u + 1u, d; F(d, a, b, n); EXPECT(d == ref_shf(a, b, n, {}, {}), a, b, n); }}",
                    dir == "l", mode == "clamp")));
        }
    }
    for (t, l, w) in [("16", "h", 16), ("32", "r", 32), ("64", "l", 64)] {
        let vals = match w {
            16 => "V16",
            32 => "V32",
            _ => "V64",
        };
        v.push(case(&format!("shl.b{t} %0, %1, %2;"), &format!("={l},{l},r"),
            &format!("for (auto a : {vals}) for (auto n : POS) {{ decltype(a) d; F(d, a, n); EXPECT(d == (decltype(a))ref_shift(a, n, {w}, 0), a, n, 0); }}")));
        for (k, s) in ["b", "u", "s"].iter().enumerate() {
            v.push(case(&format!("shr.{s}{t} %0, %1, %2;"), &format!("={l},{l},r"),
                &format!("for (auto a : {vals}) for (auto n : POS) {{ decltype(a) d; F(d, a, n); EXPECT(d == (decltype(a))ref_shift(a, n, {w}, {}), a, n, 0); }}",
                    if k == 2 { 2 } else { 1 })));
        }
        for (op, sym) in [("and", "&"), ("or", "|"), ("xor", "^")] {
            v.push(case(&format!("{op}.b{t} %0, %1, %2;"), &format!("={l},{l},{l}"),
                &format!("for (auto a : {vals}) for (auto b : {vals}) {{ decltype(a) d; F(d, a, b); EXPECT(d == (decltype(a))(a {sym} b), a, b, 0); }}")));
        }
        v.push(case(&format!("not.b{t} %0, %1;"), &format!("={l},{l}"),
            &format!("for (auto a : {vals}) {{ decltype(a) d; F(d, a); EXPECT(d == (decltype(a))~a, a, 0, 0); }}")));
        v.push(case(&format!("cnot.b{t} %0, %1;"), &format!("={l},{l}"),
            &format!("for (auto a : {vals}) {{ decltype(a) d; F(d, a); EXPECT(d == (a == 0 ? 1 : 0), a, 0, 0); }}")));
    }
    // Predicate logic: d = ((a != 0) OP !(b != 0)), and not.pred.
    for (op, expr) in [("and", "x && !y"), ("or", "x || !y"), ("xor", "x != !y")] {
        v.push(case(&format!("{{ .reg .pred p, q, r; setp.ne.b32 p, %1, 0; setp.ne.b32 q, %2, 0; {op}.pred r, p, !q; not.pred q, r; @q mov.b32 %0, 7; @r mov.b32 %0, 1; }}"), "+r,r,r",
            &format!("for (uint32_t a = 0; a < 3; ++a) for (uint32_t b = 0; b < 3; ++b) {{ bool x = a != 0, y = b != 0; uint32_t d = 0; F(d, a, b); EXPECT(d == (({expr}) ? 1u : 7u), a, b, 0); }}")));
    }
    v
}

/// Every form of every video rule, checked against `ref_video`.
fn video_cases(rules: &RuleSet) -> Vec<Case> {
    let mut v = Vec::new();
    for r in rules.rules.iter().filter(|r| r.family == "video") {
        for (form, b) in r.forms() {
            let get = |s: &str| b.get(s).cloned().flatten().unwrap_or_default();
            let op = r.opcode.trim_end_matches(['2', '4']);
            let lanes: u32 = if r.opcode.ends_with('4') {
                4
            } else if r.opcode.ends_with('2') {
                2
            } else {
                1
            };
            let ops = r.operands.len();
            let (ptx, cons) = if ops == 4 {
                (format!("{form} %0, %1, %2, %3;"), "=r,r,r,r")
            } else {
                (format!("{form} %0, %1, %2;"), "=r,r,r")
            };
            let sgn = |s: &str| if get(s) == "s32" { "true" } else { "false" };
            let op2 = if lanes == 1 { get("op2") } else { get("add") };
            let sub = if op == "vset" {
                get("cmp")
            } else if op == "vshl" || op == "vshr" {
                get("mode")
            } else {
                String::new()
            };
            let call = format!(
                "ref_video(\"{op}\", {lanes}, {}, {}, {}, {}, \"{op2}\", \"{sub}\", a, b, c)",
                sgn("D"),
                sgn("A"),
                sgn("B"),
                if get("sat").is_empty() {
                    "false"
                } else {
                    "true"
                }
            );
            let body = if ops == 4 {
                format!("for (auto a : V32) for (auto b : V32) for (auto c : C32) {{ uint32_t d; F(d, a, b, c); EXPECT(d == {call}, a, b, c); }}")
            } else {
                format!("for (auto a : V32) for (auto b : V32) {{ const uint32_t c = 0; uint32_t d; F(d, a, b); EXPECT(d == {call}, a, b, c); }}")
            };
            v.push(case(&ptx, cons, &body));
        }
    }
    v
}

fn compiler() -> Option<String> {
    ["g++", "clang++-19", "clang++"]
        .iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok())
        .map(|c| c.to_string())
}

#[test]
fn translations_match_reference_models_on_the_host() {
    let Some(cxx) = compiler() else {
        return common::skip("a host C++ compiler", "the bits/video semantic check");
    };
    let rules = rules();
    let mut cases = bits_cases();
    cases.extend(video_cases(&rules));
    // One program per target, built and run side by side.
    let mut programs = Vec::new();
    for (target, ns) in [(Target::Portable, "port"), (Target::Amd, "amdt")] {
        let mut src = String::from("#include \"bits_reference.h\"\n#include \"bits.h\"\n");
        let mut checks = String::new();
        let mut helpers: Vec<String> = Vec::new();
        let mut funcs = String::new();
        for (k, c) in cases.iter().enumerate() {
            let t = translate(&rules, &c.ptx, &c.cons, target)
                .unwrap_or_else(|e| panic!("`{}`: {e}", c.ptx));
            for h in rules.helper_closure(t.helpers.iter()) {
                if !helpers.contains(&h) {
                    helpers.push(h);
                }
            }
            let params: Vec<String> = c
                .cons
                .split(',')
                .enumerate()
                .map(|(i, con)| {
                    let ty = c_type(con);
                    if con.starts_with('=') || con.starts_with('+') {
                        format!("{ty}& op{i}")
                    } else {
                        format!("{ty} op{i}")
                    }
                })
                .collect();
            writeln!(funcs, "static void f{k}({}) {{", params.join(", ")).unwrap();
            for (depth, line) in &t.lines {
                writeln!(funcs, "  {}{line}", "  ".repeat(*depth)).unwrap();
            }
            funcs.push_str("}\n");
        }
        // Helpers in dependency order of the table.
        let ordered = rules.helper_closure(helpers.iter());
        writeln!(src, "namespace {ns} {{").unwrap();
        for h in &ordered {
            let def = &rules.helpers[h];
            let text = match target {
                Target::Amd => def.amd.as_deref().unwrap_or(&def.portable),
                Target::Portable => &def.portable,
            };
            src.push_str(text);
            src.push('\n');
        }
        src.push_str(&funcs);
        src.push_str("}\n");
        // One function per check: a main holding all of them took g++ -O1 40 s of CPU, these
        // 24 s (the optimiser is superlinear in the size of a function); -O0 takes 10 s.
        for (k, c) in cases.iter().enumerate() {
            let label = format!("{ns}: {}", c.ptx.replace('"', "'"));
            writeln!(
                src,
                "static void check_{ns}_{k}() {{\n  current = \"{label}\";\n#define F {ns}::f{k}\n  {}\n#undef F\n}}",
                c.check
            )
            .unwrap();
            writeln!(checks, "  check_{ns}_{k}();").unwrap();
        }
        write!(
            src,
            "int main() {{\n  init_values();\n  if (ptx2hip_amd_models_bits_selfcheck() != 0) {{ printf(\"AMD model self-check failed\\n\"); return 2; }}\n{checks}  printf(\"failures: %d\\n\", failures);\n  return failures != 0;\n}}\n"
        )
        .unwrap();
        programs.push((ns, src));
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rules_bits");
    std::fs::create_dir_all(&dir).unwrap();
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    common::in_parallel(programs, |(ns, src)| {
        let cpp = dir.join(format!("check_{ns}.cpp"));
        let exe = dir.join(format!("check_{ns}"));
        std::fs::write(&cpp, &src).unwrap();
        let out = Command::new(&cxx)
            .args(["-std=c++17", "-O0", "-w", "-I"])
            .arg(tests.join("amd_models"))
            .arg("-I")
            .arg(tests.join("cpp"))
            .arg(&cpp)
            .arg("-o")
            .arg(&exe)
            .output()
            .expect("compiler runs");
        assert!(
            out.status.success(),
            "host compile of {} failed:\n{}",
            cpp.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let run = Command::new(&exe).output().expect("check runs");
        let text = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "semantic mismatches ({}):\n{text}",
            cpp.display()
        );
    });
}

/// The AMD translations of every semantic-check case, with their helpers, compile for gfx90a, gfx942
/// and gfx1100 with clang-19 and the HIP headers (skipped when clang-19 is not installed).
#[test]
fn amd_translations_compile_for_each_architecture() {
    if !common::require(&["clang-19"], "the bits/video AMD compile check") {
        return;
    }
    let rules = rules();
    let mut cases = bits_cases();
    cases.extend(video_cases(&rules));
    let mut helpers: Vec<String> = Vec::new();
    let mut funcs = String::new();
    let mut calls = String::new();
    for (k, c) in cases.iter().enumerate() {
        let t = translate(&rules, &c.ptx, &c.cons, Target::Amd)
            .unwrap_or_else(|e| panic!("`{}`: {e}", c.ptx));
        helpers.extend(t.helpers.iter().cloned());
        let cons: Vec<&str> = c.cons.split(',').collect();
        let params: Vec<String> = cons
            .iter()
            .enumerate()
            .map(|(i, con)| {
                let ty = c_type(con);
                if con.starts_with('=') || con.starts_with('+') {
                    format!("{ty}& op{i}")
                } else {
                    format!("{ty} op{i}")
                }
            })
            .collect();
        writeln!(
            funcs,
            "__device__ static void f{k}({}) {{",
            params.join(", ")
        )
        .unwrap();
        for (depth, line) in &t.lines {
            writeln!(funcs, "  {}{line}", "  ".repeat(*depth)).unwrap();
        }
        funcs.push_str("}\n");
        let args: Vec<String> = cons
            .iter()
            .enumerate()
            .map(|(i, con)| {
                let ty = c_type(con);
                if con.starts_with('=') || con.starts_with('+') {
                    format!("o{k}_{i}")
                } else {
                    format!("({ty})p[{}]", i + k % 7)
                }
            })
            .collect();
        for (i, con) in cons.iter().enumerate() {
            if con.starts_with('=') || con.starts_with('+') {
                writeln!(
                    calls,
                    "  {} o{k}_{i} = ({})p[{i}];",
                    c_type(con),
                    c_type(con)
                )
                .unwrap();
            }
        }
        writeln!(calls, "  f{k}({});", args.join(", ")).unwrap();
        for (i, con) in cons.iter().enumerate() {
            if con.starts_with('=') || con.starts_with('+') {
                writeln!(calls, "  p[{}] = (uint64_t)o{k}_{i};", 8 + k).unwrap();
            }
        }
    }
    let mut src =
        String::from("#include <hip/hip_runtime.h>\n#include <stdint.h>\n#include <string.h>\n");
    for h in rules.helper_closure(helpers.iter()) {
        let def = &rules.helpers[&h];
        src.push_str(def.amd.as_deref().unwrap_or(&def.portable));
        src.push('\n');
    }
    src.push_str(&funcs);
    write!(
        src,
        "__global__ void all_forms(uint64_t* p) {{\n{calls}}}\n"
    )
    .unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rules_bits");
    std::fs::create_dir_all(&dir).unwrap();
    let hip = dir.join("amd_forms.hip");
    std::fs::write(&hip, &src).unwrap();
    common::in_parallel(vec!["gfx90a", "gfx942", "gfx1100"], |arch| {
        let out = Command::new("clang-19")
            .args([
                "-x",
                "hip",
                "-std=c++17",
                &format!("--offload-arch={arch}"),
                "--cuda-device-only",
                "-nogpulib",
                "-O0",
                "-emit-llvm",
                "-S",
            ])
            .arg(&hip)
            .args(["-o", "/dev/null"])
            .output()
            .expect("clang-19 runs");
        assert!(
            out.status.success(),
            "{arch}: {}\n{}",
            hip.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    });
}
