//! Statements that come from no file: `ptx2hip explain` and the rule tests build the statement the
//! scanner would have produced for a template and its constraints, so they exercise exactly the
//! path a real source file takes.

use super::{AsmStatement, Operand, Origin, Place, Template};

impl AsmStatement {
    /// `asm volatile("<template>" : <outputs> : <inputs>)` with one operand per constraint (`=r`,
    /// `+l`, `h`, ...), in `%N` order, operand `N` named `opN`; outputs are the `=`/`+` ones.
    pub fn synthetic(template: &str, constraints: &[String]) -> AsmStatement {
        let operand = |i: usize, c: &str| Operand {
            name: None,
            constraint: c.to_string(),
            expr: format!("op{i}"),
            expr_span: 0..0,
            c_strings: Vec::new(),
            visible_type: None,
        };
        let (outputs, inputs): (Vec<_>, Vec<_>) = constraints
            .iter()
            .enumerate()
            .map(|(i, c)| operand(i, c))
            .partition(|o| o.constraint.starts_with('=') || o.constraint.starts_with('+'));
        AsmStatement {
            span: 0..template.len(),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: template.len() + 1,
            keyword: "asm".into(),
            qualifiers: vec!["volatile".into()],
            template: Template::Known {
                text: template.to_string(),
                origins: vec![Origin {
                    text_offset: 0,
                    file_offset: 0,
                }],
            },
            outputs,
            inputs,
            clobbers: Vec::new(),
            goto_labels: Vec::new(),
            indent: String::new(),
            in_macro: None,
            arms: None,
            arch_arm: None,
            terminated: true,
            place: Place::Block,
        }
    }

    /// [`AsmStatement::synthetic`] with each operand's C expression given: `(constraint, expr)`.
    #[cfg(test)]
    pub(crate) fn synthetic_with(template: &str, operands: &[(&str, &str)]) -> AsmStatement {
        let constraints: Vec<String> = operands.iter().map(|(c, _)| c.to_string()).collect();
        let mut stmt = AsmStatement::synthetic(template, &constraints);
        for (op, (_, expr)) in stmt
            .outputs
            .iter_mut()
            .chain(&mut stmt.inputs)
            .zip(operands)
        {
            op.expr = expr.to_string();
        }
        stmt
    }
}
