//! `ptx2hip report PATHS -o review.html`: the HTML review page of what `translate` would do.

use std::path::Path;
use std::process::ExitCode;

use rayon::prelude::*;

use super::output::{warn, Output};
use super::{conclude, display_path, Input};
use crate::codes::Code;
use crate::lower::RuleSet;
use crate::report::html;
use crate::scan::cuda_arch::CudaArch;

pub fn run(input: &Input, rules: &RuleSet, output: &Path) -> ExitCode {
    let (files, mut errors) = input.files();
    let settings = crate::lower::Settings {
        target: crate::lower::Target::Amd,
        tensor_model: input.tensor_model.unwrap_or_default(),
        fast: input.fast,
        evidence: input.evidence.unwrap_or_default(),
    };
    // A file that cannot be read is an error and, on the page, left to port by hand (E003).
    // Each file's architecture is its configuration's (or --cuda-arch).
    let read: Vec<(Vec<html::Entry>, Option<String>, Option<CudaArch>)> = files
        .par_iter()
        .map(|f| {
            let path = display_path(&f.path);
            let config = match input.selection.config_of(&f.path) {
                Ok(c) => c,
                Err(e) => return (Vec::new(), Some(e), None),
            };
            let scan_options = input.scan_options(&config.config);
            let arch = scan_options.macros.cuda_arch;
            let settings = crate::lower::Settings {
                tensor_model: input.tensor_model_for(&config.config),
                evidence: input.evidence_for(&config.config),
                ..settings
            };
            match std::fs::read(&f.path) {
                Ok(bytes) => (
                    html::entries(&path, Some(&f.path), &bytes, rules, &scan_options, settings),
                    None,
                    arch,
                ),
                Err(e) => {
                    let why = format!("the file could not be read: {e}");
                    let entry = html::Entry::file_finding(
                        &path,
                        1,
                        String::new(),
                        Code::UnreadableFile,
                        &why,
                    );
                    (vec![entry], Some(format!("{path}: {e}")), arch)
                }
            }
        })
        .collect();
    let mut entries = Vec::new();
    let mut arches: Vec<CudaArch> = Vec::new();
    for (e, error, arch) in read {
        entries.extend(e);
        errors.extend(error);
        arches.extend(arch);
    }
    arches.sort_by_key(|a| a.value());
    arches.dedup();
    let page = html::page(&entries, rules, &arches);
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
