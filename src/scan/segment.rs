//! Cuts a large file into segments that tree-sitter can parse one at a time.
//!
//! Statements are parsed on their own, but the `"C"` operand strings are declarations anywhere in
//! the file, found in a syntax tree. One tree for a 20 MB file takes several hundred MB; parsed in
//! ~1 MB segments cut where nothing is open — no brace, parenthesis, comment, string or `#if`
//! (beyond an include guard) spans the cut — each tree is small and freed before the next. A cut
//! is only ever placed at a line start in that state, so every declaration stays whole.

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
    for cut in safe_cuts(src) {
        if cut - start >= SEGMENT_BYTES && src.len() - cut >= SEGMENT_BYTES / 4 {
            out.push(start..cut);
            start = cut;
        }
    }
    out.push(start..src.len());
    out
}

/// The line starts at which nothing is open (see the module doc).
fn safe_cuts(src: &[u8]) -> Vec<usize> {
    let mut cuts = Vec::new();
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
                cuts.push(i);
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
                continue;
            }
            // A quote after a digit is a C++14 digit separator (1'000), not a character literal.
            b'\'' if !(i > 0 && src[i - 1].is_ascii_alphanumeric()) => {
                i = skip_quoted(src, i, b'\'');
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
fn skip_directive(src: &[u8], mut i: usize) -> usize {
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
fn skip_quoted(src: &[u8], mut i: usize, quote: u8) -> usize {
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
        let cuts = safe_cuts(src);
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
        assert!(safe_cuts(src).contains(&text.find("int b").unwrap()));
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
