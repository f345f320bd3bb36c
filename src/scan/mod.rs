//! Finds inline `asm` statements in CUDA C++ sources.
//!
//! The scanner's job is to hand the later stages everything they need without them ever looking at
//! the source again: where the statement is (byte spans, line/column), its template text with C
//! string escapes decoded and adjacent literals joined, its operands and clobbers, and the context
//! that decides how a rewrite may be spliced in (inside a `#define` body or a macro's arguments,
//! already NVIDIA-only).
//!
//! The file is read lexically ([`nesting`]): that finds the asm keywords and `#define`s and what
//! encloses each. Each statement is then parsed on its own with tree-sitter (tree-sitter-cuda): its
//! bytes, from the keyword through the closing parenthesis, as the only statement of a function.
//! What is found and how it reads thus depends on nothing but the statement's bytes and what
//! encloses them — never on how a parse of the whole file recovered from an error somewhere
//! else, which ptx2hip's own edits would change — and only the asm statements are parsed.

mod cstrings;
mod guard;
mod literal;
mod lone_name;
mod macros;
mod nesting;
mod position;
mod statement;
mod synthetic;
mod walk;

use std::ops::Range;

use tree_sitter::Parser;

use macros::Defines;
use nesting::{Event, NotAnAsm, Surroundings};
use position::{LineIndex, OffsetMap};
use statement::{Context, HAS_DIRECTIVE, UNPARSABLE};

/// One inline asm statement found in a source file.
#[derive(Debug, Clone, PartialEq)]
pub struct AsmStatement {
    /// Bytes of the whole statement in the file, from the `asm` keyword through the `;` that
    /// follows it (with only whitespace and comments between). This is what a rewrite replaces.
    /// Without a `;` (common in `#define` bodies and macro arguments) it is the asm expression
    /// alone; see `terminated`.
    pub span: Range<usize>,
    /// Whether `span` ends with the statement's `;`.
    pub terminated: bool,
    /// What encloses the statement: whether a rewrite may use preprocessor directives there.
    pub place: Place,
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

/// What encloses a statement (read from the bytes, see `nesting`), which decides what a rewrite
/// may put in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Only braces are open around it: it sits among statements, where `#if` may go.
    Block,
    /// Inside parentheses of its own, as in `NV_IF_TARGET(c, (asm(...);))`: perhaps in a macro
    /// invocation's arguments, so no directive may go there, but a comma stays inside them.
    Group,
    /// Directly in the argument list of what may be a function-like macro invocation,
    /// `MACRO(x, asm(...))` (empty `callee`: brackets that could not be told apart): no directive
    /// may go there, and a comma outside parentheses would split the argument.
    Argument { callee: String },
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
    let mut all = ScanResult::default();
    scan_each(source, &mut |part| {
        all.statements.extend(part.statements);
        all.diagnostics.extend(part.diagnostics);
    });
    all
}

/// Like [`scan`], but hands over the results a batch at a time (in file order) so that a caller
/// can translate and drop them before the next batch is read. Files whose `"C"` operands need
/// strings from anywhere in the file are handed over whole.
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
    scan_events(&mut parser, source, each);
}

/// Statements handed over at a time by [`scan_each`].
const BATCH: usize = 4096;

/// Reads the statements at the file's lexical events (see the module doc).
fn scan_events(parser: &mut Parser, source: &[u8], each: &mut dyn FnMut(ScanResult)) {
    let streaming = memchr::memmem::find(source, b"\"C\"").is_none();
    let lines = LineIndex::new(source);
    let events = nesting::events(source, true);
    let mut defines = Defines::default();
    let mut bodies = Vec::new();
    for event in &events {
        if let Event::Define { line, around } = event {
            if let Some(def) = macros::read_define(source, line.clone()) {
                defines.add(&def, source);
                if !around.nv_only && may_contain_asm(&source[def.value.clone()]) {
                    bodies.push(def);
                }
            }
        }
    }
    let file = Context {
        src: source,
        buf: source,
        map: &OffsetMap::identity(source.len()),
        lines: &lines,
        defines: &defines,
        in_macro: None,
    };
    let mut result = ScanResult::default();
    let mut bodies = bodies.into_iter().peekable();
    let mut covered = 0;
    for event in &events {
        let Event::Asm { at, around } = event else {
            continue;
        };
        while let Some(def) = bodies.next_if(|d| d.value.start < *at) {
            scan_macro(parser, &def, &file, &mut result);
        }
        // An asm inside another asm statement's operands is part of that statement.
        if *at >= covered && !around.nv_only {
            covered = read_asm(parser, &file, *at, around, &mut result);
        }
        if streaming && result.statements.len() >= BATCH {
            each(finish(std::mem::take(&mut result)));
        }
    }
    for def in bodies {
        scan_macro(parser, &def, &file, &mut result);
    }
    if !streaming {
        fill_c_strings(parser, source, &mut result.statements);
    }
    each(finish(result));
}

fn finish(mut result: ScanResult) -> ScanResult {
    result.statements.sort_by_key(|s| s.span.start);
    result.diagnostics.sort_by_key(|d| d.span.start);
    result.diagnostics.dedup();
    result
}

/// Reads the asm statement whose keyword is at `at` of the buffer that `scope` reads (the file,
/// or a `#define` body) into `result`, as a statement or a diagnostic; returns the buffer offset
/// where it ends.
fn read_asm(
    parser: &mut Parser,
    scope: &Context,
    at: usize,
    around: &Surroundings,
    result: &mut ScanResult,
) -> usize {
    let directives = scope.in_macro.is_none();
    let end = match nesting::asm_extent(scope.buf, at, directives) {
        Ok(end) => end,
        Err(why) => {
            let message = match why {
                NotAnAsm::Shape => UNPARSABLE,
                NotAnAsm::Directive => HAS_DIRECTIVE,
            };
            let keyword_end = at
                + scope.buf[at..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
            result
                .diagnostics
                .push(scope.diagnostic(at..keyword_end, message));
            return keyword_end;
        }
    };
    let semicolon = nesting::semicolon_after(scope.buf, end, directives)
        .map(|after| scope.map.to_file(after - 1) + 1);
    // The statement alone, as the only statement of a function.
    let alone = macros::prepare_body(scope.src, scope.map.range_to_file(at..end), true);
    let masked = lone_name::masked(&alone.buf);
    let tree = parser.parse(masked.as_deref().unwrap_or(&alone.buf), None);
    let asm = tree.as_ref().and_then(|t| {
        let keyword = t
            .root_node()
            .descendant_for_byte_range(alone.text.start, alone.text.start)?;
        let asm = keyword
            .parent()
            .filter(|a| a.kind() == "gnu_asm_expression")?;
        (asm.start_byte() == alone.text.start && asm.end_byte() == alone.text.end).then_some(asm)
    });
    let ctx = Context {
        buf: &alone.buf,
        map: &alone.map,
        in_macro: scope.in_macro.clone(),
        ..*scope
    };
    match asm.map(|asm| ctx.statement(asm, around, semicolon)) {
        Some(Ok(Some(statement))) => result.statements.push(statement),
        Some(Ok(None)) => {}
        Some(Err(diagnostic)) => result.diagnostics.push(diagnostic),
        None => result
            .diagnostics
            .push(scope.diagnostic(at..end, UNPARSABLE)),
    }
    end
}

/// Reads the statements of a `#define` body that mentions asm.
fn scan_macro(parser: &mut Parser, def: &macros::Define, file: &Context, result: &mut ScanResult) {
    let body = macros::prepare_body(file.src, def.value.clone(), false);
    let events = nesting::events(&body.buf, false);
    let body_scope = Context {
        buf: &body.buf,
        map: &body.map,
        in_macro: Some((
            MacroContext {
                name: String::from_utf8_lossy(&file.src[def.name.clone()]).into_owned(),
                continued: macros::is_continued(&file.src[def.line.clone()]),
            },
            def.params
                .iter()
                .flatten()
                .map(|p| &file.src[p.clone()])
                .collect(),
        )),
        ..*file
    };
    let mut covered = 0;
    for event in &events {
        if let Event::Asm { at, around } = event {
            if *at >= covered && !around.nv_only {
                covered = read_asm(parser, &body_scope, *at, around, result);
            }
        }
    }
}

/// Fills `c_strings` of every `"C"` operand from the declarations that name it, each parsed on
/// its own (see [`nesting::declarations_naming`]).
fn fill_c_strings(parser: &mut Parser, src: &[u8], statements: &mut [AsmStatement]) {
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
    for declaration in nesting::declarations_naming(src, &wanted) {
        let alone = macros::prepare_body(src, declaration, false);
        let Some(tree) = parser.parse(&alone.buf, None) else {
            continue;
        };
        for (name, found) in cstrings::collect(tree.root_node(), &alone.buf, &wanted) {
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
