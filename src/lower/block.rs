//! Composes the instructions of one asm statement into one C++ block.
//!
//! The block reproduces inline-asm semantics: every input is read once before anything is
//! written, `.reg` temporaries become locals scoped like the PTX `{ }` they were declared in, `@p`
//! becomes `if`, forward and backward branches become `if` and `do/while`, and outputs are
//! written back once at the end — an output that some path does not write keeps its old value.
//! A single unguarded instruction is emitted in a direct form (`i = (uint32_t)j + (uint32_t)k;`)
//! because that is what a careful human would write and it is semantically identical there.

use std::collections::HashSet;

use crate::codes::Code;
use crate::ptx::{self, Immediate, Instruction, Item, Reg};
use crate::scan::AsmStatement;

use super::operands;
use super::rules::{vector_width, Bindings, OperandKind, Rule, RuleSet, TypeRef};
use super::template;
use super::types::{constraint_register, convert, widen_into, CType, PtxType};
use super::{Target, Unsupported};

mod address;

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
}

pub struct Lowerer<'a> {
    rules: &'a RuleSet,
    target: Target,
    ops: Vec<AsmOp>,
    scopes: Vec<Vec<Local>>,
    taken: HashSet<String>,
    rule_codes: Vec<String>,
    direct: bool,
    touches_memory: bool,
    temps: usize,
    /// Nesting of `if`/loops around the instruction being lowered (for definite-write tracking).
    conditional_depth: usize,
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
        target: Target,
    ) -> Result<Self, Unsupported> {
        let mut taken = HashSet::new();
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
            let local = unique_name(
                &mut taken,
                &operand_local_name(op.name.as_deref(), &op.expr, i),
            );
            ops.push(AsmOp {
                kind,
                reg,
                constraint: c.to_string(),
                expr: op.expr.trim().to_string(),
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
            ops,
            scopes: vec![Vec::new()],
            taken,
            rule_codes: Vec::new(),
            direct: false,
            touches_memory: false,
            temps: 0,
            conditional_depth: 0,
            uses_carry: false,
            carry_set: false,
            carry_unconsumed: false,
            ptx: None,
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
            let unused: Vec<Line> = self.unused_inputs().map(|l| (0, l)).collect();
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
                let read = operands::read(reg, &op.expr);
                match op.kind {
                    OpKind::Input | OpKind::InOut
                        if op.used_as_source || (op.kind == OpKind::InOut && op.written) =>
                    {
                        lines.push((1, format!("{reg} {} = {read};", op.local)));
                    }
                    OpKind::Output if op.written_unconditionally => {
                        lines.push((1, format!("{reg} {};", op.local)));
                    }
                    OpKind::Output if op.written => {
                        // A path may skip the write: the output keeps its value.
                        lines.push((1, format!("{reg} {} = {read};", op.local)));
                    }
                    _ => {}
                }
            }
            lines.extend(self.unused_inputs().map(|l| (1, l)));
            lines.extend(body);
            for op in &self.ops {
                if let (OpKind::Output | OpKind::InOut, true, Some(reg)) =
                    (op.kind, op.written, op.reg)
                {
                    let target = operands::write(reg, &op.expr);
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
        })
    }

    /// `(void)` reads of the inputs no instruction reads whose evaluation may have an effect.
    fn unused_inputs(&self) -> impl Iterator<Item = String> + '_ {
        self.ops.iter().filter_map(|op| match (op.kind, op.reg) {
            (OpKind::Input, Some(reg)) if !op.used_as_source && !is_simple_expr(&op.expr) => {
                Some(format!("(void){};", operands::read(reg, &op.expr)))
            }
            _ => None,
        })
    }

    /// Direct form is exact when there is one unguarded instruction and reading an input
    /// expression in place cannot evaluate it twice or after an output was written.
    fn direct_form_allowed(&self, ins: &Instruction) -> bool {
        if ins.guard.is_some() || ins.opcode == "bra" {
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

    fn block_items(
        &mut self,
        items: &[Item],
        depth: usize,
        out: &mut Vec<Line>,
    ) -> Result<(), Unsupported> {
        let mut i = 0;
        while i < items.len() {
            match &items[i] {
                Item::RegDecl(decl) => self.declare(decl, depth, out)?,
                Item::Scope { block, .. } => {
                    out.push((depth, "{".to_string()));
                    self.scopes.push(Vec::new());
                    self.block_items(&block.items, depth + 1, out)?;
                    self.scopes.pop();
                    out.push((depth, "}".to_string()));
                }
                Item::Label { name, span } => {
                    // A label some later `bra` jumps back to opens a loop.
                    if let Some(end) = backward_branch(items, i, name) {
                        let Item::Instruction(bra) = &items[end] else {
                            unreachable!()
                        };
                        out.push((depth, "do {".to_string()));
                        self.conditional_depth += 1;
                        self.block_items(&items[i + 1..end], depth + 1, out)?;
                        self.conditional_depth -= 1;
                        let cond = match &bra.guard {
                            Some(g) => self.guard_condition(g)?,
                            None => "true".to_string(),
                        };
                        out.push((depth, format!("}} while ({cond});")));
                        i = end + 1;
                        continue;
                    }
                    if is_branch_target(items, name) {
                        return Err(Unsupported::at(
                            Code::ControlFlow,
                            format!("label `{name}` is reached by a branch ptx2hip cannot turn into structured control flow"),
                            span.start,
                        ));
                    }
                }
                Item::Instruction(ins) if ins.opcode == "bra" => {
                    let target = branch_target(ins).ok_or_else(|| {
                        Unsupported::at(
                            Code::ControlFlow,
                            "`bra` without a label target".to_string(),
                            ins.span.start,
                        )
                    })?;
                    let Some(label_at) = label_index(items, target).filter(|&j| j > i) else {
                        return Err(Unsupported::at(
                            Code::ControlFlow,
                            format!("branch to `{target}` crosses a `{{ }}` scope or jumps backwards into a loop ptx2hip cannot structure"),
                            ins.span.start,
                        ));
                    };
                    if items[i + 1..label_at]
                        .iter()
                        .any(|it| matches!(it, Item::Label { .. }))
                    {
                        return Err(Unsupported::at(
                            Code::ControlFlow,
                            format!("branch to `{target}` skips over another label"),
                            ins.span.start,
                        ));
                    }
                    // Forward branch: the skipped items run only when the branch is not taken.
                    if let Some(g) = &ins.guard {
                        let cond = self.guard_condition(g)?;
                        out.push((depth, format!("if (!({cond})) {{")));
                        self.conditional_depth += 1;
                        self.block_items(&items[i + 1..label_at], depth + 1, out)?;
                        self.conditional_depth -= 1;
                        out.push((depth, "}".to_string()));
                    }
                    i = label_at + 1;
                    continue;
                }
                Item::Instruction(ins) => self.instruction(ins, depth, out)?,
                Item::Pragma { span, .. } => {
                    return Err(Unsupported::at(
                        Code::DeclinedForm,
                        "`.pragma` directives are not translated".into(),
                        span.start,
                    ))
                }
            }
            i += 1;
        }
        Ok(())
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
            let c_name = unique_name(&mut self.taken, &format!("p2h_{}", sanitize(name)));
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

    fn instruction(
        &mut self,
        ins: &Instruction,
        depth: usize,
        out: &mut Vec<Line>,
    ) -> Result<(), Unsupported> {
        let (rule, bindings) = self.find_rule(ins)?;
        let guarded = ins.guard.is_some();
        if guarded {
            self.conditional_depth += 1;
        }
        let result = self.expand_rule(rule, &bindings, ins);
        if guarded {
            self.conditional_depth -= 1;
        }
        let (code, post) = result?;
        if rule.memory {
            self.touches_memory = true;
        }
        if !self.rule_codes.contains(&rule.code) {
            self.rule_codes.push(rule.code.clone());
        }
        let mut stmts: Vec<String> = code
            .lines()
            .map(|l| l.trim_end().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        stmts.extend(post);
        match &ins.guard {
            Some(g) => {
                let cond = self.guard_condition(g)?;
                out.push((depth, format!("if ({cond}) {{")));
                out.extend(stmts.into_iter().map(|s| (depth + 1, s)));
                out.push((depth, "}".to_string()));
            }
            None => out.extend(stmts.into_iter().map(|s| (depth, s))),
        }
        Ok(())
    }

    fn find_rule(&self, ins: &Instruction) -> Result<(&'a Rule, Bindings), Unsupported> {
        let form = ins.form();
        let mut shape_mismatch = None;
        for rule in self.rules.rules_for(&ins.opcode) {
            if let Some(b) = rule.match_modifiers(&ins.modifiers) {
                if operands_fit(rule, &b, &ins.operands) {
                    if let (Target::Portable, Some(why)) = (self.target, &rule.portable_unsupported)
                    {
                        return Err(Unsupported::at(
                            Code::NoPortableTranslation,
                            format!("`{form}` has no --target portable translation: {why}"),
                            ins.span.start,
                        )
                        .with_instruction(&form));
                    }
                    return Ok((rule, b));
                }
                shape_mismatch.get_or_insert(rule);
            }
        }
        let at = ins.span.start;
        if let Some(reason) = self.rules.unsupported_reason(&ins.opcode, &ins.modifiers) {
            return Err(
                Unsupported::at(Code::DeclinedForm, format!("`{form}`: {reason}"), at)
                    .with_instruction(&form),
            );
        }
        if let Some(rule) = shape_mismatch {
            return Err(Unsupported::at(
                Code::OperandShape,
                format!(
                    "`{form}` has operands of a shape rule {} does not translate ({})",
                    rule.code,
                    rule.operands.join(", ")
                ),
                at,
            )
            .with_instruction(&form));
        }
        let known = self.rules.rules_for(&ins.opcode).next().is_some();
        let (code, msg) = if known {
            (Code::ModifierCombination, format!("no rule translates `{form}` (this combination of modifiers is not in the rule table)"))
        } else {
            (
                Code::UnknownInstruction,
                format!("unknown instruction `{}`: no rule in the table", ins.opcode),
            )
        };
        Err(Unsupported::at(code, msg, at).with_instruction(&form))
    }

    /// Expands a rule's template for one instruction; returns the code and the statements that
    /// move converted destination temporaries into their registers.
    fn expand_rule(
        &mut self,
        rule: &Rule,
        bindings: &Bindings,
        ins: &Instruction,
    ) -> Result<(String, Vec<String>), Unsupported> {
        let at = ins.span.start;
        let mut values: Vec<(String, Option<String>, String)> = Vec::new();
        let mut pre: Vec<String> = Vec::new();
        let mut post: Vec<String> = Vec::new();
        let specs = rule.operand_specs();
        let template = rule.template(self.target);
        // Destinations are the leading operands the rule names `d`/`p` or marks as written by a
        // leading position; by convention a spec whose name starts with `d` or `p`... is written.
        for (spec, op) in specs.iter().zip(&ins.operands) {
            let writes = spec.name.starts_with('d') || spec.name == "p" || spec.name == "q";
            match &spec.kind {
                OperandKind::Pair(second, t1, t2) => {
                    let (ty1, ty2) = (
                        self.type_of(rule, t1, bindings, at)?,
                        self.type_of(rule, t2, bindings, at)?,
                    );
                    let ptx::Operand::PredPair(a, b) = op else {
                        unreachable!("shape checked")
                    };
                    // A sink `_` side is written to a temporary nobody reads.
                    let side = |r: &Option<Reg>| {
                        r.clone().map_or(ptx::Operand::Discard, ptx::Operand::Reg)
                    };
                    let (first, other) = (side(a), side(b));
                    self.check_register(&first, ty1, true, ins)?;
                    self.check_register(&other, ty2, true, ins)?;
                    let first = self.dest(&first, ty1.c_type(), false, &mut pre, &mut post, at)?;
                    let other = self.dest(&other, ty2.c_type(), false, &mut pre, &mut post, at)?;
                    values.push((spec.name.clone(), None, first));
                    values.push((second.clone(), None, other));
                }
                OperandKind::Address(slot) => {
                    let space = slot
                        .as_ref()
                        .and_then(|s| bindings.get(s).cloned().flatten());
                    let addr = self.address(op, space.as_deref(), at)?;
                    values.push((spec.name.clone(), None, addr));
                }
                OperandKind::SlotVector(slot, t) => {
                    let ty = self.type_of(rule, t, bindings, at)?;
                    let n =
                        vector_width(bindings.get(slot).and_then(|v| v.as_deref())).unwrap_or(1);
                    let (v, c_type) = if n == 1 {
                        self.check_register(op, ty, writes, ins)?;
                        let v = if writes {
                            let assigned = template::only_assigned(template, &spec.name, None);
                            self.dest(op, ty.c_type(), assigned, &mut pre, &mut post, at)?
                        } else {
                            self.source(op, ty.c_type(), at)?
                        };
                        (v, ty.c_type().to_string())
                    } else if writes {
                        self.vector_dest(op, ty.c_type(), &mut pre, &mut post, at)?
                    } else {
                        self.vector_source(op, ty.c_type(), at)?
                    };
                    values.push((spec.name.clone(), None, v));
                    values.push((spec.name.clone(), Some("type".to_string()), c_type));
                }
                OperandKind::Scalar(t) => {
                    let ty = self.type_of(rule, t, bindings, at)?;
                    self.check_register(op, ty, writes, ins)?;
                    let v = if writes {
                        let assigned = template::only_assigned(template, &spec.name, None);
                        self.dest(op, ty.c_type(), assigned, &mut pre, &mut post, at)?
                    } else {
                        self.source(op, ty.c_type(), at)?
                    };
                    values.push((spec.name.clone(), None, v));
                }
                OperandKind::Vector(n, t) => {
                    let ty = self.type_of(rule, t, bindings, at)?;
                    let ptx::Operand::Vector(elems) = op else {
                        unreachable!("shape checked")
                    };
                    if elems.len() as u32 != *n {
                        return Err(Unsupported::at(
                            Code::OperandShape,
                            format!(
                                "vector operand has {} elements, `{}` needs {n}",
                                elems.len(),
                                ins.form()
                            ),
                            at,
                        ));
                    }
                    for (k, e) in elems.iter().enumerate() {
                        self.check_register(e, ty, writes, ins)?;
                        let v = if writes {
                            let component = k.to_string();
                            let assigned =
                                template::only_assigned(template, &spec.name, Some(&component));
                            self.dest(e, ty.c_type(), assigned, &mut pre, &mut post, at)?
                        } else {
                            self.source(e, ty.c_type(), at)?
                        };
                        values.push((spec.name.clone(), Some(k.to_string()), v));
                    }
                }
            }
        }
        if let Some(carry) = rule.carry {
            if carry.reads() && !self.carry_set {
                return Err(Unsupported::at(
                    Code::CarryChain,
                    format!("`{}` reads a carry flag set outside this asm statement; ptx2hip translates carry chains only within one statement", ins.form()),
                    at,
                ));
            }
            self.uses_carry = true;
            self.carry_set |= carry.writes();
            if carry.reads() {
                self.carry_unconsumed = false;
            }
            if carry.writes() {
                self.carry_unconsumed = true;
            }
        }
        if let Some(ptx) = self.ptx {
            let names = specs.iter().map(|s| s.name.as_str());
            super::written::respell(ptx, ins, names, &mut values);
        }
        let literal_lop3 = super::lop3::literal_template(self.rules, rule, ins, &values);
        let template = literal_lop3.as_deref().unwrap_or(template);
        let code = template::expand(template, |name, attr| {
            if name == CARRY && attr.is_none() && rule.carry.is_some() {
                return Some(CARRY_LOCAL.to_string());
            }
            if let Some((_, _, v)) = values
                .iter()
                .find(|(n, a, _)| n == name && a.as_deref() == attr)
            {
                return Some(v.clone());
            }
            if let (Some(l), None) = (rule.lookup.get(name), attr) {
                let key = bindings.get(&l.slot)?.clone().unwrap_or_default();
                return l.values.get(&key).cloned();
            }
            let bound = bindings.get(name)?;
            let raw = bound.clone().unwrap_or_default();
            match (PtxType::parse(&raw), attr) {
                (Some(t), None) => Some(t.c_type().to_string()),
                (Some(t), Some("u")) => Some(t.c_type().unsigned().to_string()),
                (Some(t), Some("s")) => Some(t.c_type().signed().to_string()),
                (Some(t), Some("arith")) => Some(t.c_type().arith().to_string()),
                (Some(t), Some("bits")) => Some(t.bits().to_string()),
                (_, Some("name")) => Some(raw),
                (None, None) => Some(raw),
                _ => None,
            }
        })
        .map_err(|e| {
            Unsupported::at(
                Code::RuleTableError,
                format!("rule {} is malformed: {e}", rule.code),
                at,
            )
        })?;
        let code = super::plain_float::simplify(&code).unwrap_or(code);
        let mut code_lines = pre;
        code_lines.push(code);
        Ok((code_lines.join("\n"), post))
    }

    fn type_of(
        &self,
        rule: &Rule,
        t: &TypeRef,
        bindings: &Bindings,
        at: usize,
    ) -> Result<PtxType, Unsupported> {
        rule.resolve_type(t, bindings).ok_or_else(|| {
            Unsupported::at(
                Code::RuleTableError,
                format!("rule {} has an operand type it cannot resolve", rule.code),
                at,
            )
        })
    }

    /// Refuses an asm operand whose register ptxas would not accept for an instruction operand of
    /// type `ty` (a narrower destination would otherwise be silently truncated).
    fn check_register(
        &self,
        op: &ptx::Operand,
        ty: PtxType,
        writes: bool,
        ins: &Instruction,
    ) -> Result<(), Unsupported> {
        let (ptx::Operand::Reg(r) | ptx::Operand::NotReg(r)) = op else {
            return Ok(());
        };
        let Some(i) = self.asm_index(r) else {
            return Ok(());
        };
        let asm = &self.ops[i];
        let (Some(reg), false) = (asm.reg, ty == PtxType::Pred) else {
            return Ok(());
        };
        operands::register_fits(reg, ty, &ins.opcode).map_err(|why| {
            let form = ins.form();
            let what = if writes {
                "writes a result"
            } else {
                "reads an operand"
            };
            Unsupported::at(
                Code::OperandBinding,
                format!(
                    "operand %{i} \"{}\" is a {}-bit register, but `{form}` {what} of type .{ty} ({} bits) there: {why}",
                    asm.constraint,
                    reg.bits(),
                    ty.bits()
                ),
                ins.span.start,
            )
            .with_instruction(&form)
        })
    }

    /// A source operand as a C++ expression of type `want`.
    fn source(&mut self, op: &ptx::Operand, want: CType, at: usize) -> Result<String, Unsupported> {
        match op {
            ptx::Operand::Reg(r) => self.read_reg(r, want, at),
            ptx::Operand::NotReg(r) if want == CType::Bool => {
                Ok(format!("!{}", self.read_reg(r, want, at)?))
            }
            ptx::Operand::Imm(imm) => immediate(imm, want).ok_or_else(|| {
                Unsupported::at(
                    Code::OperandShape,
                    format!("immediate `{imm:?}` cannot be used as a {want} operand"),
                    at,
                )
            }),
            other => Err(Unsupported::at(
                Code::OperandShape,
                format!("`{other:?}` cannot be a source operand here"),
                at,
            )),
        }
    }

    fn read_reg(&mut self, r: &Reg, want: CType, at: usize) -> Result<String, Unsupported> {
        if let Some(i) = self.asm_index(r) {
            let direct = self.direct;
            let op = &mut self.ops[i];
            let Some(reg) = op.reg else {
                // "n" immediate: an integer constant expression.
                return if want.is_integer() || want == CType::Bool {
                    Ok(operands::immediate(want, &op.expr))
                } else {
                    Err(Unsupported::at(
                        Code::OperandBinding,
                        format!("immediate operand %{i} used as a {want} value"),
                        at,
                    ))
                };
            };
            if op.kind == OpKind::Output && !op.written {
                return Err(Unsupported::at(
                    Code::OperandBinding,
                    format!("output operand %{i} is read before it is written"),
                    at,
                ));
            }
            op.used_as_source = true;
            let base = if direct {
                operands::read(reg, &op.expr)
            } else {
                op.local.clone()
            };
            if reg.is_integer() && want.is_integer() && reg.bits() == want.bits() && reg != want {
                // A call needs no parentheses to be cast.
                return Ok(if base.ends_with(')') && base.starts_with("ptx2hip_") {
                    format!("({want}){base}")
                } else {
                    format!("({want})({base})")
                });
            }
            return convert(&base, reg, want).ok_or_else(|| operand_mismatch(i, reg, want, at));
        }
        let (name, ty) = match (self.resolve_ident(r, at), r) {
            (Ok(found), _) => found,
            // A variable named as an integer source: its address in its state space.
            (Err(e), Reg::Ident { name, component }) if want.is_integer() && want.bits() >= 32 => {
                let value = address::symbol_value(name, *component).ok_or(e)?;
                (value, CType::Uint(64))
            }
            (Err(e), _) => return Err(e),
        };
        convert(&name, ty, want).ok_or_else(|| {
            Unsupported::at(
                Code::OperandBinding,
                format!(
                    "register `{}` holds {ty} but the instruction reads {want}",
                    reg_text(r)
                ),
                at,
            )
        })
    }

    /// A destination operand as an lvalue of type `want`; conversions into the register go to
    /// `post`, temporaries to `pre`. `assigned`: the template only ever assigns to it (`{d} = …`),
    /// so an asm output can be written in place through `ptx2hip_out`.
    fn dest(
        &mut self,
        op: &ptx::Operand,
        want: CType,
        assigned: bool,
        pre: &mut Vec<String>,
        post: &mut Vec<String>,
        at: usize,
    ) -> Result<String, Unsupported> {
        let (lvalue, reg) = match op {
            ptx::Operand::Discard => {
                let t = self.temp();
                pre.push(format!("{want} {t};"));
                return Ok(t);
            }
            ptx::Operand::Reg(r) => match self.asm_index(r) {
                Some(i) => {
                    let conditional = self.conditional_depth > 0;
                    let direct = self.direct;
                    let op = &mut self.ops[i];
                    let Some(reg) = op.reg else {
                        return Err(Unsupported::at(
                            Code::OperandBinding,
                            format!("operand %{i} is an immediate but is written"),
                            at,
                        ));
                    };
                    if op.kind == OpKind::Input {
                        return Err(Unsupported::at(
                            Code::OperandBinding,
                            format!("input operand %{i} is written by the template"),
                            at,
                        ));
                    }
                    op.written = true;
                    op.written_unconditionally |= !conditional;
                    if direct {
                        let same = reg == want
                            || (reg.is_integer() && want.is_integer() && reg.bits() == want.bits());
                        let target = operands::write(reg, &op.expr);
                        if assigned && same {
                            // A same-width integer converts modulo 2^n on assignment.
                            return Ok(target);
                        }
                        // Computed in a temporary, then stored once.
                        let t = self.temp();
                        pre.push(format!("{want} {t};"));
                        let conv = widen_into(&t, want, reg)
                            .ok_or_else(|| result_mismatch(want, reg, at))?;
                        post.push(format!("{target} = {conv};"));
                        return Ok(t);
                    }
                    (op.local.clone(), reg)
                }
                None => {
                    if let Reg::Ident { name, .. } = r {
                        if self.local(name).is_none() {
                            return Err(Unsupported::at(
                                Code::RegisterDeclaration,
                                format!(
                                    "`{}` is not a writable register (declare it with `.reg`)",
                                    reg_text(r)
                                ),
                                at,
                            ));
                        }
                    }
                    self.resolve_ident(r, at)?
                }
            },
            other => {
                return Err(Unsupported::at(
                    Code::OperandShape,
                    format!("`{other:?}` cannot be a destination"),
                    at,
                ))
            }
        };
        // Same-width integers convert modulo 2^n on assignment: no temporary needed.
        if reg == want || (reg.is_integer() && want.is_integer() && reg.bits() == want.bits()) {
            return Ok(lvalue);
        }
        let t = self.temp();
        pre.push(format!("{want} {t};"));
        let conv = widen_into(&t, want, reg).ok_or_else(|| result_mismatch(want, reg, at))?;
        post.push(format!("{lvalue} = {conv};"));
        Ok(t)
    }

    fn guard_condition(&mut self, g: &ptx::Guard) -> Result<String, Unsupported> {
        let v = self.read_reg(&g.reg, CType::Bool, 0)?;
        Ok(if g.negated { format!("!{v}") } else { v })
    }

    fn resolve_ident(&mut self, r: &Reg, at: usize) -> Result<(String, CType), Unsupported> {
        let Reg::Ident { name, component } = r else {
            return Err(Unsupported::at(
                Code::OperandBinding,
                format!("operand `{}` does not exist in this statement", reg_text(r)),
                at,
            ));
        };
        if component.is_none() {
            if let Some(l) = self.local(name) {
                return Ok((l.c_name.clone(), l.ty));
            }
        }
        let full = match component {
            Some(c) => format!("{name}.{c}"),
            None => name.clone(),
        };
        if let Some(sr) = self.rules.specials.get(&full) {
            if let Some(reason) = &sr.unsupported {
                return Err(Unsupported::at(
                    Code::SpecialRegister,
                    format!("special register `{full}`: {reason}"),
                    at,
                ));
            }
            let ty = PtxType::parse(&sr.ty)
                .map(|t| t.c_type())
                .unwrap_or(CType::Uint(32));
            let expr = match self.target {
                Target::Amd => sr.amd.clone().unwrap_or_else(|| sr.portable.clone()),
                Target::Portable => sr.portable.clone(),
            };
            return Ok((expr, ty));
        }
        let (code, message) = if name.starts_with('%') {
            (
                Code::SpecialRegister,
                format!("special register `{full}` has no translation"),
            )
        } else {
            (
                Code::RegisterDeclaration,
                format!("register `{full}` is not declared with `.reg` in this statement"),
            )
        };
        Err(Unsupported::at(code, message, at))
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
        unique_name(&mut self.taken, &format!("p2h_t{}", self.temps))
    }
}

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

fn operands_fit(rule: &Rule, bindings: &Bindings, operands: &[ptx::Operand]) -> bool {
    let specs = rule.operand_specs();
    specs.len() == operands.len()
        && specs.iter().zip(operands).all(|(s, o)| match (&s.kind, o) {
            (OperandKind::Address(_), ptx::Operand::Memory { .. }) => true,
            (OperandKind::Vector(n, _), ptx::Operand::Vector(v)) => v.len() as u32 == *n,
            (OperandKind::SlotVector(slot, _), o) => {
                let width = vector_width(bindings.get(slot).and_then(|v| v.as_deref()));
                match (width, o) {
                    (Some(n), ptx::Operand::Vector(v)) => n > 1 && v.len() as u32 == n,
                    (Some(1), o) => address::is_scalar_operand(o),
                    _ => false,
                }
            }
            (OperandKind::Pair(..), ptx::Operand::PredPair(..)) => true,
            // Inline PTX has no predicate constraint: an asm operand is never a predicate, so a
            // rule wanting one leaves the operand to the next rule (cp.async's src-size vs its
            // ignore-src predicate).
            (
                OperandKind::Scalar(TypeRef::Fixed(PtxType::Pred)),
                ptx::Operand::Reg(Reg::AsmOperand(_) | Reg::AsmNamed(_)),
            ) => false,
            (OperandKind::Scalar(_), o) => address::is_scalar_operand(o),
            _ => false,
        })
}

fn visit_regs(op: &ptx::Operand, f: &mut impl FnMut(&Reg)) {
    match op {
        ptx::Operand::Reg(r) | ptx::Operand::NotReg(r) => f(r),
        ptx::Operand::Vector(v) => v.iter().for_each(|o| visit_regs(o, f)),
        ptx::Operand::Memory { base: Some(r), .. } => f(r),
        ptx::Operand::PredPair(a, b) => a.iter().chain(b).for_each(f),
        ptx::Operand::TensorAddress(parts) => parts.iter().for_each(|o| visit_regs(o, f)),
        _ => {}
    }
}

fn branch_target(ins: &Instruction) -> Option<&str> {
    match ins.operands.as_slice() {
        [ptx::Operand::Label(l)] => Some(l),
        [ptx::Operand::Reg(Reg::Ident {
            name,
            component: None,
        })] => Some(name),
        _ => None,
    }
}

fn label_index(items: &[Item], name: &str) -> Option<usize> {
    items
        .iter()
        .position(|it| matches!(it, Item::Label { name: n, .. } if n == name))
}

/// The index of the last `bra` after `label_at` (same block) that jumps back to `name`.
fn backward_branch(items: &[Item], label_at: usize, name: &str) -> Option<usize> {
    (label_at + 1..items.len()).rev().find(|&k| {
        matches!(&items[k], Item::Instruction(ins) if ins.opcode == "bra" && branch_target(ins) == Some(name))
    })
}

fn is_branch_target(items: &[Item], name: &str) -> bool {
    items.iter().any(|it| match it {
        Item::Instruction(ins) => ins.opcode == "bra" && branch_target(ins) == Some(name),
        Item::Scope { block, .. } => is_branch_target(&block.items, name),
        _ => false,
    })
}

/// An expression that can be evaluated any number of times with the same result and no effects:
/// an identifier, member access, or a literal.
pub fn is_simple_expr(e: &str) -> bool {
    let e = e.trim();
    let path = e.replace("->", ".").replace("::", ".");
    !e.is_empty()
        && !e.starts_with('.')
        && path.split('.').all(|part| {
            !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

fn sanitize(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    out.trim_end_matches('_').chars().take(24).collect()
}

fn operand_local_name(name: Option<&str>, expr: &str, index: usize) -> String {
    let base = name
        .map(sanitize)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| {
            let s = sanitize(expr);
            if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
                format!("op{index}")
            } else {
                s
            }
        });
    format!("p2h_{base}")
}

fn unique_name(taken: &mut HashSet<String>, base: &str) -> String {
    let mut name = base.to_string();
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{base}_{n}");
        n += 1;
    }
    name
}

fn reg_text(r: &Reg) -> String {
    match r {
        Reg::AsmOperand(i) => format!("%{i}"),
        Reg::AsmNamed(n) => format!("%[{n}]"),
        Reg::Ident {
            name,
            component: Some(c),
        } => format!("{name}.{c}"),
        Reg::Ident {
            name,
            component: None,
        } => name.clone(),
        Reg::UniqueId => "%=".into(),
    }
}

fn result_mismatch(value: CType, reg: CType, at: usize) -> Unsupported {
    Unsupported::at(
        Code::OperandBinding,
        format!("a {value} result cannot be written to a {reg} register"),
        at,
    )
}

fn operand_mismatch(i: usize, reg: CType, want: CType, at: usize) -> Unsupported {
    Unsupported::at(
        Code::OperandBinding,
        format!("operand %{i} is a {reg} register but the instruction needs a {want} value (constraint/type mismatch)"),
        at,
    )
}

/// Renders a PTX immediate as a C++ expression of type `want`.
fn immediate(imm: &Immediate, want: CType) -> Option<String> {
    match (imm, want) {
        (Immediate::Int(v), t) if t.is_integer() => {
            let bits = t.bits();
            let fits = if t.bits() >= 128 {
                true
            } else {
                let min = -(1i128 << (bits - 1));
                let max = (1i128 << bits) - 1;
                (min..=max).contains(v)
            };
            fits.then(|| int_literal(*v, t))
        }
        (Immediate::Int(v), CType::Bool) => Some(if *v != 0 {
            "true".into()
        } else {
            "false".into()
        }),
        (Immediate::F32Bits(b), CType::Float) => Some(f32_literal(*b)),
        (Immediate::F32Bits(b), CType::Uint(32) | CType::Int(32)) => {
            Some(format!("({want})0x{b:08x}u"))
        }
        (Immediate::F64Bits(b), CType::Double) => Some(f64_literal(*b)),
        (Immediate::F64Bits(b), CType::Uint(64) | CType::Int(64)) => {
            Some(format!("({want})0x{b:016x}ull"))
        }
        (Immediate::Float(s), CType::Double) => {
            s.parse::<f64>().ok().map(|d| f64_literal(d.to_bits()))
        }
        (Immediate::Float(s), CType::Float) => s
            .parse::<f64>()
            .ok()
            .map(|d| f32_literal((d as f32).to_bits())),
        _ => None,
    }
}

fn int_literal(v: i128, t: CType) -> String {
    let bits = t.bits();
    let mask = if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    };
    let pattern = (v as u128) & mask;
    if (0..=0x7fff_ffff).contains(&v) {
        if bits > 32 {
            format!("({t}){v}ull")
        } else {
            format!("({t}){v}")
        }
    } else if bits > 32 {
        format!("({t})0x{pattern:x}ull")
    } else {
        format!("({t})0x{pattern:x}u")
    }
}

fn f32_literal(bits: u32) -> String {
    let f = f32::from_bits(bits);
    if f.is_finite() {
        format!("{f:e}f")
    } else {
        format!("ptx2hip_f32_from_bits(0x{bits:08x}u)")
    }
}

fn f64_literal(bits: u64) -> String {
    let f = f64::from_bits(bits);
    if f.is_finite() {
        format!("{f:e}")
    } else {
        format!("ptx2hip_f64_from_bits(0x{bits:016x}ull)")
    }
}

#[cfg(test)]
mod tests {
    use crate::lower::{analyze, RuleSet, Target};
    use crate::scan::AsmStatement;

    /// The translation (one string) of `ptx` with operands `(constraint, expression)`.
    fn translate(ptx: &str, operands: &[(&str, &str)]) -> Result<String, String> {
        let constraints: Vec<String> = operands.iter().map(|(c, _)| c.to_string()).collect();
        let mut stmt = AsmStatement::synthetic(ptx, &constraints);
        for (op, (_, expr)) in stmt
            .outputs
            .iter_mut()
            .chain(&mut stmt.inputs)
            .zip(operands)
        {
            op.expr = expr.to_string();
        }
        let rules = RuleSet::embedded().unwrap();
        analyze(&stmt, &rules, Target::Portable)
            .outcome
            .map(|t| {
                let lines: Vec<&str> = t.lines.iter().map(|(_, l)| l.as_str()).collect();
                lines.join("\n")
            })
            .map_err(|u| u.message)
    }

    #[test]
    fn operands_are_read_and_written_through_the_glue_whatever_their_type() {
        // A __half in "h" was `(uint16_t)(a)`: a value conversion on HIP.
        let code = translate(
            "fma.rn.f16 %0, %1, %2, %3;",
            &[("=h", "d"), ("h", "a"), ("h", "b"), ("h", "c")],
        )
        .unwrap();
        assert!(code.starts_with(
            "ptx2hip_out_h(d) = ptx2hip_h_fma(ptx2hip_in_h(a), ptx2hip_in_h(b), ptx2hip_in_h(c),"
        ));
        let code = translate("add.s32 %0, %0, %1;", &[("+r", "acc"), ("r", "x[i]")]).unwrap();
        assert_eq!(
            code,
            "ptx2hip_out_r(acc) = (int32_t)((uint32_t)(int32_t)ptx2hip_in_r(acc) + (uint32_t)(int32_t)ptx2hip_in_r(x[i]));"
        );
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
    fn destinations_narrower_than_the_result_are_refused_not_truncated() {
        for (ptx, ops) in [
            ("brev.b64 %0, %1;", vec![("=r", "d"), ("l", "x")]),
            (
                "mul.wide.u32 %0, %1, %2;",
                vec![("=r", "d"), ("r", "a"), ("r", "b")],
            ),
            ("cvt.rzi.u64.f16 %0, %1;", vec![("=r", "d"), ("h", "h")]),
        ] {
            let err = translate(ptx, &ops).unwrap_err();
            assert!(
                err.contains("operand %0 \"=r\" is a 32-bit register")
                    && err
                        .contains("ptxas rejects a register narrower than the instruction operand"),
                "{ptx}: {err}"
            );
        }
        // The same on an input was already refused; a wider destination only cvt/ld/st take.
        assert!(translate("add.u32 %0, %1, %1;", &[("=r", "d"), ("h", "a")]).is_err());
        assert!(translate("cvt.s32.s8 %0, %1;", &[("=r", "d"), ("r", "a")]).is_ok());
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
        let code = translate("mov.u32 %0, 1;", &[("=r", "d"), ("r", "x")]).unwrap();
        assert_eq!(code, "ptx2hip_out_r(d) = (uint32_t)1;");
    }
}
