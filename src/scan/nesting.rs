//! Reading a source from front to back without a syntax tree: where its `asm` keywords and
//! `#define`s are, and what encloses each — the open brackets and the preprocessor conditionals.
//!
//! The scanner finds statements here and decides from here whether a rewrite may put
//! preprocessor directives around a statement (not inside a macro invocation's arguments), whether
//! a comma in a rewrite would split a macro argument, and whether only NVIDIA compiles it
//! (ptx2hip's own guarded output included). None of this may come from a parse of the whole file:
//! tree-sitter's error recovery depends on text far away (an unbalanced brace can hide a statement
//! from it, or show it), and ptx2hip's own edits change that text, so a second run would find and
//! decide differently. The brackets and conditionals read from the bytes stay the same at every
//! original byte when balanced text and whole `#if` blocks are spliced in elsewhere, which is all
//! ptx2hip ever does: a second run finds and decides exactly as the first did.
//!
//! The reading is lexical: comments, string and character literals (raw strings too) and
//! preprocessor lines are skipped; each arm of an `#if` chain starts from the brackets open at the
//! `#if`, and after `#endif` the last arm's brackets stay open (the usual reason for unbalanced arms
//! is two spellings of one function head). Arms no compiler ever sees (`#if 0`) are not counted.

use std::ops::Range;

use super::guard;
use super::Place;

/// What encloses one position.
#[derive(Debug, Clone, PartialEq)]
pub struct Surroundings {
    pub place: Place,
    /// Only NVIDIA compiles this position: an enclosing `#if` arm is never compiled for AMD (or by
    /// anyone), or it is inside `PTX2HIP_NV_ONLY(...)`.
    pub nv_only: bool,
}

/// Something the scanner needs, in file order.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// An `asm`, `__asm__` or `__asm` keyword in code, at this offset.
    Asm { at: usize, around: Surroundings },
    /// A `#define`: the bytes from the `#` through the end of its last line (newline excluded).
    Define {
        line: Range<usize>,
        around: Surroundings,
    },
}

/// The events of `src`. With `directives`, a `#` at a line start begins a preprocessor line
/// (false for a `#define` body, where `#` is an operator).
pub fn events(src: &[u8], directives: bool) -> Vec<Event> {
    let mut lexer = Lexer::new(src, directives);
    while lexer.pos < src.len() {
        lexer.step();
    }
    lexer.events
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
    /// An enclosing arm is `excluded` / `dead` (kept here so that the innermost arm answers for
    /// all of them: asking every open arm at each directive is quadratic in the nesting depth).
    outer_excluded: bool,
    outer_dead: bool,
}

/// Reads a buffer front to back, collecting events.
struct Lexer<'a> {
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
    events: Vec<Event>,
    /// Names whose declarations are wanted (see [`declarations_naming`]).
    watched: &'a [&'a str],
    /// Where the current declaration or statement began (after the last `;`, `{`, `}` or
    /// preprocessor line), and the bracket depth there.
    boundary: (usize, usize),
    /// The boundaries of declarations that name a watched name and have not ended yet.
    pending: Vec<(usize, usize)>,
    declarations: Vec<Range<usize>>,
}

impl<'a> Lexer<'a> {
    fn new(src: &'a [u8], directives: bool) -> Self {
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
            events: Vec::new(),
            watched: &[],
            boundary: (0, 0),
            pending: Vec::new(),
            declarations: Vec::new(),
        }
    }

    /// Inside an arm that AMD never compiles.
    fn excluded(&self) -> bool {
        self.arms
            .last()
            .is_some_and(|a| a.excluded || a.outer_excluded)
    }

    fn surroundings(&self) -> Surroundings {
        let name = |o: &Open| o.callee.map(|(s, e)| &self.src[s..e]);
        let nv_only = self.skipping
            || self.excluded()
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
        Surroundings { place, nv_only }
    }

    /// Reads one token (or blank, or comment, or literal, or preprocessor line).
    fn step(&mut self) {
        let src = self.src;
        let i = self.pos;
        let b = src[i];
        if self.line_start {
            match b {
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.pos += 1;
                    return;
                }
                b'#' if self.directives => {
                    let end = skip_directive(src, i);
                    self.directive(i..end);
                    self.pos = end;
                    self.boundary = (end, self.open.len());
                    return;
                }
                _ => self.line_start = false,
            }
        }
        let next = src.get(i + 1).copied();
        self.pos = match b {
            b'\n' => {
                self.line_start = true;
                i + 1
            }
            b'\\' if next == Some(b'\n') => i + 2,
            b'\\' if next == Some(b'\r') && src.get(i + 2) == Some(&b'\n') => i + 3,
            b'/' if next == Some(b'/') => line_comment_end(src, i),
            b'/' if next == Some(b'*') => block_comment_end(src, i),
            b'"' | b'\'' => {
                self.last_name = None;
                skip_quoted(src, i, b).clamp(i + 1, src.len())
            }
            b if b.is_ascii_digit() || b == b'.' && next.is_some_and(|n| n.is_ascii_digit()) => {
                self.last_name = None;
                number_end(src, i)
            }
            b if is_name_byte(b) => {
                let end = i + src[i..].iter().take_while(|&&c| is_name_byte(c)).count();
                if matches!(&src[i..end], b"asm" | b"__asm__" | b"__asm") {
                    let around = self.surroundings();
                    self.events.push(Event::Asm { at: i, around });
                }
                if self.watched.iter().any(|w| w.as_bytes() == &src[i..end]) {
                    self.pending.push(self.boundary);
                }
                self.last_name = Some((i, end));
                end
            }
            b'(' | b'[' | b'{' => {
                let callee = if b == b'(' { self.last_name } else { None };
                self.push(Open { byte: b, callee });
                self.last_name = None;
                if b == b'{' {
                    self.boundary = (i + 1, self.open.len());
                }
                i + 1
            }
            b')' | b']' | b'}' => {
                self.close(b);
                self.last_name = None;
                if b == b'}' {
                    let depth = self.open.len();
                    self.pending.retain(|&(_, d)| d <= depth);
                    self.boundary = (i + 1, depth);
                }
                i + 1
            }
            b';' => {
                let depth = self.open.len();
                let (ended, open): (Vec<_>, Vec<_>) =
                    self.pending.iter().partition(|&&(_, d)| d == depth);
                self.declarations
                    .extend(ended.into_iter().map(|(start, _)| start..i + 1));
                self.pending = open;
                self.last_name = None;
                self.boundary = (i + 1, depth);
                i + 1
            }
            b if b.is_ascii_whitespace() => i + 1,
            _ => {
                self.last_name = None;
                i + 1
            }
        };
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

    /// A preprocessor line (from the `#` through its newline).
    fn directive(&mut self, line: Range<usize>) {
        let text = directive_text(&self.src[line.start + 1..line.end]);
        let text = text.trim_ascii_start();
        let len = text.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let word = std::str::from_utf8(&text[..len]).unwrap_or("");
        let rest = &text[len..];
        match word {
            "if" | "ifdef" | "ifndef" => {
                let value = guard::condition_on_amd(word, rest);
                let literal = |d| word == "if" && guard::is_literal(rest, d);
                let outer_excluded = self.excluded();
                self.arms.push(Arm {
                    saved: self.open.clone(),
                    saved_overflow: self.overflow,
                    excluded: value == Some(false),
                    taken: value == Some(true),
                    dead: literal(b'0'),
                    first_always: literal(b'1'),
                    outer_excluded,
                    outer_dead: self.skipping,
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
            "define" => {
                let mut end = line.end;
                while end > line.start && matches!(self.src[end - 1], b'\n' | b'\r') {
                    end -= 1;
                }
                let around = self.surroundings();
                self.events.push(Event::Define {
                    line: line.start..end,
                    around,
                });
            }
            _ => {}
        }
        self.skipping = self.arms.last().is_some_and(|a| a.dead || a.outer_dead);
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
                memchr::memmem::find(&src[i + 2..], b"*/")?;
                i = block_comment_end(src, i);
            }
            _ => return None,
        }
    }
}

/// The declarations in which one of `names` appears as a name in code, in file order, each from
/// the end of the statement before it (a `;`, `{`, `}` or preprocessor line) through its `;`: where
/// a `"C"` operand's strings may be initialized (`static constexpr const char mode[] = ".rn";`).
pub fn declarations_naming(src: &[u8], names: &[&str]) -> Vec<Range<usize>> {
    let mut lexer = Lexer::new(src, true);
    lexer.watched = names;
    while lexer.pos < src.len() {
        lexer.step();
    }
    let mut found = lexer.declarations;
    found.sort_by_key(|r| r.start);
    found.dedup();
    found
}

/// Why the text after an `asm` keyword is not an asm statement ptx2hip can take apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAnAsm {
    /// No parenthesized operand list follows (after the qualifiers), or its brackets do not match.
    Shape,
    /// A preprocessor line sits inside the statement.
    Directive,
}

/// The end (after its closing parenthesis) of the asm statement whose keyword is at `at`: the
/// keyword, its qualifiers and the parenthesized template and operands, read lexically. With
/// `directives`, a `#` starting a line is a preprocessor line.
pub fn asm_extent(src: &[u8], at: usize, directives: bool) -> Result<usize, NotAnAsm> {
    let mut i = at + src[at..].iter().take_while(|&&c| is_name_byte(c)).count();
    loop {
        i = skip_blank(src, i, directives)?;
        match src.get(i) {
            Some(b'(') => break,
            Some(&c) if is_name_byte(c) => {
                let end = i + src[i..].iter().take_while(|&&c| is_name_byte(c)).count();
                if !matches!(
                    &src[i..end],
                    b"volatile" | b"__volatile__" | b"inline" | b"goto"
                ) {
                    return Err(NotAnAsm::Shape);
                }
                i = end;
            }
            _ => return Err(NotAnAsm::Shape),
        }
    }
    let mut open = vec![b')'];
    i += 1;
    while let Some(&c) = src.get(i) {
        let next = src.get(i + 1).copied();
        i = match c {
            b'\n' => {
                let line = &src[i + 1..];
                let indent = line
                    .iter()
                    .take_while(|&&c| c == b' ' || c == b'\t')
                    .count();
                if directives && line.get(indent) == Some(&b'#') {
                    return Err(NotAnAsm::Directive);
                }
                i + 1
            }
            // A quote after a digit or letter is a digit separator (1'000).
            b'\'' if src[i - 1].is_ascii_alphanumeric() => i + 1,
            b'"' | b'\'' => skip_quoted(src, i, c).clamp(i + 1, src.len()),
            b'/' if next == Some(b'/') => line_comment_end(src, i),
            b'/' if next == Some(b'*') => block_comment_end(src, i),
            b'(' => {
                open.push(b')');
                i + 1
            }
            b'[' => {
                open.push(b']');
                i + 1
            }
            b'{' => {
                open.push(b'}');
                i + 1
            }
            b')' | b']' | b'}' => {
                if open.pop() != Some(c) {
                    return Err(NotAnAsm::Shape);
                }
                if open.is_empty() {
                    return Ok(i + 1);
                }
                i + 1
            }
            _ => i + 1,
        };
    }
    Err(NotAnAsm::Shape)
}

/// The offset of the first byte at or after `i` that is not whitespace, a comment or a line
/// splice; a preprocessor line on the way is an error.
fn skip_blank(src: &[u8], mut i: usize, directives: bool) -> Result<usize, NotAnAsm> {
    loop {
        let next = src.get(i + 1).copied();
        match src.get(i) {
            Some(b'\n') => {
                i += 1;
                let line = &src[i..];
                let indent = line
                    .iter()
                    .take_while(|&&c| c == b' ' || c == b'\t')
                    .count();
                if directives && line.get(indent) == Some(&b'#') {
                    return Err(NotAnAsm::Directive);
                }
            }
            Some(b' ' | b'\t' | b'\r' | 0x0b | 0x0c) => i += 1,
            Some(b'\\') if next == Some(b'\n') => i += 2,
            Some(b'\\') if next == Some(b'\r') && src.get(i + 2) == Some(&b'\n') => i += 3,
            Some(b'/') if next == Some(b'/') => i = line_comment_end(src, i),
            Some(b'/') if next == Some(b'*') => i = block_comment_end(src, i),
            _ => return Ok(i),
        }
    }
}

/// The offset after a preprocessor line starting at `i` and its `\\` continuations (a `/* */`
/// comment in it continues it too).
fn skip_directive(src: &[u8], mut i: usize) -> usize {
    while i < src.len() {
        let next = src.get(i + 1).copied();
        i = match src[i] {
            b'\n' => return i + 1,
            b'\\' if next == Some(b'\n') => i + 2,
            b'\\' if next == Some(b'\r') && src.get(i + 2) == Some(&b'\n') => i + 3,
            b'/' if next == Some(b'*') => block_comment_end(src, i),
            b'/' if next == Some(b'/') => line_comment_end(src, i),
            _ => i + 1,
        };
    }
    src.len()
}

/// The offset after a quoted literal starting at `i` (escapes honoured; an unterminated one ends
/// at the newline). `R"delim( ... )delim"` raw strings hold anything, newlines included.
fn skip_quoted(src: &[u8], mut i: usize, quote: u8) -> usize {
    if quote == b'"' && i > 0 && src[i - 1] == b'R' {
        let open = memchr::memchr(b'(', &src[i..]).map_or(src.len(), |p| i + p);
        let mut end_marker = vec![b')'];
        end_marker.extend_from_slice(&src[i + 1..open.min(src.len())]);
        end_marker.push(b'"');
        return memchr::memmem::find(&src[open.min(src.len())..], &end_marker)
            .map_or(src.len(), |p| open + p + end_marker.len());
    }
    i += 1;
    while i < src.len() {
        match src[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    src.len()
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

/// The offset after a `/* */` comment at `i` (the end of the text if it is not closed).
pub fn block_comment_end(src: &[u8], i: usize) -> usize {
    memchr::memmem::find(&src[i + 2..], b"*/").map_or(src.len(), |p| i + p + 4)
}

/// The offset of the newline ending a `//` comment at `i` (a `\`-newline continues it).
pub fn line_comment_end(src: &[u8], mut i: usize) -> usize {
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

    /// What encloses the first `asm` keyword of `src`.
    fn around(src: &str) -> Surroundings {
        events(src.as_bytes(), true)
            .into_iter()
            .find_map(|e| match e {
                Event::Asm { around, .. } => Some(around),
                Event::Define { .. } => None,
            })
            .expect("an asm keyword in code")
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
    fn comments_strings_and_characters_hide_brackets_and_keywords() {
        let s = "void f() { g(\"(asm\", ')', R\"d()\"( )d\" /* ( asm */); // (asm\n asm(\"x\"); }";
        assert_eq!(around(s).place, Place::Block);
        let s = "int n = 1'000; f(u8'(');\nvoid g() { __asm__(\"x\"); }";
        assert_eq!(around(s).place, Place::Block);
        assert_eq!(events(b"plasma(); asm_x(); my_asm;", true), vec![]);
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
            "  #if defined(__HIP_PLATFORM_AMD__)\n  y;\n  #else\n  asm(\"x\");\n  #endif\n"
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
    fn defines_are_events_and_their_bodies_are_not_code() {
        let src =
            b"#if !defined(__HIP__)\n#define A asm(\"x\") \\\n  more\r\n#endif\n#define B 1\n";
        let got = events(src, true);
        assert_eq!(got.len(), 2, "{got:?}");
        let Event::Define { line, around } = &got[0] else {
            panic!("{got:?}")
        };
        assert_eq!(&src[line.clone()], b"#define A asm(\"x\") \\\n  more");
        assert!(around.nv_only);
        // In a `#define` body `#` is an operator, not a directive.
        assert!(matches!(
            events(b"#x asm(\"y\")", false)[..],
            [Event::Asm { at: 3, .. }]
        ));
    }

    #[test]
    fn a_byte_order_mark_does_not_hide_the_first_directive() {
        let src = "\u{feff}#if !defined(__HIP__)\nasm(\"x\");\n#endif\n";
        assert!(around(src).nv_only);
    }

    #[test]
    fn pathological_nesting_is_read_without_recursion_and_stays_conservative() {
        let src = format!("{}asm(\"x\"){}", "{".repeat(100_000), "}".repeat(100_000));
        assert_eq!(around(&src).place, argument(""));
    }

    #[test]
    fn declarations_of_a_name_run_from_the_last_statement_end_through_their_semicolon() {
        let src = "#include <x>\nstruct H { static constexpr const char mode[] = {'a', 0}; int x; };\nconst char mode[] =\n  \"r\" \"n\"; // mode\nvoid f() { use(mode); }\n";
        let got: Vec<&str> = declarations_naming(src.as_bytes(), &["mode"])
            .into_iter()
            .map(|r| &src[r])
            .collect();
        assert_eq!(
            got,
            [
                " static constexpr const char mode[] = {'a', 0};",
                "\nconst char mode[] =\n  \"r\" \"n\";",
                " use(mode);"
            ]
        );
    }

    #[test]
    fn an_asm_statement_ends_at_its_closing_parenthesis() {
        fn extent(s: &str) -> Result<&str, NotAnAsm> {
            asm_extent(s.as_bytes(), 0, true).map(|e| &s[..e])
        }
        assert_eq!(
            extent("asm volatile /* c */ (\"a)\" : \"=r\"(x[i]) : \"n\"(1'000)); y;"),
            Ok("asm volatile /* c */ (\"a)\" : \"=r\"(x[i]) : \"n\"(1'000))")
        );
        assert_eq!(
            extent("__asm__ goto(\"x\" :::: l);"),
            Ok("__asm__ goto(\"x\" :::: l)")
        );
        assert_eq!(extent("asm(\"x\" : \"=r\"(y}));"), Err(NotAnAsm::Shape));
        assert_eq!(extent("asm(\"x\""), Err(NotAnAsm::Shape));
        assert_eq!(extent("asm x(\"x\");"), Err(NotAnAsm::Shape));
        assert_eq!(
            extent("asm(\"a\"\n#ifdef X\n\"b\"\n#endif\n);"),
            Err(NotAnAsm::Directive)
        );
        assert_eq!(
            asm_extent(b"asm(\"a\"\n#x\n)", 0, false),
            Ok(b"asm(\"a\"\n#x\n)".len())
        );
    }

    #[test]
    fn the_semicolon_must_follow_with_only_space_and_comments_between() {
        let at = |s: &str| semicolon_after(s.as_bytes(), 0, true);
        assert_eq!(at(" /* c */ ;"), Some(10));
        assert_eq!(at(" // c\n  ;"), Some(9));
        assert_eq!(at("\n#endif\n;"), None);
        assert_eq!(at(" return;"), None);
        assert_eq!(at(" /* open"), None);
        assert_eq!(at(""), None);
        assert_eq!(semicolon_after(b"\\\n ;", 0, false), Some(4));
    }
}
