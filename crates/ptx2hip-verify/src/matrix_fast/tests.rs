use super::*;

const ONE_F16: u32 = 0x3C00;
const ONE_BF16: u32 = 0x3F80;

fn f16(x: f32) -> u32 {
    // Exact for the values used here (zero, powers of two and small integers).
    let b = x.to_bits();
    if x == 0.0 {
        return b >> 16 & 0x8000;
    }
    let e = ((b >> 23) & 255) as i32 - 127 + 15;
    assert!((1..31).contains(&e), "{x} is not a normal f16");
    (b >> 16 & 0x8000) | (e as u32) << 10 | (b >> 13 & 0x3FF)
}

fn every_path() -> [Path; 3] {
    [Path::Cdna3, Path::Cdna2, Path::Fmaf]
}

#[test]
fn small_integer_products_are_exact_on_every_path() {
    let a: Vec<u32> = (0..16).map(|k| f16(k as f32 - 7.0)).collect();
    let b: Vec<u32> = (0..16).map(|k| f16((k % 5) as f32 + 1.0)).collect();
    let want: f32 = (0..16)
        .map(|k| (k as f32 - 7.0) * ((k % 5) as f32 + 1.0))
        .sum::<f32>()
        + 3.0;
    for path in every_path() {
        for half in 0..2 {
            let d = fast_dot(path, Input::F16, &a, &b, 3f32.to_bits(), half).unwrap();
            assert_eq!(f32::from_bits(d), want, "{path:?} half {half}");
        }
    }
}

#[test]
fn cdna3_rounds_c_down_onto_the_grid_of_the_products() {
    // 1·1 + c with c = −2^−30: c is rounded down to −2^−24 at the products' exponent, so the
    // result is 1 − 2^−24, where a correctly rounded sum (and the fmaf chain) gives 1.
    let mut a = [0u32; 16];
    let mut b = [0u32; 16];
    a[0] = ONE_F16;
    b[0] = ONE_F16;
    let c = (-(2f32.powi(-30))).to_bits();
    assert_eq!(cdna3_mfma(Input::F16, &a, &b, c), 0x3F7F_FFFF);
    assert_eq!(fmaf_chain(Input::F16, &a, &b, c), 1f32.to_bits());
}

#[test]
fn cdna3_truncates_each_product_toward_zero_below_the_largest() {
    // bf16: 1·1 + (−1.5·2^−24)·1: the second product is truncated toward zero at 2^(0 − 24), the
    // grid of the group's largest product, to −2^−24: the result is 1 − 2^−24 (0x3F7FFFFF). The
    // exact sum 1 − 1.5·2^−24 is a tie between 1 − 2^−23 and 1 − 2^−24, and the fmaf chain
    // rounds it to even: 0x3F7FFFFE.
    let mut a = [0u32; 16];
    let mut b = [0u32; 16];
    a[..2].copy_from_slice(&[ONE_BF16, 0x8000 | (127 - 24) << 7 | 0x40]);
    b[..2].copy_from_slice(&[ONE_BF16, ONE_BF16]);
    assert_eq!(cdna3_mfma(Input::Bf16, &a, &b, 0), 0x3F7F_FFFF);
    assert_eq!(fmaf_chain(Input::Bf16, &a[..2], &b[..2], 0), 0x3F7F_FFFE);
}

#[test]
fn cdna2_flushes_subnormals_cdna3_keeps_them() {
    let mut a = [0u32; 16];
    let mut b = [0u32; 16];
    a[0] = 0x0001; // f16 2^−24
    b[0] = ONE_F16;
    assert_eq!(cdna3_mfma(Input::F16, &a, &b, 0), 2f32.powi(-24).to_bits());
    assert_eq!(cdna2_mfma(Input::F16, &a, &b, 0), 0);
    // A subnormal f32 c is flushed on CDNA2 and kept on CDNA3.
    let (z, c) = ([0u32; 16], 1);
    assert_eq!(cdna2_mfma(Input::F16, &z, &z, c), 0);
    assert_eq!(cdna3_mfma(Input::F16, &z, &z, c), 1);
}

#[test]
fn cdna2_sums_groups_of_four_as_trees_in_f32() {
    // 2^24 + 1 + 1 + 1 (one group): (2^24 + 1) + (1 + 1) = 2^24 + 2 in f32; the fmaf chain
    // rounds 2^24 + 1 to 2^24 at each step: 2^24 + 0 + 0 ... = 2^24.
    let big = f16(4096.0);
    let a = [big, ONE_F16, ONE_F16, ONE_F16];
    let b = [big, ONE_F16, ONE_F16, ONE_F16];
    let mut x = [0u32; 16];
    let mut y = [0u32; 16];
    x[..4].copy_from_slice(&a);
    y[..4].copy_from_slice(&b);
    assert_eq!(
        f32::from_bits(cdna2_mfma(Input::F16, &x, &y, 0)),
        16_777_218.0
    );
    assert_eq!(
        f32::from_bits(fmaf_chain(Input::F16, &a, &b, 0)),
        16_777_216.0
    );
}

#[test]
fn specials() {
    let mut a = [0u32; 16];
    let mut b = [0u32; 16];
    a[0] = 0x7C00; // f16 +Inf
    b[0] = ONE_F16;
    assert_eq!(cdna3_mfma(Input::F16, &a, &b, 0), f32::INFINITY.to_bits());
    b[0] = 0; // Inf × 0
    assert_eq!(cdna3_mfma(Input::F16, &a, &b, 0), NAN);
    assert_eq!(cdna2_mfma(Input::F16, &a, &b, 0), NAN);
    // bf16 2^100 · 2^100 is beyond f32: an infinity, even though f64 holds it.
    let (mut a, mut b) = ([0u32; 16], [0u32; 16]);
    a[0] = (127 + 100) << 7;
    b[0] = (127 + 100) << 7;
    assert_eq!(cdna3_mfma(Input::Bf16, &a, &b, 0), f32::INFINITY.to_bits());
}

#[test]
fn only_k8_and_k16_have_a_fast_helper() {
    let four = [ONE_F16; 4];
    assert_eq!(fast_dot(Path::Cdna3, Input::F16, &four, &four, 0, 0), None);
    let eight = [ONE_F16; 8];
    assert_eq!(
        fast_dot(Path::Cdna3, Input::F16, &eight, &eight[..4], 0, 0),
        None
    );
    assert_eq!(
        fast_dot(Path::Cdna3, Input::F16, &eight, &eight, 0, 1),
        Some(8f32.to_bits())
    );
}

#[test]
fn f16_rounding_is_to_nearest_even() {
    assert_eq!(f16_from_f32(1.0), ONE_F16);
    assert_eq!(f16_from_f32(2049.0), f16(2048.0)); // a tie: to the even 2048
    assert_eq!(f16_from_f32(2051.0), f16(2052.0)); // a tie: to the even 2052
    assert_eq!(f16_from_f32(65504.0), 0x7BFF);
    assert_eq!(f16_from_f32(65519.0), 0x7BFF);
    assert_eq!(f16_from_f32(65520.0), 0x7C00);
    assert_eq!(f16_from_f32(-(2f32.powi(-24))), 0x8001);
    assert_eq!(f16_from_f32(2f32.powi(-25)), 0); // a tie: to the even 0
    assert_eq!(f16_from_f32(1.5 * 2f32.powi(-25)), 1);
    assert_eq!(
        f16_from_f32(2f32.powi(-14) * (1.0 - 2f32.powi(-12))),
        0x0400
    ); // carries into normal
    assert_eq!(f16_from_f32(4.0 - 2f32.powi(-10)), f16(4.0)); // carries into the exponent
}

#[test]
fn f16_accumulators_round_the_f32_sum_once_more() {
    // 2048·1 + 1·1 + 0 = 2049 exactly in f32, then rounded to f16: 2048.
    let a = [f16(2048.0), ONE_F16, 0, 0, 0, 0, 0, 0];
    let b = [ONE_F16, ONE_F16, 0, 0, 0, 0, 0, 0];
    for path in every_path() {
        assert_eq!(
            fast_dot_f16_acc(path, &a, &b, 0, 0),
            Some(f16(2048.0)),
            "{path:?}"
        );
    }
}

#[test]
fn cdna3_c_far_below_the_products_rounds_down_to_zero_or_one_unit() {
    // c = ±2^−100 next to a product of 2^20: aligned 120 bits down, rounded down: +0 or −1 unit
    // of 2^(20 − 24).
    let mut a = [0u32; 16];
    let mut b = [0u32; 16];
    a[0] = f16(1024.0);
    b[0] = f16(1024.0);
    let up = 2f32.powi(-100).to_bits();
    assert_eq!(
        f32::from_bits(cdna3_mfma(Input::F16, &a, &b, up)),
        1_048_576.0
    );
    let down = (-(2f32.powi(-100))).to_bits();
    assert_eq!(
        f32::from_bits(cdna3_mfma(Input::F16, &a, &b, down)),
        1_048_576.0 - 0.0625
    );
    // A product 2^−48 next to one of 2^20: truncated to zero.
    a[1] = 0x0001;
    b[1] = 0x0001;
    assert_eq!(
        f32::from_bits(cdna3_mfma(Input::F16, &a, &b, 0)),
        1_048_576.0
    );
}

#[test]
fn tf32_ignores_the_low_13_bits_and_groups_by_four_on_cdna3() {
    // 1.5 with junk below tf32's 10 fraction bits, times 2: 3 on every path.
    let junk = 1.5f32.to_bits() | 0x1FFF;
    let two = 2f32.to_bits();
    let mut a = [0u32; 8];
    let mut b = [0u32; 8];
    a[0] = junk;
    b[0] = two;
    for path in every_path() {
        for half in 0..2 {
            let d = fast_dot(path, Input::Tf32, &a, &b, 0, half).unwrap();
            assert_eq!(f32::from_bits(d), 3.0, "{path:?} half {half}");
        }
    }
    // Groups of 4: 1·1 and (−1.5·2^−24)·1 in one group truncate the small product to −2^−24
    // (0x3F7FFFFF, as cdna3_truncates_each_product_toward_zero_below_the_largest); in different
    // groups (k 0 and k 4) the first group's 1 is rounded, then 1 − 1.5·2^−24 is rounded to
    // nearest even once: 0x3F7FFFFE.
    let small = (-1.5 * 2f32.powi(-24)).to_bits();
    let one = 1f32.to_bits();
    let (mut a, mut b) = ([0u32; 8], [one; 8]);
    a[0] = one;
    a[1] = small;
    assert_eq!(
        fast_dot(Path::Cdna3, Input::Tf32, &a, &b, 0, 0),
        Some(0x3F7F_FFFF)
    );
    a[1] = 0;
    a[4] = small;
    b[1] = 0;
    assert_eq!(
        fast_dot(Path::Cdna3, Input::Tf32, &a, &b, 0, 1),
        Some(0x3F7F_FFFE)
    );
    // tf32 has no m16n8k16.
    assert_eq!(
        fast_dot(Path::Cdna3, Input::Tf32, &[one; 16], &[one; 16], 0, 0),
        None
    );
}

#[test]
fn wgmma_small_integer_products_are_exact_on_every_path() {
    let want = |k: usize| {
        (0..k)
            .map(|i| (i as f32 - 7.0) * ((i % 5) as f32 + 1.0))
            .sum::<f32>()
            + 3.0
    };
    let f16s = |f: &dyn Fn(usize) -> f32| (0..16).map(|k| f16(f(k))).collect::<Vec<u32>>();
    let a = f16s(&|k| k as f32 - 7.0);
    let b = f16s(&|k| (k % 5) as f32 + 1.0);
    let tf32s = |f: &dyn Fn(usize) -> f32| {
        (0..8)
            .map(|k| f(k).to_bits() | 0x1FFF)
            .collect::<Vec<u32>>()
    };
    let (ta, tb) = (tf32s(&|k| k as f32 - 7.0), tf32s(&|k| (k % 5) as f32 + 1.0));
    // tf32: the junk below tf32's 10 fraction bits adds nothing (7 − k and k % 5 + 1 have few
    // significant bits, so the junk is all below them).
    for path in every_path() {
        let d = wgmma_dot(path, Input::F16, &a, &b, 3f32.to_bits()).unwrap();
        assert_eq!(f32::from_bits(d), want(16), "{path:?} f16");
        let d = wgmma_dot(path, Input::Tf32, &ta, &tb, 3f32.to_bits()).unwrap();
        assert_eq!(f32::from_bits(d), want(8), "{path:?} tf32");
        let d = wgmma_dot_f16_acc(path, &a, &b, f16(3.0)).unwrap();
        assert_eq!(d, f16(want(16)), "{path:?} f16 accumulators");
    }
}

#[test]
fn wgmma_on_cdna_is_the_mma_sync_helpers_two_mfmas_in_one() {
    // One MFMA over k 0..15 rounds as two chained MFMAs over k 0..7 and 8..15 whose other group
    // holds zero products (mma.sync's block-diagonal operands): the same groups in the same order.
    let mut rng = crate::inputs::Rng::new(21);
    for _ in 0..2000 {
        let mut draw = |bits: u32| rng.below(1 << bits) as u32;
        let (a, b): (Vec<u32>, Vec<u32>) = (0..16).map(|_| (draw(16), draw(16))).unzip();
        let c = draw(16) << 16 | draw(16);
        for path in [Path::Cdna3, Path::Cdna2] {
            for input in [Input::F16, Input::Bf16] {
                let one = wgmma_dot(path, input, &a, &b, c).unwrap();
                let two = fast_dot(path, input, &a, &b, c, 0).unwrap();
                assert_eq!(one, two, "{path:?} {input:?}: {a:x?} {b:x?} {c:#x}");
            }
        }
    }
}

#[test]
fn wgmma_tf32_on_cdna2_chains_the_even_k_then_the_odd_ones() {
    // 2^24 (k 0), 1 (k 1), −2^24 (k 2): in k order 2^24 + 1 rounds to 2^24 and the result is 0;
    // the even k first cancel exactly and the result is 1.
    let (big, one) = (2f32.powi(24).to_bits(), 1f32.to_bits());
    let mut a = [0u32; 8];
    a[..3].copy_from_slice(&[big, one, big | 0x8000_0000]);
    let b = [one; 8];
    assert_eq!(wgmma_dot(Path::Fmaf, Input::Tf32, &a, &b, 0), Some(0));
    assert_eq!(wgmma_dot(Path::Cdna2, Input::Tf32, &a, &b, 0), Some(one));
    // wgmma's K: 16 for f16 and bf16, 8 for tf32.
    assert_eq!(
        wgmma_dot(Path::Cdna3, Input::Tf32, &[one; 16], &[one; 16], 0),
        None
    );
    assert_eq!(wgmma_dot(Path::Cdna3, Input::F16, &a, &b, 0), None);
}
