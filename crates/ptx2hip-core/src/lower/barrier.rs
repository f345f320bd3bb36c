//! Which translations need compiler barriers (`asm volatile("" ::: "memory")`) around them.
//!
//! A statement with a `"memory"` clobber asks for one: no memory access moves across it. An
//! `asm volatile` that accesses memory gets them too, though it names no clobber: GCC-style
//! `volatile` asm is executed exactly as often as written and in order with the other volatile
//! asm (it is never hoisted out of a loop, merged or deleted), which a plain C++ access does not
//! promise — a polling load in a loop would be hoisted and spin forever (docs/MEMORY_MODEL.md,
//! "Compiler barriers"). A fence is already a compiler barrier in both compilers
//! (`__threadfence*()` and `__builtin_amdgcn_fence` are LLVM `fence` instructions, which no memory
//! access crosses), so a statement of fences only gets none.

use super::block::Line;

/// Whether every line of `body` is a fence call.
pub fn fences_only(body: &[Line]) -> bool {
    !body.is_empty() && body.iter().all(|(_, line)| is_fence(line))
}

fn is_fence(line: &str) -> bool {
    let line = line.trim();
    matches!(
        line,
        "__threadfence();" | "__threadfence_block();" | "__threadfence_system();"
    ) || (line.starts_with("__builtin_amdgcn_fence(") && line.ends_with(");"))
}

#[cfg(test)]
mod tests {
    use crate::lower::{analyze, RuleSet, Target};
    use crate::scan::scan;

    fn translated(src: &str, target: Target) -> String {
        let rules = RuleSet::embedded().unwrap();
        let stmt = scan(src.as_bytes()).statements.remove(0);
        let t = analyze(&stmt, &rules, target).outcome.expect("translated");
        crate::lower::render(&t.lines, "", "  ").join("\n")
    }

    #[test]
    fn a_fence_is_its_own_compiler_barrier() {
        for target in [Target::Amd, Target::Portable] {
            for src in [
                "asm volatile(\"membar.gl;\" ::: \"memory\");",
                "asm volatile(\"fence.acq_rel.gpu;\");",
            ] {
                let out = translated(src, target);
                assert!(!out.contains("asm volatile(\"\""), "{src}: {out}");
            }
        }
    }

    #[test]
    fn a_volatile_or_clobbering_access_keeps_them() {
        for src in [
            "asm volatile(\"ld.global.u32 %0, [%1];\" : \"=r\"(r) : \"l\"(p));",
            "asm(\"st.global.u32 [%0], %1;\" :: \"l\"(p), \"r\"(v) : \"memory\");",
        ] {
            let out = translated(src, Target::Amd);
            assert_eq!(
                out.matches("asm volatile(\"\" ::: \"memory\");").count(),
                2,
                "{out}"
            );
        }
        let plain = "asm(\"st.global.u32 [%0], %1;\" :: \"l\"(p), \"r\"(v));";
        assert!(!translated(plain, Target::Amd).contains("asm volatile"));
    }
}
