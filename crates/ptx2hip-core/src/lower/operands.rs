//! How an inline-asm operand's C++ expression binds to its PTX register in generated code.
//!
//! nvcc binds only a scalar of exactly the register's size and kind: `"h"`/`"r"`/`"l"` an
//! integer or enum of 2/4/8 bytes (`"l"` also a pointer), `"f"` a `float`, `"d"` a `double`; the
//! register holds its bits. It rejects everything else — `bool`, narrower or wider integers,
//! `float` in `"r"`, `__half`, `__half2`, `short2`, any struct (measured with nvcc 13 on an H100:
//! docs/OPERANDS.md). ptx2hip cannot see C++ types (macro arguments, `auto`, templates), so
//! generated code reads and writes operands through helper templates named by the constraint
//! letter, `ptx2hip_in_r(x)` and `ptx2hip_out_r(y) = v` (rules/operands.toml; plain names rather
//! than `f<T>(x)` keep macro bodies parseable without type information): the C++ compiler, which
//! knows the type, gives
//! nvcc's result where nvcc accepts the operand and a `static_assert` where nvcc rejects it. An
//! integer literal, whose type the source itself proves, is bound without a helper, and so is an
//! operand whose type the file shows beyond doubt and nvcc binds ([`Direct`]): a `uint32_t`
//! local is read as itself and assigned as itself (`d = c | (b & a);`), where the glue would be
//! the same code in a longer spelling.
//!
//! ptxas in turn accepts a register only of the instruction operand's size, except that `cvt`,
//! `ld`, `ldu` and `st` take wider registers ([`register_fits`]).

use super::helper_use::HelperUse;
use crate::scan::{Seen, VisibleType};
use crate::vocabulary::code::Expr;
use crate::vocabulary::types::{CType, PtxType};

/// Reads input operand `expr` as the contents of a register of type `reg`, without the glue
/// where `direct` allows; records the glue helper it calls in `uses`.
pub fn read(reg: CType, expr: &str, direct: Option<Direct>, uses: &mut HelperUse) -> Expr {
    if let Some(d) = direct {
        return d.read(reg, expr);
    }
    match int_literal(expr) {
        Some(lit) if lit.binds(reg) => Expr::cast(reg, format!("({expr})")),
        _ => {
            let helper = format!("ptx2hip_in_{}", letter(reg));
            uses.add(&helper);
            Expr::other(format!("{helper}({expr})"))
        }
    }
}

/// An lvalue-like expression through which a value of type `value` is stored into output `expr`
/// of register type `reg` (the value is converted to `reg`, then to the operand's type), without
/// the glue where `direct` allows; records the glue helper it calls in `uses`.
pub fn write(
    reg: CType,
    value: CType,
    expr: &str,
    direct: Option<Direct>,
    uses: &mut HelperUse,
) -> String {
    if let Some(lvalue) = direct.and_then(|d| d.store(reg, value, expr)) {
        return lvalue;
    }
    let helper = format!("ptx2hip_out_{}", letter(reg));
    uses.add(&helper);
    format!("{helper}({expr})")
}

/// An operand that generated code uses as written, without the glue, because its C++ type is
/// visible beyond doubt ([`crate::scan::Seen`]: a whole cast, or a declaration in the function
/// around the statement that is not `volatile`) and nvcc binds it: then the glue's read,
/// `(R)(T)x`, is `x` itself when `T` is the register's type `R` and `(R)x` otherwise, and the
/// glue's store, `y = (T)(R)v`, is `y = v` when `T` is `R` or an integer of `R`'s size and `v`
/// an integer (both conversions are modulo 2^n). A built-in variable (a class on HIP), a name
/// declared further out (a member or a namespace-scope name could come between), a type this
/// table does not know (a typedef, `auto`, `long`) or one nvcc rejects keeps the glue.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Direct {
    /// The operand's type when it is the C type generated code gives a register (`uint32_t`,
    /// `int32_t`, `float`, ...; `unsigned long long` is not `uint64_t` on LP64).
    carries: Option<CType>,
    /// An integer of the register's size, whatever its spelling and signedness.
    integer: bool,
    /// A name that may be assigned: a declaration, not `const`.
    assignable: bool,
}

impl Direct {
    /// How operand `expr` of register type `reg`, whose type the file shows as `visible`, binds
    /// without the glue; `None` where it keeps the glue.
    pub fn of(reg: CType, expr: &str, visible: Option<&VisibleType>) -> Option<Direct> {
        let visible = visible?;
        let kind = binds(&visible.name)?;
        if reg == CType::Uint(128) || type_rejected(reg, &visible.name).is_some() {
            return None;
        }
        let assignable = match visible.seen {
            Seen::Cast => false,
            Seen::Declared(d) if d.local && !d.volatile => !d.constant,
            Seen::Declared(_) | Seen::Builtin => return None,
        };
        let carries = carried(&visible.name).filter(|c| c.bits() == reg.bits());
        let name = expr.trim();
        Some(Direct {
            carries,
            integer: matches!(kind, Binds::Int(_)),
            assignable: assignable && is_name(name),
        })
    }

    /// The glue's read of `expr` into a register of type `reg`.
    fn read(self, reg: CType, expr: &str) -> Expr {
        let operand = operand(expr);
        if self.carries == Some(reg) {
            Expr::other(operand)
        } else {
            Expr::cast(reg, operand)
        }
    }

    /// `expr` itself where it is a value of type `want`.
    pub fn read_as(self, want: CType, expr: &str) -> Option<Expr> {
        (self.carries == Some(want)).then(|| Expr::other(operand(expr)))
    }

    /// `expr` as the target of storing a value of type `value` into it as the glue would store
    /// it through a register of type `reg`.
    fn store(self, reg: CType, value: CType, expr: &str) -> Option<String> {
        let same = self.carries == Some(reg)
            || (self.integer && value.is_integer() && value.bits() == reg.bits());
        (self.assignable && same).then(|| expr.trim().to_string())
    }
}

/// The C type generated code gives a register (`vocabulary::types`) that a C++ type written so is
/// on every platform ptx2hip targets.
fn carried(ty: &str) -> Option<CType> {
    Some(match ty {
        "uint16_t" | "unsigned short" | "unsigned short int" => CType::Uint(16),
        "int16_t" | "short" | "short int" | "signed short" | "signed short int" => CType::Int(16),
        "uint32_t" | "unsigned" | "unsigned int" => CType::Uint(32),
        "int32_t" | "int" | "signed" | "signed int" => CType::Int(32),
        "uint64_t" => CType::Uint(64),
        "int64_t" => CType::Int(64),
        "float" => CType::Float,
        "double" => CType::Double,
        _ => return None,
    })
}

fn is_name(e: &str) -> bool {
    e.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && e.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `expr` as an operand of any C++ operator: a name as it is, anything else (a cast) in
/// parentheses.
fn operand(expr: &str) -> String {
    let e = expr.trim();
    if is_name(e) {
        e.to_string()
    } else {
        format!("({e})")
    }
}

/// The constraint letter of a register type (see [`crate::vocabulary::types::constraint_register`]).
fn letter(reg: CType) -> char {
    match reg {
        CType::Uint(16) => 'h',
        CType::Uint(64) => 'l',
        CType::Uint(128) => 'q',
        CType::Float => 'f',
        CType::Double => 'd',
        _ => 'r',
    }
}

/// The value of an `"n"` operand as an instruction operand of type `want`: nvcc prints the
/// constant as a signed integer of the constant's own width, which the instruction truncates to
/// its width (`"n"(0xffffffffu)` in a 64-bit instruction is all ones). Records `ptx2hip_imm` in
/// `uses` when the value is not a literal.
pub fn immediate(want: CType, expr: &str, uses: &mut HelperUse) -> Expr {
    match int_literal(expr) {
        Some(lit) if want.is_integer() && want.bits() <= 64 => {
            let value = lit.sign_extended() as u64;
            let bits = want.bits();
            let pattern = if bits == 64 {
                value
            } else {
                value & ((1u64 << bits) - 1)
            };
            let digits = if pattern <= 0x7fff_ffff {
                format!("{pattern}")
            } else if bits > 32 {
                format!("0x{pattern:x}ull")
            } else {
                format!("0x{pattern:x}u")
            };
            Expr::cast(want, digits)
        }
        _ => {
            uses.add("ptx2hip_imm");
            Expr::other(format!("ptx2hip_imm<{want}>({expr})"))
        }
    }
}

/// Why nvcc rejects input operand `expr` for a register of type `reg`, when the expression is a
/// literal whose type is known; `None` when it binds or its type is unknown here.
pub fn literal_rejected(reg: CType, expr: &str) -> Option<String> {
    let lit = int_literal(expr)?;
    (!lit.binds(reg)).then(|| {
        format!(
            "nvcc rejects the {}-byte integer literal `{}` for a {}-byte register",
            lit.bits / 8,
            expr.trim(),
            reg.bits() / 8
        )
    })
}

/// How a C++ type binds, for the types whose size does not depend on the platform.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Binds {
    /// An integer of this many bytes.
    Int(u32),
    Int128,
    Float,
    Double,
    Bool,
    Pointer,
    /// A class: `__half`, `__half2`, `short2`, ... (nvcc never binds one).
    Class,
}

/// How the type named `ty` (the normal form of `scan::Operand::visible_type`) binds; `None` for a
/// type this table does not know (an enum, a typedef, a class of the user's, `long`).
fn binds(ty: &str) -> Option<Binds> {
    if ty.ends_with('*') {
        return Some(Binds::Pointer);
    }
    Some(match ty {
        "bool" => Binds::Bool,
        "char" | "signed char" | "unsigned char" | "int8_t" | "uint8_t" => Binds::Int(1),
        "short" | "short int" | "signed short" | "unsigned short" | "unsigned short int"
        | "int16_t" | "uint16_t" => Binds::Int(2),
        "int" | "signed" | "signed int" | "unsigned" | "unsigned int" | "int32_t" | "uint32_t" => {
            Binds::Int(4)
        }
        "long long"
        | "long long int"
        | "unsigned long long"
        | "unsigned long long int"
        | "int64_t"
        | "uint64_t"
        | "size_t"
        | "intptr_t"
        | "uintptr_t"
        | "ptrdiff_t" => Binds::Int(8),
        "__int128" | "unsigned __int128" | "__int128_t" | "__uint128_t" => Binds::Int128,
        "float" => Binds::Float,
        "double" => Binds::Double,
        // CUDA's own names (`half`, a plain typedef a user may also declare, is left out).
        "__half" | "__nv_bfloat16" | "__half2" | "__nv_bfloat162" | "__nv_fp8_e4m3"
        | "__nv_fp8_e5m2" | "char2" | "uchar2" | "char4" | "uchar4" | "short2" | "ushort2"
        | "short4" | "ushort4" | "int2" | "uint2" | "int3" | "uint3" | "int4" | "uint4"
        | "float2" | "float3" | "float4" | "double2" | "longlong2" | "ulonglong2" | "dim3" => {
            Binds::Class
        }
        _ => return None,
    })
}

/// Why nvcc rejects an operand of C++ type `ty` for a register of type `reg` (measured,
/// docs/OPERANDS.md; the same rules as the glue's `static_assert`s): `None` when it binds or the
/// type is not one this table knows.
pub fn type_rejected(reg: CType, ty: &str) -> Option<String> {
    let kind = binds(ty)?;
    let fits = match (reg, kind) {
        (CType::Uint(128), k) => k == Binds::Int128,
        (CType::Float, k) => k == Binds::Float,
        (CType::Double, k) => k == Binds::Double,
        (_, Binds::Int(bytes)) => bytes * 8 == reg.bits(),
        (_, Binds::Pointer) => reg.bits() == 64,
        _ => false,
    };
    if fits {
        return None;
    }
    let bytes = reg.bits() / 8;
    Some(match kind {
        Binds::Class => format!(
            "nvcc rejects this `{ty}` operand: a class type is not a scalar; pass its bits as an \
             integer of the register's size ({bytes} bytes, e.g. `__half_as_ushort`)"
        ),
        _ if !reg.is_integer() => {
            format!("nvcc rejects this `{ty}` operand: \"f\" takes a float, \"d\" a double")
        }
        _ => format!(
            "nvcc rejects this `{ty}` operand: its register takes an integer of exactly {bytes} \
             bytes{}",
            if bytes == 8 { " or a pointer" } else { "" }
        ),
    })
}

/// Whether a PTX operand of type `ty` may live in an asm register of type `reg`, as ptxas decides
/// (measured, docs/OPERANDS.md): only a register of the operand's size — a narrower one is always
/// rejected, a wider one only by `cvt`, `ld`, `ldu` and `st` (PTX ISA, "Operand Size Exceeding
/// Instruction-Type Size"; not for a `cvt` `.bf16`/`.bf16x2` operand) — and a `.f32`/`.f64`
/// register never for a `.u`/`.s` integer operand. `Err` holds the reason.
pub fn register_fits(reg: CType, ty: PtxType, opcode: &str) -> Result<(), String> {
    if reg.bits() < ty.bits() {
        return Err("ptxas rejects a register narrower than the instruction operand".into());
    }
    if reg.bits() > ty.bits() {
        let wide_ok = matches!(opcode, "cvt" | "ld" | "ldu" | "st")
            && !(opcode == "cvt" && matches!(ty, PtxType::Bf16 | PtxType::Bf16x2));
        if !wide_ok {
            return Err(
                "ptxas takes a register wider than the instruction operand only for ld, st and cvt"
                    .into(),
            );
        }
    }
    if !reg.is_integer() && matches!(ty, PtxType::U(_) | PtxType::S(_)) {
        return Err("ptxas rejects a floating-point register for an integer operand".into());
    }
    Ok(())
}

/// An integer literal's value and C++ type (`[lex.icon]`, LP64: `long` has 64 bits).
#[derive(Debug, Clone, Copy, PartialEq)]
struct IntLiteral {
    value: u64,
    bits: u32,
}

impl IntLiteral {
    /// Binds to an integer register of exactly its size (nvcc); never to `"f"`/`"d"`.
    fn binds(self, reg: CType) -> bool {
        reg.is_integer() && reg.bits() == self.bits
    }

    /// The value as a signed integer of the literal's width.
    fn sign_extended(self) -> i64 {
        match self.bits {
            32 => self.value as u32 as i32 as i64,
            _ => self.value as i64,
        }
    }
}

/// The value of an `"n"` operand's expression when it is an integer literal, possibly negated
/// (`1`, `-1`, `0x10u`), as nvcc passes it: a signed integer of the literal's width. `None` for
/// any other constant expression (`int32_t(scaleA)`), whose value only the C++ compiler knows.
pub fn literal_value(expr: &str) -> Option<i64> {
    let e = expr.trim();
    match e.strip_prefix('-') {
        Some(rest) => int_literal(rest).map(|l| l.sign_extended().wrapping_neg()),
        None => int_literal(e).map(IntLiteral::sign_extended),
    }
}

/// Parses a non-negative integer literal without digit separators (`42`, `0x1Fu`, `0777`,
/// `0b101`, `5ull`); `None` for anything else, including a negated literal.
fn int_literal(expr: &str) -> Option<IntLiteral> {
    let e = expr.trim();
    let digits_end = e.find(['u', 'U', 'l', 'L']).unwrap_or(e.len());
    let (body, suffix) = e.split_at(digits_end);
    let (radix, digits) = if let Some(h) = body.strip_prefix("0x").or(body.strip_prefix("0X")) {
        (16, h)
    } else if let Some(b) = body.strip_prefix("0b").or(body.strip_prefix("0B")) {
        (2, b)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let value = u64::from_str_radix(digits, radix).ok()?;
    let lower = suffix.to_ascii_lowercase();
    let (unsigned, long) = match lower.as_str() {
        "" => (false, false),
        "u" => (true, false),
        "l" | "ll" => (false, true),
        "ul" | "lu" | "ull" | "llu" => (true, true),
        _ => return None,
    };
    // The first type of the literal's list that holds the value: int, unsigned int (not for
    // unsuffixed decimals), long, unsigned long.
    let fits_32 = if unsigned {
        value <= u32::MAX as u64
    } else if radix == 10 {
        value <= i32::MAX as u64
    } else {
        value <= u32::MAX as u64
    };
    let bits = if !long && fits_32 { 32 } else { 64 };
    Some(IntLiteral { value, bits })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every probed input operand of a type the table knows (tests/operands/nvcc_sm90.tsv,
    /// measured with nvcc 13 on an H100) is rejected exactly where nvcc rejected it.
    #[test]
    fn visible_types_are_rejected_exactly_where_nvcc_rejected_them() {
        let probe = include_str!("../../../../tests/operands/nvcc_sm90.tsv");
        let mut known = 0;
        for line in probe.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split('\t').collect();
            let (dir, letter, ctype, decl, expr, verdict) = (f[1], f[2], f[3], f[4], f[5], f[8]);
            if dir != "in" || !decl.is_empty() || expr != "x" || binds(ctype).is_none() {
                continue;
            }
            let reg = crate::vocabulary::types::constraint_register(letter.chars().next().unwrap())
                .unwrap();
            let rejected = type_rejected(reg, ctype);
            assert_eq!(
                rejected.is_some(),
                verdict == "rejected",
                "{line}: {rejected:?}"
            );
            known += 1;
        }
        assert!(known >= 100, "{known} probed cases of known types");
        // "q" (tests/operands/nvcc_sm90_q.txt): only the 128-bit integers.
        assert_eq!(type_rejected(CType::Uint(128), "unsigned __int128"), None);
        assert!(type_rejected(CType::Uint(128), "uint64_t").is_some());
        assert!(type_rejected(CType::Uint(128), "uint4").is_some());
        // Unknown types (a typedef, an enum, `long`, whose size the platform decides): no verdict.
        assert_eq!(type_rejected(CType::Uint(32), "long"), None);
        assert_eq!(type_rejected(CType::Uint(32), "my_enum"), None);
    }

    #[test]
    fn an_operand_whose_visible_type_nvcc_rejects_is_left_as_written() {
        let src = "__device__ void f(__half h, double d, unsigned short* o) {\n\
                   unsigned short r; unsigned u;\n\
                   asm(\"mov.b16 %0, %1;\" : \"=h\"(r) : \"h\"(h));\n\
                   asm(\"mov.b32 %0, %1;\" : \"=r\"(u) : \"r\"(d));\n\
                   asm(\"mov.b32 %0, %1;\" : \"=r\"(u) : \"r\"((float)u));\n\
                   asm(\"mov.b16 %0, %1;\" : \"=h\"(r) : \"h\"(threadIdx.x));\n\
                   asm(\"mov.b32 %0, %1;\" : \"=r\"(u) : \"r\"(threadIdx.x));\n\
                   asm(\"mov.b16 %0, %1;\" : \"=h\"(r) : \"h\"(*o));\n\
                   }";
        let rules = crate::lower::RuleSet::embedded().unwrap();
        let scanned = crate::scan::scan(src.as_bytes());
        let outcomes: Vec<Result<(), String>> = scanned
            .statements
            .iter()
            .map(|s| {
                let a = crate::lower::analyze(s, &rules, crate::lower::Target::Amd);
                a.outcome.map(|_| ()).map_err(|u| {
                    assert_eq!(u.code, crate::codes::Code::OperandBinding);
                    u.message
                })
            })
            .collect();
        assert_eq!(outcomes.len(), 6);
        let refused = |k: usize, what: &str| {
            let why = outcomes[k].as_ref().unwrap_err();
            assert!(why.contains(what), "{why}");
        };
        refused(0, "nvcc rejects this `__half` operand: a class type");
        refused(1, "nvcc rejects this `double` operand");
        refused(2, "nvcc rejects this `float` operand");
        refused(3, "nvcc rejects this `unsigned int` operand");
        // threadIdx.x in "r" binds; `*o`'s type is not shown by its spelling: translated.
        assert!(outcomes[4].is_ok() && outcomes[5].is_ok(), "{outcomes:?}");
    }

    #[test]
    fn integer_literals_have_their_cpp_types() {
        let lit = |s| int_literal(s).map(|l| (l.value, l.bits));
        assert_eq!(lit("0"), Some((0, 32)));
        assert_eq!(lit("0u"), Some((0, 32)));
        assert_eq!(lit("0x7fffffff"), Some((0x7fff_ffff, 32)));
        // A hexadecimal literal that does not fit in int is an unsigned int; a decimal one a long.
        assert_eq!(lit("0xffffffff"), Some((0xffff_ffff, 32)));
        assert_eq!(lit("4294967295"), Some((0xffff_ffff, 64)));
        assert_eq!(lit("0x100000000"), Some((1 << 32, 64)));
        assert_eq!(lit("5ull"), Some((5, 64)));
        assert_eq!(lit("5L"), Some((5, 64)));
        assert_eq!(lit("0777"), Some((0o777, 32)));
        assert_eq!(lit("0b101"), Some((5, 32)));
        assert_eq!(lit("-1"), None);
        assert_eq!(lit("x"), None);
        assert_eq!(lit("1.5f"), None);
        assert_eq!(lit("0x1p3"), None);
        assert_eq!(lit("08"), None);
    }

    /// The code and the helpers it records.
    fn glued<T: ToString>(f: impl FnOnce(&mut HelperUse) -> T) -> (String, HelperUse) {
        let mut uses = HelperUse::default();
        (f(&mut uses).to_string(), uses)
    }

    fn helpers(names: &[&str]) -> HelperUse {
        let mut uses = HelperUse::default();
        names.iter().for_each(|n| uses.add(n));
        uses
    }

    #[test]
    fn operands_are_read_through_the_helper_unless_a_literal_proves_its_type() {
        let r = |t, e| glued(|u| read(t, e, None, u));
        assert_eq!(
            r(CType::Uint(32), "x"),
            ("ptx2hip_in_r(x)".into(), helpers(&["ptx2hip_in_r"]))
        );
        assert_eq!(
            r(CType::Uint(32), "0u"),
            ("(uint32_t)(0u)".into(), helpers(&[]))
        );
        assert_eq!(r(CType::Uint(64), "0").0, "ptx2hip_in_l(0)");
        assert_eq!(r(CType::Float, "0").0, "ptx2hip_in_f(0)");
        assert_eq!(r(CType::Double, "v[i]").0, "ptx2hip_in_d(v[i])");
        assert_eq!(
            glued(|u| write(CType::Uint(16), CType::Uint(16), "h.x", None, u)),
            ("ptx2hip_out_h(h.x)".into(), helpers(&["ptx2hip_out_h"]))
        );
    }

    #[test]
    fn literals_nvcc_rejects_are_named() {
        assert_eq!(
            literal_rejected(CType::Uint(16), "0").as_deref(),
            Some("nvcc rejects the 4-byte integer literal `0` for a 2-byte register")
        );
        assert_eq!(literal_rejected(CType::Uint(64), "1ull"), None);
        assert_eq!(literal_rejected(CType::Uint(32), "y"), None);
    }

    #[test]
    fn immediates_are_sign_extended_from_the_constants_width_as_nvcc_prints_them() {
        // Measured: "n"(0xffffffffu) in mov.b64 gives all ones, "n"(0x123456789ll) in mov.b32 its
        // low 32 bits, "n"(0x12345) in mov.b16 0x2345.
        let imm = |t, e| glued(|u| immediate(t, e, u));
        assert_eq!(
            imm(CType::Uint(64), "0xffffffffu"),
            ("(uint64_t)0xffffffffffffffffull".into(), helpers(&[]))
        );
        assert_eq!(
            imm(CType::Uint(32), "0x123456789ll").0,
            "(uint32_t)591751049"
        );
        assert_eq!(imm(CType::Uint(16), "0x12345").0, "(uint16_t)9029");
        assert_eq!(imm(CType::Int(32), "7").0, "(int32_t)7");
        assert_eq!(
            imm(CType::Uint(32), "N"),
            ("ptx2hip_imm<uint32_t>(N)".into(), helpers(&["ptx2hip_imm"]))
        );
        assert_eq!(imm(CType::Bool, "1").0, "ptx2hip_imm<bool>(1)");
    }

    #[test]
    fn ptxas_takes_registers_of_the_operand_size_and_wider_ones_only_for_ld_st_cvt() {
        let r32 = CType::Uint(32);
        let r16 = CType::Uint(16);
        let l64 = CType::Uint(64);
        // Measured rejections: brev.b64 / mul.wide.u32 / cvt.rzi.u64.f16 into "=r", add.u32 into
        // "=h", add.u16 with "r" sources, add.u32 into "=l", add.f16 with "r", add.u32 with "f".
        assert!(register_fits(r32, PtxType::B(64), "brev").is_err());
        assert!(register_fits(r32, PtxType::U(64), "cvt").is_err());
        assert!(register_fits(r16, PtxType::U(32), "add").is_err());
        assert!(register_fits(r32, PtxType::U(16), "add").is_err());
        assert!(register_fits(l64, PtxType::U(32), "add").is_err());
        assert!(register_fits(r32, PtxType::F16, "add").is_err());
        assert!(register_fits(CType::Float, PtxType::U(32), "add").is_err());
        // Measured acceptances: cvt.s8.s32 / cvt.rn.f16.f32 into "=r", and.b32 with "f",
        // add.f32 with "r", add.f64 with "l".
        assert!(register_fits(r32, PtxType::S(8), "cvt").is_ok());
        assert!(register_fits(r32, PtxType::F16, "cvt").is_ok());
        assert!(register_fits(CType::Float, PtxType::B(32), "and").is_ok());
        assert!(register_fits(r32, PtxType::F32, "add").is_ok());
        assert!(register_fits(l64, PtxType::F64, "add").is_ok());
        // cvt takes no wider register for a bf16 operand (PTX ISA).
        assert!(register_fits(r32, PtxType::Bf16, "cvt").is_err());
    }
}
