//! Preprocessing tokens of C++ text: what the template expander and the statement reader work on.
//!
//! Blanks, comments and `\`-newline continuations are skipped (and remembered as
//! [`Token::space_before`], which stringification needs); string literals with any encoding
//! prefix, raw strings included, are one token.

use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Str,
    Ident,
    Hash,
    HashHash,
    LParen,
    RParen,
    Comma,
    Colon,
    LBracket,
    RBracket,
    Other,
}

#[derive(Debug, Clone)]
pub struct Token {
    pub kind: Kind,
    pub text: Vec<u8>,
    /// File offset of the token's first byte when `exact`; else the file offset it stands for.
    pub at: usize,
    /// The text is the file's own bytes at `at`.
    pub exact: bool,
    /// Blanks (or the start of the text) come before it.
    pub space_before: bool,
    /// For a token a macro expansion produced: the offset of the statement's name whose
    /// expansion it comes from.
    pub site: Option<usize>,
}

impl Token {
    /// The file offset after the token (for a token of the file's own bytes).
    pub fn end(&self) -> usize {
        self.at + self.text.len()
    }
}

/// Where the tokens of a text come from.
#[derive(Clone, Copy)]
pub enum Source {
    /// The scanned file: offsets are exact.
    File,
    /// Another text (a header): every token stands for this file offset.
    Elsewhere(usize),
}

/// The preprocessing tokens of `text[range]`, skipping blanks, comments, continuations and the
/// `blank` ranges.
pub fn lex(text: &[u8], range: Range<usize>, source: Source, blank: &[Range<usize>]) -> Vec<Token> {
    Spans::new(text, range, blank)
        .map(|span| span.to_token(text, source))
        .collect()
}

/// A token of a text that stays at hand: its kind and where its bytes are, without a copy of
/// them. What the readers of a whole file (declarations, function bodies) work on, so that a file
/// costs no allocation per token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub kind: Kind,
    /// Offset of the token's first byte.
    pub at: usize,
    /// Offset after its last byte.
    pub end: usize,
    /// Blanks (or the start of the text) come before it.
    pub space_before: bool,
}

impl Span {
    /// The token's bytes in the text it was read from.
    pub fn text<'t>(&self, text: &'t [u8]) -> &'t [u8] {
        &text[self.at..self.end]
    }

    /// The token with its own copy of its bytes, for readers that rewrite token lists (the macro
    /// expander, the readers of a macro's uses).
    pub fn to_token(self, text: &[u8], source: Source) -> Token {
        let (at, exact) = match source {
            Source::File => (self.at, true),
            Source::Elsewhere(at) => (at, false),
        };
        Token {
            kind: self.kind,
            text: self.text(text).to_vec(),
            at,
            exact,
            space_before: self.space_before,
            site: None,
        }
    }
}

/// The preprocessing tokens of `text[range]` as [`Span`]s, skipping what [`lex`] skips.
pub fn spans(text: &[u8], range: Range<usize>, blank: &[Range<usize>]) -> Vec<Span> {
    Spans::new(text, range, blank).collect()
}

/// The lexer: one token per step.
struct Spans<'t> {
    text: &'t [u8],
    i: usize,
    end: usize,
    blank: &'t [Range<usize>],
    space: bool,
}

impl<'t> Spans<'t> {
    fn new(text: &'t [u8], range: Range<usize>, blank: &'t [Range<usize>]) -> Self {
        let end = range.end.min(text.len());
        Spans {
            text,
            i: range.start.min(end),
            end,
            blank,
            space: true,
        }
    }
}

impl Iterator for Spans<'_> {
    type Item = Span;

    fn next(&mut self) -> Option<Span> {
        let (text, end) = (self.text, self.end);
        while self.i < end {
            let mut i = self.i;
            if let Some(r) = self.blank.iter().find(|r| r.contains(&i)) {
                self.i = r.end.max(i + 1);
                self.space = true;
                continue;
            }
            let b = text[i];
            let start = i;
            let kind = match b {
                b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c' => {
                    self.i = i + 1;
                    self.space = true;
                    continue;
                }
                b'\\' if matches!(text.get(i + 1), Some(b'\n' | b'\r')) => {
                    self.i = i + if text.get(i + 1) == Some(&b'\r') {
                        3
                    } else {
                        2
                    };
                    self.space = true;
                    continue;
                }
                b'/' if text.get(i + 1) == Some(&b'/') => {
                    self.i = memchr::memchr(b'\n', &text[i..end]).map_or(end, |p| i + p);
                    self.space = true;
                    continue;
                }
                b'/' if text.get(i + 1) == Some(&b'*') => {
                    self.i =
                        memchr::memmem::find(&text[i + 2..end], b"*/").map_or(end, |p| i + p + 4);
                    self.space = true;
                    continue;
                }
                b'"' => {
                    i = literal_end(text, i, end);
                    Kind::Str
                }
                b'\'' => {
                    i = quoted(text, i, end, b'\'');
                    Kind::Other
                }
                b'#' if text.get(i + 1) == Some(&b'#') => {
                    i += 2;
                    Kind::HashHash
                }
                b'#' | b'(' | b')' | b',' | b':' | b'[' | b']' => {
                    i += 1;
                    match b {
                        b'#' => Kind::Hash,
                        b'(' => Kind::LParen,
                        b')' => Kind::RParen,
                        b',' => Kind::Comma,
                        b':' => Kind::Colon,
                        b'[' => Kind::LBracket,
                        _ => Kind::RBracket,
                    }
                }
                _ if b.is_ascii_alphabetic() || b == b'_' => {
                    i += text[i..end]
                        .iter()
                        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                        .count();
                    let word = &text[start..i];
                    if text.get(i) == Some(&b'"')
                        && matches!(
                            word,
                            b"u8" | b"u" | b"U" | b"L" | b"R" | b"u8R" | b"uR" | b"UR" | b"LR"
                        )
                    {
                        i = literal_end(text, i, end);
                        Kind::Str
                    } else {
                        Kind::Ident
                    }
                }
                _ if b.is_ascii_digit() => {
                    i += 1 + text[i + 1..end]
                        .iter()
                        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_'))
                        .count();
                    Kind::Other
                }
                _ => {
                    i += 1;
                    Kind::Other
                }
            };
            let space_before = self.space;
            self.space = false;
            self.i = i;
            return Some(Span {
                kind,
                at: start,
                end: i,
                space_before,
            });
        }
        None
    }
}

/// The end of the string literal whose `"` is at `quote` (raw when its prefix ends in `R`).
fn literal_end(text: &[u8], quote: usize, end: usize) -> usize {
    if quote > 0 && text[quote - 1] == b'R' {
        let limit = (quote + 18).min(end);
        if let Some(open) = text[quote + 1..limit].iter().position(|&b| b == b'(') {
            let open = quote + 1 + open;
            let mut close = vec![b')'];
            close.extend_from_slice(&text[quote + 1..open]);
            close.push(b'"');
            return memchr::memmem::find(&text[open..end], &close)
                .map_or(end, |p| open + p + close.len());
        }
    }
    quoted(text, quote, end, b'"')
}

fn quoted(text: &[u8], mut i: usize, end: usize, quote: u8) -> usize {
    i += 1;
    while i < end {
        match text[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(Kind, String)> {
        lex(src.as_bytes(), 0..src.len(), Source::File, &[])
            .into_iter()
            .map(|t| (t.kind, String::from_utf8(t.text).unwrap()))
            .collect()
    }

    #[test]
    fn literals_names_and_punctuation_are_tokens_and_blanks_are_not() {
        use Kind::*;
        assert_eq!(
            kinds("\"a\" u8\"b\" R\"x(c)\")x\" /* c */ N(#p ## q, [r]) : 1.5 \\\n'z'"),
            vec![
                (Str, "\"a\"".into()),
                (Str, "u8\"b\"".into()),
                (Str, "R\"x(c)\")x\"".into()),
                (Ident, "N".into()),
                (LParen, "(".into()),
                (Hash, "#".into()),
                (Ident, "p".into()),
                (HashHash, "##".into()),
                (Ident, "q".into()),
                (Comma, ",".into()),
                (LBracket, "[".into()),
                (Ident, "r".into()),
                (RBracket, "]".into()),
                (RParen, ")".into()),
                (Colon, ":".into()),
                (Other, "1.5".into()),
                (Other, "'z'".into()),
            ]
        );
    }

    #[test]
    fn blank_ranges_are_skipped_and_offsets_are_exact() {
        let src = "\"a\" SKIP \"b\"";
        let at = src.find("SKIP").unwrap();
        let t = lex(
            src.as_bytes(),
            0..src.len(),
            Source::File,
            std::slice::from_ref(&(at..at + 4)),
        );
        assert_eq!(t.len(), 2);
        assert_eq!((t[1].at, t[1].end()), (src.find("\"b").unwrap(), src.len()));
        assert!(t[1].space_before);
    }
}
