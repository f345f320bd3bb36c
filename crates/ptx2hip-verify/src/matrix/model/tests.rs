//! Hand-computed cases: each names the value it computes and why the bits are what they are.

use super::*;

// f16 bit patterns.
const ONE: u32 = 0x3C00;
const NEG_ONE: u32 = 0xBC00;
const HALF: u32 = 0x3800;
const TWO: u32 = 0x4000;
const TWO_POW_5: u32 = 0x5000;
const TWO_POW_M11: u32 = 0x1000;
const TWO_POW_M14: u32 = 0x0400;
const TWO_POW_M24: u32 = 0x0001; // the least subnormal
const ONE_PLUS_ULP: u32 = 0x3C01; // 1 + 2^-10
const INF: u32 = 0x7C00;
const NAN: u32 = 0x7E00;
const ZERO: u32 = 0x0000;
const NEG_ZERO: u32 = 0x8000;

// f32 bit patterns.
const F32_ONE: u32 = 0x3F80_0000;
const F32_NEG_1024: u32 = 0xC480_0000;

fn sm90_f16(a: &[u32], b: &[u32], c: u32) -> u32 {
    dot(Arch::Sm90, Format::F16, Accum::F32, a, b, c).unwrap()
}

fn sm90_f16_f16(a: &[u32], b: &[u32], c: u32) -> u32 {
    dot(Arch::Sm90, Format::F16, Accum::F16, a, b, c).unwrap()
}

/// `k` products `a[i]·b[i]`, padded with 0·0 to 16.
fn k16(pairs: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut a: Vec<u32> = pairs.iter().map(|p| p.0).collect();
    let mut b: Vec<u32> = pairs.iter().map(|p| p.1).collect();
    a.resize(16, ZERO);
    b.resize(16, ZERO);
    (a, b)
}

#[test]
fn exact_sums_are_exact() {
    // 1·1 + 2·0.5 + 0.25 = 2.25
    let (a, b) = k16(&[(ONE, ONE), (TWO, HALF)]);
    assert_eq!(sm90_f16(&a, &b, 0x3E80_0000), 0x4010_0000);
    // −1·1 + 1·1 + 0 = +0
    let (a, b) = k16(&[(NEG_ONE, ONE), (ONE, ONE)]);
    assert_eq!(sm90_f16(&a, &b, 0), 0);
}

#[test]
fn terms_are_truncated_at_e_minus_25() {
    // 2^5·2^5 − 1024 cancels; the third product 2^-14 + 2^-24 lies below 2^(10−25) = 2^-15 in
    // its last bit, which is dropped: the result is 2^-14, not the exact 2^-14 + 2^-24.
    let (a, b) = k16(&[(TWO_POW_5, TWO_POW_5), (ONE_PLUS_ULP, TWO_POW_M14)]);
    assert_eq!(sm90_f16(&a, &b, F32_NEG_1024), 0x3880_0000);
    // Negative terms are truncated toward zero: −2^-14, not −(2^-14 + 2^-15).
    let (a, b) = k16(&[(TWO_POW_5, TWO_POW_5), (ONE_PLUS_ULP | 0x8000, TWO_POW_M14)]);
    assert_eq!(sm90_f16(&a, &b, F32_NEG_1024), 0xB880_0000);
}

#[test]
fn the_truncation_point_is_exactly_2_pow_e_minus_nfrac() {
    // E = 0: 1 − 1 + 2^-25 keeps 2^-25 (exactly at the point) ...
    let (a, b) = k16(&[(ONE, ONE), (NEG_ONE, ONE), (TWO_POW_M24, HALF)]);
    assert_eq!(sm90_f16(&a, &b, 0), 0x3300_0000);
    // ... and drops 2^-26 (below it): +0.
    let (a, b) = k16(&[(ONE, ONE), (NEG_ONE, ONE), (TWO_POW_M24, 0x3400)]);
    assert_eq!(sm90_f16(&a, &b, 0), 0);
    // sm_80 keeps one bit less: 2^-25 is dropped there.
    let a = [ONE, NEG_ONE, TWO_POW_M24, 0, 0, 0, 0, 0];
    let b = [ONE, ONE, HALF, 0, 0, 0, 0, 0];
    assert_eq!(dot(Arch::Sm80, Format::F16, Accum::F32, &a, &b, 0), Some(0));
}

#[test]
fn f32_outputs_round_toward_zero_and_f16_outputs_to_nearest_even() {
    // 1 + 2^-24 + 2^-25 = 1 + 0.75 ulp: RZ gives 1.0 (RNE would give 1 + 2^-23).
    let (a, b) = k16(&[(ONE, ONE), (TWO_POW_M24, ONE), (TWO_POW_M24, HALF)]);
    assert_eq!(sm90_f16(&a, &b, 0), F32_ONE);
    // Same magnitude, negative: −1.0 (toward zero).
    let (a, b) = k16(&[
        (NEG_ONE, ONE),
        (TWO_POW_M24 | 0x8000, ONE),
        (TWO_POW_M24, 0xB800),
    ]);
    assert_eq!(sm90_f16(&a, &b, 0), 0xBF80_0000);
    // f16 out: 1 + 2^-11 is a tie, to even 1.0; 1 + 2^-10 + 2^-11 a tie, to even 1 + 2^-9;
    // 1 + 2^-11 + 2^-12 above the tie, up to 1 + 2^-10.
    let (a, b) = k16(&[(ONE, ONE), (TWO_POW_M11, ONE)]);
    assert_eq!(sm90_f16_f16(&a, &b, 0), ONE);
    let (a, b) = k16(&[(ONE_PLUS_ULP, ONE), (TWO_POW_M11, ONE)]);
    assert_eq!(sm90_f16_f16(&a, &b, 0), 0x3C02);
    let (a, b) = k16(&[(ONE, ONE), (TWO_POW_M11, ONE), (TWO_POW_M11, HALF)]);
    assert_eq!(sm90_f16_f16(&a, &b, 0), ONE_PLUS_ULP);
}

#[test]
fn specials_come_first_with_canonical_nans() {
    let nan_in_a = k16(&[(NAN, ONE)]);
    assert_eq!(sm90_f16(&nan_in_a.0, &nan_in_a.1, 0), NAN_F32);
    assert_eq!(sm90_f16_f16(&nan_in_a.0, &nan_in_a.1, 0), NAN_F16);
    let inf_times_zero = k16(&[(INF, ZERO)]);
    assert_eq!(sm90_f16(&inf_times_zero.0, &inf_times_zero.1, 0), NAN_F32);
    let both_infinities = k16(&[(INF, ONE), (INF, NEG_ONE)]);
    assert_eq!(sm90_f16(&both_infinities.0, &both_infinities.1, 0), NAN_F32);
    let inf_and_finite = k16(&[(INF, NEG_ONE), (ONE, ONE)]);
    assert_eq!(
        sm90_f16(&inf_and_finite.0, &inf_and_finite.1, 0),
        0xFF80_0000
    );
    assert_eq!(
        sm90_f16_f16(&inf_and_finite.0, &inf_and_finite.1, 0),
        0xFC00
    );
    // c: NaN (any payload) gives the canonical NaN, −Inf against a +Inf product NaN.
    let (a, b) = k16(&[(ONE, ONE)]);
    assert_eq!(sm90_f16(&a, &b, 0x7F80_0001), NAN_F32);
    assert_eq!(sm90_f16(&a, &b, 0xFF80_0000), 0xFF80_0000);
    let (a, b) = k16(&[(INF, ONE)]);
    assert_eq!(sm90_f16(&a, &b, 0xFF80_0000), NAN_F32);
    // e4m3: 0x7F is NaN, 0x7E is 448 (no infinities).
    let mut a = [0u32; 32];
    let mut b = [0u32; 32];
    (a[0], b[0]) = (0x7F, 0x38);
    assert_eq!(
        dot(Arch::Sm90, Format::E4m3, Accum::F32, &a, &b, 0),
        Some(NAN_F32)
    );
    (a[0], b[0]) = (0x7E, 0x38); // 448·1
    assert_eq!(
        dot(Arch::Sm90, Format::E4m3, Accum::F32, &a, &b, 0),
        Some(0x43E0_0000)
    );
    // e5m2: 0x7C is +Inf.
    (a[0], b[0]) = (0x7C, 0x3C);
    assert_eq!(
        dot(Arch::Sm90, Format::E5m2, Accum::F32, &a, &b, 0),
        Some(0x7F80_0000)
    );
}

#[test]
fn zero_sums_are_positive_zero() {
    // −0 products and c = −0 give +0 (seen on the H100).
    let mut a = [NEG_ZERO; 16];
    let mut b = [ONE; 16];
    (a[1], b[1]) = (ZERO, NEG_ONE);
    assert_eq!(sm90_f16(&a, &b, 0x8000_0000), 0);
    assert_eq!(sm90_f16_f16(&a, &b, 0x8000), 0);
    // Under the IEEE choice they give −0.
    let ieee = Choices {
        ieee_zero_sign: true,
        ..Choices::DEFAULT
    };
    let r = dot_with(
        Arch::Sm90,
        Format::F16,
        Accum::F32,
        &a,
        &b,
        0x8000_0000,
        &ieee,
    );
    assert_eq!(r, Some(0x8000_0000));
}

#[test]
fn sums_above_the_range_give_infinity() {
    // bf16 2^127·2 + 2^127·2 = 2^129 > FLT_MAX: +Inf, or FLT_MAX when RZ saturates.
    let (a, b) = k16(&[(0x7F00, TWO_BF16), (0x7F00, TWO_BF16)]);
    let bf16 = |ch: &Choices| dot_with(Arch::Sm90, Format::Bf16, Accum::F32, &a, &b, 0, ch);
    assert_eq!(bf16(&Choices::DEFAULT), Some(0x7F80_0000));
    let saturate = Choices {
        overflow_to_inf: false,
        ..Choices::DEFAULT
    };
    assert_eq!(bf16(&saturate), Some(0x7F7F_FFFF));
    // f16 out: 65504 + 16 rounds (RNE) to 65536: Inf.
    let (a, b) = k16(&[(0x7BFF, ONE), (0x4C00, ONE)]);
    assert_eq!(sm90_f16_f16(&a, &b, 0), INF);
}

const TWO_BF16: u32 = 0x4000;

#[test]
fn subnormal_results_are_truncated_at_2_pow_m149() {
    // bf16 2^-126·2^-22 + 2^-126·2^-23 = 3·2^-149: E = −148 is raised to −133, no term is
    // truncated at 2^-158, and the f32 result is the subnormal 3·2^-149.
    let (a, b) = k16(&[(0x0080, 0x3480), (0x0080, 0x3400)]);
    assert_eq!(
        dot(Arch::Sm90, Format::Bf16, Accum::F32, &a, &b, 0),
        Some(3)
    );
    let flush = Choices {
        subnormal_outputs: false,
        ..Choices::DEFAULT
    };
    assert_eq!(
        dot_with(Arch::Sm90, Format::Bf16, Accum::F32, &a, &b, 0, &flush),
        Some(0)
    );
}

#[test]
fn sm80_chains_blocks_of_8_rounding_between_them() {
    // 1 + 2^-11 in each block of 8, f16 out: each block rounds its tie to 1.0 (sm_80);
    // one block of 16 keeps 1 + 2^-10 (sm_90).
    let mut a = [ZERO; 16];
    let mut b = [ZERO; 16];
    (a[0], b[0]) = (ONE, ONE);
    (a[1], b[1]) = (TWO_POW_M11, ONE);
    (a[8], b[8]) = (TWO_POW_M11, ONE);
    assert_eq!(
        dot(Arch::Sm80, Format::F16, Accum::F16, &a, &b, 0),
        Some(ONE)
    );
    assert_eq!(sm90_f16_f16(&a, &b, 0), ONE_PLUS_ULP);
}

#[test]
fn tf32_ignores_the_low_13_bits() {
    let a = [F32_ONE | 0x1FFF, 0, 0, 0];
    let b = [F32_ONE, 0, 0, 0];
    let r = dot(Arch::Sm90, Format::Tf32, Accum::F32, &a, &b, 0);
    assert_eq!(r, Some(F32_ONE));
    let rna = Choices {
        tf32_truncate: false,
        ..Choices::DEFAULT
    };
    let r = dot_with(Arch::Sm90, Format::Tf32, Accum::F32, &a, &b, 0, &rna);
    assert_eq!(r, Some(F32_ONE + 0x2000));
}

#[test]
fn fp8_sums_keep_13_fraction_bits() {
    // e4m3: 1·1 + 2^-6·2^-9 (the least subnormal 2^-9 times the least normal 2^-6):
    // E = 0, the second term lies at 2^-15 < 2^-13 and is dropped.
    let mut a = [0u32; 32];
    let mut b = [0u32; 32];
    (a[0], b[0]) = (0x38, 0x38);
    (a[1], b[1]) = (0x08, 0x01);
    assert_eq!(
        dot(Arch::Sm90, Format::E4m3, Accum::F32, &a, &b, 0),
        Some(F32_ONE)
    );
    // 1 + 2^-3·2^-8 (0x20·0x02) = 1 + 2^-11 keeps its last bit.
    (a[1], b[1]) = (0x20, 0x02);
    assert_eq!(
        dot(Arch::Sm90, Format::E4m3, Accum::F32, &a, &b, 0),
        Some(F32_ONE + (1 << 12))
    );
    assert_eq!(dot(Arch::Sm80, Format::E4m3, Accum::F32, &a, &b, 0), None);
}

#[test]
fn mismatched_lengths_are_refused() {
    assert_eq!(
        dot(Arch::Sm90, Format::F16, Accum::F32, &[ONE], &[], 0),
        None
    );
}

#[test]
fn fp8_mixes_decode_each_operand_in_its_own_format() {
    let mut a = [0u32; 32];
    let mut b = [0u32; 32];
    // e4m3 0x40 is 2.0, e5m2 0x40 is 2.0 too; e4m3 0x48 is 4.0, e5m2 0x48 is 8.0.
    (a[0], b[0]) = (0x48, 0x48);
    let mixed = |fa, fb| {
        dot_mixed(
            Arch::Sm90,
            (fa, fb),
            Accum::F32,
            &a,
            &b,
            0,
            &Choices::DEFAULT,
        )
    };
    assert_eq!(mixed(Format::E4m3, Format::E5m2), Some(0x4200_0000)); // 4·8 = 32
    assert_eq!(mixed(Format::E5m2, Format::E4m3), Some(0x4200_0000));
    assert_eq!(mixed(Format::E4m3, Format::E4m3), Some(0x4180_0000)); // 4·4 = 16
    assert_eq!(mixed(Format::F16, Format::Bf16), None);
}

#[test]
fn a_sum_that_rounds_to_zero_is_positive_zero() {
    // −2^-24 · 2^-2 = −2^-26 rounds to zero in f16: the H100's wgmma gives +0, not −0.
    let (a, b) = k16(&[(TWO_POW_M24, 0xB400)]);
    assert_eq!(sm90_f16_f16(&a, &b, ZERO), ZERO);
    // bf16 2^-133 · −2^-20 = −2^-153 lies below the least f32 subnormal: +0 as well.
    let d = dot(
        Arch::Sm90,
        Format::Bf16,
        Accum::F32,
        &[0x0001],
        &[0xB580],
        0,
    );
    assert_eq!(d, Some(0));
}

#[test]
fn a_subnormal_f16_c_aligns_the_block_at_2_pow_m14() {
    // C = 2·2^-24, products 2^-12·2^-13 = 2^-25 (half an ulp) and 2^-24·2^-24 = 2^-48. With C's
    // own exponent (−23) E would keep 2^-48 and the sum would round up to 3·2^-24; C's exponent
    // clamped at f16's e_min (−14) truncates at 2^-39, the tie rounds to even: 2·2^-24.
    let (a, b) = k16(&[(0x0C00, 0x0800), (TWO_POW_M24, TWO_POW_M24)]);
    assert_eq!(sm90_f16_f16(&a, &b, 0x0002), 0x0002);
}
