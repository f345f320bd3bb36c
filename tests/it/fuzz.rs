//! Fuzz targets: the scanner, the PTX parser and the whole pipeline (`translate` in every mode,
//! `check` and both report formats) on arbitrary bytes, token soup and structured mutations of
//! the corpus files, including invalid C++. None may panic, and what they report must point
//! inside the file, at the byte the line and column say.
//!
//! The case counts are small so that `cargo test` stays fast; for a long run (docs/FUZZING.md):
//! `PROPTEST_CASES=100000 cargo test --release --test it fuzz::fuzz_`.

use std::path::PathBuf;

use proptest::prelude::*;
use proptest::sample::Index;

use ptx2hip::report;
use ptx2hip_core::emit::EmitMode;
use ptx2hip_core::lower::{RuleSet, Target};
use ptx2hip_core::pipeline::{self, Options};
use ptx2hip_core::{ptx, scan};

/// `PROPTEST_CASES` if set, else `default`.
fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        // A long run must not stop at the first shrink-heavy failure's 1024 iterations.
        max_shrink_iters: 10_000,
        ..ProptestConfig::default()
    }
}

/// The corpus files, read once.
fn corpus() -> &'static [Vec<u8>] {
    static FILES: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("corpus/ exists")
            .map(|e| e.expect("readable entry").path())
            .collect();
        paths.sort();
        paths
            .iter()
            .map(|p| std::fs::read(p).expect("corpus file readable"))
            .collect()
    })
}

fn rules() -> &'static RuleSet {
    static RULES: std::sync::OnceLock<RuleSet> = std::sync::OnceLock::new();
    RULES.get_or_init(|| RuleSet::embedded().expect("rule table loads"))
}

/// Pieces of C++, preprocessor and inline asm that make the scanner take its less common paths.
const CPP_TOKENS: &[&str] = &[
    "asm",
    "asm volatile",
    "__asm__",
    "asm goto",
    "(",
    ")",
    "\"",
    ":",
    "::",
    ",",
    ";",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    "\\\n",
    "\n",
    "\r\n",
    "\t",
    " ",
    "/*",
    "*/",
    "//",
    "ptx2hip: ignore[",
    "U001",
    "*]",
    "#define M(x) ",
    "#define S \".u32\"\n",
    "#if defined(__HIP_PLATFORM_AMD__)\n",
    "#ifdef __HIP__\n",
    "#if __CUDA_ARCH__ >= 800\n",
    "#elif defined(__CUDA_ARCH__)\n",
    "#ifndef PTX2HIP_CUDA_ARCH\n",
    "#else\n",
    "#elif 1\n",
    "#endif\n",
    "#x",
    "##",
    "R\"(",
    ")\"",
    "u8\"",
    "L'",
    "'",
    "\\\"",
    "%0",
    "%1",
    "%%",
    "%=",
    "%[n]",
    "add.s32 %0, %1, %2;",
    "{ .reg .u32 t; }",
    "\"=r\"(x)",
    "\"r\"(y)",
    "\"+l\"(*p)",
    "\"h\"(h)",
    "\"f\"(f)",
    "\"n\"(4)",
    "\"memory\"",
    "S",
    "M(v)",
    "x",
    "0",
    "template <int N>",
    "[&]",
    "__device__",
    "namespace n {",
    "struct s {",
    "é",
    "\u{202e}",
    "\u{feff}",
    "\0",
    "\x7f",
];

/// Pieces of PTX.
const PTX_TOKENS: &[&str] = &[
    "add",
    "mov",
    "ld",
    "st",
    "setp",
    "selp",
    "cvt",
    "prmt",
    "bra",
    "@p",
    "@!p",
    ".s32",
    ".u64",
    ".f16x2",
    ".rn",
    ".sat",
    ".global",
    ".v4",
    ".lo",
    ".cc",
    ".reg",
    ".pred",
    " ",
    "\n",
    "\t",
    ",",
    ";",
    "{",
    "}",
    "[",
    "]",
    "+",
    "-",
    "|",
    "!",
    "_",
    ":",
    "L1",
    "%0",
    "%1",
    "%%r<4>",
    "%r1",
    "%%clock",
    "%tid.x",
    "%[n]",
    "%=",
    "0x7f",
    "0fFF800000",
    "0d3FF0000000000000",
    "1.5e3",
    "-1",
    "0b101",
    "077",
    "//",
    "/*",
    "*/",
    "é",
];

/// Token soup: a string made of the given pieces, with the odd arbitrary byte.
fn soup(tokens: &'static [&'static str], max: usize) -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        8 => proptest::sample::select(tokens).prop_map(|t| t.as_bytes().to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ];
    proptest::collection::vec(piece, 0..max).prop_map(|pieces| pieces.concat())
}

/// One edit of a file: what structure-aware fuzzers do to source code.
#[derive(Debug, Clone)]
enum Edit {
    /// Put a C++/asm token at a position.
    Insert(Index, &'static str),
    /// Delete a range (up to 64 bytes).
    Delete(Index, usize),
    /// Copy a range (up to 200 bytes) to another position.
    Duplicate(Index, usize, Index),
    /// Overwrite one byte.
    Replace(Index, u8),
    /// Splice in a range of another corpus file.
    Splice(Index, Index, Index, usize),
    /// Cut the file short.
    Truncate(Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<Index>(), proptest::sample::select(CPP_TOKENS)).prop_map(|(i, t)| Edit::Insert(i, t)),
        3 => (any::<Index>(), 1..64usize).prop_map(|(i, n)| Edit::Delete(i, n)),
        2 => (any::<Index>(), 1..200usize, any::<Index>()).prop_map(|(i, n, j)| Edit::Duplicate(i, n, j)),
        3 => (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Replace(i, b)),
        1 => (any::<Index>(), any::<Index>(), any::<Index>(), 1..400usize)
            .prop_map(|(f, i, j, n)| Edit::Splice(f, i, j, n)),
        1 => any::<Index>().prop_map(Edit::Truncate),
    ]
}

fn apply(mut src: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        let len = src.len();
        match e {
            Edit::Insert(at, token) => {
                let at = at.index(len + 1);
                src.splice(at..at, token.bytes());
            }
            Edit::Delete(at, n) => {
                let at = at.index(len + 1);
                src.drain(at..(at + n).min(len));
            }
            Edit::Duplicate(from, n, to) => {
                let from = from.index(len + 1);
                let piece = src[from..(from + n).min(len)].to_vec();
                let to = to.index(len + 1);
                src.splice(to..to, piece);
            }
            Edit::Replace(at, byte) if len > 0 => src[at.index(len)] = *byte,
            Edit::Replace(..) => {}
            Edit::Splice(file, from, to, n) => {
                let other = &corpus()[file.index(corpus().len())];
                let from = from.index(other.len() + 1);
                let piece = &other[from..(from + n).min(other.len())];
                let to = to.index(len + 1);
                src.splice(to..to, piece.iter().copied());
            }
            Edit::Truncate(at) => src.truncate(at.index(len + 1)),
        }
    }
    src
}

/// The scanner on `src`: statements and diagnostics lie inside the file, where their line and
/// (byte) column say.
fn scan_checked(src: &[u8]) -> Result<(), TestCaseError> {
    let result = scan::scan(src);
    for s in &result.statements {
        prop_assert!(
            s.span.start <= s.span.end && s.span.end <= src.len(),
            "{:?}",
            s.span
        );
        prop_assert_eq!((s.line, s.column), line_column(src, s.span.start));
        prop_assert_eq!((s.end_line, s.end_column), line_column(src, s.span.end));
    }
    for d in &result.diagnostics {
        prop_assert!(d.span.end <= src.len());
        prop_assert_eq!((d.line, d.column), line_column(src, d.span.start));
    }
    Ok(())
}

/// 1-based line and byte column of `offset`, lines as the compiler reads them: `\n`, `\r\n` and
/// a lone `\r` each end one.
fn line_column(src: &[u8], offset: usize) -> (usize, usize) {
    let ends_line =
        |i: usize| src[i] == b'\n' || (src[i] == b'\r' && src.get(i + 1) != Some(&b'\n'));
    let ends: Vec<usize> = (0..offset).filter(|&i| ends_line(i)).collect();
    let line_start = ends.last().map_or(0, |p| p + 1);
    (1 + ends.len(), offset - line_start + 1)
}

/// The PTX parser on `text`: whatever it accepts prints and parses back to the same text.
fn parse_checked(text: &str) -> Result<(), TestCaseError> {
    match ptx::parse(text) {
        Ok(block) => {
            let printed = block.to_string();
            let again = ptx::parse(&printed);
            prop_assert!(
                again.is_ok(),
                "{:?} printed as {:?}: {:?}",
                text,
                printed,
                again
            );
            prop_assert_eq!(again.unwrap().to_string(), printed);
        }
        Err(e) => prop_assert!(e.span.start <= e.span.end && e.span.end <= text.len()),
    }
    Ok(())
}

/// The whole pipeline on `src` as `translate` (both emit modes, both targets) and `check` (both
/// report formats) run it, with the default `--cuda-arch` as the command line gives it.
fn pipeline_checked(src: &[u8]) -> Result<(), TestCaseError> {
    let scan_options = scan::Options {
        macros: scan::Macros {
            cuda_arch: Some(scan::cuda_arch::CudaArch::DEFAULT),
            ..Default::default()
        },
    };
    for target in [Target::Amd, Target::Portable] {
        for emit in [Some(EmitMode::Guarded), Some(EmitMode::Replace), None] {
            let outcome = pipeline::process_file(
                src,
                None,
                rules(),
                Options {
                    target,
                    emit,
                    provenance: true,
                    tensor_model: Default::default(),
                    fast: false,
                    evidence: Default::default(),
                },
                &scan_options,
            );
            if let Some(r) = &outcome.rewritten {
                prop_assert!(r.bytes != src);
            }
            for f in &outcome.findings {
                prop_assert!(f.span.end <= src.len());
                prop_assert_eq!((f.line, f.column), line_column(src, f.span.start));
                if emit.is_none() {
                    report::render_finding("f.cu", src, f);
                }
            }
            for d in &outcome.diagnostics {
                report::render_file_diagnostic("f.cu", d);
            }
            if emit.is_none() {
                // Every lint format, suppressions included, takes whatever the file holds.
                let settings = ptx2hip::lint::Settings {
                    report_unused_suppressions: true,
                    ..Default::default()
                };
                let linted = ptx2hip::lint::lint(
                    "f.cu",
                    std::path::Path::new("f.cu"),
                    src,
                    &outcome,
                    &settings,
                );
                let all: Vec<_> = linted.reported.into_iter().map(|(d, _)| d).collect();
                for d in &all {
                    prop_assert!(d.start <= d.end && d.focus.line >= 1);
                    report::diagnostic_json(d);
                    report::concise(d);
                    report::github(d);
                }
                report::sarif(&all);
            }
        }
    }
    // The review page reads the file on its own (both targets per statement).
    let entries = report::html::entries(
        "f.cu",
        None,
        src,
        rules(),
        &scan_options,
        ptx2hip_core::lower::Target::Amd.into(),
    );
    report::html::page(&entries, rules(), scan_options.macros.cuda_arch.as_slice());
    Ok(())
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn fuzz_scan_arbitrary_bytes(src in proptest::collection::vec(any::<u8>(), 0..600)) {
        scan_checked(&src)?;
    }

    #[test]
    fn fuzz_scan_token_soup(src in soup(CPP_TOKENS, 120)) {
        scan_checked(&src)?;
    }

    #[test]
    fn fuzz_ptx_parse_arbitrary_text(text in "\\PC{0,200}") {
        parse_checked(&text)?;
    }

    #[test]
    fn fuzz_ptx_parse_token_soup(bytes in soup(PTX_TOKENS, 60)) {
        parse_checked(&String::from_utf8_lossy(&bytes))?;
    }

    /// The templates of the corpus's own statements, mutated.
    #[test]
    fn fuzz_ptx_parse_mutated_corpus_templates(
        file in any::<Index>(),
        which in any::<Index>(),
        edits in proptest::collection::vec((any::<Index>(), proptest::sample::select(PTX_TOKENS), any::<bool>()), 1..6),
    ) {
        let statements: Vec<String> = scan::scan(&corpus()[file.index(corpus().len())])
            .statements
            .into_iter()
            .filter_map(|s| match s.template {
                scan::Template::Known { text, .. } => Some(text),
                _ => None,
            })
            .collect();
        prop_assume!(!statements.is_empty());
        let mut text = statements[which.index(statements.len())].clone();
        for (at, token, insert) in edits {
            let mut at = at.index(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            if insert {
                text.insert_str(at, token);
            } else {
                let end = text[at..].char_indices().nth(token.len()).map_or(text.len(), |(i, _)| at + i);
                text.replace_range(at..end, "");
            }
        }
        parse_checked(&text)?;
    }
}

/// Characters of more than one byte, and the Unicode line and space characters a byte-index
/// slice of user text meets: where the index of an ASCII delimiter is moved by one byte or taken
/// from another string, they land it inside a character.
const WIDE_CHARS: &[&str] = &[
    "é", "ß", "€", "😀", "\u{a0}", "\u{85}", "\u{2028}", "\u{feff}", "\u{202e}", "Ω", "ﬁ", "𝑥",
];

/// Where to put wide characters: inside the statements of a corpus file (their templates,
/// constraints, operand expressions, clobbers and the text around them).
fn widen(src: &[u8], at: &[(Index, Index, &str)]) -> Option<Vec<u8>> {
    let spans: Vec<std::ops::Range<usize>> = scan::scan(src)
        .statements
        .into_iter()
        .map(|s| s.span)
        .collect();
    if spans.is_empty() {
        return None;
    }
    let mut places: Vec<(usize, &str)> = at
        .iter()
        .map(|(which, offset, c)| {
            let span = &spans[which.index(spans.len())];
            (span.start + offset.index(span.len() + 1), *c)
        })
        .collect();
    places.sort_by_key(|p| std::cmp::Reverse(p.0));
    let mut out = src.to_vec();
    for (at, c) in places {
        out.splice(at..at, c.bytes());
    }
    Some(out)
}

proptest! {
    #![proptest_config(cases(24))]

    /// Valid UTF-8 of several bytes inside asm statements (the `"C"` operand panic of issue 19
    /// item 10 took a non-ASCII character before an operand expression's last identifier).
    #[test]
    fn fuzz_pipeline_wide_characters_in_statements(
        file in any::<Index>(),
        at in proptest::collection::vec(
            (any::<Index>(), any::<Index>(), proptest::sample::select(WIDE_CHARS)),
            1..6,
        ),
    ) {
        let src = widen(&corpus()[file.index(corpus().len())], &at);
        prop_assume!(src.is_some());
        let src = src.unwrap_or_default();
        scan_checked(&src)?;
        pipeline_checked(&src)?;
    }

    #[test]
    fn fuzz_pipeline_mutated_corpus_files(
        file in any::<Index>(),
        edits in proptest::collection::vec(edit(), 1..8),
    ) {
        let src = apply(corpus()[file.index(corpus().len())].clone(), &edits);
        scan_checked(&src)?;
        pipeline_checked(&src)?;
    }

    #[test]
    fn fuzz_pipeline_token_soup(src in soup(CPP_TOKENS, 80)) {
        pipeline_checked(&src)?;
    }
}
