//! Finds inline `asm` statements in CUDA C++ sources with tree-sitter (tree-sitter-cuda).
//!
//! The scanner's job is to hand the later stages everything they need without them ever looking at
//! the source again: where the statement is (byte spans, line/column), its template text with C
//! string escapes decoded and adjacent literals joined, its operands and clobbers, and the context
//! that decides how a rewrite may be spliced in (inside a `#define` body, already NVIDIA-only).

mod cstrings;
mod guard;
mod literal;
mod lone_name;
mod macros;
mod position;
mod segment;
mod statement;
mod synthetic;
mod walk;

use std::ops::Range;

use tree_sitter::{Node, Parser, Tree};

use macros::Defines;
use position::{LineIndex, OffsetMap};
use statement::{Context, UNPARSABLE};

/// One inline asm statement found in a source file.
#[derive(Debug, Clone, PartialEq)]
pub struct AsmStatement {
    /// Bytes of the whole statement in the file, from the `asm` keyword through the closing `;`
    /// (the `expression_statement` node). This is what a rewrite replaces. Without a `;` (common in
    /// `#define` bodies) it is the asm expression alone; see `terminated`.
    pub span: Range<usize>,
    /// Whether `span` ends with the statement's `;`.
    pub terminated: bool,
    /// 1-based line and column (in bytes) of `span.start`.
    pub line: usize,
    pub column: usize,
    /// 1-based line and column of `span.end`.
    pub end_line: usize,
    pub end_column: usize,
    /// The keyword as written: `asm`, `__asm__` or `__asm`.
    pub keyword: String,
    /// Qualifiers as written, in order: `volatile`, `__volatile__`, `inline`, `goto`.
    pub qualifiers: Vec<String>,
    /// The assembler template.
    pub template: Template,
    pub outputs: Vec<Operand>,
    pub inputs: Vec<Operand>,
    /// Clobbers with quotes removed (`memory`, `cc`).
    pub clobbers: Vec<String>,
    pub goto_labels: Vec<String>,
    /// Leading whitespace of the line the statement starts on.
    pub indent: String,
    /// Set when the statement sits inside a `#define` body.
    pub in_macro: Option<MacroContext>,
}

impl AsmStatement {
    /// Whether the statement is `volatile` (any spelling).
    pub fn is_volatile(&self) -> bool {
        self.qualifiers
            .iter()
            .any(|q| q == "volatile" || q == "__volatile__")
    }

    /// Operands in `%N` order: outputs first, then inputs.
    pub fn operands(&self) -> impl Iterator<Item = &Operand> {
        self.outputs.iter().chain(self.inputs.iter())
    }

    pub fn has_clobber(&self, name: &str) -> bool {
        self.clobbers.iter().any(|c| c == name)
    }
}

/// The assembler template of a statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Template {
    /// Text fully known at scan time: escapes decoded, adjacent literals joined, string pieces that
    /// are object-like `#define`s of string literals in the same file substituted.
    Known {
        text: String,
        /// Maps template text offsets back to file byte offsets: sorted by `text_offset`; a text
        /// offset maps to `file_offset + (offset - text_offset)` of the last entry at or before it.
        /// Escape sequences get an entry of their own so positions after them stay exact.
        origins: Vec<Origin>,
    },
    /// The text cannot be known without the preprocessor (a macro that is not a same-file string
    /// `#define`, a function-like macro, a stringified parameter...).
    Unresolved {
        /// Why, in words a user understands: "template piece `PTX_LD` is a macro defined outside this file".
        reason: String,
        /// File byte offset of the piece that could not be resolved.
        at: usize,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Origin {
    pub text_offset: usize,
    pub file_offset: usize,
}

impl Template {
    /// File byte offset of a template text offset, if the template is known.
    pub fn file_offset(&self, text_offset: usize) -> Option<usize> {
        match self {
            Template::Known { origins, .. } => {
                let idx = origins.partition_point(|o| o.text_offset <= text_offset);
                let o = origins.get(idx.checked_sub(1)?)?;
                Some(o.file_offset + (text_offset - o.text_offset))
            }
            Template::Unresolved { .. } => None,
        }
    }
}

/// One asm operand: `[name] "constraint" (expression)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Operand {
    /// Symbolic name from `[name]`, if any.
    pub name: Option<String>,
    /// Constraint with quotes removed and escapes decoded: `=r`, `+l`, `n`, `C`, `=&r`.
    pub constraint: String,
    /// The C++ expression text exactly as written between the parentheses (inside a `#define`
    /// body: with its `\`-newline continuations joined).
    pub expr: String,
    /// File bytes of the expression.
    pub expr_span: Range<usize>,
    /// For a `"C"` operand: every string the expression can denote, found in the same file
    /// (e.g. the initializers of all `static constexpr char mode[]` specialisations that the
    /// expression's last identifier names). Empty when none were found or for other constraints.
    pub c_strings: Vec<String>,
}

/// Where a statement inside a `#define` body lives.
#[derive(Debug, Clone, PartialEq)]
pub struct MacroContext {
    /// Name of the macro.
    pub name: String,
    /// The body uses `\`-newline continuations; a rewrite must keep them.
    pub continued: bool,
}

/// A problem found while scanning, not tied to one statement's PTX.
#[derive(Debug, Clone, PartialEq)]
pub struct ScanDiagnostic {
    pub span: Range<usize>,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Result of scanning one file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScanResult {
    /// Statements that are candidates for translation, in file order. Empty templates (compiler
    /// barriers such as `asm volatile("" ::: "memory")`) and statements that only NVIDIA compiles
    /// (inside `#if !defined(__HIP_PLATFORM_AMD__)`, the `#else` of `#if defined(__HIP_PLATFORM_AMD__)`,
    /// or the NVIDIA arm that ptx2hip itself emitted) are not listed.
    pub statements: Vec<AsmStatement>,
    /// Asm-like text the scanner saw but could not take apart (e.g. `asm volatile(MACRO : ...)`).
    pub diagnostics: Vec<ScanDiagnostic>,
}

/// Cheap pre-filter: files without the bytes `asm` cannot contain inline asm and are not parsed.
pub fn may_contain_asm(bytes: &[u8]) -> bool {
    memchr::memmem::find(bytes, b"asm").is_some()
}

/// Finds the inline asm statements of one file. Never panics; broken code yields diagnostics.
pub fn scan(source: &[u8]) -> ScanResult {
    if !may_contain_asm(source) {
        return ScanResult::default();
    }
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .is_err()
    {
        return ScanResult::default();
    }
    let mut all = ScanResult::default();
    scan_segments(
        &mut parser,
        source,
        &segment::segments(source),
        &mut |part| {
            all.statements.extend(part.statements);
            all.diagnostics.extend(part.diagnostics);
        },
    );
    all
}

/// Like [`scan`], but hands over the results one segment at a time (in file order) so that a
/// caller can translate and drop them before the next segment is parsed. Files whose `"C"`
/// operands need strings from anywhere in the file are handed over whole.
pub fn scan_each(source: &[u8], each: &mut dyn FnMut(ScanResult)) {
    if !may_contain_asm(source) {
        return;
    }
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .is_err()
    {
        return;
    }
    scan_segments(&mut parser, source, &segment::segments(source), each);
}

/// Scans `source` one segment at a time: large files are parsed in pieces so that only one small
/// tree is alive; node offsets stay file offsets because the parser reads the whole buffer
/// through included ranges. Macros must be defined before use, so the defines seen so far are
/// all a segment can need.
fn scan_segments(
    parser: &mut Parser,
    source: &[u8],
    segments: &[Range<usize>],
    each: &mut dyn FnMut(ScanResult),
) {
    scan_parts(parser, source, segments, true, each)
}

/// [`scan_segments`], where `chunked` says whether a file in one segment may be parsed by its
/// relevant chunks only (false: the whole file, which tests compare against).
fn scan_parts(
    parser: &mut Parser,
    source: &[u8],
    segments: &[Range<usize>],
    chunked: bool,
    each: &mut dyn FnMut(ScanResult),
) {
    let streaming = memchr::memmem::find(source, b"\"C\"").is_none();
    let lines = LineIndex::new(source);
    let file_map = OffsetMap::identity(source.len());
    let mut result = ScanResult::default();
    let mut defines = Defines::default();
    // What each parse reads: a large file's segments one by one (skipping those without `asm` or
    // `define`), or the relevant chunks of a small one (whole files when `"C"` strings may live
    // anywhere).
    let units: Vec<Vec<Range<usize>>> = if chunked && segments.len() == 1 && streaming {
        vec![segment::relevant_chunks(source)]
    } else {
        segments
            .iter()
            .filter(|range| {
                let text = &source[(*range).clone()];
                segments.len() == 1
                    || may_contain_asm(text)
                    || memchr::memmem::find(text, b"define").is_some()
            })
            .map(|range| vec![range.clone()])
            .collect()
    };
    let masked = lone_name::masked(source);
    let parse_buf = masked.as_deref().unwrap_or(source);
    for ranges in &units {
        let Some(tree) = parse_ranges(parser, parse_buf, &lines, ranges) else {
            continue;
        };
        let mut found = Found::collect(tree.root_node(), source, true);
        defines.extend(std::mem::take(&mut found.defines));
        let file = Context {
            src: source,
            buf: source,
            map: &file_map,
            lines: &lines,
            defines: &defines,
            in_macro: None,
        };
        read_statements(&file, &found, &mut result);
        for def in &found.macros {
            scan_macro(parser, def, &file, &mut result);
        }
        if streaming {
            each(finish(std::mem::take(&mut result)));
        }
    }
    if !streaming {
        fill_c_strings(parser, source, &lines, segments, &mut result.statements);
        each(finish(result));
    }
}

fn finish(mut result: ScanResult) -> ScanResult {
    result.statements.sort_by_key(|s| s.span.start);
    result.diagnostics.sort_by_key(|d| d.span.start);
    result.diagnostics.dedup();
    result
}

/// Parses the `ranges` of `source` as if they were one text (the whole file when they cover it).
/// `source` may be a same-length copy of the file (see [`lone_name`]): offsets are file offsets.
fn parse_ranges(
    parser: &mut Parser,
    source: &[u8],
    lines: &LineIndex,
    ranges: &[Range<usize>],
) -> Option<Tree> {
    let point = |offset: usize| {
        let (line, column) = lines.line_col(offset);
        tree_sitter::Point {
            row: line - 1,
            column: column - 1,
        }
    };
    let included: Vec<tree_sitter::Range> = if ranges == [0..source.len()] {
        Vec::new()
    } else {
        ranges
            .iter()
            .map(|range| tree_sitter::Range {
                start_byte: range.start,
                end_byte: range.end,
                start_point: point(range.start),
                end_point: point(range.end),
            })
            .collect()
    };
    parser.set_included_ranges(&included).ok()?;
    let tree = parser.parse(source, None);
    // Macro bodies are parsed as separate buffers: they must see all of their text.
    parser.set_included_ranges(&[]).ok()?;
    tree
}

/// What one walk over a parsed buffer finds.
struct Found<'t> {
    asm: Vec<Hit<'t>>,
    /// `asm` keywords outside any asm node: tree-sitter could not parse the statement.
    orphans: Vec<Hit<'t>>,
    /// `#define`s whose body mentions `asm`.
    macros: Vec<Hit<'t>>,
    defines: Defines,
}

/// A node found by the walk, with what its ancestors tell about it.
struct Hit<'t> {
    node: Node<'t>,
    parent: Option<Node<'t>>,
    /// Nearest ERROR ancestor (for `asm` keywords tree-sitter could not place).
    error: Option<Node<'t>>,
    nv_only: bool,
}

impl<'t> Found<'t> {
    fn collect(root: Node<'t>, buf: &[u8], with_defines: bool) -> Self {
        let asm_hits = walk::occurrences(buf, &[b"asm"]);
        let needles: &[&[u8]] = if with_defines {
            &[b"asm", b"define"]
        } else {
            &[b"asm"]
        };
        let hits = walk::occurrences(buf, needles);
        let mut found = Found {
            asm: Vec::new(),
            orphans: Vec::new(),
            macros: Vec::new(),
            defines: Defines::default(),
        };
        walk::visit_hits(root, &hits, |node, ancestors| {
            let hit = || Hit {
                node,
                parent: ancestors.last().copied(),
                error: ancestors.iter().rev().find(|a| a.is_error()).copied(),
                nv_only: guard::is_nv_only(node, ancestors, buf),
            };
            match node.kind() {
                "gnu_asm_expression" => found.asm.push(hit()),
                "preproc_def" | "preproc_function_def" if with_defines => {
                    found.defines.add(node, buf);
                    let value = node
                        .child_by_field_name("value")
                        .map_or(0..0, |v| v.byte_range());
                    let i = asm_hits.partition_point(|&h| h < value.start);
                    if asm_hits.get(i).is_some_and(|&h| h < value.end) {
                        found.macros.push(hit());
                    }
                }
                "asm" | "__asm__" | "__asm" if !node.is_named() => found.orphans.push(hit()),
                _ => return true,
            }
            false
        });
        found
    }
}

fn read_statements(ctx: &Context, found: &Found, result: &mut ScanResult) {
    for asm in found.asm.iter().filter(|h| !h.nv_only) {
        match ctx.statement(asm.node, asm.parent) {
            Ok(Some(statement)) => result.statements.push(statement),
            Ok(None) => {}
            Err(diagnostic) => result.diagnostics.push(diagnostic),
        }
    }
    for keyword in found.orphans.iter().filter(|h| !h.nv_only) {
        let range = keyword.error.unwrap_or(keyword.node).byte_range();
        result.diagnostics.push(ctx.diagnostic(range, UNPARSABLE));
    }
}

/// Re-parses a `#define` body that mentions asm and reads its statements.
fn scan_macro(parser: &mut Parser, def: &Hit, file: &Context, result: &mut ScanResult) {
    if def.nv_only {
        return;
    }
    let def = def.node;
    let (Some(name), Some(value)) = (
        def.child_by_field_name("name"),
        def.child_by_field_name("value"),
    ) else {
        return;
    };
    // Bodies are usually statements; a body that is a whole function parses better at top level.
    let Some((body, tree)) = parse_body(parser, file.src, value.byte_range(), true) else {
        return;
    };
    let (body, tree) = if tree.root_node().has_error() {
        match parse_body(parser, file.src, value.byte_range(), false) {
            Some((b, t)) if count_asm(&t, &b.buf) > count_asm(&tree, &body.buf) => (b, t),
            _ => (body, tree),
        }
    } else {
        (body, tree)
    };
    let context = MacroContext {
        name: String::from_utf8_lossy(&file.src[name.byte_range()]).into_owned(),
        continued: macros::is_continued(&file.src[def.byte_range()]),
    };
    let ctx = Context {
        src: file.src,
        buf: &body.buf,
        map: &body.map,
        lines: file.lines,
        defines: file.defines,
        in_macro: Some((context, macros::parameters(def, file.src))),
    };
    read_statements(
        &ctx,
        &Found::collect(tree.root_node(), &body.buf, false),
        result,
    );
}

fn parse_body(
    parser: &mut Parser,
    src: &[u8],
    value: Range<usize>,
    wrap: bool,
) -> Option<(macros::Body, Tree)> {
    let body = macros::prepare_body(src, value, wrap);
    let masked = lone_name::masked(&body.buf);
    let tree = parser.parse(masked.as_deref().unwrap_or(&body.buf), None)?;
    Some((body, tree))
}

fn count_asm(tree: &Tree, buf: &[u8]) -> usize {
    Found::collect(tree.root_node(), buf, false).asm.len()
}

/// Fills `c_strings` of every `"C"` operand: one walk per segment that mentions a wanted name.
fn fill_c_strings(
    parser: &mut Parser,
    src: &[u8],
    lines: &LineIndex,
    segments: &[Range<usize>],
    statements: &mut [AsmStatement],
) {
    let is_c = |op: &Operand| op.constraint == "C";
    let mut names: Vec<String> = statements
        .iter()
        .flat_map(|s| s.operands())
        .filter(|op| is_c(op))
        .filter_map(|op| cstrings::last_identifier(&op.expr).map(str::to_string))
        .collect();
    if names.is_empty() {
        return;
    }
    names.sort_unstable();
    names.dedup();
    let wanted: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut values: std::collections::HashMap<String, Vec<String>> =
        std::collections::HashMap::new();
    for range in segments {
        let text = &src[range.clone()];
        if !wanted
            .iter()
            .any(|n| memchr::memmem::find(text, n.as_bytes()).is_some())
        {
            continue;
        }
        let Some(tree) = parse_ranges(parser, src, lines, std::slice::from_ref(range)) else {
            continue;
        };
        for (name, found) in cstrings::collect(tree.root_node(), src, &wanted) {
            let entry = values.entry(name).or_default();
            for v in found {
                if !entry.contains(&v) {
                    entry.push(v);
                }
            }
        }
    }
    for statement in statements.iter_mut() {
        for op in statement
            .outputs
            .iter_mut()
            .chain(statement.inputs.iter_mut())
            .filter(|op| is_c(op))
        {
            if let Some(v) = cstrings::last_identifier(&op.expr).and_then(|n| values.get(n)) {
                op.c_strings = v.clone();
            }
        }
    }
}

#[cfg(test)]
mod tests;
