//! A statement in a `#define` body that the macro's arguments make (see `scan::uses`): each
//! reading (one per distinct list of those arguments among the file's uses) is translated on its
//! own, and the rewrite selects between the translations by the arguments (see `emit::uses`).
//! If one reading cannot be translated, the statement is not, and the reason names the use.

use crate::scan::MacroUses;

use super::{analyze, Analysis, Position, RuleSet, Settings, Translation};

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
    Analysis {
        instructions,
        outcome: Ok(Translation {
            helpers: rules.helper_closure(helpers.iter()),
            lines: Vec::new(),
            fast: settings.fast_codes(rules, &codes),
            rules: codes,
            by_use,
        }),
    }
}
