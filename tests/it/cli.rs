//! The command-line contract: exit codes, output formats, file writing and bad input.

use crate::common;

use std::fs;
use std::path::Path;

use assert_cmd::Command;

fn ptx2hip() -> Command {
    Command::cargo_bin("ptx2hip").expect("binary built")
}

const ADD: &str = "__device__ int f(int j, int k) {\n  int i;\n  asm(\"add.s32 %0, %1, %2;\" : \"=r\"(i) : \"r\"(j), \"r\"(k));\n  return i;\n}\n";
const PRMT: &str = "__device__ unsigned g(unsigned a, unsigned b, unsigned c) {\n  unsigned d;\n  asm(\"prmt.b32 %0, %1, %2, %3;\" : \"=r\"(d) : \"r\"(a), \"r\"(b), \"r\"(c));\n  return d;\n}\n";
const UNKNOWN: &str =
    "__device__ void h() {\n  asm volatile(\"frobnicate.b32 %0;\" :: \"r\"(1));\n}\n";

fn write(dir: &Path, name: &str, text: &[u8]) -> std::path::PathBuf {
    let p = dir.join(name);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, text).unwrap();
    p
}

#[test]
fn check_exits_0_without_findings_1_with_findings_2_on_missing_path() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "clean.cu",
        b"__global__ void k() { asm volatile(\"\" ::: \"memory\"); }\n",
    );
    ptx2hip()
        .args(["check"])
        .arg(dir.path().join("clean.cu"))
        .assert()
        .code(0);
    write(dir.path(), "add.cu", ADD.as_bytes());
    ptx2hip().args(["check"]).arg(dir.path()).assert().code(1);
    ptx2hip()
        .args(["check"])
        .arg(dir.path().join("nope.cu"))
        .assert()
        .code(2);
}

#[test]
fn check_json_reports_position_instructions_status_and_rules() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "mix.cu", format!("{ADD}{UNKNOWN}").as_bytes());
    let out = ptx2hip()
        .args(["check", "--format", "json"])
        .arg(&p)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let findings = v.as_array().unwrap();
    assert_eq!(findings.len(), 2);
    assert_eq!(findings[0]["line"], 3);
    assert_eq!(findings[0]["column"], 3);
    assert_eq!(findings[0]["status"], "translatable");
    assert_eq!(findings[0]["instructions"][0], "add.s32");
    assert_eq!(findings[0]["rules"][0], "I001");
    assert_eq!(findings[1]["status"], "unsupported");
    assert!(findings[1]["message"]
        .as_str()
        .unwrap()
        .contains("unknown instruction `frobnicate`"));
    for key in [
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
        "instructions",
        "status",
        "rules",
        "message",
    ] {
        assert!(findings[0].get(key).is_some(), "missing {key}");
    }
}

#[test]
fn check_human_output_points_at_the_statement() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "u.cu", UNKNOWN.as_bytes());
    let out = ptx2hip()
        .arg("check")
        .arg(&p)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("u.cu:2:"), "{text}");
    assert!(text.contains("^"), "{text}");
    assert!(
        text.contains("1 non-portable asm statement in 1 file: 0 translatable, 1 not translated"),
        "{text}"
    );
}

#[test]
fn translate_prints_a_git_apply_compatible_diff_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "a.cu", ADD.as_bytes());
    let out = ptx2hip()
        .current_dir(dir.path())
        .args(["translate", "a.cu"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let diff = String::from_utf8(out).unwrap();
    // What made the patch, then the file's diff.
    let record = format!(
        "ptx2hip {} --target amd --emit guarded",
        env!("CARGO_PKG_VERSION")
    );
    assert!(diff.starts_with(&record), "{diff}");
    assert!(diff.contains("\n--- a/a.cu\n+++ b/a.cu\n@@ "), "{diff}");
    assert!(diff.contains("+  #if defined(__HIP_PLATFORM_AMD__)"));
    // The diff applies with patch-style tools: check it against the in-place result.
    let status = std::process::Command::new("git")
        .args(["apply", "--unsafe-paths", "-"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(diff.as_bytes())?;
            c.wait()
        });
    if let Ok(status) = status {
        assert!(status.success());
        let applied = fs::read(&p).unwrap();
        let dir2 = tempfile::tempdir().unwrap();
        let q = write(dir2.path(), "a.cu", ADD.as_bytes());
        ptx2hip()
            .args(["translate", "--in-place"])
            .arg(&q)
            .assert()
            .code(0);
        assert_eq!(applied, fs::read(&q).unwrap());
    }
}

#[test]
fn in_place_rewrites_atomically_keeps_permissions_and_leaves_unchanged_files_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let changed = write(dir.path(), "a.cu", ADD.as_bytes());
    fs::set_permissions(&changed, fs::Permissions::from_mode(0o640)).unwrap();
    let unchanged = write(dir.path(), "b.cu", b"int x;\n");
    let before = fs::metadata(&unchanged).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    ptx2hip()
        .args(["translate", "--in-place"])
        .arg(dir.path())
        .assert()
        .code(0)
        .stdout("");
    assert_eq!(
        fs::metadata(&changed).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert_eq!(
        fs::metadata(&unchanged).unwrap().modified().unwrap(),
        before
    );
    let text = fs::read_to_string(&changed).unwrap();
    assert!(
        text.contains("i = (int32_t)((uint32_t)j + (uint32_t)k);"),
        "{text}"
    );
    // No temporary files are left behind.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn translating_the_output_again_changes_nothing() {
    for emit in ["guarded", "replace"] {
        for target in ["amd", "portable"] {
            let dir = tempfile::tempdir().unwrap();
            let p = write(
                dir.path(),
                "a.cu",
                format!("#include <cstdint>\n{ADD}{PRMT}").as_bytes(),
            );
            ptx2hip()
                .args([
                    "translate",
                    "--in-place",
                    "--emit",
                    emit,
                    "--target",
                    target,
                ])
                .arg(&p)
                .assert()
                .code(0);
            let once = fs::read(&p).unwrap();
            ptx2hip()
                .args([
                    "translate",
                    "--in-place",
                    "--emit",
                    emit,
                    "--target",
                    target,
                ])
                .arg(&p)
                .assert()
                .code(0);
            assert_eq!(once, fs::read(&p).unwrap(), "{emit} {target}");
            ptx2hip()
                .args(["translate", "--emit", emit, "--target", target])
                .arg(&p)
                .assert()
                .code(0)
                .stdout("");
        }
    }
}

#[test]
fn out_dir_mirrors_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    write(&src, "kernels/a.cu", ADD.as_bytes());
    write(&src, "b.cuh", b"// nothing here\n");
    let out = dir.path().join("out");
    ptx2hip()
        .args(["translate", "--out-dir"])
        .arg(&out)
        .arg(&src)
        .assert()
        .code(0);
    assert!(fs::read_to_string(out.join("kernels/a.cu"))
        .unwrap()
        .contains("__HIP_PLATFORM_AMD__"));
    assert_eq!(fs::read(out.join("b.cuh")).unwrap(), b"// nothing here\n");
    assert_eq!(
        fs::read(src.join("kernels/a.cu")).unwrap(),
        ADD.as_bytes(),
        "sources untouched"
    );
}

#[test]
fn bytes_outside_rewritten_statements_are_kept_with_crlf_and_non_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let mut src = Vec::new();
    src.extend_from_slice(b"// caf\xe9 latin-1 comment\t  \r\n");
    src.extend_from_slice(ADD.replace('\n', "\r\n").as_bytes());
    src.extend_from_slice(b"int tail;   \r\n");
    let p = write(dir.path(), "crlf.cu", &src);
    ptx2hip()
        .args(["translate", "--in-place", "--emit", "replace"])
        .arg(&p)
        .assert()
        .code(0);
    let out = fs::read(&p).unwrap();
    assert!(out.starts_with(b"// caf\xe9 latin-1 comment\t  \r\n"));
    assert!(out.ends_with(b"  return i;\r\n}\r\nint tail;   \r\n"));
    assert!(
        !out.windows(2).any(|w| w[1] == b'\n' && w[0] != b'\r'),
        "every line ends in CRLF"
    );
    // The statement's own line is the only other change.
    let stmt_line = b"  i = (int32_t)((uint32_t)j + (uint32_t)k); // ptx2hip: I001\r\n";
    assert!(out.windows(stmt_line.len()).any(|w| w == stmt_line));
}

#[test]
fn bad_input_gets_a_diagnostic_and_is_left_byte_for_byte_intact() {
    let dir = tempfile::tempdir().unwrap();
    let malformed = write(
        dir.path(),
        "malformed.cu",
        b"__device__ void f(int x) { asm(\"add.s32 %0, , %1\" : \"=r\"(x) : \"r\"(x)); }\n",
    );
    let binary = write(dir.path(), "binary.cu", b"asm\0\x01\x02\xff");
    let macro_tpl = write(
        dir.path(),
        "macro.cu",
        b"__device__ void f(int x) { asm volatile(PTX_ADD \"%0, %1;\" : \"=r\"(x) : \"r\"(x)); }\n",
    );
    let good = write(dir.path(), "good.cu", ADD.as_bytes());
    let originals: Vec<Vec<u8>> = [&malformed, &binary, &macro_tpl]
        .iter()
        .map(|p| fs::read(p).unwrap())
        .collect();
    let assert = ptx2hip()
        .args(["translate", "--in-place"])
        .arg(dir.path())
        .assert()
        .code(0);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("malformed.cu:1:28: not translated: PTX syntax error"),
        "{stderr}"
    );
    assert!(stderr.contains("binary file"), "{stderr}");
    assert!(
        stderr.contains("macro.cu") && stderr.contains("PTX_ADD"),
        "{stderr}"
    );
    for (p, orig) in [&malformed, &binary, &macro_tpl].iter().zip(&originals) {
        assert_eq!(&fs::read(p).unwrap(), orig, "{} changed", p.display());
    }
    assert!(
        fs::read_to_string(&good)
            .unwrap()
            .contains("__HIP_PLATFORM_AMD__"),
        "one bad file does not stop the others"
    );
}

#[test]
fn unreadable_file_is_an_io_error_but_others_are_processed() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let locked = write(dir.path(), "locked.cu", ADD.as_bytes());
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read(&locked).is_ok() {
        return; // running as root: permissions do not stop reads
    }
    write(dir.path(), "ok.cu", ADD.as_bytes());
    ptx2hip().args(["check"]).arg(dir.path()).assert().code(2);
}

#[test]
fn an_unreadable_file_is_a_finding_in_the_json_document() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let locked = write(dir.path(), "locked.cu", ADD.as_bytes());
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read(&locked).is_ok() {
        eprintln!("note: running as root, where mode 000 does not stop reads: test skipped");
        return;
    }
    write(dir.path(), "ok.cu", ADD.as_bytes());
    let out = ptx2hip()
        .args(["check", "--format", "json"])
        .arg(dir.path())
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let unread = doc
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "E003")
        .expect("the unreadable file is listed");
    assert!(unread["file"].as_str().unwrap().ends_with("locked.cu"));
    assert_eq!(unread["status"], "unsupported");
    assert!(doc.as_array().unwrap().iter().any(|f| f["code"] == "T001"));
}

#[test]
fn explain_shows_parse_meaning_and_both_targets() {
    let out = ptx2hip()
        .args([
            "explain",
            "cvt.rni.sat.s8.f16 %0, %1;",
            "--constraints",
            "=h,h",
        ])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("parsed as:"));
    // The meaning is the rule's documentation, with its edge cases.
    assert!(text.contains("meaning:") && text.contains("ties to even"));
    assert!(text.contains("rule C002"));
    assert!(text.contains("--target amd:") && text.contains("--target portable:"));
    assert!(text.contains("ptx2hip_cvt_int_from_f16"));
}

/// `explain FORM` names the rule translation uses, whatever the order of the modifiers, and
/// knows `bra` (issue 18: both were "no rule").
#[test]
fn explain_names_the_rule_of_a_form_written_in_any_order() {
    let explain = |form: &str, code: i32| {
        let out = ptx2hip()
            .args(["explain", form])
            .assert()
            .code(code)
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    let text = explain("ld.global.acquire.gpu.b32", 0);
    assert!(
        text.starts_with("`ld.global.acquire.gpu.b32` is translated by A020 (ld-strong)"),
        "{text}"
    );
    assert!(
        text.contains("writes it `ld.acquire.gpu.global.b32`"),
        "{text}"
    );
    assert!(explain("bra.uni", 0).contains("translated as control flow"));
    let text = explain("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 0);
    assert!(text.contains("is translated by X005 (mma-f16)"), "{text}");
    let text = explain("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", 1);
    assert!(
        text.contains("sparse mma") && text.contains("reported as U003"),
        "{text}"
    );
}

#[test]
fn explain_accepts_a_rule_code() {
    let out = ptx2hip()
        .args(["explain", "i001"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(out)
        .unwrap()
        .starts_with("I001 (integer-add)"));
}

/// `explain CODE` lists a rule's forms one per line, and `explain OPCODE` the forms of each of its
/// rules (issue 24: they were joined on one line), so that `grep` finds a form.
#[test]
fn explain_lists_forms_one_per_line() {
    let stdout = |arg: &str| {
        let out = ptx2hip().args(["explain", arg]).assert().code(0);
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let text = stdout("I001");
    let (_, forms) = text.split_once("\nforms:\n").expect("a forms section");
    let forms: Vec<&str> = forms
        .lines()
        .take_while(|l| l.starts_with("  "))
        .map(str::trim)
        .collect();
    assert!(
        forms.contains(&"add.s32") && forms.contains(&"add.u64"),
        "{text}"
    );
    assert!(forms.iter().all(|f| !f.contains(',')), "{forms:?}");
    let text = stdout("add");
    assert!(
        text.contains("    forms:\n      add.f32\n      add.rn.f32\n"),
        "{text}"
    );
    assert!(
        text.contains(" more (`ptx2hip explain F003` lists them)"),
        "{text}"
    );
}

/// `--help` says what each target means and where its code compiles.
#[test]
fn target_help_says_what_each_target_compiles_with() {
    for command in ["check", "translate"] {
        let out = ptx2hip().args([command, "--help"]).assert().code(0);
        let help = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(help.contains("- amd:      HIP for AMD GPUs"), "{help}");
        assert!(
            help.contains("compiles with nvcc and with hipcc alike"),
            "{help}"
        );
        assert!(help.contains("left as written (U004)"), "{help}");
    }
}

#[test]
fn explain_resolves_a_renamed_rule_code_to_its_new_code() {
    let out = ptx2hip()
        .args(["explain", "F012"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("F012 was renamed to D012; its documentation:\n\nD012 (f64-mad)"),
        "{text}"
    );
}

#[test]
fn rules_lists_every_rule_as_json_with_forms_and_verification() {
    let out = ptx2hip()
        .args(["rules", "--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let rules = v.as_array().unwrap();
    assert!(rules.iter().any(|r| r["code"] == "C002"
        && r["forms"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "cvt.rni.sat.s8.f16")));
    assert!(rules
        .iter()
        .all(|r| r["verification"]["status"].is_string()));
}

#[test]
fn extensions_filter_directory_walks_and_gitignore_is_honoured() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join(".git")).unwrap();
    write(dir.path(), ".gitignore", b"ignored/\n");
    write(dir.path(), "ignored/a.cu", ADD.as_bytes());
    write(dir.path(), "kernel.txt", ADD.as_bytes());
    // Nothing left to check is an error: a lint that read nothing must not pass.
    let none = ptx2hip().args(["check"]).arg(dir.path()).assert().code(2);
    assert!(String::from_utf8_lossy(&none.get_output().stderr).contains("no files to process"));
    ptx2hip()
        .args(["check", "--ext", "txt"])
        .arg(dir.path())
        .assert()
        .code(1);
}

#[test]
fn no_ignore_and_hidden_walk_what_the_defaults_skip_and_tracked_files_are_always_checked() {
    let dir = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(dir.path())
            .args(args)
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    if !git(&["init", "-q"]) {
        return common::skip("git", "the ignored-file note check");
    }
    write(dir.path(), ".gitignore", b"*.cuh\nbuild/\n");
    write(dir.path(), "tracked_but_ignored.cuh", ADD.as_bytes());
    write(dir.path(), "build/generated.cuh", ADD.as_bytes());
    write(dir.path(), ".hidden/kernel.cu", PRMT.as_bytes());
    assert!(git(&["add", "-f", "tracked_but_ignored.cuh"]));
    // As for git, ignore rules apply to untracked files only: the tracked header is checked,
    // the untracked build output is not.
    let out = ptx2hip()
        .args(["check", "--format", "json"])
        .arg(dir.path())
        .assert()
        .code(1);
    let json = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        json.contains("tracked_but_ignored.cuh") && !json.contains("generated.cuh"),
        "{json}"
    );
    let out = ptx2hip()
        .args(["check", "--format", "json", "--no-ignore"])
        .arg(dir.path())
        .assert()
        .code(1);
    let json = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        json.contains("tracked_but_ignored.cuh") && !json.contains(".hidden"),
        "{json}"
    );
    let out = ptx2hip()
        .args(["check", "--format", "json", "--no-ignore", "--hidden"])
        .arg(dir.path())
        .assert()
        .code(1);
    let json = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(json.contains(".hidden/kernel.cu"), "{json}");
}

#[test]
fn a_tree_with_only_host_amd_and_barrier_asm_checks_clean() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "host.hpp",
        b"inline unsigned long long ticks() { unsigned lo, hi; asm volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi)); return lo; }\ninline void relax() { __asm__ __volatile__(\"yield\" ::: \"memory\"); }\n",
    );
    write(
        dir.path(),
        "amd.cuh",
        b"#ifdef __HIP_PLATFORM_AMD__\n__device__ void w() { asm volatile(\"s_waitcnt vmcnt(0)\"); }\n#endif\n__device__ void b() { asm volatile(\"\" ::: \"memory\"); }\nint f() __asm(\"llvm.nvvm.f\");\n",
    );
    ptx2hip().args(["check"]).arg(dir.path()).assert().code(0);
}

#[test]
fn defines_and_undefines_decide_project_conditions() {
    let dir = tempfile::tempdir().unwrap();
    let src = b"#if defined(GGML_USE_HIP)\n__device__ void a() { asm(\"trap;\"); }\n#endif\n__device__ unsigned b(const unsigned* p) {\n  unsigned v;\n  asm(\n#if FAST\n  \"ld.global.nc.u32 %0, [%1];\"\n#else\n  \"ld.global.u32 %0, [%1];\"\n#endif\n  : \"=r\"(v) : \"l\"(p));\n  return v;\n}\n";
    let file = write(dir.path(), "k.cu", src);
    let json = |args: &[&str]| {
        let out = ptx2hip()
            .args(["check", "--format", "json"])
            .args(args)
            .arg(&file)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let default = json(&[]);
    // Undecided, `#if FAST` is read and translated in both arms.
    assert!(
        default.contains("`trap`")
            && default.contains("ld.global.nc.u32")
            && default.contains("ld.global.u32"),
        "{default}"
    );
    let declared = json(&["-U", "GGML_USE_HIP", "-D", "FAST=0"]);
    assert!(
        !declared.contains("`trap`")
            && declared.contains("ld.global.u32")
            && !declared.contains("ld.global.nc.u32"),
        "{declared}"
    );
    let declared = json(&["--undefine", "GGML_USE_HIP", "--define", "FAST"]);
    assert!(declared.contains("ld.global.nc.u32"), "{declared}");
}

#[test]
fn check_reports_lines_with_multibyte_characters_invalid_utf8_crlf_and_tabs() {
    let dir = tempfile::tempdir().unwrap();
    // A multi-byte character before the statement, inside its template (where the PTX parser
    // stops), and invalid UTF-8 earlier on the line; CRLF line ends and tabs.
    let mut messy = b"// \xe2\x82\xac\r\n__device__ void f(int x) {\r\n".to_vec();
    messy.extend_from_slice(b"\t/* \xff\xfe \xc3\xa9 */\tasm(\"add.s32 %0, %1, \xc3\xa9;\" : \"=r\"(x) : \"r\"(x));\r\n");
    messy
        .extend_from_slice(b"\t/* \xce\xbb */ asm(\"frob\xce\xbb.b32 %0;\" : \"=r\"(x));\r\n}\r\n");
    write(dir.path(), "messy.cu", &messy);
    write(dir.path(), "plain.cu", UNKNOWN.as_bytes());
    let out = ptx2hip()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(1)
        .get_output()
        .clone();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let text = String::from_utf8_lossy(&out.stdout);
    let line3 = &messy[messy.iter().position(|&b| b == b'\t').unwrap()..];
    let e_acute = line3.windows(2).rposition(|w| w == b"\xc3\xa9").unwrap();
    assert!(
        text.contains(&format!("messy.cu:3:{}\n", e_acute + 1)),
        "byte column of the é in the template: {text}"
    );
    assert!(text.contains("messy.cu:4:"), "{text}");
    assert!(
        text.contains("plain.cu:2:"),
        "the other file is reported too: {text}"
    );
    assert!(
        text.contains("3 non-portable asm statements in 2 files"),
        "{text}"
    );
}

/// Runs `ptx2hip args` with stdout on `/dev/full`; `None` where there is no such device.
fn on_a_full_disk(args: &[&str], dir: &Path) -> Option<std::process::Output> {
    let full = fs::OpenOptions::new().write(true).open("/dev/full").ok()?;
    std::process::Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
        .args(args)
        .current_dir(dir)
        .stdout(full)
        .output()
        .ok()
}

#[test]
fn a_report_lost_to_a_full_disk_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.cu", ADD.as_bytes());
    for args in [
        &["rules"][..],
        &["rules", "--format", "json"],
        &["explain", "I001"],
        &["explain", "add.s32 %0, %1, %2;"],
        &["check", "a.cu"],
        &["check", "--format", "json", "a.cu"],
        &["translate", "a.cu"],
    ] {
        let Some(out) = on_a_full_disk(args, dir.path()) else {
            return;
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("ptx2hip: error: could not write the output: No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::process::{Command, Stdio};
    // `rules --format json` writes more than a pipe holds, so the write fails whenever the
    // reader goes away: before the first write or while the pipe is full.
    for args in [
        &["rules", "--format", "json"][..],
        &["rules"],
        &["explain", "I001"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

#[test]
fn messages_lost_to_a_full_stderr_do_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "u.cu", UNKNOWN.as_bytes());
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
        .args(["translate", "u.cu", "missing.cu"])
        .current_dir(dir.path())
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "the missing file is still an error"
    );
}

#[test]
fn a_long_run_draws_no_progress_bar_on_a_stderr_that_is_not_a_terminal() {
    // Enough files that a debug build may work on them past the bar's one-second delay.
    let dir = tempfile::tempdir().unwrap();
    let statement = "__device__ unsigned f(unsigned a) { unsigned r; asm(\"add.u32 %0, %1, 1;\" : \"=r\"(r) : \"r\"(a)); return r; }\n";
    for i in 0..300 {
        write(
            dir.path(),
            &format!("k{i}.cu"),
            statement.repeat(20).as_bytes(),
        );
    }
    for args in [
        &["check"][..],
        &["check", "--format", "concise"],
        &["translate"],
    ] {
        let o = ptx2hip().args(args).arg(dir.path()).output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            !stderr.contains('\r') && !stderr.contains('\x1b') && !stderr.contains("/300 files"),
            "{args:?}: {stderr}"
        );
    }
}

/// A GNU statement expression holding an asm, as the operand of another asm: neither is
/// translated (a translation would copy the inner asm into code that a second run translates),
/// and `check` says why.
#[test]
fn an_asm_inside_an_operand_of_another_is_reported_and_left_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("nested.cu");
    let source = "__device__ unsigned f(unsigned a, unsigned b) {\n  unsigned d;\n  asm(\"add.u32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(({ unsigned t; asm(\"popc.b32 %0, %1;\" : \"=r\"(t) : \"r\"(b)); t; })));\n  return d;\n}\n";
    fs::write(&file, source).unwrap();
    let check = ptx2hip().arg("check").arg(&file).output().unwrap();
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(text.contains("U006"), "{text}");
    assert!(text.contains("holds another asm statement"), "{text}");
    let out = ptx2hip()
        .args(["translate", "--in-place", "--emit", "replace"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let after = fs::read_to_string(&file).unwrap();
    assert!(
        after.contains(&source.lines().nth(2).unwrap()[2..]),
        "{after}"
    );
}

#[test]
fn a_file_with_old_mac_line_endings_is_read_translated_and_kept_in_its_endings() {
    let dir = tempfile::tempdir().unwrap();
    let cr = format!("// licence\r{}", ADD.replace('\n', "\r"));
    let path = write(dir.path(), "k.cu", cr.as_bytes());
    let out = ptx2hip()
        .args(["check", "--format", "concise"])
        .arg(&path)
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("k.cu:4:3: T001"), "{text}");
    ptx2hip()
        .args(["translate", "--in-place"])
        .arg(&path)
        .assert()
        .code(0);
    let once = fs::read(&path).unwrap();
    assert!(
        !once.contains(&b'\n'),
        "every line the translation adds ends in CR"
    );
    ptx2hip()
        .args(["translate", "--in-place"])
        .arg(&path)
        .assert()
        .code(0);
    assert_eq!(
        fs::read(&path).unwrap(),
        once,
        "a second run changes nothing"
    );
}

/// `translate -`: an editor's filter. Standard input in, the translated file whole on stdout,
/// messages on stderr.
mod translate_stdin {
    use super::*;

    /// Runs `translate - ARGS` in `dir` with `input`: exit code, stdout, stderr.
    fn translate(dir: &Path, args: &[&str], input: &[u8]) -> (i32, Vec<u8>, String) {
        let o = ptx2hip()
            .current_dir(dir)
            .args(["translate", "-"])
            .args(args)
            .write_stdin(input)
            .output()
            .unwrap();
        let code = o.status.code().unwrap_or(-1);
        (code, o.stdout, String::from_utf8(o.stderr).unwrap())
    }

    #[test]
    fn it_prints_what_in_place_writes_and_the_notes_on_stderr() {
        let dir = tempfile::tempdir().unwrap();
        let source = format!("{ADD}{UNKNOWN}");
        let (code, out, err) = translate(dir.path(), &[], source.as_bytes());
        assert_eq!(code, 0, "{err}");
        let file = write(dir.path(), "k.cu", source.as_bytes());
        ptx2hip()
            .args(["translate", "--in-place"])
            .arg(&file)
            .assert()
            .code(0);
        assert_eq!(out, fs::read(&file).unwrap());
        assert!(
            err.contains("-:7:3: not translated: unknown instruction `frobnicate`"),
            "{err}"
        );
        assert!(
            err.contains("1 of 1 file changed, 1 statement translated, 1 left"),
            "{err}"
        );
        let (code, again, _) = translate(dir.path(), &[], &out);
        assert_eq!(
            (code, again),
            (0, out),
            "a second translation changes nothing"
        );
    }

    #[test]
    fn the_stdin_filename_chooses_the_configuration_and_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "vendor/ptx2hip.toml",
            b"exclude = [\"*.cuh\"]\n",
        );
        let source = format!("{ADD}{UNKNOWN}");
        let (code, out, err) = translate(
            dir.path(),
            &["--stdin-filename", "vendor/k.cuh"],
            source.as_bytes(),
        );
        assert_eq!((code, out.as_slice()), (0, source.as_bytes()), "excluded");
        assert!(
            err.contains("vendor/k.cuh is excluded: printed as it is"),
            "{err}"
        );
        let (code, out, err) = translate(
            dir.path(),
            &["--stdin-filename", "src/k.cu", "--emit", "replace"],
            source.as_bytes(),
        );
        assert_eq!(code, 0);
        assert!(!String::from_utf8(out).unwrap().contains("add.s32"));
        assert!(err.contains("src/k.cu:7:3: not translated"), "{err}");
    }

    #[test]
    fn bad_input_is_printed_as_it_is_never_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let utf16 = b"\xff\xfea\x00s\x00m\x00".to_vec();
        let invalid = b"int x; /* \xc3\x28 */ asm(\"frob\xff;\");\n".to_vec();
        let unterminated = b"__device__ void f() { asm(\"add.s32 %0, %1;\" : \"=r\"(x".to_vec();
        for input in [Vec::new(), b"\0\0\0".to_vec(), utf16, invalid, unterminated] {
            let (code, out, err) = translate(dir.path(), &[], &input);
            assert!(code == 0 || code == 2, "{code}: {err}");
            assert!(!err.contains("panicked"), "{err}");
            assert_eq!(out, input, "{err}");
        }
    }

    #[test]
    fn it_is_alone_and_writes_nowhere_else() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "k.cu", ADD.as_bytes());
        for (args, why) in [
            (&["k.cu"][..], "must be the only path"),
            (&["--in-place"], "not with --in-place"),
            (&["--out-dir", "out"], "not with --in-place, --out-dir"),
            (&["--helpers", "h.h"], "--helpers"),
        ] {
            let (code, out, err) = translate(dir.path(), args, ADD.as_bytes());
            assert_eq!((code, out.as_slice()), (2, &b""[..]), "{args:?}");
            assert!(err.contains(why), "{err}");
        }
        assert!(!dir.path().join("out").exists() && !dir.path().join("h.h").exists());
        let o = ptx2hip()
            .current_dir(dir.path())
            .args(["translate", "k.cu", "--stdin-filename", "x.cu"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("--stdin-filename needs `-`"));
    }
}
