//! Tokenizer for PTX statements inside an inline-asm template.
//!
//! The input is the template exactly as the C string decodes, so besides PTX it still holds the
//! inline-asm escapes `%0`, `%[name]`, `%%` and `%=`. The lexer resolves those here, once, so that
//! the parser never has to look at raw `%` signs:
//!
//! * `%12` is [`Tok::AsmOperand`], `%[name]` is [`Tok::AsmNamed`], a lone `%=` is [`Tok::UniqueId`];
//! * `%%name` and nvcc's pass-through `%name` (a `%` followed by a letter, `_` or `$`) are both
//!   [`Tok::Ident`]; the parser turns the two spellings into the same PTX name `%name`;
//! * `%=` *inside* an identifier (`LAB_%=`) stays part of the identifier: unique labels are built
//!   that way, and splitting them would make a label two tokens.
//!
//! Tokens are `Copy` and only carry byte offsets: lexing allocates nothing, which matters when a
//! run parses 100k templates. Whitespace and `//`, `/* */` comments are skipped. A `.word` is one
//! [`Tok::DotWord`] token (word may hold `::`, as in `.shared::cta` or `.L2::128B`), which lets the
//! parser accept whitespace before a modifier (`prmt .b32`) for free.

use super::PtxError;

/// Kind of a token; the text is found through the token's span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok {
    /// PTX identifier, possibly written `%%name` / `%name`, possibly holding `%=`.
    Ident,
    /// `%N` with its number.
    AsmOperand(usize),
    /// `%[name]`; the name is `span.start + 2 .. span.end - 1`.
    AsmNamed,
    /// `%=` standing alone.
    UniqueId,
    /// `.word`: a directive, modifier, type or component; the word is `span.start + 1 ..`.
    DotWord,
    /// A numeric literal without sign; validated by the parser.
    Number,
    Comma,
    Semi,
    Colon,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Lt,
    Gt,
    At,
    Bang,
    Pipe,
    Plus,
    Minus,
    /// `"text"` (a `.pragma` argument).
    Str,
    LParen,
    RParen,
    /// Operators of constant expressions. `%` is one only when a blank or `(` follows it
    /// (`%0`, `%r1` are registers).
    Star,
    Slash,
    Percent,
    Amp,
    Caret,
    Tilde,
    /// `=`, in `==`, `!=`, `<=`, `>=` of constant expressions.
    Eq,
    /// `?` of a constant expression's `c ? a : b`.
    Question,
    Eof,
    /// Produced by the parser (never by [`Lexer::next_token`]) in place of a token that failed to
    /// lex; the error is reported only when the parser actually needs that token, so an earlier
    /// syntax error is reported first.
    Error,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
}

impl Token {
    pub fn span(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

/// PTX `followsym`: characters allowed after the first one of an identifier.
fn is_follow(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// First character of a plain identifier (`_` alone is the discard operand, decided later).
fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

/// Cheap to clone: the parser clones it to look one token further ahead.
#[derive(Clone)]
pub(crate) struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Self {
        Lexer { src, pos: 0 }
    }

    fn byte(&self, i: usize) -> Option<u8> {
        self.src.as_bytes().get(i).copied()
    }

    fn err(&self, message: impl Into<String>, start: usize, end: usize) -> PtxError {
        PtxError {
            message: message.into(),
            span: start..end,
        }
    }

    /// Skips whitespace and comments; an unterminated `/*` is an error.
    fn skip_trivia(&mut self) -> Result<(), PtxError> {
        let b = self.src.as_bytes();
        loop {
            match (self.byte(self.pos), self.byte(self.pos + 1)) {
                (Some(c), _) if c.is_ascii_whitespace() => self.pos += 1,
                (Some(b'/'), Some(b'/')) => {
                    while self.pos < b.len() && b[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                (Some(b'/'), Some(b'*')) => {
                    let start = self.pos;
                    match self.src[self.pos + 2..].find("*/") {
                        Some(i) => self.pos += 2 + i + 2,
                        None => {
                            return Err(self.err("unterminated block comment", start, start + 2))
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// Consumes identifier continuation characters, including embedded `%=`.
    fn eat_ident_tail(&mut self) {
        loop {
            match self.byte(self.pos) {
                Some(c) if is_follow(c) => self.pos += 1,
                Some(b'%') if self.byte(self.pos + 1) == Some(b'=') => self.pos += 2,
                _ => return,
            }
        }
    }

    pub fn next_token(&mut self) -> Result<Token, PtxError> {
        self.skip_trivia()?;
        let start = self.pos;
        let Some(c) = self.byte(start) else {
            return Ok(Token {
                kind: Tok::Eof,
                start,
                end: start,
            });
        };
        let single = |kind| Some(kind);
        let punct = match c {
            b',' => single(Tok::Comma),
            b';' => single(Tok::Semi),
            b':' => single(Tok::Colon),
            b'{' => single(Tok::LBrace),
            b'}' => single(Tok::RBrace),
            b'[' => single(Tok::LBracket),
            b']' => single(Tok::RBracket),
            b'<' => single(Tok::Lt),
            b'>' => single(Tok::Gt),
            b'@' => single(Tok::At),
            b'!' => single(Tok::Bang),
            b'|' => single(Tok::Pipe),
            b'+' => single(Tok::Plus),
            b'-' => single(Tok::Minus),
            b'(' => single(Tok::LParen),
            b')' => single(Tok::RParen),
            b'*' => single(Tok::Star),
            b'/' => single(Tok::Slash),
            b'&' => single(Tok::Amp),
            b'^' => single(Tok::Caret),
            b'~' => single(Tok::Tilde),
            b'=' => single(Tok::Eq),
            b'?' => single(Tok::Question),
            b'%' if matches!(self.byte(start + 1), Some(b' ' | b'\t' | b'(')) => {
                single(Tok::Percent)
            }
            // In a statement with operands nvcc reads `%%` as one `%`: the remainder operator
            // `a %% b`.
            b'%' if self.byte(start + 1) == Some(b'%')
                && matches!(self.byte(start + 2), Some(b' ' | b'\t' | b'(')) =>
            {
                self.pos += 1;
                single(Tok::Percent)
            }
            _ => None,
        };
        if let Some(kind) = punct {
            self.pos += 1;
            return Ok(Token {
                kind,
                start,
                end: self.pos,
            });
        }
        let kind = match c {
            b'"' => self.lex_string(start)?,
            b'%' => self.lex_percent(start)?,
            b'.' => {
                self.pos += 1;
                self.lex_dot_word(start)?
            }
            c if c.is_ascii_digit() => self.lex_number(),
            c if is_ident_start(c) => {
                self.pos += 1;
                self.eat_ident_tail();
                Tok::Ident
            }
            _ => {
                let ch = self.src[start..].chars().next().unwrap_or('?');
                let end = start + ch.len_utf8();
                return Err(self.err(format!("unexpected character {ch:?}"), start, end));
            }
        };
        Ok(Token {
            kind,
            start,
            end: self.pos,
        })
    }

    /// `"text"` without escapes (PTX strings only name pragmas and files).
    fn lex_string(&mut self, start: usize) -> Result<Tok, PtxError> {
        match self.src[start + 1..].find(['"', '\n']) {
            Some(i) if self.byte(start + 1 + i) == Some(b'"') => {
                self.pos = start + 1 + i + 1;
                Ok(Tok::Str)
            }
            _ => Err(self.err("unterminated string", start, start + 1)),
        }
    }

    /// Everything that starts with `%`: asm escapes and `%`-identifiers.
    fn lex_percent(&mut self, start: usize) -> Result<Tok, PtxError> {
        match self.byte(start + 1) {
            Some(b'%') => match self.byte(start + 2) {
                Some(c) if is_follow(c) => {
                    self.pos = start + 3;
                    self.eat_ident_tail();
                    Ok(Tok::Ident)
                }
                _ => Err(self.err("expected a register name after '%%'", start, start + 2)),
            },
            Some(d) if d.is_ascii_digit() => {
                let mut i = start + 1;
                let mut n: usize = 0;
                while let Some(d) = self.byte(i).filter(u8::is_ascii_digit) {
                    n = n
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(usize::from(d - b'0')))
                        .ok_or_else(|| self.err("asm operand number too large", start, i + 1))?;
                    i += 1;
                }
                if self.byte(i).is_some_and(is_follow) {
                    return Err(self.err(
                        "invalid asm operand reference: letters after '%N'",
                        start,
                        i + 1,
                    ));
                }
                self.pos = i;
                Ok(Tok::AsmOperand(n))
            }
            Some(b'[') => {
                let mut i = start + 2;
                while self
                    .byte(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
                {
                    i += 1;
                }
                if i == start + 2 || self.byte(start + 2).is_some_and(|c| c.is_ascii_digit()) {
                    return Err(self.err("expected an operand name after '%['", start, i));
                }
                if self.byte(i) != Some(b']') {
                    return Err(self.err("unterminated '%[': expected ']'", start, i));
                }
                self.pos = i + 1;
                Ok(Tok::AsmNamed)
            }
            Some(b'=') => {
                self.pos = start + 2;
                Ok(Tok::UniqueId)
            }
            Some(c) if is_ident_start(c) => {
                self.pos = start + 2;
                self.eat_ident_tail();
                Ok(Tok::Ident)
            }
            _ => Err(self.err("stray '%'", start, start + 1)),
        }
    }

    /// `.word` with optional `::part`s; the word may start with a digit (`.1d`, `.128B`).
    fn lex_dot_word(&mut self, start: usize) -> Result<Tok, PtxError> {
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        if !self.byte(self.pos).is_some_and(word) {
            return Err(self.err("expected a word after '.'", start, start + 1));
        }
        loop {
            while self.byte(self.pos).is_some_and(word) {
                self.pos += 1;
            }
            if self.byte(self.pos) == Some(b':')
                && self.byte(self.pos + 1) == Some(b':')
                && self.byte(self.pos + 2).is_some_and(word)
            {
                self.pos += 2;
            } else {
                return Ok(Tok::DotWord);
            }
        }
    }

    /// Greedy: alphanumerics, a `.fraction`, and a signed exponent. The parser validates the text,
    /// so that `08` or `0f123` get a message about the literal, not about a stray character.
    fn lex_number(&mut self) -> Tok {
        let start = self.pos;
        let alnum = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        while self.byte(self.pos).is_some_and(alnum) {
            self.pos += 1;
        }
        let prefixed = {
            let t = &self.src.as_bytes()[start..self.pos];
            t.len() >= 2
                && t[0] == b'0'
                && matches!(t[1], b'x' | b'X' | b'b' | b'B' | b'f' | b'F' | b'd' | b'D')
        };
        if prefixed {
            return Tok::Number;
        }
        // A fraction; `0.` alone is a float too (as in `mma` operand lists: `{%8, 0., %9, 0.}`),
        // but `1.u32` is not a number followed by a modifier anywhere in PTX, so a letter after
        // the dot is left to the parser's error.
        if self.byte(self.pos) == Some(b'.')
            && !self
                .byte(self.pos + 1)
                .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        {
            self.pos += 1;
            while self.byte(self.pos).is_some_and(alnum) {
                self.pos += 1;
            }
        }
        let last = self.src.as_bytes()[self.pos - 1];
        if matches!(last, b'e' | b'E')
            && matches!(self.byte(self.pos), Some(b'+' | b'-'))
            && self.byte(self.pos + 1).is_some_and(|c| c.is_ascii_digit())
        {
            self.pos += 1;
            while self.byte(self.pos).is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        Tok::Number
    }
}
