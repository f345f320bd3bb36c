//! Where one asm statement lies, found from its keyword in the bytes.
//!
//! From the keyword, past its qualifiers, to the `)` that closes its `(` (literals, comments and
//! preprocessor lines skipped), then the `;` if one follows. Nothing around the statement (a
//! macro call without `;` before it, an `#if` arm boundary, a `#define` body with `#`/`##`) can
//! change what is read, and a statement never closed is reported at its own keyword.

use std::ops::Range;

use super::nesting::{
    block_comment_end, directive_end, is_raw_prefix, line_comment_end, quoted_end, raw_string_end,
    string_end,
};

/// Where one asm statement lies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extent {
    /// From the keyword through the closing `)`.
    pub expr: Range<usize>,
    /// The offset after the `;` that follows the `)` (only blanks and comments between).
    pub semicolon: Option<usize>,
    /// The template: from after the `(` to the first `:` between the parentheses (or the `)`).
    pub template: Range<usize>,
    /// Preprocessor lines between the parentheses.
    pub directives: Vec<Range<usize>>,
}

impl Extent {
    /// The whole statement: through the `;` when there is one.
    pub fn span(&self) -> Range<usize> {
        self.expr.start..self.semicolon.unwrap_or(self.expr.end)
    }
}

/// Why no statement could be read at a keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Nothing but qualifiers follows the keyword (an alias such as `#define ASM asm volatile`).
    Parenthesis,
    /// The `(` is never closed (before the end of the `#define` body or the code around it).
    Close,
}

/// Qualifiers that may stand between the keyword and the `(`.
const QUALIFIERS: &[&[u8]] = &[
    b"volatile",
    b"__volatile__",
    b"__volatile",
    b"inline",
    b"__inline__",
    b"__inline",
    b"goto",
];

/// Reads the statement whose keyword spans `keyword`; `limit` is where its text must end (the
/// end of a `#define` body, or of the file); `in_define` says no preprocessor line can start
/// inside.
pub fn extent(
    src: &[u8],
    keyword: Range<usize>,
    limit: usize,
    in_define: bool,
) -> Result<Extent, Missing> {
    let reader = Reader {
        src: &src[..limit.min(src.len())],
    };
    let mut i = keyword.end;
    loop {
        i = reader.skip_blanks(i);
        let word_end = i + reader.src[i..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if word_end > i && QUALIFIERS.contains(&&reader.src[i..word_end]) {
            i = word_end;
        } else {
            break;
        }
    }
    if reader.src.get(i) != Some(&b'(') {
        return Err(Missing::Parenthesis);
    }
    let open = i;
    let mut depth = 0usize;
    // Braces inside the parentheses: `{}` initialisers and lambdas in operand expressions.
    let mut braces = 0usize;
    let mut template_end = None;
    let mut directives = Vec::new();
    let mut line_start = false;
    while i < reader.src.len() {
        let b = reader.src[i];
        if line_start && !in_define {
            let j = i + reader.src[i..]
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            if reader.src.get(j) == Some(&b'#') {
                let end = directive_end(reader.src, j);
                directives.push(j..end);
                i = end;
                continue;
            }
        }
        line_start = b == b'\n';
        i = match b {
            b'(' => {
                depth += 1;
                i + 1
            }
            b')' => {
                depth -= 1;
                if depth == 0 {
                    let close = i + 1;
                    let after = reader.skip_blanks(close);
                    let semicolon = (reader.src.get(after) == Some(&b';')).then_some(after + 1);
                    return Ok(Extent {
                        expr: keyword.start..close,
                        semicolon,
                        template: open + 1..template_end.unwrap_or(i),
                        directives,
                    });
                }
                i + 1
            }
            b':' if depth == 1 && template_end.is_none() => {
                if reader.is_scope(i) {
                    i + 2
                } else {
                    template_end = Some(i);
                    i + 1
                }
            }
            b'{' => {
                braces += 1;
                i + 1
            }
            // Outside braces of its own, a `;` or a `}` means the `(` was left open.
            b'}' if braces > 0 => {
                braces -= 1;
                i + 1
            }
            b';' if braces > 0 => i + 1,
            b';' | b'}' => return Err(Missing::Close),
            b'"' => reader.literal_end(i),
            b'\'' if reader.is_digit_separator(i) => i + 1,
            b'\'' => quoted_end(reader.src, i, b'\''),
            b'/' if reader.src.get(i + 1) == Some(&b'/') => line_comment_end(reader.src, i),
            b'/' if reader.src.get(i + 1) == Some(&b'*') => block_comment_end(reader.src, i),
            _ => i + 1,
        };
    }
    Err(Missing::Close)
}

/// The end of the template as one reading of the statement sees it: the first `:` between the
/// parentheses outside the `blank` ranges (an arm left out may hold the `:` that ends the template
/// in the file's first arm, as in `#if X "a" :: "r"(p), #else "b" :: "r"(p), #endif "l"(q)`).
pub fn template_end(src: &[u8], extent: &Extent, blank: &[Range<usize>]) -> usize {
    let close = extent.expr.end.saturating_sub(1);
    let reader = Reader {
        src: &src[..close.min(src.len())],
    };
    let mut depth = 0usize;
    let mut i = extent.template.start;
    while i < reader.src.len() {
        if let Some(r) = blank.iter().find(|r| r.contains(&i)) {
            i = r.end.max(i + 1);
            continue;
        }
        i = match reader.src[i] {
            b'(' => {
                depth += 1;
                i + 1
            }
            b')' => {
                depth = depth.saturating_sub(1);
                i + 1
            }
            b':' if depth == 0 && reader.is_scope(i) => i + 2,
            b':' if depth == 0 => return i,
            b'"' => reader.literal_end(i),
            b'\'' if reader.is_digit_separator(i) => i + 1,
            b'\'' => quoted_end(reader.src, i, b'\''),
            b'/' if reader.src.get(i + 1) == Some(&b'/') => line_comment_end(reader.src, i),
            b'/' if reader.src.get(i + 1) == Some(&b'*') => block_comment_end(reader.src, i),
            _ => i + 1,
        };
    }
    close
}

struct Reader<'s> {
    src: &'s [u8],
}

impl Reader<'_> {
    /// Whether the `:` at `i` starts a C++ scope `A::B` (a name on both sides), rather than the
    /// two section separators of `asm("..." :: "r"(x))`.
    fn is_scope(&self, i: usize) -> bool {
        let name = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        self.src.get(i + 1) == Some(&b':')
            && name(i.checked_sub(1).and_then(|p| self.src.get(p)))
            && name(self.src.get(i + 2))
    }

    /// Whether the `'` at `i` separates digits of a number (`1'000`) rather than opening a
    /// character literal (`'a'`, `u8'a'`).
    fn is_digit_separator(&self, i: usize) -> bool {
        let token = self.src[..i]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'\'' | b'.'))
            .count();
        token > 0 && self.src[i - token].is_ascii_digit()
    }

    /// Skips whitespace, comments and `\`-newline continuations (not a preprocessor line: an
    /// `#if` arm boundary between a statement and its `;` puts them in different arms).
    fn skip_blanks(&self, mut i: usize) -> usize {
        while i < self.src.len() {
            match self.src[i] {
                b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c' => i += 1,
                b'\\' => match self.src.get(i + 1..) {
                    Some([b'\n', ..]) => i += 2,
                    Some([b'\r', b'\n', ..]) => i += 3,
                    _ => return i,
                },
                b'/' if self.src.get(i + 1) == Some(&b'/') => i = line_comment_end(self.src, i),
                b'/' if self.src.get(i + 1) == Some(&b'*') => i = block_comment_end(self.src, i),
                _ => return i,
            }
        }
        i
    }

    /// The end of a string literal whose `"` is at `i` (raw when an `R` prefix is glued to it).
    fn literal_end(&self, i: usize) -> usize {
        let prefix_start = i - self.src[..i]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if is_raw_prefix(&self.src[prefix_start..i]) {
            raw_string_end(self.src, i)
        } else {
            string_end(self.src, i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(src: &str, needle: &str) -> usize {
        src.find(needle).unwrap()
    }

    fn extent_of(src: &str) -> Result<Extent, Missing> {
        let k = at(src, "asm");
        let len = src[k..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap();
        extent(src.as_bytes(), k..k + len, src.len(), false)
    }

    #[test]
    fn finds_the_parentheses_the_template_and_the_semicolon() {
        let src = "f(); asm volatile (\"a;\" /* ) */ \"b\" : \"=r\"(x) : \"r\"(g(y)) : \"memory\") /* c */ ; z;";
        let e = extent_of(src).unwrap();
        assert_eq!(&src[e.expr.clone()], &src[at(src, "asm")..at(src, " /* c")]);
        assert_eq!(e.semicolon, Some(at(src, "; z") + 1));
        assert_eq!(&src[e.template.clone()], "\"a;\" /* ) */ \"b\" ");
    }

    #[test]
    fn a_scope_in_the_template_and_a_raw_string_do_not_end_it() {
        let src = "__asm__ __volatile__(R\"(x :) y)\" A::B \"c\" :: \"r\"(v))";
        let e = extent_of(src).unwrap();
        assert_eq!(e.expr.end, src.len());
        assert_eq!(e.semicolon, None);
        assert_eq!(&src[e.template.clone()], "R\"(x :) y)\" A::B \"c\" ");
    }

    #[test]
    fn preprocessor_lines_between_the_parentheses_are_listed() {
        let src = "asm(\"a\"\n#if X\n \"b\"\n#else\n \"c\"\n#endif\n : );";
        let e = extent_of(src).unwrap();
        let lines: Vec<&str> = e.directives.iter().map(|r| &src[r.clone()]).collect();
        assert_eq!(lines, vec!["#if X", "#else", "#endif"]);
        assert_eq!(e.semicolon, Some(src.len()));
    }

    #[test]
    fn braces_in_operand_expressions_are_part_of_the_statement() {
        let src = "asm(\"x\" :: \"r\"(f({a, b})), \"r\"(uint32_t{c}), \"r\"([&] { return d; }()));";
        assert_eq!(extent_of(src).unwrap().semicolon, Some(src.len()));
    }

    #[test]
    fn an_alias_or_an_unclosed_statement_is_missing_its_parts() {
        assert_eq!(
            extent_of("#define A asm volatile\n"),
            Err(Missing::Parenthesis)
        );
        assert_eq!(extent_of("asm(\"x\" : \"=r\"(y); }"), Err(Missing::Close));
        assert_eq!(extent_of("asm(\"x\" : \"=r\"(y) }"), Err(Missing::Close));
        assert_eq!(extent_of("asm(\"x\""), Err(Missing::Close));
        assert_eq!(extent_of("asm(\"x\" : \"=r\"(y}));"), Err(Missing::Close));
        assert_eq!(extent_of("asm x(\"x\");"), Err(Missing::Parenthesis));
    }

    #[test]
    fn qualifiers_comments_and_digit_separators_are_read_through() {
        let src = "asm volatile /* c */ (\"a)\" : \"=r\"(x[i]) : \"n\"(1'000), \"r\"(u8'(')); y;";
        let e = extent_of(src).unwrap();
        assert_eq!(&src[e.expr.clone()], &src[..src.find("; y").unwrap()]);
        let src = "__asm__ goto(\"x\" :::: l);";
        assert_eq!(extent_of(src).unwrap().semicolon, Some(src.len()));
    }

    #[test]
    fn the_semicolon_must_follow_with_only_blanks_comments_and_splices_between() {
        let semicolon = |tail: &str| {
            let src = format!("asm(\"x\"){tail}");
            extent_of(&src).unwrap().semicolon.map(|s| s - 8)
        };
        assert_eq!(semicolon(" /* c */ ;"), Some(10));
        assert_eq!(semicolon(" // c\n  ;"), Some(9));
        assert_eq!(semicolon(" \\\n ;"), Some(5));
        assert_eq!(semicolon("\n#endif\n;"), None);
        assert_eq!(semicolon(" return;"), None);
        assert_eq!(semicolon(" /* open"), None);
        assert_eq!(semicolon(""), None);
    }
}
