//! `#define` handling: the same-file string macros that template pieces may name, and the
//! re-parsing of macro bodies that contain asm.
//!
//! tree-sitter keeps a macro body as one opaque `preproc_arg`, so an asm statement in it is only
//! visible after parsing the body text on its own. The body is re-parsed with its `\`-newline
//! continuations removed, and an [`OffsetMap`] carries every position back to the file.

use std::collections::HashMap;
use std::ops::Range;

use super::literal::{decode_string_literal, split_string_literals, Decoded};
use super::position::OffsetMap;

/// What a same-file `#define NAME ...` says about `NAME`.
enum Definition {
    /// An object-like macro whose value is only string literals, decoded with file origins.
    Strings(Decoded),
    FunctionLike,
    Other,
}

/// All `#define`s of one file, by name (a name may be defined in several `#if` branches).
#[derive(Default)]
pub struct Defines {
    by_name: HashMap<Vec<u8>, Vec<Definition>>,
}

impl Defines {
    /// Records a `#define` of the file `src`.
    pub fn add(&mut self, def: &Define, src: &[u8]) {
        let definition = if def.params.is_some() {
            Definition::FunctionLike
        } else {
            string_value(src, def.value.clone()).map_or(Definition::Other, Definition::Strings)
        };
        self.by_name
            .entry(src[def.name.clone()].to_vec())
            .or_default()
            .push(definition);
    }

    /// The decoded string a template piece `name` stands for, or why it cannot be known.
    pub fn resolve(&self, name: &str) -> Result<&Decoded, String> {
        let defs = self
            .by_name
            .get(name.as_bytes())
            .map_or(&[][..], Vec::as_slice);
        let mut strings = defs.iter().filter_map(|d| match d {
            Definition::Strings(s) => Some(s),
            _ => None,
        });
        match (defs.first(), strings.next()) {
            (None, _) => Err(format!(
                "template piece `{name}` is a macro defined outside this file"
            )),
            (Some(_), Some(first))
                if defs.len() == 1 || defs.iter().all(|d| same_text(d, first)) =>
            {
                Ok(first)
            }
            (Some(_), Some(_)) => Err(format!(
                "macro `{name}` has several different definitions in this file"
            )),
            (Some(Definition::FunctionLike), None) => Err(format!(
                "template piece `{name}` names a function-like macro"
            )),
            (Some(_), None) => Err(format!("macro `{name}` is not defined as a string literal")),
        }
    }
}

fn same_text(d: &Definition, text: &Decoded) -> bool {
    matches!(d, Definition::Strings(s) if s.text == text.text)
}

/// Decodes a `#define` value made only of adjacent string literals.
fn string_value(src: &[u8], value: std::ops::Range<usize>) -> Option<Decoded> {
    let mut out = Decoded::default();
    for piece in split_string_literals(&src[value.clone()])? {
        let at = value.start + piece.start;
        if !decode_string_literal(&src[at..value.start + piece.end], at, &mut out) {
            return None;
        }
    }
    Some(out)
}

/// A `#define` read from its bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Define {
    /// From the `#` through the end of the last line (newline excluded).
    pub line: Range<usize>,
    pub name: Range<usize>,
    /// The parameter names of a function-like macro (`...` is not a name); `None` for an
    /// object-like one.
    pub params: Option<Vec<Range<usize>>>,
    /// The replacement text, continuations included, without the spaces around it.
    pub value: Range<usize>,
}

/// Reads the `#define` at `line` (see [`Define::line`]); `None` if it is not one.
pub fn read_define(src: &[u8], line: Range<usize>) -> Option<Define> {
    let blank = |i: &mut usize| loop {
        match &src[*i..line.end] {
            [b' ' | b'\t', ..] => *i += 1,
            [b'\\', b'\n', ..] => *i += 2,
            [b'\\', b'\r', b'\n', ..] => *i += 3,
            _ => break,
        }
    };
    let name_end = |i: usize| {
        i + src[i..line.end]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b == b'$')
            .count()
    };
    let mut i = line.start + 1;
    blank(&mut i);
    let directive = i..name_end(i);
    if &src[directive.clone()] != b"define" {
        return None;
    }
    i = directive.end;
    blank(&mut i);
    let name = i..name_end(i);
    if name.is_empty() {
        return None;
    }
    i = name.end;
    let params = if src.get(i) == Some(&b'(') && i < line.end {
        let mut params = Vec::new();
        i += 1;
        loop {
            blank(&mut i);
            let param = i..name_end(i);
            if !param.is_empty() {
                params.push(param.clone());
                i = param.end;
            } else if src[i..line.end].starts_with(b"...") {
                i += 3;
            }
            blank(&mut i);
            match src[i..line.end].first() {
                Some(b',') => i += 1,
                Some(b')') => break,
                _ => return None,
            }
        }
        i += 1;
        Some(params)
    } else {
        None
    };
    blank(&mut i);
    let mut end = line.end;
    while end > i && matches!(src[end - 1], b' ' | b'\t' | b'\r') {
        end -= 1;
    }
    Some(Define {
        line,
        name,
        params,
        value: i..end.max(i),
    })
}

/// A macro body prepared for parsing.
pub struct Body {
    pub buf: Vec<u8>,
    pub map: OffsetMap,
    /// Where the text from the file lies in `buf` (after the wrapper's first part).
    pub text: Range<usize>,
}

/// Text placed around a body so that statements parse as statements.
const PREFIX: &[u8] = b"void __ptx2hip_f() {\n";
const SUFFIX: &[u8] = b"\n;}\n";

/// Joins the `\`-newline continuations of the body in `src[range]`; with `wrap`, puts it inside a
/// function. Every kept byte maps back to its file offset.
pub fn prepare_body(src: &[u8], range: std::ops::Range<usize>, wrap: bool) -> Body {
    let mut buf = Vec::with_capacity(range.len() + PREFIX.len() + SUFFIX.len());
    if wrap {
        buf.extend_from_slice(PREFIX);
    }
    let body_start = buf.len();
    let mut segments = vec![(buf.len(), range.start)];
    let text = &src[range.clone()];
    let mut i = 0;
    while i < text.len() {
        let splice = match text[i..] {
            [b'\\', b'\n', ..] => 2,
            [b'\\', b'\r', b'\n', ..] => 3,
            _ => 0,
        };
        if splice > 0 {
            i += splice;
            segments.push((buf.len(), range.start + i));
        } else {
            buf.push(text[i]);
            i += 1;
        }
    }
    let body_end = buf.len();
    if wrap {
        buf.extend_from_slice(SUFFIX);
    }
    Body {
        buf,
        map: OffsetMap::new(segments, body_start..body_end),
        text: body_start..body_end,
    }
}

/// Whether the `#define` uses `\`-newline continuations anywhere (including before the value).
pub fn is_continued(def: &[u8]) -> bool {
    memchr::memmem::find(def, b"\\\n").is_some() || memchr::memmem::find(def, b"\\\r\n").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_continuations_and_maps_back_with_crlf() {
        let src = b"XX a(\\\r\n  b);";
        let body = prepare_body(src, 3..src.len(), false);
        assert_eq!(body.buf, b"a(  b);");
        // `b` is at buffer offset 4 and file offset 10.
        assert_eq!(body.map.to_file(4), 10);
        assert_eq!(body.map.range_to_file(0..7), 3..src.len());
    }

    #[test]
    fn wrapped_body_maps_its_first_byte_to_the_value_start() {
        let src = b"#define M asm(\"x\")";
        let body = prepare_body(src, 10..src.len(), true);
        assert!(body.buf.starts_with(PREFIX));
        assert_eq!(body.map.to_file(PREFIX.len()), 10);
    }
}
