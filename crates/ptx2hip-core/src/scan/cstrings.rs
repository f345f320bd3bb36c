//! Values of `"C"` constraint operands.
//!
//! A `"C"(expr)` operand is replaced by the contents of a constant `char` array at compile time.
//! Which array depends on template arguments the scanner cannot evaluate, so it collects every
//! same-file `const`/`constexpr char NAME[]` initializer whose name is the expression's last
//! identifier (`mode` in `helper<rounding_mode>::mode`): all strings the operand may denote.

use std::collections::HashMap;

use tree_sitter::Node;

use super::literal::{decode_char_literal, decode_string_literal, Decoded};
use super::walk::{occurrences, visit_hits};

/// The last identifier of an expression: `S1::buf1` → `buf1`, `helper<m>::mode` → `mode`.
pub fn last_identifier(expr: &str) -> Option<&str> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut rest = expr;
    loop {
        let end = rest.rfind(is_ident)? + 1;
        // The character before the word may be any (non-ASCII) character: step over its
        // whole encoding, never into it.
        let start = rest[..end]
            .char_indices()
            .rev()
            .find(|&(_, c)| !is_ident(c))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let word = &rest[start..end];
        if !word.starts_with(|c: char| c.is_ascii_digit()) {
            return Some(word);
        }
        rest = &rest[..start];
    }
}

/// For each name, the initializers of all same-file constant `char` arrays of that name, in file
/// order without duplicates.
pub fn collect(root: Node, src: &[u8], names: &[&str]) -> HashMap<String, Vec<String>> {
    let mut found: HashMap<String, Vec<String>> =
        names.iter().map(|n| (n.to_string(), Vec::new())).collect();
    let needles: Vec<&[u8]> = names.iter().map(|n| n.as_bytes()).collect();
    let hits = occurrences(src, &needles);
    visit_hits(root, &hits, |node, ancestors| {
        if !matches!(node.kind(), "identifier" | "field_identifier") {
            return true;
        }
        let name = String::from_utf8_lossy(&src[node.byte_range()]);
        if let (Some(values), Some(value)) = (
            found.get_mut(name.as_ref()),
            array_initializer(ancestors, src),
        ) {
            if !values.contains(&value) {
                values.push(value);
            }
        }
        false
    });
    found
}

/// If the name whose `ancestors` (root first) are given is the declarator of a
/// `const char name[] = ...` (or `constexpr`), the array's contents.
fn array_initializer(ancestors: &[Node], src: &[u8]) -> Option<String> {
    let mut up = ancestors.iter().rev().copied();
    let mut array = up.next()?;
    if array.kind() == "qualified_identifier" {
        array = up.next()?;
    }
    if array.kind() != "array_declarator" {
        return None;
    }
    let holder = up.next()?;
    let (decl, value) = match holder.kind() {
        "init_declarator" => (up.next()?, holder.child_by_field_name("value")?),
        "field_declaration" => (holder, holder.child_by_field_name("default_value")?),
        _ => return None,
    };
    let is_char = decl
        .child_by_field_name("type")
        .is_some_and(|t| src[t.byte_range()].ends_with(b"char"));
    let mut cursor = decl.walk();
    let is_const = decl.children(&mut cursor).any(|c| {
        c.kind() == "type_qualifier" && matches!(&src[c.byte_range()], b"const" | b"constexpr")
    });
    if !is_char || !is_const {
        return None;
    }
    initializer_text(value, src)
}

fn initializer_text(value: Node, src: &[u8]) -> Option<String> {
    let mut cursor = value.walk();
    match value.kind() {
        "string_literal" | "raw_string_literal" | "concatenated_string" => {
            let pieces: Vec<Node> = if value.kind() == "concatenated_string" {
                value
                    .named_children(&mut cursor)
                    .filter(|c| c.kind() != "comment")
                    .collect()
            } else {
                vec![value]
            };
            let mut out = Decoded::default();
            for p in pieces {
                if !decode_string_literal(&src[p.byte_range()], p.start_byte(), &mut out) {
                    return None;
                }
            }
            Some(out.text)
        }
        "initializer_list" => {
            let mut text = String::new();
            for item in value
                .named_children(&mut cursor)
                .filter(|c| c.kind() != "comment")
            {
                let ch = match item.kind() {
                    "char_literal" => decode_char_literal(&src[item.byte_range()])?,
                    "number_literal" if &src[item.byte_range()] == b"0" => 0,
                    _ => return None,
                };
                if ch == 0 {
                    break;
                }
                text.push(char::from_u32(ch).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            Some(text)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_identifier_skips_scopes_templates_and_numbers() {
        assert_eq!(last_identifier("helper<rounding_mode>::mode"), Some("mode"));
        assert_eq!(last_identifier("v1"), Some("v1"));
        assert_eq!(last_identifier("tbl[0]"), Some("tbl"));
        assert_eq!(last_identifier("42"), None);
    }

    #[test]
    fn last_identifier_steps_over_non_ascii_characters_whole() {
        assert_eq!(last_identifier("é·mode"), Some("mode"));
        assert_eq!(last_identifier("tbl[ü]"), Some("tbl"));
        assert_eq!(last_identifier("ü"), None);
    }
}
