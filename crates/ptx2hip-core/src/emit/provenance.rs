//! Provenance comments: the rules that made a translation (`// ptx2hip: B012`, so that a reviewer
//! can run `ptx2hip explain B012`), and a marker above a statement left as written in a file that
//! is rewritten anyway (`/* ptx2hip: U001 not translated: <reason> */`), next to the asm that the
//! AMD build will reject rather than far from it.
//!
//! A `//` comment would swallow the rest of a `#define` body or of a line that goes on after the
//! statement; there (and in a macro argument) a rules note is a `/* */` one, which the
//! preprocessor turns into a space before it splits arguments. A marker is always a `/* */` one:
//! its delimiters give its extent however a formatter re-flows it over lines (a re-flowed run of
//! `//` lines could not be told from a comment of the user's below it). Neither starts with
//! `ignore[`, so neither is an inline suppression.
//!
//! A second run finds its own marker right before the statement, compares it by its words, and
//! keeps it (or replaces it when the reason changed, or removes it when the statement is now
//! translated).

use std::ops::Range;

use super::{layout, Lines};
use crate::codes::Code;

/// What a provenance comment says after `ptx2hip: `.
const PREFIX: &str = "ptx2hip: ";
const NOT_TRANSLATED: &str = " not translated: ";

/// The note of a translation: `ptx2hip: B012 B013`; rules translated by their inexact `--fast`
/// template are named again after it (`ptx2hip: X003 R001 (--fast, inexact: X003)`), so a reviewer
/// sees which results may differ from NVIDIA's.
pub fn rules_note(rules: &[String], fast: &[String]) -> String {
    let mut note = format!("{PREFIX}{}", rules.join(" "));
    if !fast.is_empty() {
        note.push_str(&format!(" (--fast, inexact: {})", fast.join(" ")));
    }
    note
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

/// A marker that ptx2hip put before a statement, as found in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// The bytes to replace to change or remove it: its whole lines when it has lines of its own
    /// above the statement, else from its `/*` to the statement.
    pub range: Range<usize>,
    /// Its note, re-read as one line ([`layout::squeeze`]d).
    pub note: String,
}

impl Marker {
    /// Whether the marker says `note`, in whatever layout a formatter gave it.
    pub fn says(&self, note: &str) -> bool {
        self.note == layout::squeeze(&note.replace("*/", "* /"))
    }
}

/// The marker that ptx2hip put before the statement starting at `start`: the `/* */` comment
/// right before it (on the lines above, or on its line), however a formatter re-flowed it; or, as
/// versions before issue 18 wrote it, a `//` line right above it.
pub fn existing_marker(source: &[u8], lines: &Lines, start: usize) -> Option<Marker> {
    block_marker(source, lines, start).or_else(|| line_marker(source, lines, start))
}

/// The `/* */` marker that only whitespace (and `\` continuations) separates from `start`. Its
/// extent is its own delimiters, so re-flowed over many lines it is still exactly its bytes.
fn block_marker(source: &[u8], lines: &Lines, start: usize) -> Option<Marker> {
    let mut end = start;
    loop {
        end -= source[..end]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        match source[..end].strip_suffix(b"\\") {
            Some(rest) => end = rest.len(),
            None => break,
        }
    }
    let close = source[..end].strip_suffix(b"*/")?.len();
    let open = memchr::memmem::rfind(&source[..close], b"/*")?;
    let inside = &source[open + 2..close];
    // Not the opener of a comment that closed earlier, nor text in a `//` comment or a string.
    let before = &source[lines.start_of(open)..open];
    if memchr::memmem::find(inside, b"*/").is_some()
        || memchr::memmem::find(before, b"//").is_some()
        || before.iter().filter(|&&b| b == b'"').count() % 2 == 1
    {
        return None;
    }
    let note = layout::block_comment_text(inside);
    if !is_marker_note(&note) {
        return None;
    }
    let own_lines = before.iter().all(|b| matches!(b, b' ' | b'\t'))
        && source[lines.start_of(start)..start]
            .iter()
            .all(|b| matches!(b, b' ' | b'\t'))
        && lines.start_of(start) > close;
    let range = if own_lines {
        lines.start_of(open)..lines.start_of(start)
    } else {
        open..start
    };
    Some(Marker { range, note })
}

/// A `//` marker line right above the statement starting at `start` (the whole line).
fn line_marker(source: &[u8], lines: &Lines, start: usize) -> Option<Marker> {
    let line_start = lines.start_of(start);
    if line_start == 0
        || !source[line_start..start]
            .iter()
            .all(|b| matches!(b, b' ' | b'\t'))
    {
        return None;
    }
    let above = lines.start_of(line_start - 1);
    let note = layout::line_comment(&source[above..line_start])?;
    is_marker_note(&note).then_some(Marker {
        range: above..line_start,
        note,
    })
}

/// `note` (one line) is the note of a marker.
fn is_marker_note(note: &str) -> bool {
    note.starts_with(PREFIX) && note.contains(NOT_TRANSLATED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_name_the_rules_or_the_code_and_reason_on_one_line() {
        assert_eq!(
            rules_note(&["B012".into(), "B013".into()], &[]),
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

    /// The marker before the `asm` of `src`: the bytes it covers and its note.
    fn found(src: &[u8]) -> Option<(String, String)> {
        let at = memchr::memmem::find(src, b"asm").unwrap();
        existing_marker(src, &Lines::new(src), at)
            .map(|m| (String::from_utf8_lossy(&src[m.range]).into_owned(), m.note))
    }

    #[test]
    fn a_marker_is_found_on_the_lines_above_or_just_before_the_statement() {
        let why = "ptx2hip: U001 not translated: why".to_string();
        let src = b"x;\n  /* ptx2hip: U001 not translated: why */\n  asm(\"frob;\");\n";
        let want = "  /* ptx2hip: U001 not translated: why */\n".to_string();
        assert_eq!(found(src), Some((want, why.clone())));

        let src = b"M(/* ptx2hip: U001 not translated: why */ asm(\"frob;\"))";
        let want = "/* ptx2hip: U001 not translated: why */ ".to_string();
        assert_eq!(found(src), Some((want, why.clone())));

        // As versions before issue 18 wrote it.
        let src = b"x;\n  // ptx2hip: U001 not translated: why\n  asm(\"frob;\");\n";
        let want = "  // ptx2hip: U001 not translated: why\n".to_string();
        assert_eq!(found(src), Some((want, why)));
    }

    /// clang-format re-flows a long comment over lines, continuations starting with `*`, in a
    /// `#define` body with its `\\` continuations.
    #[test]
    fn a_marker_reflowed_by_a_formatter_is_found_whole() {
        let note = "ptx2hip: U011 not translated: the template cannot be read";
        let src = b"x;\n  /* ptx2hip: U011 not translated:\n   * the template cannot be\n   * read */\n  asm(\"frob;\");\n";
        let (bytes, found_note) = found(src).unwrap();
        assert_eq!(bytes, String::from_utf8_lossy(&src[3..src.len() - 16]));
        assert_eq!(found_note, note);
        let src = b"#define M(x)                      \\\n  /* ptx2hip: U011 not translated: \\\n   * the template cannot be   \\\n   * read */                       \\\n  asm(\"frob;\")\n";
        let (bytes, found_note) = found(src).unwrap();
        assert!(
            bytes.starts_with("  /* ptx2hip") && bytes.ends_with("\\\n"),
            "{bytes}"
        );
        assert_eq!(found_note, note);
        let marker = existing_marker(
            src,
            &Lines::new(src),
            memchr::memmem::find(src, b"asm").unwrap(),
        );
        assert!(marker.unwrap().says(note));
    }

    #[test]
    fn other_comments_are_no_markers() {
        for src in [
            &b"// ptx2hip: ignore[U001] kept\nasm(\"frob;\");\n"[..],
            b"// ptx2hip: B012\nasm(\"frob;\");\n",
            b"/* a */ asm(\"frob;\");\n",
            b"/* ptx2hip: U001 not translated: why */ x;\nasm(\"frob;\");\n",
            b"// see /* ptx2hip: U001 not translated: why */\nasm(\"frob;\");\n",
            b"s = \"/* ptx2hip: U001 not translated: why */\nasm(\"frob;\");\n",
            b"asm(\"frob;\");\n",
        ] {
            assert_eq!(found(src), None, "{}", String::from_utf8_lossy(src));
        }
    }
}
