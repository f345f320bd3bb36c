//! `--cuda-arch`: which arms of `__CUDA_ARCH__` chains the AMD device compilation takes, what
//! `check` says about each statement, what `translate` writes (both emit modes, with a shared
//! helpers header), and that a second run changes nothing.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn ptx2hip() -> Command {
    Command::cargo_bin("ptx2hip").expect("binary built")
}

/// An nccl-style chain (sm_80 / sm_70 / a trapping stub for older devices / host), a pre-Volta
/// first arm, a device/host split with a nested choice, and host code that asks "device code?".
const KERNEL: &str = r#"#include <stdint.h>

__host__ __device__ inline uint32_t mul_hi(uint32_t a, uint32_t b) {
  uint32_t d;
#if __CUDA_ARCH__ >= 800
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
#elif __CUDA_ARCH__ >= 700 // Volta
  asm("mad.hi.u32 %0, %1, %2, 0;" : "=r"(d) : "r"(a), "r"(b));
#elif defined(__CUDA_ARCH__)
  printf("unsupported\n"); assert(0); d = 0;
#else
  d = (uint32_t)(((uint64_t)a * b) >> 32);
#endif
  return d;
}

__device__ uint32_t rev(uint32_t a) {
  uint32_t d;
#if __CUDA_ARCH__ < 700
  asm("brev.b32 %0, %1;" : "=r"(d) : "r"(a));
#else
  d = __brev(a);
#endif
  return d;
}

__host__ __device__ inline uint32_t pick(uint32_t a, uint32_t b) {
  uint32_t d;
#if !defined(__CUDA_ARCH__)
  d = a;
#else
#  if __CUDA_ARCH__ >= 900
  asm("min.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
#  else
  asm("max.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
#  endif
#endif
  return d;
}

__host__ __device__ inline int on_device() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}
"#;

fn line_of(text: &str, needle: &str) -> u64 {
    1 + text[..text.find(needle).expect(needle)]
        .matches('\n')
        .count() as u64
}

fn kernel_file(dir: &Path) -> PathBuf {
    let p = dir.join("k.cu");
    fs::write(&p, KERNEL).unwrap();
    p
}

/// `check --format json` with `args`: (line, code, message) of every finding.
fn findings(file: &Path, args: &[&str]) -> Vec<(u64, String, String)> {
    let out = ptx2hip()
        .args(["check", "--format", "json"])
        .args(args)
        .arg(file)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut all: Vec<_> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["line"].as_u64().unwrap(),
                f["code"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    all.sort();
    all
}

fn codes(found: &[(u64, String, String)]) -> Vec<(u64, &str)> {
    found.iter().map(|(l, c, _)| (*l, c.as_str())).collect()
}

#[test]
fn check_says_which_arm_amd_device_code_takes_for_each_architecture() {
    let dir = tempfile::tempdir().unwrap();
    let file = kernel_file(dir.path());
    let (hi, mad, brev, min, max) = (
        line_of(KERNEL, "mul.hi"),
        line_of(KERNEL, "mad.hi"),
        line_of(KERNEL, "brev"),
        line_of(KERNEL, "min.u32"),
        line_of(KERNEL, "max.u32"),
    );
    // The default is sm_90.
    let default = findings(&file, &[]);
    assert_eq!(
        codes(&default),
        [
            (hi, "T001"),
            (mad, "T002"),
            (brev, "T002"),
            (min, "T001"),
            (max, "T002")
        ]
    );
    let (_, _, why) = default.iter().find(|f| f.0 == mad).unwrap();
    assert!(
        why.contains("--cuda-arch sm_90")
            && why.contains("`__CUDA_ARCH__` = 900")
            && why.contains(&format!(
                "takes the arm `#if __CUDA_ARCH__ >= 800` (line {})",
                hi - 1
            )),
        "{why}"
    );
    let (_, _, why) = default.iter().find(|f| f.0 == max).unwrap();
    assert!(
        why.contains(&format!(
            "the arm `#  if __CUDA_ARCH__ >= 900` (line {})",
            min - 1
        )),
        "{why}"
    );
    // A statement in an arm AMD takes says so.
    let (_, _, why) = default.iter().find(|f| f.0 == hi).unwrap();
    assert!(
        why.ends_with(&format!(
            "translatable (N113); AMD device code takes its arm `#if __CUDA_ARCH__ >= 800` (line {}) for `--cuda-arch sm_90`",
            hi - 1
        )),
        "{why}"
    );
    assert_eq!(findings(&file, &["--cuda-arch", "sm_90"]), default);
    assert_eq!(
        codes(&findings(&file, &["--cuda-arch", "75"])),
        [
            (hi, "T002"),
            (mad, "T001"),
            (brev, "T002"),
            (min, "T002"),
            (max, "T001")
        ]
    );
    // sm_60: the stub arm of `mul_hi` holds no asm; the first arm of `rev` is taken.
    let old = findings(&file, &["--cuda-arch", "60"]);
    assert_eq!(
        codes(&old),
        [
            (hi, "T002"),
            (mad, "T002"),
            (brev, "T001"),
            (min, "T002"),
            (max, "T001")
        ]
    );
    let (_, _, why) = old.iter().find(|f| f.0 == hi).unwrap();
    assert!(
        why.contains(&format!(
            "the arm `#elif defined(__CUDA_ARCH__)` (line {}) of `#if __CUDA_ARCH__ >= 800` (line {})",
            mad + 1,
            hi - 1
        )),
        "{why}"
    );
}

#[test]
fn a_bad_architecture_is_refused_with_the_accepted_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let file = kernel_file(dir.path());
    let out = ptx2hip()
        .args(["check", "--cuda-arch", "900"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--cuda-arch 90"), "{err}");
}

#[test]
fn the_configuration_names_the_architecture_and_the_option_wins() {
    let dir = tempfile::tempdir().unwrap();
    let file = kernel_file(dir.path());
    fs::write(dir.path().join("ptx2hip.toml"), "cuda-arch = \"sm_75\"\n").unwrap();
    let mad = line_of(KERNEL, "mad.hi");
    let run = |args: &[&str]| {
        let out = ptx2hip()
            .current_dir(dir.path())
            .args(["check", "--format", "json"])
            .args(args)
            .arg("k.cu")
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .find(|f| f["line"] == mad)
            .map(|f| f["code"].as_str().unwrap().to_string())
    };
    assert_eq!(run(&[]).as_deref(), Some("T001"));
    assert_eq!(run(&["--cuda-arch", "90"]).as_deref(), Some("T002"));
    let _ = file;
}

/// Translates `file` in place with `args`; returns the summary line.
fn translate(file: &Path, args: &[&str]) -> String {
    let out = ptx2hip()
        .args(["translate", "--in-place"])
        .args(args)
        .arg(file)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn translate_rewrites_the_chains_around_asm_and_defines_the_macro_once() {
    for mode in ["guarded", "replace"] {
        let dir = tempfile::tempdir().unwrap();
        let file = kernel_file(dir.path());
        let summary = translate(&file, &["--emit", mode]);
        assert!(
            summary.contains("AMD device code takes the arms of `__CUDA_ARCH__` = 900 (--cuda-arch sm_90): 6 conditions rewritten, 3 statements in other arms left for NVIDIA"),
            "{summary}"
        );
        let text = fs::read_to_string(&file).unwrap();
        // Only the `__CUDA_ARCH__` tokens changed: comments and spacing stay.
        for line in [
            "#if PTX2HIP_CUDA_ARCH >= 800",
            "#elif PTX2HIP_CUDA_ARCH >= 700 // Volta",
            "#elif defined(PTX2HIP_CUDA_ARCH)",
            "#if PTX2HIP_CUDA_ARCH < 700",
            "#if !defined(PTX2HIP_CUDA_ARCH)",
            "#  if PTX2HIP_CUDA_ARCH >= 900",
            // No asm in the chain: the host/device question stays as written.
            "#ifdef __CUDA_ARCH__\n  return 1;",
            "#define PTX2HIP_CUDA_ARCH 900",
        ] {
            assert!(text.contains(line), "--emit {mode}: no `{line}` in\n{text}");
        }
        assert_eq!(text.matches("#define PTX2HIP_CUDA_ARCH 900").count(), 1);
        let definition = text.find("#ifndef PTX2HIP_CUDA_ARCH").unwrap();
        assert!(definition < text.find("#if PTX2HIP_CUDA_ARCH >= 800").unwrap());
        assert!(
            text.contains("mad.hi.u32") && text.contains("max.u32"),
            "kept for NVIDIA"
        );
        let again = translate(&file, &["--emit", mode]);
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            text,
            "--emit {mode}: {again}"
        );
        assert!(again.contains("0 of 1 file changed"), "{again}");
    }
}

#[test]
fn another_architecture_on_a_translated_file_updates_the_definition() {
    let dir = tempfile::tempdir().unwrap();
    let file = kernel_file(dir.path());
    translate(&file, &[]);
    let summary = translate(&file, &["--cuda-arch", "75"]);
    assert!(summary.contains("1 of 1 file changed"), "{summary}");
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.contains("#define PTX2HIP_CUDA_ARCH 750"), "{text}");
    assert!(!text.contains("#define PTX2HIP_CUDA_ARCH 900"), "{text}");
    // The sm_75 arms are translated now too (the sm_90 ones stay translated, unused): only the
    // pre-Volta `brev` is left, for NVIDIA.
    let left = findings(&file, &["--cuda-arch", "75"]);
    assert_eq!(codes(&left), [(line_of(&text, "brev"), "T002")], "{text}");
    let same = fs::read_to_string(&file).unwrap();
    translate(&file, &["--cuda-arch", "sm_75"]);
    assert_eq!(fs::read_to_string(&file).unwrap(), same);
    // A file whose arms need nothing new still gets the new value.
    translate(&file, &["--cuda-arch", "80"]);
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.contains("#define PTX2HIP_CUDA_ARCH 800"), "{text}");
}

#[test]
fn a_file_translated_before_cuda_arch_existed_gets_its_conditions_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let file = kernel_file(dir.path());
    translate(&file, &[]);
    let translated = fs::read_to_string(&file).unwrap();
    // What an earlier version wrote: the same translations, the conditions as written.
    let start = translated.find("// ---- ptx2hip: AMD device code").unwrap();
    let end = start + translated[start..].find("#endif\n#endif\n").unwrap() + 14;
    let earlier = format!("{}{}", &translated[..start], &translated[end..])
        .replace("PTX2HIP_CUDA_ARCH", "__CUDA_ARCH__");
    fs::write(&file, &earlier).unwrap();
    let summary = translate(&file, &[]);
    assert!(
        summary.contains("1 of 1 file changed, 0 statements translated"),
        "{summary}"
    );
    let text = fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("#define PTX2HIP_CUDA_ARCH 900")
            && text.contains("#if PTX2HIP_CUDA_ARCH >= 800"),
        "{text}"
    );
}

#[test]
fn with_a_shared_helpers_header_the_definition_stays_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = kernel_file(dir.path());
    let header = dir.path().join("ptx2hip_helpers.h");
    let args = ["--helpers", header.to_str().unwrap()];
    translate(&file, &args);
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.contains("#include \"ptx2hip_helpers.h\""), "{text}");
    assert!(text.contains("#define PTX2HIP_CUDA_ARCH 900"), "{text}");
    assert!(!fs::read_to_string(&header)
        .unwrap()
        .contains("PTX2HIP_CUDA_ARCH"));
    translate(&file, &args);
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
}

#[test]
fn ifs_inside_a_statement_choose_between_its_translations_by_the_macro() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ld.cu");
    let source = "#include <stdint.h>\n__device__ uint32_t ld(const uint32_t *p) {\n  uint32_t v;\n  asm volatile(\n#if __CUDA_ARCH__ >= 800\n      \"ld.global.L2::128B.u32 %0, [%1];\"\n#else\n      \"ld.global.u32 %0, [%1];\"\n#endif\n      : \"=r\"(v) : \"l\"(p));\n  return v;\n}\n";
    fs::write(&file, source).unwrap();
    translate(&file, &["--emit", "replace"]);
    let text = fs::read_to_string(&file).unwrap();
    let definition = text.find("#define PTX2HIP_CUDA_ARCH 900").expect("defined");
    let choice = text
        .find("  #if PTX2HIP_CUDA_ARCH >= 800")
        .expect("the translation's `#if`");
    assert!(definition < choice, "{text}");
    assert!(!text.contains("__CUDA_ARCH__ >="), "{text}");
    translate(&file, &["--emit", "replace"]);
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
}

#[test]
fn a_formatted_translation_is_translated_again_to_itself() {
    if !common::require(&["clang-format-19"], "re-translation after clang-format") {
        return;
    }
    for style in ["LLVM", "Google", "WebKit"] {
        let dir = tempfile::tempdir().unwrap();
        let file = kernel_file(dir.path());
        translate(&file, &[]);
        let formatted = std::process::Command::new("clang-format-19")
            .args(["-i", &format!("--style={style}")])
            .arg(&file)
            .status()
            .unwrap();
        assert!(formatted.success());
        let text = fs::read_to_string(&file).unwrap();
        assert!(text.contains("#define PTX2HIP_CUDA_ARCH 900"), "{text}");
        translate(&file, &[]);
        assert_eq!(fs::read_to_string(&file).unwrap(), text, "--style={style}");
    }
}

/// The definition goes before a statement's rewrite that starts where it does: a statement on the
/// file's first line after a byte order mark (found by `rewrite_properties`: the statement was
/// copied again after the definition, and the next run translated the copy).
#[test]
fn the_definition_and_a_statement_on_the_first_line_after_a_bom_are_each_written_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.cu");
    let stmt = "asm(\"brev.b32 %0, %1;\" : \"=r\"(d) : \"r\"(a));";
    fs::write(
        &file,
        format!("\u{feff}  {stmt}\n#ifdef __CUDA_ARCH__\n  {stmt}\n#endif\n"),
    )
    .unwrap();
    translate(&file, &["--target", "amd", "--cuda-arch", "90"]);
    let once = fs::read_to_string(&file).unwrap();
    assert!(once.starts_with('\u{feff}'));
    assert_eq!(once.matches(stmt).count(), 2, "{once}");
    assert_eq!(once.matches("#define PTX2HIP_CUDA_ARCH 900").count(), 1);
    translate(&file, &["--target", "amd", "--cuda-arch", "90"]);
    assert_eq!(fs::read_to_string(&file).unwrap(), once);
}
