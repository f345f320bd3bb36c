//! Report: findings as human diagnostics (source snippet and caret) or JSON.

mod human;
mod json;

pub use human::{render_file_diagnostic, render_finding, summary};
pub use json::{file_diagnostic_json, finding_json, JsonFinding};

use crate::pipeline::Finding;

/// `translatable` or `unsupported`.
pub fn status(f: &Finding) -> &'static str {
    if f.outcome.is_ok() {
        "translatable"
    } else {
        "unsupported"
    }
}

/// The one-line message of a finding.
pub fn message(f: &Finding) -> String {
    let forms = if f.instructions.is_empty() {
        "inline asm".to_string()
    } else {
        f.instructions
            .iter()
            .map(|i| format!("`{i}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &f.outcome {
        Ok(rules) => format!(
            "non-portable inline PTX {forms}: translatable ({})",
            rules.join(", ")
        ),
        Err(u) => format!(
            "non-portable inline PTX {forms}: not translated: {}",
            u.message
        ),
    }
}
