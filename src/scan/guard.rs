//! What a preprocessor condition says about AMD: the value of `#if`/`#ifdef` conditions when
//! compiling for AMD GPUs, read from the directive's text.
//!
//! Statements already behind a "not AMD" guard need no translation, and ptx2hip's own output keeps
//! the original asm in exactly such places (`#else` of `#if defined(__HIP_PLATFORM_AMD__)`, or
//! `PTX2HIP_NV_ONLY(...)`). The conditions are read from the bytes of the directive lines, not from
//! the syntax tree: how tree-sitter recovers from an error elsewhere must not decide whether the
//! original asm that ptx2hip kept for NVIDIA is translated again (see [`super::nesting`]).

/// Macros that are defined when compiling for AMD GPUs.
const AMD_MACROS: &[&[u8]] = &[
    b"__HIP_PLATFORM_AMD__",
    b"__HIP_PLATFORM_HCC__",
    b"__HIP__",
    b"__HIPCC__",
    b"USE_ROCM",
];

/// Wrapper macro that ptx2hip emits around the original asm where no directive may go.
pub const NV_ONLY_MACRO: &[u8] = b"PTX2HIP_NV_ONLY";

/// The value on AMD of a conditional directive (`word` is `if`, `elif`, `ifdef`, `ifndef`,
/// `elifdef` or `elifndef`; `rest` the text after it, comments removed): `Some` only when the AMD
/// macros alone decide it.
pub fn condition_on_amd(word: &str, rest: &[u8]) -> Option<bool> {
    match word {
        "if" | "elif" => {
            let tokens = tokens(rest)?;
            let mut parser = Condition {
                tokens,
                at: 0,
                depth: 0,
            };
            let value = parser.expression(0)?;
            if parser.at == parser.tokens.len() {
                value
            } else {
                None
            }
        }
        "ifdef" | "elifdef" => is_amd_macro(rest).then_some(true),
        "ifndef" | "elifndef" => is_amd_macro(rest).then_some(false),
        _ => None,
    }
}

/// Whether a condition is the literal `0` (`#if 0`): the arm is never compiled by anyone.
pub fn is_literal(rest: &[u8], digit: u8) -> bool {
    rest.trim_ascii() == [digit]
}

fn is_amd_macro(name: &[u8]) -> bool {
    AMD_MACROS.contains(&name.trim_ascii())
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Token<'a> {
    Name(&'a [u8]),
    /// A number literal: whether it is non-zero.
    Number(bool),
    Punct(&'a [u8]),
}

/// The tokens of a condition; `None` for a character the evaluator does not know (a string, a
/// character literal).
fn tokens(text: &[u8]) -> Option<Vec<Token<'_>>> {
    const PUNCT: [&[u8]; 24] = [
        b"||", b"&&", b"==", b"!=", b"<=", b">=", b"<<", b">>", b"(", b")", b"!", b"~", b"+", b"-",
        b"*", b"/", b"%", b"<", b">", b"&", b"|", b"^", b"?", b":",
    ];
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if b.is_ascii_alphanumeric() || b == b'_' {
            let len = text[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'\'')
                .count();
            let word = &text[i..i + len];
            out.push(if b.is_ascii_digit() {
                Token::Number(word.iter().any(|d| (b'1'..=b'9').contains(d)))
            } else {
                Token::Name(word)
            });
            i += len;
        } else {
            let p = PUNCT.iter().find(|p| text[i..].starts_with(p))?;
            out.push(Token::Punct(p));
            i += p.len();
        }
    }
    Some(out)
}

/// Three-valued evaluation of a `#if` expression (precedence climbing): `Some` where the AMD
/// macros decide the value, `None` where anything else could.
struct Condition<'a> {
    tokens: Vec<Token<'a>>,
    at: usize,
    /// Nesting of the expression being parsed: the parser recurses once per level, so a deeper
    /// (hostile) condition is left undecided rather than overflowing the stack.
    depth: usize,
}

/// Deepest nesting of a `#if` condition that is evaluated.
const MAX_CONDITION_DEPTH: usize = 256;

impl<'a> Condition<'a> {
    fn peek(&self) -> Option<Token<'a>> {
        self.tokens.get(self.at).copied()
    }

    fn eat(&mut self, punct: &[u8]) -> bool {
        let hit = self.peek() == Some(Token::Punct(punct));
        self.at += usize::from(hit);
        hit
    }

    /// Parses an expression whose binary operators bind tighter than `min`; the outer `Option`
    /// is a syntax error, the inner one the value.
    fn expression(&mut self, min: u8) -> Option<Option<bool>> {
        if self.depth >= MAX_CONDITION_DEPTH {
            return None;
        }
        self.depth += 1;
        let value = self.binary(min);
        self.depth -= 1;
        value
    }

    fn binary(&mut self, min: u8) -> Option<Option<bool>> {
        let mut left = self.unary()?;
        loop {
            let Some(Token::Punct(op)) = self.peek() else {
                return Some(left);
            };
            let precedence = match op {
                b"?" => 1,
                b"||" => 2,
                b"&&" => 3,
                b"|" => 4,
                b"^" => 5,
                b"&" => 6,
                b"==" | b"!=" => 7,
                b"<" | b">" | b"<=" | b">=" => 8,
                b"<<" | b">>" => 9,
                b"+" | b"-" => 10,
                b"*" | b"/" | b"%" => 11,
                _ => return Some(left),
            };
            if precedence <= min {
                return Some(left);
            }
            self.at += 1;
            if op == b"?" {
                self.expression(0)?;
                if !self.eat(b":") {
                    return None;
                }
                self.expression(0)?;
                left = None;
                continue;
            }
            let right = self.expression(precedence)?;
            left = match (op, left, right) {
                (b"||", Some(true), _) | (b"||", _, Some(true)) => Some(true),
                (b"||", Some(false), Some(false)) => Some(false),
                (b"&&", Some(false), _) | (b"&&", _, Some(false)) => Some(false),
                (b"&&", Some(true), Some(true)) => Some(true),
                _ => None,
            };
        }
    }

    fn unary(&mut self) -> Option<Option<bool>> {
        if self.depth >= MAX_CONDITION_DEPTH {
            return None;
        }
        self.depth += 1;
        let value = self.operand();
        self.depth -= 1;
        value
    }

    fn operand(&mut self) -> Option<Option<bool>> {
        match self.peek()? {
            Token::Punct(b"!") => {
                self.at += 1;
                Some(self.unary()?.map(|v| !v))
            }
            Token::Punct(b"~" | b"-" | b"+") => {
                self.at += 1;
                self.unary()?;
                Some(None)
            }
            Token::Punct(b"(") => {
                self.at += 1;
                let value = self.expression(0)?;
                self.eat(b")").then_some(value)
            }
            Token::Name(b"defined") => {
                self.at += 1;
                let parenthesized = self.eat(b"(");
                let Some(Token::Name(name)) = self.peek() else {
                    return None;
                };
                self.at += 1;
                if parenthesized && !self.eat(b")") {
                    return None;
                }
                Some(is_amd_macro(name).then_some(true))
            }
            Token::Name(name) => {
                self.at += 1;
                // A function-like macro in a condition (`__has_include(<x>)`, `FOO(1)`).
                if self.peek() == Some(Token::Punct(b"(")) {
                    let mut depth = 0;
                    while let Some(t) = self.peek() {
                        self.at += 1;
                        match t {
                            Token::Punct(b"(") => depth += 1,
                            Token::Punct(b")") if depth == 1 => return Some(None),
                            Token::Punct(b")") => depth -= 1,
                            _ => {}
                        }
                    }
                    return None;
                }
                Some(is_amd_macro(name).then_some(true))
            }
            Token::Number(nonzero) => {
                self.at += 1;
                Some(Some(nonzero))
            }
            Token::Punct(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(condition: &str) -> Option<bool> {
        condition_on_amd("if", condition.as_bytes())
    }

    #[test]
    fn the_amd_macros_decide_a_condition_only_where_nothing_else_could() {
        assert_eq!(value("defined(__HIP_PLATFORM_AMD__)"), Some(true));
        assert_eq!(value("defined __HIPCC__"), Some(true));
        assert_eq!(value("!defined(__HIP_PLATFORM_AMD__)"), Some(false));
        assert_eq!(value("USE_ROCM"), Some(true));
        assert_eq!(value("defined(__CUDA_ARCH__)"), None);
        assert_eq!(
            value("defined(__CUDA_ARCH__) && !defined(__HIP__)"),
            Some(false)
        );
        assert_eq!(
            value("defined(__CUDA_ARCH__) || defined(__HIP__)"),
            Some(true)
        );
        assert_eq!(
            value("__CUDA_ARCH__ >= 800 && !(defined(USE_ROCM))"),
            Some(false)
        );
        assert_eq!(
            value("__CUDA_ARCH__ >= 800 || defined(USE_ROCM)"),
            Some(true)
        );
        assert_eq!(value("(0)"), Some(false));
        assert_eq!(value("1"), Some(true));
        assert_eq!(value("0x10"), Some(true));
        assert_eq!(value("__has_include(<cuda.h>) || !defined(__HIP__)"), None);
        assert_eq!(value("A ? defined(__HIP__) : 0"), None);
    }

    #[test]
    fn ifdef_and_ifndef_name_one_macro() {
        assert_eq!(
            condition_on_amd("ifdef", b" __HIP_PLATFORM_AMD__ "),
            Some(true)
        );
        assert_eq!(condition_on_amd("ifndef", b"__HIP__"), Some(false));
        assert_eq!(condition_on_amd("ifndef", b"MY_HEADER_H"), None);
    }

    #[test]
    fn conditions_nested_beyond_the_limit_are_undecided_without_overflowing() {
        let deep = |n: usize| format!("{}defined(__HIP__){}", "(".repeat(n), ")".repeat(n));
        assert_eq!(value(&deep(100)), Some(true));
        assert_eq!(value(&deep(100_000)), None);
        assert_eq!(value(&format!("{}__HIP__", "!".repeat(100_000))), None);
        assert_eq!(value(&"0 ? 1 : ".repeat(100_000)), None);
    }

    #[test]
    fn malformed_conditions_are_undecided() {
        for bad in ["", "defined(", "(1", "1 +", "'a'", "\"s\"", "defined()"] {
            assert_eq!(value(bad), None, "{bad}");
        }
    }
}
