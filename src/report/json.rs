//! JSON findings (schema documented in the README).

use serde::Serialize;

use crate::pipeline::{FileDiagnostic, Finding};

/// One finding: a non-portable asm statement, or a file-level problem.
#[derive(Debug, Serialize)]
pub struct JsonFinding {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    /// PTX instruction forms as written, in order.
    pub instructions: Vec<String>,
    /// `translatable` or `unsupported`.
    pub status: &'static str,
    /// Codes of the rules that translate the statement (empty when unsupported).
    pub rules: Vec<String>,
    pub message: String,
}

pub fn finding_json(path: &str, f: &Finding) -> JsonFinding {
    JsonFinding {
        file: path.to_string(),
        line: f.line,
        column: f.column,
        end_line: f.end_line,
        end_column: f.end_column,
        instructions: f.instructions.clone(),
        status: super::status(f),
        rules: f.outcome.clone().unwrap_or_default(),
        message: super::message(f),
    }
}

pub fn file_diagnostic_json(path: &str, d: &FileDiagnostic) -> JsonFinding {
    JsonFinding {
        file: path.to_string(),
        line: d.line,
        column: d.column,
        end_line: d.line,
        end_column: d.column,
        instructions: Vec::new(),
        status: "unsupported",
        rules: Vec::new(),
        message: d.message.clone(),
    }
}
