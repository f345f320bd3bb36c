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
//! a `#define` body is translated.
//!
//! An argument that is not one name or number (`global.nc`, a string literal) cannot be pasted:
//! the body then holds every reading's code in `if constexpr` branches of a generic lambda and
//! compares the stringified arguments `#x` with the lists read, in C++ at compile time (see
//! [`compared`]; `ptx2hip_macro_use` in rules/helpers/operands.h). An unseen list again stops
//! the AMD build, at a `static_assert`. The NVIDIA build keeps the original under `--emit guarded`.
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
) -> (Edit, Option<Edit>) {
    // Each reading's code as a statement in a `#define` body is written (one line).
    let codes: Vec<String> = uses
        .readings
        .iter()
        .zip(&translation.by_use)
        .map(|(reading, lines)| {
            let one = Translation {
                lines: lines.clone(),
                by_use: Vec::new(),
                ..translation.clone()
            };
            statement_text(
                source,
                &reading.statement,
                &one,
                EmitMode::Replace,
                nl,
                None,
            )
            .text
        })
        .collect();
    let (selection, table) = if uses.compared {
        (compared(stmt, uses, &codes), None)
    } else {
        let (call, table) = pasted(uses, &codes, nl);
        (call, Some(table))
    };
    let selection = match note {
        Some(n) => format!("{} {selection}", provenance::block_comment(n)),
        None => selection,
    };
    let text = match mode {
        EmitMode::Replace => selection,
        EmitMode::Guarded => {
            format!("PTX2HIP_AMD_ONLY({selection}) PTX2HIP_NV_ONLY({original})")
        }
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
    (body, table)
}

/// The pasted form: the call in the body, and the table after the `#define`.
fn pasted(uses: &MacroUses, codes: &[String], nl: &str) -> (String, Edit) {
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
    for (reading, code) in uses.readings.iter().zip(codes) {
        table.push(format!(
            "#define {}({parameters}) {code}",
            entry_name(uses, &reading.key)
        ));
    }
    let mut selector = format!("{}_T", uses.prefix);
    for parameter in &uses.keyed {
        selector = format!("PTX2HIP_PASTE({selector}, PTX2HIP_KEY_##{parameter})");
    }
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
    (format!("{selector}({parameters})"), table)
}

/// The compared form: a generic lambda called at once, whose `if constexpr` branches hold the
/// readings' code, chosen by the position of the stringified arguments among the lists read
/// (`ptx2hip_macro_use_index`); no position, and its `static_assert` stops the build. The
/// branches not taken depend on the lambda's parameter: discarded statements of a template,
/// parsed but never instantiated (a reading whose code could not even be parsed with another
/// use's operands would stop that build, never run). The lambda captures by reference, so it
/// reads and writes the operands' objects as the statement did; its parentheses keep its commas
/// from any macro the body passes it to.
fn compared(stmt: &AsmStatement, uses: &MacroUses, codes: &[String]) -> String {
    const USE: &str = "ptx2hip_use";
    let position = format!("decltype({USE})::value");
    let mut branches: Vec<String> = Vec::new();
    for (k, code) in codes.iter().enumerate() {
        let code = code.trim();
        let end = if code.ends_with([';', '}']) { "" } else { ";" };
        let keyword = if k == 0 { "if" } else { "else if" };
        branches.push(format!(
            "{keyword} constexpr ({position} == {k}) {{ {code}{end} }}"
        ));
    }
    let macro_name = stmt.in_macro.as_ref().map_or("", |m| m.name.as_str());
    branches.push(format!(
        "else {{ static_assert({position} >= 0, \"ptx2hip: macro {macro_name} is used with arguments whose asm ptx2hip did not translate: translate the file that holds this use\"); }}"
    ));
    let key = uses
        .keyed
        .iter()
        .map(|p| format!("#{p}"))
        .collect::<Vec<_>>()
        .join(" \"\\n\" ");
    let known: Vec<String> = uses
        .readings
        .iter()
        .map(|r| c_string(&r.key.join("\n")))
        .collect();
    let end = if stmt.terminated { ";" } else { "" };
    format!(
        "([&](auto {USE}) {{ {} }}(ptx2hip_macro_use<ptx2hip_macro_use_index({key}, {})>())){end}",
        branches.join(" "),
        known.join(", ")
    )
}

/// `text` as a C string literal.
fn c_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
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
