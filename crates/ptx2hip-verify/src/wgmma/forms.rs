//! The `wgmma.mma_async` forms, as data: shape, element types, where A comes from and the
//! immediates (PTX ISA, *wgmma.mma_async*). One [`WgmmaForm`] is one canonical statement; the
//! descriptors, scale-d and the register contents are the runtime inputs of its cases.
//!
//! Census of the forms (sparse `.sp` and `b1` left out: not translated): f16 (f32 or f16 D),
//! bf16 (f32), tf32 (f32, k8), e4m3/e5m2 in their four A/B mixes (f32 or f16 D, k32), s8/u8 in
//! their four mixes with and without `.satfinite` (s32, k32); N a multiple of 8 up to 256 (the
//! integer types: 8, 16, 24, then multiples of 16); A from registers or a descriptor.

use crate::matrix::Elem;

/// Where operand A comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// A shared-memory matrix descriptor (`a-desc`).
    Desc,
    /// Four 32-bit registers per thread (`a`), the m16n8k16-style fragment of the warp's rows.
    Regs,
}

/// One `wgmma.mma_async.sync.aligned.m64nNkK` statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WgmmaForm {
    pub n: usize,
    /// The type of D (and C): F32, F16 or S32.
    pub d: Elem,
    pub a: Elem,
    pub b: Elem,
    /// Integer forms only: clamp instead of wrapping.
    pub satfinite: bool,
    pub a_source: Source,
    /// `imm-scale-a` = −1 (float forms only).
    pub negate_a: bool,
    /// `imm-scale-b` = −1 (float forms only).
    pub negate_b: bool,
    /// `imm-trans-a` = 1: A is MN-major (f16/bf16 with A from a descriptor only).
    pub trans_a: bool,
    /// `imm-trans-b` = 1: B is MN-major (f16/bf16 only).
    pub trans_b: bool,
}

/// The element-type combinations of the census: (D, A, B, satfinite).
pub fn type_combos() -> Vec<(Elem, Elem, Elem, bool)> {
    let mut v = vec![
        (Elem::F32, Elem::F16, Elem::F16, false),
        (Elem::F16, Elem::F16, Elem::F16, false),
        (Elem::F32, Elem::Bf16, Elem::Bf16, false),
        (Elem::F32, Elem::Tf32, Elem::Tf32, false),
    ];
    let fp8 = [Elem::E4m3, Elem::E5m2];
    for d in [Elem::F32, Elem::F16] {
        for a in fp8 {
            for b in fp8 {
                v.push((d, a, b, false));
            }
        }
    }
    for sat in [false, true] {
        for a in [Elem::S8, Elem::U8] {
            for b in [Elem::S8, Elem::U8] {
                v.push((Elem::S32, a, b, sat));
            }
        }
    }
    v
}

/// Every N the ISA allows for the multiplicand type `a`.
pub fn ns(a: Elem) -> Vec<usize> {
    if a.is_integer() {
        [8, 16, 24]
            .into_iter()
            .chain((2..=16).map(|i| 16 * i))
            .collect()
    } else {
        (1..=32).map(|i| 8 * i).collect()
    }
}

impl WgmmaForm {
    /// The plain form: A from `a_source`, scales +1, both operands K-major.
    pub fn plain(
        n: usize,
        (d, a, b, satfinite): (Elem, Elem, Elem, bool),
        a_source: Source,
    ) -> Self {
        WgmmaForm {
            n,
            d,
            a,
            b,
            satfinite,
            a_source,
            negate_a: false,
            negate_b: false,
            trans_a: false,
            trans_b: false,
        }
    }

    /// K of the shape: 32 bytes of elements.
    pub fn k(&self) -> usize {
        32 / self.esize()
    }

    /// Bytes of one A or B element in shared memory (tf32: a whole f32).
    pub fn esize(&self) -> usize {
        match self.a {
            Elem::F16 | Elem::Bf16 => 2,
            Elem::Tf32 => 4,
            _ => 1,
        }
    }

    pub fn is_integer(&self) -> bool {
        self.a.is_integer()
    }

    /// Whether the ISA has `imm-trans` for the form (16-bit multiplicands).
    pub fn has_trans(&self) -> bool {
        self.esize() == 2
    }

    /// D registers per thread: f32/s32 N/2, f16 pairs N/4.
    pub fn d_regs(&self) -> usize {
        if self.d == Elem::F16 {
            self.n / 4
        } else {
            self.n / 2
        }
    }

    /// A registers per thread (0 with A from a descriptor).
    pub fn a_regs(&self) -> usize {
        match self.a_source {
            Source::Desc => 0,
            Source::Regs => 4,
        }
    }

    /// The instruction with its type modifiers, e.g. `wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16`.
    pub fn opcode(&self) -> String {
        let sat = if self.satfinite { ".satfinite" } else { "" };
        format!(
            "wgmma.mma_async.sync.aligned.m64n{}k{}.{}.{}.{}{sat}",
            self.n,
            self.k(),
            self.d.name(),
            self.a.name(),
            self.b.name()
        )
    }

    /// The immediates after scale-d, as the ISA lists them for this form.
    pub fn immediates(&self) -> Vec<i32> {
        if self.is_integer() {
            return Vec::new();
        }
        let scale = |neg: bool| if neg { -1 } else { 1 };
        let mut v = vec![scale(self.negate_a), scale(self.negate_b)];
        if self.has_trans() {
            if self.a_source == Source::Desc {
                v.push(i32::from(self.trans_a));
            }
            v.push(i32::from(self.trans_b));
        }
        v
    }

    /// A unique name: the opcode, where A comes from and the immediates.
    pub fn name(&self) -> String {
        let src = match self.a_source {
            Source::Desc => "desc",
            Source::Regs => "regs",
        };
        let imm: Vec<String> = self.immediates().iter().map(|i| i.to_string()).collect();
        format!("{} a={src} imm=[{}]", self.opcode(), imm.join(","))
    }

    /// Whether the ISA has this form.
    pub fn is_valid(&self) -> bool {
        let fp8 = |e: Elem| matches!(e, Elem::E4m3 | Elem::E5m2);
        let types = match (self.d, self.a, self.b) {
            (Elem::F32 | Elem::F16, Elem::F16, Elem::F16) => true,
            (Elem::F32, Elem::Bf16, Elem::Bf16) | (Elem::F32, Elem::Tf32, Elem::Tf32) => true,
            (Elem::F32 | Elem::F16, a, b) => fp8(a) && fp8(b),
            (Elem::S32, Elem::S8 | Elem::U8, Elem::S8 | Elem::U8) => true,
            _ => false,
        };
        let integer_only = !self.satfinite || self.is_integer();
        let scales = !(self.is_integer() && (self.negate_a || self.negate_b));
        let trans = (self.has_trans() || !(self.trans_a || self.trans_b))
            && !(self.trans_a && self.a_source == Source::Regs);
        types && integer_only && scales && trans && ns(self.a).contains(&self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_census_has_twenty_type_combinations_and_the_isa_n() {
        assert_eq!(type_combos().len(), 20);
        assert_eq!(ns(Elem::F16).len(), 32);
        assert_eq!(ns(Elem::S8).len(), 18);
        assert!(!ns(Elem::U8).contains(&40));
    }

    #[test]
    fn names_follow_the_isa_syntax() {
        let f = WgmmaForm {
            trans_b: true,
            negate_a: true,
            ..WgmmaForm::plain(64, type_combos()[0], Source::Desc)
        };
        assert_eq!(
            f.opcode(),
            "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"
        );
        assert_eq!(f.immediates(), vec![-1, 1, 0, 1]);
        assert_eq!(f.d_regs(), 32);
        let s = WgmmaForm::plain(24, type_combos()[19], Source::Regs);
        assert_eq!(
            s.name(),
            "wgmma.mma_async.sync.aligned.m64n24k32.s32.u8.u8.satfinite a=regs imm=[]"
        );
        assert!(s.is_valid());
        let tf32 = WgmmaForm {
            trans_a: true,
            ..WgmmaForm::plain(8, type_combos()[3], Source::Desc)
        };
        assert!(!tf32.is_valid());
        assert_eq!(tf32.immediates(), vec![1, 1]);
    }
}
