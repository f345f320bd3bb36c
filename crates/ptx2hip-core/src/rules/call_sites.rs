//! Emitted call sites must not be captured by user declarations.
//!
//! A translation replaces an asm statement inside the user's function, so an unqualified call in
//! it is looked up from there: inside `namespace timing { uint64_t clock64() { asm(...%clock64...); } }`
//! or a class with a member `clock64()`, a translated `clock64()` calls the user's function (here:
//! itself, forever). Call sites may therefore only call `ptx2hip_*` helpers, `::`-qualified names
//! and reserved names (`__x`, `_X`), which no user code may declare. The rule table is checked
//! for this when it loads ([`capturable_calls`] over every template), and a test checks the code
//! emitted for every form of every rule.

use crate::vocabulary::code::Expr;

/// Names that look like calls but are keywords or (functional-cast) type names.
const NOT_FUNCTIONS: &[&str] = &[
    "alignas",
    "alignof",
    "asm",
    "bool",
    "char",
    "const_cast",
    "decltype",
    "defined",
    "double",
    "dynamic_cast",
    "float",
    "for",
    "if",
    "int",
    "int16_t",
    "int32_t",
    "int64_t",
    "int8_t",
    "intptr_t",
    "long",
    "noexcept",
    "reinterpret_cast",
    "return",
    "short",
    "signed",
    "size_t",
    "sizeof",
    "static_assert",
    "static_cast",
    "switch",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "uint8_t",
    "uintptr_t",
    "unsigned",
    "void",
    "volatile",
    "while",
];

/// Whether an unqualified call of `name` cannot be captured by a user's declaration.
pub fn is_safe_callee(name: &str) -> bool {
    let b = name.as_bytes();
    name.starts_with(super::HELPER_PREFIX)
        || name.starts_with("__")
        || (b.first() == Some(&b'_') && b.get(1).is_some_and(u8::is_ascii_uppercase))
        || NOT_FUNCTIONS.contains(&name)
}

/// The functions `code` calls by a name that a user's namespace or class could capture: an
/// identifier followed by `(` (or by `<...>(`, a template call), not preceded by `::`, `.` or `->`,
/// and not [`is_safe_callee`]. Comments and string and character literals are skipped.
pub fn capturable_calls(code: &str) -> Vec<String> {
    let b = code.as_bytes();
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut found: Vec<String> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = skip_literal(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| i + p)
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = code[i + 2..].find("*/").map_or(b.len(), |p| i + 2 + p + 2)
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && is_ident(b[i]) {
                    i += 1;
                }
                let name = &code[start..i];
                let before = code[..start].trim_end();
                let qualified =
                    before.ends_with("::") || before.ends_with('.') || before.ends_with("->");
                let preceded_by_digit = start > 0 && b[start - 1].is_ascii_digit();
                if !qualified
                    && !preceded_by_digit
                    && is_call(code, i)
                    && !is_safe_callee(name)
                    && !found.iter().any(|f| f == name)
                {
                    found.push(name.to_string());
                }
            }
            _ => i += 1,
        }
    }
    found
}

/// [`capturable_calls`] of a rule template, whatever its placeholders expand to: each `lookup`
/// placeholder (`name`, its possible values) is tried with every value, the others (operands,
/// types, modifiers) stand for an expression that calls nothing.
pub fn template_calls<'a>(
    template: &str,
    lookups: impl Iterator<Item = (&'a str, Vec<&'a str>)>,
) -> Vec<String> {
    let template = super::template::Template::parse(template);
    let neutral = |chosen: Option<(&str, &str)>| {
        template
            .expand(|name, attr| match chosen {
                Some((l, v)) if l == name && attr.is_none() => Some(Expr::other(v)),
                _ => Some(Expr::other("0")),
            })
            .unwrap_or_default()
    };
    let mut found = capturable_calls(&neutral(None));
    for (name, values) in lookups {
        for v in values {
            for c in capturable_calls(&neutral(Some((name, v)))) {
                if !found.contains(&c) {
                    found.push(c);
                }
            }
        }
    }
    found
}

/// Whether the identifier ending at `end` is called: `(` follows, or a template argument list
/// written without a space (`f<T>(`) and then `(`.
fn is_call(code: &str, end: usize) -> bool {
    let rest = &code[end..];
    if rest.trim_start().starts_with('(') {
        return true;
    }
    if !rest.starts_with('<') {
        return false;
    }
    let mut depth = 0;
    for (k, c) in rest.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return rest[k + 1..].trim_start().starts_with('(');
                }
            }
            ';' | '{' | '}' => return false,
            _ => {}
        }
    }
    false
}

/// The index after the string or character literal starting at `at`.
fn skip_literal(b: &[u8], at: usize) -> usize {
    let quote = b[at];
    let mut i = at + 1;
    while i < b.len() && b[i] != quote {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unqualified_calls_of_ordinary_names_are_found() {
        assert_eq!(
            capturable_calls("d = fabsf(a) + min (b, c) + f<T>(x);"),
            ["fabsf", "min", "f"]
        );
        assert_eq!(capturable_calls("d = (uint64_t)clock64();"), ["clock64"]);
    }

    #[test]
    fn qualified_reserved_and_helper_calls_are_safe() {
        let code = "d = ::fabsf(a) + __builtin_amdgcn_perm(a, b, c) + ptx2hip_in<uint32_t>(x) \
                    + _Foo(y) + v.size() + p->get() + std::min(a, b) + ptx2hip_f<true>(a);";
        assert!(
            capturable_calls(code).is_empty(),
            "{:?}",
            capturable_calls(code)
        );
    }

    #[test]
    fn lookup_values_are_checked_where_the_template_calls_them() {
        let lookups = || vec![("fzn", vec!["", "ptx2hip_ftz"]), ("f", vec!["fabsf"])].into_iter();
        assert!(template_calls("{d} = ::fabsf({fzn}({a}));", lookups()).is_empty());
        assert_eq!(template_calls("{d} = {f}({a});", lookups()), ["fabsf"]);
        assert_eq!(template_calls("{d} = {T}(clock());", lookups()), ["clock"]);
    }

    #[test]
    fn keywords_casts_literals_and_comments_are_not_calls() {
        let code = "if (a < b) { d = uint32_t(x) + sizeof(int) + (float)(y); } \
                    static_assert(ok, \"min(a)\"); // fabsf(x)\n /* clock() */ asm volatile(\"\" ::: \"memory\");\
                    x = a < b && c > (d);";
        assert!(
            capturable_calls(code).is_empty(),
            "{:?}",
            capturable_calls(code)
        );
    }
}
