//! Lookups and slots the table defines once and rules name (`[lookup]` and `[slot]` in any rule
//! file, one namespace each): the 583 lookups of the rules held 113 distinct definitions, most
//! of them policies several rules must agree on (a scope's HIP memory scope, a comparison's
//! operator), and a few slots (`sync`, `ftz`, the atomics' `scope`) are most of the 1,621 slots
//! written. A rule names them instead of copying them; the loader copies each named definition
//! into the rule, so the rest of the tool sees every lookup and slot as if written in place.

use std::collections::{BTreeMap, BTreeSet};

use super::load::{rule_error, LoadError};
use super::schema::{Lookup, Rule, Slot};

/// The table-level lookups and slots, by name, with the file that defines each, and the names
/// rules used.
#[derive(Default)]
pub(super) struct Shared {
    lookups: BTreeMap<String, (String, Lookup)>,
    slots: BTreeMap<String, (String, Slot)>,
    named: BTreeSet<String>,
}

impl Shared {
    /// Adds the `[lookup]` and `[slot]` tables of the rule file `file`: each definition is a
    /// table (not the name of another) and no other file defines its name.
    pub fn add(
        &mut self,
        file: &str,
        lookups: BTreeMap<String, Lookup>,
        slots: BTreeMap<String, Slot>,
    ) -> Result<(), LoadError> {
        let error = |table: &str, name: &str, message: String| {
            Err(LoadError::Syntax {
                file: file.to_string(),
                message: format!("[{table}] `{name}`: {message}"),
            })
        };
        for (name, l) in lookups {
            if l.named.is_some() {
                return error(
                    "lookup",
                    &name,
                    "a table-level lookup is a table of values, not a name".into(),
                );
            }
            if let Some((other, _)) = self.lookups.get(&name) {
                return error("lookup", &name, format!("already defined in rules/{other}"));
            }
            self.lookups.insert(name, (file.to_string(), l));
        }
        for (name, mut slot) in slots {
            if slot.named || !slot.name.is_empty() {
                return error(
                    "slot",
                    &name,
                    "a table-level slot is a table of values, named by its key".into(),
                );
            }
            if let Some((other, _)) = self.slots.get(&name) {
                return error("slot", &name, format!("already defined in rules/{other}"));
            }
            slot.name.clone_from(&name);
            self.slots.insert(name, (file.to_string(), slot));
        }
        Ok(())
    }

    /// Replaces each of the rule's slots and lookups that names a table-level one by a copy of
    /// it: a slot `"scope"` by the slot `scope`, a lookup `"cmp_ops"` by its slot and values,
    /// `"sign:A"` by its values keyed by slot `A`. A name that is not defined, a slot without a
    /// name or a lookup without a slot is an error.
    pub fn resolve(&mut self, rule: &mut Rule) -> Result<(), LoadError> {
        for i in 0..rule.slots.len() {
            let slot = &rule.slots[i];
            if slot.name.is_empty() {
                return Err(rule_error(rule, "slots", "a slot has no `name`".into()));
            }
            if !slot.named {
                continue;
            }
            let Some((_, def)) = self.slots.get(&slot.name) else {
                let message = format!("names unknown slot `{}`", slot.name);
                return Err(rule_error(rule, "slots", message));
            };
            self.named.insert(format!("slot {}", slot.name));
            rule.slots[i] = def.clone();
        }
        let mut resolved = Vec::new();
        for (placeholder, l) in &rule.lookup {
            let Some(written) = &l.named else {
                if l.slot.is_empty() {
                    return Err(rule_error(
                        rule,
                        "lookup",
                        format!("`{placeholder}` names no slot"),
                    ));
                }
                continue;
            };
            let (name, slot) = match written.split_once(':') {
                Some((name, slot)) => (name, Some(slot)),
                None => (written.as_str(), None),
            };
            let Some((_, def)) = self.lookups.get(name) else {
                return Err(rule_error(
                    rule,
                    "lookup",
                    format!("`{placeholder}` names unknown lookup `{name}`"),
                ));
            };
            let slot = slot.unwrap_or(&def.slot);
            if slot.is_empty() {
                return Err(rule_error(
                    rule,
                    "lookup",
                    format!("`{placeholder}`: lookup `{name}` has no slot: write `{name}:SLOT`"),
                ));
            }
            resolved.push((placeholder.clone(), slot.to_string(), def.values.clone()));
            self.named.insert(format!("lookup {name}"));
        }
        for (placeholder, slot, values) in resolved {
            if let Some(l) = rule.lookup.get_mut(&placeholder) {
                (l.slot, l.values) = (slot, values);
            }
        }
        Ok(())
    }

    /// Every table-level lookup and slot is named by some rule (an unused one is dead data).
    pub fn all_named(&self) -> Result<(), LoadError> {
        let lookups = self.lookups.iter().map(|(n, (f, _))| ("lookup", n, f));
        let slots = self.slots.iter().map(|(n, (f, _))| ("slot", n, f));
        for (table, name, file) in lookups.chain(slots) {
            if !self.named.contains(&format!("{table} {name}")) {
                return Err(LoadError::Syntax {
                    file: file.clone(),
                    message: format!("[{table}] `{name}` is named by no rule"),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::RuleSet;
    use super::LoadError;

    /// A table of one rule `X001` (`abs` with slots `A` and `B`) and its lookups as given, the
    /// file defining `[lookup]` as `defined`.
    fn table(lookup: &str, defined: &str) -> Result<RuleSet, LoadError> {
        let text = format!(
            r#"family = "t"
[[rule]]
code = "X001"
name = "x"
summary = "x"
doc = "x"
opcode = "abs"
slots = [{{ name = "A", values = ["s32", "u32"] }}, {{ name = "B", values = ["s32", "u32"] }}]
operands = ["d:A", "a:B"]
portable = "{{d}} = {{sa}} + {{a}} + {{sb}};"
lookup = {lookup}
example = {{ ptx = "abs.s32.s32 %0, %1;", constraints = "=r,r" }}
[lookup]
{defined}
"#
        );
        RuleSet::from_sources([("t.toml".to_string(), text)])
    }

    #[test]
    fn a_rule_names_a_table_level_slot() {
        let text = r#"family = "t"
[slot]
sat = { values = ["sat"], optional = true }
[[rule]]
code = "X001"
name = "x"
summary = "x"
doc = "x"
opcode = "abs"
slots = ["sat", { name = "T", values = ["s32"] }]
operands = ["d:T", "a:T"]
portable = "{d} = {a};"
example = { ptx = "abs.s32 %0, %1;", constraints = "=r,r" }
"#;
        let load = |text: &str| RuleSet::from_sources([("t.toml".to_string(), text.to_string())]);
        let rules = load(text).unwrap();
        let forms: Vec<String> = rules.rules[0].forms().into_iter().map(|(f, _)| f).collect();
        assert_eq!(forms, ["abs.s32", "abs.sat.s32"]);
        assert_eq!(
            load(&text.replace(r#"slots = ["sat""#, r#"slots = ["satf""#))
                .unwrap_err()
                .to_string(),
            "rules/t.toml: rule X001: `slots`: names unknown slot `satf`"
        );
        assert_eq!(
            load(&text.replace(r#"slots = ["sat", "#, "slots = ["))
                .unwrap_err()
                .to_string(),
            "rules/t.toml: [slot] `sat` is named by no rule"
        );
    }

    const SIGN: &str = r#"sign = { slot = "A", values = { s32 = "true", u32 = "false" } }"#;

    #[test]
    fn a_rule_names_a_table_level_lookup_keyed_by_its_slot_or_another() {
        let rules = table(r#"{ sa = "sign", sb = "sign:B" }"#, SIGN).unwrap();
        let r = &rules.rules[0];
        assert_eq!(
            (r.lookup["sa"].slot.as_str(), r.lookup["sb"].slot.as_str()),
            ("A", "B")
        );
        assert_eq!(r.lookup["sb"].values["u32"], "false");
        let inline = r#"{ sa = "sign", sb = { slot = "B", values = { s32 = "1", u32 = "0" } } }"#;
        assert_eq!(
            table(inline, SIGN).unwrap().rules[0].lookup["sb"].values["s32"],
            "1"
        );
    }

    #[test]
    fn a_named_lookup_exists_has_a_slot_and_is_used() {
        let error = |lookup: &str, defined: &str| table(lookup, defined).unwrap_err().to_string();
        assert_eq!(
            error(r#"{ sa = "sgn", sb = "sign:B" }"#, SIGN),
            "rules/t.toml: rule X001: `lookup`: `sa` names unknown lookup `sgn`"
        );
        let slotless = r#"sign = { values = { s32 = "true", u32 = "false" } }"#;
        assert_eq!(
            error(r#"{ sa = "sign", sb = "sign:B" }"#, slotless),
            "rules/t.toml: rule X001: `lookup`: `sa`: lookup `sign` has no slot: write `sign:SLOT`"
        );
        let unused = format!("{SIGN}\nother = {{ slot = \"A\", values = {{ s32 = \"1\" }} }}");
        assert_eq!(
            error(r#"{ sa = "sign", sb = "sign:B" }"#, &unused),
            "rules/t.toml: [lookup] `other` is named by no rule"
        );
        assert!(
            error(r#"{ sa = "sign", sb = "sign:B" }"#, "sign = \"other\"")
                .contains("[lookup] `sign`: a table-level lookup is a table of values, not a name")
        );
    }
}
