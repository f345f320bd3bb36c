//! `ptx2hip translate`: a unified diff on stdout, the sources rewritten in place, or translated
//! copies under an output directory; for `-`, the translated standard input on stdout (an
//! editor's filter).
//!
//! Each file goes read → translate → write on its own, in parallel, so memory holds a few files
//! at a time rather than the tree, and a file rewritten in place is written right after its own
//! read, and only if it did not change meanwhile (see [`write`]).

use std::collections::hash_map::{Entry, HashMap};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use rayon::prelude::*;

use super::diff_root::DiffRoot;
use super::output::{warn, warn_text, Output};
use super::progress::Progress;
use super::shared_helpers::SharedHeader;
use super::summary::Summary;
use super::{conclude, display_path, write, Input};
use crate::codes::Code;
use crate::emit::{self, diff, Needs, Placement};
use crate::lower::RuleSet;
use crate::pipeline::{self, Options};
use crate::report;
use crate::walk::SourceFile;

/// Where translations go.
pub enum Mode {
    /// A unified diff naming files relative to `root` (see [`DiffRoot`]).
    Diff {
        root: Option<PathBuf>,
    },
    /// Each source rewritten; with `backup`, its original kept under its name plus that suffix.
    InPlace {
        backup: Option<OsString>,
    },
    OutDir(PathBuf),
}

/// `--helpers FILE` and how files include it.
pub struct Helpers<'a> {
    pub path: &'a Path,
    /// `--include-as NAME`.
    pub include_as: Option<&'a str>,
}

/// Translates every input (with `helpers`, into files that include that shared header, written
/// first); ends with the summary line on stderr. The path `-` is standard input, named
/// `stdin_filename`.
pub fn run(
    input: &Input,
    rules: &RuleSet,
    options: Options,
    mode: &Mode,
    helpers: Option<Helpers>,
    stdin_filename: Option<&Path>,
    statistics: bool,
) -> ExitCode {
    if input.paths.iter().any(|p| p == Path::new("-")) {
        let refused = if input.paths.len() > 1 {
            Some("`-` (standard input) must be the only path")
        } else if !matches!(mode, Mode::Diff { root: None }) || helpers.is_some() {
            Some("`-` (standard input) is translated to stdout: not with --in-place, --out-dir, --diff-root or --helpers")
        } else {
            None
        };
        return match refused {
            Some(why) => conclude(Output::stdout(), vec![why.into()], ExitCode::SUCCESS),
            None => from_stdin(input, rules, options, stdin_filename, statistics),
        };
    }
    if stdin_filename.is_some() {
        let why = "--stdin-filename needs `-` (standard input) as the path";
        return conclude(Output::stdout(), vec![why.into()], ExitCode::SUCCESS);
    }
    let (mut files, mut errors) = input.files();
    let emit_mode = options.emit.unwrap_or(emit::EmitMode::Guarded);
    let opened = helpers.map(|h| {
        let modes = (emit_mode, options.target);
        let out_dir = matches!(mode, Mode::OutDir(_));
        SharedHeader::open(h.path, h.include_as, modes, rules, out_dir)
    });
    let mut header = match opened.transpose() {
        Ok(h) => h,
        Err(e) => {
            errors.push(e);
            return conclude(Output::stdout(), errors, ExitCode::SUCCESS);
        }
    };
    if matches!(mode, Mode::InPlace { .. }) {
        keep_inside_the_named_paths(&mut files, &input.paths);
    }
    if let Some(h) = &header {
        files.retain(|f| !h.is(&f.path));
    }
    let out_dir = match mode {
        Mode::OutDir(dir) => match open_out_dir(dir, &input.paths, &files) {
            Ok(d) => Some(d),
            Err(refused) => {
                errors.extend(refused);
                return conclude(Output::stdout(), errors, ExitCode::SUCCESS);
            }
        },
        _ => None,
    };
    let diff_root = match mode {
        Mode::Diff { root } => match DiffRoot::new(root.as_deref()) {
            Ok(r) => Some(r),
            Err(e) => {
                errors.push(format!("--diff-root: {e}"));
                return conclude(Output::stdout(), errors, ExitCode::SUCCESS);
            }
        },
        _ => None,
    };
    let mut out = Output::stdout();
    let paint = report::Paint {
        colour: super::output::colour_stdout(),
    };
    if let Some(h) = &mut header {
        // The header first: a run stopped before it is written has rewritten no file.
        let target = Target {
            mode,
            out_dir: out_dir.as_ref(),
            diff_root: diff_root.as_ref(),
            input,
            header: Some(h),
        };
        let used = files
            .par_iter()
            .filter_map(|f| translate_file(f, rules, options, &target, Pass::Needs).needs)
            .reduce(Needs::default, |mut a, b| {
                a.merge(&b);
                a
            });
        let mut diff = Vec::new();
        if let Err(e) = h.finish(&used, rules, diff_root.as_ref(), &mut diff) {
            errors.push(e);
            return conclude(out, errors, ExitCode::SUCCESS);
        }
        out.write(&paint.diff(&diff));
        if h.by_relative_path() {
            note_includes_out_of_the_tree(h, &files, &input.paths, out_dir.as_ref());
        }
    }
    let target = Target {
        mode,
        out_dir: out_dir.as_ref(),
        diff_root: diff_root.as_ref(),
        input,
        header: header.as_ref(),
    };
    let progress = Progress::new(files.len() as u64, true);
    let done: Vec<Done> = files
        .par_iter()
        .map(|file| {
            let done = translate_file(file, rules, options, &target, Pass::Write);
            progress.inc();
            done
        })
        .collect();
    progress.finish();
    let mut summary = Summary::default();
    let mut used = Needs::default();
    for d in done {
        warn_text(&d.notes);
        out.write(&paint.diff(&d.diff));
        errors.extend(d.error);
        summary.merge(d.summary);
        if let Some(n) = &d.needs {
            used.merge(n);
        }
    }
    if let Some(h) = header.as_ref().filter(|h| !h.defines(&used)) {
        errors.push(format!(
            "{}: files changed while ptx2hip ran and now use helpers the header does not define: run again",
            display_path(h.path())
        ));
    }
    let swept = sweep_interrupted_runs(&files, &target);
    if swept > 0 {
        warn(format_args!(
            "ptx2hip: note: removed {swept} temporary file{} (.ptx2hip-*.tmp) left by an interrupted run",
            if swept == 1 { "" } else { "s" }
        ));
    }
    warn_text(&summary.render(statistics));
    conclude(out, errors, ExitCode::SUCCESS)
}

/// Warns when files include the header by a relative path that leaves the directory named on
/// the command line they were found in (or the output directory): a header installed from that
/// tree (a public `include/`) would name a file that is not installed with it. `--include-as` is
/// the remedy. Files named one by one form no tree.
fn note_includes_out_of_the_tree(
    header: &SharedHeader,
    files: &[SourceFile],
    roots: &[PathBuf],
    out_dir: Option<&write::OutDir>,
) {
    // Each tree as named, and where it lies.
    let tree_of = |f: &SourceFile| -> Option<(PathBuf, PathBuf)> {
        let tree = match out_dir {
            Some(dir) => dir.path().to_path_buf(),
            None => {
                let up = f.relative.components().count();
                let tree = f.path.ancestors().nth(up.max(1))?;
                roots.iter().find(|r| r.as_path() == tree)?.clone()
            }
        };
        Some((resolve(&tree).ok()?, tree))
    };
    let mut trees: Vec<(PathBuf, PathBuf)> = files.iter().filter_map(tree_of).collect();
    trees.sort();
    trees.dedup_by(|a, b| a.0 == b.0);
    trees.retain(|(real, _)| !header.is_under(real));
    if let Some((_, first)) = trees.first() {
        warn(format_args!(
            "ptx2hip: warning: the files under {}{} include {} by a relative path out of that tree: a copy installed from the tree would not find it (--include-as NAME writes `#include \"NAME\"`, found through -I)",
            display_path(first),
            match trees.len() - 1 {
                0 => String::new(),
                n => format!(" (and {n} more)"),
            },
            display_path(header.path())
        ));
    }
}

/// `--in-place` rewrites what the user named: a walked file that a followed link (`--follow`)
/// reaches outside every named path (a vendored include directory, the system's CUDA headers)
/// is left alone, with a note naming where it lies. A file named on the command line is
/// rewritten where it lies, link or not.
fn keep_inside_the_named_paths(files: &mut Vec<SourceFile>, roots: &[PathBuf]) {
    let real_roots: Vec<PathBuf> = roots
        .iter()
        .filter_map(|r| std::fs::canonicalize(r).ok())
        .collect();
    files.retain(|f| {
        if roots.contains(&f.path) {
            return true;
        }
        match std::fs::canonicalize(&f.path) {
            Ok(real) if !real_roots.iter().any(|r| real.starts_with(r)) => {
                warn(format_args!(
                    "ptx2hip: note: {}: reached through a symbolic link, it lies outside the named paths ({}): not rewritten (name it to rewrite it)",
                    display_path(&f.path),
                    real.display()
                ));
                false
            }
            _ => true,
        }
    });
}

/// Removes what interrupted runs left in the directories this run writes to (see
/// [`write::sweep_interrupted`]); how many files.
fn sweep_interrupted_runs(files: &[SourceFile], target: &Target) -> usize {
    let written: BTreeSet<PathBuf> = files
        .iter()
        .filter_map(|f| match (target.mode, target.out_dir) {
            (Mode::InPlace { .. }, _) => std::fs::canonicalize(&f.path)
                .ok()?
                .parent()
                .map(Path::to_path_buf),
            (_, Some(dir)) => dir.path().join(&f.relative).parent().map(Path::to_path_buf),
            _ => None,
        })
        .collect();
    written.iter().map(|d| write::sweep_interrupted(d)).sum()
}

/// What became of one file: messages for stderr, its diff, or why it failed.
#[derive(Default)]
struct Done {
    notes: String,
    diff: Vec<u8>,
    error: Option<String>,
    summary: Summary,
    /// What the file needs from the shared header (with `--helpers`).
    needs: Option<Needs>,
}

/// Where the translations of a run go, and what the scanner is told.
struct Target<'a> {
    mode: &'a Mode,
    out_dir: Option<&'a write::OutDir>,
    diff_root: Option<&'a DiffRoot>,
    /// Each file's configuration: the macros its scan is told.
    input: &'a Input,
    header: Option<&'a SharedHeader>,
}

/// Whether a translation is written, or only tells what it needs from the shared header.
#[derive(Clone, Copy, PartialEq)]
enum Pass {
    Needs,
    Write,
}

fn translate_file(
    file: &SourceFile,
    rules: &RuleSet,
    options: Options,
    target: &Target,
    pass: Pass,
) -> Done {
    let (mode, out_dir) = (target.mode, target.out_dir);
    let path = display_path(&file.path);
    let mut done = Done::default();
    let failed = |e: io::Error| Done {
        error: Some(format!("{path}: {e}")),
        ..Done::default()
    };
    let config = match target.input.selection.config_of(&file.path) {
        Ok(c) => c,
        Err(e) => {
            return Done {
                error: Some(e),
                ..Done::default()
            }
        }
    };
    let scan_options = target.input.scan_options(&config.config);
    let options = target.input.options_for(&config.config, options);
    let original = match write::Original::read(&file.path) {
        Ok(o) => o,
        Err(e) => return failed(e),
    };
    let source = original.bytes();
    let include = match target.header.map(|h| include_for(h, file, target)) {
        Some(Ok(i)) => Some(i),
        Some(Err(e)) => {
            return Done {
                error: Some(format!("{path}: {e}")),
                ..Done::default()
            }
        }
        None => None,
    };
    let placement = include
        .as_deref()
        .map_or(Placement::Inline, |include| Placement::Shared { include });
    let mut outcome = pipeline::process_file_with(
        source,
        Some(&file.path),
        rules,
        options,
        &scan_options,
        None,
        placement,
    );
    if let (None, None, Some(include)) = (&outcome.rewritten, &outcome.refused, &include) {
        // Translated before: only the include may need to follow the file (or the header), or
        // the file's own helper block give way to it.
        let emit_mode = options.emit.unwrap_or(emit::EmitMode::Guarded);
        match emit::relink(source, include, rules, emit_mode, options.target) {
            Ok(relinked) => outcome.rewritten = relinked,
            Err(why) => outcome.refused = Some(why),
        }
    }
    if let Some(why) = &outcome.refused {
        done.summary.add(&outcome, scan_options.macros.cuda_arch);
        done.summary.not_written(&outcome);
        done.error = Some(format!("{path}: {why}"));
        return done;
    }
    done.summary.add(&outcome, scan_options.macros.cuda_arch);
    done.notes = notes(&path, &outcome);
    let rewritten = outcome.rewritten.as_ref();
    if target.header.is_some() {
        done.needs = emit::needs_of(rewritten.map_or(source, |r| &r.bytes)).filter(|n| n.shared);
    }
    if pass == Pass::Needs {
        return done;
    }
    let written = match (out_dir, rewritten) {
        (Some(dir), _) => dir
            .write(&file.relative, rewritten.map_or(source, |r| &r.bytes))
            .map_err(|e| format!("{}: {e}", display_path(&dir.path().join(&file.relative)))),
        (None, Some(r)) if matches!(mode, Mode::InPlace { .. }) => {
            let backup = match mode {
                Mode::InPlace { backup } => backup.as_deref(),
                _ => None,
            };
            original
                .replace(&r.bytes, backup)
                .map_err(|e| format!("{path}: {e}"))
        }
        (None, Some(r)) => target
            .diff_root
            .map_or(Ok(path.clone().into_bytes()), |root| root.name(&file.path))
            .and_then(|name| {
                // What made the file's patch, on a line of its own before it (`git apply`
                // reads past it).
                let record = emit::record::Record::current(
                    options.settings(),
                    options.emit.unwrap_or(emit::EmitMode::Guarded),
                    options.provenance,
                    scan_options.macros.cuda_arch,
                );
                if r.bytes != source {
                    done.diff
                        .extend_from_slice(format!("{record}\n").as_bytes());
                }
                diff::write_unified(&mut done.diff, &name, source, &r.bytes, &r.splices)
                    .map_err(|e| e.to_string())
            })
            .map_err(|e| format!("{path}: {e}")),
        (None, None) => Ok(()),
    };
    if written.is_err() {
        done.summary.not_written(&outcome);
    }
    done.error = written.err();
    done
}

/// What stderr says of a file's translation: its file-level problems and the statements left as
/// written.
fn notes(path: &str, outcome: &pipeline::FileOutcome) -> String {
    let mut notes = String::new();
    for d in &outcome.diagnostics {
        if d.code == Code::OtherArchArm {
            notes += &format!("{path}:{}:{}: {}\n", d.line, d.column, d.message);
        } else {
            notes += &report::render_file_diagnostic(path, d);
        }
    }
    for f in &outcome.findings {
        if let Err(u) = &f.outcome {
            notes += &format!(
                "{path}:{}:{}: not translated: {}\n",
                f.line, f.column, u.message
            );
        }
    }
    notes
}

/// `translate -`: standard input translated on stdout, whole (the input as it is where nothing
/// changes, the file is excluded or cannot be translated: an editor replacing its buffer with
/// the output loses nothing); what is left as written, and the summary, on stderr. `name`
/// (`--stdin-filename`) chooses the configuration and the exclusions, finds local headers, and
/// names the file in messages.
fn from_stdin(
    input: &Input,
    rules: &RuleSet,
    options: Options,
    name: Option<&Path>,
    statistics: bool,
) -> ExitCode {
    let mut out = Output::stdout();
    let mut source = Vec::new();
    if let Err(e) = io::Read::read_to_end(&mut io::stdin(), &mut source) {
        return conclude(out, vec![format!("standard input: {e}")], ExitCode::SUCCESS);
    }
    let path = name.unwrap_or(Path::new("-"));
    let shown = display_path(path);
    let config = match input.selection.keeps(path) {
        Ok(true) => input.selection.config_of(path),
        Ok(false) => {
            warn(format_args!(
                "ptx2hip: note: {shown} is excluded: printed as it is"
            ));
            out.write(&source);
            return conclude(out, Vec::new(), ExitCode::SUCCESS);
        }
        Err(e) => Err(e),
    };
    let config = match config {
        Ok(c) => c,
        Err(e) => {
            out.write(&source);
            return conclude(out, vec![e], ExitCode::SUCCESS);
        }
    };
    let scan_options = input.scan_options(&config.config);
    let options = input.options_for(&config.config, options);
    let located = name.filter(|n| *n != Path::new("-"));
    let outcome = pipeline::process_file_with(
        &source,
        located,
        rules,
        options,
        &scan_options,
        None,
        Placement::Inline,
    );
    let mut summary = Summary::default();
    summary.add(&outcome, scan_options.macros.cuda_arch);
    let mut errors = Vec::new();
    match (&outcome.refused, &outcome.rewritten) {
        (Some(why), _) => {
            summary.not_written(&outcome);
            errors.push(format!("{shown}: {why}"));
            out.write(&source);
        }
        (None, Some(rewritten)) => out.write(&rewritten.bytes),
        (None, None) => out.write(&source),
    }
    warn_text(&notes(&shown, &outcome));
    warn_text(&summary.render(statistics));
    conclude(out, errors, ExitCode::SUCCESS)
}

/// How the file `file` will include the shared header: from where it is written (its resolved
/// path, or its copy under the output directory).
fn include_for(
    header: &SharedHeader,
    file: &SourceFile,
    target: &Target,
) -> Result<String, String> {
    let written = match target.out_dir {
        Some(dir) => resolve(dir.path()).map(|d| d.join(&file.relative)),
        None => std::fs::canonicalize(&file.path),
    };
    if let Some(root) = target.diff_root.filter(|_| header.by_relative_path()) {
        // `git apply` run there creates the header where the file includes it from.
        let (file_root, header_root) = (root.root(&file.path)?, root.root(header.path())?);
        if file_root != header_root {
            return Err(format!(
                "the diff names it relative to {} and the header {} relative to {}: applied there, the patch would not create the header where the file includes it from (put the header under {}, or name a common --diff-root)",
                display_path(&file_root),
                display_path(header.path()),
                display_path(&header_root),
                display_path(&file_root)
            ));
        }
    }
    header.include_from(&written.map_err(|e| e.to_string())?)
}

/// Opens the output directory once writing there is known to lose nothing: it overlaps no input
/// (translated copies would land over or among the sources, and a second run would take them as
/// inputs; `--in-place` is how sources are rewritten), and no two inputs map to the same output
/// path. Nothing is written when either check fails.
fn open_out_dir(
    dir: &Path,
    roots: &[PathBuf],
    files: &[SourceFile],
) -> Result<write::OutDir, Vec<String>> {
    let failed = |e: io::Error| vec![format!("--out-dir {}: {e}", dir.display())];
    let out = resolve(dir).map_err(failed)?;
    for root in roots {
        // A missing input is reported by the walk.
        let Ok(input) = std::fs::canonicalize(root) else {
            continue;
        };
        if out.starts_with(&input) || input.starts_with(&out) {
            return Err(vec![format!(
                "--out-dir {} overlaps the input {}: translated copies would be written over or \
                 among the sources; use --in-place to rewrite the sources, or an output directory \
                 outside the inputs",
                dir.display(),
                root.display()
            )]);
        }
    }
    // A link inside the inputs (followed with --follow) may lead into the output directory:
    // its files would be translated copies of this run's own output, a level deeper each run.
    if let Some(f) = files
        .iter()
        .find(|f| std::fs::canonicalize(&f.path).is_ok_and(|real| real.starts_with(&out)))
    {
        return Err(vec![format!(
            "--out-dir {}: the input {} lies inside it (reached through a symbolic link): nothing was written",
            dir.display(),
            display_path(&f.path)
        )]);
    }
    let mut first: HashMap<&Path, &Path> = HashMap::new();
    let mut clashes = Vec::new();
    for f in files {
        match first.entry(&f.relative) {
            Entry::Vacant(v) => {
                v.insert(&f.path);
            }
            Entry::Occupied(o) => clashes.push(format!(
                "--out-dir: {} and {} would both be written to {}",
                display_path(o.get()),
                display_path(&f.path),
                display_path(&dir.join(&f.relative))
            )),
        }
    }
    if !clashes.is_empty() {
        clashes.push(
            "nothing was written: name the directory that holds both, or translate them in separate runs"
                .into(),
        );
        return Err(clashes);
    }
    write::OutDir::open(dir).map_err(failed)
}

/// `path` made absolute with every link resolved, also where it does not exist yet.
pub(super) fn resolve(path: &Path) -> io::Result<PathBuf> {
    let mut resolved = PathBuf::new();
    let mut exists = true;
    for c in std::path::absolute(path)?.components() {
        let next = resolved.join(c);
        if exists && std::fs::symlink_metadata(&next).is_ok() {
            resolved = std::fs::canonicalize(next)?;
            continue;
        }
        exists = false;
        match c {
            Component::ParentDir => {
                resolved.pop();
            }
            Component::CurDir => {}
            c => resolved.push(c),
        }
    }
    Ok(resolved)
}
