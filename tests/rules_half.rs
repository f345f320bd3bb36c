//! The half family (rules/half.toml): every rule example translates for both targets, a list of
//! forms that must translate (each combination the PTX ISA defines for f16/bf16), the forms the
//! ISA does not define stay untranslated, and every `[[unsupported]]` entry reports its reason.
//! `host_model_check` compiles the generated helpers with g++ and compares them with an independent
//! reference model (tests/amd_models/half_check.cpp) when g++ is available.

use ptx2hip::lower::{self, RuleSet, Target};
use ptx2hip::scan::AsmStatement;

fn statement(ptx: &str, constraints: &str) -> AsmStatement {
    let constraints: Vec<String> = constraints.split(',').map(str::to_string).collect();
    let mut stmt = AsmStatement::synthetic(ptx, &constraints);
    stmt.qualifiers.clear();
    stmt
}

fn translated(
    rules: &RuleSet,
    ptx: &str,
    constraints: &str,
    target: Target,
) -> Result<Vec<String>, String> {
    let a = lower::analyze(&statement(ptx, constraints), rules, target);
    a.outcome.map(|t| t.rules).map_err(|e| e.message)
}

#[test]
fn every_half_example_translates_for_both_targets() {
    let rules = RuleSet::embedded().expect("rule table loads");
    let text =
        std::fs::read_to_string(format!("{}/rules/half.toml", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let mut seen = 0;
    for r in doc["rule"].as_array().unwrap() {
        let code = r["code"].as_str().unwrap();
        assert!(code.starts_with('H'), "{code}");
        let ex = r["example"].as_table().unwrap();
        let (ptx, cons) = (
            ex["ptx"].as_str().unwrap(),
            ex["constraints"].as_str().unwrap(),
        );
        for target in [Target::Amd, Target::Portable] {
            let used = translated(&rules, ptx, cons, target).unwrap_or_else(|e| {
                panic!("{code}: example `{ptx}` not translated for {target:?}: {e}")
            });
            assert!(
                used.iter().any(|c| c == code),
                "{code}: example `{ptx}` used {used:?}"
            );
        }
        seen += 1;
    }
    assert_eq!(seen, 8);
}

/// Every form of the PTX ISA's half-precision add/sub/mul/fma/neg/abs/min/max syntax.
fn isa_forms() -> Vec<(String, &'static str)> {
    let mut v = Vec::new();
    let types = ["f16", "f16x2", "bf16", "bf16x2"];
    let code = |op: &str| match op {
        "add" => "H001",
        "sub" => "H002",
        "mul" => "H003",
        "fma" => "H004",
        "neg" => "H005",
        "abs" => "H006",
        "min" => "H007",
        _ => "H008",
    };
    for t in types {
        let f16 = !t.starts_with("bf");
        let c = if t.ends_with("x2") { "r" } else { "h" };
        for op in ["add", "sub", "mul"] {
            let mut mods = vec!["", ".rn"];
            if f16 {
                mods.extend([
                    ".ftz",
                    ".sat",
                    ".ftz.sat",
                    ".rn.ftz",
                    ".rn.sat",
                    ".rn.ftz.sat",
                ]);
            }
            for m in mods {
                v.push((format!("{op}{m}.{t} %0, %1, %2;|={c},{c},{c}"), code(op)));
            }
        }
        let mut mods = vec![".rn", ".rn.relu"];
        if f16 {
            mods.extend([".rn.ftz", ".rn.sat", ".rn.ftz.sat", ".rn.ftz.relu"]);
        }
        for m in mods {
            v.push((
                format!("fma{m}.{t} %0, %1, %2, %3;|={c},{c},{c},{c}"),
                "H004",
            ));
        }
        for op in ["neg", "abs"] {
            let mut mods = vec![""];
            if f16 {
                mods.push(".ftz");
            }
            for m in mods {
                v.push((format!("{op}{m}.{t} %0, %1;|={c},{c}"), code(op)));
            }
        }
        for op in ["min", "max"] {
            let mut mods = vec!["", ".NaN", ".xorsign.abs", ".NaN.xorsign.abs"];
            if f16 {
                mods.extend([
                    ".ftz",
                    ".ftz.NaN",
                    ".ftz.xorsign.abs",
                    ".ftz.NaN.xorsign.abs",
                ]);
            }
            for m in mods {
                v.push((format!("{op}{m}.{t} %0, %1, %2;|={c},{c},{c}"), code(op)));
            }
        }
    }
    v
}

#[test]
fn every_isa_form_translates() {
    let rules = RuleSet::embedded().unwrap();
    let forms = isa_forms();
    assert!(forms.len() > 120, "{}", forms.len());
    for (spec, code) in forms {
        let (ptx, cons) = spec.split_once('|').unwrap();
        for target in [Target::Amd, Target::Portable] {
            let used =
                translated(&rules, ptx, cons, target).unwrap_or_else(|e| panic!("{ptx}: {e}"));
            assert!(
                used.iter().any(|c| c == code),
                "{ptx}: used {used:?}, expected {code}"
            );
        }
    }
}

#[test]
fn forms_outside_the_isa_are_not_translated() {
    let rules = RuleSet::embedded().unwrap();
    for (ptx, cons) in [
        ("add.ftz.bf16 %0, %1, %2;", "=h,h,h"),
        ("mul.sat.bf16x2 %0, %1, %2;", "=r,r,r"),
        ("add.rz.f16 %0, %1, %2;", "=h,h,h"),
        ("fma.f16 %0, %1, %2, %3;", "=h,h,h,h"),
        ("fma.rn.sat.relu.f16 %0, %1, %2, %3;", "=h,h,h,h"),
        ("fma.rn.ftz.bf16 %0, %1, %2, %3;", "=h,h,h,h"),
        ("neg.ftz.bf16 %0, %1;", "=h,h"),
        ("min.ftz.bf16 %0, %1, %2;", "=h,h,h"),
        ("min.xorsign.f16 %0, %1, %2;", "=h,h,h"),
        ("max.abs.f16x2 %0, %1, %2;", "=r,r,r"),
    ] {
        for target in [Target::Amd, Target::Portable] {
            assert!(
                translated(&rules, ptx, cons, target).is_err(),
                "{ptx} must not translate"
            );
        }
    }
}

#[test]
fn unsupported_half_forms_give_their_reason() {
    let rules = RuleSet::embedded().unwrap();
    for (ptx, cons, needle) in [
        (
            "fma.rn.oob.f16 %0, %1, %2, %3;",
            "=h,h,h,h",
            "out-of-bounds NaN",
        ),
        (
            "fma.rn.oob.relu.bf16x2 %0, %1, %2, %3;",
            "=r,r,r,r",
            "out-of-bounds NaN",
        ),
        ("add.f32x2 %0, %1, %2;", "=l,l,l", "sm_100"),
        ("sub.rn.f32x2 %0, %1, %2;", "=l,l,l", "sm_100"),
        ("mul.rn.f32x2 %0, %1, %2;", "=l,l,l", "sm_100"),
        ("fma.rn.f32x2 %0, %1, %2, %3;", "=l,l,l,l", "sm_100"),
    ] {
        for target in [Target::Amd, Target::Portable] {
            let err = translated(&rules, ptx, cons, target).expect_err(ptx);
            assert!(err.contains(needle), "{ptx}: {err}");
        }
    }
}

/// The generated helpers of every half form against the independent reference of
/// tests/amd_models/half_check.cpp (exact integer arithmetic), plus the AMD compile check when
/// clang-19 is installed. Skipped where g++ or python3 is missing.
#[test]
fn host_model_check() {
    let have = |tool: &str| {
        std::process::Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !have("g++") || !have("python3") {
        eprintln!("host_model_check skipped: g++ or python3 missing");
        return;
    }
    let script = format!(
        "{}/tests/amd_models/run_half_check.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = std::process::Command::new("sh")
        .arg(&script)
        .env("PTX2HIP", env!("CARGO_BIN_EXE_ptx2hip"))
        .output()
        .expect("run_half_check.sh runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(", 0 mismatches"), "{stdout}");
}
