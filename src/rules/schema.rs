//! The rule table: data in `rules/*.toml`, embedded in the binary, validated at start.
//!
//! A rule names a root opcode and the modifier *slots* it accepts. A slot is a set of modifier
//! values (`rnd = rn|rz|rm|rp`, `T = @int`); an instruction matches a rule when every modifier it
//! carries fills a distinct slot and every required slot is filled, in whatever order the modifiers
//! were written. Slots are tried in declaration order, so two type slots with overlapping values
//! (`cvt.D.S`) are filled positionally. One rule therefore covers a whole family of forms, and
//! [`Rule::forms`] enumerates them for documentation and hardware verification.

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;

use super::call_sites;
use super::helper_file;
use super::types::PtxType;

// The rule files compiled into the binary (`EMBEDDED: &[(name relative to rules/, text)]`),
// listed by build.rs from `rules/*.toml` and the helper files `rules/helpers/*.h`.
include!(concat!(env!("OUT_DIR"), "/embedded_rules.rs"));

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleFile {
    family: String,
    #[serde(default)]
    #[allow(dead_code)]
    description: String,
    #[serde(default, rename = "rule")]
    rules: Vec<Rule>,
    #[serde(default, rename = "unsupported")]
    unsupported: Vec<UnsupportedForm>,
    #[serde(default, rename = "special")]
    specials: Vec<SpecialRegister>,
}

/// One translation rule.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Stable identifier shown in reports (`I001`).
    pub code: String,
    /// Short kebab-case name (`integer-add`).
    pub name: String,
    /// One line: what the instruction computes.
    pub summary: String,
    /// Exact semantics, edge cases and an example, in Markdown.
    pub doc: String,
    pub opcode: String,
    #[serde(default)]
    pub slots: Vec<Slot>,
    /// Operand specs in PTX order: `name:TYPE` where TYPE is a slot name, a PTX type (`u32`,
    /// `pred`), `addr` (a memory operand `[reg+imm]`), or `vN:TYPE` (a vector `{a, b, ...}`).
    pub operands: Vec<String>,
    /// C++ statement(s) computing the result with plain C++ accepted by nvcc and HIP compilers.
    /// Empty when `portable_unsupported` says why no such code exists.
    #[serde(default)]
    pub portable: String,
    /// Why `--target portable` cannot translate this form (no function common to CUDA and HIP
    /// does it exactly, e.g. a warp shuffle); such a rule has an `amd` template.
    #[serde(default)]
    pub portable_unsupported: Option<String>,
    /// C++ using HIP and `__builtin_amdgcn_*`; the portable code is used when absent.
    #[serde(default)]
    pub amd: Option<String>,
    /// Helper functions the templates call (names of helpers in `rules/helpers/*.h`).
    #[serde(default)]
    pub helpers: Vec<String>,
    /// The instruction reads or writes memory: a `volatile` statement keeps its ordering through
    /// compiler barriers around the translation.
    #[serde(default)]
    pub memory: bool,
    /// How the instruction uses the carry flag (`.cc` forms, `addc`, `subc`, `madc`): `writes`,
    /// `reads` or `reads-writes`. Templates name the flag `{CF}` (0 or 1, a `uint32_t`).
    #[serde(default)]
    pub carry: Option<Carry>,
    /// Results are approximations by design and are checked within `approximate` ulp-style bounds.
    #[serde(default)]
    pub approximate: bool,
    /// For `approximate` rules: the largest difference, in units in the last place of the result
    /// type, between the translation and the GPU that the golden check accepts (NaN, infinity and
    /// the sign of infinities must still match exactly).
    #[serde(default)]
    pub max_ulp: Option<u64>,
    /// For `approximate` rules: an absolute difference also accepted (results near a zero of the
    /// function, e.g. sin/cos, where a relative bound is meaningless).
    #[serde(default)]
    pub abs_tol: Option<f64>,
    /// Why golden vectors cannot check this rule (a clock, a fence), when that is so.
    #[serde(default)]
    pub unverifiable: Option<String>,
    /// Slots whose modifiers change no value a single thread can observe (memory orders, scopes,
    /// cache hints): the golden vectors check each form with these slots at their first choice
    /// (absent when optional), and the orders are checked by the litmus runs
    /// (docs/MEMORY_MODEL.md).
    #[serde(default)]
    pub value_neutral: Vec<String>,
    /// Forms of the family this rule does not claim, as `slot=value` lists, e.g. `["rnd=rni", "S=u8"]`
    /// excludes every form with both.
    #[serde(default)]
    pub exclude: Vec<Vec<String>>,
    /// Named values chosen by a slot's modifier: `{ op = { slot = "cmp", values = { eq = "==" } } }`
    /// makes `{op}` expand to `==` for `setp.eq`. An absent optional slot looks up the key `""`.
    #[serde(default)]
    pub lookup: BTreeMap<String, Lookup>,
    /// A complete example statement for `explain` and the documentation.
    pub example: Example,
    #[serde(skip)]
    pub family: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Carry {
    Writes,
    Reads,
    ReadsWrites,
}

impl Carry {
    pub fn reads(self) -> bool {
        matches!(self, Carry::Reads | Carry::ReadsWrites)
    }
    pub fn writes(self) -> bool {
        matches!(self, Carry::Writes | Carry::ReadsWrites)
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slot {
    pub name: String,
    /// Accepted modifier values; `@class` entries expand (see [`expand_class`]).
    pub values: Vec<String>,
    #[serde(default)]
    pub optional: bool,
    /// The slot's modifiers are hints that change no value (cache operators, eviction priorities,
    /// prefetch sizes): matched like any other slot, but [`Rule::forms`] enumerates only the
    /// forms without them, so the forms verified against the hardware stay few. The rule's
    /// documentation says what each target does with each hint. A hint slot is optional.
    #[serde(default)]
    pub hint: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lookup {
    pub slot: String,
    pub values: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    pub ptx: String,
    /// Constraints of the example's operands in `%N` order, comma separated (`=r,r,r`).
    pub constraints: String,
}

/// A form that is recognised but deliberately not translated, with the reason users see.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnsupportedForm {
    pub opcode: String,
    /// The reason applies when the instruction carries all of these modifiers (empty: always).
    #[serde(default)]
    pub modifiers: Vec<String>,
    /// The instruction's modifiers must be exactly `modifiers`, in this order.
    #[serde(default)]
    pub exact: bool,
    pub reason: String,
}

/// A helper function emitted once per file (guarded against double definition), read from a
/// helper file `rules/helpers/<family>.h` (see [`super::helper_file`]).
#[derive(Debug, Clone)]
pub struct Helper {
    pub name: String,
    /// Definition valid for nvcc and HIP compilers; empty for a helper only `amd` code calls.
    pub portable: String,
    /// Definition used for `--target amd`, if it differs.
    pub amd: Option<String>,
    pub requires: Vec<String>,
    /// Position in the table's definition order (files in order, helpers as written).
    pub rank: usize,
    /// The helper file, relative to `rules/` (`helpers/core.h`), and the line of its marker.
    pub file: String,
    pub line: usize,
}

/// A special register readable as a source operand (`%clock`, `%tid.x`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialRegister {
    /// Name with `%`, and `.x` etc. for components.
    pub name: String,
    /// PTX type of the value.
    #[serde(rename = "type")]
    pub ty: String,
    /// The value as a C++ expression (absent for registers that are `unsupported`).
    #[serde(default)]
    pub portable: String,
    #[serde(default)]
    pub amd: Option<String>,
    pub doc: String,
    /// Why the register is deliberately not translated (the reason users see).
    #[serde(default)]
    pub unsupported: Option<String>,
}

/// Why a call site may not call an ordinary name unqualified (see [`call_sites`]).
const CAPTURE: &str =
    "a function of that name in the user's namespace or class would be called instead; \
write `::name`, a `ptx2hip_*` helper or a reserved `__` builtin";

/// Every helper's name starts with this, so emitted code can be searched for them in one pass.
pub const HELPER_PREFIX: &str = "ptx2hip_";

/// Which slot took which modifier value in a matched instruction.
pub type Bindings = BTreeMap<String, Option<String>>;

/// Parsed operand spec of a rule.
#[derive(Debug, Clone, PartialEq)]
pub struct OperandSpec {
    pub name: String,
    pub kind: OperandKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OperandKind {
    /// A scalar of a slot's type or a fixed PTX type.
    Scalar(TypeRef),
    /// `[reg]`, `[reg+imm]`, `[var]`: an address in the state space the named slot holds (spec
    /// `a:addr:space`: `.global`, `.shared`, `.local`, `.const`, generic when the slot is absent),
    /// or always generic (spec `a:addr`). See `lower::block::address`.
    Address(Option<String>),
    /// `{a, b, ...}` of `n` elements.
    Vector(u32, TypeRef),
    /// `d:[vec]:T`: a scalar when the slot `vec` is absent, otherwise a vector of the slot's
    /// width (`v2`, `v4`, `v8`). The template names the whole operand `{d}` (a `ptx2hip_vec<T, N>`
    /// aggregate for vectors) and its C++ type `{d.type}`.
    SlotVector(String, TypeRef),
    /// `p|q`: two destinations written by one instruction (spec `p|q:pred`, or `d|p:b32|pred`
    /// when the two have different types); the template names them `{p}` and `{q}`. Either side
    /// may be written as the sink `_`.
    Pair(String, TypeRef, TypeRef),
}

#[derive(Debug, Clone, PartialEq)]
pub enum TypeRef {
    Slot(String),
    Fixed(PtxType),
}

/// The validated rule table.
#[derive(Debug, Clone)]
pub struct RuleSet {
    pub rules: Vec<Rule>,
    pub unsupported: Vec<UnsupportedForm>,
    pub helpers: HashMap<String, Helper>,
    /// Helper names in definition order (emission order is dependency order within it).
    pub helper_order: Vec<String>,
    pub specials: HashMap<String, SpecialRegister>,
    by_opcode: HashMap<String, Vec<usize>>,
}

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
    fn slot_accepts(slot: &Slot, modifier: &str) -> bool {
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
        self.exclude.iter().any(|conds| {
            conds.iter().all(|cond| {
                let (slot, value) = cond.split_once('=').unwrap_or((cond, ""));
                match bindings.get(slot) {
                    Some(Some(v)) => v == value,
                    Some(None) => value.is_empty(),
                    None => false,
                }
            })
        })
    }

    pub fn operand_specs(&self) -> Vec<OperandSpec> {
        self.operands
            .iter()
            .map(|s| parse_operand_spec(s).expect("validated at load"))
            .collect()
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

    /// The template for a target.
    pub fn template(&self, target: super::Target) -> &str {
        match target {
            super::Target::Amd => self.amd.as_deref().unwrap_or(&self.portable),
            super::Target::Portable => &self.portable,
        }
    }
}

/// The element count a vector-width modifier names: `v2` → 2, an absent slot → 1 (a scalar);
/// `None` for a modifier that is not `v<N>` with N ≥ 2.
pub fn vector_width(modifier: Option<&str>) -> Option<u32> {
    match modifier {
        None => Some(1),
        Some(m) => m.strip_prefix('v')?.parse().ok().filter(|&n| n >= 2),
    }
}

pub fn parse_operand_spec(spec: &str) -> Result<OperandSpec, String> {
    let mut parts = spec.split(':');
    let name = parts
        .next()
        .filter(|n| !n.is_empty())
        .ok_or("empty operand name")?
        .to_string();
    let rest: Vec<&str> = parts.collect();
    let type_ref = |t: &str| -> TypeRef {
        match PtxType::parse(t) {
            Some(p) => TypeRef::Fixed(p),
            None => TypeRef::Slot(t.to_string()),
        }
    };
    if let Some((first, second)) = name.split_once('|') {
        let [t] = rest.as_slice() else {
            return Err(format!("operand spec `{spec}` is not `p|q:TYPE`"));
        };
        let (t1, t2) = t.split_once('|').unwrap_or((t, t));
        return Ok(OperandSpec {
            name: first.to_string(),
            kind: OperandKind::Pair(second.to_string(), type_ref(t1), type_ref(t2)),
        });
    }
    let kind = match rest.as_slice() {
        ["addr"] => OperandKind::Address(None),
        ["addr", slot] => OperandKind::Address(Some(slot.to_string())),
        [v, t] if v.starts_with('[') && v.ends_with(']') && v.len() > 2 => {
            OperandKind::SlotVector(v[1..v.len() - 1].to_string(), type_ref(t))
        }
        [v, t] if v.starts_with('v') => {
            let n: u32 = v[1..]
                .parse()
                .map_err(|_| format!("bad vector width in `{spec}`"))?;
            OperandKind::Vector(n, type_ref(t))
        }
        [t] => OperandKind::Scalar(type_ref(t)),
        _ => return Err(format!("operand spec `{spec}` is not `name:TYPE`")),
    };
    Ok(OperandSpec { name, kind })
}

impl RuleSet {
    /// Loads the rule files embedded in the binary.
    pub fn embedded() -> Result<RuleSet, String> {
        RuleSet::from_sources(EMBEDDED.iter().map(|(n, s)| (n.to_string(), s.to_string())))
    }

    /// Loads and validates rule files given as `(name relative to rules/, text)`: `*.toml` rule
    /// files and `*.h` helper files.
    pub fn from_sources(
        files: impl IntoIterator<Item = (String, String)>,
    ) -> Result<RuleSet, String> {
        let mut set = RuleSet {
            rules: Vec::new(),
            unsupported: Vec::new(),
            helpers: HashMap::new(),
            helper_order: Vec::new(),
            specials: HashMap::new(),
            by_opcode: HashMap::new(),
        };
        for (name, text) in files {
            if name.ends_with(".h") {
                for mut h in helper_file::parse(&name, &text)? {
                    if let Some(first) = set.helpers.get(&h.name) {
                        return Err(format!(
                            "rules/{}:{}: helper `{}` already defined at rules/{}:{}",
                            h.file, h.line, h.name, first.file, first.line
                        ));
                    }
                    h.rank = set.helper_order.len();
                    set.helper_order.push(h.name.clone());
                    set.helpers.insert(h.name.clone(), h);
                }
                continue;
            }
            let file: RuleFile = toml::from_str(&text).map_err(|e| format!("rules/{name}: {e}"))?;
            for mut rule in file.rules {
                rule.family = file.family.clone();
                set.rules.push(rule);
            }
            set.unsupported.extend(file.unsupported);
            for s in file.specials {
                if s.portable.is_empty() == s.unsupported.is_none() {
                    return Err(format!(
                        "rules/{name}: special register `{}` needs exactly one of `portable` and `unsupported`",
                        s.name
                    ));
                }
                set.specials.insert(s.name.clone(), s);
            }
        }
        set.validate()?;
        for (i, r) in set.rules.iter().enumerate() {
            set.by_opcode.entry(r.opcode.clone()).or_default().push(i);
        }
        Ok(set)
    }

    fn validate(&self) -> Result<(), String> {
        let mut codes = HashMap::new();
        for r in &self.rules {
            if let Some(other) = codes.insert(r.code.clone(), r.name.clone()) {
                return Err(format!(
                    "rule code {} used by `{}` and `{}`",
                    r.code, other, r.name
                ));
            }
            if r.portable_unsupported.is_some() != r.portable.is_empty() {
                return Err(format!(
                    "{}: give either `portable` or `portable_unsupported`",
                    r.code
                ));
            }
            if r.portable_unsupported.is_some() && r.amd.is_none() {
                return Err(format!(
                    "{}: a rule without portable code needs an `amd` template",
                    r.code
                ));
            }
            for slot in &r.slots {
                if slot.hint && !slot.optional {
                    return Err(format!(
                        "{}: hint slot `{}` must be optional",
                        r.code, slot.name
                    ));
                }
                for v in &slot.values {
                    if v.starts_with('@') && expand_class(v).is_none() {
                        return Err(format!("{}: unknown modifier class `{v}`", r.code));
                    }
                }
            }
            for spec in &r.operands {
                let spec = parse_operand_spec(spec).map_err(|e| format!("{}: {e}", r.code))?;
                let types = match &spec.kind {
                    OperandKind::Scalar(t)
                    | OperandKind::Vector(_, t)
                    | OperandKind::SlotVector(_, t) => vec![t],
                    OperandKind::Pair(_, t1, t2) => vec![t1, t2],
                    OperandKind::Address(_) => Vec::new(),
                };
                match &spec.kind {
                    OperandKind::Address(Some(s)) if !r.slots.iter().any(|sl| &sl.name == s) => {
                        return Err(format!(
                            "{}: address space slot `{s}` does not exist",
                            r.code
                        ));
                    }
                    OperandKind::SlotVector(s, _) => {
                        let Some(slot) = r.slots.iter().find(|sl| &sl.name == s) else {
                            return Err(format!(
                                "{}: vector width slot `{s}` does not exist",
                                r.code
                            ));
                        };
                        if Rule::slot_values(slot)
                            .iter()
                            .any(|v| vector_width(Some(v)).is_none())
                        {
                            return Err(format!(
                                "{}: vector width slot `{s}` has a value that is not `v<N>`",
                                r.code
                            ));
                        }
                    }
                    _ => {}
                }
                for s in types.into_iter().filter_map(|t| match t {
                    TypeRef::Slot(s) => Some(s),
                    TypeRef::Fixed(_) => None,
                }) {
                    if !r.slots.iter().any(|sl| &sl.name == s) {
                        return Err(format!(
                            "{}: operand type `{s}` is neither a PTX type nor a slot",
                            r.code
                        ));
                    }
                }
            }
            for (name, l) in &r.lookup {
                let Some(slot) = r.slots.iter().find(|s| s.name == l.slot) else {
                    return Err(format!(
                        "{}: lookup `{name}` uses unknown slot `{}`",
                        r.code, l.slot
                    ));
                };
                for v in Rule::slot_values(slot) {
                    if !l.values.contains_key(&v) {
                        return Err(format!(
                            "{}: lookup `{name}` has no value for `{v}`",
                            r.code
                        ));
                    }
                }
            }
            for n in &r.value_neutral {
                if !r.slots.iter().any(|s| &s.name == n) {
                    return Err(format!(
                        "{}: value_neutral names unknown slot `{n}`",
                        r.code
                    ));
                }
            }
            for h in &r.helpers {
                if !self.helpers.contains_key(h) {
                    return Err(format!("{}: unknown helper `{h}`", r.code));
                }
            }
            for (target, template) in [("portable", Some(&r.portable)), ("amd", r.amd.as_ref())] {
                let Some(template) = template else { continue };
                let lookups = r.lookup.iter().map(|(name, l)| {
                    (
                        name.as_str(),
                        l.values.values().map(String::as_str).collect(),
                    )
                });
                if let Some(name) = call_sites::template_calls(template, lookups).first() {
                    return Err(format!(
                        "{}: the {target} template calls `{name}` unqualified: {CAPTURE}",
                        r.code
                    ));
                }
            }
        }
        for s in self.specials.values() {
            for code in [Some(&s.portable), s.amd.as_ref()].into_iter().flatten() {
                if let Some(name) = call_sites::capturable_calls(code).first() {
                    return Err(format!(
                        "special register {}: calls `{name}` unqualified: {CAPTURE}",
                        s.name
                    ));
                }
            }
        }
        for h in self.helpers.values() {
            for req in &h.requires {
                if !self.helpers.contains_key(req) {
                    return Err(format!(
                        "rules/{}:{}: helper `{}` requires unknown helper `{req}`",
                        h.file, h.line, h.name
                    ));
                }
            }
        }
        Ok(())
    }

    /// Rules for a root opcode, in table order.
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
        let mut needed = std::collections::HashSet::new();
        let mut stack: Vec<String> = names.into_iter().cloned().collect();
        while let Some(n) = stack.pop() {
            if needed.insert(n.clone()) {
                if let Some(h) = self.helpers.get(&n) {
                    stack.extend(h.requires.iter().cloned());
                }
            }
        }
        let mut ordered = Vec::new();
        let mut placed = std::collections::HashSet::new();
        fn place(
            set: &RuleSet,
            n: &str,
            needed: &std::collections::HashSet<String>,
            placed: &mut std::collections::HashSet<String>,
            out: &mut Vec<String>,
        ) {
            if !needed.contains(n) || !placed.insert(n.to_string()) {
                return;
            }
            if let Some(h) = set.helpers.get(n) {
                for r in &h.requires {
                    place(set, r, needed, placed, out);
                }
            }
            out.push(n.to_string());
        }
        let mut known: Vec<&Helper> = needed.iter().filter_map(|n| self.helpers.get(n)).collect();
        known.sort_by_key(|h| h.rank);
        for h in known {
            place(self, &h.name, &needed, &mut placed, &mut ordered);
        }
        ordered
    }
}
