//! Warp cases of an `mma` form: the A, B and C matrices as raw element bits, generated
//! reproducibly from the form's name, and their per-lane fragment words.
//!
//! Each warp is one *theme* — a kind of data every one of its 128 (or 64) dot products sees:
//! integer forms random words, extreme values (INT8/INT4 ends, all ones) and C at ±2^31 so that
//! wrapping and `.satfinite` show; float forms the gaps tensor-cores.md §1.2 lists (zero
//! products beside huge ones, −0, subnormals in and out, sums past the largest finite value,
//! Inf·0, NaN in any operand, terms at the truncation point of the largest exponent, tf32 low
//! bits, f16 accumulators) besides random values over the whole and over a narrow exponent range.

use super::forms::{Elem, MmaForm, Operand};
use crate::inputs::Rng;

/// One warp: row-major matrices of raw element bits (B is K×N).
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub a: Vec<u64>,
    pub b: Vec<u64>,
    pub c: Vec<u64>,
}

impl Case {
    fn matrix(&self, op: Operand) -> &[u64] {
        match op {
            Operand::A => &self.a,
            Operand::B => &self.b,
            _ => &self.c,
        }
    }

    /// The words of one lane as the GPU program reads them: A, B, C registers in order, each
    /// packed with element 0 in the low bits (an f64 register low word first).
    pub fn lane_words(&self, form: &MmaForm, lane: usize) -> Vec<u32> {
        let mut w = Vec::with_capacity(form.in_words());
        for op in [Operand::A, Operand::B, Operand::C] {
            pack(form, op, self.matrix(op), lane, &mut w);
        }
        w
    }
}

/// Appends the registers of `lane` holding the operand `op` of matrix `m` (row-major).
pub fn pack(form: &MmaForm, op: Operand, m: &[u64], lane: usize, out: &mut Vec<u32>) {
    let e = form.elem(op);
    let cols = form.dims(op).1;
    for i in 0..form.regs(op) {
        let mut reg = 0u64;
        for h in 0..e.per_reg() {
            let (r, c) = form.element(op, lane, i, h);
            let bits = e.bits().min(64);
            let v = m[r * cols + c] & mask(bits);
            reg |= v << (bits as usize * h);
        }
        out.push(reg as u32);
        if e == Elem::F64 {
            out.push((reg >> 32) as u32);
        }
    }
}

/// The inverse of [`pack`] for D: the matrix from every lane's output words.
pub fn unpack(form: &MmaForm, op: Operand, lanes: &[&[u32]]) -> Vec<u64> {
    let e = form.elem(op);
    let (rows, cols) = form.dims(op);
    let mut m = vec![0u64; rows * cols];
    for (lane, words) in lanes.iter().enumerate() {
        for i in 0..form.regs(op) {
            let reg = if e == Elem::F64 {
                words[2 * i] as u64 | (words[2 * i + 1] as u64) << 32
            } else {
                words[i] as u64
            };
            for h in 0..e.per_reg() {
                let bits = e.bits().min(64);
                let (r, c) = form.element(op, lane, i, h);
                m[r * cols + c] = (reg >> (bits as usize * h)) & mask(bits);
            }
        }
    }
    m
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Warps per form: every output element is one dot product (128 per m16n8 warp), so integer
/// forms see 8,192 and float forms 20,480 dot products.
pub fn warps(form: &MmaForm) -> usize {
    if form.is_quad_pair() {
        // 256 dot products a warp: 10,240.
        return 40;
    }
    match form.family() {
        "float" => 160,
        _ => 64,
    }
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The cases of a form, the same on every run.
pub fn generate(form: &MmaForm) -> Vec<Case> {
    let mut rng = Rng::new(fnv(&form.name()));
    (0..warps(form))
        .map(|w| {
            let theme = w % THEMES;
            let mut fill = |op: Operand| {
                let (r, c) = form.dims(op);
                (0..r * c)
                    .map(|i| value(form, op, theme, i, &mut rng))
                    .collect::<Vec<u64>>()
            };
            Case {
                a: fill(Operand::A),
                b: fill(Operand::B),
                c: fill(Operand::C),
            }
        })
        .collect()
}

/// How many themes [`float`] and [`integer`] know (a theme is taken modulo this).
pub const THEMES: usize = 10;

/// The inputs digest the recording carries (FNV-1a over every lane's words of every case).
pub fn inputs_digest(form: &MmaForm, cases: &[Case]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for c in cases {
        for lane in 0..32 {
            for w in c.lane_words(form, lane) {
                for b in w.to_le_bytes() {
                    h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
                }
            }
        }
    }
    h
}

/// One element of operand `op` (index `i` in its matrix) for warp theme `theme`.
fn value(form: &MmaForm, op: Operand, theme: usize, i: usize, rng: &mut Rng) -> u64 {
    let e = form.elem(op);
    if e.is_integer() {
        integer(e, theme, i, rng)
    } else {
        float(Format::of(e), op, theme, i, rng)
    }
}

/// An integer element (or an s32 accumulator) for a theme; `i` is its index in its matrix.
pub fn integer(e: Elem, theme: usize, i: usize, rng: &mut Rng) -> u64 {
    let bits = e.bits();
    let r = rng.next_u64() & mask(bits);
    match (e, theme % 5) {
        // C near the ends of s32: wrapping and .satfinite.
        (Elem::S32, 1) => [0x7fff_ffff, 0x8000_0000, 0x7fff_fff0, 0x8000_0010][i % 4],
        (Elem::S32, 2) => (0x7fff_ffffu64 - (r & 0xffff)) ^ (rng.below(2) * 0xffff_ffff),
        (Elem::S32, 3) => 0,
        (Elem::S32, _) => r,
        // The extremes of the element type (most negative, most positive, all ones, zero).
        (_, 1) => {
            [1u64 << (bits - 1), (1u64 << (bits - 1)) - 1, mask(bits), 0][rng.below(4) as usize]
        }
        (_, 2) => 1u64 << (bits - 1),
        (_, 3) => mask(bits),
        (Elem::B1, 4) => (i as u64 / 3) & 1,
        _ => r,
    }
}

/// A binary floating-point format: exponent and fraction bits, and what it lacks.
#[derive(Debug, Clone, Copy)]
pub struct Format {
    pub exp: u32,
    pub frac: u32,
    /// e4m3: no infinities, the only NaN is all exponent and fraction bits set.
    pub finite_only: bool,
    /// tf32 in an f32 register: the low 13 bits are ignored by the hardware (filled randomly).
    pub ignored_low: u32,
}

impl Format {
    pub fn of(e: Elem) -> Format {
        let (exp, frac, finite_only, ignored_low) = match e {
            Elem::F16 => (5, 10, false, 0),
            Elem::Bf16 => (8, 7, false, 0),
            Elem::Tf32 => (8, 23, false, 13),
            Elem::E4m3 => (4, 3, true, 0),
            Elem::E5m2 => (5, 2, false, 0),
            Elem::F64 => (11, 52, false, 0),
            _ => (8, 23, false, 0),
        };
        Format {
            exp,
            frac,
            finite_only,
            ignored_low,
        }
    }

    fn bias(self) -> i64 {
        (1i64 << (self.exp - 1)) - 1
    }

    /// The largest biased exponent of a finite value.
    fn max_exp(self) -> u64 {
        if self.finite_only {
            (1u64 << self.exp) - 1
        } else {
            (1u64 << self.exp) - 2
        }
    }

    fn bits(self) -> u32 {
        1 + self.exp + self.frac
    }

    /// ±(1.f)·2^e with a random fraction, clamped to the format's normal range.
    fn normal(self, e: i64, rng: &mut Rng) -> u64 {
        let biased = (e + self.bias()).clamp(1, self.max_exp() as i64) as u64;
        let mut f = rng.next_u64() & mask(self.frac);
        if self.finite_only && biased == self.max_exp() {
            f &= mask(self.frac) - 1; // all ones there is NaN
        }
        self.sign(rng) | biased << self.frac | f
    }

    fn sign(self, rng: &mut Rng) -> u64 {
        rng.below(2) << (self.bits() - 1)
    }

    fn subnormal(self, rng: &mut Rng) -> u64 {
        self.sign(rng) | (rng.next_u64() & mask(self.frac)).max(1)
    }

    fn max_finite(self, rng: &mut Rng) -> u64 {
        let f = if self.finite_only {
            mask(self.frac) - 1
        } else {
            mask(self.frac)
        };
        self.sign(rng) | self.max_exp() << self.frac | f
    }

    fn inf(self, rng: &mut Rng) -> u64 {
        if self.finite_only {
            return self.nan(rng);
        }
        self.sign(rng) | mask(self.exp) << self.frac
    }

    fn nan(self, rng: &mut Rng) -> u64 {
        if self.finite_only {
            return self.sign(rng) | mask(self.exp + self.frac);
        }
        self.sign(rng) | mask(self.exp) << self.frac | (rng.next_u64() & mask(self.frac)).max(1)
    }

    fn zero(self, rng: &mut Rng) -> u64 {
        self.sign(rng)
    }

    /// Random garbage in the bits the hardware ignores.
    fn garnish(self, v: u64, rng: &mut Rng) -> u64 {
        v | (rng.next_u64() & mask(self.ignored_low))
    }

    /// 2^e exactly (sign random), clamped to the normal range.
    fn power(self, e: i64, rng: &mut Rng) -> u64 {
        let biased = (e + self.bias()).clamp(1, self.max_exp() as i64) as u64;
        self.sign(rng) | biased << self.frac
    }
}

/// A float element for a theme. The multiplicands and C use their own format; the themes are
/// chosen so that the products of a dot product meet the situation they name.
pub fn float(f: Format, op: Operand, theme: usize, i: usize, rng: &mut Rng) -> u64 {
    let is_c = op == Operand::C;
    let span = f.bias();
    let v = match theme {
        // Random values over the whole normal range, with some zeros and subnormals.
        0 => match rng.below(16) {
            0 => f.zero(rng),
            1 => f.subnormal(rng),
            _ => f.normal(rng.below(2 * span as u64) as i64 - span + 1, rng),
        },
        // A narrow exponent range: heavy cancellation, every term near the alignment point.
        1 | 2 => f.normal(rng.below(4) as i64 - 2, rng),
        // Zero products beside huge partners: the largest finite values times zeros.
        3 => match (op, i % 3) {
            (Operand::A, 0) => f.zero(rng),
            (Operand::B, _) if rng.below(2) == 0 => f.max_finite(rng),
            (Operand::C, _) => [f.zero(rng), f.power(-10, rng)][rng.below(2) as usize],
            _ => f.normal(rng.below(8) as i64 - 4, rng),
        },
        // Signed zeros: exact cancellation and −0 in every operand.
        4 => match rng.below(4) {
            0 | 1 => f.zero(rng),
            _ if is_c => f.zero(rng),
            _ => f.power(rng.below(3) as i64, rng),
        },
        // Subnormal inputs and outputs: tiny values everywhere.
        5 => match rng.below(4) {
            0 => f.subnormal(rng),
            1 if !is_c => f.zero(rng),
            _ if is_c => f.subnormal(rng),
            _ => f.normal(-span + 1 + rng.below(4) as i64, rng),
        },
        // Sums past the largest finite value.
        6 => match rng.below(3) {
            0 => f.max_finite(rng) & !(1u64 << (f.bits() - 1)),
            _ => f.normal(span - rng.below(3) as i64, rng) & !(1u64 << (f.bits() - 1)),
        },
        // Inf, NaN (with payloads) and Inf·0, sparse in a sea of ordinary values.
        7 => match rng.below(24) {
            0 => f.inf(rng),
            1 => f.nan(rng),
            2 | 3 => f.zero(rng),
            _ => f.normal(rng.below(8) as i64 - 4, rng),
        },
        // Terms at the truncation point: C = ±2^12 and products of ±2^-6..-9 (2^-12..-18, around
        // 2^(12-25)), exact powers and random fractions.
        8 => {
            if is_c {
                f.power(12, rng)
            } else {
                match rng.below(3) {
                    1 => f.normal(-(6 + rng.below(4) as i64), rng),
                    _ => f.power(-(6 + rng.below(4) as i64), rng),
                }
            }
        }
        // Mixed magnitudes: C large, products small and large.
        _ => f.normal(rng.below(24) as i64 - 12, rng),
    };
    f.garnish(v, rng)
}

#[cfg(test)]
mod tests {
    use super::super::forms::all_forms;
    use super::*;

    #[test]
    fn lane_words_unpack_to_the_matrix() {
        for form in all_forms() {
            let case = &generate(&form)[0];
            let lanes: Vec<Vec<u32>> = (0..32).map(|l| case.lane_words(&form, l)).collect();
            assert!(lanes.iter().all(|w| w.len() == form.in_words()));
            // C sits after A and B; C unpacks to the case.
            let skip = form.in_words() - form.regs(Operand::C) * form.reg_words(Operand::C);
            let cs: Vec<&[u32]> = lanes.iter().map(|w| &w[skip..]).collect();
            assert_eq!(unpack(&form, Operand::C, &cs), case.c, "{}", form.name());
        }
    }

    #[test]
    fn cases_are_reproducible() {
        let f = all_forms()[0];
        assert_eq!(generate(&f), generate(&f));
        assert_eq!(generate(&f).len(), 64);
    }
}
