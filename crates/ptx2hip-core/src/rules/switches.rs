//! Helpers whose body is a `switch` over a constant, with the cases as data in the rule files
//! (`[switch.ptx2hip_lop3]`: the 256 truth tables of `lop3`, each with its minimal formula of
//! `a`, `b`, `c`). The lowering reads a case from the data ([`RuleSet::switch_case`]: a literal
//! `lop3` table becomes its formula at the call site), and the helper's C++ in
//! `rules/helpers/*.h` is generated from the same data: the loader checks that the helper holds
//! exactly the rendered cases, and the test below rewrites them (`PTX2HIP_UPDATE_HELPERS=1`).

use std::collections::BTreeMap;

use super::load::LoadError;
use super::RuleSet;

impl RuleSet {
    /// The code of case `label` (`0xea`) of the switch of helper `helper`, from the table.
    pub fn switch_case(&self, helper: &str, label: &str) -> Option<&str> {
        self.switches.get(helper)?.get(label).map(String::as_str)
    }
}

/// The cases as the helper's C++ writes them: `    case 0xeau: return c | (b & a);`, one line
/// each, in label order.
fn render(cases: &BTreeMap<String, String>) -> String {
    cases
        .iter()
        .map(|(label, code)| format!("    case {label}u: return {code};\n"))
        .collect()
}

/// Whether a line of C++ is a `case` of a switch.
fn is_case(line: &str) -> bool {
    line.trim_start().starts_with("case ")
}

/// Each `[switch.NAME]` names a helper whose portable definition holds exactly its cases, as
/// [`render`] writes them (and no other `case`).
pub(super) fn validate(set: &RuleSet) -> Result<(), LoadError> {
    for (name, cases) in &set.switches {
        let Some(helper) = set.helpers.get(name) else {
            return Err(LoadError::Helper(format!(
                "rules/*.toml: [switch.{name}] names no helper"
            )));
        };
        let generated = render(cases);
        if !helper.portable.contains(&generated)
            || helper.portable.lines().filter(|l| is_case(l)).count() != cases.len()
        {
            return Err(LoadError::Helper(format!(
                "rules/{}:{}: the cases of `{name}` are not those of [switch.{name}]: \
                 `PTX2HIP_UPDATE_HELPERS=1 cargo test -p ptx2hip-core --lib rules::switches` \
                 generates them",
                helper.file, helper.line
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The helper files hold the cases the table gives; `PTX2HIP_UPDATE_HELPERS=1` writes them
    /// there (replacing the helper's `case` lines).
    #[test]
    fn the_switch_helpers_are_generated_from_their_cases() {
        let sources = super::super::load::embedded_sources();
        let rules = RuleSet::embedded().unwrap();
        if std::env::var_os("PTX2HIP_UPDATE_HELPERS").is_some() {
            for (name, cases) in &rules.switches {
                let helper = &rules.helpers[name];
                let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../../rules")
                    .join(&helper.file);
                let text = std::fs::read_to_string(&path).unwrap();
                let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
                let opened = helper.line - 1;
                let first = opened + lines[opened..].iter().position(|l| is_case(l)).unwrap();
                let count = lines[first..].iter().take_while(|l| is_case(l)).count();
                let generated = render(cases);
                lines.splice(first..first + count, generated.split_inclusive('\n'));
                std::fs::write(&path, lines.concat()).unwrap();
            }
            return;
        }
        RuleSet::from_sources(sources).unwrap();
        assert_eq!(
            rules.switch_case("ptx2hip_lop3", "0xea"),
            Some("c | (b & a)")
        );
    }

    #[test]
    fn a_helper_whose_cases_differ_from_the_table_does_not_load() {
        let helper = "// ptx2hip:helper ptx2hip_f\n__device__ inline int ptx2hip_f(int x) {\n  switch (x) {\n    case 0x00u: return 1;\n  }\n  return 0;\n}\n// ptx2hip:end\n";
        let table = |code: &str| format!("family = \"t\"\n[switch.ptx2hip_f]\n0x00 = \"{code}\"\n");
        let load = |code: &str| {
            RuleSet::from_sources([
                ("helpers/t.h".to_string(), helper.to_string()),
                ("t.toml".to_string(), table(code)),
            ])
        };
        assert_eq!(
            load("1").unwrap().switch_case("ptx2hip_f", "0x00"),
            Some("1")
        );
        assert!(load("2").unwrap_err().to_string().starts_with(
            "rules/helpers/t.h:1: the cases of `ptx2hip_f` are not those of [switch.ptx2hip_f]"
        ));
    }
}
