//! The C++ type of an operand expression, where the file shows it beyond doubt.
//!
//! nvcc rejects an operand whose type does not fit its constraint (`__half` in `"h"`, `double` in
//! `"r"`); the translation's glue refuses the same at compile time (rules/helpers/operands.h), but
//! `check` can only report it where it knows the type without compiling. That is the case for
//! CUDA's built-in variables (`threadIdx.x` is an `unsigned int`, `warpSize` an `int`), a cast that
//! is the whole expression (`(float)x`, `static_cast<double>(x)`), and a plain name whose nearest
//! declaration in scope before the statement spells its type (`__half h;`, a parameter
//! `__half2 v`). Anything else — a type the table in `lower::operands` does not know, a template
//! parameter, `auto`, a declaration list, an array, a preprocessor conditional between the
//! declaration and the statement — gives no type: no finding is better than a false one.
//!
//! Where the type is exactly what nvcc binds, generated code also uses the expression without the
//! glue (`d = c | (b & a);`, `lower::operands::Direct`): for that, [`Seen`] says where the type
//! was seen — a declaration counts only inside the function around the statement, where no
//! member or namespace-scope name the file may not show can come between — and a declaration of
//! a shape this reader does not read whole (`T a, x;`, `T x(0);`, `DECLARE(x);`) hides any
//! further out rather than letting it through.

use std::collections::HashSet;

use super::tokens::{Kind, Span};

/// The built-in variables and the type nvcc gives them.
const BUILTINS: [(&str, &str); 13] = [
    ("threadIdx.x", "unsigned int"),
    ("threadIdx.y", "unsigned int"),
    ("threadIdx.z", "unsigned int"),
    ("blockIdx.x", "unsigned int"),
    ("blockIdx.y", "unsigned int"),
    ("blockIdx.z", "unsigned int"),
    ("blockDim.x", "unsigned int"),
    ("blockDim.y", "unsigned int"),
    ("blockDim.z", "unsigned int"),
    ("gridDim.x", "unsigned int"),
    ("gridDim.y", "unsigned int"),
    ("gridDim.z", "unsigned int"),
    ("warpSize", "int"),
];

/// Tokens searched back from a statement for a declaration: a file of many statements is read in
/// linear time, and a declaration further away than this gives no type.
const SEARCH_LIMIT: usize = 4096;

/// Words before a name that make `WORD NAME;` a statement, not a declaration.
const STATEMENT_WORDS: [&str; 9] = [
    "return",
    "case",
    "goto",
    "else",
    "throw",
    "delete",
    "new",
    "sizeof",
    "co_return",
];

/// The keywords that spell fundamental types: no typedef can name one.
const FUNDAMENTAL_WORDS: [&[u8]; 11] = [
    b"void",
    b"bool",
    b"char",
    b"short",
    b"int",
    b"long",
    b"signed",
    b"unsigned",
    b"float",
    b"double",
    b"__int128",
];

/// Words of a declaration that say how long a variable lives, not what its type is (`constexpr`
/// also makes it `const`, which [`Declared::constant`] records).
const STORAGE_WORDS: [&str; 2] = ["static", "constexpr"];

/// Words that qualify a type without changing how an operand binds.
const QUALIFIERS: [&str; 5] = [
    "const",
    "volatile",
    "__restrict__",
    "__restrict",
    "register",
];

/// An operand's C++ type as the file shows it, and where the file shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisibleType {
    /// The type in a normal form (`unsigned int`, `__half`, `float*`), qualifiers left out.
    pub name: String,
    pub seen: Seen,
}

/// Where an operand's type was seen, which decides what generated code may do with the
/// expression beyond checking the type (`lower::operands::Direct`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// A CUDA built-in variable: nvcc's type, which HIP spells as a class that converts to it.
    Builtin,
    /// A cast that is the whole expression: the expression has exactly this type.
    Cast,
    /// The declaration of a plain name.
    Declared(Declared),
}

/// What the declaration of a plain name shows besides its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declared {
    /// A parameter of the function (or lambda) around the statement or a local of its body: no
    /// member, global or namespace-scope name that the file may not show whole can stand
    /// between it and the statement.
    pub local: bool,
    /// `const` (or `constexpr`) somewhere in the type.
    pub constant: bool,
    /// `volatile` somewhere in the type.
    pub volatile: bool,
}

/// The type `expr` has by its spelling alone: a built-in variable or a cast around all of it.
pub fn of_expression(expr: &str) -> Option<VisibleType> {
    let e = strip_parens(expr.trim());
    let compact: String = e.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some((_, ty)) = BUILTINS.iter().find(|(b, _)| *b == compact) {
        return Some(VisibleType {
            name: ty.to_string(),
            seen: Seen::Builtin,
        });
    }
    let cast = |name: Option<String>| {
        name.map(|name| VisibleType {
            name,
            seen: Seen::Cast,
        })
    };
    for prefix in ["static_cast<", "reinterpret_cast<"] {
        if let Some(rest) = e.strip_prefix(prefix) {
            let close = rest.find('>')?;
            let operand = rest[close + 1..].trim();
            return cast(
                is_group(operand)
                    .then(|| type_name(&rest[..close]))
                    .flatten(),
            );
        }
    }
    let rest = e.strip_prefix('(')?;
    let close = rest.find(')')?;
    let operand = rest[close + 1..].trim();
    let simple = operand
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_');
    if operand.is_empty() || !(simple || is_group(operand)) {
        return None;
    }
    cast(type_name(&rest[..close]))
}

/// `(...)` spanning all of `s`.
fn is_group(s: &str) -> bool {
    s.starts_with('(') && matching_close(s) == Some(s.len() - 1)
}

fn matching_close(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `e` without the parentheses around all of it, in one pass (operands nest as deep as their
/// author likes).
fn strip_parens(e: &str) -> &str {
    let bytes = e.as_bytes();
    let mut close_of = vec![usize::MAX; bytes.len()];
    let mut open = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' => open.push(i),
            b')' => match open.pop() {
                Some(o) => close_of[o] = i,
                None => return e,
            },
            _ => {}
        }
    }
    let (mut start, mut end) = (0, bytes.len());
    loop {
        while start < end && bytes[start].is_ascii_whitespace() {
            start += 1;
        }
        while end > start && bytes[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        if start < end && bytes[start] == b'(' && close_of[start] == end - 1 {
            start += 1;
            end -= 1;
        } else {
            return &e[start..end];
        }
    }
}

/// A type as written (`const unsigned int`, `__half *`) in the normal form of the table in
/// `lower::operands` (`unsigned int`, `__half*`), or `None` where it is not plain words and `*`.
fn type_name(written: &str) -> Option<String> {
    let mut words = Vec::new();
    let mut pointer = false;
    let spaced = written.replace('*', " * ");
    for part in spaced.split_whitespace() {
        match part {
            "*" => pointer = true,
            q if QUALIFIERS.contains(&q) => {}
            w if !pointer && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                words.push(w)
            }
            _ => return None,
        }
    }
    if words.is_empty() {
        return None;
    }
    let mut name = words.join(" ");
    if pointer {
        name.push('*');
    }
    Some(name)
}

/// The preprocessor conditionals of a file: where each `#if`, `#elif`/`#else` and `#endif` is.
pub struct Conditionals(Vec<(usize, Step)>);

/// What a conditional directive does to the arms around what follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `#if`, `#ifdef`, `#ifndef`: a group's first arm.
    Open,
    /// `#elif`, `#else` (and their kin): the group's next arm.
    Next,
    /// `#endif`.
    Close,
}

impl Conditionals {
    /// `steps`: each directive's offset and step, in file order.
    pub fn new(steps: Vec<(usize, Step)>) -> Self {
        Conditionals(steps)
    }

    /// Whether every compilation that reaches offset `late` also reached offset `early` (before
    /// it): each conditional arm that holds `early` holds `late` too.
    pub fn encloses_both(&self, early: usize, late: usize) -> bool {
        // Between the two, an arm that holds `early` ends when its group moves on or closes while
        // no arm opened after `early` is open.
        let first = self.0.partition_point(|(at, _)| *at < early);
        let mut depth = 0usize;
        for (at, step) in &self.0[first..] {
            if *at >= late {
                break;
            }
            match step {
                Step::Open => depth += 1,
                Step::Next if depth == 0 => return false,
                Step::Next => {}
                Step::Close if depth == 0 => return false,
                Step::Close => depth -= 1,
            }
        }
        true
    }
}

/// The words `src` defines as a macro (`#define NAME`) or as a type (`typedef ... NAME;`,
/// `using NAME = ...;`): a type spelled with one of them is not the type its spelling says.
/// `tokens`: the code tokens of `src`.
pub fn redefined_words(
    src: &[u8],
    tokens: &[Span],
    directives: &[super::nesting::Directive],
) -> HashSet<Vec<u8>> {
    let mut words: HashSet<Vec<u8>> = directives
        .iter()
        .filter(|d| d.word(src) == b"define")
        .filter_map(|d| {
            let rest = &src[d.rest.clone()];
            let start = rest.iter().position(|c| !c.is_ascii_whitespace())?;
            let len = rest[start..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            (len > 0).then(|| rest[start..start + len].to_vec())
        })
        .collect();
    let mut in_typedef = false;
    for (i, t) in tokens.iter().enumerate() {
        let text = t.text(src);
        match text {
            b"typedef" => in_typedef = true,
            b";" => in_typedef = false,
            b"using" => {
                let alias = tokens.get(i + 1).zip(tokens.get(i + 2));
                if let Some((name, b"=")) = alias.map(|(n, e)| (n, e.text(src))) {
                    words.insert(name.text(src).to_vec());
                }
            }
            _ if in_typedef && t.kind == Kind::Ident => {
                // The declarator: a name that ends the typedef, one of its list, an array's or a
                // function pointer's.
                let next = tokens.get(i + 1).map(|n| (n.kind, n.text(src)));
                let keyword = FUNDAMENTAL_WORDS.contains(&text);
                if !keyword
                    && matches!(
                        next,
                        Some(
                            (Kind::Other, b";") | (Kind::Comma | Kind::LBracket | Kind::RParen, _)
                        )
                    )
                {
                    words.insert(text.to_vec());
                }
            }
            _ => {}
        }
    }
    words
}

/// The code tokens of a file, with the token that opens each `}` and each `)`: what the search
/// for a declaration steps over in one move, so that a file of many statements after long
/// function bodies costs the tokens of the scopes around each statement, not all of them.
pub struct CodeTokens {
    pub spans: Vec<Span>,
    /// What the search looks at in each token, found once.
    shapes: Vec<Shape>,
}

#[derive(Clone, Copy)]
enum Shape {
    /// A `{`.
    Open,
    /// A `}`, with the `{` that opens it (braces counted alone), `None` when none does.
    CloseBrace(Option<u32>),
    /// A `)`, with the `(` that opens it (parentheses counted alone), `None` when none does.
    CloseParen(Option<u32>),
    Ident,
    Other,
}

impl CodeTokens {
    pub fn new(src: &[u8], spans: Vec<Span>) -> Self {
        let mut shapes = Vec::with_capacity(spans.len());
        let (mut braces, mut parens) = (Vec::new(), Vec::new());
        // Token indices fit in `u32` (a file of more than 4 G tokens is not read whole).
        let index = |i: usize| u32::try_from(i).ok();
        for (i, t) in spans.iter().enumerate() {
            shapes.push(match (t.kind, t.text(src)) {
                (Kind::Other, b"{") => {
                    braces.push(i);
                    Shape::Open
                }
                (Kind::Other, b"}") => Shape::CloseBrace(braces.pop().and_then(index)),
                (Kind::LParen, _) => {
                    parens.push(i);
                    Shape::Other
                }
                (Kind::RParen, _) => Shape::CloseParen(parens.pop().and_then(index)),
                (Kind::Ident, _) => Shape::Ident,
                _ => Shape::Other,
            });
        }
        CodeTokens { spans, shapes }
    }
}

/// The type of the declaration of `name` nearest before token `before` (of `code`, the code
/// tokens of `src`) in the scopes that enclose it, as written, when that declaration is
/// `TYPE NAME` followed by `;`, `=`, `,`, `)`, `{` or `:`. `None` when the nearest declaration is
/// of another shape (`T a, NAME;`, `T NAME(0);`, `std::array<T, 2> NAME;`, a type named in
/// another namespace, a statement-level macro call that names it and may declare it), none is
/// found (within [`SEARCH_LIMIT`] tokens), or it lies in an arm of a preprocessor conditional
/// (`conditionals`) that does not hold the statement too: another arm may declare it otherwise.
pub fn declared(
    src: &[u8],
    code: &CodeTokens,
    before: usize,
    name: &str,
    conditionals: &Conditionals,
) -> Option<VisibleType> {
    let tokens = &code.spans[..];
    let text = |t: &Span| t.text(src);
    let statement_at = tokens.get(before).map_or(usize::MAX, |t| t.at);
    let mut i = before.min(tokens.len());
    // The brace of the scope entered last, with the parentheses after which it opened.
    let mut entered_at: Option<usize> = None;
    // Still inside the function around the statement; and the `(` of that function's parameter
    // list once the search has entered its body, past which the search has left it.
    let mut local = true;
    let mut parameters_open: Option<usize> = None;
    let stop = before.saturating_sub(SEARCH_LIMIT);
    while i > stop {
        i -= 1;
        if parameters_open.is_some_and(|open| i < open) {
            local = false;
        }
        match code.shapes[i] {
            // A block that has ended before the statement is not in scope: step over it (a
            // brace that opens none leaves nothing in scope within the search).
            Shape::CloseBrace(open) => match open {
                Some(open) if open as usize >= stop => i = open as usize,
                _ => return None,
            },
            Shape::Open => {
                entered_at = Some(i);
                match opened_by(src, code, i) {
                    Opener::Block => {}
                    Opener::Function { parameters } => {
                        parameters_open.get_or_insert(parameters);
                    }
                    Opener::Other => local = false,
                }
            }
            Shape::CloseParen(open) => {
                let open = open? as usize;
                // A parameter list (or `for`/`if` header) of the scope just entered is in scope;
                // any other parentheses (another function's parameters) are not.
                let heads_scope = entered_at.is_some_and(|b| {
                    // `const`, `noexcept`, `-> T`, `::`.
                    tokens[i + 1..b].iter().all(|t| {
                        matches!(t.kind, Kind::Ident | Kind::Colon)
                            || matches!(text(t), b"-" | b">" | b"&")
                    })
                });
                if !heads_scope {
                    // `DECLARE(NAME);` may be a macro (named as macros are) that declares it.
                    let statement_call = open > 0
                        && tokens[open - 1].kind == Kind::Ident
                        && macro_like(text(&tokens[open - 1]))
                        && tokens.get(i + 1).is_some_and(|t| text(t) == b";")
                        && (open < 2 || matches!(text(&tokens[open - 2]), b";" | b"{" | b"}"));
                    let names_it = tokens[open + 1..i]
                        .iter()
                        .any(|t| t.kind == Kind::Ident && text(t) == name.as_bytes());
                    if statement_call && names_it {
                        return None;
                    }
                    i = open;
                }
            }
            Shape::Ident if text(&tokens[i]) == name.as_bytes() => {
                let t = &tokens[i];
                let next = tokens.get(i + 1)?;
                let prev = i.checked_sub(1).map(|p| (tokens[p].kind, text(&tokens[p])));
                let declares = matches!(
                    (next.kind, text(next)),
                    (Kind::Other, b";" | b"=" | b"{")
                        | (Kind::Comma | Kind::RParen | Kind::Colon, _)
                ) || next.kind == Kind::LBracket;
                let typed = matches!(prev, Some((Kind::Ident, _) | (Kind::Other, b"*" | b"&")));
                // `T a, NAME;`, `T<U> NAME;`, `T NAME(0);`, `T NAME __attribute__(...)`,
                // `auto [a, NAME]`: perhaps a declaration of a shape not read here, which would
                // hide any further out.
                let may_declare = matches!(
                    (next.kind, text(next)),
                    (Kind::Other, b";" | b"=" | b"{")
                        | (
                            Kind::Comma | Kind::LBracket | Kind::LParen | Kind::RBracket,
                            _
                        )
                );
                let listed = matches!(prev, Some((Kind::Comma, _) | (Kind::Other, b">")));
                let bound = prev.is_some_and(|(kind, _)| kind == Kind::LBracket)
                    && i >= 2
                    && matches!(text(&tokens[i - 2]), b"auto" | b"&");
                if (listed && may_declare)
                    || bound
                    || (typed && matches!(next.kind, Kind::LParen | Kind::Ident))
                {
                    return None;
                }
                if !(declares && typed) {
                    continue;
                }
                let in_other_arm = !conditionals.encloses_both(t.at, statement_at);
                if next.kind == Kind::LBracket || in_other_arm {
                    return None;
                }
                let (name, constant, volatile) = type_before(src, tokens, i)?;
                return Some(VisibleType {
                    name,
                    seen: Seen::Declared(Declared {
                        local,
                        constant,
                        volatile,
                    }),
                });
            }
            Shape::Ident | Shape::Other => {}
        }
    }
    None
}

/// A name spelt as macros are: capitals, digits and `_`.
fn macro_like(name: &[u8]) -> bool {
    name.iter().any(u8::is_ascii_uppercase)
        && name
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
}

/// What the `{` at token `brace` opens, as far as the scope of names goes.
enum Opener {
    /// A block of a function body: `{` after a statement, a label, `else`, `do`, `try`, or a
    /// `for`/`if`/`while`/`switch`/`catch` header.
    Block,
    /// A function's (or lambda's) body, whose parameter list opens at token `parameters`.
    Function { parameters: usize },
    /// Anything else: a class, a namespace, an initializer, a lambda without parameters.
    Other,
}

fn opened_by(src: &[u8], code: &CodeTokens, brace: usize) -> Opener {
    let tokens = &code.spans[..];
    let Some(prev) = brace.checked_sub(1).map(|p| &tokens[p]) else {
        return Opener::Other;
    };
    let single_colon =
        prev.kind == Kind::Colon && (brace < 2 || tokens[brace - 2].kind != Kind::Colon);
    if single_colon
        || matches!(
            prev.text(src),
            b";" | b"{" | b"}" | b"else" | b"do" | b"try"
        )
    {
        return Opener::Block;
    }
    // Back over what may stand between a parameter list and its body: `const`, `noexcept`,
    // `mutable`, `-> T`, `::`, `&`.
    let mut p = brace;
    while p > 0 {
        let t = &tokens[p - 1];
        if matches!(t.kind, Kind::Ident | Kind::Colon) || matches!(t.text(src), b"-" | b">" | b"&")
        {
            p -= 1;
        } else {
            break;
        }
    }
    let Some(Shape::CloseParen(Some(open))) = p.checked_sub(1).map(|c| code.shapes[c]) else {
        return Opener::Other;
    };
    let open = open as usize;
    let control = open.checked_sub(1).is_some_and(|w| {
        matches!(
            tokens[w].text(src),
            b"if" | b"for" | b"while" | b"switch" | b"catch" | b"constexpr"
        )
    });
    if control && p == brace {
        Opener::Block
    } else {
        Opener::Function { parameters: open }
    }
}

/// The type written right before the declarator at token `name` (identifiers, `*` and `&`, back
/// to the token that ends the previous statement or parameter) in the normal form of
/// [`type_name`], and whether it says `const` and `volatile`. `None` for a statement (`return
/// x;`) and for a type named in another namespace than `std` (`ns::uint32_t`).
fn type_before(src: &[u8], tokens: &[Span], name: usize) -> Option<(String, bool, bool)> {
    let part = |t: &Span| {
        t.kind == Kind::Ident || (t.kind == Kind::Other && matches!(t.text(src), b"*" | b"&"))
    };
    let back = |mut start: usize| {
        while start > 0 && part(&tokens[start - 1]) {
            start -= 1;
        }
        start
    };
    let start = back(name);
    let colons = |at: usize| {
        at >= 2 && tokens[at - 1].kind == Kind::Colon && tokens[at - 2].kind == Kind::Colon
    };
    // `std::uint32_t`, `const std::uint32_t`: the words before `std::` count too.
    let mut parts = vec![start..name];
    if colons(start) {
        let in_std = start >= 3 && tokens[start - 3].text(src) == b"std" && !colons(start - 3);
        if !in_std || start == name {
            return None;
        }
        parts.insert(0, back(start - 3)..start - 3);
    }
    let words: Vec<String> = parts
        .into_iter()
        .flat_map(|r| tokens[r].iter())
        .filter(|t| t.text(src) != b"&")
        .map(|t| String::from_utf8_lossy(t.text(src)).into_owned())
        .collect();
    if words.iter().any(|w| STATEMENT_WORDS.contains(&w.as_str())) {
        return None;
    }
    let constant = words.iter().any(|w| w == "const" || w == "constexpr");
    let volatile = words.iter().any(|w| w == "volatile");
    let written: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .filter(|w| !STORAGE_WORDS.contains(w))
        .collect();
    Some((type_name(&written.join(" "))?, constant, volatile))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::tokens::spans;

    /// The type `expr`'s spelling shows.
    fn ty(expr: &str) -> Option<String> {
        of_expression(expr).map(|v| v.name)
    }

    #[test]
    fn built_in_variables_and_whole_casts_show_their_type() {
        assert_eq!(ty("threadIdx.x").as_deref(), Some("unsigned int"));
        assert_eq!(ty(" ( blockDim . z ) ").as_deref(), Some("unsigned int"));
        assert_eq!(ty("warpSize").as_deref(), Some("int"));
        assert_eq!(ty("(float)x").as_deref(), Some("float"));
        assert_eq!(ty("(const double)(a + b)").as_deref(), Some("double"));
        assert_eq!(ty("static_cast<__half>(v)").as_deref(), Some("__half"));
        assert_eq!(ty("(char*)p").as_deref(), Some("char*"));
        // Not the whole expression, or not a type.
        assert_eq!(ty("(float)x + y"), None);
        assert_eq!(ty("(a)(b)"), Some("a".into()));
        assert_eq!(ty("threadIdx.x + 1"), None);
        assert_eq!(ty("x"), None);
        assert_eq!(ty("(x)"), None);
    }

    fn declared_in(src: &str, name: &str) -> Option<String> {
        declaration_in(src, name).map(|v| v.name)
    }

    fn declaration_in(src: &str, name: &str) -> Option<VisibleType> {
        let tokens = spans(src.as_bytes(), 0..src.len(), &[]);
        let at = src.find("asm").unwrap();
        let before = tokens.iter().position(|t| t.at >= at).unwrap();
        let mut steps: Vec<(usize, Step)> = ["#if", "#else", "#endif"]
            .into_iter()
            .zip([Step::Open, Step::Next, Step::Close])
            .flat_map(|(d, step)| src.match_indices(d).map(move |(i, _)| (i, step)))
            .collect();
        steps.sort_by_key(|s| s.0);
        let conditionals = Conditionals::new(steps);
        let code = CodeTokens::new(src.as_bytes(), tokens);
        declared(src.as_bytes(), &code, before, name, &conditionals)
    }

    #[test]
    fn the_nearest_declaration_in_scope_gives_the_type() {
        let src = "__device__ void f(__half h, float* p) { uint32_t r; asm(\"\"); }";
        assert_eq!(declared_in(src, "h").as_deref(), Some("__half"));
        assert_eq!(declared_in(src, "p").as_deref(), Some("float*"));
        assert_eq!(declared_in(src, "r").as_deref(), Some("uint32_t"));
        let src = "void f() { const __half2 v = g(); for (int i = 0; i < 2; ++i) { asm(\"\"); } }";
        assert_eq!(declared_in(src, "v").as_deref(), Some("__half2"));
        assert_eq!(declared_in(src, "i").as_deref(), Some("int"));
        // Shadowing: the inner declaration.
        let src = "void f() { double x; { float x; asm(\"\"); } }";
        assert_eq!(declared_in(src, "x").as_deref(), Some("float"));
    }

    #[test]
    fn closed_blocks_and_other_parentheses_are_stepped_over_whole() {
        // Nested closed blocks (with a same-named declaration inside) between the parameter and
        // the statement.
        let src = "void f(__half h) { { float h; { double h; } } if (g(h)) { int h; } asm(\"\"); }";
        assert_eq!(declared_in(src, "h").as_deref(), Some("__half"));
        // A `}` that closes no block: nothing before it is known to be in scope.
        let src = "double x; } void f() { asm(\"\"); }";
        assert_eq!(declared_in(src, "x"), None);
    }

    #[test]
    fn declarations_out_of_scope_or_of_unclear_shape_give_none() {
        // Another function's parameter and local.
        let src = "void g(double x) { float y; } void f() { asm(\"\"); }";
        assert_eq!(declared_in(src, "x"), None);
        assert_eq!(declared_in(src, "y"), None);
        // A closed block.
        let src = "void f() { { double x; } asm(\"\"); }";
        assert_eq!(declared_in(src, "x"), None);
        // Arrays, declaration lists, and a conditional between declaration and statement.
        let src = "void f() { float a[2], b; asm(\"\"); }";
        assert_eq!(declared_in(src, "a"), None);
        assert_eq!(declared_in(src, "b"), None);
        // A declaration in an arm that does not hold the statement (another arm may declare it
        // otherwise); one before a group that closes, or outside the arm that holds the
        // statement, holds in every compilation that reaches the statement.
        let src = "void f() {\n#if A\n double x;\n#else\n float x;\n#endif\n asm(\"\"); }";
        assert_eq!(declared_in(src, "x"), None);
        let src = "void f() { double x;\n#if A\n#endif\n asm(\"\"); }";
        assert_eq!(declared_in(src, "x").as_deref(), Some("double"));
        let src = "void f(double x) {\n#if A\n asm(\"\");\n#else\n g();\n#endif\n }";
        assert_eq!(declared_in(src, "x").as_deref(), Some("double"));
        // A use is not a declaration; the search goes on to the declaration.
        let src = "void f() { double x; x = 1; g(x); asm(\"\"); }";
        assert_eq!(declared_in(src, "x").as_deref(), Some("double"));
        // `return x;` has the shape of `TYPE NAME;`: no answer, and no false one.
        let src = "void f(float x) { if (c) return x; asm(\"\"); }";
        assert_eq!(declared_in(src, "x"), None);
    }

    /// Where the type was seen: in the function around the statement, and how qualified.
    fn seen_in(src: &str, name: &str) -> Option<(String, bool, bool, bool)> {
        declaration_in(src, name).map(|v| match v.seen {
            Seen::Declared(d) => (v.name, d.local, d.constant, d.volatile),
            other => panic!("{other:?}"),
        })
    }

    #[test]
    fn a_declaration_counts_as_local_only_inside_the_function_around_the_statement() {
        let local = |t: &str| Some((t.to_string(), true, false, false));
        let src = "void f(uint32_t a) { if (a) { for (int i = 0; i < 2; ++i) { asm(\"\"); } } }";
        assert_eq!(seen_in(src, "a"), local("uint32_t"));
        assert_eq!(seen_in(src, "i"), local("int"));
        let src = "void f() { const std::uint32_t k = 1; static volatile unsigned v; asm(\"\"); }";
        assert_eq!(
            seen_in(src, "k"),
            Some(("uint32_t".into(), true, true, false))
        );
        assert_eq!(
            seen_in(src, "v"),
            Some(("unsigned".into(), true, false, true))
        );
        // A global, a namespace's name, a lambda's enclosing function: seen, but not local (a
        // member or a header's name could come between).
        let src = "uint32_t g; namespace n { void f() { asm(\"\"); } }";
        assert_eq!(
            seen_in(src, "g"),
            Some(("uint32_t".into(), false, false, false))
        );
        let src = "void f(uint32_t a) { auto l = [&](int b) { asm(\"\"); }; }";
        assert_eq!(seen_in(src, "b"), local("int"));
        assert_eq!(seen_in(src, "a").map(|s| s.1), Some(false));
        // Inside a class, a member function's parameter is local; a member is not.
        let src = "struct S { float m; void f(int p) const { asm(\"\"); } };";
        assert_eq!(seen_in(src, "p"), local("int"));
        assert_eq!(seen_in(src, "m").map(|s| s.1), Some(false));
    }

    #[test]
    fn declarations_this_reader_does_not_read_whole_hide_those_further_out() {
        // `T a, x;`, `T x(0);`, `array<T, 2> x;`, a statement-level macro call naming it: each may
        // declare `x`, shadowing the parameter.
        for inner in [
            "float a, x;",
            "float x(0);",
            "Vec<float> x;",
            "DECLARE(x);",
            "auto [x, y] = pair();",
            "auto& [y, x] = pair();",
            "float x __attribute__((aligned(4)));",
        ] {
            let src = format!("void f(uint32_t x) {{ {inner} asm(\"\"); }}");
            assert_eq!(declared_in(&src, "x"), None, "{inner}");
        }
        // A use is no declaration: `g(x);` after an assignment, an earlier asm statement.
        let src = "void f(uint32_t x) { y = g(x); asm(\"\" : : \"r\"(x)); asm(\"\"); }";
        assert_eq!(declared_in(src, "x").as_deref(), Some("uint32_t"));
        // A type of another namespace is not the standard one its last word names.
        let src = "void f(ns::uint32_t x) { asm(\"\"); }";
        assert_eq!(declared_in(src, "x"), None);
    }

    #[test]
    fn words_the_file_defines_as_macros_or_types_are_found() {
        let src = "#define uint32_t long\ntypedef unsigned int u32, *pu32;\nusing word = int;\n\
                   typedef void (*fn)(int);\nvoid f(unsigned int a) {}";
        let tokens = spans(src.as_bytes(), 0..src.len(), &[]);
        let survey = super::super::nesting::survey(src.as_bytes());
        let code: Vec<Span> = tokens
            .into_iter()
            .filter(|t| !survey.directives.iter().any(|d| d.span.contains(&t.at)))
            .collect();
        let words = redefined_words(src.as_bytes(), &code, &survey.directives);
        for w in ["uint32_t", "u32", "pu32", "word", "fn"] {
            assert!(words.contains(w.as_bytes()), "{w}");
        }
        for w in ["unsigned", "int", "a", "void"] {
            assert!(!words.contains(w.as_bytes()), "{w}");
        }
    }
}
