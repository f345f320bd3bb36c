//! The async family (mbarrier objects, Q001-) against the PTX ISA's state machine on the host:
//! the translated statements of every operation, portable and `--target amd`, with their helpers,
//! run with shared memory as a host arena (tests/cpp/async_model.h) by tests/cpp/async_check.cpp:
//! a single thread against a reference model over random operation sequences, then producer and
//! consumer threads through a ring of stages over thousands of phases. The forms' AMD compile
//! checks are in the verification crate (`atomic_sync_forms_compile.rs`); what each statement
//! emits is a `[[rule.test]]` case of rules/async.toml.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use ptx2hip_core::lower::{RuleSet, Target};

/// The statements under test: the name async_check.cpp calls, the PTX, its constraints.
const STATEMENTS: [(&str, &str, &str); 17] = [
    ("init", "mbarrier.init.shared::cta.b64 [%0], %1;", "r,r"),
    ("inval", "mbarrier.inval.shared::cta.b64 [%0];", "r"),
    ("arrive", "mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];", "=l,r"),
    ("arrive_count", "mbarrier.arrive.shared::cta.b64 %0, [%1], %2;", "=l,r,r"),
    ("arrive_nocomplete", "mbarrier.arrive.noComplete.shared.b64 %0, [%1], %2;", "=l,r,r"),
    ("arrive_expect_tx", "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;", "=l,r,r"),
    ("arrive_drop", "mbarrier.arrive_drop.shared::cta.b64 %0, [%1];", "=l,r"),
    ("expect_tx", "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;", "r,r"),
    ("complete_tx", "mbarrier.complete_tx.shared::cta.b64 [%0], %1;", "r,r"),
    ("test_wait", "{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }", "=r,r,l"),
    ("test_parity", "{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }", "=r,r,r"),
    ("try_wait_hint", "{ .reg .pred p; mbarrier.try_wait.acquire.cta.shared::cta.b64 p, [%1], %2, %3; selp.u32 %0, 1, 0, p; }", "=r,r,l,r"),
    ("try_parity", "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }", "=r,r,r"),
    ("spin_parity", "{ .reg .pred P1; LAB_WAIT: mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P1, [%0], %1; @P1 bra DONE; bra LAB_WAIT; DONE: }", "r,r"),
    ("pending_count", "mbarrier.pending_count.b64 %0, %1;", "=r,l"),
    ("cp_arrive", "cp.async.mbarrier.arrive.shared::cta.b64 [%0];", "r"),
    ("cp_arrive_noinc", "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];", "r"),
];

/// The check program for `target`: the harness, the helpers, one function per statement, the
/// checks.
fn program(rules: &RuleSet, target: Target) -> String {
    let mut src = String::from("#include \"async_model.h\"\n");
    src.push_str(&common::statement_functions(rules, target, &STATEMENTS));
    src.push_str("#include \"async_check.cpp\"\n");
    src
}

#[test]
fn mbarrier_translations_follow_the_ptx_state_machine_on_the_host() {
    let Some(cxx) = common::host_cxx() else {
        return common::skip("a host C++ compiler", "the mbarrier host model");
    };
    let rules = RuleSet::embedded().expect("rule table loads");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("models_async");
    std::fs::create_dir_all(&dir).unwrap();
    let cpp_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cpp");
    let programs = vec![Target::Portable, Target::Amd];
    let reports = common::in_parallel(programs, |target| {
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
