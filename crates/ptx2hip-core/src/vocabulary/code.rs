//! The small typed code model the lowering hands to rule templates: an operand's value knows
//! whether it is a cast, and to which C type, so that a template's own cast of it
//! (`({T.u}){a}`, expanded by [`crate::rules::template::Template`]) is written once when the
//! value already is a cast to that type: `(uint32_t)1`, never `(uint32_t)(uint32_t)1`.
//!
//! This is not a C++ parser: it models only what operand binding produces (literals and reads
//! cast to the operand's type, conversions, address computations) and the table's special
//! register expressions. Everything else is [`Expr::Other`], written as it is.

use std::fmt;

/// A C++ expression produced by the lowering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// `(ty)operand`: a C-style cast to the C type `ty` of `operand`, a postfix expression or a
    /// parenthesised one, written as it is (`(uint32_t)0xEA`, `(int32_t)ptx2hip_in_r(x)`,
    /// `(uint8_t)(ptx2hip_in_r(y))`).
    Cast { ty: String, operand: String },
    /// Any other expression.
    Other(String),
}

impl Expr {
    /// The cast `(ty)operand`; `operand` must bind tighter than a cast (a postfix expression or a
    /// parenthesised one).
    pub fn cast(ty: impl fmt::Display, operand: impl Into<String>) -> Expr {
        Expr::Cast {
            ty: ty.to_string(),
            operand: operand.into(),
        }
    }

    /// An expression that is no cast, or whose cast nothing needs to know.
    pub fn other(text: impl Into<String>) -> Expr {
        Expr::Other(text.into())
    }

    /// Reads an expression of the rule table (a special register's value): `(T)operand` is a cast
    /// when `operand` is one postfix expression (names, `.`, `::`, calls and parentheses, nothing
    /// else outside parentheses), so that `(uint32_t)threadIdx.x` is one and
    /// `(uint32_t)x + 1` is not.
    pub fn from_table(text: &str) -> Expr {
        let is_name = |s: &str| {
            s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        let Some((ty, operand)) = text
            .strip_prefix('(')
            .and_then(|rest| rest.split_once(')'))
            .filter(|(ty, operand)| is_name(ty) && is_postfix(operand))
        else {
            return Expr::other(text);
        };
        Expr::cast(ty, operand)
    }

    /// Whether the value is a cast to the C type spelled `ty`: casting it to `ty` again changes
    /// nothing.
    pub fn is_cast_to(&self, ty: &str) -> bool {
        matches!(self, Expr::Cast { ty: t, .. } if t == ty)
    }
}

/// Whether `text` is one postfix expression: name characters, `.`, `:` and balanced
/// parentheses, with anything inside parentheses.
fn is_postfix(text: &str) -> bool {
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return false,
            ')' => depth -= 1,
            _ if depth > 0 => {}
            c if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':') => {}
            _ => return false,
        }
    }
    depth == 0
        && text.starts_with(|c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '('))
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Cast { ty, operand } => write!(f, "({ty}){operand}"),
            Expr::Other(text) => f.write_str(text),
        }
    }
}

impl From<String> for Expr {
    fn from(text: String) -> Expr {
        Expr::Other(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cast_is_written_as_c_writes_it_and_knows_its_type() {
        let c = Expr::cast("uint32_t", "0xEA");
        assert_eq!(c.to_string(), "(uint32_t)0xEA");
        assert!(c.is_cast_to("uint32_t"));
        assert!(!c.is_cast_to("int32_t"));
        assert!(!Expr::other("(uint32_t)x + 1").is_cast_to("uint32_t"));
    }

    #[test]
    fn table_expressions_are_casts_only_when_the_cast_applies_to_the_whole() {
        for (text, cast) in [
            ("(uint32_t)threadIdx.x", true),
            ("(uint64_t)::clock64()", true),
            ("(uint32_t)(ptx2hip_globaltimer() >> 32)", true),
            ("(uint32_t)x + 1", false),
            ("(uint32_t)(x) + (y)", false),
            ("(uint32_t*)p", false),
            ("ptx2hip_smid()", false),
            ("0u", false),
        ] {
            let e = Expr::from_table(text);
            assert_eq!(
                e.is_cast_to("uint32_t") || e.is_cast_to("uint64_t"),
                cast,
                "{text}"
            );
            assert_eq!(e.to_string(), text);
        }
    }
}
