//! The command-line interface: argument parsing and the four commands.

mod cache;
mod check;
mod diff_root;
pub mod explain_code;
mod output;
mod progress;
mod report;
mod selection;
mod shared_helpers;
mod summary;
mod translate;
mod write;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::config::Config;
use crate::emit::EmitMode;
use crate::lower::{self, render, RuleSet, Target, TensorModel};
use crate::pipeline::Options;
use crate::rules::evidence::Floor;
use crate::scan::{self, cuda_arch::CudaArch};
use crate::walk;
use output::{outln, warn, Output};

#[derive(Parser)]
#[command(
    name = "ptx2hip",
    version,
    about = "Translate inline PTX assembly in CUDA C++ to portable C++ or AMD HIP"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour the human report of `check` and the diff of `translate`: `auto` on a terminal
    /// (not with NO_COLOR set; always with CLICOLOR_FORCE set), `always`, or `never`.
    #[arg(long, global = true, value_name = "WHEN", value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Translate every inline asm statement; print a unified diff (or write files; for `-`, print
    /// the translated standard input).
    Translate {
        #[command(flatten)]
        input: Input,
        /// Write the translated files in place (atomically; unchanged files are not touched).
        #[arg(long, conflicts_with = "out_dir")]
        in_place: bool,
        /// With --in-place, keep each rewritten file's original beside it under its name plus
        /// SUFFIX (`--backup-suffix .prehip`, as hipify-perl does). Where no backup can be made
        /// (something else has that name), the file is not rewritten.
        #[arg(long, value_name = "SUFFIX", requires = "in_place", value_parser = backup_suffix)]
        backup_suffix: Option<std::ffi::OsString>,
        /// Write translated copies of the processed files under DIR, mirroring the tree (DIR must
        /// lie outside the inputs; links under DIR are never followed).
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
        /// Keep the original asm for NVIDIA (`guarded`) or substitute the translation (`replace`).
        #[arg(long, value_enum, default_value_t = EmitArg::Guarded)]
        emit: EmitArg,
        /// What the translations may use: `amd`, HIP for AMD GPUs; `portable`, C++ that nvcc and
        /// hipcc both compile.
        #[arg(long, value_enum, default_value_t = TargetArg::Amd)]
        target: TargetArg,
        /// Name files in the diff relative to DIR (default: the root of the git repository
        /// holding each file, else the current directory), as `git apply` run there expects.
        #[arg(long, value_name = "DIR", conflicts_with_all = ["in_place", "out_dir"])]
        diff_root: Option<PathBuf>,
        /// After the summary line on stderr, the statements left as written per finding code
        /// and reason, and the translations per rule.
        #[arg(long)]
        statistics: bool,
        /// No comments naming the rules of each translation (`// ptx2hip: B012`) or why a
        /// statement stays as written (`// ptx2hip: U001 not translated: ...`).
        #[arg(long)]
        no_provenance: bool,
        /// Put the helpers in one shared header FILE (created or updated; helpers are added,
        /// never removed) that each rewritten file includes by its relative path, instead of a
        /// block of helpers in every file.
        #[arg(long, value_name = "FILE")]
        helpers: Option<PathBuf>,
        /// With --helpers: files include the header as `#include "NAME"` (`<NAME>` when written
        /// so), found through the compiler's -I paths, instead of by their relative path (for
        /// headers installed apart from the tree).
        #[arg(long, value_name = "NAME", requires = "helpers")]
        include_as: Option<String>,
        /// The path of the source read from standard input (`-`): its configuration, whether it
        /// is excluded, where its local headers are, and its name in messages.
        #[arg(long, value_name = "PATH")]
        stdin_filename: Option<PathBuf>,
    },
    /// Lint: report every non-portable asm statement (exit 0: none, 1: findings, 2: error).
    Check {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        lint: check::LintArgs,
        /// What the translations may use: `amd`, HIP for AMD GPUs; `portable`, C++ that nvcc and
        /// hipcc both compile.
        #[arg(long, value_enum, default_value_t = TargetArg::Amd)]
        target: TargetArg,
    },
    /// Show how a PTX statement is parsed, what it means and what ptx2hip emits for it; the
    /// documentation of a rule or a finding code (`I001`, `U001`); or the rules of an opcode
    /// (`lop3`).
    Explain {
        /// A PTX statement (`add.s32 %0, %1, %2;`), a rule or finding code, or an opcode.
        statement: String,
        /// Constraints of the operands in %N order, comma separated (default: `=r` then `r`).
        #[arg(long)]
        constraints: Option<String>,
    },
    /// Write one self-contained HTML page for reviewing a translation: per statement the original
    /// PTX beside the code for each target, the rules with their documentation and evidence, and
    /// the statements left as written with their reason; filters by file, status and rule.
    Report {
        #[command(flatten)]
        input: Input,
        /// The page to write.
        #[arg(short, long, value_name = "FILE", default_value = "review.html")]
        output: PathBuf,
    },
    /// List every rule with its forms and verification status.
    Rules {
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
}

#[derive(clap::Args)]
struct Input {
    /// Files or directories (directories are walked honouring .gitignore); for `check` and
    /// `translate`, `-` reads standard input (`translate -` prints the translated source).
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// File extensions to process when walking directories (comma separated or repeated;
    /// default: `extensions` of ptx2hip.toml, else cu,cuh,h,hpp,hh,cpp,cc,cxx,inl,hip).
    #[arg(long = "ext", value_delimiter = ',')]
    extensions: Vec<String>,
    /// Macro defined in every compilation, deciding `#if`s around and inside asm statements
    /// (adds to `defines` of ptx2hip.toml).
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    defines: Vec<String>,
    /// Macro undefined in every compilation (wins over every definition).
    #[arg(short = 'U', long = "undefine", value_name = "NAME")]
    undefines: Vec<String>,
    /// The NVIDIA architecture whose `__CUDA_ARCH__` arms the AMD device compilation takes, as
    /// its sm number (`90` or `sm_90`: `__CUDA_ARCH__` = 900). `translate` rewrites the
    /// `__CUDA_ARCH__` conditions around asm to `PTX2HIP_CUDA_ARCH`, which it defines to this
    /// value for AMD device code only [default: `cuda-arch` of ptx2hip.toml, else 90].
    #[arg(long, value_name = "SM", value_parser = CudaArch::parse)]
    cuda_arch: Option<CudaArch>,
    /// The NVIDIA tensor cores whose numerics the exact matrix translations (`mma`) reproduce
    /// bit for bit: `sm_90` (H100/H200, recorded) or `sm_80` (A100, checked against published
    /// recordings); docs/TENSOR_MODEL.md [default: `tensor-model` of ptx2hip.toml, else sm_90].
    #[arg(long, value_name = "SM", value_parser = tensor_model)]
    tensor_model: Option<TensorModel>,
    /// Use the faster, inexact translation of the rules that have one (float `mma` and `wgmma`
    /// through MFMA/WMMA): each such translation is marked in its provenance comment and the
    /// report, and `explain CODE` states its deviation. Without it every translation is exact.
    #[arg(long)]
    fast: bool,
    /// The least evidence a rule must have to translate: `hardware` leaves statements that need a
    /// rule verified only by ISA decomposition (sm_100 forms, no GPU here runs them) as written
    /// (U017); docs/EVIDENCE.md [default: `evidence` of ptx2hip.toml, else any].
    #[arg(long, value_name = "LEVEL", value_parser = evidence_floor)]
    evidence: Option<Floor>,
    #[command(flatten)]
    selection: selection::Selection,
}

#[derive(Clone, Copy, ValueEnum)]
enum EmitArg {
    Guarded,
    Replace,
}

/// What a translation may use, and so where it compiles.
#[derive(Clone, Copy, ValueEnum)]
enum TargetArg {
    /// HIP for AMD GPUs: HIP functions and AMD builtins (`__builtin_amdgcn_*`) where they are
    /// exact; compiles with hipcc/clang for AMD GPUs (gfx90a, gfx942 and gfx1100 are checked).
    Amd,
    /// C++ and the API common to CUDA and HIP only: compiles with nvcc and with hipcc alike. The
    /// forms that need AMD builtins to be exact (warp shuffles and votes, `mma`, `wgmma`) are
    /// left as written (U004).
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

/// The embedded rule table, loaded when first needed: a `check` whose files all have cached
/// findings, or none with statements, never loads it.
#[derive(Default)]
pub struct Rules {
    table: std::sync::OnceLock<Result<RuleSet, String>>,
}

impl Rules {
    pub fn get(&self) -> Result<&RuleSet, String> {
        self.table
            .get_or_init(|| RuleSet::embedded().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| format!("ptx2hip: internal error in the rule table: {e}"))
    }
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    anstream::ColorChoice::write_global(match cli.color {
        ColorArg::Auto => anstream::ColorChoice::Auto,
        ColorArg::Always => anstream::ColorChoice::Always,
        ColorArg::Never => anstream::ColorChoice::Never,
    });
    run_command(cli.command, &Rules::default()).unwrap_or_else(|failed| failed)
}

/// The rule table, or the exit code of a run that cannot load it.
fn table(rules: &Rules) -> Result<&RuleSet, ExitCode> {
    rules.get().map_err(|e| {
        warn(format_args!("{e}"));
        ExitCode::from(2)
    })
}

fn run_command(command: Command, rules: &Rules) -> Result<ExitCode, ExitCode> {
    Ok(match command {
        Command::Translate {
            input,
            in_place,
            backup_suffix,
            out_dir,
            emit,
            target,
            no_provenance,
            diff_root,
            statistics,
            helpers,
            include_as,
            stdin_filename,
        } => {
            let options = Options {
                target: target.into(),
                emit: Some(emit.into()),
                provenance: !no_provenance,
                tensor_model: input.tensor_model.unwrap_or_default(),
                fast: input.fast,
                evidence: input.evidence.unwrap_or_default(),
            };
            let mode = match (in_place, out_dir) {
                (true, _) => translate::Mode::InPlace {
                    backup: backup_suffix,
                },
                (false, Some(dir)) => translate::Mode::OutDir(dir),
                (false, None) => translate::Mode::Diff { root: diff_root },
            };
            translate::run(
                &input,
                table(rules)?,
                options,
                &mode,
                helpers.as_deref().map(|path| translate::Helpers {
                    path,
                    include_as: include_as.as_deref(),
                }),
                stdin_filename.as_deref(),
                statistics,
            )
        }
        Command::Check {
            input,
            lint,
            target,
        } => check::run(
            &input,
            &lint,
            rules,
            Options {
                target: target.into(),
                emit: None,
                provenance: false,
                tensor_model: input.tensor_model.unwrap_or_default(),
                fast: input.fast,
                evidence: input.evidence.unwrap_or_default(),
            },
        ),
        Command::Explain {
            statement,
            constraints,
        } => {
            let mut out = Output::stdout();
            let code = explain(&mut out, &statement, constraints.as_deref(), table(rules)?);
            conclude(out, Vec::new(), code)
        }
        Command::Report { input, output } => report::run(&input, table(rules)?, &output),
        Command::Rules { format } => {
            let mut out = Output::stdout();
            list_rules(&mut out, table(rules)?, format);
            conclude(out, Vec::new(), ExitCode::SUCCESS)
        }
    })
}

/// Parses `--evidence`.
fn evidence_floor(text: &str) -> Result<Floor, String> {
    Floor::parse(text).ok_or_else(|| format!("`{text}` is not an evidence floor: hardware or any"))
}

/// Parses `--tensor-model`.
fn tensor_model(text: &str) -> Result<TensorModel, String> {
    TensorModel::parse(text)
        .ok_or_else(|| format!("`{text}` is not a tensor model: sm_90 or sm_80"))
}

impl Input {
    /// The files to process, and the errors met finding them.
    /// A path named on the command line that is neither a file nor a directory (a FIFO, a
    /// device) is an error: reading a FIFO could block for ever, and the walk would skip it
    /// without a word.
    fn files(&self) -> (Vec<walk::SourceFile>, Vec<String>) {
        let mut errors = Vec::new();
        let paths: Vec<PathBuf> = self
            .paths
            .iter()
            .filter(|p| match std::fs::metadata(p) {
                Ok(m) if !m.is_file() && !m.is_dir() => {
                    errors.push(format!("{}: not a regular file", display_path(p)));
                    false
                }
                _ => true,
            })
            .cloned()
            .collect();
        if paths.is_empty() && !errors.is_empty() {
            return (Vec::new(), errors);
        }
        let (files, more) = self.selection.files(&paths, &self.extensions);
        errors.extend(more);
        (files, errors)
    }

    /// The tensor model of a file whose configuration is `config`: `--tensor-model`, else its
    /// `tensor-model`, else sm_90.
    fn tensor_model_for(&self, config: &Config) -> TensorModel {
        self.tensor_model
            .or(config.tensor_model)
            .unwrap_or_default()
    }

    /// The evidence floor of a file whose configuration is `config`: `--evidence`, else its
    /// `evidence`, else any.
    fn evidence_for(&self, config: &Config) -> Floor {
        self.evidence.or(config.evidence).unwrap_or_default()
    }

    /// `options` for a file whose configuration is `config` (its tensor model and evidence
    /// floor).
    fn options_for(&self, config: &Config, options: Options) -> Options {
        Options {
            tensor_model: self.tensor_model_for(config),
            evidence: self.evidence_for(config),
            ..options
        }
    }

    /// What the scanner is told besides a file whose configuration is `config`: its macros
    /// (`defines`, `amd-defines`, `nvidia-only-macros`) and those declared with `-D`/`-U`, which
    /// come after the file's (a later definition replaces an earlier one; an undefine wins).
    fn scan_options(&self, config: &Config) -> scan::Options {
        let defines = config
            .defines
            .iter()
            .cloned()
            .chain(self.defines.iter().map(|d| match d.split_once('=') {
                Some((name, value)) => (name.trim().to_string(), Some(value.to_string())),
                None => (d.trim().to_string(), None),
            }))
            .collect();
        scan::Options {
            macros: scan::Macros {
                defines,
                undefines: self
                    .undefines
                    .iter()
                    .map(|u| u.trim().to_string())
                    .collect(),
                amd_defines: config.amd_defines.clone(),
                nvidia_defines: config.nvidia_only_macros.clone(),
                cuda_arch: Some(
                    self.cuda_arch
                        .or(config.cuda_arch)
                        .unwrap_or(CudaArch::DEFAULT),
                ),
            },
        }
    }
}

/// Ends a command: flushes the report, says what went wrong on stderr and gives the exit code,
/// 2 if anything did (a file not read or written, the report not written), `code` otherwise.
fn conclude(out: Output, mut errors: Vec<String>, code: ExitCode) -> ExitCode {
    if let Some(e) = out.finish() {
        errors.push(format!("could not write the output: {e}"));
    }
    for e in &errors {
        warn(format_args!("ptx2hip: error: {e}"));
    }
    if errors.is_empty() {
        code
    } else {
        ExitCode::from(2)
    }
}

fn display_path(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
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

fn explain(
    out: &mut Output,
    statement: &str,
    constraints: Option<&str>,
    rules: &RuleSet,
) -> ExitCode {
    if let Some(code) = explain_code::explain(out, statement, rules) {
        return code;
    }
    let code = statement.trim();
    let rule = rules.rule(code).or_else(|| {
        let rule = rules.renamed_from(code)?;
        let old = code.to_ascii_uppercase();
        outln!(
            out,
            "{old} was renamed to {}; its documentation:\n",
            rule.code
        );
        Some(rule)
    });
    if let Some(rule) = rule {
        outln!(out, "{} ({}) — {}\n", rule.code, rule.name, rule.summary);
        outln!(out, "{}", rule.doc.trim());
        outln!(out, "\n{}", tier_note(rule));
        outln!(out, "page: {}", crate::pages::rule_page(&rule.code));
        // One form a line: a rule of a hundred forms stays readable and greppable.
        outln!(out, "\nforms:");
        for (form, _) in rule.forms() {
            outln!(out, "  {form}");
        }
        return explain_statement(
            out,
            &rule.example.ptx,
            Some(&rule.example.constraints),
            rules,
            false,
        );
    }
    explain_statement(out, statement, constraints, rules, true)
}

/// What `explain CODE` says of a rule's exactness ([`exactness_note`]), then its evidence level
/// (docs/EVIDENCE.md).
fn tier_note(rule: &crate::rules::Rule) -> String {
    let level = crate::rules::evidence::level(rule);
    let evidence = match &rule.decomposition {
        Some(d) => format!(
            "evidence: {level} (no GPU here runs the form; the ISA defines it through hardware-verified rules: {}; relies on {}; refused under --evidence hardware)",
            d.claim.trim(),
            d.rules.join(", ")
        ),
        None if !level.meets_hardware() => {
            format!("evidence: {level} (refused under --evidence hardware)")
        }
        None => format!("evidence: {level}"),
    };
    format!("{}\n{evidence}", exactness_note(rule))
}

/// The tier (exact, and a `--fast` alternative with its stated deviation) and, for rules whose
/// code follows `--tensor-model`, the model.
fn exactness_note(rule: &crate::rules::Rule) -> String {
    let mut note = String::from("tier: exact");
    let follows_model = rule
        .templates(Target::Amd)
        .any(|t| t.code.text().contains(crate::rules::TENSOR_MODEL));
    if follows_model {
        note.push_str(
            " (bit-exact with the tensor cores of --tensor-model: sm_90 H100/H200 by default, or sm_80 A100; docs/TENSOR_MODEL.md)",
        );
    }
    if let Some(fast) = &rule.fast {
        note.push_str(&format!(
            "; with --fast (inexact, --target amd): {}",
            fast.deviation.trim()
        ));
    }
    note
}

/// Explains one PTX statement: its parse, the documentation of the rules that translate it (when
/// `with_docs`), and what each target emits.
fn explain_statement(
    out: &mut Output,
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
    outln!(out, "statement:   {statement}");
    outln!(out, "constraints: {}", constraints.join(","));
    if statement
        .trim_matches(|c: char| c.is_whitespace() || c == ';')
        .is_empty()
    {
        outln!(
            out,
            "an empty statement: no instruction to parse or translate"
        );
        return ExitCode::from(1);
    }
    match crate::ptx::parse(statement) {
        Ok(block) => {
            // Literals as written (`0xEA`), where every item is an instruction.
            let printed: Option<Vec<String>> = block
                .items
                .iter()
                .map(|item| match item {
                    crate::ptx::Item::Instruction(ins) => {
                        Some(lower::printed_as_written(statement, ins))
                    }
                    _ => None,
                })
                .collect();
            let text = printed.map_or_else(|| block.to_string(), |lines| lines.join("\n"));
            outln!(out, "parsed as:\n{}", indent_text(&text, "  "))
        }
        Err(e) => {
            outln!(
                out,
                "PTX syntax error at byte {}: {}",
                e.span.start,
                e.message
            );
            return ExitCode::from(1);
        }
    }
    let mut stmt = crate::scan::AsmStatement::synthetic(statement, &constraints);
    stmt.qualifiers.clear();
    if with_docs {
        if let Ok(t) = lower::analyze(&stmt, rules, Target::Portable).outcome {
            outln!(out, "\nmeaning:");
            let mut seen = Vec::new();
            for r in t.rules.iter().filter_map(|code| rules.rule(code)) {
                if !seen.contains(&&r.code) {
                    seen.push(&r.code);
                    outln!(out, "  {} ({}): {}", r.code, r.name, r.summary);
                    outln!(out, "{}", indent_text(r.doc.trim(), "    "));
                }
            }
        }
    }
    let mut ok = true;
    for target in [Target::Amd, Target::Portable] {
        let analysis = lower::analyze(&stmt, rules, target);
        outln!(out, "\n--target {target}:");
        match analysis.outcome {
            Ok(t) => {
                for code in &t.rules {
                    if let Some(r) = rules.rule(code) {
                        outln!(out, "  rule {} ({}): {}", r.code, r.name, r.summary);
                    }
                }
                for line in render(&t.lines, "  ", "  ") {
                    outln!(out, "{line}");
                }
                if !t.helpers.is_empty() {
                    outln!(out, "  helpers: {}", t.helpers.join(", "));
                }
            }
            Err(u) => {
                ok = false;
                outln!(out, "  not translated: {}", u.message);
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

fn list_rules(out: &mut Output, rules: &RuleSet, format: Format) {
    let entries: Vec<serde_json::Value> = rules
        .rules
        .iter()
        .map(|r| {
            let verification = crate::rules::evidence::status(r);
            serde_json::json!({
                "code": r.code,
                "name": r.name,
                "family": r.family,
                "summary": r.summary,
                "approximate": r.approximate,
                "forms": r.forms().into_iter().map(|(f, _)| f).collect::<Vec<_>>(),
                "evidence": crate::rules::evidence::level(r).as_str(),
                "verification": verification,
            })
        })
        .collect();
    match format {
        Format::Json => outln!(
            out,
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
                if let Some(d) = &r.decomposition {
                    status = format!("through {}", d.rules.join(", "));
                } else if r.unverifiable.is_some() {
                    status.clear(); // the level says it all; `explain` gives the reason
                }
                outln!(
                    out,
                    "{:<6} {:<22} {:>4} forms  {:<19} {:<40} {}",
                    r.code,
                    r.name,
                    forms,
                    e["evidence"].as_str().unwrap_or(""),
                    status,
                    r.summary
                );
            }
        }
    }
}

/// A backup suffix names a file beside the source: never empty (the backup would be the source)
/// and never a path.
fn backup_suffix(s: &str) -> Result<std::ffi::OsString, String> {
    if s.is_empty() {
        Err("the suffix is empty: the backup would be the source itself".into())
    } else if s.contains('/') {
        Err("the suffix contains '/': a backup is kept beside its source".into())
    } else {
        Ok(s.into())
    }
}
