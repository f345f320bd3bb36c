//! Reading a source from front to back without a syntax tree: every `asm` keyword in code, every
//! preprocessor line, and what encloses each keyword — the open brackets.
//!
//! The scanner anchors on these keywords rather than on a syntax tree of the file: tree-sitter's
//! error recovery depends on text far away (a macro without `;` before a statement, an `#if` arm
//! that splits a constructor, an unbalanced brace) and can turn `asm` into an identifier and lose
//! the statement, and it keeps a `#define` body with `#`/`##` as an opaque directive. ptx2hip's
//! own edits change that text, so a tree would also make a second run find and decide
//! differently. The brackets read from the bytes stay the same at every original byte when
//! balanced text and whole `#if` blocks are spliced in elsewhere, which is all ptx2hip ever does:
//! a second run finds and decides exactly as the first did.
//!
//! A keyword is in code when it is outside comments, string and character literals (raw strings
//! too), and outside preprocessor lines other than a `#define` body (which is code once
//! expanded). What encloses it decides whether a rewrite may put preprocessor directives around
//! it (not inside a macro invocation's arguments), whether a comma in a rewrite would split a
//! macro argument, and whether it sits in ptx2hip's own `PTX2HIP_NV_ONLY(...)`. Each arm of an
//! `#if` chain starts from the brackets open at the `#if`, and after `#endif` the last arm's
//! brackets stay open (the usual reason for unbalanced arms is two spellings of one function
//! head); arms no compiler ever sees (`#if 0`) are not counted. Which compilations see an arm is
//! decided apart from the brackets, from the preprocessor lines (see `conditional`).

use std::ops::Range;

use super::Place;

/// What the survey of one text found.
#[derive(Debug, Default)]
pub struct Survey {
    pub keywords: Vec<Keyword>,
    /// Where an asm keyword cut by a line splice starts (`as\`, newline, `m`): the compiler
    /// reads the keyword, ptx2hip reports it.
    pub split_keywords: Vec<usize>,
    /// Every preprocessor line, in file order.
    pub directives: Vec<Directive>,
}

/// One `asm`, `__asm__` or `__asm` keyword in code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keyword {
    pub at: usize,
    pub len: usize,
    /// Index into [`Survey::directives`] of the `#define` whose body holds the keyword.
    pub define: Option<usize>,
    /// The brackets around it (in a `#define` body: within the body).
    pub place: Place,
    /// Inside ptx2hip's own `PTX2HIP_NV_ONLY(...)`: only NVIDIA compiles it.
    pub in_nv_only_call: bool,
}

/// One preprocessor line (with its `\`-newline continuations).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// From the `#` to the end of the line (newline excluded).
    pub span: Range<usize>,
    /// The directive's name (`define`, `if`, `endif`, ...); empty for a null directive.
    pub word: Range<usize>,
    /// Everything after the name.
    pub rest: Range<usize>,
}

impl Directive {
    pub fn word<'s>(&self, src: &'s [u8]) -> &'s [u8] {
        &src[self.word.clone()]
    }
}

/// Wrapper macro that ptx2hip emits around the original asm where no directive may go.
const NV_ONLY_MACRO: &[u8] = b"PTX2HIP_NV_ONLY";

/// Surveys `src`.
pub fn survey(src: &[u8]) -> Survey {
    let mut lexer = Lexer::new(src, true);
    lexer.run(src.len());
    Survey {
        keywords: lexer.keywords,
        split_keywords: lexer.split_keywords,
        directives: lexer.directive_lines,
    }
}

/// The comments of `src` in code, in file order: a `//` inside a string or raw string literal,
/// however many lines it spans, starts none.
pub fn comments(src: &[u8]) -> Vec<Range<usize>> {
    let mut lexer = Lexer::new(src, true);
    lexer.run(src.len());
    lexer.comments
}

/// The declarations in which one of `names` appears as a name in code, in file order, each from
/// the end of the statement before it (a `;`, `{`, `}` or preprocessor line) through its `;`: where
/// a `"C"` operand's strings may be initialized (`static constexpr const char mode[] = ".rn";`).
pub fn declarations_naming(src: &[u8], names: &[&str]) -> Vec<Range<usize>> {
    let mut lexer = Lexer::new(src, true);
    lexer.watched = names;
    lexer.run(src.len());
    let mut found = lexer.declarations;
    found.sort_by_key(|r| r.start);
    found.dedup();
    found
}

/// Deeper bracket nesting is not followed (it only happens in generated or hostile input); what
/// sits deeper counts as a possible macro argument.
const MAX_DEPTH: usize = 256;

/// The UTF-8 byte order mark: at the start of a file, not part of its first line.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

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
    /// No compiler sees the current arm (`#if 0`, an alternative of `#if 1`).
    dead: bool,
    /// The chain started with `#if 1`.
    first_always: bool,
    /// An enclosing arm is dead: kept per arm so that a directive asks only the innermost arm
    /// (asking every open arm is quadratic in the nesting depth).
    outer_dead: bool,
}

/// Reads a buffer front to back, collecting keywords and preprocessor lines.
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
    /// The `overflow` counts at which a `PTX2HIP_NV_ONLY(` beyond [`MAX_DEPTH`] opened.
    overflow_nv_only: Vec<usize>,
    arms: Vec<Arm>,
    /// Inside an arm no compiler sees.
    skipping: bool,
    /// The last significant token, when it was a name.
    last_name: Option<(usize, usize)>,
    keywords: Vec<Keyword>,
    directive_lines: Vec<Directive>,
    /// Names whose declarations are wanted (see [`declarations_naming`]).
    watched: &'a [&'a str],
    /// Where the current declaration or statement began (after the last `;`, `{`, `}` or
    /// preprocessor line), and the bracket depth there.
    boundary: (usize, usize),
    /// The boundaries of declarations that name a watched name and have not ended yet.
    pending: Vec<(usize, usize)>,
    declarations: Vec<Range<usize>>,
    /// Every `//` and `/* */` comment in code (not those on preprocessor lines).
    comments: Vec<Range<usize>>,
    split_keywords: Vec<usize>,
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
            overflow_nv_only: Vec::new(),
            arms: Vec::new(),
            skipping: false,
            last_name: None,
            keywords: Vec::new(),
            directive_lines: Vec::new(),
            watched: &[],
            boundary: (0, 0),
            pending: Vec::new(),
            declarations: Vec::new(),
            comments: Vec::new(),
            split_keywords: Vec::new(),
        }
    }

    fn run(&mut self, end: usize) {
        while self.pos < end {
            self.step();
        }
    }

    /// The brackets around the current position, and whether one of them is ptx2hip's
    /// `PTX2HIP_NV_ONLY(`.
    fn place(&self) -> (Place, bool) {
        let name = |o: &Open| o.callee.map(|(s, e)| &self.src[s..e]);
        let in_nv_only_call = !self.overflow_nv_only.is_empty()
            || self.open.iter().any(|o| name(o) == Some(NV_ONLY_MACRO));
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
        (place, in_nv_only_call)
    }

    /// Reads one token (or blank, or comment, or literal, or preprocessor line).
    fn step(&mut self) {
        let src = self.src;
        let i = self.pos;
        let b = src[i];
        if matches!(b, b' ' | b'\t') {
            // A run of blanks changes nothing (at a line's start or after it): one step. It ends
            // before a newline, so never past the end of a `#define` body being read.
            self.pos += 1 + src[i + 1..]
                .iter()
                .take_while(|c| matches!(c, b' ' | b'\t'))
                .count();
            return;
        }
        if self.line_start {
            match b {
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.pos += 1;
                    return;
                }
                b'#' if self.directives => {
                    let end = directive_end(src, i);
                    self.directive(i..end);
                    self.pos = (end + 1).min(src.len());
                    self.boundary = (self.pos, self.open.len());
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
            b'/' if next == Some(b'/') => {
                let end = line_comment_end(src, i);
                self.comments.push(i..end);
                end
            }
            b'/' if next == Some(b'*') => {
                let end = block_comment_end(src, i);
                self.comments.push(i..end);
                end
            }
            b'"' | b'\'' => {
                self.last_name = None;
                quoted_end(src, i, b).clamp(i + 1, src.len())
            }
            b if b.is_ascii_digit() || b == b'.' && next.is_some_and(|n| n.is_ascii_digit()) => {
                self.last_name = None;
                number_end(src, i)
            }
            b if is_name_byte(b) => {
                let end = i + src[i..].iter().take_while(|&&c| is_name_byte(c)).count();
                if let Some((joined, after)) = spliced_name(src, end) {
                    // The name goes on past a line splice: one token for the compiler.
                    let word = [&src[i..end], &joined[..]].concat();
                    if super::is_asm_keyword(&word) {
                        self.split_keywords.push(i);
                    }
                    self.last_name = Some((i, end));
                    self.pos = after;
                    return;
                }
                let word = &src[i..end];
                if src.get(end) == Some(&b'"') && is_raw_prefix(word) {
                    self.last_name = None;
                    raw_string_end(src, end)
                } else {
                    if super::is_asm_keyword(word) {
                        let (place, in_nv_only_call) = self.place();
                        self.keywords.push(Keyword {
                            at: i,
                            len: end - i,
                            define: None,
                            place,
                            in_nv_only_call,
                        });
                    }
                    if self.watched.iter().any(|w| w.as_bytes() == word) {
                        self.pending.push(self.boundary);
                    }
                    self.last_name = Some((i, end));
                    end
                }
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
                if !self.pending.is_empty() {
                    let (ended, open): (Vec<_>, Vec<_>) =
                        self.pending.iter().partition(|&&(_, d)| d == depth);
                    self.declarations
                        .extend(ended.into_iter().map(|(start, _)| start..i + 1));
                    self.pending = open;
                }
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
            // ptx2hip's own wrapper is known at any depth: its kept original must never be
            // taken for a statement to translate again.
            if open.callee.map(|(s, e)| &self.src[s..e]) == Some(NV_ONLY_MACRO) {
                self.overflow_nv_only.push(self.overflow);
            }
        } else {
            self.open.push(open);
        }
    }

    fn close(&mut self, closer: u8) {
        if self.skipping {
            return;
        }
        if self.overflow > 0 {
            if self.overflow_nv_only.last() == Some(&self.overflow) {
                self.overflow_nv_only.pop();
            }
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

    /// A preprocessor line, from the `#` to its newline (excluded).
    fn directive(&mut self, span: Range<usize>) {
        let src = self.src;
        let mut w = span.start + 1;
        w += src[w..span.end]
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let word_end = w + src[w..span.end]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let index = self.directive_lines.len();
        self.directive_lines.push(Directive {
            span: span.clone(),
            word: w..word_end,
            rest: word_end..span.end,
        });
        let rest = &src[word_end..span.end];
        match &src[w..word_end] {
            b"if" | b"ifdef" | b"ifndef" => self.arms.push(Arm {
                saved: self.open.clone(),
                saved_overflow: self.overflow,
                dead: is_literal(rest, b'0'),
                first_always: is_literal(rest, b'1'),
                outer_dead: self.skipping,
            }),
            word @ (b"elif" | b"elifdef" | b"elifndef" | b"else") => {
                let Some(arm) = self.arms.last_mut() else {
                    return;
                };
                self.open.clone_from(&arm.saved);
                self.overflow = arm.saved_overflow;
                let depth = self.overflow;
                self.overflow_nv_only.retain(|&d| d <= depth);
                arm.dead = arm.first_always || word == b"elif" && is_literal(rest, b'0');
            }
            b"endif" => {
                self.arms.pop();
            }
            b"define" if self.directives && self.watched.is_empty() => {
                self.define_body(index, word_end, span.end);
            }
            _ => {}
        }
        self.skipping = self.arms.last().is_some_and(|a| a.dead || a.outer_dead);
    }

    /// Finds the keywords of a `#define` body: code once the macro is expanded, with brackets of
    /// its own.
    fn define_body(&mut self, index: usize, after_word: usize, end: usize) {
        let Some(body) = define_body_start(self.src, after_word, end) else {
            return;
        };
        if memchr::memmem::find(&self.src[body..end], b"asm").is_none() {
            return;
        }
        let mut body_lexer = Lexer::new(&self.src[..end], false);
        body_lexer.pos = body;
        body_lexer.line_start = false;
        body_lexer.run(end);
        self.keywords
            .extend(body_lexer.keywords.into_iter().map(|k| Keyword {
                define: Some(index),
                ..k
            }));
    }
}

/// Whether a condition is the literal `digit` (`#if 0`: no compiler sees the arm).
fn is_literal(rest: &[u8], digit: u8) -> bool {
    without_comments(rest).trim_ascii() == [digit]
}

/// A directive's text with `\`-newline continuations joined and comments replaced by a space.
pub fn without_comments(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        match &text[i..] {
            [b'/', b'*', ..] => {
                i = memchr::memmem::find(&text[i + 2..], b"*/").map_or(text.len(), |p| i + p + 4);
                out.push(b' ');
            }
            [b'/', b'/', ..] => break,
            [b'\\', b'\n', ..] => i += 2,
            [b'\\', b'\r', b'\n', ..] => i += 3,
            [b, ..] => {
                out.push(*b);
                i += 1;
            }
            [] => break,
        }
    }
    out
}

/// Where the body of a `#define` starts: after the name and a parameter list glued to it.
fn define_body_start(src: &[u8], after_word: usize, end: usize) -> Option<usize> {
    let mut i = skip_spaces(src, after_word, end);
    if !src
        .get(i)
        .is_some_and(|b| is_name_byte(*b) && !b.is_ascii_digit())
    {
        return None;
    }
    i += src[i..end].iter().take_while(|&&c| is_name_byte(c)).count();
    if src.get(i) == Some(&b'(') {
        i += memchr::memchr(b')', &src[i..end])? + 1;
    }
    Some(i)
}

/// Skips spaces, tabs and `\`-newline continuations.
fn skip_spaces(src: &[u8], mut i: usize, end: usize) -> usize {
    while i < end {
        match &src[i..end] {
            [b' ' | b'\t', ..] => i += 1,
            [b'\\', b'\n', ..] => i += 2,
            [b'\\', b'\r', b'\n', ..] => i += 3,
            _ => break,
        }
    }
    i
}

/// The offset of the newline that ends the directive at `hash` (or the end of the text): lines
/// continue after a `\`, and a block comment or literal that starts on the line is skipped whole.
pub fn directive_end(src: &[u8], hash: usize) -> usize {
    let mut i = hash + 1;
    while i < src.len() {
        match src[i] {
            b'\n' => return i,
            b'\\' if src.get(i + 1) == Some(&b'\n') => i += 2,
            b'\\' if src.get(i + 1..i + 3) == Some(b"\r\n") => i += 3,
            b'/' if src.get(i + 1) == Some(&b'/') => i = line_comment_end(src, i),
            b'/' if src.get(i + 1) == Some(&b'*') => i = block_comment_end(src, i),
            b'"' => i = string_end(src, i),
            b'\'' => i = quoted_end(src, i, b'\''),
            _ => i += 1,
        }
    }
    src.len()
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// When a line splice at `end` continues a name, the name bytes after it (over further splices)
/// and the offset after them.
fn spliced_name(src: &[u8], mut end: usize) -> Option<(Vec<u8>, usize)> {
    let mut more = Vec::new();
    loop {
        let next = match src.get(end..end + 3) {
            Some([b'\\', b'\r', b'\n']) => end + 3,
            _ => match src.get(end..end + 2) {
                Some([b'\\', b'\n']) => end + 2,
                _ => break,
            },
        };
        let run = src[next..].iter().take_while(|&&c| is_name_byte(c)).count();
        if run == 0 {
            break;
        }
        more.extend_from_slice(&src[next..next + run]);
        end = next + run;
    }
    (!more.is_empty()).then_some((more, end))
}

/// Encoding prefixes of raw string literals.
pub fn is_raw_prefix(word: &[u8]) -> bool {
    matches!(word, b"R" | b"u8R" | b"uR" | b"UR" | b"LR")
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

/// The offset after a `/* */` comment at `i` (the end of the text if it is not closed).
pub fn block_comment_end(src: &[u8], i: usize) -> usize {
    memchr::memmem::find(&src[(i + 2).min(src.len())..], b"*/").map_or(src.len(), |p| i + p + 4)
}

/// The offset after a `"..."` literal at `i`; an unterminated one ends at the newline.
pub fn string_end(src: &[u8], i: usize) -> usize {
    quoted_end(src, i, b'"')
}

/// The offset after a quoted literal starting at `i` (escapes honoured; an unterminated one ends
/// at the newline).
pub fn quoted_end(src: &[u8], mut i: usize, quote: u8) -> usize {
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

/// The offset after a raw string whose `"` is at `quote`: `R"delim( ... )delim"`, which holds
/// anything, newlines included.
pub fn raw_string_end(src: &[u8], quote: usize) -> usize {
    let limit = (quote + 18).min(src.len());
    let Some(open) = src[quote + 1..limit]
        .iter()
        .position(|&b| b == b'(')
        .map(|p| quote + 1 + p)
    else {
        return string_end(src, quote);
    };
    let mut close = Vec::with_capacity(open - quote + 1);
    close.push(b')');
    close.extend_from_slice(&src[quote + 1..open]);
    close.push(b'"');
    memchr::memmem::find(&src[open..], &close).map_or(src.len(), |p| open + p + close.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The place of the first `asm` keyword of `src`.
    fn around(src: &str) -> Place {
        survey(src.as_bytes())
            .keywords
            .first()
            .expect("an asm keyword in code")
            .place
            .clone()
    }

    fn argument(callee: &str) -> Place {
        Place::Argument {
            callee: callee.into(),
        }
    }

    fn keywords(src: &str) -> Vec<(usize, Option<usize>)> {
        survey(src.as_bytes())
            .keywords
            .iter()
            .map(|k| (k.at, k.define))
            .collect()
    }

    #[test]
    fn statements_among_braces_are_in_a_block() {
        assert_eq!(
            around("void f() {\n  if (x) { asm(\"trap;\"); }\n}\n"),
            Place::Block
        );
        assert_eq!(
            around("int a[] = {1, 2};\nvoid f() { asm(\"x\"); }"),
            Place::Block
        );
    }

    #[test]
    fn macro_arguments_and_parenthesized_groups_are_told_apart() {
        assert_eq!(
            around("NV_IF_TARGET(NV_PROVIDES_SM_90, (asm(\"x\");), (y;));"),
            Place::Group
        );
        assert_eq!(around("MACRO(d, asm(\"x\"));"), argument("MACRO"));
        assert_eq!(
            around("for_each(a, b, [&](int i) { asm(\"x\"); });"),
            argument("for_each")
        );
        assert_eq!(around("M /* c */\n  (x, asm(\"x\"));"), argument("M"));
        assert_eq!(around("x = ({ asm(\"x\"); 1; });"), Place::Group);
    }

    #[test]
    fn keywords_in_code_are_found_and_those_in_comments_and_literals_are_not() {
        let src = "asm(\"x\"); // asm\n/* __asm__ */ s = \"asm\"; c = 'a'; __asm volatile(\"\"); r = R\"(asm)\"; r8 = u8R\"d(asm)d\"; n = 1'000; plasma; asm_x;\n";
        let at = |s: &str| src.find(s).unwrap();
        assert_eq!(keywords(src), vec![(0, None), (at("__asm volatile"), None)]);
        let s = "void f() { g(\"(asm\", ')', R\"d()\"( )d\" /* ( asm */); // (asm\n asm(\"x\"); }";
        assert_eq!(around(s), Place::Block);
        let s = "int n = 1'000; f(u8'(');\nvoid g() { __asm__(\"x\"); }";
        assert_eq!(around(s), Place::Block);
    }

    #[test]
    fn keywords_in_define_bodies_count_with_brackets_of_their_own_and_other_directives_do_not() {
        let src = "#if defined(__asm__)\n#pragma asm\n#define LD(c) int ld_##c() { \\\n  asm(\"ld\" #c); }\n  # define B M(x, __asm__(\"x\"))\nvoid f() { asm(\"y\");\n";
        let s = survey(src.as_bytes());
        let at = |p: &str| src.find(p).unwrap();
        let got: Vec<_> = s.keywords.iter().map(|k| (k.at, k.define)).collect();
        assert_eq!(
            got,
            vec![
                (at("asm(\"ld\""), Some(2)),
                (at("__asm__(\"x"), Some(3)),
                (at("asm(\"y"), None)
            ]
        );
        let places: Vec<&Place> = s.keywords.iter().map(|k| &k.place).collect();
        assert_eq!(places, [&Place::Block, &argument("M"), &Place::Block]);
        let words: Vec<&[u8]> = s
            .directives
            .iter()
            .map(|d| d.word(src.as_bytes()))
            .collect();
        assert_eq!(words, vec![&b"if"[..], b"pragma", b"define", b"define"]);
    }

    #[test]
    fn a_directive_spans_continuations_and_multi_line_comments() {
        let src = "#if A /* x\n asm */ && \\\n B\nasm();\n";
        let s = survey(src.as_bytes());
        assert_eq!(s.directives.len(), 1);
        assert_eq!(s.directives[0].span, 0..src.find("\nasm").unwrap());
        assert_eq!(s.keywords.len(), 1);
        let s = survey(b"#define S \"/*\"\nasm();\n");
        assert_eq!(s.keywords.len(), 1, "a comment opener in a string is text");
    }

    #[test]
    fn a_hash_not_at_line_start_is_not_a_directive() {
        let src = "x = a # b; asm(\"\");\n";
        let s = survey(src.as_bytes());
        assert!(s.directives.is_empty());
        assert_eq!(s.keywords.len(), 1);
    }

    #[test]
    fn each_arm_starts_from_the_brackets_at_its_if_and_the_last_arm_stays_open() {
        let src =
            "#if A\nvoid f(int a) {\n#else\nvoid f(int a, int b) {\n#endif\n  asm(\"x\");\n}\n";
        assert_eq!(around(src), Place::Block);
        let src = "void f() {\n#if 0\n  g(\n#endif\n  asm(\"x\");\n}\n";
        assert_eq!(around(src), Place::Block);
        let src = "void f() {\n#if 1\n#else\n  g(\n#endif\n  asm(\"x\");\n}\n";
        assert_eq!(around(src), Place::Block);
    }

    #[test]
    fn ptx2hips_own_nvidia_only_wrapper_is_recognised() {
        let s = survey(b"M(PTX2HIP_AMD_ONLY(y;) PTX2HIP_NV_ONLY(asm(\"x\");)); asm(\"y\");");
        let nv: Vec<bool> = s.keywords.iter().map(|k| k.in_nv_only_call).collect();
        assert_eq!(nv, [true, false]);
    }

    #[test]
    fn a_byte_order_mark_does_not_hide_the_first_directive() {
        let s = survey("\u{feff}#if X\nasm(\"x\");\n#endif\n".as_bytes());
        assert_eq!(s.directives.len(), 2);
    }

    #[test]
    fn pathological_nesting_is_read_without_recursion_and_stays_conservative() {
        let src = format!("{}asm(\"x\"){}", "{".repeat(100_000), "}".repeat(100_000));
        assert_eq!(around(&src), argument(""));
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
    fn truncated_input_never_panics() {
        for src in [
            "#",
            "#define",
            "#define X(",
            "\"",
            "'",
            "R\"(",
            "/*",
            "//\\",
            "#if \\",
            "#define A asm",
            "#define A(x asm(",
        ] {
            let _ = survey(src.as_bytes());
        }
    }
}
