//! PTX lexer, parser and printer for the statements found in inline asm templates.

pub mod ast;
pub use ast::*;

/// A PTX syntax error, positioned in the template text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct PtxError {
    pub message: String,
    /// Byte range in the template text.
    pub span: std::ops::Range<usize>,
}
