//! PTX value types and the C++ types that carry them in generated code.
//!
//! Generated code models every PTX register as a C++ scalar: integers and bit types as the
//! `<stdint.h>` type of their width and signedness, `f32`/`f64` as `float`/`double`, and the
//! 16-bit floating-point types (`f16`, `bf16`) as their raw bits in `uint16_t` so that no
//! half-precision header or implicit conversion can change a bit pattern.

use std::fmt;

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
