//! PTX lexer, parser and printer for the statements found in inline asm templates.

//!
//! * [`lexer`]: bytes → tokens, resolving the inline-asm escapes (`%0`, `%[x]`, `%%`, `%=`).
//! * [`parser`]: tokens → [`Block`]; entry point [`parse`].
//! * [`print`]: `Display` impls printing canonical PTX in template form; `parse(&b.to_string())`
//!   gives back `b` (spans aside).

pub mod ast;
mod lexer;
pub mod opcodes;
pub mod parser;
mod print;

pub use ast::*;
pub use parser::parse;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

/// A PTX syntax error, positioned in the template text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct PtxError {
    pub message: String,
    /// Byte range in the template text.
    pub span: std::ops::Range<usize>,
}
