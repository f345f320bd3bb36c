//! The device helpers of the tensor-core model (`rules/helpers/tensor_model.h`, as the rule table
//! emits them) agree bit for bit with the Rust reference (`ptx2hip_verify::matrix::model`):
//!
//! - `helpers_match_the_reference_model`: for every architecture, element format, accumulator
//!   type and K of the mma shapes, under the default choices and under every choice flipped,
//!   thousands of random and crafted cases (zeros of both signs, subnormals, Inf, NaN, huge and
//!   tiny mixes, terms exactly at the truncation point, tf32 low bits, sums above FLT_MAX, f16
//!   ties) go through `ptx2hip_tc_dot` compiled on the host with `$CXX` (default g++).
//! - `helpers_compile_for_amd`: every instantiation as HIP device code (clang-19; gfx90a, gfx942,
//!   gfx1100), without warnings, with f32 denormals kept (the helpers rely on it).

use crate::common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use ptx2hip_core::lower::{RuleSet, Target};
use ptx2hip_verify::matrix::model::{dot_mixed, Accum, Arch, Choices, Format};

/// One model form: what `ptx2hip_tc_dot<Model, Format, Accum, K>` is instantiated with.
#[derive(Clone, Copy, Debug)]
struct Form {
    arch: Arch,
    format: Format,
    /// B's format: `format` but for the fp8 mixes.
    b_format: Format,
    accum: Accum,
    k: usize,
}

const ARCHS: [Arch; 2] = [Arch::Sm90, Arch::Sm80];
const FORMATS: [Format; 5] = [
    Format::F16,
    Format::Bf16,
    Format::Tf32,
    Format::E4m3,
    Format::E5m2,
];

/// Every (architecture, formats, accumulator, K) of the mma shapes (f16/bf16: m8n8k4, m16n8k8,
/// m16n8k16; tf32: m16n8k4, m16n8k8; fp8 and its mixes: m16n8k16, m16n8k32), both accumulator
/// types for all (the model is defined for them; PTX allows f16 C/D for f16 and fp8 only).
fn forms() -> Vec<Form> {
    let mut forms = Vec::new();
    for arch in ARCHS {
        for format in FORMATS {
            if arch.block(format).is_none() {
                continue;
            }
            let ks: &[usize] = match format {
                Format::F16 | Format::Bf16 => &[4, 8, 16],
                Format::Tf32 => &[4, 8],
                Format::E4m3 | Format::E5m2 => &[16, 32],
            };
            let b_formats: &[Format] = match format {
                Format::E4m3 | Format::E5m2 => &[Format::E4m3, Format::E5m2],
                _ => &[format],
            };
            for &k in ks {
                for &b_format in b_formats {
                    for accum in [Accum::F32, Accum::F16] {
                        forms.push(Form {
                            arch,
                            format,
                            b_format,
                            accum,
                            k,
                        });
                    }
                }
            }
        }
    }
    forms
}

/// The default choices and each choice flipped at once.
fn choice_sets() -> [Choices; 2] {
    let d = Choices::DEFAULT;
    [
        d,
        Choices {
            zero_products_in_e: !d.zero_products_in_e,
            ieee_zero_sign: !d.ieee_zero_sign,
            subnormal_outputs: !d.subnormal_outputs,
            overflow_to_inf: !d.overflow_to_inf,
            align_clamp: !d.align_clamp,
            tf32_truncate: !d.tf32_truncate,
            fp8_f16_via_e8m13: !d.fp8_f16_via_e8m13,
        },
    ]
}

fn cpp_model(arch: Arch) -> &'static str {
    match arch {
        Arch::Sm90 => "ptx2hip_tc_sm90",
        Arch::Sm80 => "ptx2hip_tc_sm80",
    }
}

fn cpp_format(format: Format) -> &'static str {
    match format {
        Format::F16 => "ptx2hip_tc_f16",
        Format::Bf16 => "ptx2hip_tc_bf16",
        Format::Tf32 => "ptx2hip_tc_tf32",
        Format::E4m3 => "ptx2hip_tc_e4m3",
        Format::E5m2 => "ptx2hip_tc_e5m2",
    }
}

fn cpp_accum(accum: Accum) -> &'static str {
    match accum {
        Accum::F32 => "ptx2hip_tc_acc_f32",
        Accum::F16 => "ptx2hip_tc_acc_f16",
    }
}

/// SplitMix64: a fixed-seed generator, so that a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn bits(&mut self, n: u32) -> u32 {
        (self.next() & ((1u64 << n) - 1)) as u32
    }

    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

/// (exponent bits, fraction bits) of an element format as the generator builds it (tf32: the top
/// 19 bits of the f32 register).
fn layout(format: Format) -> (u32, u32) {
    match format {
        Format::F16 => (5, 10),
        Format::Bf16 => (8, 7),
        Format::Tf32 => (8, 10),
        Format::E4m3 => (4, 3),
        Format::E5m2 => (5, 2),
    }
}

/// How a case's elements are drawn.
#[derive(Clone, Copy)]
enum Style {
    /// Uniform raw bits (many specials in fp8).
    Raw,
    /// Exponents in a narrow window around 1: cancellation and carries.
    Near,
    /// Each element a zero of either sign, a subnormal, the least normal, the largest finite or
    /// a value near 1.
    Edges,
    /// Values near 1 with one or two Inf, NaN or zero elements (Inf × 0, Inf − Inf).
    Specials,
    /// Pairs of products that cancel exactly, one element nudged: zero sums of either sign and
    /// tiny remainders.
    Cancel,
    /// Exponents near e_min: subnormal and underflowing results.
    Tiny,
    /// Products spread over the truncation window below the largest (exactly at the point too).
    Window,
    /// Large values of one sign: sums above the output range.
    Huge,
    /// Small integers times one power of two: sums on rounding ties.
    Ties,
}

const STYLES: [Style; 9] = [
    Style::Raw,
    Style::Near,
    Style::Edges,
    Style::Specials,
    Style::Cancel,
    Style::Tiny,
    Style::Window,
    Style::Huge,
    Style::Ties,
];

/// An element `±1.frac·2^(field − bias)` with the field given (clamped to the finite range).
fn element(format: Format, neg: bool, field: i64, frac: u32) -> u32 {
    let (eb, fb) = layout(format);
    let top = (1i64 << eb) - 1;
    // e4m3 keeps its all-ones exponent for finite values except S.1111.111.
    let max_field = if format == Format::E4m3 { top } else { top - 1 };
    let field = field.clamp(0, max_field) as u32;
    let frac = if format == Format::E4m3 && field as i64 == top {
        frac.min((1 << fb) - 2)
    } else {
        frac
    };
    u32::from(neg) << (eb + fb) | field << fb | frac
}

/// Raw bits of one element of `format` (before the tf32 low bits).
fn draw(rng: &mut Rng, format: Format, style: Style, base: i64) -> u32 {
    let (eb, fb) = layout(format);
    let bias = (1i64 << (eb - 1)) - 1;
    let neg = rng.coin();
    match style {
        Style::Raw => rng.bits(1 + eb + fb),
        Style::Edges => match rng.below(8) {
            0 => u32::from(neg) << (eb + fb),
            1 => element(format, neg, 0, rng.bits(fb)),
            2 => element(format, neg, 0, 1),
            3 => element(format, neg, (1 << eb) - 2, (1 << fb) - 1),
            4 => element(format, neg, 1, 0),
            _ => element(format, neg, bias + rng.below(3) as i64 - 1, rng.bits(fb)),
        },
        Style::Near | Style::Specials => {
            element(format, neg, bias + rng.below(5) as i64 - 2, rng.bits(fb))
        }
        Style::Cancel => element(format, neg, base - rng.below(12) as i64, rng.bits(fb)),
        Style::Tiny => element(format, neg, rng.below(4) as i64, rng.bits(fb)),
        Style::Window => {
            let drop = rng.below(16) as i64;
            element(format, neg, base - drop, rng.bits(fb))
        }
        Style::Huge => element(
            format,
            false,
            (1 << eb) - 2 - rng.below(3) as i64,
            rng.bits(fb),
        ),
        Style::Ties => {
            let small = rng.below(16) as u32;
            if small == 0 {
                return 0;
            }
            // small · 2^(base − bias): normalise the integer into 1.frac.
            let lead = 31 - small.leading_zeros();
            let frac = (small << fb >> lead) & ((1 << fb) - 1);
            element(format, neg, base + i64::from(lead), frac)
        }
    }
}

/// An infinity, a NaN or a zero of `format` (e4m3 has no infinity: NaN instead).
fn special(rng: &mut Rng, format: Format) -> u32 {
    let (eb, fb) = layout(format);
    let sign = u32::from(rng.coin()) << (eb + fb);
    match rng.below(3) {
        0 => sign,
        1 if format == Format::E4m3 => sign | 0x7F,
        1 => sign | ((1 << eb) - 1) << fb,
        _ => sign | ((1 << eb) - 1) << fb | ((1 << fb) - 1),
    }
}

/// The register bits of an element: tf32 fills the f32 register's low 13 bits at random.
fn register(rng: &mut Rng, format: Format, bits: u32) -> u32 {
    match format {
        Format::Tf32 => bits << 13 | rng.bits(13),
        _ => bits,
    }
}

/// The accumulator of a case.
fn draw_c(rng: &mut Rng, accum: Accum, style: Style) -> u32 {
    let (eb, fb, bias) = match accum {
        Accum::F32 => (8u32, 23u32, 127i64),
        Accum::F16 => (5, 10, 15),
    };
    let sign = u32::from(rng.coin()) << (eb + fb);
    let field = |f: i64| (f.clamp(0, (1 << eb) - 2) as u32) << fb;
    match (style, rng.below(8)) {
        (_, 0) => sign,
        (_, 1) => 0,
        (Style::Raw, _) => rng.bits(1 + eb + fb),
        (Style::Specials, 2) => sign | ((1 << eb) - 1) << fb,
        (Style::Specials, 3) => sign | ((1 << eb) - 1) << fb | rng.bits(fb).max(1),
        (Style::Edges | Style::Cancel | Style::Tiny, 2..=4) => sign | rng.bits(fb),
        (Style::Cancel | Style::Tiny, _) => sign | field(1 + rng.below(3) as i64) | rng.bits(fb),
        (Style::Huge, _) => field((1 << eb) - 2 - rng.below(2) as i64) | rng.bits(fb),
        (Style::Ties, _) => sign | field(bias + rng.below(3) as i64 - 1),
        _ => sign | field(bias + rng.below(7) as i64 - 3) | rng.bits(fb),
    }
}

struct Case {
    form: usize,
    choices: usize,
    a: Vec<u32>,
    b: Vec<u32>,
    c: u32,
}

fn cases(forms: &[Form], per_form: usize) -> Vec<Case> {
    let mut rng = Rng(0x7E45_0C0D_E000_0020);
    let mut out = Vec::new();
    for (fi, form) in forms.iter().enumerate() {
        let (eb, _) = layout(form.format);
        let bias = (1i64 << (eb - 1)) - 1;
        for choices in 0..choice_sets().len() {
            let n = if choices == 0 { per_form } else { per_form / 4 };
            for i in 0..n {
                let style = STYLES[i % STYLES.len()];
                let base = match style {
                    Style::Ties => bias - 4 - rng.below(4) as i64,
                    _ => bias + rng.below(2 * bias as u64 + 1) as i64 - bias,
                };
                let mut a = Vec::with_capacity(form.k);
                let mut b = Vec::with_capacity(form.k);
                for _ in 0..form.k {
                    let x = draw(&mut rng, form.format, style, base);
                    let y = draw(&mut rng, form.b_format, style, bias);
                    a.push(register(&mut rng, form.format, x));
                    b.push(register(&mut rng, form.b_format, y));
                }
                match style {
                    Style::Specials => {
                        for _ in 0..1 + rng.below(2) {
                            let at = rng.below(form.k as u64) as usize;
                            if rng.coin() {
                                let x = special(&mut rng, form.format);
                                a[at] = register(&mut rng, form.format, x);
                            } else {
                                let x = special(&mut rng, form.b_format);
                                b[at] = register(&mut rng, form.b_format, x);
                            }
                        }
                    }
                    Style::Cancel => {
                        let (eb, fb) = layout(form.format);
                        // The lowest bit of the value (tf32: and an ignored bit).
                        let low = if form.format == Format::Tf32 {
                            0x2001
                        } else {
                            1
                        };
                        let sign = if form.format == Format::Tf32 {
                            1 << 31
                        } else {
                            1 << (eb + fb)
                        };
                        for i in (0..form.k - 1).step_by(2) {
                            a[i + 1] = a[i] ^ sign;
                            b[i + 1] = b[i];
                        }
                        if rng.coin() {
                            a[rng.below(form.k as u64) as usize] ^= low;
                        }
                    }
                    _ => {}
                }
                let c = draw_c(&mut rng, form.accum, style);
                out.push(Case {
                    form: fi,
                    choices,
                    a,
                    b,
                    c,
                });
            }
        }
    }
    out
}

/// The helpers as the rule table emits them for `--target amd`, with what they require.
fn helpers() -> String {
    let rules = RuleSet::embedded().expect("rule table loads");
    let roots = ["ptx2hip_tc_dot", "ptx2hip_tc_sm90", "ptx2hip_tc_sm80"].map(String::from);
    rules.helper_definitions(roots.iter(), Target::Amd)
}

/// The model structs of one choice set: the architecture's struct with the choices redefined.
fn model_structs(set: usize, choices: &Choices) -> String {
    let mut s = String::new();
    for arch in ARCHS {
        let base = cpp_model(arch);
        let _ = writeln!(s, "struct {base}_{set} : {base} {{");
        for (name, value) in [
            ("zero_products_in_e", choices.zero_products_in_e),
            ("ieee_zero_sign", choices.ieee_zero_sign),
            ("subnormal_outputs", choices.subnormal_outputs),
            ("overflow_to_inf", choices.overflow_to_inf),
            ("align_clamp", choices.align_clamp),
            ("tf32_truncate", choices.tf32_truncate),
            ("fp8_f16_via_e8m13", choices.fp8_f16_via_e8m13),
        ] {
            let _ = writeln!(s, "  static constexpr bool {name} = {value};");
        }
        s.push_str("};\n");
    }
    s
}

/// `tensor_model_check.cpp`: reads `FORM CHOICES C A… B…` lines (hex), prints the helper's result.
fn driver(forms: &[Form]) -> String {
    let sets = choice_sets();
    let mut s = String::from(
        "#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n#include <math.h>\n#define __device__\n",
    );
    s.push_str(&helpers());
    for (i, ch) in sets.iter().enumerate() {
        s.push_str(&model_structs(i, ch));
    }
    s.push_str("static uint32_t run(int form, int set, const uint32_t* x, const uint32_t* y, uint32_t c) {\n");
    for (fi, f) in forms.iter().enumerate() {
        for set in 0..sets.len() {
            let _ = writeln!(
                s,
                "  if (form == {fi} && set == {set}) {{ uint32_t a[{k}], b[{k}]; memcpy(a, x, sizeof a); memcpy(b, y, sizeof b); return ptx2hip_tc_dot<{m}_{set}, {fmt}, {acc}, {k}, {fb}>(a, b, c); }}",
                k = f.k,
                m = cpp_model(f.arch),
                fmt = cpp_format(f.format),
                fb = cpp_format(f.b_format),
                acc = cpp_accum(f.accum),
            );
        }
    }
    s.push_str("  return 0xdeadbeefu;\n}\n");
    s.push_str(
        r#"int main() {
  int form, set, k;
  unsigned c;
  while (scanf("%d %d %d %x", &form, &set, &k, &c) == 4) {
    uint32_t a[32], b[32];
    for (int i = 0; i < k; ++i) scanf("%x", &a[i]);
    for (int i = 0; i < k; ++i) scanf("%x", &b[i]);
    printf("%x\n", run(form, set, a, b, c));
  }
  return 0;
}
"#,
    );
    s
}

fn work_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn helpers_match_the_reference_model() {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".to_string());
    if !common::installed(&cxx) {
        return common::skip(&cxx, "the tensor-model helpers against the Rust model");
    }
    let forms = forms();
    let sets = choice_sets();
    let cases = cases(&forms, 3000);
    let dir = work_dir("tensor_model");
    let mut input = String::new();
    for case in &cases {
        let _ = write!(
            input,
            "{} {} {} {:x}",
            case.form,
            case.choices,
            case.a.len(),
            case.c
        );
        for x in case.a.iter().chain(&case.b) {
            let _ = write!(input, " {x:x}");
        }
        input.push('\n');
    }
    let got = common::host_program_words(&cxx, &dir, "tensor_model_check", &driver(&forms), &input);
    assert_eq!(got.len(), cases.len(), "the driver answered every case");
    let mut failures = Vec::new();
    for (case, &helper) in cases.iter().zip(&got) {
        let f = forms[case.form];
        let want = dot_mixed(
            f.arch,
            (f.format, f.b_format),
            f.accum,
            &case.a,
            &case.b,
            case.c,
            &sets[case.choices],
        )
        .expect("a modelled form");
        if helper != want {
            failures.push(format!(
                "{f:?} choices {}: c {:x} a {:x?} b {:x?}: helper {helper:x}, model {want:x}",
                case.choices, case.c, case.a, case.b
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ, first:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

/// One kernel per form: `ptx2hip_tc_dot` on elements and accumulators read from global memory.
fn kernels(forms: &[Form]) -> String {
    let mut s =
        String::from("#include <hip/hip_runtime.h>\n#include <stdint.h>\n#include <string.h>\n");
    s.push_str(&helpers());
    for (i, f) in forms.iter().enumerate() {
        let _ = writeln!(
            s,
            "__global__ void dot_{i}(const uint32_t* x, uint32_t* d) {{\n  uint32_t a[{k}], b[{k}];\n  for (int k = 0; k < {k}; ++k) {{\n    a[k] = x[threadIdx.x * {w} + k];\n    b[k] = x[threadIdx.x * {w} + {k} + k];\n  }}\n  d[threadIdx.x] = ptx2hip_tc_dot<{m}, {fmt}, {acc}, {k}, {fb}>(a, b, x[threadIdx.x * {w} + {w} - 1]);\n}}",
            k = f.k,
            fb = cpp_format(f.b_format),
            w = 2 * f.k + 1,
            m = cpp_model(f.arch),
            fmt = cpp_format(f.format),
            acc = cpp_accum(f.accum),
        );
    }
    s
}

#[test]
fn helpers_compile_for_amd() {
    const CLANG: &str = "clang-19";
    if !common::installed(CLANG) {
        return common::skip(CLANG, "the HIP compile check of the tensor-model helpers");
    }
    let dir = work_dir("tensor_model_amd");
    let src = dir.join("tensor_model_kernels.hip");
    std::fs::write(&src, kernels(&forms())).unwrap();
    let jobs: Vec<(String, Vec<String>)> = [
        ("gfx90a", None),
        ("gfx942", None),
        ("gfx1100", None),
        ("gfx1100", Some("-mwavefrontsize64")),
    ]
    .iter()
    .map(|(arch, wave)| {
        let asm = dir.join(format!("kernels-{arch}{}.s", wave.unwrap_or("")));
        let mut args: Vec<String> = [
            "-x",
            "hip",
            "-std=c++17",
            "-nogpulib",
            "-Wall",
            "-Wextra",
            "--cuda-device-only",
            "-O2",
            "-S",
        ]
        .map(String::from)
        .into();
        args.push(format!("--offload-arch={arch}"));
        args.extend(wave.map(String::from));
        args.extend([
            src.display().to_string(),
            "-o".into(),
            asm.display().to_string(),
        ]);
        (format!("{arch} {}", wave.unwrap_or("")), args)
    })
    .collect();
    common::in_parallel(jobs, |(label, args)| {
        let out = Command::new(CLANG).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !stderr.contains("warning"),
            "{label}: clang-19 {}\n{stderr}",
            args.join(" ")
        );
        // The helpers convert bf16/tf32 subnormals and round subnormal f32 results through f32
        // instructions: the kernels must keep f32 denormals (mode 3: inputs and outputs).
        let asm = std::fs::read_to_string(args.last().unwrap()).unwrap();
        let modes: Vec<&str> = asm
            .lines()
            .filter(|l| l.contains(".amdhsa_float_denorm_mode_32"))
            .collect();
        assert!(!modes.is_empty(), "{label}: no kernel descriptor");
        assert!(
            modes.iter().all(|l| l.trim_end().ends_with(" 3")),
            "{label}: f32 denormals flushed: {modes:?}"
        );
    });
}
