//! A statement with `#if` blocks inside that AMD may or may not compile (see `scan::arms`): each
//! reading is translated, and the translation keeps the directive lines around the readings'
//! translations, so that the compiler still chooses between them. If one reading cannot be
//! translated, the statement is not, and the reason names the arm.

use crate::scan::{ArmPiece, Arms};

use super::{analyze, Analysis, Position, RuleSet, Settings, Translation};

pub fn analyze_arms(arms: &Arms, rules: &RuleSet, settings: Settings) -> Analysis {
    let mut instructions: Vec<String> = Vec::new();
    let mut lines = Vec::new();
    let mut codes: Vec<String> = Vec::new();
    let mut helpers: Vec<String> = Vec::new();
    let mut failure = None;
    for piece in &arms.layout {
        let (arms, statement) = match piece {
            ArmPiece::Directive(text) => {
                lines.push((0, text.clone()));
                continue;
            }
            ArmPiece::Reading { arms, statement } => (arms, statement),
        };
        let analysis = analyze(statement, rules, settings);
        for form in analysis.instructions {
            if !instructions.contains(&form) {
                instructions.push(form);
            }
        }
        match analysis.outcome {
            Ok(t) if failure.is_none() => {
                lines.extend(t.lines);
                helpers.extend(t.helpers);
                for code in t.rules {
                    if !codes.contains(&code) {
                        codes.push(code);
                    }
                }
            }
            Ok(_) => {}
            Err(mut u) if failure.is_none() => {
                u.position = Position::File(u.file_offset(statement));
                u.message = format!("{} (in the arm {arms})", u.message);
                failure = Some(u);
            }
            Err(_) => {}
        }
    }
    let outcome = match failure {
        Some(u) => Err(u),
        None => Ok(Translation {
            helpers: rules.helper_closure(helpers.iter()),
            lines,
            fast: settings.fast_codes(rules, &codes),
            evidence: Settings::below_hardware(rules, &codes),
            rules: codes,
            by_use: Vec::new(),
        }),
    };
    Analysis {
        instructions,
        outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{analyze, render, RuleSet, Target};
    use crate::scan::scan;

    const SRC: &str = "__device__ float f(float a) {\n  float r;\n  asm(\n#if FAST\n      \"add.f32 %0, %1, %1;\"\n#else\n      \"redux.sync.min.f32 %0, %1, 0xffffffff;\"\n#endif\n      : \"=f\"(r) : \"f\"(a));\n  return r;\n}\n";

    #[test]
    fn every_arm_is_translated_between_the_same_directives() {
        let rules = RuleSet::embedded().unwrap();
        let src = SRC.replace(
            "redux.sync.min.f32 %0, %1, 0xffffffff",
            "mul.f32 %0, %1, %1",
        );
        let stmt = &scan(src.as_bytes()).statements[0];
        let a = analyze(stmt, &rules, Target::Amd);
        assert_eq!(a.instructions, ["add.f32", "mul.f32"]);
        let t = a.outcome.unwrap();
        let lines = render(&t.lines, "", "  ");
        assert_eq!(lines.first().map(String::as_str), Some("#if FAST"));
        assert_eq!(lines.iter().filter(|l| l.starts_with('#')).count(), 3);
        assert!(lines.iter().any(|l| l == "#else"));
        assert_eq!(lines.last().map(String::as_str), Some("#endif"));
    }

    #[test]
    fn an_arm_that_cannot_be_translated_leaves_the_statement_and_is_named() {
        let rules = RuleSet::embedded().unwrap();
        let stmt = &scan(SRC.as_bytes()).statements[0];
        let u = analyze(stmt, &rules, Target::Amd).outcome.unwrap_err();
        assert!(
            u.message.ends_with("(in the arm `#else` of `#if FAST`)"),
            "{}",
            u.message
        );
        assert_eq!(u.file_offset(stmt), SRC.find("redux").unwrap());
    }
}
