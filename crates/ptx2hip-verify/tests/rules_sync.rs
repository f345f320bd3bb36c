//! The atomic and sync families beyond their golden vectors: every form they claim (every order,
//! scope and state space, not only the value-checked representatives) compiles for gfx90a, gfx942
//! and gfx1100 in both targets; orders and scopes map as docs/MEMORY_MODEL.md tabulates; barriers,
//! fences and cp.async translate as documented; and the forms that are refused say why.

#[path = "../../../tests/common/mod.rs"]
mod common;

use std::collections::HashSet;
use std::process::Command;

use ptx2hip::lower::{analyze, render, RuleSet, Target};
use ptx2hip::rules::{Bindings, OperandKind, Role, Rule};
use ptx2hip::scan::AsmStatement;
use ptx2hip_verify::forms::is_value_representative;

fn rules() -> RuleSet {
    RuleSet::embedded().unwrap()
}

/// The translation of one statement, or the reason it is refused.
fn translate(ptx: &str, constraints: &str, target: Target) -> Result<String, String> {
    let constraints: Vec<String> = constraints
        .split(',')
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect();
    // Not `volatile`: the translation alone, without the compiler barriers around it.
    let mut stmt = AsmStatement::synthetic(ptx, &constraints);
    stmt.qualifiers.clear();
    analyze(&stmt, &rules(), target)
        .outcome
        .map(|t| render(&t.lines, "", "  ").join("\n"))
        .map_err(|u| u.message)
}

fn amd(ptx: &str, constraints: &str) -> String {
    translate(ptx, constraints, Target::Amd).unwrap_or_else(|e| panic!("{ptx}: {e}"))
}

fn portable(ptx: &str, constraints: &str) -> String {
    translate(ptx, constraints, Target::Portable).unwrap_or_else(|e| panic!("{ptx}: {e}"))
}

fn refused(ptx: &str, constraints: &str) -> String {
    match translate(ptx, constraints, Target::Amd) {
        Ok(code) => panic!("{ptx} was translated:\n{code}"),
        Err(why) => why,
    }
}

#[test]
fn orders_and_scopes_map_to_hip_scoped_atomics() {
    let cases = [
        (
            "atom.add.u32",
            "__ATOMIC_RELAXED",
            "__HIP_MEMORY_SCOPE_AGENT",
        ),
        (
            "atom.acquire.gpu.add.u32",
            "__ATOMIC_ACQUIRE",
            "__HIP_MEMORY_SCOPE_AGENT",
        ),
        (
            "atom.release.cta.add.u32",
            "__ATOMIC_RELEASE",
            "__HIP_MEMORY_SCOPE_WORKGROUP",
        ),
        (
            "atom.acq_rel.sys.add.u32",
            "__ATOMIC_ACQ_REL",
            "__HIP_MEMORY_SCOPE_SYSTEM",
        ),
        (
            "atom.relaxed.cluster.add.u32",
            "__ATOMIC_RELAXED",
            "__HIP_MEMORY_SCOPE_AGENT",
        ),
    ];
    for (form, order, scope) in cases {
        let code = amd(&format!("{form} %0, [%1], %2;"), "=r,l,r");
        assert!(
            code.contains("__hip_atomic_fetch_add((uint32_t*)")
                && code.contains(order)
                && code.contains(scope),
            "{form}: {code}"
        );
    }
    // Portable: fences of the scope around a relaxed API atomic, the modes named as PTX writes them.
    assert!(
        portable("atom.acquire.sys.global.add.u32 %0, [%1], %2;", "=r,l,r").contains(
            "ptx2hip_atom<ptx2hip_atom_op::add, ptx2hip_order::acquire, ptx2hip_scope::sys>("
        )
    );
    assert_eq!(
        amd("ld.acquire.gpu.global.u32 %0, [%1];", "=r,l"),
        "ptx2hip_out_r(op0) = __hip_atomic_load((uint32_t*)(uintptr_t)(ptx2hip_in_l(op1)), __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);"
    );
    assert_eq!(
        amd("st.release.sys.global.u32 [%0], %1;", "l,r"),
        "__hip_atomic_store((uint32_t*)(uintptr_t)(ptx2hip_in_l(op0)), ptx2hip_in_r(op1), __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);"
    );
    // red has no result: AMD's no-return atomic.
    assert!(amd("red.relaxed.gpu.global.add.s32 [%0], %1;", "l,r")
        .starts_with("(void)__hip_atomic_fetch_add((int32_t*)"));
    // inc/dec take the scope as a string.
    assert!(amd("atom.global.inc.u32 %0, [%1], %2;", "=r,l,r")
        .contains("__builtin_amdgcn_atomic_inc32((volatile uint32_t*)"));
    assert!(amd("atom.sys.global.dec.u32 %0, [%1], %2;", "=r,l,r")
        .contains(", __ATOMIC_RELAXED, \"\")"));
}

#[test]
fn fences_map_to_scoped_fences() {
    let cases = [
        (
            "fence.sc.cta;",
            "__builtin_amdgcn_fence(__ATOMIC_SEQ_CST, \"workgroup\");",
            "__threadfence_block();",
        ),
        (
            "fence.acq_rel.gpu;",
            "__builtin_amdgcn_fence(__ATOMIC_ACQ_REL, \"agent\");",
            "__threadfence();",
        ),
        (
            "fence.gpu;",
            "__builtin_amdgcn_fence(__ATOMIC_ACQ_REL, \"agent\");",
            "__threadfence();",
        ),
        (
            "fence.acq_rel.cluster;",
            "__builtin_amdgcn_fence(__ATOMIC_ACQ_REL, \"agent\");",
            "__threadfence();",
        ),
        (
            "fence.sc.sys;",
            "__builtin_amdgcn_fence(__ATOMIC_SEQ_CST, \"\");",
            "__threadfence_system();",
        ),
        (
            "fence.acquire.sys;",
            "__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, \"\");",
            "__threadfence_system();",
        ),
        (
            "fence.release.gpu;",
            "__builtin_amdgcn_fence(__ATOMIC_RELEASE, \"agent\");",
            "__threadfence();",
        ),
        (
            "fence.mbarrier_init.release.cluster;",
            "__builtin_amdgcn_fence(__ATOMIC_RELEASE, \"agent\");",
            "__threadfence();",
        ),
        ("fence.proxy.async.shared::cta;", "(void)0;", "(void)0;"),
    ];
    for (ptx, a, p) in cases {
        assert_eq!(amd(ptx, ""), a, "{ptx}");
        assert_eq!(portable(ptx, ""), p, "{ptx}");
    }
}

#[test]
fn whole_cta_barriers_are_syncthreads_and_partial_ones_are_refused() {
    for ptx in [
        "bar.sync 0;",
        "bar.sync 3;",
        "bar.cta.sync 15;",
        "barrier.sync 1;",
        "barrier.sync.aligned 0;",
        "barrier.cta.sync.aligned 2;",
    ] {
        assert_eq!(amd(ptx, ""), "__syncthreads();", "{ptx}");
    }
    assert_eq!(amd("bar.sync %0;", "r"), "__syncthreads();");
    assert_eq!(
        amd(
            "{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 0, p; }",
            "=r,r"
        )
        .matches("__syncthreads_count(")
        .count(),
        1
    );
    assert!(amd("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; barrier.red.or.pred q, 0, !p; selp.u32 %0, 1, 0, q; }", "=r,r")
        .contains("__syncthreads_or(!p2h_p ? 1 : 0) != 0;"));
    for ptx in [
        "bar.sync 1, 64;",
        "barrier.sync.aligned %0, %1;",
        "bar.cta.sync 0, 128;",
    ] {
        assert!(
            refused(ptx, "r,r").contains("a barrier with a thread count"),
            "{ptx}"
        );
    }
    assert!(refused("bar.arrive 1, 64;", "").contains("arrive without waiting"));
    assert!(refused(
        "{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 1, 64, p; }",
        "=r,r"
    )
    .contains("thread count"));
    assert!(refused("barrier.cluster.arrive.aligned;", "").contains("clusters"));
}

#[test]
fn cp_async_is_a_synchronous_copy_with_its_zero_fill() {
    // 32-bit shared window address, as CUTLASS passes it.
    assert_eq!(
        amd("cp.async.cg.shared.global [%0], [%1], 16;", "r,l"),
        "ptx2hip_cp_async((void*)(uintptr_t)ptx2hip_shared_ptr(ptx2hip_in_r(op0)), (const void*)(uintptr_t)(ptx2hip_in_l(op1)), (uint32_t)16, (uint32_t)16);"
    );
    assert!(amd(
        "cp.async.ca.shared::cta.global.L2::128B [%0+8], [%1], 8, %2;",
        "r,l,r"
    )
    .ends_with("(uint32_t)8, ptx2hip_in_r(op2));"));
    assert!(amd(
        "{ .reg .pred p; setp.ne.u32 p, %2, 0; cp.async.ca.shared.global [%0], [%1], 4, p; }",
        "r,l,r"
    )
    .contains("p2h_p ? 0u : (uint32_t)4);"));
    // The cache-policy operand of .L2::cache_hint is a hint: not used.
    let hinted = amd(
        "cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2, %3;",
        "r,l,r,l",
    );
    assert!(
        hinted.contains("(uint32_t)16, ptx2hip_in_r(op2));") && !hinted.contains("op3"),
        "{hinted}"
    );
    for ptx in [
        "cp.async.commit_group;",
        "cp.async.wait_group 1;",
        "cp.async.wait_all;",
    ] {
        assert_eq!(amd(ptx, ""), "(void)0;", "{ptx}");
    }
    assert!(refused("cp.async.bulk.commit_group;", "").contains("bulk and tensor"));
    assert!(refused("cp.async.mbarrier.arrive.shared::cta.b64 [%0];", "r").contains("mbarrier"));
    assert!(refused("mbarrier.init.shared::cta.b64 [%0], %1;", "r,r").contains("mbarrier"));
}

#[test]
fn forms_without_an_exact_translation_say_why() {
    assert!(
        refused("atom.global.cas.b128 %0, [%1], %2, %3;", "=r,l,r,r").contains("128-bit atomics")
    );
    assert!(refused("atom.global.add.s64 %0, [%1], %2;", "=l,l,l").contains("ptxas rejects"));
    assert!(refused("ld.acquire.gpu.global.b128 %0, [%1];", "=r,l").contains("16-byte atomic load"));
    assert!(refused("ld.mmio.relaxed.sys.global.u32 %0, [%1];", "=r,l").contains("memory-mapped"));
    assert!(
        refused("atom.shared::cluster.add.u32 %0, [%1], %2;", "=r,r,r")
            .contains("distributed shared memory")
    );
    assert!(refused("fence.proxy.alias;", "").contains("virtual addresses"));
    assert!(refused("fence.proxy.tensormap::generic.release.gpu;", "").contains("tensor-map"));
}

/// One `__device__` function per form, translated for `target`, for the clang compile check.
fn form_functions(rules: &RuleSet, target: Target) -> (String, usize) {
    let mut out = String::new();
    let mut n = 0;
    let mut seen = HashSet::new();
    for rule in rules
        .rules
        .iter()
        .filter(|r| r.family == "atomic" || r.family == "sync")
    {
        // Every order, scope, space and operation with the rule's first type, and every type with
        // the value-checked orders and scopes: each template path once, at a fraction of the
        // (several thousand) forms.
        let first_type = rule
            .slots
            .iter()
            .find(|s| s.name == "T")
            .and_then(|s| Rule::slot_values(s).into_iter().next());
        for (form, b) in rule.forms() {
            let t = b.get("T").cloned().flatten();
            if !(t == first_type || is_value_representative(rule, &b)) {
                continue;
            }
            let Some((ptx, constraints)) = statement_for(rule, &form, &b) else {
                continue;
            };
            {
                let stmt = AsmStatement::synthetic(&ptx, &constraints);
                let t = match analyze(&stmt, rules, target).outcome {
                    Ok(t) => t,
                    Err(u) => panic!("{form} ({ptx}): {}", u.message),
                };
                let body = render(&t.lines, "  ", "  ").join("\n");
                // Forms whose translations are the same code (`.cluster` and `.gpu` both map to
                // the agent scope) are compiled once.
                if !seen.insert((constraints.clone(), body.clone())) {
                    continue;
                }
                let decls: String = constraints
                    .iter()
                    .enumerate()
                    .map(|(k, c)| {
                        let ty = match c.trim_start_matches(['=', '+']) {
                            "h" => "uint16_t",
                            "l" => "uint64_t",
                            "f" => "float",
                            "d" => "double",
                            _ => "uint32_t",
                        };
                        format!("  {ty} op{k} = ({ty})p[{k}];\n")
                    })
                    .collect();
                let outs: String = (0..constraints.len())
                    .map(|k| format!("  p[{k}] = (uint64_t)op{k};\n"))
                    .collect();
                out.push_str(&format!(
                    "__device__ void form_{n}(uint64_t* p) {{ // {form} {target}\n{decls}{body}\n{outs}}}\n"
                ));
                n += 1;
            }
        }
    }
    (out, n)
}

/// A statement for a form (with its slot `bindings`) with registers for every operand (addresses: 64-bit, or 32-bit for the
/// shared window); `None` for forms the generic builder cannot spell (none today).
fn statement_for(rule: &Rule, form: &str, bindings: &Bindings) -> Option<(String, Vec<String>)> {
    let specs = rule.operand_specs();
    let mut texts = Vec::new();
    let mut constraints = Vec::new();
    let mut decls = Vec::new();
    let mut preds: Vec<String> = Vec::new();
    let shared = form.contains(".shared");
    for spec in specs {
        let letter = |ty: ptx2hip::lower::types::PtxType| match ty.bits() {
            16 => "h",
            64 => "l",
            _ => "r",
        };
        let dest = spec.role == Role::Destination;
        match &spec.kind {
            OperandKind::Address(_) => {
                let k = constraints.len();
                constraints.push(if shared && spec.name != "g" { "r" } else { "l" }.to_string());
                texts.push(format!("[%{k}]"));
            }
            OperandKind::Scalar(t)
            | OperandKind::Vector(_, t)
            | OperandKind::SlotVector(_, t)
            | OperandKind::Pair(_, t, _) => {
                let ty = rule.resolve_type(t, bindings)?;
                let n = match &spec.kind {
                    OperandKind::Vector(n, _) => *n as usize,
                    _ => 1,
                };
                if ty == ptx2hip::lower::types::PtxType::Pred {
                    // A predicate destination is a local; a source is set from an input.
                    let name = format!("q{}", preds.len());
                    preds.push(name.clone());
                    if !dest {
                        let k = constraints.len();
                        constraints.push("r".to_string());
                        decls.push(format!("setp.ne.u32 {name}, %{k}, 0;"));
                    }
                    texts.push(name);
                    continue;
                }
                let mut names = Vec::new();
                for _ in 0..n {
                    let k = constraints.len();
                    let l = letter(ty);
                    constraints.push(if dest { format!("={l}") } else { l.to_string() });
                    names.push(format!("%{k}"));
                }
                texts.push(if n > 1 {
                    format!("{{{}}}", names.join(", "))
                } else {
                    names.remove(0)
                });
            }
        }
    }
    let ins = if texts.is_empty() {
        format!("{form};")
    } else {
        format!("{form} {};", texts.join(", "))
    };
    let ptx = if preds.is_empty() {
        ins
    } else {
        format!(
            "{{ .reg .pred {}; {} {ins} }}",
            preds.join(", "),
            decls.join(" ")
        )
    };
    Some((ptx, constraints))
}

#[test]
fn every_form_compiles_for_amd_targets() {
    if !common::require(&["clang-19"], "the sync AMD compile check") {
        return;
    }
    let rules = rules();
    let dir = tempfile::tempdir().unwrap();
    let mut compiles = Vec::new();
    for target in [Target::Amd, Target::Portable] {
        let (functions, n) = form_functions(&rules, target);
        assert!(n > 500, "only {n} distinct form translations");
        eprintln!("{target}: {n} distinct form translations compiled");
        let file = dir.path().join(format!("forms_{target}.hip"));
        let helpers = ptx2hip_helpers(&rules, target);
        std::fs::write(
            &file,
            format!("#include <stdint.h>\n#include <string.h>\n{helpers}\n{functions}"),
        )
        .unwrap();
        compiles.extend(["gfx90a", "gfx942", "gfx1100"].map(|arch| (target, arch, file.clone())));
    }
    // -O0 still selects every instruction (a builtin, atomic or call a processor lacks fails
    // here, some only in the backend). Each backend run takes ~6 s: all six run on every core.
    let failures: Vec<String> = common::in_parallel(compiles, |(target, arch, file)| {
        let out = Command::new("clang-19")
            .args([
                "-x",
                "hip",
                "-std=c++17",
                "-include",
                "hip/hip_runtime.h",
                "-nogpulib",
            ])
            .arg(format!("--offload-arch={arch}"))
            .args(["--cuda-device-only", "-O0", "-S", "-o", "/dev/null"])
            .arg(&file)
            .output()
            .expect("clang-19 runs");
        (!out.status.success()).then(|| {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let head: Vec<&str> = stderr.lines().take(20).collect();
            format!("{target} {arch}: {}", head.join("\n"))
        })
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every helper of the table, in a compilable order, as `target` defines it.
fn ptx2hip_helpers(rules: &RuleSet, target: Target) -> String {
    let mut s = String::new();
    for name in rules.helper_closure(rules.helper_order.iter()) {
        let h = &rules.helpers[&name];
        let text = match target {
            Target::Amd => h.amd.as_deref().unwrap_or(&h.portable),
            Target::Portable => &h.portable,
        };
        s.push_str(text.trim());
        s.push('\n');
    }
    s
}
