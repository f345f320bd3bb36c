//! The reference of `wgmma.mma_async`: what every D register of every thread of the warpgroup
//! holds after the instruction, from a case's inputs. Operands are gathered through
//! [`super::layout`] (descriptors, fragments); every float element of D is one block of the
//! tensor-core model (`crate::matrix::model`, docs/TENSOR_MODEL.md) and integer elements are
//! exact sums, wrapped or clamped (`.satfinite`).

use super::cases::Case;
use super::forms::{Source, WgmmaForm};
use super::layout::{a_element, d_element, described, BaseRule, BASE_RULE};
use crate::matrix::model::{dot_decoded, element, Accum, Arch, Choices, Element, Format};
use crate::matrix::Elem;

/// What the reference assumes where the recordings decide: the base-offset rule and the
/// tensor-core model's choices. [`Fit::DEFAULT`] is what the recordings showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fit {
    pub base_rule: BaseRule,
    pub choices: Choices,
}

impl Fit {
    pub const DEFAULT: Fit = Fit {
        base_rule: BASE_RULE,
        choices: Choices::DEFAULT,
    };
}

/// The operands of a case as matrices of raw element bits: A 64 × K and B K × N (row-major, as
/// the instruction reads them, the immediates' negation applied), C 64 × N (zero where scale-d
/// is 0).
#[derive(Debug, Clone, PartialEq)]
pub struct Operands {
    pub a: Vec<u32>,
    pub b: Vec<u32>,
    pub c: Vec<u32>,
}

/// The sign bit of an element type.
fn sign_bit(e: Elem) -> u32 {
    match e {
        Elem::F16 | Elem::Bf16 => 1 << 15,
        Elem::Tf32 | Elem::F32 => 1 << 31,
        _ => 1 << 7,
    }
}

/// Gathers the operands of `case`; None where a descriptor points outside the image.
pub fn operands(form: &WgmmaForm, case: &Case, fit: &Fit) -> Option<Operands> {
    let (k, n) = (form.k(), form.n);
    let mut a = vec![0u32; 64 * k];
    match form.a_source {
        Source::Desc => {
            for m in 0..64 {
                for kk in 0..k {
                    a[m * k + kk] =
                        described(form, &case.image, case.desc_a, false, m, kk, fit.base_rule)?;
                }
            }
        }
        Source::Regs => {
            let bits = 8 * form.esize();
            let mask = if bits == 32 {
                u32::MAX
            } else {
                (1 << bits) - 1
            };
            for (tid, regs) in case.a_regs.iter().enumerate() {
                for (reg, word) in regs.iter().enumerate() {
                    for p in 0..4 / form.esize() {
                        let (m, kk) = a_element(form, tid, reg, p);
                        a[m * k + kk] = (word >> (bits * p)) & mask;
                    }
                }
            }
        }
    }
    let mut b = vec![0u32; k * n];
    for kk in 0..k {
        for col in 0..n {
            b[kk * n + col] =
                described(form, &case.image, case.desc_b, true, col, kk, fit.base_rule)?;
        }
    }
    if form.negate_a {
        a.iter_mut().for_each(|x| *x ^= sign_bit(form.a));
    }
    if form.negate_b {
        b.iter_mut().for_each(|x| *x ^= sign_bit(form.b));
    }
    let mut c = vec![0u32; 64 * n];
    if case.scale_d {
        for (tid, regs) in case.c.iter().enumerate() {
            for (reg, &word) in regs.iter().enumerate() {
                if form.d == Elem::F16 {
                    for h in 0..2 {
                        let (m, col) = d_element(form, tid, reg, h);
                        c[m * n + col] = (word >> (16 * h)) & 0xffff;
                    }
                } else {
                    let (m, col) = d_element(form, tid, reg, 0);
                    c[m * n + col] = word;
                }
            }
        }
    }
    Some(Operands { a, b, c })
}

fn format(e: Elem) -> Format {
    match e {
        Elem::F16 => Format::F16,
        Elem::Bf16 => Format::Bf16,
        Elem::Tf32 => Format::Tf32,
        Elem::E4m3 => Format::E4m3,
        _ => Format::E5m2,
    }
}

/// D (64 × N, raw bits; f16 in the low 16 bits) from the operands.
pub fn product(form: &WgmmaForm, ops: &Operands, fit: &Fit) -> Vec<u32> {
    let (k, n) = (form.k(), form.n);
    if form.is_integer() {
        return (0..64 * n)
            .map(|e| {
                let (m, j) = (e / n, e % n);
                let col: Vec<u32> = (0..k).map(|kk| ops.b[kk * n + j]).collect();
                integer_dot(form, &ops.a[m * k..(m + 1) * k], &col, ops.c[e])
            })
            .collect();
    }
    // Every element decoded once: A row by row, B column by column.
    let formats = (format(form.a), format(form.b));
    let accum = if form.d == Elem::F16 {
        Accum::F16
    } else {
        Accum::F32
    };
    let a: Vec<Element> = ops
        .a
        .iter()
        .map(|&x| element(formats.0, x, &fit.choices))
        .collect();
    let b: Vec<Element> = (0..n * k)
        .map(|i| element(formats.1, ops.b[(i % k) * n + i / k], &fit.choices))
        .collect();
    (0..64 * n)
        .map(|e| {
            let (m, j) = (e / n, e % n);
            let (row, col) = (&a[m * k..(m + 1) * k], &b[j * k..(j + 1) * k]);
            dot_decoded(Arch::Sm90, formats, accum, row, col, ops.c[e], &fit.choices).unwrap_or(0)
        })
        .collect()
}

/// c + Σ a·b over s8/u8 elements, wrapping to s32 or clamped with `.satfinite`.
fn integer_dot(form: &WgmmaForm, a: &[u32], b: &[u32], c: u32) -> u32 {
    let value = |e: Elem, x: u32| {
        if e == Elem::S8 {
            i64::from(x as u8 as i8)
        } else {
            i64::from(x as u8)
        }
    };
    let sum: i64 = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| value(form.a, x) * value(form.b, y))
        .sum::<i64>()
        + i64::from(c as i32);
    if form.satfinite {
        sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
    } else {
        sum as u32
    }
}

/// Every thread's D registers after the instruction (None where a descriptor points outside
/// the image).
pub fn expected(form: &WgmmaForm, case: &Case, fit: &Fit) -> Option<Vec<Vec<u32>>> {
    let d = product(form, &operands(form, case, fit)?, fit);
    Some(
        (0..128)
            .map(|tid| super::cases::pack_d(form, &d, tid))
            .collect(),
    )
}

/// FNV-1a (64-bit) over every D word of every thread, thread by thread, each word's bytes
/// little-endian: what the sweep records per case.
pub fn digest(words: impl IntoIterator<Item = u32>) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for w in words {
        for byte in w.to_le_bytes() {
            h = (h ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::super::forms::type_combos;
    use super::*;

    fn int_form(satfinite: bool) -> WgmmaForm {
        let combo = type_combos()
            .into_iter()
            .find(|c| c.1 == Elem::S8 && c.2 == Elem::U8 && c.3 == satfinite)
            .unwrap();
        WgmmaForm::plain(8, combo, Source::Regs)
    }

    #[test]
    fn integer_sums_wrap_or_clamp() {
        let (a, b) = ([0x80u32; 32], [0xffu32; 32]); // −128 · 255, 32 times
        let c = (i32::MIN + 5) as u32;
        let exact = i64::from(i32::MIN) + 5 - 32 * 128 * 255;
        assert_eq!(integer_dot(&int_form(false), &a, &b, c), exact as u32);
        assert_eq!(integer_dot(&int_form(true), &a, &b, c), i32::MIN as u32);
    }

    #[test]
    fn imm_scale_negates_the_elements_and_scale_d_drops_c() {
        let f16 = WgmmaForm {
            negate_b: true,
            ..WgmmaForm::plain(8, type_combos()[0], Source::Regs)
        };
        let case = Case {
            image: vec![0; 4096],
            desc_a: 0,
            desc_b: 0,
            scale_d: false,
            a_regs: vec![[0x3c00_3c00; 4]; 128],
            c: vec![vec![0x4000_0000; 4]; 128],
        };
        let ops = operands(&f16, &case, &Fit::DEFAULT).unwrap();
        assert!(ops.c.iter().all(|&c| c == 0));
        assert!(ops.b.iter().all(|&b| b == 0x8000));
        assert!(ops.a.iter().all(|&a| a == 0x3c00));
    }
}
