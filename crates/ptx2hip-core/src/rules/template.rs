//! Rule templates: parsing and placeholder expansion, and the names the table derives from
//! them when it loads.
//!
//! A placeholder is `{name}` or `{name.attr}` where both parts are identifiers; every other brace
//! is C++ and stays as written. Unknown placeholders are errors, so a typo in a rule is caught by
//! the rule-table tests rather than emitted.

use crate::vocabulary::code::Expr;

/// A template parsed into the pieces its expansion writes: C++ text, placeholders, and casts of a
/// placeholder's value (`({T.u}){a}`, `(uint32_t){b}`), which are written once when the value
/// already is a cast to that type ([`Expr::is_cast_to`]): `(uint32_t)1`, never
/// `(uint32_t)(uint32_t)1`. A rule's templates are parsed once, when the table loads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Template {
    text: String,
    pieces: Vec<Piece>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    /// C++ written as it is.
    Text(String),
    /// `{name}` or `{name.attr}`.
    Value(Name),
    /// `(TYPE){name}`: the placeholder's value cast to a C type that the template spells or
    /// that a placeholder gives (`({T.u})`).
    Cast { ty: CastType, value: Name },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum CastType {
    Written(String),
    Value(Name),
}

/// A placeholder's name and attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Name {
    name: String,
    attr: Option<String>,
}

impl Name {
    fn new(name: &str, attr: Option<&str>) -> Name {
        Name {
            name: name.to_string(),
            attr: attr.map(str::to_string),
        }
    }

    fn key(&self) -> (&str, Option<&str>) {
        (&self.name, self.attr.as_deref())
    }

    fn unknown(&self) -> String {
        match &self.attr {
            Some(a) => format!("unknown placeholder {{{}.{a}}}", self.name),
            None => format!("unknown placeholder {{{}}}", self.name),
        }
    }
}

impl Template {
    /// Parses `text`; a brace that opens no placeholder is C++ and stays as written.
    pub fn parse(text: &str) -> Template {
        let mut pieces = Vec::new();
        let mut plain = String::new();
        let mut rest = text;
        while let Some(open) = rest.find(['{', '(']) {
            plain.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let found = if rest[open..].starts_with('{') {
                placeholder(after)
                    .map(|(name, attr, len)| (Piece::Value(Name::new(name, attr)), len + 1))
            } else {
                cast(after)
            };
            match found {
                Some((piece, len)) => {
                    if !plain.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut plain)));
                    }
                    pieces.push(piece);
                    rest = &after[len..];
                }
                None => {
                    plain.push_str(&rest[open..=open]);
                    rest = after;
                }
            }
        }
        plain.push_str(rest);
        if !plain.is_empty() {
            pieces.push(Piece::Text(plain));
        }
        Template {
            text: text.to_string(),
            pieces,
        }
    }

    /// The template as written in the table.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Expands the placeholders through `lookup(name, attr)`; an unknown one is an error.
    pub fn expand(
        &self,
        mut lookup: impl FnMut(&str, Option<&str>) -> Option<Expr>,
    ) -> Result<String, String> {
        let mut value = |n: &Name| lookup(&n.name, n.attr.as_deref()).ok_or_else(|| n.unknown());
        let mut out = String::with_capacity(self.text.len() + 32);
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Value(n) => out.push_str(&value(n)?.to_string()),
                Piece::Cast { ty, value: n } => {
                    let ty = match ty {
                        CastType::Written(t) => t.clone(),
                        CastType::Value(t) => value(t)?.to_string(),
                    };
                    let v = value(n)?;
                    if !v.is_cast_to(&ty) {
                        out.push_str(&format!("({ty})"));
                    }
                    out.push_str(&v.to_string());
                }
            }
        }
        Ok(out)
    }

    /// The placeholders the template expands, `(name, attr)`, in order, repeats included.
    pub fn placeholders(&self) -> Vec<(&str, Option<&str>)> {
        let mut found = Vec::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(_) => {}
                Piece::Value(n) => found.push(n.key()),
                Piece::Cast { ty, value } => {
                    if let CastType::Value(t) = ty {
                        found.push(t.key());
                    }
                    found.push(value.key());
                }
            }
        }
        found
    }
}

/// Parses `TYPE){name}` at the start of `s` (the text after a `(`), TYPE a C type name or a
/// placeholder; returns the cast and its length.
fn cast(s: &str) -> Option<(Piece, usize)> {
    let close = s.find(')')?;
    let inside = &s[..close];
    let ty = match inside.strip_prefix('{') {
        Some(p) => {
            let (name, attr, _) = placeholder(p).filter(|&(_, _, len)| len + 2 == inside.len())?;
            CastType::Value(Name::new(name, attr))
        }
        None => {
            let is_name = inside.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && inside
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !is_name {
                return None;
            }
            CastType::Written(inside.to_string())
        }
    };
    let (name, attr, len) = placeholder(s[close + 1..].strip_prefix('{')?)?;
    let value = Name::new(name, attr);
    Some((Piece::Cast { ty, value }, close + len + 3))
}

/// Whether every occurrence of placeholder `{name}` (or `{name.attr}`) in `template` is the left
/// side of a plain assignment (`{d} = …`, not `==` or a compound assignment): the template never
/// reads the destination back, so it may stand for a write-only target.
pub fn only_assigned(template: &str, name: &str, attr: Option<&str>) -> bool {
    let needle = match attr {
        Some(a) => format!("{{{name}.{a}}}"),
        None => format!("{{{name}}}"),
    };
    template.match_indices(&needle).all(|(at, _)| {
        let rest = template[at + needle.len()..].trim_start();
        rest.starts_with('=') && !rest.starts_with("==")
    })
}

/// A `ptx2hip_*` name a template spells, placeholders included (`ptx2hip_bfe_{T.name}` names a
/// different helper per type), and whether the template calls it (`(` or `<` follows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelperName {
    pub spelled: String,
    pub called: bool,
}

impl HelperName {
    /// Whether the name is complete as written (no placeholder to expand).
    pub fn is_literal(&self) -> bool {
        !self.spelled.contains('{')
    }
}

/// Every `ptx2hip_*` name in `template`, once each, in order of first appearance: an identifier
/// starting with [`super::HELPER_PREFIX`] at a word boundary, continued through identifier
/// characters and placeholders. Helpers are found in the table's data once, when it loads, and
/// never in generated code.
pub fn helper_names(template: &str) -> Vec<HelperName> {
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = template.as_bytes();
    let mut found: Vec<HelperName> = Vec::new();
    let mut from = 0;
    while let Some(start) = template[from..]
        .find(super::HELPER_PREFIX)
        .map(|i| i + from)
    {
        let mut end = start;
        loop {
            end += bytes[end..].iter().take_while(|&&b| is_ident(b)).count();
            match (
                bytes.get(end),
                placeholder(&template[(end + 1).min(template.len())..]),
            ) {
                (Some(b'{'), Some((_, _, len))) => end += len + 2,
                _ => break,
            }
        }
        from = end;
        if start > 0 && is_ident(bytes[start - 1]) {
            continue;
        }
        let spelled = &template[start..end];
        let called = matches!(
            template[end..].trim_start().bytes().next(),
            Some(b'(' | b'<')
        );
        match found.iter_mut().find(|f| f.spelled == spelled) {
            Some(f) => f.called |= called,
            None => found.push(HelperName {
                spelled: spelled.to_string(),
                called,
            }),
        }
    }
    found
}

/// Parses `name}` or `name.attr}` at the start of `s`; returns the parts and the length before `}`.
fn placeholder(s: &str) -> Option<(&str, Option<&str>, usize)> {
    let end = s.find('}')?;
    let inner = &s[..end];
    let (name, attr) = match inner.split_once('.') {
        Some((n, a)) => (n, Some(a)),
        None => (inner, None),
    };
    let ident = |t: &str, first_alpha: bool| {
        !t.is_empty()
            && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && (!first_alpha || t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
    };
    if ident(name, true) && attr.is_none_or(|a| ident(a, false)) {
        Some((name, attr, end))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_expand_and_cpp_braces_stay() {
        let t = Template::parse("{ uint4 v = *(const uint4*)({a}); {d.0} = v.x; }");
        let out = t
            .expand(|n, a| match (n, a) {
                ("a", None) => Some(Expr::other("p")),
                ("d", Some("0")) => Some(Expr::other("x")),
                _ => None,
            })
            .unwrap();
        assert_eq!(out, "{ uint4 v = *(const uint4*)(p); x = v.x; }");
        assert_eq!(t.text(), "{ uint4 v = *(const uint4*)({a}); {d.0} = v.x; }");
    }

    #[test]
    fn placeholders_are_listed_and_cpp_braces_are_not() {
        let t = Template::parse("{ uint4 v = ({T}){a}; {d.0} = v.x; {a} += (uint32_t){b}; }");
        assert_eq!(
            t.placeholders(),
            [
                ("T", None),
                ("a", None),
                ("d", Some("0")),
                ("a", None),
                ("b", None)
            ]
        );
    }

    /// The values of `{T}`, `{T.u}` (the C types of `.s32`) and the operands of
    /// `add.s32 d, a, 5`: `a` read as a signed register, `5` a literal cast to the operand type.
    fn add_s32(name: &str, attr: Option<&str>) -> Option<Expr> {
        Some(match (name, attr) {
            ("T", None) => Expr::other("int32_t"),
            ("T", Some("u")) => Expr::other("uint32_t"),
            ("d", None) => Expr::other("ptx2hip_out_r(d)"),
            ("a", None) => Expr::cast("int32_t", "ptx2hip_in_r(a)"),
            ("b", None) => Expr::cast("int32_t", "5"),
            _ => return None,
        })
    }

    #[test]
    fn a_cast_of_a_value_already_cast_to_the_same_type_is_written_once() {
        let t = Template::parse("{d} = ({T})(({T.u}){a} + ({T}){b} + (int32_t){b} + ({T.u}){b});");
        assert_eq!(
            t.expand(add_s32).unwrap(),
            "ptx2hip_out_r(d) = (int32_t)((uint32_t)(int32_t)ptx2hip_in_r(a) + (int32_t)5 + \
             (int32_t)5 + (uint32_t)(int32_t)5);"
        );
    }

    #[test]
    fn only_a_cast_directly_applied_to_a_placeholder_is_one() {
        // A pointer cast, a cast of a parenthesised expression, a cast followed by a space, a
        // parenthesised placeholder: text and placeholders, written as they are.
        let t = Template::parse("({T}*){a}; ({T})({b}); (int32_t) {b}; ({b}) + ({T} x){b};");
        assert_eq!(
            t.expand(add_s32).unwrap(),
            "(int32_t*)(int32_t)ptx2hip_in_r(a); (int32_t)((int32_t)5); (int32_t) (int32_t)5; \
             ((int32_t)5) + (int32_t x)(int32_t)5;"
        );
    }

    #[test]
    fn a_destination_is_only_assigned_when_no_occurrence_reads_it() {
        assert!(only_assigned("{d} = {a} + 1;", "d", None));
        assert!(only_assigned("if (c) {d} = 1; else {d}  = 2;", "d", None));
        assert!(only_assigned("{d.0} = x; {d.1} = {d.0};", "d", Some("1")));
        assert!(!only_assigned("{d.0} = x; {d.1} = {d.0};", "d", Some("0")));
        assert!(!only_assigned("{d} = x; {d} |= y;", "d", None));
        assert!(!only_assigned("{d} = x; if ({d} == 0) {d} = 1;", "d", None));
    }

    #[test]
    fn helper_names_include_their_placeholders_and_say_whether_they_are_called() {
        let names = helper_names(
            "{d} = ptx2hip_bfe_{T.name}({a}, my_ptx2hip_x(1)); uint32_t ptx2hip_v = ptx2hip_imm<{T}>(2); \
             ptx2hip_v += ptx2hip_fop<ptx2hip_fmode::rn>(ptx2hip_v);",
        );
        let got: Vec<(&str, bool)> = names
            .iter()
            .map(|n| (n.spelled.as_str(), n.called))
            .collect();
        assert_eq!(
            got,
            [
                ("ptx2hip_bfe_{T.name}", true),
                ("ptx2hip_v", false),
                ("ptx2hip_imm", true),
                ("ptx2hip_fop", true),
                ("ptx2hip_fmode", false),
            ]
        );
        assert!(!names[0].is_literal() && names[2].is_literal());
    }

    #[test]
    fn unknown_placeholder_is_an_error() {
        let lookup = |n: &str, _: Option<&str>| (n == "d").then(|| Expr::other("x"));
        assert_eq!(
            Template::parse("{d} = {zz};").expand(lookup).unwrap_err(),
            "unknown placeholder {zz}"
        );
        assert_eq!(
            Template::parse("{d} = ({T.u}){d};")
                .expand(lookup)
                .unwrap_err(),
            "unknown placeholder {T.u}"
        );
    }
}
