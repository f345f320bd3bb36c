//! Trusting `translate` with a tree: backups, inputs that are not regular files, UTF-16 files,
//! and linear time on generated code.

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

const ADD: &str = "__device__ int f(int x) {\n  int y;\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n  return y;\n}\n";

fn stderr(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stderr).into_owned()
}

#[test]
fn backup_suffix_keeps_the_original_beside_the_file_and_never_rewrites_without_one() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "k.cu", ADD.as_bytes());
    let run = || {
        ptx2hip()
            .args(["translate", "--in-place", "--backup-suffix", ".prehip"])
            .arg(&p)
            .assert()
    };
    run().code(0);
    let backup = dir.path().join("k.cu.prehip");
    assert_eq!(fs::read_to_string(&backup).unwrap(), ADD);
    assert!(fs::read_to_string(&p).unwrap().contains("// ptx2hip: I001"));
    // The file changes again: its backup would have to replace the older original, which is
    // kept; without a backup the file is not rewritten.
    let more = fs::read_to_string(&p).unwrap() + ADD.replace(" f(", " g(").as_str();
    fs::write(&p, &more).unwrap();
    let refused = run().code(2);
    assert!(
        stderr(&refused).contains("no backup can be made"),
        "{}",
        stderr(&refused)
    );
    assert!(
        stderr(&refused).contains("0 of 1 file changed"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(fs::read_to_string(&p).unwrap(), more);
    assert_eq!(fs::read_to_string(&backup).unwrap(), ADD);
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["k.cu", "k.cu.prehip"], "no temporary file is left");
    ptx2hip()
        .args(["translate", "--backup-suffix", ".prehip"])
        .arg(&p)
        .assert()
        .code(2);
}

#[test]
fn anything_already_at_the_backup_name_means_no_rewrite() {
    for occupant in ["patch's .orig", "directory", "link", "empty suffix"] {
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), "k.cu", ADD.as_bytes());
        let at = dir.path().join("k.cu.orig");
        let suffix = match occupant {
            "patch's .orig" => {
                fs::write(&at, "older\n").unwrap();
                ".orig"
            }
            "directory" => {
                fs::create_dir(&at).unwrap();
                ".orig"
            }
            "link" => {
                std::os::unix::fs::symlink("elsewhere", &at).unwrap();
                ".orig"
            }
            _ => "",
        };
        ptx2hip()
            .args(["translate", "--in-place", "--backup-suffix", suffix])
            .arg(&p)
            .assert()
            .code(2);
        assert_eq!(fs::read_to_string(&p).unwrap(), ADD, "{occupant}");
        assert!(!dir.path().join("elsewhere").exists(), "{occupant}");
    }
}

#[test]
fn a_backup_left_by_an_interrupted_run_is_the_backup() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "k.cu", ADD.as_bytes());
    write(dir.path(), "k.cu.prehip", ADD.as_bytes());
    ptx2hip()
        .args(["translate", "--in-place", "--backup-suffix", ".prehip"])
        .arg(&p)
        .assert()
        .code(0);
    assert!(fs::read_to_string(&p).unwrap().contains("// ptx2hip: I001"));
}

#[cfg(unix)]
#[test]
fn a_fifo_or_device_named_on_the_command_line_is_not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.cu");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for args in [&["translate"][..], &["translate", "--in-place"], &["check"]] {
        for path in [fifo.as_path(), Path::new("/dev/null")] {
            let a = ptx2hip().args(args).arg(path).assert().code(2);
            assert!(stderr(&a).contains("not a regular file"), "{}", stderr(&a));
        }
    }
}

#[test]
fn a_utf16_file_is_named_as_such_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = vec![0xFF, 0xFE];
    for u in ADD.encode_utf16() {
        bytes.extend_from_slice(&u.to_le_bytes());
    }
    let p = write(dir.path(), "wide.cu", &bytes);
    let a = ptx2hip()
        .args(["translate", "--in-place"])
        .arg(&p)
        .assert()
        .code(0);
    assert!(
        stderr(&a).contains("UTF-16LE text (byte order mark)"),
        "{}",
        stderr(&a)
    );
    assert_eq!(fs::read(&p).unwrap(), bytes);
}

#[test]
fn explain_of_an_empty_statement_says_so() {
    for s in ["", "  ", ";"] {
        let a = ptx2hip().args(["explain", s]).assert().code(1);
        let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
        assert!(out.contains("an empty statement"), "{out}");
    }
}

/// 20,000 statements on one line (minified or generated code). Quadratic work per line took
/// 22 s for 5,000 of them in a debug build (about 6 minutes for these); linear, seconds.
#[test]
fn many_statements_on_one_line_take_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let stmt = "asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x)); ";
    let line = format!(
        "__device__ void f(int x) {{ int y; {}}}\n",
        stmt.repeat(20_000)
    );
    let p = write(dir.path(), "min.cu", line.as_bytes());
    let a = ptx2hip().arg("translate").arg(&p).assert().code(0);
    assert!(
        stderr(&a).contains("1 of 1 file changed, 20000 statements translated"),
        "{}",
        stderr(&a)
    );
}

/// 40,000 statements on one line in human `check` output: each finding's line, column and
/// snippet are found in logarithmic time and only the part of the line around the caret is
/// shown (quadratic, this took minutes: 95 s for 40,000 in a release build; linear, seconds).
#[test]
fn human_check_of_many_statements_on_one_line_takes_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let stmt = "asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x)); ";
    let line = format!(
        "__device__ void f(int x) {{ int y; {}}}\n",
        stmt.repeat(40_000)
    );
    let p = write(dir.path(), "min.cu", line.as_bytes());
    let a = ptx2hip().arg("check").arg(&p).assert().code(1);
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    assert!(
        out.ends_with(
            "40000 non-portable asm statements in 1 file: 40000 translatable, 0 not translated\n"
        ),
        "{}",
        &out[out.len().saturating_sub(300)..]
    );
    // The last finding: its byte column, and a snippet cut around it.
    let column = line.rfind("asm(").unwrap() + 1;
    assert!(
        out.contains(&format!("--> {}:1:{column}\n", p.display())),
        "column"
    );
    assert!(
        out.lines().all(|l| l.len() < 400),
        "a long line is shown in part"
    );
}

/// Links inside walked trees: not followed by default, followed with `--follow`, and a file
/// reached through a link and directly is processed once.
#[test]
fn follow_enters_linked_files_and_directories() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside");
    write(&outside, "lib/k.cu", ADD.as_bytes());
    write(&outside, "one.cu", ADD.as_bytes());
    let tree = dir.path().join("tree");
    write(&tree, "own.cu", ADD.as_bytes());
    symlink(outside.join("lib"), tree.join("lib")).unwrap();
    symlink(outside.join("one.cu"), tree.join("one.cu")).unwrap();
    symlink(tree.join("own.cu"), tree.join("again.cu")).unwrap();
    let files = |follow: bool| {
        let mut c = ptx2hip();
        c.args(["check", "--format", "json"]);
        if follow {
            c.arg("--follow");
        }
        let out = c.arg(&tree).assert().code(1).get_output().stdout.clone();
        let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let mut names: Vec<String> = doc
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let file = f["file"].as_str().unwrap();
                file.rsplit_once("tree/").unwrap().1.to_string()
            })
            .collect();
        names.sort();
        names
    };
    assert_eq!(files(false), ["own.cu"]);
    let followed = files(true);
    assert_eq!(followed.len(), 3, "{followed:?}");
    assert!(followed.contains(&"lib/k.cu".to_string()) && followed.contains(&"one.cu".to_string()));
    assert!(
        followed.contains(&"own.cu".to_string()),
        "a file reached directly and through a link keeps its own path: {followed:?}"
    );

    // In place, files that links lead to outside the named tree are left alone, with a note.
    let run = ptx2hip()
        .args(["translate", "--in-place", "--follow"])
        .arg(&tree)
        .assert()
        .code(0);
    assert!(
        stderr(&run).contains("lies outside the named paths"),
        "{}",
        stderr(&run)
    );
    assert_eq!(fs::read_to_string(outside.join("lib/k.cu")).unwrap(), ADD);
    assert_eq!(fs::read_to_string(outside.join("one.cu")).unwrap(), ADD);
    assert!(fs::read_to_string(tree.join("own.cu"))
        .unwrap()
        .contains("// ptx2hip: I001"));
}

#[test]
fn a_link_from_the_inputs_into_the_output_directory_is_refused() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    write(&tree, "k.cu", ADD.as_bytes());
    let out = dir.path().join("out");
    write(&out, "old.cu", ADD.as_bytes());
    symlink(&out, tree.join("out")).unwrap();
    let run = ptx2hip()
        .args(["translate", "--follow", "--out-dir"])
        .arg(&out)
        .arg(&tree)
        .assert()
        .code(2);
    assert!(stderr(&run).contains("lies inside it"), "{}", stderr(&run));
    assert!(!out.join("k.cu").exists(), "nothing is written");
}

/// One statement with thousands of operands and registers: names are made unique without
/// probing every name taken so far for each new one.
#[test]
fn statements_with_thousands_of_operands_translate() {
    let dir = tempfile::tempdir().unwrap();
    let n = 3000;
    let regs: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
    let body: Vec<String> = (0..n - 1)
        .map(|i| format!("add.u32 r{}, r{i}, 1;", i + 1))
        .collect();
    let chain = format!(
        "__device__ void f(int x) {{ int y; asm(\"{{ .reg .u32 {}; mov.u32 r0, %1; {} mov.u32 %0, r{}; }}\" : \"=r\"(y) : \"r\"(x)); }}\n",
        regs.join(", "),
        body.join(" "),
        n - 1
    );
    let tmpl: Vec<String> = (0..n).map(|i| format!("add.u32 %{i}, %{i}, 1;")).collect();
    let outs: Vec<String> = (0..n).map(|i| format!("\"+r\"(a[{i}])")).collect();
    let wide = format!(
        "__device__ void g(unsigned* a) {{ asm(\"{}\" : {}); }}\n",
        tmpl.join(" "),
        outs.join(", ")
    );
    let p = write(dir.path(), "ops.cu", format!("{chain}{wide}").as_bytes());
    let a = ptx2hip().arg("translate").arg(&p).assert().code(0);
    assert!(
        stderr(&a).contains("2 statements translated"),
        "{}",
        stderr(&a)
    );
}

#[test]
fn temporaries_of_a_killed_run_are_removed_and_a_live_runs_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "k.cu", ADD.as_bytes());
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let left = format!(".ptx2hip-{dead}-0.tmp");
    let live = format!(".ptx2hip-{}-0.tmp", std::process::id());
    write(dir.path(), &left, b"half a file");
    write(dir.path(), &live, b"another run's");
    let run = ptx2hip()
        .args(["translate", "--in-place"])
        .arg(&p)
        .assert()
        .code(0);
    assert!(
        stderr(&run).contains("removed 1 temporary file"),
        "{}",
        stderr(&run)
    );
    assert!(!dir.path().join(left).exists());
    assert!(dir.path().join(live).exists());
}
