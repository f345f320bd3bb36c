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
                        Some(o) => self.fail("unterminated '{'", o.span()),
                        None => Ok(Block { items }),
                    }
                }
                Tok::RBrace => {
                    if open.is_some() {
                        return Ok(Block { items });
                    }
                    return self.fail("unmatched '}'", self.tok.span());
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
                "align" => return self.fail("'.align' in declarations is not supported", t.span()),
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
        loop {
            let t = self.expect(Tok::Ident, "a register name")?;
            let name = ident_name(self.text(t));
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
            } else if self.tok.kind == Tok::LBracket {
                return self.fail("array declarations are not supported", self.tok.span());
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
                        vector,
                        ty,
                        names,
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
            Tok::Ident if is_branch => {
                self.bump()?;
                Operand::Label(ident_name(self.text(t)))
            }
            Tok::Bang => {
                self.bump()?;
                Operand::NotReg(self.reg("a predicate after '!'")?)
            }
            Tok::Number | Tok::Minus | Tok::Plus => Operand::Imm(self.immediate()?),
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

    /// `[base]`, `[base+off]`, `[base-off]`, `[base + -off]`, `[off]`
    fn memory(&mut self) -> Result<Operand> {
        let open = self.bump()?;
        let base = match self.tok.kind {
            Tok::Number | Tok::Minus | Tok::Plus => None,
            _ => Some(self.reg("an address register or offset in '[ ]'")?),
        };
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

    /// A signed integer offset: any number of `+`/`-` signs, then an integer literal.
    fn offset(&mut self) -> Result<i64> {
        let start = self.tok.start;
        let mut negative = false;
        while matches!(self.tok.kind, Tok::Plus | Tok::Minus) {
            negative ^= self.tok.kind == Tok::Minus;
            self.bump()?;
        }
        let t = self.expect(Tok::Number, "an integer offset")?;
        let span = start..t.end;
        let mag = match parse_number(self.text(t)) {
            Ok(Number::Int(m)) => m,
            Ok(_) => return self.fail("address offset must be an integer", span),
            Err(m) => return self.fail(m, t.span()),
        };
        if mag > u128::from(u64::MAX) {
            return self.fail("address offset does not fit in 64 bits", span);
        }
        let v = if negative {
            -(mag as i128)
        } else {
            mag as i128
        };
        i64::try_from(v).or_else(|_| self.fail("address offset does not fit in 64 bits", span))
    }

    /// `[-]number`
    fn immediate(&mut self) -> Result<Immediate> {
        let start = self.tok.start;
        let negative = self.tok.kind == Tok::Minus;
        if matches!(self.tok.kind, Tok::Minus | Tok::Plus) {
            self.bump()?;
        }
        let t = self.expect(Tok::Number, "a number")?;
        let text = self.text(t);
        match parse_number(text) {
            Ok(Number::Int(m)) => {
                let v = if negative {
                    if m > 1u128 << 127 {
                        return self.fail("integer literal too large", start..t.end);
                    }
                    (m as i128).wrapping_neg()
                } else {
                    i128::try_from(m)
                        .or_else(|_| self.fail("integer literal too large", t.span()))?
                };
                Ok(Immediate::Int(v))
            }
            Ok(Number::F32(b)) => Ok(Immediate::F32Bits(if negative { b ^ (1 << 31) } else { b })),
            Ok(Number::F64(b)) => Ok(Immediate::F64Bits(if negative { b ^ (1 << 63) } else { b })),
            Ok(Number::Float) => Ok(Immediate::Float(if negative {
                format!("-{text}")
            } else {
                text.to_string()
            })),
            Err(m) => self.fail(m, t.span()),
        }
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
