//! `ptx2hip check`: the lint. Every non-portable asm statement, as a report in one of several
//! formats, with an exit code a CI job can gate on.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ValueEnum;
use rayon::prelude::*;

use super::cache::{self, Cache};
use super::output::{outln, warn, Output};
use super::progress::Progress;
use super::{conclude, display_path, Input, Rules};
use crate::baseline::Baseline;
use crate::codes::{Code, Level};
use crate::config::select::{self, PerFileIgnores, Selection, Selector};
use crate::lint::{self, Linted, Settings};
use crate::pipeline::{self, Options};
use crate::report::{self, Diagnostic, Paint, Statistics};

#[derive(clap::Args)]
pub struct LintArgs {
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    format: CheckFormat,
    /// Which findings make the exit code 1: any finding, or only those that block a port
    /// (everything but translatable statements and unused suppressions).
    #[arg(long, value_enum, default_value_t = FailOn::Any)]
    fail_on: FailOn,
    /// Print the findings only: no summary line, no notes.
    #[arg(long, short)]
    quiet: bool,
    /// Print how many findings of each code, instruction form and reason, instead of the
    /// findings (human, concise and json formats).
    #[arg(long)]
    statistics: bool,
    /// Report only the findings FILE does not hold (see --write-baseline).
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Record every finding in FILE as a baseline, and exit 0.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    /// Report `ptx2hip: ignore[...]` comments that silence nothing (code L001; as
    /// `--extend-select L001`).
    #[arg(long)]
    report_unused_suppressions: bool,
    /// Report only these finding codes (comma separated or repeated): a code (`U001`), a prefix
    /// of codes (`U` every U code, `U01` U010-U019) or `ALL`; replaces what ptx2hip.toml selects
    /// and ignores [default: every code but L001].
    #[arg(long, value_name = "CODES", value_delimiter = ',', value_parser = Selector::parse)]
    select: Option<Vec<Selector>>,
    /// Report these finding codes (or prefixes) besides the selected ones.
    #[arg(long, value_name = "CODES", value_delimiter = ',', value_parser = Selector::parse)]
    extend_select: Vec<Selector>,
    /// Do not report these finding codes (or prefixes; adds to `ignore` of ptx2hip.toml). The
    /// most specific code or prefix decides: `--select U --ignore U003` reports every U code but
    /// U003; a code selected and ignored as specifically is ignored.
    #[arg(long, value_name = "CODES", value_delimiter = ',', value_parser = Selector::parse)]
    ignore: Vec<Selector>,
    /// Do not report CODES in the files PATTERN matches (`--per-file-ignores 'tests/:U001,T'`;
    /// PATTERN as `--exclude`'s; repeat for several patterns; adds to `per-file-ignores` of
    /// ptx2hip.toml).
    #[arg(long, value_name = "PATTERN:CODES", value_parser = select::per_file_ignore)]
    per_file_ignores: Vec<select::PerFileIgnore>,
    /// The path of the source read from standard input (`-`): how it is shown, matched against
    /// exclusions and recorded in baselines.
    #[arg(long, value_name = "PATH")]
    stdin_filename: Option<PathBuf>,
    /// Exit 0 even when there are findings (they are still reported); errors still exit 2.
    #[arg(long)]
    exit_zero: bool,
    /// Write the report to FILE instead of stdout (replaced whole once complete; never through a
    /// link, never over an input); messages stay on stderr.
    #[arg(
        long,
        short = 'o',
        value_name = "FILE",
        conflicts_with = "write_baseline"
    )]
    output_file: Option<PathBuf>,
    /// Neither read nor write the cache of earlier runs' findings.
    #[arg(long)]
    no_cache: bool,
    /// Where the cache of earlier runs' findings is kept [default: `PTX2HIP_CACHE_DIR`, else
    /// `.ptx2hip_cache` in the current directory].
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    cache_dir: Option<PathBuf>,
}

impl LintArgs {
    /// Whether the report needs every finding once all files are checked: the JSON and SARIF
    /// documents and the statistics (the other formats print each file's as it is done).
    fn prints_all_at_the_end(&self) -> bool {
        self.statistics || matches!(self.format, CheckFormat::Json | CheckFormat::Sarif)
    }

    /// The cache this run reads and writes, unless `--no-cache`.
    fn cache(&self) -> Option<Cache> {
        if self.no_cache {
            return None;
        }
        let dir = self
            .cache_dir
            .clone()
            .or_else(|| std::env::var_os("PTX2HIP_CACHE_DIR").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from(cache::DEFAULT_DIR));
        Some(Cache::open(&dir))
    }
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum CheckFormat {
    /// Diagnostics with the source line and a caret, and a summary.
    Human,
    /// A JSON array of findings (schema in docs/CLI.md).
    Json,
    /// One line per finding: `file:line:column: CODE message`.
    Concise,
    /// GitHub Actions annotations (`::error file=...::message`).
    Github,
    /// A SARIF 2.1.0 log (GitHub code scanning and other viewers).
    Sarif,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum FailOn {
    /// Any finding fails (the default: a tree passes when no PTX is left).
    Any,
    /// Only findings that block a port fail; translatable statements pass.
    Unsupported,
}

/// One input: a file found on disk, or the standard input.
enum Source {
    File(PathBuf),
    Stdin { path: PathBuf, bytes: Vec<u8> },
}

/// What a run works on.
struct Prepared {
    sources: Vec<Source>,
    /// Errors finding the files (the run goes on; the exit code will be 2).
    errors: Vec<String>,
    baseline: Option<Baseline>,
    codes: CommandLineCodes,
}

/// What the command line asks of each file's lint.
#[derive(Clone, Copy)]
struct Asked<'a> {
    args: &'a LintArgs,
    codes: &'a CommandLineCodes,
    /// Whether the human report is coloured (never in an `--output-file`).
    paint: Paint,
}

/// The codes the command line selects and ignores, applied after each file's configuration's.
struct CommandLineCodes {
    selection: Selection,
    /// `--per-file-ignores`, relative to the working directory.
    per_file_ignores: PerFileIgnores,
}

impl CommandLineCodes {
    fn new(args: &LintArgs) -> Result<CommandLineCodes, String> {
        let cwd = std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?;
        let mut extend_select = args.extend_select.clone();
        if args.report_unused_suppressions {
            extend_select.extend(Selector::parse(Code::UnusedSuppression.as_str()));
        }
        Ok(CommandLineCodes {
            selection: Selection {
                select: args.select.clone(),
                extend_select,
                ignore: args.ignore.clone(),
            },
            per_file_ignores: PerFileIgnores::new(&cwd, &args.per_file_ignores)
                .map_err(|e| format!("--per-file-ignores: {e}"))?,
        })
    }
}

pub fn run(input: &Input, args: &LintArgs, rules: &Rules, options: Options) -> ExitCode {
    // The cache file is read while the tree is walked; standard input is never cached.
    let stdin = input.paths.iter().any(|p| p == Path::new("-"));
    std::thread::scope(|scope| {
        let cache = scope.spawn(|| (!stdin).then(|| args.cache()).flatten());
        match prepare(input, args) {
            Ok(prepared) => {
                let cache = cache.join().ok().flatten();
                check(input, args, rules, options, prepared, cache)
            }
            Err(e) => conclude(Output::stdout(), vec![e], ExitCode::SUCCESS),
        }
    })
}

/// The inputs, the settings and the baseline, or why the run cannot start.
fn prepare(input: &Input, args: &LintArgs) -> Result<Prepared, String> {
    if args.statistics && matches!(args.format, CheckFormat::Github | CheckFormat::Sarif) {
        return Err(
            "--statistics prints counts: use it with --format human, concise or json".into(),
        );
    }
    // The working directory's configuration (or --config's) must be readable to start at all.
    input.selection.working_directory_config()?;
    let baseline = args.baseline.as_deref().map(Baseline::read).transpose()?;
    let codes = CommandLineCodes::new(args)?;
    let stdin = input.paths.iter().any(|p| p == Path::new("-"));
    if !stdin {
        if args.stdin_filename.is_some() {
            return Err("--stdin-filename needs `-` (standard input) as the path".into());
        }
        let (files, errors) = input.files();
        return Ok(Prepared {
            sources: files.into_iter().map(|f| Source::File(f.path)).collect(),
            errors,
            baseline,
            codes,
        });
    }
    if input.paths.len() > 1 {
        return Err("`-` (standard input) must be the only path".into());
    }
    let path = args
        .stdin_filename
        .clone()
        .unwrap_or_else(|| PathBuf::from("-"));
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| format!("standard input: {e}"))?;
    let sources = if input.selection.keeps(&path)? {
        vec![Source::Stdin { path, bytes }]
    } else {
        Vec::new()
    };
    Ok(Prepared {
        sources,
        errors: Vec::new(),
        baseline,
        codes,
    })
}

fn check(
    input: &Input,
    args: &LintArgs,
    rules: &Rules,
    options: Options,
    run: Prepared,
    cache: Option<Cache>,
) -> ExitCode {
    let Prepared {
        sources,
        mut errors,
        baseline,
        codes,
    } = run;
    let record = args.write_baseline.as_deref().map(Baseline::new);
    let asked = Asked {
        args,
        codes: &codes,
        paint: Paint {
            colour: args.output_file.is_none() && super::output::colour_stdout(),
        },
    };
    // The codes reported are each file's.
    let settings = Settings {
        ignore: &[],
        report_unused_suppressions: false,
        baseline: baseline.as_ref(),
        record: record.as_ref(),
    };
    // Each file is read, checked and its part of the report rendered on its own (rendering
    // snippets costs as much as scanning); only the reports are kept, in walk order.
    let memo = pipeline::Memo::default();
    let progress = Progress::new(
        sources.len() as u64,
        !args.quiet && matches!(args.format, CheckFormat::Human | CheckFormat::Concise),
    );
    let reports: Vec<Result<FileReport, Unread>> = sources
        .par_iter()
        .map(|source| {
            let report = FileReport::of(
                source,
                input,
                rules,
                options,
                &settings,
                &asked,
                &memo,
                cache.as_ref(),
            );
            progress.inc();
            report
        })
        .collect();
    progress.finish();
    if let Some(cache) = cache {
        cache.save(|| {
            sources
                .iter()
                .filter_map(|s| match s {
                    Source::File(p) => std::path::absolute(p).ok()?.to_str().map(str::to_owned),
                    Source::Stdin { .. } => None,
                })
                .collect()
        });
    }
    let mut out = match &args.output_file {
        Some(path) => {
            let inputs = sources.iter().filter_map(|s| match s {
                Source::File(p) => Some(p.clone()),
                Source::Stdin { .. } => None,
            });
            Output::file(path, inputs.chain(args.baseline.clone()).collect())
        }
        None => Output::stdout(),
    };
    let mut totals = Totals::default();
    let mut all = Vec::new();
    let mut fails = false;
    let mut recorded = record;
    for report in reports {
        let report = match report {
            Ok(r) => r,
            Err(Unread { message, report }) => {
                errors.push(message);
                match report {
                    Some(r) => *r,
                    None => continue,
                }
            }
        };
        totals.merge(&report.totals);
        fails |= report.fails;
        if let Some(b) = recorded.as_mut() {
            report.linted.recorded.into_iter().for_each(|k| b.add(k));
        }
        if !args.statistics && recorded.is_none() {
            out.write(report.text.as_bytes());
        }
        all.extend(report.linted.reported.into_iter().map(|(d, _)| d));
    }
    let seen: HashSet<String> = match recorded.as_ref().or(baseline.as_ref()) {
        Some(b) => sources
            .iter()
            .map(|s| match s {
                Source::File(p) | Source::Stdin { path: p, .. } => b.file_of(p),
            })
            .collect(),
        None => HashSet::new(),
    };
    if let (Some(path), Some(b)) = (&args.write_baseline, recorded.as_mut()) {
        // A baseline already there keeps the findings of the files this run did not check;
        // a file there that is not a baseline is the user's, never overwritten.
        if path.exists() {
            match Baseline::read(path) {
                Ok(previous) => b.keep_uncovered(&previous, &seen),
                Err(e) => {
                    errors.push(format!("{e}: not overwritten"));
                    return conclude(out, errors, ExitCode::SUCCESS);
                }
            }
        }
        let inputs = sources.iter().filter_map(|s| match s {
            Source::File(p) => Some(p.as_path()),
            Source::Stdin { .. } => None,
        });
        if let Err(e) = super::write::output(path, b.to_json().as_bytes(), inputs) {
            errors.push(format!("{}: {e}", path.display()));
        } else if !args.quiet {
            warn(format_args!(
                "ptx2hip: wrote a baseline of {} finding{} to {}",
                b.len(),
                plural(b.len()),
                path.display()
            ));
        }
        return conclude(out, errors, ExitCode::SUCCESS);
    }
    finish_report(&mut out, args, &all, &totals);
    if let (Some(b), false) = (&baseline, args.quiet) {
        let gone = b.len_covered(&seen).saturating_sub(totals.baselined);
        if gone > 0 {
            warn(format_args!(
                "ptx2hip: note: {gone} finding{} of the baseline {} gone; --write-baseline {} records the smaller set",
                plural(gone),
                if gone == 1 { "is" } else { "are" },
                args.baseline.as_deref().unwrap_or(Path::new("FILE")).display()
            ));
        }
    }
    conclude(
        out,
        errors,
        if fails && !args.exit_zero {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        },
    )
}

/// What is printed once every file is done: the JSON or SARIF document, the statistics, the
/// summary.
fn finish_report(out: &mut Output, args: &LintArgs, all: &[Diagnostic], totals: &Totals) {
    if args.statistics {
        let mut stats = Statistics::default();
        all.iter().for_each(|d| stats.add(d));
        match args.format {
            CheckFormat::Json => outln!(out, "{}", stats.json()),
            _ => out.write(stats.text().as_bytes()),
        }
    } else {
        match args.format {
            CheckFormat::Json => {
                let json: Vec<_> = all.iter().map(report::diagnostic_json).collect();
                outln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(&json).unwrap_or_else(|_| "[]".into())
                );
            }
            CheckFormat::Sarif => outln!(out, "{}", report::sarif(all)),
            CheckFormat::Human | CheckFormat::Concise | CheckFormat::Github => {}
        }
    }
    let summarised = matches!(args.format, CheckFormat::Human | CheckFormat::Concise)
        || (args.statistics && args.format != CheckFormat::Json);
    if summarised && !args.quiet {
        if args.statistics {
            outln!(out, "");
        }
        outln!(out, "{}", totals.summary());
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Counts over the run, for the summary line.
#[derive(Default)]
struct Totals {
    files: usize,
    translatable: usize,
    unsupported: usize,
    unused_suppressions: usize,
    malformed_suppressions: usize,
    /// Generated AMD branches edited by hand (`L003`) and files whose generated branches another
    /// version or other options wrote (`L004`): about generated code, not statements to port.
    edited_branches: usize,
    other_version_files: usize,
    /// Statements in `__CUDA_ARCH__` arms the AMD device compilation does not take (`T002`).
    other_arch: usize,
    /// Translated mbarrier and counted-barrier waits that can hang on AMD (`T003`), counted among
    /// the translatable.
    same_wave_waits: usize,
    suppressed: usize,
    baselined: usize,
}

impl Totals {
    fn add(&mut self, l: &Linted) {
        let mut statements = 0;
        for (d, _) in &l.reported {
            match d.code {
                Code::Translatable => self.translatable += 1,
                Code::UnusedSuppression => self.unused_suppressions += 1,
                Code::MalformedSuppression => self.malformed_suppressions += 1,
                Code::OtherArchArm => self.other_arch += 1,
                Code::SameWaveWait => self.same_wave_waits += 1,
                Code::GeneratedCodeEdited => self.edited_branches += 1,
                Code::GeneratedByOtherVersion => self.other_version_files += 1,
                _ => self.unsupported += 1,
            }
            statements += usize::from(
                !d.code.is_about_a_comment()
                    && !matches!(
                        d.code,
                        Code::OtherArchArm
                            | Code::SameWaveWait
                            | Code::GeneratedCodeEdited
                            | Code::GeneratedByOtherVersion
                    ),
            );
        }
        self.files += usize::from(statements > 0);
        self.suppressed += l.suppressed;
        self.baselined += l.baselined;
    }

    fn merge(&mut self, o: &Totals) {
        self.files += o.files;
        self.translatable += o.translatable;
        self.unsupported += o.unsupported;
        self.unused_suppressions += o.unused_suppressions;
        self.malformed_suppressions += o.malformed_suppressions;
        self.edited_branches += o.edited_branches;
        self.other_version_files += o.other_version_files;
        self.other_arch += o.other_arch;
        self.same_wave_waits += o.same_wave_waits;
        self.suppressed += o.suppressed;
        self.baselined += o.baselined;
    }

    fn summary(&self) -> String {
        let mut line = report::summary(self.files, self.translatable, self.unsupported);
        let mut extra = Vec::new();
        if self.other_arch > 0 {
            let n = self.other_arch;
            extra.push(format!(
                "{n} in `__CUDA_ARCH__` arm{} AMD does not take",
                plural(n)
            ));
        }
        if self.same_wave_waits > 0 {
            let n = self.same_wave_waits;
            extra.push(format!(
                "{n} barrier wait{} that can hang on AMD (T003)",
                plural(n)
            ));
        }
        if self.unused_suppressions > 0 {
            let n = self.unused_suppressions;
            extra.push(format!("{n} unused suppression{}", plural(n)));
        }
        if self.malformed_suppressions > 0 {
            let n = self.malformed_suppressions;
            extra.push(format!("{n} malformed suppression{}", plural(n)));
        }
        if self.edited_branches > 0 {
            let n = self.edited_branches;
            extra.push(format!(
                "{n} generated branch{} edited by hand (L003)",
                if n == 1 { "" } else { "es" }
            ));
        }
        if self.other_version_files > 0 {
            let n = self.other_version_files;
            extra.push(format!(
                "{n} file{} generated by another version or other options (L004)",
                plural(n)
            ));
        }
        if self.suppressed > 0 {
            extra.push(format!("{} suppressed by comments", self.suppressed));
        }
        if self.baselined > 0 {
            extra.push(format!("{} in the baseline", self.baselined));
        }
        if !extra.is_empty() {
            line += &format!(" ({})", extra.join(", "));
        }
        line
    }
}

/// One file's part of the `check` report.
struct FileReport {
    /// The text printed as the file is done (human, concise and GitHub formats).
    text: String,
    /// Its findings counted for the summary.
    totals: Totals,
    /// Whether one of its findings fails the run (`--fail-on`).
    fails: bool,
    /// Its lint; the findings themselves only for the formats and options that print them all at
    /// the end (JSON, SARIF, statistics), so that the others are dropped by the workers.
    linted: Linted,
}

impl FileReport {
    fn new(text: String, mut linted: Linted, args: &LintArgs) -> FileReport {
        let mut totals = Totals::default();
        totals.add(&linted);
        let fails = linted.reported.iter().any(|(d, _)| match args.fail_on {
            FailOn::Any => true,
            FailOn::Unsupported => d.code.level() == Level::Error,
        });
        if !args.prints_all_at_the_end() {
            linted.reported = Vec::new();
        }
        FileReport {
            text,
            totals,
            fails,
            linted,
        }
    }
}

/// A file that could not be read: an error (exit 2), and for the JSON and SARIF documents also
/// an `E003` finding, so that the document lists every input it did not check.
fn unreadable(path: &Path, e: &std::io::Error, settings: &Settings, args: &LintArgs) -> Unread {
    let shown = display_path(path);
    let message = format!("{shown}: {e}");
    let report = matches!(args.format, CheckFormat::Json | CheckFormat::Sarif).then(|| {
        let outcome = pipeline::FileOutcome {
            diagnostics: vec![pipeline::FileDiagnostic {
                code: Code::UnreadableFile,
                offset: None,
                line: 1,
                column: 1,
                message: format!("the file could not be read: {e}"),
            }],
            ..Default::default()
        };
        Box::new(FileReport::new(
            String::new(),
            lint::lint(&shown, path, b"", &outcome, settings),
            args,
        ))
    });
    Unread { message, report }
}

/// A file [`unreadable`] found.
struct Unread {
    message: String,
    report: Option<Box<FileReport>>,
}

impl FileReport {
    /// The report of one file, under the settings of its own configuration: its findings from
    /// the cache when an earlier run checked the same bytes under the same options.
    #[allow(clippy::too_many_arguments)]
    fn of(
        source: &Source,
        input: &Input,
        rules: &Rules,
        options: Options,
        settings: &Settings,
        asked: &Asked,
        memo: &pipeline::Memo,
        cache: Option<&Cache>,
    ) -> Result<FileReport, Unread> {
        let Asked { args, codes, paint } = *asked;
        let path = match source {
            Source::File(path) | Source::Stdin { path, .. } => path,
        };
        let config = match input.selection.config_of(path) {
            Ok(c) => c,
            Err(message) => {
                return Err(Unread {
                    message,
                    report: None,
                })
            }
        };
        let reported = select::reported(&[&config.config.selection, &codes.selection], |code| {
            config.per_file_ignores.ignores(path, code)
                || codes.per_file_ignores.ignores(path, code)
        });
        let ignore: Vec<Code> = Code::ALL
            .iter()
            .copied()
            .filter(|c| !reported.contains(c))
            .collect();
        let settings = &Settings {
            ignore: &ignore,
            report_unused_suppressions: reported.contains(&Code::UnusedSuppression),
            ..*settings
        };
        let scan_options = &input.scan_options(&config.config);
        let options = input.options_for(&config.config, options);
        let read;
        let (path, bytes) = match source {
            Source::File(path) => {
                read = match ReadBuffer::read(path) {
                    Ok(r) => r,
                    Err(e) => return Err(unreadable(path, &e, settings, args)),
                };
                (path, read.bytes())
            }
            Source::Stdin { path, bytes } => (path, bytes.as_slice()),
        };
        let shown = display_path(path);
        // Standard input named by --stdin-filename finds its local headers beside that path.
        let located = (path.as_path() != Path::new("-")).then_some(path.as_path());
        // Standard input is never cached: it has no file to key the entry by.
        let unscanned = pipeline::unscanned(bytes);
        let key = match (&unscanned, source) {
            (None, Source::File(_)) => cache.and_then(|_| {
                cache::Key::new(path, bytes, &format!("{options:?}\n{scan_options:?}"))
            }),
            _ => None,
        };
        let rendering = cache::Rendered::key(&shown, paint.colour);
        let mut hit = cache.zip(key.as_ref()).and_then(|(c, k)| c.get(k));
        let stored_rendering = hit.as_mut().map(|h| std::mem::take(&mut h.rendered));
        let computed;
        let outcome = match &hit {
            Some(hit) => &hit.outcome,
            None => {
                computed = match unscanned {
                    Some(outcome) => outcome,
                    None => pipeline::process_file_with(
                        bytes,
                        located,
                        rules.get().map_err(|message| Unread {
                            message,
                            report: None,
                        })?,
                        options,
                        scan_options,
                        Some(memo),
                        crate::emit::Placement::Inline,
                    ),
                };
                &computed
            }
        };
        let mut rendered = stored_rendering
            .unwrap_or_else(|| cache::Rendered::empty(rendering, outcome.findings.len()));
        // Lines, columns and snippets as the compiler reads the lines (a lone CR ends one).
        let bytes = &crate::scan::with_compiler_lines(bytes)[..];
        let linted = lint::lint(&shown, path, bytes, outcome, settings);
        let mut text = String::new();
        let mut newlines = None;
        let mut rendered_now = false;
        for (d, origin) in &linted.reported {
            match (args.format, origin) {
                (CheckFormat::Human, Some(i)) => {
                    if let Some(piece) = rendered.piece(rendering, *i) {
                        text += piece;
                    } else {
                        let newlines = newlines.get_or_insert_with(|| report::Newlines::new(bytes));
                        let finding = &outcome.findings[*i];
                        let piece =
                            report::render_finding_in(&shown, bytes, newlines, finding, paint);
                        // Kept only where there is a cache entry to keep it in.
                        if key.is_some() {
                            rendered.keep(rendering, outcome.findings.len(), *i, &piece);
                            rendered_now = true;
                        }
                        text += &piece;
                    }
                    text.push_str("\n\n");
                }
                (CheckFormat::Human, None) => {
                    text += &report::render_diagnostic(d, paint);
                    text.push('\n');
                }
                (CheckFormat::Concise, _) => {
                    text += &report::concise(d);
                    text.push('\n');
                }
                (CheckFormat::Github, _) => {
                    text += &report::github(d);
                    text.push('\n');
                }
                (CheckFormat::Json | CheckFormat::Sarif, _) => {}
            }
        }
        if let (Some(cache), Some(key)) = (cache, key) {
            if hit.is_none() {
                cache.put(key, outcome, rendered);
            } else if let (Some(mut hit), true) = (hit, rendered_now) {
                hit.rendered = rendered;
                cache.renew(key, hit);
            }
        }
        Ok(FileReport::new(text, linted, asked.args))
    }
}

/// A file's bytes in a buffer its worker thread reuses for the next file: a run reads thousands
/// of files, and a fresh allocation for each large one costs the page faults of new memory.
///
/// The file is read straight into the buffer until a read returns nothing: `open`, `read`,
/// `read`, `close`. `read_to_end` also asked the file's size and position (`statx`, `lseek`)
/// and probed for the end, seven system calls a file; a warm run over 13,899 files spent a
/// tenth of its reading in the extra ones.
struct ReadBuffer {
    /// Initialised to its full length once, reused: only `buffer[..filled]` is the file.
    buffer: Vec<u8>,
    filled: usize,
}

thread_local! {
    static SPARE: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The buffer's first size: most source files fit.
const FIRST_BUFFER: usize = 256 * 1024;

impl ReadBuffer {
    fn read(path: &Path) -> std::io::Result<ReadBuffer> {
        let mut read = ReadBuffer {
            buffer: SPARE.take(),
            filled: 0,
        };
        let mut file = std::fs::File::open(path)?;
        loop {
            if read.filled == read.buffer.len() {
                let grown = (read.buffer.len() * 2).max(FIRST_BUFFER);
                read.buffer.resize(grown, 0);
            }
            match file.read(&mut read.buffer[read.filled..]) {
                Ok(0) => return Ok(read),
                Ok(n) => read.filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn bytes(&self) -> &[u8] {
        &self.buffer[..self.filled]
    }
}

impl Drop for ReadBuffer {
    fn drop(&mut self) {
        SPARE.set(std::mem::take(&mut self.buffer));
    }
}
