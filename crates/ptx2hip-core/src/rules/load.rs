//! Loading the rule table: parsing `rules/*.toml` and the helper files, then validating every
//! rule so that a mistake in the data stops the tool at start with the file, the rule and the key
//! (an unknown `{placeholder}`, helper, slot or class), never a broken translation later.

use std::collections::{BTreeMap, HashMap};

use super::call_sites;
use super::evidence;
use super::helpers;
use super::matching::{expand_class, target_index};
use super::overlap;
use super::schema::{
    parse_operand_spec, tensor_rank, vector_width, OperandKind, Role, Rule, RuleFile, RuleTemplate,
    SpecialRegister, TemplateHelpers, TypeRef,
};
use super::shared;
use super::template::{self, Template};
use super::RuleSet;
use crate::vocabulary::code::Expr;
use crate::vocabulary::Target;

/// Why the rule table does not load. Each names where the mistake is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The file is not valid TOML for the schema (unknown key, wrong type, missing key).
    #[error("rules/{file}: {message}")]
    Syntax { file: String, message: String },
    /// One key of one rule is wrong.
    #[error("rules/{file}: rule {rule}: `{key}`: {message}")]
    Rule {
        file: String,
        rule: String,
        key: &'static str,
        message: String,
    },
    /// A special register entry is wrong.
    #[error("rules/{file}: special register {name}: {message}")]
    Special {
        file: String,
        name: String,
        message: String,
    },
    /// A helper file is malformed, or helpers clash or require unknown helpers (the message
    /// starts with the file and line).
    #[error("{0}")]
    Helper(String),
}

/// Which of the load's checks run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Checks {
    /// Only the errors met while building the table (TOML syntax, operand specs, templates,
    /// helper names): what a table known to be right still needs.
    Building,
    /// Also the checks that only prove a built table consistent: codes, keys and templates of
    /// each rule, special registers' calls, helper requirements, and rules claiming a form at the
    /// same priority.
    Proofs,
}

/// The embedded rule files as `(name relative to rules/, text)`.
pub(super) fn embedded_sources() -> impl Iterator<Item = (String, String)> {
    super::EMBEDDED
        .iter()
        .map(|(n, s)| (n.to_string(), s.to_string()))
}

/// Why a call site may not call an ordinary name unqualified (see [`call_sites`]).
const CAPTURE: &str =
    "a function of that name in the user's namespace or class would be called instead; \
write `::name`, a `ptx2hip_*` helper or a reserved `__` builtin";

/// The placeholder naming the tensor-core model lowering is set to (`--tensor-model`): `sm90`
/// or `sm80` (see `lower::TensorModel`).
pub const TENSOR_MODEL: &str = "tensor_model";

/// The attributes a type slot's placeholder may carry (`{T.u}`), as the lowering expands them.
const TYPE_ATTRIBUTES: &[&str] = &["u", "s", "arith", "bits", "name"];

impl RuleSet {
    /// Loads the rule files embedded in the binary. The table is fixed at compile time, so the
    /// consistency checks that only prove it right ([`Checks::Proofs`]: codes, keys, helpers,
    /// overlaps; half of a start's work) are left to the test
    /// `the_embedded_table_passes_every_check`, which runs them on this same table.
    pub fn embedded() -> Result<RuleSet, LoadError> {
        RuleSet::load(embedded_sources(), Checks::Building)
    }

    /// Loads and validates rule files given as `(name relative to rules/, text)`: `*.toml` rule
    /// files and `*.h` helper files.
    pub fn from_sources(
        files: impl IntoIterator<Item = (String, String)>,
    ) -> Result<RuleSet, LoadError> {
        RuleSet::load(files, Checks::Proofs)
    }

    fn load(
        files: impl IntoIterator<Item = (String, String)>,
        checks: Checks,
    ) -> Result<RuleSet, LoadError> {
        let mut set = RuleSet {
            rules: Vec::new(),
            unsupported: Vec::new(),
            helpers: HashMap::new(),
            helper_order: Vec::new(),
            specials: HashMap::new(),
            switches: HashMap::new(),
            by_opcode: HashMap::new(),
        };
        let mut shared = shared::Shared::default();
        for (name, text) in files {
            if name.ends_with(".h") {
                for mut h in helpers::parse(&name, &text).map_err(LoadError::Helper)? {
                    if let Some(first) = set.helpers.get(&h.name) {
                        return Err(LoadError::Helper(format!(
                            "rules/{}:{}: helper `{}` already defined at rules/{}:{}",
                            h.file, h.line, h.name, first.file, first.line
                        )));
                    }
                    h.rank = set.helper_order.len();
                    set.helper_order.push(h.name.clone());
                    set.helpers.insert(h.name.clone(), h);
                }
                continue;
            }
            let mut file: RuleFile = toml::from_str(&text).map_err(|e| LoadError::Syntax {
                file: name.clone(),
                message: e.to_string(),
            })?;
            expand_ranges(&name, &mut file)?;
            shared.add(
                &name,
                std::mem::take(&mut file.lookup),
                std::mem::take(&mut file.slot),
            )?;
            set.switches.extend(std::mem::take(&mut file.switch));
            for mut rule in file.rules {
                rule.family = file.family.clone();
                rule.file = name.clone();
                rule.fragments = file
                    .fragments
                    .iter()
                    .filter(|f| f.opcode == rule.opcode)
                    .cloned()
                    .collect();
                set.rules.push(rule);
            }
            set.unsupported.extend(file.unsupported);
            for s in file.specials {
                if s.portable.is_empty() == s.unsupported.is_none() {
                    return Err(LoadError::Special {
                        file: name.clone(),
                        name: s.name,
                        message: "needs exactly one of `portable` and `unsupported`".into(),
                    });
                }
                set.specials.insert(s.name.clone(), s);
            }
        }
        for rule in &mut set.rules {
            shared.resolve(rule)?;
        }
        if checks == Checks::Proofs {
            shared.all_named()?;
        }
        for i in 0..set.rules.len() {
            let specs = operand_specs(&set.rules[i])?;
            let mut lookups = lookup_helpers(&set, &set.rules[i])?;
            let templates = templates(&set, &set.rules[i], &lookups)?;
            let rule = &mut set.rules[i];
            rule.specs = specs;
            rule.templates = templates;
            for (name, l) in &mut rule.lookup {
                l.helpers = lookups.remove(name).unwrap_or_default();
            }
        }
        let names: Vec<String> = set.specials.keys().cloned().collect();
        for name in names {
            let helpers = special_helpers(&set, &set.specials[&name])?;
            if let Some(s) = set.specials.get_mut(&name) {
                s.helpers = helpers;
            }
        }
        if checks == Checks::Proofs {
            set.validate()?;
        }
        for (i, r) in set.rules.iter().enumerate() {
            set.by_opcode.entry(r.opcode.clone()).or_default().push(i);
        }
        for rules in set.by_opcode.values_mut() {
            rules.sort_by_key(|&i| std::cmp::Reverse(set.rules[i].priority));
        }
        if checks == Checks::Proofs {
            overlap::validate(&set)?;
        }
        Ok(set)
    }

    fn validate(&self) -> Result<(), LoadError> {
        self.validate_codes()?;
        super::switches::validate(self)?;
        for r in &self.rules {
            validate_rule(self, r)?;
        }
        for s in self.specials.values() {
            for code in [Some(&s.portable), s.amd.as_ref()].into_iter().flatten() {
                if let Some(name) = call_sites::capturable_calls(code).first() {
                    return Err(LoadError::Special {
                        file: "*.toml".into(),
                        name: s.name.clone(),
                        message: format!("calls `{name}` unqualified: {CAPTURE}"),
                    });
                }
            }
        }
        for h in self.helpers.values() {
            for req in &h.requires {
                if !self.helpers.contains_key(req) {
                    return Err(LoadError::Helper(format!(
                        "rules/{}:{}: helper `{}` requires unknown helper `{req}`",
                        h.file, h.line, h.name
                    )));
                }
            }
        }
        Ok(())
    }

    /// Codes are unique, old codes (`formerly`) name no current rule, and codes map to families
    /// one-to-one: a family's rules share a prefix (one to three letters) that no other family
    /// uses, so the prefix of a code shown in a report says which family (and vectors file) it
    /// belongs to.
    fn validate_codes(&self) -> Result<(), LoadError> {
        let mut codes: HashMap<&str, &str> = HashMap::new();
        let mut prefixes: HashMap<&str, &str> = HashMap::new();
        for r in &self.rules {
            let Some(prefix) = code_prefix(&r.code) else {
                return Err(rule_error(
                    r,
                    "code",
                    "is not one to three letters and three digits".into(),
                ));
            };
            if let Some(other) = codes.insert(&r.code, &r.name) {
                return Err(rule_error(r, "code", format!("also used by `{other}`")));
            }
            let family = *prefixes.entry(prefix).or_insert(&r.family);
            if family != r.family {
                return Err(rule_error(
                    r,
                    "code",
                    format!("the prefix {prefix} belongs to the family `{family}`"),
                ));
            }
        }
        for r in &self.rules {
            let Some(old) = &r.formerly else { continue };
            if code_prefix(old).is_none() {
                return Err(rule_error(r, "formerly", format!("`{old}` is not a code")));
            }
            if let Some(other) = codes.insert(old, &r.name) {
                return Err(rule_error(
                    r,
                    "formerly",
                    format!("{old} is still used by `{other}`"),
                ));
            }
        }
        Ok(())
    }
}

/// The family prefix of a rule code, one to three upper-case letters followed by three digits
/// (`I` of `I001`, `FP` of `FP001`); `None` for anything else.
fn code_prefix(code: &str) -> Option<&str> {
    let digits = code.len().checked_sub(3)?;
    let (prefix, number) = code.split_at_checked(digits)?;
    let letters = (1..=3).contains(&prefix.len()) && prefix.bytes().all(|b| b.is_ascii_uppercase());
    (letters && number.bytes().all(|b| b.is_ascii_digit())).then_some(prefix)
}

pub(super) fn rule_error(r: &Rule, key: &'static str, message: String) -> LoadError {
    LoadError::Rule {
        file: r.file.clone(),
        rule: r.code.clone(),
        key,
        message,
    }
}

/// The helpers each value of each of a rule's lookups names ([`super::Lookup::helpers`]); a
/// `ptx2hip_*` name in a value that no helper file defines is an error (values hold no locals).
fn lookup_helpers(set: &RuleSet, r: &Rule) -> Result<LookupHelpers, LoadError> {
    let mut out = LookupHelpers::new();
    for (name, l) in &r.lookup {
        let by_key = out.entry(name.clone()).or_default();
        for (key, value) in &l.values {
            let mut names = Vec::new();
            for n in template::helper_names(value) {
                if !set.helpers.contains_key(&n.spelled) {
                    return Err(rule_error(
                        r,
                        "lookup",
                        format!(
                            "`{name}` value `{value}` names unknown helper `{}`",
                            n.spelled
                        ),
                    ));
                }
                names.push(n.spelled);
            }
            if !names.is_empty() {
                by_key.insert(key.clone(), names);
            }
        }
    }
    Ok(out)
}

/// Per lookup, per selecting modifier, the helpers the value names.
type LookupHelpers = BTreeMap<String, BTreeMap<String, Vec<String>>>;

/// A rule's templates parsed, for each target: its own, then each `[[rule.when]]`'s
/// ([`Rule::template`]), with where the helpers each calls come from: the known helpers among its
/// literal names, every name completed by a placeholder, and the lookups it expands whose values
/// name helpers. A literal call of a `ptx2hip_*` name that no helper file defines is an error;
/// other literal names are the template's own locals (`uint32_t ptx2hip_v`).
fn templates(
    set: &RuleSet,
    r: &Rule,
    lookups: &LookupHelpers,
) -> Result<Vec<[RuleTemplate; 2]>, LoadError> {
    let (portable, amd) = (
        r.template_texts(Target::Portable),
        r.template_texts(Target::Amd),
    );
    let mut out = Vec::new();
    for (variant, texts) in portable.into_iter().zip(amd).enumerate() {
        let mut both: [RuleTemplate; 2] = Default::default();
        for (target, text) in [(Target::Portable, texts.0), (Target::Amd, texts.1)] {
            let key = match (variant, target, &r.amd) {
                (v, _, _) if v > r.when.len() => "fast",
                (1.., _, _) => "when",
                (0, Target::Amd, Some(_)) => "amd",
                _ => "portable",
            };
            let code = Template::parse(text);
            let mut found = TemplateHelpers::default();
            for n in template::helper_names(text) {
                if !n.is_literal() || set.helpers.contains_key(&n.spelled) {
                    found.names.push(n.spelled);
                } else if n.called {
                    return Err(rule_error(
                        r,
                        key,
                        format!("the {key} template calls unknown helper `{}`", n.spelled),
                    ));
                }
            }
            for (name, attr) in code.placeholders() {
                let names_helpers = lookups.get(name).is_some_and(|l| !l.is_empty());
                if attr.is_none() && names_helpers && !found.lookups.iter().any(|l| l == name) {
                    found.lookups.push(name.to_string());
                }
            }
            both[target_index(target)] = RuleTemplate {
                code,
                helpers: found,
            };
        }
        out.push(both);
    }
    Ok(out)
}

/// The helpers a special register's expressions call ([`SpecialRegister::helpers`]); calling
/// one that no helper file defines is an error.
fn special_helpers(set: &RuleSet, s: &SpecialRegister) -> Result<[Vec<String>; 2], LoadError> {
    let mut out: [Vec<String>; 2] = Default::default();
    for target in [Target::Portable, Target::Amd] {
        for n in template::helper_names(s.expression(target)) {
            if set.helpers.contains_key(&n.spelled) {
                out[target_index(target)].push(n.spelled);
            } else if n.called {
                return Err(LoadError::Special {
                    file: "*.toml".into(),
                    name: s.name.clone(),
                    message: format!("calls unknown helper `{}`", n.spelled),
                });
            }
        }
    }
    Ok(out)
}

/// Parses a rule's operand specs and gives each its role: the operands named in `writes`, or
/// when the rule has no `writes` key, those whose name starts with `d` and `p`/`q`, are
/// destinations; a pair `p|q` always is.
fn operand_specs(r: &Rule) -> Result<Vec<super::OperandSpec>, LoadError> {
    let mut specs = Vec::new();
    for text in &r.operands {
        let mut spec = parse_operand_spec(text).map_err(|e| rule_error(r, "operands", e))?;
        let written = match &r.writes {
            Some(names) => names.contains(&spec.name),
            None => spec.name.starts_with('d') || spec.name == "p" || spec.name == "q",
        };
        spec.role = if written || matches!(spec.kind, OperandKind::Pair(..)) {
            Role::Destination
        } else {
            Role::Source
        };
        specs.push(spec);
    }
    if let Some(names) = &r.writes {
        if let Some(n) = names.iter().find(|n| !specs.iter().any(|s| &&s.name == n)) {
            return Err(rule_error(r, "writes", format!("names no operand `{n}`")));
        }
    }
    // A statement leaves out a suffix of the operands: defaults are trailing, and only sources
    // have one (a destination left out would be a value nobody receives).
    let first_default = specs.iter().position(|s| s.default.is_some());
    if let Some(k) = first_default {
        if let Some(s) = specs[k..].iter().find(|s| s.default.is_none()) {
            return Err(rule_error(
                r,
                "operands",
                format!("`{}` has no default but follows an operand that has one: only trailing operands may be left out", s.name),
            ));
        }
        if let Some(s) = specs[k..].iter().find(|s| s.role == Role::Destination) {
            return Err(rule_error(
                r,
                "operands",
                format!(
                    "`{}` is written by the instruction: only a source may have a default",
                    s.name
                ),
            ));
        }
        for (j, s) in specs.iter().enumerate().skip(k) {
            let Some(super::OperandDefault::SameAs(name)) = &s.default else {
                continue;
            };
            let earlier = specs[..j].iter().find(|e| &e.name == name);
            if !earlier.is_some_and(|e| e.role == Role::Source && e.kind == s.kind) {
                return Err(rule_error(
                    r,
                    "operands",
                    format!("the default of `{}` names `{name}`, which is no earlier source operand of its type", s.name),
                ));
            }
        }
    }
    for name in r.immediates.keys() {
        let integer_source = specs.iter().any(|s| {
            &s.name == name
                && s.role == Role::Source
                && matches!(&s.kind, OperandKind::Scalar(TypeRef::Fixed(t)) if t.c_type().is_integer())
        });
        if !integer_source {
            return Err(rule_error(
                r,
                "immediates",
                format!("`{name}` is not an integer source operand of a fixed type"),
            ));
        }
    }
    Ok(specs)
}

/// A `[rule.decomposition]` claim is the rule's whole evidence: it names at least one rule, each
/// of which exists and is verified on NVIDIA hardware, and the rule itself has no recording and
/// no `unverifiable` reason (its evidence would then be two things at once).
fn validate_decomposition(set: &RuleSet, r: &Rule) -> Result<(), LoadError> {
    let Some(d) = &r.decomposition else {
        return Ok(());
    };
    let fail = |message: String| Err(rule_error(r, "decomposition", message));
    if evidence::recorded(&r.code).is_some() || evidence::recorded_per_warp(&r.code).is_some() {
        return fail(
            "the rule has hardware recordings: its evidence is those, not a decomposition".into(),
        );
    }
    if r.unverifiable.is_some() {
        return fail("a rule with `unverifiable` has no value to decompose".into());
    }
    if d.rules.is_empty() || d.claim.trim().is_empty() {
        return fail(
            "names the rules it relies on (`rules`) and states the decomposition (`claim`)".into(),
        );
    }
    for code in &d.rules {
        match set.rule(code) {
            None => return fail(format!("`{code}` is no rule")),
            Some(piece) if evidence::level(piece) != evidence::Level::Hardware => {
                return fail(format!(
                    "`{code}` is not verified on NVIDIA hardware (its evidence: {})",
                    evidence::level(piece)
                ))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

fn validate_rule(set: &RuleSet, r: &Rule) -> Result<(), LoadError> {
    if r.portable_unsupported.is_some() != r.portable.is_empty() {
        return Err(rule_error(
            r,
            "portable",
            "give either `portable` or `portable_unsupported`".into(),
        ));
    }
    if r.portable_unsupported.is_some() && r.amd.is_none() {
        return Err(rule_error(
            r,
            "amd",
            "a rule without portable code needs an `amd` template".into(),
        ));
    }
    for slot in &r.slots {
        if slot.hint && !slot.optional {
            return Err(rule_error(
                r,
                "slots",
                format!("hint slot `{}` must be optional", slot.name),
            ));
        }
        for v in &slot.values {
            if v.starts_with('@') && expand_class(v).is_none() {
                return Err(rule_error(
                    r,
                    "slots",
                    format!("unknown modifier class `{v}`"),
                ));
            }
        }
    }
    let has_slot = |s: &str| r.slots.iter().any(|sl| sl.name == s);
    for spec in r.operand_specs() {
        let types = spec.kind.types();
        match &spec.kind {
            OperandKind::Address(Some(s)) if !has_slot(s) => {
                return Err(rule_error(
                    r,
                    "operands",
                    format!("address space slot `{s}` does not exist"),
                ));
            }
            OperandKind::Tensor(s) => {
                let Some(slot) = r.slots.iter().find(|sl| &sl.name == s) else {
                    return Err(rule_error(
                        r,
                        "operands",
                        format!("tensor dimension slot `{s}` does not exist"),
                    ));
                };
                if slot.optional
                    || Rule::slot_values(slot)
                        .iter()
                        .any(|v| tensor_rank(Some(v)).is_none())
                {
                    return Err(rule_error(
                        r,
                        "operands",
                        format!("tensor dimension slot `{s}` is optional or has a value that is not `1d` ... `5d`"),
                    ));
                }
            }
            OperandKind::SlotVector(s, _) => {
                let Some(slot) = r.slots.iter().find(|sl| &sl.name == s) else {
                    return Err(rule_error(
                        r,
                        "operands",
                        format!("vector width slot `{s}` does not exist"),
                    ));
                };
                if Rule::slot_values(slot)
                    .iter()
                    .any(|v| vector_width(Some(v)).is_none())
                {
                    return Err(rule_error(
                        r,
                        "operands",
                        format!("vector width slot `{s}` has a value that is not `v<N>`"),
                    ));
                }
            }
            _ => {}
        }
        for s in types.into_iter().filter_map(|t| match t {
            TypeRef::Slot(s) => Some(s),
            TypeRef::Fixed(_) => None,
        }) {
            if !has_slot(s) {
                return Err(rule_error(
                    r,
                    "operands",
                    format!("operand type `{s}` is neither a PTX type nor a slot"),
                ));
            }
        }
    }
    for (name, l) in &r.lookup {
        let Some(slot) = r.slots.iter().find(|s| s.name == l.slot) else {
            return Err(rule_error(
                r,
                "lookup",
                format!("`{name}` uses unknown slot `{}`", l.slot),
            ));
        };
        for v in Rule::slot_values(slot) {
            if !l.values.contains_key(&v) {
                return Err(rule_error(
                    r,
                    "lookup",
                    format!("`{name}` has no value for `{v}`"),
                ));
            }
        }
    }
    validate_exclude(r)?;
    validate_operand_types(r)?;
    for n in &r.value_neutral {
        if !has_slot(n) {
            return Err(rule_error(
                r,
                "value_neutral",
                format!("names unknown slot `{n}`"),
            ));
        }
    }
    for case in &r.test {
        if case
            .target
            .as_deref()
            .is_some_and(|t| t != "portable" && t != "amd")
        {
            return Err(rule_error(
                r,
                "test",
                format!("`{}`: target is `portable` or `amd`", case.ptx),
            ));
        }
        let emits = !case.emits.is_empty() || case.helpers.is_some() || case.translation.is_some();
        if case.refused.is_some() && emits {
            return Err(rule_error(
                r,
                "test",
                format!("`{}`: a refused case emits nothing", case.ptx),
            ));
        }
    }
    for h in &r.helpers {
        if !set.helpers.contains_key(h) {
            return Err(rule_error(r, "helpers", format!("unknown helper `{h}`")));
        }
    }
    validate_when(r)?;
    validate_fragments(r)?;
    validate_decomposition(set, r)?;
    if r.fast
        .as_ref()
        .is_some_and(|f| f.deviation.trim().is_empty())
    {
        return Err(rule_error(
            r,
            "fast",
            "a fast translation states its `deviation`".into(),
        ));
    }
    let when = r
        .when
        .iter()
        .flat_map(|w| [Some(&w.portable), w.amd.as_ref()])
        .map(|t| ("when", t));
    let fast = r.fast.as_ref().map(|f| ("fast", Some(&f.amd)));
    for (key, template) in [("portable", Some(&r.portable)), ("amd", r.amd.as_ref())]
        .into_iter()
        .chain(when)
        .chain(fast)
    {
        let Some(template) = template else { continue };
        let known = |name: &str, attr: Option<&str>| {
            placeholder_known(r, name, attr).then(|| Expr::other(""))
        };
        if let Err(e) = Template::parse(template).expand(known) {
            return Err(rule_error(r, key, e));
        }
        let lookups = r.lookup.iter().map(|(name, l)| {
            (
                name.as_str(),
                l.values.values().map(String::as_str).collect(),
            )
        });
        if let Some(name) = call_sites::template_calls(template, lookups).first() {
            return Err(rule_error(
                r,
                key,
                format!("the {key} template calls `{name}` unqualified: {CAPTURE}"),
            ));
        }
    }
    Ok(())
}

/// Each `exclude` condition names a slot of the rule and a value it takes (empty: an optional
/// slot absent); one that names neither would exclude nothing, silently, and an entry with no
/// condition for some slot would exclude every form.
fn validate_exclude(r: &Rule) -> Result<(), LoadError> {
    for entry in &r.exclude {
        let empty = match entry {
            super::Exclude::All(conds) => conds.is_empty(),
            super::Exclude::Product(slots) => slots.is_empty() || slots.values().any(Vec::is_empty),
        };
        if empty {
            return Err(rule_error(
                r,
                "exclude",
                "an entry without a slot, or a slot without values, would exclude every form"
                    .into(),
            ));
        }
    }
    for (name, value) in r.exclude.iter().flat_map(|e| e.conditions()) {
        let cond = format!("{name}={value}");
        let Some(slot) = r.slots.iter().find(|s| s.name == name) else {
            return Err(rule_error(
                r,
                "exclude",
                format!("`{cond}` names unknown slot `{name}`"),
            ));
        };
        let takes = if value.is_empty() {
            slot.optional
        } else {
            Rule::slot_values(slot).iter().any(|v| v == value)
        };
        if !takes {
            return Err(rule_error(
                r,
                "exclude",
                format!("`{cond}`: slot `{name}` never takes the value `{value}`"),
            ));
        }
    }
    Ok(())
}

/// An operand typed by a slot has a PTX type in every form the rule claims: the slot is always
/// filled and each of its values is a type (`T = ["u32", "rn"]` would claim `.rn` forms whose
/// operand has no width).
fn validate_operand_types(r: &Rule) -> Result<(), LoadError> {
    for spec in r.operand_specs() {
        let types = spec.kind.types();
        for name in types.into_iter().filter_map(|t| match t {
            TypeRef::Slot(s) => Some(s),
            TypeRef::Fixed(_) => None,
        }) {
            let Some(slot) = r.slots.iter().find(|s| &s.name == name) else {
                continue;
            };
            let message = if slot.optional {
                format!(
                    "operand `{}` is typed by the optional slot `{name}`: forms without it give it no width",
                    spec.name
                )
            } else if let Some(v) = Rule::slot_values(slot)
                .into_iter()
                .find(|v| crate::vocabulary::types::PtxType::parse(v).is_none())
            {
                format!(
                    "operand `{}` is typed by slot `{name}`, whose value `{v}` is not a PTX type",
                    spec.name
                )
            } else {
                continue;
            };
            return Err(rule_error(r, "operands", message));
        }
    }
    Ok(())
}

/// The ranges of slot values and fragment shapes (`m64n{8..256 step 8}k16`) replaced by the
/// values they list ([`super::shapes::expand_range`]), so that matching sees plain values.
fn expand_ranges(file_name: &str, file: &mut RuleFile) -> Result<(), LoadError> {
    fn expanded(values: &[String]) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for v in values {
            out.extend(super::shapes::expand_range(v)?);
        }
        Ok(out)
    }
    for (name, slot) in &mut file.slot {
        slot.values = expanded(&slot.values).map_err(|e| LoadError::Syntax {
            file: file_name.to_string(),
            message: format!("[slot] `{name}`: {e}"),
        })?;
    }
    for rule in &mut file.rules {
        for slot in &mut rule.slots {
            slot.values = expanded(&slot.values).map_err(|e| LoadError::Rule {
                file: file_name.to_string(),
                rule: rule.code.clone(),
                key: "slots",
                message: e,
            })?;
        }
    }
    for f in &mut file.fragments {
        f.shape = expanded(&f.shape).map_err(|e| LoadError::Syntax {
            file: file_name.to_string(),
            message: format!(
                "[[fragment]] of `{}` operand `{}`: {e}",
                f.opcode, f.operand
            ),
        })?;
    }
    Ok(())
}

/// A fragment operand's slots are required slots of the rule, and every form the rule claims
/// finds exactly one `[[fragment]]` entry for it, whose carrier is a PTX type and whose count
/// (a formula of the shape, `N/2`) gives a whole number of registers for the form's shape: the
/// operand's width is then known for every form, never guessed.
fn validate_fragments(r: &Rule) -> Result<(), LoadError> {
    for spec in r.operand_specs() {
        let OperandKind::Fragment { shape, ty } = &spec.kind else {
            continue;
        };
        for slot in [shape, ty] {
            if !r.slots.iter().any(|s| &s.name == slot && !s.optional) {
                return Err(rule_error(
                    r,
                    "operands",
                    format!(
                        "fragment `{}` is sized by `{slot}`, which is not a required slot",
                        spec.name
                    ),
                ));
            }
        }
        if let Some(f) = r
            .fragments
            .iter()
            .find(|f| crate::vocabulary::types::PtxType::parse(&f.carrier).is_none())
        {
            return Err(rule_error(
                r,
                "operands",
                format!("fragment carrier `{}` is not a PTX type", f.carrier),
            ));
        }
        for (form, b) in r.forms() {
            let (s, t) = (b[shape].as_deref(), b[ty].as_deref());
            let found: Vec<_> = r
                .fragments
                .iter()
                .filter(|f| {
                    f.operand == spec.name
                        && s.is_some_and(|s| f.shape.iter().any(|v| v == s))
                        && t.is_some_and(|t| f.types.iter().any(|v| v == t))
                })
                .collect();
            if found.len() != 1 {
                let what = if found.is_empty() {
                    "no"
                } else {
                    "more than one"
                };
                return Err(rule_error(
                    r,
                    "operands",
                    format!(
                        "`{form}` claims fragment `{}`, which has {what} `[[fragment]]` entry",
                        spec.name
                    ),
                ));
            }
            if let Err(why) = found[0].count.registers(s.unwrap_or_default()) {
                return Err(rule_error(
                    r,
                    "operands",
                    format!("`{form}` claims fragment `{}`: {why}", spec.name),
                ));
            }
        }
    }
    Ok(())
}

/// A `[[rule.when]]` names slots of the rule and values they take (`""`: an optional slot
/// absent), and claims some form of the rule; the rule has portable code.
fn validate_when(r: &Rule) -> Result<(), LoadError> {
    for w in &r.when {
        let error = |message: String| Err(rule_error(r, "when", message));
        if r.portable_unsupported.is_some() {
            return error("a rule without portable code has no `when` templates".into());
        }
        if w.slots.is_empty() {
            return error("names no slot".into());
        }
        for (name, values) in &w.slots {
            let Some(slot) = r.slots.iter().find(|s| &s.name == name) else {
                return error(format!("names unknown slot `{name}`"));
            };
            let accepted = Rule::slot_values(slot);
            if let Some(v) = values.iter().find(|v| {
                if v.is_empty() {
                    !slot.optional
                } else {
                    !accepted.contains(v)
                }
            }) {
                return error(format!("slot `{name}` never takes the value `{v}`"));
            }
        }
        if !r.forms().iter().any(|(_, b)| w.matches(b)) {
            return error("claims no form of the rule".into());
        }
    }
    Ok(())
}

/// Whether the lowering can expand `{name}` / `{name.attr}` in one of this rule's templates:
/// an operand (a vector's components `{d.0}`, a slot vector's `{d.type}`), the carry flag
/// `{CF}`, a lookup, or a slot (`{T}`, `{T.u}` ...).
fn placeholder_known(r: &Rule, name: &str, attr: Option<&str>) -> bool {
    let operand = r.operand_specs().iter().any(|s| {
        let names_it = s.name == name || matches!(&s.kind, OperandKind::Pair(q, ..) if q == name);
        names_it
            && match (&s.kind, attr) {
                (_, None) => !matches!(s.kind, OperandKind::Vector(..)),
                (OperandKind::Vector(n, _), Some(a)) => a.parse::<u32>().is_ok_and(|k| k < *n),
                (OperandKind::SlotVector(..) | OperandKind::Fragment { .. }, Some(a)) => {
                    a == "type"
                }
                (OperandKind::Tensor(_), Some(a)) => a == "coords",
                _ => false,
            }
    });
    operand
        || (name == TENSOR_MODEL && attr.is_none())
        || (name == "CF" && attr.is_none() && r.carry.is_some())
        || (attr.is_none() && r.lookup.contains_key(name))
        || (r.slots.iter().any(|s| s.name == name)
            && attr.is_none_or(|a| TYPE_ATTRIBUTES.contains(&a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`RuleSet::embedded`] skips the checks that prove a table consistent: they run here, on
    /// the same files, and accept the rules `embedded` builds.
    #[test]
    fn the_embedded_table_passes_every_check() {
        let checked = RuleSet::from_sources(embedded_sources()).unwrap();
        let trusted = RuleSet::embedded().unwrap();
        let codes = |set: &RuleSet| set.rules.iter().map(|r| r.code.clone()).collect::<Vec<_>>();
        assert_eq!(codes(&checked), codes(&trusted));
    }

    /// A one-rule table whose rule has the given extra keys and templates.
    fn load(portable: &str, extra: &str) -> Result<RuleSet, LoadError> {
        load_with(portable, extra, None)
    }

    /// [`load`] with a helper file.
    fn load_with(portable: &str, extra: &str, helpers: Option<&str>) -> Result<RuleSet, LoadError> {
        let helpers = helpers.map(|h| ("helpers/t.h".to_string(), h.to_string()));
        RuleSet::from_sources(
            helpers
                .into_iter()
                .chain([("t.toml".to_string(), file("t", "X001", portable, extra))]),
        )
    }

    /// A rule file of `family` with one rule `code`.
    fn file(family: &str, code: &str, portable: &str, extra: &str) -> String {
        format!(
            r#"family = "{family}"
[[rule]]
code = "{code}"
name = "x"
summary = "x"
doc = "x"
opcode = "abs"
slots = [{{ name = "T", values = ["s32"] }}]
operands = ["d:T", "a:T"]
portable = "{portable}"
{extra}
example = {{ ptx = "abs.s32 %0, %1;", constraints = "=r,r" }}
"#
        )
    }

    /// A matrix family of one rule `X001` over two shapes, with the `[[fragment]]` entries given.
    fn matrix_table(fragments: &str, extra: &str) -> Result<RuleSet, LoadError> {
        let text = format!(
            r#"family = "m"
[[rule]]
code = "X001"
name = "x"
summary = "x"
doc = "x"
opcode = "mma"
warp = true
slots = [{{ name = "shape", values = ["m16n8k8", "m16n8k16"] }}, {{ name = "A", values = ["f16"] }}]
operands = ["d:frag:shape:A", "a:frag:shape:A"]
portable_unsupported = "warp-collective"
amd = "{{d}} = {{a}};"
{extra}
example = {{ ptx = "mma.m16n8k8.f16 {{%0, %1}}, {{%2, %3}};", constraints = "=r,=r,r,r" }}
{fragments}
"#
        );
        RuleSet::from_sources([("m.toml".to_string(), text)])
    }

    fn constraints(list: &str) -> Vec<String> {
        list.split(',').map(str::to_string).collect()
    }

    const FRAGMENTS: &str = r#"
[[fragment]]
opcode = "mma"
operand = "d"
shape = ["m16n8k8", "m16n8k16"]
type = ["f16"]
count = 2
carrier = "b32"
[[fragment]]
opcode = "mma"
operand = "a"
shape = ["m16n8k8"]
type = ["f16"]
count = 2
carrier = "b32"
"#;

    const A_K16: &str = r#"
[[fragment]]
opcode = "mma"
operand = "a"
shape = ["m16n8k16"]
type = ["f16"]
count = 4
carrier = "b32"
"#;

    #[test]
    fn every_form_gives_each_fragment_operand_exactly_one_width() {
        assert_eq!(
            matrix_table(FRAGMENTS, "").unwrap_err().to_string(),
            "rules/m.toml: rule X001: `operands`: `mma.m16n8k16.f16` claims fragment `a`, which has no `[[fragment]]` entry"
        );
        let twice = format!("{FRAGMENTS}{A_K16}{A_K16}");
        assert!(matrix_table(&twice, "")
            .unwrap_err()
            .to_string()
            .contains("has more than one `[[fragment]]` entry"));
        let rules = matrix_table(&format!("{FRAGMENTS}{A_K16}"), "").unwrap();
        let rule = rules.rule("X001").unwrap();
        let (_, k16) = &rule.forms()[1];
        assert_eq!(
            rule.fragment("a", "shape", "A", k16),
            Some((4, crate::vocabulary::types::PtxType::B(32)))
        );
        let bad_carrier = format!("{FRAGMENTS}{}", A_K16.replace("b32", "word"));
        assert!(matrix_table(&bad_carrier, "")
            .unwrap_err()
            .to_string()
            .contains("fragment carrier `word` is not a PTX type"));
    }

    /// A warpgroup-like rule over a range of shapes whose `d` fragment has the given count.
    fn wide_table(count: &str) -> Result<RuleSet, LoadError> {
        let text = format!(
            r#"family = "w"
[[rule]]
code = "Y001"
name = "y"
summary = "y"
doc = "y"
opcode = "wide"
warp = true
slots = [{{ name = "shape", values = ["m64n{{8..24 step 8}}k16"] }}, {{ name = "D", values = ["f32"] }}]
operands = ["d:frag:shape:D"]
portable_unsupported = "warp-collective"
amd = "{{d}} = {{d.type}}{{}};"
example = {{ ptx = "wide.m64n8k16.f32 {{%0, %1, %2, %3}};", constraints = "=f,=f,=f,=f" }}
[[fragment]]
opcode = "wide"
operand = "d"
shape = ["m64n{{8..24 step 8}}k16"]
type = ["f32"]
count = {count}
carrier = "f32"
"#
        );
        RuleSet::from_sources([("w.toml".to_string(), text)])
    }

    #[test]
    fn a_range_of_shapes_and_a_count_formula_size_every_form() {
        let rules = wide_table(r#""N/2""#).unwrap();
        let rule = rules.rule("Y001").unwrap();
        let widths: Vec<(String, Option<u32>)> = rule
            .forms()
            .into_iter()
            .map(|(form, b)| (form, rule.fragment("d", "shape", "D", &b).map(|f| f.0)))
            .collect();
        assert_eq!(
            widths,
            [
                ("wide.m64n8k16.f32".to_string(), Some(4)),
                ("wide.m64n16k16.f32".to_string(), Some(8)),
                ("wide.m64n24k16.f32".to_string(), Some(12)),
            ]
        );
        // A count that is not a whole number for some form does not load.
        assert_eq!(
            wide_table(r#""N/16""#).unwrap_err().to_string(),
            "rules/w.toml: rule Y001: `operands`: `wide.m64n8k16.f32` claims fragment `d`: `N/16` gives no whole number of registers for `m64n8k16`"
        );
        assert!(wide_table(r#""N+1""#)
            .unwrap_err()
            .to_string()
            .contains("count `N+1` is not"));
        assert_eq!(
            wide_table("4").unwrap().rule("Y001").unwrap().forms().len(),
            3
        );
    }

    #[test]
    fn a_fragment_operand_is_one_aggregate_of_its_registers() {
        let rules = matrix_table(&format!("{FRAGMENTS}{A_K16}"), "").unwrap();
        let stmt = crate::scan::AsmStatement::synthetic(
            "mma.m16n8k16.f16 {%0, %1}, {%2, %3, %4, %5};",
            &constraints("=r,=r,r,r,r,r"),
        );
        let t = crate::lower::analyze(&stmt, &rules, Target::Amd)
            .outcome
            .unwrap();
        let code = crate::lower::render(&t.lines, "", "  ").join("\n");
        assert!(
            code.contains("ptx2hip_vec<uint32_t, 4>{{")
                && code.contains("ptx2hip_vec<uint32_t, 2>"),
            "{code}"
        );
        // The width is the table's: two registers of A are not an m16n8k16 fragment.
        let short = crate::scan::AsmStatement::synthetic(
            "mma.m16n8k16.f16 {%0, %1}, {%2, %3};",
            &constraints("=r,=r,r,r"),
        );
        let refused = crate::lower::analyze(&short, &rules, Target::Amd).outcome;
        assert!(refused
            .unwrap_err()
            .message
            .contains("a vector of 2 elements"));
    }

    #[test]
    fn the_fast_template_is_used_only_under_fast_and_states_its_deviation() {
        let fast = r#"fast = { amd = "{d} = {d.type}{};", deviation = "zero" }"#;
        let rules = matrix_table(&format!("{FRAGMENTS}{A_K16}"), fast).unwrap();
        let stmt = crate::scan::AsmStatement::synthetic(
            "mma.m16n8k8.f16 {%0, %1}, {%2, %3};",
            &constraints("=r,=r,r,r"),
        );
        let mut settings = crate::lower::Settings::from(Target::Amd);
        let exact = crate::lower::analyze(&stmt, &rules, settings)
            .outcome
            .unwrap();
        assert!(exact.fast.is_empty());
        settings.fast = true;
        let inexact = crate::lower::analyze(&stmt, &rules, settings)
            .outcome
            .unwrap();
        assert_eq!(inexact.fast, ["X001"]);
        assert!(crate::lower::render(&inexact.lines, "", "  ")
            .join("\n")
            .contains("ptx2hip_vec<uint32_t, 2>{}"));
        let silent = r#"fast = { amd = "{d} = {a};", deviation = " " }"#;
        assert!(matrix_table(&format!("{FRAGMENTS}{A_K16}"), silent)
            .unwrap_err()
            .to_string()
            .contains("states its `deviation`"));
    }

    #[test]
    fn an_exclude_names_a_slot_of_the_rule_and_a_value_it_takes() {
        let error = |extra: &str| load("{d} = {a};", extra).unwrap_err().to_string();
        assert_eq!(
            error(r#"exclude = [["S=s32"]]"#),
            "rules/t.toml: rule X001: `exclude`: `S=s32` names unknown slot `S`"
        );
        assert_eq!(
            error(r#"exclude = [["T=u32"]]"#),
            "rules/t.toml: rule X001: `exclude`: `T=u32`: slot `T` never takes the value `u32`"
        );
        assert!(error(r#"exclude = [["T="]]"#).contains("never takes the value ``"));
        assert!(error(r#"exclude = [{ T = [] }]"#).contains("would exclude every form"));
        assert!(error(r#"exclude = [[]]"#).contains("would exclude every form"));
        assert!(load("{d} = {a};", r#"exclude = [["T=s32"]]"#).is_ok());
    }

    #[test]
    fn an_exclude_table_excludes_every_combination_of_its_values() {
        let text = file("t", "X001", "{d} = {a};", "").replace(
            r#"slots = [{ name = "T", values = ["s32"] }]"#,
            r#"slots = [{ name = "sat", values = ["sat"], optional = true }, { name = "T", values = ["s16", "s32", "s64"] }]
exclude = [{ sat = ["sat"], T = ["s16", "s64"] }]"#,
        );
        let rules = RuleSet::from_sources([("t.toml".to_string(), text)]).unwrap();
        let forms: Vec<String> = rules.rules[0].forms().into_iter().map(|(f, _)| f).collect();
        assert_eq!(forms, ["abs.s16", "abs.s32", "abs.s64", "abs.sat.s32"]);
    }

    #[test]
    fn an_operand_typed_by_a_slot_has_a_width_in_every_form() {
        let with_slots = |slots: &str| {
            let text = file("t", "X001", "{d} = {a};", "")
                .replace(r#"slots = [{ name = "T", values = ["s32"] }]"#, slots);
            RuleSet::from_sources([("t.toml".to_string(), text)])
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            with_slots(r#"slots = [{ name = "T", values = ["s32", "rn"] }]"#),
            "rules/t.toml: rule X001: `operands`: operand `d` is typed by slot `T`, whose value `rn` is not a PTX type"
        );
        assert!(
            with_slots(r#"slots = [{ name = "T", values = ["s32"], optional = true }]"#)
                .contains("typed by the optional slot `T`")
        );
    }

    #[test]
    fn two_families_never_share_a_code_prefix() {
        let two = |second: &str| {
            RuleSet::from_sources([
                ("a.toml".to_string(), file("a", "X001", "{d} = {a};", "")),
                // Both claim `abs.s32`: the priority makes that a decision (see `overlap`).
                (
                    "b.toml".to_string(),
                    file("b", second, "{d} = {a};", "priority = 1"),
                ),
            ])
        };
        assert!(two("Y001").is_ok());
        assert_eq!(
            two("X002").unwrap_err().to_string(),
            "rules/b.toml: rule X002: `code`: the prefix X belongs to the family `a`"
        );
        // A prefix is one to three letters, the whole run of letters before the number.
        assert!(two("XY001").is_ok());
        assert_eq!(
            two("A0001").unwrap_err().to_string(),
            "rules/b.toml: rule A0001: `code`: is not one to three letters and three digits"
        );
        assert!(two("ABCD001").is_err() && two("x001").is_err());
        let embedded = RuleSet::embedded().unwrap();
        let mut letters: HashMap<char, &str> = HashMap::new();
        for r in &embedded.rules {
            let letter = r.code.chars().next().unwrap();
            assert_eq!(
                *letters.entry(letter).or_insert(&r.family),
                r.family,
                "{}",
                r.code
            );
        }
    }

    /// [`load`] of the rule with `operands` (a TOML array) in place of `["d:T", "a:T"]`.
    fn load_operands(operands: &str, portable: &str) -> Result<RuleSet, LoadError> {
        let text = file("t", "X001", portable, "").replace(
            r#"operands = ["d:T", "a:T"]"#,
            &format!("operands = {operands}"),
        );
        RuleSet::from_sources([("t.toml".to_string(), text)])
    }

    #[test]
    fn a_trailing_source_may_have_the_default_its_absence_means() {
        let rules = load_operands(r#"["d:T", "a:T", "b:u32 = 1"]"#, "{d} = {a} + {b};").unwrap();
        let rule = rules.rule("X001").unwrap();
        assert_eq!(rule.required_operands(), 2);
        assert!(rule.takes_operand_count(2) && rule.takes_operand_count(3));
        assert!(!rule.takes_operand_count(1));
        let literal = |spec: &str| {
            load_operands(&format!(r#"["d:T", "a:T", "{spec}"]"#), "{d} = {a} + {b};")
                .map(|r| {
                    let default = &r.rule("X001").unwrap().operand_specs()[2].default;
                    default.as_ref().map(ToString::to_string)
                })
                .map_err(|e| e.to_string())
        };
        // The literal has the operand's C++ type, as the PTX value would.
        assert_eq!(literal("b:u32 = 1").unwrap().as_deref(), Some("1u"));
        assert_eq!(literal("b:u64=16").unwrap().as_deref(), Some("16ull"));
        assert_eq!(literal("b:s32 = -1").unwrap().as_deref(), Some("-1"));
        assert_eq!(literal("b:s64 = -1").unwrap().as_deref(), Some("-1ll"));
        assert_eq!(literal("b:u32").unwrap(), None);
        // Or the value of an earlier source of the same type.
        let rules = load_operands(r#"["d:T", "a:u32", "b:u32 = a"]"#, "{d} = {a} + {b};").unwrap();
        let b = &rules.rule("X001").unwrap().operand_specs()[2];
        assert_eq!(
            b.default,
            Some(super::super::OperandDefault::SameAs("a".into()))
        );
    }

    #[test]
    fn a_default_is_a_decimal_integer_of_the_operands_fixed_type() {
        let err = |spec: &str| {
            load_operands(&format!(r#"["d:T", "a:T", "{spec}"]"#), "{d} = {a} + {b};")
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("b:u32 = -1"),
            "rules/t.toml: rule X001: `operands`: operand spec `b:u32 = -1`: the default `-1` is not a decimal integer of type .u32"
        );
        assert!(err("b:u8 = 256").contains("the default `256` is not"));
        assert!(err("b:u32 = 0x1").contains("the default `0x1` is not"));
        assert!(err("b:f32 = 1.0").contains("is not a decimal integer of type .f32"));
        assert!(err("b:u64 = 1.5").contains("the default `1.5` is not"));
        assert_eq!(
            err("b:u32 = c"),
            "rules/t.toml: rule X001: `operands`: the default of `b` names `c`, which is no earlier source operand of its type"
        );
        assert!(err("b:u64 = a").contains("names `a`, which is no earlier source"));
        assert!(err("b:addr = 0").contains("only an operand of a fixed scalar type"));
    }

    #[test]
    fn only_trailing_sources_may_be_left_out() {
        let err = load_operands(r#"["d:T", "b:u32 = 1", "a:T"]"#, "{d} = {a} + {b};").unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/t.toml: rule X001: `operands`: `a` has no default but follows an operand that has one: only trailing operands may be left out"
        );
        let err = load_operands(r#"["a:T", "d:u32 = 0"]"#, "{d} = {a};").unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/t.toml: rule X001: `operands`: `d` is written by the instruction: only a source may have a default"
        );
    }

    #[test]
    fn a_former_code_names_no_current_rule() {
        let err = load("{d} = {a};", r#"formerly = "X001""#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/t.toml: rule X001: `formerly`: X001 is still used by `x`"
        );
        let rules = load("{d} = {a};", r#"formerly = "F001""#).unwrap();
        assert_eq!(rules.renamed_from("f001").unwrap().code, "X001");
        assert!(load("{d} = {a};", r#"formerly = "F01""#).is_err());
    }

    #[test]
    fn the_helpers_a_template_calls_are_found_when_the_table_loads() {
        let helpers = "// ptx2hip:helper ptx2hip_f\nint ptx2hip_f(int x);\n// ptx2hip:end\n\
                       // ptx2hip:helper ptx2hip_abs_s32\nint ptx2hip_abs_s32(int x);\n// ptx2hip:end\n";
        let load = |portable: &str, extra: &str| load_with(portable, extra, Some(helpers));
        let rules = load(
            "uint32_t ptx2hip_v = ptx2hip_abs_{T}({a}); {d} = {fn}(ptx2hip_v);",
            r#"lookup = { fn = { slot = "T", values = { s32 = "ptx2hip_f" } } }"#,
        )
        .unwrap();
        let r = &rules.rules[0];
        let own = |target| &r.templates(target).next().unwrap().helpers;
        let found = own(Target::Portable);
        assert_eq!(found.names, ["ptx2hip_abs_{T}"]);
        assert_eq!(found.lookups, ["fn"]);
        assert_eq!(r.lookup["fn"].helpers("s32"), ["ptx2hip_f"]);
        assert_eq!(own(Target::Amd), found);
        let err = load("{d} = ptx2hip_g({a});", "").unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/t.toml: rule X001: `portable`: the portable template calls unknown helper `ptx2hip_g`"
        );
        let err = load(
            "{d} = {fn}({a});",
            r#"lookup = { fn = { slot = "T", values = { s32 = "ptx2hip_g" } } }"#,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/t.toml: rule X001: `lookup`: `fn` value `ptx2hip_g` names unknown helper `ptx2hip_g`"
        );
    }

    #[test]
    fn an_unknown_placeholder_is_a_load_error_naming_file_rule_and_key() {
        assert!(load("{d} = ({T.u}){a};", "").is_ok());
        let err = load("{d} = {b};", "").unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/t.toml: rule X001: `portable`: unknown placeholder {b}"
        );
        let err = load("{d} = {a};", r#"amd = "{d} = {T.wide};""#).unwrap_err();
        assert!(matches!(&err, LoadError::Rule { key: "amd", .. }), "{err}");
        let err = load("{d} = {a};", r#"helpers = ["ptx2hip_nope"]"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/t.toml: rule X001: `helpers`: unknown helper `ptx2hip_nope`"
        );
    }

    /// A `[[rule.when]]` of the one-rule table, whose `abs` takes an optional `.ftz`.
    fn with_when(when: &str) -> Result<RuleSet, LoadError> {
        with_when_and(when, "")
    }

    /// [`with_when`], the rule having the `extra` keys.
    fn with_when_and(when: &str, extra: &str) -> Result<RuleSet, LoadError> {
        let text = file("t", "X001", "{d} = ptx2hip_f({a});", extra).replace(
            r#"slots = [{ name = "T", values = ["s32"] }]"#,
            r#"slots = [{ name = "ftz", values = ["ftz"], optional = true }, { name = "T", values = ["s32", "s64"] }]"#,
        );
        let helpers = "// ptx2hip:helper ptx2hip_f\nint ptx2hip_f(int x);\n// ptx2hip:end\n";
        RuleSet::from_sources([
            ("helpers/t.h".to_string(), helpers.to_string()),
            (
                "t.toml".to_string(),
                format!("{text}\n[[rule.when]]\n{when}\n"),
            ),
        ])
    }

    #[test]
    fn a_when_template_serves_the_forms_with_its_slot_values() {
        let rules = with_when(
            r#"slots = { ftz = [""], T = ["s32"] }
portable = "{d} = ::abs({a});""#,
        )
        .unwrap();
        let r = &rules.rules[0];
        let template = |mods: &[&str], target| {
            let mods: Vec<String> = mods.iter().map(|m| m.to_string()).collect();
            let b = r.match_modifiers(&mods).unwrap();
            r.template(target, &b).code.text().to_string()
        };
        assert_eq!(template(&["s32"], Target::Portable), "{d} = ::abs({a});");
        assert_eq!(template(&["s32"], Target::Amd), "{d} = ::abs({a});");
        assert_eq!(
            template(&["ftz", "s32"], Target::Portable),
            "{d} = ptx2hip_f({a});"
        );
        assert_eq!(template(&["s64"], Target::Amd), "{d} = ptx2hip_f({a});");
        let b = r.match_modifiers(&["s32".to_string()]).unwrap();
        assert!(r.template(Target::Portable, &b).helpers.names.is_empty());
    }

    #[test]
    fn a_when_names_slots_and_values_of_the_rule_and_some_form() {
        for (when, message) in [
            (r#"slots = { rnd = ["rn"] }"#, "names unknown slot `rnd`"),
            (
                r#"slots = { T = ["u32"] }"#,
                "slot `T` never takes the value `u32`",
            ),
            (
                r#"slots = { T = [""] }"#,
                "slot `T` never takes the value ``",
            ),
            ("slots = {}", "names no slot"),
        ] {
            let err = with_when(&format!("{when}\nportable = \"{{d}} = {{a}};\"")).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("rules/t.toml: rule X001: `when`: {message}"),
                "{when}"
            );
        }
        let err = with_when_and(
            r#"slots = { ftz = ["ftz"], T = ["s64"] }
portable = "{d} = {a};""#,
            r#"exclude = [["ftz=ftz", "T=s64"]]"#,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/t.toml: rule X001: `when`: claims no form of the rule"
        );
        let err = with_when(
            r#"slots = { ftz = ["ftz"] }
portable = "{d} = {b};""#,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/t.toml: rule X001: `when`: unknown placeholder {b}"
        );
        let err = with_when(
            r#"slots = { ftz = ["ftz"] }
portable = "{d} = ptx2hip_g({a});""#,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/t.toml: rule X001: `when`: the when template calls unknown helper `ptx2hip_g`"
        );
    }

    #[test]
    fn a_refused_case_has_no_expected_code() {
        let case = |keys: &str| {
            format!(r#"test = [{{ ptx = "abs.s32 %0, 1;", constraints = "=r", {keys} }}]"#)
        };
        assert!(load("{d} = {a};", &case(r#"translation = "op0 = 1;""#)).is_ok());
        assert!(load("{d} = {a};", &case(r#"refused = "x""#)).is_ok());
        for expected in [
            r#"emits = ["1"]"#,
            r#"helpers = []"#,
            r#"translation = "op0 = 1;""#,
        ] {
            let err = load(
                "{d} = {a};",
                &case(&format!(r#"refused = "x", {expected}"#)),
            )
            .unwrap_err();
            assert_eq!(
                err.to_string(),
                "rules/t.toml: rule X001: `test`: `abs.s32 %0, 1;`: a refused case emits nothing"
            );
        }
    }

    #[test]
    fn roles_come_from_writes_or_else_from_the_names() {
        let rules = load("{d} = {a};", "").unwrap();
        let roles: Vec<Role> = rules.rules[0]
            .operand_specs()
            .iter()
            .map(|s| s.role)
            .collect();
        assert_eq!(roles, [Role::Destination, Role::Source]);
        let rules = load("{d} = {a};", r#"writes = ["a"]"#).unwrap();
        let roles: Vec<Role> = rules.rules[0]
            .operand_specs()
            .iter()
            .map(|s| s.role)
            .collect();
        assert_eq!(roles, [Role::Source, Role::Destination]);
        let err = load("{d} = {a};", r#"writes = ["z"]"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/t.toml: rule X001: `writes`: names no operand `z`"
        );
    }
}
