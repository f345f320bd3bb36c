//! Lookups the table defines once and rules name (`[lookup]` in any rule file, one namespace):
//! the 583 lookups of the rules held 149 distinct definitions, most of them policies several
//! rules must agree on (a scope's HIP memory scope, a comparison's operator), which a rule now
//! names instead of copying. The loader copies each named definition into the rule, so the rest
//! of the tool sees every lookup as if it were written in place.

use std::collections::{BTreeMap, BTreeSet};

use super::load::{rule_error, LoadError};
use super::schema::{Lookup, Rule};

/// The table-level lookups, by name, with the file that defines each, and the names rules used.
#[derive(Default)]
pub(super) struct Shared {
    defined: BTreeMap<String, (String, Lookup)>,
    named: BTreeSet<String>,
}

impl Shared {
    /// Adds the `[lookup]` table of the rule file `file`: each is a table (not the name of
    /// another) and no other file defines its name.
    pub fn add(&mut self, file: &str, lookups: BTreeMap<String, Lookup>) -> Result<(), LoadError> {
        for (name, l) in lookups {
            let error = |message: String| {
                Err(LoadError::Syntax {
                    file: file.to_string(),
                    message: format!("[lookup] `{name}`: {message}"),
                })
            };
            if l.named.is_some() {
                return error("a table-level lookup is a table of values, not a name".into());
            }
            if let Some((other, _)) = self.defined.get(&name) {
                return error(format!("already defined in rules/{other}"));
            }
            self.defined.insert(name, (file.to_string(), l));
        }
        Ok(())
    }

    /// Replaces each of the rule's lookups that names a table-level one (`"cmp_ops"`, or
    /// `"sign:A"` keyed by slot `A`) by a copy of its slot and values; a name that is not
    /// defined, or a lookup with no slot, is an error.
    pub fn resolve(&mut self, rule: &mut Rule) -> Result<(), LoadError> {
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
            let Some((_, def)) = self.defined.get(name) else {
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
            self.named.insert(name.to_string());
        }
        for (placeholder, slot, values) in resolved {
            if let Some(l) = rule.lookup.get_mut(&placeholder) {
                (l.slot, l.values) = (slot, values);
            }
        }
        Ok(())
    }

    /// Every table-level lookup is named by some rule (an unused one is dead data).
    pub fn all_named(&self) -> Result<(), LoadError> {
        match self
            .defined
            .iter()
            .find(|(name, _)| !self.named.contains(*name))
        {
            Some((name, (file, _))) => Err(LoadError::Syntax {
                file: file.clone(),
                message: format!("[lookup] `{name}` is named by no rule"),
            }),
            None => Ok(()),
        }
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
