//! One file through every stage: scan → parse/lower each statement → emit.
//!
//! Statements are translated as the scanner hands them over (a segment at a time for large
//! files) and dropped once their replacement text exists, so memory stays bounded by the file's
//! bytes and the compact findings, not by syntax trees or per-statement structures.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Mutex;

use crate::codes::Code;
use crate::emit::{self, EmitMode};
use crate::lower::{self, RuleSet, Target};
use crate::scan::{self, AsmStatement};

/// Options that shape the translation.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub target: Target,
    /// How translations are spliced in; `None` for a lint (`check`), which needs the findings only
    /// and so builds no rewritten file.
    pub emit: Option<EmitMode>,
    /// Comments in the rewritten file: the rules of each translation, and why a statement
    /// stays as written.
    pub provenance: bool,
    /// Whose tensor cores the exact matrix translations reproduce (`--tensor-model`).
    pub tensor_model: lower::TensorModel,
    /// Rules with an inexact `--fast` translation use it.
    pub fast: bool,
    /// The least evidence the rules of a translation must have (`--evidence`).
    pub evidence: crate::rules::evidence::Floor,
}

impl Options {
    /// What lowering is told.
    pub fn settings(&self) -> lower::Settings {
        lower::Settings {
            target: self.target,
            tensor_model: self.tensor_model,
            fast: self.fast,
            evidence: self.evidence,
        }
    }
}

/// What ptx2hip found out about one asm statement.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Finding {
    /// The statement's bytes in the file.
    pub span: Range<usize>,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    /// Instruction forms as written.
    pub instructions: Vec<String>,
    /// The rule codes that translate it, or why it is not translated.
    pub outcome: Result<Vec<String>, NotTranslated>,
    /// Which `__CUDA_ARCH__` arm around it the AMD device compilation takes (`--cuda-arch`).
    pub note: Option<String>,
    /// The rules of its translation below hardware evidence (docs/EVIDENCE.md).
    pub evidence: Vec<crate::rules::evidence::BelowHardware>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NotTranslated {
    /// The kind of reason.
    pub code: Code,
    pub message: String,
    /// File offset the reason is about (the instruction, or the statement).
    pub offset: usize,
}

impl Finding {
    fn new(stmt: &AsmStatement, analysis: &lower::Analysis) -> Finding {
        Finding {
            span: stmt.span.clone(),
            line: stmt.line,
            column: stmt.column,
            end_line: stmt.end_line,
            end_column: stmt.end_column,
            note: None,
            evidence: analysis
                .outcome
                .as_ref()
                .map(|t| t.evidence.clone())
                .unwrap_or_default(),
            instructions: analysis.instructions.clone(),
            outcome: match &analysis.outcome {
                Ok(t) => Ok(t.rules.clone()),
                Err(u) => Err(NotTranslated {
                    code: u.code,
                    message: u.message.clone(),
                    offset: u.file_offset(stmt),
                }),
            },
        }
    }

    /// The finding's code: translatable, or the kind of reason it is not.
    pub fn code(&self) -> Code {
        match &self.outcome {
            Ok(_) => Code::Translatable,
            Err(u) => u.code,
        }
    }
}

/// A problem with a file or a piece of it that is not a statement's translation.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct FileDiagnostic {
    pub code: Code,
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
    /// Why the file is not rewritten although statements were translated (its helper block
    /// edited by hand, see [`emit::apply`]).
    pub refused: Option<String>,
    /// The `__CUDA_ARCH__` conditions the rewritten file tests as `PTX2HIP_CUDA_ARCH` for
    /// `--cuda-arch` (see [`emit::cuda_arch`]).
    pub arch_conditions: usize,
    /// The local headers the scan looked for: with the file's bytes and the options, all the
    /// findings depend on.
    pub headers: Vec<scan::HeaderRead>,
}

/// Whether a file's bytes are read: `Err` with the `E002` finding for UTF-16 or binary bytes,
/// `Ok(false)` for a file with no `asm` to read, `Ok(true)` for text to scan. The lint and the
/// review page (`report`) list such a file alike.
pub fn readable(source: &[u8]) -> Result<bool, FileDiagnostic> {
    let skipped = |message| FileDiagnostic {
        code: Code::BinaryFile,
        offset: None,
        line: 1,
        column: 1,
        message,
    };
    if let Some(encoding) = utf16(source) {
        // Its asm would read `a\0s\0m\0`: without this the file passes as having none.
        return Err(skipped(format!(
            "{encoding} text (byte order mark): ptx2hip reads UTF-8 only; convert it (`iconv -f {encoding} -t UTF-8`) to translate it: skipped"
        )));
    }
    if !scan::may_contain_asm(source) && !scan::tensor_map::may_use_encoder(source) {
        return Ok(false);
    }
    if source.iter().take(8192).any(|&b| b == 0) {
        return Err(skipped("binary file (contains NUL bytes): skipped".into()));
    }
    Ok(true)
}

/// Why a statement whose bytes are not valid UTF-8 is left as written (`U014`): its text could
/// not be carried into a translation unchanged. The lint, `translate` and the review page alike.
pub fn invalid_utf8(source: &[u8], stmt: &AsmStatement) -> Option<lower::Unsupported> {
    let bytes = source.get(stmt.span.clone())?;
    std::str::from_utf8(bytes).is_err().then(|| {
        lower::Unsupported::new(
            Code::InvalidUtf8,
            "the statement contains bytes that are not valid UTF-8; it is left as written".into(),
        )
    })
}

/// Why a translatable statement is left as written when a suppression comment keeps it quiet
/// (`ptx2hip: ignore[T001]`, `ignore[*]`): a translation would drop the NVIDIA original the
/// comment protects. `translate` and the review page alike.
pub fn kept_by_comment(
    source: &[u8],
    suppressions: &[crate::suppress::Suppression],
    stmt: &AsmStatement,
) -> Option<lower::Unsupported> {
    if suppressions.is_empty() {
        return None;
    }
    let text = crate::scan::with_compiler_lines(source.get(stmt.span.clone())?);
    let last = stmt.line + text.iter().filter(|&&b| b == b'\n').count();
    let s = suppressions
        .iter()
        .find(|s| s.covers(Code::Translatable, stmt.line, last))?;
    Some(lower::Unsupported::new(
        Code::Translatable,
        format!(
            "its comment `{}` (line {}) keeps it as written",
            s.text, s.line
        ),
    ))
}

/// The encoding a UTF-16 byte order mark names.
fn utf16(source: &[u8]) -> Option<&'static str> {
    match source {
        [0xFF, 0xFE, ..] => Some("UTF-16LE"),
        [0xFE, 0xFF, ..] => Some("UTF-16BE"),
        _ => None,
    }
}

/// An arm for a message: "`#if X` (line 3)", or "`#else` (line 5) of `#if X` (line 3)".
fn describe_arm(source: &[u8], arm: scan::ArmAt) -> String {
    let directive = |at: usize| {
        let line = 1 + memchr::memchr_iter(b'\n', &source[..at]).count();
        let end = memchr::memchr2(b'\n', b'\r', &source[at..]).map_or(source.len(), |n| at + n);
        let text: String = String::from_utf8_lossy(&source[at..end])
            .trim_end()
            .chars()
            .take(100)
            .collect();
        format!("`{text}` (line {line})")
    };
    if arm.directive == arm.chain {
        directive(arm.chain)
    } else {
        format!("{} of {}", directive(arm.directive), directive(arm.chain))
    }
}

/// Why a statement whose helpers need an initialisation at kernel entry (a counted barrier) stays
/// as written: `why` says which kernels could not be found.
fn unreached_entry(why: &str) -> lower::Unsupported {
    lower::Unsupported::new(
        Code::DeclinedForm,
        format!(
            "a counted barrier is emulated with state in shared memory that translate zeroes at the entry of every kernel that executes it, and {why}; write the barrier in the kernel, or in a `static` device function of the kernel's file (docs/MEMORY_MODEL.md, Barriers)"
        ),
    )
}

/// Where a statement in a `__CUDA_ARCH__` arm that the AMD device compilation takes sits.
pub fn taken_arm_note(source: &[u8], arm: scan::ArmAt, arch: scan::cuda_arch::CudaArch) -> String {
    format!(
        "AMD device code takes its arm {} for `--cuda-arch {arch}`",
        describe_arm(source, arm)
    )
}

/// Why a statement in an arm the AMD device compilation does not take stays as written, naming
/// the arm it takes (`T002`).
pub fn other_arch_message(
    source: &[u8],
    taken: Option<scan::ArmAt>,
    arch: scan::cuda_arch::CudaArch,
) -> String {
    let instead = match taken {
        Some(arm) => format!("takes the arm {} instead", describe_arm(source, arm)),
        None => "takes no arm of this chain".to_string(),
    };
    format!(
        "in an arm for other NVIDIA architectures: with `--cuda-arch {arch}` (`__CUDA_ARCH__` = {}) the AMD device compilation {instead}; left as written for NVIDIA",
        arch.value()
    )
}

/// Whether the `#if`s that choose between the translations of `stmt`'s arms test
/// [`scan::cuda_arch::MACRO`].
fn tests_arch_macro(stmt: &AsmStatement) -> bool {
    stmt.arms.as_ref().is_some_and(|arms| {
        arms.layout.iter().any(|piece| {
            matches!(piece, scan::ArmPiece::Directive(d) if d.contains(scan::cuda_arch::MACRO))
        })
    })
}

/// What the analyses of a lint (`check`, no rewritten file) found, by everything an analysis
/// reads of a statement: a run over a tree meets the same statement text in many places (copied
/// headers, one macro expanded per type), and a statement is analysed once per run. The analysis
/// reads the template text, the qualifiers, the operands (name, constraint, expression, strings),
/// the clobbers and labels; it does not read where the statement sits or its
/// position, so a reason's place in the template is the same wherever the text occurs.
#[derive(Default)]
pub struct Memo {
    analyses: Mutex<HashMap<String, lower::Analysis>>,
}

/// Entries kept at most: a run over a very large tree keeps its memory bounded.
const MEMO_CAPACITY: usize = 1 << 16;

impl Memo {
    /// The analysis of `stmt`, computed once per distinct statement. Only for a lint: the
    /// translation kept here has no code lines.
    fn analysis(
        &self,
        stmt: &AsmStatement,
        rules: &RuleSet,
        settings: lower::Settings,
    ) -> lower::Analysis {
        let key = memo_key(stmt, settings);
        if let Some(found) = self.analyses.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return found;
        }
        let mut analysis = lower::analyze(stmt, rules, settings);
        if let Ok(t) = &mut analysis.outcome {
            t.lines = Vec::new();
            // The one helper the lint still reads: it asks for the kernels that reach the statement.
            t.helpers.retain(|h| h == emit::entry::ENTRY_HELPER);
        }
        if let Ok(mut memo) = self.analyses.lock() {
            if memo.len() >= MEMO_CAPACITY {
                memo.clear();
            }
            memo.insert(key, analysis.clone());
        }
        analysis
    }
}

/// Everything [`lower::analyze`] reads of a statement, as one string.
fn memo_key(stmt: &AsmStatement, settings: lower::Settings) -> String {
    let text = match &stmt.template {
        scan::Template::Known { text, .. } => text.as_str(),
        scan::Template::Unresolved { reason, .. } => reason.as_str(),
    };
    let operands: usize = stmt
        .operands()
        .map(|op| op.constraint.len() + op.expr.len() + 8)
        .sum();
    let mut key = String::with_capacity(text.len() + operands + 32);
    key.push_str(match settings.target {
        Target::Amd => "a",
        Target::Portable => "p",
    });
    key.push_str(settings.tensor_model.placeholder());
    key.push(if settings.fast { 'f' } else { 'x' });
    key.push(match settings.evidence {
        crate::rules::evidence::Floor::Any => '*',
        crate::rules::evidence::Floor::Hardware => 'h',
    });
    key.push(if stmt.is_volatile() { 'v' } else { '-' });
    key.push('\0');
    key.push_str(text);
    for op in stmt.operands() {
        key.push('\0');
        key.push_str(op.name.as_deref().unwrap_or("\x02"));
        key.push('\x01');
        key.push_str(&op.constraint);
        key.push('\x01');
        key.push_str(&op.expr);
        for c in &op.c_strings {
            key.push('\x01');
            key.push_str(c);
        }
    }
    key.push_str("\0:");
    for c in stmt.clobbers.iter().chain(&stmt.goto_labels) {
        key.push('\x01');
        key.push_str(c);
    }
    key
}

/// The outcome of a file that is not scanned ([`readable`]: no `asm` in it, or binary or UTF-16
/// bytes), known without the rule table; `None` for a file to scan.
pub fn unscanned(source: &[u8]) -> Option<FileOutcome> {
    match readable(source) {
        Ok(true) => None,
        Ok(false) => Some(FileOutcome::default()),
        Err(skipped) => Some(FileOutcome {
            diagnostics: vec![skipped],
            ..FileOutcome::default()
        }),
    }
}

/// Runs every stage over text without a file (no local headers) and with no declared macros.
/// Never panics on user input: a file that cannot be handled yields diagnostics and no rewrite.
pub fn process(source: &[u8], rules: &RuleSet, options: Options) -> FileOutcome {
    process_file(source, None, rules, options, &scan::Options::default())
}

/// Runs every stage over one file's bytes (`path` locates the local headers its templates may
/// use; `scan_options` carries the declared macros). Never panics on user input.
pub fn process_file(
    source: &[u8],
    path: Option<&Path>,
    rules: &RuleSet,
    options: Options,
    scan_options: &scan::Options,
) -> FileOutcome {
    process_file_with(
        source,
        path,
        rules,
        options,
        scan_options,
        None,
        emit::Placement::Inline,
    )
}

/// [`process_file`] with the analyses of a lint remembered across files in `memo` (used only
/// when no rewritten file is built, `options.emit` is `None`) and the helpers defined where
/// `placement` says (a shared header).
pub fn process_file_with(
    source: &[u8],
    path: Option<&Path>,
    rules: &RuleSet,
    options: Options,
    scan_options: &scan::Options,
    memo: Option<&Memo>,
    placement: emit::Placement,
) -> FileOutcome {
    let memo = memo.filter(|_| options.emit.is_none());
    if let Some(outcome) = unscanned(source) {
        return outcome;
    }
    let mut outcome = FileOutcome::default();
    let newline = emit::newline_of(source);
    let lines = emit::Lines::new(source);
    let mut edits = Vec::new();
    // A statement its comment keeps quiet (`ptx2hip: ignore[T001]`, `[*]`) is kept as written
    // on purpose: a translation would drop the NVIDIA original the comment protects.
    let suppressions = match options.emit {
        Some(_) => crate::suppress::find(source),
        None => Vec::new(),
    };
    let mut arch_tokens = Vec::new();
    let mut arch_conditions = Vec::new();
    let mut arch_statements = Vec::new();
    // Translated statements that arrive on or wait for an mbarrier (the T003 lint).
    let mut barrier_parties = Vec::new();
    // The file's functions, read once the first statement needs the kernels that reach it, and the
    // kernels whose entry a translation needs (`emit::entry`), by the offset of their body's brace.
    let mut functions: Option<scan::kernels::Functions> = None;
    let mut entries: Vec<usize> = Vec::new();
    scan::scan_each(source, path, scan_options, &mut |part| {
        outcome.headers.extend(part.headers);
        arch_tokens.extend(part.arch_tokens);
        arch_conditions.extend(part.arch_conditions);
        for skipped in part.skipped {
            if let (scan::Skip::OtherArch { taken }, Some(arch)) =
                (skipped.why, scan_options.macros.cuda_arch)
            {
                outcome.diagnostics.push(FileDiagnostic {
                    code: Code::OtherArchArm,
                    offset: Some(skipped.span.start),
                    line: skipped.line,
                    column: skipped.column,
                    message: other_arch_message(source, taken, arch),
                });
            }
        }
        for d in part.diagnostics {
            outcome.diagnostics.push(FileDiagnostic {
                code: Code::UnreadableAsm,
                offset: Some(d.span.start),
                line: d.line,
                column: d.column,
                message: d.message,
            });
        }
        for stmt in part.statements {
            let analysis = if let Some(invalid) = invalid_utf8(source, &stmt) {
                lower::Analysis {
                    instructions: Vec::new(),
                    outcome: Err(invalid),
                }
            } else {
                match memo {
                    // A reason's position in the file is known only for the statement it is about.
                    Some(memo)
                        if stmt.arms.is_none()
                            && stmt.macro_uses().is_none()
                            && matches!(stmt.template, scan::Template::Known { .. }) =>
                    {
                        memo.analysis(&stmt, rules, options.settings())
                    }
                    _ => lower::analyze(&stmt, rules, options.settings()),
                }
            };
            let mut analysis = analysis;
            if analysis.outcome.is_ok() {
                if let Some(kept) = kept_by_comment(source, &suppressions, &stmt) {
                    analysis.outcome = Err(kept);
                }
            }
            if let Ok(t) = &analysis.outcome {
                if t.helpers.iter().any(|h| h == emit::entry::ENTRY_HELPER) {
                    let functions = functions.get_or_insert_with(|| {
                        scan::kernels::Functions::of(source, path, emit::entry::ENTRY_HELPER)
                    });
                    match functions.reaching(source, stmt.span.start) {
                        Ok(kernels) => {
                            entries.extend(kernels.iter().filter(|k| !k.called).map(|k| k.brace))
                        }
                        Err(why) => analysis.outcome = Err(unreached_entry(&why)),
                    }
                }
            }
            let suppressed = matches!(&analysis.outcome, Err(u) if u.code == Code::Translatable);
            if analysis.outcome.is_ok() && tests_arch_macro(&stmt) {
                arch_statements.push(stmt.span.start);
            }
            if analysis.outcome.is_ok() {
                barrier_parties.extend(scan::progress::party(&stmt));
            }
            match (&analysis.outcome, options.emit) {
                (Ok(t), Some(mode)) => edits.extend(emit::edit(
                    source,
                    &lines,
                    &stmt,
                    t,
                    mode,
                    newline,
                    options.provenance,
                )),
                (Err(u), Some(_)) if options.provenance && !suppressed => {
                    edits.extend(emit::marker(
                        source, &lines, &stmt, u.code, &u.message, newline,
                    ));
                }
                _ => {}
            }
            let mut finding = Finding::new(&stmt, &analysis);
            finding.note = stmt
                .arch_arm
                .zip(scan_options.macros.cuda_arch)
                .map(|(at, arch)| taken_arm_note(source, at, arch));
            outcome.findings.push(finding);
        }
    });
    for w in scan::progress::same_wave_waits(source, &barrier_parties) {
        outcome.diagnostics.push(FileDiagnostic {
            code: Code::SameWaveWait,
            offset: Some(w.wait.span.start),
            line: w.wait.line,
            column: w.wait.column,
            message: format!(
                "this mbarrier wait and the arrival on `{}` at line {} are taken by different lanes of one warp (`if ({})` at line {}): on AMD the lanes of a wave do not progress independently, so the wait can hang",
                w.wait.barrier, w.arrive_line, w.condition, w.if_line
            ),
        });
    }
    for w in scan::progress::wave64_splits(source, &barrier_parties) {
        outcome.diagnostics.push(FileDiagnostic {
            code: Code::SameWaveWait,
            offset: Some(w.sync.span.start),
            line: w.sync.line,
            column: w.sync.column,
            message: format!(
                "this counted barrier (id {}) and the one at line {} are taken by the two sides of `if ({})` at line {}, which puts the two 32-thread warps of a wave64 on different sides: on gfx90a and gfx942 a wave runs its halves one after the other, so the half that waits here first can hang for the other half's arrival; give each role whole groups of 64 threads",
                w.sync.barrier, w.other_line, w.condition, w.if_line
            ),
        });
    }
    if let (Some(arch), Some(_)) = (scan_options.macros.cuda_arch, options.emit) {
        // A condition inside a statement is the statement's own (`scan::arms`): its rewrite
        // owns those bytes.
        let inside = |at: usize| {
            let k = outcome.findings.partition_point(|f| f.span.start <= at);
            k > 0 && outcome.findings[k - 1].span.contains(&at)
        };
        arch_tokens.retain(|t| !inside(t.start));
        arch_conditions.retain(|&c| !inside(c));
        // Translations whose own `#if`s test the macro (`scan::cuda_arch::renamed`) need it too.
        let first = arch_conditions
            .first()
            .copied()
            .into_iter()
            .chain(arch_statements.first().copied())
            .min();
        // ptx2hip's own output of a run that translated every arm (before `--cuda-arch`).
        let translated = !arch_tokens.is_empty() && emit::needs_of(source).is_some();
        let arch_edits =
            emit::cuda_arch::edits(source, &arch_tokens, first, arch, translated, newline);
        if !arch_edits.is_empty() {
            edits.extend(arch_edits);
            // The definition inserted where a statement's rewrite starts (the file's first line,
            // after a byte order mark) goes before it.
            edits.sort_by_key(|e| (e.span.start, e.span.end));
        }
    }
    // Host code's tensor-map encoder: calls renamed to ptx2hip's, other uses reported.
    let own_block: Vec<Range<usize>> = emit::helper_block_range(source).into_iter().collect();
    let encoder = scan::tensor_map::find(source, &own_block);
    for (at, why) in &encoder.refused {
        let line = 1 + memchr::memchr_iter(b'\n', &source[..*at]).count();
        let column = at - memchr::memrchr(b'\n', &source[..*at]).map_or(0, |n| n + 1) + 1;
        outcome.diagnostics.push(FileDiagnostic {
            code: Code::TensorMapEncoder,
            offset: Some(*at),
            line,
            column,
            message: why.clone(),
        });
    }
    if let Some(mode) = options.emit {
        let renames = emit::tensor_map::edits(&encoder, mode);
        if !renames.is_empty() {
            edits.extend(renames);
            edits.sort_by_key(|e| e.span.start);
        }
    }
    // Markers go only into a file that is rewritten for another reason.
    let significant = edits.iter().any(|e| e.significant);
    if let (true, Some(mode)) = (significant && !entries.is_empty(), options.emit) {
        entries.sort_unstable();
        entries.dedup();
        for brace in entries {
            edits.push(emit::entry::kernel_entry(
                source, &lines, brace, mode, newline,
            ));
        }
        // An insertion after a brace goes before a statement's rewrite that starts there.
        edits.sort_by_key(|e| (e.span.start, e.span.end));
    }
    // A macro's table of translations per use follows its `#define`, after the statements in
    // its body (`emit::uses`); the sort is stable, so rewrites at one place keep their order.
    edits.sort_by_key(|e| e.span.start);
    if let (true, Some(mode)) = (significant, options.emit) {
        let record = emit::record::Record::current(
            options.settings(),
            mode,
            options.provenance,
            scan_options.macros.cuda_arch,
        );
        match emit::apply(source, &edits, rules, &record, placement) {
            Ok(rewritten) if rewritten.bytes != source => {
                outcome.rewritten = Some(rewritten);
                outcome.arch_conditions = arch_conditions.len();
            }
            Ok(_) => {}
            Err(why) => outcome.refused = Some(why),
        }
    }
    if options.emit.is_none() {
        outcome
            .diagnostics
            .extend(edited_branches(source, path, rules, options, scan_options));
    }
    outcome
}

/// For `check`: the generated AMD branches of `source` (`emit::verify`) that are not what this
/// ptx2hip generates for the originals they keep, translated again with the options the file's
/// helper block records (this run's `options` where it records none): `L003` at each, or one
/// `L004` when another version wrote them.
fn edited_branches(
    source: &[u8],
    path: Option<&Path>,
    rules: &RuleSet,
    options: Options,
    scan_options: &scan::Options,
) -> Vec<FileDiagnostic> {
    let branches = emit::verify::branches(source);
    let Some(first) = branches.first() else {
        return Vec::new();
    };
    let at = |offset: usize, code: Code, message: String| {
        let before = &source[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        FileDiagnostic {
            code,
            offset: Some(offset),
            line: before.iter().filter(|&&b| b == b'\n').count() + 1,
            column: String::from_utf8_lossy(&before[line_start..])
                .chars()
                .count()
                + 1,
            message,
        }
    };
    let written = emit::recorded(source);
    let record = written.as_deref().and_then(emit::record::Record::parse);
    let (settings, provenance, cuda_arch, how) = match (&written, &record) {
        (Some(_), Some(r)) if r.version != emit::record::VERSION => {
            return vec![at(
                first.span.start,
                Code::GeneratedByOtherVersion,
                format!(
                    "the generated AMD branches of this file were written by ptx2hip {} ({r}); this is ptx2hip {}: they are not checked against this version's translations",
                    r.version,
                    emit::record::VERSION
                ),
            )];
        }
        (Some(w), None) => {
            return vec![at(
                first.span.start,
                Code::GeneratedByOtherVersion,
                format!("the helper block records `{w}`, which this ptx2hip cannot read: the generated AMD branches are not checked"),
            )];
        }
        (_, Some(r)) => (
            r.settings,
            r.provenance,
            r.cuda_arch,
            format!("`{r}`, as the file records"),
        ),
        (None, _) => (
            options.settings(),
            true,
            scan_options.macros.cuda_arch,
            "this run's options (the file records none)".to_string(),
        ),
    };
    let regenerate = Options {
        target: settings.target,
        emit: Some(EmitMode::Guarded),
        provenance,
        tensor_model: settings.tensor_model,
        fast: settings.fast,
        evidence: settings.evidence,
    };
    let mut scan_options = scan_options.clone();
    scan_options.macros.cuda_arch = cuda_arch;
    let restored = emit::verify::restore(source, &branches);
    let again = process_file(&restored, path, rules, regenerate, &scan_options);
    let regenerated = again.rewritten.map_or(restored, |r| r.bytes);
    let fresh = emit::verify::branches(&regenerated);
    let mut cursor = 0;
    let mut found = Vec::new();
    for b in &branches {
        let original = &source[b.original.clone()];
        // The regenerated branch of the same original, in file order.
        let same = fresh[cursor..]
            .iter()
            .position(|f| regenerated[f.original.clone()] == *original);
        let message = match same.map(|k| &fresh[cursor + k]) {
            Some(f) => {
                cursor += same.unwrap_or(0) + 1;
                let ours = &regenerated[f.generated.clone()];
                if emit::verify::same_code(&source[b.generated.clone()], ours) {
                    continue;
                }
                format!(
                    "this generated AMD branch is not what ptx2hip {} generates for the original statement in its `#else` arm with {how}: edited by hand?",
                    emit::record::VERSION
                )
            }
            // Not translated again under the recorded options: nothing to compare the branch with.
            // A branch of a `__CUDA_ARCH__` arm that the recorded `--cuda-arch` no longer takes
            // is one (a file translated for sm_90, then again for sm_75, keeps its sm_90
            // branches); an edit is what a regenerated branch shows, never its absence.
            None => continue,
        };
        found.push(at(b.span.start, Code::GeneratedCodeEdited, message));
    }
    found
}

#[cfg(test)]
#[path = "pipeline/verify_tests.rs"]
mod verify_tests;
