//! Emit: splices translations into the original bytes, adds the helper block, makes diffs.
//!
//! Everything outside the rewritten statements stays byte-for-byte identical: line endings, tabs,
//! trailing spaces and bytes that are not UTF-8 (a rewrite that must start on a line of its own
//! also takes the spaces before it, so that no line ends in whitespace). Rewrites follow the
//! statement's indentation and the file's line ending. Running the tool on its own output changes
//! nothing: the NVIDIA arm of a guarded rewrite is skipped by the scanner and the helper block is
//! regenerated identically.
//!
//! Where a statement may sit in the arguments of a function-like macro invocation (anywhere inside
//! parentheses: `NV_IF_TARGET(c, (asm(...);))`, `MACRO(x, asm(...))`) or in a `#define` body, a
//! preprocessor directive would be undefined behaviour, so a guarded rewrite selects with the
//! variadic macros `PTX2HIP_AMD_ONLY(...) PTX2HIP_NV_ONLY(...)` instead. A rewrite there replaces the
//! asm expression's tokens only, so it is right however the invocation expands; in an argument list
//! a translation with a comma outside parentheses becomes a lambda called at once,
//! `([&] { ... }())`, whose commas no macro splits, however often it passes the argument on.

pub mod cuda_arch;
pub mod diff;
pub mod entry;
pub mod header;
mod helpers;
mod layout;
mod lines;
mod provenance;
pub mod record;
pub mod tensor_map;
mod uses;
pub mod verify;

use std::ops::Range;

use crate::codes::Code;
use crate::lower::{render, RuleSet, Translation};
use crate::scan::{AsmStatement, Place};

pub use helpers::{
    helper_block_range, include_spelling, needs_of, recorded, relink, Needs, Placement,
    HELPERS_BEGIN, HELPERS_END,
};
pub use layout::same_up_to_layout;
pub use lines::Lines;

/// How a translation is put into the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmitMode {
    /// `#if defined(__HIP_PLATFORM_AMD__)` translation `#else` original `#endif`.
    Guarded,
    /// The translation replaces the asm statement.
    Replace,
}

/// The platform test of a guarded rewrite.
pub const AMD_CONDITION: &str = "#if defined(__HIP_PLATFORM_AMD__)";

/// A file after rewriting, with where it changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Rewrite {
    pub bytes: Vec<u8>,
    /// Changed regions, in order: bytes `old` of the source became bytes `new` of `bytes`; everything
    /// between them is identical. The diff is built from these instead of a diff algorithm.
    pub splices: Vec<Splice>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Splice {
    pub old: Range<usize>,
    pub new: Range<usize>,
}

/// The replacement of one translated statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    pub span: Range<usize>,
    pub text: String,
    /// Bytes at the start of `text` that only end the line before it: not needed when the
    /// rewrite before it on that line already ended the line.
    pub lead: usize,
    /// `text` ends by ending its line (the rest of the source line follows on a new one).
    pub ends_line: bool,
    /// Helper functions the translation calls.
    pub helpers: Vec<String>,
    /// No directive may go there (guarded mode then needs the selection macros).
    pub selects: bool,
    /// The edit alone is a reason to rewrite the file: a translation, or a marker changed or
    /// removed. A new marker only goes along with those (see [`marker`]).
    pub significant: bool,
}

/// The line ending of the helper block: the file's usual one (CRLF where most lines end so).
/// Statements use their own line's ending (see [`edit`]): one CRLF line in an LF file does not
/// make every inserted line CRLF.
pub fn newline_of(source: &[u8]) -> &'static str {
    let lf = memchr::memchr_iter(b'\n', source).count();
    let crlf = memchr::memmem::find_iter(source, b"\r\n").count();
    let cr = memchr::memchr_iter(b'\r', source).count() - crlf;
    if cr > lf {
        "\r"
    } else if crlf > lf - crlf {
        "\r\n"
    } else {
        "\n"
    }
}

/// Whether `code`, put where `stmt` is, would split the macro argument the statement may be
/// (`MACRO(x, asm(...))`): a comma outside parentheses would, even inside `PTX2HIP_AMD_ONLY(...)`
/// once a macro passes its argument on to another (the argument is expanded before).
fn splits_an_argument(stmt: &AsmStatement, code: &str) -> bool {
    matches!(stmt.place, Place::Argument { .. }) && has_top_level_comma(code)
}

/// `code` (statements) as one parenthesised expression statement, a lambda called at once:
/// `([&] { code }())`, and its `;` where the statement had one. Parentheses protect its commas
/// through every macro that passes it on; the lambda captures by reference, so it reads and
/// writes the operands' objects as the statement did, and compilers inline it. Standard C++ for
/// nvcc and HIP alike, where a GNU statement expression `({ ... })` is an extension.
fn parenthesised(code: &str, terminated: bool) -> String {
    let end = if terminated { ";" } else { "" };
    let code = code.trim();
    if is_one_block(code) {
        format!("([&] {code}()){end}")
    } else {
        format!("([&] {{ {code} }}()){end}")
    }
}

/// Whether `code` has a comma that no parentheses enclose.
fn has_top_level_comma(code: &str) -> bool {
    let mut depth = 0i32;
    for (_, c) in outside_literals(code) {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => return true,
            _ => {}
        }
    }
    false
}

/// `code` is one `{ ... }` block: its first brace closes at its end.
fn is_one_block(code: &str) -> bool {
    let mut depth = 0i32;
    for (k, c) in outside_literals(code) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k + 1 == code.len();
                }
            }
            _ if depth == 0 => return false,
            _ => {}
        }
    }
    false
}

/// The characters of `code` (with their offsets) outside string and character literals.
fn outside_literals(code: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut quote = None;
    let mut escaped = false;
    code.char_indices().filter(move |&(_, c)| match quote {
        Some(q) => {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            false
        }
        None => {
            if matches!(c, '"' | '\'') {
                quote = Some(c);
                return false;
            }
            true
        }
    })
}

/// The edits that put `translation` in place of `stmt` (with a comment naming its rules when
/// `provenance` is set), removing the marker of an earlier run that could not translate it.
#[allow(clippy::too_many_arguments)]
pub fn edit(
    source: &[u8],
    lines: &Lines,
    stmt: &AsmStatement,
    translation: &Translation,
    mode: EmitMode,
    newline: &str,
    provenance: bool,
) -> Vec<Edit> {
    let note = provenance.then(|| provenance::rules_note(&translation.rules, &translation.fast));
    let nl = lines.ending_of(source, stmt.span.start, newline);
    let indent = indent_at(source, lines, stmt.span.start);
    let mut table = None;
    let mut edit = if let Some(macro_uses) = stmt.macro_uses() {
        let original = String::from_utf8_lossy(&source[stmt.span.clone()]);
        let (body, entries) = uses::edits(
            source,
            stmt,
            macro_uses,
            translation,
            &original,
            mode,
            nl,
            note.as_deref(),
        );
        table = entries;
        body
    } else if indent == stmt.indent {
        statement_text(source, stmt, translation, mode, nl, note.as_deref())
    } else {
        let stmt = AsmStatement {
            indent,
            ..stmt.clone()
        };
        statement_text(source, &stmt, translation, mode, nl, note.as_deref())
    };
    edit.helpers.clone_from(&translation.helpers);
    edit.selects = !directives_allowed(source, stmt);
    let Some(old) = provenance::existing_marker(source, lines, stmt.span.start) else {
        return [edit].into_iter().chain(table).collect();
    };
    let old = old.range;
    // A rewrite that starts a line of its own takes the spaces before it, and the marker's too.
    let mut start = old.start;
    if edit.lead > 0 {
        start -= source[..start]
            .iter()
            .rev()
            .take_while(|b| is_blank(b))
            .count();
    }
    let end = old.end.min(edit.span.start);
    [plain_edit(start..end, String::new(), true), edit]
        .into_iter()
        .chain(table)
        .collect()
}

/// The marker comment that says why `stmt` stays as written: `None` when the same marker is
/// already there. It is inserted only in a file that is rewritten anyway: a file with nothing
/// translated is not touched.
pub fn marker(
    source: &[u8],
    lines: &Lines,
    stmt: &AsmStatement,
    code: Code,
    reason: &str,
    nl: &str,
) -> Option<Edit> {
    let note = provenance::marker_note(code, reason);
    let start = stmt.span.start;
    let line_start = lines.start_of(start);
    let own_line = directives_allowed(source, stmt)
        && source[line_start..start]
            .iter()
            .all(|b| matches!(b, b' ' | b'\t'));
    let (at, text) = if own_line {
        let indent = String::from_utf8_lossy(&source[line_start..start]).into_owned();
        let ending = lines.ending_of(source, start, nl);
        (
            line_start,
            format!("{indent}{}{ending}", provenance::block_comment(&note)),
        )
    } else {
        (start, format!("{} ", provenance::block_comment(&note)))
    };
    match provenance::existing_marker(source, lines, start) {
        Some(old) if old.says(&note) => None,
        Some(old) => Some(plain_edit(old.range, text, true)),
        None => Some(plain_edit(at..at, text, false)),
    }
}

/// The spaces and tabs that start the line holding `at`; a lone CR ends a line too (a file of
/// CR-only line endings keeps its indentation).
fn indent_at(source: &[u8], lines: &Lines, at: usize) -> String {
    let start = lines.start_of(at);
    let len = source[start..at]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    String::from_utf8_lossy(&source[start..start + len]).into_owned()
}

/// The rest of the line (`rest` runs to the end of the file) holds nothing a `//` comment could
/// swallow: spaces and tabs, then a line ending (a lone CR ends a line for compilers too).
fn ends_its_line(rest: &[u8]) -> bool {
    let blanks = rest
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    matches!(&rest[blanks..], [] | [b'\n', ..] | [b'\r', ..])
}

/// An edit of text that is neither a statement nor a helper (a marker comment, a directive's
/// condition).
pub(crate) fn plain_edit(span: Range<usize>, text: String, significant: bool) -> Edit {
    Edit {
        span,
        text,
        lead: 0,
        ends_line: false,
        helpers: Vec::new(),
        selects: false,
        significant,
    }
}

/// Directives may go only among statements, outside `#define` bodies, and not after a stray
/// backslash on the statement's line (the line break before the `#if` would join it to that line).
fn directives_allowed(source: &[u8], stmt: &AsmStatement) -> bool {
    let before = source[..stmt.span.start].trim_ascii_end();
    stmt.in_macro.is_none() && stmt.place == Place::Block && !before.ends_with(b"\\")
}

/// Applies `edits` (in file order) and installs the helper block (defining the helpers, or
/// including the shared header, as `placement` says, with `record` saying what wrote it); an
/// error when the file's helper block may not be regenerated (see [`helpers::install`]).
pub fn apply(
    source: &[u8],
    edits: &[Edit],
    rules: &RuleSet,
    record: &record::Record,
    placement: Placement,
) -> Result<Rewrite, String> {
    let (mode, target) = (record.mode, record.settings.target);
    if edits.is_empty() {
        return Ok(Rewrite {
            bytes: source.to_vec(),
            splices: Vec::new(),
        });
    }
    let newline = newline_of(source);
    let mut out =
        Vec::with_capacity(source.len() + edits.iter().map(|e| e.text.len()).sum::<usize>());
    let mut splices = Vec::with_capacity(edits.len() + 1);
    let mut copied = 0;
    let mut ended_line = false;
    let mut helper_names: Vec<String> = Vec::new();
    let mut needs_macro_guards = false;
    for e in edits {
        for h in &e.helpers {
            if !helper_names.contains(h) {
                helper_names.push(h.clone());
            }
        }
        needs_macro_guards |= e.selects && mode == EmitMode::Guarded;
        // An edit wholly before what is already copied would copy those bytes again: edits out
        // of order are a fault of the caller, and the file is left as it is.
        if e.span.end < copied {
            return Err(format!(
                "internal error: overlapping rewrites at bytes {}..{} and before {copied}; the file is left unchanged",
                e.span.start, e.span.end
            ));
        }
        // Two statements on one line may both claim the spaces between them, and both end the
        // line between them: once is enough.
        let mut old = e.span.start.max(copied)..e.span.end;
        let mut text = e.text.as_str();
        let between = &source[copied.min(old.start)..old.start];
        if ended_line && e.lead > 0 && between.iter().all(is_blank) {
            old.start = copied;
            text = &text[e.lead..];
        }
        out.extend_from_slice(&source[copied..old.start]);
        let start = out.len();
        out.extend_from_slice(text.as_bytes());
        splices.push(Splice {
            old: old.clone(),
            new: start..out.len(),
        });
        copied = old.end;
        ended_line = e.ends_line;
    }
    out.extend_from_slice(&source[copied..]);
    let first_use = edits.iter().map(|e| e.span.start).min().unwrap_or(0);
    // Statement splices are in `out` coordinates so far; the block then changes `out` in place.
    if helper_names.is_empty() && !needs_macro_guards && helpers::find_block(&out).is_none() {
        // Comments only: no helper block to install.
        return Ok(Rewrite {
            bytes: out,
            splices,
        });
    }
    let old_block_text;
    let block = {
        old_block_text = helpers::find_block(&out)
            .map(|b| out[b.range].to_vec())
            .unwrap_or_default();
        helpers::install(
            &mut out,
            first_use,
            rules,
            &helper_names,
            needs_macro_guards,
            mode,
            target,
            placement,
            &record.to_string(),
            newline,
        )?
    };
    let bytes = out;
    // The block replaced `block.old` of `out`, a region no statement splice touches: map it back
    // to source offsets and shift the statement splices after it.
    let before: Vec<&Splice> = splices
        .iter()
        .filter(|s| s.new.end <= block.old.start)
        .collect();
    let shift_before: isize = before
        .iter()
        .map(|s| s.new.len() as isize - s.old.len() as isize)
        .sum();
    let old_start = (block.old.start as isize - shift_before) as usize;
    let block_splice = Splice {
        old: old_start..old_start + block.old.len(),
        new: block.new.clone(),
    };
    let delta = block.new.len() as isize - block.old.len() as isize;
    let at = before.len();
    for s in &mut splices[at..] {
        s.new = (s.new.start as isize + delta) as usize..(s.new.end as isize + delta) as usize;
    }
    if old_block_text != bytes[block.new.clone()] {
        splices.insert(at, block_splice);
    }
    Ok(Rewrite { bytes, splices })
}

/// Whitespace within a line (a CR not followed by a newline included).
fn is_blank(b: &u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// The replacement for one statement: the bytes it replaces (the statement's span, widened over
/// the spaces around it where the rewrite starts or ends a line of its own) and the new text.
fn statement_text(
    source: &[u8],
    stmt: &AsmStatement,
    t: &Translation,
    mode: EmitMode,
    nl: &str,
    note: Option<&str>,
) -> Edit {
    let edit = |span: Range<usize>, text: String, lead: usize, ends_line: bool| Edit {
        span,
        text,
        lead,
        ends_line,
        helpers: Vec::new(),
        selects: false,
        significant: true,
    };
    let unit = if stmt.indent.contains('\t') {
        "\t"
    } else {
        "  "
    };
    let span = stmt.span.clone();
    let original = String::from_utf8_lossy(&source[span.clone()]);
    let lines: Vec<String> = if stmt.in_macro.is_some() {
        // Inside a #define body every line would need a `\`: one line.
        vec![render(&t.lines, "", " ")
            .iter()
            .map(|l| l.trim())
            .collect::<Vec<_>>()
            .join(" ")]
    } else {
        render(&t.lines, &stmt.indent, unit)
            .iter()
            .map(|l| l.trim_end().to_string())
            .collect()
    };
    let code = lines.join(nl);
    let body = if stmt.terminated {
        code.clone()
    } else {
        format!("{}do {} while (0)", stmt.indent, code.trim_start())
    };
    if !directives_allowed(source, stmt) {
        let body = if splits_an_argument(stmt, &code) {
            parenthesised(&code, stmt.terminated)
        } else {
            body
        };
        let body = body.trim_start();
        let body = match note {
            Some(n) => format!("{} {body}", provenance::block_comment(n)),
            None => body.to_string(),
        };
        let text = match mode {
            EmitMode::Replace => body.to_string(),
            EmitMode::Guarded => format!("PTX2HIP_AMD_ONLY({body}) PTX2HIP_NV_ONLY({original})"),
        };
        return edit(span, text, 0, false);
    }
    if mode == EmitMode::Replace && lines.len() == 1 && stmt.terminated {
        // A one-line translation takes the statement's place on its line; its note follows it,
        // or precedes it where code follows on the line.
        let code = lines[0].trim_start();
        let text = match note {
            None => code.to_string(),
            Some(n) if ends_its_line(&source[span.end..]) => {
                format!("{code} {}", provenance::line_comment(n))
            }
            Some(n) => format!("{} {code}", provenance::block_comment(n)),
        };
        return edit(span, text, 0, false);
    }
    // Directives need lines of their own: a line that ends in a lone CR is not one.
    let before = source[..span.start]
        .iter()
        .rev()
        .take_while(|b| is_blank(b))
        .count();
    let starts_line = matches!(&source[..span.start - before], [] | [.., b'\n']);
    let after = source[span.end..]
        .iter()
        .take_while(|b| is_blank(b))
        .count();
    let ends_line = matches!(&source[span.end + after..], [] | [b'\n', ..]);
    let mut text = String::new();
    let mut span = span;
    if !starts_line {
        span.start -= before;
        text.push_str(nl);
        text.push_str(&stmt.indent);
    }
    match mode {
        EmitMode::Replace => {
            if let Some(n) = note {
                text.push_str(&provenance::line_comment(n));
                text.push_str(nl);
                text.push_str(&stmt.indent);
            }
            text.push_str(body.trim_start());
        }
        EmitMode::Guarded => {
            let ind = &stmt.indent;
            text.push_str(AMD_CONDITION);
            if let Some(n) = note {
                text.push(' ');
                text.push_str(&provenance::line_comment(n));
            }
            text.push_str(nl);
            text.push_str(&body);
            text.push_str(&format!("{nl}{ind}#else{nl}{ind}{original}{nl}{ind}#endif"));
        }
    }
    if !ends_line {
        span.end += after;
        text.push_str(nl);
        text.push_str(&stmt.indent);
    }
    let lead = if starts_line {
        0
    } else {
        nl.len() + stmt.indent.len()
    };
    edit(span, text, lead, !ends_line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_out_of_order_are_an_error_not_a_second_copy_of_the_source() {
        let rules = RuleSet::embedded().unwrap();
        let target = crate::lower::Target::Amd;
        let record = record::Record::current(target.into(), EmitMode::Guarded, false, None);
        let source = b"int a; int b;";
        let edits = [
            plain_edit(4..5, "x".into(), true),
            plain_edit(0..0, "// before\n".into(), true),
        ];
        let applied = apply(source, &edits, &rules, &record, Placement::Inline);
        assert!(applied.is_err_and(|e| e.contains("overlapping rewrites")));
        let in_order = [edits[1].clone(), edits[0].clone()];
        let applied = apply(source, &in_order, &rules, &record, Placement::Inline).unwrap();
        assert_eq!(applied.bytes, b"// before\nint x; int b;");
    }

    #[test]
    fn only_commas_outside_parentheses_and_literals_split_an_argument() {
        assert!(has_top_level_comma("{ uint32_t a, b; }"));
        assert!(has_top_level_comma("f<int, int>(x);"));
        assert!(!has_top_level_comma("d = f(a, b);"));
        assert!(!has_top_level_comma("s = \",\"; c = ',';"));
    }

    #[test]
    fn a_translation_in_a_macro_argument_is_one_parenthesised_lambda_call() {
        assert_eq!(
            parenthesised("{\n  uint32_t a, b;\n}", true),
            "([&] {\n  uint32_t a, b;\n}());"
        );
        assert_eq!(
            parenthesised("a = f<int, int>(x); b = a;", false),
            "([&] { a = f<int, int>(x); b = a; }())"
        );
        assert_eq!(
            parenthesised("{ a = 1, 2; } { b = 3; }", false),
            "([&] { { a = 1, 2; } { b = 3; } }())"
        );
        assert!(!has_top_level_comma(&parenthesised(
            "{ uint32_t a, b; }",
            true
        )));
    }
}
