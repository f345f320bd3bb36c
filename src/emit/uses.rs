//! The rewrite of a statement in a `#define` body translated per use of the macro (see
//! `scan::uses`): a table of one macro per argument list after the `#define`, and in the body, in
//! the statement's place, the name that the use's arguments select by token pasting.
//!
//! For `#define LD(T, cop) asm volatile("ld.global." #cop "." #T " %0, [%1];" : "=r"(x) : "l"(p))`
//! used as `LD(u32, cg)`, the body becomes
//! `PTX2HIP_AMD_ONLY(PTX2HIP_PASTE(PTX2HIP_PASTE(PTX2HIP_LD_<hash>_T, PTX2HIP_KEY_##T), PTX2HIP_KEY_##cop)()) PTX2HIP_NV_ONLY(asm volatile(...))`
//! and the table after the `#define`
//!
//! ```text
//! #define PTX2HIP_KEY_u32 _3_u32
//! #define PTX2HIP_KEY_cg _2_cg
//! #define PTX2HIP_LD_<hash>_T_3_u32_2_cg() x = ...;
//! ```
//!
//! `##` pastes the arguments as written (as `#` stringifies them), then `PTX2HIP_PASTE` expands
//! each `PTX2HIP_KEY_<argument>` into its length form and joins them: the use selects the entry
//! of its own argument list. An argument that no use here had leaves `PTX2HIP_KEY_<argument>`
//! unexpanded, and the pasted name is one nothing defines: the AMD build stops at that use.
//! The parameters the operand expressions name are the entries' parameters, passed on by the
//! body, so each entry is the translation of the body's statement as written, as a statement in
//! a `#define` body is translated. The NVIDIA build keeps the original under `--emit guarded`.
//! The table is plain `#define`s, which no scan reads as asm: a second `translate` finds the
//! body's statement only in `PTX2HIP_NV_ONLY(...)` (or not at all) and changes nothing.

use crate::lower::Translation;
use crate::scan::{AsmStatement, MacroUses};

use super::{provenance, statement_text, Edit, EmitMode};

/// The macro that joins two tokens after expanding them, defined once per translation unit.
const PASTE: [&str; 4] = [
    "#ifndef PTX2HIP_PASTE",
    "#define PTX2HIP_PASTE(a, b) PTX2HIP_PASTE_(a, b)",
    "#define PTX2HIP_PASTE_(a, b) a##b",
    "#endif",
];

/// The statement's replacement in the body (`original`: its text as written) and the table that
/// follows the `#define`.
#[allow(clippy::too_many_arguments)]
pub fn edits(
    source: &[u8],
    stmt: &AsmStatement,
    uses: &MacroUses,
    translation: &Translation,
    original: &str,
    mode: EmitMode,
    nl: &str,
    note: Option<&str>,
) -> (Edit, Edit) {
    let mut table: Vec<String> = PASTE.iter().map(|l| l.to_string()).collect();
    let mut keys: Vec<&str> = Vec::new();
    for reading in &uses.readings {
        for value in &reading.key {
            if !keys.contains(&value.as_str()) {
                keys.push(value);
                table.push(format!(
                    "#define PTX2HIP_KEY_{value} {}",
                    length_form(value)
                ));
            }
        }
    }
    let parameters = uses.passed.join(", ");
    for (reading, lines) in uses.readings.iter().zip(&translation.by_use) {
        let one = Translation {
            lines: lines.clone(),
            by_use: Vec::new(),
            ..translation.clone()
        };
        let code = statement_text(
            source,
            &reading.statement,
            &one,
            EmitMode::Replace,
            nl,
            None,
        );
        table.push(format!(
            "#define {}({parameters}) {}",
            entry_name(uses, &reading.key),
            code.text
        ));
    }
    let mut selector = format!("{}_T", uses.prefix);
    for parameter in &uses.keyed {
        selector = format!("PTX2HIP_PASTE({selector}, PTX2HIP_KEY_##{parameter})");
    }
    let call = format!("{selector}({parameters})");
    let call = match note {
        Some(n) => format!("{} {call}", provenance::block_comment(n)),
        None => call,
    };
    let text = match mode {
        EmitMode::Replace => call,
        EmitMode::Guarded => format!("PTX2HIP_AMD_ONLY({call}) PTX2HIP_NV_ONLY({original})"),
    };
    let body = Edit {
        span: stmt.span.clone(),
        text,
        lead: 0,
        ends_line: false,
        helpers: Vec::new(),
        selects: true,
        significant: true,
    };
    let at = uses.define_end;
    let table = Edit {
        span: at..at,
        text: format!("{nl}{}", table.join(nl)),
        lead: 0,
        ends_line: false,
        helpers: Vec::new(),
        selects: false,
        significant: true,
    };
    (body, table)
}

/// The table entry of one argument list.
fn entry_name(uses: &MacroUses, key: &[String]) -> String {
    let mut name = format!("{}_T", uses.prefix);
    for value in key {
        name.push_str(&length_form(value));
    }
    name
}

/// `_<length>_<value>`: joined, these tell every list of values apart (the length's digits end
/// at the `_`, the value is that long).
fn length_form(value: &str) -> String {
    format!("_{}_{value}", value.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_forms_tell_argument_lists_apart_that_plain_joining_confuses() {
        let joined = |key: &[&str]| key.iter().map(|v| length_form(v)).collect::<String>();
        assert_ne!(joined(&["a_b", "c"]), joined(&["a", "b_c"]));
        assert_ne!(joined(&["2", "cg"]), joined(&["2_2cg"]));
        assert_eq!(joined(&["u32", ""]), "_3_u32_0_");
    }
}
