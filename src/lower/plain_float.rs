//! f32 `sub`/`mul`/`fma` rounded to nearest without `.ftz` or `.sat` (`add` is rule F001): the
//! plain intrinsic at the call site (`ptx2hip_canon_f32(__fmaf_rn(a, b, c))`) instead of the general helper
//! (`ptx2hip_fop_f32<ptx2hip_fmode::fma, ptx2hip_fmode::rn, ...>(a, b, c)`).
//!
//! This is the helper's own code for those template arguments (rules/helpers/float.h: with
//! `M == 0` and neither `FTZ` nor `SAT` it computes `__fadd_rn`/`__fmul_rn`/`__fmaf_rn` and
//! canonicalises the NaN), written out, so the golden vectors of the rules that call the helper
//! check it. The NaN canonicalisation is the one addition the exact result needs: NVIDIA returns
//! 0x7fffffff for every NaN result, AMD a quieted input NaN (ptx-to-amd.md, pitfall 8); the
//! intrinsics alone are not bit-exact there. `__fsub_rn(a, b)` is `__fadd_rn(a, -b)` bit for bit
//! (IEEE subtraction is addition of the negation, zeros and infinities included; a NaN's sign is
//! canonicalised away).

/// The general helper this rewrites away.
const HELPER: &str = "ptx2hip_fop_f32";

/// The helpers a rewritten call site no longer calls: the general helper, called once, and the
/// `ptx2hip_fmode` of its template arguments.
pub const REMOVED: [&str; 2] = [HELPER, "ptx2hip_fmode"];

/// The helper the rewritten call site calls instead.
pub const CANONICAL: &str = "ptx2hip_canon_f32";

const CALL: &str = "ptx2hip_fop_f32<";

/// `code` with its one `ptx2hip_fop_f32<OP, rn, no_ftz, no_sat>(a, b, c)` call of a sub, mul or
/// fma written as the intrinsic; `None` when it has no such call (or more than one).
pub fn simplify(code: &str) -> Option<String> {
    if code.matches(HELPER).count() != 1 {
        return None;
    }
    let start = code.find(CALL)?;
    let after = &code[start + CALL.len()..];
    let close = after.find('>')?;
    let params: Vec<&str> = after[..close].split(',').map(str::trim).collect();
    let [op, "ptx2hip_fmode::rn", "ptx2hip_fmode::no_ftz", "ptx2hip_fmode::no_sat"] =
        params.as_slice()
    else {
        return None;
    };
    let (args, len) = arguments(after[close + 1..].strip_prefix('(')?)?;
    let [a, b, c] = args.as_slice() else {
        return None;
    };
    let plain = match *op {
        "ptx2hip_fmode::sub" => format!("__fsub_rn({a}, {b})"),
        "ptx2hip_fmode::mul" => format!("__fmul_rn({a}, {b})"),
        "ptx2hip_fmode::fma" => format!("__fmaf_rn({a}, {b}, {c})"),
        _ => return None,
    };
    let end = start + CALL.len() + close + 2 + len;
    Some(format!(
        "{}ptx2hip_canon_f32({plain}){}",
        &code[..start],
        &code[end..]
    ))
}

/// The comma-separated arguments before the `)` that closes the list `text` starts, and the
/// length through that `)`; parentheses nest (an argument is an operand read, a literal or a local).
fn arguments(text: &str) -> Option<(Vec<&str>, usize)> {
    let mut depth = 0usize;
    let mut args = Vec::new();
    let mut from = 0;
    for (i, ch) in text.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' if depth == 0 => {
                args.push(text[from..i].trim());
                return Some((args, i + 1));
            }
            ')' => depth -= 1,
            ',' if depth == 0 => {
                args.push(text[from..i].trim());
                from = i + 1;
            }
            '"' | '\'' => return None,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_to_nearest_without_ftz_or_sat_is_the_intrinsic() {
        let fma =
            "ptx2hip_out_f(d) = ptx2hip_fop_f32<ptx2hip_fmode::fma, ptx2hip_fmode::rn, ptx2hip_fmode::no_ftz, ptx2hip_fmode::no_sat>(ptx2hip_in_f(x), y, (z));";
        assert_eq!(
            simplify(fma).unwrap(),
            "ptx2hip_out_f(d) = ptx2hip_canon_f32(__fmaf_rn(ptx2hip_in_f(x), y, (z)));"
        );
        let sub = "p2h_d = ptx2hip_fop_f32<ptx2hip_fmode::sub, ptx2hip_fmode::rn, ptx2hip_fmode::no_ftz, ptx2hip_fmode::no_sat>(p2h_a, p2h_b, 0.0f);";
        assert_eq!(
            simplify(sub).unwrap(),
            "p2h_d = ptx2hip_canon_f32(__fsub_rn(p2h_a, p2h_b));"
        );
    }

    #[test]
    fn other_modes_and_operations_keep_the_helper() {
        for code in [
            "d = ptx2hip_fop_f32<ptx2hip_fmode::fma, ptx2hip_fmode::rz, ptx2hip_fmode::no_ftz, ptx2hip_fmode::no_sat>(a, b, c);",
            "d = ptx2hip_fop_f32<ptx2hip_fmode::fma, ptx2hip_fmode::rn, ptx2hip_fmode::ftz, ptx2hip_fmode::no_sat>(a, b, c);",
            "d = ptx2hip_fop_f32<ptx2hip_fmode::mul, ptx2hip_fmode::rn, ptx2hip_fmode::no_ftz, ptx2hip_fmode::sat>(a, b, 0.0f);",
            "d = ptx2hip_fop_f32<ptx2hip_fmode::div, ptx2hip_fmode::rn, ptx2hip_fmode::no_ftz, ptx2hip_fmode::no_sat>(a, b, 0.0f);",
            "d = a;",
        ] {
            assert_eq!(simplify(code), None, "{code}");
        }
    }
}
