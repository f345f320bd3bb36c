//! Emitted call sites call only `ptx2hip_*` helpers, `::`-qualified names and reserved builtins,
//! so that no declaration in the user's namespace or class can capture them (a user's
//! `timing::clock64()` wrapping `mov.u64 %0, %%clock64;` must not call itself). Checked on the code
//! emitted for every canonical form of every rule, every rule's example and every special register,
//! for both targets. The rule table refuses such templates when it loads; this checks what the
//! lowering adds around them too.

use ptx2hip_core::lower::{analyze, RuleSet, Target};
use ptx2hip_core::rules::call_sites::capturable_calls;
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_verify::forms::all_forms;

/// The capturable calls in a statement's translation; `None` when it is not translated.
fn emitted_calls(
    ptx: &str,
    constraints: &[String],
    rules: &RuleSet,
    target: Target,
) -> Option<Vec<String>> {
    let t = analyze(&AsmStatement::synthetic(ptx, constraints), rules, target)
        .outcome
        .ok()?;
    let code: Vec<&str> = t.lines.iter().map(|(_, l)| l.as_str()).collect();
    Some(capturable_calls(&code.join("\n")))
}

#[test]
fn no_emitted_call_site_can_be_captured_by_a_user_declaration() {
    let rules = RuleSet::embedded().expect("rule table loads");
    let mut statements: Vec<(String, Vec<String>)> = all_forms(&rules)
        .into_iter()
        .map(|f| (f.ptx, f.constraints))
        .collect();
    for r in &rules.rules {
        let constraints = r
            .example
            .constraints
            .split(',')
            .map(str::to_string)
            .collect();
        statements.push((r.example.ptx.clone(), constraints));
    }
    for (name, s) in &rules.specials {
        let (mov, letter) = if s.ty.ends_with("64") {
            ("mov.u64", "=l")
        } else {
            ("mov.u32", "=r")
        };
        statements.push((format!("{mov} %0, {name};"), vec![letter.to_string()]));
    }
    let mut translated = 0;
    let mut bad = Vec::new();
    for (ptx, constraints) in &statements {
        for target in [Target::Amd, Target::Portable] {
            let Some(calls) = emitted_calls(ptx, constraints, &rules, target) else {
                continue;
            };
            translated += 1;
            if !calls.is_empty() {
                bad.push(format!("{ptx} ({target}): calls {calls:?}"));
            }
        }
    }
    assert!(translated > 1000, "only {translated} statements checked");
    assert!(bad.is_empty(), "capturable call sites:\n{}", bad.join("\n"));
}

#[test]
fn the_rule_table_refuses_a_template_that_calls_an_ordinary_name() {
    let rule = |portable: &str, lookup: &str| {
        format!(
            r#"family = "test"
[[rule]]
code = "X001"
name = "test-rule"
summary = "s"
doc = "d"
opcode = "abs"
slots = [{{ name = "T", values = ["f32"] }}]
operands = ["d:T", "a:T"]
portable = "{portable}"
{lookup}
example = {{ ptx = "abs.f32 %0, %1;", constraints = "=f,f" }}
"#
        )
    };
    let load = |text: String| RuleSet::from_sources([("test.toml".to_string(), text)]);
    let err = load(rule("{d} = fabsf({a});", "")).unwrap_err().to_string();
    assert!(
        err.contains("rule X001: `portable`: the portable template calls `fabsf` unqualified"),
        "{err}"
    );
    let err = load(rule(
        "{d} = {f}({a});",
        r#"lookup = { f = { slot = "T", values = { f32 = "fabsf" } } }"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("calls `fabsf` unqualified"), "{err}");
    assert!(load(rule("{d} = ::fabsf({a});", "")).is_ok());
}
