//! Input nested as deep as an attacker likes never overflows the stack: every walk over the
//! syntax tree that input can make deep is iterative or capped. Each case nests 100,000 levels
//! and runs on a test thread (2 MiB of stack, like rayon's workers), through the whole pipeline.

use ptx2hip_core::emit::EmitMode;
use ptx2hip_core::lower::{RuleSet, Target};
use ptx2hip_core::pipeline::{self, Options};

const DEPTH: usize = 100_000;
const ADD: &str = "asm(\"add.s32 %0, %1, %1;\" : \"=r\"(x) : \"r\"(x));";

fn process(source: &str) -> pipeline::FileOutcome {
    let rules = RuleSet::embedded().expect("rule table loads");
    pipeline::process(
        source.as_bytes(),
        &rules,
        Options {
            target: Target::Amd,
            emit: Some(EmitMode::Guarded),
            provenance: false,
            tensor_model: Default::default(),
            fast: false,
            evidence: Default::default(),
        },
    )
}

fn nested(open: &str, inner: &str, close: &str) -> String {
    format!("{}{inner}{}", open.repeat(DEPTH), close.repeat(DEPTH))
}

/// The statement reader matches brackets without recursion and does not judge C++ expressions:
/// the broken operand is carried into the translation byte for byte (it fails to compile there
/// as it does in the original), and nothing overflows.
#[test]
fn parentheses_with_a_syntax_error_in_an_asm_operand() {
    let operand = nested("(", "x + ", ")");
    let out = process(&format!(
        "__device__ void f(int x) {{ asm(\"add.s32 %0, %1, %1;\" : \"=r\"(x) : \"r\"({operand})); }}\n"
    ));
    let rewritten = out.rewritten.expect("the statement is read");
    assert!(String::from_utf8(rewritten.bytes)
        .unwrap()
        .contains(&format!("ptx2hip_in_r({operand})")));
}

#[test]
fn parentheses_in_a_well_formed_operand_are_translated() {
    let operand = nested("(", "x", ")");
    let out = process(&format!(
        "__device__ void f(int x) {{ asm(\"add.s32 %0, %1, %1;\" : \"=r\"(x) : \"r\"({operand})); }}\n"
    ));
    assert!(out.rewritten.is_some());
}

#[test]
fn a_deep_if_condition_around_the_statement() {
    let condition = nested("(", "defined(__HIP__)", ")");
    let out = process(&format!(
        "#if {condition}\n__device__ void f(int x) {{ {ADD} }}\n#endif\n"
    ));
    // Too deep to evaluate: undecided, so the statement counts as compiled for AMD.
    assert_eq!(out.findings.len(), 1);
}

/// Too deep a negation is left undecided (the statement counts as compiled by both); a long
/// conjunction is evaluated without recursion: `defined(__HIP__)` holds only for AMD, so the arm
/// holds no PTX and the statement is set aside.
#[test]
fn deep_negations_and_conjunctions_in_an_if_condition() {
    for (condition, findings) in [
        (format!("{}defined(__HIP__)", "!".repeat(DEPTH)), 1),
        (format!("{}1", "defined(__HIP__) && ".repeat(DEPTH)), 0),
        (format!("{}1", "defined(FOO) && ".repeat(DEPTH)), 1),
    ] {
        let out = process(&format!(
            "#if {condition}\n__device__ void f(int x) {{ {ADD} }}\n#endif\n"
        ));
        assert_eq!(out.findings.len(), findings, "{}", &condition[..40]);
    }
}

#[test]
fn nested_preprocessor_blocks_scopes_and_lambdas() {
    for source in [
        nested(
            "#if X\n",
            &format!("__device__ void f(int x) {{ {ADD} }}\n"),
            "#endif\n",
        ),
        format!("__device__ void f(int x) {{ {} }}\n", nested("{", ADD, "}")),
        format!(
            "__device__ void f(int x) {{ {} }}\n",
            nested("[&]{", ADD, "}();")
        ),
        nested(
            "namespace a {",
            &format!("__device__ void f(int x) {{ {ADD} }}"),
            "}",
        ),
        format!("#define M(x) {}\n", nested("{", ADD, "}")),
    ] {
        let out = process(&source);
        assert_eq!(out.findings.len(), 1, "{}", &source[..60]);
    }
}

#[test]
fn nested_ptx_scopes_are_refused_with_a_reason() {
    let template = nested("{", "add.s32 %0, %1, %1;", "}");
    let out = process(&format!(
        "__device__ void f(int x) {{ asm(\"{template}\" : \"=r\"(x) : \"r\"(x)); }}\n"
    ));
    let reason = out.findings[0].outcome.as_ref().unwrap_err();
    assert!(reason.message.contains("nested too deeply"), "{reason:?}");
}

#[test]
fn a_directory_of_deep_files_runs_on_worker_threads_without_aborting() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..4 {
        let operand = nested("(", "x ; ", ")");
        std::fs::write(
            dir.path().join(format!("deep{i}.cu")),
            format!("__device__ void f(int x) {{ asm(\"add.s32 %0, %1;\" : \"=r\"(x) : \"r\"({operand})); }}\n"),
        )
        .unwrap();
    }
    assert_cmd::Command::cargo_bin("ptx2hip")
        .unwrap()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(1);
}

/// Beyond the depth whose brackets the scanner follows (256), ptx2hip's own wrapper around a
/// kept original is still recognised: a second run changes nothing.
#[test]
fn guarded_output_deeper_than_the_followed_brackets_is_recognised_on_the_next_run() {
    for depth in [255, 256, 300, 1000] {
        let source = format!(
            "__device__ int f(int x) {{\n{}{ADD_VALUE}{};\n  return x;\n}}\n",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        let once = process(&source).rewritten.expect("translated").bytes;
        assert!(
            process(std::str::from_utf8(&once).unwrap())
                .rewritten
                .is_none(),
            "depth {depth}: a second run rewrote the file"
        );
    }
}

const ADD_VALUE: &str = "asm(\"add.s32 %0, %1, %1;\" : \"=r\"(x) : \"r\"(x))";
