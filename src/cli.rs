//! The command-line interface: argument parsing and the four commands.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use rayon::prelude::*;

use crate::emit::{diff, EmitMode};
use crate::lower::{self, render, RuleSet, Target};
use crate::pipeline::{self, FileOutcome, Options};
use crate::{report, walk};

#[derive(Parser)]
#[command(
    name = "ptx2hip",
    version,
    about = "Translate inline PTX assembly in CUDA C++ to portable C++ or AMD HIP"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Translate every inline asm statement; print a unified diff (or write files).
    Translate {
        #[command(flatten)]
        input: Input,
        /// Write the translated files in place (atomically; unchanged files are not touched).
        #[arg(long, conflicts_with = "out_dir")]
        in_place: bool,
        /// Write translated copies of the processed files under DIR, mirroring the tree.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
        /// Keep the original asm for NVIDIA (`guarded`) or substitute the translation (`replace`).
        #[arg(long, value_enum, default_value_t = EmitArg::Guarded)]
        emit: EmitArg,
        #[arg(long, value_enum, default_value_t = TargetArg::Amd)]
        target: TargetArg,
    },
    /// Lint: report every non-portable asm statement (exit 0: none, 1: findings, 2: error).
    Check {
        #[command(flatten)]
        input: Input,
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        #[arg(long, value_enum, default_value_t = TargetArg::Amd)]
        target: TargetArg,
    },
    /// Show how a PTX statement is parsed, what it means and what ptx2hip emits for it;
    /// or the documentation of a rule given by its code (e.g. `I001`).
    Explain {
        /// A PTX statement (`add.s32 %0, %1, %2;`) or a rule code.
        statement: String,
        /// Constraints of the operands in %N order, comma separated (default: `=r` then `r`).
        #[arg(long)]
        constraints: Option<String>,
    },
    /// List every rule with its forms and verification status.
    Rules {
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
}

#[derive(clap::Args)]
struct Input {
    /// Files or directories (directories are walked honouring .gitignore).
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// File extensions to process when walking directories (comma separated or repeated).
    #[arg(long = "ext", value_delimiter = ',')]
    extensions: Vec<String>,
    /// Macro defined in every compilation, deciding `#if`s around and inside asm statements.
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    defines: Vec<String>,
    /// Macro undefined in every compilation.
    #[arg(short = 'U', long = "undefine", value_name = "NAME")]
    undefines: Vec<String>,
    /// Also process files that .gitignore/.ignore rules match.
    #[arg(long)]
    no_ignore: bool,
    /// Also process hidden files and directories.
    #[arg(long)]
    hidden: bool,
}

impl Input {
    fn scan_options(&self) -> crate::scan::Options {
        let defines = self
            .defines
            .iter()
            .map(|d| match d.split_once('=') {
                Some((name, value)) => (name.trim().to_string(), Some(value.to_string())),
                None => (d.trim().to_string(), None),
            })
            .collect();
        crate::scan::Options {
            macros: crate::scan::Macros {
                defines,
                undefines: self
                    .undefines
                    .iter()
                    .map(|u| u.trim().to_string())
                    .collect(),
                ..Default::default()
            },
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum EmitArg {
    Guarded,
    Replace,
}

#[derive(Clone, Copy, ValueEnum)]
enum TargetArg {
    Amd,
    Portable,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Format {
    Human,
    Json,
}

impl From<TargetArg> for Target {
    fn from(t: TargetArg) -> Target {
        match t {
            TargetArg::Amd => Target::Amd,
            TargetArg::Portable => Target::Portable,
        }
    }
}

impl From<EmitArg> for EmitMode {
    fn from(e: EmitArg) -> EmitMode {
        match e {
            EmitArg::Guarded => EmitMode::Guarded,
            EmitArg::Replace => EmitMode::Replace,
        }
    }
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    let rules = match RuleSet::embedded() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ptx2hip: internal error in the rule table: {e}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Command::Translate {
            input,
            in_place,
            out_dir,
            emit,
            target,
        } => {
            let options = Options {
                target: target.into(),
                emit: Some(emit.into()),
            };
            translate(&input, &rules, options, in_place, out_dir.as_deref())
        }
        Command::Check {
            input,
            format,
            target,
        } => check(
            &input,
            &rules,
            Options {
                target: target.into(),
                emit: None,
            },
            format,
        ),
        Command::Explain {
            statement,
            constraints,
        } => explain(&statement, constraints.as_deref(), &rules),
        Command::Rules { format } => list_rules(&rules, format),
    }
}

/// A processed file: its path, bytes and outcome (or why it could not be read).
struct Processed {
    file: walk::SourceFile,
    source: Vec<u8>,
    outcome: Result<FileOutcome, String>,
}

fn process_all(input: &Input, rules: &RuleSet, options: Options) -> (Vec<Processed>, Vec<String>) {
    let extensions: Vec<String> = if input.extensions.is_empty() {
        walk::DEFAULT_EXTENSIONS
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        input.extensions.clone()
    };
    let walked = walk::collect(
        &input.paths,
        &extensions,
        walk::WalkOptions {
            no_ignore: input.no_ignore,
            hidden: input.hidden,
        },
    );
    if walked.ignored > 0 {
        eprintln!(
            "ptx2hip: note: {} source files tracked by git but matched by .gitignore/.ignore rules were not processed (--no-ignore processes them)",
            walked.ignored
        );
    }
    let scan_options = input.scan_options();
    let processed = walked
        .files
        .into_par_iter()
        .map(|file| match std::fs::read(&file.path) {
            Ok(source) => {
                let outcome = Ok(pipeline::process(&source, Some(&file.path), rules, options, &scan_options));
                // Sources without a finding are not kept: a large tree must not sit in memory.
                let keep = matches!(&outcome, Ok(o) if !o.findings.is_empty() || !o.diagnostics.is_empty());
                Processed { file, source: if keep { source } else { Vec::new() }, outcome }
            }
            Err(e) => {
                let msg = format!("{}: {e}", file.path.display());
                Processed { file, source: Vec::new(), outcome: Err(msg) }
            }
        })
        .collect();
    (processed, walked.errors)
}

fn display_path(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}

fn translate(
    input: &Input,
    rules: &RuleSet,
    options: Options,
    in_place: bool,
    out_dir: Option<&Path>,
) -> ExitCode {
    let (processed, mut errors) = process_all(input, rules, options);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for p in &processed {
        let path = display_path(&p.file.path);
        let outcome = match &p.outcome {
            Ok(o) => o,
            Err(e) => {
                errors.push(e.clone());
                continue;
            }
        };
        for d in &outcome.diagnostics {
            eprint!("{}", report::render_file_diagnostic(&path, d));
        }
        for f in &outcome.findings {
            if let Err(u) = &f.outcome {
                eprintln!(
                    "{path}:{}:{}: not translated: {}",
                    f.line, f.column, u.message
                );
            }
        }
        if let Some(dir) = out_dir {
            let dest = dir.join(&p.file.relative);
            let bytes = match &outcome.rewritten {
                Some(r) => r.bytes.clone(),
                None => match std::fs::read(&p.file.path) {
                    Ok(b) => b,
                    Err(e) => {
                        errors.push(format!("{path}: {e}"));
                        continue;
                    }
                },
            };
            if let Err(e) = dest
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|_| std::fs::write(&dest, bytes))
            {
                errors.push(format!("{}: {e}", dest.display()));
            }
            continue;
        }
        let Some(rewritten) = &outcome.rewritten else {
            continue;
        };
        if in_place {
            if let Err(e) = write_atomically(&p.file.path, &rewritten.bytes) {
                errors.push(format!("{path}: {e}"));
            }
        } else if diff::write_unified(
            &mut out,
            &path,
            &p.source,
            &rewritten.bytes,
            &rewritten.splices,
        )
        .is_err()
        {
            return ExitCode::from(2);
        }
    }
    finish(&errors, ExitCode::SUCCESS)
}

fn finish(errors: &[String], ok: ExitCode) -> ExitCode {
    for e in errors {
        eprintln!("ptx2hip: error: {e}");
    }
    if errors.is_empty() {
        ok
    } else {
        ExitCode::from(2)
    }
}

/// Writes through a temporary file in the same directory and a rename, keeping permissions.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let permissions = std::fs::metadata(path)?.permissions();
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.as_file().set_permissions(permissions)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

fn check(input: &Input, rules: &RuleSet, options: Options, format: Format) -> ExitCode {
    let (processed, mut errors) = process_all(input, rules, options);
    // Rendering snippets costs as much as scanning, so each file's part is rendered in parallel
    // and written in walk order.
    let reports: Vec<FileReport> = processed
        .par_iter()
        .map(|p| FileReport::render(p, format))
        .collect();
    let (mut translatable, mut unsupported, mut files) = (0, 0, 0);
    let mut json = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
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
        let _ = out.write_all(report.text.as_bytes());
    }
    match format {
        Format::Json => {
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&json).unwrap_or_else(|_| "[]".into())
            );
        }
        Format::Human => {
            let _ = writeln!(out, "{}", report::summary(files, translatable, unsupported));
        }
    }
    let code = if translatable + unsupported > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    finish(&errors, code)
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
    fn render(p: &Processed, format: Format) -> FileReport {
        let outcome = match &p.outcome {
            Ok(o) => o,
            Err(e) => {
                return FileReport {
                    error: Some(e.clone()),
                    ..FileReport::default()
                }
            }
        };
        let path = display_path(&p.file.path);
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
                    r.text += &report::render_finding(&path, &p.source, f);
                    r.text.push_str("\n\n");
                }
            }
        }
        r
    }
}

/// Default constraints for explain: the highest `%N` referenced decides the count; `%0` is `=r`.
fn default_constraints(ptx: &str) -> Vec<String> {
    let mut max = None;
    let b = ptx.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && b.get(i + 1) == Some(&b'%') {
            i += 2;
            continue;
        }
        if b[i] == b'%' {
            let n: String = ptx[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if let Ok(n) = n.parse::<usize>() {
                max = Some(max.map_or(n, |m: usize| m.max(n)));
            }
        }
        i += 1;
    }
    (0..max.map_or(0, |m| m + 1))
        .map(|i| {
            if i == 0 {
                "=r".to_string()
            } else {
                "r".to_string()
            }
        })
        .collect()
}

fn explain(statement: &str, constraints: Option<&str>, rules: &RuleSet) -> ExitCode {
    if let Some(rule) = rules.rule(statement.trim()) {
        println!("{} ({}) — {}\n", rule.code, rule.name, rule.summary);
        println!("{}", rule.doc.trim());
        println!(
            "\nforms: {}",
            rule.forms()
                .iter()
                .map(|(f, _)| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        return explain_statement(
            &rule.example.ptx,
            Some(&rule.example.constraints),
            rules,
            false,
        );
    }
    explain_statement(statement, constraints, rules, true)
}

/// Explains one PTX statement: its parse, the documentation of the rules that translate it (when
/// `with_docs`), and what each target emits.
fn explain_statement(
    statement: &str,
    constraints: Option<&str>,
    rules: &RuleSet,
    with_docs: bool,
) -> ExitCode {
    let constraints: Vec<String> = match constraints {
        Some(c) => c
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        None => default_constraints(statement),
    };
    println!("statement:   {statement}");
    println!("constraints: {}", constraints.join(","));
    match crate::ptx::parse(statement) {
        Ok(block) => println!("parsed as:\n{}", indent_text(&block.to_string(), "  ")),
        Err(e) => {
            println!("PTX syntax error at byte {}: {}", e.span.start, e.message);
            return ExitCode::from(1);
        }
    }
    let mut stmt = crate::verify::forms::synthetic_statement(statement, &constraints);
    stmt.qualifiers.clear();
    if with_docs {
        if let Ok(t) = lower::analyze(&stmt, rules, Target::Portable).outcome {
            println!("\nmeaning:");
            let mut seen = Vec::new();
            for r in t.rules.iter().filter_map(|code| rules.rule(code)) {
                if !seen.contains(&&r.code) {
                    seen.push(&r.code);
                    println!("  {} ({}): {}", r.code, r.name, r.summary);
                    println!("{}", indent_text(r.doc.trim(), "    "));
                }
            }
        }
    }
    let mut ok = true;
    for target in [Target::Amd, Target::Portable] {
        let analysis = lower::analyze(&stmt, rules, target);
        println!("\n--target {target}:");
        match analysis.outcome {
            Ok(t) => {
                for code in &t.rules {
                    if let Some(r) = rules.rule(code) {
                        println!("  rule {} ({}): {}", r.code, r.name, r.summary);
                    }
                }
                for line in render(&t.lines, "  ", "  ") {
                    println!("{line}");
                }
                if !t.helpers.is_empty() {
                    println!("  helpers: {}", t.helpers.join(", "));
                }
            }
            Err(u) => {
                ok = false;
                println!("  not translated: {}", u.message);
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn indent_text(text: &str, indent: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{indent}{l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn list_rules(rules: &RuleSet, format: Format) -> ExitCode {
    let entries: Vec<serde_json::Value> = rules
        .rules
        .iter()
        .map(|r| {
            let verification = crate::verify::status(r);
            serde_json::json!({
                "code": r.code,
                "name": r.name,
                "family": r.family,
                "summary": r.summary,
                "approximate": r.approximate,
                "forms": r.forms().into_iter().map(|(f, _)| f).collect::<Vec<_>>(),
                "verification": verification,
            })
        })
        .collect();
    match format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&entries).unwrap_or_default()
        ),
        Format::Human => {
            for (r, e) in rules.rules.iter().zip(&entries) {
                let forms = e["forms"].as_array().map_or(0, Vec::len);
                let v = &e["verification"];
                let mut status = v["status"].as_str().unwrap_or("").to_string();
                if let Some(gpu) = v["gpu"].as_str().filter(|g| !g.is_empty()) {
                    status = format!("{status} on {}", gpu.trim_start_matches("NVIDIA "));
                }
                println!(
                    "{:<6} {:<22} {:>4} forms  {:<40} {}",
                    r.code, r.name, forms, status, r.summary
                );
            }
        }
    }
    ExitCode::SUCCESS
}
