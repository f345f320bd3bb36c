//! `ptx2hip explain` for what is not a PTX statement: a finding code (`U001`), an opcode (`lop3`,
//! `add.s32`) whose rules are listed, or a code that names nothing (`X999`).

use std::process::ExitCode;

use super::output::{outln, warn, Output};
use crate::codes::Code;
use crate::lower::RuleSet;

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
    let b = arg.as_bytes();
    b.len() == 4 && b[0].is_ascii_alphabetic() && b[1..].iter().all(u8::is_ascii_digit)
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

/// Lists the rules of the opcode of `form` (and, when `form` has modifiers, the forms they
/// start), or says that none translates it and what a statement using it is reported as.
fn opcode(out: &mut Output, form: &str, rules: &RuleSet) -> ExitCode {
    let (opcode, modifiers) = match form.split_once('.') {
        Some((o, m)) => (o, m.split('.').map(str::to_string).collect::<Vec<_>>()),
        None => (form, Vec::new()),
    };
    let prefix = format!("{form}.");
    let matching: Vec<_> = rules
        .rules_for(opcode)
        .map(|r| {
            let forms: Vec<String> = r
                .forms()
                .into_iter()
                .map(|(f, _)| f)
                .filter(|f| f == form || f.starts_with(&prefix))
                .collect();
            (r, forms)
        })
        .filter(|(_, forms)| !forms.is_empty())
        .collect();
    if matching.is_empty() {
        let (code, why) = match rules.unsupported_reason(opcode, &modifiers) {
            Some(reason) => (Code::DeclinedForm, reason.to_string()),
            None if rules.rules_for(opcode).next().is_some() => (
                Code::ModifierCombination,
                format!("the rules of `{opcode}` have no form starting `{form}` (`ptx2hip explain {opcode}` lists them)"),
            ),
            None => (Code::UnknownInstruction, "no rule in the table".to_string()),
        };
        outln!(out, "`{form}` is not translated: {why}");
        outln!(
            out,
            "a statement using it is reported as {code} ({}); `ptx2hip explain {code}` says more",
            code.name()
        );
        return ExitCode::from(1);
    }
    outln!(
        out,
        "{} rule{} translate{} `{form}`:",
        matching.len(),
        if matching.len() == 1 { "" } else { "s" },
        if matching.len() == 1 { "s" } else { "" }
    );
    for (r, forms) in &matching {
        outln!(out, "\n  {} ({}): {}", r.code, r.name, r.summary);
        let shown: Vec<&str> = forms.iter().take(SHOWN_FORMS).map(String::as_str).collect();
        let more = forms.len().saturating_sub(SHOWN_FORMS);
        outln!(
            out,
            "    forms: {}{}",
            shown.join(", "),
            if more > 0 {
                format!(", and {more} more")
            } else {
                String::new()
            }
        );
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
        assert!(!looks_like_code("lop3"));
        assert!(is_form("lop3"));
        assert!(is_form("add.s32"));
        assert!(is_form("ld.global.L2::cache_hint.u32"));
        assert!(!is_form("add.s32 %0, %1, %2;"));
        assert!(!is_form("trap;"));
        assert!(!is_form("%clock"));
        assert!(!is_form("add..s32"));
    }
}
