//! The float, compare (and half, when present) families: every rule's example translates for both
//! targets through `lower::analyze`, the templates mention the rule's code, and every
//! `[[unsupported]]` form of these families reports its reason.

use ptx2hip::lower::{self, RuleSet, Target};
use ptx2hip::scan::AsmStatement;

fn statement(ptx: &str, constraints: &str) -> AsmStatement {
    let constraints: Vec<String> = constraints
        .split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect();
    AsmStatement::synthetic(ptx, &constraints)
}

const FAMILIES: &[&str] = &["float", "float64", "compare", "half"];

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
fn every_example_translates_for_both_targets() {
    let rules = RuleSet::embedded().expect("rule table loads");
    let mut seen = 0;
    for family in FAMILIES {
        let path = format!("{}/rules/{family}.toml", env!("CARGO_MANIFEST_DIR"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let doc: toml::Table = toml::from_str(&text).unwrap();
        for r in doc
            .get("rule")
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            let code = r["code"].as_str().unwrap();
            if rules.rule(code).is_some_and(|r| r.forms().is_empty()) {
                continue; // every form excluded after the H100 golden vectors ([[unsupported]] says why)
            }
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
    }
    assert!(seen >= 45, "only {seen} float/compare rules");
}

#[test]
fn unsupported_forms_give_their_reason() {
    let rules = RuleSet::embedded().unwrap();
    for (ptx, cons, needle) in [("mad.f32 %0, %1, %2, %3;", "=f,f,f,f", "sm_1x")] {
        for target in [Target::Amd, Target::Portable] {
            let err = translated(&rules, ptx, cons, target).expect_err(ptx);
            assert!(err.contains(needle), "{ptx}: {err}");
        }
    }
}

#[test]
fn forms_that_must_translate() {
    let rules = RuleSet::embedded().unwrap();
    for (ptx, cons, code) in [
        ("add.f32 %0, %1, %2;", "=f,f,f", "F001"),
        ("add.rz.f32 %0, %1, %2;", "=f,f,f", "F002"),
        ("add.rp.ftz.sat.f32 %0, %1, %2;", "=f,f,f", "F003"),
        ("sub.f32 %0, %1, %2;", "=f,f,f", "F004"),
        ("mul.rz.f32 %0, %1, %2;", "=f,f,f", "F005"),
        ("min.ftz.NaN.f32 %0, %1, %2;", "=f,f,f", "F013"),
        ("max.NaN.xorsign.abs.f32 %0, %1, %2;", "=f,f,f", "F014"),
        ("div.rn.ftz.f32 %0, %1, %2;", "=f,f,f", "F021"),
        ("sqrt.rm.f32 %0, %1;", "=f,f", "F022"),
        ("ex2.approx.ftz.f32 %0, %1;", "=f,f", "F035"),
        ("mul.rm.ftz.sat.f32 %0, %1, %2;", "=f,f,f", "F005"),
        ("sin.approx.ftz.f32 %0, %1;", "=f,f", "F037"),
        ("div.full.f32 %0, %1, %2;", "=f,f,f", "F026"),
        ("add.rm.f64 %0, %1, %2;", "=d,d,d", "F008"),
        ("mul.rz.f64 %0, %1, %2;", "=d,d,d", "F010"),
        ("fma.rp.f64 %0, %1, %2, %3;", "=d,d,d,d", "F011"),
        ("mad.rz.f64 %0, %1, %2, %3;", "=d,d,d,d", "F012"),
        ("rcp.rm.f64 %0, %1;", "=d,d", "F023"),
        ("div.rp.f64 %0, %1, %2;", "=d,d,d", "F024"),
        ("sqrt.rz.f64 %0, %1;", "=d,d", "F025"),
        ("max.f64 %0, %1, %2;", "=d,d,d", "F016"),
        ("neg.f64 %0, %1;", "=d,d", "F042"),
        (
            "{ .reg .pred p, q; setp.num.ftz.f32 p|q, %1, %2; selp.u32 %0, 1, 0, q; }",
            "=r,f,f",
            "P002",
        ),
        (
            "{ .reg .pred p, q; setp.geu.xor.f64 p|q, %1, %2, !q; selp.u32 %0, 1, 0, p; }",
            "=r,d,d",
            "P004",
        ),
        (
            "{ .reg .pred p, q; setp.hs.or.u64 p, %1, %2, q; selp.u32 %0, 1, 0, p; }",
            "=r,l,l",
            "P006",
        ),
        ("set.nan.s32.f64 %0, %1, %2;", "=r,d,d", "P010"),
        ("set.le.f32.s16 %0, %1, %2;", "=f,h,h", "P012"),
        ("slct.f64.f32 %0, %1, %2, %3;", "=d,d,d,f", "P022"),
        (
            "{ .reg .pred p; testp.infinite.f64 p, %1; selp.u32 %0, 1, 0, p; }",
            "=r,d",
            "P023",
        ),
    ] {
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
