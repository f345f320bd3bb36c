//! Report: findings as human diagnostics (source snippet and caret), JSON, one line each
//! (`concise`), GitHub Actions annotations, SARIF, or counts (`statistics`).

mod concise;
mod fingerprint;
mod github;
pub mod html;
mod human;
mod json;
mod paint;
mod sarif;
mod statistics;

pub use concise::concise;
pub use fingerprint::fingerprint;
pub use github::github;
pub use human::{
    render_diagnostic, render_file_diagnostic, render_finding, render_finding_in, summary, Newlines,
};
pub use json::{diagnostic_json, JsonFinding};
pub use paint::Paint;
pub use sarif::sarif;
pub use statistics::Statistics;

use crate::codes::Code;
use crate::pipeline::{FileDiagnostic, Finding};
use crate::rules::evidence::BelowHardware;

/// `translatable` or `unsupported`.
pub fn status(f: &Finding) -> &'static str {
    if f.outcome.is_ok() {
        "translatable"
    } else {
        "unsupported"
    }
}

/// The one-line message of a finding.
pub fn message(f: &Finding) -> String {
    let forms = if f.instructions.is_empty() {
        "inline asm".to_string()
    } else {
        f.instructions
            .iter()
            .map(|i| format!("`{i}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let message = match &f.outcome {
        Ok(rules) if !f.evidence.is_empty() => format!(
            "non-portable inline PTX {forms}: translatable ({}); evidence below hardware: {}",
            rules.join(", "),
            f.evidence
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        ),
        Ok(rules) => format!(
            "non-portable inline PTX {forms}: translatable ({})",
            rules.join(", ")
        ),
        Err(u) => format!(
            "non-portable inline PTX {forms}: not translated: {}",
            u.message
        ),
    };
    match &f.note {
        Some(note) => format!("{message}; {note}"),
        None => message,
    }
}

/// A place in a file: 1-based line, 1-based column counted in bytes (as the human and JSON
/// formats count) and in characters (as SARIF and editors count; each byte of invalid UTF-8 is
/// one character, as the human format shows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Location {
    pub line: usize,
    pub column: usize,
    pub char_column: usize,
}

impl Location {
    /// The location of byte `offset`, given the line `line` of an earlier byte `from`.
    pub fn find(source: &[u8], from: usize, line: usize, offset: usize) -> Location {
        let offset = offset.min(source.len());
        let from = from.min(offset);
        let line = line + source[from..offset].iter().filter(|&&b| b == b'\n').count();
        let start = source[..offset]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let chars = source[start..offset]
            .utf8_chunks()
            .map(|c| c.valid().chars().count() + c.invalid().len())
            .sum::<usize>();
        Location {
            line,
            column: offset - start + 1,
            char_column: chars + 1,
        }
    }
}

/// One finding as every format reports it: a statement, an asm keyword or a file that could not
/// be read, or a suppression comment that silenced nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub code: Code,
    /// The file as shown (no leading `./`, `/` separators).
    pub file: String,
    /// Start and (exclusive) end of what it is about: the statement, the keyword, the comment.
    pub start: Location,
    pub end: Location,
    /// Where the problem is: the instruction when known, else `start`.
    pub focus: Location,
    /// PTX instruction forms as written.
    pub instructions: Vec<String>,
    /// Rules that translate the statement.
    pub rules: Vec<String>,
    /// Those among `rules` below hardware evidence (docs/EVIDENCE.md).
    pub evidence: Vec<BelowHardware>,
    /// Why the statement is not translated, when that is what it reports.
    pub reason: Option<String>,
    /// One line.
    pub message: String,
    /// Identifies the finding across edits that move it: see [`fingerprint`].
    pub fingerprint: String,
}

/// Locations in one file, found in time linear in the file when asked in file order (the
/// findings of a file are): newlines are indexed once, when the first location is asked (most
/// files a lint reads have none to find), and the character count of a line is carried on from
/// the previous location on the same line. Asking each location from scratch takes quadratic
/// time when thousands of statements share one long line.
pub struct Locator<'s> {
    source: &'s [u8],
    newlines: Option<Vec<usize>>,
    /// The last location's offset, its line's start and the characters between them.
    last: (usize, usize, usize),
}

impl<'s> Locator<'s> {
    pub fn new(source: &'s [u8]) -> Locator<'s> {
        Locator {
            source,
            newlines: None,
            last: (0, 0, 0),
        }
    }

    /// As [`Location::find`].
    pub fn find(&mut self, from: usize, line: usize, offset: usize) -> Location {
        let offset = offset.min(self.source.len());
        let from = from.min(offset);
        let source = self.source;
        let newlines = self
            .newlines
            .get_or_insert_with(|| memchr::memchr_iter(b'\n', source).collect());
        let before = |p: usize| newlines.partition_point(|&n| n < p);
        let index = before(offset);
        let line = line + index - before(from);
        let start = index.checked_sub(1).map_or(0, |i| newlines[i] + 1);
        let (last, last_start, last_chars) = self.last;
        let (counted_from, chars) = if last_start == start && last <= offset {
            (last, last_chars)
        } else {
            (start, 0)
        };
        let chars = chars + char_count(&self.source[counted_from..offset]);
        self.last = (offset, start, chars);
        Location {
            line,
            column: offset - start + 1,
            char_column: chars + 1,
        }
    }
}

/// Characters in `bytes`, each byte of invalid UTF-8 one.
fn char_count(bytes: &[u8]) -> usize {
    bytes
        .utf8_chunks()
        .map(|c| c.valid().chars().count() + c.invalid().len())
        .sum()
}

impl Diagnostic {
    pub fn of_finding(file: &str, source: &[u8], f: &Finding) -> Diagnostic {
        Self::of_finding_in(file, source, &mut Locator::new(source), f)
    }

    /// [`Diagnostic::of_finding`] with the file's locations found by `at`.
    pub fn of_finding_in(file: &str, source: &[u8], at: &mut Locator, f: &Finding) -> Diagnostic {
        let start = at.find(f.span.start, f.line, f.span.start);
        let focus = match &f.outcome {
            Ok(_) => start,
            Err(u) => at.find(
                f.span.start,
                f.line,
                u.offset.clamp(f.span.start, f.span.end.max(f.span.start)),
            ),
        };
        Diagnostic {
            code: f.code(),
            file: file.to_string(),
            start,
            end: at.find(f.span.start, f.line, f.span.end),
            focus,
            instructions: f.instructions.clone(),
            rules: f.outcome.clone().unwrap_or_default(),
            evidence: f.evidence.clone(),
            reason: f.outcome.as_ref().err().map(|u| one_line(&u.message)),
            message: one_line(&message(f)),
            fingerprint: fingerprint(source.get(f.span.clone()).unwrap_or_default()),
        }
    }

    pub fn of_file_diagnostic(file: &str, source: &[u8], d: &FileDiagnostic) -> Diagnostic {
        let at = match d.offset {
            Some(o) => Location::find(source, o, d.line, o),
            None => Location {
                line: d.line,
                column: d.column,
                char_column: d.column,
            },
        };
        Diagnostic {
            code: d.code,
            file: file.to_string(),
            start: at,
            end: at,
            focus: at,
            instructions: Vec::new(),
            rules: Vec::new(),
            evidence: Vec::new(),
            reason: Some(one_line(&d.message)),
            message: one_line(&d.message),
            fingerprint: fingerprint(d.offset.map_or(&[][..], |o| line_at(source, o))),
        }
    }

    /// A finding about no statement at `at` (a suppression comment); its message is what the
    /// fingerprint identifies.
    pub fn at(code: Code, file: &str, at: Location, message: String) -> Diagnostic {
        Diagnostic {
            fingerprint: fingerprint(message.as_bytes()),
            code,
            file: file.to_string(),
            start: at,
            end: at,
            focus: at,
            instructions: Vec::new(),
            rules: Vec::new(),
            evidence: Vec::new(),
            reason: None,
            message: one_line(&message),
        }
    }
}

/// The line holding byte `offset`, without its line break.
fn line_at(source: &[u8], offset: usize) -> &[u8] {
    use crate::scan::BOM;
    let offset = offset.min(source.len());
    // A byte order mark is not text of the first line: the line keeps its fingerprint when lines
    // are added above it.
    let first = if source.starts_with(BOM) {
        BOM.len().min(offset)
    } else {
        0
    };
    let start = source[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(first, |p| p + 1);
    let end = source[offset..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(source.len(), |p| offset + p);
    &source[start..end]
}

/// `text` with line breaks as spaces: a message is one line of the report.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_on_the_first_line_keeps_its_fingerprint_when_lines_are_added_after_a_bom() {
        let finding = |source: &[u8], offset: usize, line: usize| {
            let d = FileDiagnostic {
                code: Code::UnreadableAsm,
                offset: Some(offset),
                line,
                column: 1,
                message: "the parentheses of this `asm` statement are not closed".into(),
            };
            Diagnostic::of_file_diagnostic("k.cu", source, &d).fingerprint
        };
        let first = finding(b"\xEF\xBB\xBF  asm(\"{\"", 5, 1);
        assert_eq!(first, finding(b"\xEF\xBB\xBF\n\n  asm(\"{\"", 7, 3));
        assert_eq!(first, finding(b"  asm(\"{\"", 2, 1));
    }

    #[test]
    fn locations_count_lines_bytes_and_characters() {
        let source = "a\n  é x\n".as_bytes();
        let x = source.iter().position(|&b| b == b'x').unwrap();
        assert_eq!(
            Location::find(source, 0, 1, x),
            Location {
                line: 2,
                column: 6,
                char_column: 5
            }
        );
        assert_eq!(
            Location::find(source, 2, 2, x),
            Location::find(source, 0, 1, x)
        );
        let end = Location::find(source, 0, 1, source.len());
        assert_eq!((end.line, end.column), (3, 1));
    }

    #[test]
    fn invalid_utf8_counts_one_character_per_byte() {
        let source = b"\xff\xfe\xc3x";
        assert_eq!(Location::find(source, 0, 1, 3).char_column, 4);
    }
}
