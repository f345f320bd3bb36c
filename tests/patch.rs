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
        "  // ptx2hip: U001 not translated: unknown instruction `frob`: no rule in the table\n  asm(\"frob.b32"
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
    assert!(replaced.contains("  /* ptx2hip: I001 */ ptx2hip_out_r(y) = "));
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
