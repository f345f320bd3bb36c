//! The block-FMA model of NVIDIA tensor cores for float `mma` (tensor-cores.md §1.2; Fasi et al.
//! 2021, Khattak & Mikaitis 2025, Xie et al. 2025): the reference the device helpers
//! (`rules/helpers/tensor_model.h`) are checked against bit for bit, and through them the
//! translations. Written with integers only (the helpers use doubles), so that the two
//! implementations share no arithmetic shortcut.
//!
//! One block computes `d = c + Σ a_k·b_k` for up to `products` terms: specials first, then every
//! input is `s·2^e` (e clamped at its format's e_min, s not renormalised), every product and `c`
//! is truncated toward zero at 2^(E − nfrac) where E is the largest exponent, the truncated terms
//! are summed exactly and the sum is rounded once. A longer K chains blocks, each block's rounded
//! result the next block's `c`. What the published recordings leave open is in [`Choices`].

/// A tensor-core generation with its own numerics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// H100, H200: `mma.sync` and `wgmma`; fp8 as `wgmma` computes it (fp8 `mma.sync` goes
    /// through f16 instead: [`dot_fp8_sync`]).
    Sm90,
    /// A100 (and A30, A2, RTX 30).
    Sm80,
}

/// The element format of A and B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    F16,
    Bf16,
    /// The whole f32 register; its low 13 bits are not part of the value ([`Choices`]).
    Tf32,
    /// OCP fp8 e4m3 (no infinities, NaN = S.1111.111).
    E4m3,
    /// OCP fp8 e5m2 (IEEE-style specials).
    E5m2,
}

/// The type of C and D.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Accum {
    F32,
    /// The low 16 bits of the register.
    F16,
}

/// One block of the model: how many products it fuses and the fraction bits kept below E.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub products: usize,
    pub nfrac: u32,
}

impl Arch {
    /// The block of `format`, or None where the architecture has no tensor-core path for it
    /// (fp8 on sm_80). Values: tensor-cores.md §1.2 table (both 2025 models agree).
    pub fn block(self, format: Format) -> Option<Block> {
        let (products, nfrac) = match (self, format) {
            (Arch::Sm90, Format::F16 | Format::Bf16) => (16, 25),
            (Arch::Sm90, Format::Tf32) => (8, 25),
            (Arch::Sm90, Format::E4m3 | Format::E5m2) => (32, 13),
            (Arch::Sm80, Format::F16 | Format::Bf16) => (8, 24),
            (Arch::Sm80, Format::Tf32) => (4, 24),
            (Arch::Sm80, Format::E4m3 | Format::E5m2) => return None,
        };
        Some(Block { products, nfrac })
    }

    /// The least value E may take ([`Choices::align_clamp`]): the published model's
    /// `min_exp_limit` (Khattak & Mikaitis, `H100TC.m`, `A100TC.m`), lower for f32 outputs.
    pub fn align_floor(self, accum: Accum) -> i32 {
        match (self, accum) {
            (Arch::Sm90, Accum::F32) => -133,
            (Arch::Sm90, Accum::F16) => -21,
            (Arch::Sm80, Accum::F32) => -132,
            (Arch::Sm80, Accum::F16) => -20,
        }
    }
}

/// The behaviours the published recordings do not pin down (tensor-cores.md §1.2, last
/// paragraph), in one place so that a recording on the H100 can flip them. The C++ helpers carry
/// the same members (`ptx2hip_tc_choices` in `rules/helpers/tensor_model.h`): change both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choices {
    /// Zero products count in E with exponent e_min(a) + e_min(b) + … (MMA-Sim); false: they are
    /// dropped before E is taken (the MATLAB model). Differs for bf16 `0 × 2^127`.
    pub zero_products_in_e: bool,
    /// An exactly zero sum is −0 when every truncated product and c is a −0 (IEEE addition of
    /// the truncated terms); false: +0 always (seen on the H100 for sums of −0 terms).
    pub ieee_zero_sign: bool,
    /// Subnormal results are kept (truncated at 2^−149 for f32, rounded at 2^−24 for f16); false:
    /// flushed to a zero of the result's sign.
    pub subnormal_outputs: bool,
    /// A finite sum at or above 2^(emax+1) gives Inf (both published models); false: round toward
    /// zero gives the largest finite value (what RZ means in IEEE 754). RNE outputs overflow to Inf
    /// either way.
    pub overflow_to_inf: bool,
    /// E is raised to at least [`Arch::align_floor`] (the MATLAB model's `min_exp_limit`); false:
    /// no floor.
    pub align_clamp: bool,
    /// tf32 operands drop the register's low 13 bits (truncation; a NaN whose payload lies only
    /// there reads as Inf); false: they are rounded to nearest, ties away (`cvt.rna.tf32.f32`).
    pub tf32_truncate: bool,
    /// fp8 with an f16 accumulator first rounds the sum to e8m13 (RZ) as for f32, then to f16
    /// (RNE); false: the sum is rounded to f16 once (RNE). No published model reproduces this case.
    pub fp8_f16_via_e8m13: bool,
}

impl Choices {
    /// The defaults: the MATLAB model of Khattak & Mikaitis where it decides (it reproduced the
    /// published recordings), the H100 observations of tensor-cores.md §1.2 otherwise.
    pub const DEFAULT: Choices = Choices {
        zero_products_in_e: false,
        ieee_zero_sign: false,
        subnormal_outputs: true,
        overflow_to_inf: true,
        align_clamp: true,
        tf32_truncate: true,
        fp8_f16_via_e8m13: false,
    };
}

impl Default for Choices {
    fn default() -> Self {
        Choices::DEFAULT
    }
}

/// The canonical NaN of an f32 result (also seen on an H100 by this project's probe).
pub const NAN_F32: u32 = 0x7FFF_FFFF;
/// The canonical NaN of an f16 result, in the low 16 bits.
pub const NAN_F16: u32 = 0x7FFF;

/// One output element: `d = c + Σ_k a[k]·b[k]` as `arch`'s tensor cores compute it for an mma
/// whose K is `a.len()` (the products of one output element: 4, 8, 16 or 32), with the default
/// [`Choices`].
///
/// `a`, `b`: raw element bits (f16/bf16 16 bits, tf32 the f32 register, fp8 8 bits; higher bits
/// ignored); `c` and the result: raw accumulator bits (f32, or f16 in the low 16 bits).
/// None when the architecture has no tensor-core path for the format (fp8 on sm_80) or when `a`
/// and `b` differ in length.
pub fn dot(arch: Arch, format: Format, accum: Accum, a: &[u32], b: &[u32], c: u32) -> Option<u32> {
    dot_with(arch, format, accum, a, b, c, &Choices::DEFAULT)
}

/// [`dot`] under explicit [`Choices`].
pub fn dot_with(
    arch: Arch,
    format: Format,
    accum: Accum,
    a: &[u32],
    b: &[u32],
    c: u32,
    choices: &Choices,
) -> Option<u32> {
    dot_mixed(arch, (format, format), accum, a, b, c, choices)
}

/// [`dot_with`] where A and B have their own formats: PTX mixes e4m3 and e5m2 (`.e4m3.e5m2`);
/// the block is that of fp8 either way. None for any other mix.
pub fn dot_mixed(
    arch: Arch,
    formats: (Format, Format),
    accum: Accum,
    a: &[u32],
    b: &[u32],
    c: u32,
    choices: &Choices,
) -> Option<u32> {
    let unit = Unit::new(arch, formats, accum, choices)?;
    if a.len() != b.len() {
        return None;
    }
    let n = unit.block.products;
    let mut d = c;
    for (ab, bb) in a.chunks(n).zip(b.chunks(n)) {
        d = unit.block(ab, bb, d);
    }
    Some(d)
}

/// An element of A or B decoded once, for the many dot products that read it
/// ([`dot_decoded`]).
#[derive(Clone, Copy, Debug)]
pub struct Element(Value);

/// The element `bits` of `format` as the model reads it.
pub fn element(format: Format, bits: u32, choices: &Choices) -> Element {
    Element(decode_element(format, bits, choices))
}

/// [`dot_mixed`] over elements decoded by [`element`] (A's in `formats.0`, B's in
/// `formats.1`): the same result, without decoding an element again for every dot product.
pub fn dot_decoded(
    arch: Arch,
    formats: (Format, Format),
    accum: Accum,
    a: &[Element],
    b: &[Element],
    c: u32,
    choices: &Choices,
) -> Option<u32> {
    let unit = Unit::new(arch, formats, accum, choices)?;
    if a.len() != b.len() {
        return None;
    }
    let n = unit.block.products;
    let mut d = c;
    for (ab, bb) in a.chunks(n).zip(b.chunks(n)) {
        d = unit.block_of(ab.iter().zip(bb).map(|(x, y)| product(x.0, y.0)), d);
    }
    Some(d)
}

/// A finite value `±m·2^q` with the model exponent `e` (⌊log2|x|⌋ clamped at e_min).
#[derive(Clone, Copy, Debug)]
struct Finite {
    neg: bool,
    m: u64,
    q: i32,
    e: i32,
}

#[derive(Clone, Copy, Debug)]
enum Value {
    Nan,
    Inf { neg: bool },
    Finite(Finite),
}

/// An IEEE-style binary format: exponent bits, fraction bits, and whether the all-ones exponent
/// holds Inf/NaN (false for e4m3, whose only NaN is all ones).
struct Ieee {
    ebits: u32,
    fbits: u32,
    infinities: bool,
}

const F16: Ieee = Ieee {
    ebits: 5,
    fbits: 10,
    infinities: true,
};
const F32: Ieee = Ieee {
    ebits: 8,
    fbits: 23,
    infinities: true,
};

impl Ieee {
    fn bias(&self) -> i32 {
        (1 << (self.ebits - 1)) - 1
    }

    fn emin(&self) -> i32 {
        1 - self.bias()
    }

    fn decode(&self, bits: u32) -> Value {
        let neg = (bits >> (self.ebits + self.fbits)) & 1 == 1;
        let field = (bits >> self.fbits) & ((1 << self.ebits) - 1);
        let frac = u64::from(bits & ((1 << self.fbits) - 1));
        let top = (1 << self.ebits) - 1;
        if self.infinities && field == top {
            return if frac == 0 {
                Value::Inf { neg }
            } else {
                Value::Nan
            };
        }
        if !self.infinities && field == top && frac == (1 << self.fbits) - 1 {
            return Value::Nan;
        }
        let (m, e) = if field == 0 {
            (frac, self.emin())
        } else {
            (frac | 1 << self.fbits, field as i32 - self.bias())
        };
        Value::Finite(Finite {
            neg,
            m,
            q: e - self.fbits as i32,
            e,
        })
    }
}

fn decode_element(format: Format, bits: u32, choices: &Choices) -> Value {
    match format {
        Format::F16 => F16.decode(bits & 0xFFFF),
        Format::Bf16 => F32.decode((bits & 0xFFFF) << 16),
        Format::Tf32 => {
            let special = (bits >> 23) & 0xFF == 0xFF;
            if special && !choices.tf32_truncate && bits & 0x7F_FFFF != 0 {
                return Value::Nan;
            }
            let rounded = if choices.tf32_truncate || special {
                bits
            } else {
                bits.wrapping_add(0x1000)
            };
            F32.decode(rounded & !0x1FFF)
        }
        Format::E4m3 => Ieee {
            ebits: 4,
            fbits: 3,
            infinities: false,
        }
        .decode(bits & 0xFF),
        Format::E5m2 => Ieee {
            ebits: 5,
            fbits: 2,
            infinities: true,
        }
        .decode(bits & 0xFF),
    }
}

/// `c` as the model sees it: its value, with the exponent of its own format (⌊log2 |c|⌋ clamped at
/// e_min: f32 −126, f16 −14). The H100's wgmma showed the f16 clamp: a subnormal f16 C aligns the
/// block at 2^−14, not at its own leading bit (docs/WGMMA.md); the MATLAB model reads f16
/// accumulators through f32, which no published case tells apart.
fn decode_accum(accum: Accum, bits: u32) -> Value {
    let (v, emin) = match accum {
        Accum::F32 => (F32.decode(bits), F32.emin()),
        Accum::F16 => (F16.decode(bits & 0xFFFF), F16.emin()),
    };
    match v {
        Value::Finite(f) if f.m != 0 => Value::Finite(Finite {
            e: (msb(f.m) + f.q).max(emin),
            ..f
        }),
        other => other,
    }
}

fn msb(m: u64) -> i32 {
    63 - m.leading_zeros() as i32
}

fn product(a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Nan, _) | (_, Value::Nan) => Value::Nan,
        (Value::Inf { .. }, Value::Finite(f)) | (Value::Finite(f), Value::Inf { .. })
            if f.m == 0 =>
        {
            Value::Nan
        }
        (Value::Inf { neg: x }, Value::Inf { neg: y }) => Value::Inf { neg: x != y },
        (Value::Inf { neg }, Value::Finite(f)) | (Value::Finite(f), Value::Inf { neg }) => {
            Value::Inf { neg: neg != f.neg }
        }
        (Value::Finite(x), Value::Finite(y)) => Value::Finite(Finite {
            neg: x.neg != y.neg,
            m: x.m * y.m,
            q: x.q + y.q,
            e: x.e + y.e,
        }),
    }
}

/// How the block sum is rounded: `p` fraction bits, exponent range, mode, and the register
/// format it is written in (`emin` is always the storage's, so subnormals encode directly).
struct Out {
    p: u32,
    emin: i32,
    emax: i32,
    rne: bool,
    storage: &'static Ieee,
}

const OUT_F32: Out = Out {
    p: 23,
    emin: -126,
    emax: 127,
    rne: false,
    storage: &F32,
};
const OUT_E8M13: Out = Out { p: 13, ..OUT_F32 };
const OUT_F16: Out = Out {
    p: 10,
    emin: -14,
    emax: 15,
    rne: true,
    storage: &F16,
};

/// Everything one block needs besides its operands.
struct Unit<'a> {
    /// A's and B's.
    formats: (Format, Format),
    accum: Accum,
    block: Block,
    floor: Option<i32>,
    choices: &'a Choices,
}

impl<'a> Unit<'a> {
    /// The unit of `arch` for `formats` (equal, or two fp8 formats: the block is fp8's either
    /// way); None for any other mix or where the architecture has no path for the format.
    fn new(
        arch: Arch,
        formats: (Format, Format),
        accum: Accum,
        choices: &'a Choices,
    ) -> Option<Unit<'a>> {
        let fp8 = |f| matches!(f, Format::E4m3 | Format::E5m2);
        if formats.0 != formats.1 && !(fp8(formats.0) && fp8(formats.1)) {
            return None;
        }
        Some(Unit {
            formats,
            accum,
            block: arch.block(formats.0)?,
            floor: choices.align_clamp.then(|| arch.align_floor(accum)),
            choices,
        })
    }

    fn block(&self, a: &[u32], b: &[u32], c: u32) -> u32 {
        let products = a.iter().zip(b).map(|(&x, &y)| {
            product(
                decode_element(self.formats.0, x, self.choices),
                decode_element(self.formats.1, y, self.choices),
            )
        });
        self.block_of(products, c)
    }

    /// One block over its products (at most 32) and c.
    fn block_of(&self, products: impl Iterator<Item = Value>, c: u32) -> u32 {
        // The finite terms, c last (a block has at most 32 products: no allocation).
        let mut terms = [Finite {
            neg: false,
            m: 0,
            q: 0,
            e: 0,
        }; 33];
        let mut count = 0;
        let (mut nan, mut pos_inf, mut neg_inf) = (false, false, false);
        for v in products.take(32).chain([decode_accum(self.accum, c)]) {
            match v {
                Value::Nan => nan = true,
                Value::Inf { neg: false } => pos_inf = true,
                Value::Inf { neg: true } => neg_inf = true,
                Value::Finite(f) => {
                    terms[count] = f;
                    count += 1;
                }
            }
        }
        if nan || (pos_inf && neg_inf) {
            return self.nan();
        }
        if pos_inf || neg_inf {
            return self.encode_inf(neg_inf);
        }
        // Without specials every term is finite, c the last.
        self.sum(&terms[..count - 1], terms[count - 1])
    }

    fn sum(&self, products: &[Finite], c: Finite) -> u32 {
        let zero_in_e = self.choices.zero_products_in_e;
        let exponents = products
            .iter()
            .filter(|p| p.m != 0 || zero_in_e)
            .chain((c.m != 0).then_some(&c))
            .map(|t| t.e);
        let Some(top) = exponents.max() else {
            return self.zero(products.iter().chain([&c]).all(|t| t.neg));
        };
        let e = self.floor.map_or(top, |f| top.max(f));
        // Every term is truncated toward zero at 2^(e − nfrac): m·2^(q − e + nfrac).
        let weight = e - self.block.nfrac as i32;
        let mut s: i64 = 0;
        let mut negative_zeros = true;
        for t in products.iter().chain([&c]) {
            let shift = t.q - weight;
            let magnitude = if t.m == 0 || -shift >= 64 {
                0
            } else if shift >= 0 {
                t.m << shift
            } else {
                t.m >> -shift
            };
            negative_zeros &= t.neg && magnitude == 0;
            let magnitude = magnitude as i64;
            s += if t.neg { -magnitude } else { magnitude };
        }
        if s == 0 {
            return self.zero(negative_zeros);
        }
        let (neg, n) = (s < 0, s.unsigned_abs());
        let d = match (self.formats.0, self.accum) {
            (Format::E4m3 | Format::E5m2, Accum::F32) => self.round(neg, n, weight, &OUT_E8M13),
            (Format::E4m3 | Format::E5m2, Accum::F16) if self.choices.fp8_f16_via_e8m13 => {
                let e8m13 = self.round(neg, n, weight, &OUT_E8M13);
                self.requantise_f16(e8m13)
            }
            (_, Accum::F32) => self.round(neg, n, weight, &OUT_F32),
            (_, Accum::F16) => self.round(neg, n, weight, &OUT_F16),
        };
        // A nonzero sum that rounds (or is flushed) to zero gives +0 (the H100's wgmma,
        // docs/WGMMA.md).
        if d == self.signed_zero(true) {
            0
        } else {
            d
        }
    }

    /// An e8m13 result (f32 bits) rounded once more to f16.
    fn requantise_f16(&self, bits: u32) -> u32 {
        match F32.decode(bits) {
            Value::Finite(f) if f.m != 0 => self.round(f.neg, f.m, f.q, &OUT_F16),
            Value::Finite(f) => u32::from(f.neg) << 15,
            Value::Inf { neg } => self.encode_inf(neg),
            Value::Nan => self.nan(),
        }
    }

    /// The result of an exactly zero sum; `negative_zeros`: every term, truncated, is a −0.
    fn zero(&self, negative_zeros: bool) -> u32 {
        self.signed_zero(self.choices.ieee_zero_sign && negative_zeros)
    }

    fn signed_zero(&self, neg: bool) -> u32 {
        match self.accum {
            Accum::F32 => u32::from(neg) << 31,
            Accum::F16 => u32::from(neg) << 15,
        }
    }

    fn nan(&self) -> u32 {
        match self.accum {
            Accum::F32 => NAN_F32,
            Accum::F16 => NAN_F16,
        }
    }

    fn encode_inf(&self, neg: bool) -> u32 {
        match self.accum {
            Accum::F32 => u32::from(neg) << 31 | 0x7F80_0000,
            Accum::F16 => u32::from(neg) << 15 | 0x7C00,
        }
    }

    /// `±n·2^w` (n > 0) rounded to `out` and encoded.
    fn round(&self, neg: bool, n: u64, w: i32, out: &Out) -> u32 {
        let mut quantum = (msb(n) + w).max(out.emin) - out.p as i32;
        let r = quantum - w;
        let mut mant = if r <= 0 {
            n << -r
        } else if r >= 64 {
            0
        } else {
            let kept = n >> r;
            let rest = n & ((1 << r) - 1);
            let half = 1u64 << (r - 1);
            let up = out.rne && (rest > half || (rest == half && kept & 1 == 1));
            kept + u64::from(up)
        };
        if mant == 1 << (out.p + 1) {
            mant >>= 1;
            quantum += 1;
        }
        let fs = out.storage.fbits;
        let sign = u32::from(neg) << (out.storage.ebits + fs);
        if mant < 1 << out.p {
            // Subnormal (or zero after rounding): quantum is emin − p, the storage's own.
            if !self.choices.subnormal_outputs {
                return sign;
            }
            return sign | ((mant as u32) << (fs - out.p));
        }
        let exponent = quantum + out.p as i32;
        if exponent > out.emax {
            if self.choices.overflow_to_inf || out.rne {
                return sign | ((1 << out.storage.ebits) - 1) << fs;
            }
            let largest = ((1u32 << (out.p + 1)) - 1) << (fs - out.p);
            return sign
                | ((out.emax + out.storage.bias()) as u32) << fs
                | (largest & ((1 << fs) - 1));
        }
        let frac = ((mant as u32) << (fs - out.p)) & ((1 << fs) - 1);
        sign | ((exponent + out.storage.bias()) as u32) << fs | frac
    }
}

mod fp8_sync;
pub use fp8_sync::dot_fp8_sync;

#[cfg(test)]
mod tests;
