//! Rules of the `bits` (B001-) and `video` (V001-) families: every example and every form lowers for
//! both targets, the deliberate gaps give their reasons, and (when a host C++ compiler is present) the
//! translated code, portable and AMD (with the host models of tests/amd_models/bits.h), is run
//! against independent reference models of the PTX semantics on edge values.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use ptx2hip::lower::rules::{OperandKind, Rule};
use ptx2hip::lower::types::PtxType;
use ptx2hip::lower::{self, RuleSet, Target};
use ptx2hip::scan::AsmStatement;

/// An asm statement with PTX `ptx` and operands `op0`, `op1`, ... of the given constraints.
fn statement(ptx: &str, constraints: &str) -> AsmStatement {
    let constraints: Vec<String> = constraints
        .split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect();
    ptx2hip::verify::forms::synthetic_statement(ptx, &constraints)
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

fn family_rules(rules: &RuleSet) -> Vec<&Rule> {
    rules
        .rules
        .iter()
        .filter(|r| r.family == "bits" || r.family == "video")
        .collect()
}

#[test]
fn every_example_translates_for_both_targets() {
    let rules = rules();
    let mine = family_rules(&rules);
    assert!(mine.len() >= 50, "bits + video rules: {}", mine.len());
    for r in mine {
        assert!(
            r.code.starts_with('B') || r.code.starts_with('V'),
            "{}",
            r.code
        );
        for target in [Target::Amd, Target::Portable] {
            let t = translate(&rules, &r.example.ptx, &r.example.constraints, target)
                .unwrap_or_else(|e| {
                    panic!("{} example `{}` ({target:?}): {e}", r.code, r.example.ptx)
                });
            assert!(
                t.rules.contains(&r.code),
                "{} example is translated by {:?}",
                r.code,
                t.rules
            );
        }
    }
}

/// A PTX statement exercising one form of a rule: registers of the operand types (predicate operands
/// go through `.reg .pred` locals set from 32-bit inputs).
fn form_statement(
    rule: &Rule,
    form: &str,
    bindings: &ptx2hip::lower::rules::Bindings,
) -> (String, String) {
    let mut cons = Vec::new();
    let mut ops = Vec::new();
    let mut pre = Vec::new();
    let mut post = Vec::new();
    let mut preds = Vec::new();
    for spec in rule.operand_specs() {
        let OperandKind::Scalar(t) = &spec.kind else {
            panic!("{}: unexpected operand kind", rule.code)
        };
        let ty = rule.resolve_type(t, bindings).expect("type resolves");
        let is_dest = spec.name.starts_with('d');
        if ty == PtxType::Pred {
            let p = format!("p{}", preds.len());
            preds.push(p.clone());
            if is_dest {
                let i = cons.len();
                cons.push("+r".to_string());
                post.push(format!("@{p} mov.b32 %{i}, 1;"));
            } else {
                let i = cons.len();
                cons.push("r".to_string());
                pre.push(format!("setp.ne.b32 {p}, %{i}, 0;"));
            }
            ops.push(p);
            continue;
        }
        let letter = match ty.bits() {
            16 => "h",
            64 => "l",
            _ => "r",
        };
        let i = cons.len();
        cons.push(if is_dest {
            format!("={letter}")
        } else {
            letter.to_string()
        });
        ops.push(format!("%{i}"));
    }
    // Outputs first in the constraint list, as in real asm statements: destinations lead in PTX too.
    let body = format!("{form} {};", ops.join(", "));
    let ptx = if preds.is_empty() {
        body
    } else {
        format!(
            "{{ .reg .pred {}; {} {body} {} }}",
            preds.join(", "),
            pre.join(" "),
            post.join(" ")
        )
    };
    (ptx, cons.join(","))
}

#[test]
fn every_form_translates_for_both_targets() {
    let rules = rules();
    let mut count = 0;
    for r in family_rules(&rules) {
        for (form, bindings) in r.forms() {
            let (ptx, cons) = form_statement(r, &form, &bindings);
            for target in [Target::Amd, Target::Portable] {
                let t = translate(&rules, &ptx, &cons, target)
                    .unwrap_or_else(|e| panic!("{} form `{ptx}` ({target:?}): {e}", r.code));
                // A specialised rule of the same opcode listed earlier (AMD fast path) may claim it.
                let ok = t
                    .rules
                    .iter()
                    .any(|c| c == &r.code || rules.rule(c).is_some_and(|o| o.opcode == r.opcode));
                assert!(ok, "{}: `{ptx}` went to {:?}", r.code, t.rules);
            }
            count += 1;
        }
    }
    assert!(count > 600, "forms: {count}");
}

#[test]
fn deliberate_gaps_give_their_reasons() {
    let rules = rules();
    let cases = [
        (
            "lop3.or.b32 %0|p, %1, %2, %3, 0xca, q;",
            "=r,r,r,r",
            "predicate form `lop3.or.b32",
        ),
        (
            "lop3.and.b32 %0|p, %1, %2, %3, 0xca, q;",
            "=r,r,r,r",
            "predicate form `lop3.and.b32",
        ),
        (
            "vadd4.u32.u32.u32.sat.add %0, %1, %2, %3;",
            "=r,r,r,r",
            "`.sat` together with the `.add`",
        ),
        (
            "vabsdiff2.s32.s32.s32.sat.add %0, %1, %2, %3;",
            "=r,r,r,r",
            "`.sat` together with the `.add`",
        ),
        (
            "vmad.s32.s32.s32.sat %0, %1, %2, %3;",
            "=r,r,r,r",
            "vmad (video multiply-add",
        ),
        // Operand selectors, subword destinations and masks of the video instructions.
        (
            "vadd4.u32.u32.u32 %0, %1.b3210, %2.b7654, %3;",
            "=r,r,r,r",
            "operand selector '.b3210'",
        ),
        (
            "vadd.u32.u32.u32 %0.h0, %1, %2, %3;",
            "+r,r,r,r",
            "operand selector '.h0'",
        ),
        (
            "vmin.s32.s32.s32.sat %0, %1.b0, %2;",
            "=r,r,r",
            "operand selector '.b0'",
        ),
    ];
    for (ptx, cons, reason) in cases {
        for target in [Target::Amd, Target::Portable] {
            let msg = match lower::analyze(&statement(ptx, cons), &rules, target).outcome {
                Ok(_) => panic!("`{ptx}` must not translate"),
                Err(u) => u.message,
            };
            assert!(msg.contains(reason), "`{ptx}`: {msg}");
        }
    }
}

#[test]
fn lop3_is_one_folded_helper_call_and_not_pred_is_logical() {
    let rules = rules();
    let t = translate(
        &rules,
        "lop3.b32 %0, %1, %2, %3, 0xca;",
        "=r,r,r,r",
        Target::Amd,
    )
    .unwrap();
    assert_eq!(
        t.helpers,
        [
            "ptx2hip_lop3",
            "ptx2hip_operand",
            "ptx2hip_in_r",
            "ptx2hip_out_r"
        ]
    );
    let t = translate(
        &rules,
        "lop3.b32 %0, %1, %2, %3, %4;",
        "=r,r,r,r,n",
        Target::Portable,
    )
    .unwrap();
    assert!(
        t.lines
            .iter()
            .any(|(_, l)| l.contains("ptx2hip_imm<uint32_t>(op4)")),
        "{:?}",
        t.lines
    );
    let t = translate(
        &rules,
        "{ .reg .pred p, q; setp.ne.b32 p, %1, 0; not.pred q, p; @q mov.b32 %0, 1; }",
        "+r,r",
        Target::Amd,
    )
    .unwrap();
    assert!(
        t.lines.iter().any(|(_, l)| l.contains("= !(")),
        "{:?}",
        t.lines
    );
    // AMD fast paths.
    let t = translate(
        &rules,
        "vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;",
        "=r,r,r,r",
        Target::Amd,
    )
    .unwrap();
    assert!(
        t.lines
            .iter()
            .any(|(_, l)| l.contains("__builtin_amdgcn_sad_u8")),
        "{:?}",
        t.lines
    );
    let t = translate(
        &rules,
        "vabsdiff4.s32.u32.u32.add %0, %1, %2, %3;",
        "=r,r,r,r",
        Target::Amd,
    )
    .unwrap();
    assert!(
        !t.lines
            .iter()
            .any(|(_, l)| l.contains("__builtin_amdgcn_sad_u8")),
        "{:?}",
        t.lines
    );
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

/// Host stand-ins for the CUDA/HIP device intrinsics the portable helpers call, written from the
/// CUDA Math API definitions (loops, nothing clever), and the independent PTX reference models.
const HARNESS: &str = r#"
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <vector>
#define __host__
#define __device__
static int __popc(unsigned int x) { int n = 0; for (int i = 0; i < 32; ++i) n += (x >> i) & 1u; return n; }
static int __popcll(unsigned long long x) { int n = 0; for (int i = 0; i < 64; ++i) n += (int)((x >> i) & 1u); return n; }
static int __clz(int x) { for (int i = 31; i >= 0; --i) if (((uint32_t)x >> i) & 1u) return 31 - i; return 32; }
static int __clzll(long long x) { for (int i = 63; i >= 0; --i) if (((uint64_t)x >> i) & 1u) return 63 - i; return 64; }
static unsigned int __brev(unsigned int x) { unsigned r = 0; for (int i = 0; i < 32; ++i) if ((x >> i) & 1u) r |= 1u << (31 - i); return r; }
static unsigned long long __brevll(unsigned long long x) { unsigned long long r = 0; for (int i = 0; i < 64; ++i) if ((x >> i) & 1u) r |= 1ull << (63 - i); return r; }

static int failures = 0;
static const char* current = "";
#define EXPECT(cond, x, y, z) do { if (!(cond)) { if (++failures < 40) printf("MISMATCH %s: inputs %llx %llx %llx\n", current, (unsigned long long)(x), (unsigned long long)(y), (unsigned long long)(z)); } } while (0)

static std::vector<uint32_t> V32, POS, SEL, C32;
static std::vector<uint64_t> V64;
static std::vector<uint16_t> V16;
static std::vector<int32_t> OFFS;
static void init_values() {
  const uint32_t e[] = {0u, 1u, 2u, 3u, 0x7fu, 0x80u, 0xffu, 0x100u, 0x7fffu, 0x8000u, 0xffffu, 0x10000u, 0x7fffffffu, 0x80000000u,
                        0x80000001u, 0xfffffffeu, 0xffffffffu, 0x12345678u, 0xdeadbeefu, 0x00ff00ffu, 0xff00ff00u, 0x80808080u,
                        0x7f7f7f7fu, 0x01020304u, 0x7fff8000u, 0x8000ffffu, 0x0f0f0f0fu, 0xf0f0f0f0u};
  for (uint32_t x : e) V32.push_back(x);
  uint64_t s = 0x243f6a8885a308d3ull;
  for (int i = 0; i < 14; ++i) { s = s * 6364136223846793005ull + 1442695040888963407ull; V32.push_back((uint32_t)(s >> 29)); }
  for (uint32_t x : V32) { V16.push_back((uint16_t)x); V64.push_back(((uint64_t)x << 32) | (x * 0x9e3779b9u)); V64.push_back(x); V64.push_back((uint64_t)(int64_t)(int32_t)x); }
  for (uint32_t p = 0; p <= 70; ++p) POS.push_back(p);
  const uint32_t big[] = {127u, 128u, 255u, 256u, 257u, 288u, 0x120u, 0x1000u, 0x10000020u, 0x7fffffffu, 0x80000000u, 0xffffffe0u, 0xffffffffu};
  for (uint32_t x : big) POS.push_back(x);
  for (uint32_t c = 0; c < 0x10000u; c += 0x0111u) SEL.push_back(c);
  const uint32_t sels[] = {0x3210u, 0x7654u, 0x8880u, 0x9999u, 0xaaaau, 0xbbbbu, 0xccccu, 0xddddu, 0xeeeeu, 0xffffu, 0x0123u, 0x4567u,
                           0x8a9bu, 0xcedfu, 0x1f2e3d4cu, 0xffff8888u, 0x5140u, 0x7531u, 0xe6c4u};
  for (uint32_t x : sels) SEL.push_back(x);
  const uint32_t cs[] = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x12345678u, 0x000000ffu, 0xfffffff0u};
  for (uint32_t x : cs) C32.push_back(x);
  const int32_t o[] = {0, 1, 2, 3, 5, 17, 31, 32, 33, -1, -2, -3, -5, -17, -31, -32, -33, 2147483647, -2147483647 - 1};
  for (int32_t x : o) OFFS.push_back(x);
}

static uint64_t bit(uint64_t x, uint64_t i) { return i < 64 ? (x >> i) & 1u : 0u; }
static uint64_t wmask(int w) { return w == 64 ? ~0ull : (1ull << w) - 1u; }
static uint32_t ref_popc(uint64_t x) { uint32_t n = 0; for (int i = 0; i < 64; ++i) n += (uint32_t)bit(x, i); return n; }
static uint32_t ref_clz(uint64_t x, int w) { for (int i = w - 1; i >= 0; --i) if (bit(x, i)) return (uint32_t)(w - 1 - i); return (uint32_t)w; }
static uint64_t ref_brev(uint64_t x, int w) { uint64_t r = 0; for (int i = 0; i < w; ++i) if (bit(x, i)) r |= 1ull << (w - 1 - i); return r; }
static uint32_t ref_bfind(uint64_t a, int w, bool sgn, bool shiftamt) {
  a &= wmask(w);
  if (sgn && bit(a, w - 1)) a = ~a & wmask(w);
  uint32_t d = 0xffffffffu;
  for (int i = w - 1; i >= 0; --i) if (bit(a, i)) { d = (uint32_t)i; break; }
  if (shiftamt && d != 0xffffffffu) d = (uint32_t)(w - 1) - d;
  return d;
}
static uint32_t ref_fns(uint32_t mask, uint32_t base, int32_t offset) {
  uint32_t d = 0xffffffffu;
  if (offset == INT32_MIN) return 0u; /* H100 golden vectors: offset INT_MIN gives 0 */
  if (offset == 0) { if (bit(mask, base)) d = base; return d; }
  int64_t pos = base, count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1, inc = offset > 0 ? 1 : -1;
  while (pos >= 0 && pos < 32) {
    if (bit(mask, (uint64_t)pos)) { if (count == 0) { d = (uint32_t)pos; break; } --count; }
    pos += inc;
  }
  return d;
}
// bmsk, per bit: .wrap: [a & 31, (a & 31) + (b & 31)); .clamp: [a, a + min(b, 32)), nothing when a >= 32.
static uint32_t ref_bmsk(uint32_t a, uint32_t b, bool clamp) {
  uint64_t pos = clamp ? a : (a & 31u), width = clamp ? (b < 32u ? b : 32u) : (b & 31u);
  uint32_t d = 0;
  for (uint64_t i = 0; i < 32; ++i) if (i >= pos && i < pos + width) d |= 1u << i;
  return d;
}
static uint32_t ref_szext(uint32_t a, uint32_t b, bool clamp, bool sgn) {
  if (clamp && b >= 32u) return a;
  uint32_t n = b & 31u, d = 0;
  if (n == 0) return 0;
  for (uint32_t i = 0; i < 32; ++i) if (i < n ? bit(a, i) : (sgn && bit(a, n - 1))) d |= 1u << i;
  return d;
}
static uint64_t ref_bfe(uint64_t a, uint32_t b, uint32_t c, int w, bool sgn) {
  uint64_t msb = (uint64_t)w - 1, pos = w == 32 ? (b & 0xffu) : b, len = w == 32 ? (c & 0xffu) : c;
  uint64_t top = pos + len - 1 < msb ? pos + len - 1 : msb;
  uint64_t sbit = (!sgn || len == 0) ? 0 : bit(a, top);
  uint64_t d = 0;
  for (uint64_t i = 0; i <= msb; ++i) if ((i < len && pos + i <= msb) ? bit(a, pos + i) : sbit) d |= 1ull << i;
  return d;
}
static uint64_t ref_bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t d, int w) {
  uint64_t msb = (uint64_t)w - 1, pos = w == 32 ? (c & 0xffu) : c, len = w == 32 ? (d & 0xffu) : d;
  uint64_t f = b & wmask(w);
  for (uint64_t i = 0; i < len && pos + i <= msb; ++i) f = (f & ~(1ull << (pos + i))) | (bit(a, i) << (pos + i));
  return f;
}
// prmt: mode -1 is the generic form; 0..5 = f4e b4e rc8 ecl ecr rc16, rows of the PTX table (d.b0 .. d.b3).
static uint32_t ref_prmt(uint32_t a, uint32_t b, uint32_t c, int mode) {
  static const int table[6][4][4] = {
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
    {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
    {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
    {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
  };
  uint8_t bytes[8];
  for (int i = 0; i < 4; ++i) { bytes[i] = (uint8_t)(a >> (8 * i)); bytes[4 + i] = (uint8_t)(b >> (8 * i)); }
  uint32_t d = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t v;
    if (mode < 0) {
      uint32_t n = (c >> (4 * i)) & 0xfu;
      v = bytes[n & 7u];
      if (n & 8u) v = (v & 0x80u) ? 0xffu : 0u;
    } else {
      v = bytes[table[mode][c & 3u][i]];
    }
    d |= v << (8 * i);
  }
  return d;
}
static uint32_t ref_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t d = 0;
  for (int i = 0; i < 32; ++i) d |= (uint32_t)bit(lut, bit(a, i) * 4 + bit(b, i) * 2 + bit(c, i)) << i;
  return d;
}
static uint32_t ref_shf(uint32_t a, uint32_t b, uint32_t c, bool left, bool clamp) {
  uint64_t n = clamp ? (c < 32u ? c : 32u) : (c & 31u), v = ((uint64_t)b << 32) | a;
  uint32_t d = 0;
  for (uint64_t i = 0; i < 32; ++i) {
    uint64_t src = left ? 32 + i - n : i + n; /* bit of b:a that lands in bit i */
    if (src < 64 && bit(v, src)) d |= 1u << i;
  }
  return d;
}
// kind 0: shl; 1: logical shr; 2: arithmetic shr (bit by bit).
static uint64_t ref_shift(uint64_t a, uint32_t n, int w, int kind) {
  a &= wmask(w);
  uint64_t d = 0, sign = kind == 2 ? bit(a, w - 1) : 0;
  for (uint64_t i = 0; i < (uint64_t)w; ++i) {
    uint64_t v = kind == 0 ? (i >= n ? bit(a, i - n) : 0) : (i + n < (uint64_t)w ? bit(a, i + n) : sign);
    d |= v << i;
  }
  return d;
}
// Video instructions from the PTX pseudo-code with 128-bit intermediates.
static __int128 clamp128(__int128 t, __int128 lo, __int128 hi) { return t < lo ? lo : (t > hi ? hi : t); }
static __int128 ext(uint32_t x, int w, bool sgn) {
  uint32_t m = w == 32 ? 0xffffffffu : (1u << w) - 1u; x &= m;
  if (sgn && (x >> (w - 1)) & 1u) return (__int128)x - ((__int128)1 << w);
  return x;
}
static bool cmp(const char* c, __int128 a, __int128 b) {
  if (!strcmp(c, "eq")) return a == b;
  if (!strcmp(c, "ne")) return a != b;
  if (!strcmp(c, "lt")) return a < b;
  if (!strcmp(c, "le")) return a <= b;
  if (!strcmp(c, "gt")) return a > b;
  return a >= b;
}
static __int128 prim(const char* op, const char* sub, __int128 a, __int128 b) {
  if (!strcmp(op, "vadd")) return a + b;
  if (!strcmp(op, "vsub")) return a - b;
  if (!strcmp(op, "vabsdiff")) return a > b ? a - b : b - a;
  if (!strcmp(op, "vmin")) return a < b ? a : b;
  if (!strcmp(op, "vmax")) return a > b ? a : b;
  if (!strcmp(op, "vavrg")) return a + b >= 0 ? (a + b + 1) / 2 : -((-(a + b) + 1) / 2);  /* floor((a+b)/2) for negative sums */
  return cmp(sub, a, b) ? 1 : 0;
}
static uint32_t ref_video(const char* op, int lanes, bool ds, bool as, bool bs, bool sat, const char* op2, const char* sub,
                          uint32_t a, uint32_t b, uint32_t c) {
  if (lanes == 1) {
    /* The PTX pseudo-code, except where an H100 (sm_90, CUDA 13.0) computes otherwise (golden vectors):
       vshl keeps a 64-bit shift result and saturates a 34-bit one; .sat to .u32 only clamps negative
       values to 0; .min/.max compare c (extended by .dtype, for vset by .atype) with a 64-bit value:
       the low 32 bits sign-extended for vadd/vsub and any saturated vshl/vshr, else the exact value,
       signed for .s32 and unsigned (64-bit) for .u32. */
    bool shl = !strcmp(op, "vshl"), shift = shl || !strcmp(op, "vshr");
    if (!strcmp(op, "vset")) ds = as;
    __int128 ta = ext(a, 32, as), tb = ext(b, 32, bs), t;
    if (shift) {
      uint32_t n = !strcmp(sub, "clamp") ? (b > 32u ? 32u : b) : (b & 31u);
      t = shl ? ta * ((__int128)1 << n) : (ta >= 0 ? ta >> n : -((-ta + ((__int128)1 << n) - 1) >> n));
      if (shl) t = (__int128)(int64_t)(uint64_t)(unsigned __int128)t;
    } else {
      t = prim(op, sub, ta, tb);
    }
    if (sat && shl) {
      t &= ((__int128)1 << 34) - 1;
      if (t >> 33) t -= (__int128)1 << 34;
      t = ds ? clamp128(t, -((__int128)1 << 31), ((__int128)1 << 31) - 1) : clamp128(t, 0, ((__int128)1 << 32) - 1);
    } else if (sat) {
      t = ds ? clamp128(t, -((__int128)1 << 31), ((__int128)1 << 31) - 1) : (t < 0 ? 0 : t);
    }
    uint32_t r = (uint32_t)(unsigned __int128)t;
    if (!strcmp(op2, "add")) return r + c;
    if (!strcmp(op2, "min") || !strcmp(op2, "max")) {
      bool low = !strcmp(op, "vadd") || !strcmp(op, "vsub") || (sat && shift);
      __int128 x = low ? ext(r, 32, true) : t, tc = ext(c, 32, ds);
      if (!ds) { x &= ((__int128)1 << 64) - 1; tc &= ((__int128)1 << 64) - 1; }
      bool take_t = !strcmp(op2, "min") ? x < tc : x > tc;
      return take_t ? r : c;
    }
    return r;
  }
  int w = 32 / lanes;
  uint32_t m = (1u << w) - 1u, d = 0, acc = c;
  for (int i = 0; i < lanes; ++i) {
    __int128 va = ext(a >> (w * i), w, as), vb = ext(b >> (w * i), w, bs);
    __int128 t = prim(op, sub, va, vb);
    if (sat) t = ds ? clamp128(t, -((__int128)1 << (w - 1)), ((__int128)1 << (w - 1)) - 1) : clamp128(t, 0, m);
    if (!strcmp(op2, "add")) acc += (uint32_t)(unsigned __int128)t;
    else d |= ((uint32_t)(unsigned __int128)t & m) << (w * i);
  }
  return !strcmp(op2, "add") ? acc : d;
}
"#;

fn compiler() -> Option<String> {
    ["g++", "clang++-19", "clang++"]
        .iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok())
        .map(|c| c.to_string())
}

#[test]
fn translations_match_reference_models_on_the_host() {
    let Some(cxx) = compiler() else {
        eprintln!("no host C++ compiler: semantic check skipped");
        return;
    };
    let rules = rules();
    let mut cases = bits_cases();
    cases.extend(video_cases(&rules));
    let mut src = String::from(HARNESS);
    src.push_str("#include \"bits.h\"\n");
    let mut checks = String::new();
    for (target, ns) in [(Target::Portable, "port"), (Target::Amd, "amdt")] {
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
        for (k, c) in cases.iter().enumerate() {
            let label = format!("{ns}: {}", c.ptx.replace('"', "'"));
            writeln!(
                checks,
                "  current = \"{label}\";\n  {{\n#define F {ns}::f{k}\n  {}\n#undef F\n  }}",
                c.check
            )
            .unwrap();
        }
    }
    write!(
        src,
        "int main() {{\n  init_values();\n  if (ptx2hip_amd_models_bits_selfcheck() != 0) {{ printf(\"AMD model self-check failed\\n\"); return 2; }}\n{checks}  printf(\"failures: %d\\n\", failures);\n  return failures != 0;\n}}\n"
    )
    .unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rules_bits");
    std::fs::create_dir_all(&dir).unwrap();
    let cpp = dir.join("check.cpp");
    let exe = dir.join("check");
    std::fs::write(&cpp, &src).unwrap();
    let models = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/amd_models");
    let out = Command::new(&cxx)
        .args(["-std=c++17", "-O1", "-w", "-I"])
        .arg(&models)
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
}

/// The AMD translations of every semantic-check case, with their helpers, compile for gfx90a, gfx942
/// and gfx1100 with clang-19 and the HIP headers (skipped when clang-19 is not installed).
#[test]
fn amd_translations_compile_for_each_architecture() {
    if Command::new("clang-19").arg("--version").output().is_err() {
        eprintln!("clang-19 not installed: AMD compile check skipped");
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
    for arch in ["gfx90a", "gfx942", "gfx1100"] {
        let out = Command::new("clang-19")
            .args([
                "-x",
                "hip",
                "-std=c++17",
                &format!("--offload-arch={arch}"),
                "--cuda-device-only",
                "-nogpulib",
                "-O1",
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
    }
}
