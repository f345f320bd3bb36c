//! What each `mma` form computes, on whole matrices: what the recording is checked against and
//! what the translations must reproduce. Integer and f64: the PTX semantics below; f16, bf16 and
//! tf32: the sm_90 tensor-core model (`super::model`, docs/TENSOR_MODEL.md) element by element;
//! fp8: the H100's own fp8 `mma.sync` path (`model::dot_fp8_sync`).
//!
//! Integer (PTX ISA, `mma`, *Integer* semantics): D = C + A·B with exact products; without
//! `.satfinite` the sum wraps modulo 2^32, with it the exact sum is clamped to
//! [INT32_MIN, INT32_MAX]. `b1`: each product is `popc` of the AND or XOR of A's row and B's
//! column bits, added to C modulo 2^32. f64: a chain of `fma.rn.f64` over k in order,
//! starting from C, with the H100's NaN propagation.

use super::forms::{BitOp, Elem, MmaForm};
use super::model;

/// The value of an integer element from its raw bits.
fn int_value(e: Elem, bits: u64) -> i64 {
    match e {
        Elem::S8 => bits as u8 as i8 as i64,
        Elem::S4 => ((bits as i64) << 60) >> 60,
        Elem::S32 => bits as u32 as i32 as i64,
        _ => bits as i64,
    }
}

/// D as raw element bits (row-major), or `None` for a form no reference covers.
pub fn expected(form: &MmaForm, a: &[u64], b: &[u64], c: &[u64]) -> Option<Vec<u64>> {
    let (n, k) = (form.n, form.k);
    let m = form.m * form.batches();
    let mut d = Vec::with_capacity(m * n);
    for i in 0..m {
        // The rows of B of product i / form.m (m8n8k4 f16: four per warp, stacked).
        let b = &b[i / form.m * k * n..];
        for j in 0..n {
            let cij = c[i * n + j];
            let v = match (form.a, form.bitop) {
                (Elem::B1, Some(op)) => {
                    let count = (0..k)
                        .filter(|&x| {
                            let (p, q) = (a[i * k + x] & 1, b[x * n + j] & 1);
                            match op {
                                BitOp::And => p & q == 1,
                                BitOp::Xor => p ^ q == 1,
                            }
                        })
                        .count();
                    (cij as u32).wrapping_add(count as u32) as u64
                }
                (Elem::F64, _) => {
                    let mut acc = cij;
                    for x in 0..k {
                        acc = fma_f64(a[i * k + x], b[x * n + j], acc);
                    }
                    acc
                }
                (e, _) if e.is_integer() => {
                    let sum: i64 = int_value(Elem::S32, cij)
                        + (0..k)
                            .map(|x| {
                                int_value(form.a, a[i * k + x]) * int_value(form.b, b[x * n + j])
                            })
                            .sum::<i64>();
                    let r = if form.satfinite {
                        sum.clamp(i32::MIN as i64, i32::MAX as i64)
                    } else {
                        sum
                    };
                    r as u32 as u64
                }
                (e, _) => {
                    if form.is_quad_pair() {
                        let row: Vec<u32> = (0..k).map(|x| a[i * k + x] as u32).collect();
                        let col: Vec<u32> = (0..k).map(|x| b[x * n + j] as u32).collect();
                        d.push(quad_pair_dot(form, &row, &col, cij as u32) as u64);
                        continue;
                    }
                    let accum = if form.c == Elem::F16 {
                        model::Accum::F16
                    } else {
                        model::Accum::F32
                    };
                    let row: Vec<u32> = (0..k).map(|x| a[i * k + x] as u32).collect();
                    let col: Vec<u32> = (0..k).map(|x| b[x * n + j] as u32).collect();
                    let d = match (fp8_format(e), fp8_format(form.b)) {
                        (Some(fa), Some(fb)) => model::dot_fp8_sync(
                            (fa, fb),
                            accum,
                            &row,
                            &col,
                            cij as u32,
                            &model::Choices::DEFAULT,
                        ),
                        _ => model::dot(
                            model::Arch::Sm90,
                            model_format(e)?,
                            accum,
                            &row,
                            &col,
                            cij as u32,
                        ),
                    };
                    d? as u64
                }
            };
            d.push(v);
        }
    }
    Some(d)
}

/// One output of Volta's m8n8k4 f16 as the H100 computes it (found on its recording: every
/// element of the 12 recorded forms, NaN, Inf and signed zeros included): IEEE f32 arithmetic,
/// not the tensor-core model. f32 D: `fma.rn.f32` over k = 0, 1, 2, 3 from +0, then C (an f16
/// C converted exactly) added in round to nearest even. f16 D: `fma.rn.f32` from C over
/// k = 0, 1, 3, 2 (k = 1, 0, 3, 2 fits too), rounded to f16 to nearest even. A NaN comes out
/// canonical (0x7fffffff, f16 0x7fff).
pub fn quad_pair_dot(form: &MmaForm, row: &[u32], col: &[u32], c: u32) -> u32 {
    let c = if form.c == Elem::F16 {
        f16_to_f32(c)
    } else {
        f32::from_bits(c)
    };
    let fma = |acc: f32, k: usize| f16_to_f32(row[k]).mul_add(f16_to_f32(col[k]), acc);
    if form.d == Elem::F16 {
        let d = [0, 1, 3, 2].into_iter().fold(c, fma);
        return if d.is_nan() { 0x7fff } else { f32_to_f16(d) };
    }
    let d = (0..4).fold(0.0, fma) + c;
    if d.is_nan() {
        0x7fff_ffff
    } else {
        d.to_bits()
    }
}

/// The f32 of an f16 (exact).
pub fn f16_to_f32(h: u32) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let (e, f) = ((h >> 10) & 31, h & 0x3ff);
    match e {
        0 => sign * f as f32 * 2f32.powi(-24),
        31 if f == 0 => sign * f32::INFINITY,
        31 => f32::NAN,
        _ => sign * (1024 + f) as f32 * 2f32.powi(e as i32 - 25),
    }
}

/// The f16 nearest to a non-NaN f32 (ties to even; past 65,520 infinity).
pub fn f32_to_f16(x: f32) -> u32 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs() as f64;
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-14) {
        // Subnormal (or the smallest normal, 0x400, when it rounds up).
        return sign | (a * 2f64.powi(24)).round_ties_even() as u32;
    }
    let e = a.log2().floor() as i32;
    let m = (a * 2f64.powi(10 - e)).round_ties_even() as u32; // 1024..=2048
    sign | ((((e + 15) as u32) << 10) + (m - 1024))
}

/// The model's format of an f16, bf16 or tf32 element type.
fn model_format(e: Elem) -> Option<model::Format> {
    match e {
        Elem::F16 => Some(model::Format::F16),
        Elem::Bf16 => Some(model::Format::Bf16),
        Elem::Tf32 => Some(model::Format::Tf32),
        _ => None,
    }
}

/// The format of an fp8 element type: its `mma.sync` is [`model::dot_fp8_sync`], not the
/// published sm_90 fp8 model of `wgmma` (docs/TENSOR_MODEL.md).
fn fp8_format(e: Elem) -> Option<model::Format> {
    match e {
        Elem::E4m3 => Some(model::Format::E4m3),
        Elem::E5m2 => Some(model::Format::E5m2),
        _ => None,
    }
}

/// The NaN an invalid f64 operation (Inf·0, Inf − Inf) gives in the H100's mma.
pub const F64_NAN: u64 = 0xfff8_0000_0000_0000;

/// One step of the chain, bits in and out, as the H100 computes it (found on its recording: no
/// other order of the three fits): a NaN operand comes out quieted with its sign and payload,
/// B's element first, then the accumulator, then A's element; an invalid operation (Inf·0,
/// Inf − Inf) gives [`F64_NAN`].
fn fma_f64(a: u64, b: u64, c: u64) -> u64 {
    for x in [b, c, a] {
        if f64::from_bits(x).is_nan() {
            return x | 0x0008_0000_0000_0000;
        }
    }
    let r = f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c));
    if r.is_nan() {
        F64_NAN
    } else {
        r.to_bits()
    }
}

#[cfg(test)]
mod tests {
    use super::super::forms::all_forms;
    use super::*;

    fn form(name: &str) -> MmaForm {
        all_forms().into_iter().find(|f| f.name() == name).unwrap()
    }

    #[test]
    fn integer_sums_wrap_or_saturate() {
        let f = form("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32");
        let a = vec![0x80u64; 8 * 16]; // -128
        let b = vec![0x80u64; 16 * 8];
        let c = vec![0x7fff_ffffu64; 64];
        // 16 * 16384 = 2^18 added to INT32_MAX wraps.
        let d = expected(&f, &a, &b, &c).unwrap();
        assert_eq!(d[0], (0x7fff_ffffu32.wrapping_add(1 << 18)) as u64);
        let f = form("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.s8.s32");
        assert_eq!(expected(&f, &a, &b, &c).unwrap()[0], 0x7fff_ffff);
    }

    #[test]
    fn signedness_is_per_operand() {
        let f = form("mma.sync.aligned.m8n8k32.row.col.s32.u4.s4.s32");
        let a = vec![0xfu64; 8 * 32]; // 15
        let b = vec![0x8u64; 32 * 8]; // -8
        let d = expected(&f, &a, &b, &vec![0; 64]).unwrap();
        assert_eq!(d[0] as u32 as i32, 32 * 15 * -8);
    }

    #[test]
    fn f16_conversions_round_to_nearest_even() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3c00); // tie to even
        assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(-(2f32.powi(-25) * 3.0)), 0x8002);
    }

    #[test]
    fn quad_pair_outputs_are_the_h100s_fma_chains() {
        // f32 D: the chain starts from +0, so −0 products and a −0 C give +0.
        let f = form("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32");
        let neg0 = [0x8000, 0x8000, 0x8000, 0x8000];
        let one = [0x3c00; 4];
        assert_eq!(quad_pair_dot(&f, &neg0, &one, 0x8000_0000), 0);
        // f16 D: from C, k = 0, 1, 3, 2: C = -0 and -0 products stay -0.
        let f = form("mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16");
        assert_eq!(quad_pair_dot(&f, &neg0, &one, 0x8000), 0x8000);
        // 2^-11 four times onto 1: the f16 result is 1 + 2^-9 exactly.
        assert_eq!(quad_pair_dot(&f, &[0x1000; 4], &one, 0x3c00), 0x3c02);
    }

    #[test]
    fn popc_counts_the_bit_operation() {
        let f = form("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc");
        let a = vec![1u64; 8 * 128];
        let b: Vec<u64> = (0..128 * 8).map(|i| (i / 8 % 2) as u64).collect();
        assert_eq!(expected(&f, &a, &b, &vec![5; 64]).unwrap()[0], 5 + 64);
    }
}
