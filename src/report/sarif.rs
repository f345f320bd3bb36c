//! SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format), the format GitHub code
//! scanning, GitLab and IDE viewers read: one run whose tool lists every finding code as a rule
//! (with its documentation), and one result per finding.
//!
//! Columns are counted in Unicode code points (`columnKind`), the unit SARIF offers that is
//! closest to what editors show; regions start at the problem (the instruction, where known)
//! and end where the statement ends. `partialFingerprints` carries the statement's fingerprint,
//! which lets a viewer follow a finding across edits as `--baseline` does.

use std::collections::BTreeMap;

use serde_sarif::sarif::{
    ArtifactLocation, Location, Message, MultiformatMessageString, PhysicalLocation, PropertyBag,
    Region, ReportingConfiguration, ReportingDescriptor, Result as SarifResult, ResultLevel, Run,
    Sarif, Tool, ToolComponent,
};

use super::Diagnostic;
use crate::codes::{Code, Level};

/// The JSON Schema the log declares: OASIS's, which `tests/it/lint.rs` validates the log against.
const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The key of the fingerprint in `partialFingerprints`; the suffix is the fingerprint's version.
const FINGERPRINT: &str = "ptx2hip/statement/v1";

/// The whole log for `diagnostics`, as pretty-printed JSON.
pub fn sarif(diagnostics: &[Diagnostic]) -> String {
    let rules: Vec<ReportingDescriptor> = Code::ALL.iter().map(|&c| rule(c)).collect();
    let driver = ToolComponent::builder()
        .name("ptx2hip")
        .version(env!("CARGO_PKG_VERSION"))
        .rules(rules)
        .build();
    let run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .column_kind(serde_json::json!("unicodeCodePoints"))
        .results(diagnostics.iter().map(result).collect::<Vec<_>>())
        .build();
    let log = Sarif::builder()
        .schema(SCHEMA)
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build();
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

fn level(code: Code) -> ResultLevel {
    match code.level() {
        Level::Error => ResultLevel::Error,
        Level::Warning => ResultLevel::Warning,
    }
}

fn rule(code: Code) -> ReportingDescriptor {
    let text = |t: &str| MultiformatMessageString::builder().text(t).build();
    ReportingDescriptor::builder()
        .id(code.as_str())
        .name(code.name())
        .short_description(text(code.summary()))
        .full_description(text(code.summary()))
        .help(
            MultiformatMessageString::builder()
                .text(code.doc())
                .markdown(code.doc())
                .build(),
        )
        .default_configuration(
            ReportingConfiguration::builder()
                .level(serde_json::json!(level(code)))
                .build(),
        )
        .build()
}

fn result(d: &Diagnostic) -> SarifResult {
    let region = Region::builder()
        .start_line(d.focus.line as i64)
        .start_column(d.focus.char_column as i64)
        .end_line(d.end.line.max(d.focus.line) as i64)
        .end_column(if d.end > d.focus {
            d.end.char_column as i64
        } else {
            d.focus.char_column as i64
        })
        .build();
    let location = Location::builder()
        .physical_location(
            PhysicalLocation::builder()
                .artifact_location(ArtifactLocation::builder().uri(uri(&d.file)).build())
                .region(region)
                .build(),
        )
        .build();
    let mut result = SarifResult::builder()
        .rule_id(d.code.as_str())
        .rule_index(Code::ALL.iter().position(|&c| c == d.code).unwrap_or(0) as i64)
        .level(level(d.code))
        .message(Message::builder().text(d.message.as_str()).build())
        .locations(vec![location])
        .partial_fingerprints(BTreeMap::from([(
            FINGERPRINT.to_string(),
            d.fingerprint.clone(),
        )]))
        .build();
    if !d.evidence.is_empty() {
        // The rules below hardware evidence, as the JSON report gives them (docs/EVIDENCE.md).
        result.properties = Some(
            PropertyBag::builder()
                .additional_properties(BTreeMap::from([(
                    "evidence".to_string(),
                    serde_json::to_value(&d.evidence).unwrap_or_default(),
                )]))
                .build(),
        );
    }
    result
}

/// A file path as a URI reference: relative paths stay relative (to the repository root, for
/// GitHub), absolute ones become `file://` URIs; bytes outside the unreserved set are
/// percent-encoded.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("src/k.cu"), "src/k.cu");
        assert_eq!(uri("my dir/k#1.cu"), "my%20dir/k%231.cu");
        assert_eq!(uri("/abs/é.cu"), "file:///abs/%C3%A9.cu");
    }
}
