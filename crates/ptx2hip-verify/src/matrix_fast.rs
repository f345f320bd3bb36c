//! Models of what the `--fast` mma helpers (`rules/helpers/matrix_fast.h`) compute on AMD
//! hardware, for stating their deviation from the H100 (docs/MATRIX_FAST.md). There is no AMD GPU
//! here: these are published models, not measurements.
//!
//! - CDNA3 (gfx942) `v_mfma_f32_16x16x16{f16,bf16_1k}`: Xie et al., *MMA-Sim*, arXiv 2511.10909
//!   (github microsoft/MMA-Sim, `mmasim/simulator/amd.py`, `functions.py`: `amd_fused_dot_add`):
//!   the k products go in groups of 8, in k order; a group's products are fused (exact
//!   significand products, each truncated toward zero at 2^(E − 24) below the group's largest
//!   exponent E, summed exactly); the group sum is then rounded down at 2^(max − 31) and the
//!   running sum c down at 2^(max − 24), max the larger of their exponents, and the two added
//!   and rounded to f32 to nearest even. Subnormal inputs keep their format's least exponent.
//! - CDNA2 (gfx90a): the same sources (`pairwise_dot`) and AMD's MIOpen documentation ("MI200
//!   MFMA behavior specifics": subnormals flushed): groups of 4 products, each group summed as a
//!   tree of f32 additions (round to nearest even), then added to the running f32 sum; subnormal
//!   inputs, intermediate sums and outputs are flushed to zero.
//! - tf32: CDNA3 `v_mfma_f32_16x16x8_xf32` as above with groups of 4 (MMA-Sim: `is_xf32`,
//!   group 4); CDNA2 `v_mfma_f32_16x16x4f32` is a sequential fma chain (MMA-Sim: "standard",
//!   group 1, no flushing for f32), so the helper's four MFMAs compute the fmaf chain. The helper
//!   clears the low 13 bits of every tf32 register first, as the tensor cores ignore them.
//! - The fmaf fallback of the helpers (processors without those instructions, gfx11 built for
//!   wave64): a sequential IEEE `fmaf` chain in k order, exact by definition.
//! - wgmma (`rules/helpers/warpgroup_fast.h`): the same instructions over all of a wgmma's K at
//!   once ([`wgmma_dot`]); tf32 on RDNA3 takes the fmaf chain.
//!
//! RDNA3 (gfx1100) WMMA has no published bit-level model, so none is given. NaN results are
//! given as 0x7FC00000: the NaN payloads of AMD matrix instructions are not modelled.

/// The element format of A and B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    F16,
    Bf16,
    /// The f32 register; its low 13 bits are not part of the value.
    Tf32,
}

/// Where the helper runs, and so what computes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// gfx942: two (m16n8k16) or one (m16n8k8) `v_mfma_f32_16x16x16`.
    Cdna3,
    /// gfx90a: the same instructions, CDNA2 arithmetic.
    Cdna2,
    /// Other processors, gfx11 in wave64: an `fmaf` chain.
    Fmaf,
}

/// The f32 NaN of the models.
pub const NAN: u32 = 0x7FC0_0000;

/// `x` as an f64 (f16 or bf16 bits in the low 16; tf32 the f32 register).
pub fn value(input: Input, x: u32) -> f64 {
    let h = x & 0xFFFF;
    match input {
        Input::Tf32 => f64::from(f32::from_bits(x & 0xFFFF_E000)),
        Input::Bf16 => f64::from(f32::from_bits(h << 16)),
        Input::F16 => {
            let (e, m) = ((h >> 10) & 31, f64::from(h & 1023));
            let mag = match e {
                0 => m * 2f64.powi(-24),
                31 if m == 0.0 => f64::INFINITY,
                31 => f64::NAN,
                _ => (1024.0 + m) * 2f64.powi(e as i32 - 25),
            };
            if h & 0x8000 != 0 {
                -mag
            } else {
                mag
            }
        }
    }
}

/// A finite non-zero value as `±sig · 2^(exp − frac)`: `sig` the integer significand with
/// `frac` fraction bits (not renormalised for subnormals), `exp` at least the format's least
/// exponent. None for zero.
fn decompose(input: Input, x: u32) -> Option<(i64, i32, u32)> {
    // The 16 bits that hold the value: tf32 is f32's sign, exponent and top 10 fraction bits.
    let h = match input {
        Input::Tf32 => x >> 13,
        Input::F16 | Input::Bf16 => x & 0xFFFF,
    };
    let (ebits, frac, bias) = match input {
        Input::F16 => (5, 10, 15),
        Input::Bf16 => (8, 7, 127),
        Input::Tf32 => (8, 10, 127),
    };
    let e = ((h >> frac) & ((1 << ebits) - 1)) as i32;
    let m = i64::from(h & ((1 << frac) - 1));
    let (sig, exp) = if e == 0 {
        (m, 1 - bias)
    } else {
        (m | 1 << frac, e - bias)
    };
    if sig == 0 {
        return None;
    }
    let negative = h >> (ebits + frac) & 1 != 0;
    Some((if negative { -sig } else { sig }, exp, frac))
}

/// f32 `c` as `±sig · 2^(exp − 23)`, exp ≥ −126; None for zero.
fn decompose_f32(c: u32) -> Option<(i64, i32)> {
    let e = ((c >> 23) & 255) as i32;
    let m = i64::from(c & 0x7F_FFFF);
    let (sig, exp) = if e == 0 {
        (m, -126)
    } else {
        (m | 1 << 23, e - 127)
    };
    if sig == 0 {
        return None;
    }
    Some((if c >> 31 != 0 { -sig } else { sig }, exp))
}

fn bits(x: f32) -> u32 {
    if x.is_nan() {
        NAN
    } else {
        x.to_bits()
    }
}

/// One output element of one CDNA3 MFMA: `c + Σ a_k·b_k` over its k (16 for
/// `v_mfma_f32_16x16x16{f16,bf16_1k}`, 8 for `v_mfma_f32_16x16x8_xf32`), in groups of 8
/// (f16, bf16) or 4 (tf32), in k order.
pub fn cdna3_mfma(input: Input, a: &[u32], b: &[u32], c: u32) -> u32 {
    let group = if input == Input::Tf32 { 4 } else { 8 };
    a.chunks(group)
        .zip(b.chunks(group))
        .fold(c, |acc, (x, y)| cdna3_group(input, x, y, acc))
}

/// `c + Σ a_k·b_k` over one group of products, fused (MMA-Sim `amd_fused_dot_add`).
fn cdna3_group(input: Input, a: &[u32], b: &[u32], c: u32) -> u32 {
    // Specials: IEEE arithmetic in f64 decides NaN and Inf; a product beyond the f32 range
    // counts as an infinity of its sign.
    let products: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| value(input, x) * value(input, y))
        .collect();
    let cf = f64::from(f32::from_bits(c));
    let sum: f64 = products.iter().sum::<f64>() + cf;
    if !sum.is_finite() {
        return bits(sum as f32);
    }
    let huge = 2f64.powi(128);
    let (pos, neg) = (
        products.iter().any(|&p| p >= huge),
        products.iter().any(|&p| p <= -huge),
    );
    match (pos, neg) {
        (true, true) => return NAN,
        (true, false) => return f32::INFINITY.to_bits(),
        (false, true) => return f32::NEG_INFINITY.to_bits(),
        (false, false) => {}
    }
    // Products: sig_a·sig_b · 2^(ea + eb − 2·frac); MMA-Sim's exponent of a product is ea + eb
    // (its significand is below 4). Zero products take no part in E.
    let terms: Vec<(i64, i32, u32)> = a
        .iter()
        .zip(b)
        .filter_map(|(&x, &y)| {
            let (sa, ea, f) = decompose(input, x)?;
            let (sb, eb, _) = decompose(input, y)?;
            Some((sa * sb, ea + eb, 2 * f))
        })
        .collect();
    let e_max = terms.iter().map(|t| t.1).max();
    // The group sum, in units of 2^(E − 24): each product truncated toward zero.
    let s: i64 = terms
        .iter()
        .map(|&(p, e, f)| {
            let shift = 24 + e - e_max.unwrap() - f as i32;
            // Left shifts stay below 2^27; a right shift past the significand leaves 0.
            let mag = if shift >= 0 {
                p.abs() << shift
            } else {
                p.abs().checked_shr(shift.unsigned_abs()).unwrap_or(0)
            };
            p.signum() * mag
        })
        .sum();
    let cd = decompose_f32(c);
    let top = match (e_max, cd) {
        (None, None) => return 0,
        (Some(e), None) => e,
        (None, Some((_, ec))) => ec,
        (Some(e), Some((_, ec))) => e.max(ec),
    };
    // Both rounded down (toward −∞) onto the grid of 2^(top − 31), c onto 2^(top − 24).
    // Left shifts stay below 2^37; a right shift past every bit leaves the floor, 0 or −1.
    let floor_shift = |v: i64, shift: i32| {
        if shift >= 0 {
            v << shift
        } else {
            v >> shift.unsigned_abs().min(63)
        }
    };
    let s31 = e_max.map_or(0, |e| floor_shift(s, 7 + e - top));
    let c31 = cd.map_or(0, |(sig, ec)| floor_shift(sig, 1 + ec - top) << 7);
    let total = (s31 + c31) as f64 * 2f64.powi(top - 31);
    // One rounding to f32, to nearest even (the f64 holds the sum exactly).
    bits(total as f32)
}

/// One output element of one CDNA2 `v_mfma_f32_16x16x16` (f16 or bf16_1k): groups of 4
/// products, each a tree of f32 additions, added to the running sum; subnormals flushed.
pub fn cdna2_mfma(input: Input, a: &[u32; 16], b: &[u32; 16], c: u32) -> u32 {
    let flush_in = |x: f64| {
        let least = match input {
            Input::F16 => 2f64.powi(-14),
            Input::Bf16 | Input::Tf32 => 2f64.powi(-126),
        };
        if x.abs() < least {
            0.0
        } else {
            x
        }
    };
    // A result below the least normal f32 becomes a zero of its sign.
    let flush = |x: f32| {
        if x.abs() < f32::MIN_POSITIVE {
            x * 0.0
        } else {
            x
        }
    };
    let cf = f32::from_bits(c);
    let mut acc = if cf.abs() < f32::MIN_POSITIVE {
        0.0
    } else {
        cf
    };
    for g in 0..4 {
        let p: Vec<f32> = (4 * g..4 * g + 4)
            .map(|k| {
                let (x, y) = (
                    flush_in(value(input, a[k])) as f32,
                    flush_in(value(input, b[k])) as f32,
                );
                flush(x.mul_add(y, 0.0))
            })
            .collect();
        let group = flush(flush(p[0] + p[1]) + flush(p[2] + p[3]));
        acc = flush(acc + group);
    }
    bits(acc)
}

/// `c + Σ a_k·b_k` as a sequential f32 `fmaf` chain in k order.
pub fn fmaf_chain(input: Input, a: &[u32], b: &[u32], c: u32) -> u32 {
    let mut acc = f32::from_bits(c);
    for (&x, &y) in a.iter().zip(b) {
        acc = (value(input, x) as f32).mul_add(value(input, y) as f32, acc);
    }
    bits(acc)
}

/// One output element of `mma.m16n8kK.row.col.f32.T.T.f32` (K = `a.len()`: 8 or 16 for f16 and
/// bf16, 4 or 8 for tf32) as the `--fast` helper computes it on `path`, for the PTX warp in `half`
/// (0 or 1) of a wave64.
///
/// On CDNA3 each MFMA holds this warp's k values (8 of 16; tf32: 4 of 8) in position `half`
/// and zero products in the other: m16n8k16 and tf32 m16n8k8 are two chained MFMAs, f16/bf16
/// m16n8k8 and tf32 m16n8k4 one. On CDNA2 f16/bf16 likewise; tf32's f32 MFMAs are an fma chain. None for another
/// K or when `b` is not as long as `a`.
pub fn fast_dot(
    path: Path,
    input: Input,
    a: &[u32],
    b: &[u32],
    c: u32,
    half: usize,
) -> Option<u32> {
    let k_ok = match input {
        Input::Tf32 => matches!(a.len(), 4 | 8),
        Input::F16 | Input::Bf16 => matches!(a.len(), 8 | 16),
    };
    if !k_ok || a.len() != b.len() || half > 1 {
        return None;
    }
    // k values of this warp per MFMA.
    let per = if input == Input::Tf32 { 4 } else { 8 };
    let mut acc = c;
    for (ka, kb) in a.chunks(per).zip(b.chunks(per)) {
        let (mut x, mut y) = ([0u32; 16], [0u32; 16]);
        x[per * half..per * (half + 1)].copy_from_slice(ka);
        y[per * half..per * (half + 1)].copy_from_slice(kb);
        acc = match (path, input) {
            (Path::Cdna3, _) => cdna3_mfma(input, &x[..2 * per], &y[..2 * per], acc),
            (Path::Cdna2, Input::F16 | Input::Bf16) => cdna2_mfma(input, &x, &y, acc),
            (Path::Cdna2, Input::Tf32) | (Path::Fmaf, _) => {
                return Some(fmaf_chain(input, a, b, c))
            }
        };
    }
    Some(acc)
}

/// One output element of `wgmma.mma_async.m64nNkK.f32.T.T` (K = `a.len()`: 16 for f16 and
/// bf16, 8 for tf32) as the `--fast` wgmma helper (`rules/helpers/warpgroup_fast.h`) computes it
/// on `path`, for any N and either A source: one MFMA over all of K with C, its k in order. On
/// CDNA3 that is [`cdna3_mfma`] (`v_mfma_f32_16x16x16{f16,bf16_1k}`, `v_mfma_f32_16x16x8_xf32`);
/// on CDNA2 [`cdna2_mfma`] for f16 and bf16, and for tf32 two `v_mfma_f32_16x16x4f32` fma
/// chains, the first over the even k, the second over the odd ones (lane group x holds k = 2x and
/// 2x + 1). None for another K or when `b` is not as long as `a`.
pub fn wgmma_dot(path: Path, input: Input, a: &[u32], b: &[u32], c: u32) -> Option<u32> {
    let k = if input == Input::Tf32 { 8 } else { 16 };
    if a.len() != k || b.len() != k {
        return None;
    }
    Some(match (path, input) {
        (Path::Cdna3, _) => cdna3_mfma(input, a, b, c),
        (Path::Cdna2, Input::F16 | Input::Bf16) => {
            cdna2_mfma(input, a.try_into().ok()?, b.try_into().ok()?, c)
        }
        (Path::Cdna2, Input::Tf32) => {
            let order = |x: &[u32]| -> Vec<u32> {
                x.iter()
                    .step_by(2)
                    .chain(x.iter().skip(1).step_by(2))
                    .copied()
                    .collect()
            };
            fmaf_chain(input, &order(a), &order(b), c)
        }
        (Path::Fmaf, _) => fmaf_chain(input, a, b, c),
    })
}

/// [`wgmma_dot`] with f16 accumulators (`wgmma….f16.f16.f16`; `c` and the result in the low 16
/// bits): C widened to f32, the f32 path, D rounded to f16 to nearest even.
pub fn wgmma_dot_f16_acc(path: Path, a: &[u32], b: &[u32], c: u32) -> Option<u32> {
    let wide = (value(Input::F16, c) as f32).to_bits();
    wgmma_dot(path, Input::F16, a, b, wide).map(|d| f16_from_f32(f32::from_bits(d)))
}

/// `x` rounded to f16 to nearest even (overflow to Inf, subnormals kept), as
/// `v_cvt_f16_f32` does in the default mode; NaN as 0x7E00.
pub fn f16_from_f32(x: f32) -> u32 {
    if x.is_nan() {
        return 0x7E00;
    }
    let sign = (x.to_bits() >> 16) & 0x8000;
    let a = f64::from(x.abs());
    // 65520 lies halfway between the largest f16, 65504, and 2^16: it rounds to even, Inf.
    if a >= 65520.0 {
        return sign | 0x7C00;
    }
    // The f16 quantum at a: 2^(e − 10), e = ⌊log2 a⌋ ≥ −14 (a is normal as an f64).
    let e = if a < 2f64.powi(-14) {
        -14
    } else {
        ((a.to_bits() >> 52) & 0x7FF) as i32 - 1023
    };
    let m = (a / 2f64.powi(e - 10)).round_ties_even() as u32;
    // m ≤ 2048, m < 1024 only at e = −14 (a subnormal); m = 2048 carries into the exponent
    // through the addition.
    let bits = if e == -14 && m < 1024 {
        m
    } else {
        (((e + 15) as u32) << 10) + (m - 1024)
    };
    sign | bits
}

/// [`fast_dot`] with f16 accumulators (`mma….f16.f16.f16.f16`; `c` and the result in the low
/// 16 bits): C widened to f32, the f32 path, D rounded to f16 to nearest even.
pub fn fast_dot_f16_acc(path: Path, a: &[u32], b: &[u32], c: u32, half: usize) -> Option<u32> {
    let wide = (value(Input::F16, c) as f32).to_bits();
    fast_dot(path, Input::F16, a, b, wide, half).map(|d| f16_from_f32(f32::from_bits(d)))
}

#[cfg(test)]
mod tests;
