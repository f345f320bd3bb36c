//! `translate` never loses a user's file: `--out-dir` stays outside the inputs, never lets two
//! inputs overwrite each other, never writes through a link and never leaves a partial file;
//! `--in-place` leaves read-only files alone and rewrites each file once.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn ptx2hip() -> Command {
    Command::cargo_bin("ptx2hip").expect("binary built")
}

const ADD: &str = "__device__ int f(int j, int k) {\n  int i;\n  asm(\"add.s32 %0, %1, %2;\" : \"=r\"(i) : \"r\"(j), \"r\"(k));\n  return i;\n}\n";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, text).unwrap();
    p
}

/// Every file under `dir` with its bytes, sorted; links as `-> target`.
fn tree(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.strip_prefix(dir).unwrap().display().to_string();
            let meta = fs::symlink_metadata(&p).unwrap();
            if meta.file_type().is_symlink() {
                out.push((name, format!("-> {}", fs::read_link(&p).unwrap().display())));
            } else if meta.is_dir() {
                out.push((name, "/".into()));
                pending.push(p);
            } else {
                out.push((name, String::from_utf8_lossy(&fs::read(&p).unwrap()).into()));
            }
        }
    }
    out.sort();
    out
}

fn stderr_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

#[test]
fn out_dir_equal_to_or_overlapping_the_inputs_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    write(&src, "k/a.cu", ADD);
    symlink(&src, dir.path().join("link")).unwrap();
    let before = tree(dir.path());
    for (out, input) in [
        ("src", "src"),          // the same directory: every source would be rewritten
        ("src/hip", "src"),      // inside the input: copies among the sources
        ("src/k", "src/k/a.cu"), // the input file inside the output directory
        (".", "src"),            // the input inside the output directory
        ("link/new", "src"),     // through a link to the input
        ("src/../src", "src"),
    ] {
        let assert = ptx2hip()
            .current_dir(dir.path())
            .args(["translate", "--out-dir", out, input])
            .assert()
            .code(2);
        let stderr = stderr_of(&assert);
        assert!(
            stderr.contains("overlaps the input") && stderr.contains("use --in-place"),
            "{out} {input}: {stderr}"
        );
        assert_eq!(tree(dir.path()), before, "{out} {input}");
    }
}

#[test]
fn an_out_dir_beside_the_inputs_is_fine() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "src/a.cu", ADD);
    write(dir.path(), "srcx/b.cu", ADD);
    ptx2hip()
        .current_dir(dir.path())
        .args(["translate", "--out-dir", "src-hip", "src", "srcx/b.cu"])
        .assert()
        .code(0);
    assert!(fs::read_to_string(dir.path().join("src-hip/a.cu"))
        .unwrap()
        .contains("__HIP_PLATFORM_AMD__"));
    assert!(dir.path().join("src-hip/b.cu").exists());
}

#[test]
fn out_dir_collisions_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "r1/k.cu", ADD);
    write(dir.path(), "r2/k.cu", "// another k.cu\n");
    write(dir.path(), "r1/only1.cu", ADD);
    for inputs in [
        &["r1/k.cu", "r2/k.cu"][..],
        &["r1", "r2"],
        &["r1", "r2/k.cu"],
    ] {
        let assert = ptx2hip()
            .current_dir(dir.path())
            .args(["translate", "--out-dir", "out"])
            .args(inputs)
            .assert()
            .code(2);
        let stderr = stderr_of(&assert);
        assert!(
            stderr.contains("r1/k.cu and r2/k.cu would both be written to out/k.cu"),
            "{inputs:?}: {stderr}"
        );
        assert!(!dir.path().join("out").exists(), "{inputs:?}");
    }
}

#[test]
fn one_file_reached_twice_is_one_input_not_a_collision() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "src/a.cu", ADD);
    ptx2hip()
        .current_dir(dir.path())
        .args(["translate", "--out-dir", "out", "src/a.cu", "./src/a.cu"])
        .assert()
        .code(0);
    assert!(dir.path().join("out/a.cu").exists());
    let assert = ptx2hip()
        .current_dir(dir.path())
        .args(["translate", "--in-place", "src/a.cu", "./src/a.cu", "src"])
        .assert()
        .code(0);
    // One file: counted once in the summary, nothing else said.
    assert_eq!(
        stderr_of(&assert),
        "ptx2hip: 1 of 1 file changed, 1 statement translated, 0 left as written\n"
    );
    let once = write(dir.path(), "once/a.cu", ADD);
    ptx2hip()
        .args(["translate", "--in-place"])
        .arg(&once)
        .assert()
        .code(0);
    assert_eq!(
        fs::read(dir.path().join("src/a.cu")).unwrap(),
        fs::read(&once).unwrap()
    );
}

#[test]
fn out_dir_never_writes_through_a_link_inside_it() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    write(&src, "sub/a.cu", ADD);
    write(&src, "b.cu", ADD);
    write(&src, "c.cu", ADD);
    let outside = dir.path().join("outside");
    write(&outside, "a.cu", "precious a\n");
    write(&outside, "b.cu", "precious b\n");
    let out = dir.path().join("out");
    fs::create_dir(&out).unwrap();
    symlink(&outside, out.join("sub")).unwrap();
    symlink(outside.join("b.cu"), out.join("b.cu")).unwrap();
    let before = tree(&outside);
    let assert = ptx2hip()
        .args(["translate", "--out-dir"])
        .arg(&out)
        .arg(&src)
        .assert()
        .code(2);
    let stderr = stderr_of(&assert);
    assert!(
        stderr.contains("`sub` in the output directory is a symbolic link"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`b.cu` in the output directory is a symbolic link"),
        "{stderr}"
    );
    assert_eq!(tree(&outside), before);
    // The links stay as they were; the file without one is written.
    assert!(fs::symlink_metadata(out.join("b.cu"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(fs::read_to_string(out.join("c.cu"))
        .unwrap()
        .contains("__HIP_PLATFORM_AMD__"));
}

#[test]
fn out_dir_replaces_files_by_rename_never_rewriting_them_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    write(&src, "a.cu", ADD);
    // A file of an earlier run, hard-linked elsewhere: writing into it would change the other name.
    let out = dir.path().join("out");
    let witness = write(dir.path(), "witness.cu", "earlier output\n");
    fs::create_dir(&out).unwrap();
    fs::hard_link(&witness, out.join("a.cu")).unwrap();
    ptx2hip()
        .args(["translate", "--out-dir"])
        .arg(&out)
        .arg(&src)
        .assert()
        .code(0);
    assert_eq!(fs::read_to_string(&witness).unwrap(), "earlier output\n");
    assert!(fs::read_to_string(out.join("a.cu"))
        .unwrap()
        .contains("__HIP_PLATFORM_AMD__"));
    // Only the translated file: no temporary file is left behind.
    assert_eq!(tree(&out).len(), 1);
}

#[test]
fn in_place_leaves_a_read_only_file_alone_and_says_so() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let locked = write(dir.path(), "locked.cu", ADD);
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o444)).unwrap();
    let open = write(dir.path(), "open.cu", ADD);
    let assert = ptx2hip()
        .args(["translate", "--in-place"])
        .arg(dir.path())
        .assert()
        .code(2);
    let stderr = stderr_of(&assert);
    assert!(
        stderr.contains("locked.cu: the file is read-only: not rewritten"),
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(&locked).unwrap(), ADD);
    assert_eq!(
        fs::metadata(&locked).unwrap().permissions().mode() & 0o777,
        0o444
    );
    assert!(fs::read_to_string(&open)
        .unwrap()
        .contains("__HIP_PLATFORM_AMD__"));
    assert_eq!(tree(dir.path()).len(), 2, "no temporary file is left");
}
