//! A statement in a `#define` body that the macro's arguments make (see `scan::uses`): each
//! reading (one per distinct list of those arguments among the file's uses) is translated on its
//! own, and the rewrite selects between the translations by the arguments (see `emit::uses`).
//! If one reading cannot be translated, the statement is not, and the reason names the use.

use crate::scan::MacroUses;

use super::{analyze, Analysis, Position, RuleSet, Settings, Translation};

/// The helper that finds the translation of stringified arguments (`MacroUses::compared`).
pub const COMPARED: &str = "ptx2hip_macro_use";

pub fn analyze_uses(uses: &MacroUses, rules: &RuleSet, settings: Settings) -> Analysis {
    let mut instructions: Vec<String> = Vec::new();
    let mut by_use = Vec::with_capacity(uses.readings.len());
    let mut codes: Vec<String> = Vec::new();
    let mut helpers: Vec<String> = Vec::new();
    for reading in &uses.readings {
        let analysis = analyze(&reading.statement, rules, settings);
        for form in analysis.instructions {
            if !instructions.contains(&form) {
                instructions.push(form);
            }
        }
        match analysis.outcome {
            Ok(t) => {
                by_use.push(t.lines);
                helpers.extend(t.helpers);
                for code in t.rules {
                    if !codes.contains(&code) {
                        codes.push(code);
                    }
                }
            }
            Err(mut u) => {
                u.position = Position::File(u.file_offset(&reading.statement));
                u.message = format!("{} (in the use {})", u.message, reading.shown);
                return Analysis {
                    instructions,
                    outcome: Err(u),
                };
            }
        }
    }
    if uses.compared {
        helpers.push(COMPARED.to_string());
    }
    Analysis {
        instructions,
        outcome: Ok(Translation {
            helpers: rules.helper_closure(helpers.iter()),
            lines: Vec::new(),
            fast: settings.fast_codes(rules, &codes),
            evidence: Settings::below_hardware(rules, &codes),
            rules: codes,
            by_use,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{analyze, RuleSet, Target};
    use crate::scan::scan;

    const SRC: &str = "#define RED(op, x) asm(\"redux.sync.\" #op \".u32 %0, %0, 0xffffffff;\" : \"+r\"(x))\n__device__ void f(unsigned& a) { RED(min, a); RED(foo, a); }\n";

    #[test]
    fn every_argument_list_is_translated_and_the_first_that_cannot_be_is_named() {
        let rules = RuleSet::embedded().unwrap();
        let ok = SRC.replace("RED(foo, a); ", "RED(max, a); ");
        let stmt = &scan(ok.as_bytes()).statements[0];
        let a = analyze(stmt, &rules, Target::Amd);
        assert_eq!(a.instructions, ["redux.sync.min.u32", "redux.sync.max.u32"]);
        let t = a.outcome.unwrap();
        assert_eq!(t.by_use.len(), 2);
        assert!(t.lines.is_empty());

        let stmt = &scan(SRC.as_bytes()).statements[0];
        let u = analyze(stmt, &rules, Target::Amd).outcome.unwrap_err();
        assert!(
            u.message.ends_with("(in the use `RED(foo, a)`)"),
            "{}",
            u.message
        );
    }
}
