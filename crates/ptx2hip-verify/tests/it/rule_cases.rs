//! The rule table's conformance test: every rule's example and every canonical form of every rule
//! translates for both targets (`--target portable` where the rule has portable code) with that
//! rule, and every test case written in the table (`[[rule.test]]`, `[[unsupported.test]]`,
//! rules/README.md) gives what it says. Adding a rule needs no Rust test: its cases are data.
//! The helpers are compiled once per target by the repository's `tests/it/hip_compile.rs`, the
//! values replayed against the GPU recordings by `golden.rs`.

use std::collections::HashSet;

use ptx2hip_core::lower::{analyze, render, RuleSet, Target};
use ptx2hip_core::rules::{Case, Rule};
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_verify::forms::all_forms;
use rayon::prelude::*;

const TARGETS: [Target; 2] = [Target::Amd, Target::Portable];

fn statement(ptx: &str, constraints: &str) -> AsmStatement {
    let constraints: Vec<String> = constraints
        .split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect();
    AsmStatement::synthetic(ptx, &constraints)
}

/// What a case gives for one target, as a problem to report (`None`: as the case says).
fn check(rules: &RuleSet, owner: Option<&Rule>, case: &Case, target: Target) -> Option<String> {
    let analysis = analyze(&statement(&case.ptx, &case.constraints), rules, target);
    let t = match (analysis.outcome, &case.refused) {
        (Err(u), Some(why)) if u.message.contains(why.as_str()) => return None,
        (Err(u), Some(why)) => {
            return Some(format!("refused because `{}`, not `{why}`", u.message))
        }
        (Ok(_), Some(why)) => return Some(format!("translated, but should be refused: `{why}`")),
        (Err(u), None) => return Some(format!("not translated: {}", u.message)),
        (Ok(t), None) => t,
    };
    if let Some(r) = owner.filter(|r| !t.rules.contains(&r.code)) {
        return Some(format!("translated by {:?}, not {}", t.rules, r.code));
    }
    let code = render(&t.lines, "", "  ").join("\n");
    if let Some(s) = case.emits.iter().find(|s| !code.contains(s.as_str())) {
        return Some(format!("does not emit `{s}`:\n{code}"));
    }
    if let Some(s) = case.not_emits.iter().find(|s| code.contains(s.as_str())) {
        return Some(format!("emits `{s}`:\n{code}"));
    }
    if let Some(h) = case.helpers.as_ref().filter(|h| **h != t.helpers) {
        return Some(format!("uses helpers {:?}, not {h:?}", t.helpers));
    }
    let want = case.translation.as_ref()?;
    let got = plain_translation(rules, case, target);
    (got != *want).then(|| format!("as a plain `asm` translates to\n{got}\nnot\n{want}"))
}

/// The whole code of the case's statement as a plain `asm`: not `volatile`, so without the
/// compiler barriers around a volatile statement that touches memory (`lower/barrier.rs`).
fn plain_translation(rules: &RuleSet, case: &Case, target: Target) -> String {
    let mut stmt = statement(&case.ptx, &case.constraints);
    stmt.qualifiers.clear();
    match analyze(&stmt, rules, target).outcome {
        Ok(t) => render(&t.lines, "", "  ").join("\n"),
        Err(u) => format!("(not translated: {})", u.message),
    }
}

fn targets(case: &Case) -> impl Iterator<Item = Target> + '_ {
    TARGETS.into_iter().filter(|t| {
        case.target
            .as_deref()
            .is_none_or(|only| only == t.to_string())
    })
}

#[test]
fn every_case_in_the_table_holds() {
    let rules = RuleSet::embedded().expect("rule table loads");
    let mut problems = Vec::new();
    let mut cases = 0;
    let rule_cases = rules
        .rules
        .iter()
        .flat_map(|r| r.test.iter().map(move |c| (Some(r), r.code.as_str(), c)));
    let refusals = rules
        .unsupported
        .iter()
        .flat_map(|u| u.test.iter().map(move |c| (None, u.opcode.as_str(), c)));
    for (owner, name, case) in rule_cases.chain(refusals) {
        if owner.is_none() && case.refused.is_none() {
            problems.push(format!(
                "{name}: `{}`: an [[unsupported]] case needs `refused`",
                case.ptx
            ));
        }
        for target in targets(case) {
            cases += 1;
            if let Some(p) = check(&rules, owner, case, target) {
                problems.push(format!("{name}: `{}` ({target}): {p}", case.ptx));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(cases > 400, "only {cases} cases ran");
}

#[test]
fn a_translation_is_the_whole_code_of_the_plain_statement() {
    let rules = RuleSet::embedded().expect("rule table loads");
    let case = |translation: &str| Case {
        ptx: "bar.sync 0;".to_string(),
        constraints: String::new(),
        target: None,
        emits: Vec::new(),
        not_emits: Vec::new(),
        helpers: None,
        translation: Some(translation.to_string()),
        refused: None,
    };
    let holds = |translation: &str| check(&rules, None, &case(translation), Target::Amd).is_none();
    assert!(holds("__syncthreads();"));
    // Not a part of it, nor the volatile statement's code with its compiler barriers.
    assert!(!holds("__syncthreads()"));
    let volatile = analyze(&statement("bar.sync 0;", ""), &rules, Target::Amd)
        .outcome
        .map(|t| render(&t.lines, "", "  ").join("\n"))
        .unwrap();
    assert!(volatile.contains("asm volatile"), "{volatile}");
    assert!(!holds(&volatile));
}

/// A rule without portable code is refused for `--target portable` (with its reason).
fn expected_for(rule: &Rule, target: Target) -> Case {
    let refused = match target {
        Target::Portable => rule.portable_unsupported.clone(),
        Target::Amd => None,
    };
    Case {
        ptx: rule.example.ptx.clone(),
        constraints: rule.example.constraints.clone(),
        target: None,
        emits: Vec::new(),
        not_emits: Vec::new(),
        helpers: None,
        translation: None,
        refused,
    }
}

#[test]
fn every_example_translates_with_its_rule_for_both_targets() {
    let rules = RuleSet::embedded().expect("rule table loads");
    let mut problems = Vec::new();
    for r in rules.rules.iter().filter(|r| !r.forms().is_empty()) {
        for target in TARGETS {
            let case = expected_for(r, target);
            if let Some(p) = check(&rules, Some(r), &case, target) {
                problems.push(format!("{} example `{}` ({target}): {p}", r.code, case.ptx));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every canonical form translates for both targets, by its rule or by another that claims the
/// same form at a higher `priority` (`vavrg4.u32.u32.u32`: V026 over V027).
#[test]
fn every_canonical_form_translates_with_its_rule_for_both_targets() {
    let rules = RuleSet::embedded().expect("rule table loads");
    let forms = all_forms(&rules);
    // Which rules claim each form name, computed once: (rule code, form name).
    let claimed: HashSet<(&str, String)> = rules
        .rules
        .iter()
        .flat_map(|r| r.forms().into_iter().map(|(f, _)| (r.code.as_str(), f)))
        .collect();
    let problems: Vec<String> = forms
        .par_iter()
        .flat_map_iter(|form| {
            let rule = rules.rule(&form.rule).expect("a form's rule exists");
            let name = form.form.split(" [").next().unwrap_or(&form.form);
            let claimed = &claimed;
            let rules = &rules;
            TARGETS.into_iter().filter_map(move |target| {
                let mut case = expected_for(rule, target);
                case.ptx.clone_from(&form.ptx);
                case.constraints = form.constraints.join(",");
                let problem = check(rules, None, &case, target).or_else(|| {
                    let used = analyze(&statement(&case.ptx, &case.constraints), rules, target)
                        .outcome
                        .map(|t| t.rules)
                        .unwrap_or_default();
                    let claims =
                        |code: &String| claimed.contains(&(code.as_str(), name.to_string()));
                    (case.refused.is_none() && !used.iter().any(claims))
                        .then(|| format!("translated by {used:?}, none of which claims `{name}`"))
                });
                problem.map(|p| format!("{} `{}` ({target}): {p}", rule.code, form.ptx))
            })
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(forms.len() > 4000, "only {} forms", forms.len());
}
