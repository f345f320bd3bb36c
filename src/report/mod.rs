//! Report: findings as human diagnostics (source snippet and caret) or JSON.

mod human;
mod json;

pub use human::{render_finding, render_file_diagnostic, summary};
pub use json::{finding_json, file_diagnostic_json, JsonFinding};

use crate::pipeline::Finding;

/// `translatable` or `unsupported`.
pub fn status(f: &Finding) -> &'static str {
    if f.analysis.outcome.is_ok() { "translatable" } else { "unsupported" }
}

/// The one-line message of a finding.
pub fn message(f: &Finding) -> String {
    let forms = if f.analysis.instructions.is_empty() {
        "inline asm".to_string()
    } else {
        f.analysis.instructions.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ")
    };
    match &f.analysis.outcome {
        Ok(t) => format!("non-portable inline PTX {forms}: translatable ({})", t.rules.join(", ")),
        Err(u) => format!("non-portable inline PTX {forms}: not translated: {}", u.message),
    }
}
