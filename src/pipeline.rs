//! One file through every stage: scan → parse/lower each statement → emit.

use crate::emit::{self, EmitMode};
use crate::lower::{self, Analysis, RuleSet, Target};
use crate::scan::{self, AsmStatement};

/// Options that shape the translation.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub target: Target,
    pub mode: EmitMode,
}

/// What happened to one asm statement.
#[derive(Debug, Clone)]
pub struct Finding {
    pub statement: AsmStatement,
    pub analysis: Analysis,
}

/// A problem with a file or a piece of it that is not a statement's translation.
#[derive(Debug, Clone)]
pub struct FileDiagnostic {
    pub offset: Option<usize>,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The result for one file.
#[derive(Debug, Clone, Default)]
pub struct FileOutcome {
    pub findings: Vec<Finding>,
    pub diagnostics: Vec<FileDiagnostic>,
    /// The rewritten file, when at least one statement was translated.
    pub rewritten: Option<emit::Rewrite>,
}

/// Runs every stage over one file's bytes. Never panics on user input: a file that cannot be
/// handled yields diagnostics and no rewrite.
pub fn process(source: &[u8], rules: &RuleSet, options: Options) -> FileOutcome {
    let mut outcome = FileOutcome::default();
    if !scan::may_contain_asm(source) {
        return outcome;
    }
    if source.iter().take(8192).any(|&b| b == 0) {
        outcome.diagnostics.push(FileDiagnostic {
            offset: None,
            line: 1,
            column: 1,
            message: "binary file (contains NUL bytes): skipped".into(),
        });
        return outcome;
    }
    let scanned = scan::scan(source);
    for d in scanned.diagnostics {
        outcome.diagnostics.push(FileDiagnostic {
            offset: Some(d.span.start),
            line: d.line,
            column: d.column,
            message: d.message,
        });
    }
    for stmt in scanned.statements {
        let analysis = if std::str::from_utf8(&source[stmt.span.clone()]).is_err() {
            Analysis {
                instructions: Vec::new(),
                outcome: Err(lower::Unsupported::new(
                    "the statement contains bytes that are not valid UTF-8; it is left as written".into(),
                )),
            }
        } else {
            lower::analyze(&stmt, rules, options.target)
        };
        outcome.findings.push(Finding { statement: stmt, analysis });
    }
    let edits: Vec<_> = outcome
        .findings
        .iter()
        .filter_map(|f| f.analysis.outcome.as_ref().ok().map(|t| (&f.statement, t)))
        .collect();
    if !edits.is_empty() {
        let rewritten = emit::rewrite(source, &edits, rules, options.mode, options.target);
        if rewritten.bytes != source {
            outcome.rewritten = Some(rewritten);
        }
    }
    outcome
}
