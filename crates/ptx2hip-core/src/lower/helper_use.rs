//! The helpers a translation calls, recorded where its code is produced: the rule's template
//! (the names the table derived from it when it loaded, completed by the instruction's
//! modifiers), the operand glue (`ptx2hip_in_r`, `ptx2hip_out_r`, `ptx2hip_imm`), bit casts and
//! float literals, address windows, special registers and `"C"`-operand dispatch. Nothing scans
//! the generated code for them: what is emitted and what is declared come from the same place.

use crate::rules::RuleSet;

/// Helper names in first-use order, each once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HelperUse(Vec<String>);

impl HelperUse {
    /// Records a call of `name`.
    pub fn add(&mut self, name: &str) {
        if !self.0.iter().any(|n| n == name) {
            self.0.push(name.to_string());
        }
    }

    /// Records every call `other` recorded.
    pub fn extend(&mut self, other: &HelperUse) {
        for n in &other.0 {
            self.add(n);
        }
    }

    /// The helpers to emit: the recorded ones that the table defines, with everything they
    /// require (`requires=`), in an order that compiles.
    pub fn closure(&self, rules: &RuleSet) -> Vec<String> {
        rules.helper_closure(self.0.iter().filter(|n| rules.helpers.contains_key(*n)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_once_in_first_use_order() {
        let mut u = HelperUse::default();
        u.add("ptx2hip_in_r");
        u.add("ptx2hip_out_r");
        u.add("ptx2hip_in_r");
        let mut v = HelperUse::default();
        v.add("ptx2hip_out_r");
        v.add("ptx2hip_prmt");
        u.extend(&v);
        assert_eq!(u.0, ["ptx2hip_in_r", "ptx2hip_out_r", "ptx2hip_prmt"]);
    }

    #[test]
    fn the_closure_adds_requirements_first_and_drops_names_no_helper_has() {
        let rules = RuleSet::embedded().unwrap();
        let mut u = HelperUse::default();
        u.add("ptx2hip_in_r");
        u.add("ptx2hip_not_a_helper");
        let closure = u.closure(&rules);
        assert_eq!(closure.last().map(String::as_str), Some("ptx2hip_in_r"));
        assert!(!closure.iter().any(|n| n == "ptx2hip_not_a_helper"));
        let h = &rules.helpers["ptx2hip_in_r"];
        assert!(
            h.requires.iter().all(|r| closure.contains(r)),
            "{closure:?}"
        );
    }
}
