//! Matching an instruction's modifiers against a rule's slots, and enumerating the forms a rule
//! claims.
//!
//! A rule names a root opcode and the modifier *slots* it accepts. A slot is a set of modifier
//! values (`rnd = rn|rz|rm|rp`, `T = @int`); an instruction matches a rule when every modifier it
//! carries fills a distinct slot and every required slot is filled, in whatever order the modifiers
//! were written. Slots are tried in declaration order, so two type slots with overlapping values
//! (`cvt.D.S`) are filled positionally. One rule therefore covers a whole family of forms, and
//! [`Rule::forms`] enumerates them for documentation and hardware verification.

use crate::vocabulary::types::PtxType;
use crate::vocabulary::Target;

use super::schema::{
    Bindings, Helper, OperandSpec, Rule, RuleTemplate, Slot, SpecialRegister, TypeRef,
};
use super::RuleSet;

/// Expands a `@class` slot value into modifier values.
pub fn expand_class(value: &str) -> Option<&'static [&'static str]> {
    Some(match value {
        "@uint" => &["u8", "u16", "u32", "u64"],
        "@sint" => &["s8", "s16", "s32", "s64"],
        "@int" => &["u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64"],
        "@int16+" => &["u16", "u32", "u64", "s16", "s32", "s64"],
        "@bits" => &["b8", "b16", "b32", "b64"],
        "@float" => &["f32", "f64"],
        "@rnd" => &["rn", "rz", "rm", "rp"],
        "@rndi" => &["rni", "rzi", "rmi", "rpi"],
        _ => return None,
    })
}

impl RuleSet {
    /// The rules of `opcode` whose slots take `modifiers` (in whatever order they are written),
    /// with their bindings, in the order lowering tries them: higher `priority` first, then file
    /// order. Lowering takes the first whose operand shapes fit the instruction's operands;
    /// `explain FORM` lists them, so both name the same rule for every form.
    pub fn matching<'s: 'm, 'm>(
        &'s self,
        opcode: &str,
        modifiers: &'m [String],
    ) -> impl Iterator<Item = (&'s Rule, Bindings)> + 'm {
        self.rules_for(opcode)
            .filter_map(move |r| Some((r, r.match_modifiers(modifiers)?)))
    }
}

impl Rule {
    /// Every value a slot accepts, classes expanded.
    pub fn slot_values(slot: &Slot) -> Vec<String> {
        let mut out = Vec::new();
        for v in &slot.values {
            match expand_class(v) {
                Some(vals) => out.extend(vals.iter().map(|s| s.to_string())),
                None => out.push(v.clone()),
            }
        }
        out
    }

    /// Whether `modifier` is one of a slot's values (classes expanded), without building the list.
    pub(super) fn slot_accepts(slot: &Slot, modifier: &str) -> bool {
        slot.values.iter().any(|v| match expand_class(v) {
            Some(vals) => vals.contains(&modifier),
            None => v == modifier,
        })
    }

    /// Assigns modifiers to slots; `None` when the modifiers do not form one of this rule's forms.
    pub fn match_modifiers(&self, modifiers: &[String]) -> Option<Bindings> {
        let mut bound: Vec<Option<String>> = vec![None; self.slots.len()];
        for m in modifiers {
            let slot = self
                .slots
                .iter()
                .enumerate()
                .position(|(i, s)| bound[i].is_none() && Rule::slot_accepts(s, m))?;
            bound[slot] = Some(m.clone());
        }
        if self
            .slots
            .iter()
            .zip(&bound)
            .any(|(s, b)| !s.optional && b.is_none())
        {
            return None;
        }
        let bindings: Bindings = self
            .slots
            .iter()
            .zip(bound)
            .map(|(s, b)| (s.name.clone(), b))
            .collect();
        if self.is_excluded(&bindings) {
            return None;
        }
        Some(bindings)
    }

    fn is_excluded(&self, bindings: &Bindings) -> bool {
        self.excludes(|slot| bindings.get(slot).map(Option::as_deref))
    }

    /// Whether an `exclude` entry applies to the form whose slot values `value_of` gives (`None`:
    /// no such slot; `Some(None)`: the optional slot is absent).
    pub(super) fn excludes<'v>(&self, value_of: impl Fn(&str) -> Option<Option<&'v str>>) -> bool {
        self.exclude.iter().any(|entry| {
            let conds = entry.conditions();
            conds.iter().all(|&(slot, _)| {
                let bound = value_of(slot);
                conds
                    .iter()
                    .filter(|&&(s, _)| s == slot)
                    .any(|&(_, value)| match bound {
                        Some(Some(v)) => v == value,
                        Some(None) => value.is_empty(),
                        None => false,
                    })
            })
        })
    }

    /// The operands in PTX order, parsed and with their roles (see [`super::Role`]).
    pub fn operand_specs(&self) -> &[OperandSpec] {
        &self.specs
    }

    /// How many operands a statement of this rule writes at least: those before the first with a
    /// default (`count:u32 = 1`), which a statement may leave out from there on.
    pub fn required_operands(&self) -> usize {
        self.specs
            .iter()
            .position(|s| s.default.is_some())
            .unwrap_or(self.specs.len())
    }

    /// Whether a statement of this rule may have `n` operands.
    pub fn takes_operand_count(&self, n: usize) -> bool {
        (self.required_operands()..=self.specs.len()).contains(&n)
    }

    /// Every concrete form (`opcode.mod...` in slot order, plus its bindings) this rule claims.
    pub fn forms(&self) -> Vec<(String, Bindings)> {
        let mut combos: Vec<Vec<(String, Option<String>)>> = vec![Vec::new()];
        for slot in &self.slots {
            let mut choices: Vec<Option<String>> = if slot.hint {
                Vec::new()
            } else {
                Rule::slot_values(slot).into_iter().map(Some).collect()
            };
            if slot.optional {
                choices.insert(0, None);
            }
            combos = combos
                .into_iter()
                .flat_map(|prefix| {
                    choices.iter().map(move |c| {
                        let mut p = prefix.clone();
                        p.push((slot.name.clone(), c.clone()));
                        p
                    })
                })
                .collect();
        }
        combos
            .into_iter()
            .map(|combo| {
                let mut form = self.opcode.clone();
                for (_, v) in &combo {
                    if let Some(v) = v {
                        form.push('.');
                        form.push_str(v);
                    }
                }
                (form, combo.into_iter().collect::<Bindings>())
            })
            .filter(|(_, b)| !self.is_excluded(b))
            .collect()
    }

    /// The PTX type a type reference denotes under some bindings.
    pub fn resolve_type(&self, ty: &TypeRef, bindings: &Bindings) -> Option<PtxType> {
        match ty {
            TypeRef::Fixed(t) => Some(*t),
            TypeRef::Slot(s) => PtxType::parse(bindings.get(s)?.as_deref()?),
        }
    }

    /// The register count and PTX type of the fragment operand `operand` (spec
    /// `operand:frag:shape:ty`) in the form `bindings`, from the family's `[[fragment]]` table;
    /// the loader checks that every form the rule claims has exactly one.
    pub fn fragment(
        &self,
        operand: &str,
        shape: &str,
        ty: &str,
        bindings: &Bindings,
    ) -> Option<(u32, PtxType)> {
        let value = |slot: &str| bindings.get(slot).cloned().flatten();
        let (shape, ty) = (value(shape)?, value(ty)?);
        self.fragments
            .iter()
            .find(|f| f.operand == operand && f.shape.contains(&shape) && f.types.contains(&ty))
            .and_then(|f| Some((f.count.registers(&shape).ok()?, PtxType::parse(&f.carrier)?)))
    }

    /// The template of the form `bindings` for `target`: the first `[[rule.when]]` the form
    /// matches, else the rule's own (`amd`, or `portable` when the rule has none). With it, where
    /// the helpers it calls come from, found when the table loads: literal names of helpers, names
    /// with placeholders (`ptx2hip_bfe_{T.name}`) that the lowering expands with the template,
    /// and lookups whose values name helpers. A template calling an unknown `ptx2hip_*` helper
    /// does not load.
    pub fn template(&self, target: Target, bindings: &Bindings) -> &RuleTemplate {
        let variant = self
            .when
            .iter()
            .position(|w| w.matches(bindings))
            .map_or(0, |i| i + 1);
        &self.templates[variant][target_index(target)]
    }

    /// The `--fast` template (`[rule.fast]`, `--target amd` only), if the rule has one.
    pub fn fast_template(&self, target: Target) -> Option<&RuleTemplate> {
        (self.fast.is_some() && target == Target::Amd)
            .then(|| self.templates.last())
            .flatten()
            .map(|t| &t[target_index(target)])
    }

    /// Every template of the rule for `target`: its own, then its `[[rule.when]]`s', then its
    /// `--fast` one.
    pub fn templates(&self, target: Target) -> impl Iterator<Item = &RuleTemplate> {
        self.templates.iter().map(move |t| &t[target_index(target)])
    }

    /// The template texts of the rule for `target` as written: its own first, then each
    /// `[[rule.when]]`'s, then the `--fast` one (the portable target has none: its own stands in).
    pub(super) fn template_texts(&self, target: Target) -> Vec<&str> {
        let own = match target {
            Target::Amd => self.amd.as_deref().unwrap_or(&self.portable),
            Target::Portable => &self.portable,
        };
        let when = self.when.iter().map(move |w| match target {
            Target::Amd => w.amd.as_deref().unwrap_or(&w.portable),
            Target::Portable => &w.portable,
        });
        let fast = self.fast.as_ref().map(|f| match target {
            Target::Amd => f.amd.as_str(),
            Target::Portable => own,
        });
        std::iter::once(own).chain(when).chain(fast).collect()
    }
}

impl Helper {
    /// The definition `target` compiles: the amd section for `--target amd` when there is one,
    /// else the portable one.
    pub fn definition(&self, target: Target) -> &str {
        match target {
            Target::Amd => self.amd.as_deref().unwrap_or(&self.portable),
            Target::Portable => &self.portable,
        }
    }
}

impl RuleSet {
    /// The definitions of `names` and every helper they require, for `target`, in an order that
    /// compiles, one after the other: the C++ that tests and measurements compile around emitted
    /// code (the emitted helper block adds its guards: `emit::helpers`).
    pub fn helper_definitions<'a>(
        &self,
        names: impl IntoIterator<Item = &'a String>,
        target: Target,
    ) -> String {
        let mut text = String::new();
        for name in self.helper_closure(names) {
            if let Some(h) = self.helpers.get(&name) {
                text.push_str(h.definition(target).trim());
                text.push('\n');
            }
        }
        text
    }
}

impl SpecialRegister {
    /// The helpers the register's expression for `target` calls (found when the table loads).
    pub fn helpers(&self, target: Target) -> &[String] {
        &self.helpers[target_index(target)]
    }

    /// The register's value as a C++ expression for `target`.
    pub fn expression(&self, target: Target) -> &str {
        match target {
            Target::Amd => self.amd.as_deref().unwrap_or(&self.portable),
            Target::Portable => &self.portable,
        }
    }
}

/// Where the per-target lists derived at load keep `target`'s.
pub(super) fn target_index(target: Target) -> usize {
    match target {
        Target::Portable => 0,
        Target::Amd => 1,
    }
}
