//! `translate --helpers FILE`: one shared helper header instead of a helper block per file.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

use assert_cmd::Command;

fn ptx2hip() -> Command {
    Command::cargo_bin("ptx2hip").expect("binary built")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, text).unwrap();
    p
}

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap()
}

const LOP3: &str = "#include <stdint.h>\n__device__ uint32_t f(uint32_t a, uint32_t b, uint32_t c) {\n  uint32_t d;\n  asm(\"lop3.b32 %0, %1, %2, %3, %4;\" : \"=r\"(d) : \"r\"(a), \"r\"(b), \"r\"(c), \"n\"(0xEA));\n  return d;\n}\n";
const FMA: &str = "__device__ float g(float a, float b, float c) {\n  float d;\n  asm(\"fma.rz.f32 %0, %1, %2, %3;\" : \"=f\"(d) : \"f\"(a), \"f\"(b), \"f\"(c));\n  return d;\n}\n#define BUMP(x) asm(\"add.s32 %0, %0, 1;\" : \"+r\"(x))\n";

/// Two files in different directories, and where their header goes.
fn tree(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let a = write(dir, "src/a.cu", LOP3);
    let b = write(dir, "src/kernels/b.cu", FMA);
    (a, b, dir.join("include/ptx2hip_helpers.h"))
}

fn translate(args: &[&str], paths: &[&Path], header: &Path) -> std::process::Output {
    let header = header.to_str().unwrap();
    ptx2hip()
        .arg("translate")
        .args(args)
        .args(["--helpers", header])
        .args(paths)
        .output()
        .unwrap()
}

#[test]
fn files_include_one_header_holding_the_helpers_of_both() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("include")).unwrap();
    let (a, b, header) = tree(dir.path());
    let out = translate(&["--in-place"], &[&dir.path().join("src")], &header);
    assert!(out.status.success(), "{out:?}");
    let (a_text, b_text) = (read(&a), read(&b));
    assert!(a_text.contains("#include \"../include/ptx2hip_helpers.h\"\n"));
    assert!(b_text.contains("#include \"../../include/ptx2hip_helpers.h\"\n"));
    for text in [&a_text, &b_text] {
        assert!(!text.contains("#ifndef PTX2HIP_HELPER_"), "{text}");
        assert!(text.contains("// uses: "), "{text}");
    }
    let h = read(&header);
    for helper in ["ptx2hip_lop3", "ptx2hip_fop_f32"] {
        assert!(
            h.contains(&format!("#ifndef PTX2HIP_HELPER_{helper}\n")),
            "{helper}"
        );
    }
    // `BUMP` sits in a #define body: the selection macros come from the header too.
    assert!(h.contains("#define PTX2HIP_AMD_ONLY(...) __VA_ARGS__"));
    assert!(b_text.contains(" PTX2HIP_AMD_ONLY"));
}

#[test]
fn a_second_run_changes_nothing_and_a_later_run_drops_no_helper() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("include")).unwrap();
    let (a, b, header) = tree(dir.path());
    assert!(translate(&["--in-place"], &[&a, &b], &header)
        .status
        .success());
    let before = [read(&a), read(&b), read(&header)];
    let again = translate(&["--in-place"], &[&a, &b], &header);
    assert!(again.status.success());
    assert_eq!([read(&a), read(&b), read(&header)], before);
    let diff = translate(&[], &[&a, &b], &header);
    assert!(
        diff.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&diff.stdout)
    );

    // A run over one new file adds its helpers and keeps those the others use.
    let c = write(dir.path(), "src/c.cu", "__device__ int h(int x) {\n  int y;\n  asm(\"prmt.b32 %0, %1, %1, %1;\" : \"=r\"(y) : \"r\"(x));\n  return y;\n}\n");
    assert!(translate(&["--in-place"], &[&c], &header).status.success());
    let h = read(&header);
    assert!(
        h.contains("PTX2HIP_HELPER_ptx2hip_lop3\n")
            && h.contains("PTX2HIP_HELPER_ptx2hip_fop_f32\n")
    );
    assert_ne!(h, before[2]);

    // A lost header is rebuilt from the `// uses:` lines of the files that include it.
    fs::remove_file(&header).unwrap();
    assert!(translate(&["--in-place"], &[&a, &b, &c], &header)
        .status
        .success());
    assert_eq!(read(&header), h);
}

#[test]
fn the_diff_creates_the_header_and_applies_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    assert!(Process::new("git")
        .args(["init", "-q"])
        .current_dir(root)
        .status()
        .unwrap()
        .success());
    fs::create_dir(root.join("include")).unwrap();
    let (a, b, header) = tree(root);
    let out = translate(&["--diff-root", root.to_str().unwrap()], &[&a, &b], &header);
    assert!(out.status.success(), "{out:?}");
    let diff = String::from_utf8(out.stdout).unwrap();
    assert!(diff.contains("--- /dev/null\n+++ b/include/ptx2hip_helpers.h\n@@ -0,0 +1,"));
    fs::write(root.join("p.diff"), &diff).unwrap();
    let applied = Process::new("git")
        .args(["apply", "--whitespace=error", "p.diff"])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(applied.status.success(), "{applied:?}");
    let patched = [read(&a), read(&b), read(&header)];

    // The same files as --in-place writes them.
    let other = tempfile::tempdir().unwrap();
    fs::create_dir(other.path().join("include")).unwrap();
    let (a2, b2, header2) = tree(other.path());
    assert!(translate(&["--in-place"], &[&a2, &b2], &header2)
        .status
        .success());
    assert_eq!([read(&a2), read(&b2), read(&header2)], patched);

    // Once applied, the diff of a second run is empty.
    let second = translate(&["--diff-root", root.to_str().unwrap()], &[&a, &b], &header);
    assert!(second.stdout.is_empty());
}

#[test]
fn out_dir_copies_include_the_header_from_where_they_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let (_, _, _) = tree(dir.path());
    let out_dir = dir.path().join("out");
    let header = out_dir.join("ptx2hip_helpers.h");
    fs::create_dir(&out_dir).unwrap();
    let out = ptx2hip()
        .arg("translate")
        .arg("--out-dir")
        .arg(&out_dir)
        .arg("--helpers")
        .arg(&header)
        .arg(dir.path().join("src"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(read(&out_dir.join("a.cu")).contains("#include \"ptx2hip_helpers.h\"\n"));
    assert!(read(&out_dir.join("kernels/b.cu")).contains("#include \"../ptx2hip_helpers.h\"\n"));
    assert!(read(&header).contains("PTX2HIP_HELPER_ptx2hip_lop3\n"));
    // The sources are untouched.
    assert_eq!(read(&dir.path().join("src/a.cu")), LOP3);
}

#[test]
fn a_file_that_is_not_a_generated_header_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _, _) = tree(dir.path());
    let header = write(dir.path(), "mine.h", "int mine;\n");
    let out = translate(&["--in-place"], &[&a], &header);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a helper header ptx2hip wrote"));
    assert_eq!(read(&header), "int mine;\n");
    assert_eq!(read(&a), LOP3);
}

#[test]
fn the_header_is_not_taken_as_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let (_, _, _) = tree(dir.path());
    let header = dir.path().join("src/ptx2hip_helpers.h");
    let src = dir.path().join("src");
    assert!(translate(&["--in-place"], &[&src], &header)
        .status
        .success());
    let h = read(&header);
    let again = translate(&["--in-place"], &[&src], &header);
    assert!(again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("0 of 2 files changed"),
        "{again:?}"
    );
    assert_eq!(read(&header), h);
}

/// A translated file with its shared header compiles for gfx942 (device code) with clang-19.
#[test]
fn a_translated_file_compiles_with_the_header() {
    let installed = Process::new("clang-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        assert!(
            std::env::var_os("CI").is_none(),
            "clang-19 not installed (required when CI is set)"
        );
        eprintln!("note: clang-19 not installed: compile check skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("include")).unwrap();
    let (a, b, header) = tree(dir.path());
    fs::write(
        &b,
        format!("{FMA}__device__ int k(int x) {{ BUMP(x); return x; }}\n"),
    )
    .unwrap();
    assert!(translate(&["--in-place"], &[&a, &b], &header)
        .status
        .success());
    for file in [&a, &b] {
        let o = Process::new("clang-19")
            .args([
                "-x",
                "hip",
                "-std=c++17",
                "--offload-arch=gfx942",
                "--cuda-device-only",
                "-nogpulib",
            ])
            .args([
                "-include",
                "hip/hip_runtime.h",
                "-Werror=embedded-directive",
                "-O2",
                "-emit-llvm",
                "-S",
                "-o",
                "/dev/null",
            ])
            .arg(file)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{}: {}",
            file.display(),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn a_copy_or_a_moved_header_gets_its_include_path_corrected() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("include")).unwrap();
    let (a, _, header) = tree(dir.path());
    assert!(translate(&["--in-place"], &[&a], &header).status.success());
    let translated = read(&a);
    // Copies of the translated file under another directory include the header from there.
    let out_dir = dir.path().join("out/deep");
    let copy_header = dir.path().join("out/ptx2hip_helpers.h");
    let out = ptx2hip()
        .arg("translate")
        .arg("--out-dir")
        .arg(&out_dir)
        .arg("--helpers")
        .arg(&copy_header)
        .arg(&a)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let copy = read(&out_dir.join("a.cu"));
    assert!(
        copy.contains("#include \"../ptx2hip_helpers.h\"\n"),
        "{copy}"
    );
    assert_eq!(
        copy.replace("../ptx2hip_helpers.h", "../include/ptx2hip_helpers.h"),
        translated
    );
    assert!(read(&copy_header).contains("PTX2HIP_HELPER_ptx2hip_lop3\n"));
}

fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    ptx2hip().current_dir(dir).args(args).output().unwrap()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const PRMT: &str = "__device__ int h(int x) {\n  int y;\n  asm(\"prmt.b32 %0, %1, %1, %1;\" : \"=r\"(y) : \"r\"(x));\n  return y;\n}\n";

/// Issue 19 item 1: naming a translated source as the header lost its code.
#[test]
fn a_translated_source_named_as_the_header_is_never_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, _) = tree(dir.path());
    assert!(ptx2hip()
        .args(["translate", "--in-place"])
        .arg(&a)
        .output()
        .unwrap()
        .status
        .success());
    let translated = read(&a);
    assert!(translated.contains("#ifndef PTX2HIP_HELPER_"));
    for mode in [&["--in-place"][..], &[]] {
        let out = translate(mode, &[&b], &a);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(stderr(&out).contains("is not a helper header ptx2hip wrote"));
        assert_eq!(read(&a), translated);
        assert_eq!(read(&b), FMA);
    }
}

/// Issue 19 item 2: a licence, `#pragma once` and declarations of the user's in the header.
#[test]
fn lines_the_user_adds_to_the_header_survive_its_regeneration() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("include")).unwrap();
    let (a, _, header) = tree(dir.path());
    assert!(translate(&["--in-place"], &[&a], &header).status.success());
    let generated = read(&header);
    let (top, bottom) = (
        "// Copyright (c) me\r\n#pragma once\n",
        "\nint mine(int);  \n",
    );
    fs::write(&header, format!("{top}{generated}{bottom}")).unwrap();
    let c = write(dir.path(), "src/c.cu", PRMT);
    let out = translate(&["--in-place"], &[&c], &header);
    assert!(out.status.success(), "{out:?}");
    let h = read(&header);
    assert!(
        h.starts_with(&format!(
            "{top}// ptx2hip shared helper header: --emit guarded --target amd\n"
        )),
        "{h}"
    );
    assert!(
        h.ends_with(&format!("// ---- end of ptx2hip helpers ----\n{bottom}")),
        "{h}"
    );
    assert!(
        h.contains("PTX2HIP_HELPER_ptx2hip_lop3\n") && h.contains("PTX2HIP_HELPER_ptx2hip_prmt")
    );
    // And a second run changes nothing.
    assert!(translate(&["--in-place"], &[&a, &c], &header)
        .status
        .success());
    assert_eq!(read(&header), h);
}

/// Issue 19 item 2: a helper edited by hand in the header is never regenerated away.
#[test]
fn a_header_whose_helper_was_edited_by_hand_is_not_regenerated() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("include")).unwrap();
    let (a, _, header) = tree(dir.path());
    assert!(translate(&["--in-place"], &[&a], &header).status.success());
    let edited = read(&header).replacen(
        "#define PTX2HIP_HELPER_ptx2hip_lop3\n",
        "#define PTX2HIP_HELPER_ptx2hip_lop3\n__device__ int my_tuning;\n",
        1,
    );
    fs::write(&header, &edited).unwrap();
    // Nothing to add: the edited header serves as it is.
    let out = translate(&["--in-place"], &[&a], &header);
    assert!(out.status.success(), "{out:?}");
    // A helper to add: refused, header and file as they were.
    let c = write(dir.path(), "src/c.cu", PRMT);
    let out = translate(&["--in-place"], &[&c], &header);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("edited by hand"), "{}", stderr(&out));
    assert_eq!(read(&header), edited);
    assert_eq!(read(&c), PRMT);
}

/// Issue 19 item 2: docs/CLI.md promises that a hand-edited inline block is left alone.
#[test]
fn a_helper_edited_by_hand_in_an_inline_block_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.cu", LOP3);
    let inline = |a: &Path| {
        ptx2hip()
            .args(["translate", "--in-place"])
            .arg(a)
            .output()
            .unwrap()
    };
    assert!(inline(&a).status.success());
    let edited = read(&a).replacen(
        "#define PTX2HIP_HELPER_ptx2hip_lop3\n",
        "#define PTX2HIP_HELPER_ptx2hip_lop3\n// tuned for gfx942\n",
        1,
    );
    // A statement that needs the same helper: translated, the edited block kept.
    let again = "__device__ uint32_t f2(uint32_t a) {\n  uint32_t d;\n  asm(\"lop3.b32 %0, %1, %1, %1, 0x96;\" : \"=r\"(d) : \"r\"(a));\n  return d;\n}\n";
    fs::write(&a, format!("{edited}{again}")).unwrap();
    let out = inline(&a);
    assert!(out.status.success(), "{out:?}");
    let text = read(&a);
    assert!(
        text.starts_with(&edited[..edited.find("// tuned for gfx942\n").unwrap() + 20]),
        "{text}"
    );
    assert!(text[edited.len()..].contains("// ptx2hip: B012"), "{text}");
    // A statement that needs a helper the block lacks: the file is left as it is, with a reason.
    let before = format!("{text}{PRMT}");
    fs::write(&a, &before).unwrap();
    let out = inline(&a);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("edited by hand"), "{}", stderr(&out));
    assert_eq!(read(&a), before);
    // Nor does the block give way to a shared header.
    let header = dir.path().join("ptx2hip_helpers.h");
    let out = translate(&["--in-place"], &[&a], &header);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(read(&a), before);
}

/// Issue 19 item 3: with --out-dir, a link at the header's path was followed.
#[cfg(unix)]
#[test]
fn out_dir_refuses_a_symbolic_link_at_the_header_path() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("include")).unwrap();
    let (a, _, header) = tree(dir.path());
    assert!(translate(&["--in-place"], &[&a], &header).status.success());
    let kept = read(&header);
    let out_dir = dir.path().join("out");
    fs::create_dir(&out_dir).unwrap();
    let link = out_dir.join("ptx2hip_helpers.h");
    std::os::unix::fs::symlink(&header, &link).unwrap();
    let c = write(dir.path(), "src/c.cu", PRMT);
    let out = ptx2hip()
        .arg("translate")
        .arg("--out-dir")
        .arg(&out_dir)
        .arg("--helpers")
        .arg(&link)
        .arg(&c)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(read(&header), kept);
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(!out_dir.join("c.cu").exists());
}

/// Issue 19 item 7: a run of another mode re-rendered the header under the first run's files.
#[test]
fn a_run_of_another_mode_is_refused_and_names_the_headers_mode() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("include")).unwrap();
    let (a, _, header) = tree(dir.path());
    assert!(translate(&["--in-place"], &[&a], &header).status.success());
    let kept = read(&header);
    let c = write(dir.path(), "src/c.cu", PRMT);
    for other in [
        &["--emit", "replace"][..],
        &["--target", "portable"],
        &["--emit", "replace", "--target", "portable"],
    ] {
        let args = [&["--in-place"][..], other].concat();
        let out = translate(&args, &[&c], &header);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(
            stderr(&out).contains("the header is for --emit guarded --target amd"),
            "{}",
            stderr(&out)
        );
        assert_eq!(read(&header), kept);
        assert_eq!(read(&c), PRMT);
    }
    // Another header serves the other mode.
    let replace = dir.path().join("include/ptx2hip_helpers_replace.h");
    let out = translate(&["--in-place", "--emit", "replace"], &[&c], &replace);
    assert!(out.status.success(), "{out:?}");
    assert!(read(&replace)
        .starts_with("// ptx2hip shared helper header: --emit replace --target amd\n"));
}

/// Issue 19 item 8: the header is written before the files that include it, so a header that
/// cannot be written (here in /proc, where no file can be created) leaves every file as it was.
#[cfg(target_os = "linux")]
#[test]
fn no_file_is_rewritten_when_the_header_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, _) = tree(dir.path());
    let header = Path::new("/proc/ptx2hip_helpers.h");
    let out = translate(&["--in-place"], &[&a, &b], header);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!([read(&a), read(&b)], [LOP3.to_string(), FMA.to_string()]);
}

/// Issue 19 item 8: a diff names the header as the files include it, and creates it first.
#[test]
fn the_diff_names_the_header_where_the_files_include_it_from() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    fs::create_dir(&repo).unwrap();
    assert!(Process::new("git")
        .args(["init", "-q"])
        .current_dir(&repo)
        .status()
        .unwrap()
        .success());
    let (a, b, header) = tree(&repo);
    let out = translate(&[], &[&a, &b], &header);
    assert!(out.status.success(), "{out:?}");
    let diff = String::from_utf8(out.stdout).unwrap();
    let at = |name: &str| diff.find(&format!("+++ b/{name}\n")).expect(name);
    assert!(at("include/ptx2hip_helpers.h") < at("src/a.cu"), "{diff}");
    // A header outside the repository: the patch, applied in the repository, would create it
    // where no file includes it from.
    let outside = dir.path().join("elsewhere/ptx2hip_helpers.h");
    let out = translate(&[], &[&a, &b], &outside);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        stderr(&out).contains("would not create the header where the file includes it from"),
        "{}",
        stderr(&out)
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("+++ b/src/"));
}

/// Issue 19 item 9: an include name found through -I, for headers installed apart.
#[test]
fn include_as_writes_the_name_given_in_every_file() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("include")).unwrap();
    let (a, b, header) = tree(dir.path());
    let args = ["--in-place", "--include-as", "<ptx2hip_helpers.h>"];
    let out = translate(&args, &[&a, &b], &header);
    assert!(out.status.success(), "{out:?}");
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    for f in [&a, &b] {
        assert!(
            read(f).contains("\n#include <ptx2hip_helpers.h>\n"),
            "{}",
            read(f)
        );
    }
    let before = [read(&a), read(&b), read(&header)];
    assert!(translate(&args, &[&a, &b], &header).status.success());
    assert_eq!([read(&a), read(&b), read(&header)], before);
    // Without --helpers it means nothing: a usage error.
    let out = ptx2hip()
        .args(["translate", "--include-as", "x.h"])
        .arg(&a)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Issue 19 item 9: a relative include out of the translated tree is said.
#[test]
fn an_include_that_climbs_out_of_the_translated_tree_is_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let public = write(dir.path(), "include/deep_ep/api.cuh", LOP3);
    let header = dir.path().join("csrc/ptx2hip_helpers.h");
    let out = run_in(
        dir.path(),
        &[
            "translate",
            "--in-place",
            "--helpers",
            "csrc/ptx2hip_helpers.h",
            "include",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    assert!(read(&public).contains("#include \"../../csrc/ptx2hip_helpers.h\""));
    assert!(header.exists());
    let said = stderr(&out);
    assert!(
        said.contains("warning: the files under include") && said.contains("--include-as"),
        "{said}"
    );
    // A file named on its own forms no tree; inside the tree: nothing to say.
    let out = run_in(
        dir.path(),
        &[
            "translate",
            "--helpers",
            "csrc/ptx2hip_helpers.h",
            "include/deep_ep/api.cuh",
        ],
    );
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    let out = run_in(
        dir.path(),
        &[
            "translate",
            "--in-place",
            "--helpers",
            "csrc/ptx2hip_helpers.h",
            ".",
        ],
    );
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}

/// Issue 19 item 9: a tree translated with inline blocks moves to the shared header.
#[test]
fn a_tree_translated_with_inline_blocks_moves_to_the_shared_header() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("include")).unwrap();
    let (a, b, header) = tree(dir.path());
    let src = dir.path().join("src");
    assert!(ptx2hip()
        .args(["translate", "--in-place"])
        .arg(&src)
        .output()
        .unwrap()
        .status
        .success());
    assert!(read(&a).contains("#ifndef PTX2HIP_HELPER_"));
    let out = translate(&["--in-place"], &[&src], &header);
    assert!(out.status.success(), "{out:?}");
    let moved = [read(&a), read(&b), read(&header)];
    // Byte for byte what translating the untouched tree with --helpers gives.
    let other = tempfile::tempdir().unwrap();
    fs::create_dir(other.path().join("include")).unwrap();
    let (a2, b2, header2) = tree(other.path());
    assert!(
        translate(&["--in-place"], &[&other.path().join("src")], &header2)
            .status
            .success()
    );
    assert_eq!([read(&a2), read(&b2), read(&header2)], moved);
    // And a second run changes nothing.
    assert!(translate(&["--in-place"], &[&src], &header)
        .status
        .success());
    assert_eq!([read(&a), read(&b), read(&header)], moved);

    // A block of another mode would change what the file's statements call: it stays, said.
    let c = write(dir.path(), "src/c.cu", PRMT);
    let replaced = ptx2hip()
        .args(["translate", "--in-place", "--emit", "replace"])
        .arg(&c)
        .output()
        .unwrap();
    assert!(replaced.status.success());
    let inline = read(&c);
    let out = translate(&["--in-place"], &[&c], &header);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        stderr(&out).contains("generated for --emit replace --target amd"),
        "{}",
        stderr(&out)
    );
    assert_eq!(read(&c), inline);
}
