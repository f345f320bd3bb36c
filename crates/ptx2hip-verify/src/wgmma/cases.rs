//! The cases of a `wgmma` form: a shared-memory image, the descriptors of A and B into it, A's
//! registers (A from registers), C (D's registers before the instruction) and scale-d, for the
//! 128 threads of one warpgroup; generated reproducibly from the set, the form's name and the
//! case number, so that a recording stores only outputs.
//!
//! Values are placed where the hypothesis of [`super::layout`] says the hardware reads them, over
//! a background of random bytes: where the hypothesis is wrong the hardware reads other bytes of
//! the image, which the reference reads too once it is fitted. Probe cases make the addresses
//! visible: one operand is one-hot (A[m][k] = 1 for k = m mod K, or B[k][n] = 1 for k = n mod
//! K) and every element slot of the other holds a small integer naming its own address, so that
//! D shows which address the hardware paired with each position.

use super::forms::{type_combos, Source, WgmmaForm};
use super::layout::{address, d_element, BaseRule, Descriptor, Swizzle};
use super::sets::Set;
use crate::inputs::Rng;
use crate::matrix::cases::{float, integer, Format, THEMES};
use crate::matrix::{Elem, Operand};

/// One warpgroup's inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The shared-memory image; the program places it at a 1024-byte boundary.
    pub image: Vec<u8>,
    /// A's descriptor with its start address relative to the image (0 with A from registers).
    pub desc_a: u64,
    pub desc_b: u64,
    pub scale_d: bool,
    /// With A from registers: each thread's four A registers.
    pub a_regs: Vec<[u32; 4]>,
    /// Each thread's D registers before the instruction (C).
    pub c: Vec<Vec<u32>>,
}

/// What a case of the layout set is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Random values through descriptors of the given variant (0 canonical, 1 shifted start
    /// and base offset = its row bits, 2 random strides and base offset).
    Random {
        mode_a: Swizzle,
        mode_b: Swizzle,
        variant: u32,
    },
    /// A one-hot, B's slots hold their address (low or high part).
    ProbeB { mode: Swizzle, high: bool },
    /// B one-hot, A's slots hold their address.
    ProbeA { mode: Swizzle, high: bool },
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The cases of `form` in `set`.
pub fn generate(set: Set, form: &WgmmaForm) -> Vec<Case> {
    let mut rng = Rng::new(fnv(&format!("{set:?} {}", form.name())));
    let n = set.cases(form);
    match set {
        Set::Numerics => (0..n).map(|i| numerics(form, i, &mut rng)).collect(),
        Set::Layouts => layout_kinds(form)
            .into_iter()
            .map(|k| layout(form, k, &mut rng))
            .collect(),
        Set::Sweep => (0..n).map(|i| sweep(form, i, &mut rng)).collect(),
    }
}

/// The kinds of the layout cases of `form`: every pair of swizzle modes in three variants, then
/// the probes of each mode (1-byte probes need an unsigned type, fp8 has none).
pub fn layout_kinds(form: &WgmmaForm) -> Vec<Kind> {
    let mut v = Vec::new();
    let a_modes: &[Swizzle] = if form.a_source == Source::Desc {
        &Swizzle::ALL
    } else {
        &[Swizzle::None]
    };
    for variant in 0..3 {
        for &mode_a in a_modes {
            for mode_b in Swizzle::ALL {
                v.push(Kind::Random {
                    mode_a,
                    mode_b,
                    variant,
                });
            }
        }
    }
    if matches!(form.b, Elem::E4m3 | Elem::E5m2 | Elem::S8) {
        return v;
    }
    for mode in Swizzle::ALL {
        for high in [false, true] {
            v.push(Kind::ProbeB { mode, high });
            if form.a_source == Source::Desc {
                v.push(Kind::ProbeA { mode, high });
            }
        }
    }
    v
}

/// A random element of operand `op` (C: D's type) for a theme; `i` its row-major index.
fn element(form: &WgmmaForm, op: Operand, theme: usize, i: usize, rng: &mut Rng) -> u32 {
    let e = match op {
        Operand::A => form.a,
        Operand::B => form.b,
        _ => form.d,
    };
    let v = if e.is_integer() {
        integer(e, theme, i, rng)
    } else {
        float(Format::of(e), op, theme, i, rng)
    };
    v as u32
}

/// The matrices of a case as values: A (64 × K), B (K × N), C (64 × N), row-major.
struct Matrices {
    a: Vec<u32>,
    b: Vec<u32>,
    c: Vec<u32>,
}

fn themed(form: &WgmmaForm, theme: usize, rng: &mut Rng) -> Matrices {
    let (k, n) = (form.k(), form.n);
    let mut fill = |op: Operand, len: usize| {
        (0..len)
            .map(|i| element(form, op, theme, i, rng))
            .collect::<Vec<u32>>()
    };
    Matrices {
        a: fill(Operand::A, 64 * k),
        b: fill(Operand::B, k * n),
        c: fill(Operand::C, 64 * n),
    }
}

/// An operand's place: its descriptor (start relative to the image) and its orientation.
#[derive(Clone, Copy)]
struct Placement {
    desc: Descriptor,
    mn_major: bool,
    rows: u32,
}

impl Placement {
    /// One past the last byte any element may be read from (the XOR of the swizzle stays inside
    /// the 128-byte line of the unswizzled address).
    fn end(&self, esize: u32, k: u32) -> u32 {
        let mut end = 0;
        for r in 0..self.rows {
            for kk in 0..k {
                let a = self.desc.start
                    + super::layout::offset(&self.desc, self.mn_major, esize, r, kk);
                end = end.max((a | 127) + 1);
            }
        }
        end
    }
}

/// Writes `value(r, k)` at the address of element (r, k) of `p` as the hypothesis of the
/// recording run placed it (base offset ignored): recordings regenerate their inputs through
/// this, so it stays as recorded whatever the fitted reference says.
fn place(
    image: &mut [u8],
    p: &Placement,
    esize: u32,
    k: u32,
    value: &mut dyn FnMut(u32, u32) -> u32,
) {
    for r in 0..p.rows {
        for kk in 0..k {
            let at = address(&p.desc, p.mn_major, esize, r, kk, BaseRule::Ignored) as usize;
            let v = value(r, kk).to_le_bytes();
            image[at..at + esize as usize].copy_from_slice(&v[..esize as usize]);
        }
    }
}

/// The canonical descriptor of a mode: dense core matrices, atoms or swizzle rows, as CUTLASS
/// builds them (K-major: none LBO 128 / SBO 256, swizzled SBO = 8 rows of W bytes; MN-major: none
/// SBO 128 / LBO after all row groups, swizzled LBO = one atom, SBO after all atoms of rows).
fn canonical(mode: Swizzle, mn_major: bool, rows: u32) -> Descriptor {
    let w = mode.width();
    let (lbo, sbo) = match (mode, mn_major) {
        (Swizzle::None, false) => (128, 256),
        (_, false) => (16, 8 * w),
        (Swizzle::None, true) => ((rows / 8) * 128, 128),
        (_, true) => {
            let atoms = rows.div_ceil(8 << mode.bits());
            (8 * w, atoms * 8 * w)
        }
    };
    Descriptor {
        start: 0,
        lbo,
        sbo,
        base: 0,
        swizzle: mode,
    }
}

/// A descriptor of `mode` for the layout set: canonical (variant 0), shifted inside the pattern
/// with the ISA's base offset (1), or with random strides and base offset (2).
fn varied(mode: Swizzle, mn_major: bool, rows: u32, variant: u32, rng: &mut Rng) -> Descriptor {
    let mut d = canonical(mode, mn_major, rows);
    let w = mode.width();
    if variant == 0 {
        return d;
    }
    // The start moves by whole 128-byte rows and, K-major swizzled, by the K-advance of real
    // kernels (32 bytes at a time inside a swizzle row); MN-major by 16-byte chunks.
    let line = rng.below(8) as u32;
    let inner = match (mode, mn_major) {
        (Swizzle::None, _) => 16 * rng.below(8) as u32,
        (_, false) => 32 * rng.below(u64::from(w / 32)) as u32,
        (_, true) => 16 * rng.below(u64::from(w / 16)) as u32,
    };
    d.start = 128 * line + inner;
    d.base = line;
    if variant == 2 {
        d.base = rng.below(8) as u32;
        let grow = |v: u32, rng: &mut Rng| v + 16 * rng.below(9) as u32;
        match (mode, mn_major) {
            (Swizzle::None, false) => {
                if rng.below(2) == 0 {
                    d.lbo = grow(128, rng);
                    d.sbo = grow(d.lbo + 128, rng);
                } else {
                    d.sbo = grow(128, rng);
                    d.lbo = grow(d.sbo * (rows / 8), rng);
                }
            }
            (_, false) => {
                d.lbo = 16 * rng.below(64) as u32;
                d.sbo = grow(8 * w, rng);
            }
            (Swizzle::None, true) => {
                d.sbo = grow(128, rng);
                d.lbo = grow(d.sbo * (rows / 8), rng);
            }
            (_, true) => {
                d.lbo = 8 * w * (1 + rng.below(2) as u32) + 16 * rng.below(3) as u32;
                let atoms = rows.div_ceil(8 << mode.bits());
                d.sbo = grow(atoms * d.lbo, rng);
            }
        }
    }
    d
}

/// Lays out A (unless in registers) and B one after the other on 1024-byte boundaries, the
/// image filled with random bytes; returns the image and the placements.
fn arrange(
    form: &WgmmaForm,
    a: Option<Descriptor>,
    b: Descriptor,
    rng: &mut Rng,
) -> (Vec<u8>, Option<Placement>, Placement) {
    let (esize, k) = (form.esize() as u32, form.k() as u32);
    let mut at = 0;
    let a = a.map(|mut desc| {
        let p0 = Placement {
            desc,
            mn_major: form.trans_a,
            rows: 64,
        };
        desc.start += at;
        at = p0.end(esize, k).next_multiple_of(1024);
        Placement { desc, ..p0 }
    });
    let mut desc = b;
    desc.start += at;
    let b = Placement {
        desc,
        mn_major: form.trans_b,
        rows: form.n as u32,
    };
    let size = b.end(esize, k).next_multiple_of(1024) as usize;
    let image = (0..size).map(|_| rng.next_u64() as u8).collect();
    (image, a, b)
}

/// Puts the matrices into a case: A and B into the image (those `placed` says; A from
/// registers into them), C into D's registers.
fn assemble(
    form: &WgmmaForm,
    m: &Matrices,
    (mut image, a, b): (Vec<u8>, Option<Placement>, Placement),
    scale_d: bool,
    placed: (bool, bool),
) -> Case {
    let (esize, k, n) = (form.esize() as u32, form.k(), form.n);
    if let Some(a) = a.as_ref().filter(|_| placed.0) {
        place(&mut image, a, esize, k as u32, &mut |r, kk| {
            m.a[r as usize * k + kk as usize]
        });
    }
    if placed.1 {
        place(&mut image, &b, esize, k as u32, &mut |r, kk| {
            m.b[kk as usize * n + r as usize]
        });
    }
    let a_regs = if a.is_none() {
        (0..128).map(|tid| pack_a(form, &m.a, tid)).collect()
    } else {
        Vec::new()
    };
    let c = (0..128).map(|tid| pack_d(form, &m.c, tid)).collect();
    Case {
        image,
        desc_a: a.map_or(0, |p| p.desc.encode()),
        desc_b: b.desc.encode(),
        scale_d,
        a_regs,
        c,
    }
}

/// The four A registers of thread `tid` (A row-major 64 × K).
pub fn pack_a(form: &WgmmaForm, a: &[u32], tid: usize) -> [u32; 4] {
    let per = 4 / form.esize();
    let bits = 8 * form.esize();
    let mut regs = [0u32; 4];
    for (reg, word) in regs.iter_mut().enumerate() {
        for p in 0..per {
            let (r, kk) = super::layout::a_element(form, tid, reg, p);
            let mask = if bits == 32 {
                u32::MAX
            } else {
                (1 << bits) - 1
            };
            *word |= (a[r * form.k() + kk] & mask) << (bits * p);
        }
    }
    regs
}

/// The D registers of thread `tid` holding matrix `c` (64 × N).
pub fn pack_d(form: &WgmmaForm, c: &[u32], tid: usize) -> Vec<u32> {
    (0..form.d_regs())
        .map(|reg| {
            if form.d == Elem::F16 {
                let (r0, c0) = d_element(form, tid, reg, 0);
                let (r1, c1) = d_element(form, tid, reg, 1);
                (c[r0 * form.n + c0] & 0xffff) | (c[r1 * form.n + c1] & 0xffff) << 16
            } else {
                let (r, cc) = d_element(form, tid, reg, 0);
                c[r * form.n + cc]
            }
        })
        .collect()
}

/// D (64 × N; f16 in the low 16 bits) from every thread's D registers: the inverse of
/// [`pack_d`].
pub fn unpack_d(form: &WgmmaForm, threads: &[&[u32]]) -> Vec<u32> {
    let mut d = vec![0u32; 64 * form.n];
    for (tid, regs) in threads.iter().enumerate() {
        for (reg, &word) in regs.iter().enumerate() {
            if form.d == Elem::F16 {
                for h in 0..2 {
                    let (m, n) = d_element(form, tid, reg, h);
                    d[m * form.n + n] = (word >> (16 * h)) & 0xffff;
                }
            } else {
                let (m, n) = d_element(form, tid, reg, 0);
                d[m * form.n + n] = word;
            }
        }
    }
    d
}

/// Numerics: every theme in turn, dense canonical layouts without swizzle, scale-d 0 in every
/// fifth case.
fn numerics(form: &WgmmaForm, i: usize, rng: &mut Rng) -> Case {
    let m = themed(form, i % THEMES, rng);
    let a = (form.a_source == Source::Desc).then(|| canonical(Swizzle::None, form.trans_a, 64));
    let b = canonical(Swizzle::None, form.trans_b, form.n as u32);
    let parts = arrange(form, a, b, rng);
    assemble(form, &m, parts, i % 5 != 4, (true, true))
}

/// The sweep: random values (themes 0 and 9) through dense 32-byte swizzled layouts; C is
/// ignored (scale-d 0) in the first case and ±2^12 in the second (the inputs stay small: C is
/// most of a wide form's input).
fn sweep(form: &WgmmaForm, i: usize, rng: &mut Rng) -> Case {
    let mut m = themed(form, [0, 9][i % 2], rng);
    m.c = (0..64 * form.n)
        .map(|j| {
            if i == 0 {
                0
            } else {
                element(form, Operand::C, 8, j, rng)
            }
        })
        .collect();
    let a = (form.a_source == Source::Desc).then(|| canonical(Swizzle::B32, form.trans_a, 64));
    let b = canonical(Swizzle::B32, form.trans_b, form.n as u32);
    let parts = arrange(form, a, b, rng);
    assemble(form, &m, parts, i != 0, (true, true))
}

/// The integer a probe slot holds for the element at image offset `x`: the element index's low
/// 10 bits (1-byte types: the byte offset's low 8) or the bits above them.
fn probe_code(form: &WgmmaForm, x: u32, high: bool) -> u32 {
    let (shift, mask) = if form.esize() == 1 {
        (8, 0xff)
    } else {
        (10, 0x3ff)
    };
    let idx = x / form.esize() as u32;
    let v = if high { idx >> shift } else { idx & mask };
    encode_int(form.a, v)
}

/// A small non-negative integer in the element type.
fn encode_int(e: Elem, v: u32) -> u32 {
    match e {
        Elem::F16 => f16_of(v),
        Elem::Bf16 => (v as f32).to_bits() >> 16,
        Elem::Tf32 => (v as f32).to_bits(),
        _ => v,
    }
}

/// The f16 bits of an integer below 2048 (exact).
fn f16_of(v: u32) -> u32 {
    if v == 0 {
        return 0;
    }
    let e = 31 - v.leading_zeros();
    let frac = (v << (10 - e)) & 0x3ff;
    (e + 15) << 10 | frac
}

fn layout(form: &WgmmaForm, kind: Kind, rng: &mut Rng) -> Case {
    let desc_a = form.a_source == Source::Desc;
    let (kk, n) = (form.k(), form.n);
    match kind {
        Kind::Random {
            mode_a,
            mode_b,
            variant,
        } => {
            // C is +0: the layouts are the question here (and C is most of a wide form's input).
            let theme = [0, 1, 9][rng.below(3) as usize];
            let mut m = themed(form, theme, rng);
            m.c.fill(0);
            let a = desc_a.then(|| varied(mode_a, form.trans_a, 64, variant, rng));
            let b = varied(mode_b, form.trans_b, n as u32, variant, rng);
            let parts = arrange(form, a, b, rng);
            assemble(form, &m, parts, true, (true, true))
        }
        Kind::ProbeB { mode, high } | Kind::ProbeA { mode, high } => {
            let probe_b = matches!(kind, Kind::ProbeB { .. });
            let one = encode_int(form.a, 1);
            let hot = |hit: bool| if hit { one } else { 0 };
            let m = Matrices {
                a: (0..64 * kk)
                    .map(|i| hot(!probe_b || i % kk == (i / kk) % kk))
                    .collect(),
                b: (0..kk * n)
                    .map(|i| hot(probe_b || i / n == (i % n) % kk))
                    .collect(),
                c: vec![0; 64 * n],
            };
            // The low and high halves of a code come from two cases: both get the same
            // descriptor (shifted inside the pattern, with its base offset).
            let drng = &mut Rng::new(mode.bits() as u64 + 8 * u64::from(probe_b));
            let (a, b) = if probe_b {
                let a = desc_a.then(|| canonical(Swizzle::None, form.trans_a, 64));
                (a, varied(mode, form.trans_b, n as u32, 1, drng))
            } else {
                let a = Some(varied(mode, form.trans_a, 64, 1, drng));
                (a, canonical(Swizzle::None, form.trans_b, n as u32))
            };
            let (mut image, pa, pb) = arrange(form, a, b, rng);
            // The probed operand's region: every slot names its own address.
            let region = if probe_b {
                let a_end = pa.map_or(0, |p| p.end(form.esize() as u32, kk as u32));
                a_end.next_multiple_of(1024) as usize..image.len()
            } else {
                0..(pb.desc.start as usize & !1023)
            };
            let es = form.esize();
            for x in region.step_by(es) {
                let code = probe_code(form, x as u32, high).to_le_bytes();
                image[x..x + es].copy_from_slice(&code[..es]);
            }
            // Only the one-hot operand is placed: the probed one's slots hold their codes.
            assemble(form, &m, (image, pa, pb), true, (probe_b, !probe_b))
        }
    }
}

/// The element-type combinations of the layout set's forms (f16, tf32, u8 probes, e4m3).
pub fn layout_combos() -> Vec<(Elem, Elem, Elem, bool)> {
    type_combos()
        .into_iter()
        .filter(|&(d, a, b, sat)| {
            !sat && matches!(
                (d, a, b),
                (Elem::F32, Elem::F16, Elem::F16)
                    | (Elem::F32, Elem::Tf32, Elem::Tf32)
                    | (Elem::F32, Elem::E4m3, Elem::E4m3)
                    | (Elem::S32, Elem::U8, Elem::U8)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_of_small_integers_is_exact() {
        assert_eq!(f16_of(1), 0x3c00);
        assert_eq!(f16_of(1023), 0x63fe);
        assert_eq!(f16_of(2), 0x4000);
    }
}
