//! Names and literals: the C++ names of locals made from PTX names and operand expressions,
//! and C++ literals that carry an immediate's exact value in the operand's type.

use std::collections::{HashMap, HashSet};

use super::*;

/// An expression that can be evaluated any number of times with the same result and no effects:
/// an identifier, member access, or a literal.
pub fn is_simple_expr(e: &str) -> bool {
    let e = e.trim();
    let path = e.replace("->", ".").replace("::", ".");
    !e.is_empty()
        && !e.starts_with('.')
        && path.split('.').all(|part| {
            !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

pub(super) fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(25));
    for c in s.chars() {
        // No `__` is ever pushed, so past 24 bytes the first 24 are the answer whatever follows
        // (an expression can be long; the name keeps its start).
        if out.len() > 24 {
            break;
        }
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    // ASCII only: bytes are characters.
    let kept = out.trim_end_matches('_').len().min(24);
    out.truncate(kept);
    out
}

pub(super) fn operand_local_name(name: Option<&str>, expr: &str, index: usize) -> String {
    let base = name
        .map(sanitize)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| {
            let s = sanitize(expr);
            if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
                format!("op{index}")
            } else {
                s
            }
        });
    let mut local = String::with_capacity(4 + base.len());
    local.push_str("p2h_");
    local.push_str(&base);
    local
}

/// The local names a block has declared. A name asked for again gets the next free `_N` suffix;
/// each base remembers where its probing stopped, so a statement with many operands sharing one
/// expression is named in linear time, not quadratic.
#[derive(Default)]
pub(super) struct LocalNames {
    taken: HashSet<String>,
    next_suffix: HashMap<String, usize>,
}

impl LocalNames {
    pub(super) fn fresh(&mut self, base: &str) -> String {
        if self.taken.insert(base.to_string()) {
            return base.to_string();
        }
        let n = self.next_suffix.entry(base.to_string()).or_insert(2);
        loop {
            let name = format!("{base}_{n}");
            *n += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }
}

pub(super) fn reg_text(r: &Reg) -> String {
    match r {
        Reg::AsmOperand(i) => format!("%{i}"),
        Reg::AsmNamed(n) => format!("%[{n}]"),
        Reg::Ident {
            name,
            component: Some(c),
        } => format!("{name}.{c}"),
        Reg::Ident {
            name,
            component: None,
        } => name.clone(),
        Reg::UniqueId => "%=".into(),
    }
}

/// Renders a PTX immediate as a C++ expression of type `want`; records the helper a float
/// literal that C++ cannot spell (a NaN, an infinity) calls in `uses`.
pub(super) fn immediate(imm: &Immediate, want: CType, uses: &mut HelperUse) -> Option<Expr> {
    match (imm, want) {
        (Immediate::Int(v), t) if t.is_integer() => {
            let bits = t.bits();
            let fits = if t.bits() >= 128 {
                true
            } else {
                let min = -(1i128 << (bits - 1));
                let max = (1i128 << bits) - 1;
                (min..=max).contains(v)
            };
            fits.then(|| int_literal(*v, t))
        }
        (Immediate::Int(v), CType::Bool) => {
            Some(Expr::other(if *v != 0 { "true" } else { "false" }))
        }
        (Immediate::F32Bits(b), CType::Float) => Some(Expr::other(f32_literal(*b, uses))),
        (Immediate::F32Bits(b), CType::Uint(32) | CType::Int(32)) => {
            Some(Expr::cast(want, format!("0x{b:08x}u")))
        }
        (Immediate::F64Bits(b), CType::Double) => Some(Expr::other(f64_literal(*b, uses))),
        (Immediate::F64Bits(b), CType::Uint(64) | CType::Int(64)) => {
            Some(Expr::cast(want, format!("0x{b:016x}ull")))
        }
        (Immediate::Float(s), CType::Double) => s
            .parse::<f64>()
            .ok()
            .map(|d| Expr::other(f64_literal(d.to_bits(), uses))),
        (Immediate::Float(s), CType::Float) => s
            .parse::<f64>()
            .ok()
            .map(|d| Expr::other(f32_literal((d as f32).to_bits(), uses))),
        _ => None,
    }
}

/// The integer `v` as a literal cast to `t` (`(uint32_t)5`, `(int32_t)0xffffffffu`).
pub(super) fn int_literal(v: i128, t: CType) -> Expr {
    let bits = t.bits();
    let mask = if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    };
    let pattern = (v as u128) & mask;
    let digits = if (0..=0x7fff_ffff).contains(&v) {
        if bits > 32 {
            format!("{v}ull")
        } else {
            format!("{v}")
        }
    } else if bits > 32 {
        format!("0x{pattern:x}ull")
    } else {
        format!("0x{pattern:x}u")
    };
    Expr::cast(t, digits)
}

pub(super) fn f32_literal(bits: u32, uses: &mut HelperUse) -> String {
    let f = f32::from_bits(bits);
    if f.is_finite() {
        format!("{f:e}f")
    } else {
        uses.add("ptx2hip_f32_from_bits");
        format!("ptx2hip_f32_from_bits(0x{bits:08x}u)")
    }
}

pub(super) fn f64_literal(bits: u64, uses: &mut HelperUse) -> String {
    let f = f64::from_bits(bits);
    if f.is_finite() {
        format!("{f:e}")
    } else {
        uses.add("ptx2hip_f64_from_bits");
        format!("ptx2hip_f64_from_bits(0x{bits:016x}ull)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_names_come_from_the_operand_name_or_expression_else_its_index() {
        assert_eq!(sanitize("a.b->c[0]"), "a_b_c_0");
        assert_eq!(operand_local_name(Some("sum"), "x + 1", 3), "p2h_sum");
        assert_eq!(operand_local_name(None, "x[i] + 1", 3), "p2h_x_i_1");
        assert_eq!(operand_local_name(None, "42", 3), "p2h_op3");
        let mut names = LocalNames::default();
        assert_eq!(names.fresh("p2h_x"), "p2h_x");
        assert_eq!(names.fresh("p2h_x"), "p2h_x_2");
        assert_eq!(names.fresh("p2h_x_3"), "p2h_x_3");
        assert_eq!(
            names.fresh("p2h_x"),
            "p2h_x_4",
            "a suffix another base took is skipped"
        );
    }

    #[test]
    fn simple_expressions_are_names_and_member_paths() {
        assert!(is_simple_expr("a.b->c"));
        assert!(is_simple_expr("ns::v"));
        assert!(!is_simple_expr("a[i]"));
        assert!(!is_simple_expr("f()"));
    }

    #[test]
    fn literals_carry_the_exact_value_in_the_operand_type() {
        assert_eq!(int_literal(5, CType::Uint(32)), Expr::cast("uint32_t", "5"));
        assert_eq!(
            int_literal(-1, CType::Int(32)).to_string(),
            "(int32_t)0xffffffffu"
        );
        assert_eq!(
            int_literal(1, CType::Uint(64)).to_string(),
            "(uint64_t)1ull"
        );
        let mut uses = HelperUse::default();
        assert_eq!(f32_literal(0x3f80_0000, &mut uses), "1e0f");
        assert_eq!(f64_literal(0x3ff0_0000_0000_0000, &mut uses), "1e0");
        assert_eq!(uses, HelperUse::default());
        assert_eq!(
            f32_literal(0x7fc0_0000, &mut uses),
            "ptx2hip_f32_from_bits(0x7fc00000u)"
        );
        let mut nan = HelperUse::default();
        nan.add("ptx2hip_f32_from_bits");
        assert_eq!(uses, nan);
        assert_eq!(
            immediate(&Immediate::Int(256), CType::Uint(8), &mut uses),
            None
        );
        assert_eq!(
            immediate(&Immediate::Int(1), CType::Bool, &mut uses),
            Some(Expr::other("true"))
        );
    }

    /// The bits a C++ compiler reads back from an emitted float literal: the decimal (correctly
    /// rounded, as clang and Rust both parse it, `-` a negation) or the `from_bits` pattern.
    fn bits_read_back(literal: &str) -> u64 {
        let from_bits = |s: &str, prefix: &str, suffix: &str| {
            let hex = s.strip_prefix(prefix)?.strip_suffix(suffix)?;
            u64::from_str_radix(hex, 16).ok()
        };
        from_bits(literal, "ptx2hip_f32_from_bits(0x", "u)")
            .or_else(|| from_bits(literal, "ptx2hip_f64_from_bits(0x", "ull)"))
            .or_else(|| {
                let f32_text = literal.strip_suffix('f')?;
                Some(u64::from(f32_text.parse::<f32>().ok()?.to_bits()))
            })
            .unwrap_or_else(|| literal.parse::<f64>().unwrap().to_bits())
    }

    #[test]
    fn float_literals_read_back_bit_for_bit() {
        // 0f/0d bit patterns: zeros of both signs, the smallest and largest subnormal, the
        // smallest normal, the largest finite, a value with a long decimal, Inf and NaN payloads.
        let f32_cases = [
            0x0000_0000,
            0x8000_0000,
            0x0000_0001,
            0x807f_ffff,
            0x0080_0000,
            0x7f7f_ffff,
            0x3eaa_aaab,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0xffff_ffff,
        ];
        for bits in f32_cases {
            assert_eq!(
                bits_read_back(&f32_literal(bits, &mut HelperUse::default())),
                u64::from(bits),
                "{bits:#x}"
            );
        }
        let f64_cases = [
            0,
            1 << 63,
            1,
            0x800f_ffff_ffff_ffff,
            0x0010_0000_0000_0000,
            0x7fef_ffff_ffff_ffff,
            0x3fd5_5555_5555_5555,
            0x7ff0_0000_0000_0000,
            0x7ff8_0000_0000_0001,
            0xfff4_0000_0000_0000,
        ];
        for bits in f64_cases {
            assert_eq!(
                bits_read_back(&f64_literal(bits, &mut HelperUse::default())),
                bits,
                "{bits:#x}"
            );
        }
        assert_eq!(f32_literal(0x8000_0000, &mut HelperUse::default()), "-0e0f");
    }
}
