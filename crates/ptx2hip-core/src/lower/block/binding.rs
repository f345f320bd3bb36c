//! Operand binding: PTX registers and immediates to C++ expressions of the type an operand
//! needs, as nvcc binds them (asm operands through the `ptx2hip_in_*`/`ptx2hip_out_*` glue,
//! `.reg` locals, widening and the refusal of registers of the wrong size).

use super::*;

impl<'a> Lowerer<'a> {
    /// Refuses an asm operand whose register ptxas would not accept for an instruction operand of
    /// type `ty` (a narrower destination would otherwise be silently truncated).
    pub(super) fn check_register(
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
    pub(super) fn source(
        &mut self,
        op: &ptx::Operand,
        want: CType,
        at: usize,
    ) -> Result<Expr, Unsupported> {
        match op {
            ptx::Operand::Reg(r) => self.read_reg(r, want, at),
            ptx::Operand::NotReg(r) if want == CType::Bool => {
                Ok(Expr::other(format!("!{}", self.read_reg(r, want, at)?)))
            }
            ptx::Operand::Imm(imm) => immediate(imm, want, &mut self.helpers).ok_or_else(|| {
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

    pub(super) fn read_reg(
        &mut self,
        r: &Reg,
        want: CType,
        at: usize,
    ) -> Result<Expr, Unsupported> {
        if let Some(i) = self.asm_index(r) {
            let direct = self.direct;
            let op = &mut self.ops[i];
            let Some(reg) = op.reg else {
                // "n" immediate: an integer constant expression.
                return if want.is_integer() || want == CType::Bool {
                    Ok(operands::immediate(want, &op.expr, &mut self.helpers))
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
                // A visible `int` read by a `.s32` instruction is that value as it is.
                if let Some(value) = op.direct.and_then(|d| d.read_as(want, &op.expr)) {
                    return Ok(value);
                }
                operands::read(reg, &op.expr, op.direct, &mut self.helpers)
            } else {
                Expr::other(op.local.clone())
            };
            if reg.is_integer() && want.is_integer() && reg.bits() == want.bits() && reg != want {
                // A call or a name needs no parentheses to be cast.
                let base = base.to_string();
                let name = base.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                return Ok(
                    if name || base.ends_with(')') && base.starts_with("ptx2hip_") {
                        Expr::cast(want, base)
                    } else {
                        Expr::cast(want, format!("({base})"))
                    },
                );
            }
            return convert(&base, reg, want, &mut self.helpers)
                .ok_or_else(|| operand_mismatch(i, reg, want, at));
        }
        let (name, ty) = match (self.resolve_ident(r, at), r) {
            (Ok(found), _) => {
                self.mark_read(r);
                found
            }
            // A variable named as an integer source: its address in its state space.
            (Err(e), Reg::Ident { name, component }) if want.is_integer() && want.bits() >= 32 => {
                let value = address::symbol_value(name, *component).ok_or(e)?;
                self.helpers.add(address::SYMBOL_ADDR);
                (Expr::other(value), CType::Uint(64))
            }
            (Err(e), _) => return Err(e),
        };
        convert(&name, ty, want, &mut self.helpers).ok_or_else(|| {
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
    pub(super) fn dest(
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
                // Written, never read: used, so that `-Wall` has nothing to say.
                post.push(format!("(void){t};"));
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
                        if assigned && same {
                            // A same-width integer converts modulo 2^n on assignment.
                            return Ok(operands::write(
                                reg,
                                want,
                                &op.expr,
                                op.direct,
                                &mut self.helpers,
                            ));
                        }
                        let target =
                            operands::write(reg, reg, &op.expr, op.direct, &mut self.helpers);
                        // Computed in a temporary, then stored once.
                        let t = self.temp();
                        pre.push(format!("{want} {t};"));
                        let conv = widen_into(&t, want, reg, &mut self.helpers)
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
                    let (name, ty) = self.resolve_ident(r, at)?;
                    (name.to_string(), ty)
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
        let conv = widen_into(&t, want, reg, &mut self.helpers)
            .ok_or_else(|| result_mismatch(want, reg, at))?;
        post.push(format!("{lvalue} = {conv};"));
        Ok(t)
    }

    /// A `.reg` local or special register named in the PTX, as a C++ expression and its type.
    pub(super) fn resolve_ident(
        &mut self,
        r: &Reg,
        at: usize,
    ) -> Result<(Expr, CType), Unsupported> {
        let Reg::Ident { name, component } = r else {
            return Err(Unsupported::at(
                Code::OperandBinding,
                format!("operand `{}` does not exist in this statement", reg_text(r)),
                at,
            ));
        };
        if component.is_none() {
            if let Some(l) = self.local(name) {
                return Ok((Expr::other(l.c_name.clone()), l.ty));
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
            for h in sr.helpers(self.target) {
                self.helpers.add(h);
            }
            return Ok((Expr::from_table(sr.expression(self.target)), ty));
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
}

pub(super) fn visit_regs(op: &ptx::Operand, f: &mut impl FnMut(&Reg)) {
    match op {
        ptx::Operand::Reg(r) | ptx::Operand::NotReg(r) => f(r),
        ptx::Operand::Vector(v) => v.iter().for_each(|o| visit_regs(o, f)),
        ptx::Operand::Memory { base: Some(r), .. } => f(r),
        ptx::Operand::PredPair(a, b) => a.iter().chain(b).for_each(f),
        ptx::Operand::TensorAddress(parts) => parts.iter().for_each(|o| visit_regs(o, f)),
        _ => {}
    }
}

pub(super) fn result_mismatch(value: CType, reg: CType, at: usize) -> Unsupported {
    Unsupported::at(
        Code::OperandBinding,
        format!("a {value} result cannot be written to a {reg} register"),
        at,
    )
}

pub(super) fn operand_mismatch(i: usize, reg: CType, want: CType, at: usize) -> Unsupported {
    Unsupported::at(
        Code::OperandBinding,
        format!("operand %{i} is a {reg} register but the instruction needs a {want} value (constraint/type mismatch)"),
        at,
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::translate;

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
    fn a_value_already_cast_to_the_type_a_template_casts_it_to_is_cast_once() {
        // `({T.arith}){b}` of the literal `(uint32_t)1`, `({D}){a}` of the signed read.
        let code = translate("add.u32 %0, %1, 1;", &[("=r", "r"), ("r", "a")]).unwrap();
        assert_eq!(
            code,
            "ptx2hip_out_r(r) = (uint32_t)((uint32_t)ptx2hip_in_r(a) + (uint32_t)1);"
        );
        let code = translate("cvt.s32.s32 %0, %1;", &[("=r", "d"), ("r", "x")]).unwrap();
        assert_eq!(code, "ptx2hip_out_r(d) = (int32_t)ptx2hip_in_r(x);");
        // A cast to another type stays.
        let code = translate("add.s32 %0, %1, 1;", &[("=r", "r"), ("r", "a")]).unwrap();
        assert_eq!(
            code,
            "ptx2hip_out_r(r) = (int32_t)((uint32_t)(int32_t)ptx2hip_in_r(a) + (uint32_t)(int32_t)1);"
        );
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
}
