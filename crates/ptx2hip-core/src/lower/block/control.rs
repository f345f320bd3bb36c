//! Control flow: the PTX items of a block in order, `@p` guards as `if`, forward branches as
//! `if` around the skipped items, backward branches as `do { } while` loops and a branch of a
//! loop's body to the label right after the loop as `break`; labels that no branch structures
//! this way are refused.

use super::*;

impl<'a> Lowerer<'a> {
    pub(super) fn block_items(
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
                    out.extend(self.unread_locals(depth + 1));
                    self.scopes.pop();
                    out.push((depth, "}".to_string()));
                }
                Item::Label { name, span } => {
                    // A label some later `bra` jumps back to opens a loop.
                    if let Some(end) = backward_branch(items, i, name) {
                        let Item::Instruction(bra) = &items[end] else {
                            unreachable!()
                        };
                        let label = match items.get(end + 1) {
                            Some(Item::Label { name, .. }) => Some(name.clone()),
                            _ => None,
                        };
                        let watch = waits_on_mbarrier(&items[i + 1..end]).then(|| {
                            let state = self.names.fresh("p2h_spin");
                            out.push((depth, format!("ptx2hip_spin {state} = {{0, 0}};")));
                            self.helpers.add(SPIN_WATCH);
                            state
                        });
                        out.push((depth, "do {".to_string()));
                        if let Some(state) = &watch {
                            out.push((
                                depth + 1,
                                format!("{SPIN_WATCH}({state}, __FILE__, __LINE__);"),
                            ));
                        }
                        self.conditional_depth += 1;
                        self.loop_exits.push(LoopExit {
                            label,
                            taken: false,
                        });
                        let body = self.block_items(&items[i + 1..end], depth + 1, out);
                        let exited = self.loop_exits.pop().is_some_and(|e| e.taken);
                        self.conditional_depth -= 1;
                        body?;
                        let cond = match &bra.guard {
                            Some(g) => self.guard_condition(g)?,
                            None => "true".to_string(),
                        };
                        out.push((depth, format!("}} while ({cond});")));
                        // The exit label, reached by `break`, has no other branch to structure.
                        i = if exited { end + 2 } else { end + 1 };
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
                Item::Instruction(ins) if ins.opcode == BRANCH => {
                    let target = branch_target(ins).ok_or_else(|| {
                        Unsupported::at(
                            Code::ControlFlow,
                            "`bra` without a label target".to_string(),
                            ins.span.start,
                        )
                    })?;
                    let exit = self
                        .loop_exits
                        .last_mut()
                        .filter(|e| e.label.as_deref() == Some(target));
                    if let (Some(exit), None) = (exit, label_index(items, target)) {
                        exit.taken = true;
                        let stmt = match &ins.guard {
                            Some(g) => format!("if ({}) break;", self.guard_condition(g)?),
                            None => "break;".to_string(),
                        };
                        out.push((depth, stmt));
                        i += 1;
                        continue;
                    }
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

    pub(super) fn guard_condition(&mut self, g: &ptx::Guard) -> Result<String, Unsupported> {
        let v = self.read_reg(&g.reg, CType::Bool, 0)?;
        Ok(if g.negated {
            format!("!{v}")
        } else {
            v.to_string()
        })
    }
}

/// The watchdog a loop around an mbarrier wait calls on each pass (rules/helpers/control.h): a
/// wait that the emulation can never complete (a waiter and its arriver in one AMD wave) traps
/// with the file and line of the statement after PTX2HIP_SPIN_LIMIT_SECONDS instead of hanging.
const SPIN_WATCH: &str = "ptx2hip_spin_watch";

/// Whether a loop body polls an mbarrier (`mbarrier.try_wait` / `test_wait`, in nested scopes
/// too): CUTLASS's `LAB_WAIT: try_wait ...; @P1 bra DONE; bra LAB_WAIT; DONE:`.
fn waits_on_mbarrier(items: &[Item]) -> bool {
    items.iter().any(|item| match item {
        Item::Instruction(ins) => {
            ins.opcode == "mbarrier"
                && ins
                    .modifiers
                    .iter()
                    .any(|m| m == "try_wait" || m == "test_wait")
        }
        Item::Scope { block, .. } => waits_on_mbarrier(&block.items),
        _ => false,
    })
}

pub(super) fn branch_target(ins: &Instruction) -> Option<&str> {
    match ins.operands.as_slice() {
        [ptx::Operand::Label(l)] => Some(l),
        [ptx::Operand::Reg(Reg::Ident {
            name,
            component: None,
        })] => Some(name),
        _ => None,
    }
}

pub(super) fn label_index(items: &[Item], name: &str) -> Option<usize> {
    items
        .iter()
        .position(|it| matches!(it, Item::Label { name: n, .. } if n == name))
}

/// The index of the last `bra` after `label_at` (same block) that jumps back to `name`.
pub(super) fn backward_branch(items: &[Item], label_at: usize, name: &str) -> Option<usize> {
    (label_at + 1..items.len()).rev().find(|&k| {
        matches!(&items[k], Item::Instruction(ins) if ins.opcode == BRANCH && branch_target(ins) == Some(name))
    })
}

pub(super) fn is_branch_target(items: &[Item], name: &str) -> bool {
    items.iter().any(|it| match it {
        Item::Instruction(ins) => ins.opcode == BRANCH && branch_target(ins) == Some(name),
        Item::Scope { block, .. } => is_branch_target(&block.items, name),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backward_branch_is_the_last_bra_to_the_label_after_it() {
        let block = ptx::parse(
            "L: add.u32 %0, %0, 1; setp.lt.u32 p, %0, 9; @p bra L; @p bra.uni L; bra M; M:",
        )
        .unwrap();
        let items = &block.items;
        let at = label_index(items, "L").unwrap();
        assert_eq!(at, 0);
        assert_eq!(backward_branch(items, at, "L"), Some(4));
        assert!(is_branch_target(items, "M"));
        assert!(!is_branch_target(items, "N"));
    }

    #[test]
    fn a_branch_of_a_loop_body_to_the_label_after_the_loop_is_a_break() {
        use crate::lower::block::tests::translate;
        // CUTLASS's mbarrier wait: the loop exits forward to the label after its backward branch.
        let code = translate(
            "{ .reg .pred P1; LAB_WAIT: mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1; \
             @P1 bra DONE; bra LAB_WAIT; DONE: }",
            &[("r", "bar"), ("r", "phase")],
        )
        .unwrap();
        assert!(code.contains("do {"), "{code}");
        assert!(code.contains("if (p2h_P1) break;"), "{code}");
        assert!(code.contains("} while (true);"), "{code}");
        // An unconditional exit, and the same exit from a nested `{ }` scope.
        let code = translate(
            "{ .reg .u32 t; mov.u32 t, 0; L: add.u32 t, t, 1; { bra OUT; } bra L; OUT: mov.u32 %0, t; }",
            &[("=r", "d")],
        )
        .unwrap();
        assert!(code.contains("break;"), "{code}");
        // A label after the loop that another branch skips to is still refused.
        let err = translate(
            "{ .reg .pred p; setp.eq.u32 p, %0, 0; @p bra OUT; L: @p bra OUT; bra L; OUT: }",
            &[("r", "x")],
        )
        .unwrap_err();
        assert!(err.contains("skips over another label"), "{err}");
        // An inner loop's body cannot break out of the outer loop.
        let err = translate(
            "{ .reg .pred p; setp.eq.u32 p, %0, 0; A: B: @p bra OUT; bra B; bra A; OUT: }",
            &[("r", "x")],
        )
        .unwrap_err();
        assert!(err.contains("cannot structure"), "{err}");
    }

    #[test]
    fn a_loop_around_an_mbarrier_wait_calls_the_watchdog_on_each_pass() {
        use crate::lower::block::tests::translate;
        let code = translate(
            "{ .reg .pred P1; LAB_WAIT: mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1; \
             @P1 bra DONE; bra LAB_WAIT; DONE: }",
            &[("r", "bar"), ("r", "phase")],
        )
        .unwrap();
        let watch = "ptx2hip_spin_watch(p2h_spin, __FILE__, __LINE__);";
        assert!(code.contains("ptx2hip_spin p2h_spin = {0, 0};"), "{code}");
        assert!(code.contains(&format!("do {{\n{watch}")), "{code}");
        // A loop that waits on no mbarrier has no watchdog: it may legitimately run for long.
        let code = translate(
            "{ .reg .u32 t; .reg .pred p; mov.u32 t, 0; L: add.u32 t, t, 1; setp.lt.u32 p, t, %1; \
             @p bra L; mov.u32 %0, t; }",
            &[("=r", "d"), ("r", "n")],
        )
        .unwrap();
        assert!(!code.contains("ptx2hip_spin"), "{code}");
    }
}
