//! Two rules claiming one form: the table must say which translates it.
//!
//! Lowering takes the first rule of an opcode (highest `priority`, then file order) whose slots
//! take an instruction's modifiers and whose operand shapes fit its operands. Two rules of equal
//! priority that claim a common form would make that choice an accident of file order, and
//! `ptx2hip rules` would count a rule some of whose forms never reach it; so such an overlap does
//! not load. Checked once at load, only between rules of one opcode and equal priority, by
//! matching each form one rule enumerates against the others' slots.

use super::load::LoadError;
use super::schema::{vector_width, Bindings, OperandKind, Rule, TypeRef};
use super::RuleSet;
use crate::lower::types::PtxType;

/// A `LoadError` naming the later of two rules of equal priority that claim a common form with
/// operands of the same shapes.
pub(super) fn validate(set: &RuleSet) -> Result<(), LoadError> {
    let mut opcodes: Vec<&String> = set.by_opcode.keys().collect();
    opcodes.sort();
    for opcode in opcodes {
        let rules: Vec<&Rule> = set.rules_for(opcode).collect();
        for (k, first) in rules.iter().enumerate() {
            let rivals: Vec<&&Rule> = rules[k + 1..]
                .iter()
                .filter(|r| r.priority == first.priority)
                .collect();
            if rivals.is_empty() {
                continue;
            }
            for (form, bindings) in first.forms() {
                let modifiers: Vec<String> = form.split('.').skip(1).map(str::to_string).collect();
                for rival in &rivals {
                    let Some(theirs) = rival.match_modifiers(&modifiers) else {
                        continue;
                    };
                    if same_shapes(first, &bindings, rival, &theirs) {
                        return Err(LoadError::Rule {
                            file: rival.file.clone(),
                            rule: rival.code.clone(),
                            key: "priority",
                            message: format!(
                                "claims `{form}`, which rule {} (rules/{}) claims with operands of the same shapes at the same priority {}: give the one that should translate it a higher `priority`, or `exclude` the form from the other",
                                first.code, first.file, first.priority
                            ),
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

/// The shape of an operand as lowering tells rules apart (`lower::block::expand::operands_fit`).
#[derive(PartialEq)]
enum Shape {
    Value,
    Predicate,
    Address,
    Vector(u32),
    Pair,
}

fn shapes(rule: &Rule, bindings: &Bindings) -> Vec<Shape> {
    rule.operand_specs()
        .iter()
        .map(|s| match &s.kind {
            OperandKind::Scalar(TypeRef::Fixed(PtxType::Pred)) => Shape::Predicate,
            OperandKind::Scalar(_) => Shape::Value,
            OperandKind::Address(_) => Shape::Address,
            OperandKind::Vector(n, _) => Shape::Vector(*n),
            OperandKind::SlotVector(slot, _) => {
                match vector_width(bindings.get(slot).and_then(|v| v.as_deref())) {
                    Some(1) | None => Shape::Value,
                    Some(n) => Shape::Vector(n),
                }
            }
            OperandKind::Pair(..) => Shape::Pair,
        })
        .collect()
}

/// Whether one instruction could have operands that fit both rules in these forms.
fn same_shapes(a: &Rule, ab: &Bindings, b: &Rule, bb: &Bindings) -> bool {
    shapes(a, ab) == shapes(b, bb)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule file of two rules of `op`: `Z001` over `.u32`/`.s32` with operands `d, a`, and
    /// `Z002` with the keys given.
    fn table(second: &str) -> Result<RuleSet, LoadError> {
        let rule = |code: &str, keys: &str| {
            format!(
                "[[rule]]\ncode = \"{code}\"\nname = \"r{code}\"\nsummary = \"s\"\ndoc = \"d\"\n\
                 opcode = \"op\"\nportable = \"{{d}} = {{a}};\"\n\
                 example = {{ ptx = \"op.s32 %0, %1;\", constraints = \"=r,r\" }}\n{keys}\n"
            )
        };
        let text = format!(
            "family = \"f\"\n{}{}",
            rule(
                "Z001",
                "slots = [{ name = \"T\", values = [\"u32\", \"s32\"] }]\noperands = [\"d:T\", \"a:T\"]"
            ),
            rule("Z002", second)
        );
        RuleSet::from_sources([("f.toml".to_string(), text)])
    }

    const S32_OR_U64: &str = "slots = [{ name = \"T\", values = [\"s32\", \"u64\"] }]";

    #[test]
    fn two_rules_of_equal_priority_claiming_one_form_do_not_load() {
        let err = table(&format!("{S32_OR_U64}\noperands = [\"d:T\", \"a:T\"]")).unwrap_err();
        let LoadError::Rule {
            file,
            rule,
            key,
            message,
        } = &err
        else {
            panic!("{err}")
        };
        assert_eq!(
            (file.as_str(), rule.as_str(), *key),
            ("f.toml", "Z002", "priority")
        );
        assert!(
            message.contains("`op.s32`") && message.contains("Z001"),
            "{message}"
        );
    }

    #[test]
    fn a_higher_priority_decides_an_overlap_and_wins_it() {
        let set = table(&format!(
            "{S32_OR_U64}\noperands = [\"d:T\", \"a:T\"]\npriority = 1"
        ))
        .unwrap();
        let codes: Vec<&str> = set.rules_for("op").map(|r| r.code.as_str()).collect();
        assert_eq!(codes, ["Z002", "Z001"]);
    }

    #[test]
    fn rules_sharing_a_form_but_not_its_operand_shapes_do_not_overlap() {
        for operands in [
            "operands = [\"d:T\", \"a:T\", \"b:T\"]",
            "operands = [\"d:T\", \"a:addr\"]",
            "operands = [\"d:T\", \"a:pred\"]",
        ] {
            let set = table(&format!("{S32_OR_U64}\n{operands}"));
            assert!(set.is_ok(), "{operands}: {set:?}");
        }
    }
}
