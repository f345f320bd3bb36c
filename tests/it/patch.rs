//! The patch a reviewer reads: provenance comments, minimal git-clean diffs, the summary.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn ptx2hip() -> Command {
    Command::cargo_bin("ptx2hip").expect("binary built")
}

fn write(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
    let p = dir.join(name);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, text).unwrap();
    p
}

/// `translate --in-place` with `args`; the file afterwards.
fn in_place(path: &Path, args: &[&str]) -> String {
    ptx2hip()
        .arg("translate")
        .args(args)
        .arg("--in-place")
        .arg(path)
        .assert()
        .code(0);
    fs::read_to_string(path).unwrap()
}

const MIXED: &str = "__device__ int f(int x) {\n  int y, z;\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n  asm(\"frob.b32 %0, %1;\" : \"=r\"(z) : \"r\"(x));\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x)); return y + z;\n}\n#define M(x) asm(\"add.s32 %0, %0, 1;\" : \"+r\"(x))\n#define N(x) asm(\"frob.b32 %0, %0;\" : \"+r\"(x))\n";

#[test]
fn each_translation_names_its_rules_and_each_statement_left_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let guarded = in_place(&write(dir.path(), "g.cu", MIXED.as_bytes()), &[]);
    assert!(guarded.contains("  #if defined(__HIP_PLATFORM_AMD__) // ptx2hip: I001\n"));
    assert!(guarded.contains(
        "  /* ptx2hip: U001 not translated: unknown instruction `frob`: no rule in the table */\n  asm(\"frob.b32"
    ));
    // In a #define body a `//` comment would swallow the rest: `/* */` there.
    assert!(guarded.contains("#define M(x) PTX2HIP_AMD_ONLY(/* ptx2hip: I001 */ do "));
    assert!(guarded.contains("#define N(x) /* ptx2hip: U001 not translated: unknown instruction `frob`: no rule in the table */ asm(\"frob"));

    let replaced = in_place(
        &write(dir.path(), "r.cu", MIXED.as_bytes()),
        &["--emit", "replace"],
    );
    // Alone on its line the note follows the code; where code follows, it precedes it.
    assert!(replaced.contains("(int32_t)1); // ptx2hip: I001\n"));
    assert!(replaced.contains("  /* ptx2hip: I001 */ y = "));
    assert!(replaced.contains("); return y + z;\n"));
    assert!(replaced.contains("#define M(x) /* ptx2hip: I001 */ do "));
}

#[test]
fn a_second_translate_changes_nothing_markers_included() {
    let dir = tempfile::tempdir().unwrap();
    for emit in ["guarded", "replace"] {
        let p = write(dir.path(), &format!("{emit}.cu"), MIXED.as_bytes());
        let once = in_place(&p, &["--emit", emit]);
        ptx2hip()
            .args(["translate", "--emit", emit])
            .arg(&p)
            .assert()
            .code(0)
            .stdout("");
        assert_eq!(fs::read_to_string(&p).unwrap(), once);
    }
}

#[test]
fn a_marker_goes_when_its_statement_is_translated() {
    let dir = tempfile::tempdir().unwrap();
    let stale = "__device__ int f(int x) {\n  int y;\n  // ptx2hip: U001 not translated: an older reason\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n  return y;\n}\n";
    let p = write(dir.path(), "s.cu", stale.as_bytes());
    let out = in_place(&p, &[]);
    assert!(!out.contains("not translated"), "{out}");
    assert!(
        out.contains("  int y;\n  #if defined(__HIP_PLATFORM_AMD__) // ptx2hip: I001\n"),
        "{out}"
    );
}

#[test]
fn no_provenance_writes_no_comments_and_a_file_with_nothing_translated_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "g.cu", MIXED.as_bytes());
    let out = in_place(&p, &["--no-provenance"]);
    assert!(
        !out.contains("// ptx2hip: ") && !out.contains("/* ptx2hip: "),
        "{out}"
    );
    let only_unknown = "__device__ void h() {\n  asm volatile(\"frob.b32 %0;\" :: \"r\"(1));\n}\n";
    let p = write(dir.path(), "u.cu", only_unknown.as_bytes());
    assert_eq!(in_place(&p, &[]), only_unknown);
}

/// Runs `git` with `args` in `dir`; its output.
fn git(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs")
}

/// `translate` of `files` (relative to `dir`), run in `dir` with `args`: the diff.
fn diff_in(dir: &Path, args: &[&str], files: &[&str]) -> Vec<u8> {
    ptx2hip()
        .current_dir(dir)
        .arg("translate")
        .args(args)
        .args(files)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone()
}

/// `git apply --whitespace=error` of `diff` in `dir` (outside a repository it works as `patch`).
fn git_apply(dir: &Path, diff: &[u8], check_only: bool) {
    let patch = dir.join("../change.patch");
    fs::write(&patch, diff).unwrap();
    let mut args = vec!["apply", "--whitespace=error"];
    if check_only {
        args.push("--check");
    }
    let patch = patch.to_str().unwrap().to_string();
    args.push(&patch);
    let o = git(dir, &args);
    assert!(
        o.status.success(),
        "git apply: {}\n{}",
        String::from_utf8_lossy(&o.stderr),
        String::from_utf8_lossy(diff)
    );
}

#[test]
fn every_corpus_diff_applies_with_git_and_adds_no_trailing_whitespace() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    fs::create_dir_all(&work).unwrap();
    let mut names = Vec::new();
    for e in fs::read_dir(&corpus).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".cu") || name.ends_with(".cuh") {
            fs::copy(e.path(), work.join(&name)).unwrap();
            names.push(name);
        }
    }
    let files: Vec<&str> = names.iter().map(String::as_str).collect();
    for emit in ["guarded", "replace"] {
        for target in ["amd", "portable"] {
            let d = diff_in(&work, &["--emit", emit, "--target", target], &files);
            assert!(!d.is_empty());
            // CRLF corpus files: a CR before the newline is the file's line ending, not a blank.
            let patch = dir.path().join("change.patch");
            fs::write(&patch, &d).unwrap();
            let o = git(
                &work,
                &[
                    "-c",
                    "core.whitespace=cr-at-eol",
                    "apply",
                    "--whitespace=error",
                    "--check",
                    patch.to_str().unwrap(),
                ],
            );
            assert!(
                o.status.success(),
                "--emit {emit} --target {target}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

#[test]
fn a_changed_helper_block_gives_line_minimal_hunks() {
    let dir = tempfile::tempdir().unwrap();
    // `(x)` hides the operand's type: the translation reads it through the glue, a helper.
    let first = "#include <stdint.h>\n__device__ int f(int x) {\n  int y;\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"((x)));\n  return y;\n}\n";
    let p = write(dir.path(), "k.cu", first.as_bytes());
    let once = in_place(&p, &[]);
    // A new statement that needs a helper the block does not have yet.
    let more = once.replace(
        "  return y;\n}\n",
        "  return y;\n}\n__device__ unsigned g(unsigned a, unsigned b, unsigned c) {\n  unsigned d;\n  asm(\"prmt.b32 %0, %1, %2, %3;\" : \"=r\"(d) : \"r\"(a), \"r\"(b), \"r\"(c));\n  return d;\n}\n",
    );
    fs::write(&p, &more).unwrap();
    let d = String::from_utf8(diff_in(dir.path(), &[], &["k.cu"])).unwrap();
    let removed: Vec<&str> = d
        .lines()
        .filter(|l| l.starts_with('-') && !l.starts_with("---"))
        .collect();
    // No helper line is removed and re-added; even the prmt statement stays, as the context
    // between the added `#else` and `#endif`.
    assert!(removed.is_empty(), "{d}");
    assert!(d.contains("+  #else\n   asm(\"prmt.b32"), "{d}");
    assert!(!d.contains("+// ---- ptx2hip helpers"), "{d}");
    assert!(!d.contains("+#include <stdint.h>"), "{d}");
}

#[test]
fn names_are_relative_to_the_diff_root_and_quoted_as_git_quotes_them() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    let add = "__device__ int f(int x) {\n  int y;\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n  return y;\n}\n";
    write(&work, "sub/tab\tname.cu", add.as_bytes());
    let d = diff_in(
        &work.join("sub"),
        &["--diff-root", work.to_str().unwrap()],
        &["../sub/tab\tname.cu"],
    );
    assert!(
        // After the line that records what made the patch.
        d.split(|&b| b == b'\n').nth(1) == Some(b"--- \"a/sub/tab\\tname.cu\"".as_slice()),
        "{}",
        String::from_utf8_lossy(&d)
    );
    git_apply(&work, &d, false);
    assert!(fs::read_to_string(work.join("sub/tab\tname.cu"))
        .unwrap()
        .contains("// ptx2hip: I001"));

    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"caf\xe9.cu");
        fs::write(work.join(name), add).unwrap();
        let d = ptx2hip()
            .current_dir(&work)
            .args(["translate", "--diff-root", "."])
            .arg(name)
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        assert!(
            d.split(|&b| b == b'\n').nth(1) == Some(b"--- \"a/caf\\351.cu\"".as_slice()),
            "{}",
            String::from_utf8_lossy(&d)
        );
        git_apply(&work, &d, true);
    }
}

#[test]
fn inserted_lines_end_as_their_own_line_does() {
    let dir = tempfile::tempdir().unwrap();
    let src = "__device__ int f(int x) {\n  int y;\r\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\r\n  return y;\n}\n";
    let out = in_place(&write(dir.path(), "m.cu", src.as_bytes()), &[]);
    assert!(out.contains("  #if defined(__HIP_PLATFORM_AMD__) // ptx2hip: I001\n  y = "));
    assert!(out.contains("  #if defined(__HIP_PLATFORM_AMD__) // ptx2hip: I001\r\n  y = "));
    // Most lines end in LF: so does the helper block.
    assert!(!out.contains("helpers ----\r\n"));

    let cr_only = "__device__ int f(int x) {\r    int y;\r    asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\r    return y;\r}\r";
    let out = in_place(&write(dir.path(), "cr.cu", cr_only.as_bytes()), &[]);
    // Old Mac line endings: a lone CR ends a line for the compiler, and every inserted line
    // ends so too.
    assert!(
        out.contains("\r    #if defined(__HIP_PLATFORM_AMD__) // ptx2hip: I001\r    y = "),
        "{out:?}"
    );
    assert!(!out.contains('\n'), "{out:?}");
}

#[test]
fn translate_ends_with_a_summary_line_and_statistics_on_request() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "g.cu", MIXED.as_bytes());
    write(dir.path(), "none.cu", b"int x;\n");
    let o = ptx2hip()
        .current_dir(dir.path())
        .args(["translate", "."])
        .assert()
        .code(0);
    let err = String::from_utf8_lossy(&o.get_output().stderr).into_owned();
    assert!(
        err.ends_with(
            "ptx2hip: 1 of 2 files changed, 3 statements translated, 2 left as written\n"
        ),
        "{err}"
    );
    let o = ptx2hip()
        .current_dir(dir.path())
        .args(["translate", "--statistics", "."])
        .assert()
        .code(0);
    let err = String::from_utf8_lossy(&o.get_output().stderr).into_owned();
    assert!(
        err.contains("     2  U001  unknown-instruction (left as written)\n           2  unknown instruction `frob`: no rule in the table\n     3  I001  translated\n"),
        "{err}"
    );
}
