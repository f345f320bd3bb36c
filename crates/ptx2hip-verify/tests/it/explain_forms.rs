//! `ptx2hip explain FORM` and translation read the table with one matcher: for every form of
//! every rule, `explain` names the rule, and for every canonical statement the rule lowering
//! picks is the first one `explain` lists whose operands fit (issue 18: `explain` said "no rule"
//! for 746 forms `check` translated, among them `ld.global.acquire.gpu.b32` and `bra`).

use ptx2hip::cli::explain_code::{form_answer, FormAnswer};
use ptx2hip_core::codes::Code;
use ptx2hip_core::lower::{analyze, RuleSet, Target};
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_verify::forms::all_forms;
use rayon::prelude::*;

/// The rule codes `explain` gives for a form it says is translated; empty otherwise.
fn explained(rules: &RuleSet, form: &str) -> Vec<String> {
    match form_answer(rules, form) {
        FormAnswer::Translated(rules) => rules.iter().map(|r| r.code.clone()).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn explain_names_every_rule_for_every_form_it_claims() {
    let rules = RuleSet::embedded().expect("rule table loads");
    let problems: Vec<String> = rules
        .rules
        .par_iter()
        .flat_map_iter(|rule| {
            let rules = &rules;
            rule.forms().into_iter().filter_map(move |(form, _)| {
                let named = explained(rules, &form);
                (!named.contains(&rule.code))
                    .then(|| format!("{}: explain `{form}` names {named:?}", rule.code))
            })
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn explain_lists_first_the_rule_lowering_picks_for_every_canonical_statement() {
    let rules = RuleSet::embedded().expect("rule table loads");
    let forms = all_forms(&rules);
    // Each statement as the table spells it, and with its modifiers written in reverse order.
    let statements: Vec<(String, String, Vec<String>)> = forms
        .iter()
        .flat_map(|form| {
            let name = form.form.split(" [").next().unwrap_or(&form.form);
            let (opcode, modifiers) = name.split_once('.').unwrap_or((name, ""));
            let mut reversed: Vec<&str> = modifiers.split('.').collect();
            reversed.reverse();
            let reversed = format!("{opcode}.{}", reversed.join("."));
            let ptx = form.ptx.replacen(name, &reversed, 1);
            [
                (name.to_string(), form.ptx.clone(), form.constraints.clone()),
                (reversed, ptx, form.constraints.clone()),
            ]
        })
        .collect();
    let problems: Vec<String> = statements
        .par_iter()
        .filter_map(|(name, ptx, constraints)| {
            let named = explained(&rules, name);
            let used = match analyze(
                &AsmStatement::synthetic(ptx, constraints),
                &rules,
                Target::Amd,
            )
            .outcome
            {
                Ok(t) => t.rules,
                // Refused for want of a rule: explain must say so too. Refused for another
                // reason (the reversed `cvt.s16.u64` reads its operands with the constraints of
                // `cvt.u64.s16`): nothing about matching to compare.
                Err(u) => {
                    let no_rule = [
                        Code::UnknownInstruction,
                        Code::ModifierCombination,
                        Code::DeclinedForm,
                    ]
                    .contains(&u.code);
                    return (no_rule && !named.is_empty()).then(|| {
                        format!(
                            "`{ptx}`: explain `{name}` names {named:?}, lowering: {}",
                            u.message
                        )
                    });
                }
            };
            // The statement's instruction is translated by a rule `explain` lists, and every
            // rule listed before it has operands of another shape.
            let Some(k) = named.iter().position(|code| used.contains(code)) else {
                return Some(format!(
                    "`{ptx}`: explain `{name}` names {named:?}, lowering used {used:?}"
                ));
            };
            let picked = rules.rule(&named[k]).expect("listed rules exist");
            named[..k]
                .iter()
                .filter_map(|code| rules.rule(code))
                .any(|r| r.operands == picked.operands)
                .then(|| {
                    format!(
                        "`{ptx}`: lowering used {}, but explain lists {named:?}",
                        picked.code
                    )
                })
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn explain_reads_modifiers_in_any_order_and_knows_branches() {
    let rules = RuleSet::embedded().expect("rule table loads");
    for (form, rule) in [
        ("ld.global.acquire.gpu.b32", "A020"),
        ("ld.acquire.gpu.global.b32", "A020"),
        ("st.global.release.sys.b32", "A021"),
        ("add.s32", "I001"),
    ] {
        assert_eq!(
            explained(&rules, form).first().map(String::as_str),
            Some(rule),
            "{form}"
        );
    }
    for form in ["bra", "bra.uni"] {
        assert!(
            matches!(form_answer(&rules, form), FormAnswer::ControlFlow),
            "{form}"
        );
    }
}
