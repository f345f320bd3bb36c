//! The generated AMD branches of a translated file, for `check` to verify them: each
//! `#if defined(__HIP_PLATFORM_AMD__) // ptx2hip: NOTE` ... `#else` ORIGINAL `#endif` group that
//! `translate --emit guarded` wrote keeps the original asm statement, so the file without its
//! branches ([`restore`]) is what was translated, and translating it again must give the same
//! branches (`pipeline::edited_branches`): a hand edit inside a branch (`ACQUIRE` changed to
//! `RELAXED`) shows as a difference.
//!
//! Only groups whose `#if` line carries ptx2hip's provenance note are read (without it, as with
//! `--no-provenance`, nothing tells ptx2hip's branch from the user's own); statements translated
//! inside macro bodies (`PTX2HIP_AMD_ONLY(...) PTX2HIP_NV_ONLY(...)`) are not verified.

use std::ops::Range;

use super::{layout, AMD_CONDITION};

/// One generated branch with the original it replaces on AMD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// From the `#` of its `#if` through the end of its `#endif`.
    pub span: Range<usize>,
    /// The `#if` line and the generated code: from the `#` of the `#if` to the start of the
    /// `#else` line.
    pub generated: Range<usize>,
    /// The kept original statement, as the file had it before the translation.
    pub original: Range<usize>,
}

/// The generated branches of `source`, in file order.
pub fn branches(source: &[u8]) -> Vec<Branch> {
    if memchr::memmem::find(source, b"ptx2hip:").is_none() {
        return Vec::new();
    }
    let lines = line_ranges(source);
    let mut found = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        match branch_at(source, &lines, k) {
            Some((branch, last)) => {
                found.push(branch);
                k = last + 1;
            }
            None => k += 1,
        }
    }
    found
}

/// `source` with each of its `branches` replaced by its original statement: the text that was
/// translated.
pub fn restore(source: &[u8], branches: &[Branch]) -> Vec<u8> {
    let mut out = Vec::with_capacity(source.len());
    let mut copied = 0;
    for b in branches {
        out.extend_from_slice(&source[copied..b.span.start]);
        out.extend_from_slice(&source[b.original.clone()]);
        copied = b.span.end;
    }
    out.extend_from_slice(&source[copied..]);
    out
}

/// Whether two generated branches are the same code and notes, up to what a formatter changes.
pub fn same_code(a: &[u8], b: &[u8]) -> bool {
    a == b || (layout::same_up_to_layout(a, b) && layout::same_comments(a, b))
}

/// The byte ranges of the lines of `source`, without their line ending.
fn line_ranges(source: &[u8]) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', source).chain([source.len()]) {
        if start > source.len() {
            break;
        }
        let text_end = if end > start && source[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        lines.push(start..text_end);
        start = end + 1;
    }
    lines
}

/// The branch whose `#if` is line `k`, with the index of its `#endif` line.
fn branch_at(source: &[u8], lines: &[Range<usize>], k: usize) -> Option<(Branch, usize)> {
    let if_line = &source[lines[k].clone()];
    let directive = layout::directive(if_line);
    let note = directive.strip_prefix(AMD_CONDITION)?.trim_start();
    if !note.starts_with("// ptx2hip:") {
        return None;
    }
    let hash = lines[k].start + if_line.iter().position(|&b| b == b'#')?;
    let mut depth = 0i32;
    let mut else_line = None;
    for (j, range) in lines.iter().enumerate().skip(k + 1) {
        let word = directive_word(&source[range.clone()]);
        match word.as_deref() {
            Some("if" | "ifdef" | "ifndef") => depth += 1,
            Some("elif" | "elifdef" | "elifndef") if depth == 0 => return None,
            Some("else") if depth == 0 => {
                if else_line.is_some() {
                    return None;
                }
                else_line = Some(j);
            }
            Some("endif") if depth == 0 => {
                let e = else_line?;
                // The original: the lines between, less the first one's indentation (the `#if`
                // line's stands before the `#`).
                let first = lines.get(e + 1).filter(|_| e + 1 < j)?;
                let indent = source[first.clone()]
                    .iter()
                    .take_while(|b| matches!(b, b' ' | b'\t'))
                    .count();
                let original = first.start + indent..lines[j - 1].end;
                let endif = &source[range.clone()];
                let end = range.start + endif.iter().rposition(|b| !b.is_ascii_whitespace())? + 1;
                return Some((
                    Branch {
                        span: hash..end,
                        generated: hash..lines[e].start,
                        original,
                    },
                    j,
                ));
            }
            Some("endif") => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The directive's name on a line that is a preprocessor directive (`if`, `else`, ...).
fn directive_word(line: &[u8]) -> Option<String> {
    let rest = line
        .trim_ascii_start()
        .strip_prefix(b"#")?
        .trim_ascii_start();
    let len = rest.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    Some(String::from_utf8_lossy(&rest[..len]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRANSLATED: &str = "__device__ int f(int x) {\n  int y;\n  #if defined(__HIP_PLATFORM_AMD__) // ptx2hip: I001\n  y = (int32_t)((uint32_t)x + (uint32_t)(int32_t)1);\n  #else\n  asm(\"add.s32 %0, %1, 1;\"\n      : \"=r\"(y) : \"r\"(x));\n  #endif\n  return y;\n}\n";

    #[test]
    fn a_branch_is_its_generated_code_and_the_original_kept_below_it() {
        let found = branches(TRANSLATED.as_bytes());
        assert_eq!(found.len(), 1);
        let b = &found[0];
        assert!(TRANSLATED[b.generated.clone()]
            .starts_with("#if defined(__HIP_PLATFORM_AMD__) // ptx2hip: I001\n  y = "));
        assert!(TRANSLATED[b.generated.clone()].ends_with("1);\n"));
        assert_eq!(
            &TRANSLATED[b.original.clone()],
            "asm(\"add.s32 %0, %1, 1;\"\n      : \"=r\"(y) : \"r\"(x));"
        );
        assert_eq!(
            String::from_utf8(restore(TRANSLATED.as_bytes(), &found)).unwrap(),
            "__device__ int f(int x) {\n  int y;\n  asm(\"add.s32 %0, %1, 1;\"\n      : \"=r\"(y) : \"r\"(x));\n  return y;\n}\n"
        );
    }

    #[test]
    fn only_groups_with_ptx2hips_note_and_an_else_are_branches() {
        for other in [
            // The user's own AMD branch, the kernel-entry call (no `#else`), an `#elif` chain.
            "#if defined(__HIP_PLATFORM_AMD__)\nx();\n#else\ny();\n#endif\n",
            "#if defined(__HIP_PLATFORM_AMD__) // ptx2hip: entry\nx();\n#endif\n",
            "#if defined(__HIP_PLATFORM_AMD__) // ptx2hip: I001\nx();\n#elif A\ny();\n#endif\n",
        ] {
            assert_eq!(branches(other.as_bytes()), Vec::new(), "{other}");
        }
        // Conditionals inside the generated code or the original are stepped over; CRLF kept.
        let nested = "#if defined(__HIP_PLATFORM_AMD__) // ptx2hip: I001\r\n#if A\r\nx();\r\n#else\r\nz();\r\n#endif\r\n#else\r\nasm(\"\");\r\n#endif\r\n";
        let found = branches(nested.as_bytes());
        assert_eq!(found.len(), 1);
        assert_eq!(&nested[found[0].original.clone()], "asm(\"\");");
        assert!(nested[found[0].span.clone()].ends_with("#endif"));
    }
}
