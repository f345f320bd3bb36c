//! Matrix shapes in the rule table: ranges that list many shape modifiers at once
//! (`m64n{8..256 step 8}k16` in a slot's values or a `[[fragment]]`'s shapes), and fragment widths
//! written as a formula of the shape (`count = "N/2"` for an `m{M}n{N}k{K}` shape). Warpgroup
//! instructions (`wgmma`) take 32 values of N, and their accumulator fragments have N/2 or N/4
//! registers: the table states the rule once instead of 32 times.

use serde::Deserialize;

/// The register count of a `[[fragment]]` entry.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum FragmentCount {
    /// The same count for every listed shape.
    Registers(u32),
    /// A dimension of the shape, optionally multiplied or divided by a whole number: `"N/2"`,
    /// `"N/4"`, `"K*2"`, `"M"`.
    Formula(String),
}

impl FragmentCount {
    /// The count for the shape modifier `shape`, or why there is none (a formula that does not
    /// parse, a shape that is not `m{M}n{N}k{K}`, a quotient that is not a whole number ≥ 1).
    pub fn registers(&self, shape: &str) -> Result<u32, String> {
        let formula = match self {
            FragmentCount::Registers(n) => return Ok(*n),
            FragmentCount::Formula(f) => f.as_str(),
        };
        let (dim, op, factor) = parse_formula(formula)?;
        let dims = MatrixShape::parse(shape)
            .ok_or_else(|| format!("`{shape}` is not a shape m{{M}}n{{N}}k{{K}}"))?;
        let value = match dim {
            'M' => dims.m,
            'N' => dims.n,
            _ => dims.k,
        };
        let count = match op {
            '*' => value.checked_mul(factor),
            _ => (value % factor == 0).then(|| value / factor),
        };
        count
            .filter(|&c| c >= 1)
            .ok_or_else(|| format!("`{formula}` gives no whole number of registers for `{shape}`"))
    }
}

/// `DIM`, `DIM/F` or `DIM*F` (DIM one of M, N, K; F a whole number ≥ 1) as (DIM, `/` or `*`, F).
fn parse_formula(formula: &str) -> Result<(char, char, u32), String> {
    let bad = || format!("count `{formula}` is not `N`, `N/2` or `N*2` (M, N or K)");
    let text = formula.trim();
    let mut chars = text.chars();
    let dim = chars.next().filter(|c| matches!(c, 'M' | 'N' | 'K'));
    let dim = dim.ok_or_else(bad)?;
    let rest = chars.as_str().trim();
    if rest.is_empty() {
        return Ok((dim, '*', 1));
    }
    let op = rest.chars().next().filter(|c| matches!(c, '/' | '*'));
    let op = op.ok_or_else(bad)?;
    let factor: u32 = rest[1..].trim().parse().map_err(|_| bad())?;
    if factor == 0 {
        return Err(bad());
    }
    Ok((dim, op, factor))
}

/// The dimensions of a shape modifier `m{M}n{N}k{K}` (`m64n256k16`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatrixShape {
    pub m: u32,
    pub n: u32,
    pub k: u32,
}

impl MatrixShape {
    pub fn parse(shape: &str) -> Option<MatrixShape> {
        let rest = shape.strip_prefix('m')?;
        let (m, rest) = rest.split_once('n')?;
        let (n, k) = rest.split_once('k')?;
        let number = |s: &str| {
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        Some(MatrixShape {
            m: number(m)?,
            n: number(n)?,
            k: number(k)?,
        })
    }
}

/// The values a written value stands for: itself, or, when it holds a range
/// `{FROM..TO step S}`, one value per number from FROM to TO (inclusive) in steps of S, the range
/// replaced by the number (`m64n{8..24 step 8}k16`: `m64n8k16`, `m64n16k16`, `m64n24k16`).
pub fn expand_range(value: &str) -> Result<Vec<String>, String> {
    let Some(open) = value.find('{') else {
        return Ok(vec![value.to_string()]);
    };
    let bad = || format!("`{value}`: a range is written `{{FROM..TO step S}}`");
    let close = open + value[open..].find('}').ok_or_else(bad)?;
    let (before, range, after) = (&value[..open], &value[open + 1..close], &value[close + 1..]);
    if after.contains('{') {
        return Err(format!("`{value}`: one range per value"));
    }
    let (from, rest) = range.split_once("..").ok_or_else(bad)?;
    let (to, step) = rest.split_once(" step ").ok_or_else(bad)?;
    let number = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
    let (from, to, step) = (number(from)?, number(to)?, number(step)?);
    if step == 0 || from > to {
        return Err(format!("`{value}`: the range lists no value"));
    }
    Ok((from..=to)
        .step_by(step as usize)
        .map(|n| format!("{before}{n}{after}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_lists_every_value_from_its_start_to_its_end() {
        assert_eq!(
            expand_range("m64n{8..24 step 8}k16").unwrap(),
            ["m64n8k16", "m64n16k16", "m64n24k16"]
        );
        assert_eq!(expand_range("m64n{8..256 step 8}k16").unwrap().len(), 32);
        // The end is included only when a step lands on it.
        assert_eq!(expand_range("x{1..4 step 2}").unwrap(), ["x1", "x3"]);
        assert_eq!(expand_range("f32").unwrap(), ["f32"]);
        for bad in [
            "m{8..}k",
            "m{8..16}k",
            "m{8..16 step 0}k",
            "m{16..8 step 8}k",
            "m{1..2 step 1}{3..4 step 1}",
        ] {
            assert!(expand_range(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_count_formula_is_a_dimension_of_the_shape_scaled_by_a_whole_number() {
        let count = |f: &str, shape: &str| FragmentCount::Formula(f.into()).registers(shape);
        assert_eq!(count("N/2", "m64n256k16"), Ok(128));
        assert_eq!(count("N/4", "m64n8k16"), Ok(2));
        assert_eq!(count("K*2", "m64n8k16"), Ok(32));
        assert_eq!(count("M", "m64n8k16"), Ok(64));
        assert_eq!(FragmentCount::Registers(4).registers("x4"), Ok(4));
        assert!(count("N/16", "m64n8k16")
            .unwrap_err()
            .contains("no whole number"));
        assert!(count("N/2", "x4").unwrap_err().contains("is not a shape"));
        for bad in ["Q/2", "N/0", "N+1", "N/", "2"] {
            assert!(
                count(bad, "m64n8k16").unwrap_err().contains("is not"),
                "{bad}"
            );
        }
    }

    #[test]
    fn shapes_are_m_n_k_with_whole_numbers() {
        assert_eq!(
            MatrixShape::parse("m16n8k16"),
            Some(MatrixShape { m: 16, n: 8, k: 16 })
        );
        for bad in ["m16n8", "x4", "m16nk8", "m16n8k16x", "n8m16k16"] {
            assert_eq!(MatrixShape::parse(bad), None, "{bad}");
        }
    }
}
