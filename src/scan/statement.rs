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
use super::{AsmStatement, MacroContext, Operand, Template};

/// What a statement turned out to be.
pub enum Read {
    Statement(AsmStatement),
    /// A template of only blanks and comments: a compiler barrier.
    Barrier,
}

/// Everything needed to read statements of one file.
pub struct Reader<'a> {
    pub src: &'a [u8],
    pub lines: &'a LineIndex,
    pub expander: &'a Expander<'a>,
    /// File bytes the preprocessor leaves out (directive lines, arms AMD does not compile).
    pub blank: &'a [Range<usize>],
    /// The statement sits in this `#define` body.
    pub in_macro: Option<MacroContext>,
}

/// Operand lists, clobbers and labels: the sections after the template.
const SECTIONS: [&str; 4] = ["outputs", "inputs", "clobbers", "goto labels"];

impl Reader<'_> {
    /// Reads the statement at `extent` with its already expanded `template`; the error says what
    /// could not be read.
    pub fn read(&self, extent: &Extent, template: Template) -> Result<Read, String> {
        let head = lex(
            self.src,
            extent.expr.start..extent.template.start.saturating_sub(1),
            Source::File,
            &[],
        );
        let keyword = head
            .first()
            .map(|t| String::from_utf8_lossy(&t.text).into_owned())
            .unwrap_or_default();
        let qualifiers = head
            .iter()
            .skip(1)
            .map(|t| String::from_utf8_lossy(&t.text).into_owned())
            .collect();
        let rest = lex(
            self.src,
            extent.template.end..extent.expr.end.saturating_sub(1),
            Source::File,
            self.blank,
        );
        let sections = split_sections(&rest)?;
        let mut outputs = Vec::new();
        let mut inputs = Vec::new();
        let mut clobbers = Vec::new();
        let mut goto_labels = Vec::new();
        for (k, section) in sections.iter().enumerate() {
            match k {
                0 => outputs = self.operands(section, SECTIONS[k])?,
                1 => inputs = self.operands(section, SECTIONS[k])?,
                2 => clobbers = self.clobbers(section)?,
                _ => goto_labels = labels(section)?,
            }
        }
        if matches!(&template, Template::Known { text, .. } if is_blank_ptx(text)) {
            return Ok(Read::Barrier);
        }
        let span = extent.span();
        let (line, column) = self.lines.line_col(span.start);
        let (end_line, end_column) = self.lines.line_col(span.end);
        Ok(Read::Statement(AsmStatement {
            line,
            column,
            end_line,
            end_column,
            keyword,
            qualifiers,
            template,
            outputs,
            inputs,
            clobbers,
            goto_labels,
            indent: indent_at(self.src, self.lines, span.start),
            in_macro: self.in_macro.clone(),
            terminated: extent.semicolon.is_some(),
            span,
        }))
    }

    /// One operand list.
    fn operands(&self, tokens: &[Token], section: &str) -> Result<Vec<Operand>, String> {
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
                    _ => return Err(format!("a malformed `[name]` in the {section}")),
                }
            }
            let constraint_start = i;
            while tokens
                .get(i)
                .is_some_and(|t| matches!(t.kind, Kind::Str | Kind::Ident))
            {
                i += 1;
            }
            if i == constraint_start {
                return Err(format!(
                    "expected a constraint string in the {section}, found {}",
                    describe(tokens.get(i))
                ));
            }
            let open = match tokens.get(i) {
                Some(t) if t.kind == Kind::LParen => t,
                other => {
                    return Err(format!(
                        "expected `(expression)` after the constraint in the {section}, found {}",
                        describe(other)
                    ))
                }
            };
            let close = matching_paren(tokens, i)
                .ok_or_else(|| format!("an unclosed `(` in the {section}"))?;
            let constraint = self
                .expander
                .strings(tokens[constraint_start..i].to_vec())
                .map_err(|reason| format!("the constraint in the {section}: {reason}"))?;
            let expr_span = open.end()..tokens[close].at;
            out.push(Operand {
                name,
                constraint,
                expr: self.expression(expr_span.clone()),
                expr_span,
                c_strings: Vec::new(),
            });
            i = close + 1;
            // Operands are separated by commas; nvcc also accepts none between two operands.
            match tokens.get(i).map(|t| t.kind) {
                Some(Kind::Comma) => i += 1,
                None | Some(Kind::LBracket | Kind::Str | Kind::Ident) => {}
                _ => {
                    return Err(format!(
                        "expected `,` between operands in the {section}, found {}",
                        describe(tokens.get(i))
                    ))
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

    fn clobbers(&self, tokens: &[Token]) -> Result<Vec<String>, String> {
        tokens
            .split(|t| t.kind == Kind::Comma)
            .filter(|c| !c.is_empty())
            .map(|c| {
                self.expander
                    .strings(c.to_vec())
                    .map_err(|reason| format!("a clobber: {reason}"))
            })
            .collect()
    }
}

/// The tokens after the template, split at the `:` between sections (not inside brackets).
fn split_sections(tokens: &[Token]) -> Result<Vec<&[Token]>, String> {
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
            return Err(format!(
                "expected `:` or `)` after the template, found {}",
                describe(Some(t))
            ));
        }
    }
    if let Some(s) = start {
        sections.push(&tokens[s..]);
    }
    if sections.len() > SECTIONS.len() {
        return Err("more than four `:` sections".into());
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

fn labels(tokens: &[Token]) -> Result<Vec<String>, String> {
    tokens
        .split(|t| t.kind == Kind::Comma)
        .filter(|l| !l.is_empty())
        .map(|l| match l {
            [t] if t.kind == Kind::Ident => Ok(String::from_utf8_lossy(&t.text).into_owned()),
            _ => Err(format!(
                "expected a label name, found {}",
                describe(l.first())
            )),
        })
        .collect()
}

fn describe(t: Option<&Token>) -> String {
    match t {
        Some(t) => format!("`{}`", String::from_utf8_lossy(&t.text)),
        None => "the end of the section".into(),
    }
}

/// A template that is only whitespace and PTX comments: a compiler barrier, nothing to translate.
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
