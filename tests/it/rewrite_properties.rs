//! Properties of `translate` on corpus files under random edits, most of which leave invalid C++
//! (a `;`, `)`, `#endif` or quote deleted or added, an `#if 0` opened, a stray backslash or CR,
//! random bytes, a byte order mark, CRLF line endings): for both emit modes,
//! (a) translating the output again changes nothing (also with `--cuda-arch`, whose rewritten
//!     `__CUDA_ARCH__` conditions and definition make splices of their own), and
//! (b) every byte outside the rewritten statements (and the spaces around one that had to start
//!     or end a line of its own) and the helper block is kept; the splices that the diff is made
//!     from describe the output exactly; no line gains trailing whitespace;
//! (c) both hold with `--helpers` (the helper block an include of the shared header), and the
//!     output of a run without `--helpers` moves to the shared header by its block alone;
//! and for the lint and the files written beside the sources, on the same edited inputs:
//! (d) a baseline written from a file's findings, read back from its file, silences exactly those
//!     findings, also after lines are added above them;
//! (e) the review page lists every statement and file finding `check` sees, each at a line of
//!     the file;
//! (f) `translate --in-place --backup-suffix` keeps the input byte for byte in the backup, and a
//!     second run changes neither the file nor the backup.
//!
//! Each case edits a window of lines of one corpus file (sometimes the whole file, so that the
//! helper block meets includes and include guards). The case count keeps the run at a few
//! seconds on two cores; search harder with
//! `PTX2HIP_EDIT_CASES=5000 cargo test --release --test it rewrite_properties::`.

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::Index;
use ptx2hip::baseline::Baseline;
use ptx2hip::lint;
use ptx2hip::report::html;
use ptx2hip_core::emit::{self, EmitMode, Placement, Rewrite, HELPERS_BEGIN, HELPERS_END};
use ptx2hip_core::lower::{RuleSet, Target};
use ptx2hip_core::pipeline::{process, process_file, process_file_with, Options};
use ptx2hip_core::scan;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// What the edits insert, besides random bytes: the tokens whose loss or excess breaks the
/// structure around statements, and whole statements in the places that matter.
const PIECES: &[&str] = &[
    ";",
    ")",
    "(",
    "{",
    "}",
    ",",
    "\"",
    "'",
    "\\\n",
    "\\",
    "\n",
    "\r",
    "// note \\\n",
    "/*",
    "*/",
    "//",
    "#endif",
    "#if 0",
    "\n#if 0\n",
    "\n#endif\n",
    "\n#else\n",
    "\n#if defined(__HIP_PLATFORM_AMD__)\n",
    "\n#ifndef __HIP__\n",
    "\n#if __CUDA_ARCH__ >= 800\n",
    "\n#elif defined(__CUDA_ARCH__)\n",
    "\u{feff}",
    "asm(",
    "MACRO(d, ",
    "NV_IF_TARGET(NV_PROVIDES_SM_90, (",
    "PTX2HIP_NV_ONLY(",
    "\n  asm(\"add.u32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(b));\n",
    " asm volatile(\"popc.b32 %0, %1;\" : \"=r\"(d) : \"r\"(a)); ",
    "asm(\"fma.rn.f32 %0, %1, %2, %3;\" : \"=f\"(d) : \"f\"(a), \"f\"(b), \"f\"(c))",
    "\n#define M(d, a) asm(\"add.u32 %0, %1, %1;\" : \"=r\"(d) : \"r\"(a))\n",
    HELPERS_BEGIN,
    HELPERS_END,
    "\n#include <stdint.h>\n",
];

#[derive(Debug, Clone)]
enum Edit {
    Insert(Index, Index),
    Byte(Index, u8),
    Delete(Index, usize),
    Bom,
    Crlf,
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        6 => (any::<Index>(), any::<Index>()).prop_map(|(at, piece)| Edit::Insert(at, piece)),
        2 => (any::<Index>(), any::<u8>()).prop_map(|(at, b)| Edit::Byte(at, b)),
        4 => (any::<Index>(), 1usize..12).prop_map(|(at, n)| Edit::Delete(at, n)),
        1 => Just(Edit::Bom),
        1 => Just(Edit::Crlf),
    ]
}

fn corpus() -> &'static [Vec<u8>] {
    static FILES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .expect("corpus/ exists")
            .map(|e| e.expect("readable entry").path())
            .filter(|p| p.is_file())
            .collect();
        paths.sort();
        paths
            .iter()
            .map(|p| std::fs::read(p).expect("readable corpus file"))
            .collect()
    })
}

fn rules() -> &'static RuleSet {
    static RULES: OnceLock<RuleSet> = OnceLock::new();
    RULES.get_or_init(|| RuleSet::embedded().expect("the embedded rules load"))
}

/// Lines `from..from + len` of a corpus file (`len` 0: the whole file).
fn window(file: &[u8], from: Index, len: usize) -> Vec<u8> {
    if len == 0 {
        return file.to_vec();
    }
    let starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', file).map(|i| i + 1))
        .collect();
    let first = from.index(starts.len());
    let last = (first + len).min(starts.len() - 1);
    file[starts[first]..starts[last]].to_vec()
}

fn edited(mut src: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        match e {
            Edit::Insert(at, piece) => {
                let at = at.index(src.len() + 1);
                let piece = PIECES[piece.index(PIECES.len())].as_bytes();
                src.splice(at..at, piece.iter().copied());
            }
            Edit::Byte(at, b) => src.insert(at.index(src.len() + 1), *b),
            Edit::Delete(at, n) => {
                let at = at.index(src.len() + 1);
                src.drain(at..(at + n).min(src.len()));
            }
            Edit::Bom => src.splice(0..0, BOM.iter().copied()).for_each(drop),
            Edit::Crlf => {
                let mut crlf = Vec::with_capacity(src.len() * 2);
                for &b in &src {
                    if b == b'\n' && crlf.last() != Some(&b'\r') {
                        crlf.push(b'\r');
                    }
                    crlf.push(b);
                }
                src = crlf;
            }
        }
    }
    src
}

fn translate(src: &[u8], mode: EmitMode, target: Target) -> Option<Rewrite> {
    let options = Options {
        target,
        emit: Some(mode),
        provenance: false,
        tensor_model: Default::default(),
        fast: false,
        evidence: Default::default(),
    };
    process(src, rules(), options).rewritten
}

/// [`translate`] with the default `--cuda-arch`, as the command line runs it.
fn translate_for_arch(src: &[u8], mode: EmitMode, target: Target) -> Option<Rewrite> {
    let options = Options {
        target,
        emit: Some(mode),
        provenance: false,
        tensor_model: Default::default(),
        fast: false,
        evidence: Default::default(),
    };
    let scan_options = scan::Options {
        macros: scan::Macros {
            cuda_arch: Some(scan::cuda_arch::CudaArch::DEFAULT),
            ..Default::default()
        },
    };
    process_file(src, None, rules(), options, &scan_options).rewritten
}

/// How the files of property (c) include the shared header.
const INCLUDE: &str = "\"../ptx2hip_helpers.h\"";

/// [`translate`] with `--helpers`, as the command line runs it: the statements translated into
/// a file that includes the header, or, with none to translate, its block moved to the header.
/// An error when the file's block may not be replaced (edited by hand).
fn translate_shared(src: &[u8], mode: EmitMode, target: Target) -> Result<Option<Rewrite>, String> {
    let options = Options {
        target,
        emit: Some(mode),
        provenance: false,
        tensor_model: Default::default(),
        fast: false,
        evidence: Default::default(),
    };
    let placement = Placement::Shared { include: INCLUDE };
    let outcome = process_file_with(
        src,
        None,
        rules(),
        options,
        &scan::Options::default(),
        None,
        placement,
    );
    match (outcome.refused, outcome.rewritten) {
        (Some(why), _) => Err(why),
        (None, Some(r)) => Ok(Some(r)),
        (None, None) => emit::relink(src, INCLUDE, rules(), mode, target),
    }
}

/// Property (c) for one input.
fn check_shared(src: &[u8], mode: EmitMode, target: Target) -> Result<(), TestCaseError> {
    if let Ok(Some(once)) = translate_shared(src, mode, target) {
        check_kept(src, &once, mode)?;
        let twice = translate_shared(&once.bytes, mode, target);
        prop_assert!(
            matches!(twice, Ok(None)),
            "{mode:?} --helpers: a second translate changed the output: {:?}",
            twice.map(|t| t.map(|t| first_difference(&once.bytes, &t.bytes)))
        );
    }
    if let Some(inline) = translate(src, mode, target) {
        let moved = translate_shared(&inline.bytes, mode, target);
        let moved = moved.map_err(|why| {
            TestCaseError::fail(format!(
                "{mode:?}: its own output not moved to --helpers: {why}"
            ))
        })?;
        if let Some(moved) = moved {
            check_kept(&inline.bytes, &moved, mode)?;
            let twice = translate_shared(&moved.bytes, mode, target);
            prop_assert!(
                matches!(twice, Ok(None)),
                "{mode:?}: a file moved to --helpers changes again"
            );
        }
    }
    Ok(())
}

/// Lines ending in a space or tab.
/// Lines as the compiler ends them (`\n`, `\r\n` or a lone `\r`) whose last byte is a blank: a
/// helper block after a lone CR makes it a CRLF, which leaves the line as it was.
fn trailing_whitespace_lines(bytes: &[u8]) -> usize {
    scan::with_compiler_lines(bytes)
        .split(|&b| b == b'\n')
        .filter(|l| {
            matches!(
                l.strip_suffix(b"\r").unwrap_or(l).last(),
                Some(b' ' | b'\t')
            )
        })
        .count()
}

/// Whitespace within a line, which a rewrite that must start or end a line takes along.
fn is_space(b: &u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// Property (b) for one rewrite of `src`.
fn check_kept(src: &[u8], rewrite: &Rewrite, mode: EmitMode) -> Result<(), TestCaseError> {
    let out = &rewrite.bytes;
    let statements = ptx2hip_core::scan::scan(src).statements;
    let mut rebuilt = Vec::with_capacity(out.len());
    let mut copied = 0;
    let mut blocks = 0;
    for s in &rewrite.splices {
        prop_assert!(copied <= s.old.start && s.old.start <= s.old.end && s.old.end <= src.len());
        rebuilt.extend_from_slice(&src[copied..s.old.start]);
        prop_assert_eq!(rebuilt.len(), s.new.start, "a splice's new start is off");
        rebuilt.extend_from_slice(&out[s.new.clone()]);
        copied = s.old.end;
        let old = &src[s.old.clone()];
        let new = &out[s.new.clone()];
        let statement = statements.iter().find(|st| {
            s.old.start <= st.span.start
                && st.span.end <= s.old.end
                && src[s.old.start..st.span.start].iter().all(is_space)
                && src[st.span.end..s.old.end].iter().all(is_space)
        });
        // The initialisation a kernel that reaches a counted barrier starts with (`emit::entry`).
        let entry_call = format!("{}();", ptx2hip_core::emit::entry::ENTRY_HELPER);
        if old.is_empty()
            && src[..s.old.start].ends_with(b"{")
            && String::from_utf8_lossy(new)
                .trim_start()
                .contains(&entry_call)
        {
            continue;
        }
        // The table of per-use translations after a macro's `#define` (`emit::uses`): plain
        // `#define`s of `PTX2HIP_` names, on lines of their own after the `#define`'s last line.
        let table = String::from_utf8_lossy(new);
        if old.is_empty()
            && matches!(src.get(s.old.start), None | Some(b'\n' | b'\r'))
            && (table.starts_with("\n#ifndef PTX2HIP_PASTE")
                || table.starts_with("\r\n#ifndef PTX2HIP_PASTE")
                || table.starts_with("\n#define PTX2HIP_")
                || table.starts_with("\r\n#define PTX2HIP_"))
        {
            continue;
        }
        if let Some(st) = statement {
            if mode == EmitMode::Guarded {
                let original = &src[st.span.clone()];
                prop_assert!(
                    new.windows(original.len()).any(|w| w == original),
                    "the guarded rewrite lost the original statement"
                );
            }
            continue;
        }
        blocks += 1;
        // After the line break the file uses most (a lone CR where those outnumber the others).
        let new_block = new
            .strip_prefix(b"\r\n")
            .or(new.strip_prefix(b"\n"))
            .or(new.strip_prefix(b"\r"))
            .unwrap_or(new);
        prop_assert!(
            new_block.starts_with(HELPERS_BEGIN.as_bytes()),
            "a splice that is neither a statement nor the helper block: {:?} -> {:?}",
            String::from_utf8_lossy(old),
            String::from_utf8_lossy(new)
        );
        if old.is_empty() {
            let at = s.old.start;
            prop_assert!(
                at == 0
                    || src[at - 1] == b'\n'
                    || (at == BOM.len() && src.starts_with(BOM))
                    || new.len() > new_block.len(),
                "the helper block was not inserted at a line start"
            );
        } else {
            prop_assert!(
                old.starts_with(HELPERS_BEGIN.as_bytes()) && old.ends_with(HELPERS_END.as_bytes()),
                "replaced bytes that are not a helper block"
            );
        }
    }
    rebuilt.extend_from_slice(&src[copied..]);
    prop_assert!(&rebuilt == out, "the splices do not describe the output");
    prop_assert!(blocks <= 1, "more than one helper block splice");
    if src.starts_with(BOM) {
        prop_assert!(out.starts_with(BOM), "the byte order mark moved");
    }
    prop_assert!(
        trailing_whitespace_lines(out) <= trailing_whitespace_lines(src),
        "a line gained trailing whitespace"
    );
    Ok(())
}

/// The lines around the first difference of two texts.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let line_start = a[..at]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let from = a[..line_start.saturating_sub(1)]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let show = |t: &[u8]| {
        let t = &t[from.min(t.len())..];
        let end = t
            .iter()
            .enumerate()
            .filter(|(_, &c)| c == b'\n')
            .nth(6)
            .map_or(t.len(), |(i, _)| i);
        String::from_utf8_lossy(&t[..end]).into_owned()
    };
    format!("--- before:\n{}\n--- after:\n{}", show(a), show(b))
}

fn cases() -> u32 {
    std::env::var("PTX2HIP_EDIT_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(48)
}

/// Both properties for one input.
fn check(src: &[u8], target: Target) -> Result<(), TestCaseError> {
    for mode in [EmitMode::Guarded, EmitMode::Replace] {
        if let Some(once) = translate(src, mode, target) {
            check_kept(src, &once, mode)?;
            if let Some(twice) = translate(&once.bytes, mode, target) {
                return Err(TestCaseError::fail(format!(
                    "{mode:?}: a second translate changed the output:\n{}",
                    first_difference(&once.bytes, &twice.bytes)
                )));
            }
        }
        if let Some(once) = translate_for_arch(src, mode, target) {
            if let Some(twice) = translate_for_arch(&once.bytes, mode, target) {
                return Err(TestCaseError::fail(format!(
                    "{mode:?} --cuda-arch: a second translate changed the output:\n{}",
                    first_difference(&once.bytes, &twice.bytes)
                )));
            }
        }
        check_shared(src, mode, target)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// A failing input is written to the file `PTX2HIP_EDIT_DUMP` names, when set.
    #[test]
    fn translate_twice_is_translate_once_and_keeps_every_other_byte(
        file in any::<Index>(),
        from in any::<Index>(),
        len in prop_oneof![1 => Just(0usize), 6 => 5usize..80],
        edits in proptest::collection::vec(edit(), 0..6),
        portable in any::<bool>(),
    ) {
        let files = corpus();
        let src = edited(window(&files[file.index(files.len())], from, len), &edits);
        let target = if portable { Target::Portable } else { Target::Amd };
        let result = check(&src, target);
        if let (Err(_), Some(path)) = (&result, std::env::var_os("PTX2HIP_EDIT_DUMP")) {
            std::fs::write(path, &src).expect("the dump file is writable");
        }
        result?;
    }
}

/// The file's findings as `check` lints them (no configuration, the default architecture).
fn findings(
    src: &[u8],
    path: &std::path::Path,
    settings: &lint::Settings,
) -> (ptx2hip_core::pipeline::FileOutcome, lint::Linted) {
    let options = Options {
        target: Target::Amd,
        emit: None,
        provenance: false,
        tensor_model: Default::default(),
        fast: false,
        evidence: Default::default(),
    };
    let scan_options = scan::Options::default();
    let outcome = process_file(src, None, rules(), options, &scan_options);
    let linted = lint::lint("k.cu", path, src, &outcome, settings);
    (outcome, linted)
}

/// (d) and (e) for one input.
fn check_lint(src: &[u8]) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (path, at) = (dir.path().join("k.cu"), dir.path().join("baseline.json"));
    let mut recorded = Baseline::new(&at);
    let record = lint::Settings {
        record: Some(&recorded.clone()),
        ..lint::Settings::default()
    };
    let (outcome, linted) = findings(src, &path, &record);
    let reported = linted.reported.len();
    linted.recorded.into_iter().for_each(|k| recorded.add(k));
    prop_assert_eq!(
        recorded.len(),
        reported,
        "every finding reported is recorded"
    );
    std::fs::write(&at, recorded.to_json()).expect("baseline written");
    let baseline = Baseline::read(&at).map_err(TestCaseError::fail)?;
    // Lines added above the first, after a byte order mark as an editor adds them (before it,
    // the mark would become a character of the code, which changes what the file says).
    let bom = if src.starts_with(BOM) { BOM.len() } else { 0 };
    let moved = [&src[..bom], b"\n\n".as_slice(), &src[bom..]].concat();
    for text in [src, moved.as_slice()] {
        let settings = lint::Settings {
            baseline: Some(&baseline),
            ..lint::Settings::default()
        };
        let (_, again) = findings(text, &path, &settings);
        let left: Vec<String> = again
            .reported
            .iter()
            .map(|(d, _)| d.message.clone())
            .collect();
        prop_assert!(left.is_empty(), "the baseline silences all: {:?}", left);
        prop_assert_eq!(again.baselined, reported);
    }
    let entries = html::entries(
        "k.cu",
        None,
        src,
        rules(),
        &scan::Options::default(),
        Target::Amd.into(),
    );
    prop_assert_eq!(
        entries.len(),
        outcome.findings.len() + outcome.diagnostics.len(),
        "one entry per statement and per file finding"
    );
    let lines = 1 + scan::with_compiler_lines(src)
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    for e in &entries {
        prop_assert!(
            (1..=lines).contains(&e.line),
            "entry at line {} of {}",
            e.line,
            lines
        );
    }
    let page = html::page(&entries, rules(), &[]);
    prop_assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
    Ok(())
}

/// (f) for one input, through the binary.
fn check_backup(src: &[u8]) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (path, backup) = (dir.path().join("k.cu"), dir.path().join("k.cu.orig"));
    std::fs::write(&path, src).expect("input written");
    let run = || {
        assert_cmd::Command::cargo_bin("ptx2hip")
            .expect("binary built")
            .args(["translate", "--in-place", "--backup-suffix", ".orig"])
            .arg(&path)
            .output()
            .expect("ptx2hip runs")
    };
    let first = run();
    prop_assert!(first.status.code() != Some(101), "no panic");
    let once = std::fs::read(&path).expect("file readable");
    if once != src {
        prop_assert_eq!(std::fs::read(&backup).expect("a backup"), src.to_vec());
    } else {
        prop_assert!(!backup.exists(), "no backup of a file left as it was");
    }
    run();
    prop_assert_eq!(std::fs::read(&path).expect("file readable"), once);
    if backup.exists() {
        prop_assert_eq!(
            std::fs::read(&backup).expect("backup readable"),
            src.to_vec()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases() / 4, ..ProptestConfig::default() })]

    /// A failing input is written to the file `PTX2HIP_EDIT_DUMP` names, when set.
    #[test]
    fn baselines_review_pages_and_backups_hold_under_edits(
        file in any::<Index>(),
        from in any::<Index>(),
        len in prop_oneof![1 => Just(0usize), 6 => 5usize..80],
        edits in proptest::collection::vec(edit(), 0..6),
    ) {
        let files = corpus();
        let src = edited(window(&files[file.index(files.len())], from, len), &edits);
        let result = check_lint(&src).and_then(|()| check_backup(&src));
        if let (Err(_), Some(path)) = (&result, std::env::var_os("PTX2HIP_EDIT_DUMP")) {
            std::fs::write(path, &src).expect("the dump file is writable");
        }
        result?;
    }
}
