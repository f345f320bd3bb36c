//! Helper files: the C++ of the `ptx2hip_*` helpers lives in `rules/helpers/<family>.h`, real C++
//! that clang-format formats and a test compiles, cut into helpers by marker comments:
//!
//! ```text
//! // ptx2hip:helper ptx2hip_canon_f32 requires=ptx2hip_f32_from_bits
//! __device__ inline float ptx2hip_canon_f32(float x) { ... }   <- portable: both targets
//! // ptx2hip:amd
//! __device__ inline float ptx2hip_canon_f32(float x) { ... }   <- --target amd, if it differs
//! // ptx2hip:end
//! ```
//!
//! The portable section may be empty when only `amd` code calls the helper. Between helpers only
//! blank lines and `//` comments may stand, so no code is silently left out of the table. Errors
//! name the file and line.

use super::{Helper, HELPER_PREFIX};

/// A marker is a `//` comment whose text starts with this.
const MARKER: &str = "ptx2hip:";

/// The helpers of one file (`name` relative to `rules/`, e.g. `helpers/core.h`), in file order.
pub fn parse(name: &str, text: &str) -> Result<Vec<Helper>, String> {
    let mut helpers: Vec<Helper> = Vec::new();
    // The helper being read and the code of its current section.
    let mut open: Option<(Helper, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let at = |what: String| format!("rules/{name}:{}: {what}", i + 1);
        let Some(marker) = marker(line) else {
            match &mut open {
                Some((_, section)) => {
                    section.push_str(line);
                    section.push('\n');
                }
                None if line.trim().is_empty() || line.trim_start().starts_with("//") => {}
                None => {
                    return Err(at(
                        "code outside a helper (between `// ptx2hip:end` and the next \
                         `// ptx2hip:helper`)"
                            .into(),
                    ))
                }
            }
            continue;
        };
        let (word, args) = marker
            .split_once(char::is_whitespace)
            .unwrap_or((marker, ""));
        let args = args.trim();
        if word != "helper" && !args.is_empty() {
            return Err(at(format!("`ptx2hip:{word}` takes no arguments")));
        }
        match (word, open.take()) {
            ("helper", Some((h, _))) => {
                return Err(at(format!(
                    "helper `{}` (line {}) is not closed by `// ptx2hip:end`",
                    h.name, h.line
                )))
            }
            ("helper", None) => {
                let h = header(args, name, i + 1).map_err(at)?;
                if let Some(first) = helpers.iter().find(|o| o.name == h.name) {
                    return Err(at(format!(
                        "helper `{}` defined twice (first on line {})",
                        h.name, first.line
                    )));
                }
                open = Some((h, String::new()));
            }
            ("amd", Some((mut h, portable))) => {
                if h.amd.is_some() {
                    return Err(at(format!("helper `{}` has two amd sections", h.name)));
                }
                h.portable = portable.trim().to_string();
                h.amd = Some(String::new());
                open = Some((h, String::new()));
            }
            ("end", Some((mut h, section))) => {
                let code = section.trim().to_string();
                match &mut h.amd {
                    Some(_) if code.is_empty() => {
                        return Err(at(format!("helper `{}`: empty amd section", h.name)))
                    }
                    Some(amd) => *amd = code,
                    None if code.is_empty() => {
                        return Err(at(format!("helper `{}` has no definition", h.name)))
                    }
                    None => h.portable = code,
                }
                helpers.push(h);
            }
            ("amd" | "end", None) => {
                return Err(at(format!("`ptx2hip:{word}` outside a helper")));
            }
            (_, _) => {
                return Err(at(format!(
                    "unknown marker `ptx2hip:{word}` (known: helper, amd, end)"
                )))
            }
        }
    }
    if let Some((h, _)) = open {
        return Err(format!(
            "rules/{name}:{}: helper `{}` is not closed by `// ptx2hip:end`",
            h.line, h.name
        ));
    }
    Ok(helpers)
}

/// The text after `//` when a line is a marker comment.
fn marker(line: &str) -> Option<&str> {
    line.trim()
        .strip_prefix("//")?
        .trim_start()
        .strip_prefix(MARKER)
}

/// `ptx2hip:helper NAME [requires=A,B]`: the helper, its code still empty.
fn header(args: &str, file: &str, line: usize) -> Result<Helper, String> {
    let mut words = args.split_whitespace();
    let name = words
        .next()
        .ok_or("`ptx2hip:helper` needs the helper's name")?;
    check_name(name)?;
    let mut requires: Option<Vec<String>> = None;
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!("`{word}` is not `key=value`"));
        };
        match key {
            "requires" if requires.is_some() => return Err("`requires` given twice".into()),
            "requires" => {
                let names: Vec<String> = value.split(',').map(str::to_string).collect();
                for n in &names {
                    check_name(n)?;
                }
                requires = Some(names);
            }
            _ => return Err(format!("unknown key `{key}` (known: requires)")),
        }
    }
    Ok(Helper {
        name: name.to_string(),
        portable: String::new(),
        amd: None,
        requires: requires.unwrap_or_default(),
        rank: 0,
        file: file.to_string(),
        line,
    })
}

fn check_name(name: &str) -> Result<(), String> {
    let word = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !word || !name.starts_with(HELPER_PREFIX) {
        return Err(format!(
            "`{name}` is not a helper name ({HELPER_PREFIX} and letters, digits, `_`)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Vec<Helper> {
        parse("helpers/t.h", text).unwrap()
    }

    fn error(text: &str) -> String {
        parse("helpers/t.h", text).unwrap_err()
    }

    #[test]
    fn a_helper_is_the_code_between_its_markers() {
        let h = parse_ok(
            "// Helpers of rules/t.toml.\n\n// ptx2hip:helper ptx2hip_one\n\
             __device__ inline int ptx2hip_one() {\n  return 1;\n}\n// ptx2hip:end\n",
        );
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].name, "ptx2hip_one");
        assert_eq!(
            h[0].portable,
            "__device__ inline int ptx2hip_one() {\n  return 1;\n}"
        );
        assert_eq!(h[0].amd, None);
        assert!(h[0].requires.is_empty());
        assert_eq!((h[0].file.as_str(), h[0].line), ("helpers/t.h", 3));
    }

    #[test]
    fn requirements_and_an_amd_section() {
        let h = parse_ok(
            "// ptx2hip:helper ptx2hip_b requires=ptx2hip_a,ptx2hip_c\nint p;\n\
             // ptx2hip:amd\nint a;\n// ptx2hip:end\n\
             // ptx2hip:helper ptx2hip_only_amd\n// ptx2hip:amd\nint x;\n// ptx2hip:end",
        );
        assert_eq!(h[0].requires, ["ptx2hip_a", "ptx2hip_c"]);
        assert_eq!(
            (h[0].portable.as_str(), h[0].amd.as_deref()),
            ("int p;", Some("int a;"))
        );
        assert_eq!(
            (h[1].portable.as_str(), h[1].amd.as_deref()),
            ("", Some("int x;"))
        );
    }

    #[test]
    fn code_keeps_its_comments_and_inner_blank_lines_and_loses_outer_ones() {
        let h =
            parse_ok("// ptx2hip:helper ptx2hip_x\n\n// why\nint a;\n\nint b;\n\n// ptx2hip:end\n");
        assert_eq!(h[0].portable, "// why\nint a;\n\nint b;");
    }

    #[test]
    fn crlf_files_give_the_same_code() {
        let h = parse_ok("// ptx2hip:helper ptx2hip_x\r\nint a;\r\nint b;\r\n// ptx2hip:end\r\n");
        assert_eq!(h[0].portable, "int a;\nint b;");
    }

    #[test]
    fn the_table_refuses_helpers_defined_twice_unknown_requirements_and_helpers_in_toml() {
        use crate::rules::RuleSet;
        let load = |files: &[(&str, &str)]| {
            RuleSet::from_sources(files.iter().map(|(n, t)| (n.to_string(), t.to_string())))
                .unwrap_err()
                .to_string()
        };
        let x = "// ptx2hip:helper ptx2hip_x\nint x;\n// ptx2hip:end\n";
        assert_eq!(
            load(&[("helpers/a.h", x), ("helpers/b.h", &format!("\n{x}"))]),
            "rules/helpers/b.h:2: helper `ptx2hip_x` already defined at rules/helpers/a.h:1"
        );
        assert_eq!(
            load(&[(
                "helpers/a.h",
                "// ptx2hip:helper ptx2hip_x requires=ptx2hip_y\nint x;\n// ptx2hip:end\n"
            )]),
            "rules/helpers/a.h:1: helper `ptx2hip_x` requires unknown helper `ptx2hip_y`"
        );
        let toml = "family = \"t\"\n[[helper]]\nname = \"ptx2hip_x\"\nportable = \"int x;\"\n";
        let e = load(&[("t.toml", toml)]);
        assert!(
            e.starts_with("rules/t.toml: ") && e.contains("unknown field `helper`"),
            "{e}"
        );
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let cases = [
            ("int stray;\n", "rules/helpers/t.h:1: code outside a helper"),
            (
                "// ptx2hip:helper ptx2hip_x\nint a;\n",
                "rules/helpers/t.h:1: helper `ptx2hip_x` is not closed",
            ),
            (
                "// ptx2hip:helper ptx2hip_x\nint a;\n// ptx2hip:helper ptx2hip_y\n",
                "rules/helpers/t.h:3: helper `ptx2hip_x` (line 1) is not closed",
            ),
            (
                "// ptx2hip:helper ptx2hip_x reqires=ptx2hip_y\n",
                "rules/helpers/t.h:1: unknown key `reqires` (known: requires)",
            ),
            (
                "// ptx2hip:helper ptx2hip_x requires=ptx2hip_y requires=ptx2hip_z\n",
                "rules/helpers/t.h:1: `requires` given twice",
            ),
            (
                "// ptx2hip:helper ptx2hip_x requires=ptx2hip_y,\n",
                "rules/helpers/t.h:1: `` is not a helper name",
            ),
            (
                "// ptx2hip:helper ptx2hip_x ptx2hip_y\n",
                "rules/helpers/t.h:1: `ptx2hip_y` is not `key=value`",
            ),
            (
                "// ptx2hip:helper foo\n",
                "rules/helpers/t.h:1: `foo` is not a helper name",
            ),
            (
                "// ptx2hip:helper\n",
                "rules/helpers/t.h:1: `ptx2hip:helper` needs",
            ),
            (
                "// ptx2hip:helper ptx2hip_x\nint a;\n// ptx2hip:end\n\
                 // ptx2hip:helper ptx2hip_x\nint b;\n// ptx2hip:end\n",
                "rules/helpers/t.h:4: helper `ptx2hip_x` defined twice (first on line 1)",
            ),
            (
                "// ptx2hip:helper ptx2hip_x\n\n// ptx2hip:end\n",
                "rules/helpers/t.h:3: helper `ptx2hip_x` has no definition",
            ),
            (
                "// ptx2hip:helper ptx2hip_x\nint a;\n// ptx2hip:amd\n// ptx2hip:end\n",
                "rules/helpers/t.h:4: helper `ptx2hip_x`: empty amd section",
            ),
            (
                "// ptx2hip:helper ptx2hip_x\n// ptx2hip:amd\nint a;\n// ptx2hip:amd\n",
                "rules/helpers/t.h:4: helper `ptx2hip_x` has two amd sections",
            ),
            (
                "// ptx2hip:end\n",
                "rules/helpers/t.h:1: `ptx2hip:end` outside a helper",
            ),
            (
                "// ptx2hip:helper ptx2hip_x\nint a;\n// ptx2hip:end now\n",
                "rules/helpers/t.h:3: `ptx2hip:end` takes no arguments",
            ),
            (
                "// ptx2hip:helper ptx2hip_x\nint a;\n// ptx2hip:portable\n",
                "rules/helpers/t.h:3: unknown marker `ptx2hip:portable`",
            ),
        ];
        for (text, want) in cases {
            let got = error(text);
            assert!(
                got.starts_with(want),
                "{text:?}:\n  got  {got}\n  want {want}…"
            );
        }
    }
}
