//! The bulk family (rules/bulk.toml) against the PTX ISA on the host: the translated statements,
//! portable and `--target amd`, with their helpers, run with shared memory as a host arena
//! (tests/cpp/async_model.h, tests/cpp/bulk_model.h) by tests/cpp/bulk_check.cpp. Every integer
//! bulk reduction form the family claims (each operation and type of the ISA's table for global
//! destinations, with and without a cache hint) against a per-element reference over edge and
//! random values; every bulk copy form byte for byte with its complete_tx. The floating-point
//! reductions take each element's value from the atomic family's helpers, which golden vectors
//! check; the whole reductions run native against translation on an H200
//! (tools/probes/bulk_copies: identical).

use crate::common;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use ptx2hip_core::lower::{RuleSet, Target};

/// The copy statements bulk_check.cpp calls by name: PTX and constraints.
const COPIES: [(&str, &str, &str); 4] = [
    ("load_cluster", "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];", "r,l,r,r"),
    ("load_cta_hinted", "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;", "r,l,r,r,l"),
    ("store", "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;", "l,r,r"),
    ("store_hinted", "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;", "l,r,r,l"),
];

/// An integer reduction form of the family: its PTX, constraints, and the C++ the check reads.
struct Reduction {
    ptx: String,
    constraints: &'static str,
    op: String,
    ty: String,
}

fn integer_reductions(rules: &RuleSet) -> Vec<Reduction> {
    let mut out = Vec::new();
    for rule in rules
        .rules
        .iter()
        .filter(|r| r.family == "bulk" && r.opcode == "cp")
    {
        for (form, b) in rule.forms() {
            let get = |s: &str| b.get(s).cloned().flatten();
            let (Some(op), Some(ty)) = (get("op"), get("T")) else {
                continue;
            };
            if !matches!(ty.as_str(), "u32" | "s32" | "u64" | "s64" | "b32" | "b64") {
                continue;
            }
            let (operands, constraints) = match get("hint") {
                None => ("[%0], [%1], %2", "l,r,r"),
                Some(_) => ("[%0], [%1], %2, %3", "l,r,r,l"),
            };
            out.push(Reduction {
                ptx: format!("{form} {operands};"),
                constraints,
                op,
                ty,
            });
        }
    }
    out
}

/// The check program for `target`: the harness, the helpers, the statements, the case table.
fn program(rules: &RuleSet, target: Target) -> (String, usize) {
    // The check initialises each case's mbarrier itself.
    let mut helpers = vec!["ptx2hip_mbar_init".to_string()];
    let mut funcs = String::new();
    for (name, ptx, cons) in COPIES {
        funcs.push_str(&common::statement_function(
            rules,
            target,
            name,
            ptx,
            cons,
            &mut helpers,
        ));
    }
    let reductions = integer_reductions(rules);
    let mut table = String::from("static const ReduceCase kReductions[] = {\n");
    for (k, r) in reductions.iter().enumerate() {
        funcs.push_str(&common::statement_function(
            rules,
            target,
            &format!("reduce_{k}"),
            &r.ptx,
            r.constraints,
            &mut helpers,
        ));
        let call = match r.constraints {
            "l,r,r" => format!("reduce_{k}(d, s, n)"),
            _ => format!("reduce_{k}(d, s, n, 0x12F0000000000000ull)"),
        };
        writeln!(
            table,
            "  {{\"{}\", \"{}\", \"{}\", [](uint64_t d, uint32_t s, uint32_t n) {{ {call}; }}}},",
            r.ptx, r.op, r.ty
        )
        .unwrap();
    }
    table.push_str("};\n");
    let mut src = String::from("#include \"async_model.h\"\n#include \"bulk_model.h\"\n");
    src.push_str(&rules.helper_definitions(helpers.iter(), target));
    src.push_str(&funcs);
    src.push_str(&table);
    src.push_str("#include \"bulk_check.cpp\"\n");
    (src, reductions.len())
}

#[test]
fn bulk_translations_follow_the_ptx_isa_on_the_host() {
    let Some(cxx) = common::host_cxx() else {
        return common::skip("a host C++ compiler", "the bulk host model");
    };
    let rules = RuleSet::embedded().expect("rule table loads");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("models_bulk");
    std::fs::create_dir_all(&dir).unwrap();
    let cpp_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cpp");
    let reports = common::in_parallel(vec![Target::Portable, Target::Amd], |target| {
        let (source, reductions) = program(&rules, target);
        // Every integer operation and type of the ISA's table for global destinations (17 + 2),
        // with and without a cache hint.
        assert_eq!(reductions, 38, "{reductions} integer reduction forms");
        let exe =
            common::compile_host_check(cxx, &dir, &format!("check_{target}"), &source, &cpp_dir);
        let text = common::run_host_check(Command::new(&exe));
        format!("{target}:\n{text}")
    });
    for r in reports {
        eprintln!("{r}");
    }
}
