//! Finds the inline PTX `asm` statements of CUDA C++ sources.
//!
//! The scanner's job is to hand the later stages everything they need without them ever looking at
//! the source again: where the statement is (byte spans, line/column), its template text as the
//! compiler sees it (escapes decoded, literals joined, macros expanded), its operands and clobbers,
//! and the context that decides how a rewrite may be spliced in (inside a `#define` body).
//!
//! It anchors on the bytes: a survey ([`nesting`]) finds every `asm`/`__asm__`/`__asm` keyword in
//! code with the brackets around it, and every preprocessor line; each keyword then ends as exactly
//! one of a statement, a
//! diagnostic at its own line, or a [`Skipped`] entry saying why it is not PTX to port (only
//! NVIDIA compiles it, NVIDIA never compiles it, a compiler barrier, another assembly dialect).
//! Each statement is read on its own from its [`extract`]ed extent (a template expander and a
//! small reader of the operand syntax, [`statement`]), so nothing around it can change how it
//! reads, and a large file costs little more than reading it. What encloses a statement (the
//! brackets, the `#if` arms) is read from the bytes too, so a second run over ptx2hip's own output
//! finds and decides exactly what the first did. tree-sitter (tree-sitter-cuda) is only used to
//! read the declarations that `"C"` operands name, each on its own.

mod arms;
mod conditional;
mod cstrings;
pub mod cuda_arch;
mod definitions;
mod dialect;
mod extract;
pub mod kernels;
mod literal;
mod macros;
mod nesting;
mod operand_type;
mod platform;
mod position;
pub mod progress;
mod statement;
mod synthetic;
mod template;
pub mod tensor_map;
mod tokens;
mod uses;
mod walk;

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;
use std::path::Path;

use tree_sitter::Parser;

pub use conditional::ArmAt;
use conditional::{Conditionals, Environments, Reach};
pub use dialect::Foreign;
use extract::Missing;
use macros::Defines;
pub use macros::HeaderRead;
use nesting::{Keyword, Survey};
pub use operand_type::{Declared, Seen, VisibleType};
pub use platform::Macros;
use position::LineIndex;
use statement::Reader;

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
    /// Set when the statement holds `#if` blocks that ptx2hip cannot decide for AMD: the
    /// statement read once per combination of their arms. The fields above are the first
    /// reading's.
    pub arms: Option<Arms>,
    /// The innermost `__CUDA_ARCH__` arm around the statement that the AMD device compilation
    /// takes for `--cuda-arch` (see [`cuda_arch`]).
    pub arch_arm: Option<ArmAt>,
}

/// An asm statement as each combination of arms of the `#if` blocks inside it reads, and the
/// directive lines that choose between them, in the order a rewrite puts them around the
/// readings' translations (see `scan::arms`).
#[derive(Debug, Clone, PartialEq)]
pub struct Arms {
    pub layout: Vec<ArmPiece>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ArmPiece {
    /// A directive line as written from its `#` (with its continuations), or an `#else` added to
    /// a group that has none.
    Directive(String),
    /// The statement as one combination of arms reads it (its own `arms` is `None`).
    Reading {
        /// Which arms, in words: "`#else` of `#if X`".
        arms: String,
        statement: Box<AsmStatement>,
    },
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

    /// The statement's readings per use of the `#define` it sits in, when its parameters make it.
    pub fn macro_uses(&self) -> Option<&MacroUses> {
        self.in_macro.as_ref().and_then(|m| m.uses.as_deref())
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
    /// The C++ type of the expression where the file shows it beyond doubt (a built-in
    /// variable, a whole cast, a plain name's declaration in scope; see `operand_type`), in a
    /// normal form (`unsigned int`, `__half`, `float*`), and where it was seen. `None` when
    /// unknown.
    pub visible_type: Option<VisibleType>,
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
    /// Set when pieces of the statement are the macro's parameters: the statement as each use
    /// of the macro in the file reads it (see `scan::uses`).
    pub uses: Option<Box<MacroUses>>,
}

/// A statement in a `#define` body whose template (or constraints) the macro's arguments make:
/// read once per distinct list of those arguments among the file's uses of the macro. A rewrite
/// defines one macro per list (a table after the `#define`) and puts in the body the name those
/// arguments select by token pasting (see `emit::uses`).
#[derive(Debug, Clone, PartialEq)]
pub struct MacroUses {
    /// The prefix of the table's names: `PTX2HIP_<macro>_<hash of the statement>`.
    pub prefix: String,
    /// The parameters whose arguments choose the translation, in order.
    pub keyed: Vec<String>,
    /// The parameters the operand expressions name: each table entry takes them as its own.
    pub passed: Vec<String>,
    /// An argument is not one name or number (`global.nc`, a string literal): the body compares
    /// the stringified arguments in C++ instead of pasting them (see `emit::uses`).
    pub compared: bool,
    /// Where the `#define` ends (before its newline): the table follows it.
    pub define_end: usize,
    pub readings: Vec<UseReading>,
}

/// The statement as the uses with one list of arguments read it.
#[derive(Debug, Clone, PartialEq)]
pub struct UseReading {
    /// The keyed parameters' arguments, as `#x` spells them.
    pub key: Vec<String>,
    /// The first such use, in words: "`LD(u32, cg)`".
    pub shown: String,
    /// The statement as it reads there (its own `in_macro.uses` is `None`).
    pub statement: Box<AsmStatement>,
}

/// A problem found while scanning, not tied to one statement's PTX.
#[derive(Debug, Clone, PartialEq)]
pub struct ScanDiagnostic {
    pub span: Range<usize>,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// An asm keyword that is not a statement to port, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Skipped {
    /// The statement (or the keyword, when no statement was read).
    pub span: Range<usize>,
    pub line: usize,
    pub column: usize,
    pub why: Skip,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// Only the NVIDIA compilation sees it: behind `#ifndef __HIP_PLATFORM_AMD__` and the like,
    /// or ptx2hip's own kept original (`#else` arm, `PTX2HIP_NV_ONLY(...)`).
    NvidiaOnly,
    /// NVIDIA device code never holds it: an AMD-only (`#ifdef USE_ROCM`) or host-only
    /// (`#ifndef __CUDA_ARCH__`) arm.
    NotNvidia,
    /// No compilation sees it (`#if 0`).
    NeverCompiled,
    /// The AMD device compilation takes another arm of a `__CUDA_ARCH__` chain for the
    /// architecture chosen with `--cuda-arch`: that arm, `None` when it takes none (only NVIDIA
    /// compiles the statement, for other architectures).
    OtherArch { taken: Option<ArmAt> },
    /// An empty template: a compiler barrier such as `asm volatile("" ::: "memory")`.
    Barrier,
    /// Another assembly dialect.
    NotPtx(Foreign),
    /// A macro that renames the keyword to another keyword (`#define __asm__ asm`).
    KeywordAlias,
}

/// Result of scanning one file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScanResult {
    /// Statements that are candidates for translation, in file order.
    pub statements: Vec<AsmStatement>,
    /// Asm the scanner saw but could not read, each at its own keyword.
    pub diagnostics: Vec<ScanDiagnostic>,
    /// Keywords that are not statements to port (see [`Skip`]).
    pub skipped: Vec<Skipped>,
    /// The `__CUDA_ARCH__` tokens that `translate` replaces by [`cuda_arch::MACRO`] for
    /// `--cuda-arch` (in the first part of a file handed over in parts).
    pub arch_tokens: Vec<Range<usize>>,
    /// Offsets of the conditions holding them.
    pub arch_conditions: Vec<usize>,
    /// The local headers the scan looked for (in the last part of a file handed over in parts).
    pub headers: Vec<macros::HeaderRead>,
}

/// Message for a statement among statements whose `;` does not follow it: a rewrite would need
/// to know where the statement ends.
pub const NOT_TERMINATED: &str = "this asm statement is not followed by its `;` (a syntax error, a macro, or an `#if` arm boundary between them): left as written";

/// What the scanner is told besides a file's bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Macros the user declares, deciding `#if`s the scanner cannot.
    pub macros: Macros,
}

/// Cheap pre-filter: files without the bytes `asm` cannot contain inline asm and are not parsed,
/// unless a line splice (`\` at a line end) may cut the keyword (`as\`, newline, `m`).
pub fn may_contain_asm(bytes: &[u8]) -> bool {
    memchr::memmem::find(bytes, b"asm").is_some() || splice_may_cut_asm(bytes)
}

/// Whether some line splice has `asm` across it once removed: a few name bytes each side are
/// enough to tell (the keyword is at most `__asm__`).
fn splice_may_cut_asm(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'\\', bytes).any(|at| {
        let after = match bytes.get(at + 1..at + 3) {
            Some([b'\r', b'\n']) => at + 3,
            Some([b'\n' | b'\r', ..]) => at + 2,
            _ => return false,
        };
        let before = &bytes[at.saturating_sub(6)..at];
        let after = &bytes[after..(after + 6).min(bytes.len())];
        let joined = [before, after].concat();
        memchr::memmem::find(&joined, b"asm").is_some()
    })
}

/// The text as the compiler reads its lines: a lone carriage return (old Mac line endings, or a
/// stray one) ends a line as a newline does. Byte for byte the same length, so every offset into
/// it is one into the file; borrowed when the file has none.
pub fn with_compiler_lines(source: &[u8]) -> Cow<'_, [u8]> {
    let lone = |&i: &usize| source.get(i + 1) != Some(&b'\n');
    if memchr::memchr_iter(b'\r', source).find(lone).is_none() {
        return Cow::Borrowed(source);
    }
    let mut text = source.to_vec();
    for i in memchr::memchr_iter(b'\r', source).filter(lone) {
        text[i] = b'\n';
    }
    Cow::Owned(text)
}

pub use nesting::{comments, BOM};

/// Whether `word` is one of the spellings of the asm keyword (`asm`, `__asm__`, `__asm`).
pub fn is_asm_keyword(word: &[u8]) -> bool {
    matches!(word, b"asm" | b"__asm__" | b"__asm")
}

/// Finds the inline asm statements of text without a file (no local headers) and no options.
/// Never panics; broken code yields diagnostics.
pub fn scan(source: &[u8]) -> ScanResult {
    scan_file(source, None, &Options::default())
}

/// Finds the inline asm statements of the file at `path` (which locates its local headers).
pub fn scan_file(source: &[u8], path: Option<&Path>, options: &Options) -> ScanResult {
    let mut all = ScanResult::default();
    scan_each(source, path, options, &mut |part| {
        all.statements.extend(part.statements);
        all.diagnostics.extend(part.diagnostics);
        all.skipped.extend(part.skipped);
        all.arch_tokens.extend(part.arch_tokens);
        all.arch_conditions.extend(part.arch_conditions);
    });
    all
}

/// Statements handed over at once when a file is scanned in parts.
const BATCH: usize = 4096;

/// Like [`scan_file`], but hands over the results in parts (in file order) so that a caller can
/// translate and drop them before the next part is read. Files whose `"C"` operands need strings
/// from anywhere in the file are handed over whole.
pub fn scan_each(
    source: &[u8],
    path: Option<&Path>,
    options: &Options,
    each: &mut dyn FnMut(ScanResult),
) {
    if !may_contain_asm(source) {
        return;
    }
    let text = with_compiler_lines(source);
    let source = &text[..];
    let survey = nesting::survey(source);
    if !survey.split_keywords.is_empty() {
        let lines = LineIndex::new(source);
        let mut result = ScanResult::default();
        for &at in &survey.split_keywords {
            let (line, column) = lines.line_col(at);
            result.diagnostics.push(ScanDiagnostic {
                span: at..at + 1,
                line,
                column,
                message: "an asm keyword cut by a line continuation (`\\` at the end of a line): the compiler joins it, ptx2hip does not read it; join the keyword's lines".into(),
            });
        }
        each(result);
    }
    if survey.keywords.is_empty() {
        return;
    }
    let envs = Environments::new(&options.macros);
    let arch = options
        .macros
        .cuda_arch
        .map(|_| {
            let differs = |word: &[u8], rest: &[u8]| {
                let with = envs.amd_device.condition(word, rest);
                with.is_none() || with != envs.amd_device_as_written.condition(word, rest)
            };
            cuda_arch::arch_chains(source, &survey.directives, &survey.keywords, &differs)
        })
        .unwrap_or_default();
    let conditionals = Conditionals::deciding(source, &survey.directives, &envs, &arch.decided);
    let lines = LineIndex::new(source);
    let defines = Defines::new(source, &survey, &conditionals, path, &envs);
    let file = File {
        src: source,
        survey: &survey,
        lines,
        conditionals: &conditionals,
        defines: &defines,
        cuda_arch: options.macros.cuda_arch.is_some(),
        code: std::cell::OnceCell::new(),
    };
    let streaming = memchr::memmem::find(source, b"\"C\"").is_none();
    let mut result = ScanResult {
        arch_tokens: arch.tokens,
        arch_conditions: arch.conditions,
        ..ScanResult::default()
    };
    // The file's code tokens, lexed once when an operand's declaration is looked for.
    let mut tokens = None;
    let mut read_until = 0;
    for keyword in &survey.keywords {
        // A keyword inside a statement already read (in its operands) belongs to that statement.
        if keyword.at < read_until {
            continue;
        }
        if let Some(end) = file.keyword(keyword, &mut result) {
            read_until = end;
        }
        if streaming && result.statements.len() >= BATCH {
            fill_visible_types(source, &survey, &mut tokens, &mut result.statements);
            each(std::mem::take(&mut result));
        }
    }
    if !streaming {
        fill_c_strings(source, &mut result.statements);
    }
    fill_visible_types(source, &survey, &mut tokens, &mut result.statements);
    drop(file);
    result.headers = defines.into_headers_read();
    each(result);
}

/// One file being scanned.
struct File<'a> {
    src: &'a [u8],
    survey: &'a Survey,
    lines: LineIndex,
    conditionals: &'a Conditionals,
    defines: &'a Defines<'a>,
    /// `--cuda-arch` is given: the `#if`s on `__CUDA_ARCH__` that choose between the arms of a
    /// statement choose between their translations on [`cuda_arch::MACRO`].
    cuda_arch: bool,
    /// The file's code tokens, lexed when a macro's uses are first looked for.
    code: std::cell::OnceCell<Vec<tokens::Token>>,
}

impl File<'_> {
    fn diagnostic(&self, span: Range<usize>, message: String) -> ScanDiagnostic {
        let (line, column) = self.lines.line_col(span.start);
        ScanDiagnostic {
            span,
            line,
            column,
            message,
        }
    }

    fn skip(&self, span: Range<usize>, why: Skip, result: &mut ScanResult) {
        let (line, column) = self.lines.line_col(span.start);
        result.skipped.push(Skipped {
            span,
            line,
            column,
            why,
        });
    }

    /// Reads the statement at `keyword` into `result`; returns where the statement ends.
    fn keyword(&self, keyword: &Keyword, result: &mut ScanResult) -> Option<usize> {
        let at = keyword.at..keyword.at + keyword.len;
        let reach = match self.conditionals.reach(keyword.at) {
            Reach::Both if keyword.in_nv_only_call => Reach::NvidiaOnly,
            reach => reach,
        };
        let define = keyword.define.map(|d| &self.survey.directives[d]);
        let limit = define.map_or(self.src.len(), |d| d.span.end);
        let extent = extract::extent(self.src, at.clone(), limit, define.is_some());
        let span = extent.as_ref().map_or(at.clone(), extract::Extent::span);
        let why = match reach {
            Reach::Both => None,
            Reach::NvidiaOnly => Some(match self.conditionals.arch_arm(keyword.at) {
                Some(taken) if !keyword.in_nv_only_call => Skip::OtherArch { taken },
                _ => Skip::NvidiaOnly,
            }),
            Reach::NotNvidia => Some(Skip::NotNvidia),
            Reach::Neither => Some(Skip::NeverCompiled),
        };
        if let Some(why) = why {
            self.skip(span.clone(), why, result);
            return Some(span.end);
        }
        let extent = match extent {
            Ok(e) => e,
            Err(missing) => {
                self.missing(keyword, define, missing, result);
                return None;
            }
        };
        if let Some((directive, why)) = self.misplaced_directive(&extent.directives) {
            // A rewrite would cut the `#if` block in two, or move the line; the keywords inside
            // are read on their own.
            result
                .diagnostics
                .push(self.directive_diagnostic(at, directive, why));
            return None;
        }
        let in_macro = define.and_then(|d| macros::define_head(self.src, d));
        let macro_context = define
            .zip(in_macro.clone())
            .map(|(d, (name, _))| MacroContext {
                name,
                continued: macros::is_continued(&self.src[d.span.clone()]),
                uses: None,
            });
        // Macros met with different definitions under `#if`s that no reading chose between.
        let ambiguous: std::cell::RefCell<Vec<Vec<u8>>> = Default::default();
        // A piece names a parameter of the `#define` the statement sits in.
        let needs_use = std::cell::Cell::new(false);
        let read_bound = |reading: &arms::Reading, bound: Option<&[Vec<tokens::Token>]>| {
            let mut blank = reading.blank.clone();
            blank.extend(extent.directives.iter().cloned());
            let expander = template::Expander {
                src: self.src,
                defines: self.defines,
                blank: &blank,
                in_macro: in_macro.as_ref().map(|(n, p)| (n.as_str(), p.as_slice())),
                chosen: &reading.chosen,
                ambiguous: Default::default(),
                bound,
                needs_use: Default::default(),
            };
            let read = |expander: &template::Expander| {
                let reader = Reader {
                    src: self.src,
                    lines: &self.lines,
                    expander,
                    blank: &blank,
                    place: keyword.place.clone(),
                    in_macro: macro_context.clone(),
                };
                if reading.blank.is_empty() {
                    return reader.read(&extent, expander.template(extent.template.clone()));
                }
                let mut seen = extent.clone();
                seen.template.end = extract::template_end(self.src, &extent, &blank);
                reader.read(&seen, expander.template(seen.template.clone()))
            };
            let statement = read(&expander);
            ambiguous.borrow_mut().extend(expander.ambiguous.take());
            needs_use.set(needs_use.get() || expander.needs_use.get());
            statement
        };
        let read = |reading: &arms::Reading| read_bound(reading, None);
        let inner = if extent.directives.is_empty() {
            Vec::new()
        } else {
            self.conditionals.inside(&extent.expr)
        };
        let (plan, too_many) = match arms::plan(self.src, &inner) {
            Ok(plan) => (plan, None),
            Err(too_many) => (too_many.plan, Some(too_many.first)),
        };
        let mut readings = Vec::with_capacity(plan.readings.len());
        for reading in &plan.readings {
            match read(reading) {
                Ok(statement) => readings.push(statement),
                Err(reason) => {
                    let arms = if reading.arms.is_empty() {
                        String::new()
                    } else {
                        format!(" (reading {})", reading.arms)
                    };
                    result.diagnostics.push(self.diagnostic(
                        at,
                        format!("could not read this asm statement{arms}: {reason}"),
                    ));
                    return Some(extent.span().end);
                }
            }
        }
        if readings.iter().all(|s| statement::is_barrier(s)) {
            self.skip(extent.span(), Skip::Barrier, result);
            return Some(extent.span().end);
        }
        if let Some(directive) = readings
            .iter()
            .find_map(|statement| self.in_an_operand(statement, &extent))
        {
            let why = "sits inside an operand expression, which a rewrite moves";
            result
                .diagnostics
                .push(self.directive_diagnostic(at, directive, why));
            return None;
        }
        let mut statement = if readings.len() == 1 {
            readings.swap_remove(0)
        } else {
            readings[0].clone()
        };
        if let Some(first) = too_many {
            statement.template = Template::Unresolved {
                reason: format!(
                    "the statement holds `{}` and other `#if`s that ptx2hip cannot decide for AMD, more than {} ways to read it (declare the macros with -D/-U)",
                    self.directive_line(first),
                    arms::MAX_READINGS
                ),
                at: first,
            };
        } else if readings.len() > 1 {
            self.with_arms(&plan, &readings, &mut statement);
        } else if let (true, Some(define), Some((name, params))) =
            (needs_use.get(), define, in_macro.as_ref())
        {
            let no_arms = arms::Reading::default();
            let read = |args: &[Vec<tokens::Token>]| read_bound(&no_arms, Some(args));
            match self.by_use(define, name, params, &extent, &read) {
                Ok(uses) => {
                    let mut first = uses.readings[0].statement.clone();
                    if let Some(context) = first.in_macro.as_mut() {
                        context.uses = Some(Box::new(uses));
                    }
                    statement = first;
                }
                Err(reason) => {
                    let at = match &statement.template {
                        Template::Unresolved { at, .. } => *at,
                        Template::Known { .. } => statement.span.start,
                    };
                    statement.template = Template::Unresolved { reason, at };
                }
            }
        } else if matches!(statement.template, Template::Unresolved { .. }) {
            let names = ambiguous.take();
            if !names.is_empty() {
                self.by_definition(&mut statement, &names, extent.span().start, &read);
            }
        }
        match dialect::foreign(&statement, self.after_declarator(keyword.at)) {
            Some(f) => self.skip(statement.span.clone(), Skip::NotPtx(f), result),
            // Among statements, where the statement ends must be known to rewrite it.
            None if !statement.terminated
                && statement.place == Place::Block
                && statement.in_macro.is_none() =>
            {
                result
                    .diagnostics
                    .push(self.diagnostic(at, NOT_TERMINATED.into()));
            }
            None => {
                statement.arch_arm = self.conditionals.taken_arch_arm(keyword.at);
                result.statements.push(*statement);
            }
        }
        Some(extent.span().end)
    }

    /// A statement read once per combination of arms of the `#if`s inside it that AMD may or may
    /// not compile (`statement` is the first reading): the readings and the directive lines
    /// between them go into `statement.arms`; its template is unresolved instead when a reading's
    /// is, or when no directive may go where the statement is.
    fn with_arms(
        &self,
        plan: &arms::Plan,
        readings: &[Box<AsmStatement>],
        statement: &mut AsmStatement,
    ) {
        let unresolved =
            plan.readings
                .iter()
                .zip(readings)
                .find_map(|(reading, s)| match &s.template {
                    Template::Unresolved { reason, at } => Some((reading, reason, *at)),
                    Template::Known { .. } => None,
                });
        if let Some((reading, reason, at)) = unresolved {
            statement.template = Template::Unresolved {
                reason: format!("{reason} (in the arm {})", reading.arms),
                at,
            };
            return;
        }
        if statement.place != Place::Block || statement.in_macro.is_some() {
            let first = plan
                .layout
                .iter()
                .find_map(|step| match step {
                    arms::Step::Directive(r) => Some(r.start),
                    _ => None,
                })
                .unwrap_or(statement.span.start);
            let place = if statement.in_macro.is_some() {
                "a `#define` body"
            } else {
                "parentheses (perhaps a macro's arguments)"
            };
            statement.template = Template::Unresolved {
                reason: format!(
                    "the statement holds `{}`, which ptx2hip cannot decide for AMD, inside {place}, where no directive may choose between translations of its arms (declare the macros with -D/-U)",
                    self.directive_line(first)
                ),
                at: first,
            };
            return;
        }
        let mut readings = readings.iter();
        let layout = plan
            .layout
            .iter()
            .filter_map(|step| match step {
                arms::Step::Directive(r) => {
                    let text = String::from_utf8_lossy(&self.src[r.clone()]);
                    let text = text.trim_end();
                    Some(ArmPiece::Directive(
                        self.cuda_arch
                            .then(|| cuda_arch::renamed(text))
                            .flatten()
                            .unwrap_or_else(|| text.to_string()),
                    ))
                }
                arms::Step::Else => Some(ArmPiece::Directive("#else".into())),
                arms::Step::Reading(n) => readings.next().map(|s| ArmPiece::Reading {
                    arms: plan.readings[*n].arms.clone(),
                    statement: s.clone(),
                }),
            })
            .collect();
        statement.arms = Some(Arms { layout });
    }

    /// A keyword with no statement after it.
    fn missing(
        &self,
        keyword: &Keyword,
        define: Option<&nesting::Directive>,
        missing: Missing,
        result: &mut ScanResult,
    ) {
        let at = keyword.at..keyword.at + keyword.len;
        let word = String::from_utf8_lossy(&self.src[at.clone()]).into_owned();
        let message = match (missing, define) {
            (Missing::Parenthesis, Some(d)) => {
                let name = macros::define_head(self.src, d).map(|(n, _)| n);
                if name
                    .as_deref()
                    .is_some_and(|n| is_asm_keyword(n.as_bytes()))
                {
                    self.skip(at, Skip::KeywordAlias, result);
                    return;
                }
                format!(
                    "`{word}` without a statement: macro `{}` renames the keyword, so statements written with it are not scanned",
                    name.unwrap_or_default()
                )
            }
            (Missing::Parenthesis, None) if self.is_msvc_block(at.end) => {
                self.skip(at, Skip::NotPtx(Foreign::Host), result);
                return;
            }
            (Missing::Parenthesis, None) => {
                format!("`{word}` is not followed by `(`: no asm statement could be read here")
            }
            (Missing::Close, _) => {
                format!("the parentheses of this `{word}` statement are not closed")
            }
        };
        result.diagnostics.push(self.diagnostic(at, message));
    }

    /// The first of `directives` (the preprocessor lines inside a statement) that a rewrite of the
    /// statement could not keep, and why: only whole `#if` blocks are understood there.
    fn misplaced_directive(&self, directives: &[Range<usize>]) -> Option<(usize, &'static str)> {
        let mut open = Vec::new();
        for d in directives {
            let text = self.src[d.start + 1..d.end].trim_ascii_start();
            let word = &text[..text.iter().take_while(|b| b.is_ascii_alphabetic()).count()];
            let outside = "belongs to an `#if` block that begins or ends outside it";
            match word {
                b"if" | b"ifdef" | b"ifndef" => open.push(d.start),
                b"elif" | b"elifdef" | b"elifndef" | b"else" if open.is_empty() => {
                    return Some((d.start, outside))
                }
                b"elif" | b"elifdef" | b"elifndef" | b"else" => {}
                b"endif" if open.pop().is_none() => return Some((d.start, outside)),
                b"endif" => {}
                _ => return Some((d.start, "is not an `#if` block")),
            }
        }
        open.first()
            .map(|&d| (d, "begins an `#if` block that ends outside it"))
    }

    /// A preprocessor line inside one of the statement's operand expressions, which a rewrite
    /// copies into a line of its own making.
    fn in_an_operand(&self, statement: &AsmStatement, extent: &extract::Extent) -> Option<usize> {
        extent
            .directives
            .iter()
            .map(|d| d.start)
            .find(|d| statement.operands().any(|op| op.expr_span.contains(d)))
    }

    fn directive_diagnostic(
        &self,
        at: Range<usize>,
        directive: usize,
        why: &str,
    ) -> ScanDiagnostic {
        self.diagnostic(
            at,
            format!(
                "`{}` inside this asm statement {why}: left as written",
                String::from_utf8_lossy(self.directive_text(directive)).trim()
            ),
        )
    }

    /// MSVC's x86 inline assembly: `__asm { ... }` or `__asm mov eax, 1` on one line.
    fn is_msvc_block(&self, after: usize) -> bool {
        let rest = &self.src[after..];
        let blanks = rest
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let next = rest.get(blanks);
        next == Some(&b'{') || (blanks > 0 && next.is_some_and(u8::is_ascii_alphabetic))
    }

    /// The directive line at `at`, trimmed.
    fn directive_line(&self, at: usize) -> String {
        String::from_utf8_lossy(self.directive_text(at))
            .trim()
            .to_string()
    }

    fn directive_text(&self, at: usize) -> &[u8] {
        let end = nesting::directive_end(self.src, at);
        &self.src[at..end]
    }

    /// Whether the code before `at` ends a declarator (`)`, `]` or a name): an asm label.
    fn after_declarator(&self, at: usize) -> bool {
        let before = self.src[..at].trim_ascii_end();
        before
            .last()
            .is_some_and(|b| matches!(b, b')' | b']') || b.is_ascii_alphanumeric() || *b == b'_')
            && !before.ends_with(b"else")
            && !before.ends_with(b"return")
    }
}

/// Fills `c_strings` of every `"C"` operand from the declarations that name it, each parsed on
/// its own (see [`nesting::declarations_naming`]).
fn fill_c_strings(src: &[u8], statements: &mut [AsmStatement]) {
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
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .is_err()
    {
        return;
    }
    let wanted: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut values: std::collections::HashMap<String, Vec<String>> =
        std::collections::HashMap::new();
    for declaration in nesting::declarations_naming(src, &wanted) {
        let text = &src[declaration];
        let Some(tree) = parser.parse(text, None) else {
            continue;
        };
        for (name, found) in cstrings::collect(tree.root_node(), text, &wanted) {
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

/// Fills `visible_type` of every operand whose type the file shows (see [`operand_type`]). A
/// name inside a `#define` body names a macro parameter or whatever the expansion site declares,
/// so only its spelling counts there; a type spelled with a word the file defines as a macro or a
/// type (`#define uint32_t ...`, `typedef ... uint32_t;`) is not known. `tokens`: the file's code
/// tokens, lexed on first need.
fn fill_visible_types(
    src: &[u8],
    survey: &Survey,
    tokens: &mut Option<operand_type::CodeTokens>,
    statements: &mut [AsmStatement],
) {
    let conditionals = operand_type::Conditionals::new(
        survey
            .directives
            .iter()
            .filter_map(|d| {
                let step = match d.word(src) {
                    b"if" | b"ifdef" | b"ifndef" => operand_type::Step::Open,
                    b"elif" | b"elifdef" | b"elifndef" | b"else" => operand_type::Step::Next,
                    b"endif" => operand_type::Step::Close,
                    _ => return None,
                };
                Some((d.span.start, step))
            })
            .collect(),
    );
    let mut redefined: Option<HashSet<Vec<u8>>> = None;
    for statement in statements.iter_mut() {
        let at = statement.span.start;
        let in_macro = statement.in_macro.is_some();
        for op in statement
            .outputs
            .iter_mut()
            .chain(statement.inputs.iter_mut())
        {
            let found = operand_type::of_expression(&op.expr).or_else(|| {
                let name = op.expr.trim();
                let identifier = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if in_macro || !identifier {
                    return None;
                }
                let tokens = tokens.get_or_insert_with(|| {
                    operand_type::CodeTokens::new(src, code_tokens(src, survey))
                });
                let before = tokens.spans.partition_point(|t| t.at < at);
                operand_type::declared(src, tokens, before, name, &conditionals)
            });
            op.visible_type = found.filter(|ty| {
                let redefined = redefined.get_or_insert_with(|| {
                    let tokens = tokens.get_or_insert_with(|| {
                        operand_type::CodeTokens::new(src, code_tokens(src, survey))
                    });
                    operand_type::redefined_words(src, &tokens.spans, &survey.directives)
                });
                ty.name
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .all(|w| !redefined.contains(w.as_bytes()))
            });
        }
    }
}

/// The tokens of `src` outside preprocessor lines.
fn code_tokens(src: &[u8], survey: &Survey) -> Vec<tokens::Span> {
    let all = tokens::spans(src, 0..src.len(), &[]);
    let mut directives = survey.directives.iter().peekable();
    all.into_iter()
        .filter(|t| {
            while directives.next_if(|d| d.span.end <= t.at).is_some() {}
            directives.peek().is_none_or(|d| t.at < d.span.start)
        })
        .collect()
}

#[cfg(test)]
mod tests;
