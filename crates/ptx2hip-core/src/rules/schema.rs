//! The rule table's data as written in `rules/*.toml` (the serde types), and the parsed operand
//! specs. Loading and validation: [`super::load`]; matching instructions: [`super::matching`].

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

use super::shapes::FragmentCount;
use super::template::Template;
use crate::vocabulary::types::PtxType;

/// One file `rules/<family>.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RuleFile {
    pub family: String,
    /// What the family covers, for readers of the file.
    #[serde(default)]
    #[allow(dead_code)]
    pub description: String,
    #[serde(default, rename = "rule")]
    pub rules: Vec<Rule>,
    #[serde(default, rename = "unsupported")]
    pub unsupported: Vec<UnsupportedForm>,
    #[serde(default, rename = "special")]
    pub specials: Vec<SpecialRegister>,
    /// The register counts of matrix fragments (`[[fragment]]`), which size the fragment
    /// operands (`a:frag:shape:A`) of the family's rules.
    #[serde(default, rename = "fragment")]
    pub fragments: Vec<Fragment>,
    /// Lookups any rule of the table may name instead of repeating them (`[lookup]`, one
    /// namespace for all files; those several families share are in `core.toml`).
    #[serde(default)]
    pub lookup: BTreeMap<String, Lookup>,
    /// Slots any rule of the table may name instead of repeating them (`[slot]`, one namespace
    /// for all files): `scope = { values = ["cta", "cluster", "gpu", "sys"], optional = true }`
    /// is the slot `scope` of every rule whose `slots` list the name `"scope"`.
    #[serde(default)]
    pub slot: BTreeMap<String, Slot>,
    /// The cases of a helper's `switch` as data, by helper and case label
    /// (`[switch.ptx2hip_lop3]`, `0xea = "c | (b & a)"`): the helper's C++ is generated from
    /// them and the lowering reads them (see `rules::switches`).
    #[serde(default)]
    pub switch: BTreeMap<String, BTreeMap<String, String>>,
}

/// How many registers of which PTX type hold one operand of a matrix instruction, for some
/// shapes and element types: a row of the table LLVM calls `WMMA_REGS`. A rule's fragment operand
/// `a:frag:shape:A` takes its width from the entry of its opcode and operand name whose `shape`
/// lists the value of slot `shape` and whose `type` lists the value of slot `A`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Fragment {
    pub opcode: String,
    /// The operand name of the rules' specs (`a`, `b`, `c`, `d`).
    pub operand: String,
    /// Values of the shape slot (`m16n8k16`; for ldmatrix the count slot, `x4`; ranges such as
    /// `m64n{8..256 step 8}k16` expanded when the table loads).
    pub shape: Vec<String>,
    /// Values of the element-type slot (`f16`, `s8`).
    #[serde(rename = "type")]
    pub types: Vec<String>,
    /// Registers in the brace vector: a number, or a formula of the shape (`"N/2"`, see
    /// [`super::shapes`]).
    pub count: FragmentCount,
    /// The PTX type of each register (`b32`, `f32`, `f64`), which gives its C++ type.
    pub carrier: String,
}

/// How the ISA defines a rule's forms through other, hardware-verified rules (`[rule.decomposition]`).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Decomposition {
    /// The codes of the rules whose forms the decomposition uses; each must be verified on NVIDIA
    /// hardware (golden vectors or recorded warps), which the loader checks.
    pub rules: Vec<String>,
    /// The decomposition in one sentence, as `rules`, `explain` and the report state it:
    /// `each 32-bit half is add.f32 with the same modifiers`.
    pub claim: String,
}

/// A rule's faster translation that is not bit-exact, used only under `--fast`
/// (`[rule.fast]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fast {
    /// The `--target amd` template of the fast tier.
    pub amd: String,
    /// How its results differ from the exact translation, measured or modelled, as `explain`
    /// and the report state it.
    pub deviation: String,
}

/// One translation rule.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Stable identifier shown in reports (`I001`): the family's letter and three digits; every
    /// family has its own letter.
    pub code: String,
    /// The code this rule had before it was renamed (`F012`), so `explain` still resolves it.
    #[serde(default)]
    pub formerly: Option<String>,
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
    /// The operands the instruction writes, by name. When absent, the loader derives them once:
    /// names starting with `d`, and `p`/`q` (every pair `p|q` is written).
    #[serde(default)]
    pub writes: Option<Vec<String>>,
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
    /// Templates for some of the rule's forms (`[[rule.when]]`), in place of `portable` and
    /// `amd`: the first whose slot values the form has is used.
    #[serde(default)]
    pub when: Vec<When>,
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
    /// For a form no NVIDIA GPU here can run (sm_100 only): the hardware-verified rules whose
    /// forms the ISA defines it through, element by element (`[rule.decomposition]`). Such a rule
    /// records no vectors; its evidence level is `isa-decomposition` ([`super::evidence`]).
    #[serde(default)]
    pub decomposition: Option<Decomposition>,
    /// Slots whose modifiers change no value a single thread can observe (memory orders, scopes,
    /// cache hints): the golden vectors check each form with these slots at their first choice
    /// (absent when optional), and the orders are checked by the litmus runs
    /// (docs/MEMORY_MODEL.md).
    #[serde(default)]
    pub value_neutral: Vec<String>,
    /// Which of two rules claiming the same form translates it: the higher wins. Two rules of
    /// equal priority (0 unless written) may not claim a common form (a load error), so an
    /// overlap is always a decision written in the table, e.g. an AMD instruction that computes
    /// some forms of a general rule exactly.
    #[serde(default)]
    pub priority: u32,
    /// The instruction is warp-collective: the lanes of a 32-lane PTX warp compute it together
    /// (shuffles, votes, matrix fragments), so it is recorded and checked per warp, and on wave64
    /// each half of a wave is one warp (docs/WARP.md).
    #[serde(default)]
    pub warp: bool,
    /// A faster, inexact translation for `--fast` (`[rule.fast]`).
    #[serde(default)]
    pub fast: Option<Fast>,
    /// Forms of the family this rule does not claim (see [`Exclude`]).
    #[serde(default)]
    pub exclude: Vec<Exclude>,
    /// Named values chosen by a slot's modifier: `{ op = { slot = "cmp", values = { eq = "==" } } }`
    /// makes `{op}` expand to `==` for `setp.eq`. An absent optional slot looks up the key `""`.
    /// A lookup may also name one of the table's (`{ op = "cmp_ops" }`, see `[lookup]` in rules/README.md).
    #[serde(default)]
    pub lookup: BTreeMap<String, Lookup>,
    /// Operands PTX requires to be immediates, by name, with the values it allows:
    /// `{ scale_a = [1, -1] }`. A register there, or a literal of another value (written in the
    /// PTX or as an `"n"` operand's literal), is refused with the values; an `"n"` operand's
    /// other constant expressions are passed on as they are.
    #[serde(default)]
    pub immediates: BTreeMap<String, Vec<i64>>,
    /// A complete example statement for `explain` and the documentation.
    pub example: Example,
    /// Test cases (`[[rule.test]]`), run by the conformance test (`tests/it/rule_cases.rs` of the
    /// verification crate).
    #[serde(default)]
    pub test: Vec<Case>,
    #[serde(skip)]
    pub family: String,
    /// The rule file, relative to `rules/` (`integer.toml`).
    #[serde(skip)]
    pub file: String,
    /// `operands` parsed, with their roles (filled by the loader).
    #[serde(skip)]
    pub(super) specs: Vec<OperandSpec>,
    /// The `[[fragment]]` entries of the rule's file for its opcode (filled by the loader).
    #[serde(skip)]
    pub(super) fragments: Vec<Fragment>,
    /// The rule's templates parsed, with the helpers they call, for each target: its own, then
    /// one per `when` (filled by the loader, see [`Rule::template`]).
    #[serde(skip)]
    pub(super) templates: Vec<[RuleTemplate; 2]>,
}

/// A template for the forms of a rule whose slots take given values (`[[rule.when]]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    /// The values each named slot takes, `""` for an absent optional slot:
    /// `{ rnd = ["", "rn"], ftz = [""] }` is every form without `.ftz` whose rounding is `.rn`
    /// or not written.
    pub slots: BTreeMap<String, Vec<String>>,
    /// The template for these forms, for both targets unless `amd` is given.
    pub portable: String,
    #[serde(default)]
    pub amd: Option<String>,
}

impl When {
    /// Whether the form `bindings` has one of the listed values in every listed slot.
    pub fn matches(&self, bindings: &Bindings) -> bool {
        self.slots.iter().all(|(slot, values)| {
            bindings.get(slot).is_some_and(|bound| {
                let bound = bound.as_deref().unwrap_or_default();
                values.iter().any(|v| v == bound)
            })
        })
    }
}

/// One of a rule's templates for one target, parsed when the table loads, and the helpers it
/// calls.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleTemplate {
    pub code: Template,
    pub helpers: TemplateHelpers,
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

/// A slot of a rule: written as a table, or as the name of a table-level slot (`"scope"`, see
/// `[slot]` in rules/README.md), which the loader copies in place.
#[derive(Debug, Clone, Deserialize)]
#[serde(from = "SlotText")]
pub struct Slot {
    pub name: String,
    /// Accepted modifier values; `@class` entries expand (see [`expand_class`]), and a range
    /// `m64n{8..256 step 8}k16` is expanded into its values when the table loads.
    pub values: Vec<String>,
    #[serde(default)]
    pub optional: bool,
    /// The slot's modifiers are hints that change no value (cache operators, eviction priorities,
    /// prefetch sizes): matched like any other slot, but [`Rule::forms`] enumerates only the
    /// forms without them, so the forms verified against the hardware stay few. The rule's
    /// documentation says what each target does with each hint. A hint slot is optional.
    #[serde(default)]
    pub hint: bool,
    /// The slot names a table-level one, whose values the loader copies here.
    #[serde(skip)]
    pub(super) named: bool,
}

/// A slot as the files write it: a table, or the name of a table-level one.
#[derive(Deserialize)]
#[serde(untagged)]
enum SlotText {
    Named(String),
    Table(SlotTable),
}

/// `{ name = "T", values = [...], optional = true }`; a table-level slot takes its name from its
/// key and leaves `name` out.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SlotTable {
    #[serde(default)]
    name: String,
    values: Vec<String>,
    #[serde(default)]
    optional: bool,
    #[serde(default)]
    hint: bool,
}

impl From<SlotText> for Slot {
    fn from(text: SlotText) -> Slot {
        match text {
            SlotText::Named(name) => Slot {
                name,
                values: Vec::new(),
                optional: false,
                hint: false,
                named: true,
            },
            SlotText::Table(t) => Slot {
                name: t.name,
                values: t.values,
                optional: t.optional,
                hint: t.hint,
                named: false,
            },
        }
    }
}

/// Forms a rule does not claim: `["T=u16", "sat=sat"]` excludes every form with both values
/// (`"sat="`: the optional slot absent), and `{ T = ["u16", "s16"], sat = ["sat"] }` every form
/// whose slots each take one of the listed values (`""`: absent), i.e. every combination.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Exclude {
    All(Vec<String>),
    Product(BTreeMap<String, Vec<String>>),
}

impl Exclude {
    /// The `(slot, value)` conditions it is made of (`""`: the optional slot absent); a form is
    /// excluded when, for each slot named, its value is one of the slot's conditions.
    pub fn conditions(&self) -> Vec<(&str, &str)> {
        match self {
            Exclude::All(conds) => conds
                .iter()
                .map(|c| c.split_once('=').unwrap_or((c, "")))
                .collect(),
            Exclude::Product(slots) => slots
                .iter()
                .flat_map(|(slot, values)| values.iter().map(move |v| (slot.as_str(), v.as_str())))
                .collect(),
        }
    }
}

/// Named values chosen by a slot's modifier, written as a table, or as the name of a table-level
/// lookup: `"cmp_ops"` takes its slot and values, `"sign:A"` its values keyed by slot `A`.
#[derive(Debug, Clone, Deserialize)]
#[serde(from = "LookupText")]
pub struct Lookup {
    pub slot: String,
    pub values: BTreeMap<String, String>,
    /// The table-level lookup named, as written (`sign:A`), until the loader copies it here.
    #[serde(skip)]
    pub(super) named: Option<String>,
    /// The helpers each value names, by the modifier that selects it (filled by the loader).
    #[serde(skip)]
    pub(super) helpers: BTreeMap<String, Vec<String>>,
}

/// A lookup as the files write it: a table, or the name of a table-level one.
#[derive(Deserialize)]
#[serde(untagged)]
enum LookupText {
    Named(String),
    Table(LookupTable),
}

/// `{ slot = "cmp", values = { ... } }`; a table-level lookup named with a slot (`"sign:A"`)
/// may leave its own `slot` out.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LookupTable {
    #[serde(default)]
    slot: String,
    values: BTreeMap<String, String>,
}

impl From<LookupText> for Lookup {
    fn from(text: LookupText) -> Lookup {
        let (slot, values, named) = match text {
            LookupText::Named(name) => (String::new(), BTreeMap::new(), Some(name)),
            LookupText::Table(t) => (t.slot, t.values, None),
        };
        Lookup {
            slot,
            values,
            named,
            helpers: BTreeMap::new(),
        }
    }
}

impl Lookup {
    /// The helpers the value selected by modifier `key` names (`ptx2hip_fmode` for
    /// `ptx2hip_fmode::rn`, `ptx2hip_store_nt` for `ptx2hip_store_nt(`).
    pub fn helpers(&self, key: &str) -> &[String] {
        self.helpers.get(key).map_or(&[], Vec::as_slice)
    }
}

/// Where the helpers a template calls come from, found when the table loads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TemplateHelpers {
    /// Helper names the template spells: literal (`ptx2hip_prmt`) or completed by placeholders
    /// (`ptx2hip_bfe_{T.name}`), to expand as the template is.
    pub names: Vec<String>,
    /// Lookups the template expands whose values name helpers ([`Lookup::helpers`]).
    pub lookups: Vec<String>,
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
    /// Statements refused with this reason (`[[unsupported.test]]`, each with `refused`).
    #[serde(default)]
    pub test: Vec<Case>,
}

/// A test case of the table: a statement, and what translating it must give. A case of a rule
/// without `refused` must be translated, by that rule among others, and contain every `emits`
/// snippet; with `refused` it must be left as written with a reason containing that text.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The asm template (`add.s32 %0, %1, %2;`, or a `{ ... }` block).
    pub ptx: String,
    /// The operands' constraints in `%N` order, comma separated (`=r,r,r`).
    #[serde(default)]
    pub constraints: String,
    /// Only this target (`portable` or `amd`); both when absent.
    #[serde(default)]
    pub target: Option<String>,
    /// Text the emitted code must contain (one line of it, as emitted).
    #[serde(default)]
    pub emits: Vec<String>,
    /// Text the emitted code must not contain.
    #[serde(default)]
    pub not_emits: Vec<String>,
    /// The helpers the translation uses, exactly, in order.
    #[serde(default)]
    pub helpers: Option<Vec<String>>,
    /// The whole translation, exactly, of the statement as a plain `asm` (not `volatile`: without
    /// the compiler barriers kept around a volatile statement that touches memory).
    #[serde(default)]
    pub translation: Option<String>,
    /// The statement is not translated; the reason contains this text.
    #[serde(default)]
    pub refused: Option<String>,
}

/// A helper function emitted once per file (guarded against double definition), read from a
/// helper file `rules/helpers/<family>.h` (see [`super::helpers`]).
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
    /// The helpers the portable and the amd expression call (filled by the loader, see
    /// [`SpecialRegister::helpers`]).
    #[serde(skip)]
    pub(super) helpers: [Vec<String>; 2],
}

/// Which slot took which modifier value in a matched instruction.
pub type Bindings = BTreeMap<String, Option<String>>;

/// Parsed operand spec of a rule.
#[derive(Debug, Clone, PartialEq)]
pub struct OperandSpec {
    pub name: String,
    pub kind: OperandKind,
    pub role: Role,
    /// For an operand PTX lets a statement leave out (`count:u32 = 1`, `z:u32 = n`): what its
    /// absence means, bound in its place. Only trailing sources have one (checked by the loader),
    /// so one rule takes both arities with one template.
    pub default: Option<OperandDefault>,
}

/// The value of an operand a statement leaves out.
#[derive(Debug, Clone, PartialEq)]
pub enum OperandDefault {
    /// A C++ literal of the operand's type (`1u`), from the PTX value written in the spec (`1`).
    Literal(String),
    /// The value of an earlier operand, by name (`cp.async`'s src-size is the copy size `n`).
    SameAs(String),
}

impl fmt::Display for OperandDefault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OperandDefault::Literal(c) => f.write_str(c),
            OperandDefault::SameAs(name) => write!(f, "{{{name}}}"),
        }
    }
}

impl OperandSpec {
    /// The C++ literal of the integer `value` written in PTX, for an operand of type `ty`: the
    /// suffix gives it the operand's signedness and width (`1u` for `.u8` to `.u32`, `-1ll` for
    /// `.s64`); `None` when the value is not a decimal integer `ty` holds, or `ty` is not an
    /// integer type.
    pub fn default_literal(value: &str, ty: PtxType) -> Option<String> {
        let v: i128 = value.parse().ok()?;
        let (signed, bits) = match ty {
            PtxType::U(n) | PtxType::B(n) => (false, n),
            PtxType::S(n) => (true, n),
            _ => return None,
        };
        let fits = if signed {
            let half = 1i128 << (bits - 1);
            (-half..half).contains(&v)
        } else {
            (0..1i128 << bits).contains(&v)
        };
        let suffix = match (signed, bits == 64) {
            (false, false) => "u",
            (false, true) => "ull",
            (true, false) => "",
            (true, true) => "ll",
        };
        fits.then(|| format!("{v}{suffix}"))
    }
}

/// Whether the instruction reads or writes an operand (`writes` in the rule, or derived).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Read: an expression of the spec'd type.
    Source,
    /// Written: an lvalue of the spec'd type.
    Destination,
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
    /// `a:frag:shape:A`: a matrix fragment `{r0, r1, ...}` whose register count and type the
    /// family's `[[fragment]]` table gives for the values of the slots `shape` and `ty` (a
    /// one-register fragment may be written without braces). Templates name the whole operand
    /// `{a}` (a `ptx2hip_vec<C, N>` aggregate) and its C++ type `{a.type}`.
    Fragment { shape: String, ty: String },
    /// `t:tensor:dim`: a tensor operand `[map, {c0, ...}]` (`cp.async.bulk.tensor`): the 64-bit
    /// generic address of a tensor map and as many `.s32` coordinates as the slot `dim` says
    /// (`1d` ... `5d`). Templates name the map's address `{t}` (a `uintptr_t`) and the
    /// coordinates `{t.coords}` (one `ptx2hip_tma_coords` aggregate).
    Tensor(String),
}

impl OperandKind {
    /// The types its values have (none for an address).
    pub fn types(&self) -> Vec<&TypeRef> {
        match self {
            OperandKind::Scalar(t) | OperandKind::Vector(_, t) | OperandKind::SlotVector(_, t) => {
                vec![t]
            }
            OperandKind::Pair(_, t1, t2) => vec![t1, t2],
            OperandKind::Address(_) | OperandKind::Fragment { .. } | OperandKind::Tensor(_) => {
                Vec::new()
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum TypeRef {
    Slot(String),
    Fixed(PtxType),
}

/// The element count a vector-width modifier names: `v2` → 2, an absent slot → 1 (a scalar);
/// `None` for a modifier that is not `v<N>` with N ≥ 2.
pub fn vector_width(modifier: Option<&str>) -> Option<u32> {
    match modifier {
        None => Some(1),
        Some(m) => m.strip_prefix('v')?.parse().ok().filter(|&n| n >= 2),
    }
}

/// The coordinate count a tensor dimension modifier names: `2d` → 2; `None` for anything but
/// `1d` ... `5d`.
pub fn tensor_rank(modifier: Option<&str>) -> Option<u32> {
    modifier?
        .strip_suffix('d')?
        .parse()
        .ok()
        .filter(|n| (1..=5).contains(n))
}

/// Parses one operand spec (`name:TYPE`, or `name:TYPE = VALUE` for an operand a statement may
/// leave out); its role is [`Role::Source`] until the loader assigns it.
pub(super) fn parse_operand_spec(spec: &str) -> Result<OperandSpec, String> {
    let (shape, default) = match spec.split_once('=') {
        Some((shape, value)) => (shape.trim_end(), Some(value.trim())),
        None => (spec, None),
    };
    let mut parsed = parse_operand_shape(shape)?;
    if let Some(value) = default {
        let OperandKind::Scalar(TypeRef::Fixed(ty)) = &parsed.kind else {
            return Err(format!(
                "operand spec `{spec}`: only an operand of a fixed scalar type may have a default"
            ));
        };
        let is_name = value.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        parsed.default = Some(if is_name {
            OperandDefault::SameAs(value.to_string())
        } else {
            OperandDefault::Literal(OperandSpec::default_literal(value, *ty).ok_or_else(|| {
                format!("operand spec `{spec}`: the default `{value}` is not a decimal integer of type .{ty}")
            })?)
        });
    }
    Ok(parsed)
}

/// Parses `name:TYPE` (no default).
fn parse_operand_shape(spec: &str) -> Result<OperandSpec, String> {
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
            role: Role::Destination,
            default: None,
        });
    }
    let kind = match rest.as_slice() {
        ["addr"] => OperandKind::Address(None),
        ["addr", slot] => OperandKind::Address(Some(slot.to_string())),
        ["tensor", slot] => OperandKind::Tensor(slot.to_string()),
        ["frag", shape, ty] => OperandKind::Fragment {
            shape: shape.to_string(),
            ty: ty.to_string(),
        },
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
    Ok(OperandSpec {
        name,
        kind,
        role: Role::Source,
        default: None,
    })
}

#[cfg(test)]
mod tests {
    /// Every key a rule file may hold, read from the serde types in this file: the fields of its
    /// `Deserialize` structs (renamed where `rename = "..."` says so), less `#[serde(skip)]` ones.
    fn schema_keys() -> Vec<String> {
        let source = include_str!("schema.rs");
        let source = &source[..source.find("#[cfg(test)]").unwrap_or(source.len())];
        let mut keys = Vec::new();
        let (mut in_struct, mut skip, mut rename) = (false, false, None);
        for line in source.lines().map(str::trim) {
            if line.starts_with("#[derive(") {
                in_struct = line.contains("Deserialize");
            } else if line.starts_with("pub enum") {
                in_struct = false;
            } else if line.starts_with("#[serde(") {
                skip |= line.contains("skip");
                if let Some(at) = line.find("rename = \"") {
                    let rest = &line[at + 10..];
                    rename = rest.split('"').next().map(str::to_string);
                }
            } else if let Some(field) = line
                .strip_prefix("pub ")
                .or_else(|| line.strip_prefix("pub(super) "))
                .and_then(|f| f.split_once(':'))
                .map(|(name, _)| name)
                .filter(|n| in_struct && !n.contains(' '))
            {
                if !skip {
                    keys.push(rename.take().unwrap_or_else(|| field.to_string()));
                }
                (skip, rename) = (false, None);
            }
        }
        keys
    }

    #[test]
    fn the_readme_documents_every_key_of_the_schema() {
        let readme = include_str!("../../../../rules/README.md");
        let keys = schema_keys();
        assert!(keys.contains(&"max_ulp".to_string()) && keys.contains(&"special".to_string()));
        let missing: Vec<&String> = keys
            .iter()
            .filter(|k| {
                ![
                    format!("`{k}`"),
                    format!("{k} ="),
                    format!("[[{k}]]"),
                    format!(".{k}]]"),
                ]
                .iter()
                .any(|form| readme.contains(form.as_str()))
            })
            .collect();
        assert!(
            missing.is_empty(),
            "rules/README.md does not document {missing:?}"
        );
    }
}
