//! Human-readable diagnostics in the style of rustc and Ruff.

use annotate_snippets::{AnnotationKind, Level, Snippet};

use super::{one_line, Diagnostic, Paint};
use crate::pipeline::{FileDiagnostic, Finding};

/// A diagnostic with the source line of the problem and a caret under it.
///
/// Positions stay byte-exact whatever the line holds: the header's column counts bytes, as the
/// JSON's does; invalid UTF-8 is shown as U+FFFD through an offset map instead of a lossy copy
/// that would shift every later offset; the caret covers the whole character its byte is part of.
pub fn render_finding(path: &str, source: &[u8], f: &Finding) -> String {
    render_finding_in(path, source, &Newlines::new(source), f, Paint::default())
}

/// Where a file's `\n`s are, found once per file: a finding then finds its line in logarithmic
/// time, so that rendering every finding of a file takes time linear in the file even when they
/// share one long line (minified or generated code).
pub struct Newlines(Vec<usize>);

impl Newlines {
    pub fn new(source: &[u8]) -> Newlines {
        Newlines(memchr::memchr_iter(b'\n', source).collect())
    }

    /// How many newlines come before `offset`.
    fn before(&self, offset: usize) -> usize {
        self.0.partition_point(|&p| p < offset)
    }
}

/// A line longer than this is shown as the part around the caret (the header's column still
/// counts from the line's start).
const LONGEST_SHOWN: usize = 240;
const SHOWN_BEFORE: usize = 100;
const ELLIPSIS: &str = "...";

/// [`render_finding`] with the file's newlines found beforehand, coloured or not.
pub fn render_finding_in(
    path: &str,
    source: &[u8],
    newlines: &Newlines,
    f: &Finding,
    paint: Paint,
) -> String {
    let start = f.span.start.min(source.len());
    let (level, focus) = match &f.outcome {
        Ok(_) => (Level::WARNING, start),
        Err(u) => (Level::ERROR, u.offset.clamp(start, f.span.end.max(start))),
    };
    let focus = focus.min(source.len());
    let index = newlines.before(focus);
    let line_start = index.checked_sub(1).map_or(0, |i| newlines.0[i] + 1);
    let mut line_end = newlines.0.get(index).copied().unwrap_or(source.len());
    if line_end < source.len() && line_end > focus && source[line_end - 1] == b'\r' {
        line_end -= 1;
    }
    let line = f.line + index - newlines.before(start);
    let (shown, caret_at) = if line_end - line_start <= LONGEST_SHOWN {
        (
            ShownLine::new(&source[line_start..line_end]),
            focus - line_start,
        )
    } else {
        let mut from = focus.saturating_sub(SHOWN_BEFORE).max(line_start);
        let mut to = (from + LONGEST_SHOWN).min(line_end);
        while from > line_start && is_continuation(source[from]) {
            from -= 1;
        }
        while to < line_end && is_continuation(source[to]) {
            to += 1;
        }
        let lead = if from > line_start { ELLIPSIS } else { "" };
        let tail = if to < line_end { ELLIPSIS } else { "" };
        let bytes = [lead.as_bytes(), &source[from..to], tail.as_bytes()].concat();
        (ShownLine::new(&bytes), focus - from + lead.len())
    };
    let label = one_line(&match &f.outcome {
        Ok(rules) => format!("rules {}", rules.join(", ")),
        Err(u) => u.message.clone(),
    });
    let title = one_line(&super::message(f));
    let code = f.code();
    let report = &[level
        .primary_title(title.as_str())
        .id(code.as_str())
        .element(
            Snippet::source(shown.text.as_str())
                .line_start(line)
                .annotation(
                    AnnotationKind::Primary
                        .span(shown.caret(caret_at))
                        .label(label.as_str()),
                ),
        )];
    let rendered = paint.renderer().render(report).to_string();
    // The location line is ours: annotate-snippets would count the column in characters.
    let (head, body) = rendered.split_once('\n').unwrap_or((&rendered, ""));
    let margin = " ".repeat(line.to_string().len());
    let column = focus - line_start + 1;
    let arrow = paint.arrow();
    format!("{head}\n{margin}{arrow} {path}:{line}:{column}\n{body}")
}

/// A UTF-8 continuation byte (never the first byte of a character).
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// One source line as shown, and where each of its bytes went.
struct ShownLine {
    text: String,
    /// Length of the line in the file.
    bytes: usize,
    /// For every character of `text`: its byte offset in the line and in `text`.
    chars: Vec<(usize, usize)>,
}

impl ShownLine {
    /// Valid UTF-8 is kept; each byte of an invalid sequence becomes one U+FFFD.
    fn new(bytes: &[u8]) -> ShownLine {
        let mut shown = ShownLine {
            text: String::with_capacity(bytes.len()),
            bytes: bytes.len(),
            chars: Vec::with_capacity(bytes.len()),
        };
        let mut at = 0;
        for chunk in bytes.utf8_chunks() {
            for (i, c) in chunk.valid().char_indices() {
                shown.chars.push((at + i, shown.text.len()));
                shown.text.push(c);
            }
            at += chunk.valid().len();
            for _ in chunk.invalid() {
                shown.chars.push((at, shown.text.len()));
                shown.text.push(char::REPLACEMENT_CHARACTER);
                at += 1;
            }
        }
        shown
    }

    /// The shown range of the character holding byte `offset` of the line (empty at its end).
    fn caret(&self, offset: usize) -> std::ops::Range<usize> {
        let next = self.chars.partition_point(|&(byte, _)| byte <= offset);
        match next.checked_sub(1) {
            Some(this) if offset < self.bytes => {
                let end = self.chars.get(next).map_or(self.text.len(), |&(_, s)| s);
                self.chars[this].1..end
            }
            _ => self.text.len()..self.text.len(),
        }
    }
}

/// A file-level problem met while translating (`translate` reports them on stderr).
pub fn render_file_diagnostic(path: &str, d: &FileDiagnostic) -> String {
    format!(
        "{}[{}]: {}\n --> {path}:{}:{}\n",
        d.code.level().as_str(),
        d.code,
        d.message,
        d.line,
        d.column
    )
}

/// A finding that is not about a statement's translation (an unreadable asm keyword or file, an
/// unused suppression): its header and location.
pub fn render_diagnostic(d: &Diagnostic, paint: Paint) -> String {
    format!(
        "{}{}\n {} {}:{}:{}\n",
        paint.level(d.code.level(), d.code.as_str()),
        paint.title(&format!(": {}", d.message)),
        paint.arrow(),
        d.file,
        d.focus.line,
        d.focus.column
    )
}

/// The closing line of a `check` run.
pub fn summary(files: usize, translatable: usize, unsupported: usize) -> String {
    format!(
        "{} non-portable asm statement{} in {files} file{}: {translatable} translatable, {unsupported} not translated",
        translatable + unsupported,
        if translatable + unsupported == 1 { "" } else { "s" },
        if files == 1 { "" } else { "s" },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::NotTranslated;
    use proptest::prelude::*;

    /// A finding for the statement at `span` whose problem is at byte `at`.
    fn finding(source: &[u8], span: std::ops::Range<usize>, at: usize) -> Finding {
        let line = 1 + source[..span.start].iter().filter(|&&b| b == b'\n').count();
        Finding {
            span,
            line,
            column: 1,
            end_line: line,
            end_column: 1,
            instructions: vec!["add.s32".into()],
            note: None,
            evidence: Vec::new(),
            outcome: Err(NotTranslated {
                code: crate::codes::Code::UnknownInstruction,
                message: "the reason".into(),
                offset: at,
            }),
        }
    }

    /// The `--> path:line:column` of a rendered finding and its caret line.
    fn location_and_caret(rendered: &str) -> (&str, &str) {
        let location = rendered.lines().nth(1).unwrap().trim_start();
        let caret = rendered.lines().find(|l| l.contains('^')).unwrap();
        (location, caret)
    }

    #[test]
    fn the_column_counts_bytes_and_the_caret_sits_under_the_character() {
        let source = "  /* é */ asm(\"frob %0;\");\n".as_bytes();
        let at = source.iter().position(|&b| b == b'f').unwrap();
        let out = render_finding("a.cu", source, &finding(source, 10..source.len() - 1, at));
        let (location, caret) = location_and_caret(&out);
        assert_eq!(location, "--> a.cu:1:17");
        assert_eq!(caret, format!("  |{}^ the reason", " ".repeat(1 + 15)));
    }

    #[test]
    fn a_problem_inside_a_multibyte_character_marks_the_whole_character() {
        let source = "asm(\"add é;\");\n".as_bytes();
        let e = source.iter().position(|&b| b == 0xc3).unwrap();
        let out = render_finding("a.cu", source, &finding(source, 0..14, e + 1));
        let (location, caret) = location_and_caret(&out);
        assert_eq!(location, format!("--> a.cu:1:{}", e + 2));
        assert_eq!(caret, format!("  |{}^ the reason", " ".repeat(1 + 9)));
    }

    #[test]
    fn invalid_utf8_earlier_on_the_line_does_not_shift_the_caret() {
        let source = b"/*\xff\xfe*/ asm(\"x\t%0\xc3;\");\r\n";
        let at = source.iter().position(|&b| b == b'%').unwrap();
        let out = render_finding("a.cu", source, &finding(source, 7..source.len() - 2, at));
        let (location, caret) = location_and_caret(&out);
        assert_eq!(location, format!("--> a.cu:1:{}", at + 1));
        assert!(out.contains("/*��*/ asm(\"x"), "{out}");
        // 13 characters and a tab shown as four spaces precede the caret.
        assert_eq!(caret, format!("  |{}^ the reason", " ".repeat(1 + 13 + 4)));
    }

    #[test]
    fn a_problem_on_a_later_line_of_the_statement_shows_that_line() {
        let source = b"x;\r\nasm(\"mov %0;\"\r\n    \"\xce\xbb bad;\");\r\n";
        let at = source.iter().position(|&b| b == b'b').unwrap();
        let out = render_finding("a.cu", source, &finding(source, 4..source.len() - 2, at));
        let (location, caret) = location_and_caret(&out);
        assert_eq!(location, "--> a.cu:3:9");
        assert!(out.contains("3 |     \"λ bad;\");\n"), "{out}");
        assert_eq!(caret, format!("  |{}^ the reason", " ".repeat(1 + 7)));
    }

    fn messy_byte() -> impl Strategy<Value = u8> {
        prop_oneof![
            3 => any::<u8>(),
            1 => prop::sample::select(b"\n\r\t ;\"".to_vec()),
        ]
    }

    proptest! {
        /// Whatever the bytes and wherever the finding points, rendering never panics and the
        /// location is the byte position of the problem.
        #[test]
        fn fuzz_rendering_never_panics_and_locates_the_byte(
            source in prop_oneof![
                prop::collection::vec(messy_byte(), 0..300),
                "[a-zé€😀\u{202e}\u{200d}\t\r\n\"; ]{0,200}".prop_map(String::into_bytes),
            ],
            a in any::<prop::sample::Index>(),
            b in any::<prop::sample::Index>(),
            c in any::<prop::sample::Index>(),
        ) {
            let len = source.len() + 1;
            let mut cuts = [a.index(len), b.index(len), c.index(len)];
            cuts.sort_unstable();
            let [start, at, end] = cuts;
            let out = render_finding("f.cu", &source, &finding(&source, start..end, at));
            let line = 1 + source[..at].iter().filter(|&&b| b == b'\n').count();
            let line_start = source[..at].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let (location, _) = location_and_caret(&out);
            prop_assert_eq!(location, format!("--> f.cu:{line}:{}", at - line_start + 1));
        }
    }
}
