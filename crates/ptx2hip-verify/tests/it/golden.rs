//! Golden-vector check: every rule's `--target portable` translation (and `--target amd`, where it
//! differs) must reproduce, bit for bit, what the real PTX instruction computed on an NVIDIA GPU.
//! The vectors come from `cargo run -p ptx2hip-verify --bin vectors` (docs/VECTORS.md); this test needs only a
//! host C++17 compiler (`$CXX`, default `g++`).

use std::collections::HashMap;
use std::path::PathBuf;

use ptx2hip_core::lower::{RuleSet, Target};
use ptx2hip_core::rules::EMBEDDED;
use ptx2hip_verify::forms::{recorded_forms, CanonicalForm, MemSpace};
use ptx2hip_verify::golden::{
    amd_differs, check_with_inputs, form_inputs, CheckReport, FormVectors, GoldenFile,
};

fn vectors_dir() -> PathBuf {
    ptx2hip_verify::repo_root().join("tests/vectors")
}

fn cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "g++".to_string())
}

fn golden(family: &str) -> GoldenFile {
    let path = vectors_dir().join(format!("{family}.bin.gz"));
    GoldenFile::read(&path).unwrap_or_else(|e| panic!("{e} (regenerate: docs/VECTORS.md)"))
}

/// Runs the forms of `family` (optionally only of rule `only`) through the translations of `rules`.
fn run(
    rules: &RuleSet,
    family: &str,
    only: Option<&str>,
    target: Target,
    prelude: &str,
) -> CheckReport {
    run_with(rules, family, only, target, prelude, None)
}

fn run_with(
    rules: &RuleSet,
    family: &str,
    only: Option<&str>,
    target: Target,
    prelude: &str,
    inputs: Option<&[(Vec<u8>, usize)]>,
) -> CheckReport {
    let keep = |f: &CanonicalForm| only.is_none_or(|o| o == f.rule);
    run_with_compiler(rules, family, &keep, target, prelude, inputs, &cxx())
}

/// Runs the forms of `family` that `keep` selects, the replay program compiled with `compiler`.
fn run_with_compiler(
    rules: &RuleSet,
    family: &str,
    keep: &dyn Fn(&CanonicalForm) -> bool,
    target: Target,
    prelude: &str,
    inputs: Option<&[(Vec<u8>, usize)]>,
    compiler: &str,
) -> CheckReport {
    let file = golden(family);
    let by_form: HashMap<(&str, &str), &FormVectors> = file
        .forms
        .iter()
        .map(|f| ((f.rule.as_str(), f.form.as_str()), f))
        .collect();
    let forms: Vec<CanonicalForm> = recorded_forms(rules)
        .into_iter()
        .filter(|f| f.family == family && keep(f))
        .collect();
    assert!(!forms.is_empty(), "no forms for {family}");
    let vectors: Vec<&FormVectors> = forms
        .iter()
        .map(|f| {
            *by_form
                .get(&(f.rule.as_str(), f.form.as_str()))
                .unwrap_or_else(|| panic!("{} {}: no golden vectors", f.rule, f.form))
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    check_with_inputs(
        &forms,
        &vectors,
        inputs,
        rules,
        target,
        prelude,
        compiler,
        dir.path(),
    )
    .unwrap_or_else(|e| panic!("{family}: {e}"))
}

fn assert_clean(family: &str, r: &CheckReport) {
    for (form, ulp, abs) in &r.max_ulp {
        eprintln!("APPROX {family} {form}: max {ulp} ulp (beyond the bound: max abs {abs:e})");
    }
    for m in &r.examples {
        eprintln!(
            "MISMATCH {} {}: inputs [{}] GPU [{}] translation [{}]",
            m.rule, m.form, m.input, m.expected, m.got
        );
    }
    assert!(r.vectors > 0);
    assert_eq!(
        r.mismatches, 0,
        "{family}: {} of {} vectors differ from the GPU",
        r.mismatches, r.vectors
    );
    eprintln!(
        "{family}: {} forms, {} vectors, 0 mismatches",
        r.per_form.len(),
        r.vectors
    );
}

fn families(rules: &RuleSet) -> Vec<String> {
    let mut f: Vec<String> = recorded_forms(rules)
        .into_iter()
        .map(|f| f.family)
        .collect();
    f.dedup();
    f.sort();
    f.dedup();
    f
}

/// Families whose `--target amd` code uses AMD types or builtins the host models do not cover yet.
const AMD_NOT_MODELLED: &[(&str, &str)] =
    &[
        ("integer_arith", "the amd templates use HIP vector types (__builtin_bit_cast to 2-byte vectors) that tests/amd_models.h does not model"),
        ("memory", "the amd templates differ only in the hint mapping (__builtin_nontemporal_load, L1-bypassing __hip_atomic_load) and in address-space casts (LDS, private) that g++ cannot model; the values loaded and stored are the portable templates' (crates/ptx2hip-verify/tests/it/memory_forms.rs checks the amd translations compile for gfx90a, gfx942 and gfx1100)"),
    ];

/// Families whose `--target amd` code reaches helpers written with clang's `_Float16` vectors and
/// `__builtin_elementwise_fma` (the half family's, also called by the half-precision atomics):
/// their AMD replay is compiled with clang (`$CLANGXX`, default `clang++-19`) instead of `$CXX`.
const AMD_NEEDS_CLANG: &[&str] = &["atomic", "half"];

/// Host models a family's AMD replay needs besides tests/amd_models.h.
const AMD_EXTRA_MODELS: &[(&str, &str)] = &[("half", "tests/amd_models/half_fma.h")];

/// Families whose `--target amd` replay covers only the forms on global (and generic) buffers: the
/// `.shared` forms' AMD code differs from theirs only in the LDS address-space cast of
/// `ptx2hip_shared_ptr`, which a host cannot execute (their values are checked by the portable
/// replay, and their AMD code compiles in atomic_sync_forms_compile.rs).
const AMD_GLOBAL_ONLY: &[&str] = &["atomic"];

/// Rules whose `--target amd` code is a hardware approximation with no exact host model (v_rcp_f32,
/// v_rsq_f32, v_exp_f32, v_log_f32): their forms are left out of the family's AMD replay, the
/// family's other forms are replayed (their approximation bounds are the portable replay's).
const AMD_APPROXIMATIONS: &[(&str, &[&str])] =
    &[("float", &["F030", "F033", "F035", "F036", "F040"])];

fn clangxx() -> String {
    std::env::var("CLANGXX").unwrap_or_else(|_| "clang++-19".to_string())
}

fn check_family(family: &str) {
    let rules = RuleSet::embedded().unwrap();
    let forms: Vec<CanonicalForm> = recorded_forms(&rules)
        .into_iter()
        .filter(|f| f.family == family)
        .collect();
    let inputs: Vec<(Vec<u8>, usize)> = forms.iter().map(form_inputs).collect();
    // Rules with no portable translation (`portable_unsupported`: ld.mmio) are replayed for AMD only.
    let portable = |f: &CanonicalForm| {
        rules
            .rule(&f.rule)
            .is_some_and(|r| r.portable_unsupported.is_none())
    };
    let portable_inputs: Vec<(Vec<u8>, usize)> = forms
        .iter()
        .zip(&inputs)
        .filter(|(f, _)| portable(f))
        .map(|(_, i)| i.clone())
        .collect();
    assert_clean(
        family,
        &run_with_compiler(
            &rules,
            family,
            &portable,
            Target::Portable,
            "",
            Some(&portable_inputs),
            &cxx(),
        ),
    );
    if amd_differs(&forms, &rules) {
        if let Some((_, why)) = AMD_NOT_MODELLED.iter().find(|(f, _)| *f == family) {
            eprintln!("{family}: --target amd NOT replayed: {why}");
            return;
        }
        let root = ptx2hip_verify::repo_root();
        let mut models = String::new();
        models.push_str(&std::fs::read_to_string(root.join("tests/amd_models.h")).unwrap());
        for (_, path) in AMD_EXTRA_MODELS.iter().filter(|(f, _)| *f == family) {
            models.push_str(&std::fs::read_to_string(root.join(path)).unwrap());
        }
        let compiler = if AMD_NEEDS_CLANG.contains(&family) {
            clangxx()
        } else {
            cxx()
        };
        let approximations: &[&str] = AMD_APPROXIMATIONS
            .iter()
            .find(|(f, _)| *f == family)
            .map_or(&[], |(_, rules)| rules);
        let global_only = AMD_GLOBAL_ONLY.contains(&family);
        let keep = |f: &CanonicalForm| {
            (!global_only || f.mem_space == MemSpace::Global)
                && !approximations.contains(&f.rule.as_str())
        };
        let amd_inputs: Vec<(Vec<u8>, usize)> = forms
            .iter()
            .zip(&inputs)
            .filter(|(f, _)| keep(f))
            .map(|(_, i)| i.clone())
            .collect();
        assert_clean(
            &format!("{family} (--target amd)"),
            &run_with_compiler(
                &rules,
                family,
                &keep,
                Target::Amd,
                &models,
                Some(&amd_inputs),
                &compiler,
            ),
        );
    }
}

#[test]
fn golden_atomic() {
    check_family("atomic");
}

#[test]
fn golden_integer() {
    check_family("integer");
}

#[test]
fn golden_float() {
    check_family("float");
}

#[test]
fn golden_float64() {
    check_family("float64");
}

#[test]
fn golden_convert() {
    check_family("convert");
}

#[test]
fn golden_memory() {
    check_family("memory");
}

#[test]
fn golden_bits() {
    check_family("bits");
}

#[test]
fn golden_compare() {
    check_family("compare");
}

#[test]
fn golden_video() {
    check_family("video");
}

#[test]
fn golden_integer_arith() {
    check_family("integer_arith");
}

#[test]
fn golden_move() {
    check_family("move");
}

#[test]
fn golden_half() {
    check_family("half");
}

/// Every value-checkable rule has vectors for every form it claims, recorded from the same
/// canonical statement; the evidence table lists it; no family lacks its test above.
#[test]
fn every_rule_has_fresh_vectors() {
    let rules = RuleSet::embedded().unwrap();
    let tested = [
        "atomic",
        "bits",
        "compare",
        "convert",
        "float",
        "float64",
        "half",
        "integer",
        "integer_arith",
        "memory",
        "move",
        "video",
    ];
    let mut problems = Vec::new();
    for family in families(&rules) {
        if !tested.contains(&family.as_str()) {
            problems.push(format!(
                "family `{family}` has value-checkable rules but no golden test"
            ));
            continue;
        }
        let file = golden(&family);
        let by_form: HashMap<(&str, &str), &FormVectors> = file
            .forms
            .iter()
            .map(|f| ((f.rule.as_str(), f.form.as_str()), f))
            .collect();
        for f in recorded_forms(&rules)
            .into_iter()
            .filter(|f| f.family == family)
        {
            match by_form.get(&(f.rule.as_str(), f.form.as_str())) {
                None => problems.push(format!(
                    "{} {}: no vectors (stale {family}.bin.gz)",
                    f.rule, f.form
                )),
                Some(v)
                    if v.ptx != f.ptx
                        || v.in_bytes != f.in_bytes()
                        || v.out_bytes != f.out_bytes() =>
                {
                    problems.push(format!(
                        "{} {}: vectors recorded for another statement (`{}`)",
                        f.rule, f.form, v.ptx
                    ))
                }
                Some(v) if v.count() == 0 => {
                    problems.push(format!("{} {}: zero vectors", f.rule, f.form))
                }
                Some(v) if v.chunk == 0 && v.full_index.len() != v.count() => {
                    problems.push(format!(
                        "{} {}: vectors neither digested nor fully recorded",
                        f.rule, f.form
                    ))
                }
                _ => {}
            }
        }
        for key in ["gpu", "driver", "nvcc", "date"] {
            if file
                .header
                .get(key)
                .and_then(|v| v.as_str())
                .is_none_or(str::is_empty)
            {
                problems.push(format!("{family}.bin.gz: header lacks `{key}`"));
            }
        }
    }
    for r in &rules.rules {
        if r.forms().is_empty() {
            continue; // every form excluded: the rule claims nothing ([[unsupported]] says why)
        }
        if r.decomposition.is_some() {
            continue; // its evidence is the ISA decomposition (tests/it/decomposition.rs)
        }
        let per_thread = ptx2hip_verify::forms::skip_reason(r).is_none();
        if per_thread && ptx2hip_core::rules::evidence::recorded(&r.code).is_none() {
            problems.push(format!("{}: not in the evidence table", r.code));
        }
        if ptx2hip_core::rules::evidence::level(r)
            == ptx2hip_core::rules::evidence::Level::Unrecorded
        {
            problems.push(format!("{}: evidence level `unrecorded`", r.code));
        }
    }
    assert!(
        problems.is_empty(),
        "golden vectors are missing or stale (see docs/VECTORS.md):\n{}",
        problems.join("\n")
    );
}

/// The product's evidence table is exactly what the vector files say (regenerate it with
/// `cargo run -p ptx2hip-verify --bin vectors -- evidence`).
#[test]
fn evidence_table_matches_the_vectors() {
    let path = ptx2hip_verify::repo_root().join(ptx2hip_verify::evidence::TABLE_PATH);
    let derived = ptx2hip_verify::evidence::table_source(&vectors_dir()).unwrap();
    assert!(
        std::fs::read_to_string(&path).unwrap() == derived,
        "{} differs from the vector files: run `cargo run -p ptx2hip-verify --bin vectors -- evidence`",
        path.display()
    );
}

/// The rule table with one text replacement in one file.
fn mutated(file: &str, from: &str, to: &str) -> RuleSet {
    let sources = EMBEDDED.iter().map(|(n, s)| {
        let s = if *n == file {
            assert!(s.contains(from), "{file} no longer contains `{from}`");
            s.replacen(from, to, 1)
        } else {
            s.to_string()
        };
        (n.to_string(), s)
    });
    RuleSet::from_sources(sources).unwrap()
}

/// The check has teeth: plausible-looking but wrong translations are caught.
#[test]
fn broken_rules_are_caught() {
    let add_for_mul = mutated(
        "integer.toml",
        "{d} = ({T})(({T.arith}){a} * ({T.arith}){b});",
        "{d} = ({T})(({T.arith}){a} + ({T.arith}){b});",
    );
    let r = run(&add_for_mul, "integer", Some("I003"), Target::Portable, "");
    assert!(
        r.mismatches > r.vectors / 2,
        "mul.lo as + : only {} mismatches",
        r.mismatches
    );

    let naive_round = mutated(
        "convert.toml",
        "ptx2hip_cvt_int_from_{S.name}({a}, {m}, {D.bits}",
        "ptx2hip_cvt_int_from_{S.name}({a}, 1, {D.bits}",
    );
    let r = run(&naive_round, "convert", Some("C002"), Target::Portable, "");
    assert!(
        r.mismatches > 0,
        "truncation instead of cvt.rni rounding not caught"
    );
    assert!(!r.examples.is_empty());

    let no_canon = mutated(
        "float.toml",
        "{d} = ptx2hip_canon_f32(__fadd_rn({a}, {b}));",
        "{d} = __fadd_rn({a}, {b});",
    );
    let r = run(&no_canon, "float", Some("F001"), Target::Portable, "");
    assert!(
        r.mismatches > 0,
        "NaN payloads not canonicalised but not caught"
    );
}

/// The host models of AMD builtins used for `--target amd` checks agree with their ISA semantics.
#[test]
fn amd_models_self_test() {
    let dir = tempfile::tempdir().unwrap();
    let root = ptx2hip_verify::repo_root();
    let src = dir.path().join("t.cpp");
    std::fs::write(
        &src,
        format!(
            "{}\n#include \"{}\"\nint main() {{ return ptx2hip_amd_models_self_test(); }}\n",
            ptx2hip_verify::golden::HOST_SHIM,
            root.join("tests/amd_models.h").display()
        ),
    )
    .unwrap();
    let bin = dir.path().join("t");
    let out = std::process::Command::new(cxx())
        .args(["-std=c++17", "-O1", "-ffp-contract=off", "-o"])
        .arg(&bin)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = std::process::Command::new(&bin).output().unwrap();
    assert!(
        run.status.success(),
        "amd model self-test failed:\n{}",
        String::from_utf8_lossy(&run.stdout)
    );
}

/// The `--target amd` path: a rule with an `amd` template using builtins is replayed through the
/// host models of tests/amd_models.h. Here mul.lo gets an AMD template that goes through a 32-bit
/// v_alignbit: right for 16/32-bit forms, wrong for 64-bit ones — and the check must say exactly that.
#[test]
fn amd_target_is_checked_through_builtin_models() {
    let portable = "portable = \"{d} = ({T})(({T.arith}){a} * ({T.arith}){b});\"";
    let with_amd = format!(
        "{portable}\namd = \"{{d}} = ({{T}})__builtin_amdgcn_alignbit(0u, (uint32_t)(({{T.arith}}){{a}} * ({{T.arith}}){{b}}), 0u);\""
    );
    let rules = mutated("integer.toml", portable, &with_amd);
    let forms: Vec<CanonicalForm> = recorded_forms(&rules)
        .into_iter()
        .filter(|f| f.rule == "I003")
        .collect();
    assert!(amd_differs(&forms, &rules));
    let models =
        std::fs::read_to_string(ptx2hip_verify::repo_root().join("tests/amd_models.h")).unwrap();
    let r = run(&rules, "integer", Some("I003"), Target::Amd, &models);
    for (form, n, bad) in &r.per_form {
        if form.ends_with("64") {
            assert!(*bad > 0, "{form}: truncation to 32 bits not caught");
        } else {
            assert_eq!(*bad, 0, "{form}: {bad} of {n} differ");
        }
    }
}
