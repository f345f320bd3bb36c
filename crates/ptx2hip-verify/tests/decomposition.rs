//! The rules whose evidence is an ISA decomposition (`[rule.decomposition]`, docs/EVIDENCE.md):
//! sm_100 forms that no GPU here runs, which the ISA defines element by element through forms
//! that are verified on the H100. Each check replays the hardware recordings of the rules a
//! decomposition names through the decomposed rule's own translation, on the host: the
//! translation must give, for every recorded vector, what the H100 gave for the pieces.

use std::collections::HashMap;

use ptx2hip::lower::{RuleSet, Target};
use ptx2hip::rules::EMBEDDED;
use ptx2hip_verify::forms::{rule_forms, CanonicalForm};
use ptx2hip_verify::golden::{
    amd_differs, check_with_inputs, CheckReport, FormVectors, GoldenFile,
};

fn golden(family: &str) -> GoldenFile {
    let path = ptx2hip_verify::repo_root().join(format!("tests/vectors/{family}.bin.gz"));
    GoldenFile::read(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "g++".to_string())
}

/// The vectors of a packed form built from the recorded vectors of its element form: vector
/// `k` of the pair `(i, j)` of recorded vectors has element 0 of every operand from vector `i`
/// and element 1 from vector `j`, and expects the two recorded results side by side. Every
/// recorded vector is element 0 once beside a distant one, and once beside itself.
fn paired(form: &CanonicalForm, piece: &FormVectors) -> (FormVectors, Vec<u8>) {
    let records = piece.full_index.len();
    let operands = form.inputs.len();
    assert_eq!(piece.in_bytes * 2, form.in_bytes(), "{}: element inputs", form.form);
    assert_eq!(piece.out_bytes * 2, form.out_bytes(), "{}: element outputs", form.form);
    let width = piece.in_bytes / operands;
    let pairs: Vec<(usize, usize)> = (0..records)
        .map(|i| (i, (i + records / 2 + 1) % records))
        .chain((0..records).map(|i| (i, i)))
        .collect();
    let (mut inputs, mut full) = (Vec::new(), Vec::new());
    for &(i, j) in &pairs {
        let ((_, xi, yi), (_, xj, yj)) = (piece.record(i), piece.record(j));
        let start = inputs.len();
        for k in 0..operands {
            inputs.extend_from_slice(&xi[k * width..(k + 1) * width]);
            inputs.extend_from_slice(&xj[k * width..(k + 1) * width]);
        }
        full.extend_from_slice(&inputs[start..]);
        full.extend_from_slice(yi);
        full.extend_from_slice(yj);
    }
    let vectors = FormVectors {
        form: form.form.clone(),
        rule: form.rule.clone(),
        ptx: form.ptx.clone(),
        in_bytes: form.in_bytes(),
        out_bytes: form.out_bytes(),
        count: pairs.len(),
        chunk: 0,
        full_index: (0..pairs.len() as u32).collect(),
        full,
        digests: Vec::new(),
    };
    (vectors, inputs)
}

/// `add/sub/mul/fma{.rnd}{.ftz}.f32x2` (F120-F123) through `rules`: every form against the
/// recorded vectors of the f32 form with the same modifiers, paired. The f32 forms' vectors include
/// their edge cases (zeros, subnormals, infinities, NaN payloads, rounding ties, FLT_MIN
/// boundaries under `.ftz`), so each reaches both elements.
fn replay_packed_f32(rules: &RuleSet) -> CheckReport {
    let file = golden("float");
    let recorded: HashMap<&str, &FormVectors> = file
        .forms
        .iter()
        .map(|f| (f.form.as_str(), f))
        .collect();
    let mut forms = Vec::new();
    let mut vectors = Vec::new();
    let mut inputs = Vec::new();
    for code in ["F120", "F121", "F122", "F123"] {
        let rule = rules.rule(code).unwrap();
        let pieces = &rule.decomposition.as_ref().expect("a decomposition").rules;
        for form in rule_forms(rule) {
            let element = form.form.replace(".f32x2", ".f32");
            let piece = recorded
                .get(element.as_str())
                .unwrap_or_else(|| panic!("{code} {}: `{element}` has no recording", form.form));
            assert!(
                pieces.contains(&piece.rule),
                "{code}: `{element}` is recorded under {}, which the decomposition does not name",
                piece.rule
            );
            let (v, x) = paired(&form, piece);
            inputs.push((x, v.count));
            vectors.push(v);
            forms.push(form);
        }
    }
    assert_eq!(forms.len(), 3 * 10 + 8, "every rounding with and without .ftz");
    assert!(
        !amd_differs(&forms, rules),
        "the amd translation differs from the portable one: replay it too"
    );
    let dir = tempfile::tempdir().unwrap();
    let refs: Vec<&FormVectors> = vectors.iter().collect();
    check_with_inputs(
        &forms,
        &refs,
        Some(&inputs),
        rules,
        Target::Portable,
        "",
        &cxx(),
        dir.path(),
    )
    .unwrap()
}

#[test]
fn packed_f32_forms_give_the_recorded_f32_results_per_element() {
    let report = replay_packed_f32(&RuleSet::embedded().unwrap());
    for m in &report.examples {
        eprintln!(
            "MISMATCH {} {}: inputs [{}] H100 [{}] translation [{}]",
            m.rule, m.form, m.input, m.expected, m.got
        );
    }
    assert!(report.vectors > 10_000, "only {} vectors", report.vectors);
    assert_eq!(report.mismatches, 0, "of {}", report.vectors);
    eprintln!(
        "f32x2: {} forms, {} paired vectors, 0 mismatches",
        report.per_form.len(),
        report.vectors
    );
}

/// The table with one text replacement in one file.
fn mutated(file: &str, from: &str, to: &str) -> RuleSet {
    RuleSet::from_sources(EMBEDDED.iter().map(|(n, s)| {
        let s = if *n == file {
            assert!(s.contains(from), "{file} no longer contains `{from}`");
            s.replacen(from, to, 1)
        } else {
            s.to_string()
        };
        (n.to_string(), s)
    }))
    .unwrap()
}

/// The replay has teeth: elements swapped, or the rounding modifier ignored, are caught.
#[test]
fn packed_f32_replay_catches_swapped_elements_and_ignored_rounding() {
    let swapped = mutated(
        "helpers/float.h",
        "d |= (uint64_t)ptx2hip_bits_from_f32(e) << (32 * i);",
        "d |= (uint64_t)ptx2hip_bits_from_f32(e) << (32 * (1 - i));",
    );
    let r = replay_packed_f32(&swapped);
    assert!(r.mismatches > r.vectors / 4, "swapped: {} of {}", r.mismatches, r.vectors);
    let nearest = mutated(
        "float.toml",
        "ptx2hip_fop_f32x2<ptx2hip_fmode::mul, {m}, {fz}>",
        "ptx2hip_fop_f32x2<ptx2hip_fmode::mul, ptx2hip_fmode::rn, {fz}>",
    );
    let r = replay_packed_f32(&nearest);
    let wrong: Vec<&str> = r
        .per_form
        .iter()
        .filter(|(_, _, bad)| *bad > 0)
        .map(|(form, _, _)| form.as_str())
        .collect();
    for f in &wrong {
        assert!(f.starts_with("mul.r") && !f.starts_with("mul.rn"), "{f}");
    }
    assert_eq!(wrong.len(), 6, "{wrong:?}");
}
