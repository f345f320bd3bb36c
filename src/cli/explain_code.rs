//! `ptx2hip explain` for what is not a PTX statement: a finding code (`U001`), an opcode (`lop3`,
//! `add.s32`) whose rules are listed, or a code that names nothing (`X999`).

use std::process::ExitCode;

use super::output::{outln, warn, Output};
use crate::codes::Code;
use crate::lower::{RuleSet, BRANCH};
use crate::rules::Rule;

/// Forms of a rule listed before the rest are only counted.
const SHOWN_FORMS: usize = 12;

/// Explains `arg` when it is a finding code, an unknown code or an opcode; `None` when it is a
/// rule code (current or former) or a statement, which `explain` handles as before.
pub fn explain(out: &mut Output, arg: &str, rules: &RuleSet) -> Option<ExitCode> {
    let arg = arg.trim();
    if let Some(code) = Code::parse(arg) {
        outln!(
            out,
            "{code} ({}) — {} [{}]\n",
            code.name(),
            code.summary(),
            code.level().as_str()
        );
        outln!(out, "{}", code.doc());
        outln!(out, "\npage: {}", crate::pages::code_page(code));
        return Some(ExitCode::SUCCESS);
    }
    if rules.rule(arg).is_some() || rules.renamed_from(arg).is_some() {
        return None;
    }
    if looks_like_code(arg) {
        warn(format_args!(
            "ptx2hip: error: unknown rule code `{arg}` (`ptx2hip rules` lists the rule codes; the finding codes are {})",
            Code::ALL
                .iter()
                .map(|c| c.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        return Some(ExitCode::from(2));
    }
    if is_form(arg) {
        return Some(opcode(out, arg, rules));
    }
    None
}

/// A letter and three digits, as rule and finding codes are written.
fn looks_like_code(arg: &str) -> bool {
    // A family prefix of one to three letters (rules/README.md, "Codes") and three digits.
    let b = arg.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    (1..=3).contains(&letters)
        && b.len() == letters + 3
        && b[letters..].iter().all(u8::is_ascii_digit)
}

/// An opcode with optional modifiers (`lop3`, `add.s32`, `cp.async.ca.shared.global`): no
/// operands, no `;`.
fn is_form(arg: &str) -> bool {
    let mut parts = arg.split('.');
    let opcode = parts.next().unwrap_or_default();
    opcode
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase())
        && opcode
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && parts.all(|m| {
            !m.is_empty()
                && m.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        })
}

/// What the table says about a form (`ld.global.acquire.gpu.b32`, `lop3`, `add.s32`), read with
/// the matcher lowering uses ([`RuleSet::matching`]), so `explain` and `check` never disagree.
#[derive(Debug)]
pub enum FormAnswer<'a> {
    /// The form is translated: the rules whose slots take its modifiers, in the order lowering
    /// tries them (the first whose operand shapes fit the statement's operands translates it).
    Translated(Vec<&'a Rule>),
    /// Not a form of any rule, but the start of some (`add`, `ld.global`): each rule with the
    /// forms that carry every modifier written.
    Family(Vec<(&'a Rule, Vec<String>)>),
    /// An opcode lowering structures into C++ control flow rather than through a rule (`bra`).
    ControlFlow,
    /// Not translated: how a statement using it is reported, and why.
    Refused(Code, String),
}

/// The answer for `form`, an opcode with optional modifiers in any order.
pub fn form_answer<'a>(rules: &'a RuleSet, form: &str) -> FormAnswer<'a> {
    let (opcode, modifiers) = match form.split_once('.') {
        Some((o, m)) => (o, m.split('.').map(str::to_string).collect::<Vec<_>>()),
        None => (form, Vec::new()),
    };
    let exact: Vec<&Rule> = rules.matching(opcode, &modifiers).map(|(r, _)| r).collect();
    if !exact.is_empty() {
        return FormAnswer::Translated(exact);
    }
    let family: Vec<_> = rules
        .rules_for(opcode)
        .filter(|r| may_carry_all(r, &modifiers))
        .map(|r| {
            let forms: Vec<String> = r
                .forms()
                .into_iter()
                .map(|(f, _)| f)
                .filter(|f| carries_all(f, &modifiers))
                .collect();
            (r, forms)
        })
        .filter(|(_, forms)| !forms.is_empty())
        .collect();
    if !family.is_empty() {
        return FormAnswer::Family(family);
    }
    if opcode == BRANCH {
        return FormAnswer::ControlFlow;
    }
    let refused = match rules.unsupported_reason(opcode, &modifiers) {
        Some(reason) => (Code::DeclinedForm, reason.to_string()),
        None if rules.rules_for(opcode).next().is_some() => (
            Code::ModifierCombination,
            format!("no rule of `{opcode}` takes these modifiers (`ptx2hip explain {opcode}` lists its forms)"),
        ),
        None => (Code::UnknownInstruction, "no rule in the table".to_string()),
    };
    FormAnswer::Refused(refused.0, refused.1)
}

/// Whether each of `modifiers` is a piece of the rule's opcode (`cp.async.mbarrier.arrive`) or of
/// some value of one of its slots: only then can one of its forms carry them all. Asked before
/// listing a rule's forms, which are every combination of its slots' values (thousands for a
/// `cvt` or `ld` rule).
fn may_carry_all(rule: &Rule, modifiers: &[String]) -> bool {
    modifiers.iter().all(|m| {
        rule.opcode.split('.').skip(1).any(|piece| piece == m)
            || rule.slots.iter().filter(|s| !s.hint).any(|s| {
                Rule::slot_values(s)
                    .iter()
                    .any(|v| v.split('.').any(|piece| piece == m))
            })
    })
}

/// Whether the form `opcode.m1.m2...` carries each of `modifiers`, in any order, each once.
fn carries_all(form: &str, modifiers: &[String]) -> bool {
    let mut have: Vec<&str> = form.split('.').skip(1).collect();
    modifiers
        .iter()
        .all(|m| match have.iter().position(|h| h == m) {
            Some(i) => {
                have.swap_remove(i);
                true
            }
            None => false,
        })
}

/// Prints [`form_answer`]: the rules that translate `form`, the forms it starts, or why it is
/// not translated.
fn opcode(out: &mut Output, form: &str, rules: &RuleSet) -> ExitCode {
    let modifiers: Vec<String> = form.split('.').skip(1).map(str::to_string).collect();
    match form_answer(rules, form) {
        FormAnswer::Translated(matching) => {
            if let [rule] = matching.as_slice() {
                outln!(
                    out,
                    "`{form}` is translated by {} ({}): {}",
                    rule.code,
                    rule.name,
                    rule.summary
                );
            } else {
                outln!(
                    out,
                    "`{form}` is translated by the first of these rules whose operands fit the statement's:"
                );
                for rule in &matching {
                    outln!(out, "\n  {} ({}): {}", rule.code, rule.name, rule.summary);
                    let priority = match rule.priority {
                        0 => String::new(),
                        p => format!(" (priority {p}: tried first)"),
                    };
                    outln!(out, "    operands: {}{priority}", rule.operands.join(", "));
                }
            }
            if let Some((spelled, _)) = matching.first().and_then(|r| {
                r.forms().into_iter().find(|(f, _)| {
                    f != form
                        && carries_all(f, &modifiers)
                        && f.split('.').count() == form.split('.').count()
                })
            }) {
                outln!(out, "(the rule table writes it `{spelled}`; PTX takes the modifiers in either order)");
            }
        }
        FormAnswer::Family(family) => {
            outln!(
                out,
                "{} rule{} translate{} forms with `{form}`:",
                family.len(),
                if family.len() == 1 { "" } else { "s" },
                if family.len() == 1 { "s" } else { "" }
            );
            for (r, forms) in &family {
                outln!(out, "\n  {} ({}): {}", r.code, r.name, r.summary);
                outln!(out, "    forms:");
                for form in forms.iter().take(SHOWN_FORMS) {
                    outln!(out, "      {form}");
                }
                let more = forms.len().saturating_sub(SHOWN_FORMS);
                if more > 0 {
                    outln!(
                        out,
                        "      and {more} more (`ptx2hip explain {}` lists them)",
                        r.code
                    );
                }
            }
        }
        FormAnswer::ControlFlow => {
            outln!(
                out,
                "`{form}` is translated as control flow, not by a rule: a forward branch skips the code up to its label with an `if`, a backward one closes a `do {{ }} while` loop; a branch that cannot be structured so is reported as {} ({})",
                Code::ControlFlow,
                Code::ControlFlow.name()
            );
        }
        FormAnswer::Refused(code, why) => {
            outln!(out, "`{form}` is not translated: {why}");
            outln!(
                out,
                "a statement using it is reported as {code} ({}); `ptx2hip explain {code}` says more",
                code.name()
            );
            return ExitCode::from(1);
        }
    }
    outln!(
        out,
        "\n`ptx2hip explain CODE` documents a rule; `ptx2hip explain '{form} ...;'` a statement."
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_forms_and_statements_are_told_apart() {
        assert!(looks_like_code("X999"));
        assert!(looks_like_code("u001"));
        assert!(looks_like_code("AB001"), "a family prefix of two letters");
        assert!(!looks_like_code("ABCD001"));
        assert!(!looks_like_code("lop3"));
        assert!(!looks_like_code("mad24"));
        assert!(is_form("lop3"));
        assert!(is_form("add.s32"));
        assert!(is_form("ld.global.L2::cache_hint.u32"));
        assert!(!is_form("add.s32 %0, %1, %2;"));
        assert!(!is_form("trap;"));
        assert!(!is_form("%clock"));
        assert!(!is_form("add..s32"));
    }

    #[test]
    fn a_family_is_every_rule_with_a_form_carrying_the_modifiers_in_the_opcode_or_a_slot() {
        let rules = RuleSet::embedded().unwrap();
        let family = |form: &str| match form_answer(&rules, form) {
            FormAnswer::Family(family) => family,
            _ => panic!("`{form}` is not a family"),
        };
        let codes = |form: &str| -> Vec<String> {
            family(form).iter().map(|(r, _)| r.code.clone()).collect()
        };
        // Q018 (`cp.async.mbarrier.arrive`): `async` is a piece of its opcode as the table
        // loads it, `mbarrier` a slot's one value.
        let mbarrier = rules.rules.iter().find(|r| r.code == "Q018").unwrap();
        assert!(codes("cp.async").contains(&mbarrier.code));
        assert!(codes("cp.mbarrier").contains(&mbarrier.code));
        // A modifier no slot of a rule has leaves the rule out, and every form listed carries all.
        for (rule, forms) in family("ld.relaxed.global") {
            assert!(may_carry_all(rule, &["relaxed".into(), "global".into()]));
            assert!(forms
                .iter()
                .all(|f| f.contains(".relaxed") && f.contains(".global")));
        }
        assert!(!may_carry_all(mbarrier, &["relaxed".into()]));
    }
}
