//! Input vectors for a canonical form: edge values of the operand types, exhaustive enumeration
//! where the input space has at most 2^20 points, and at least [`RANDOM_VECTORS`] vectors from a
//! fixed-seed PRNG otherwise.

use super::forms::{CanonicalForm, Input, RegClass};
use ptx2hip_core::vocabulary::types::PtxType;

/// Random vectors per form (on top of the edge cases) when the space is not enumerated.
pub const RANDOM_VECTORS: usize = 10_000;
/// Largest input space (in bits) that is enumerated exhaustively.
pub const EXHAUSTIVE_BITS: u32 = 20;

/// SplitMix64: tiny, fixed, reproducible everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// What one input value is, for choosing values.
#[derive(Debug, Clone, Copy)]
struct Domain {
    /// Bits the instruction reads.
    ty_bits: u32,
    /// Bits of the register (upper bits beyond `ty_bits` get random garbage in random vectors).
    reg_bits: u32,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Int,
    F16,
    F32,
    F64,
    /// A 16-byte vector of four 32-bit lanes.
    V4x32,
}

fn domains(form: &CanonicalForm) -> Vec<Domain> {
    form.inputs
        .iter()
        .map(|i| match i {
            Input::Reg {
                class: RegClass::Q, ..
            } => Domain {
                // 128-bit registers are filled like 16-byte memory: a value and a second half.
                ty_bits: 64,
                reg_bits: 64,
                kind: Kind::V4x32,
            },
            Input::Reg { class, ty, .. } => {
                let reg_bits = class.bytes() as u32 * 8;
                let kind = match (ty, class) {
                    (PtxType::F32, _) | (_, RegClass::F) => Kind::F32,
                    (PtxType::F64, _) | (_, RegClass::D) => Kind::F64,
                    (PtxType::F16, _) => Kind::F16,
                    _ => Kind::Int,
                };
                Domain {
                    ty_bits: ty.bits().min(reg_bits),
                    reg_bits,
                    kind,
                }
            }
            Input::Mem { bytes, elem, .. } => {
                let bits = *bytes as u32 * 8;
                let kind = if *bytes > 8 {
                    Kind::V4x32
                } else {
                    match elem {
                        PtxType::F32 => Kind::F32,
                        PtxType::F64 => Kind::F64,
                        PtxType::F16 => Kind::F16,
                        _ => Kind::Int,
                    }
                };
                Domain {
                    ty_bits: bits.min(64),
                    reg_bits: bits.min(64),
                    kind,
                }
            }
        })
        .collect()
}

fn int_edges(w: u32) -> Vec<u64> {
    let m = mask(w);
    let mut v: Vec<u64> = (0..=70u64).collect();
    v.extend([
        127,
        128,
        129,
        255,
        256,
        257,
        32767,
        32768,
        65535,
        65536,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
    ]);
    v.extend([
        0x5555_5555_5555_5555,
        0xaaaa_aaaa_aaaa_aaaa,
        0x0123_4567_89ab_cdef,
    ]);
    for k in 0..w as u64 {
        v.push(1 << k);
        v.push((1u64 << k).wrapping_sub(1));
    }
    let sign = 1u64 << (w - 1);
    v.extend([
        sign,
        sign - 1,
        sign + 1,
        sign.wrapping_sub(2),
        m,
        m - 1,
        m - 2,
    ]);
    for s in [
        1u64, 2, 3, 31, 32, 33, 63, 64, 127, 128, 129, 255, 256, 32768, 65536, 16_777_216,
        16_777_217,
    ] {
        v.push(s.wrapping_neg());
    }
    // Values around the largest integers exactly representable in f32 / f64.
    v.extend([
        (1 << 24) - 1,
        1 << 24,
        (1 << 24) + 1,
        (1 << 24) + 3,
        (1 << 53) + 1,
        (1 << 53) - 1,
    ]);
    let mut out: Vec<u64> = v.into_iter().map(|x| x & m).collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn small_int_edges(w: u32) -> Vec<u64> {
    let m = mask(w);
    let sign = 1u64 << (w - 1);
    let mut v: Vec<u64> = vec![
        0,
        1,
        2,
        3,
        7,
        8,
        31,
        32,
        33,
        63,
        64,
        127,
        128,
        255,
        256,
        0x8000,
        0xffff,
        0x10000,
        sign,
        sign - 1,
        sign + 1,
        m,
        m - 1,
        m & 0x5555_5555_5555_5555,
    ];
    v.extend([2u64, 3, 128, 0x8000].map(|s| s.wrapping_neg()));
    let mut out: Vec<u64> = v.into_iter().map(|x| x & m).collect();
    out.sort_unstable();
    out.dedup();
    out
}

const F32_EDGES: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x7f80_0000,
    0xff80_0000, // 0, 1, inf
    0x7fc0_0000,
    0xffc0_0000,
    0x7fff_ffff,
    0x7f80_0001,
    0xff80_0001,
    0x7fa0_0000,
    0x7fc0_0001,
    0xffff_ffff, // NaNs (quiet, signalling)
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x807f_ffff,
    0x0040_0000,
    0x0080_0000,
    0x8080_0000,
    0x0080_0001, // subnormal, min normal
    0x7f7f_ffff,
    0xff7f_ffff,
    0x7f7f_fffe,
    0x7f00_0000, // largest finite
    0x3f00_0000,
    0x3fc0_0000,
    0x4020_0000,
    0xbf00_0000,
    0xbfc0_0000,
    0xc020_0000, // ties 0.5 1.5 2.5
    0x3f7f_ffff,
    0x3f80_0001,
    0x3380_0000,
    0x3080_0000,
    0xb080_0000,
    0x3400_0000,
    0x3300_0001, // around 1, 2^-24, 2^-30
    0x42fe_0000,
    0x4300_0000,
    0xc300_0000,
    0xc301_0000,
    0x437f_0000,
    0x4380_0000, // 127 128 -128 -129 255 256
    0x4b00_0000,
    0x4b80_0000,
    0x4b80_0001,
    0x4f00_0000,
    0xcf00_0000,
    0x5f00_0000, // 2^23, 2^24, 2^31, 2^63
    0x4049_0fdb,
    0xc049_0fdb,
    0x3dcc_cccd,
    0x0100_0000,
    0x0000_8000,
];

const F64_EDGES: &[u64] = &[
    0,
    0x8000_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0xfff8_0000_0000_0000,
    0x7ff0_0000_0000_0001,
    0x7ff4_0000_0000_0000,
    0x7fff_ffff_ffff_ffff,
    1,
    0x8000_0000_0000_0001,
    0x000f_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0xffef_ffff_ffff_ffff,
    0x3fe0_0000_0000_0000,
    0x3ff8_0000_0000_0000,
    0x4004_0000_0000_0000,
    0xbfe0_0000_0000_0000,
    0xbff8_0000_0000_0000,
    0x4340_0000_0000_0000,
    0x4340_0000_0000_0001,
    0x3ca0_0000_0000_0000,
    0x4170_0000_0000_0000,
    0x47ef_ffff_e000_0000,
    0x47ef_ffff_f000_0000,
    0x3690_0000_0000_0000,
    0x36a0_0000_0000_0000,
    0x400921fb54442d18,
];

/// 16-bit float edge values: binary16 (f16) and bfloat16 (bf16) zeros, subnormals, the normal
/// boundary, the largest finite values, infinities, quiet and signalling NaNs with payloads, ones
/// and rounding ties. (A form with a single 16-bit input enumerates all 65,536 values instead.)
const F16_EDGES: &[u16] = &[
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
    0x7c01, 0x7d00, 0x7e00, 0x7fff, 0xfe00, 0xffff, 0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x3800, 0xb800,
    0x3e00, 0xbe00, 0x4100, 0xc100, 0x4000, 0x5bff, 0x1400, 0x0200, 0x3555, 0x3f80, 0xbf80, 0x0080,
    0x007f, 0x8080, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7f81, 0x7fc0, 0xffc0, 0x3f00, 0x3fc0, 0x4020,
    0x3f81, 0x3f7f,
];

fn edges(d: Domain) -> Vec<u64> {
    match d.kind {
        Kind::Int => int_edges(d.ty_bits),
        Kind::F16 => F16_EDGES.iter().map(|&x| x as u64).collect(),
        Kind::F32 => F32_EDGES.iter().map(|&x| x as u64).collect(),
        Kind::F64 => F64_EDGES.to_vec(),
        Kind::V4x32 => int_edges(32)
            .iter()
            .map(|&x| x | (x.rotate_left(32) ^ 0xdead_beef_0000_0000))
            .collect(),
    }
}

fn small_edges(d: Domain) -> Vec<u64> {
    match d.kind {
        Kind::Int => small_int_edges(d.ty_bits),
        _ => edges(d).into_iter().take(40).collect(),
    }
}

fn random_value(d: Domain, rng: &mut Rng, other: Option<u64>) -> u64 {
    let r = rng.next_u64();
    match d.kind {
        Kind::F32 => match (rng.below(3), other) {
            // Close exponents, where rounding decisions happen.
            (0, Some(o)) => {
                let e = ((o >> 23) & 0xff) as i64 + rng.below(50) as i64 - 25;
                (r & 0x807f_ffff) | ((e.clamp(0, 255) as u64) << 23)
            }
            (1, _) => (r & 0x807f_ffff) | ((100 + rng.below(56)) << 23),
            _ => r & 0xffff_ffff,
        },
        Kind::F64 => match (rng.below(3), other) {
            (0, Some(o)) => {
                let e = ((o >> 52) & 0x7ff) as i64 + rng.below(120) as i64 - 60;
                (r & 0x800f_ffff_ffff_ffff) | ((e.clamp(0, 2047) as u64) << 52)
            }
            _ => r,
        },
        Kind::V4x32 => r,
        Kind::F16 | Kind::Int => {
            // Garbage above the bits the instruction reads, in half the cases.
            let v = match rng.below(4) {
                0 => r >> rng.below(d.ty_bits as u64),
                _ => r,
            };
            if rng.below(2) == 0 {
                v & mask(d.ty_bits)
            } else {
                v & mask(d.reg_bits)
            }
        }
    }
}

/// Edge-value vectors of forms with three or more inputs are a cross product far larger than
/// useful; they are sampled down to this many (divided among immediate variants).
pub const EDGE_CAP: usize = 4096;

/// The input records of a form: each `form.in_bytes()` long, values little-endian at their
/// register width (memory inputs: the bytes as placed in the buffer).
pub fn vectors(form: &CanonicalForm) -> Vec<Vec<u64>> {
    vectors_marked(form).0
}

/// Concatenated cross products of edge-value sets, listed as nested loops would list them (the
/// first set slowest). Elements are computed from their index, so keeping a few thousand evenly
/// spaced combinations of a product of millions never builds the product.
struct EdgeProducts<'a> {
    products: Vec<Vec<&'a [u64]>>,
}

impl EdgeProducts<'_> {
    fn size(sets: &[&[u64]]) -> usize {
        sets.iter().map(|s| s.len()).product()
    }

    fn len(&self) -> usize {
        self.products.iter().map(|sets| Self::size(sets)).sum()
    }

    /// Combination `j` of the concatenation (`j < self.len()`).
    fn nth(&self, mut j: usize) -> Vec<u64> {
        let mut p = 0;
        while j >= Self::size(&self.products[p]) {
            j -= Self::size(&self.products[p]);
            p += 1;
        }
        let sets = &self.products[p];
        let mut v = vec![0; sets.len()];
        for (k, set) in sets.iter().enumerate().rev() {
            v[k] = set[j % set.len()];
            j /= set.len();
        }
        v
    }

    /// Every combination, or with `cap` and more than `cap` of them, the `i * len / cap`-th for
    /// `i` in `0..cap`.
    fn sample(&self, cap: Option<usize>) -> Vec<Vec<u64>> {
        let n = self.len();
        match cap {
            Some(cap) if n > cap => (0..cap).map(|i| self.nth(i * n / cap)).collect(),
            _ => (0..n).map(|j| self.nth(j)).collect(),
        }
    }
}

/// [`vectors`] and, for each, whether it is an edge-case vector (as opposed to a random one or
/// part of an exhaustive enumeration).
pub fn vectors_marked(form: &CanonicalForm) -> (Vec<Vec<u64>>, Vec<bool>) {
    let ds = domains(form);
    let total_bits: u32 = ds.iter().map(|d| d.ty_bits).sum();
    let mut rng = Rng::new(fnv(&form.form) ^ fnv(&form.seed_code));
    let random = RANDOM_VECTORS.div_ceil(form.variants.max(1));
    let mut edge: Vec<Vec<u64>> = Vec::new();
    let mut out: Vec<Vec<u64>> = Vec::new();
    match ds.len() {
        0 => edge.push(Vec::new()),
        1 if total_bits <= EXHAUSTIVE_BITS => {
            out.extend((0..=mask(total_bits)).map(|x| vec![x]));
            // Garbage in the register bits the instruction must ignore.
            if ds[0].reg_bits > ds[0].ty_bits {
                for _ in 0..1000 {
                    out.push(vec![
                        random_value(ds[0], &mut rng, None) & mask(ds[0].reg_bits),
                    ]);
                }
            }
        }
        1 => {
            edge.extend(edges(ds[0]).into_iter().map(|x| vec![x]));
            out.extend((0..random).map(|_| vec![random_value(ds[0], &mut rng, None)]));
        }
        _ => {
            // Every edge value against a smaller edge set in each position, then random.
            let full: Vec<Vec<u64>> = ds.iter().map(|&d| edges(d)).collect();
            let small: Vec<Vec<u64>> = ds.iter().map(|&d| small_edges(d)).collect();
            let mut products: Vec<Vec<&[u64]>> = (0..ds.len())
                .map(|pos| {
                    (0..ds.len())
                        .map(|k| {
                            if k == pos {
                                &full[k][..]
                            } else {
                                &small[k][..]
                            }
                        })
                        .collect()
                })
                .collect();
            if ds.iter().all(|d| matches!(d.kind, Kind::F32 | Kind::F64)) {
                // All pairs (triples) of float edge values.
                products.push(full.iter().map(Vec::as_slice).collect());
            }
            let cap = (ds.len() >= 3).then(|| (EDGE_CAP / form.variants.max(1)).max(16));
            edge.extend(EdgeProducts { products }.sample(cap));
            for _ in 0..random {
                let mut v = Vec::new();
                for (k, &d) in ds.iter().enumerate() {
                    let other = if k > 0 { Some(v[0]) } else { None };
                    v.push(random_value(d, &mut rng, other));
                }
                out.push(v);
            }
        }
    }
    let clamp = |v: &mut Vec<u64>| {
        for (x, d) in v.iter_mut().zip(&ds) {
            if d.kind != Kind::V4x32 {
                *x &= mask(d.reg_bits);
            }
        }
    };
    edge.iter_mut().for_each(clamp);
    out.iter_mut().for_each(clamp);
    edge.sort_unstable();
    edge.dedup();
    out.extend(edge.iter().cloned());
    out.sort_unstable();
    out.dedup();
    // Both lists are sorted: one walk marks the edge vectors.
    let mut edges = edge.iter().peekable();
    let marks = out
        .iter()
        .map(|v| {
            while edges.next_if(|e| *e < v).is_some() {}
            edges.next_if(|e| *e == v).is_some()
        })
        .collect();
    (out, marks)
}

/// Packs vectors into records of `form.in_bytes()` bytes.
pub fn pack(form: &CanonicalForm, vectors: &[Vec<u64>]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(vectors.len() * form.in_bytes());
    let mut rng = Rng::new(fnv(&form.form).rotate_left(17));
    for v in vectors {
        for (x, i) in v.iter().zip(&form.inputs) {
            let n = i.bytes();
            let le = x.to_le_bytes();
            if n <= 8 {
                bytes.extend_from_slice(&le[..n]);
            } else {
                // 16-byte vector: the value and a reproducible second half.
                bytes.extend_from_slice(&le);
                let hi = rng.next_u64() ^ x.rotate_left(13);
                bytes.extend_from_slice(&hi.to_le_bytes()[..n - 8]);
            }
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::EdgeProducts;

    /// The combinations of one product as nested loops list them.
    fn nested(sets: &[&[u64]]) -> Vec<Vec<u64>> {
        sets.iter().fold(vec![Vec::new()], |prefixes, set| {
            prefixes
                .iter()
                .flat_map(|p| {
                    set.iter().map(move |&x| {
                        let mut v = p.clone();
                        v.push(x);
                        v
                    })
                })
                .collect()
        })
    }

    #[test]
    fn edge_products_list_and_sample_the_concatenated_products() {
        let (a, b, c): (&[u64], &[u64], &[u64]) = (&[1, 2, 3], &[10, 20], &[100, 200, 300, 400]);
        let products = vec![vec![a, b, c], vec![c, a], vec![b]];
        let all: Vec<Vec<u64>> = products.iter().flat_map(|p| nested(p)).collect();
        let e = EdgeProducts { products };
        assert_eq!(e.len(), 24 + 12 + 2);
        assert_eq!(e.sample(None), all);
        assert_eq!(e.sample(Some(100)), all);
        let n = all.len();
        let every_nth: Vec<Vec<u64>> = (0..7).map(|i| all[i * n / 7].clone()).collect();
        assert_eq!(e.sample(Some(7)), every_nth);
    }
}
