//! Provenance comments: the rules that made a translation (`// ptx2hip: B012`, so that a reviewer
//! can run `ptx2hip explain B012`), and a marker above a statement left as written in a file that
//! is rewritten anyway (`// ptx2hip: U001 not translated: <reason>`), next to the asm that the AMD
//! build will reject rather than far from it.
//!
//! A `//` comment would swallow the rest of a `#define` body or of a line that goes on after the
//! statement; there (and in a macro argument) the comment is a `/* */` one, which the
//! preprocessor turns into a space before it splits arguments. Neither starts with `ignore[`, so
//! neither is an inline suppression.
//!
//! A second run finds its own marker right before the statement and keeps it (or replaces it when
//! the reason changed, or removes it when the statement is now translated).

use std::ops::Range;

use super::Lines;
use crate::codes::Code;

/// What a provenance comment says after `ptx2hip: `.
const PREFIX: &str = "ptx2hip: ";
const NOT_TRANSLATED: &str = " not translated: ";

/// The note of a translation: `ptx2hip: B012 B013`.
pub fn rules_note(rules: &[String]) -> String {
    format!("{PREFIX}{}", rules.join(" "))
}

/// The note of a statement left as written: `ptx2hip: U001 not translated: <reason>`, on one line.
pub fn marker_note(code: Code, reason: &str) -> String {
    let reason: String = reason
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut note = format!("{PREFIX}{code}{NOT_TRANSLATED}{}", reason.trim());
    // A `//` comment ending in a backslash would continue onto the statement's line.
    if note.ends_with('\\') {
        note.push('.');
    }
    note
}

pub fn line_comment(note: &str) -> String {
    format!("// {note}")
}

/// A `/* */` comment; a `*/` in the note could not end it early.
pub fn block_comment(note: &str) -> String {
    format!("/* {} */", note.replace("*/", "* /"))
}

/// Where a marker that ptx2hip put before the statement starting at `start` is: the whole line
/// above (when the statement starts its line), or a `/* */` marker and the space after it.
pub fn existing_marker(source: &[u8], lines: &Lines, start: usize) -> Option<Range<usize>> {
    let before = &source[..start];
    let line_start = lines.start_of(start);
    if line_start > 0
        && before[line_start..]
            .iter()
            .all(|b| matches!(b, b' ' | b'\t'))
    {
        let above = lines.start_of(line_start - 1);
        if is_marker_text(source[above..line_start].trim_ascii(), b"// ") {
            return Some(above..line_start);
        }
    }
    let comment = before.strip_suffix(b" ")?;
    let comment = comment.strip_suffix(b"*/")?;
    let open = memchr::memmem::rfind(&comment[line_start.min(comment.len())..], b"/* ")
        .map(|p| line_start + p)?;
    let text = &before[open..];
    (is_marker_text(text.trim_ascii_end(), b"/* ") && !text[2..].windows(2).any(|w| w == b"/*"))
        .then_some(open..start)
}

/// `text` is a comment opened by `opener` holding a marker note.
fn is_marker_text(text: &[u8], opener: &[u8]) -> bool {
    let Some(note) = text.strip_prefix(opener) else {
        return false;
    };
    note.starts_with(PREFIX.as_bytes())
        && memchr::memmem::find(note, NOT_TRANSLATED.as_bytes()).is_some()
        && memchr::memchr(b'\n', note).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_name_the_rules_or_the_code_and_reason_on_one_line() {
        assert_eq!(
            rules_note(&["B012".into(), "B013".into()]),
            "ptx2hip: B012 B013"
        );
        assert_eq!(
            marker_note(Code::UnknownInstruction, "no rule\nfor `frob`"),
            format!(
                "ptx2hip: {} not translated: no rule for `frob`",
                Code::UnknownInstruction
            )
        );
        assert_eq!(block_comment("a */ b"), "/* a * / b */");
        assert!(marker_note(Code::UnknownInstruction, "ends in \\").ends_with("\\."));
    }

    #[test]
    fn a_marker_is_found_on_the_line_above_or_just_before_the_statement() {
        let src = b"x;\n  // ptx2hip: U001 not translated: why\n  asm(\"frob;\");\n";
        let at = memchr::memmem::find(src, b"asm").unwrap();
        let r = existing_marker(src, &Lines::new(src), at).unwrap();
        assert_eq!(&src[r], b"  // ptx2hip: U001 not translated: why\n");

        let src = b"M(/* ptx2hip: U001 not translated: why */ asm(\"frob;\"))";
        let at = memchr::memmem::find(src, b"asm").unwrap();
        let r = existing_marker(src, &Lines::new(src), at).unwrap();
        assert_eq!(&src[r], b"/* ptx2hip: U001 not translated: why */ ");
    }

    #[test]
    fn other_comments_are_no_markers() {
        for src in [
            &b"// ptx2hip: ignore[U001] kept\nasm(\"frob;\");\n"[..],
            b"// ptx2hip: B012\nasm(\"frob;\");\n",
            b"/* a */ asm(\"frob;\");\n",
            b"asm(\"frob;\");\n",
        ] {
            let at = memchr::memmem::find(src, b"asm").unwrap();
            assert_eq!(
                existing_marker(src, &Lines::new(src), at),
                None,
                "{}",
                String::from_utf8_lossy(src)
            );
        }
    }
}
