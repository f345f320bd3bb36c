//! PTX value types and the C++ types that carry them in generated code.
//!
//! Generated code models every PTX register as a C++ scalar: integers and bit types as the
//! `<stdint.h>` type of their width and signedness, `f32`/`f64` as `float`/`double`, and the
//! 16-bit floating-point types (`f16`, `bf16`) as their raw bits in `uint16_t` so that no
//! half-precision header or implicit conversion can change a bit pattern.

use std::fmt;

use super::code::Expr;
use super::helper_use::HelperUse;

/// A scalar PTX type as written in a modifier (`u32`, `f16`, `pred`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PtxType {
    U(u32),
    S(u32),
    B(u32),
    F16,
    Bf16,
    F16x2,
    Bf16x2,
    F32,
    F64,
    Pred,
}

impl PtxType {
    pub fn parse(s: &str) -> Option<PtxType> {
        use PtxType::*;
        Some(match s {
            "u8" => U(8),
            "u16" => U(16),
            "u32" => U(32),
            "u64" => U(64),
            "s8" => S(8),
            "s16" => S(16),
            "s32" => S(32),
            "s64" => S(64),
            "b8" => B(8),
            "b16" => B(16),
            "b32" => B(32),
            "b64" => B(64),
            "b128" => B(128),
            "f16" => F16,
            "bf16" => Bf16,
            "f16x2" => F16x2,
            "bf16x2" => Bf16x2,
            "f32" => F32,
            "f64" => F64,
            "pred" => Pred,
            _ => return None,
        })
    }

    pub fn bits(self) -> u32 {
        use PtxType::*;
        match self {
            U(n) | S(n) | B(n) => n,
            F16 | Bf16 => 16,
            F16x2 | Bf16x2 | F32 => 32,
            F64 => 64,
            Pred => 1,
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(self, PtxType::S(_))
    }

    pub fn is_float(self) -> bool {
        matches!(self, PtxType::F32 | PtxType::F64)
    }

    /// The C++ type that holds a value of this type in generated code.
    pub fn c_type(self) -> CType {
        use PtxType::*;
        match self {
            U(n) | B(n) => CType::Uint(n),
            S(n) => CType::Int(n),
            F16 | Bf16 => CType::Uint(16),
            F16x2 | Bf16x2 => CType::Uint(32),
            F32 => CType::Float,
            F64 => CType::Double,
            Pred => CType::Bool,
        }
    }
}

impl fmt::Display for PtxType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PtxType::*;
        match self {
            U(n) => write!(f, "u{n}"),
            S(n) => write!(f, "s{n}"),
            B(n) => write!(f, "b{n}"),
            F16 => f.write_str("f16"),
            Bf16 => f.write_str("bf16"),
            F16x2 => f.write_str("f16x2"),
            Bf16x2 => f.write_str("bf16x2"),
            F32 => f.write_str("f32"),
            F64 => f.write_str("f64"),
            Pred => f.write_str("pred"),
        }
    }
}

/// A C++ scalar type used in generated code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CType {
    Uint(u32),
    Int(u32),
    Float,
    Double,
    Bool,
}

impl CType {
    pub fn bits(self) -> u32 {
        match self {
            CType::Uint(n) | CType::Int(n) => n,
            CType::Float => 32,
            CType::Double => 64,
            CType::Bool => 1,
        }
    }

    pub fn is_integer(self) -> bool {
        matches!(self, CType::Uint(_) | CType::Int(_))
    }

    /// Unsigned type of the same width (integers), itself otherwise.
    pub fn unsigned(self) -> CType {
        match self {
            CType::Int(n) => CType::Uint(n),
            other => other,
        }
    }

    /// Signed type of the same width (integers), itself otherwise.
    pub fn signed(self) -> CType {
        match self {
            CType::Uint(n) => CType::Int(n),
            other => other,
        }
    }

    /// The unsigned type in which wrapping arithmetic on this type is free of integer promotion
    /// surprises: `uint32_t` for widths up to 32 (a `uint16_t * uint16_t` would promote to a
    /// signed `int` and could overflow), `uint64_t` for 64.
    pub fn arith(self) -> CType {
        match self {
            CType::Uint(n) | CType::Int(n) if n <= 32 => CType::Uint(32),
            CType::Uint(n) | CType::Int(n) => CType::Uint(n),
            other => other,
        }
    }
}

impl fmt::Display for CType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CType::Uint(128) => f.write_str("unsigned __int128"),
            CType::Int(128) => f.write_str("__int128"),
            CType::Uint(n) => write!(f, "uint{n}_t"),
            CType::Int(n) => write!(f, "int{n}_t"),
            CType::Float => f.write_str("float"),
            CType::Double => f.write_str("double"),
            CType::Bool => f.write_str("bool"),
        }
    }
}

/// The register class an inline-asm constraint letter binds (NVIDIA's inline PTX guide).
pub fn constraint_register(letter: char) -> Option<CType> {
    Some(match letter {
        'h' => CType::Uint(16),
        'r' => CType::Uint(32),
        'l' => CType::Uint(64),
        'q' => CType::Uint(128),
        'f' => CType::Float,
        'd' => CType::Double,
        _ => return None,
    })
}

/// Converts `expr` (of C type `from`, holding a register's bits) to a value of C type `to`.
///
/// Same-width integers are reinterpreted with a cast; floats and integers of the same width are
/// bit-cast through the `ptx2hip_bits` helpers; a wider integer register read as a narrower type
/// is truncated. Returns `None` when PTX would not allow the combination (a narrower register
/// than the instruction type, or a float of another width). Records the bit-cast helper it
/// calls in `uses`.
pub fn convert(expr: &Expr, from: CType, to: CType, uses: &mut HelperUse) -> Option<Expr> {
    if from == to {
        return Some(expr.clone());
    }
    match (from, to) {
        (f, t) if f.is_integer() && t.is_integer() && f.bits() >= t.bits() => {
            Some(Expr::cast(t, format!("({expr})")))
        }
        (f, CType::Float) if f.is_integer() && f.bits() == 32 => {
            uses.add("ptx2hip_f32_from_bits");
            Some(Expr::other(format!(
                "ptx2hip_f32_from_bits((uint32_t)({expr}))"
            )))
        }
        (f, CType::Double) if f.is_integer() && f.bits() == 64 => {
            uses.add("ptx2hip_f64_from_bits");
            Some(Expr::other(format!(
                "ptx2hip_f64_from_bits((uint64_t)({expr}))"
            )))
        }
        (CType::Float, t) if t.is_integer() && t.bits() == 32 => {
            uses.add("ptx2hip_bits_from_f32");
            Some(Expr::cast(t, format!("ptx2hip_bits_from_f32({expr})")))
        }
        (CType::Double, t) if t.is_integer() && t.bits() == 64 => {
            uses.add("ptx2hip_bits_from_f64");
            Some(Expr::cast(t, format!("ptx2hip_bits_from_f64({expr})")))
        }
        _ => None,
    }
}

/// Converts a value of type `value` (the instruction's destination type) into the register type
/// `reg` that receives it. Integers narrower than the register are extended by their own
/// signedness, which is what PTX does when `ld.s8`/`cvt.s8.*` write a 16- or 32-bit register.
/// A register narrower than the value is `None`: ptxas rejects it, and truncating would hide it.
pub fn widen_into(expr: &str, value: CType, reg: CType, uses: &mut HelperUse) -> Option<String> {
    if value == reg {
        return Some(expr.to_string());
    }
    match (value, reg) {
        (v, r) if v.bits() > r.bits() => None,
        (v, r) if v.is_integer() && r.is_integer() => Some(format!("({r})({v})({expr})")),
        _ => convert(&Expr::other(expr), value, reg, uses).map(|e| e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_widen_into_registers_but_never_narrow() {
        let (u16, u32, s8) = (CType::Uint(16), CType::Uint(32), CType::Int(8));
        assert_eq!(
            widen_into("t", s8, u32, &mut HelperUse::default()).as_deref(),
            Some("(uint32_t)(int8_t)(t)")
        );
        assert_eq!(
            widen_into("t", u16, u32, &mut HelperUse::default()).as_deref(),
            Some("(uint32_t)(uint16_t)(t)")
        );
        let mut uses = HelperUse::default();
        assert_eq!(
            widen_into("t", CType::Float, u32, &mut uses).as_deref(),
            Some("(uint32_t)ptx2hip_bits_from_f32(t)")
        );
        let mut expected = HelperUse::default();
        expected.add("ptx2hip_bits_from_f32");
        assert_eq!(uses, expected);
        // brev.b64 / mul.wide.u32 into a 32-bit register: refused, not truncated.
        assert_eq!(widen_into("t", CType::Uint(64), u32, &mut uses), None);
        assert_eq!(widen_into("t", u32, u16, &mut uses), None);
        assert_eq!(widen_into("t", CType::Double, u32, &mut uses), None);
    }
}
