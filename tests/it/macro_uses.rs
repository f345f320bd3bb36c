//! Asm made of a macro's arguments, through the whole pipeline: the rewritten body selects, by
//! token pasting on the arguments, one translation per argument list the file's uses show; a
//! list no use showed stops the AMD build at that use; a second run changes nothing. And a
//! template macro defined under `#if`s that ptx2hip cannot decide is translated under copies of
//! those `#if`s.

use std::process::Command;

use ptx2hip_core::emit::EmitMode;
use ptx2hip_core::lower::{RuleSet, Target};
use ptx2hip_core::pipeline::{self, Options};

fn translated(src: &str, mode: EmitMode, target: Target) -> String {
    let rules = RuleSet::embedded().unwrap();
    let options = Options {
        target,
        emit: Some(mode),
        provenance: false,
        tensor_model: Default::default(),
        fast: false,
        evidence: Default::default(),
    };
    let out = pipeline::process(src.as_bytes(), &rules, options);
    let bytes = out.rewritten.expect("rewritten").bytes;
    let again = pipeline::process(&bytes, &rules, options);
    assert!(
        again.rewritten.is_none_or(|r| r.bytes == bytes),
        "a second run changed the file"
    );
    String::from_utf8(bytes).unwrap()
}

const LOADS: &str = r#"#include <stdint.h>
#define LD(name, cop, T)                                                 \
  __device__ uint32_t name(const uint32_t* p) {                          \
    uint32_t v;                                                          \
    asm volatile("ld.global." #cop "." #T " %0, [%1];" : "=r"(v) : "l"(p)); \
    return v;                                                            \
  }
LD(load_cg, cg, u32)
LD(load_cs, cs, b32)
"#;

#[test]
fn the_body_selects_the_translation_of_its_arguments_from_a_table_after_the_define() {
    let out = translated(LOADS, EmitMode::Guarded, Target::Amd);
    let body = out
        .lines()
        .find(|l| l.contains("PTX2HIP_NV_ONLY(asm volatile"))
        .expect("the body keeps the original for NVIDIA");
    assert!(
        body.contains("PTX2HIP_PASTE(PTX2HIP_PASTE(PTX2HIP_LD_")
            && body.contains("_T, PTX2HIP_KEY_##cop), PTX2HIP_KEY_##T)()"),
        "{body}"
    );
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("#ifndef PTX2HIP_PASTE"))
        .take_while(|l| l.starts_with('#'))
        .collect();
    assert!(
        table.contains(&"#define PTX2HIP_KEY_cg _2_cg"),
        "{table:#?}"
    );
    assert!(
        table.contains(&"#define PTX2HIP_KEY_b32 _3_b32"),
        "{table:#?}"
    );
    let entries: Vec<&&str> = table
        .iter()
        .filter(|l| l.starts_with("#define PTX2HIP_LD_"))
        .collect();
    assert_eq!(entries.len(), 2, "{table:#?}");
    assert!(entries[0].contains("_T_2_cg_3_u32() {") && entries[0].contains("ptx2hip_load_cg"));
    assert!(entries[1].contains("_T_2_cs_3_b32() {") && entries[1].contains("ptx2hip_load_nt"));
    // The table follows the `#define` and precedes the uses.
    assert!(out.find("#ifndef PTX2HIP_PASTE").unwrap() < out.find("LD(load_cg").unwrap());
}

#[test]
fn replace_mode_leaves_only_the_selection_in_the_body() {
    let out = translated(LOADS, EmitMode::Replace, Target::Portable);
    assert!(!out.contains("asm volatile(\"ld."), "{out}");
    assert!(
        out.contains("PTX2HIP_KEY_##cop), PTX2HIP_KEY_##T)() \\"),
        "{out}"
    );
}

#[test]
fn an_if_defined_template_macro_is_translated_under_copies_of_its_if_lines() {
    let src = "#if defined(FAST_PATH)\n#define LD_OP \"ld.global.cs.u32\"\n#else\n#define LD_OP \"ld.global.cg.u32\"\n#endif\n__device__ unsigned f(const unsigned* p) {\n  unsigned v;\n  asm volatile(LD_OP \" %0, [%1];\" : \"=r\"(v) : \"l\"(p));\n  return v;\n}\n";
    let out = translated(src, EmitMode::Replace, Target::Amd);
    let body: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("unsigned v;"))
        .map(str::trim)
        .filter(|l| l.starts_with('#') || l.contains("ptx2hip_load"))
        .collect();
    assert_eq!(body.len(), 5, "{out}");
    assert_eq!(body[0], "#if defined(FAST_PATH)");
    assert!(body[1].contains("ptx2hip_load_nt"), "{}", body[1]);
    assert_eq!(body[2], "#else");
    assert!(body[3].contains("ptx2hip_load_cg"), "{}", body[3]);
    assert_eq!(body[4], "#endif");
}

/// Whether clang-19 is installed (the compile checks are skipped without it, as in hip_compile).
fn clang() -> bool {
    Command::new("clang-19").arg("--version").output().is_ok()
}

/// Compiles `src` as HIP device code for gfx942: the compiler's error output, `None` if it
/// compiled.
fn compile_error(src: &str) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.hip");
    std::fs::write(&file, src).unwrap();
    let out = Command::new("clang-19")
        .args([
            "-x",
            "hip",
            "-std=c++17",
            "-nogpulib",
            "--offload-arch=gfx942",
        ])
        .args([
            "--cuda-device-only",
            "-O0",
            "-S",
            "-emit-llvm",
            "-o",
            "/dev/null",
        ])
        .args([
            "-include",
            "hip/hip_runtime.h",
            "-Wall",
            "-Wextra",
            "-Werror",
        ])
        .arg(&file)
        .output()
        .expect("clang-19 runs");
    (!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn an_argument_list_no_use_showed_stops_the_amd_build_at_that_use() {
    if !clang() {
        eprintln!("clang-19 not found: skipped");
        return;
    }
    let out = translated(LOADS, EmitMode::Guarded, Target::Amd);
    assert_eq!(compile_error(&out), None);
    // A use added after the translation, or in a file that includes this one.
    let unseen = format!("{out}LD(load_lu, lu, u32)\n");
    let error = compile_error(&unseen).expect("the unseen use does not compile");
    assert!(
        error.contains("undeclared identifier 'PTX2HIP_LD_") && error.contains("PTX2HIP_KEY_lu"),
        "{error}"
    );
    // Seen values in a combination no use showed.
    let crossed = format!("{out}LD(load_cg_b32, cg, b32)\n");
    assert!(compile_error(&crossed).is_some());
}

const DOTTED: &str = r#"#include <stdint.h>
#define LOAD_VIA(name, ptx_modifier)                                         \
  __device__ uint32_t name(const uint32_t* p) {                              \
    uint32_t v;                                                              \
    asm volatile("ld." #ptx_modifier ".u32 %0, [%1];" : "=r"(v) : "l"(p));   \
    return v;                                                                \
  }
LOAD_VIA(load_nc, global.nc)
LOAD_VIA(load_volatile, volatile.global)
"#;

#[test]
fn arguments_that_are_not_one_name_are_compared_as_strings_at_compile_time() {
    let out = translated(DOTTED, EmitMode::Guarded, Target::Amd);
    let body = out
        .lines()
        .find(|l| l.contains("PTX2HIP_NV_ONLY(asm volatile"))
        .expect("the body keeps the original for NVIDIA");
    assert!(
        body.contains("ptx2hip_macro_use_index(#ptx_modifier, \"global.nc\", \"volatile.global\")"),
        "{body}"
    );
    assert!(
        body.contains("if constexpr (decltype(ptx2hip_use)::value == 1) {"),
        "{body}"
    );
    assert!(!out.contains("#ifndef PTX2HIP_PASTE"), "no table: {out}");
    if !clang() {
        eprintln!("clang-19 not found: compile checks skipped");
        return;
    }
    assert_eq!(compile_error(&out), None);
    let unseen = format!("{out}LOAD_VIA(load_lu, global.lu)\n");
    let error = compile_error(&unseen).expect("the unseen use does not compile");
    assert!(
        error.contains("ptx2hip: macro LOAD_VIA is used with arguments"),
        "{error}"
    );
}

/// The markers of statements read per use or per definition and left as written name the use
/// and the definition, never a line or a condition that the rewrite moves or respells
/// (`--cuda-arch` renames `__CUDA_ARCH__` in the definitions' `#if`): a second run changes nothing.
#[test]
fn markers_of_uses_and_definitions_read_the_same_on_the_next_run() {
    let src = "#if __CUDA_ARCH__ >= 800\n#define RED_OP \"redux.sync.min.f32\"\n#else\n#define RED_OP \"redux.sync.max.f32\"\n#endif\n#define MC(op, x, p) asm volatile(\"multimem.ld_reduce.global.\" #op \".u32 %0, [%1];\" : \"=r\"(x) : \"l\"(p))\n__device__ void f(unsigned& d, float& r, unsigned a, const unsigned* p) {\n  asm(\"add.u32 %0, %1, 1;\" : \"=r\"(d) : \"r\"(a));\n  asm(RED_OP \" %0, %0, 0xffffffff;\" : \"+f\"(r));\n  MC(add, d, p);\n}\n";
    let rules = RuleSet::embedded().unwrap();
    let scan_options = ptx2hip_core::scan::Options {
        macros: ptx2hip_core::scan::Macros {
            cuda_arch: Some(ptx2hip_core::scan::cuda_arch::CudaArch::DEFAULT),
            ..Default::default()
        },
    };
    for mode in [EmitMode::Guarded, EmitMode::Replace] {
        let options = Options {
            target: Target::Amd,
            emit: Some(mode),
            provenance: true,
            tensor_model: Default::default(),
            fast: false,
            evidence: Default::default(),
        };
        let run = |bytes: &[u8]| {
            pipeline::process_file(bytes, None, &rules, options, &scan_options).rewritten
        };
        let once = run(src.as_bytes()).expect("the add is translated").bytes;
        let text = String::from_utf8_lossy(&once);
        assert!(text.contains("(in the use `MC(add, d, p)`)"), "{text}");
        assert!(text.contains("(in the arm defining `RED_OP` as"), "{text}");
        let twice = run(&once);
        assert!(
            twice.as_ref().is_none_or(|r| r.bytes == once),
            "{mode:?}: the second run changed:\n{text}"
        );
    }
}
