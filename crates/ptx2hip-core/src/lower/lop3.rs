//! `lop3` whose truth table is written in the PTX text (`lop3.b32 %0, %1, %2, %3, 0xEA;`): the
//! call site gets that table's boolean formula (`c | (b & a)`) instead of the 256-case helper.
//!
//! The formula is the table's data (`[switch.ptx2hip_lop3]` of `rules/bits.toml`, one minimal
//! `&`/`|`/`^`/`~` formula per table), which the helper's switch is generated from
//! (`rules::switches`), so both spellings are the same code; the tests
//! evaluate every one of the 256 against its table. A table given as an `"n"` operand is a C++
//! constant the translation cannot read, and keeps the helper (whose switch folds there).
//!
//! A formula may read an input twice or not at all, so it is used only where each input is
//! repeatable: a name, a member or a literal, read through the operand glue or not
//! ([`is_simple_expr`]): evaluating it twice or never has the same effect as once.

use super::block::is_simple_expr;
use crate::ptx::{Immediate, Instruction, Operand};
use crate::rules::{Rule, RuleSet};
use crate::vocabulary::code::Expr;

/// The helper whose switch the formulas are the cases of.
const HELPER: &str = "ptx2hip_lop3";

/// The template for `ins` (an instance of `rule`) with its table's formula, where the table is
/// a literal and `values` (placeholder, component, value) are repeatable; `None` otherwise.
pub fn literal_template(
    rules: &RuleSet,
    rule: &Rule,
    ins: &Instruction,
    values: &[(String, Option<String>, Expr)],
) -> Option<String> {
    if rule.opcode != "lop3" || rule.operands.len() != 5 {
        return None;
    }
    let Some(Operand::Imm(Immediate::Int(table))) = ins.operands.get(4) else {
        return None;
    };
    let inputs_repeatable = ["a", "b", "c"].iter().all(|name| {
        values
            .iter()
            .any(|(n, attr, v)| n == name && attr.is_none() && repeatable(&v.to_string()))
    });
    if !inputs_repeatable {
        return None;
    }
    let formula = formula(rules, (table & 0xff) as u8)?;
    Some(format!("{{d}} = {};", placeholders(&formula)))
}

/// The formula of `table` over `a`, `b`, `c`: the helper's case for it, from the table's data
/// (`[switch.ptx2hip_lop3]` of rules/bits.toml, which the helper is generated from).
pub fn formula(rules: &RuleSet, table: u8) -> Option<String> {
    rules
        .switch_case(HELPER, &format!("0x{table:02x}"))
        .map(str::to_string)
}

/// `formula` with its variables `a`, `b`, `c` as the placeholders `{a}`, `{b}`, `{c}`.
fn placeholders(formula: &str) -> String {
    let mut out = String::with_capacity(formula.len() + 16);
    let mut word = String::new();
    for ch in formula.chars().chain([' ']) {
        if ch.is_ascii_alphanumeric() || ch == '_' {
            word.push(ch);
            continue;
        }
        match word.as_str() {
            "a" | "b" | "c" => out.push_str(&format!("{{{word}}}")),
            w => out.push_str(w),
        }
        word.clear();
        out.push(ch);
    }
    out.pop();
    out
}

/// A value that evaluates the same, without effects, however often it is evaluated: a simple
/// expression, alone, cast, or read through the `"r"` operand glue.
fn repeatable(value: &str) -> bool {
    let inner = value
        .strip_prefix("ptx2hip_in_r(")
        .and_then(|v| v.strip_suffix(')'))
        .or_else(|| value.strip_prefix("(uint32_t)"))
        .unwrap_or(value);
    let inner = inner
        .strip_prefix('(')
        .and_then(|v| v.strip_suffix(')'))
        .unwrap_or(inner);
    is_simple_expr(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Evaluates a formula of `&`, `|`, `^`, `~`, parentheses, `a`, `b`, `c` and the constants
    /// `0u` / `0xffffffffu` on 32-bit values (precedence as in C: `~`, then `&`, `^`, `|`).
    fn eval(formula: &str, a: u32, b: u32, c: u32) -> u32 {
        let tokens: Vec<String> = tokenize(formula);
        let mut at = 0;
        let v = or(&tokens, &mut at, [a, b, c]);
        assert_eq!(at, tokens.len(), "trailing tokens in {formula}");
        v
    }

    fn tokenize(s: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut word = String::new();
        for ch in s.chars() {
            if ch.is_ascii_alphanumeric() {
                word.push(ch);
                continue;
            }
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            if !ch.is_whitespace() {
                out.push(ch.to_string());
            }
        }
        if !word.is_empty() {
            out.push(word);
        }
        out
    }

    fn or(t: &[String], at: &mut usize, v: [u32; 3]) -> u32 {
        let mut x = xor(t, at, v);
        while t.get(*at).is_some_and(|s| s == "|") {
            *at += 1;
            x |= xor(t, at, v);
        }
        x
    }

    fn xor(t: &[String], at: &mut usize, v: [u32; 3]) -> u32 {
        let mut x = and(t, at, v);
        while t.get(*at).is_some_and(|s| s == "^") {
            *at += 1;
            x ^= and(t, at, v);
        }
        x
    }

    fn and(t: &[String], at: &mut usize, v: [u32; 3]) -> u32 {
        let mut x = unary(t, at, v);
        while t.get(*at).is_some_and(|s| s == "&") {
            *at += 1;
            x &= unary(t, at, v);
        }
        x
    }

    fn unary(t: &[String], at: &mut usize, v: [u32; 3]) -> u32 {
        let token = t[*at].clone();
        *at += 1;
        match token.as_str() {
            "~" => !unary(t, at, v),
            "(" => {
                let x = or(t, at, v);
                assert_eq!(t[*at], ")");
                *at += 1;
                x
            }
            "a" => v[0],
            "b" => v[1],
            "c" => v[2],
            "0u" => 0,
            "0xffffffffu" => u32::MAX,
            other => panic!("unexpected token {other}"),
        }
    }

    #[test]
    fn every_formula_computes_its_table() {
        let rules = RuleSet::embedded().unwrap();
        for table in 0..=255u8 {
            let f = formula(&rules, table).unwrap_or_else(|| panic!("no formula for {table:#04x}"));
            // The table of F is F(0xF0, 0xCC, 0xAA) in every byte.
            let got = eval(&f, 0xF0F0_F0F0, 0xCCCC_CCCC, 0xAAAA_AAAA);
            assert_eq!(got, u32::from(table) * 0x0101_0101, "{table:#04x}: {f}");
            // The placeholders stand exactly for the variables.
            let t = placeholders(&f);
            let back = t
                .replace("{a}", "a")
                .replace("{b}", "b")
                .replace("{c}", "c");
            assert_eq!(back, f);
        }
    }

    #[test]
    fn only_repeatable_inputs_take_the_formula() {
        for v in [
            "x",
            "p->v",
            "ptx2hip_in_r(s.x)",
            "(uint32_t)234",
            "(uint32_t)(5u)",
            "p2h_a",
        ] {
            assert!(repeatable(v), "{v}");
        }
        for v in [
            "ptx2hip_in_r(x[i])",
            "ptx2hip_in_r(f())",
            "ptx2hip_in_r(i++)",
            "(uint32_t)(-1)",
        ] {
            assert!(!repeatable(v), "{v}");
        }
    }
}
