//! Rule expansion: the rule that matches an instruction (or the precise reason none does), its
//! operands bound to C++ expressions by their roles, and its template expanded with them.

use super::*;
use crate::rules::OperandDefault;

impl<'a> Lowerer<'a> {
    pub(super) fn instruction(
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

    pub(super) fn find_rule(&self, ins: &Instruction) -> Result<(&'a Rule, Bindings), Unsupported> {
        let form = ins.form();
        let mut shape_mismatch = None;
        for (rule, b) in self.rules.matching(&ins.opcode, &ins.modifiers) {
            if operands_fit(rule, &b, &ins.operands) {
                if let (Target::Portable, Some(why)) = (self.target, &rule.portable_unsupported) {
                    return Err(Unsupported::at(
                        Code::NoPortableTranslation,
                        format!("`{form}` has no --target portable translation: {why}"),
                        ins.span.start,
                    )
                    .with_instruction(&form));
                }
                return Ok((rule, b));
            }
            shape_mismatch.get_or_insert((rule, b));
        }
        let at = ins.span.start;
        if let Some(reason) = self.rules.unsupported_reason(&ins.opcode, &ins.modifiers) {
            return Err(
                Unsupported::at(Code::DeclinedForm, format!("`{form}`: {reason}"), at)
                    .with_instruction(&form),
            );
        }
        if let Some((rule, bindings)) = shape_mismatch {
            return Err(Unsupported::at(
                Code::OperandShape,
                misfit::shape(self.rules, rule, &bindings, ins),
                at,
            )
            .with_instruction(&form));
        }
        let known = self.rules.rules_for(&ins.opcode).next().is_some();
        let (code, msg) = if known {
            (
                Code::ModifierCombination,
                misfit::modifiers(self.rules, ins),
            )
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
    pub(super) fn expand_rule(
        &mut self,
        rule: &Rule,
        bindings: &Bindings,
        ins: &Instruction,
    ) -> Result<(String, Vec<String>), Unsupported> {
        let at = ins.span.start;
        self.check_immediates(rule, ins)?;
        let mut values: Vec<(String, Option<String>, Expr)> = Vec::new();
        // The helpers each source value calls: called only if the template uses the value.
        let mut value_uses: Vec<(String, Option<String>, Reads)> = Vec::new();
        let mut pre: Vec<String> = Vec::new();
        let mut post: Vec<String> = Vec::new();
        let specs = rule.operand_specs();
        let fast = rule
            .fast_template(self.target)
            .filter(|_| self.settings.fast);
        let chosen = fast.unwrap_or_else(|| rule.template(self.target, bindings));
        let template = chosen.code.text();
        for (spec, op) in specs.iter().zip(&ins.operands) {
            let op = unbraced(spec, bindings, op);
            let writes = spec.role == Role::Destination;
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
                    values.push((spec.name.clone(), None, Expr::other(first)));
                    values.push((second.clone(), None, Expr::other(other)));
                }
                // An address the template does not use (a prefetch of a `.param` tensor map, a
                // hint with nothing to convert it to) is not converted; its C++ expression is
                // still evaluated once, as every input's is.
                OperandKind::Address(_)
                    if !chosen
                        .code
                        .placeholders()
                        .iter()
                        .any(|(n, _)| *n == spec.name) => {}
                OperandKind::Address(slot) => {
                    let space = slot
                        .as_ref()
                        .and_then(|s| bindings.get(s).cloned().flatten());
                    let (addr, uses) = self.captured(|l| l.address(op, space.as_deref(), at))?;
                    value_uses.push((spec.name.clone(), None, uses));
                    values.push((spec.name.clone(), None, addr));
                }
                OperandKind::Tensor(_) => {
                    let ptx::Operand::TensorAddress(parts) = op else {
                        unreachable!("shape checked")
                    };
                    let [map, coords] = parts.as_slice() else {
                        unreachable!("shape checked")
                    };
                    self.check_register(map, PtxType::B(64), false, ins)?;
                    let (m, uses) = self.captured(|l| l.tensor_map(map, at))?;
                    value_uses.push((spec.name.clone(), None, uses));
                    values.push((spec.name.clone(), None, m));
                    if let ptx::Operand::Vector(elems) = coords {
                        for e in elems {
                            self.check_register(e, PtxType::S(32), false, ins)?;
                        }
                    }
                    let (c, uses) = self.captured(|l| l.tensor_coords(coords, at))?;
                    let coords = Some("coords".to_string());
                    value_uses.push((spec.name.clone(), coords.clone(), uses));
                    values.push((spec.name.clone(), coords, c));
                }
                OperandKind::Fragment { shape, ty } => {
                    let (count, carrier) = rule
                        .fragment(&spec.name, shape, ty, bindings)
                        .ok_or_else(|| {
                            Unsupported::at(
                                Code::RuleTableError,
                                format!("rule {} has a fragment it cannot size", rule.code),
                                at,
                            )
                        })?;
                    // A one-register fragment may be written without braces.
                    let braced = match op {
                        ptx::Operand::Vector(_) => op.clone(),
                        single => ptx::Operand::Vector(vec![single.clone()]),
                    };
                    if let ptx::Operand::Vector(elems) = &braced {
                        for e in elems {
                            self.check_register(e, carrier, writes, ins)?;
                        }
                        debug_assert_eq!(elems.len() as u32, count, "shape checked");
                    }
                    let (v, c_type) = if writes {
                        let reads = !template::only_assigned(template, &spec.name, None);
                        let (agg, ty) = self.vector_dest(
                            &braced,
                            carrier.c_type(),
                            reads,
                            &mut pre,
                            &mut post,
                            at,
                        )?;
                        (Expr::other(agg), ty)
                    } else {
                        let (v, uses) =
                            self.captured(|l| l.vector_source(&braced, carrier.c_type(), at))?;
                        value_uses.push((spec.name.clone(), None, uses.clone()));
                        value_uses.push((spec.name.clone(), Some("type".to_string()), uses));
                        v
                    };
                    values.push((spec.name.clone(), None, v));
                    values.push((
                        spec.name.clone(),
                        Some("type".to_string()),
                        Expr::other(c_type),
                    ));
                }
                OperandKind::SlotVector(slot, t) if slot_width(slot, bindings) > 1 => {
                    let ty = self.type_of(rule, t, bindings, at)?;
                    let (v, c_type) = if writes {
                        let reads = !template::only_assigned(template, &spec.name, None);
                        let (agg, ty) =
                            self.vector_dest(op, ty.c_type(), reads, &mut pre, &mut post, at)?;
                        (Expr::other(agg), ty)
                    } else {
                        let (v, uses) = self.captured(|l| l.vector_source(op, ty.c_type(), at))?;
                        value_uses.push((spec.name.clone(), None, uses.clone()));
                        value_uses.push((spec.name.clone(), Some("type".to_string()), uses));
                        v
                    };
                    values.push((spec.name.clone(), None, v));
                    values.push((
                        spec.name.clone(),
                        Some("type".to_string()),
                        Expr::other(c_type),
                    ));
                }
                // A scalar, or a slot-sized vector of one element (its `{x.type}` is the scalar's).
                OperandKind::Scalar(t) | OperandKind::SlotVector(_, t) => {
                    let ty = self.type_of(rule, t, bindings, at)?;
                    self.check_register(op, ty, writes, ins)?;
                    let v = if writes {
                        let assigned = template::only_assigned(template, &spec.name, None);
                        Expr::other(self.dest(
                            op,
                            ty.c_type(),
                            assigned,
                            &mut pre,
                            &mut post,
                            at,
                        )?)
                    } else {
                        let (v, uses) = self.captured(|l| l.source(op, ty.c_type(), at))?;
                        value_uses.push((spec.name.clone(), None, uses));
                        v
                    };
                    values.push((spec.name.clone(), None, v));
                    if matches!(spec.kind, OperandKind::SlotVector(..)) {
                        values.push((
                            spec.name.clone(),
                            Some("type".to_string()),
                            Expr::other(ty.c_type().to_string()),
                        ));
                    }
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
                            Expr::other(self.dest(
                                e,
                                ty.c_type(),
                                assigned,
                                &mut pre,
                                &mut post,
                                at,
                            )?)
                        } else {
                            let (v, uses) = self.captured(|l| l.source(e, ty.c_type(), at))?;
                            value_uses.push((spec.name.clone(), Some(k.to_string()), uses));
                            v
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
            crate::lower::written::respell(ptx, ins, names, &mut values);
        }
        // Operands the statement leaves out are what their absence means: a literal (`1u`) or an
        // earlier operand's value (with the helpers it calls), as written in the PTX (after `respell`).
        for spec in specs.iter().skip(ins.operands.len()) {
            match &spec.default {
                Some(OperandDefault::Literal(literal)) => {
                    values.push((spec.name.clone(), None, Expr::other(literal.clone())));
                }
                Some(OperandDefault::SameAs(name)) => {
                    let named = |n: &String, attr: &Option<String>| n == name && attr.is_none();
                    if let Some((_, _, v)) = values.iter().find(|(n, a, _)| named(n, a)) {
                        values.push((spec.name.clone(), None, v.clone()));
                    }
                    if let Some((_, _, u)) = value_uses.iter().find(|(n, a, _)| named(n, a)) {
                        value_uses.push((spec.name.clone(), None, u.clone()));
                    }
                }
                None => {}
            }
        }
        let literal_lop3 = crate::lower::lop3::literal_template(self.rules, rule, ins, &values)
            .map(|t| Template::parse(&t));
        let template = literal_lop3.as_ref().unwrap_or(&chosen.code);
        let lookup = |name: &str, attr: Option<&str>| {
            if name == CARRY && attr.is_none() && rule.carry.is_some() {
                return Some(Expr::other(CARRY_LOCAL));
            }
            if name == TENSOR_MODEL && attr.is_none() {
                return Some(Expr::other(self.settings.tensor_model.placeholder()));
            }
            if let Some((_, _, v)) = values
                .iter()
                .find(|(n, a, _)| n == name && a.as_deref() == attr)
            {
                return Some(v.clone());
            }
            if let (Some(l), None) = (rule.lookup.get(name), attr) {
                let key = bindings.get(&l.slot)?.clone().unwrap_or_default();
                return l.values.get(&key).cloned().map(Expr::other);
            }
            let bound = bindings.get(name)?;
            let raw = bound.clone().unwrap_or_default();
            let text = match (PtxType::parse(&raw), attr) {
                (Some(t), None) => t.c_type().to_string(),
                (Some(t), Some("u")) => t.c_type().unsigned().to_string(),
                (Some(t), Some("s")) => t.c_type().signed().to_string(),
                (Some(t), Some("arith")) => t.c_type().arith().to_string(),
                (Some(t), Some("bits")) => t.bits().to_string(),
                (_, Some("name")) => raw,
                (None, None) => raw,
                _ => return None,
            };
            Some(Expr::other(text))
        };
        let malformed = |e: String| {
            Unsupported::at(
                Code::RuleTableError,
                format!("rule {} is malformed: {e}", rule.code),
                at,
            )
        };
        let code = template.expand(lookup).map_err(malformed)?;
        // The helpers the template calls, as the table found them in it when it loaded, each
        // name completed by this instruction's modifiers; a literal lop3 table's formula calls
        // none.
        let mut calls = HelperUse::default();
        if literal_lop3.is_none() {
            let from = &chosen.helpers;
            for name in &from.names {
                calls.add(&Template::parse(name).expand(lookup).map_err(malformed)?);
            }
            for name in &from.lookups {
                let l = &rule.lookup[name];
                let key = bindings.get(&l.slot).cloned().flatten().unwrap_or_default();
                l.helpers(&key).iter().for_each(|h| calls.add(h));
            }
        }
        self.helpers.extend(&calls);
        let expanded = template.placeholders();
        for (name, attr, uses) in &value_uses {
            if expanded.contains(&(name.as_str(), attr.as_deref())) {
                self.commit(uses);
            }
        }
        let mut code_lines = pre;
        code_lines.push(code);
        Ok((code_lines.join("\n"), post))
    }

    /// The operands the rule's `immediates` names are immediates, and those whose value is
    /// written as a literal (in the PTX, or as an `"n"` operand's literal) have a value PTX allows.
    fn check_immediates(&self, rule: &Rule, ins: &Instruction) -> Result<(), Unsupported> {
        let specs = rule.operand_specs();
        for (name, allowed) in &rule.immediates {
            let Some(k) = specs.iter().position(|s| &s.name == name) else {
                continue;
            };
            let value = match &ins.operands[k] {
                ptx::Operand::Imm(Immediate::Int(v)) => i64::try_from(*v).ok(),
                ptx::Operand::Reg(r) => match self.asm_index(r).map(|i| &self.ops[i]) {
                    Some(op) if op.reg.is_none() => match operands::literal_value(&op.expr) {
                        Some(v) => Some(v),
                        None => continue, // a constant expression only the compiler evaluates
                    },
                    _ => None,
                },
                _ => None,
            };
            let form = ins.form();
            let values: Vec<String> = allowed.iter().map(i64::to_string).collect();
            let message = match value {
                Some(v) if allowed.contains(&v) => continue,
                Some(v) => format!(
                    "`{form}`: operand {} `{name}` is {v}, which PTX does not allow: {}",
                    k + 1,
                    values.join(" or ")
                ),
                None => format!(
                    "`{form}`: operand {} `{name}` must be an immediate ({})",
                    k + 1,
                    values.join(" or ")
                ),
            };
            return Err(Unsupported::at(Code::OperandShape, message, ins.span.start)
                .with_instruction(&form));
        }
        Ok(())
    }

    /// Runs `f` and returns what it gives with what its code reads, which is not recorded: a
    /// source value calls its helpers and reads its operands and locals only where the template
    /// uses it ([`Self::commit`]).
    fn captured<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, Unsupported>,
    ) -> Result<(T, Reads), Unsupported> {
        let outer = std::mem::take(&mut self.helpers);
        let outer_locals = std::mem::take(&mut self.read_locals);
        let read_before: Vec<bool> = self.ops.iter().map(|o| o.used_as_source).collect();
        let result = f(self);
        let helpers = std::mem::replace(&mut self.helpers, outer);
        let locals = std::mem::replace(&mut self.read_locals, outer_locals);
        let mut operands = Vec::new();
        for (i, before) in read_before.into_iter().enumerate() {
            if !before && self.ops[i].used_as_source {
                self.ops[i].used_as_source = false;
                operands.push(i);
            }
        }
        result.map(|v| {
            let reads = Reads {
                helpers,
                operands,
                locals: locals.into_iter().collect(),
            };
            (v, reads)
        })
    }

    /// Records what a value the template uses reads.
    fn commit(&mut self, reads: &Reads) {
        self.helpers.extend(&reads.helpers);
        for &i in &reads.operands {
            self.ops[i].used_as_source = true;
        }
        self.read_locals.extend(reads.locals.iter().cloned());
    }

    pub(super) fn type_of(
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
}

pub(super) fn operands_fit(rule: &Rule, bindings: &Bindings, operands: &[ptx::Operand]) -> bool {
    let specs = rule.operand_specs();
    rule.takes_operand_count(operands.len())
        && specs
            .iter()
            .zip(operands)
            .all(|(s, o)| operand_fits(rule, s, bindings, unbraced(s, bindings, o)))
}

/// A one-element vector `{x}` where the rule takes a scalar (or a slot-sized vector of one
/// element) is that element: ptxas reads `ld.shared.u32 {%0}, [%1];` as `ld.shared.u32 %0, [%1];`.
/// Other operands, fragments and tensor coordinates included, are returned as written.
fn unbraced<'a>(spec: &OperandSpec, bindings: &Bindings, op: &'a ptx::Operand) -> &'a ptx::Operand {
    let scalar_kind = match &spec.kind {
        OperandKind::Scalar(_) => true,
        OperandKind::SlotVector(slot, _) => slot_width(slot, bindings) == 1,
        _ => false,
    };
    match op {
        ptx::Operand::Vector(elems) if scalar_kind => match elems.as_slice() {
            [only] if address::is_scalar_operand(only) => only,
            _ => op,
        },
        _ => op,
    }
}

/// Whether one operand has the shape its spec takes.
pub(super) fn operand_fits(
    rule: &Rule,
    spec: &OperandSpec,
    bindings: &Bindings,
    op: &ptx::Operand,
) -> bool {
    match (&spec.kind, op) {
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
        (OperandKind::Tensor(slot), ptx::Operand::TensorAddress(parts)) => {
            let rank = tensor_rank(bindings.get(slot).and_then(|v| v.as_deref()));
            match parts.as_slice() {
                [map, ptx::Operand::Vector(c)] => {
                    matches!(map, ptx::Operand::Reg(_)) && rank == Some(c.len() as u32)
                }
                _ => false,
            }
        }
        (OperandKind::Fragment { shape, ty }, o) => {
            let count = rule
                .fragment(&spec.name, shape, ty, bindings)
                .map(|(n, _)| n);
            match (count, o) {
                (Some(n), ptx::Operand::Vector(v)) => v.len() as u32 == n,
                (Some(1), o) => address::is_scalar_operand(o),
                _ => false,
            }
        }
        // Inline PTX has no predicate constraint: an asm operand is never a predicate, so a
        // rule wanting one leaves the operand to the next rule (cp.async's src-size vs its
        // ignore-src predicate).
        (
            OperandKind::Scalar(TypeRef::Fixed(PtxType::Pred)),
            ptx::Operand::Reg(Reg::AsmOperand(_) | Reg::AsmNamed(_)),
        ) => false,
        (OperandKind::Scalar(_), o) => address::is_scalar_operand(o),
        _ => false,
    }
}

/// The element count of an operand sized by `slot` (`.v2`, `.v4`; 1 without the modifier).
fn slot_width(slot: &str, bindings: &Bindings) -> u32 {
    vector_width(bindings.get(slot).and_then(|v| v.as_deref())).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::super::tests::translate;
    use super::*;

    #[test]
    fn sub_rn_f32_without_ftz_or_sat_uses_the_intrinsic_as_the_table_says() {
        let ops = [("=f", "d"), ("f", "a"), ("f", "b")];
        assert_eq!(
            translate("sub.rn.f32 %0, %1, %2;", &ops).unwrap(),
            "ptx2hip_out_f(d) = ptx2hip_canon_f32(__fsub_rn(ptx2hip_in_f(a), ptx2hip_in_f(b)));"
        );
        assert!(translate("sub.rn.ftz.f32 %0, %1, %2;", &ops)
            .unwrap()
            .starts_with("ptx2hip_out_f(d) = ptx2hip_fop_f32<ptx2hip_fmode::sub, ptx2hip_fmode::rn, ptx2hip_fmode::ftz, "));
    }

    fn operands(ptx: &str) -> Vec<ptx::Operand> {
        match &ptx::parse(ptx).unwrap().items[0] {
            Item::Instruction(ins) => ins.operands.clone(),
            other => panic!("{other:?}"),
        }
    }

    /// wgmma m64n8k16 f16 with its descriptors and immediates as `"n"` operands (CUTLASS's
    /// spelling), the immediates' expressions given.
    fn wgmma(scale_a: &str, trans_b: &str) -> Result<String, String> {
        let ops = [
            ("+f", "d0"),
            ("+f", "d1"),
            ("+f", "d2"),
            ("+f", "d3"),
            ("l", "da"),
            ("l", "db"),
            ("n", scale_a),
            ("n", trans_b),
        ];
        super::super::tests::translate_for(
            Target::Amd,
            "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 1, %6, 1, 0, %7;",
            &ops,
        )
    }

    #[test]
    fn an_immediate_operand_takes_only_the_values_ptx_allows() {
        assert!(wgmma("1", "0").is_ok());
        assert!(wgmma("-1", "1").is_ok());
        assert_eq!(
            wgmma("2", "0").unwrap_err(),
            "`wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16`: operand 5 `scale_a` is 2, which PTX does not allow: 1 or -1"
        );
        assert!(wgmma("1", "0x2")
            .unwrap_err()
            .contains("`trans_b` is 2, which PTX does not allow: 0 or 1"));
        // A constant expression only the C++ compiler evaluates is passed on as nvcc passes it.
        let code = wgmma("int32_t(scaleA)", "int32_t(tnspB)").unwrap();
        assert!(
            code.contains("ptx2hip_imm<int32_t>(int32_t(scaleA))")
                && code.contains("ptx2hip_imm<int32_t>(int32_t(tnspB))"),
            "{code}"
        );
    }

    #[test]
    fn a_fragment_the_template_reads_and_writes_starts_as_its_registers() {
        let code = wgmma("1", "0").unwrap();
        let init = "ptx2hip_vec<float, 4> p2h_t1 = ptx2hip_vec<float, 4>{{ptx2hip_in_f(d0), ptx2hip_in_f(d1), ptx2hip_in_f(d2), ptx2hip_in_f(d3)}};";
        assert!(code.contains(init), "{code}");
        assert!(code.contains("ptx2hip_out_f(d3) = p2h_t"), "{code}");
    }

    #[test]
    fn an_operand_left_out_is_the_literal_its_absence_means() {
        // J010 takes `mbarrier.arrive` with and without its count (1 when left out): the short
        // statement translates as the rule without a count did (`1u`), the long one binds it.
        let rules = RuleSet::embedded().unwrap();
        let j010 = rules.rule("J010").unwrap();
        let form = ["arrive", "release", "cluster", "b64"].map(String::from);
        let bindings = j010.match_modifiers(&form).unwrap();
        let short = "mbarrier.arrive.release.cluster.b64 _, [%0];";
        let long = "mbarrier.arrive.release.cluster.b64 _, [%0], %1;";
        assert!(operands_fit(j010, &bindings, &operands(short)));
        assert!(operands_fit(j010, &bindings, &operands(long)));
        assert!(!operands_fit(
            j010,
            &bindings,
            &operands("mbarrier.arrive.release.cluster.b64 _;")
        ));
        let code = translate(short, &[("l", "bar")]).unwrap();
        let update = "p2h_t1 = ptx2hip_mbar_update((void*)(uintptr_t)(ptx2hip_in_l(bar)), ";
        assert!(code.contains(&format!("{update}1u, 0u, 0);")), "{code}");
        let code = translate(long, &[("l", "bar"), ("r", "n")]).unwrap();
        assert!(
            code.contains(&format!("{update}ptx2hip_in_r(n), 0u, 0);")),
            "{code}"
        );
    }

    #[test]
    fn an_operand_left_out_may_be_another_operands_value() {
        // S020's src-size is the copy size when left out: the short statement copies n bytes as
        // it did before the src-size form joined the rule.
        let ops = [("l", "s"), ("l", "g"), ("r", "z")];
        let code = translate("cp.async.cg.shared.global [%0], [%1], 16;", &ops[..2]).unwrap();
        assert!(code.contains("(uint32_t)16, (uint32_t)16);"), "{code}");
        let code = translate("cp.async.cg.shared.global [%0], [%1], 16, %2;", &ops).unwrap();
        assert!(code.contains("(uint32_t)16, ptx2hip_in_r(z));"), "{code}");
        // The copy size as written, for both.
        let code = translate("cp.async.cg.shared.global [%0], [%1], 0x10;", &ops[..2]).unwrap();
        assert!(code.contains("(uint32_t)0x10, (uint32_t)0x10);"), "{code}");
    }

    #[test]
    fn operand_shapes_decide_whether_a_rule_fits() {
        let rules = RuleSet::embedded().unwrap();
        let ld = rules.rule("M001").unwrap();
        let scalar = ld
            .match_modifiers(&["global".into(), "u32".into()])
            .unwrap();
        let v2 = ld
            .match_modifiers(&["global".into(), "v2".into(), "u32".into()])
            .unwrap();
        assert!(operands_fit(
            ld,
            &scalar,
            &operands("ld.global.u32 %0, [%1];")
        ));
        assert!(!operands_fit(
            ld,
            &scalar,
            &operands("ld.global.u32 %0, %1;")
        ));
        assert!(operands_fit(
            ld,
            &v2,
            &operands("ld.global.v2.u32 {%0, %1}, [%2];")
        ));
        assert!(!operands_fit(
            ld,
            &v2,
            &operands("ld.global.v2.u32 %0, [%2];")
        ));
        // A braced single register is the scalar (nccl, xformers: `ld.shared.u32 {%0}, [%1];`);
        // two registers are not.
        assert!(operands_fit(
            ld,
            &scalar,
            &operands("ld.global.u32 {%0}, [%1];")
        ));
        assert!(!operands_fit(
            ld,
            &scalar,
            &operands("ld.global.u32 {%0, %1}, [%2];")
        ));
    }
}
