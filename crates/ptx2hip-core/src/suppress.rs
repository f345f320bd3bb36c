//! Inline suppressions: `// ptx2hip: ignore[U001] reason` silences findings of one statement.
//!
//! - A comment (`//` or `/* */`) whose text starts with `ptx2hip: ignore[CODES]`; `CODES` is a
//!   comma-separated list of finding codes (`ignore[U001, U005]`), or `*` for every code. The
//!   text after `]` is the reason, for the reader; write one.
//! - It applies to the findings of a statement when it is on one of the statement's lines (a
//!   trailing comment, or a comment inside a multi-line statement), or alone on the line just
//!   above the statement's first line. A trailing comment does not reach the next line's
//!   statement.
//! - `ignore[*]` is accepted because a statement kept for NVIDIA on purpose should stay quiet
//!   whatever ptx2hip learns to say about it; naming codes is better where the reason is about
//!   one problem, since a named code that stops applying is reported by
//!   `--report-unused-suppressions` and a `*` only when the statement has no finding at all.
//!
//! Comments are recognised on their line: a `//` or `/*` inside a string literal earlier on the
//! line does not start one.

use crate::codes::Code;

/// What one suppression comment names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Names {
    /// `ignore[*]`.
    All,
    /// The codes as written, in order; a text that is no code is kept to be reported.
    Codes(Vec<String>),
    /// Starts like a suppression but cannot be read (`ignore[]`, an unclosed `[`, codes without
    /// brackets): silences nothing and is reported, with what is wrong.
    Malformed(String),
}

/// One `ptx2hip: ignore[...]` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    /// 1-based line of the comment.
    pub line: usize,
    /// Byte offset of `ptx2hip:` in the file.
    pub offset: usize,
    /// Nothing but whitespace precedes the comment on its line.
    pub own_line: bool,
    pub names: Names,
    /// The comment's text from `ptx2hip:` to the end of the line (or of the block comment).
    pub text: String,
}

const MARKER: &[u8] = b"ptx2hip:";

/// Whether the marker appears anywhere in `source`, in any case: every file is asked, and almost
/// none has one. The marker's one caseless letter, its `2`, is rare in C++ (`:` of every `::` was
/// a tenth of a run), and the bytes around each are compared in any case, without a lowercased
/// copy of the file.
fn has_marker(source: &[u8]) -> bool {
    let digit = MARKER.iter().position(|&b| b == b'2').unwrap_or(0);
    memchr::memchr_iter(b'2', source).any(|at| {
        at >= digit
            && source
                .get(at - digit..at - digit + MARKER.len())
                .is_some_and(|word| word.eq_ignore_ascii_case(MARKER))
    })
}

/// Every suppression comment of a file, in file order, malformed ones included (to be
/// reported). The marker and `ignore` are read in any case, as ruff reads `# NOQA`.
pub fn find(source: &[u8]) -> Vec<Suppression> {
    if !has_marker(source) {
        return Vec::new();
    }
    let text = crate::scan::with_compiler_lines(source);
    let source = &text[..];
    let lower = source.to_ascii_lowercase();
    let mut markers = memchr::memmem::find_iter(&lower, MARKER).peekable();
    if markers.peek().is_none() {
        return Vec::new();
    }
    // Only a marker that opens a comment's text counts: the comments come from the scanner's
    // lexer, so a `// ptx2hip:` inside a (raw) string literal is not one.
    let comments = crate::scan::comments(source);
    let mut found = Vec::new();
    let mut line = 1;
    let mut counted = 0;
    let mut comment = comments.iter().peekable();
    for at in markers {
        while comment.next_if(|c| c.end <= at).is_some() {}
        let Some(c) = comment.peek().filter(|c| c.start < at) else {
            continue;
        };
        let block = source[c.start + 1] == b'*';
        // The marker opens the comment's text, or a `//` inside it (`// note // ptx2hip: ...`).
        let before = source[c.start..at].trim_ascii_end();
        if !(before.len() == 2 || before.ends_with(b"//")) {
            continue;
        }
        line += source[counted..at].iter().filter(|&&b| b == b'\n').count();
        counted = at;
        let end = if block && source[..c.end].ends_with(b"*/") {
            c.end - 2
        } else {
            c.end
        };
        let end = source[at..end.max(at)]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(end.max(at), |p| at + p);
        let text = String::from_utf8_lossy(&source[at..end])
            .trim_end()
            .to_string();
        let Some(names) = parse_names(&text[MARKER.len()..]) else {
            continue;
        };
        let line_start = source[..c.start]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        found.push(Suppression {
            line,
            offset: at,
            own_line: source[line_start..c.start]
                .iter()
                .all(u8::is_ascii_whitespace),
            names,
            text,
        });
    }
    found
}

/// What follows the marker: `ignore[CODES]`, `ignore[*]`, or a bare `ignore` (every code, as a
/// bare `# noqa`); anything else that starts with the word `ignore` is malformed, and text that
/// does not is no suppression (`None`).
fn parse_names(after_marker: &str) -> Option<Names> {
    let rest = after_marker.trim_start();
    if !rest
        .get(..6)
        .is_some_and(|w| w.eq_ignore_ascii_case("ignore"))
    {
        return None;
    }
    let rest = &rest[6..];
    if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let rest = rest.trim_start();
    let Some(list) = rest.strip_prefix('[') else {
        let first = rest
            .split(|c: char| c.is_whitespace() || c == ',')
            .next()
            .unwrap_or("");
        return Some(if Code::parse(first).is_some() {
            Names::Malformed(format!("codes go in brackets: write `ignore[{first}]`"))
        } else {
            Names::All
        });
    };
    let Some((inner, _reason)) = list.split_once(']') else {
        return Some(Names::Malformed("`[` is not closed by `]`".into()));
    };
    let names: Vec<String> = inner
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if names.is_empty() {
        return Some(Names::Malformed(
            "`[]` names no code: write `ignore[U001]`, or `ignore[*]` for every code".into(),
        ));
    }
    if names.iter().any(|n| n == "*") {
        return Some(Names::All);
    }
    Some(Names::Codes(names))
}

impl Suppression {
    /// Whether it covers the finding `code` of a statement on lines `first..=last`.
    pub fn covers(&self, code: Code, first: usize, last: usize) -> bool {
        let near = (first..=last).contains(&self.line) || (self.own_line && self.line + 1 == first);
        near && match &self.names {
            Names::All => true,
            Names::Codes(c) => c.iter().any(|n| Code::parse(n) == Some(code)),
            Names::Malformed(_) => false,
        }
    }
}

/// Which suppressions, and which of their names, silenced something.
#[derive(Debug)]
pub struct Ledger {
    pub suppressions: Vec<Suppression>,
    /// Per suppression: for `*`, whether it was used; for codes, per name.
    used: Vec<Vec<bool>>,
}

impl Ledger {
    pub fn new(suppressions: Vec<Suppression>) -> Ledger {
        let used = suppressions
            .iter()
            .map(|s| match &s.names {
                Names::All => vec![false],
                Names::Codes(c) => vec![false; c.len()],
                Names::Malformed(_) => Vec::new(),
            })
            .collect();
        Ledger { suppressions, used }
    }

    /// Whether a finding `code` of a statement on lines `first..=last` is suppressed; records
    /// what suppressed it.
    pub fn suppresses(&mut self, code: Code, first: usize, last: usize) -> bool {
        let mut any = false;
        for (s, used) in self.suppressions.iter().zip(&mut self.used) {
            if !s.covers(code, first, last) {
                continue;
            }
            any = true;
            match &s.names {
                Names::All => used[0] = true,
                Names::Codes(c) => {
                    for (name, u) in c.iter().zip(used.iter_mut()) {
                        *u |= Code::parse(name) == Some(code);
                    }
                }
                Names::Malformed(_) => {}
            }
        }
        any
    }

    /// Each suppression with the names that silenced nothing (`*` for an unused `ignore[*]`),
    /// when there are any.
    pub fn unused(&self) -> impl Iterator<Item = (&Suppression, Vec<&str>)> {
        self.suppressions
            .iter()
            .zip(&self.used)
            .filter_map(|(s, used)| {
                let names: Vec<&str> = match &s.names {
                    Names::All => (!used[0]).then_some("*").into_iter().collect(),
                    Names::Codes(c) => c
                        .iter()
                        .zip(used)
                        .filter(|(_, u)| !**u)
                        .map(|(n, _)| n.as_str())
                        .collect(),
                    // Reported as malformed, whether or not unused ones are.
                    Names::Malformed(_) => Vec::new(),
                };
                (!names.is_empty()).then_some((s, names))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marker_is_found_in_any_case_and_not_without_its_colon() {
        assert!(has_marker(b"// PTX2HIP: ignore"));
        assert!(has_marker(b"x // Ptx2Hip:ignore[U001]"));
        assert!(!has_marker(b"// ptx2hip ignore: U001"));
        assert!(!has_marker(b"tx2hip: ::"));
    }

    fn codes(list: &[&str]) -> Names {
        Names::Codes(list.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn a_line_comment_names_codes_and_gives_a_reason() {
        let s = find(b"  asm(\"x;\"); // ptx2hip: ignore[U001, u005] NVIDIA-only path\n");
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].line, 1);
        assert_eq!(s[0].offset, 16);
        assert!(!s[0].own_line);
        assert_eq!(s[0].names, codes(&["U001", "u005"]));
        assert_eq!(s[0].text, "ptx2hip: ignore[U001, u005] NVIDIA-only path");
    }

    #[test]
    fn block_comments_own_lines_and_the_star() {
        let s = find(b"x;\n  /* ptx2hip: ignore[*] kept for sm_90 */\nasm(\"y;\");\n");
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].line, 2);
        assert!(s[0].own_line);
        assert_eq!(s[0].names, Names::All);
        assert_eq!(s[0].text, "ptx2hip: ignore[*] kept for sm_90");
    }

    #[test]
    fn markers_in_strings_or_outside_comments_are_not_suppressions() {
        let text = concat!(
            "asm(\"// ptx2hip: ignore[U001]\");\n",
            "ptx2hip: ignore[U001]\n",
            "// see ptx2hip: ignore[U001]\n",
            "char c = '\"'; // ptx2hip: ignore[U002]\n",
            "// a comment // ptx2hip: ignore[U003]\n",
            "const char* t = R\"x(\n// ptx2hip: ignore[U004]\n)x\"; // ptx2hip: ignore[U005]\n",
            "// ptx2hip: ignored elsewhere\n",
        );
        let s = find(text.as_bytes());
        let lines: Vec<usize> = s.iter().map(|s| s.line).collect();
        assert_eq!(lines, [4, 5, 8], "not line 7: inside a raw string");
        assert_eq!(s[2].names, codes(&["U005"]));
    }

    #[test]
    fn a_bare_ignore_is_every_code_and_case_does_not_matter() {
        for text in [
            "// ptx2hip: ignore\n",
            "// PTX2HIP: IGNORE kept on purpose\n",
            "/* ptx2hip: Ignore */\n",
        ] {
            assert_eq!(find(text.as_bytes())[0].names, Names::All, "{text}");
        }
        assert_eq!(
            find(b"// Ptx2Hip: Ignore [u001] spaced\n")[0].names,
            codes(&["u001"])
        );
    }

    #[test]
    fn what_cannot_be_read_is_malformed_and_covers_nothing() {
        for text in [
            "// ptx2hip: ignore[]\n",
            "// ptx2hip: ignore[U001\n",
            "// ptx2hip: ignore U001 reason\n",
        ] {
            let s = &find(text.as_bytes())[0];
            assert!(matches!(s.names, Names::Malformed(_)), "{text}");
            assert!(!s.covers(Code::UnknownInstruction, 1, 1), "{text}");
        }
    }

    #[test]
    fn a_suppression_covers_its_statements_lines_and_the_line_above_when_alone() {
        let s = find(b"// ptx2hip: ignore[U001]\nasm(\"a;\"\n    \"b;\"); // ptx2hip: ignore[U002]\nasm(\"c;\");\n");
        let (above, trailing) = (&s[0], &s[1]);
        assert!(above.covers(Code::UnknownInstruction, 2, 3));
        assert!(!above.covers(Code::UnknownInstruction, 3, 3));
        assert!(!above.covers(Code::ModifierCombination, 2, 3));
        assert!(trailing.covers(Code::ModifierCombination, 2, 3));
        assert!(
            !trailing.covers(Code::ModifierCombination, 4, 4),
            "a trailing comment does not reach the next line"
        );
    }

    #[test]
    fn the_ledger_reports_names_that_silenced_nothing() {
        let text = b"asm(\"a;\"); // ptx2hip: ignore[U001, U002, X999]\nasm(\"b;\"); // ptx2hip: ignore[*]\nasm(\"c;\"); // ptx2hip: ignore[*]\n";
        let mut ledger = Ledger::new(find(text));
        assert!(ledger.suppresses(Code::UnknownInstruction, 1, 1));
        assert!(!ledger.suppresses(Code::OperandShape, 1, 1));
        assert!(ledger.suppresses(Code::Translatable, 2, 2));
        let unused: Vec<(usize, Vec<&str>)> = ledger.unused().map(|(s, n)| (s.line, n)).collect();
        assert_eq!(unused, [(1, vec!["U002", "X999"]), (3, vec!["*"])]);
    }
}
