//! `ptx2hip report PATHS -o review.html`: the HTML review page of what `translate` would do.

use std::path::Path;
use std::process::ExitCode;

use rayon::prelude::*;

use super::output::{warn, Output};
use super::{conclude, display_path, Input};
use crate::lower::RuleSet;
use crate::report::html;

pub fn run(input: &Input, rules: &RuleSet, output: &Path) -> ExitCode {
    let (files, mut errors) = input.files();
    let read: Vec<Result<Vec<html::Entry>, String>> = files
        .par_iter()
        .map(|f| {
            let path = display_path(&f.path);
            let config = input.selection.config_of(&f.path)?;
            let scan_options = input.scan_options(&config.config);
            std::fs::read(&f.path)
                .map(|bytes| html::entries(&path, Some(&f.path), &bytes, rules, &scan_options))
                .map_err(|e| format!("{path}: {e}"))
        })
        .collect();
    let mut entries = Vec::new();
    for r in read {
        match r {
            Ok(e) => entries.extend(e),
            Err(e) => errors.push(e),
        }
    }
    let page = html::page(&entries, rules, Some(input.cuda_arch()));
    match super::write::output(
        output,
        page.as_bytes(),
        files.iter().map(|f| f.path.as_path()),
    ) {
        Ok(()) => warn(format_args!(
            "ptx2hip: wrote {} ({} statements)",
            output.display(),
            entries.len()
        )),
        Err(e) => errors.push(format!("{}: {e}", output.display())),
    }
    conclude(Output::stdout(), errors, ExitCode::SUCCESS)
}
