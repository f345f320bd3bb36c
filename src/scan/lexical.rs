//! A lexical survey of one file: every `asm` keyword in code, and every preprocessor line.
//!
//! The scanner anchors on the keywords rather than on a syntax tree of the file: tree-sitter's
//! error recovery on the code around a statement (a macro without `;` before it, an `#if` arm
//! that splits a constructor) can turn `asm` into an identifier and lose the statement, and a
//! `#define` body with `#`/`##` is kept as an opaque directive. Bytes cannot be misread that way.
//! A keyword is in code when it is outside comments, string and character literals, and outside
//! preprocessor lines other than a `#define` body (which is code once expanded).

use std::ops::Range;

/// What the survey found.
#[derive(Debug, Default)]
pub struct Survey {
    pub keywords: Vec<Keyword>,
    /// Every preprocessor line, in file order.
    pub directives: Vec<Directive>,
}

/// One `asm`, `__asm__` or `__asm` keyword in code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keyword {
    pub at: usize,
    pub len: usize,
    /// Index into [`Survey::directives`] of the `#define` whose body holds the keyword.
    pub define: Option<usize>,
}

/// One preprocessor line (with its `\`-newline continuations).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// From the `#` to the end of the line (newline excluded).
    pub span: Range<usize>,
    /// The directive's name (`define`, `if`, `endif`, ...); empty for a null directive.
    pub word: Range<usize>,
    /// Everything after the name.
    pub rest: Range<usize>,
}

impl Directive {
    pub fn word<'s>(&self, src: &'s [u8]) -> &'s [u8] {
        &src[self.word.clone()]
    }
}

const KEYWORDS: [&[u8]; 3] = [b"asm", b"__asm__", b"__asm"];

/// Surveys `src`.
pub fn survey(src: &[u8]) -> Survey {
    let mut out = Survey::default();
    let mut i = 0;
    let mut line_start = true;
    while i < src.len() {
        if line_start {
            line_start = false;
            let j = i + src[i..]
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\x0b' | b'\x0c'))
                .count();
            if src.get(j) == Some(&b'#') {
                i = directive(src, j, &mut out);
                line_start = true;
                continue;
            }
        }
        match code_token(src, i, &mut out, None) {
            Step::Newline(next) => {
                line_start = true;
                i = next;
            }
            Step::Next(next) => i = next,
        }
    }
    out
}

enum Step {
    /// Continue at this offset, at the start of a line.
    Newline(usize),
    Next(usize),
}

/// Lexes one token of code at `i` (recording keywords); returns where to continue.
fn code_token(src: &[u8], i: usize, out: &mut Survey, define: Option<usize>) -> Step {
    let b = src[i];
    match b {
        b'\n' => Step::Newline(i + 1),
        b'/' if src.get(i + 1) == Some(&b'/') => Step::Next(line_comment_end(src, i)),
        b'/' if src.get(i + 1) == Some(&b'*') => Step::Next(block_comment_end(src, i)),
        b'"' => Step::Next(string_end(src, i)),
        b'\'' => Step::Next(char_end(src, i)),
        b'0'..=b'9' => Step::Next(number_end(src, i)),
        b'.' if src.get(i + 1).is_some_and(u8::is_ascii_digit) => Step::Next(number_end(src, i)),
        _ if is_ident_start(b) => {
            let end = ident_end(src, i);
            let word = &src[i..end];
            if src.get(end) == Some(&b'"') && is_raw_prefix(word) {
                return Step::Next(raw_string_end(src, end));
            }
            if src.get(end) == Some(&b'\'') && matches!(word, b"u8" | b"u" | b"U" | b"L") {
                return Step::Next(char_end(src, end));
            }
            if KEYWORDS.contains(&word) {
                out.keywords.push(Keyword {
                    at: i,
                    len: word.len(),
                    define,
                });
            }
            Step::Next(end)
        }
        _ => Step::Next(i + 1),
    }
}

/// Records the directive whose `#` is at `hash`; returns the offset after its line.
fn directive(src: &[u8], hash: usize, out: &mut Survey) -> usize {
    let end = directive_end(src, hash);
    let mut w = hash + 1;
    w += src[w..end]
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let word_end = w + src[w..end]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let index = out.directives.len();
    out.directives.push(Directive {
        span: hash..end,
        word: w..word_end,
        rest: word_end..end,
    });
    if &src[w..word_end] == b"define" {
        if let Some(body) = define_body(src, word_end, end) {
            let mut i = body;
            while i < end {
                i = match code_token(src, i, out, Some(index)) {
                    Step::Newline(n) | Step::Next(n) => n,
                };
            }
        }
    }
    (end + 1).min(src.len())
}

/// Where the body of a `#define` starts: after the name and a parameter list glued to it.
fn define_body(src: &[u8], after_word: usize, end: usize) -> Option<usize> {
    let mut i = skip_blank(src, after_word, end);
    if !src.get(i).is_some_and(|b| is_ident_start(*b)) {
        return None;
    }
    i = ident_end(src, i);
    if src.get(i) == Some(&b'(') {
        i += memchr::memchr(b')', &src[i..end])? + 1;
    }
    Some(i)
}

/// Skips spaces, tabs and `\`-newline continuations.
fn skip_blank(src: &[u8], mut i: usize, end: usize) -> usize {
    while i < end {
        match src[i] {
            b' ' | b'\t' => i += 1,
            b'\\' => i = after_continuation(src, i).unwrap_or(end),
            _ => break,
        }
    }
    i
}

fn after_continuation(src: &[u8], i: usize) -> Option<usize> {
    match src.get(i + 1..)? {
        [b'\n', ..] => Some(i + 2),
        [b'\r', b'\n', ..] => Some(i + 3),
        _ => None,
    }
}

/// The offset of the newline that ends the directive at `hash` (or the end of the file): lines
/// continue after a `\`, and a block comment or literal that starts on the line is skipped whole.
pub fn directive_end(src: &[u8], hash: usize) -> usize {
    let mut i = hash + 1;
    while i < src.len() {
        match src[i] {
            b'\n' => return i,
            b'\\' => i = after_continuation(src, i).unwrap_or(i + 1),
            b'/' if src.get(i + 1) == Some(&b'/') => i = line_comment_end(src, i),
            b'/' if src.get(i + 1) == Some(&b'*') => i = block_comment_end(src, i),
            b'"' => i = string_end(src, i),
            b'\'' => i = char_end(src, i),
            _ => i += 1,
        }
    }
    src.len()
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80
}

fn ident_end(src: &[u8], i: usize) -> usize {
    i + src[i..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b == b'$' || **b >= 0x80)
        .count()
}

fn is_raw_prefix(word: &[u8]) -> bool {
    matches!(word, b"R" | b"u8R" | b"uR" | b"UR" | b"LR")
}

/// A pp-number: digits, letters, `.`, digit separators and exponent signs.
fn number_end(src: &[u8], mut i: usize) -> usize {
    i += 1;
    while let Some(&b) = src.get(i) {
        let sign = matches!(b, b'+' | b'-') && matches!(src[i - 1], b'e' | b'E' | b'p' | b'P');
        let separator = b == b'\'' && src.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
        if b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || sign || separator {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// The newline ending a `//` comment (a `\` before it continues the comment).
pub fn line_comment_end(src: &[u8], i: usize) -> usize {
    let mut from = i;
    loop {
        let Some(p) = memchr::memchr(b'\n', &src[from..]) else {
            return src.len();
        };
        let nl = from + p;
        let before = src[..nl].strip_suffix(b"\r").unwrap_or(&src[..nl]);
        if !before.ends_with(b"\\") {
            return nl;
        }
        from = nl + 1;
    }
}

/// The offset after a block comment (the end of the file if unterminated).
pub fn block_comment_end(src: &[u8], i: usize) -> usize {
    memchr::memmem::find(&src[(i + 2).min(src.len())..], b"*/").map_or(src.len(), |p| i + 2 + p + 2)
}

/// The offset after a `"..."` literal at `i`; an unterminated one ends at the newline.
pub fn string_end(src: &[u8], i: usize) -> usize {
    quoted_end(src, i, b'"')
}

/// The offset after a character literal at `i`.
fn char_end(src: &[u8], i: usize) -> usize {
    quoted_end(src, i, b'\'')
}

fn quoted_end(src: &[u8], mut i: usize, quote: u8) -> usize {
    i += 1;
    while i < src.len() {
        match src[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    src.len()
}

/// The offset after a raw string whose `"` is at `quote`: `R"delim( ... )delim"`.
pub fn raw_string_end(src: &[u8], quote: usize) -> usize {
    let limit = (quote + 18).min(src.len());
    let Some(open) = src[quote + 1..limit]
        .iter()
        .position(|&b| b == b'(')
        .map(|p| quote + 1 + p)
    else {
        return string_end(src, quote);
    };
    let mut close = Vec::with_capacity(open - quote + 1);
    close.push(b')');
    close.extend_from_slice(&src[quote + 1..open]);
    close.push(b'"');
    memchr::memmem::find(&src[open..], &close).map_or(src.len(), |p| open + p + close.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keywords(src: &str) -> Vec<(usize, Option<usize>)> {
        survey(src.as_bytes())
            .keywords
            .iter()
            .map(|k| (k.at, k.define))
            .collect()
    }

    #[test]
    fn keywords_in_code_are_found_and_those_in_comments_and_literals_are_not() {
        let src = "asm(\"x\"); // asm\n/* __asm__ */ s = \"asm\"; c = 'a'; __asm volatile(\"\"); r = R\"(asm)\"; n = 1'000; plasma; asm_x;\n";
        let at = |s: &str| src.find(s).unwrap();
        assert_eq!(keywords(src), vec![(0, None), (at("__asm volatile"), None)]);
    }

    #[test]
    fn keywords_in_define_bodies_count_and_other_directives_do_not() {
        let src = "#if defined(__asm__)\n#pragma asm\n#define LD(c) int ld_##c() { \\\n  asm(\"ld\" #c); }\n  # define B __asm__(\"x\")\nasm(\"y\");\n";
        let s = survey(src.as_bytes());
        let at = |p: &str| src.find(p).unwrap();
        let got: Vec<_> = s.keywords.iter().map(|k| (k.at, k.define)).collect();
        assert_eq!(
            got,
            vec![
                (at("asm(\"ld\""), Some(2)),
                (at("__asm__(\"x"), Some(3)),
                (at("asm(\"y"), None)
            ]
        );
        let words: Vec<&[u8]> = s
            .directives
            .iter()
            .map(|d| d.word(src.as_bytes()))
            .collect();
        assert_eq!(words, vec![&b"if"[..], b"pragma", b"define", b"define"]);
    }

    #[test]
    fn a_directive_spans_continuations_and_multi_line_comments() {
        let src = "#if A /* x\n asm */ && \\\n B\nasm();\n";
        let s = survey(src.as_bytes());
        assert_eq!(s.directives.len(), 1);
        assert_eq!(s.directives[0].span, 0..src.find("\nasm").unwrap());
        assert_eq!(s.keywords.len(), 1);
    }

    #[test]
    fn a_hash_not_at_line_start_is_not_a_directive() {
        let src = "x = a # b; asm(\"\");\n";
        let s = survey(src.as_bytes());
        assert!(s.directives.is_empty());
        assert_eq!(s.keywords.len(), 1);
    }

    #[test]
    fn truncated_input_never_panics() {
        for src in [
            "#",
            "#define",
            "#define X(",
            "\"",
            "'",
            "R\"(",
            "/*",
            "//\\",
            "#if \\",
        ] {
            let _ = survey(src.as_bytes());
        }
    }
}
