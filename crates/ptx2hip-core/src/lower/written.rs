//! Integer literals of the PTX text spelled as written (`0xEA` stays `0xEA`, not `234`): a
//! reviewer compares the translation with the original, and a table, mask or shift count reads
//! best in the base its author chose.
//!
//! The parser keeps values only; the spelling comes from the instruction's text. It is used where
//! it is a C++ integer literal of the same value: decimal up to 2^31 - 1 (a larger decimal
//! literal's C++ type is signed and may not hold it), hexadecimal, octal or binary of any width
//! (C++ gives those an unsigned type when needed), an optional `-` and `U` suffix. The cast to
//! the operand's type stays: it is what makes the value the register's.

use crate::ptx::{Immediate, Instruction, Operand};
use crate::vocabulary::code::Expr;

/// Respells the values (placeholder, component, value) of `ins`'s integer immediates, whose
/// operands `names` name in order, with their text in `ptx` (the text `ins.span` indexes).
pub fn respell<'n>(
    ptx: &str,
    ins: &Instruction,
    names: impl Iterator<Item = &'n str>,
    values: &mut [(String, Option<String>, Expr)],
) {
    for ((k, op), name) in ins.operands.iter().enumerate().zip(names) {
        let Operand::Imm(Immediate::Int(v)) = op else {
            continue;
        };
        let Some(text) = operand_text(ptx, ins, k) else {
            continue;
        };
        if let Some(entry) = values
            .iter_mut()
            .find(|(n, attr, _)| n == name && attr.is_none())
        {
            if let Some(spelled) = as_written(&entry.2, text, *v) {
                entry.2 = spelled;
            }
        }
    }
}

/// `ins` printed as the parser read it (`lop3.b32 %0, %1, %2, %3, 0xEA;`), its integer literals
/// spelled as in `ptx` (`explain` shows the statement so).
pub fn printed(ptx: &str, ins: &Instruction) -> String {
    let mut out = ins
        .guard
        .as_ref()
        .map_or(String::new(), |g| format!("{g} "));
    out.push_str(&ins.form());
    for (k, op) in ins.operands.iter().enumerate() {
        out.push_str(if k == 0 { " " } else { ", " });
        let spelled = match op {
            Operand::Imm(Immediate::Int(v)) => operand_text(ptx, ins, k)
                .filter(|text| literal_value(text) == Some(*v))
                .map(str::to_string),
            _ => None,
        };
        out.push_str(&spelled.unwrap_or_else(|| op.to_string()));
    }
    out.push(';');
    out
}

/// The text of operand `k` of `ins`.
fn operand_text<'t>(ptx: &'t str, ins: &Instruction, k: usize) -> Option<&'t str> {
    let text = ptx.get(ins.span.clone())?.trim();
    let text = match text.strip_prefix('@') {
        Some(guarded) => guarded.trim_start().split_once(char::is_whitespace)?.1,
        None => text,
    };
    let operands = text.trim_start().split_once(char::is_whitespace)?.1;
    let operands = operands.trim_end().trim_end_matches(';');
    let mut depth = 0i32;
    let mut from = 0;
    let mut index = 0;
    for (i, ch) in operands.char_indices().chain([(operands.len(), ',')]) {
        match ch {
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                if index == k {
                    return Some(operands[from..i].trim());
                }
                index += 1;
                from = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// `value` (the digits of `v` cast to the operand's type, as the lowering writes an immediate)
/// with the digits as `written`, where that is a C++ literal of the same value.
fn as_written(value: &Expr, written: &str, v: i128) -> Option<Expr> {
    let Expr::Cast { ty, .. } = value else {
        return None;
    };
    (!ty.contains(' ') && literal_value(written)? == v).then(|| Expr::cast(ty, written))
}

/// The value of an integer literal that C++ reads as PTX does, `None` for anything else.
fn literal_value(text: &str) -> Option<i128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits = digits
        .strip_suffix('U')
        .or_else(|| digits.strip_suffix('u'))
        .unwrap_or(digits);
    let lower = digits.to_ascii_lowercase();
    let (radix, body) = if let Some(h) = lower.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (2, b)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(body, radix).ok()?;
    if radix == 10 && magnitude > 0x7fff_ffff {
        return None;
    }
    let m = i128::from(magnitude);
    Some(if negative { -m } else { m })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `value` respelled as `written`, as text.
    fn respelled(ty: &str, digits: &str, written: &str, v: i128) -> Option<String> {
        as_written(&Expr::cast(ty, digits), written, v).map(|e| e.to_string())
    }

    #[test]
    fn literals_keep_their_base() {
        assert_eq!(
            respelled("uint32_t", "234", "0xEA", 234).unwrap(),
            "(uint32_t)0xEA"
        );
        assert_eq!(
            respelled("uint32_t", "5", "0b101", 5).unwrap(),
            "(uint32_t)0b101"
        );
        assert_eq!(
            respelled("int32_t", "0xffffffffu", "-1", -1).unwrap(),
            "(int32_t)-1"
        );
        assert_eq!(
            respelled("uint64_t", "16ull", "0x10", 16).unwrap(),
            "(uint64_t)0x10"
        );
        assert_eq!(
            respelled("uint32_t", "8", "010", 8).unwrap(),
            "(uint32_t)010"
        );
        // Still a cast: a template's cast to the same type is written once.
        let e = as_written(&Expr::cast("uint32_t", "234"), "0xEA", 234).unwrap();
        assert!(e.is_cast_to("uint32_t"));
    }

    #[test]
    fn anything_else_keeps_the_value() {
        // An expression, a wide decimal, a different value, a type with a space, no cast.
        assert_eq!(respelled("uint32_t", "6", "2*3", 6), None);
        assert_eq!(
            respelled(
                "uint64_t",
                "0xffffffffffull",
                "1099511627775",
                1099511627775
            ),
            None
        );
        assert_eq!(respelled("uint32_t", "7", "0x8", 7), None);
        assert_eq!(respelled("unsigned __int128", "7", "7", 7), None);
        assert_eq!(as_written(&Expr::other("7"), "7", 7), None);
    }

    #[test]
    fn an_instruction_is_printed_with_its_literals_as_written() {
        let ptx = "lop3.b32 %0, %1, %2, %3, 0xEA; add.s32 %0, %0, 2*3;";
        let block = crate::ptx::parse(ptx).unwrap();
        let printed: Vec<String> = block
            .items
            .iter()
            .map(|item| match item {
                crate::ptx::Item::Instruction(ins) => printed(ptx, ins),
                other => other.to_string(),
            })
            .collect();
        assert_eq!(
            printed,
            ["lop3.b32 %0, %1, %2, %3, 0xEA;", "add.s32 %0, %0, 6;"]
        );
    }

    #[test]
    fn operands_are_found_in_the_instruction_text() {
        let ptx = "@p lop3.b32 %0, %1, [%2+4], {%3, %4}, 0xEA;";
        let block = crate::ptx::parse(ptx).unwrap();
        let crate::ptx::Item::Instruction(ins) = &block.items[0] else {
            panic!("an instruction")
        };
        assert_eq!(operand_text(ptx, ins, 4), Some("0xEA"));
        assert_eq!(operand_text(ptx, ins, 2), Some("[%2+4]"));
        assert_eq!(operand_text(ptx, ins, 5), None);
    }
}
