//! The lint of one file: which of its findings `check` reports, once the codes selected for the
//! file (`select`, `ignore` and per-file ignores: [`crate::config::select`]), the inline
//! suppressions and the baseline have had their say, in that order.
//!
//! A finding whose code is not selected does not exist for the lint (a suppression naming it is
//! unused). A suppressed finding is not reported and not recorded in a baseline
//! written meanwhile: the comment already accounts for it. A finding the baseline holds is
//! recorded again in a new baseline but not reported.

use std::collections::HashMap;
use std::path::Path;

use crate::baseline::{Baseline, Key};
use crate::codes::Code;
use crate::pipeline::FileOutcome;
use crate::report::{Diagnostic, Location};
use crate::suppress::{self, Ledger};

/// What decides which findings are reported.
#[derive(Debug, Clone, Copy, Default)]
pub struct Settings<'a> {
    /// Codes never reported (those the selection leaves out).
    pub ignore: &'a [Code],
    /// Report suppression comments that silence nothing (`L001`).
    pub report_unused_suppressions: bool,
    /// Findings not to report again.
    pub baseline: Option<&'a Baseline>,
    /// A baseline being written: findings are keyed for it.
    pub record: Option<&'a Baseline>,
}

/// One file's lint.
#[derive(Debug, Default)]
pub struct Linted {
    /// Reported findings in file order (file-level ones first), each with the index of the
    /// statement finding of the [`FileOutcome`] it reports, if it reports one.
    pub reported: Vec<(Diagnostic, Option<usize>)>,
    /// Findings silenced by comments.
    pub suppressed: usize,
    /// Findings the baseline holds.
    pub baselined: usize,
    /// The keys of the findings for the baseline being written.
    pub recorded: Vec<Key>,
}

/// Lints the file shown as `file`, at `path` (for baseline keys), with bytes `source` and
/// pipeline `outcome`.
pub fn lint(
    file: &str,
    path: &Path,
    source: &[u8],
    outcome: &FileOutcome,
    settings: &Settings,
) -> Linted {
    let mut at = crate::report::Locator::new(source);
    let candidates = outcome
        .diagnostics
        .iter()
        .map(|d| (Diagnostic::of_file_diagnostic(file, source, d), None))
        .chain(
            outcome
                .findings
                .iter()
                .enumerate()
                .map(|(i, f)| (Diagnostic::of_finding_in(file, source, &mut at, f), Some(i))),
        );
    let mut ledger = Ledger::new(suppress::find(source));
    let mut linted = Linted::default();
    let mut matched: HashMap<Key, usize> = HashMap::new();
    let mut unsuppressed = Vec::new();
    for (d, origin) in candidates {
        if settings.ignore.contains(&d.code) {
            continue;
        }
        if ledger.suppresses(d.code, d.start.line, d.end.line) {
            linted.suppressed += 1;
            continue;
        }
        unsuppressed.push((d, origin));
    }
    if !settings.ignore.contains(&Code::MalformedSuppression) {
        for s in &ledger.suppressions {
            if let suppress::Names::Malformed(why) = &s.names {
                let at = Location::find(source, s.offset, s.line, s.offset);
                let message = format!(
                    "malformed suppression: {why} ({}); it silences nothing",
                    s.text
                );
                unsuppressed.push((
                    Diagnostic::at(Code::MalformedSuppression, file, at, message),
                    None,
                ));
            }
        }
    }
    if settings.report_unused_suppressions && !settings.ignore.contains(&Code::UnusedSuppression) {
        for (s, names) in ledger.unused() {
            let unknown: Vec<&str> = names
                .iter()
                .copied()
                .filter(|n| *n != "*" && Code::parse(n).is_none())
                .collect();
            let message = if unknown.is_empty() {
                format!(
                    "unused suppression: `{}` silences no finding of its statement ({})",
                    names.join(", "),
                    s.text
                )
            } else {
                format!(
                    "unused suppression: `{}` is not a finding code ({})",
                    unknown.join(", "),
                    s.text
                )
            };
            let at = Location::find(source, s.offset, s.line, s.offset);
            unsuppressed.push((
                Diagnostic::at(Code::UnusedSuppression, file, at, message),
                None,
            ));
        }
    }
    for (d, origin) in unsuppressed {
        if let Some(record) = settings.record {
            linted.recorded.push(record.key(path, &d));
        }
        if let Some(baseline) = settings.baseline {
            let key = baseline.key(path, &d);
            let seen = matched.entry(key.clone()).or_default();
            if *seen < baseline.count(&key) {
                *seen += 1;
                linted.baselined += 1;
                continue;
            }
        }
        linted.reported.push((d, origin));
    }
    linted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::RuleSet;
    use crate::pipeline::{self, Options};

    const SOURCE: &str = concat!(
        "__device__ void f(int a, int b) {\n",
        "  int d;\n",
        "  asm(\"add.s32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(b));\n",
        "  // ptx2hip: ignore[U001] NVIDIA-only\n",
        "  asm volatile(\"frob.b32 %0;\" :: \"r\"(a));\n",
        "  asm volatile(\"frob.b32 %0;\" :: \"r\"(b)); // ptx2hip: ignore[U002, T001]\n",
        "}\n",
    );

    fn run(source: &str, settings: &Settings) -> Linted {
        let rules = RuleSet::embedded().unwrap();
        let options = Options {
            target: crate::lower::Target::Amd,
            emit: None,
            provenance: false,
            tensor_model: Default::default(),
            fast: false,
            evidence: Default::default(),
        };
        let outcome = pipeline::process(source.as_bytes(), &rules, options);
        lint(
            "k.cu",
            Path::new("k.cu"),
            source.as_bytes(),
            &outcome,
            settings,
        )
    }

    fn codes(l: &Linted) -> Vec<(Code, usize)> {
        l.reported
            .iter()
            .map(|(d, _)| (d.code, d.focus.line))
            .collect()
    }

    #[test]
    fn suppressed_findings_are_counted_not_reported() {
        let l = run(SOURCE, &Settings::default());
        assert_eq!(
            codes(&l),
            [(Code::Translatable, 3), (Code::UnknownInstruction, 6)]
        );
        assert_eq!(l.suppressed, 1);
        assert_eq!(l.reported[0].1, Some(0), "the statement finding it reports");
    }

    #[test]
    fn ignored_codes_do_not_exist_for_the_lint() {
        let settings = Settings {
            ignore: &[Code::Translatable, Code::UnknownInstruction],
            ..Settings::default()
        };
        let l = run(SOURCE, &settings);
        assert!(l.reported.is_empty());
        assert_eq!(l.suppressed, 0);
    }

    #[test]
    fn unused_suppressions_are_reported_on_request_at_the_comment() {
        let settings = Settings {
            report_unused_suppressions: true,
            ..Settings::default()
        };
        let l = run(SOURCE, &settings);
        let (d, origin) = l.reported.last().unwrap();
        assert_eq!(
            (d.code, d.focus.line, *origin),
            (Code::UnusedSuppression, 6, None)
        );
        assert!(
            d.message.contains("`U002, T001` silences no finding"),
            "{}",
            d.message
        );
        let with_unknown = SOURCE.replace("ignore[U002, T001]", "ignore[U001, X999]");
        let l = run(&with_unknown, &settings);
        let (d, _) = l.reported.last().unwrap();
        assert!(
            d.message.contains("`X999` is not a finding code"),
            "{}",
            d.message
        );
    }

    #[test]
    fn the_baseline_holds_back_known_findings_even_when_they_move() {
        let dir = tempfile::tempdir().unwrap();
        let mut baseline = Baseline::new(&dir.path().join("b.json"));
        let recorded = run(
            SOURCE,
            &Settings {
                record: Some(&baseline),
                ..Settings::default()
            },
        )
        .recorded;
        assert_eq!(recorded.len(), 2, "suppressed findings are not recorded");
        for key in recorded {
            baseline.add(key);
        }
        let settings = Settings {
            baseline: Some(&baseline),
            ..Settings::default()
        };
        let moved = SOURCE.replacen("  int d;\n", "  int d;\n\n\n", 1);
        let l = run(&moved, &settings);
        assert!(l.reported.is_empty(), "{:?}", codes(&l));
        assert_eq!(l.baselined, 2);
        let copied = SOURCE.replacen(
            "  int d;\n",
            "  int d;\n  asm(\"add.s32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(b));\n",
            1,
        );
        let l = run(&copied, &settings);
        assert_eq!(codes(&l), [(Code::Translatable, 4)], "a copy is new");
    }
}
