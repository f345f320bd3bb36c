//! Decoding of C/C++ string and character literals.
//!
//! Templates are reported as the text the compiler sees (escapes decoded, adjacent pieces joined),
//! but every later error must point back at the file. So decoding records an [`Origin`] at the start
//! of every plain run of characters and at every escape sequence: a text offset then maps exactly to
//! the byte that produced it.

use super::Origin;

/// Decoded template text with origins in the coordinates of the bytes that were decoded (file
/// offsets, or offsets into a re-parsed `#define` body that the caller maps back).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decoded {
    pub text: String,
    pub origins: Vec<Origin>,
}

impl Decoded {
    fn push_run(&mut self, run: &[u8], at: usize) {
        if run.is_empty() {
            return;
        }
        let mut pos = at;
        // Invalid UTF-8 becomes U+FFFD with an origin of its own so later offsets stay exact.
        for chunk in run.utf8_chunks() {
            if !chunk.valid().is_empty() {
                self.mark(pos);
                self.text.push_str(chunk.valid());
                pos += chunk.valid().len();
            }
            if !chunk.invalid().is_empty() {
                self.mark(pos);
                self.text.push(char::REPLACEMENT_CHARACTER);
                pos += chunk.invalid().len();
            }
        }
    }

    fn mark(&mut self, file_offset: usize) {
        self.origins.push(Origin {
            text_offset: self.text.len(),
            file_offset,
        });
    }

    /// Appends another decoded piece, shifting its text offsets.
    pub fn append(&mut self, other: &Decoded) {
        let shift = self.text.len();
        self.origins.extend(other.origins.iter().map(|o| Origin {
            text_offset: o.text_offset + shift,
            file_offset: o.file_offset,
        }));
        self.text.push_str(&other.text);
    }
}

/// Decodes one string literal token (`"..."`, `u8"..."`, `L"..."`, `R"d(...)d"`, ...) whose first
/// byte is at offset `base`, appending to `out`. Returns false if `bytes` is not a string literal.
/// Unterminated literals (as tree-sitter may hand them over in broken code) decode up to the end.
pub fn decode_string_literal(bytes: &[u8], base: usize, out: &mut Decoded) -> bool {
    let Some(quote) = bytes.iter().position(|&b| b == b'"') else {
        return false;
    };
    let prefix = &bytes[..quote];
    let raw = prefix.last() == Some(&b'R');
    let encoding = if raw {
        &prefix[..prefix.len() - 1]
    } else {
        prefix
    };
    if !matches!(encoding, b"" | b"u8" | b"u" | b"U" | b"L") {
        return false;
    }
    let body = &bytes[quote + 1..];
    let body_base = base + quote + 1;
    if raw {
        let Some(open) = body.iter().position(|&b| b == b'(') else {
            return false;
        };
        let delim = &body[..open];
        let content = &body[open + 1..];
        // Closing is `)delim"` at the very end; fall back to everything if it is missing.
        let end = content
            .strip_suffix(b"\"")
            .and_then(|c| c.strip_suffix(delim))
            .and_then(|c| c.strip_suffix(b")"))
            .map_or(content.len(), <[u8]>::len);
        out.push_run(&content[..end], body_base + open + 1);
        return true;
    }
    let content = body.strip_suffix(b"\"").unwrap_or(body);
    decode_escaped(content, body_base, out);
    true
}

/// Decodes a character literal (`'O'`, `'\0'`, `'\x41'`) to its value.
pub fn decode_char_literal(bytes: &[u8]) -> Option<u32> {
    let start = bytes.iter().position(|&b| b == b'\'')?;
    let content = bytes[start + 1..].strip_suffix(b"'")?;
    match content {
        [b'\\', ..] => match escape(content, 0) {
            (n, Some(v)) if n == content.len() => Some(v),
            _ => None,
        },
        _ => std::str::from_utf8(content)
            .ok()?
            .chars()
            .next()
            .map(u32::from),
    }
}

fn decode_escaped(content: &[u8], base: usize, out: &mut Decoded) {
    let mut run_start = 0;
    let mut i = 0;
    while i < content.len() {
        if content[i] != b'\\' {
            i += 1;
            continue;
        }
        out.push_run(&content[run_start..i], base + run_start);
        let (len, value) = escape(content, i);
        if let Some(v) = value {
            out.mark(base + i);
            out.text
                .push(char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER));
        }
        i = (i + len).min(content.len());
        run_start = i;
    }
    out.push_run(&content[run_start..], base + run_start);
}

/// Decodes the escape sequence at `s[i]` (a backslash): returns its length in bytes and its value,
/// `None` for a line splice (`\` + newline), which produces nothing.
fn escape(s: &[u8], i: usize) -> (usize, Option<u32>) {
    let Some(&c) = s.get(i + 1) else {
        return (1, Some(u32::from(b'\\')));
    };
    let simple = |v: u8| (2, Some(u32::from(v)));
    match c {
        b'\n' => (2, None),
        b'\r' if s.get(i + 2) == Some(&b'\n') => (3, None),
        b'n' => simple(b'\n'),
        b't' => simple(b'\t'),
        b'r' => simple(b'\r'),
        b'a' => simple(0x07),
        b'b' => simple(0x08),
        b'f' => simple(0x0c),
        b'v' => simple(0x0b),
        b'0'..=b'7' => {
            let digits = s[i + 1..]
                .iter()
                .take(3)
                .take_while(|d| (b'0'..=b'7').contains(d))
                .count();
            let value = s[i + 1..i + 1 + digits]
                .iter()
                .fold(0u32, |v, d| v * 8 + u32::from(d - b'0'));
            (1 + digits, Some(value))
        }
        b'x' | b'u' | b'U' => {
            let max = match c {
                b'x' => usize::MAX,
                b'u' => 4,
                _ => 8,
            };
            let digits = s[i + 2..]
                .iter()
                .take(max)
                .take_while(|d| d.is_ascii_hexdigit())
                .count();
            let value = s[i + 2..i + 2 + digits].iter().fold(0u32, |v, d| {
                v.wrapping_mul(16)
                    .wrapping_add(char::from(*d).to_digit(16).unwrap_or(0))
            });
            (2 + digits, Some(value))
        }
        // `\\`, `\"`, `\'`, `\?` and unknown escapes stand for the character itself. A multi-byte
        // character after the backslash is taken whole.
        _ => {
            let len = utf8_len(c);
            match s.get(i + 1..i + 1 + len).map(std::str::from_utf8) {
                Some(Ok(ch)) => (1 + len, ch.chars().next().map(u32::from)),
                _ => (2, Some(char::REPLACEMENT_CHARACTER.into())),
            }
        }
    }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xf0..=0xf7 => 4,
        0xe0..=0xef => 3,
        0xc0..=0xdf => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(lit: &str) -> Decoded {
        let mut d = Decoded::default();
        assert!(decode_string_literal(lit.as_bytes(), 100, &mut d));
        d
    }

    #[test]
    fn decodes_simple_escapes_with_an_origin_per_escape() {
        let d = decode(r#""{\n\t mov""#);
        assert_eq!(d.text, "{\n\t mov");
        let at: Vec<_> = d
            .origins
            .iter()
            .map(|o| (o.text_offset, o.file_offset))
            .collect();
        // `{` at 101, `\n` at 102, `\t` at 104, ` mov` at 106.
        assert_eq!(at, vec![(0, 101), (1, 102), (2, 104), (3, 106)]);
    }

    #[test]
    fn decodes_quote_backslash_octal_hex_and_universal_escapes() {
        assert_eq!(decode(r#""a\"b\\c""#).text, "a\"b\\c");
        assert_eq!(decode(r#""\101\x42\60""#).text, "AB0");
        assert_eq!(decode(r#""\u00e9\U0001F600""#).text, "é😀");
        assert_eq!(decode(r#""100%%""#).text, "100%%");
    }

    #[test]
    fn decodes_raw_strings_and_encoding_prefixes() {
        let d = decode(r#"R"x(a\n"b)x""#);
        assert_eq!(d.text, r#"a\n"b"#);
        assert_eq!(
            d.origins,
            vec![Origin {
                text_offset: 0,
                file_offset: 104
            }]
        );
        assert_eq!(decode(r#"u8"x""#).text, "x");
        assert_eq!(decode(r#"LR"(y)""#).text, "y");
    }

    #[test]
    fn line_splice_inside_a_literal_produces_nothing_but_keeps_offsets() {
        let d = decode("\"ab\\\r\ncd\"");
        assert_eq!(d.text, "abcd");
        assert_eq!(
            d.origins.last(),
            Some(&Origin {
                text_offset: 2,
                file_offset: 106
            })
        );
    }

    #[test]
    fn truncated_escapes_do_not_read_past_the_literal() {
        let mut d = Decoded::default();
        assert!(decode_string_literal(b"\"a\\\xe2\"", 0, &mut d));
        assert!(decode_string_literal(b"\"a\\", 0, &mut d));
    }

    #[test]
    fn invalid_utf8_becomes_replacement_character() {
        let mut d = Decoded::default();
        assert!(decode_string_literal(b"\"a\xffb\"", 0, &mut d));
        assert_eq!(d.text, "a\u{fffd}b");
        assert_eq!(
            d.origins.last(),
            Some(&Origin {
                text_offset: 4,
                file_offset: 3
            })
        );
    }

    #[test]
    fn decodes_char_literals() {
        assert_eq!(decode_char_literal(b"'O'"), Some(u32::from(b'O')));
        assert_eq!(decode_char_literal(b"'\\0'"), Some(0));
        assert_eq!(decode_char_literal(b"'\\x41'"), Some(0x41));
        assert_eq!(decode_char_literal(b"u8'a'"), Some(u32::from(b'a')));
    }
}
