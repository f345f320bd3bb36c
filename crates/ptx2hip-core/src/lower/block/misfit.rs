//! Why no rule takes an instruction, said as precisely as the table allows: the operand that
//! does not fit and the form that would take it, the modifier no rule knows (with the one it
//! probably misspells), or the modifier a form lacks. A user reading "no rule translates
//! `vshr.u32.u32.u32.warp`" cannot tell a typo ptxas rejects from a gap in the table.

use super::expand::operand_fits;
use super::*;

/// Why `rule`, whose slots take the modifiers of `ins`, does not take its operands.
pub(super) fn shape(
    rules: &RuleSet,
    rule: &Rule,
    bindings: &Bindings,
    ins: &Instruction,
) -> String {
    let form = ins.form();
    let specs = rule.operand_specs();
    let n = ins.operands.len();
    if !rule.takes_operand_count(n) {
        let other = rules
            .rules_for(&ins.opcode)
            .find(|r| r.takes_operand_count(n));
        let hint = match other {
            Some(o) => format!(
                "; with {n} operands PTX writes the form of rule {} ({}), e.g. `{}`",
                o.code, o.name, o.example.ptx
            ),
            None => format!(
                "; no form of `{}` that ptx2hip translates has {n}",
                ins.opcode
            ),
        };
        let takes = match rule.required_operands() {
            k if k == specs.len() => k.to_string(),
            k => format!("{k} to {}", specs.len()),
        };
        return format!(
            "`{form}` has {n} operand{}, but rule {} takes {takes} ({}){hint}",
            plural(n),
            rule.code,
            rule.operands.join(", ")
        );
    }
    let misfit = specs
        .iter()
        .zip(&ins.operands)
        .position(|(s, o)| !operand_fits(rule, s, bindings, o));
    match misfit {
        Some(k) => format!(
            "operand {} of `{form}` is {}, where rule {} takes `{}`",
            k + 1,
            describe(&ins.operands[k], &specs[k]),
            rule.code,
            rule.operands[k]
        ),
        None => format!(
            "`{form}` has operands of a shape rule {} does not translate ({})",
            rule.code,
            rule.operands.join(", ")
        ),
    }
}

/// An operand's shape, in the words of a message.
fn describe(op: &ptx::Operand, spec: &OperandSpec) -> String {
    match op {
        ptx::Operand::Memory { .. } => "an address `[...]`".into(),
        ptx::Operand::Vector(v) => format!("a vector of {} elements", v.len()),
        ptx::Operand::PredPair(..) => "a pair `p|q`".into(),
        ptx::Operand::Reg(Reg::AsmOperand(_) | Reg::AsmNamed(_))
            if spec.kind == OperandKind::Scalar(TypeRef::Fixed(PtxType::Pred)) =>
        {
            "an asm operand, which is never a predicate (inline PTX has no predicate constraint: \
             set a `.reg .pred` with `setp` in the template)"
                .into()
        }
        _ => "a scalar".into(),
    }
}

/// Why no rule of `ins`'s opcode (which has rules) takes its modifiers.
pub(super) fn modifiers(rules: &RuleSet, ins: &Instruction) -> String {
    let form = ins.form();
    let opcode = &ins.opcode;
    let of_opcode: Vec<&Rule> = rules.rules_for(opcode).collect();
    let known: Vec<String> = of_opcode
        .iter()
        .flat_map(|r| r.slots.iter().flat_map(Rule::slot_values))
        .collect();
    if let Some(m) = ins.modifiers.iter().find(|m| !known.contains(m)) {
        // A type (`.u16x2` beside `.f16x2`) is a choice, not a typo: no suggestion for those.
        let near = known
            .iter()
            .find(|k| edit_distance(k, m) == 1 && m.len() > 3 && !is_type(m) && !is_type(k));
        return match near {
            Some(k) => format!(
                "no rule of `{opcode}` takes the modifier `.{m}` (did you mean `.{k}`?)"
            ),
            None => format!(
                "no rule of `{opcode}` takes the modifier `.{m}` (`ptx2hip explain {opcode}` lists the forms translated)"
            ),
        };
    }
    let lacking = of_opcode
        .iter()
        .filter_map(|r| Some((r, missing_slots(r, &ins.modifiers)?)))
        .filter(|(_, missing)| !missing.is_empty())
        .min_by_key(|(_, missing)| missing.len());
    if let Some((rule, missing)) = lacking {
        let wanted: Vec<String> = missing
            .iter()
            .map(|s| {
                let values: Vec<String> = Rule::slot_values(s)
                    .iter()
                    .map(|v| format!("`.{v}`"))
                    .collect();
                format!("`{}` ({})", s.name, values.join(", "))
            })
            .collect();
        return format!(
            "`{form}` lacks a modifier for {} that rule {} ({}) requires",
            wanted.join(" and "),
            rule.code,
            rule.name
        );
    }
    format!("no rule translates `{form}` (this combination of modifiers is not in the rule table)")
}

/// The required slots `modifiers` leave empty in `rule`, when each modifier fills a slot of it
/// (as [`Rule::match_modifiers`] fills them); `None` when some modifier fits no free slot.
fn missing_slots<'r>(rule: &'r Rule, modifiers: &[String]) -> Option<Vec<&'r Slot>> {
    let mut filled = vec![false; rule.slots.len()];
    for m in modifiers {
        let i = (0..rule.slots.len())
            .find(|&i| !filled[i] && Rule::slot_values(&rule.slots[i]).contains(m))?;
        filled[i] = true;
    }
    Some(
        rule.slots
            .iter()
            .zip(filled)
            .filter(|(s, f)| !s.optional && !f)
            .map(|(s, _)| s)
            .collect(),
    )
}

/// A type modifier (`u32`, `f16x2`, `b128`).
fn is_type(m: &str) -> bool {
    PtxType::parse(m).is_some() || m.ends_with("x2") || m.ends_with("x4")
}

/// Edit distance where swapping two neighbours counts one edit, as the typos it finds make them
/// (`.warp` for `.wrap`).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::translate;

    fn refusal(ptx: &str, n: usize) -> String {
        let mut ops = vec![("=r", "d")];
        ops.extend(std::iter::repeat_n(("r", "a"), n - 1));
        translate(ptx, &ops).unwrap_err()
    }

    #[test]
    fn a_misspelt_modifier_is_named_with_the_one_it_probably_means() {
        assert_eq!(
            refusal("vshr.u32.u32.u32.warp %0, %1, %2;", 3),
            "no rule of `vshr` takes the modifier `.warp` (did you mean `.wrap`?)"
        );
    }

    #[test]
    fn a_type_no_rule_takes_is_not_taken_for_a_typo() {
        assert_eq!(
            refusal("sub.u16x2 %0, %1, %2;", 3),
            "no rule of `sub` takes the modifier `.u16x2` (`ptx2hip explain sub` lists the forms translated)"
        );
    }

    #[test]
    fn a_missing_modifier_is_named_with_its_choices() {
        assert_eq!(
            refusal("vshr.u32.u32.u32 %0, %1, %2;", 3),
            "`vshr.u32.u32.u32` lacks a modifier for `mode` (`.clamp`, `.wrap`) that rule V013 (vshr) requires"
        );
    }

    #[test]
    fn an_operand_count_names_the_form_that_takes_it() {
        let why = refusal("vset.u32.u32.eq %0, %1, %2, %3;", 4);
        assert!(
            why.starts_with("`vset.u32.u32.eq` has 4 operands, but rule V015 takes 3 (d:u32, a:u32, b:u32); with 4 operands PTX writes the form of rule V016"),
            "{why}"
        );
    }

    #[test]
    fn a_rule_with_an_operand_left_out_takes_a_range_of_counts() {
        let rules = crate::rules::RuleSet::embedded().unwrap();
        let j010 = rules.rule("J010").unwrap();
        let parsed = crate::ptx::parse("mbarrier.arrive.release.cluster.b64 _;").unwrap();
        let crate::ptx::Item::Instruction(ins) = &parsed.items[0] else {
            panic!("{parsed:?}")
        };
        let bindings = j010.match_modifiers(&ins.modifiers).unwrap();
        let why = super::shape(&rules, j010, &bindings, ins);
        assert!(
            why.starts_with("`mbarrier.arrive.release.cluster.b64` has 1 operand, but rule J010 takes 2 to 3 (d:b64, a:addr:space, b:u32 = 1)"),
            "{why}"
        );
    }

    #[test]
    fn the_operand_that_does_not_fit_is_named() {
        let why = refusal("add.s32 %0, %1, [%2];", 3);
        assert_eq!(
            why,
            "operand 3 of `add.s32` is an address `[...]`, where rule I001 takes `b:T`"
        );
    }

    #[test]
    fn edit_distance_counts_insertions_deletions_and_substitutions() {
        assert_eq!(super::edit_distance("warp", "wrap"), 1);
        assert_eq!(super::edit_distance("u16x2", "f16x2"), 1);
        assert_eq!(super::edit_distance("clamp", "clamp"), 0);
        assert_eq!(super::edit_distance("sat", "satfinite"), 6);
    }
}
