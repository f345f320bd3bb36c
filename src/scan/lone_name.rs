//! Templates written as one macro name: `asm(PTX_ADD : "=r"(d) : ...)`.
//!
//! The C++ grammar wants a string literal first inside `asm(...)`, so tree-sitter turns such a
//! statement into error nodes and the operands become an unrelated expression. The parser is
//! therefore given a copy of the bytes in which each such name is overwritten, at the same length,
//! by a string literal (`"_____"`): the tree then has the statement's real shape, and every node
//! offset still points at the original bytes, where the scanner reads the name and resolves it
//! like any other macro piece of a template.

use std::sync::OnceLock;

use regex::bytes::Regex;

/// A copy of `src` with every lone template name masked, or `None` when there is none.
pub fn masked(src: &[u8]) -> Option<Vec<u8>> {
    memchr::memmem::find(src, b"asm")?; // no `asm` at all: nothing to mask
    static LONE: OnceLock<Regex> = OnceLock::new();
    let lone = LONE.get_or_init(|| {
        Regex::new(
            r"\b(?:asm|__asm__|__asm)(?:\s+(?:volatile|__volatile__|inline|goto))*\s*\(\s*([A-Za-z_][A-Za-z0-9_]+)\s*[:)]",
        )
        .expect("valid regex")
    });
    let mut copy: Option<Vec<u8>> = None;
    for caps in lone.captures_iter(src) {
        let name = caps.get(1).expect("group 1 always takes part");
        let out = copy.get_or_insert_with(|| src.to_vec());
        let bytes = &mut out[name.range()];
        bytes.fill(b'_');
        bytes[0] = b'"';
        bytes[bytes.len() - 1] = b'"';
    }
    copy
}

/// Whether the text of a template piece that parsed as a string literal is really a masked name.
pub fn is_name(text: &[u8]) -> bool {
    text.first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        && text.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_name_is_masked_at_the_same_length() {
        let src = b"asm volatile(PTX_ADD : \"=r\"(d)); asm(\"add\" : \"=r\"(d)); asm(N);";
        let out = masked(src).unwrap();
        assert_eq!(out.len(), src.len());
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            "asm volatile(\"_____\" : \"=r\"(d)); asm(\"add\" : \"=r\"(d)); asm(N);"
        );
    }

    #[test]
    fn names_next_to_literals_and_prefixed_literals_are_left_alone() {
        assert!(masked(b"asm(PTX \"x\" : );").is_none());
        assert!(masked(b"asm(u8\"x\" : );").is_none());
        assert!(is_name(b"PTX_ADD") && !is_name(b"\"add\"") && !is_name(b"u8\"x\""));
    }
}
