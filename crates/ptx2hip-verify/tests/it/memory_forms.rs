//! The memory, control and special-register rules (rules/memory.toml, control.toml,
//! special.toml) over all their forms, beyond what the golden vectors show:
//!
//! - every rule example translates for both targets;
//! - hint modifiers (cache operators, eviction priorities, prefetch sizes, `.weak`, `.nc`), which
//!   the rule table matches but does not enumerate, change nothing in the portable translation
//!   (so the golden vectors of the unhinted forms cover them) and translate for AMD;
//! - every form of the value-checkable memory rules has a canonical statement (none is silently
//!   left unverified);
//! - the `--target amd` translation of every memory form, hinted forms and the control and
//!   special-register rules compiles with clang-19 for gfx90a, gfx942 and gfx1100 (skipped with a
//!   note when clang-19 or the HIP headers are missing, failed when `CI` is set).
//!
//! What a given statement translates to (addresses in state spaces, hints' AMD access kinds) or
//! why it is refused is a test case of its rule or `[[unsupported]]` entry in the rule files
//! (run by `rule_cases.rs`).

use crate::common;

use std::path::Path;
use std::process::Command;

use ptx2hip_core::lower::{self, RuleSet, Target};
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_verify::forms::{rule_forms, CanonicalForm};

fn statement(ptx: &str, constraints: &str) -> AsmStatement {
    let constraints: Vec<String> = if constraints.is_empty() {
        Vec::new()
    } else {
        constraints.split(',').map(str::to_string).collect()
    };
    let mut stmt = AsmStatement::synthetic(ptx, &constraints);
    stmt.qualifiers.clear();
    stmt
}

/// The translated code (one string) or the reason it is not translated.
fn translate(
    rules: &RuleSet,
    ptx: &str,
    constraints: &str,
    target: Target,
) -> Result<String, String> {
    let a = lower::analyze(&statement(ptx, constraints), rules, target);
    a.outcome
        .map(|t| lower::render(&t.lines, "", "  ").join("\n"))
        .map_err(|e| e.message)
}

fn rules_of(file: &str) -> Vec<toml::Value> {
    let text =
        std::fs::read_to_string(ptx2hip_verify::repo_root().join("rules").join(file)).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap();
    doc.get("rule")
        .and_then(|r| r.as_array())
        .cloned()
        .unwrap_or_default()
}

#[test]
fn every_example_translates_for_both_targets() {
    let rules = RuleSet::embedded().expect("rule table loads");
    for file in ["memory.toml", "control.toml"] {
        for r in rules_of(file) {
            let code = r["code"].as_str().unwrap();
            let ex = r["example"].as_table().unwrap();
            let (ptx, cons) = (
                ex["ptx"].as_str().unwrap(),
                ex["constraints"].as_str().unwrap(),
            );
            for target in [Target::Amd, Target::Portable] {
                let a = lower::analyze(&statement(ptx, cons), &rules, target);
                let used = a.outcome.map(|t| t.rules).unwrap_or_else(|e| {
                    panic!(
                        "{code}: example `{ptx}` not translated for {target:?}: {}",
                        e.message
                    )
                });
                assert!(
                    used.iter().any(|c| c == code),
                    "{code}: `{ptx}` used {used:?}"
                );
            }
        }
    }
}

/// The canonical statement of a form with `hint` added right after the opcode.
fn with_hint(form: &CanonicalForm, opcode: &str, hint: &str) -> String {
    let at = form
        .ptx
        .find(&format!("{opcode}."))
        .expect("opcode in statement")
        + opcode.len();
    format!("{}.{hint}{}", &form.ptx[..at], &form.ptx[at..])
}

#[test]
fn hints_change_nothing_in_the_portable_translation() {
    let rules = RuleSet::embedded().expect("rule table loads");
    let mut checked = 0;
    for code in [
        "M001", "M003", "M005", "M006", "M007", "M008", "M009", "M010",
    ] {
        let rule = rules.rule(code).unwrap();
        let hints: Vec<String> = rule
            .slots
            .iter()
            .filter(|s| s.hint)
            .flat_map(ptx2hip_core::rules::Rule::slot_values)
            .collect();
        for form in rule_forms(rule) {
            let cons = form.constraints.join(",");
            let plain = translate(&rules, &form.ptx, &cons, Target::Portable)
                .unwrap_or_else(|e| panic!("{code} `{}`: {e}", form.ptx));
            for hint in &hints {
                let mut modifiers: Vec<String> =
                    form.form.split('.').skip(1).map(str::to_string).collect();
                modifiers.push(hint.clone());
                if rule.match_modifiers(&modifiers).is_none() {
                    continue; // not a form of this rule (`.nc` outside `.global`, ...)
                }
                let hinted = with_hint(&form, &rule.opcode, hint);
                let got = translate(&rules, &hinted, &cons, Target::Portable)
                    .unwrap_or_else(|e| panic!("{code} `{hinted}`: {e}"));
                assert_eq!(got, plain, "{code}: `{hinted}` differs from `{}`", form.ptx);
                translate(&rules, &hinted, &cons, Target::Amd)
                    .unwrap_or_else(|e| panic!("{code} `{hinted}` (amd): {e}"));
                checked += 1;
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn every_form_of_a_checked_memory_rule_has_a_canonical_statement() {
    let rules = RuleSet::embedded().expect("rule table loads");
    for rule in rules.rules.iter().filter(|r| r.family == "memory") {
        if rule.unverifiable.is_some() {
            continue;
        }
        assert_eq!(
            rule_forms(rule).len(),
            rule.forms().len(),
            "{}: some forms have no canonical statement",
            rule.code
        );
    }
}

// ---- AMD compile check ----------------------------------------------------------------------

fn clang_available() -> bool {
    Command::new("clang-19").arg("--version").output().is_ok()
        && Path::new("/usr/include/hip/hip_runtime.h").exists()
}

/// C++ type of an operand from its constraint.
fn operand_type(constraint: &str) -> &'static str {
    match constraint.trim_start_matches(['=', '+']) {
        "h" => "uint16_t",
        "r" => "uint32_t",
        "l" => "uint64_t",
        "f" => "float",
        "d" => "double",
        "q" => "unsigned __int128",
        other => panic!("constraint {other}"),
    }
}

/// One device function per statement: operands read from and written to memory around the
/// translated code (all in one file, helpers once, as ptx2hip emits them).
fn amd_test_file(rules: &RuleSet, statements: &[(String, String)]) -> String {
    let mut helpers = Vec::new();
    let mut bodies = String::new();
    for (k, (ptx, cons)) in statements.iter().enumerate() {
        let a = lower::analyze(&statement(ptx, cons), rules, Target::Amd);
        let t = a
            .outcome
            .unwrap_or_else(|e| panic!("`{ptx}`: {}", e.message));
        helpers.extend(t.helpers);
        bodies.push_str(&format!(
            "// {ptx}\n__device__ void stmt_{k}(uint64_t* io) {{\n"
        ));
        let cons: Vec<&str> = if cons.is_empty() {
            Vec::new()
        } else {
            cons.split(',').collect()
        };
        for (i, c) in cons.iter().enumerate() {
            bodies.push_str(&format!(
                "  {} op{i} = ({})io[{i}];\n",
                operand_type(c),
                operand_type(c)
            ));
        }
        for line in lower::render(&t.lines, "  ", "  ") {
            bodies.push_str(&line);
            bodies.push('\n');
        }
        for (i, c) in cons.iter().enumerate() {
            if c.starts_with(['=', '+']) {
                bodies.push_str(&format!("  io[{i}] = (uint64_t)op{i};\n"));
            }
        }
        bodies.push_str("}\n");
    }
    let mut out =
        String::from("#include <hip/hip_runtime.h>\n#include <stdint.h>\n#include <string.h>\n");
    out.push_str(&rules.helper_definitions(helpers.iter(), Target::Amd));
    out.push_str(&bodies);
    out.push_str("__global__ void run_all(uint64_t* io) {\n");
    for k in 0..statements.len() {
        out.push_str(&format!("  stmt_{k}(io + {});\n", 16 * k));
    }
    out.push_str("}\n");
    out
}

#[test]
fn amd_translations_compile_for_every_architecture() {
    if !clang_available() {
        return common::skip(
            "clang-19 or /usr/include/hip",
            "the memory AMD compile check",
        );
    }
    let rules = RuleSet::embedded().expect("rule table loads");
    let mut statements: Vec<(String, String)> = Vec::new();
    for code in ["M001", "M003", "M006", "M008", "M010"] {
        for f in rule_forms(rules.rule(code).unwrap()) {
            statements.push((f.ptx.clone(), f.constraints.join(",")));
        }
    }
    let hinted = [
        (
            "ld.global.{h}.v4.u32 {%0, %1, %2, %3}, [%4];",
            "=r,=r,=r,=r,l",
        ),
        ("ld.global.{h}.u8 %0, [%1];", "=r,l"),
        ("ld.global.{h}.b128 %0, [%1];", "=q,l"),
        ("ld.global.{h}.f64 %0, [%1];", "=d,l"),
        ("ld.global.{h}.v2.u16 {%0, %1}, [%2];", "=h,=h,l"),
    ];
    let load_hints = [
        "ca",
        "cg",
        "cs",
        "lu",
        "L1::evict_normal",
        "L1::evict_unchanged",
        "L1::evict_first",
        "L1::evict_last",
        "L1::no_allocate",
        "L2::256B",
        "nc",
    ];
    for (ptx, cons) in hinted {
        for h in load_hints {
            statements.push((ptx.replace("{h}", h), cons.to_string()));
        }
    }
    for h in ["wb", "cg", "cs", "wt", "L1::evict_first", "L1::no_allocate"] {
        statements.push((
            format!("st.global.{h}.v4.u32 [%0], {{%1, %2, %3, %4}};"),
            "l,r,r,r,r".into(),
        ));
        statements.push((format!("st.global.{h}.b8 [%0], %1;"), "l,r".into()));
    }
    for file in ["memory.toml", "control.toml"] {
        for r in rules_of(file) {
            let ex = r["example"].as_table().unwrap();
            statements.push((
                ex["ptx"].as_str().unwrap().into(),
                ex["constraints"].as_str().unwrap().into(),
            ));
        }
    }
    for sr in rules.specials.values().filter(|s| s.unsupported.is_none()) {
        let (c, ty) = match sr.ty.as_str() {
            "u64" => ("=l", "u64"),
            "pred" => ("=r", "u32"),
            _ => ("=r", "u32"),
        };
        let ptx = if sr.ty == "pred" {
            format!(
                "{{ .reg .pred p; mov.pred p, {}; selp.u32 %0, 1, 0, p; }}",
                sr.name
            )
        } else {
            format!("mov.{ty} %0, {};", sr.name)
        };
        statements.push((ptx, c.to_string()));
    }
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("memory_amd.hip");
    std::fs::write(&src, amd_test_file(&rules, &statements)).unwrap();
    for arch in ["gfx90a", "gfx942", "gfx1100"] {
        let out = Command::new("clang-19")
            .args([
                "-x",
                "hip",
                "--cuda-device-only",
                "-nogpulib",
                "-O0",
                "-emit-llvm",
                "-S",
                "-o",
                "/dev/null",
            ])
            .arg(format!("--offload-arch={arch}"))
            .arg(&src)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{arch}: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .take(30)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
