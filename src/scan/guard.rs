//! Detection of code that only the NVIDIA compiler sees.
//!
//! Statements already behind a "not AMD" guard need no translation, and ptx2hip's own output keeps
//! the original asm in exactly such places (`#else` of `#if defined(__HIP_PLATFORM_AMD__)`, or
//! `PTX2HIP_NV_ONLY(...)` inside `#define` bodies). Skipping them makes the tool idempotent.

use tree_sitter::Node;

/// Macros that are defined when compiling for AMD GPUs.
const AMD_MACROS: &[&[u8]] = &[
    b"__HIP_PLATFORM_AMD__",
    b"__HIP_PLATFORM_HCC__",
    b"__HIP__",
    b"__HIPCC__",
    b"USE_ROCM",
];

/// Wrapper macro that ptx2hip emits around the original asm inside `#define` bodies.
const NV_ONLY_MACRO: &[u8] = b"PTX2HIP_NV_ONLY";

/// Whether `node` (with its `ancestors`, root first) sits in a preprocessor branch that is never
/// compiled for AMD, or inside a `PTX2HIP_NV_ONLY(...)` call.
pub fn is_nv_only(node: Node, ancestors: &[Node], src: &[u8]) -> bool {
    let mut child = node;
    for &parent in ancestors.iter().rev() {
        let excluded = match parent.kind() {
            "preproc_if" | "preproc_elif" => branch_excluded(
                parent,
                child,
                parent
                    .child_by_field_name("condition")
                    .filter(|&c| shallow(c))
                    .and_then(|c| on_amd(c, src)),
            ),
            "preproc_ifdef" | "preproc_elifdef" => {
                branch_excluded(parent, child, ifdef_on_amd(parent, src))
            }
            "call_expression" => parent
                .child_by_field_name("function")
                .is_some_and(|f| f.kind() == "identifier" && &src[f.byte_range()] == NV_ONLY_MACRO),
            // tree-sitter may fail on the AMD side of `PTX2HIP_AMD_ONLY(do …; while (0))
            // PTX2HIP_NV_ONLY(asm(…))` (a statement as a macro argument, templates it cannot tell
            // from comparisons) and lose the call around the asm: the text still shows it.
            "ERROR" => inside_nv_only_call(&src[parent.start_byte()..node.start_byte()]),
            _ => false,
        };
        if excluded {
            return true;
        }
        child = parent;
    }
    false
}

/// Whether the end of `before` lies inside the parentheses of a `PTX2HIP_NV_ONLY(` call in it.
fn inside_nv_only_call(before: &[u8]) -> bool {
    let mut at = before.len();
    while let Some(i) = memchr::memmem::rfind(&before[..at], NV_ONLY_MACRO) {
        let rest = &before[i + NV_ONLY_MACRO.len()..];
        if rest.first() == Some(&b'(') {
            let mut depth = 0i32;
            for &b in rest {
                match b {
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    _ => {}
                }
            }
            if depth > 0 {
                return true;
            }
        }
        at = i;
    }
    false
}

/// A branch is excluded if its condition is false on AMD; the alternative (`#elif`/`#else`) is
/// excluded if the condition is true on AMD.
fn branch_excluded(directive: Node, child: Node, cond: Option<bool>) -> bool {
    let in_alternative = directive
        .child_by_field_name("alternative")
        .is_some_and(|a| a.id() == child.id());
    let in_condition = directive
        .child_by_field_name("condition")
        .is_some_and(|c| c.id() == child.id());
    match cond {
        Some(true) => in_alternative,
        Some(false) => !in_alternative && !in_condition,
        None => false,
    }
}

fn ifdef_on_amd(directive: Node, src: &[u8]) -> Option<bool> {
    let name = directive.child_by_field_name("name")?;
    if !AMD_MACROS.contains(&&src[name.byte_range()]) {
        return None;
    }
    let negated = directive
        .child(0)
        .is_some_and(|k| k.kind().contains("ndef"));
    Some(!negated)
}

/// Deepest `#if` condition that [`on_amd`] evaluates.
const MAX_CONDITION_DEPTH: usize = 256;

/// Whether `cond` nests at most [`MAX_CONDITION_DEPTH`] nodes deep. [`on_amd`] recurses once per
/// level, so a deeper (hostile) condition is left undecided rather than overflowing the stack.
fn shallow(cond: Node) -> bool {
    let mut cursor = cond.walk();
    let mut depth = 0;
    loop {
        if depth < MAX_CONDITION_DEPTH && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        if depth >= MAX_CONDITION_DEPTH && cursor.node().child_count() > 0 {
            return false;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return true;
            }
            depth -= 1;
        }
    }
}

/// Value of a `#if` condition when compiling for AMD: `Some` only if it is decided by the AMD
/// macros alone.
fn on_amd(cond: Node, src: &[u8]) -> Option<bool> {
    match cond.kind() {
        "preproc_defined" | "identifier" => {
            let name = if cond.kind() == "identifier" {
                cond
            } else {
                cond.named_child(0)?
            };
            AMD_MACROS
                .contains(&&src[name.byte_range()])
                .then_some(true)
        }
        "parenthesized_expression" => on_amd(cond.named_child(0)?, src),
        "number_literal" => Some(
            src[cond.byte_range()]
                .iter()
                .any(|&b| (b'1'..=b'9').contains(&b)),
        ),
        "unary_expression" => {
            let op = cond.child_by_field_name("operator")?;
            (op.kind() == "!")
                .then(|| on_amd(cond.child_by_field_name("argument")?, src).map(|v| !v))?
        }
        "binary_expression" => {
            let op = cond.child_by_field_name("operator")?.kind();
            let left = cond
                .child_by_field_name("left")
                .and_then(|n| on_amd(n, src));
            let right = cond
                .child_by_field_name("right")
                .and_then(|n| on_amd(n, src));
            match (op, left, right) {
                ("||", Some(true), _) | ("||", _, Some(true)) => Some(true),
                ("||", Some(false), Some(false)) => Some(false),
                ("&&", Some(false), _) | ("&&", _, Some(false)) => Some(false),
                ("&&", Some(true), Some(true)) => Some(true),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::inside_nv_only_call;

    #[test]
    fn an_open_nv_only_call_is_seen_in_the_text() {
        assert!(inside_nv_only_call(
            b"PTX2HIP_AMD_ONLY(do x = f<a, b>(c); while (0)) PTX2HIP_NV_ONLY("
        ));
        assert!(inside_nv_only_call(
            b"PTX2HIP_NV_ONLY(x; PTX2HIP_NV_ONLY(y) "
        ));
        assert!(!inside_nv_only_call(b"PTX2HIP_NV_ONLY(x) "));
        assert!(!inside_nv_only_call(b"PTX2HIP_NV_ONLY_X(x "));
        assert!(!inside_nv_only_call(b"f(x "));
    }
}
