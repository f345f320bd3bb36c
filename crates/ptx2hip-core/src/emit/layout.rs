//! What a code formatter may change in the text ptx2hip writes, and how that text is still
//! recognised after one did (`clang-format -i` after `translate`, then `translate` again must
//! change nothing).
//!
//! A formatter changes whitespace: indentation, spaces around tokens (`#  include` under
//! `IndentPPDirectives`), line breaks. It re-flows comments: a long `// ...` line becomes several
//! `// ...` lines, a long `/* ... */` comment several lines whose continuations may start with
//! `*`. It sorts a run of `#include` lines. It changes no other token. So ptx2hip compares its own
//! text by words: marker comments by the words of their text, directives by their words, and a
//! generated block by its code with the whitespace and comment layout taken out.

/// `text` with runs of whitespace made one space, without leading or trailing whitespace.
pub fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A preprocessor line as [`squeeze`] makes it, with no space after its `#` and its `\\`-newline
/// continuations joined: a formatter that indents directives writes `#  include <x>` for
/// `#include <x>`, and one that wraps them breaks a long `#define` over lines.
pub fn directive(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line)
        .replace("\\\r\n", " ")
        .replace("\\\n", " ");
    let text = squeeze(&text);
    match text.strip_prefix('#') {
        Some(rest) => format!("#{}", rest.trim_start()),
        None => text,
    }
}

/// The text of a `//` comment line (what follows the `//`), `None` for any other line.
pub fn line_comment(line: &[u8]) -> Option<String> {
    let text = line.trim_ascii();
    text.strip_prefix(b"//")
        .map(|rest| squeeze(&String::from_utf8_lossy(rest)))
}

/// The text of a `/* ... */` comment's inside as one line: each line's `\` continuation (in a
/// `#define` body) and a continuation line's leading `*` (which formatters add) taken out.
pub fn block_comment_text(inside: &[u8]) -> String {
    let inside = String::from_utf8_lossy(inside);
    let mut words = Vec::new();
    for (k, line) in inside.lines().enumerate() {
        let line = line.trim();
        let line = line.strip_suffix('\\').unwrap_or(line).trim_end();
        let line = match line.strip_prefix('*') {
            Some(rest) if k > 0 && !rest.starts_with('/') => rest,
            _ => line,
        };
        words.push(line);
    }
    squeeze(&words.join(" "))
}

/// How many lines from the first of `lines` hold the `//` comment `want` (a whole line as
/// ptx2hip writes it), however a formatter re-flowed it over lines: `None` when they do not.
pub fn comment_lines<'a>(lines: impl IntoIterator<Item = &'a [u8]>, want: &str) -> Option<usize> {
    let want = line_comment(want.as_bytes())?;
    let mut seen = String::new();
    for (k, line) in lines.into_iter().enumerate() {
        let text = line_comment(line)?;
        if !seen.is_empty() {
            seen.push(' ');
        }
        seen.push_str(&text);
        if seen == want {
            return Some(k + 1);
        }
        if !want.starts_with(&seen) {
            return None;
        }
    }
    None
}

/// Whether `a` and `b` are the same code up to what a formatter changes: whitespace outside
/// literals, comments (re-flowed, re-indented, given `*` continuation lines), `\\`-newline
/// continuations, long string literals broken into adjacent ones, and the order of `#include`
/// lines.
pub fn same_up_to_layout(a: &[u8], b: &[u8]) -> bool {
    code_words(a) == code_words(b)
}

/// Whether `a` and `b` hold the same comments, word for word, however a formatter re-flowed
/// them: what [`same_up_to_layout`] leaves out, and a hand edit may be only a comment (a note in
/// a helper's code).
pub fn same_comments(a: &[u8], b: &[u8]) -> bool {
    comment_words(a) == comment_words(b)
}

/// The words of every comment of `code`, in order, less lone `*`s: a formatter that re-flows a
/// `/* ... */` comment may start a continuation line with a `*` of the text (`a * b`), which
/// then reads as its continuation mark.
fn comment_words(code: &[u8]) -> Vec<String> {
    let mut words = Vec::new();
    let mut k = 0;
    while k < code.len() {
        let rest = &code[k..];
        if rest.starts_with(b"//") {
            let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            let text = String::from_utf8_lossy(&rest[2..end]);
            words.extend(text.split_whitespace().map(str::to_string));
            k += end;
        } else if rest.starts_with(b"/*") {
            let end = memchr::memmem::find(&rest[2..], b"*/").map_or(rest.len(), |e| e + 2);
            let text = block_comment_text(&rest[2..end]);
            words.extend(
                text.split_whitespace()
                    .filter(|w| *w != "*")
                    .map(str::to_string),
            );
            k += (end + 2).min(rest.len());
        } else if matches!(rest[0], b'"' | b'\'') {
            let quote = rest[0];
            let mut end = 1;
            while end < rest.len() && rest[end] != quote && rest[end] != b'\n' {
                end += if rest[end] == b'\\' { 2 } else { 1 };
            }
            k += (end + 1).min(rest.len());
        } else {
            k += 1;
        }
    }
    words
}

/// The include lines of `text` (sorted) and the rest as its tokens' bytes without the
/// whitespace between them, without comments, and with adjacent string literals joined.
fn code_words(text: &[u8]) -> (Vec<String>, Vec<u8>) {
    let mut includes = Vec::new();
    let mut rest = Vec::with_capacity(text.len());
    for line in text.split(|&b| b == b'\n') {
        let d = directive(line);
        if d.starts_with("#include") {
            includes.push(d);
        } else {
            rest.extend_from_slice(line);
            rest.push(b'\n');
        }
    }
    includes.sort();
    (includes, tokens(&rest))
}

/// The bytes of `code` outside comments and outside the whitespace between tokens, string and
/// character literals kept whole; `"a " "b"` is written `"a b"`.
fn tokens(code: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(code.len());
    let mut k = 0;
    while k < code.len() {
        let rest = &code[k..];
        if rest.starts_with(b"//") {
            k += memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        } else if rest.starts_with(b"/*") {
            k += memchr::memmem::find(&rest[2..], b"*/").map_or(rest.len(), |e| e + 4);
        } else if rest[0].is_ascii_whitespace()
            || rest[0] == b'\\' && matches!(rest.get(1), Some(b'\n' | b'\r'))
        {
            // Whitespace, and the `\\` of a continuation.
            k += 1;
        } else if matches!(rest[0], b'"' | b'\'') {
            let quote = rest[0];
            let mut end = 1;
            while end < rest.len() && rest[end] != quote && rest[end] != b'\n' {
                end += if rest[end] == b'\\' { 2 } else { 1 };
            }
            let literal = &rest[..(end + 1).min(rest.len())];
            if quote == b'"' && out.last() == Some(&b'"') {
                out.pop();
                out.extend_from_slice(&literal[1..]);
            } else {
                out.extend_from_slice(literal);
            }
            k += literal.len();
        } else {
            out.push(rest[0]);
            k += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_compare_by_words() {
        assert_eq!(
            directive(b"  #  include   <stdint.h> "),
            "#include <stdint.h>"
        );
        assert_eq!(directive(b"#ifndef X\r"), "#ifndef X");
        assert_eq!(
            directive(b"#define A(...) \\\n  __VA_ARGS__"),
            "#define A(...) __VA_ARGS__"
        );
    }

    #[test]
    fn a_reflowed_line_comment_is_the_comment() {
        let want = "// ---- ptx2hip helpers: generated by ptx2hip, do not edit ----";
        let lines: [&[u8]; 3] = [
            b"// ---- ptx2hip helpers: generated by",
            b"  //   ptx2hip, do not edit ----",
            b"int x;",
        ];
        assert_eq!(comment_lines(lines, want), Some(2));
        assert_eq!(comment_lines([want.as_bytes()], want), Some(1));
        let other: [&[u8]; 2] = [b"// ---- ptx2hip helpers: generated by", b"// someone else"];
        assert_eq!(comment_lines(other, want), None);
        assert_eq!(comment_lines([b"int x; // ----".as_slice()], want), None);
    }

    #[test]
    fn a_reflowed_block_comment_reads_as_one_line() {
        assert_eq!(
            block_comment_text(b" ptx2hip: U011 not  \\\n     * translated: why  \\\n     "),
            "ptx2hip: U011 not translated: why"
        );
        assert_eq!(block_comment_text(b" a\n b * c\n"), "a b * c");
    }

    #[test]
    fn code_is_the_same_whatever_its_layout() {
        let ours = b"// a long comment here\n#include <b.h>\n#include <a.h>\ntemplate <int N> __device__ int f() { return N; }\n";
        let formatted = b"// a long comment\n// here\n#include <a.h>\n#  include <b.h>\ntemplate <int N>\n__device__ int f() {\n  return N;\n}\n";
        assert!(same_up_to_layout(ours, formatted));
        assert!(same_up_to_layout(
            b"f(\"a long text\");\n",
            b"f(\"a long \"\n  \"text\");\n"
        ));
        let ours = b"#if defined(a) || defined(b) || \\\n    defined(c)\n";
        let formatted = b"#if defined(a) || \\\n    defined(b) || defined(c)\n";
        assert!(same_up_to_layout(ours, formatted));
        let ours =
            b"/* The value (1 - 2^-20) * 2^-14 whose bits are\n   low bits of b. */\nint* p;\n";
        let formatted =
            b"/* The value (1 - 2^-20)\n * * 2^-14 whose bits are\n * low bits of b. */\nint *p;\n";
        assert!(same_up_to_layout(ours, formatted));
        assert!(!same_up_to_layout(b"f(\"a b\");", b"f(\"a  b\");"));
        assert!(!same_up_to_layout(ours, b"#include <a.h>\n#include <b.h>\ntemplate <int N> __device__ int f() { return N + 1; }\n"));
    }

    #[test]
    fn a_product_in_a_block_comment_survives_a_re_flow() {
        let ours = b"/* (1 - 2^-20) * 2^-14 gives 0x0400 */ int x;";
        let formatted = b"/* (1 - 2^-20)\n * 2^-14 gives 0x0400 */\nint x;";
        assert!(same_comments(ours, formatted));
    }

    #[test]
    fn comments_are_the_same_re_flowed_but_not_edited() {
        let ours = b"// a long comment here\nint f(); /* the value\n   of x */\nchar c = '/'; const char* s = \"// no\";\n";
        let formatted = b"// a long\n// comment here\nint f();\n/* the value\n * of x */\nchar c = '/';\nconst char* s = \"// no\";\n";
        assert!(same_comments(ours, formatted));
        let noted = b"// a long comment here\n// tuned\nint f(); /* the value\n   of x */\n";
        assert!(!same_comments(ours, noted));
    }
}
