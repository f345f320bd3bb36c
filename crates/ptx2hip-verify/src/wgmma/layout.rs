//! Where `wgmma` finds its operands: the 64-bit shared-memory matrix descriptor, the address of
//! every element of an A or B matrix it describes, and the register fragments of A and D.
//!
//! A described matrix is R rows (A: M = 64; B: N) by 32 bytes of K (k16 × 2 bytes, k8 × 4, k32
//! × 1). Row r runs along M (A) or N (B). K-major (no `imm-trans`) keeps K contiguous; MN-major
//! (`imm-trans` = 1, 16-bit types only) keeps M or N contiguous. Addresses are offsets in the
//! shared-memory image, which starts at a 1024-byte boundary (so that the swizzle, which reads
//! address bits 7 and up, sees the image's own offsets).

use super::forms::WgmmaForm;
use crate::matrix::Elem;

/// The swizzle mode of a descriptor (bits 62–63: 0 none, 1 128B, 2 64B, 3 32B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Swizzle {
    None,
    B32,
    B64,
    B128,
}

impl Swizzle {
    pub const ALL: [Swizzle; 4] = [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128];

    /// S: how many address bits the swizzle XORs (the row of a 16-byte chunk in an atom of
    /// 2^S rows).
    pub fn bits(self) -> u32 {
        match self {
            Swizzle::None => 0,
            Swizzle::B32 => 1,
            Swizzle::B64 => 2,
            Swizzle::B128 => 3,
        }
    }

    /// The width of a swizzle row in bytes (16 << S).
    pub fn width(self) -> u32 {
        16 << self.bits()
    }

    fn field(self) -> u64 {
        match self {
            Swizzle::None => 0,
            Swizzle::B128 => 1,
            Swizzle::B64 => 2,
            Swizzle::B32 => 3,
        }
    }

    fn of_field(f: u64) -> Swizzle {
        [Swizzle::None, Swizzle::B128, Swizzle::B64, Swizzle::B32][(f & 3) as usize]
    }
}

/// A decoded matrix descriptor: byte values (the fields hold them divided by 16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Descriptor {
    /// Bits 0–13: the start address.
    pub start: u32,
    /// Bits 16–29: the leading-dimension byte offset.
    pub lbo: u32,
    /// Bits 32–45: the stride-dimension byte offset.
    pub sbo: u32,
    /// Bits 49–51.
    pub base: u32,
    pub swizzle: Swizzle,
}

impl Descriptor {
    pub fn decode(d: u64) -> Descriptor {
        let field = |shift: u32| (((d >> shift) & 0x3fff) << 4) as u32;
        Descriptor {
            start: field(0),
            lbo: field(16),
            sbo: field(32),
            base: ((d >> 49) & 7) as u32,
            swizzle: Swizzle::of_field(d >> 62),
        }
    }

    /// The descriptor's bits (byte values must be multiples of 16 below 2^18).
    pub fn encode(&self) -> u64 {
        let field = |v: u32, shift: u32| (u64::from(v >> 4) & 0x3fff) << shift;
        field(self.start, 0)
            | field(self.lbo, 16)
            | field(self.sbo, 32)
            | u64::from(self.base & 7) << 49
            | self.swizzle.field() << 62
    }
}

/// The byte offset from the start address of element (r, k) of an operand whose elements take
/// `esize` bytes, before the swizzle. K-major: the none mode stores 8×16-byte core matrices (rows
/// 16 bytes apart, LBO between the two 16-byte halves of K, SBO between groups of 8 rows); the
/// swizzled modes rows of W = 16 << S bytes (SBO between groups of 8 rows, LBO unused). MN-major:
/// 16 bytes hold 8 consecutive rows; the roles of LBO and SBO depend on the mode.
pub fn offset(d: &Descriptor, mn_major: bool, esize: u32, r: u32, k: u32) -> u32 {
    let kb = k * esize;
    if !mn_major {
        return match d.swizzle {
            Swizzle::None => (r % 8) * 16 + (r / 8) * d.sbo + (kb / 16) * d.lbo + kb % 16,
            s => (r % 8) * s.width() + (r / 8) * d.sbo + kb,
        };
    }
    let rb = (r % 8) * esize;
    match d.swizzle {
        Swizzle::None => rb + (r / 8) * d.sbo + (k % 8) * 16 + (k / 8) * d.lbo,
        s => {
            // 2^S chunks of 8 rows side by side make a row of W bytes; 8 k of them an atom.
            let chunks = 1 << s.bits();
            rb + ((r / 8) % chunks) * 16
                + (r / (8 * chunks)) * d.lbo
                + (k % 8) * s.width()
                + (k / 8) * d.sbo
        }
    }
}

/// How the descriptor's base offset enters the swizzle, which the ISA text leaves open: the
/// hypotheses the recordings decided between ([`BASE_RULE`] is the H100's; the others stay for
/// the address probes of `wgmma_vectors probe`, and the cases are placed with the field ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BaseRule {
    /// The field is not read.
    Ignored,
    /// The swizzle row is (address bits 7+) − base.
    RowMinus,
    /// The swizzle row is (address bits 7+) + base.
    RowPlus,
}

/// The address of element (r, k): start + [`offset`], then the swizzle XORs bits [4, 4 + S)
/// with the row bits [7, 7 + S) as `rule` makes them.
pub fn address(d: &Descriptor, mn_major: bool, esize: u32, r: u32, k: u32, rule: BaseRule) -> u32 {
    let a = d.start + offset(d, mn_major, esize, r, k);
    let s = d.swizzle.bits();
    let row = match rule {
        BaseRule::Ignored => a >> 7,
        BaseRule::RowMinus => (a >> 7).wrapping_sub(d.base),
        BaseRule::RowPlus => (a >> 7).wrapping_add(d.base),
    };
    a ^ ((row & ((1 << s) - 1)) << 4)
}

/// The H100's rule: every address probe and every layout case matched it, none of the others
/// (docs/WGMMA.md).
pub const BASE_RULE: BaseRule = BaseRule::RowMinus;

/// Thread `tid` of the warpgroup: its warp w (rows 16w…16w+15), g = lane / 4, t = lane % 4.
fn thread(tid: usize) -> (usize, usize, usize) {
    let lane = tid % 32;
    ((tid / 32) % 4, lane >> 2, lane & 3)
}

/// The element (m, n) of D that register `reg` of thread `tid` holds, in its half `h` for f16
/// accumulators (f32/s32: h = 0). Register 4j + i of an f32 D: D[16w + g + 8(i >> 1)][8j + 2t +
/// (i & 1)]; f16 register 2j + q: D[16w + g + 8q][8j + 2t + h].
pub fn d_element(form: &WgmmaForm, tid: usize, reg: usize, h: usize) -> (usize, usize) {
    let (w, g, t) = thread(tid);
    if form.d == Elem::F16 {
        let (j, q) = (reg / 2, reg % 2);
        (16 * w + g + 8 * q, 8 * j + 2 * t + h)
    } else {
        let (j, i) = (reg / 4, reg % 4);
        (16 * w + g + 8 * (i >> 1), 8 * j + 2 * t + (i & 1))
    }
}

/// The element (m, k) of A that part `p` of register `reg` (0…3) of thread `tid` holds with A
/// from registers: the mma.m16n8k16 A fragment of the warp's 16 rows (16-bit), m16n8k8 tf32,
/// m16n8k32 (8-bit): A[16w + g + 8(reg & 1)][e·t + p + 4e(reg >> 1)], e elements a register.
pub fn a_element(form: &WgmmaForm, tid: usize, reg: usize, p: usize) -> (usize, usize) {
    let (w, g, t) = thread(tid);
    let e = 4 / form.esize();
    (16 * w + g + 8 * (reg & 1), e * t + p + 4 * e * (reg >> 1))
}

/// The raw bits of element (r, k) of operand A (`b` false) or B of `form`, read from `image`
/// through descriptor `desc`; None where the element lies outside the image.
pub fn described(
    form: &WgmmaForm,
    image: &[u8],
    desc: u64,
    b: bool,
    r: usize,
    k: usize,
    rule: BaseRule,
) -> Option<u32> {
    let d = Descriptor::decode(desc);
    let mn_major = if b { form.trans_b } else { form.trans_a };
    let esize = form.esize() as u32;
    let at = address(&d, mn_major, esize, r as u32, k as u32, rule) as usize;
    let bytes = image.get(at..at + esize as usize)?;
    Some(
        bytes
            .iter()
            .rev()
            .fold(0u32, |v, &byte| (v << 8) | u32::from(byte)),
    )
}

#[cfg(test)]
mod tests {
    use super::super::forms::Source;
    use super::*;

    #[test]
    fn a_descriptor_round_trips_its_fields() {
        let d = Descriptor {
            start: 0x3_fff0,
            lbo: 16,
            sbo: 1024,
            base: 5,
            swizzle: Swizzle::B64,
        };
        assert_eq!(Descriptor::decode(d.encode()), d);
        assert_eq!(d.encode() >> 62, 2);
    }

    #[test]
    fn k_major_128b_swizzle_moves_16_byte_chunks_by_the_row() {
        let d = Descriptor {
            start: 0,
            lbo: 16,
            sbo: 1024,
            base: 0,
            swizzle: Swizzle::B128,
        };
        // Row 1, k bytes 0..16: the row's chunk 0 goes to chunk 1.
        assert_eq!(address(&d, false, 2, 1, 0, BaseRule::Ignored), 128 + 16);
        // Row 9 is 1024 further (SBO), the same pattern.
        assert_eq!(address(&d, false, 2, 9, 8, BaseRule::Ignored), 1024 + 128);
        // A K-advance of 32 bytes shifts the chunk inside the row before the XOR: chunk 2 of
        // row 3 goes to chunk 2 ^ 3 = 1.
        let d32 = Descriptor { start: 32, ..d };
        assert_eq!(
            address(&d32, false, 2, 3, 0, BaseRule::Ignored),
            3 * 128 + 16
        );
    }

    #[test]
    fn the_base_offset_is_subtracted_from_the_swizzle_row() {
        // A pattern starting 5 rows into its 1024-byte atom with base offset 5 reads as if it
        // started at the atom: row 0's chunk 0 stays in place (the H100's rule).
        let d = Descriptor {
            start: 5 * 128,
            lbo: 16,
            sbo: 1024,
            base: 5,
            swizzle: Swizzle::B128,
        };
        assert_eq!(BASE_RULE, BaseRule::RowMinus);
        assert_eq!(address(&d, false, 2, 0, 0, BASE_RULE), 5 * 128);
        assert_eq!(address(&d, false, 2, 1, 0, BASE_RULE), 6 * 128 + 16);
        // Ignoring the field swizzles by the absolute row: 5.
        assert_eq!(
            address(&d, false, 2, 0, 0, BaseRule::Ignored),
            5 * 128 + 5 * 16
        );
    }

    #[test]
    fn mn_major_none_has_8_rows_per_16_bytes() {
        let d = Descriptor {
            start: 0,
            lbo: 1024,
            sbo: 128,
            base: 0,
            swizzle: Swizzle::None,
        };
        assert_eq!(offset(&d, true, 2, 9, 9), 2 + 128 + 16 + 1024);
    }

    #[test]
    fn fragments_cover_every_element_once() {
        use super::super::forms::{type_combos, WgmmaForm};
        for combo in type_combos() {
            let f = WgmmaForm::plain(16, combo, Source::Regs);
            let mut seen = vec![0; 64 * f.n];
            let per = if f.d == Elem::F16 { 2 } else { 1 };
            for tid in 0..128 {
                for r in 0..f.d_regs() {
                    for h in 0..per {
                        let (m, n) = d_element(&f, tid, r, h);
                        seen[m * f.n + n] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&c| c == 1), "{}", f.name());
            let mut seen = vec![0; 64 * f.k()];
            for tid in 0..128 {
                for r in 0..4 {
                    for p in 0..4 / f.esize() {
                        let (m, k) = a_element(&f, tid, r, p);
                        seen[m * f.k() + k] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&c| c == 1), "{}", f.name());
        }
    }
}
