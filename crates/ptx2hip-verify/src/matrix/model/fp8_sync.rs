//! fp8 `mma.sync` on sm_90, which is not the fp8 path of `wgmma` (e8m13 blocks of 32): fitted on
//! this project's H100 recording (docs/TENSOR_MODEL.md), where it reproduces every element of
//! the 16 fp8 forms, specials included. What it shows is an f16 computation:
//!
//! 1. every fp8 element is converted exactly to f16 (e4m3 subnormals become normal f16 values,
//!    so their exponent in E is their own, not e4m3's e_min);
//! 2. the products are split by the position of their k in its group of four — k mod 4 ∈ {0, 1}
//!    and k mod 4 ∈ {2, 3} (the low and high halves of each fp8 register) — and each half is one
//!    f16 block of the sm_90 model (25 fraction bits, the accumulator type's output rounding),
//!    the low half first with c = +0, the high half with the low half's result as its c;
//! 3. C is added last, in IEEE round to nearest even of the accumulator type.

use super::{Accum, Arch, Choices, Finite, Format, Ieee, Out, Unit, Value, F16, F32};
use super::{OUT_F16, OUT_F32};

const OUT_F32_RNE: Out = Out {
    rne: true,
    ..OUT_F32
};

/// One output element of an fp8 `mma.sync` on sm_90 (H100, H200): `d = c + Σ_k a[k]·b[k]` for
/// K = 16 or 32, raw bits as for [`super::dot`]. The blocks follow `choices`; the final addition of
/// C is IEEE arithmetic (canonical NaN, subnormals kept). None unless both formats are fp8 and
/// K is 16 or 32.
pub fn dot_fp8_sync(
    formats: (Format, Format),
    accum: Accum,
    a: &[u32],
    b: &[u32],
    c: u32,
    choices: &Choices,
) -> Option<u32> {
    let fp8 = |f| matches!(f, Format::E4m3 | Format::E5m2);
    if !fp8(formats.0) || !fp8(formats.1) || a.len() != b.len() || !matches!(a.len(), 16 | 32) {
        return None;
    }
    let unit = Unit {
        formats: (Format::F16, Format::F16),
        accum,
        block: Arch::Sm90.block(Format::F16)?,
        floor: choices.align_clamp.then(|| Arch::Sm90.align_floor(accum)),
        choices,
    };
    let half = |high: bool, x: &[u32], f: Format| -> Vec<u32> {
        x.iter()
            .enumerate()
            .filter(|(k, _)| (k % 4 >= 2) == high)
            .map(|(_, &v)| to_f16(f, v))
            .collect()
    };
    let low = unit.block(&half(false, a, formats.0), &half(false, b, formats.1), 0);
    let sum = unit.block(&half(true, a, formats.0), &half(true, b, formats.1), low);
    Some(unit.add_rne(sum, c))
}

/// The f16 bits of an fp8 element (exact: every e4m3 and e5m2 value is an f16 value).
fn to_f16(format: Format, bits: u32) -> u32 {
    let bits = bits & 0xFF;
    let sign = (bits & 0x80) << 8;
    match format {
        Format::E4m3 => {
            let (field, frac) = ((bits >> 3) & 0xF, bits & 7);
            if field == 0xF && frac == 7 {
                sign | 0x7E00
            } else if field == 0 && frac == 0 {
                sign
            } else if field == 0 {
                // frac·2^-9 = 1.f·2^(msb − 9), normal in f16.
                let msb = 31 - frac.leading_zeros();
                let fraction = (frac << (10 - msb)) & 0x3FF;
                sign | (msb + 15 - 9) << 10 | fraction
            } else {
                sign | (field + 15 - 7) << 10 | frac << 7
            }
        }
        // e5m2 is the top byte of an f16.
        _ => bits << 8,
    }
}

impl Unit<'_> {
    /// `x + c` (accumulator bits) rounded to nearest even, as an IEEE adder computes it.
    fn add_rne(&self, x: u32, c: u32) -> u32 {
        let (format, out) = match self.accum {
            Accum::F32 => (&F32, &OUT_F32_RNE),
            Accum::F16 => (&F16, &OUT_F16),
        };
        let (x, c) = (decode(format, x), decode(format, c));
        let (x, c) = match (x, c) {
            (Value::Nan, _) | (_, Value::Nan) => return self.nan(),
            (Value::Inf { neg: p }, Value::Inf { neg: q }) if p != q => return self.nan(),
            (Value::Inf { neg }, _) | (_, Value::Inf { neg }) => return self.encode_inf(neg),
            (Value::Finite(x), Value::Finite(c)) => (x, c),
        };
        let terms: Vec<Finite> = [x, c].into_iter().filter(|t| t.m != 0).collect();
        let (Some(lo), Some(hi)) = (
            terms.iter().map(|t| t.q).min(),
            terms.iter().map(|t| t.q).max(),
        ) else {
            return self.signed_zero(x.neg && c.neg);
        };
        // Both significands fit 24 bits: 38 bits of alignment keep the sum in an i64, and a
        // term further below only matters as a sticky bit far under the rounding point.
        let w = lo.max(hi - 38);
        let mut s: i64 = 0;
        for t in &terms {
            let shift = t.q - w;
            let magnitude = if shift >= 0 {
                t.m << shift
            } else if -shift >= 64 {
                1
            } else {
                t.m >> -shift | u64::from(t.m & ((1 << -shift) - 1) != 0)
            };
            s += if t.neg {
                -(magnitude as i64)
            } else {
                magnitude as i64
            };
        }
        if s == 0 {
            return self.signed_zero(false);
        }
        self.round(s < 0, s.unsigned_abs(), w, out)
    }
}

fn decode(format: &Ieee, bits: u32) -> Value {
    let width = 1 + format.ebits + format.fbits;
    format.decode(bits & ((1u64 << width) - 1) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    const E4M3: (Format, Format) = (Format::E4m3, Format::E4m3);

    fn f32_sync(pairs: &[(u32, u32)], c: u32) -> u32 {
        let mut a: Vec<u32> = pairs.iter().map(|p| p.0).collect();
        let mut b: Vec<u32> = pairs.iter().map(|p| p.1).collect();
        a.resize(16, 0);
        b.resize(16, 0);
        dot_fp8_sync(E4M3, Accum::F32, &a, &b, c, &Choices::DEFAULT).unwrap()
    }

    // e4m3 bit patterns.
    const SIXTEEN: u32 = 0x58;
    const NEG_SIXTEEN: u32 = 0xD8;
    const TWO_POW_M9: u32 = 0x01; // the least subnormal
    const THREE_TWO_POW_M9: u32 = 0x03;

    #[test]
    fn the_low_pairs_of_each_group_of_four_are_summed_before_the_high_pairs() {
        // 16·16 and 2^-9·2^-9 at k = 0, 1 share a block aligned at 2^8: 2^-18 lies below
        // 2^(8−25) and is dropped, and −16·16 at k = 2 cancels the rest: +0.
        let small_low = [
            (SIXTEEN, SIXTEEN),
            (TWO_POW_M9, TWO_POW_M9),
            (NEG_SIXTEEN, SIXTEEN),
        ];
        assert_eq!(f32_sync(&small_low, 0), 0);
        // With the cancelling pair at k = 0, 1, the low block is +0 and 2^-18 (k = 2) is the
        // high block's only term: kept.
        let small_high = [
            (SIXTEEN, SIXTEEN),
            (NEG_SIXTEEN, SIXTEEN),
            (TWO_POW_M9, TWO_POW_M9),
        ];
        assert_eq!(f32_sync(&small_high, 0), 0x3680_0000);
    }

    #[test]
    fn c_is_added_last_and_rounded_to_nearest() {
        // 128 + 3·2^-18 = 128 + 0.75 ulp: nearest is 128 + 2^-16 (a truncating block would keep
        // 128).
        assert_eq!(
            f32_sync(&[(THREE_TWO_POW_M9, TWO_POW_M9)], 0x4300_0000),
            0x4300_0001
        );
    }

    #[test]
    fn e4m3_subnormals_align_with_their_f16_exponent() {
        // e4m3 2^-9 times e5m2 2^15 is 2^6 with the f16 exponent −9 + 15: the block keeps bits
        // down to 2^(6−25), so 2^6 + 2^-18 − 2^6 (k = 0, 1, 4) leaves 2^-18. With e4m3's e_min
        // (−6 + 15) it would be truncated at 2^-16 and lost.
        let mut a = [0u32; 16];
        let mut b = [0u32; 16];
        (a[0], b[0]) = (TWO_POW_M9, 0x78);
        (a[1], b[1]) = (TWO_POW_M9, 0x18);
        (a[4], b[4]) = (TWO_POW_M9 | 0x80, 0x78);
        let formats = (Format::E4m3, Format::E5m2);
        let d = dot_fp8_sync(formats, Accum::F32, &a, &b, 0, &Choices::DEFAULT);
        assert_eq!(d, Some(0x3680_0000));
    }

    #[test]
    fn e4m3_converts_exactly_to_f16() {
        assert_eq!(to_f16(Format::E4m3, 0x38), 0x3C00); // 1
        assert_eq!(to_f16(Format::E4m3, 0xFE), 0xDF00); // −448
        assert_eq!(to_f16(Format::E4m3, 0x01), 0x1800); // 2^-9
        assert_eq!(to_f16(Format::E4m3, 0x7F), 0x7E00); // NaN
        assert_eq!(to_f16(Format::E5m2, 0xFC), 0xFC00); // −Inf
    }

    #[test]
    fn only_fp8_with_k_16_or_32() {
        let z = [0u32; 8];
        assert_eq!(
            dot_fp8_sync(E4M3, Accum::F32, &z, &z, 0, &Choices::DEFAULT),
            None
        );
        let z = [0u32; 16];
        let f16 = (Format::F16, Format::F16);
        assert_eq!(
            dot_fp8_sync(f16, Accum::F32, &z, &z, 0, &Choices::DEFAULT),
            None
        );
    }
}
