//! The tensor_copy family (TMA, O001-) on the host: the translated loads, stores and tensor-map
//! edits, with their helpers and ptx2hip's encoder (the host helper ptx2hip_cuTensorMapEncodeTiled), run with shared
//! memory as a host arena (tests/cpp/tensor_copy_model.h) by tests/cpp/tensor_copy_check.cpp:
//! random boxes against a reference written from the layout's description, then every load,
//! store and edited map of the GPU recording tests/vectors/tma_copy.txt.gz (tools/probes/tma_copy, an H200),
//! replayed and compared with the hardware's bytes. What each statement emits is a `[[rule.test]]`
//! case of rules/tensor_copy.toml; the forms' AMD compile checks are in the verification crate
//! (`atomic_sync_forms_compile.rs`).

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use ptx2hip_core::lower::{RuleSet, Target};

/// A load or store of each rank, as the probe's kernels write them.
fn copies() -> Vec<(String, String, String)> {
    let mut v = Vec::new();
    for n in 1..=5 {
        let coords: Vec<String> = (0..n).map(|i| format!("%{}", i + 2)).collect();
        v.push((
            format!("t_load_{n}d"),
            format!(
                "cp.async.bulk.tensor.{n}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {{{}}}], [%{}];",
                coords.join(", "),
                n + 2
            ),
            format!("r,l,{}r", "r,".repeat(n)),
        ));
        let coords: Vec<String> = (0..n).map(|i| format!("%{}", i + 1)).collect();
        if n == 2 || n == 3 {
            for op in ["add", "min", "max", "inc", "dec", "and", "or", "xor"] {
                v.push((
                    format!("t_reduce_{op}_{n}d"),
                    format!(
                        "cp.reduce.async.bulk.tensor.{n}d.global.shared::cta.{op}.tile.bulk_group [%0, {{{}}}], [%{}];",
                        coords.join(", "),
                        n + 1
                    ),
                    format!("l,{}r", "r,".repeat(n)),
                ));
            }
        }
        v.push((
            format!("t_store_{n}d"),
            format!(
                "cp.async.bulk.tensor.{n}d.global.shared::cta.tile.bulk_group [%0, {{{}}}], [%{}];",
                coords.join(", "),
                n + 1
            ),
            format!("l,{}r", "r,".repeat(n)),
        ));
    }
    v
}

/// The mbarrier statements of the probe's kernels and its map edits (replace_2d).
const STATEMENTS: [(&str, &str, &str); 12] = [
    ("t_init", "mbarrier.init.shared::cta.b64 [%0], %1;", "r,r"),
    ("t_arrive_expect_tx", "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;", "r,r"),
    ("t_arrive", "mbarrier.arrive.shared::cta.b64 _, [%0];", "r"),
    ("t_test_parity", "{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }", "=r,r,r"),
    ("t_replace_address", "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;", "r,l"),
    ("t_replace_dim0", "tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, %1;", "r,r"),
    ("t_replace_dim1", "tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %1;", "r,r"),
    ("t_replace_stride1", "tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %1;", "r,l"),
    ("t_replace_box1", "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, %1;", "r,r"),
    ("t_replace_estride1", "tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 1, %1;", "r,r"),
    ("t_replace_fill", "tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%0], 1;", "r"),
    ("t_copy_map", "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;", "l,r"),
];

/// The check program: the model, the helpers, one function per statement, the checks.
fn program(rules: &RuleSet) -> String {
    let mut src = String::from("#include \"tensor_copy_model.h\"\n");
    let mut funcs = String::new();
    let mut helpers: Vec<String> = Vec::new();
    let statements = copies().into_iter().chain(
        STATEMENTS
            .iter()
            .map(|(n, p, c)| (n.to_string(), p.to_string(), c.to_string())),
    );
    for (name, ptx, cons) in statements {
        funcs.push_str(&common::statement_function(
            rules,
            Target::Portable,
            &name,
            &ptx,
            &cons,
            &mut helpers,
        ));
    }
    // ptx2hip's encoder, which host code calls in place of the driver's.
    helpers.push("ptx2hip_cuTensorMapEncodeTiled".to_string());
    src.push_str(&rules.helper_definitions(helpers.iter(), Target::Portable));
    src.push_str(&funcs);
    src.push_str("#include \"tensor_copy_check.cpp\"\n");
    src
}

#[test]
fn tensor_copies_lay_boxes_out_as_the_hardware_does_on_the_host() {
    let Some(cxx) = common::host_cxx() else {
        return common::skip("a host C++ compiler", "the TMA host model");
    };
    let rules = RuleSet::embedded().expect("rule table loads");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("models_tensor_copy");
    std::fs::create_dir_all(&dir).unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let exe = common::compile_host_check(
        cxx,
        &dir,
        "check",
        &program(&rules),
        &root.join("tests/cpp"),
    );
    let mut run = Command::new(&exe);
    let recording = root.join("tests/vectors/tma_copy.txt.gz");
    if recording.exists() {
        let text = Command::new("gzip")
            .arg("-dc")
            .arg(&recording)
            .output()
            .expect("gzip runs");
        assert!(text.status.success(), "gzip -dc {}", recording.display());
        let plain = dir.join("tma_copy.txt");
        std::fs::write(&plain, text.stdout).unwrap();
        run.arg(&plain);
    }
    let text = common::run_host_check(run);
    eprintln!("{text}");
}
