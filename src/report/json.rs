//! JSON findings (schema documented in docs/CLI.md).

use serde::Serialize;

use super::Diagnostic;
use crate::codes::Code;
use crate::rules::evidence::BelowHardware;

/// One finding: a non-portable asm statement, a file-level problem, or an unused suppression.
#[derive(Debug, Serialize)]
pub struct JsonFinding {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    /// The finding's code (`T001`, `U001`, ...).
    pub code: &'static str,
    /// PTX instruction forms as written, in order.
    pub instructions: Vec<String>,
    /// `translatable`, `unsupported`, `other-arch-arm` or `unused-suppression`.
    pub status: &'static str,
    /// Codes of the rules that translate the statement (empty when unsupported).
    pub rules: Vec<String>,
    /// Those among `rules` below hardware evidence, with their level and what they rely on
    /// (docs/EVIDENCE.md); absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<BelowHardware>,
    pub message: String,
}

pub fn diagnostic_json(d: &Diagnostic) -> JsonFinding {
    JsonFinding {
        file: d.file.clone(),
        line: d.start.line,
        column: d.start.column,
        end_line: d.end.line,
        end_column: d.end.column,
        code: d.code.as_str(),
        instructions: d.instructions.clone(),
        status: match d.code {
            Code::Translatable => "translatable",
            Code::UnusedSuppression => "unused-suppression",
            Code::MalformedSuppression => "malformed-suppression",
            Code::OtherArchArm => "other-arch-arm",
            Code::SameWaveWait => "same-wave-wait",
            Code::GeneratedCodeEdited => "generated-code-edited",
            Code::GeneratedByOtherVersion => "generated-by-other-version",
            _ => "unsupported",
        },
        rules: d.rules.clone(),
        evidence: d.evidence.clone(),
        message: d.message.clone(),
    }
}
