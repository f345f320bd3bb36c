//! Reading one asm statement into an [`AsmStatement`]:
//! `asm qualifiers ( template : outputs : inputs : clobbers : labels )`.
//!
//! The statement's extent comes from [`extract`](super::extract), its template from the
//! [`template`](super::template) expander; this reads the rest from the preprocessing tokens:
//! operands `[name] "constraint" (expression)` (constraints may be macros, as in
//! `_CG_ASM_PTR_CONSTRAINT(p)`), clobbers and goto labels. A missing comma between two operands
//! (`"r"(a.x) "r"(a.y)`) is accepted, as nvcc accepts it.

use std::ops::Range;

use super::extract::Extent;
use super::position::{indent_at, LineIndex};
use super::template::Expander;
use super::tokens::{lex, Kind, Source, Token};
use super::{AsmStatement, MacroContext, Operand, Place, Template};

/// Why a statement cannot be read.
pub enum Unreadable {
    /// Its operand syntax is broken.
    Syntax(String),
    /// A piece only the preprocessor knows (a macro defined elsewhere, a parameter of the
    /// `#define` it sits in): the reason names it.
    Piece { reason: String, at: usize },
}

/// Everything needed to read statements of one file.
pub struct Reader<'a> {
    pub src: &'a [u8],
    pub lines: &'a LineIndex,
    pub expander: &'a Expander<'a>,
    /// File bytes the preprocessor leaves out (directive lines, arms AMD does not compile).
    pub blank: &'a [Range<usize>],
    /// What encloses the statement.
    pub place: Place,
    /// The statement sits in this `#define` body.
    pub in_macro: Option<MacroContext>,
}

/// Operand lists, clobbers and labels: the sections after the template.
const SECTIONS: [&str; 4] = ["outputs", "inputs", "clobbers", "goto labels"];

impl Reader<'_> {
    /// Reads the statement at `extent` with its already expanded `template`. When only its
    /// operands cannot be known, it is still a statement, with an unresolved template that says
    /// why; broken operand syntax is an error that says what is wrong.
    pub fn read(&self, extent: &Extent, template: Template) -> Result<Box<AsmStatement>, String> {
        let mut statement = self.statement(extent, template);
        let head = lex(
            self.src,
            extent.expr.start..extent.template.start.saturating_sub(1),
            Source::File,
            &[],
        );
        let text = |t: &Token| String::from_utf8_lossy(&t.text).into_owned();
        statement.keyword = head.first().map(text).unwrap_or_default();
        statement.qualifiers = head.iter().skip(1).map(text).collect();
        match self.operand_sections(extent, &mut statement) {
            Ok(()) => {}
            Err(Unreadable::Syntax(message)) => return Err(message),
            Err(Unreadable::Piece { reason, at }) => {
                statement.template = Template::Unresolved { reason, at };
                statement.outputs.clear();
                statement.inputs.clear();
                statement.clobbers.clear();
            }
        }
        Ok(Box::new(statement))
    }

    /// Reads the outputs, inputs, clobbers and labels into `statement`.
    fn operand_sections(
        &self,
        extent: &Extent,
        statement: &mut AsmStatement,
    ) -> Result<(), Unreadable> {
        let rest = lex(
            self.src,
            extent.template.end..extent.expr.end.saturating_sub(1),
            Source::File,
            self.blank,
        );
        let read = split_sections(&rest).and_then(|sections| {
            for (k, section) in sections.iter().enumerate() {
                match k {
                    0 => statement.outputs = self.operands(section, SECTIONS[k])?,
                    1 => statement.inputs = self.operands(section, SECTIONS[k])?,
                    2 => statement.clobbers = self.clobbers(section)?,
                    _ => statement.goto_labels = labels(section)?,
                }
            }
            Ok(())
        });
        match read {
            // In a `#define` body, broken syntax around the macro's parameters, `#` or `##` is
            // only known where the macro is used.
            Err(Unreadable::Syntax(message)) => Err(match self.expander.parameter_problem(&rest) {
                Some((reason, at)) => Unreadable::Piece {
                    reason: format!("operands: {reason}"),
                    at,
                },
                None => Unreadable::Syntax(message),
            }),
            other => other,
        }
    }

    /// The statement at `extent`, before its operands are read.
    fn statement(&self, extent: &Extent, template: Template) -> AsmStatement {
        let span = extent.span();
        let (line, column) = self.lines.line_col(span.start);
        let (end_line, end_column) = self.lines.line_col(span.end);
        AsmStatement {
            line,
            column,
            end_line,
            end_column,
            keyword: String::new(),
            qualifiers: Vec::new(),
            template,
            outputs: Vec::new(),
            inputs: Vec::new(),
            clobbers: Vec::new(),
            goto_labels: Vec::new(),
            indent: indent_at(self.src, self.lines, span.start),
            in_macro: self.in_macro.clone(),
            arms: None,
            arch_arm: None,
            terminated: extent.semicolon.is_some(),
            place: self.place.clone(),
            span,
        }
    }

    /// One operand list.
    fn operands(&self, tokens: &[Token], section: &str) -> Result<Vec<Operand>, Unreadable> {
        let syntax = |m: String| Unreadable::Syntax(m);
        let mut out = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let mut name = None;
            if tokens[i].kind == Kind::LBracket {
                match tokens.get(i + 1..i + 3) {
                    Some([n, close]) if n.kind == Kind::Ident && close.kind == Kind::RBracket => {
                        name = Some(String::from_utf8_lossy(&n.text).into_owned());
                        i += 3;
                    }
                    _ => return Err(syntax(format!("a malformed `[name]` in the {section}"))),
                }
            }
            let constraint_start = i;
            while tokens.get(i).is_some_and(|t| {
                matches!(
                    t.kind,
                    Kind::Str | Kind::Ident | Kind::Hash | Kind::HashHash
                )
            }) {
                i += 1;
            }
            if i == constraint_start {
                return Err(syntax(format!(
                    "expected a constraint string in the {section}, found {}",
                    describe(tokens.get(i))
                )));
            }
            let open = match tokens.get(i) {
                Some(t) if t.kind == Kind::LParen => t,
                other => {
                    return Err(syntax(format!(
                        "expected `(expression)` after the constraint in the {section}, found {}",
                        describe(other)
                    )))
                }
            };
            let close = matching_paren(tokens, i)
                .ok_or_else(|| syntax(format!("an unclosed `(` in the {section}")))?;
            let constraint = self
                .expander
                .strings(tokens[constraint_start..i].to_vec())
                .map_err(|(reason, at)| Unreadable::Piece {
                    reason: format!("operand constraint: {reason}"),
                    at,
                })?;
            let expr_span = open.end()..tokens[close].at;
            out.push(Operand {
                name,
                constraint,
                expr: self.expression(expr_span.clone()),
                expr_span,
                c_strings: Vec::new(),
                visible_type: None,
            });
            i = close + 1;
            // Operands are separated by commas; nvcc also accepts none between two operands.
            match tokens.get(i).map(|t| t.kind) {
                Some(Kind::Comma) => i += 1,
                None | Some(Kind::LBracket | Kind::Str | Kind::Ident) => {}
                _ => {
                    return Err(syntax(format!(
                        "expected `,` between operands in the {section}, found {}",
                        describe(tokens.get(i))
                    )))
                }
            }
        }
        Ok(out)
    }

    /// An operand expression exactly as written (in a `#define` body with its continuations
    /// joined).
    fn expression(&self, span: Range<usize>) -> String {
        let bytes = &self.src[span];
        let text = String::from_utf8_lossy(bytes);
        if self.in_macro.is_some() && bytes.contains(&b'\\') {
            text.replace("\\\r\n", "").replace("\\\n", "")
        } else {
            text.into_owned()
        }
    }

    fn clobbers(&self, tokens: &[Token]) -> Result<Vec<String>, Unreadable> {
        tokens
            .split(|t| t.kind == Kind::Comma)
            .filter(|c| !c.is_empty())
            .map(|c| {
                self.expander
                    .strings(c.to_vec())
                    .map_err(|(reason, at)| Unreadable::Piece {
                        reason: format!("clobber: {reason}"),
                        at,
                    })
            })
            .collect()
    }
}

/// The tokens after the template, split at the `:` between sections (not inside brackets).
fn split_sections(tokens: &[Token]) -> Result<Vec<&[Token]>, Unreadable> {
    let mut sections = Vec::new();
    let mut depth = 0usize;
    let mut start = None;
    for (k, t) in tokens.iter().enumerate() {
        match t.kind {
            Kind::LParen | Kind::LBracket => depth += 1,
            Kind::RParen | Kind::RBracket => depth = depth.saturating_sub(1),
            Kind::Colon if depth == 0 => {
                if let Some(s) = start {
                    sections.push(&tokens[s..k]);
                }
                start = Some(k + 1);
                continue;
            }
            _ => {}
        }
        if start.is_none() {
            return Err(Unreadable::Syntax(format!(
                "expected `:` or `)` after the template, found {}",
                describe(Some(t))
            )));
        }
    }
    if let Some(s) = start {
        sections.push(&tokens[s..]);
    }
    if sections.len() > SECTIONS.len() {
        return Err(Unreadable::Syntax("more than four `:` sections".into()));
    }
    Ok(sections)
}

fn matching_paren(tokens: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate().skip(open) {
        match t.kind {
            Kind::LParen => depth += 1,
            Kind::RParen => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

fn labels(tokens: &[Token]) -> Result<Vec<String>, Unreadable> {
    tokens
        .split(|t| t.kind == Kind::Comma)
        .filter(|l| !l.is_empty())
        .map(|l| match l {
            [t] if t.kind == Kind::Ident => Ok(String::from_utf8_lossy(&t.text).into_owned()),
            _ => Err(Unreadable::Syntax(format!(
                "expected a label name, found {}",
                describe(l.first())
            ))),
        })
        .collect()
}

fn describe(t: Option<&Token>) -> String {
    match t {
        Some(t) => format!("`{}`", String::from_utf8_lossy(&t.text)),
        None => "the end of the section".into(),
    }
}

/// A template of only blanks and comments: a compiler barrier, nothing to translate.
pub fn is_barrier(statement: &AsmStatement) -> bool {
    matches!(&statement.template, Template::Known { text, .. } if is_blank_ptx(text))
}

/// Whether a template is only whitespace and PTX comments.
fn is_blank_ptx(text: &str) -> bool {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else {
            return rest.is_empty();
        }
    }
}
