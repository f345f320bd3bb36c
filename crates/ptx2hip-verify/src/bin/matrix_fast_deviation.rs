//! How far the `--fast` mma helpers land from the H100, modelled: each output element as the
//! helper computes it on an AMD processor (`ptx2hip_verify::matrix_fast`, published models of the
//! AMD instructions: no AMD hardware here) against, first, the H100 block-FMA model
//! (`ptx2hip_verify::matrix::model`, which reproduces the published H100 recordings) on random
//! inputs, and second, the H100 itself on the recorded cases of `tests/vectors/matrix/`
//! (docs/MATRIX.md: random and crafted edge cases). Prints the two Markdown tables of
//! docs/MATRIX_FAST.md; with `--wgmma`, the table of docs/WGMMA_FAST.md instead: the `--fast`
//! wgmma helper against the H100 model on random whole tiles of three widths N.
//!
//! `cargo run --release -p ptx2hip-verify --bin matrix_fast_deviation -- [--cases N] [--wgmma]`
//! (N random output elements per form, processor, input distribution and, for wgmma, width;
//! default 100,000).

use ptx2hip_verify::inputs::Rng;
use ptx2hip_verify::matrix::cases::{generate, unpack};
use ptx2hip_verify::matrix::forms::{all_forms, Elem, Operand};
use ptx2hip_verify::matrix::model::{self, Accum, Arch, Format};
use ptx2hip_verify::matrix_fast::{
    fast_dot, fast_dot_f16_acc, value, wgmma_dot, wgmma_dot_f16_acc, Input, Path,
};
use ptx2hip_verify::warp::Recording;

/// How the inputs are drawn.
#[derive(Clone, Copy)]
enum Draw {
    /// Random sign and significand, exponent uniform in −8..=0 (A, B and C): the magnitudes of
    /// typical GEMM operands, where rounding decides the low bits.
    Typical,
    /// Random finite bit patterns (subnormals and extremes included).
    AnyFinite,
}

/// An A or B element; tf32 as a whole f32 register (the bits below tf32 random, as in an f32
/// passed without `cvt.rna.tf32.f32`).
fn element(input: Input, draw: Draw, rng: &mut Rng) -> u32 {
    let (ebits, frac, bias) = match input {
        Input::F16 => (5, 10, 15),
        Input::Bf16 => (8, 7, 127),
        Input::Tf32 => (8, 23, 127),
    };
    let sign = (rng.below(2) as u32) << (ebits + frac);
    let mant = rng.below(1 << frac) as u32;
    let exp = match draw {
        Draw::Typical => (bias - rng.below(9) as i64) as u32,
        Draw::AnyFinite => rng.below((1 << ebits) - 1) as u32,
    };
    sign | exp << frac | mant
}

fn accumulator(draw: Draw, rng: &mut Rng) -> u32 {
    let sign = (rng.below(2) as u32) << 31;
    let mant = rng.below(1 << 23) as u32;
    let exp = match draw {
        Draw::Typical => 127 - rng.below(9) as u32,
        Draw::AnyFinite => rng.below(255) as u32,
    };
    sign | exp << 23 | mant
}

/// Result bits (f32, or f16 in the low 16) on a line where adjacent values are adjacent
/// integers (−0 and +0 both 0).
fn ordered(x: u32, accum: Accum) -> i64 {
    let (mag, neg) = match accum {
        Accum::F32 => (x & 0x7FFF_FFFF, x >> 31 != 0),
        Accum::F16 => (x & 0x7FFF, x & 0x8000 != 0),
    };
    if neg {
        -i64::from(mag)
    } else {
        i64::from(mag)
    }
}

fn result_value(x: u32, accum: Accum) -> f64 {
    match accum {
        Accum::F32 => f64::from(f32::from_bits(x)),
        Accum::F16 => value(Input::F16, x),
    }
}

#[derive(Default)]
struct Tally {
    cases: u64,
    equal: u64,
    /// Both NaN with different bits (the models give AMD NaNs as 0x7FC00000).
    nan_both: u64,
    /// Different results of which at least one is an infinity or NaN (overflow, Inf − Inf).
    special: u64,
    max_ulps: i64,
    max_rel: f64,
}

impl Tally {
    /// The table's last five cells.
    fn row(&self) -> String {
        let share = |n: u64| 100.0 * n as f64 / self.cases.max(1) as f64;
        format!(
            "{:.2} % | {:.2} % | {:.2} % | {} | {:.2e}",
            share(self.equal),
            share(self.nan_both),
            share(self.special),
            self.max_ulps,
            self.max_rel
        )
    }

    fn add(&mut self, amd: u32, h100: u32, accum: Accum) {
        self.cases += 1;
        let (x, y) = (result_value(amd, accum), result_value(h100, accum));
        if amd == h100 {
            self.equal += 1;
        } else if x.is_nan() && y.is_nan() {
            self.nan_both += 1;
        } else if !x.is_finite() || !y.is_finite() {
            self.special += 1;
        } else {
            let ulps = (ordered(amd, accum) - ordered(h100, accum)).abs();
            self.max_ulps = self.max_ulps.max(ulps);
            if y != 0.0 {
                let rel = ((x - y) / y).abs();
                self.max_rel = self.max_rel.max(rel);
            }
        }
    }
}

fn main() {
    let mut cases = 100_000u64;
    let mut wgmma = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--wgmma" => wgmma = true,
            "--cases" => match args.next().and_then(|v| v.parse().ok()) {
                Some(n) => cases = n,
                None => usage(),
            },
            _ => usage(),
        }
    }
    if wgmma {
        wgmma_random(cases);
        return;
    }
    random(cases);
    println!();
    recorded();
}

fn usage() -> ! {
    eprintln!("usage: matrix_fast_deviation [--cases N] [--wgmma]");
    std::process::exit(2);
}

/// The forms with a fast helper: name, input format, K, accumulator.
const FORMS: [(&str, Input, Format, usize, Accum); 8] = [
    ("m16n8k16.f32.f16", Input::F16, Format::F16, 16, Accum::F32),
    (
        "m16n8k16.f32.bf16",
        Input::Bf16,
        Format::Bf16,
        16,
        Accum::F32,
    ),
    ("m16n8k8.f32.f16", Input::F16, Format::F16, 8, Accum::F32),
    ("m16n8k8.f32.bf16", Input::Bf16, Format::Bf16, 8, Accum::F32),
    ("m16n8k8.f32.tf32", Input::Tf32, Format::Tf32, 8, Accum::F32),
    ("m16n8k4.f32.tf32", Input::Tf32, Format::Tf32, 4, Accum::F32),
    ("m16n8k16.f16.f16", Input::F16, Format::F16, 16, Accum::F16),
    ("m16n8k8.f16.f16", Input::F16, Format::F16, 8, Accum::F16),
];

const PATHS: [(&str, Path); 3] = [
    ("gfx942 (MFMA, CDNA3 model)", Path::Cdna3),
    ("gfx90a (MFMA, CDNA2 model)", Path::Cdna2),
    ("gfx1100 wave64, others (fmaf chain)", Path::Fmaf),
];

/// One output element as the helper computes it (`c` and the result f32 bits, or f16 bits in
/// the low 16 for f16 accumulators).
fn amd(path: Path, input: Input, accum: Accum, a: &[u32], b: &[u32], c: u32, half: usize) -> u32 {
    match accum {
        Accum::F32 => fast_dot(path, input, a, b, c, half),
        Accum::F16 => fast_dot_f16_acc(path, a, b, c, half),
    }
    .expect("every form of FORMS has a fast helper")
}

/// Against the H100 model on random inputs.
fn random(cases: u64) {
    println!("| form | processor (path) | inputs | bit-equal to the H100 model | both NaN, other bits | Inf or NaN on one side | largest finite difference (ulps) | largest relative difference |");
    println!("|---|---|---|---:|---:|---:|---:|---:|");
    for (name, input, format, k, accum) in FORMS {
        for (pname, path) in PATHS {
            for (dname, draw) in [("typical", Draw::Typical), ("any finite", Draw::AnyFinite)] {
                let mut rng = Rng::new(0x20 + k as u64);
                let mut t = Tally::default();
                for case in 0..cases {
                    let a: Vec<u32> = (0..k).map(|_| element(input, draw, &mut rng)).collect();
                    let b: Vec<u32> = (0..k).map(|_| element(input, draw, &mut rng)).collect();
                    let c = match accum {
                        Accum::F32 => accumulator(draw, &mut rng),
                        Accum::F16 => element(Input::F16, draw, &mut rng),
                    };
                    let h100 = model::dot(Arch::Sm90, format, accum, &a, &b, c)
                        .expect("the H100 has f16, bf16 and tf32 mma");
                    let half = (case % 2) as usize;
                    t.add(amd(path, input, accum, &a, &b, c, half), h100, accum);
                }
                println!("| {name} | {pname} | {dname} | {} |", t.row());
            }
        }
    }
}

/// Against the H100's own results on the recorded cases (every output element of every warp).
fn recorded() {
    let path = ptx2hip_verify::repo_root().join("tests/vectors/matrix/mma.bin.gz");
    let rec = match Recording::read(&path) {
        Ok(r) => r,
        Err(e) => {
            println!("(no recording: {e})");
            return;
        }
    };
    println!("| form | processor (path) | recorded elements | bit-equal to the H100 | both NaN, other bits | Inf or NaN on one side | largest finite difference (ulps) | largest relative difference |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    let input_of = |e: Elem| match e {
        Elem::F16 => Some(Input::F16),
        Elem::Bf16 => Some(Input::Bf16),
        Elem::Tf32 => Some(Input::Tf32),
        _ => None,
    };
    for form in all_forms() {
        let (Some(input), Some(r)) = (input_of(form.a), rec.form(&form.name())) else {
            continue;
        };
        let accum = match (form.d, form.c) {
            (Elem::F32, Elem::F32) => Accum::F32,
            (Elem::F16, Elem::F16) => Accum::F16,
            _ => continue,
        };
        let (n, k) = (form.n, form.k);
        let name = format!(
            "m{}n{}k{}.{}.{}",
            form.m,
            n,
            k,
            form.d.name(),
            form.a.name()
        );
        for (pname, path) in PATHS {
            let mut t = Tally::default();
            for (w, case) in generate(&form).iter().enumerate() {
                let lanes: Vec<&[u32]> = (0..32).map(|l| r.lane(w, l)).collect();
                let got = unpack(&form, Operand::D, &lanes);
                for (e, &h100) in got.iter().enumerate() {
                    let (row, col) = (e / n, e % n);
                    let a: Vec<u32> = (0..k).map(|j| case.a[row * k + j] as u32).collect();
                    let b: Vec<u32> = (0..k).map(|j| case.b[j * n + col] as u32).collect();
                    let c = case.c[row * n + col] as u32;
                    t.add(
                        amd(path, input, accum, &a, &b, c, w % 2),
                        h100 as u32,
                        accum,
                    );
                }
            }
            println!("| {name} | {pname} | {} | {} |", t.cases, t.row());
        }
    }
}

/// The wgmma forms with a fast path: name, input format, K, accumulator.
const WGMMA_FORMS: [(&str, Input, Format, usize, Accum); 4] = [
    ("m64nNk16.f32.f16", Input::F16, Format::F16, 16, Accum::F32),
    ("m64nNk16.f16.f16", Input::F16, Format::F16, 16, Accum::F16),
    (
        "m64nNk16.f32.bf16",
        Input::Bf16,
        Format::Bf16,
        16,
        Accum::F32,
    ),
    ("m64nNk8.f32.tf32", Input::Tf32, Format::Tf32, 8, Accum::F32),
];

/// The processors of the wgmma helper with a model (RDNA3's WMMA has none; tf32 there is the
/// fmaf chain).
const WGMMA_PATHS: [(&str, Path); 3] = [
    ("gfx942 (MFMA, CDNA3 model)", Path::Cdna3),
    ("gfx90a (MFMA, CDNA2 model)", Path::Cdna2),
    (
        "fmaf chain (tf32 on gfx1100, gfx11 wave64, others)",
        Path::Fmaf,
    ),
];

/// The widths of the wgmma table.
const WIDTHS: [usize; 3] = [8, 64, 256];

/// The wgmma helper against the H100 model on random whole 64 × N tiles (A 64 × K, B K × N, C
/// 64 × N), at least `cases` output elements per width: one row per form, processor and
/// distribution, the share of bit-equal elements per width and the worst differences over all.
fn wgmma_random(cases: u64) {
    println!("| form | processor (path) | inputs | bit-equal to the H100 model, N = 8 / 64 / 256 | both NaN, other bits | Inf or NaN on one side | largest finite difference (ulps) | largest relative difference |");
    println!("|---|---|---|---:|---:|---:|---:|---:|");
    for (name, input, format, k, accum) in WGMMA_FORMS {
        for (pname, path) in WGMMA_PATHS {
            for (dname, draw) in [("typical", Draw::Typical), ("any finite", Draw::AnyFinite)] {
                let mut all = Tally::default();
                let mut equal = Vec::new();
                for n in WIDTHS {
                    let mut rng = Rng::new(0x21 + n as u64);
                    let mut t = Tally::default();
                    while t.cases < cases {
                        let a: Vec<u32> = (0..64 * k)
                            .map(|_| element(input, draw, &mut rng))
                            .collect();
                        let b: Vec<u32> =
                            (0..k * n).map(|_| element(input, draw, &mut rng)).collect();
                        for e in 0..64 * n {
                            let (row, col) = (e / n, e % n);
                            let c = match accum {
                                Accum::F32 => accumulator(draw, &mut rng),
                                Accum::F16 => element(Input::F16, draw, &mut rng),
                            };
                            let ra = &a[row * k..(row + 1) * k];
                            let cb: Vec<u32> = (0..k).map(|j| b[j * n + col]).collect();
                            let h100 = model::dot(Arch::Sm90, format, accum, ra, &cb, c)
                                .expect("the H100 has f16, bf16 and tf32 wgmma");
                            let amd = match accum {
                                Accum::F32 => wgmma_dot(path, input, ra, &cb, c),
                                Accum::F16 => wgmma_dot_f16_acc(path, ra, &cb, c),
                            }
                            .expect("every form of WGMMA_FORMS has a fast helper");
                            t.add(amd, h100, accum);
                            all.add(amd, h100, accum);
                        }
                    }
                    equal.push(format!("{:.2} %", 100.0 * t.equal as f64 / t.cases as f64));
                }
                let share = |n: u64| 100.0 * n as f64 / all.cases.max(1) as f64;
                println!(
                    "| {name} | {pname} | {dname} | {} | {:.2} % | {:.2} % | {} | {:.2e} |",
                    equal.join(" / "),
                    share(all.nan_both),
                    share(all.special),
                    all.max_ulps,
                    all.max_rel
                );
            }
        }
    }
}
