//! The rules whose evidence is an ISA decomposition (`[rule.decomposition]`, docs/EVIDENCE.md):
//! sm_100 forms that no GPU here runs, which the ISA defines element by element through forms
//! that are verified on the H100. Each check replays the hardware recordings of the rules a
//! decomposition names through the decomposed rule's own translation, on the host: the
//! translation must give, for every recorded vector, what the H100 gave for the pieces.

use std::collections::HashMap;

use ptx2hip_core::lower::{RuleSet, Target};
use ptx2hip_core::rules::EMBEDDED;
use ptx2hip_verify::forms::{rule_forms, CanonicalForm};
use ptx2hip_verify::golden::{
    amd_differs, check_with_inputs, host_program, translate, CheckReport, FormVectors, GoldenFile,
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
    assert_eq!(
        piece.in_bytes * 2,
        form.in_bytes(),
        "{}: element inputs",
        form.form
    );
    assert_eq!(
        piece.out_bytes * 2,
        form.out_bytes(),
        "{}: element outputs",
        form.form
    );
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
    let recorded: HashMap<&str, &FormVectors> =
        file.forms.iter().map(|f| (f.form.as_str(), f)).collect();
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
    assert_eq!(
        forms.len(),
        3 * 10 + 8,
        "every rounding with and without .ftz"
    );
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
    assert!(
        r.mismatches > r.vectors / 4,
        "swapped: {} of {}",
        r.mismatches,
        r.vectors
    );
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

/// Runs the portable translations of `forms` on the host over `inputs` (per form, its vectors'
/// packed inputs) and returns per form the packed outputs.
fn run_on_host(rules: &RuleSet, forms: &[CanonicalForm], inputs: &[Vec<u8>]) -> Vec<Vec<u8>> {
    run_target_on_host(rules, Target::Portable, forms, inputs)
}

/// [`run_on_host`] for `target`: its code must be plain C++ (no AMD builtins).
fn run_target_on_host(
    rules: &RuleSet,
    target: Target,
    forms: &[CanonicalForm],
    inputs: &[Vec<u8>],
) -> Vec<Vec<u8>> {
    let translated = translate(forms, rules, target).unwrap();
    let program = host_program(&translated, rules, target, "");
    let dir = tempfile::tempdir().unwrap();
    let (src, bin) = (dir.path().join("run.cpp"), dir.path().join("run"));
    std::fs::write(&src, program).unwrap();
    let out = std::process::Command::new(cxx())
        .args([
            "-std=c++17",
            "-O1",
            "-ffp-contract=off",
            "-fno-strict-aliasing",
            "-w",
            "-o",
        ])
        .arg(&bin)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut input = Vec::new();
    for (k, (f, x)) in forms.iter().zip(inputs).enumerate() {
        input.extend_from_slice(&(k as u32).to_le_bytes());
        input.extend_from_slice(&((x.len() / f.in_bytes()) as u32).to_le_bytes());
        input.extend_from_slice(x);
    }
    let (inp, outp) = (dir.path().join("in.bin"), dir.path().join("out.bin"));
    std::fs::write(&inp, input).unwrap();
    let st = std::process::Command::new(&bin)
        .arg(&inp)
        .arg(&outp)
        .status()
        .unwrap();
    assert!(st.success());
    let results = std::fs::read(&outp).unwrap();
    let mut off = 0;
    forms
        .iter()
        .zip(inputs)
        .map(|(f, x)| {
            let n = x.len() / f.in_bytes() * f.out_bytes();
            off += n;
            results[off - n..off].to_vec()
        })
        .collect()
}

/// The f32 values every pairing question turns on: signed zeros, subnormals, FLT_MIN, ordinary
/// values of both signs and equal magnitudes, the largest finite values, infinities, and quiet,
/// signalling and negative NaNs with payloads.
const EDGES: [u32; 40] = [
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x807f_ffff,
    0x0080_0000,
    0x8080_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x3fc0_0000,
    0xbfc0_0000,
    0x4000_0000,
    0xc000_0000,
    0x4040_0000,
    0xc040_0000,
    0x3f00_0000,
    0xbf00_0000,
    0x42c8_0000,
    0xc2c8_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_0000,
    0x7f80_0001,
    0xff80_0001,
    0x7fc0_1234,
    0x3f80_0001,
    0x3f7f_ffff,
    0x0040_0000,
    0x8040_0000,
    0x3380_0000,
    0xb380_0000,
    0x4b00_0000,
    0xcb00_0000,
    0x0000_0002,
    0x7fff_ffff,
    0x4049_0fdb,
];

fn form_named(rules: &RuleSet, code: &str, name: &str) -> CanonicalForm {
    rule_forms(rules.rule(code).unwrap())
        .into_iter()
        .find(|f| f.form == name)
        .unwrap_or_else(|| panic!("{code} has no form `{name}`"))
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// `min/max{.ftz}{.NaN}{.abs}.f32 d, a, b, c` (F124, F125), every form over all 64000 triples of
/// the edge values: the translation equals the verified two-input form (F013/F014) applied in
/// each of the three pairings, on the verified `abs{.ftz}.f32` (F017) of each input under
/// `.abs`. So the result is the decomposition's whichever two inputs the hardware pairs first.
#[test]
fn three_input_min_max_is_the_two_input_form_twice_in_any_pairing() {
    let rules = RuleSet::embedded().unwrap();
    let triples: Vec<u32> = EDGES
        .iter()
        .flat_map(|&a| {
            EDGES
                .iter()
                .flat_map(move |&b| EDGES.iter().flat_map(move |&c| [a, b, c]))
        })
        .collect();
    // The verified magnitudes: abs.f32 and abs.ftz.f32 of every edge value.
    let magnitudes = ["abs.f32", "abs.ftz.f32"].map(|name| form_named(&rules, "F017", name));
    let out = run_on_host(&rules, &magnitudes, &[bytes(&EDGES), bytes(&EDGES)]);
    let magnitude = |ftz: bool| words(&out[usize::from(ftz)]);
    // Per form: the values the two-input operation can meet (the inputs, their magnitudes under
    // .abs, and what it returns besides them: the canonical NaN, flushed zeros), every pair of
    // them through the verified two-input form, and every triple through the form itself.
    let mut forms = Vec::new();
    let mut inputs = Vec::new();
    let mut meets = Vec::new();
    for code in ["F124", "F125"] {
        for form in rule_forms(rules.rule(code).unwrap()) {
            let abs = form.form.contains(".abs");
            let mut values = if abs {
                magnitude(form.form.contains(".ftz"))
            } else {
                EDGES.to_vec()
            };
            for extra in [0x7fff_ffff, 0, 0x8000_0000] {
                if !values.contains(&extra) {
                    values.push(extra);
                }
            }
            let pairs: Vec<u32> = values
                .iter()
                .flat_map(|&x| values.iter().flat_map(move |&y| [x, y]))
                .collect();
            let two = if code == "F124" { "F013" } else { "F014" };
            forms.push(form_named(&rules, two, &form.form.replace(".abs", "")));
            inputs.push(bytes(&pairs));
            forms.push(form);
            inputs.push(bytes(&triples));
            meets.push((abs, values, pairs));
        }
    }
    let out = run_on_host(&rules, &forms, &inputs);
    let mut checked = 0;
    for (k, (abs, values, pairs)) in meets.iter().enumerate() {
        let form = &forms[2 * k + 1].form;
        let table: HashMap<(u32, u32), u32> = pairs
            .chunks(2)
            .zip(words(&out[2 * k]))
            .map(|(p, d)| ((p[0], p[1]), d))
            .collect();
        let m = |x: u32, y: u32| {
            *table
                .get(&(x, y))
                .unwrap_or_else(|| panic!("{form}: {x:#x} {y:#x} outside the table"))
        };
        let mag = |x: u32| match EDGES.iter().position(|&e| e == x) {
            Some(i) if *abs => values[i],
            _ => x,
        };
        for (t, d) in triples.chunks(3).zip(words(&out[2 * k + 1])) {
            let (a, b, c) = (mag(t[0]), mag(t[1]), mag(t[2]));
            let pairings = [m(m(a, b), c), m(a, m(b, c)), m(m(a, c), b)];
            assert!(
                pairings.iter().all(|&p| p == d),
                "{form} of {t:x?}: {d:#x}, pairings {pairings:x?}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 16 * 64000);
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The 16-bit encoding of an f32 that f16 (`bf16 == false`) or bf16 represents exactly (NaNs
/// as a quiet NaN of their sign: a NaN operand gives the canonical NaN either way).
fn narrow(x: u32, bf16: bool) -> Option<u16> {
    let f = f32::from_bits(x);
    if f.is_nan() {
        return Some(if bf16 { 0x7fc0 } else { 0x7e00 } | ((x >> 16) as u16 & 0x8000));
    }
    if bf16 {
        return (x & 0xffff == 0).then_some((x >> 16) as u16);
    }
    let h = half_bits(f)?;
    (half_value(h).to_bits() == x).then_some(h)
}

/// The f16 encoding of `f` when f16 holds it exactly (`None` otherwise), from its magnitude.
fn half_bits(f: f32) -> Option<u16> {
    let (sign, a) = (if f.is_sign_negative() { 0x8000u16 } else { 0 }, f.abs());
    if a.is_infinite() {
        return Some(sign | 0x7c00);
    }
    if a == 0.0 {
        return Some(sign);
    }
    // f16 values are k * 2^-24 for k < 2^11 * 2^e: scan the 31 binades.
    let units = a * 16_777_216.0; // a / 2^-24, exact for a power-of-two scale
    if units < 1024.0 {
        let k = units as u16;
        return (f32::from(k) == units).then_some(sign | k);
    }
    let exp = a.log2().floor() as i32;
    if !(-14..=15).contains(&exp) {
        return None;
    }
    let mantissa = a / 2f32.powi(exp) * 1024.0 - 1024.0;
    (mantissa.fract() == 0.0).then(|| sign | (((exp + 15) as u16) << 10) | mantissa as u16)
}

fn half_value(h: u16) -> f32 {
    let (sign, e, m) = (h >> 15, (h >> 10) & 0x1f, f32::from(h & 0x3ff));
    let v = match e {
        0 => m * 2f32.powi(-24),
        31 => f32::INFINITY,
        _ => (1.0 + m / 1024.0) * 2f32.powi(i32::from(e) - 15),
    };
    if sign == 1 {
        -v
    } else {
        v
    }
}

/// `add/sub{.rnd}{.sat}.f32.{f16,bf16}` and `fma.rnd{.sat}.f32.{f16,bf16}` (F126-F128): every form
/// against the recorded vectors of the f32 form with the same modifiers whose 16-bit operands
/// (a; a and b for fma) the 16-bit type holds exactly: for those the ISA's exact conversion
/// makes the mixed form compute what the H100 recorded.
#[test]
fn mixed_precision_forms_give_the_recorded_f32_results_of_their_exact_operands() {
    let rules = RuleSet::embedded().unwrap();
    let file = golden("float");
    let recorded: HashMap<&str, &FormVectors> =
        file.forms.iter().map(|f| (f.form.as_str(), f)).collect();
    let (mut forms, mut vectors, mut inputs) = (Vec::new(), Vec::new(), Vec::new());
    for code in ["F126", "F127", "F128"] {
        let rule = rules.rule(code).unwrap();
        let pieces = &rule.decomposition.as_ref().unwrap().rules;
        for form in rule_forms(rule) {
            let bf16 = form.form.ends_with(".bf16");
            let element = form.form.trim_end_matches(".bf16").trim_end_matches(".f16");
            let piece = recorded
                .get(element)
                .unwrap_or_else(|| panic!("{code} {}: `{element}` has no recording", form.form));
            assert!(
                pieces.contains(&piece.rule),
                "{code}: {element} is {}",
                piece.rule
            );
            let narrowed = if code == "F128" { 2 } else { 1 };
            let (mut x, mut full, mut count) = (Vec::new(), Vec::new(), 0u32);
            for k in 0..piece.full_index.len() {
                let (_, xs, y) = piece.record(k);
                let ops = words(xs);
                let Some(short) = ops[..narrowed]
                    .iter()
                    .map(|&v| narrow(v, bf16))
                    .collect::<Option<Vec<u16>>>()
                else {
                    continue;
                };
                let start = x.len();
                for h in &short {
                    x.extend_from_slice(&h.to_le_bytes());
                }
                for w in &ops[narrowed..] {
                    x.extend_from_slice(&w.to_le_bytes());
                }
                full.extend_from_slice(&x[start..]);
                full.extend_from_slice(y);
                count += 1;
            }
            assert!(
                count >= 50,
                "{}: only {count} recorded vectors with 16-bit operands",
                form.form
            );
            assert_eq!(x.len(), count as usize * form.in_bytes(), "{}", form.form);
            vectors.push(FormVectors {
                form: form.form.clone(),
                rule: form.rule.clone(),
                ptx: form.ptx.clone(),
                in_bytes: form.in_bytes(),
                out_bytes: form.out_bytes(),
                count: count as usize,
                chunk: 0,
                full_index: (0..count).collect(),
                full,
                digests: Vec::new(),
            });
            inputs.push((x, count as usize));
            forms.push(form);
        }
    }
    assert_eq!(
        forms.len(),
        2 * (2 * 10) + 2 * 8,
        "every rounding, .sat, and 16-bit type"
    );
    // Both targets: the amd code of the pieces (the f16 widening, the f32 arithmetic) is its own,
    // replayed through the host models of the AMD instructions it uses.
    let models =
        std::fs::read_to_string(ptx2hip_verify::repo_root().join("tests/amd_models.h")).unwrap();
    let refs: Vec<&FormVectors> = vectors.iter().collect();
    let mut replayed = 0;
    for (target, prelude) in [(Target::Portable, ""), (Target::Amd, models.as_str())] {
        let dir = tempfile::tempdir().unwrap();
        let report = check_with_inputs(
            &forms,
            &refs,
            Some(&inputs),
            &rules,
            target,
            prelude,
            &cxx(),
            dir.path(),
        )
        .unwrap();
        for m in &report.examples {
            eprintln!(
                "MISMATCH ({target}) {} {}: inputs [{}] H100 [{}] translation [{}]",
                m.rule, m.form, m.input, m.expected, m.got
            );
        }
        assert_eq!(report.mismatches, 0, "{target}: of {}", report.vectors);
        replayed = report.vectors;
    }
    eprintln!(
        "mixed precision: {} forms, {replayed} vectors per target, 0 mismatches",
        forms.len()
    );
}

/// An OCP MX format as the ISA specifies it: fraction bits, exponent bits (bias
/// 2^(exponent bits - 1) - 1, subnormals, every encoding finite).
#[derive(Clone, Copy, Debug)]
struct Small {
    mb: u32,
    eb: u32,
}

const E2M1: Small = Small { mb: 1, eb: 2 };
const E2M3: Small = Small { mb: 3, eb: 2 };
const E3M2: Small = Small { mb: 2, eb: 3 };

impl Small {
    /// The largest magnitude code.
    fn top(self) -> u32 {
        (1 << (self.mb + self.eb)) - 1
    }

    /// The value of magnitude code `c`.
    fn value(self, c: u32) -> f64 {
        let bias = (1 << (self.eb - 1)) - 1;
        let (ex, frac) = ((c >> self.mb) as i32, f64::from(c & ((1 << self.mb) - 1)));
        let scale = f64::from(1u32 << self.mb);
        if ex == 0 {
            frac / scale * 2f64.powi(1 - bias)
        } else {
            (1.0 + frac / scale) * 2f64.powi(ex - bias)
        }
    }

    /// `cvt.rn.satfinite{.relu}` of one f32 as the ISA defines it: the nearest value of the grid,
    /// ties to the even code; beyond the largest magnitude (infinities too) the largest of the
    /// sign; NaN the positive largest; under `.relu` a negative input +0.
    fn narrow(self, x: f32, relu: bool) -> u32 {
        if x.is_nan() {
            return self.top();
        }
        let sign = u32::from(x.is_sign_negative());
        if relu && sign == 1 {
            return 0;
        }
        let a = f64::from(x.abs());
        let code = if a >= self.value(self.top()) {
            self.top()
        } else {
            (0..=self.top())
                .min_by(|&c, &d| {
                    let (dc, dd) = ((self.value(c) - a).abs(), (self.value(d) - a).abs());
                    dc.partial_cmp(&dd).unwrap().then((c & 1).cmp(&(d & 1)))
                })
                .unwrap()
        };
        sign << (self.mb + self.eb) | code
    }

    /// `cvt.rn{.relu}.f16x2` of one code: its value as f16 bits (exact); under `.relu` a
    /// negative code (-0 too) gives +0.
    fn widen(self, code: u32, relu: bool) -> u32 {
        let sign = (code >> (self.mb + self.eb)) & 1;
        if relu && sign == 1 {
            return 0;
        }
        let v = self.value(code & self.top());
        let magnitude = if v == 0.0 {
            0
        } else if v < 2f64.powi(-14) {
            (v / 2f64.powi(-24)) as u32
        } else {
            let e = v.log2().floor() as i32;
            ((e + 15) as u32) << 10 | ((v / 2f64.powi(e) - 1.0) * 1024.0) as u32
        };
        sign << 15 | magnitude
    }
}

/// Every f32 within 4 ulps of a value of the grid, of a midpoint between two neighbouring values,
/// or of the largest value plus half a step, of both signs; zeros, subnormals, the largest
/// finite values, infinities and NaNs; and every 4099th bit pattern.
fn narrowing_inputs(f: Small) -> Vec<f32> {
    let mut points: Vec<f64> = (0..=f.top()).map(|c| f.value(c)).collect();
    let mids: Vec<f64> = points.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
    let step = f.value(f.top()) - f.value(f.top() - 1);
    points.extend(mids);
    points.push(f.value(f.top()) + step / 2.0);
    let mut bits: Vec<u32> = Vec::new();
    for p in points {
        let b = (p as f32).to_bits();
        for d in 0..=4u32 {
            for v in [b.wrapping_add(d), b.wrapping_sub(d)] {
                bits.extend([v, v | 0x8000_0000]);
            }
        }
    }
    bits.extend([
        1,
        0x007f_ffff,
        0x7f7f_ffff,
        0x7f80_0000,
        0x7fc0_0000,
        0x7f80_0001,
        0x7fff_ffff,
    ]);
    bits.extend(bits.clone().iter().map(|b| b | 0x8000_0000));
    bits.extend((0..=u32::MAX / 4099).map(|k| k * 4099));
    bits.into_iter().map(f32::from_bits).collect()
}

fn le(bytes: &[u8], width: usize) -> Vec<u32> {
    bytes
        .chunks(width)
        .map(|c| c.iter().rev().fold(0u32, |w, &b| w << 8 | u32::from(b)))
        .collect()
}

fn packed(values: &[u32], width: usize) -> Vec<u8> {
    values
        .iter()
        .flat_map(|v| v.to_le_bytes()[..width].to_vec())
        .collect()
}

/// `cvt.rn.satfinite{.relu}.{e2m1x2,e2m3x2,e3m2x2}.f32` (C120, C121) against the ISA's
/// definition at every rounding boundary and over a dense sample of all f32 values, both
/// elements of the pair; and the widenings (C122, C123) for every input.
#[test]
fn fp4_and_fp6_conversions_follow_the_isa_value_tables() {
    let rules = RuleSet::embedded().unwrap();
    let mut forms = Vec::new();
    let mut inputs = Vec::new();
    let mut expected = Vec::new();
    for (code, format, shift, dest) in [
        ("C120", E2M1, 4, "e2m1x2"),
        ("C121", E2M3, 8, "e2m3x2"),
        ("C121", E3M2, 8, "e3m2x2"),
    ] {
        for relu in [false, true] {
            let name = format!(
                "cvt.rn.satfinite{}.{dest}.f32",
                if relu { ".relu" } else { "" }
            );
            let form = form_named(&rules, code, &name);
            assert_eq!(form.in_bytes(), 8, "{name}: two f32 inputs");
            let xs = narrowing_inputs(format);
            let n = xs.len();
            let (mut x, mut want) = (Vec::new(), Vec::new());
            for i in 0..n {
                let (a, b) = (xs[i], xs[(i * 7 + 1) % n]);
                x.extend_from_slice(&a.to_le_bytes());
                x.extend_from_slice(&b.to_le_bytes());
                want.push(format.narrow(a, relu) << shift | format.narrow(b, relu));
            }
            forms.push(form);
            inputs.push(x);
            expected.push(want);
        }
    }
    for (code, format, dest, count) in [
        ("C122", E2M1, "e2m1x2", 256u32),
        ("C123", E2M3, "e2m3x2", 1 << 16),
        ("C123", E3M2, "e3m2x2", 1 << 16),
    ] {
        for relu in [false, true] {
            let name = format!("cvt.rn{}.f16x2.{dest}", if relu { ".relu" } else { "" });
            let form = form_named(&rules, code, &name);
            let width = form.in_bytes();
            let (bits, shift) = if count == 256 { (4, 4) } else { (6, 8) };
            let a: Vec<u32> = (0..count).collect();
            let field = |v: u32, at: u32| (v >> at) & ((1 << bits) - 1);
            let want = a
                .iter()
                .map(|&v| {
                    format.widen(field(v, shift), relu) << 16 | format.widen(field(v, 0), relu)
                })
                .collect();
            inputs.push(packed(&a, width));
            expected.push(want);
            forms.push(form);
        }
    }
    // Both targets: the amd code of the FP4 conversions is its own (rounding the f32's bits, a
    // table), plain C++ that runs on the host.
    let mut checked = 0;
    for target in [Target::Portable, Target::Amd] {
        let out = run_target_on_host(&rules, target, &forms, &inputs);
        for ((form, got), want) in forms.iter().zip(&out).zip(&expected) {
            let got = le(got, form.out_bytes());
            assert_eq!(got.len(), want.len(), "{}", form.form);
            for (k, (g, w)) in got.iter().zip(want).enumerate() {
                assert_eq!(
                    g, w,
                    "{} ({target}) vector {k}: {g:#x}, the ISA gives {w:#x}",
                    form.form
                );
            }
            checked += got.len();
        }
    }
    assert!(checked > 12_000_000, "{checked}");
    eprintln!(
        "fp4/fp6: {} forms, {checked} conversions, as the ISA's tables",
        forms.len()
    );
}
