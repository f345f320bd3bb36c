//! Counted barriers (rules/sync.toml S030-S033) through the whole pipeline: translate puts the
//! state's initialisation at the entry of every kernel of the file that reaches a translated
//! barrier, once, and never again on a second run; a barrier other files' kernels may reach stays
//! as written with the reason; `check` gives every statement the verdict `translate` acts on.

use std::path::Path;

use ptx2hip_core::emit::EmitMode;
use ptx2hip_core::lower::{RuleSet, Target};
use ptx2hip_core::pipeline::{self, FileOutcome, Options};
use ptx2hip_core::scan;

const INIT: &str = "ptx2hip_named_bar_init();";

fn run(src: &str, path: &str, emit: Option<EmitMode>) -> FileOutcome {
    let rules = RuleSet::embedded().unwrap();
    let options = Options {
        target: Target::Amd,
        emit,
        provenance: true,
        tensor_model: Default::default(),
        fast: false,
        evidence: Default::default(),
    };
    pipeline::process_file(
        src.as_bytes(),
        Some(Path::new(path)),
        &rules,
        options,
        &scan::Options::default(),
    )
}

fn translated(src: &str, mode: EmitMode) -> String {
    let out = run(src, "k.cu", Some(mode));
    String::from_utf8(out.rewritten.expect("rewritten").bytes).unwrap()
}

/// A static helper with the barrier, two kernels that call it (one through another helper), a
/// kernel that does not, and a barrier in a kernel's own body.
const FILE: &str = r#"static __device__ void wait_consumers() {
  asm volatile("bar.sync 1, 256;" ::: "memory");
}
static __device__ void step() { wait_consumers(); }
__global__ void produce(int* p) {
  step();
  p[0] = 1;
}
__global__ void consume(int* p) { wait_consumers(); p[1] = 2; }
__global__ void unrelated(int* p) {
  p[2] = 3;
}
__global__ void own(int* p) {
  asm volatile("barrier.sync 9, 128;" ::: "memory");
}
"#;

#[test]
fn every_kernel_that_reaches_a_barrier_starts_with_the_initialisation_once() {
    for mode in [EmitMode::Replace, EmitMode::Guarded] {
        let out = translated(FILE, mode);
        let bodies: Vec<&str> = out.split("__global__ void ").skip(1).collect();
        let starts = |name: &str| {
            let body = bodies.iter().find(|b| b.starts_with(name)).unwrap();
            let after_brace = &body[body.find('{').unwrap() + 1..];
            let first: Vec<&str> = after_brace
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .take(2)
                .collect();
            first.contains(&INIT)
        };
        assert!(
            starts("produce") && starts("consume") && starts("own"),
            "{mode:?}:\n{out}"
        );
        assert!(!starts("unrelated"), "{mode:?}:\n{out}");
        assert_eq!(out.matches(INIT).count(), 3, "{mode:?}:\n{out}");
        // The code after a brace on the same line moves to the next line.
        assert!(
            out.contains("wait_consumers(); p[1] = 2; }"),
            "{mode:?}:\n{out}"
        );
    }
}

#[test]
fn a_second_translate_changes_nothing_and_adds_no_second_initialisation() {
    for mode in [EmitMode::Replace, EmitMode::Guarded] {
        let once = translated(FILE, mode);
        let again = run(&once, "k.cu", Some(mode));
        assert!(again.rewritten.is_none(), "{mode:?}: rewritten again");
        // A barrier added later to a kernel that already starts with the initialisation.
        let grown = once.replacen(
            "  p[0] = 1;",
            "  p[0] = 1;\n  asm volatile(\"bar.arrive 2, 64;\" ::: \"memory\");",
            1,
        );
        let out = translated(&grown, mode);
        assert_eq!(out.matches(INIT).count(), 3, "{mode:?}:\n{out}");
    }
}

#[test]
fn barriers_kernels_of_other_files_may_reach_are_refused_with_the_reason() {
    let cases = [
        (
            "__device__ void named_sync(int id, int n) {\n  asm volatile(\"bar.sync %0, %1;\" :: \"r\"(id), \"r\"(n));\n}\n__global__ void k() { named_sync(1, 64); }\n",
            "k.cu",
            "`named_sync`, which has external linkage",
        ),
        (
            "static __device__ void sync64() {\n  asm volatile(\"bar.sync 1, 64;\");\n}\n__global__ void k() { sync64(); }\n",
            "barriers.cuh",
            "a function of a header",
        ),
        (
            "static __device__ void sync64() {\n  asm volatile(\"bar.sync 1, 64;\");\n}\n",
            "k.cu",
            "which no kernel of this file calls",
        ),
        (
            "#define SYNC64() asm volatile(\"bar.sync 1, 64;\")\n__global__ void k() { SYNC64(); }\n",
            "k.cu",
            "not inside the body of a function",
        ),
    ];
    for (src, path, why) in cases {
        for emit in [None, Some(EmitMode::Guarded)] {
            let out = run(src, path, emit);
            let refused: Vec<&str> = out
                .findings
                .iter()
                .filter_map(|f| f.outcome.as_ref().err().map(|e| e.message.as_str()))
                .collect();
            assert!(
                refused.len() == 1
                    && refused[0].contains(why)
                    && refused[0].contains("zeroes at the entry of every kernel"),
                "{path}: {refused:?}"
            );
            assert!(out.rewritten.is_none(), "{path}: rewritten");
        }
    }
}

#[test]
fn check_reports_the_verdict_translate_acts_on() {
    let src = format!(
        "{FILE}__device__ void exported() {{\n  asm volatile(\"bar.sync 3, 64;\" ::: \"memory\");\n}}\n"
    );
    let verdicts = |emit| {
        run(&src, "k.cu", emit)
            .findings
            .iter()
            .map(|f| (f.line, f.code()))
            .collect::<Vec<_>>()
    };
    let check = verdicts(None);
    assert_eq!(check, verdicts(Some(EmitMode::Replace)));
    assert_eq!(check, verdicts(Some(EmitMode::Guarded)));
    assert_eq!(
        check.iter().filter(|(_, c)| c.as_str() == "T001").count(),
        2
    );
    assert_eq!(
        check.iter().filter(|(_, c)| c.as_str() == "U003").count(),
        1
    );
}
