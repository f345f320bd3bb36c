//! What ptx2hip makes of every asm keyword of a source tree, as JSON lines (one per file with a
//! keyword), for `bench/census.py`, which checks the accounting against its own keyword count and
//! writes the per-repository report (docs/REAL_WORLD.md).
//!
//! Usage: `cargo run --release -p ptx2hip-verify --bin census -- [-D NAME[=V]]... DIR...`
//!
//! Each line: `{"root", "file", "statements": [...], "diagnostics": [...], "skipped": [...]}`
//! where a statement is `{"at", "line", "head" (the template's start), "template": "known"|reason,
//! "parse": null|error, "outcome": "translatable"|reason, "instructions"}` and every entry has
//! `at`, the byte offset of its keyword.

use std::io::Write;
use std::path::PathBuf;

use ptx2hip_core::lower::{self, RuleSet, Target};
use ptx2hip_core::scan::{self, Skip, Template};
use ptx2hip_core::{ptx, walk};
use serde_json::json;

fn main() {
    // As the command line reads files: with its default `--cuda-arch`.
    let mut macros = scan::Macros {
        cuda_arch: Some(scan::cuda_arch::CudaArch::DEFAULT),
        ..scan::Macros::default()
    };
    let mut roots = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-D" => {
                let d = args.next().unwrap_or_default();
                let (name, value) = match d.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (d, None),
                };
                macros.defines.push((name, value));
            }
            "-U" => macros.undefines.push(args.next().unwrap_or_default()),
            _ => roots.push(PathBuf::from(a)),
        }
    }
    let options = scan::Options { macros };
    let rules = RuleSet::embedded().expect("rule table loads");
    let extensions: Vec<String> = walk::DEFAULT_EXTENSIONS
        .iter()
        .map(|e| e.to_string())
        .collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for root in &roots {
        let walked = walk::collect(
            std::slice::from_ref(root),
            walk::Wants::walked(&|p: &std::path::Path| walk::has_extension(p, &extensions)),
            walk::WalkOptions::default(),
        );
        for file in walked.files {
            let Ok(source) = std::fs::read(&file.path) else {
                continue;
            };
            let r = scan::scan_file(&source, Some(&file.path), &options);
            if r.statements.is_empty() && r.diagnostics.is_empty() && r.skipped.is_empty() {
                continue;
            }
            let statements: Vec<_> = r
                .statements
                .iter()
                .map(|s| {
                    // A statement with undecided `#if` arms inside is parsed in every arm.
                    let readings: Vec<&scan::AsmStatement> = match &s.arms {
                        Some(arms) => arms
                            .layout
                            .iter()
                            .filter_map(|p| match p {
                                scan::ArmPiece::Reading { statement, .. } => Some(&**statement),
                                scan::ArmPiece::Directive(_) => None,
                            })
                            .collect(),
                        None => vec![s],
                    };
                    let rejected = readings.iter().find_map(|r| match &r.template {
                        Template::Known { text, .. } => {
                            ptx::parse(text).err().map(|e| (text.clone(), e))
                        }
                        Template::Unresolved { .. } => None,
                    });
                    let (template, parse) = match &s.template {
                        Template::Known { .. } => (
                            json!("known"),
                            rejected.map(|(text, e)| {
                                let snippet: String = text
                                    .get(e.span.start.saturating_sub(20)..)
                                    .unwrap_or("")
                                    .chars()
                                    .take(60)
                                    .collect();
                                json!({"message": e.message, "near": snippet})
                            }),
                        ),
                        Template::Unresolved { reason, .. } => (json!(reason), None),
                    };
                    let analysis = lower::analyze(s, &rules, Target::Amd);
                    let outcome = match &analysis.outcome {
                        Ok(_) => json!("translatable"),
                        Err(u) => json!(u.message),
                    };
                    let head: String = match &s.template {
                        Template::Known { text, .. } => text.chars().take(120).collect(),
                        Template::Unresolved { .. } => String::new(),
                    };
                    json!({
                        "at": s.span.start,
                        "line": s.line,
                        "head": head,
                        "template": template,
                        "parse": parse,
                        "outcome": outcome,
                        "instructions": analysis.instructions,
                    })
                })
                .collect();
            let diagnostics: Vec<_> = r
                .diagnostics
                .iter()
                .map(|d| json!({"at": d.span.start, "line": d.line, "message": d.message}))
                .collect();
            let skipped: Vec<_> = r
                .skipped
                .iter()
                .map(|s| {
                    let why = match s.why {
                        Skip::NvidiaOnly => "nvidia-only".to_string(),
                        Skip::NotNvidia => "not-nvidia".to_string(),
                        Skip::NeverCompiled => "never-compiled".to_string(),
                        Skip::OtherArch { .. } => "other-arch".to_string(),
                        Skip::Barrier => "barrier".to_string(),
                        Skip::NotPtx(f) => format!("not-ptx:{f:?}").to_lowercase(),
                        Skip::KeywordAlias => "keyword-alias".to_string(),
                    };
                    json!({"at": s.span.start, "line": s.line, "why": why})
                })
                .collect();
            let line = json!({
                "root": root.display().to_string(),
                "file": file.path.display().to_string(),
                "statements": statements,
                "diagnostics": diagnostics,
                "skipped": skipped,
            });
            let _ = writeln!(out, "{line}");
        }
    }
}
