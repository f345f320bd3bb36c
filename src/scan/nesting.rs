//! What encloses a position of the source, read from its bytes: the open brackets and the
//! preprocessor conditionals around it.
//!
//! Three decisions about a statement come from here rather than from the syntax tree: whether a
//! rewrite may put preprocessor directives around it (not inside a macro invocation's arguments),
//! whether a comma in a rewrite would split a macro argument, and whether only NVIDIA compiles it
//! (ptx2hip's own guarded output included). tree-sitter's error recovery depends on text far away,
//! and ptx2hip's own edits change that text; the brackets and conditionals read from the bytes do
//! not change at any original byte when balanced text and whole `#if` blocks are spliced in
//! elsewhere, which is all ptx2hip ever does. So a second run decides exactly as the first did.
//!
//! The reading is lexical: comments, string and character literals (raw strings too) and
//! preprocessor lines are skipped; each arm of an `#if` chain starts from the brackets open at the
//! `#if`, and after `#endif` the last arm's brackets stay open (the usual reason for unbalanced arms
//! is two spellings of one function head). Arms no compiler ever sees (`#if 0`) are not counted.

use super::guard;
use super::segment::{skip_directive, skip_quoted};
use super::Place;

/// What the bytes around one position say.
#[derive(Debug, Clone, PartialEq)]
pub struct Surroundings {
    pub place: Place,
    /// Only NVIDIA compiles this position: an enclosing `#if` arm is never compiled for AMD (or by
    /// anyone), or it is inside `PTX2HIP_NV_ONLY(...)`.
    pub nv_only: bool,
    pub region: Region,
}

/// What kind of bytes a position is in, as the lexer reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    Code,
    /// A comment, string or character literal.
    Literal,
    /// A preprocessor line.
    Directive,
}

/// Deeper bracket nesting is not followed (it only happens in generated or hostile input); what
/// sits deeper counts as a possible macro argument.
const MAX_DEPTH: usize = 256;

const BOM: &[u8] = b"\xEF\xBB\xBF";

#[derive(Debug, Clone, Copy)]
struct Open {
    byte: u8,
    /// For `(`: the byte range of the name right before it (a possible macro invocation).
    callee: Option<(usize, usize)>,
}

/// One `#if` chain being read.
#[derive(Debug)]
struct Arm {
    /// Brackets open at the `#if`: every arm starts from them.
    saved: Vec<Open>,
    saved_overflow: usize,
    /// The current arm is never compiled for AMD.
    excluded: bool,
    /// An earlier condition of the chain is true on AMD: the later arms are excluded.
    taken: bool,
    /// No compiler sees the current arm (`#if 0`, an alternative of `#if 1`).
    dead: bool,
    /// The chain started with `#if 1`.
    first_always: bool,
}

/// Reads a buffer front to back, answering queries at increasing positions.
pub struct Lexer<'a> {
    src: &'a [u8],
    /// `#` at a line start begins a directive (false in a `#define` body, where `#` is an
    /// operator).
    directives: bool,
    pos: usize,
    line_start: bool,
    open: Vec<Open>,
    /// Brackets opened beyond [`MAX_DEPTH`].
    overflow: usize,
    arms: Vec<Arm>,
    /// Inside an arm no compiler sees.
    skipping: bool,
    /// The last significant token, when it was a name.
    last_name: Option<(usize, usize)>,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a [u8], directives: bool) -> Self {
        Lexer {
            src,
            directives,
            pos: if src.starts_with(BOM) { BOM.len() } else { 0 },
            line_start: true,
            open: Vec::new(),
            overflow: 0,
            arms: Vec::new(),
            skipping: false,
            last_name: None,
        }
    }

    /// What encloses position `to`. Queries should come in increasing order; an earlier one
    /// starts the reading over.
    pub fn at(&mut self, to: usize) -> Surroundings {
        if to < self.pos {
            *self = Lexer::new(self.src, self.directives);
        }
        let to = to.min(self.src.len());
        while self.pos < to {
            if let Some(region) = self.step(to) {
                return self.surroundings(region);
            }
        }
        self.surroundings(Region::Code)
    }

    fn surroundings(&self, region: Region) -> Surroundings {
        let name = |o: &Open| o.callee.map(|(s, e)| &self.src[s..e]);
        let nv_only = self.skipping
            || self.arms.iter().any(|a| a.excluded)
            || self
                .open
                .iter()
                .any(|o| name(o) == Some(guard::NV_ONLY_MACRO));
        let innermost = self.open.iter().rev().find(|o| o.byte != b'{');
        let place = match innermost {
            _ if self.overflow > 0 => Place::Argument {
                callee: String::new(),
            },
            None => Place::Block,
            Some(o) => match name(o) {
                Some(n) => Place::Argument {
                    callee: String::from_utf8_lossy(n).into_owned(),
                },
                None if o.byte == b'(' => Place::Group,
                None => Place::Argument {
                    callee: String::new(),
                },
            },
        };
        Surroundings {
            place,
            nv_only,
            region,
        }
    }

    /// Reads one token. Returns the region `to` lies in when it lies strictly inside a skipped
    /// run (comment, literal, directive); the reading then stays before that run.
    fn step(&mut self, to: usize) -> Option<Region> {
        let src = self.src;
        let i = self.pos;
        let b = src[i];
        let inside = |end: usize, region: Region| (i < to && to < end).then_some(region);
        if self.line_start {
            match b {
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.pos += 1;
                    return None;
                }
                b'#' if self.directives => {
                    let end = skip_directive(src, i);
                    if let Some(r) = inside(end, Region::Directive) {
                        return Some(r);
                    }
                    self.directive(&src[i + 1..end]);
                    self.pos = end;
                    return None;
                }
                _ => self.line_start = false,
            }
        }
        let next = src.get(i + 1).copied();
        match b {
            b'\n' => {
                self.line_start = true;
                self.pos += 1;
            }
            b'\\' if next == Some(b'\n') => self.pos += 2,
            b'\\' if next == Some(b'\r') && src.get(i + 2) == Some(&b'\n') => self.pos += 3,
            b'/' if next == Some(b'/') => {
                let end = line_comment_end(src, i);
                if let Some(r) = inside(end, Region::Literal) {
                    return Some(r);
                }
                self.pos = end;
            }
            b'/' if next == Some(b'*') => {
                let end =
                    memchr::memmem::find(&src[i + 2..], b"*/").map_or(src.len(), |p| i + p + 4);
                if let Some(r) = inside(end, Region::Literal) {
                    return Some(r);
                }
                self.pos = end;
            }
            b'"' | b'\'' => {
                let end = skip_quoted(src, i, b).min(src.len());
                if let Some(r) = inside(end, Region::Literal) {
                    return Some(r);
                }
                self.last_name = None;
                self.pos = end.max(i + 1);
            }
            b if b.is_ascii_digit() || b == b'.' && next.is_some_and(|n| n.is_ascii_digit()) => {
                self.pos = number_end(src, i);
                self.last_name = None;
            }
            b if is_name_byte(b) => {
                let end = i + src[i..].iter().take_while(|&&c| is_name_byte(c)).count();
                if to < end && i < to {
                    return Some(Region::Code);
                }
                self.last_name = Some((i, end));
                self.pos = end;
            }
            b'(' | b'[' | b'{' => {
                let callee = if b == b'(' { self.last_name } else { None };
                self.push(Open { byte: b, callee });
                self.last_name = None;
                self.pos += 1;
            }
            b')' | b']' | b'}' => {
                self.close(b);
                self.last_name = None;
                self.pos += 1;
            }
            b if b.is_ascii_whitespace() => self.pos += 1,
            _ => {
                self.last_name = None;
                self.pos += 1;
            }
        }
        None
    }

    fn push(&mut self, open: Open) {
        if self.skipping {
            return;
        }
        if self.open.len() >= MAX_DEPTH || self.overflow > 0 {
            self.overflow += 1;
        } else {
            self.open.push(open);
        }
    }

    fn close(&mut self, closer: u8) {
        if self.skipping {
            return;
        }
        if self.overflow > 0 {
            self.overflow -= 1;
            return;
        }
        let opener = match closer {
            b')' => b'(',
            b']' => b'[',
            _ => b'{',
        };
        if let Some(k) = self.open.iter().rposition(|o| o.byte == opener) {
            self.open.truncate(k);
        }
    }

    /// A preprocessor line (after the `#`, through its newline).
    fn directive(&mut self, line: &[u8]) {
        let text = directive_text(line);
        let text = text.trim_ascii_start();
        let len = text.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let word = std::str::from_utf8(&text[..len]).unwrap_or("");
        let rest = &text[len..];
        match word {
            "if" | "ifdef" | "ifndef" => {
                let value = guard::condition_on_amd(word, rest);
                let literal = |d| word == "if" && guard::is_literal(rest, d);
                self.arms.push(Arm {
                    saved: self.open.clone(),
                    saved_overflow: self.overflow,
                    excluded: value == Some(false),
                    taken: value == Some(true),
                    dead: literal(b'0'),
                    first_always: literal(b'1'),
                });
            }
            "elif" | "elifdef" | "elifndef" | "else" => {
                let Some(arm) = self.arms.last_mut() else {
                    return;
                };
                let value = guard::condition_on_amd(word, rest);
                self.open.clone_from(&arm.saved);
                self.overflow = arm.saved_overflow;
                arm.excluded = arm.taken || value == Some(false);
                arm.taken |= value == Some(true);
                arm.dead = arm.first_always || word == "elif" && guard::is_literal(rest, b'0');
            }
            "endif" => {
                self.arms.pop();
            }
            _ => {}
        }
        self.skipping = self.arms.iter().any(|a| a.dead);
    }
}

/// The offset just after the `;` that ends a statement whose last token ends at `from`, when only
/// whitespace and comments come between (and, with `directives`, no preprocessor line: an `#if`
/// arm boundary between a statement and its `;` puts them in different arms).
pub fn semicolon_after(src: &[u8], from: usize, directives: bool) -> Option<usize> {
    let mut i = from;
    loop {
        let next = src.get(i + 1).copied();
        match *src.get(i)? {
            b';' => return Some(i + 1),
            b'\n' => {
                i += 1;
                let line = &src[i..];
                let indent = line
                    .iter()
                    .take_while(|&&c| c == b' ' || c == b'\t')
                    .count();
                if directives && line.get(indent) == Some(&b'#') {
                    return None;
                }
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => i += 1,
            b'\\' if next == Some(b'\n') => i += 2,
            b'\\' if next == Some(b'\r') && src.get(i + 2) == Some(&b'\n') => i += 3,
            b'/' if next == Some(b'/') => i = line_comment_end(src, i),
            b'/' if next == Some(b'*') => {
                i = i + 4 + memchr::memmem::find(&src[i + 2..], b"*/")?;
            }
            _ => return None,
        }
    }
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The end of a number literal starting at `i` (digit separators and exponent signs included).
fn number_end(src: &[u8], mut i: usize) -> usize {
    while let Some(&c) = src.get(i) {
        let exponent_sign =
            matches!(c, b'+' | b'-') && matches!(src[i - 1], b'e' | b'E' | b'p' | b'P');
        let separator = c == b'\'' && src.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric());
        if is_name_byte(c) || c == b'.' || exponent_sign || separator {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// The offset of the newline ending a `//` comment at `i` (a `\`-newline continues it).
fn line_comment_end(src: &[u8], mut i: usize) -> usize {
    loop {
        let Some(p) = memchr::memchr(b'\n', &src[i..]) else {
            return src.len();
        };
        let nl = i + p;
        let before = src[..nl].strip_suffix(b"\r").unwrap_or(&src[..nl]);
        if !before.ends_with(b"\\") {
            return nl;
        }
        i = nl + 1;
    }
}

/// A directive's text with `\`-newline continuations joined and comments removed.
fn directive_text(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        match &line[i..] {
            [b'\\', b'\n', ..] => i += 2,
            [b'\\', b'\r', b'\n', ..] => i += 3,
            [b'/', b'/', ..] => break,
            [b'/', b'*', rest @ ..] => {
                i += 2 + memchr::memmem::find(rest, b"*/").map_or(rest.len(), |p| p + 2);
                out.push(b' ');
            }
            [c, ..] => {
                out.push(*c);
                i += 1;
            }
            [] => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What encloses the first `asm` of `src`.
    fn around(src: &str) -> Surroundings {
        Lexer::new(src.as_bytes(), true).at(src.find("asm").expect("an asm in the snippet"))
    }

    fn argument(callee: &str) -> Place {
        Place::Argument {
            callee: callee.into(),
        }
    }

    #[test]
    fn statements_among_braces_are_in_a_block() {
        let s = around("void f() {\n  if (x) { asm(\"trap;\"); }\n}\n");
        assert_eq!(s.place, Place::Block);
        assert!(!s.nv_only);
        assert_eq!(s.region, Region::Code);
        assert_eq!(
            around("int a[] = {1, 2};\nvoid f() { asm(\"x\"); }").place,
            Place::Block
        );
    }

    #[test]
    fn macro_arguments_and_parenthesized_groups_are_told_apart() {
        assert_eq!(
            around("NV_IF_TARGET(NV_PROVIDES_SM_90, (asm(\"x\");), (y;));").place,
            Place::Group
        );
        assert_eq!(around("MACRO(d, asm(\"x\"));").place, argument("MACRO"));
        assert_eq!(
            around("for_each(a, b, [&](int i) { asm(\"x\"); });").place,
            argument("for_each")
        );
        assert_eq!(around("M /* c */\n  (x, asm(\"x\"));").place, argument("M"));
        assert_eq!(around("x = ({ asm(\"x\"); 1; });").place, Place::Group);
    }

    #[test]
    fn comments_strings_and_characters_hide_brackets() {
        let s = "void f() { g(\"(\", ')', R\"d()\"( )d\" /* ( */); // (\n asm(\"x\"); }";
        assert_eq!(around(s).place, Place::Block);
        assert_eq!(
            around("int n = 1'000; f(u8'(');\nvoid g() { asm(\"x\"); }").place,
            Place::Block
        );
    }

    #[test]
    fn each_arm_starts_from_the_brackets_at_its_if_and_the_last_arm_stays_open() {
        let src =
            "#if A\nvoid f(int a) {\n#else\nvoid f(int a, int b) {\n#endif\n  asm(\"x\");\n}\n";
        assert_eq!(around(src).place, Place::Block);
        let src = "void f() {\n#if 0\n  g(\n#endif\n  asm(\"x\");\n}\n";
        assert_eq!(around(src).place, Place::Block);
    }

    #[test]
    fn code_that_only_nvidia_compiles_is_recognised_from_the_bytes() {
        let nv = |src: &str| around(src).nv_only;
        assert!(nv(
            "#if !defined(__HIP_PLATFORM_AMD__)\nasm(\"x\");\n#endif\n"
        ));
        assert!(nv(
            "#if defined(__HIP_PLATFORM_AMD__)\ny;\n#else\nasm(\"x\");\n#endif\n"
        ));
        assert!(nv(
            "#ifdef __HIP__\ny;\n#elif defined(FOO)\nasm(\"x\");\n#endif\n"
        ));
        assert!(nv("#if 0\nasm(\"x\");\n#endif\n"));
        assert!(nv("M(PTX2HIP_AMD_ONLY(y;) PTX2HIP_NV_ONLY(asm(\"x\");));"));
        assert!(!nv(
            "#if defined(__HIP_PLATFORM_AMD__)\nasm(\"x\");\n#endif\n"
        ));
        assert!(!nv("#if defined(__CUDA_ARCH__)\nasm(\"x\");\n#endif\n"));
        assert!(!nv("#if !defined(__HIP__)\ny;\n#endif\nasm(\"x\");\n"));
        assert!(!nv("#ifndef __HIP__\n#else\n#endif\nasm(\"x\");\n"));
    }

    #[test]
    fn positions_in_comments_literals_and_directives_are_not_code() {
        assert_eq!(around("/* asm */").region, Region::Literal);
        assert_eq!(around("s = \"asm\";").region, Region::Literal);
        assert_eq!(around("#define M asm(\"x\")\n").region, Region::Directive);
        assert_eq!(around("#pragma x \\\n asm\n").region, Region::Directive);
        // In a `#define` body `#` is an operator, not a directive.
        let body = b"#x asm(\"y\")";
        assert_eq!(Lexer::new(body, false).at(3).region, Region::Code);
    }

    #[test]
    fn a_byte_order_mark_does_not_hide_the_first_directive() {
        let src = "\u{feff}#if !defined(__HIP__)\nasm(\"x\");\n#endif\n";
        assert!(around(src).nv_only);
    }

    #[test]
    fn queries_may_come_in_any_order() {
        let src = b"f(a, asm(\"x\")); asm(\"y\");";
        let mut lexer = Lexer::new(src, true);
        assert_eq!(lexer.at(16).place, Place::Block);
        assert_eq!(lexer.at(5).place, argument("f"));
    }

    #[test]
    fn pathological_nesting_is_read_without_recursion_and_stays_conservative() {
        let src = format!("{}asm(\"x\"){}", "{".repeat(100_000), "}".repeat(100_000));
        assert_eq!(around(&src).place, argument(""));
    }

    #[test]
    fn the_semicolon_must_follow_with_only_space_and_comments_between() {
        let at = |s: &str| semicolon_after(s.as_bytes(), 0, true);
        assert_eq!(at(" /* c */ ;"), Some(10));
        assert_eq!(at(" // c\n  ;"), Some(9));
        assert_eq!(at("\n#endif\n;"), None);
        assert_eq!(at(" return;"), None);
        assert_eq!(at(""), None);
        assert_eq!(semicolon_after(b"\\\n ;", 0, false), Some(4));
    }
}
