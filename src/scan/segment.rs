//! Decides which bytes of a file tree-sitter parses, and in how many pieces.
//!
//! One tree for a 20 MB file takes several hundred MB; parsed in ~1 MB segments cut where nothing
//! is open — no brace, parenthesis, comment, string or `#if` (beyond an include guard) spans the
//! cut — each tree is small and freed before the next. A cut is only ever placed at a line start
//! in that state, so every statement, function and preprocessor conditional stays whole.
//!
//! Parsing is most of the cost of a file with asm, and asm usually sits in a few functions of a
//! file, so a file scanned in one piece parses only its top-level chunks that mention `asm` or
//! `define` (plus the first and last chunk, which hold an include guard's `#ifndef` and
//! `#endif`). Those chunks end where a declaration ends, so the parser sees whole declarations.

use std::ops::Range;

/// Files larger than this are scanned in segments.
pub const SEGMENTED_ABOVE: usize = 2 << 20;
/// Target segment size.
const SEGMENT_BYTES: usize = 1 << 20;

/// Byte ranges covering `src` in order. Small files, and files with no safe cut, are one segment.
pub fn segments(src: &[u8]) -> Vec<Range<usize>> {
    if src.len() <= SEGMENTED_ABOVE {
        return vec![0..src.len()];
    }
    let mut out = Vec::new();
    let mut start = 0;
    for cut in safe_cuts(src).into_iter().map(|c| c.offset) {
        if cut - start >= SEGMENT_BYTES && src.len() - cut >= SEGMENT_BYTES / 4 {
            out.push(start..cut);
            start = cut;
        }
    }
    out.push(start..src.len());
    out
}

/// The byte ranges of a file scanned in one piece that need parsing (see the module doc), as
/// tree-sitter included ranges: in order, disjoint, covering every `asm` and `define`.
pub fn relevant_chunks(src: &[u8]) -> Vec<Range<usize>> {
    let mut bounds = vec![0];
    bounds.extend(
        safe_cuts(src)
            .into_iter()
            .filter(|c| c.ends_declaration)
            .map(|c| c.offset),
    );
    bounds.push(src.len());
    let last = bounds.len() - 2;
    let mut chunks: Vec<Range<usize>> = Vec::new();
    for (k, w) in bounds.windows(2).enumerate() {
        let text = &src[w[0]..w[1]];
        let relevant = k == 0
            || k == last
            || memchr::memmem::find(text, b"asm").is_some()
            || memchr::memmem::find(text, b"define").is_some();
        match chunks.last_mut() {
            Some(prev) if relevant && prev.end == w[0] => prev.end = w[1],
            _ if relevant => chunks.push(w[0]..w[1]),
            _ => {}
        }
    }
    chunks
}

/// A line start at which nothing is open (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Cut {
    offset: usize,
    /// The code before it ends with `}`, `;` or a preprocessor line: no declaration continues
    /// across it (a `template <...>` header or a signature split over lines would).
    ends_declaration: bool,
}

fn safe_cuts(src: &[u8]) -> Vec<Cut> {
    let mut cuts = Vec::new();
    // The last byte of code (not comment or space) before the current position; b'#' after a
    // preprocessor line, 0 at the start.
    let mut last_code = 0u8;
    let (mut braces, mut parens, mut conditionals) = (0i64, 0i64, 0i64);
    // An include guard (`#ifndef X` / `#define X` before any code) may stay open across cuts.
    let mut guard_depth = 0i64;
    let mut seen_code = false;
    let mut i = 0;
    let mut line_start = true;
    while i < src.len() {
        let b = src[i];
        if line_start {
            if braces == 0 && parens == 0 && conditionals <= guard_depth && i > 0 {
                cuts.push(Cut {
                    offset: i,
                    ends_declaration: matches!(last_code, 0 | b'#' | b';' | b'}'),
                });
            }
            line_start = false;
            let mut j = i;
            while j < src.len() && (src[j] == b' ' || src[j] == b'\t') {
                j += 1;
            }
            if src.get(j) == Some(&b'#') {
                let directive = directive_word(&src[j + 1..]);
                match directive {
                    "if" | "ifdef" | "ifndef" => {
                        if directive == "ifndef" && !seen_code && conditionals == 0 {
                            guard_depth = 1;
                        }
                        conditionals += 1;
                    }
                    "endif" => conditionals -= 1,
                    _ => {}
                }
                i = skip_directive(src, j);
                last_code = b'#';
                line_start = true;
                continue;
            }
        }
        match b {
            b'\n' => line_start = true,
            b'/' if src.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &src[i..]).map_or(src.len(), |p| i + p);
                continue;
            }
            b'/' if src.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&src[i + 2..], b"*/").map_or(src.len(), |p| i + 2 + p + 2);
                continue;
            }
            b'"' => {
                i = skip_quoted(src, i, b'"');
                seen_code = true;
                last_code = b'"';
                continue;
            }
            // A quote after a digit is a C++14 digit separator (1'000), not a character literal.
            b'\'' if !(i > 0 && src[i - 1].is_ascii_alphanumeric()) => {
                i = skip_quoted(src, i, b'\'');
                last_code = b'\'';
                continue;
            }
            b'{' => braces += 1,
            b'}' => braces -= 1,
            b'(' => parens += 1,
            b')' => parens -= 1,
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            seen_code = true;
            last_code = b;
        }
        i += 1;
    }
    cuts
}

fn directive_word(rest: &[u8]) -> &str {
    let rest = &rest[rest
        .iter()
        .take_while(|b| **b == b' ' || **b == b'\t')
        .count()..];
    let len = rest.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    std::str::from_utf8(&rest[..len]).unwrap_or("")
}

/// The offset after a preprocessor line and its `\` continuations.
pub(super) fn skip_directive(src: &[u8], mut i: usize) -> usize {
    while let Some(p) = memchr::memchr(b'\n', &src[i..]) {
        let nl = i + p;
        let before = src[..nl].strip_suffix(b"\r").unwrap_or(&src[..nl]);
        if before.ends_with(b"\\") {
            i = nl + 1;
            continue;
        }
        return nl + 1;
    }
    src.len()
}

/// The offset after a quoted literal starting at `i` (escapes honoured; ends at a newline).
pub(super) fn skip_quoted(src: &[u8], mut i: usize, quote: u8) -> usize {
    // Raw strings R"delim( ... )delim" hold anything, newlines included.
    if quote == b'"' && i > 0 && src[i - 1] == b'R' {
        let open = memchr::memchr(b'(', &src[i..]).map_or(src.len(), |p| i + p);
        let mut end_marker = vec![b')'];
        end_marker.extend_from_slice(&src[i + 1..open.min(src.len())]);
        end_marker.push(b'"');
        return memchr::memmem::find(&src[open.min(src.len())..], &end_marker)
            .map_or(src.len(), |p| open + p + end_marker.len());
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_only_where_nothing_is_open() {
        let src = b"int a;\nvoid f() {\n  g(\"}\\\"\", '{');\n}\n#if X\nint b;\n#endif\n/* {\n */\nint c = 1'0;\n";
        let cuts: Vec<usize> = safe_cuts(src).iter().map(|c| c.offset).collect();
        let text = std::str::from_utf8(src).unwrap();
        let at = |s: &str| text.find(s).unwrap();
        assert_eq!(
            cuts,
            vec![at("void f"), at("#if X"), at("/* {"), at("int c")]
        );
    }

    #[test]
    fn an_include_guard_may_stay_open() {
        let src = b"#ifndef H\n#define H\nint a;\nint b;\n#endif\n";
        let text = std::str::from_utf8(src).unwrap();
        assert!(safe_cuts(src)
            .iter()
            .any(|c| c.offset == text.find("int b").unwrap()));
    }

    #[test]
    fn only_chunks_that_mention_asm_or_define_are_parsed_with_first_and_last() {
        let src = "#ifndef H\nint a;\nvoid f() { g(); }\ntemplate <int N>\nvoid h() {\n  asm(\"x\");\n}\nint b;\nint c;\n#endif\n";
        let at = |s: &str| src.find(s).unwrap();
        assert_eq!(
            relevant_chunks(src.as_bytes()),
            vec![
                0..at("int a"),
                at("template")..at("int b"),
                at("#endif")..src.len()
            ]
        );
    }

    #[test]
    fn a_declaration_split_over_lines_is_never_cut() {
        let src =
            b"__global__ void\n__launch_bounds__(256)\nk() {}\ntemplate <typename T>\nT f();\n";
        let text = std::str::from_utf8(src).unwrap();
        let declaration_ends: Vec<usize> = safe_cuts(src)
            .iter()
            .filter(|c| c.ends_declaration)
            .map(|c| c.offset)
            .collect();
        assert_eq!(declaration_ends, vec![text.find("template").unwrap()]);
    }

    #[test]
    fn large_files_split_into_about_one_megabyte_segments_that_cover_everything() {
        let unit = b"__device__ int f(int x) {\n  asm(\"add.s32 %0, %1, %1;\" : \"=r\"(x) : \"r\"(x));\n  return x;\n}\n";
        let src: Vec<u8> = unit
            .iter()
            .copied()
            .cycle()
            .take(unit.len() * 60_000)
            .collect();
        let segs = segments(&src);
        assert!(segs.len() > 3);
        assert_eq!(segs.first().unwrap().start, 0);
        assert_eq!(segs.last().unwrap().end, src.len());
        for w in segs.windows(2) {
            assert_eq!(w[0].end, w[1].start);
            assert!(src[w[1].start..].starts_with(b"__device__"));
        }
    }
}
