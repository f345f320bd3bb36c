//! Taking one `gnu_asm_expression` node apart into an [`AsmStatement`].
//!
//! The node may come from the file's own tree or from a re-parsed `#define` body; either way all
//! positions go through the [`OffsetMap`] of the buffer that was parsed, so the result only holds
//! file offsets.

use tree_sitter::Node;

use super::literal::{decode_string_literal, Decoded};
use super::lone_name;
use super::macros::Defines;
use super::nesting::Surroundings;
use super::position::{indent_at, LineIndex, OffsetMap};
use super::{AsmStatement, MacroContext, Operand, Place, ScanDiagnostic, Template};

/// Message for asm that tree-sitter could not take apart.
pub const UNPARSABLE: &str =
    "could not parse this asm statement (template is not a string literal?)";

/// Message for asm with a preprocessor directive inside: its text depends on the configuration.
pub const HAS_DIRECTIVE: &str =
    "a preprocessor directive inside the asm statement: left as written";

/// Message for asm among statements whose `;` does not follow it: a rewrite would need to know
/// where the statement ends.
pub const NOT_TERMINATED: &str = "this asm statement is not followed by its `;` (a syntax error, a macro, or an `#if` arm boundary between them): left as written";

/// Everything needed to read statements out of one parsed buffer.
pub struct Context<'a> {
    /// The file.
    pub src: &'a [u8],
    /// The bytes that were parsed (the file itself, or a prepared `#define` body).
    pub buf: &'a [u8],
    pub map: &'a OffsetMap,
    pub lines: &'a LineIndex,
    pub defines: &'a Defines,
    /// Set for a `#define` body: the macro and its parameter names.
    pub in_macro: Option<(MacroContext, Vec<&'a [u8]>)>,
}

impl Context<'_> {
    fn text(&self, n: Node) -> String {
        String::from_utf8_lossy(&self.buf[n.byte_range()]).into_owned()
    }

    pub fn diagnostic(&self, buf_range: std::ops::Range<usize>, message: &str) -> ScanDiagnostic {
        let span = self.map.range_to_file(buf_range);
        let (line, column) = self.lines.line_col(span.start);
        ScanDiagnostic {
            span,
            line,
            column,
            message: message.to_string(),
        }
    }

    /// The statement for `asm`, `Ok(None)` for a compiler barrier (empty template). `around` is
    /// what encloses it and `semicolon` the file offset after the `;` that follows it with only
    /// whitespace and comments between (see `nesting::semicolon_after`). Among statements, a
    /// statement without its `;` is an error: where it ends cannot be known.
    pub fn statement(
        &self,
        asm: Node,
        around: &Surroundings,
        semicolon: Option<usize>,
    ) -> Result<Option<AsmStatement>, ScanDiagnostic> {
        let unparsable = || self.diagnostic(asm.byte_range(), UNPARSABLE);
        if !tolerable_errors(asm) {
            return Err(unparsable());
        }
        let code = asm
            .child_by_field_name("assembly_code")
            .ok_or_else(unparsable)?;
        let template = self.template(code).ok_or_else(unparsable)?;
        if matches!(&template, Template::Known { text, .. } if is_blank_ptx(text)) {
            return Ok(None);
        }
        if semicolon.is_none() && around.place == Place::Block && self.in_macro.is_none() {
            return Err(self.diagnostic(asm.byte_range(), NOT_TERMINATED));
        }
        let asm_span = self.map.range_to_file(asm.byte_range());
        let span = asm_span.start..semicolon.unwrap_or(asm_span.end);
        let terminated = semicolon.is_some();
        let (line, column) = self.lines.line_col(span.start);
        let (end_line, end_column) = self.lines.line_col(span.end);
        let mut cursor = asm.walk();
        let qualifiers = asm
            .children(&mut cursor)
            .filter(|c| c.kind() == "gnu_asm_qualifier")
            .map(|q| self.text(q))
            .collect();
        Ok(Some(AsmStatement {
            line,
            column,
            end_line,
            end_column,
            keyword: asm.child(0).map(|k| self.text(k)).unwrap_or_default(),
            qualifiers,
            template,
            outputs: self
                .operands(asm.child_by_field_name("output_operands"))
                .ok_or_else(unparsable)?,
            inputs: self
                .operands(asm.child_by_field_name("input_operands"))
                .ok_or_else(unparsable)?,
            clobbers: self.list(asm.child_by_field_name("clobbers"), "register", |n| {
                self.decode(n).text
            }),
            goto_labels: self.list(asm.child_by_field_name("goto_labels"), "label", |n| {
                self.text(n)
            }),
            indent: indent_at(self.src, self.lines, span.start),
            in_macro: self.in_macro.as_ref().map(|(m, _)| m.clone()),
            span,
            terminated,
            place: around.place.clone(),
        }))
    }

    /// Decodes a string literal node; origins are file offsets.
    fn decode(&self, lit: Node) -> Decoded {
        let mut d = Decoded::default();
        decode_string_literal(&self.buf[lit.byte_range()], lit.start_byte(), &mut d);
        d.origins = self.map.origins_to_file(&d.origins, d.text.len());
        d
    }

    /// The template, `None` if a piece is neither a literal nor a name (tree-sitter error).
    fn template(&self, code: Node) -> Option<Template> {
        let mut cursor = code.walk();
        let pieces: Vec<Node> = match code.kind() {
            "concatenated_string" => code
                .named_children(&mut cursor)
                .filter(|c| c.kind() != "comment")
                .collect(),
            _ => vec![code],
        };
        let mut out = Decoded::default();
        let mut unresolved = None;
        for mut piece in pieces {
            if let Some(name) = piece
                .named_child(0)
                .filter(|n| piece.is_error() && n.kind() == "identifier")
            {
                piece = name;
            }
            let at = self.map.to_file(piece.start_byte());
            // A literal whose bytes are a name is a lone macro name the parser saw masked.
            let kind = match piece.kind() {
                "string_literal" if lone_name::is_name(&self.buf[piece.byte_range()]) => {
                    "identifier"
                }
                kind => kind,
            };
            match kind {
                "string_literal" | "raw_string_literal" => out.append(&self.decode(piece)),
                "identifier" => match self.resolve(piece) {
                    Ok(d) => out.append(d),
                    Err(reason) => {
                        unresolved.get_or_insert(Template::Unresolved { reason, at });
                    }
                },
                _ => match self.stringified(piece) {
                    Some(reason) => {
                        unresolved.get_or_insert(Template::Unresolved { reason, at });
                    }
                    None => return None,
                },
            }
        }
        Some(unresolved.unwrap_or(Template::Known {
            text: out.text,
            origins: out.origins,
        }))
    }

    fn resolve(&self, name: Node) -> Result<&Decoded, String> {
        let text = self.text(name);
        if let Some((m, params)) = &self.in_macro {
            if params.contains(&text.as_bytes()) {
                return Err(format!(
                    "template piece `{text}` is a parameter of macro `{}`",
                    m.name
                ));
            }
        }
        self.defines.resolve(&text)
    }

    /// Reason for a `#param` stringification piece in a macro body (parsed as an ERROR node
    /// holding a `preproc_directive`).
    fn stringified(&self, piece: Node) -> Option<String> {
        let (m, _) = self.in_macro.as_ref()?;
        let directive = piece
            .named_child(0)
            .filter(|d| piece.is_error() && d.kind() == "preproc_directive")?;
        Some(format!(
            "template piece `{}` stringifies a parameter of macro `{}`",
            self.text(directive),
            m.name
        ))
    }

    /// Operands of an operand list, looking through the ERROR nodes that a missing comma between
    /// operands produces. `None` if the list holds anything else.
    fn operands(&self, list: Option<Node>) -> Option<Vec<Operand>> {
        let mut out = Vec::new();
        if let Some(list) = list {
            self.collect_operands(list, &mut out)?;
        }
        Some(out)
    }

    fn collect_operands(&self, list: Node, out: &mut Vec<Operand>) -> Option<()> {
        let mut cursor = list.walk();
        for child in list.named_children(&mut cursor) {
            match child.kind() {
                "gnu_asm_output_operand" | "gnu_asm_input_operand" => {
                    out.push(self.operand(child)?)
                }
                "ERROR" => self.collect_operands(child, out)?,
                "comment" => {}
                _ => return None,
            }
        }
        Some(())
    }

    fn operand(&self, op: Node) -> Option<Operand> {
        let value = op
            .child_by_field_name("value")
            .filter(|v| !v.is_missing())?;
        let constraint = op.child_by_field_name("constraint")?;
        Some(Operand {
            name: op.child_by_field_name("symbol").map(|s| self.text(s)),
            constraint: self.decode(constraint).text,
            expr: self.text(value),
            expr_span: self.map.range_to_file(value.byte_range()),
            c_strings: Vec::new(),
        })
    }

    fn list(&self, list: Option<Node>, field: &str, f: impl Fn(Node) -> String) -> Vec<String> {
        let Some(list) = list else { return Vec::new() };
        let mut cursor = list.walk();
        list.children_by_field_name(field, &mut cursor)
            .map(f)
            .collect()
    }
}

/// Errors inside an asm node are tolerated only where a missing comma between operands put
/// well-formed operands into an ERROR node, or around a lone name or `#param` template piece.
/// Iterative: an operand can nest parentheses as deep as the input likes.
fn tolerable_errors(asm: Node) -> bool {
    let mut pending = vec![(asm, "")];
    while let Some((node, parent)) = pending.pop() {
        if node.is_missing() {
            return false;
        }
        if !node.has_error() {
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        if node.is_error() {
            let only_operands = children.iter().all(|c| {
                matches!(
                    c.kind(),
                    "gnu_asm_output_operand" | "gnu_asm_input_operand" | "," | "comment"
                )
            });
            // A name after the first template piece (`"mov" S " %0;"`) or a `#param` in a macro body
            // comes as an ERROR node holding just that: the template decides whether it is acceptable.
            let lone_piece = matches!(children.as_slice(), [d] if matches!(d.kind(), "identifier" | "preproc_directive"));
            if !(parent.ends_with("_operand_list") && only_operands
                || parent == "concatenated_string" && lone_piece)
            {
                return false;
            }
        }
        pending.extend(children.into_iter().map(|c| (c, node.kind())));
    }
    true
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
