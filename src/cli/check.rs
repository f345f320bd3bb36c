//! `ptx2hip check`: every non-portable asm statement, human-readable or as JSON.

use std::process::ExitCode;

use rayon::prelude::*;

use super::output::{outln, Output};
use super::{conclude, display_path, Format, Input};
use crate::lower::RuleSet;
use crate::pipeline::{self, Options};
use crate::report;
use crate::scan;
use crate::walk::SourceFile;

pub fn run(input: &Input, rules: &RuleSet, options: Options, format: Format) -> ExitCode {
    let (files, mut errors) = input.files();
    let scan_options = input.scan_options();
    // Each file is read, checked and its part of the report rendered on its own (rendering
    // snippets costs as much as scanning); only the reports are kept, in walk order.
    let reports: Vec<FileReport> = files
        .par_iter()
        .map(|file| FileReport::of(file, rules, options, &scan_options, format))
        .collect();
    let (mut translatable, mut unsupported, mut files) = (0, 0, 0);
    let mut json = Vec::new();
    let mut out = Output::stdout();
    for report in reports {
        if let Some(e) = report.error {
            errors.push(e);
            continue;
        }
        if report.translatable + report.unsupported > 0 {
            files += 1;
        }
        translatable += report.translatable;
        unsupported += report.unsupported;
        json.extend(report.json);
        out.write(report.text.as_bytes());
    }
    match format {
        Format::Json => outln!(
            out,
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_else(|_| "[]".into())
        ),
        Format::Human => outln!(out, "{}", report::summary(files, translatable, unsupported)),
    }
    let code = if translatable + unsupported > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    conclude(out, errors, code)
}

/// One file's part of the `check` report.
#[derive(Default)]
struct FileReport {
    /// Human diagnostics (empty for JSON).
    text: String,
    json: Vec<report::JsonFinding>,
    translatable: usize,
    /// Unsupported statements and file diagnostics.
    unsupported: usize,
    /// The file could not be read.
    error: Option<String>,
}

impl FileReport {
    fn of(
        file: &SourceFile,
        rules: &RuleSet,
        options: Options,
        scan_options: &scan::Options,
        format: Format,
    ) -> FileReport {
        let path = display_path(&file.path);
        let source = match std::fs::read(&file.path) {
            Ok(s) => s,
            Err(e) => {
                return FileReport {
                    error: Some(format!("{path}: {e}")),
                    ..FileReport::default()
                }
            }
        };
        let outcome =
            pipeline::process_file(&source, Some(&file.path), rules, options, scan_options);
        let mut r = FileReport::default();
        for d in &outcome.diagnostics {
            r.unsupported += 1;
            match format {
                Format::Json => r.json.push(report::file_diagnostic_json(&path, d)),
                Format::Human => {
                    r.text += &report::render_file_diagnostic(&path, d);
                    r.text.push('\n');
                }
            }
        }
        for f in &outcome.findings {
            if f.outcome.is_ok() {
                r.translatable += 1
            } else {
                r.unsupported += 1
            }
            match format {
                Format::Json => r.json.push(report::finding_json(&path, f)),
                Format::Human => {
                    r.text += &report::render_finding(&path, &source, f);
                    r.text.push_str("\n\n");
                }
            }
        }
        r
    }
}
