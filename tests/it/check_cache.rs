//! `check`'s cache of earlier runs' findings: a second run over unchanged files reports exactly
//! what a run without the cache reports, and any change to what the findings depend on (the
//! file, a local header its templates use, the options) is seen.

use std::fs;
use std::path::Path;

use assert_cmd::Command;

/// Runs `check ARGS` in `dir` with the cache in `dir/cache`: exit code and stdout.
fn check(dir: &Path, args: &[&str]) -> (i32, String) {
    let o = Command::cargo_bin("ptx2hip")
        .expect("binary built")
        .current_dir(dir)
        .env_remove("PTX2HIP_CACHE_DIR")
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
    )
}

/// A kernel whose template is a macro of the local header `ptx.h`.
const KERNEL: &str = "#include \"ptx.h\"\n__device__ int f(int a, int b) {\n  int d;\n  asm(ADD_PTX : \"=r\"(d) : \"r\"(a), \"r\"(b));\n  return d;\n}\n";

/// A directory holding `k.cu` ([`KERNEL`]) and its header, whose template is an `add.s32`.
fn kernel_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("k.cu"), KERNEL).unwrap();
    fs::write(
        dir.path().join("ptx.h"),
        "#define ADD_PTX \"add.s32 %0, %1, %2;\"\n",
    )
    .unwrap();
    dir
}

#[test]
fn a_second_run_reports_what_a_run_without_the_cache_reports() {
    let dir = kernel_tree();
    let uncached = check(dir.path(), &["--no-cache", "k.cu"]);
    assert!(uncached.1.contains("T001"), "{}", uncached.1);
    assert!(
        !dir.path().join(".ptx2hip_cache").exists(),
        "--no-cache writes nothing"
    );
    let first = check(dir.path(), &["k.cu"]);
    let second = check(dir.path(), &["k.cu"]);
    assert_eq!(first, uncached);
    assert_eq!(second, uncached);
    assert_eq!(
        fs::read_to_string(dir.path().join(".ptx2hip_cache/.gitignore")).unwrap(),
        "# Created by ptx2hip.\n*\n",
        "the cache directory keeps itself out of git"
    );
}

#[test]
fn every_format_and_colouring_reads_the_cache_as_it_would_be_written() {
    let dir = kernel_tree();
    let runs: [&[&str]; 4] = [
        &["--color", "always"],
        &["--color", "never"],
        &["--format", "concise"],
        &["--format", "json"],
    ];
    for _ in 0..2 {
        for args in runs {
            let args: Vec<&str> = args.iter().copied().chain(["k.cu"]).collect();
            let uncached: Vec<&str> = ["--no-cache"].into_iter().chain(args.clone()).collect();
            assert_eq!(
                check(dir.path(), &args),
                check(dir.path(), &uncached),
                "{args:?}"
            );
        }
    }
}

#[test]
fn an_edited_header_or_file_is_checked_again() {
    let dir = kernel_tree();
    assert!(check(dir.path(), &["k.cu"]).1.contains("T001"));
    fs::write(
        dir.path().join("ptx.h"),
        "#define ADD_PTX \"frobnicate.b32 %0, %1, %2;\"\n",
    )
    .unwrap();
    let (code, out) = check(dir.path(), &["k.cu"]);
    assert_eq!(
        (code, &out),
        (1, &check(dir.path(), &["--no-cache", "k.cu"]).1)
    );
    assert!(out.contains("U001") && !out.contains("T001"), "{out}");
    fs::write(
        dir.path().join("k.cu"),
        KERNEL.replace("int d;", "int d = 0;"),
    )
    .unwrap();
    let (_, out) = check(dir.path(), &["k.cu"]);
    assert!(
        out.contains("k.cu:4:"),
        "the findings of the edited file: {out}"
    );
}

#[test]
fn other_options_are_checked_again() {
    let dir = kernel_tree();
    check(dir.path(), &["k.cu"]);
    // `-D` decides nothing here, but the cache cannot know that: it keys every option.
    let with_macro = check(dir.path(), &["-D", "X=1", "--target", "portable", "k.cu"]);
    assert_eq!(
        with_macro,
        check(
            dir.path(),
            &["--no-cache", "-D", "X=1", "--target", "portable", "k.cu"]
        )
    );
}

#[test]
fn a_cache_directory_that_cannot_be_made_changes_nothing() {
    let dir = kernel_tree();
    // A file where the directory would be.
    fs::write(dir.path().join("blocked"), "").unwrap();
    let blocked = check(dir.path(), &["--cache-dir", "blocked/cache", "k.cu"]);
    assert_eq!(blocked, check(dir.path(), &["--no-cache", "k.cu"]));
}

#[test]
fn the_cache_directory_is_made_only_when_there_is_something_to_keep() {
    let dir = kernel_tree();
    fs::write(
        dir.path().join("plain.cu"),
        "__device__ int g(int a) { return a; }\n",
    )
    .unwrap();
    // Standard input, a file without asm, no file at all: nothing to keep.
    let stdin = Command::cargo_bin("ptx2hip")
        .expect("binary built")
        .current_dir(dir.path())
        .env_remove("PTX2HIP_CACHE_DIR")
        .args(["check", "-"])
        .write_stdin(KERNEL)
        .output()
        .unwrap();
    assert_eq!(stdin.status.code(), Some(1));
    check(dir.path(), &["plain.cu"]);
    check(dir.path(), &["--ext", "none", "."]);
    assert!(!dir.path().join(".ptx2hip_cache").exists());
    check(dir.path(), &["k.cu"]);
    assert!(dir.path().join(".ptx2hip_cache/CACHEDIR.TAG").is_file());
}
