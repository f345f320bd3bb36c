//! Canonical asm statements for every concrete form a rule claims.
//!
//! Each form of each (value-checkable) rule becomes one inline-asm statement whose operands have
//! fixed constraint letters derived from the PTX types (16-bit → `h`, 8/32-bit integers → `r`,
//! f32 → `f`, 64-bit integers → `l`, f64 → `d`). Memory operands are `[%k]` with an `l` pointer to a
//! 16-byte-aligned buffer; a predicate destination is observed through
//! `{ .reg .pred p; <form> p, ...; @p mov.u32 %0, 1; }` with `"+r"` initialised to 0.
//!
//! The same statement runs on the GPU (the CUDA program writes the golden vectors) and through
//! [`ptx2hip_core::lower::analyze`] on the CPU (the golden test), so both sides see identical operands.

use ptx2hip_core::rules::{OperandKind, Role, Rule, RuleSet, TypeRef};
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_core::vocabulary::types::PtxType;

/// Register class of an asm operand: the constraint letter and the C type that carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegClass {
    H,
    R,
    L,
    F,
    D,
    /// 128-bit integers (`.b128`), `unsigned __int128`.
    Q,
}

impl RegClass {
    pub fn for_type(t: PtxType) -> RegClass {
        match t {
            PtxType::F32 => RegClass::F,
            PtxType::F64 => RegClass::D,
            PtxType::Pred => RegClass::R,
            t => match t.bits() {
                16 => RegClass::H,
                64 => RegClass::L,
                128 => RegClass::Q,
                _ => RegClass::R,
            },
        }
    }
    pub fn letter(self) -> char {
        match self {
            RegClass::H => 'h',
            RegClass::R => 'r',
            RegClass::L => 'l',
            RegClass::F => 'f',
            RegClass::D => 'd',
            RegClass::Q => 'q',
        }
    }
    pub fn bytes(self) -> usize {
        match self {
            RegClass::H => 2,
            RegClass::R | RegClass::F => 4,
            RegClass::L | RegClass::D => 8,
            RegClass::Q => 16,
        }
    }
    /// The C type that holds the register (floats as their own type, bits compared).
    pub fn c_type(self) -> &'static str {
        match self {
            RegClass::H => "uint16_t",
            RegClass::R => "uint32_t",
            RegClass::L => "uint64_t",
            RegClass::F => "float",
            RegClass::D => "double",
            RegClass::Q => "unsigned __int128",
        }
    }
}

/// One input value of a vector, in record order.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// Asm operand `%op`, a register of class `class` carrying PTX type `ty`.
    Reg {
        op: usize,
        class: RegClass,
        ty: PtxType,
    },
    /// Bytes placed at the start of the buffer the address operand `%op` points to.
    Mem {
        op: usize,
        bytes: usize,
        elem: PtxType,
    },
}

/// One output value of a vector, in record order.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// Asm output operand `%op` (bits of the whole register).
    Reg {
        op: usize,
        class: RegClass,
        init_zero: bool,
    },
    /// The first `bytes` bytes of the buffer (pre-filled with 0xA5) after the statement.
    Mem { bytes: usize },
}

impl Input {
    pub fn bytes(&self) -> usize {
        match self {
            Input::Reg { class, .. } => class.bytes(),
            Input::Mem { bytes, .. } => *bytes,
        }
    }
}

impl Output {
    pub fn bytes(&self) -> usize {
        match self {
            Output::Reg { class, .. } => class.bytes(),
            Output::Mem { bytes } => *bytes,
        }
    }
}

/// Bytes of buffer each vector gets (16-byte aligned).
pub const MEM_STRIDE: usize = 32;
/// Bytes of the buffer read back after a store.
pub const STORE_READBACK: usize = 16;
/// Fill byte of the buffer before a store.
pub const STORE_FILL: u8 = 0xA5;

/// A concrete form of a rule with its canonical statement.
#[derive(Debug, Clone)]
pub struct CanonicalForm {
    pub rule: String,
    /// The code the rule's vectors were recorded under: its `formerly` code when it was renamed,
    /// else `rule`. The random inputs are seeded with it, so a renamed rule replays the vectors
    /// recorded before (dropping `formerly` would make them stale).
    pub seed_code: String,
    pub family: String,
    /// `opcode.mod...` as [`Rule::forms`] names it, followed by ` [name=value]` for operands PTX
    /// requires to be immediates (one canonical form per immediate value).
    pub form: String,
    /// Asm template text.
    pub ptx: String,
    /// Constraint of every operand in `%N` order.
    pub constraints: Vec<String>,
    pub inputs: Vec<Input>,
    pub outputs: Vec<Output>,
    /// How many canonical forms share this PTX form (immediate variants): the random vectors and
    /// the capped edge cross products are divided among them.
    pub variants: usize,
    /// `Some((max_ulp, abs_tol))` for approximate rules: outputs are compared within this bound.
    pub tolerance: Option<(u64, f64)>,
    /// Where the buffer of a memory operand lives (global for forms without one).
    pub mem_space: MemSpace,
}

/// The state space of a form's memory buffer. On the GPU a `.shared` or `.local` buffer is a
/// per-thread slot of a `__shared__` array or of a local array, its address the window address
/// (`__cvta_generic_to_shared/local`) in a 32-bit register; on the host both are slots of one
/// static array standing for the window, so the helpers that convert window addresses are
/// exercised with nonzero offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemSpace {
    /// Generic or `.global`: a 64-bit pointer to a global buffer.
    Global,
    Shared,
    Local,
}

impl MemSpace {
    /// The space of an address operand from its state-space modifier; `None` for spaces whose
    /// memory the vector harness cannot fill from a thread (`.const`, `.param`).
    pub fn of(space: Option<&str>) -> Option<MemSpace> {
        match space {
            None | Some("global") => Some(MemSpace::Global),
            Some("shared" | "shared::cta") => Some(MemSpace::Shared),
            Some("local") => Some(MemSpace::Local),
            _ => None,
        }
    }
    /// Constraint of the address operand.
    pub fn constraint(self) -> &'static str {
        match self {
            MemSpace::Global => "l",
            MemSpace::Shared | MemSpace::Local => "r",
        }
    }
}

impl CanonicalForm {
    pub fn in_bytes(&self) -> usize {
        self.inputs.iter().map(Input::bytes).sum()
    }
    pub fn out_bytes(&self) -> usize {
        self.outputs.iter().map(Output::bytes).sum()
    }
    /// The statement as the scanner would produce it, operands named `op0`, `op1`, ...
    pub fn statement(&self) -> AsmStatement {
        AsmStatement::synthetic(&self.ptx, &self.constraints)
    }
}

/// Why a rule has no canonical forms: it is not value-checkable, or its result depends on the
/// other lanes of the warp (checked per warp instead: [`crate::warp`], `tests/it/wave_sim.rs`).
pub fn skip_reason(rule: &Rule) -> Option<String> {
    rule.unverifiable.clone().or_else(|| {
        rule.warp.then(|| {
            "a warp-level instruction: checked per warp (tests/vectors/warp, crates/ptx2hip-verify/tests/it/wave_sim.rs)"
                .to_string()
        })
    })
}

/// Every canonical form of every value-checkable rule, in rule-table order.
pub fn all_forms(rules: &RuleSet) -> Vec<CanonicalForm> {
    rules
        .rules
        .iter()
        .filter(|r| skip_reason(r).is_none())
        .flat_map(rule_forms)
        .collect()
}

/// The canonical forms whose golden vectors are recorded on NVIDIA hardware: those of
/// [`all_forms`] but the ISA decompositions' (sm_100 forms no GPU here runs; their evidence is the
/// recordings of the rules they decompose into, docs/EVIDENCE.md).
pub fn recorded_forms(rules: &RuleSet) -> Vec<CanonicalForm> {
    rules
        .rules
        .iter()
        .filter(|r| skip_reason(r).is_none() && r.decomposition.is_none())
        .flat_map(rule_forms)
        .collect()
}

/// The canonical forms of one rule: every form whose `value_neutral` slots (orders, scopes, cache
/// hints) are at their first choice — absent when optional, the first value otherwise.
pub fn rule_forms(rule: &Rule) -> Vec<CanonicalForm> {
    rule.forms()
        .into_iter()
        .filter(|(_, b)| is_value_representative(rule, b))
        .flat_map(|(form, b)| canonical(rule, form, &b))
        .collect()
}

/// Whether a form stands for all forms that differ from it only in `value_neutral` slots.
pub fn is_value_representative(rule: &Rule, bindings: &ptx2hip_core::rules::Bindings) -> bool {
    rule.value_neutral.iter().all(|name| {
        let Some(slot) = rule.slots.iter().find(|s| &s.name == name) else {
            return true;
        };
        let first = (!slot.optional)
            .then(|| Rule::slot_values(slot).into_iter().next())
            .flatten();
        bindings.get(name).cloned().flatten() == first
    })
}

/// Operands PTX requires to be immediates, and the values a canonical form is generated for.
fn immediate_values(rule: &Rule, name: &str) -> Option<Vec<u64>> {
    match (rule.opcode.as_str(), name) {
        ("lop3", "lut") => Some((0..256).collect()),
        // cp.async's cp-size (its rules' `immediates`).
        ("cp", "n") => rule
            .immediates
            .get("n")
            .map(|v| v.iter().map(|&x| x as u64).collect()),
        _ => None,
    }
}

/// The canonical forms of one form of a rule: one per operand count its statements may have
/// (operands with a default may be left out; such a shorter statement is named
/// `FORM [N operands]`), and one per allowed value of an operand PTX requires to be immediate.
fn canonical(
    rule: &Rule,
    form: String,
    bindings: &ptx2hip_core::rules::Bindings,
) -> Vec<CanonicalForm> {
    let specs = rule.operand_specs();
    (rule.required_operands()..=specs.len())
        .flat_map(|arity| {
            let name = if arity == specs.len() {
                form.clone()
            } else {
                format!("{form} [{arity} operands]")
            };
            canonical_of_arity(rule, name, bindings, arity)
        })
        .collect()
}

fn canonical_of_arity(
    rule: &Rule,
    form: String,
    bindings: &ptx2hip_core::rules::Bindings,
    arity: usize,
) -> Vec<CanonicalForm> {
    let specs = &rule.operand_specs()[..arity];
    let imm: Vec<(usize, Vec<u64>)> = specs
        .iter()
        .enumerate()
        .filter_map(|(k, s)| immediate_values(rule, &s.name).map(|v| (k, v)))
        .collect();
    match imm.as_slice() {
        [] => canonical_with(rule, form, bindings, arity, &[], 1)
            .into_iter()
            .collect(),
        [(k, values)] => values
            .iter()
            .filter_map(|&v| {
                let name = format!("{form} [{}={v:#04x}]", specs[*k].name);
                canonical_with(rule, name, bindings, arity, &[(*k, v)], values.len())
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn canonical_with(
    rule: &Rule,
    form: String,
    bindings: &ptx2hip_core::rules::Bindings,
    arity: usize,
    imms: &[(usize, u64)],
    variants: usize,
) -> Option<CanonicalForm> {
    let specs = &rule.operand_specs()[..arity];
    let is_store = rule.opcode == "st";
    // atom/red read the buffer (an input) and leave their result there (an output).
    let is_rmw = matches!(rule.opcode.as_str(), "atom" | "red");
    let mut constraints = Vec::new();
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let mut texts = Vec::new();
    // Local predicate registers: destinations (observed after the instruction) and sources.
    let mut pred_dests: Vec<(String, usize)> = Vec::new();
    let mut pred_srcs: Vec<(String, usize)> = Vec::new();
    // Local .b8 registers for 8-bit vector elements (inline asm has no 8-bit constraint).
    let mut b8_locals: Vec<String> = Vec::new();
    let mut b8_before: Vec<String> = Vec::new();
    let mut b8_after: Vec<String> = Vec::new();
    let instr_name = form.split(' ').next().unwrap_or(&form).to_string();
    // The data type of a memory access: the first non-address operand's type.
    let data_ty = specs.iter().find_map(|s| match &s.kind {
        OperandKind::Scalar(t) => rule.resolve_type(t, bindings).map(|t| (1, t)),
        OperandKind::Vector(n, t) => rule.resolve_type(t, bindings).map(|t| (*n as usize, t)),
        OperandKind::SlotVector(slot, t) => rule
            .resolve_type(t, bindings)
            .map(|t| (slot_width(bindings, slot) as usize, t)),
        OperandKind::Address(_)
        | OperandKind::Pair(..)
        | OperandKind::Fragment { .. }
        | OperandKind::Tensor(_) => None,
    });
    let pred_dest_name = |n: usize| {
        if n == 0 {
            "p".to_string()
        } else {
            format!("p{n}")
        }
    };
    let pred_src_name = |n: usize| {
        if n == 0 {
            "q".to_string()
        } else {
            format!("q{n}")
        }
    };
    // The carry flag: a rule that writes it is observed through `addc.u32 %0, 0, 0;` after the
    // instruction (output operand 0); one that reads it gets it from an extra input `cf` through
    // `add.cc.u32 c, cf, 0xffffffff;` (CF = cf != 0) before the instruction.
    let carry_out = rule.carry.is_some_and(|c| c.writes());
    let carry_in = rule.carry.is_some_and(|c| c.reads());
    if carry_out {
        constraints.push("=r".to_string());
        outputs.push(Output::Reg {
            op: 0,
            class: RegClass::R,
            init_zero: false,
        });
    }
    let mut mem_space = MemSpace::Global;
    for (k, spec) in specs.iter().enumerate() {
        if let Some(&(_, v)) = imms.iter().find(|(i, _)| *i == k) {
            texts.push(format!("{v:#04x}"));
            continue;
        }
        let dest = !is_store
            && spec.role == Role::Destination
            && !matches!(spec.kind, OperandKind::Address(_));
        // A modifier-sized vector is a scalar or a fixed-width vector in this form.
        let kind = match &spec.kind {
            OperandKind::SlotVector(slot, t) => match slot_width(bindings, slot) {
                1 => OperandKind::Scalar(t.clone()),
                n => OperandKind::Vector(n, t.clone()),
            },
            // A fragment is a vector of its table width (braced even with one register).
            OperandKind::Fragment { shape, ty } => {
                let (n, carrier) = rule.fragment(&spec.name, shape, ty, bindings)?;
                OperandKind::Vector(n, TypeRef::Fixed(carrier))
            }
            k => k.clone(),
        };
        match &kind {
            OperandKind::SlotVector(..) | OperandKind::Fragment { .. } => {
                unreachable!("resolved above")
            }
            // A tensor operand needs a tensor map in memory: no single-instruction program.
            OperandKind::Tensor(_) => return None,
            OperandKind::Scalar(t) => {
                let ty = rule.resolve_type(t, bindings)?;
                if dest && ty == PtxType::Pred {
                    let op = constraints.len();
                    constraints.push("+r".to_string());
                    outputs.push(Output::Reg {
                        op,
                        class: RegClass::R,
                        init_zero: true,
                    });
                    let name = pred_dest_name(pred_dests.len());
                    texts.push(name.clone());
                    pred_dests.push((name, op));
                } else if ty == PtxType::Pred {
                    let op = constraints.len();
                    constraints.push("r".to_string());
                    inputs.push(Input::Reg {
                        op,
                        class: RegClass::R,
                        ty: PtxType::U(32),
                    });
                    let name = pred_src_name(pred_srcs.len());
                    texts.push(name.clone());
                    pred_srcs.push((name, op));
                } else {
                    let class = RegClass::for_type(ty);
                    let op = constraints.len();
                    if dest {
                        constraints.push(format!("={}", class.letter()));
                        outputs.push(Output::Reg {
                            op,
                            class,
                            init_zero: false,
                        });
                    } else {
                        constraints.push(class.letter().to_string());
                        inputs.push(Input::Reg { op, class, ty });
                    }
                    texts.push(format!("%{op}"));
                }
            }
            OperandKind::Pair(_, t1, t2) => {
                if rule.resolve_type(t1, bindings)? != PtxType::Pred
                    || rule.resolve_type(t2, bindings)? != PtxType::Pred
                {
                    return None;
                }
                let mut names = Vec::new();
                for _ in 0..2 {
                    let op = constraints.len();
                    constraints.push("+r".to_string());
                    outputs.push(Output::Reg {
                        op,
                        class: RegClass::R,
                        init_zero: true,
                    });
                    let name = pred_dest_name(pred_dests.len());
                    names.push(name.clone());
                    pred_dests.push((name, op));
                }
                texts.push(names.join("|"));
            }
            OperandKind::Vector(n, t) => {
                let ty = rule.resolve_type(t, bindings)?;
                let class = RegClass::for_type(ty);
                let byte = ty.bits() == 8;
                let mut names = Vec::new();
                for _ in 0..*n {
                    let op = constraints.len();
                    if dest {
                        constraints.push(format!("={}", class.letter()));
                        outputs.push(Output::Reg {
                            op,
                            class,
                            init_zero: false,
                        });
                    } else {
                        constraints.push(class.letter().to_string());
                        inputs.push(Input::Reg { op, class, ty });
                    }
                    if byte {
                        let e = format!("e{}", b8_locals.len());
                        if dest {
                            b8_after.push(format!("cvt.u32.u8 %{op}, {e};"));
                        } else {
                            b8_before.push(format!("cvt.u8.u32 {e}, %{op};"));
                        }
                        names.push(e.clone());
                        b8_locals.push(e);
                    } else {
                        names.push(format!("%{op}"));
                    }
                }
                texts.push(format!("{{{}}}", names.join(", ")));
            }
            OperandKind::Address(slot) => {
                let op = constraints.len();
                let space = slot
                    .as_ref()
                    .and_then(|s| bindings.get(s).cloned().flatten());
                mem_space = MemSpace::of(space.as_deref())?;
                constraints.push(mem_space.constraint().to_string());
                let (n, ty) = data_ty?;
                let bytes = (n * ty.bits() as usize).div_ceil(8);
                if is_store {
                    outputs.push(Output::Mem {
                        bytes: STORE_READBACK,
                    });
                } else if is_rmw {
                    inputs.push(Input::Mem {
                        op,
                        bytes,
                        elem: ty,
                    });
                    outputs.push(Output::Mem { bytes });
                } else {
                    inputs.push(Input::Mem {
                        op,
                        bytes,
                        elem: ty,
                    });
                }
                texts.push(format!("[%{op}]"));
            }
        }
    }
    let mut instr = if texts.is_empty() {
        format!("{instr_name};")
    } else {
        format!("{instr_name} {};", texts.join(", "))
    };
    if carry_in {
        let op = constraints.len();
        constraints.push("r".to_string());
        inputs.push(Input::Reg {
            op,
            class: RegClass::R,
            ty: PtxType::U(32),
        });
        instr = format!("add.cc.u32 c, %{op}, 0xffffffff; {instr}");
    }
    if carry_out {
        instr = format!("{instr} addc.u32 %0, 0, 0;");
    }
    let ptx = if pred_dests.is_empty() && pred_srcs.is_empty() && b8_locals.is_empty() && !carry_in
    {
        instr
    } else {
        let mut decls = Vec::new();
        let preds: Vec<&str> = pred_dests
            .iter()
            .chain(&pred_srcs)
            .map(|(n, _)| n.as_str())
            .collect();
        if !preds.is_empty() {
            decls.push(format!(".reg .pred {};", preds.join(", ")));
        }
        if !b8_locals.is_empty() {
            decls.push(format!(".reg .b8 {};", b8_locals.join(", ")));
        }
        if carry_in {
            decls.push(".reg .u32 c;".to_string());
        }
        let mut s = format!("{{ {}", decls.join(" "));
        for (name, op) in &pred_srcs {
            s.push_str(&format!(" setp.ne.u32 {name}, %{op}, 0;"));
        }
        for b in &b8_before {
            s.push(' ');
            s.push_str(b);
        }
        s.push(' ');
        s.push_str(&instr);
        for (name, op) in &pred_dests {
            s.push_str(&format!(" @{name} mov.u32 %{op}, 1;"));
        }
        for b in &b8_after {
            s.push(' ');
            s.push_str(b);
        }
        s.push_str(" }");
        s
    };
    let tolerance = rule
        .approximate
        .then(|| (rule.max_ulp.unwrap_or(0), rule.abs_tol.unwrap_or(0.0)));
    Some(CanonicalForm {
        rule: rule.code.clone(),
        seed_code: rule.formerly.clone().unwrap_or_else(|| rule.code.clone()),
        family: rule.family.clone(),
        form,
        ptx,
        constraints,
        inputs,
        outputs,
        variants,
        tolerance,
        mem_space,
    })
}

/// The element count of a modifier-sized vector operand in a form (1: a scalar).
fn slot_width(bindings: &ptx2hip_core::rules::Bindings, slot: &str) -> u32 {
    ptx2hip_core::rules::vector_width(bindings.get(slot).and_then(|v| v.as_deref())).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(rules: &RuleSet, code: &str, name: &str) -> CanonicalForm {
        rule_forms(rules.rule(code).unwrap())
            .into_iter()
            .find(|f| f.form == name)
            .unwrap()
    }

    #[test]
    fn a_rule_with_an_operand_left_out_has_a_canonical_statement_per_operand_count() {
        let table = r#"family = "t"
[[rule]]
code = "X001"
name = "x"
summary = "x"
doc = "x"
opcode = "add"
slots = [{ name = "T", values = ["u32"] }]
operands = ["d:T", "a:u32", "b:u32 = 1"]
portable = "{d} = {a} + {b};"
example = { ptx = "add.u32 %0, %1;", constraints = "=r,r" }
"#;
        let rules = RuleSet::from_sources([("t.toml".to_string(), table.to_string())]).unwrap();
        let forms = rule_forms(rules.rule("X001").unwrap());
        let statements: Vec<(&str, &str)> = forms
            .iter()
            .map(|f| (f.form.as_str(), f.ptx.as_str()))
            .collect();
        assert_eq!(
            statements,
            [
                ("add.u32 [2 operands]", "add.u32 %0, %1;"),
                ("add.u32", "add.u32 %0, %1, %2;")
            ]
        );
        assert_eq!(forms[0].constraints, ["=r", "r"]);
    }

    #[test]
    fn canonical_statements() {
        let rules = RuleSet::embedded().unwrap();
        let f = form(&rules, "I005", "setp.lo.u16");
        assert_eq!(
            f.ptx,
            "{ .reg .pred p; setp.lo.u16 p, %1, %2; @p mov.u32 %0, 1; }"
        );
        assert_eq!(f.constraints, ["+r", "h", "h"]);
        let f = form(&rules, "M001", "ld.global.v4.u32");
        assert_eq!(f.ptx, "ld.global.v4.u32 {%0, %1, %2, %3}, [%4];");
        assert_eq!((f.in_bytes(), f.out_bytes()), (16, 16));
        let f = form(&rules, "M001", "ld.shared.v2.u8");
        assert_eq!(
            f.ptx,
            "{ .reg .b8 e0, e1; ld.shared.v2.u8 {e0, e1}, [%2]; cvt.u32.u8 %0, e0; cvt.u32.u8 %1, e1; }"
        );
        assert_eq!(
            (f.constraints[2].as_str(), f.mem_space),
            ("r", MemSpace::Shared)
        );
        let f = form(&rules, "M003", "st.b128");
        assert_eq!(f.constraints, ["l", "q"]);
        // Hint modifiers are matched but not enumerated.
        assert!(!rule_forms(rules.rule("M001").unwrap())
            .iter()
            .any(|f| f.form.contains(".cs") || f.form.contains(".weak")));
        let f = form(&rules, "M003", "st.u8");
        assert_eq!(
            (f.ptx.as_str(), f.out_bytes()),
            ("st.u8 [%0], %1;", STORE_READBACK)
        );
        let f = form(&rules, "C002", "cvt.rni.sat.s8.f16");
        assert_eq!(f.constraints, ["=r", "h"]);
        assert_eq!(crate::inputs::vectors(&f).len(), 65536);
        let f = form(&rules, "I004", "mov.pred");
        assert!(f.ptx.contains("setp.ne.u32 q, %1, 0; mov.pred p, q;"));
        let f = form(&rules, "B012", "lop3.b32 [lut=0x96]");
        assert_eq!(f.ptx, "lop3.b32 %0, %1, %2, %3, 0x96;");
        assert_eq!(rule_forms(rules.rule("B012").unwrap()).len(), 256);
        let f = form(&rules, "P004", "setp.eq.and.f32");
        assert_eq!(
            f.ptx,
            "{ .reg .pred p, p1, q; setp.ne.u32 q, %4, 0; setp.eq.and.f32 p|p1, %2, %3, q; @p mov.u32 %0, 1; @p1 mov.u32 %1, 1; }"
        );
        assert_eq!(f.constraints, ["+r", "+r", "f", "f", "r"]);
        assert!(rules
            .rules
            .iter()
            .filter(|r| r.unverifiable.is_some())
            .all(|r| !all_forms(&rules).iter().any(|f| f.rule == r.code)));
    }
}
