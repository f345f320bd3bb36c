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

/// Every suppression comment of a file, in file order.
pub fn find(source: &[u8]) -> Vec<Suppression> {
    let mut found = Vec::new();
    let mut line = 1;
    let mut counted = 0;
    for at in memchr::memmem::find_iter(source, MARKER) {
        line += source[counted..at].iter().filter(|&&b| b == b'\n').count();
        counted = at;
        let line_start = source[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let Some(opener) = comment_opener(&source[line_start..at]) else {
            continue;
        };
        let rest_end = source[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(source.len(), |p| at + p);
        let mut rest = String::from_utf8_lossy(&source[at..rest_end]).into_owned();
        if let Some(close) = rest.find("*/").filter(|_| opener == Opener::Block) {
            rest.truncate(close);
        }
        let rest = rest.trim_end().to_string();
        let Some(names) = parse_names(&rest[MARKER.len()..]) else {
            continue;
        };
        found.push(Suppression {
            line,
            offset: at,
            own_line: source[line_start..at]
                .iter()
                .take_while(|&&b| b != b'/')
                .all(u8::is_ascii_whitespace),
            names,
            text: rest,
        });
    }
    found
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opener {
    Line,
    Block,
}

/// The comment `before` (the line up to the marker) ends in: `//` or `/*` followed by blanks
/// only, and not inside a string or character literal.
fn comment_opener(before: &[u8]) -> Option<Opener> {
    let trimmed = before.trim_ascii_end();
    let opener = match trimmed {
        [.., b'/', b'/'] => Opener::Line,
        [.., b'/', b'*'] => Opener::Block,
        _ => return None,
    };
    let code = &trimmed[..trimmed.len() - 2];
    let mut quote = None;
    let mut i = 0;
    while i < code.len() {
        match (quote, code[i]) {
            (Some(_), b'\\') => i += 1,
            (Some(q), c) if c == q => quote = None,
            (None, c @ (b'"' | b'\'')) => quote = Some(c),
            // An earlier `//` comment holds the rest of the line.
            (None, b'/') if code.get(i + 1) == Some(&b'/') => return Some(Opener::Line),
            _ => {}
        }
        i += 1;
    }
    quote.is_none().then_some(opener)
}

/// `ignore[...]` after the marker: the names, or `None` when the text is not a suppression.
fn parse_names(after_marker: &str) -> Option<Names> {
    let inner = after_marker
        .trim_start()
        .strip_prefix("ignore[")?
        .split_once(']')?
        .0;
    let names: Vec<String> = inner
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if names.iter().any(|n| n == "*") {
        return Some(Names::All);
    }
    (!names.is_empty()).then_some(Names::Codes(names))
}

impl Suppression {
    /// Whether it covers the finding `code` of a statement on lines `first..=last`.
    pub fn covers(&self, code: Code, first: usize, last: usize) -> bool {
        let near = (first..=last).contains(&self.line) || (self.own_line && self.line + 1 == first);
        near && match &self.names {
            Names::All => true,
            Names::Codes(c) => c.iter().any(|n| Code::parse(n) == Some(code)),
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
                };
                (!names.is_empty()).then_some((s, names))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn markers_in_strings_or_outside_comments_or_without_codes_are_not_suppressions() {
        let text = concat!(
            "asm(\"// ptx2hip: ignore[U001]\");\n",
            "ptx2hip: ignore[U001]\n",
            "// ptx2hip: ignore[]\n",
            "// ptx2hip: ignore U001\n",
            "// see ptx2hip: ignore[U001]\n",
            "char c = '\"'; // ptx2hip: ignore[U002]\n",
            "// a comment // ptx2hip: ignore[U003]\n",
        );
        let s = find(text.as_bytes());
        let lines: Vec<usize> = s.iter().map(|s| s.line).collect();
        assert_eq!(lines, [6, 7]);
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
