//! Conversions between the C++ types that carry PTX values: a register's bits read as the
//! instruction's type, and a result written into its register.

use super::helper_use::HelperUse;
use crate::vocabulary::code::Expr;
use crate::vocabulary::types::CType;

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
