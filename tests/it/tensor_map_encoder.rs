//! `translate` on host code that makes tensor maps: calls of the driver's
//! `cuTensorMapEncodeTiled` become calls of ptx2hip's encoder helper (whose maps the translated TMA
//! copies read), in a file's own helper block or the `--helpers` header; a second run changes
//! nothing; the uses it cannot rename are reported as U016.

use std::fs;
use std::path::Path;

use assert_cmd::Command;

fn ptx2hip() -> Command {
    Command::cargo_bin("ptx2hip").expect("binary built")
}

/// Host code as libraries write it: a direct call, and DeepGEMM's lookup by name.
const HOST: &str = r#"#include <cuda.h>

CUresult make_map(CUtensorMap* map, void* data, cuuint64_t rows, cuuint64_t cols) {
  cuuint64_t dims[2] = {cols, rows}, strides[1] = {cols * 2};
  cuuint32_t box[2] = {64, 64}, elems[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, data, dims, strides, box,
                                elems, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void* encoder_entry_point() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status;
  cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &status);
  return fn;
}
"#;

fn translate(dir: &Path, args: &[&str]) -> std::process::Output {
    ptx2hip()
        .current_dir(dir)
        .args(["translate", "--isolated", "--in-place"])
        .args(args)
        .arg("host.cu")
        .output()
        .unwrap()
}

#[test]
fn calls_are_renamed_once_and_the_encoder_joins_the_helpers() {
    for (mode, name) in [
        ("replace", "ptx2hip_cuTensorMapEncodeTiled("),
        (
            "guarded",
            "PTX2HIP_AMD_ONLY(ptx2hip_cuTensorMapEncodeTiled)PTX2HIP_NV_ONLY(cuTensorMapEncodeTiled)(",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("host.cu"), HOST).unwrap();
        let out = translate(dir.path(), &["--emit", mode]);
        assert!(out.status.success(), "{out:?}");
        let text = fs::read_to_string(dir.path().join("host.cu")).unwrap();
        assert!(text.contains(&format!("return {name}map, ")), "{text}");
        assert!(text.contains("#ifndef PTX2HIP_HELPER_ptx2hip_cuTensorMapEncodeTiled\n"));
        // The lookup by name is left as written and reported.
        assert!(text.contains("cudaGetDriverEntryPoint(\"cuTensorMapEncodeTiled\""));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("U016") && stderr.contains("looked up by name"), "{stderr}");
        let again = translate(dir.path(), &["--emit", mode]);
        assert!(again.status.success());
        assert_eq!(
            fs::read_to_string(dir.path().join("host.cu")).unwrap(),
            text,
            "a second run ({mode}) changed the file"
        );
    }
}

#[test]
fn with_a_shared_header_the_encoder_goes_into_it() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("host.cu"), HOST).unwrap();
    let out = translate(
        dir.path(),
        &["--emit", "replace", "--helpers", "ptx2hip_helpers.h"],
    );
    assert!(out.status.success(), "{out:?}");
    let text = fs::read_to_string(dir.path().join("host.cu")).unwrap();
    assert!(text.contains("#include \"ptx2hip_helpers.h\""), "{text}");
    let header = fs::read_to_string(dir.path().join("ptx2hip_helpers.h")).unwrap();
    assert!(header.contains("inline ptx2hip_CUresult ptx2hip_cuTensorMapEncodeTiled("));
}
