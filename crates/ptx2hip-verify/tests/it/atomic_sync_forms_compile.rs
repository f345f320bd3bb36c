//! Every form the atomic, sync, async (mbarrier), cluster, tensor_copy (TMA) and bulk families
//! claim (every order, scope, state space and operation, not only the value-checked
//! representatives) translates for both targets and compiles for gfx90a, gfx942 and gfx1100. What
//! a given statement translates to, or why it is refused, is a test case of its rule in
//! rules/atomic.toml, sync.toml, async.toml, cluster.toml, tensor_copy.toml and bulk.toml (run by
//! `rule_cases.rs`).

use crate::common;

use std::collections::HashSet;
use std::process::Command;

use ptx2hip_core::emit::entry::ENTRY_HELPER;
use ptx2hip_core::lower::{analyze, render, RuleSet, Target};
use ptx2hip_core::rules::{Bindings, OperandKind, Role, Rule};
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_verify::forms::is_value_representative;

fn rules() -> RuleSet {
    RuleSet::embedded().unwrap()
}

/// One `__device__` function per form, translated for `target`, for the clang compile check.
fn form_functions(rules: &RuleSet, target: Target) -> (String, usize) {
    let mut out = String::new();
    let mut n = 0;
    let mut seen = HashSet::new();
    for rule in rules.rules.iter().filter(|r| {
        matches!(
            r.family.as_str(),
            "atomic" | "sync" | "async" | "cluster" | "tensor_copy" | "bulk"
        )
    }) {
        // A rule with no portable translation (ld.mmio) is compiled for AMD only.
        if target == Target::Portable && rule.portable_unsupported.is_some() {
            continue;
        }
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
                // A form whose state translate initialises at kernel entry (a counted barrier's
                // shared-memory words) is compiled as translate leaves it: in a kernel that starts
                // with the initialisation (AMD rejects shared memory no kernel reaches).
                let (kind, entry) = if t.helpers.iter().any(|h| h == ENTRY_HELPER) {
                    ("__global__", format!("  {ENTRY_HELPER}();\n"))
                } else {
                    ("__device__", String::new())
                };
                out.push_str(&format!(
                    "{kind} void form_{n}(uint64_t* p) {{ // {form} {target}\n{entry}  (void)p;\n{decls}{body}\n{outs}}}\n"
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
        let letter = |ty: ptx2hip_core::vocabulary::types::PtxType| match ty.bits() {
            16 => "h",
            64 => "l",
            _ => "r",
        };
        let dest = spec.role == Role::Destination;
        // An operand PTX requires to be an immediate takes its first allowed value.
        if let Some(v) = rule.immediates.get(&spec.name).and_then(|v| v.first()) {
            texts.push(v.to_string());
            continue;
        }
        match &spec.kind {
            // Atomic and synchronisation rules have no matrix fragments.
            OperandKind::Fragment { .. } => return None,
            // A tensor map's 64-bit address and its `.s32` coordinates.
            OperandKind::Tensor(dim) => {
                let rank = ptx2hip_core::rules::tensor_rank(bindings.get(dim)?.as_deref())?;
                let k = constraints.len();
                constraints.push("l".to_string());
                let coords: Vec<String> = (1..=rank as usize)
                    .map(|i| {
                        constraints.push("r".to_string());
                        format!("%{}", k + i)
                    })
                    .collect();
                texts.push(format!("[%{k}, {{{}}}]", coords.join(", ")));
            }
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
                if ty == ptx2hip_core::vocabulary::types::PtxType::Pred {
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
                // Emitted code draws no warning in `-Wall -Wextra -Werror` builds.
                "-Wall",
                "-Wextra",
                "-Werror",
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
