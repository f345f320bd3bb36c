//! `#define` handling: the same-file string macros that template pieces may name, and the
//! re-parsing of macro bodies that contain asm.
//!
//! tree-sitter keeps a macro body as one opaque `preproc_arg`, so an asm statement in it is only
//! visible after parsing the body text on its own. The body is re-parsed with its `\`-newline
//! continuations removed, and an [`OffsetMap`] carries every position back to the file.

use std::collections::HashMap;

use tree_sitter::Node;

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
    /// Records a `preproc_def` or `preproc_function_def` node.
    pub fn add(&mut self, def: Node, src: &[u8]) {
        let Some(name) = def.child_by_field_name("name") else {
            return;
        };
        let definition = if def.kind() == "preproc_function_def" {
            Definition::FunctionLike
        } else {
            def.child_by_field_name("value")
                .and_then(|v| string_value(src, v.byte_range()))
                .map_or(Definition::Other, Definition::Strings)
        };
        self.by_name
            .entry(src[name.byte_range()].to_vec())
            .or_default()
            .push(definition);
    }

    /// Adds every definition of `other` (a later part of the same file).
    pub fn extend(&mut self, other: Defines) {
        for (name, defs) in other.by_name {
            self.by_name.entry(name).or_default().extend(defs);
        }
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

/// A macro body prepared for parsing.
pub struct Body {
    pub buf: Vec<u8>,
    pub map: OffsetMap,
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
    }
}

/// Whether the `#define` uses `\`-newline continuations anywhere (including before the value).
pub fn is_continued(def: &[u8]) -> bool {
    memchr::memmem::find(def, b"\\\n").is_some() || memchr::memmem::find(def, b"\\\r\n").is_some()
}

/// Parameter names of a function-like macro.
pub fn parameters<'s>(def: Node, src: &'s [u8]) -> Vec<&'s [u8]> {
    let Some(params) = def.child_by_field_name("parameters") else {
        return Vec::new();
    };
    let mut cursor = params.walk();
    params
        .named_children(&mut cursor)
        .filter(|p| p.kind() == "identifier")
        .map(|p| &src[p.byte_range()])
        .collect()
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
