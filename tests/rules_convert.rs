//! The convert (C0xx) and move (M1xx) families: every rule's example and every claimed form
//! translates for both targets, the deliberately unsupported forms give their reasons, and the
//! helpers agree with independent references on the host (tests/amd_models/convert_host_test.cpp,
//! built with g++ when it is installed).

use ptx2hip::lower::types::PtxType;
use ptx2hip::lower::{self, RuleSet, Target};
use ptx2hip::rules::{OperandKind, Rule, TypeRef};
use ptx2hip::scan::AsmStatement;

fn statement(ptx: &str, constraints: &[String]) -> AsmStatement {
    AsmStatement::synthetic(ptx, constraints)
}

fn ours(r: &Rule) -> bool {
    r.family == "convert" || r.family == "move"
}

fn lower_ok(rules: &RuleSet, ptx: &str, constraints: &[String], code: &str) {
    let stmt = statement(ptx, constraints);
    for target in [Target::Amd, Target::Portable] {
        let a = lower::analyze(&stmt, rules, target);
        match a.outcome {
            Ok(t) => assert!(
                t.rules.iter().any(|c| c == code),
                "{ptx} ({target}): used {:?}, expected {code}",
                t.rules
            ),
            Err(u) => panic!("{ptx} ({target}) not translated: {}", u.message),
        }
    }
}

#[test]
fn every_example_translates_with_its_rule() {
    let rules = RuleSet::embedded().unwrap();
    let mut n = 0;
    for r in rules.rules.iter().filter(|r| ours(r)) {
        let constraints: Vec<String> = r
            .example
            .constraints
            .split(',')
            .map(|s| s.trim().to_string())
            .collect();
        lower_ok(&rules, &r.example.ptx, &constraints, &r.code);
        n += 1;
    }
    assert!(n >= 28, "only {n} convert/move rules");
}

/// A register constraint able to hold a value of this type.
fn constraint_for(t: PtxType) -> &'static str {
    match t {
        PtxType::F32 => "f",
        PtxType::F64 => "d",
        t if t.bits() == 64 => "l",
        t if t.bits() == 32 => "r",
        _ => "h",
    }
}

#[test]
fn every_claimed_cvt_form_translates() {
    let rules = RuleSet::embedded().unwrap();
    let mut forms = 0;
    for r in rules.rules.iter().filter(|r| r.family == "convert") {
        for (form, bindings) in r.forms() {
            let specs = r.operand_specs();
            let mut constraints = Vec::new();
            let mut ops = Vec::new();
            for (i, s) in specs.iter().enumerate() {
                let OperandKind::Scalar(t) = &s.kind else {
                    panic!("{}: scalar operands only", r.code)
                };
                let ty = r
                    .resolve_type(t, &bindings)
                    .unwrap_or_else(|| panic!("{} {form}: type {t:?}", r.code));
                let _ = TypeRef::Fixed(ty);
                let c = constraint_for(ty);
                constraints.push(if s.name.starts_with('d') {
                    format!("={c}")
                } else {
                    c.to_string()
                });
                ops.push(format!("%{i}"));
            }
            let ptx = format!("{form} {};", ops.join(", "));
            lower_ok(&rules, &ptx, &constraints, &r.code);
            forms += 1;
        }
    }
    assert!(forms >= 590, "only {forms} forms"); // bf16 <-> 8-bit and .sat bf16 forms: ptxas rejects them
}

#[test]
fn narrow_results_extend_by_destination_signedness() {
    let rules = RuleSet::embedded().unwrap();
    let stmt = statement("cvt.s8.s32 %0, %1;", &["=r".into(), "r".into()]);
    let t = lower::analyze(&stmt, &rules, Target::Portable)
        .outcome
        .unwrap();
    let text: String = t
        .lines
        .iter()
        .map(|(_, l)| l.clone())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.contains("(uint32_t)(int8_t)"), "{text}");
}

#[test]
fn unsupported_forms_give_their_reason() {
    let rules = RuleSet::embedded().unwrap();
    let cases: &[(&str, &str, &str)] = &[(
        "cvt.rn.satfinite.e2m1x2.f32 %0, %1, %2;",
        "=h,f,f",
        "sm_100a",
    )];
    for (ptx, c, reason) in cases {
        let constraints: Vec<String> = c.split(',').map(String::from).collect();
        let a = lower::analyze(&statement(ptx, &constraints), &rules, Target::Portable);
        let msg = a.outcome.expect_err(ptx).message;
        assert!(msg.contains(reason), "{ptx}: {msg}");
    }
}

#[test]
fn helpers_match_independent_references_on_the_host() {
    if std::process::Command::new("g++")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("g++ not found: host semantic test skipped");
        return;
    }
    let rules = RuleSet::embedded().unwrap();
    let names: Vec<String> = rules
        .helper_order
        .iter()
        .filter(|n| rules.helpers[*n].file == "helpers/convert.h")
        .cloned()
        .collect();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("convert_host");
    std::fs::create_dir_all(&dir).unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/amd_models/convert_host_test.cpp");
    for (variant, amd) in [("portable", false), ("amd", true)] {
        let mut h = String::from("#include <stdint.h>\n#include <string.h>\n#include <math.h>\n#define __host__\n#define __device__\n");
        for n in rules.helper_closure(names.iter()) {
            let helper = &rules.helpers[&n];
            let text = if amd {
                helper.amd.as_deref().unwrap_or(&helper.portable)
            } else {
                &helper.portable
            };
            h.push_str(text);
            h.push('\n');
        }
        let header = dir.join(format!("helpers_{variant}.h"));
        std::fs::write(&header, h).unwrap();
        let exe = dir.join(format!("test_{variant}"));
        let out = std::process::Command::new("g++")
            .args(["-std=c++17", "-O1", "-frounding-math"])
            .arg(format!("-I{}", src.parent().unwrap().display()))
            .arg("-include")
            .arg(&header)
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{variant}: g++ failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = std::process::Command::new(&exe).output().unwrap();
        assert!(
            run.status.success(),
            "{variant}:\n{}",
            String::from_utf8_lossy(&run.stdout)
        );
    }
}
