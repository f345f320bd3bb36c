//! Placeholder expansion in rule templates.
//!
//! A placeholder is `{name}` or `{name.attr}` where both parts are identifiers; every other brace
//! is C++ and stays as written. Unknown placeholders are errors, so a typo in a rule is caught by
//! the rule-table tests rather than emitted.

/// Expands the placeholders of `template` through `lookup(name, attr)`.
pub fn expand(
    template: &str,
    mut lookup: impl FnMut(&str, Option<&str>) -> Option<String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match placeholder(after) {
            Some((name, attr, len)) => {
                let value = lookup(name, attr).ok_or_else(|| match attr {
                    Some(a) => format!("unknown placeholder {{{name}.{a}}}"),
                    None => format!("unknown placeholder {{{name}}}"),
                })?;
                out.push_str(&value);
                rest = &after[len + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// The placeholders `template` expands, `(name, attr)`, in order, repeats included.
pub fn placeholders(template: &str) -> Vec<(&str, Option<&str>)> {
    let mut found = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match placeholder(after) {
            Some((name, attr, len)) => {
                found.push((name, attr));
                rest = &after[len + 1..];
            }
            None => rest = after,
        }
    }
    found
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
        let t = "{ uint4 v = *(const uint4*)({a}); {d.0} = v.x; }";
        let out = expand(t, |n, a| match (n, a) {
            ("a", None) => Some("p".into()),
            ("d", Some("0")) => Some("x".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(out, "{ uint4 v = *(const uint4*)(p); x = v.x; }");
    }

    #[test]
    fn placeholders_are_listed_and_cpp_braces_are_not() {
        assert_eq!(
            placeholders("{ uint4 v = {a}; {d.0} = v.x; {a} += 1; }"),
            [("a", None), ("d", Some("0")), ("a", None)]
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
        assert_eq!(
            expand("{d} = {zz};", |n, _| (n == "d").then(|| "x".into())).unwrap_err(),
            "unknown placeholder {zz}"
        );
    }
}
