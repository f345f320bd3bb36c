//! Composes the instructions of one asm statement into one C++ block.
//!
//! The block reproduces inline-asm semantics: every input is read once before anything is
//! written, `.reg` temporaries become locals scoped like the PTX `{ }` they were declared in, `@p`
//! becomes `if`, forward and backward branches become `if` and `do/while`, and outputs are
//! written back once at the end — an output that some path does not write keeps its old value.
//! A single unguarded instruction is emitted in a direct form (`i = (uint32_t)j + (uint32_t)k;`)
//! because that is what a careful human would write and it is semantically identical there.
//!
//! This file frames the block (asm operands, `.reg` locals, reading inputs once, writing outputs
//! back); the stages it runs are beside it: [`control`] (guards, branches, loops), [`expand`]
//! (matching a rule and expanding its template; [`misfit`] says why none matches), [`binding`] (operands to C++ expressions as nvcc
//! binds them), [`address`] (memory operands, modifier-sized vectors) and [`names`] (local names
//! and literals).

use std::collections::HashSet;

use crate::codes::Code;
use crate::ptx::{self, Immediate, Instruction, Item, Reg};
use crate::scan::AsmStatement;

use super::convert::{convert, widen_into};
use super::helper_use::HelperUse;
use super::operands;
use super::{Settings, Target, Unsupported};
use crate::rules::template::{self, Template};
use crate::rules::{
    tensor_rank, vector_width, Bindings, OperandKind, OperandSpec, Role, Rule, RuleSet, Slot,
    TypeRef, TENSOR_MODEL,
};
use crate::vocabulary::code::Expr;
use crate::vocabulary::types::{constraint_register, CType, PtxType};

mod address;
mod binding;
mod control;
mod expand;
mod misfit;
mod names;

use binding::visit_regs;
pub use names::is_simple_expr;
use names::{immediate, operand_local_name, reg_text, sanitize, LocalNames};

/// What producing one source value read: the helpers its code calls, the asm operands
/// (indices) and the `.reg` locals (C++ names) it reads.
#[derive(Debug, Clone, Default)]
struct Reads {
    helpers: HelperUse,
    operands: Vec<usize>,
    locals: Vec<String>,
}

/// One line of generated code at a nesting depth.
pub type Line = (usize, String);

/// How an asm operand takes part in the statement.
#[derive(Debug, Clone, Copy, PartialEq)]
enum OpKind {
    Output,
    InOut,
    Input,
    /// `"n"`: a compile-time integer.
    Immediate,
}

#[derive(Debug, Clone)]
struct AsmOp {
    kind: OpKind,
    /// Register class from the constraint letter (absent for `n`).
    reg: Option<CType>,
    /// The constraint as written (`"=r"`), for messages.
    constraint: String,
    expr: String,
    /// Bound without the glue: its type is visible and what nvcc binds.
    direct: Option<operands::Direct>,
    name: Option<String>,
    /// C local holding the operand in block mode.
    local: String,
    used_as_source: bool,
    written: bool,
    written_unconditionally: bool,
}

#[derive(Debug, Clone)]
struct Local {
    ptx: String,
    c_name: String,
    ty: CType,
}

/// Result of lowering one statement's instructions.
pub struct Lowered {
    pub lines: Vec<Line>,
    pub rules: Vec<String>,
    /// The helpers the lines call (before their requirements).
    pub helpers: HelperUse,
}

pub struct Lowerer<'a> {
    rules: &'a RuleSet,
    target: Target,
    settings: Settings,
    ops: Vec<AsmOp>,
    scopes: Vec<Vec<Local>>,
    names: LocalNames,
    rule_codes: Vec<String>,
    /// The helpers the code produced so far calls.
    helpers: HelperUse,
    /// The `.reg` locals (C++ names) some emitted code reads.
    read_locals: HashSet<String>,
    direct: bool,
    touches_memory: bool,
    temps: usize,
    /// Nesting of `if`/loops around the instruction being lowered (for definite-write tracking).
    conditional_depth: usize,
    /// Per `do { } while` loop being lowered, innermost last: the label right after its backward
    /// branch, which a branch of its body reaches with `break` (`LAB_WAIT: ...; @p bra DONE;
    /// bra LAB_WAIT; DONE:`, CUTLASS's mbarrier wait).
    loop_exits: Vec<LoopExit>,
    /// Some instruction uses the carry flag: the block declares it.
    uses_carry: bool,
    /// An earlier instruction (in statement order) wrote the carry flag.
    carry_set: bool,
    /// The last carry written has not been read by a later instruction of the statement.
    carry_unconsumed: bool,
    /// The PTX text parsed (for literals as written).
    ptx: Option<&'a str>,
}

/// The template placeholder of the carry flag and the local that holds it.
const CARRY: &str = "CF";
const CARRY_LOCAL: &str = "p2h_cf";

impl<'a> Lowerer<'a> {
    pub fn new(
        stmt: &AsmStatement,
        rules: &'a RuleSet,
        settings: Settings,
    ) -> Result<Self, Unsupported> {
        let target = settings.target;
        let mut names = LocalNames::default();
        let mut ops = Vec::new();
        for (i, op) in stmt.operands().enumerate() {
            let c = op.constraint.as_str();
            let (kind, letters) = if let Some(rest) = c.strip_prefix('=') {
                (OpKind::Output, rest.trim_start_matches('&'))
            } else if let Some(rest) = c.strip_prefix('+') {
                (OpKind::InOut, rest.trim_start_matches('&'))
            } else {
                (OpKind::Input, c)
            };
            let (kind, reg) = match letters {
                "n" | "i" if kind == OpKind::Input => (OpKind::Immediate, None),
                "C" => (OpKind::Immediate, None),
                l if l.chars().count() == 1 => {
                    let letter = l.chars().next().unwrap_or(' ');
                    match constraint_register(letter) {
                        Some(r) => (kind, Some(r)),
                        None => {
                            return Err(Unsupported::new(Code::OperandBinding, format!(
                                "operand %{i} has constraint \"{c}\", which is not an NVIDIA PTX register constraint (h r l q f d n C)"
                            )))
                        }
                    }
                }
                _ => {
                    return Err(Unsupported::new(
                        Code::OperandBinding,
                        format!(
                    "operand %{i} has constraint \"{c}\": exactly one constraint letter is allowed"
                ),
                    ))
                }
            };
            if let (OpKind::Input | OpKind::InOut, Some(r)) = (kind, reg) {
                if let Some(why) = operands::literal_rejected(r, &op.expr) {
                    return Err(Unsupported::new(
                        Code::OperandBinding,
                        format!("operand %{i} \"{c}\": {why}"),
                    ));
                }
            }
            // The glue would refuse it at compile time; where the file shows the type, say so.
            if let (Some(r), Some(ty)) = (reg, op.visible_type.as_ref()) {
                if let Some(why) = operands::type_rejected(r, &ty.name) {
                    return Err(Unsupported::new(
                        Code::OperandBinding,
                        format!("operand %{i} \"{c}\" `{}`: {why}", op.expr.trim()),
                    ));
                }
            }
            let local = names.fresh(&operand_local_name(op.name.as_deref(), &op.expr, i));
            ops.push(AsmOp {
                kind,
                reg,
                constraint: c.to_string(),
                expr: op.expr.trim().to_string(),
                direct: reg
                    .and_then(|r| operands::Direct::of(r, &op.expr, op.visible_type.as_ref())),
                name: op.name.clone(),
                local,
                used_as_source: false,
                written: false,
                written_unconditionally: false,
            });
        }
        Ok(Lowerer {
            rules,
            target,
            settings,
            ops,
            scopes: vec![Vec::new()],
            names,
            rule_codes: Vec::new(),
            direct: false,
            touches_memory: false,
            temps: 0,
            conditional_depth: 0,
            loop_exits: Vec::new(),
            uses_carry: false,
            carry_set: false,
            carry_unconsumed: false,
            ptx: None,
            helpers: HelperUse::default(),
            read_locals: HashSet::new(),
        })
    }

    /// Lowers a parsed template into a C++ block (or a single statement in direct form).
    /// Literals of `ptx` (the text being lowered) are emitted as written there.
    pub fn spelled(mut self, ptx: &'a str) -> Self {
        self.ptx = Some(ptx);
        self
    }

    pub fn lower(
        mut self,
        block: &ptx::Block,
        stmt: &AsmStatement,
    ) -> Result<Lowered, Unsupported> {
        let flat = single_instruction(block);
        self.direct = flat.is_some_and(|ins| self.direct_form_allowed(ins));
        let mut body = Vec::new();
        if self.direct {
            let ins = flat.expect("checked above");
            self.instruction(ins, 0, &mut body)?;
        } else {
            self.block_items(&block.items, 1, &mut body)?;
            body.extend(self.unread_locals(1));
        }
        if self.carry_unconsumed {
            // On NVIDIA a following asm statement can read this flag (code relies on it when the
            // compiler keeps the statements adjacent); a translation would silently drop it.
            return Err(Unsupported::new(
                Code::CarryChain,
                "the statement leaves a carry flag that nothing in it reads, for a later asm statement: write the whole carry chain in one asm statement to translate it".into(),
            ));
        }
        if self.uses_carry {
            let depth = usize::from(!self.direct);
            body.insert(0, (depth, format!("uint32_t {CARRY_LOCAL} = 0;")));
        }
        if self.direct {
            // nvcc evaluates (and type-checks) an input the template never reads.
            let unused: Vec<Line> = self.unused_inputs().into_iter().map(|l| (0, l)).collect();
            body.splice(0..0, unused);
        }
        let barrier = (stmt.has_clobber("memory") || (stmt.is_volatile() && self.touches_memory))
            && !super::barrier::fences_only(&body);
        let mut lines = Vec::new();
        if self.direct {
            let multi = body.len() > 1 || barrier;
            let depth = usize::from(multi);
            if multi {
                lines.push((0, "{".to_string()));
            }
            if barrier {
                lines.push((depth, COMPILER_BARRIER.to_string()));
            }
            lines.extend(body.into_iter().map(|(d, l)| (d + depth, l)));
            if barrier {
                lines.push((depth, COMPILER_BARRIER.to_string()));
            }
            if multi {
                lines.push((0, "}".to_string()));
            }
        } else {
            lines.push((0, "{".to_string()));
            if barrier {
                lines.push((1, COMPILER_BARRIER.to_string()));
            }
            for op in &self.ops {
                let Some(reg) = op.reg else { continue };
                let mut read = || operands::read(reg, &op.expr, op.direct, &mut self.helpers);
                match op.kind {
                    OpKind::Input | OpKind::InOut
                        if op.used_as_source || (op.kind == OpKind::InOut && op.written) =>
                    {
                        lines.push((1, format!("{reg} {} = {};", op.local, read())));
                    }
                    OpKind::Output if op.written_unconditionally => {
                        lines.push((1, format!("{reg} {};", op.local)));
                    }
                    OpKind::Output if op.written => {
                        // A path may skip the write: the output keeps its value.
                        lines.push((1, format!("{reg} {} = {};", op.local, read())));
                    }
                    _ => {}
                }
            }
            lines.extend(self.unused_inputs().into_iter().map(|l| (1, l)));
            lines.extend(body);
            for op in &self.ops {
                if let (OpKind::Output | OpKind::InOut, true, Some(reg)) =
                    (op.kind, op.written, op.reg)
                {
                    let target = operands::write(reg, reg, &op.expr, op.direct, &mut self.helpers);
                    lines.push((1, format!("{target} = {};", op.local)));
                }
            }
            if barrier {
                lines.push((1, COMPILER_BARRIER.to_string()));
            }
            lines.push((0, "}".to_string()));
        }
        Ok(Lowered {
            lines,
            rules: self.rule_codes,
            helpers: self.helpers,
        })
    }

    /// `(void)` reads of the inputs no emitted code reads: nvcc evaluates an input whatever the
    /// PTX does with it, and a variable only the asm statement read must stay used (`-Wall
    /// -Wextra`: an unused parameter or variable). An expression that may have an effect is read
    /// through the glue, as nvcc evaluates it; a name is only named.
    fn unused_inputs(&mut self) -> Vec<String> {
        let helpers = &mut self.helpers;
        self.ops
            .iter()
            .filter_map(|op| match (op.kind, op.reg) {
                (OpKind::Input, Some(_)) if op.used_as_source => None,
                (OpKind::Input, Some(_)) if is_simple_expr(&op.expr) => {
                    // A literal is no variable to keep used.
                    (!op.expr.starts_with(|c: char| c.is_ascii_digit()))
                        .then(|| format!("(void){};", op.expr))
                }
                (OpKind::Input, Some(reg)) => Some(format!(
                    "(void){};",
                    operands::read(reg, &op.expr, op.direct, helpers)
                )),
                _ => None,
            })
            .collect()
    }

    /// `(void)` uses, at the end of the innermost scope, of its `.reg` locals no emitted code
    /// reads (a register PTX only writes, such as a `createpolicy` result that a cache hint
    /// ignores), which `-Wall` would report as unused or set but not used.
    fn unread_locals(&self, depth: usize) -> Vec<Line> {
        let scope = self.scopes.last().expect("scope stack never empty");
        scope
            .iter()
            .filter(|l| !self.read_locals.contains(&l.c_name))
            .map(|l| (depth, format!("(void){};", l.c_name)))
            .collect()
    }

    /// Records that emitted code reads register `r`, when it is a `.reg` local.
    fn mark_read(&mut self, r: &Reg) {
        if let Reg::Ident {
            name,
            component: None,
        } = r
        {
            if let Some(l) = self.local(name) {
                let c_name = l.c_name.clone();
                self.read_locals.insert(c_name);
            }
        }
    }

    /// Direct form is exact when there is one unguarded instruction and reading an input
    /// expression in place cannot evaluate it twice or after an output was written.
    fn direct_form_allowed(&self, ins: &Instruction) -> bool {
        if ins.guard.is_some() || ins.opcode == BRANCH {
            return false;
        }
        let mut uses = vec![0usize; self.ops.len()];
        let mut count = |r: &Reg| {
            if let Some(i) = self.asm_index(r) {
                uses[i] += 1;
            }
        };
        for op in &ins.operands {
            visit_regs(op, &mut count);
        }
        self.ops
            .iter()
            .zip(&uses)
            .all(|(op, &n)| n <= 1 || is_simple_expr(&op.expr))
    }

    fn declare(
        &mut self,
        decl: &ptx::RegDecl,
        depth: usize,
        out: &mut Vec<Line>,
    ) -> Result<(), Unsupported> {
        if decl.space != "reg" {
            return Err(Unsupported::at(
                Code::RegisterDeclaration,
                format!(
                    "`.{}` variables inside asm are not translated (only `.reg`)",
                    decl.space
                ),
                decl.span.start,
            ));
        }
        if decl.vector.is_some() {
            return Err(Unsupported::at(
                Code::RegisterDeclaration,
                "vector `.reg` declarations are not translated yet".into(),
                decl.span.start,
            ));
        }
        if decl.align.is_some() || !decl.array.is_empty() {
            return Err(Unsupported::at(
                Code::RegisterDeclaration,
                "`.align` and array `.reg` declarations are not translated".into(),
                decl.span.start,
            ));
        }
        let ty = PtxType::parse(&decl.ty).ok_or_else(|| {
            Unsupported::at(
                Code::RegisterDeclaration,
                format!("`.reg .{}` has a type ptx2hip does not model", decl.ty),
                decl.span.start,
            )
        })?;
        let cty = ty.c_type();
        for name in &decl.names {
            let c_name = self.names.fresh(&format!("p2h_{}", sanitize(name)));
            out.push((depth, format!("{cty} {c_name};")));
            self.scopes
                .last_mut()
                .expect("scope stack never empty")
                .push(Local {
                    ptx: name.clone(),
                    c_name,
                    ty: cty,
                });
        }
        Ok(())
    }

    fn local(&self, ptx_name: &str) -> Option<&Local> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|l| l.ptx == ptx_name)
    }

    fn asm_index(&self, r: &Reg) -> Option<usize> {
        match r {
            Reg::AsmOperand(i) if *i < self.ops.len() => Some(*i),
            Reg::AsmNamed(n) => self
                .ops
                .iter()
                .position(|o| o.name.as_deref() == Some(n.as_str())),
            _ => None,
        }
    }

    fn temp(&mut self) -> String {
        self.temps += 1;
        self.names.fresh(&format!("p2h_t{}", self.temps))
    }
}

/// The label right after a `do { } while` loop, which a branch of its body reaches by `break`.
struct LoopExit {
    label: Option<String>,
    /// Some branch of the body breaks to it.
    taken: bool,
}

/// The branch opcode: structured into `if` and `do { } while` ([`control`]), not translated by a
/// rule.
pub const BRANCH: &str = "bra";

/// The compiler barrier that keeps a `volatile`/`"memory"` statement's ordering; an empty asm is
/// portable to every compiler ptx2hip targets.
pub const COMPILER_BARRIER: &str = "asm volatile(\"\" ::: \"memory\");";

fn single_instruction(block: &ptx::Block) -> Option<&Instruction> {
    match block.items.as_slice() {
        [Item::Instruction(i)] => Some(i),
        [Item::Scope { block, .. }] => single_instruction(block),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::lower::{analyze, RuleSet, Target};
    use crate::scan::AsmStatement;

    /// The translation (one string) of `ptx` with operands `(constraint, expression)`.
    pub(super) fn translate(ptx: &str, operands: &[(&str, &str)]) -> Result<String, String> {
        translate_for(Target::Portable, ptx, operands)
    }

    pub(super) fn translate_for(
        target: Target,
        ptx: &str,
        operands: &[(&str, &str)],
    ) -> Result<String, String> {
        let stmt = AsmStatement::synthetic_with(ptx, operands);
        let rules = RuleSet::embedded().unwrap();
        analyze(&stmt, &rules, target)
            .outcome
            .map(|t| {
                let lines: Vec<&str> = t.lines.iter().map(|(_, l)| l.as_str()).collect();
                lines.join("\n")
            })
            .map_err(|u| u.message)
    }

    #[test]
    fn block_form_binds_operands_once_through_the_glue() {
        let code = translate(
            "{ .reg .u32 t; add.u32 t, %1, 1; mul.lo.u32 %0, t, t; }",
            &[("=r", "y"), ("r", "x")],
        )
        .unwrap();
        assert!(code.contains("uint32_t p2h_x = ptx2hip_in_r(x);"), "{code}");
        assert!(code.contains("ptx2hip_out_r(y) = p2h_y;"), "{code}");
    }

    #[test]
    fn immediates_take_nvccs_value_and_literals_nvcc_rejects_are_refused() {
        let code = translate(
            "and.b64 %0, %1, %2;",
            &[("=l", "d"), ("l", "x"), ("n", "0xFFFFFFFFu")],
        )
        .unwrap();
        assert!(code.contains("(uint64_t)0xffffffffffffffffull"), "{code}");
        let code = translate(
            "and.b64 %0, %1, %2;",
            &[("=l", "d"), ("l", "x"), ("n", "M")],
        )
        .unwrap();
        assert!(code.contains("ptx2hip_imm<uint64_t>(M)"), "{code}");
        let err = translate("add.u16 %0, %1, 1;", &[("=h", "d"), ("h", "0")]).unwrap_err();
        assert!(
            err.contains("nvcc rejects the 4-byte integer literal `0`"),
            "{err}"
        );
    }

    #[test]
    fn an_input_the_template_never_reads_is_still_evaluated() {
        let code = translate("mov.u32 %0, 1;", &[("=r", "d"), ("r", "f()")]).unwrap();
        assert!(code.contains("(void)ptx2hip_in_r(f());"), "{code}");
        // A name has no effect to keep, but stays used (-Wunused-parameter).
        let code = translate("mov.u32 %0, 1;", &[("=r", "d"), ("r", "x")]).unwrap();
        assert_eq!(code, "{\n(void)x;\nptx2hip_out_r(d) = (uint32_t)1;\n}");
    }

    #[test]
    fn an_operand_the_template_ignores_is_neither_bound_nor_left_unused() {
        // shfl.sync's member mask: bound to no local (-Wunused-variable), but still named.
        let code = translate_for(
            Target::Amd,
            "{ shfl.sync.idx.b32 %0, %1, %2, 31, %3; }",
            &[("=r", "d"), ("r", "v"), ("r", "lane"), ("r", "mask")],
        )
        .unwrap();
        assert!(!code.contains("p2h_mask"), "{code}");
        assert!(code.contains("(void)mask;"), "{code}");
    }

    #[test]
    fn a_register_only_written_is_used_at_the_end_of_its_scope() {
        // The cache policy the hinted load ignores: set, never read (-Wunused-but-set-variable).
        let code = translate(
            "{ .reg .b64 p; createpolicy.fractional.L2::evict_last.b64 p, 1.0; \
             ld.global.L2::cache_hint.u32 %0, [%1], p; }",
            &[("=r", "v"), ("l", "a")],
        )
        .unwrap();
        assert!(
            code.contains("(void)p2h_p;\n}\nptx2hip_out_r(v) = p2h_v;"),
            "{code}"
        );
        // A register something reads is not.
        let code = translate(
            "{ .reg .u32 t; add.u32 t, %1, 1; mov.u32 %0, t; }",
            &[("=r", "v"), ("r", "a")],
        )
        .unwrap();
        assert!(!code.contains("(void)p2h_t"), "{code}");
    }

    #[test]
    fn a_discarded_result_is_used() {
        let code = translate(
            "{ .reg .pred p; setp.eq.u32 p|_, %1, 0; selp.u32 %0, 1, 0, p; }",
            &[("=r", "v"), ("r", "a")],
        )
        .unwrap();
        assert!(code.contains("(void)p2h_t1;"), "{code}");
    }
}
