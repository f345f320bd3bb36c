//! The rule table: data in `rules/*.toml` and C++ helpers in `rules/helpers/*.h`, embedded in the
//! binary and validated when it loads. The rest of the tool sees it through [`RuleSet`]: the
//! rules of an opcode ([`RuleSet::rules_for`]), a rule's forms and matching ([`Rule::forms`],
//! [`Rule::match_modifiers`]), its operands with their roles ([`Rule::operand_specs`]), its
//! templates ([`Rule::template`], parsed and expanded by [`template::Template`]), the helpers a translation
//! needs ([`RuleSet::helper_closure`]) and the evidence behind each rule ([`evidence`]).
//!
//! - [`schema`]: the serde types, as written in the files (rules/README.md documents every key);
//! - [`load`]: parsing and validation, with a typed [`LoadError`] naming file, rule and key;
//! - [`matching`]: modifiers to slots, forms;
//! - [`shared`]: the table-level lookups and slots rules name;
//! - [`overlap`]: two rules may claim one form only with different priorities;
//! - [`shapes`]: ranges of shape modifiers and fragment widths computed from the shape;
//! - [`helpers`]: the helper files' markers; [`switches`]: helpers generated from cases as data;
//! - [`template`], [`call_sites`]: placeholders and the calls templates may make;
//! - [`evidence`]: the recordings that check each rule (`ptx2hip rules`);
//! - `digest`: the table's meaning as text, which rewriting the files for reuse keeps (a test).

pub mod call_sites;
#[cfg(test)]
mod digest;
pub mod evidence;
mod helpers;
mod load;
mod matching;
mod overlap;
mod schema;
pub mod shapes;
mod shared;
mod switches;
pub mod template;

use std::collections::{BTreeMap, HashMap, HashSet};

pub use load::{LoadError, TENSOR_MODEL};
pub use matching::expand_class;
pub use schema::{
    tensor_rank, vector_width, Bindings, Carry, Case, Decomposition, Example, Exclude, Fast,
    Fragment, Helper, Lookup, OperandDefault, OperandKind, OperandSpec, Role, Rule, RuleTemplate,
    Slot, SpecialRegister, TemplateHelpers, TypeRef, UnsupportedForm, When,
};

// The rule files compiled into the binary (`EMBEDDED: &[(name relative to rules/, text)]`),
// listed by build.rs from `rules/*.toml` and the helper files `rules/helpers/*.h`.
include!(concat!(env!("OUT_DIR"), "/embedded_rules.rs"));

/// Every helper's name starts with this, so emitted code can be searched for them in one pass.
pub const HELPER_PREFIX: &str = "ptx2hip_";

/// The validated rule table.
#[derive(Debug, Clone)]
pub struct RuleSet {
    pub rules: Vec<Rule>,
    pub unsupported: Vec<UnsupportedForm>,
    pub helpers: HashMap<String, Helper>,
    /// Helper names in definition order (emission order is dependency order within it).
    pub helper_order: Vec<String>,
    pub specials: HashMap<String, SpecialRegister>,
    /// The cases of helpers' switches, by helper and label (`[switch.NAME]` of the rule files).
    switches: HashMap<String, BTreeMap<String, String>>,
    by_opcode: HashMap<String, Vec<usize>>,
}

impl RuleSet {
    /// Rules for a root opcode, in the order lowering tries them: higher `priority` first, then
    /// table order.
    pub fn rules_for(&self, opcode: &str) -> impl Iterator<Item = &Rule> {
        self.by_opcode
            .get(opcode)
            .into_iter()
            .flatten()
            .map(|&i| &self.rules[i])
    }

    pub fn rule(&self, code: &str) -> Option<&Rule> {
        self.rules
            .iter()
            .find(|r| r.code.eq_ignore_ascii_case(code))
    }

    /// The rule that was known as `code` before it was renamed (its `formerly` key).
    pub fn renamed_from(&self, code: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| {
            r.formerly
                .as_deref()
                .is_some_and(|f| f.eq_ignore_ascii_case(code))
        })
    }

    /// A deliberate "not translated" entry covering this instruction, if any.
    pub fn unsupported_reason(&self, opcode: &str, modifiers: &[String]) -> Option<&str> {
        self.unsupported
            .iter()
            .filter(|u| {
                u.opcode == opcode
                    && if u.exact {
                        u.modifiers == modifiers
                    } else {
                        u.modifiers.iter().all(|m| modifiers.contains(m))
                    }
            })
            .max_by_key(|u| u.modifiers.len())
            .map(|u| u.reason.as_str())
    }

    /// Helper names with every transitive requirement, in a definition order that compiles
    /// (requirements first).
    pub fn helper_closure<'a>(&self, names: impl IntoIterator<Item = &'a String>) -> Vec<String> {
        // Names borrowed from the arguments and the table: each statement's lowering asks.
        let mut needed: HashSet<&str> = HashSet::new();
        let mut stack: Vec<&str> = names.into_iter().map(String::as_str).collect();
        while let Some(n) = stack.pop() {
            if needed.insert(n) {
                if let Some(h) = self.helpers.get(n) {
                    stack.extend(h.requires.iter().map(String::as_str));
                }
            }
        }
        let mut ordered = Vec::new();
        let mut placed = HashSet::new();
        fn place<'s>(
            set: &'s RuleSet,
            n: &'s str,
            needed: &HashSet<&str>,
            placed: &mut HashSet<&'s str>,
            out: &mut Vec<String>,
        ) {
            if !needed.contains(n) || !placed.insert(n) {
                return;
            }
            if let Some(h) = set.helpers.get(n) {
                for r in &h.requires {
                    place(set, r, needed, placed, out);
                }
            }
            out.push(n.to_string());
        }
        let mut known: Vec<&Helper> = needed.iter().filter_map(|n| self.helpers.get(*n)).collect();
        known.sort_by_key(|h| h.rank);
        for h in known {
            place(self, &h.name, &needed, &mut placed, &mut ordered);
        }
        ordered
    }
}
