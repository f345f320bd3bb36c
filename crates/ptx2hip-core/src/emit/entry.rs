//! The kernel-entry edit: one statement put after the opening brace of a kernel's body, for
//! translations whose helpers keep state that must be set up before any thread uses it (the
//! counted barriers' shared-memory words, rules/sync.toml S030-S033). `scan::kernels` finds the
//! kernels that reach such a statement; a second run recognises the call at the start of a body
//! (after any formatter) and adds none.

use super::{indent_at, Edit, EmitMode, Lines, AMD_CONDITION};

/// The helper a kernel-entry edit calls: its name in a translation's helpers asks for the edit in
/// every kernel of the file that reaches the statement.
pub const ENTRY_HELPER: &str = "ptx2hip_named_bar_init";

/// The edit that calls [`ENTRY_HELPER`] first thing in the body whose `{` is at `brace`, on a line
/// of its own one step deeper than the brace's line (inside `#if defined(__HIP_PLATFORM_AMD__)`
/// for a guarded rewrite, whose helpers exist for AMD only).
pub fn kernel_entry(
    source: &[u8],
    lines: &Lines,
    brace: usize,
    mode: EmitMode,
    newline: &str,
) -> Edit {
    let nl = lines.ending_of(source, brace, newline);
    let outer = indent_at(source, lines, brace);
    let unit = if outer.contains('\t') { "\t" } else { "  " };
    let indent = format!("{outer}{unit}");
    let call = format!("{indent}{ENTRY_HELPER}();");
    let mut text = match mode {
        EmitMode::Replace => format!("{nl}{call}"),
        EmitMode::Guarded => format!("{nl}{AMD_CONDITION}{nl}{call}{nl}#endif"),
    };
    if !super::ends_its_line(&source[brace + 1..]) {
        text.push_str(nl);
        text.push_str(&indent);
    }
    Edit {
        span: brace + 1..brace + 1,
        text,
        lead: 0,
        ends_line: false,
        helpers: vec![ENTRY_HELPER.to_string()],
        selects: false,
        significant: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inserted(src: &str, mode: EmitMode) -> String {
        let brace = src.find('{').unwrap();
        let e = kernel_entry(
            src.as_bytes(),
            &Lines::new(src.as_bytes()),
            brace,
            mode,
            "\n",
        );
        format!("{}{}{}", &src[..e.span.start], e.text, &src[e.span.end..])
    }

    #[test]
    fn the_call_is_the_first_line_of_the_body() {
        assert_eq!(
            inserted(
                "  __global__ void k() {\n    int x;\n  }\n",
                EmitMode::Replace
            ),
            "  __global__ void k() {\n    ptx2hip_named_bar_init();\n    int x;\n  }\n"
        );
        assert_eq!(
            inserted("__global__ void k() {\n}\n", EmitMode::Guarded),
            "__global__ void k() {\n#if defined(__HIP_PLATFORM_AMD__)\n  ptx2hip_named_bar_init();\n#endif\n}\n"
        );
    }

    #[test]
    fn code_after_the_brace_moves_to_the_next_line() {
        assert_eq!(
            inserted("__global__ void k() { f(); }\n", EmitMode::Guarded),
            "__global__ void k() {\n#if defined(__HIP_PLATFORM_AMD__)\n  ptx2hip_named_bar_init();\n#endif\n   f(); }\n"
        );
    }
}
