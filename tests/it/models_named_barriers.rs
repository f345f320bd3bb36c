//! Counted barriers (S030-S033) against the PTX ISA's description on the host: the translated
//! `barrier.sync id, count` and `bar.arrive id, count`, portable and `--target amd`, with their
//! helpers, run by tests/cpp/named_barrier_check.cpp: the state word's transition against a
//! reference over every count (one warp, or the two warps of a wave64, arriving), then a producer
//! and consumer units through a two-stage ring over thousands of phases, with single-warp barriers
//! completing concurrently. What each statement emits is a `[[rule.test]]` case of rules/sync.toml;
//! the AMD compile of every form is `crates/ptx2hip-verify/tests/it/atomic_sync_forms_compile.rs`.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use ptx2hip_core::lower::{RuleSet, Target};

/// The statements under test: the name named_barrier_check.cpp calls, the PTX, its constraints.
const STATEMENTS: [(&str, &str, &str); 2] = [
    ("bar_sync", "barrier.sync %0, %1;", "r,r"),
    ("bar_arrive", "bar.arrive %0, %1;", "r,r"),
];

/// The check program for `target`: the model, the helpers, one function per statement, the checks.
fn program(rules: &RuleSet, target: Target) -> String {
    let mut src = String::new();
    if target == Target::Amd {
        src.push_str("#define PTX2HIP_MODEL_AMD\n");
    }
    src.push_str("#include \"named_barrier_model.h\"\n");
    src.push_str(&common::statement_functions(rules, target, &STATEMENTS));
    src.push_str("#include \"named_barrier_check.cpp\"\n");
    src
}

#[test]
fn counted_barrier_translations_follow_the_ptx_description_on_the_host() {
    let Some(cxx) = common::host_cxx() else {
        return common::skip("a host C++ compiler", "the counted-barrier host model");
    };
    let rules = RuleSet::embedded().expect("rule table loads");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("models_named_barriers");
    std::fs::create_dir_all(&dir).unwrap();
    let cpp_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cpp");
    let reports = common::in_parallel(vec![Target::Portable, Target::Amd], |target| {
        let source = program(&rules, target);
        let exe =
            common::compile_host_check(cxx, &dir, &format!("check_{target}"), &source, &cpp_dir);
        let text = common::run_host_check(Command::new(&exe));
        format!("{target}:\n{text}")
    });
    for r in reports {
        eprintln!("{r}");
    }
}
