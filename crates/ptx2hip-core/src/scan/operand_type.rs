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

use std::ops::Range;

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

/// Words that qualify a type without changing how an operand binds.
const QUALIFIERS: [&str; 5] = [
    "const",
    "volatile",
    "__restrict__",
    "__restrict",
    "register",
];

/// The type `expr` has by its spelling alone: a built-in variable or a cast around all of it.
pub fn of_expression(expr: &str) -> Option<String> {
    let e = strip_parens(expr.trim());
    let compact: String = e.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some((_, ty)) = BUILTINS.iter().find(|(b, _)| *b == compact) {
        return Some(ty.to_string());
    }
    for cast in ["static_cast<", "reinterpret_cast<"] {
        if let Some(rest) = e.strip_prefix(cast) {
            let close = rest.find('>')?;
            let operand = rest[close + 1..].trim();
            return (is_group(operand))
                .then(|| type_name(&rest[..close]))
                .flatten();
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
    type_name(&rest[..close])
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
/// of another shape, none is found (within [`SEARCH_LIMIT`] tokens), or a preprocessor
/// conditional (`conditionals`: their byte ranges, in file order) lies between it and the
/// statement.
pub fn declared(
    src: &[u8],
    code: &CodeTokens,
    before: usize,
    name: &str,
    conditionals: &[Range<usize>],
) -> Option<String> {
    let tokens = &code.spans[..];
    let statement_at = tokens.get(before).map_or(usize::MAX, |t| t.at);
    let mut i = before.min(tokens.len());
    // The brace of the scope entered last, with the parentheses after which it opened.
    let mut entered_at: Option<usize> = None;
    let stop = before.saturating_sub(SEARCH_LIMIT);
    while i > stop {
        i -= 1;
        match code.shapes[i] {
            // A block that has ended before the statement is not in scope: step over it (a
            // brace that opens none leaves nothing in scope within the search).
            Shape::CloseBrace(open) => match open {
                Some(open) if open as usize >= stop => i = open as usize,
                _ => return None,
            },
            Shape::Open => entered_at = Some(i),
            Shape::CloseParen(open) => {
                let open = open? as usize;
                // A parameter list (or `for`/`if` header) of the scope just entered is in scope;
                // any other parentheses (another function's parameters) are not.
                let heads_scope = entered_at.is_some_and(|b| {
                    // `const`, `noexcept`, `-> T`, `::`.
                    tokens[i + 1..b].iter().all(|t| {
                        matches!(t.kind, Kind::Ident | Kind::Colon)
                            || matches!(t.text(src), b"-" | b">" | b"&")
                    })
                });
                if !heads_scope {
                    i = open;
                }
            }
            Shape::Ident if tokens[i].text(src) == name.as_bytes() => {
                let t = &tokens[i];
                let next = tokens.get(i + 1)?;
                let declares = matches!(
                    (next.kind, next.text(src)),
                    (Kind::Other, b";" | b"=" | b"{")
                        | (Kind::Comma | Kind::RParen | Kind::Colon, _)
                ) || next.kind == Kind::LBracket;
                let typed = i > 0
                    && matches!(
                        (tokens[i - 1].kind, tokens[i - 1].text(src)),
                        (Kind::Ident, _) | (Kind::Other, b"*" | b"&")
                    );
                if !(declares && typed) {
                    continue;
                }
                let first_after = conditionals.partition_point(|r| r.start <= t.at);
                let conditional_between = conditionals
                    .get(first_after)
                    .is_some_and(|r| r.start < statement_at);
                if next.kind == Kind::LBracket || conditional_between {
                    return None;
                }
                return type_before(src, tokens, i);
            }
            Shape::Ident | Shape::Other => {}
        }
    }
    None
}

/// The type written right before the declarator at token `name`: identifiers, `*` and `&`,
/// back to the token that ends the previous statement or parameter.
fn type_before(src: &[u8], tokens: &[Span], name: usize) -> Option<String> {
    let mut start = name;
    while start > 0 {
        let t = &tokens[start - 1];
        let part =
            t.kind == Kind::Ident || (t.kind == Kind::Other && matches!(t.text(src), b"*" | b"&"));
        if !part {
            break;
        }
        start -= 1;
    }
    if tokens[start..name]
        .iter()
        .any(|t| STATEMENT_WORDS.contains(&String::from_utf8_lossy(t.text(src)).as_ref()))
    {
        return None;
    }
    let written: Vec<String> = tokens[start..name]
        .iter()
        .filter(|t| t.text(src) != b"&")
        .map(|t| String::from_utf8_lossy(t.text(src)).into_owned())
        .collect();
    type_name(&written.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::tokens::spans;

    #[test]
    fn built_in_variables_and_whole_casts_show_their_type() {
        assert_eq!(
            of_expression("threadIdx.x").as_deref(),
            Some("unsigned int")
        );
        assert_eq!(
            of_expression(" ( blockDim . z ) ").as_deref(),
            Some("unsigned int")
        );
        assert_eq!(of_expression("warpSize").as_deref(), Some("int"));
        assert_eq!(of_expression("(float)x").as_deref(), Some("float"));
        assert_eq!(
            of_expression("(const double)(a + b)").as_deref(),
            Some("double")
        );
        assert_eq!(
            of_expression("static_cast<__half>(v)").as_deref(),
            Some("__half")
        );
        assert_eq!(of_expression("(char*)p").as_deref(), Some("char*"));
        // Not the whole expression, or not a type.
        assert_eq!(of_expression("(float)x + y"), None);
        assert_eq!(of_expression("(a)(b)"), Some("a".into()));
        assert_eq!(of_expression("threadIdx.x + 1"), None);
        assert_eq!(of_expression("x"), None);
        assert_eq!(of_expression("(x)"), None);
    }

    fn declared_in(src: &str, name: &str) -> Option<String> {
        let tokens = spans(src.as_bytes(), 0..src.len(), &[]);
        let at = src.find("asm").unwrap();
        let before = tokens.iter().position(|t| t.at >= at).unwrap();
        let mut conditionals: Vec<Range<usize>> = src
            .match_indices("#if")
            .chain(src.match_indices("#endif"))
            .map(|(i, _)| i..i + 3)
            .collect();
        conditionals.sort_by_key(|r| r.start);
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
        let src = "void f() { double x;\n#if A\n#endif\n asm(\"\"); }";
        assert_eq!(declared_in(src, "x"), None);
        // A use is not a declaration; the search goes on to the declaration.
        let src = "void f() { double x; x = 1; g(x); asm(\"\"); }";
        assert_eq!(declared_in(src, "x").as_deref(), Some("double"));
        // `return x;` has the shape of `TYPE NAME;`: no answer, and no false one.
        let src = "void f(float x) { if (c) return x; asm(\"\"); }";
        assert_eq!(declared_in(src, "x"), None);
    }
}
