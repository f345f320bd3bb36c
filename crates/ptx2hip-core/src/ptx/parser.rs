//! Recursive-descent parser from [`Token`]s to the [`Block`] syntax tree.
//!
//! One token of lookahead (`self.tok`) is enough everywhere except to tell a label (`NAME:`) from
//! an instruction; for that the lexer, which is just a position, is cloned and run one step.
//!
//! Choices worth knowing:
//! * `{` opens a scope at statement start and a vector operand in operand position.
//! * A `.word` at statement start is a declaration directive; after an opcode it is a modifier,
//!   whatever whitespace separates them (`prmt .b32`).
//! * `%%name` and `%name` are the same PTX identifier and are stored as `%name`.
//! * A label made with `%=` is stored with the `%=` as text: `LAB_%=`. The operand `%=` alone is
//!   [`Reg::UniqueId`].
//! * The operands of `bra` are [`Operand::Label`]s when they are plain identifiers.
//! * The last instruction of the template may omit its `;` (the end of the template ends it);
//!   inside `{ }` the `;` is required.
//! * Nesting of `{ }` is limited to [`MAX_DEPTH`] so that hostile input cannot overflow the stack.
//! * Immediates are constant expressions (`123 * 123U + 1`, `(1 << 4) - 1`, `WARP_SZ`), evaluated
//!   here to one integer; a float literal stands alone. Address offsets are constant expressions
//!   too (`[%0+4*8]`).
//! * `[tensor, {c0, c1}]` addresses (`cp.async.bulk.tensor`, `tex`) are [`Operand::TensorAddress`].
//! * `_` is a sink: an operand of its own, either side of `p|q`, and an element of `{ }`.
//! * `.pragma "text";` is an item of its own; declarations take `.align N` and `name[N]` arrays.

use super::ast::*;
use super::lexer::{Lexer, Tok, Token};
use super::PtxError;

/// Deepest `{ }` nesting accepted.
pub const MAX_DEPTH: usize = 64;
/// Largest `%r<N>` range accepted; each name is allocated, so this bounds memory on bad input.
pub const MAX_RANGE: u64 = 65536;

type Result<T> = std::result::Result<T, PtxError>;

/// Parses a whole asm template (see the module docs for the accepted grammar).
pub fn parse(template: &str) -> Result<Block> {
    let mut p = Parser {
        src: template,
        lex: Lexer::new(template),
        tok: Token {
            kind: Tok::Eof,
            start: 0,
            end: 0,
        },
        lex_error: None,
        prev_end: 0,
        depth: 0,
    };
    p.tok = p.advance();
    let block = p.block(None)?;
    Ok(block)
}

struct Parser<'a> {
    src: &'a str,
    lex: Lexer<'a>,
    /// Current (not yet consumed) token.
    tok: Token,
    /// End offset of the last consumed token, for spans that end before trailing trivia.
    prev_end: usize,
    /// The error behind a current [`Tok::Error`] token.
    lex_error: Option<PtxError>,
    depth: usize,
}

fn err<T>(message: impl Into<String>, span: std::ops::Range<usize>) -> Result<T> {
    Err(PtxError {
        message: message.into(),
        span,
    })
}

/// `%%name` → `%name`; other spellings are already the PTX name.
fn ident_name(text: &str) -> String {
    match text.strip_prefix("%%") {
        Some(rest) => format!("%{rest}"),
        None => text.to_string(),
    }
}

impl<'a> Parser<'a> {
    /// Lexes the next token; a lexing error becomes a [`Tok::Error`] token (see there).
    fn advance(&mut self) -> Token {
        match self.lex.next_token() {
            Ok(t) => t,
            Err(e) => {
                let t = Token {
                    kind: Tok::Error,
                    start: e.span.start,
                    end: e.span.end,
                };
                self.lex_error = Some(e);
                t
            }
        }
    }

    /// Consumes the current token; consuming an error token reports its error.
    fn bump(&mut self) -> Result<Token> {
        let t = self.tok;
        if t.kind == Tok::Error {
            return Err(self.lex_error.clone().unwrap_or_else(|| PtxError {
                message: "invalid token".into(),
                span: t.span(),
            }));
        }
        self.prev_end = t.end;
        self.tok = self.advance();
        Ok(t)
    }

    /// The token after the current one (an error shows as [`Tok::Error`]).
    fn peek2(&self) -> Result<Token> {
        let mut lex = self.lex.clone();
        Ok(lex.next_token().unwrap_or(Token {
            kind: Tok::Error,
            start: 0,
            end: 0,
        }))
    }

    /// An error at `span`; if `span` is the current token and that token failed to lex, the
    /// lexer's message is the precise one.
    fn fail<T>(&self, message: impl Into<String>, span: std::ops::Range<usize>) -> Result<T> {
        match &self.lex_error {
            Some(e) if self.tok.kind == Tok::Error && span == self.tok.span() => Err(e.clone()),
            _ => err(message, span),
        }
    }

    fn text(&self, t: Token) -> &'a str {
        &self.src[t.start..t.end]
    }

    /// Text of the current token for messages, or "end of template".
    fn describe(&self) -> String {
        match self.tok.kind {
            Tok::Eof => "end of template".to_string(),
            _ => format!("'{}'", self.text(self.tok)),
        }
    }

    fn expect(&mut self, kind: Tok, what: &str) -> Result<Token> {
        if self.tok.kind == kind {
            self.bump()
        } else {
            self.fail(
                format!("expected {what}, found {}", self.describe()),
                self.tok.span(),
            )
        }
    }

    /// Statements up to the end of the template (`open == None`) or to the `}` matching `open`.
    fn block(&mut self, open: Option<Token>) -> Result<Block> {
        let mut items = Vec::new();
        loop {
            match self.tok.kind {
                Tok::Eof => {
                    return match open {
                        Some(o) => self.fail(
                            "unterminated '{': a scope this statement leaves open (for a later asm statement to close?)",
                            o.span(),
                        ),
                        None => Ok(Block { items }),
                    }
                }
                Tok::RBrace => {
                    if open.is_some() {
                        return Ok(Block { items });
                    }
                    return self.fail(
                        "unmatched '}': it closes a scope this statement did not open (an earlier asm statement's?)",
                        self.tok.span(),
                    );
                }
                Tok::Semi => {
                    self.bump()?;
                }
                Tok::LBrace => {
                    let o = self.bump()?;
                    if self.depth >= MAX_DEPTH {
                        return self.fail("'{' scopes nested too deeply", o.span());
                    }
                    self.depth += 1;
                    let block = self.block(Some(o))?;
                    self.depth -= 1;
                    let close = self.bump()?;
                    items.push(Item::Scope {
                        block,
                        span: o.start..close.end,
                    });
                }
                Tok::DotWord if self.text(self.tok) == ".pragma" => items.push(self.pragma()?),
                Tok::DotWord => items.push(Item::RegDecl(self.decl()?)),
                Tok::Ident if self.peek2()?.kind == Tok::Colon => {
                    let name = self.bump()?;
                    let colon = self.bump()?;
                    items.push(Item::Label {
                        name: ident_name(self.text(name)),
                        span: name.start..colon.end,
                    });
                }
                Tok::Ident | Tok::At => {
                    items.push(Item::Instruction(self.instruction(open.is_none())?))
                }
                _ => {
                    return self.fail(
                        format!(
                            "expected an instruction, declaration, label or '{{', found {}",
                            self.describe()
                        ),
                        self.tok.span(),
                    )
                }
            }
        }
    }

    /// `.reg [.vN] .type name[<N>], ...;`
    fn decl(&mut self) -> Result<RegDecl> {
        let dir = self.bump()?;
        let space = &self.src[dir.start + 1..dir.end];
        if !matches!(
            space,
            "reg" | "local" | "shared" | "const" | "global" | "param"
        ) {
            return self.fail(format!("unsupported directive '.{space}'"), dir.span());
        }
        let mut vector = None;
        let mut align = None;
        let mut ty = None;
        while self.tok.kind == Tok::DotWord {
            let t = self.bump()?;
            let word = &self.src[t.start + 1..t.end];
            if ty.is_some() {
                return self.fail(
                    format!("unexpected '.{word}' after the declared type"),
                    t.span(),
                );
            }
            match word {
                "v2" | "v4" | "v8" if vector.is_none() => vector = word[1..].parse().ok(),
                "v2" | "v4" | "v8" => return self.fail("vector width given twice", t.span()),
                "align" if align.is_none() => align = Some(self.count("an alignment")?),
                "align" => return self.fail("alignment given twice", t.span()),
                _ => ty = Some(word.to_string()),
            }
        }
        let Some(ty) = ty else {
            return self.fail(
                format!(
                    "expected a type such as '.u32' in declaration, found {}",
                    self.describe()
                ),
                self.tok.span(),
            );
        };
        let mut names = Vec::new();
        let mut array: Option<Vec<u64>> = None;
        loop {
            let t = self.expect(Tok::Ident, "a register name")?;
            let name = ident_name(self.text(t));
            let mut dims = Vec::new();
            while self.tok.kind == Tok::LBracket {
                self.bump()?;
                dims.push(self.count("an array size")?);
                self.expect(Tok::RBracket, "']' to close the array size")?;
            }
            if array.get_or_insert_with(|| dims.clone()) != &dims {
                return self.fail(
                    "names of one declaration with different array sizes are not supported",
                    t.span(),
                );
            }
            if self.tok.kind == Tok::Lt {
                self.bump()?;
                let n = self.tok;
                let count = match (n.kind, self.text(n).parse::<u64>()) {
                    (Tok::Number, Ok(c)) => c,
                    _ => {
                        return self.fail(
                            format!(
                                "unknown register range: expected a count, found {}",
                                self.describe()
                            ),
                            n.span(),
                        )
                    }
                };
                if count == 0 || count > MAX_RANGE {
                    return self.fail(
                        format!("unknown register range: count must be 1..={MAX_RANGE}"),
                        n.span(),
                    );
                }
                self.bump()?;
                self.expect(Tok::Gt, "'>' to close the register range")?;
                names.extend((0..count).map(|i| format!("{name}{i}")));
            } else {
                names.push(name);
            }
            match self.tok.kind {
                Tok::Comma => {
                    self.bump()?;
                }
                Tok::Semi => {
                    let semi = self.bump()?;
                    return Ok(RegDecl {
                        space: space.to_string(),
                        align,
                        vector,
                        ty,
                        names,
                        array: array.unwrap_or_default(),
                        span: dir.start..semi.end,
                    });
                }
                _ => {
                    return self.fail(
                        format!(
                            "expected ',' or ';' after declared name, found {}",
                            self.describe()
                        ),
                        self.tok.span(),
                    )
                }
            }
        }
    }

    /// `.pragma "text";`
    fn pragma(&mut self) -> Result<Item> {
        let dir = self.bump()?;
        let t = self.expect(Tok::Str, "a string after '.pragma'")?;
        let text = self.src[t.start + 1..t.end - 1].to_string();
        let semi = self.expect(Tok::Semi, "';' after the pragma")?;
        Ok(Item::Pragma {
            text,
            span: dir.start..semi.end,
        })
    }

    /// A non-negative size (an alignment, an array size): a constant expression.
    fn count(&mut self, what: &str) -> Result<u64> {
        let start = self.tok.start;
        match self.constant(0)? {
            Constant::Int(v) => u64::try_from(v).or_else(|_| {
                self.fail(format!("{what} must not be negative"), start..self.prev_end)
            }),
            Constant::Float(_) => {
                self.fail(format!("{what} must be an integer"), start..self.prev_end)
            }
        }
    }

    /// `[@[!]guard] opcode[.mod]* [operand {, operand}] ;`
    fn instruction(&mut self, top_level: bool) -> Result<Instruction> {
        let start = self.tok.start;
        let guard = if self.tok.kind == Tok::At {
            self.bump()?;
            let negated = self.tok.kind == Tok::Bang;
            if negated {
                self.bump()?;
            }
            Some(Guard {
                negated,
                reg: self.reg("a predicate after '@'")?,
            })
        } else {
            None
        };
        if self.tok.kind != Tok::Ident || self.text(self.tok).starts_with('%') {
            return self.fail(
                format!("expected an opcode, found {}", self.describe()),
                self.tok.span(),
            );
        }
        let op = self.bump()?;
        let opcode = self.text(op).to_string();
        if opcode.contains('%') {
            return self.fail("'%=' is not allowed in an opcode", op.span());
        }
        let mut modifiers = Vec::new();
        while self.tok.kind == Tok::DotWord {
            let m = self.bump()?;
            modifiers.push(self.src[m.start + 1..m.end].to_string());
        }
        let mut end = self.prev_end;
        let mut operands = Vec::new();
        let is_branch = opcode == "bra";
        let finished = |p: &Self| p.tok.kind == Tok::Semi || (top_level && p.tok.kind == Tok::Eof);
        if !finished(self) && matches!(self.tok.kind, Tok::RBrace | Tok::Eof) {
            return self.fail(
                format!(
                    "expected ';' after '{}', found {}",
                    self.text(op),
                    self.describe()
                ),
                self.tok.span(),
            );
        }
        if !finished(self) {
            loop {
                operands.push(self.operand(is_branch)?);
                end = self.prev_end;
                match self.tok.kind {
                    Tok::Comma => {
                        self.bump()?;
                    }
                    _ if finished(self) => break,
                    Tok::DotWord
                        if is_video_selector(&self.src[self.tok.start + 1..self.tok.end]) =>
                    {
                        return self.fail(
                            video_selector_message(&self.src[self.tok.start + 1..self.tok.end]),
                            self.tok.span(),
                        )
                    }
                    _ => {
                        return self.fail(
                            format!(
                                "expected ',' or ';' after operand, found {}",
                                self.describe()
                            ),
                            self.tok.span(),
                        )
                    }
                }
            }
        }
        if self.tok.kind == Tok::Semi {
            end = self.bump()?.end;
        }
        Ok(Instruction {
            guard,
            opcode,
            modifiers,
            operands,
            span: start..end,
        })
    }

    /// A register reference; `what` names it in the error message.
    fn reg(&mut self, what: &str) -> Result<Reg> {
        let t = self.tok;
        let reg = match t.kind {
            Tok::AsmOperand(n) => Reg::AsmOperand(n),
            Tok::AsmNamed => Reg::AsmNamed(self.src[t.start + 2..t.end - 1].to_string()),
            Tok::UniqueId => Reg::UniqueId,
            Tok::Ident if self.text(t) != "_" => {
                self.bump()?;
                return Ok(Reg::Ident {
                    name: ident_name(self.text(t)),
                    component: self.component()?,
                });
            }
            _ => {
                return self.fail(
                    format!("expected {what}, found {}", self.describe()),
                    t.span(),
                )
            }
        };
        self.bump()?;
        Ok(reg)
    }

    /// Optional `.x`/`.y`/`.z`/`.w` (or `.r .g .b .a`) after an identifier.
    fn component(&mut self) -> Result<Option<char>> {
        if self.tok.kind != Tok::DotWord {
            return Ok(None);
        }
        let word = &self.src[self.tok.start + 1..self.tok.end];
        match word {
            "x" | "y" | "z" | "w" | "r" | "g" | "b" | "a" => {
                self.bump()?;
                Ok(word.chars().next())
            }
            _ if is_video_selector(word) => self.fail(video_selector_message(word), self.tok.span()),
            _ => self.fail(
                format!("unexpected '.{word}' after register: only .x .y .z .w .r .g .b .a components are allowed"),
                self.tok.span(),
            ),
        }
    }

    /// One operand.
    fn operand(&mut self, is_branch: bool) -> Result<Operand> {
        let t = self.tok;
        let op = match t.kind {
            Tok::Ident if self.text(t) == "_" => {
                self.bump()?;
                if self.tok.kind == Tok::Pipe {
                    self.bump()?;
                    Operand::PredPair(None, self.pair_side()?)
                } else {
                    Operand::Discard
                }
            }
            Tok::Ident if is_predefined_constant(self.text(t)) => Operand::Imm(self.immediate()?),
            Tok::Ident if is_branch => {
                self.bump()?;
                Operand::Label(ident_name(self.text(t)))
            }
            // `!p` negates a predicate; `!0`, `!(a == b)` start a constant expression.
            Tok::Bang if !starts_constant(self.peek2()?.kind) => {
                self.bump()?;
                Operand::NotReg(self.reg("a predicate after '!'")?)
            }
            Tok::Bang => Operand::Imm(self.immediate()?),
            Tok::Number | Tok::Minus | Tok::Plus | Tok::LParen | Tok::Tilde => {
                Operand::Imm(self.immediate()?)
            }
            Tok::LBracket => self.memory()?,
            Tok::LBrace => self.vector()?,
            Tok::Ident | Tok::AsmOperand(_) | Tok::AsmNamed | Tok::UniqueId => {
                let r = self.reg("a register")?;
                if self.tok.kind == Tok::Pipe {
                    self.bump()?;
                    Operand::PredPair(Some(r), self.pair_side()?)
                } else {
                    Operand::Reg(r)
                }
            }
            _ => {
                return self.fail(
                    format!("expected an operand, found {}", self.describe()),
                    t.span(),
                )
            }
        };
        Ok(op)
    }

    /// The second half of `d|p`: a predicate register or the sink `_`.
    fn pair_side(&mut self) -> Result<Option<Reg>> {
        if self.tok.kind == Tok::Ident && self.text(self.tok) == "_" {
            self.bump()?;
            return Ok(None);
        }
        self.reg("a predicate or '_' after '|'").map(Some)
    }

    /// `{a, b, _, d}`
    fn vector(&mut self) -> Result<Operand> {
        let open = self.bump()?;
        let mut elems = Vec::new();
        if self.tok.kind == Tok::RBrace {
            return self.fail("empty vector operand", open.start..self.tok.end);
        }
        loop {
            if matches!(self.tok.kind, Tok::LBrace | Tok::LBracket) {
                return self.fail(
                    "vector operand elements must be registers, '_' or immediates",
                    self.tok.span(),
                );
            }
            if self.tok.kind == Tok::Eof {
                return self.fail("unterminated vector operand '{'", open.span());
            }
            elems.push(self.operand(false)?);
            match self.tok.kind {
                Tok::Comma => {
                    self.bump()?;
                }
                Tok::RBrace => {
                    self.bump()?;
                    return Ok(Operand::Vector(elems));
                }
                Tok::Eof => return self.fail("unterminated vector operand '{'", open.span()),
                _ => {
                    return self.fail(
                        format!(
                            "expected ',' or '}}' in vector operand, found {}",
                            self.describe()
                        ),
                        self.tok.span(),
                    )
                }
            }
        }
    }

    /// `[base]`, `[base+off]`, `[base-off]`, `[base + -off]`, `[off]`, or a tensor address
    /// `[tensor, {c0, c1}]`.
    fn memory(&mut self) -> Result<Operand> {
        let open = self.bump()?;
        let base = match self.tok.kind {
            Tok::Number | Tok::Minus | Tok::Plus | Tok::LParen | Tok::Tilde => None,
            _ => Some(self.reg("an address register or offset in '[ ]'")?),
        };
        if let (Some(b), Tok::Comma) = (&base, self.tok.kind) {
            let mut parts = vec![Operand::Reg(b.clone())];
            while self.tok.kind == Tok::Comma {
                self.bump()?;
                if matches!(self.tok.kind, Tok::LBracket | Tok::RBracket | Tok::Eof) {
                    return self.fail(
                        format!("expected a coordinate, found {}", self.describe()),
                        self.tok.span(),
                    );
                }
                parts.push(self.operand(false)?);
            }
            return match self.tok.kind {
                Tok::RBracket => {
                    self.bump()?;
                    Ok(Operand::TensorAddress(parts))
                }
                _ => self.fail(
                    format!(
                        "expected ',' or ']' in the tensor address, found {}",
                        self.describe()
                    ),
                    self.tok.span(),
                ),
            };
        }
        let offset = if base.is_none() || matches!(self.tok.kind, Tok::Plus | Tok::Minus) {
            self.offset()?
        } else {
            0
        };
        match self.tok.kind {
            Tok::RBracket => {
                self.bump()?;
                Ok(Operand::Memory { base, offset })
            }
            Tok::Eof => self.fail("unterminated '['", open.span()),
            _ => self.fail(
                format!(
                    "expected ']' to close the address, found {}",
                    self.describe()
                ),
                self.tok.span(),
            ),
        }
    }

    /// A signed integer offset: `+`/`-` signs, then an integer constant expression.
    fn offset(&mut self) -> Result<i64> {
        let start = self.tok.start;
        // The first token after the signs must start a number: `[%1+%2]` is not an address.
        let mut first = self.tok;
        let mut ahead = self.lex.clone();
        while matches!(first.kind, Tok::Plus | Tok::Minus) {
            first = ahead.next_token().unwrap_or(Token {
                kind: Tok::Error,
                start: first.end,
                end: first.end,
            });
        }
        let starts_number = match first.kind {
            Tok::Number | Tok::LParen | Tok::Tilde => true,
            Tok::Ident => is_predefined_constant(self.text(first)),
            _ => false,
        };
        if !starts_number {
            let found = match first.kind {
                Tok::Eof | Tok::Error => "end of template".to_string(),
                _ => format!("'{}'", self.text(first)),
            };
            return self.fail(
                format!("expected an integer offset, found {found}"),
                first.span(),
            );
        }
        let v = match self.constant(0)? {
            Constant::Int(v) => v,
            Constant::Float(_) => {
                return self.fail("address offset must be an integer", start..self.prev_end)
            }
        };
        i64::try_from(v).or_else(|_| {
            self.fail(
                "address offset does not fit in 64 bits",
                start..self.prev_end,
            )
        })
    }

    /// An immediate: a number (a float literal with an optional sign) or an integer constant
    /// expression.
    fn immediate(&mut self) -> Result<Immediate> {
        Ok(match self.constant(0)? {
            Constant::Int(v) => Immediate::Int(v),
            Constant::Float(f) => f,
        })
    }

    /// A constant expression whose operators bind tighter than `min`, with C's operators and
    /// precedence as PTX defines them (`* / %`, `+ -`, `<< >>`, `< > <= >=`, `== !=`, `&`, `^`,
    /// `|`, `&&`, `||`, then `?:`), evaluated exactly; only a lone float literal may be a float.
    fn constant(&mut self, min: u8) -> Result<Constant> {
        if self.depth >= MAX_DEPTH {
            return self.fail("constant expression nested too deeply", self.tok.span());
        }
        self.depth += 1;
        let result = self.constant_inner(min);
        self.depth -= 1;
        result
    }

    fn constant_inner(&mut self, min: u8) -> Result<Constant> {
        let start = self.tok.start;
        let mut left = self.constant_unary()?;
        loop {
            if self.tok.kind == Tok::Question {
                if min >= TERNARY {
                    return Ok(left);
                }
                self.bump()?;
                let cond = self.int_operand(left, start)?;
                let then = self.constant(0)?;
                self.expect(Tok::Colon, "':' of the conditional expression")?;
                let otherwise = self.constant(0)?;
                left = if truth(cond) { then } else { otherwise };
                continue;
            }
            let Some((op, precedence, len)) = binary_operator(self.tok.kind, self.peek2()?.kind)
            else {
                return Ok(left);
            };
            if precedence <= min {
                return Ok(left);
            }
            for _ in 0..len {
                self.bump()?;
            }
            let right = self.constant(precedence)?;
            let span = start..self.prev_end;
            let (Constant::Int(l), Constant::Int(r)) = (&left, &right) else {
                return self.fail(
                    "floating-point constant expressions are not supported",
                    span,
                );
            };
            left = match evaluate(op, *l, *r) {
                Ok(v) => Constant::Int(v),
                Err(why) => return self.fail(why, span),
            };
        }
    }

    /// An integer operand of `?:` or `!`.
    fn int_operand(&self, c: Constant, start: usize) -> Result<i128> {
        match c {
            Constant::Int(v) => Ok(v),
            Constant::Float(_) => self.fail(
                "floating-point constant expressions are not supported",
                start..self.prev_end,
            ),
        }
    }

    fn constant_unary(&mut self) -> Result<Constant> {
        let t = self.tok;
        match t.kind {
            Tok::Minus | Tok::Plus | Tok::Tilde | Tok::Bang => {
                self.bump()?;
                let operand = self.constant_unary_nested()?;
                let span = t.start..self.prev_end;
                match (t.kind, operand) {
                    (Tok::Plus, c) => Ok(c),
                    (Tok::Minus, Constant::Int(v)) => Ok(Constant::Int(v.wrapping_neg())),
                    (Tok::Tilde, Constant::Int(v)) => Ok(Constant::Int(!v)),
                    (Tok::Bang, Constant::Int(v)) => Ok(Constant::Int(i128::from(!truth(v)))),
                    (Tok::Minus, Constant::Float(f)) => Ok(Constant::Float(negate(f))),
                    (kind, _) => self.fail(
                        format!(
                            "'{}' applies to integers only",
                            if kind == Tok::Bang { '!' } else { '~' }
                        ),
                        span,
                    ),
                }
            }
            Tok::LParen => {
                self.bump()?;
                let value = self.constant(0)?;
                self.expect(Tok::RParen, "')' in the constant expression")?;
                Ok(value)
            }
            Tok::Ident if is_predefined_constant(self.text(t)) => {
                self.bump()?;
                Ok(Constant::Int(WARP_SIZE))
            }
            Tok::Number => {
                self.bump()?;
                match parse_number(self.text(t)) {
                    Ok(Number::Int(m)) => i128::try_from(m)
                        .map(Constant::Int)
                        .or_else(|_| self.fail("integer literal too large", t.span())),
                    Ok(Number::F32(b)) => Ok(Constant::Float(Immediate::F32Bits(b))),
                    Ok(Number::F64(b)) => Ok(Constant::Float(Immediate::F64Bits(b))),
                    Ok(Number::Float) => Ok(Constant::Float(Immediate::Float(self.text(t).into()))),
                    Err(m) => self.fail(m, t.span()),
                }
            }
            _ => self.fail(
                format!("expected a number, found {}", self.describe()),
                t.span(),
            ),
        }
    }

    /// The operand of a unary operator, one level deeper (`- - - 1` cannot overflow the stack).
    fn constant_unary_nested(&mut self) -> Result<Constant> {
        if self.depth >= MAX_DEPTH {
            return self.fail("constant expression nested too deeply", self.tok.span());
        }
        self.depth += 1;
        let result = self.constant_unary();
        self.depth -= 1;
        result
    }
}

/// The value of a constant expression.
/// The precedence of `?:`, below every binary operator.
const TERNARY: u8 = 1;

/// A binary operator of constant expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
}

/// The operator the current token (and the next) start, with its C precedence (higher binds
/// tighter) and its length in tokens.
fn binary_operator(tok: Tok, next: Tok) -> Option<(BinOp, u8, usize)> {
    Some(match (tok, next) {
        (Tok::Star, _) => (BinOp::Mul, 11, 1),
        (Tok::Slash, _) => (BinOp::Div, 11, 1),
        (Tok::Percent, _) => (BinOp::Rem, 11, 1),
        (Tok::Plus, _) => (BinOp::Add, 10, 1),
        (Tok::Minus, _) => (BinOp::Sub, 10, 1),
        (Tok::Lt, Tok::Lt) => (BinOp::Shl, 9, 2),
        (Tok::Gt, Tok::Gt) => (BinOp::Shr, 9, 2),
        (Tok::Lt, Tok::Eq) => (BinOp::Le, 8, 2),
        (Tok::Gt, Tok::Eq) => (BinOp::Ge, 8, 2),
        (Tok::Lt, _) => (BinOp::Lt, 8, 1),
        (Tok::Gt, _) => (BinOp::Gt, 8, 1),
        (Tok::Eq, Tok::Eq) => (BinOp::Eq, 7, 2),
        (Tok::Bang, Tok::Eq) => (BinOp::Ne, 7, 2),
        (Tok::Amp, Tok::Amp) => (BinOp::And, 3, 2),
        (Tok::Amp, _) => (BinOp::BitAnd, 6, 1),
        (Tok::Caret, _) => (BinOp::BitXor, 5, 1),
        (Tok::Pipe, Tok::Pipe) => (BinOp::Or, 2, 2),
        (Tok::Pipe, _) => (BinOp::BitOr, 4, 1),
        _ => return None,
    })
}

/// A token that starts a constant expression after `!` (`!0`, `!(a)`, `!!1`, `!WARP_SZ`), where
/// a predicate register would make `!p` a negated predicate.
fn starts_constant(tok: Tok) -> bool {
    matches!(
        tok,
        Tok::Number | Tok::LParen | Tok::Tilde | Tok::Bang | Tok::Minus | Tok::Plus
    )
}

/// An integer constant's 64 bits, as PTX evaluates constant expressions in 64 bits (`.s64` or
/// `.u64`); `None` outside both ranges.
fn bits(v: i128) -> Option<u64> {
    (-(1i128 << 63)..(1i128 << 64))
        .contains(&v)
        .then_some(v as u64)
}

/// Whether an integer constant is true (nonzero in its 64 bits).
fn truth(v: i128) -> bool {
    v as u64 != 0
}

/// `l op r`, exactly; the reason when it cannot be evaluated exactly. A comparison's result is 0
/// or 1 and needs operands whose order is the same read as `.s64` or `.u64` (PTX converts both
/// to `.u64` when either is unsigned, which ptx2hip does not track); equality compares the 64 bits.
fn evaluate(op: BinOp, l: i128, r: i128) -> std::result::Result<i128, String> {
    let shift = |r: i128| u32::try_from(r).ok().filter(|&r| r < 128);
    let overflow = || "constant expression overflows or divides by zero".to_string();
    let ordered = |l: i128, r: i128| -> std::result::Result<(i128, i128), String> {
        let exact = |v: i128| (0..(1i128 << 63)).contains(&v);
        if exact(l) && exact(r) {
            Ok((l, r))
        } else {
            Err("a comparison of a negative or 64-bit-wide constant: its result depends on whether PTX reads the operands as .s64 or .u64, which ptx2hip does not track".into())
        }
    };
    let word = |v: i128| bits(v).ok_or_else(overflow);
    Ok(match op {
        BinOp::Mul => l.checked_mul(r).ok_or_else(overflow)?,
        BinOp::Div => l.checked_div(r).ok_or_else(overflow)?,
        BinOp::Rem => l.checked_rem(r).ok_or_else(overflow)?,
        BinOp::Add => l.checked_add(r).ok_or_else(overflow)?,
        BinOp::Sub => l.checked_sub(r).ok_or_else(overflow)?,
        BinOp::Shl => shift(r)
            .and_then(|r| l.checked_shl(r))
            .ok_or_else(overflow)?,
        BinOp::Shr => shift(r)
            .and_then(|r| l.checked_shr(r))
            .ok_or_else(overflow)?,
        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => {
            let (l, r) = ordered(l, r)?;
            i128::from(match op {
                BinOp::Lt => l < r,
                BinOp::Gt => l > r,
                BinOp::Le => l <= r,
                _ => l >= r,
            })
        }
        BinOp::Eq => i128::from(word(l)? == word(r)?),
        BinOp::Ne => i128::from(word(l)? != word(r)?),
        BinOp::BitAnd => l & r,
        BinOp::BitXor => l ^ r,
        BinOp::BitOr => l | r,
        BinOp::And => i128::from(truth(l) && truth(r)),
        BinOp::Or => i128::from(truth(l) || truth(r)),
    })
}

enum Constant {
    Int(i128),
    /// A float literal (with its sign); floats take no part in arithmetic.
    Float(Immediate),
}

/// `WARP_SZ`, the one predefined constant of PTX: the warp size, 32 on every NVIDIA GPU.
fn is_predefined_constant(name: &str) -> bool {
    name == "WARP_SZ"
}

const WARP_SIZE: i128 = 32;

/// A float literal with its sign flipped.
fn negate(f: Immediate) -> Immediate {
    match f {
        Immediate::F32Bits(b) => Immediate::F32Bits(b ^ (1 << 31)),
        Immediate::F64Bits(b) => Immediate::F64Bits(b ^ (1 << 63)),
        Immediate::Float(s) => Immediate::Float(match s.strip_prefix('-') {
            Some(rest) => rest.to_string(),
            None => format!("-{s}"),
        }),
        other => other,
    }
}

/// A validated numeric literal (sign not included).
enum Number {
    Int(u128),
    F32(u32),
    F64(u64),
    /// Decimal float; its text is kept as written.
    Float,
}

fn digits_value(digits: &str, radix: u32) -> std::result::Result<u128, String> {
    if digits.is_empty() {
        return Err("missing digits in integer literal".into());
    }
    let mut v: u128 = 0;
    for c in digits.chars() {
        let d = c
            .to_digit(radix)
            .ok_or_else(|| format!("invalid digit '{c}' in integer literal"))?;
        v = v
            .checked_mul(u128::from(radix))
            .and_then(|v| v.checked_add(u128::from(d)))
            .ok_or("integer literal too large")?;
    }
    Ok(v)
}

/// Validates and evaluates the text of a [`Tok::Number`].
fn parse_number(text: &str) -> std::result::Result<Number, String> {
    let b = text.as_bytes();
    if b.len() >= 2 && b[0] == b'0' {
        let rest = &text[2..];
        match b[1] {
            b'f' | b'F' => {
                return match (rest.len(), u32::from_str_radix(rest, 16)) {
                    (8, Ok(v)) if rest.bytes().all(|c| c.is_ascii_hexdigit()) => Ok(Number::F32(v)),
                    _ => Err("'0f' float literal needs exactly 8 hex digits".into()),
                }
            }
            b'd' | b'D' => {
                return match (rest.len(), u64::from_str_radix(rest, 16)) {
                    (16, Ok(v)) if rest.bytes().all(|c| c.is_ascii_hexdigit()) => {
                        Ok(Number::F64(v))
                    }
                    _ => Err("'0d' double literal needs exactly 16 hex digits".into()),
                }
            }
            b'x' | b'X' => return digits_value(strip_u(rest), 16).map(Number::Int),
            b'b' | b'B' => return digits_value(strip_u(rest), 2).map(Number::Int),
            _ => {}
        }
    }
    if text.contains(['.', 'e', 'E']) {
        return if is_decimal_float(text) {
            Ok(Number::Float)
        } else {
            Err(format!("invalid float literal '{text}'"))
        };
    }
    let digits = strip_u(text);
    if digits.len() > 1 && digits.starts_with('0') {
        digits_value(&digits[1..], 8)
            .map(Number::Int)
            .map_err(|e| format!("{e} (octal)"))
    } else {
        digits_value(digits, 10).map(Number::Int)
    }
}

fn strip_u(s: &str) -> &str {
    s.strip_suffix(['U', 'u']).unwrap_or(s)
}

/// `digits [. digits*] [e|E [+|-] digits]` with a fraction or an exponent.
fn is_decimal_float(s: &str) -> bool {
    let (mant, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (int, frac) = match mant.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mant, None),
    };
    let all_digits = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
    let exp_ok = match exp {
        None => frac.is_some(),
        Some(e) => {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && all_digits(e)
        }
    };
    !int.is_empty() && all_digits(int) && frac.is_none_or(all_digits) && exp_ok
}

/// `.b0`..`.b7`, `.b3210`, `.h1`, `.h10`...: the byte/half-word operand selectors, subword
/// destinations and masks of the video instructions (`vadd4 d.b10, a.b3210, b.b7654, c`).
fn is_video_selector(word: &str) -> bool {
    let mut chars = word.chars();
    match chars.next() {
        Some('b') => word.len() > 1 && chars.all(|c| ('0'..='7').contains(&c)),
        Some('h') => word.len() > 1 && chars.all(|c| ('0'..='3').contains(&c)),
        _ => false,
    }
}

fn video_selector_message(word: &str) -> String {
    format!(
        "operand selector '.{word}' (a video instruction's byte/half-word selection, subword destination or mask) is not translated: only the default selectors are"
    )
}
