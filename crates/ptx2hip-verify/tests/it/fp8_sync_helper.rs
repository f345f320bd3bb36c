//! The device helper of fp8 `mma.sync` (`ptx2hip_tc_fp8_sync` with `ptx2hip_tc_fp8_elem`, in
//! `rules/helpers/tensor_model.h`, as the rule table emits it) computes what the Rust reference
//! `model::dot_fp8_sync` computes, bit for bit: every pair of fp8 formats, both accumulator types,
//! K = 16 and 32, on random bytes (NaN, Inf, subnormals), values near one another (truncation
//! and cancellation inside a block) and exactly cancelling pairs, with C drawn from zeros of both
//! signs, subnormals, specials, values near the sum (the final IEEE addition's rounding) and
//! random bits. Compiled on the host with `$CXX` (default g++). `tests/it/matrix.rs` checks the
//! whole translation against the H100 recording; this covers inputs the recording has not.

use crate::common;

use std::fmt::Write as _;

use ptx2hip_core::lower::{RuleSet, Target};
use ptx2hip_verify::matrix::model::{dot_fp8_sync, Accum, Choices, Format};

/// SplitMix64: a fixed seed, so that a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u32 {
        (self.next() % n) as u32
    }
}

#[derive(Clone, Copy, Debug)]
struct Form {
    formats: (Format, Format),
    accum: Accum,
    k: usize,
}

fn forms() -> Vec<Form> {
    let fp8 = [Format::E4m3, Format::E5m2];
    let mut v = Vec::new();
    for a in fp8 {
        for b in fp8 {
            for accum in [Accum::F32, Accum::F16] {
                for k in [16, 32] {
                    v.push(Form {
                        formats: (a, b),
                        accum,
                        k,
                    });
                }
            }
        }
    }
    v
}

fn cpp_format(f: Format) -> &'static str {
    match f {
        Format::E4m3 => "ptx2hip_tc_e4m3",
        _ => "ptx2hip_tc_e5m2",
    }
}

fn cpp_accum(a: Accum) -> &'static str {
    match a {
        Accum::F32 => "ptx2hip_tc_acc_f32",
        Accum::F16 => "ptx2hip_tc_acc_f16",
    }
}

/// An fp8 byte: any (style 0), or a finite value with its exponent field within 3 of `base`
/// (style 1), so that products share a block's truncation window.
fn element(rng: &mut Rng, format: Format, style: u32, base: u32) -> u32 {
    if style == 0 {
        return rng.below(256);
    }
    let (ebits, fbits) = if format == Format::E4m3 {
        (4, 3)
    } else {
        (5, 2)
    };
    let top = (1 << ebits) - 2; // the largest finite exponent field (e4m3: 14 of 15 kept finite)
    let field = (base + rng.below(4)).min(top);
    (rng.below(2) << 7) | (field << fbits) | rng.below(1 << fbits)
}

/// C: zeros, subnormals, specials, a value near `near` (the blocks' sum) or random bits.
fn accumulator(rng: &mut Rng, accum: Accum, near: f32) -> u32 {
    let f16 = accum == Accum::F16;
    let (sign, inf, nan) = if f16 {
        (0x8000, 0x7C00, 0x7E01)
    } else {
        (0x8000_0000, 0x7F80_0000, 0xFFC0_0001)
    };
    match rng.below(8) {
        0 => 0,
        1 => sign,
        2 => rng.below(if f16 { 0x400 } else { 0x80_0000 }) | (sign * rng.below(2)),
        3 => [inf, inf | sign, nan][rng.below(3) as usize],
        4 | 5 => {
            let x = -near * (1.0 + (rng.below(64) as f32 - 32.0) / 1024.0);
            if f16 {
                f16_near(x) ^ rng.below(4)
            } else {
                x.to_bits() ^ rng.below(16)
            }
        }
        _ => {
            if f16 {
                rng.below(0x1_0000)
            } else {
                rng.next() as u32
            }
        }
    }
}

struct Case {
    form: usize,
    a: Vec<u32>,
    b: Vec<u32>,
    c: u32,
}

fn cases(forms: &[Form], per_form: usize) -> Vec<Case> {
    let mut rng = Rng(0xF85F_C0DE);
    let mut out = Vec::new();
    for (fi, f) in forms.iter().enumerate() {
        for i in 0..per_form {
            let style = (i % 3) as u32;
            let (ba, bb) = (rng.below(12) + 1, rng.below(12) + 1);
            let mut a: Vec<u32> = (0..f.k)
                .map(|_| element(&mut rng, f.formats.0, style.min(1), ba))
                .collect();
            let mut b: Vec<u32> = (0..f.k)
                .map(|_| element(&mut rng, f.formats.1, style.min(1), bb))
                .collect();
            if style == 2 {
                // Pairs that cancel exactly, within a block or across the two.
                let d = [1, 2, 4][rng.below(3) as usize];
                for k in 0..f.k {
                    if k % (2 * d) < d && k + d < f.k && rng.below(2) == 0 {
                        a[k + d] = a[k] ^ 0x80;
                        b[k + d] = b[k];
                    }
                }
            }
            let near = sum_estimate(f, &a, &b);
            let c = accumulator(&mut rng, f.accum, near);
            out.push(Case { form: fi, a, b, c });
        }
    }
    out
}

/// Roughly Σ a·b in f32 (for drawing a C that cancels it); 0 when not finite.
fn sum_estimate(f: &Form, a: &[u32], b: &[u32]) -> f32 {
    let value = |format: Format, x: u32| match format {
        Format::E5m2 => f16_value(x << 8),
        _ => f16_value((x & 0x80) << 8 | (x & 0x7F) << 7) * 256.0,
    };
    let s: f32 = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| value(f.formats.0, x) * value(f.formats.1, y))
        .sum();
    if s.is_finite() {
        s
    } else {
        0.0
    }
}

/// The value of f16 bits.
fn f16_value(h: u32) -> f32 {
    let (e, m) = ((h >> 10) & 0x1F, h & 0x3FF);
    let v = match e {
        0 => m as f32 * 2f32.powi(-24),
        31 if m == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1024 + m) as f32 * 2f32.powi(e as i32 - 25),
    };
    if h & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

/// f16 bits of a value near `x` (truncated; +0 outside the normal f16 range).
fn f16_near(x: f32) -> u32 {
    let b = x.to_bits();
    let e = ((b >> 23) & 0xFF) as i32 - 127;
    if !(-14..=15).contains(&e) {
        return 0;
    }
    (b >> 16 & 0x8000) | ((e + 15) as u32) << 10 | (b >> 13 & 0x3FF)
}

/// The helpers as the rule table emits them for `--target amd`, with what they require.
fn helpers() -> String {
    let rules = RuleSet::embedded().expect("rule table loads");
    rules.helper_definitions(&["ptx2hip_tc_fp8_sync".to_string()], Target::Amd)
}

/// `fp8_sync_check.cpp`: reads `FORM C A… B…` lines (hex), prints the helper's result.
fn driver(forms: &[Form]) -> String {
    let mut s = String::from(
        "#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n#define __device__\n",
    );
    s.push_str(&helpers());
    s.push_str(
        "template <int FA, int FB, int Accum, int K>\n\
         static uint32_t one(const uint32_t* x, const uint32_t* y, uint32_t c) {\n\
         \x20 ptx2hip_tc_elem a[2][K / 2], b[2][K / 2];\n\
         \x20 for (int k = 0; k < K; ++k) {\n\
         \x20   a[(k & 3) >> 1][k / 4 * 2 + (k & 1)] = ptx2hip_tc_fp8_elem<FA>(x[k]);\n\
         \x20   b[(k & 3) >> 1][k / 4 * 2 + (k & 1)] = ptx2hip_tc_fp8_elem<FB>(y[k]);\n\
         \x20 }\n\
         \x20 return ptx2hip_tc_fp8_sync<Accum, K / 2>(a, b, c);\n\
         }\n\
         static uint32_t run(int form, const uint32_t* x, const uint32_t* y, uint32_t c) {\n",
    );
    for (fi, f) in forms.iter().enumerate() {
        let _ = writeln!(
            s,
            "  if (form == {fi}) return one<{}, {}, {}, {}>(x, y, c);",
            cpp_format(f.formats.0),
            cpp_format(f.formats.1),
            cpp_accum(f.accum),
            f.k
        );
    }
    s.push_str(
        r#"  return 0xdeadbeefu;
}
int main() {
  int form, k;
  unsigned c;
  while (scanf("%d %d %x", &form, &k, &c) == 3) {
    uint32_t a[32], b[32];
    for (int i = 0; i < k; ++i) scanf("%x", &a[i]);
    for (int i = 0; i < k; ++i) scanf("%x", &b[i]);
    printf("%x\n", run(form, a, b, c));
  }
  return 0;
}
"#,
    );
    s
}

#[test]
fn the_fp8_helper_is_the_reference_model() {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".to_string());
    if !common::installed(&cxx) {
        return common::skip(&cxx, "the fp8 mma.sync helper against the Rust model");
    }
    let forms = forms();
    let cases = cases(&forms, 3000);
    let dir = tempfile::tempdir().unwrap();
    let mut input = String::new();
    for case in &cases {
        let _ = write!(input, "{} {} {:x}", case.form, case.a.len(), case.c);
        for x in case.a.iter().chain(&case.b) {
            let _ = write!(input, " {x:x}");
        }
        input.push('\n');
    }
    let got =
        common::host_program_words(&cxx, dir.path(), "fp8_sync_check", &driver(&forms), &input);
    assert_eq!(got.len(), cases.len(), "the driver answered every case");
    let mut failures = Vec::new();
    for (case, &helper) in cases.iter().zip(&got) {
        let f = forms[case.form];
        let want = dot_fp8_sync(
            f.formats,
            f.accum,
            &case.a,
            &case.b,
            case.c,
            &Choices::DEFAULT,
        )
        .expect("an fp8 form");
        if helper != want {
            failures.push(format!(
                "{f:?}: c {:x} a {:x?} b {:x?}: helper {helper:x}, model {want:x}",
                case.c, case.a, case.b
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ, first:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(8)].join("\n")
    );
}
