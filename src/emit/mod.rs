//! Emit: splices translations into the original bytes, adds the helper block, makes diffs.
//!
//! Everything outside the rewritten statements stays byte-for-byte identical: line endings, tabs,
//! trailing spaces and bytes that are not UTF-8. Rewrites follow the statement's indentation and
//! the file's line ending. Running the tool on its own output changes nothing: the NVIDIA arm of a
//! guarded rewrite is skipped by the scanner and the helper block is regenerated identically.

pub mod diff;
mod helpers;

use std::ops::Range;

use crate::lower::{render, RuleSet, Target, Translation};
use crate::scan::AsmStatement;

pub use helpers::{HELPERS_BEGIN, HELPERS_END};

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
    /// Helper functions the translation calls.
    pub helpers: Vec<String>,
    /// The statement sits in a `#define` body (guarded mode then needs the selection macros).
    pub in_macro: bool,
}

/// The line ending a rewrite uses: the file's own (CRLF if it has any).
pub fn newline_of(source: &[u8]) -> &'static str {
    if memchr::memmem::find(source, b"\r\n").is_some() {
        "\r\n"
    } else {
        "\n"
    }
}

/// The edit that puts `translation` in place of `stmt`.
pub fn edit(
    source: &[u8],
    stmt: &AsmStatement,
    translation: &Translation,
    mode: EmitMode,
    newline: &str,
) -> Edit {
    Edit {
        span: stmt.span.clone(),
        text: statement_text(source, stmt, translation, mode, newline),
        helpers: translation.helpers.clone(),
        in_macro: stmt.in_macro.is_some(),
    }
}

/// Applies `edits` (in file order) and installs the helper block.
pub fn apply(
    source: &[u8],
    edits: &[Edit],
    rules: &RuleSet,
    mode: EmitMode,
    target: Target,
) -> Rewrite {
    if edits.is_empty() {
        return Rewrite {
            bytes: source.to_vec(),
            splices: Vec::new(),
        };
    }
    let newline = newline_of(source);
    let mut out =
        Vec::with_capacity(source.len() + edits.iter().map(|e| e.text.len()).sum::<usize>());
    let mut splices = Vec::with_capacity(edits.len() + 1);
    let mut copied = 0;
    let mut helper_names: Vec<String> = Vec::new();
    let mut needs_macro_guards = false;
    for e in edits {
        for h in &e.helpers {
            if !helper_names.contains(h) {
                helper_names.push(h.clone());
            }
        }
        needs_macro_guards |= e.in_macro && mode == EmitMode::Guarded;
        out.extend_from_slice(&source[copied..e.span.start]);
        let start = out.len();
        out.extend_from_slice(e.text.as_bytes());
        splices.push(Splice {
            old: e.span.clone(),
            new: start..out.len(),
        });
        copied = e.span.end;
    }
    out.extend_from_slice(&source[copied..]);
    let first_use = edits.iter().map(|e| e.span.start).min().unwrap_or(0);
    // Statement splices are in `out` coordinates so far; the block then changes `out` in place.
    let old_block_text;
    let block = {
        old_block_text = helpers::find_block(&out)
            .map(|(s, e)| out[s..e].to_vec())
            .unwrap_or_default();
        helpers::install(
            &mut out,
            first_use,
            rules,
            &helper_names,
            needs_macro_guards,
            mode,
            target,
            newline,
        )
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
    Rewrite { bytes, splices }
}

/// The replacement text for one statement's span.
fn statement_text(
    source: &[u8],
    stmt: &AsmStatement,
    t: &Translation,
    mode: EmitMode,
    nl: &str,
) -> String {
    let unit = if stmt.indent.contains('\t') {
        "\t"
    } else {
        "  "
    };
    let original = String::from_utf8_lossy(&source[stmt.span.clone()]);
    if stmt.in_macro.is_some() {
        // Inside a #define body: no directives possible, every line must end with `\`.
        let body = render(&t.lines, "", " ")
            .iter()
            .map(|l| l.trim_start().to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let body = if stmt.terminated {
            body
        } else {
            format!("do {body} while (0)")
        };
        return match mode {
            EmitMode::Replace => body,
            EmitMode::Guarded => format!("PTX2HIP_AMD_ONLY({body}) PTX2HIP_NV_ONLY({original})"),
        };
    }
    let rendered = render(&t.lines, &stmt.indent, unit);
    let line_start = source[..stmt.span.start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let starts_line = source[line_start..stmt.span.start]
        .iter()
        .all(|b| b.is_ascii_whitespace());
    let line_end = source[stmt.span.end..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(source.len(), |p| stmt.span.end + p);
    let ends_line = source[stmt.span.end..line_end]
        .iter()
        .all(|b| b.is_ascii_whitespace());
    let body = if stmt.terminated {
        rendered.join(nl)
    } else {
        format!(
            "{}do {} while (0)",
            stmt.indent,
            rendered.join(nl).trim_start()
        )
    };
    let mut text = String::new();
    if mode == EmitMode::Replace && rendered.len() == 1 && stmt.terminated {
        // A one-line translation takes the statement's place on its line.
        return rendered[0].trim_start().to_string();
    }
    if !starts_line {
        text.push_str(nl);
        text.push_str(&stmt.indent);
    }
    match mode {
        EmitMode::Replace => text.push_str(body.trim_start()),
        EmitMode::Guarded => {
            let ind = &stmt.indent;
            text.push_str(AMD_CONDITION);
            text.push_str(nl);
            text.push_str(&body);
            text.push_str(&format!("{nl}{ind}#else{nl}{ind}{original}{nl}{ind}#endif"));
        }
    }
    if !ends_line {
        text.push_str(nl);
        text.push_str(&stmt.indent);
    }
    text
}
