//! The `mma.sync` forms, as data: element types, shapes and the PTX fragment layouts (PTX ISA,
//! *Matrix fragments for mma.m8n8k4 / m16n8k4 / ...*; docs/MATRIX.md). One [`MmaForm`] is one
//! canonical statement; its registers are numbered D first, then A, B, C, in PTX order.
//!
//! Every `.row.col` fragment of the ISA follows one pattern (lane l, g = l >> 2, t = l & 3,
//! register i, element h of a packed register, p elements per 32-bit register):
//! A[g + 8(i & 1)][p·t + h + 4p(i >> 1)], B[p·t + h + 4p·i][g], and for C/D with 32- or 64-bit
//! elements C[g + 8(i >> 1)][2t + (i & 1)], with f16 elements C[g + 8i][2t + h].
//!
//! The exception is Volta's m8n8k4 with f16 multiplicands: a warp computes four independent
//! 8×8×4 products, one per quad pair (lanes 4q…4q+3 with 16+4q…16+4q+3), with layouts of their
//! own for every `.row`/`.col` choice (`MmaForm::quad_pair_element`). Its matrices hold the four
//! products stacked by rows: A 32×4 (rows 8q…8q+7 for product q), B 16×8 (rows 4q…4q+3), C/D 32×8.

use std::fmt::Write as _;

/// A PTX element type of an `mma` operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Elem {
    F16,
    Bf16,
    Tf32,
    E4m3,
    E5m2,
    S8,
    U8,
    S4,
    U4,
    B1,
    F32,
    F64,
    S32,
}

impl Elem {
    pub fn name(self) -> &'static str {
        match self {
            Elem::F16 => "f16",
            Elem::Bf16 => "bf16",
            Elem::Tf32 => "tf32",
            Elem::E4m3 => "e4m3",
            Elem::E5m2 => "e5m2",
            Elem::S8 => "s8",
            Elem::U8 => "u8",
            Elem::S4 => "s4",
            Elem::U4 => "u4",
            Elem::B1 => "b1",
            Elem::F32 => "f32",
            Elem::F64 => "f64",
            Elem::S32 => "s32",
        }
    }

    /// Bits one element takes in its register (tf32 occupies a whole f32 register).
    pub fn bits(self) -> u32 {
        match self {
            Elem::B1 => 1,
            Elem::S4 | Elem::U4 => 4,
            Elem::S8 | Elem::U8 | Elem::E4m3 | Elem::E5m2 => 8,
            Elem::F16 | Elem::Bf16 => 16,
            Elem::Tf32 | Elem::F32 | Elem::S32 => 32,
            Elem::F64 => 64,
        }
    }

    /// Elements per register.
    pub fn per_reg(self) -> usize {
        (32 / self.bits().min(32)) as usize
    }

    pub fn is_integer(self) -> bool {
        matches!(
            self,
            Elem::S8 | Elem::U8 | Elem::S4 | Elem::U4 | Elem::B1 | Elem::S32
        )
    }
}

/// The bit operation of the `b1` forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BitOp {
    Xor,
    And,
}

/// The storage order PTX names for a multiplicand (`.row` / `.col`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Major {
    Row,
    Col,
}

impl Major {
    pub fn name(self) -> &'static str {
        match self {
            Major::Row => "row",
            Major::Col => "col",
        }
    }
}

/// An operand of the statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    A,
    B,
    C,
    D,
}

/// One `mma.sync.aligned.MxNxK.{row,col}.{row,col}` form (`.row.col` but for m8n8k4 f16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MmaForm {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub alayout: Major,
    pub blayout: Major,
    pub d: Elem,
    pub a: Elem,
    pub b: Elem,
    pub c: Elem,
    pub satfinite: bool,
    pub bitop: Option<BitOp>,
}

impl MmaForm {
    /// The modifiers after `mma`, e.g. `sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32`.
    pub fn modifiers(&self) -> String {
        let mut s = format!(
            "sync.aligned.m{}n{}k{}.{}.{}",
            self.m,
            self.n,
            self.k,
            self.alayout.name(),
            self.blayout.name()
        );
        if self.satfinite {
            s.push_str(".satfinite");
        }
        for e in [self.d, self.a, self.b, self.c] {
            let _ = write!(s, ".{}", e.name());
        }
        match self.bitop {
            Some(BitOp::Xor) => s.push_str(".xor.popc"),
            Some(BitOp::And) => s.push_str(".and.popc"),
            None => {}
        }
        s
    }

    /// The form's name in recordings and reports.
    pub fn name(&self) -> String {
        format!("mma.{}", self.modifiers())
    }

    pub fn elem(&self, op: Operand) -> Elem {
        match op {
            Operand::A => self.a,
            Operand::B => self.b,
            Operand::C => self.c,
            Operand::D => self.d,
        }
    }

    /// Volta's m8n8k4 with f16 multiplicands: four products per warp, one per quad pair.
    pub fn is_quad_pair(&self) -> bool {
        (self.m, self.n, self.k, self.a) == (8, 8, 4, Elem::F16)
    }

    /// Independent products per warp, stacked by rows in every operand's matrix.
    pub fn batches(&self) -> usize {
        if self.is_quad_pair() {
            4
        } else {
            1
        }
    }

    /// Rows and columns of the operand's matrix (the products of a warp stacked by rows).
    pub fn dims(&self, op: Operand) -> (usize, usize) {
        let (r, c) = match op {
            Operand::A => (self.m, self.k),
            Operand::B => (self.k, self.n),
            Operand::C | Operand::D => (self.m, self.n),
        };
        (r * self.batches(), c)
    }

    /// Registers of the operand in each lane.
    pub fn regs(&self, op: Operand) -> usize {
        let (r, c) = self.dims(op);
        r * c / 32 / self.elem(op).per_reg()
    }

    /// 32-bit words of one register (two for f64).
    pub fn reg_words(&self, op: Operand) -> usize {
        if self.elem(op) == Elem::F64 {
            2
        } else {
            1
        }
    }

    /// Input words per lane: A, B, C registers in order.
    pub fn in_words(&self) -> usize {
        [Operand::A, Operand::B, Operand::C]
            .iter()
            .map(|&o| self.regs(o) * self.reg_words(o))
            .sum()
    }

    pub fn out_words(&self) -> usize {
        self.regs(Operand::D) * self.reg_words(Operand::D)
    }

    /// The element (row, column) that element `h` of register `i` of lane `lane` holds.
    pub fn element(&self, op: Operand, lane: usize, i: usize, h: usize) -> (usize, usize) {
        if self.is_quad_pair() {
            return self.quad_pair_element(op, lane, i, h);
        }
        let (g, t) = (lane >> 2, lane & 3);
        let p = self.elem(op).per_reg();
        match op {
            Operand::A => (g + 8 * (i & 1), p * t + h + 4 * p * (i >> 1)),
            Operand::B => (p * t + h + 4 * p * i, g),
            Operand::C | Operand::D if p == 2 => (g + 8 * i, 2 * t + h),
            Operand::C | Operand::D => (g + 8 * (i >> 1), 2 * t + (i & 1)),
        }
    }

    /// [`Self::element`] of m8n8k4 f16 (PTX ISA, *Matrix fragments for mma.m8n8k4 with .f16*):
    /// lane l works on product q = (l >> 2) & 3, in its low (l < 16) or high half, as t = l & 3;
    /// e = 2i + h counts the lane's elements of a packed operand (f32 C/D: e = i).
    fn quad_pair_element(&self, op: Operand, lane: usize, i: usize, h: usize) -> (usize, usize) {
        let (q, t, hi) = ((lane >> 2) & 3, lane & 3, 4 * (lane >> 4));
        let e = i * self.elem(op).per_reg() + h;
        let (r, c) = match (op, self.alayout, self.blayout) {
            (Operand::A, Major::Row, _) => (t + hi, e),
            (Operand::A, Major::Col, _) => (e + hi, t),
            (Operand::B, _, Major::Row) => (t, e + hi),
            (Operand::B, _, Major::Col) => (e, t + hi),
            (Operand::C | Operand::D, ..) if self.elem(op) == Elem::F16 => (t + hi, e),
            (Operand::C | Operand::D, ..) => {
                ((lane & 1) + (i & 2) + hi, (i & 4) + (lane & 2) + (i & 1))
            }
        };
        let rows = if op == Operand::B { self.k } else { self.m };
        (q * rows + r, c)
    }

    /// The canonical statement: `{%0, ...}` for each operand, D first.
    pub fn ptx(&self) -> String {
        let mut at = 0;
        let mut vecs = Vec::new();
        for op in [Operand::D, Operand::A, Operand::B, Operand::C] {
            let n = self.regs(op);
            let regs: Vec<String> = (at..at + n).map(|r| format!("%{r}")).collect();
            vecs.push(format!("{{{}}}", regs.join(", ")));
            at += n;
        }
        format!("mma.{} {};", self.modifiers(), vecs.join(", "))
    }

    /// The inline-asm constraint of each register of the operand (without `=`).
    pub fn constraint(&self, op: Operand) -> &'static str {
        match self.elem(op) {
            Elem::F32 | Elem::Tf32 if op != Operand::A && op != Operand::B => "f",
            Elem::F64 => "d",
            _ => "r",
        }
    }

    /// The constraints of the canonical statement, `%N` order.
    pub fn constraints(&self) -> Vec<String> {
        let mut v = Vec::new();
        for op in [Operand::D, Operand::A, Operand::B, Operand::C] {
            let prefix = if op == Operand::D { "=" } else { "" };
            for _ in 0..self.regs(op) {
                v.push(format!("{prefix}{}", self.constraint(op)));
            }
        }
        v
    }

    /// The family the recording groups it in (one GPU program each).
    pub fn family(&self) -> &'static str {
        if self.a == Elem::F64 {
            "f64"
        } else if self.a.is_integer() {
            "int"
        } else {
            "float"
        }
    }
}

fn form(mnk: (usize, usize, usize), d: Elem, a: Elem, b: Elem, c: Elem) -> MmaForm {
    MmaForm {
        m: mnk.0,
        n: mnk.1,
        k: mnk.2,
        alayout: Major::Row,
        blayout: Major::Col,
        d,
        a,
        b,
        c,
        satfinite: false,
        bitop: None,
    }
}

/// Every form of the PTX ISA up to sm_90 that an H100 runs, integer first, Volta's m8n8k4 f16
/// last (sparse `mma.sp` and the sm_100+ kinds are not here: rules/matrix.toml refuses them).
pub fn all_forms() -> Vec<MmaForm> {
    use Elem::*;
    let mut v = Vec::new();
    let int8 = [(8, 8, 16), (16, 8, 16), (16, 8, 32)];
    let int4 = [(8, 8, 32), (16, 8, 32), (16, 8, 64)];
    for (shapes, types) in [(int8, [S8, U8]), (int4, [S4, U4])] {
        for mnk in shapes {
            for a in types {
                for b in types {
                    for satfinite in [false, true] {
                        v.push(MmaForm {
                            satfinite,
                            ..form(mnk, S32, a, b, S32)
                        });
                    }
                }
            }
        }
    }
    for mnk in [(8, 8, 128), (16, 8, 128), (16, 8, 256)] {
        for op in [BitOp::Xor, BitOp::And] {
            v.push(MmaForm {
                bitop: Some(op),
                ..form(mnk, S32, B1, B1, S32)
            });
        }
    }
    for mnk in [(8, 8, 4), (16, 8, 4), (16, 8, 8), (16, 8, 16)] {
        v.push(form(mnk, F64, F64, F64, F64));
    }
    for mnk in [(16, 8, 8), (16, 8, 16)] {
        // D and C of one type: ptxas refuses `.f32.f16.f16.f16` and `.f16.f16.f16.f32` ("`.dtype`
        // must be `.f16` when `.ctype` is `.f16`"), although the ISA's syntax lists them apart.
        for acc in [F32, F16] {
            v.push(form(mnk, acc, F16, F16, acc));
        }
        v.push(form(mnk, F32, Bf16, Bf16, F32));
    }
    for mnk in [(16, 8, 4), (16, 8, 8)] {
        v.push(form(mnk, F32, Tf32, Tf32, F32));
    }
    for mnk in [(16, 8, 16), (16, 8, 32)] {
        for a in [E4m3, E5m2] {
            for b in [E4m3, E5m2] {
                for acc in [F32, F16] {
                    v.push(form(mnk, acc, a, b, acc));
                }
            }
        }
    }
    for alayout in [Major::Row, Major::Col] {
        for blayout in [Major::Row, Major::Col] {
            // ptxas refuses `.f16.f16.f16.f32` (".dtype must be '.f32' when .ctype is '.f32'
            // for ... '.m8n8k4'") but takes `.f32.f16.f16.f16`.
            for (d, c) in [(F16, F16), (F32, F32), (F32, F16)] {
                v.push(MmaForm {
                    alayout,
                    blayout,
                    ..form((8, 8, 4), d, F16, F16, c)
                });
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(name: &str) -> MmaForm {
        all_forms()
            .into_iter()
            .find(|f| f.name() == name)
            .unwrap_or_else(|| panic!("{name}"))
    }

    #[test]
    fn register_counts_are_the_isas() {
        let f = find("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
        let counts: Vec<usize> = [Operand::D, Operand::A, Operand::B, Operand::C]
            .iter()
            .map(|&o| f.regs(o))
            .collect();
        assert_eq!(counts, [4, 4, 2, 4]);
        let f = find("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
        assert_eq!((f.regs(Operand::A), f.regs(Operand::C)), (1, 2));
        assert_eq!(f.in_words(), 2 + 2 + 4);
        let f = find("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64");
        assert_eq!((f.regs(Operand::A), f.regs(Operand::B)), (8, 4));
        let f = find("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc");
        assert_eq!((f.regs(Operand::A), f.regs(Operand::B)), (4, 2));
        let f = find("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16");
        assert_eq!((f.regs(Operand::A), f.regs(Operand::C)), (2, 2));
    }

    #[test]
    fn layouts_match_the_isa_tables() {
        let f = find("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
        // Lane 5: g = 1, t = 1. A register 3, byte 2: row 9, column 4 + 2 + 16.
        assert_eq!(f.element(Operand::A, 5, 3, 2), (9, 22));
        assert_eq!(f.element(Operand::B, 5, 1, 3), (4 + 3 + 16, 1));
        assert_eq!(f.element(Operand::D, 5, 2, 0), (9, 2));
        let f = find("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
        assert_eq!(f.element(Operand::A, 6, 2, 0), (1, 2 + 4));
        let f = find("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
        assert_eq!(f.element(Operand::D, 6, 1, 1), (9, 5));
    }

    #[test]
    fn quad_pairs_hold_their_own_products() {
        // Lane 17: product 0, high half, t = 1; lane 6: product 1, low half, t = 2; lane 18:
        // product 0, high half. Rows of product q start at 8q (A, C, D) or 4q (B).
        let f = find("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32");
        assert_eq!(f.dims(Operand::A), (32, 4));
        assert_eq!(f.element(Operand::A, 17, 1, 0), (5, 2));
        assert_eq!(f.element(Operand::B, 17, 1, 1), (3, 5));
        assert_eq!(f.element(Operand::D, 18, 5, 0), (4, 7));
        let f = find("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16");
        assert_eq!(f.element(Operand::A, 6, 1, 1), (8 + 3, 2));
        assert_eq!(f.element(Operand::B, 6, 0, 1), (4 + 2, 1));
        assert_eq!(f.element(Operand::D, 6, 3, 1), (8 + 2, 7));
        assert_eq!(f.regs(Operand::D), 4);
    }

    #[test]
    fn every_element_is_held_once() {
        for f in all_forms() {
            for op in [Operand::A, Operand::B, Operand::C] {
                let (r, c) = f.dims(op);
                let mut seen = vec![0u8; r * c];
                for lane in 0..32 {
                    for i in 0..f.regs(op) {
                        for h in 0..f.elem(op).per_reg() {
                            let (y, x) = f.element(op, lane, i, h);
                            seen[y * c + x] += 1;
                        }
                    }
                }
                assert!(seen.iter().all(|&s| s == 1), "{} {op:?}", f.name());
            }
        }
    }

    #[test]
    fn the_statement_numbers_d_first() {
        let f = find("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.s8.s32");
        assert_eq!(
            f.ptx(),
            "mma.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.s8.s32 {%0, %1}, {%2}, {%3}, {%4, %5};"
        );
        assert_eq!(f.constraints(), ["=r", "=r", "r", "r", "r", "r"]);
    }
}
