//! Two rules claiming one form: the table must say which translates it.
//!
//! Lowering takes the first rule of an opcode (highest `priority`, then file order) whose slots
//! take an instruction's modifiers and whose operand shapes fit its operands. Two rules of equal
//! priority that claim a common form would make that choice an accident of file order, and
//! `ptx2hip rules` would count a rule some of whose forms never reach it; so such an overlap does
//! not load. Checked once at load, only between rules of one opcode and equal priority, by
//! matching each form one rule enumerates against the others' slots.

use super::load::LoadError;
use super::matching::expand_class;
use super::schema::{tensor_rank, vector_width, OperandKind, Rule, TypeRef};
use super::RuleSet;
use crate::vocabulary::types::PtxType;

/// A `LoadError` naming the later of two rules of equal priority that claim a common form with
/// operands of the same shapes.
pub(super) fn validate(set: &RuleSet) -> Result<(), LoadError> {
    let mut opcodes: Vec<&String> = set.by_opcode.keys().collect();
    opcodes.sort();
    for opcode in opcodes {
        let rules: Vec<&Rule> = set.rules_for(opcode).collect();
        for (k, first) in rules.iter().enumerate() {
            let rivals = rules[k + 1..]
                .iter()
                .filter(|r| r.priority == first.priority && may_share_a_form(first, r));
            for rival in rivals {
                if let Some(form) = shared_form(first, rival) {
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
    Ok(())
}

/// A cheap test before enumerating forms (the table loads at every start): two rules can share
/// a form only with as many operands, of kinds that can coincide, and when each one's required
/// slots share a value with some slot of the other.
fn may_share_a_form(a: &Rule, b: &Rule) -> bool {
    let (sa, sb) = (a.operand_specs(), b.operand_specs());
    !operand_counts_of_both(a, b).is_empty()
        && sa
            .iter()
            .zip(sb)
            .all(|(x, y)| kinds_may_coincide(&x.kind, &y.kind))
        && required_slots_fit(a, b)
        && required_slots_fit(b, a)
}

/// Whether operands of these kinds can have the same shape in some forms.
fn kinds_may_coincide(a: &OperandKind, b: &OperandKind) -> bool {
    use OperandKind::*;
    let predicate = |t: &TypeRef| *t == TypeRef::Fixed(PtxType::Pred);
    match (a, b) {
        (Scalar(x), Scalar(y)) => predicate(x) == predicate(y),
        (Address(_), Address(_)) | (Pair(..), Pair(..)) | (Tensor(_), Tensor(_)) => true,
        (Vector(n, _), Vector(m, _)) => n == m,
        (SlotVector(..), Scalar(t)) | (Scalar(t), SlotVector(..)) => !predicate(t),
        (SlotVector(..), SlotVector(..) | Vector(..)) | (Vector(..), SlotVector(..)) => true,
        // A fragment is a vector of some width, or a lone register when its width is 1.
        (Fragment { .. }, Fragment { .. } | Vector(..) | SlotVector(..))
        | (Vector(..) | SlotVector(..), Fragment { .. }) => true,
        (Fragment { .. }, Scalar(t)) | (Scalar(t), Fragment { .. }) => !predicate(t),
        _ => false,
    }
}

/// Whether every required slot of `a` shares a value with some slot of `b` (a form of `a` fills
/// it, and `b` must take that modifier).
fn required_slots_fit(a: &Rule, b: &Rule) -> bool {
    a.slots.iter().filter(|s| !s.optional).all(|s| {
        b.slots.iter().any(|t| {
            s.values.iter().any(|v| match expand_class(v) {
                Some(class) => class.iter().any(|c| Rule::slot_accepts(t, c)),
                None => Rule::slot_accepts(t, v),
            })
        })
    })
}

/// A form both rules claim with operands of the same shapes, if any: each form of `a` (as
/// [`Rule::forms`] enumerates them, hint slots absent) matched against `b`'s slots. Written
/// without the bindings maps of `forms`/`match_modifiers`, which would make this the larger part
/// of the start-up (the table loads at every start).
fn shared_form(a: &Rule, b: &Rule) -> Option<String> {
    let choices: Vec<Vec<Option<&str>>> = a
        .slots
        .iter()
        .map(|s| {
            let mut c: Vec<Option<&str>> = if s.hint {
                Vec::new()
            } else {
                s.values
                    .iter()
                    .flat_map(|v| match expand_class(v) {
                        Some(class) => class.to_vec(),
                        None => vec![v.as_str()],
                    })
                    .map(Some)
                    .collect()
            };
            if s.optional {
                c.insert(0, None);
            }
            c
        })
        .collect();
    if choices.iter().any(Vec::is_empty) {
        return None;
    }
    let mut at = vec![0usize; choices.len()];
    loop {
        let form: Vec<Option<&str>> = at.iter().zip(&choices).map(|(&i, c)| c[i]).collect();
        let value_of = |slot: &str| {
            let k = a.slots.iter().position(|s| s.name == slot)?;
            Some(form[k])
        };
        if !a.excludes(value_of) {
            let modifiers: Vec<&str> = form.iter().flatten().copied().collect();
            if let Some(filled) = fill(b, &modifiers) {
                let value_of = |slot: &str| {
                    let k = b.slots.iter().position(|s| s.name == slot)?;
                    Some(filled[k])
                };
                if !b.excludes(value_of) && same_shapes(a, &form, b, &filled) {
                    return Some(
                        std::iter::once(a.opcode.as_str())
                            .chain(modifiers)
                            .collect::<Vec<_>>()
                            .join("."),
                    );
                }
            }
        }
        // The next form: the last slot varies fastest.
        let mut k = choices.len();
        loop {
            if k == 0 {
                return None;
            }
            k -= 1;
            at[k] += 1;
            if at[k] < choices[k].len() {
                break;
            }
            at[k] = 0;
        }
    }
}

/// `modifiers` in `rule`'s slots as [`Rule::match_modifiers`] fills them (each the first free
/// slot that takes it; every required slot filled), without its exclusions.
fn fill<'m>(rule: &Rule, modifiers: &[&'m str]) -> Option<Vec<Option<&'m str>>> {
    let mut bound: Vec<Option<&str>> = vec![None; rule.slots.len()];
    for m in modifiers {
        let k = (0..rule.slots.len())
            .find(|&k| bound[k].is_none() && Rule::slot_accepts(&rule.slots[k], m))?;
        bound[k] = Some(m);
    }
    rule.slots
        .iter()
        .zip(&bound)
        .all(|(s, b)| s.optional || b.is_some())
        .then_some(bound)
}

/// The shape of an operand as lowering tells rules apart (`lower::block::expand::operands_fit`).
#[derive(PartialEq)]
enum Shape {
    Value,
    Predicate,
    Address,
    Vector(u32),
    Pair,
    /// A tensor operand with this many coordinates.
    Tensor(Option<u32>),
}

fn shapes(rule: &Rule, form: &[Option<&str>]) -> Vec<Shape> {
    let value_of = |slot: &str| {
        let k = rule.slots.iter().position(|s| s.name == slot)?;
        form[k]
    };
    rule.operand_specs()
        .iter()
        .map(|s| match &s.kind {
            OperandKind::Scalar(TypeRef::Fixed(PtxType::Pred)) => Shape::Predicate,
            OperandKind::Scalar(_) => Shape::Value,
            OperandKind::Address(_) => Shape::Address,
            OperandKind::Vector(n, _) => Shape::Vector(*n),
            OperandKind::SlotVector(slot, _) => match vector_width(value_of(slot)) {
                Some(1) | None => Shape::Value,
                Some(n) => Shape::Vector(n),
            },
            OperandKind::Pair(..) => Shape::Pair,
            OperandKind::Tensor(slot) => Shape::Tensor(tensor_rank(value_of(slot))),
            OperandKind::Fragment { shape, ty } => {
                let bindings: super::Bindings = rule
                    .slots
                    .iter()
                    .zip(form)
                    .map(|(slot, v)| (slot.name.clone(), v.map(str::to_string)))
                    .collect();
                match rule.fragment(&s.name, shape, ty, &bindings) {
                    Some((1, _)) | None => Shape::Value,
                    Some((n, _)) => Shape::Vector(n),
                }
            }
        })
        .collect()
}

/// Whether one instruction could have operands that fit both rules in these forms.
fn same_shapes(a: &Rule, af: &[Option<&str>], b: &Rule, bf: &[Option<&str>]) -> bool {
    let (sa, sb) = (shapes(a, af), shapes(b, bf));
    // Rules with defaulted operands take statements of several operand counts: compare the
    // shapes of each count both take.
    operand_counts_of_both(a, b).any(|n| sa[..n] == sb[..n])
}

/// The operand counts statements of both rules may have (more than one when a rule has
/// operands with defaults).
fn operand_counts_of_both(a: &Rule, b: &Rule) -> std::ops::RangeInclusive<usize> {
    let low = a.required_operands().max(b.required_operands());
    let high = a.operand_specs().len().min(b.operand_specs().len());
    low..=high
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

    /// The table's own overlaps (issue 18: V026/V027 and V028/V029 loaded, the earlier rule
    /// winning silently) are load errors without their `priority`.
    #[test]
    fn the_video_overlaps_do_not_load_without_their_priority() {
        let sources = super::super::EMBEDDED.iter().map(|(name, text)| {
            let text = if *name == "video.toml" {
                text.replace("priority = 1 ", "# priority = 1 ")
            } else {
                text.to_string()
            };
            (name.to_string(), text)
        });
        let err = RuleSet::from_sources(sources).unwrap_err().to_string();
        assert!(
            err.starts_with("rules/video.toml: rule V029: `priority`: claims `vabsdiff4.u32.u32.u32.add`, which rule V028"),
            "{err}"
        );
    }

    /// How many rule pairs of the embedded table get their forms enumerated: few, because the
    /// check runs at every start (`may_share_a_form` sets the others aside). The mbarrier rules
    /// of rules/cluster.toml (J010-J017) take the optional slots of their rules/async.toml
    /// counterparts and leave them the `.cta` forms by `exclude`: a few pairs of 18 forms each.
    /// The half-precision `set` rules H024/H025 let their result slot also accept integer types
    /// (so that `set.eq.u16.f16`, written result first, does not bind out of order): they pair
    /// with P012/P013 and H020/H021.
    #[test]
    fn only_rules_that_may_share_a_form_are_compared_form_by_form() {
        let set = RuleSet::embedded().unwrap();
        let mut compared = 0;
        let mut opcodes: Vec<&String> = set.by_opcode.keys().collect();
        opcodes.sort();
        for opcode in opcodes {
            let rules: Vec<&Rule> = set.rules_for(opcode).collect();
            for (k, a) in rules.iter().enumerate() {
                compared += rules[k + 1..]
                    .iter()
                    .filter(|b| b.priority == a.priority && may_share_a_form(a, b))
                    .count();
            }
        }
        assert!(compared <= 25, "{compared} pairs");
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
