//! A translated tree that a formatter re-laid out translates again to exactly itself: ptx2hip
//! recognises its own text — helper blocks, the shared header and the `// uses:` lines that
//! include it, `not translated` markers, guarded `#if` blocks — whatever whitespace, comment
//! re-flowing, include order and directive indentation `clang-format` gave it.
//!
//! Every corpus file is translated (guarded and replace, both targets, inline helpers and
//! `--helpers`; every pair of these choices and the style, not every combination), formatted with `clang-format-19 -i` in three styles (the repository's, LLVM's
//! with directives indented after the `#`, Google's at 40 columns, which re-flows nearly every
//! comment and wraps long directives), and translated again: nothing may change. Then each file gets one more translatable statement and is translated again: the new
//! statement is translated, each file still has one helper block (none nested in another) and
//! its statements left as written still one marker each, and a further run changes nothing.
//!
//! Without clang-format-19: skipped with a note, or a failure when the `CI` variable is set.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

const CLANG_FORMAT: &str = "clang-format-19";
const HEADER: &str = "ptx2hip_helpers.h";

/// A translatable statement that no corpus file holds, appended to every file: a statement whose translation needs a helper (`(a)`'s type is not
/// visible, so it is read through the glue), which must join the file's one helper block.
const PROBE: &str = "\n__device__ unsigned p2h_formatted_probe(unsigned a, unsigned b) {\n  unsigned d;\n  asm(\"add.u32 %0, %1, %2;\" : \"=r\"(d) : \"r\"((a)), \"r\"(b));\n  return d;\n}\n";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn styles() -> [String; 3] {
    [
        format!("file:{}", root().join(".clang-format").display()),
        "{BasedOnStyle: LLVM, IndentPPDirectives: AfterHash}".to_string(),
        "{BasedOnStyle: Google, ColumnLimit: 40}".to_string(),
    ]
}

/// The corpus file names.
fn corpus() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join("corpus"))
        .expect("corpus/ exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cu") || n.ends_with(".cuh"))
        .collect();
    files.sort();
    files
}

/// Every file of `dir` (the corpus copies and the shared header), by name: not the directories
/// (`check`'s cache).
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// `translate --in-place` of every file in `dir` with `args`.
fn translate(dir: &Path, files: &[String], args: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
        .arg("translate")
        .arg("--in-place")
        .args(args)
        .args(files)
        .current_dir(dir)
        .output()
        .expect("ptx2hip runs");
    assert!(
        o.status.success(),
        "translate {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn format(dir: &Path, files: &[String], style: &str) {
    let o = Command::new(CLANG_FORMAT)
        .arg("-i")
        .arg(format!("--style={style}"))
        .args(files)
        .current_dir(dir)
        .output()
        .expect("clang-format runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn count(text: &[u8], what: &str) -> usize {
    memchr::memmem::find_iter(text, what.as_bytes()).count()
}

/// The names of the files that differ between `a` and `b`.
fn changed(a: &[(String, Vec<u8>)], b: &[(String, Vec<u8>)]) -> Vec<String> {
    let names: Vec<&String> = a.iter().chain(b).map(|(n, _)| n).collect();
    let mut out: Vec<String> = names
        .into_iter()
        .filter(|n| {
            a.iter().find(|(m, _)| m == *n).map(|(_, t)| t)
                != b.iter().find(|(m, _)| m == *n).map(|(_, t)| t)
        })
        .cloned()
        .collect();
    out.sort();
    out.dedup();
    out
}

/// One combination: the whole check of the module documentation.
fn check(style: &str, mode: &str, target: &str, shared: bool) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let files = corpus();
    for f in &files {
        std::fs::copy(root().join("corpus").join(f), dir.path().join(f)).unwrap();
    }
    let mut args = vec!["--emit", mode, "--target", target];
    if shared {
        args.extend(["--helpers", HEADER]);
    }
    let what = format!("{style} {args:?}");
    translate(dir.path(), &files, &args);
    let mut formatted_files = files.clone();
    if shared {
        formatted_files.push(HEADER.to_string());
    }
    format(dir.path(), &formatted_files, style);
    if mode == "guarded" {
        // `check` finds every generated branch as translate wrote it, after the formatter too.
        let o = Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
            .args(["check", "--format", "json", "--target", target])
            .args(&files)
            .current_dir(dir.path())
            .output()
            .expect("ptx2hip runs");
        let report = String::from_utf8_lossy(&o.stdout);
        if report.contains("\"L003\"") || report.contains("\"L004\"") {
            return Err(format!(
                "{what}: check reports generated branches:\n{report}"
            ));
        }
    }
    let formatted = contents(dir.path());
    translate(dir.path(), &files, &args);
    let again = contents(dir.path());
    let differ = changed(&formatted, &again);
    if !differ.is_empty() {
        return Err(format!(
            "{what}: translating the formatted translation changed {differ:?}"
        ));
    }

    for f in &files {
        let path = dir.path().join(f);
        let mut text = std::fs::read(&path).unwrap();
        text.extend_from_slice(PROBE.as_bytes());
        std::fs::write(&path, text).unwrap();
    }
    let probed = contents(dir.path());
    translate(dir.path(), &files, &args);
    let after = contents(dir.path());
    for ((name, before), (_, now)) in probed.iter().zip(&after) {
        if name == HEADER {
            continue;
        }
        if count(now, "ptx2hip: I001") != count(before, "ptx2hip: I001") + 1 {
            return Err(format!(
                "{what}: {name}: the appended statement is not translated"
            ));
        }
        if count(now, "---- ptx2hip helpers:") != 1 {
            return Err(format!(
                "{what}: {name}: not one helper block:\n{}",
                String::from_utf8_lossy(now)
            ));
        }
        // A file rewritten before keeps one marker per statement left as written.
        if count(before, "---- ptx2hip helpers:") == 1
            && count(now, "ptx2hip: U0") != count(before, "ptx2hip: U0")
        {
            return Err(format!(
                "{what}: {name}: markers added or lost:\n{}",
                String::from_utf8_lossy(now)
            ));
        }
    }
    translate(dir.path(), &files, &args);
    let differ = changed(&after, &contents(dir.path()));
    if !differ.is_empty() {
        return Err(format!(
            "{what}: the run after the appended statement was not idempotent: {differ:?}"
        ));
    }
    Ok(())
}

#[test]
fn a_formatted_translation_translates_to_itself() {
    if !common::require(&[CLANG_FORMAT], "re-translation after clang-format") {
        return;
    }
    // Every pair of choices (style and mode, style and target, mode and helpers, ...) is met by
    // some combination: each style with each mode and helper placement, the target alternating so
    // that each style, mode and placement meets both targets. 12 runs instead of all 24.
    let mut combinations = Vec::new();
    for (i, style) in styles().into_iter().enumerate() {
        for (j, (mode, shared)) in [
            ("guarded", false),
            ("guarded", true),
            ("replace", false),
            ("replace", true),
        ]
        .into_iter()
        .enumerate()
        {
            let target = ["amd", "portable"][(i + j) % 2];
            combinations.push((style.clone(), mode, target, shared));
        }
    }
    let failures: Vec<String> =
        common::in_parallel(combinations, |(style, mode, target, shared)| {
            check(&style, mode, target, shared)
        })
        .into_iter()
        .filter_map(Result::err)
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
