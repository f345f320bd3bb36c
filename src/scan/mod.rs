//! Finds inline `asm` statements in CUDA C++ sources with tree-sitter (tree-sitter-cuda).
//!
//! The scanner's job is to hand the later stages everything they need without them ever looking at
//! the source again: where the statement is (byte spans, line/column), its template text with C
//! string escapes decoded and adjacent literals joined, its operands and clobbers, and the context
//! that decides how a rewrite may be spliced in (inside a `#define` body, already NVIDIA-only).

use std::ops::Range;

/// One inline asm statement found in a source file.
#[derive(Debug, Clone, PartialEq)]
pub struct AsmStatement {
    /// Bytes of the whole statement in the file, from the `asm` keyword through the closing `;`
    /// (the `expression_statement` node). This is what a rewrite replaces.
    pub span: Range<usize>,
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
        self.qualifiers.iter().any(|q| q == "volatile" || q == "__volatile__")
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
    /// The C++ expression text exactly as written between the parentheses.
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
