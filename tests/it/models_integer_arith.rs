//! The integer-arithmetic family (rules/integer_arith.toml, I1xx, plus add/sub/mul.lo of
//! rules/integer.toml): the rule table's shape, every translation executed on the host against independent models of the PTX semantics
//! (tests/amd_models/integer_arith.h) — the portable code, and the AMD code once per processor
//! branch (gfx90a, gfx942, gfx1100 and a processor without dot instructions) with host models of
//! the AMD builtins — and the AMD code compiled by clang-19 for gfx90a, gfx942 and gfx1100.
//!
//! The same cases run on an NVIDIA GPU next to the real PTX instructions: `write_gpu_check`
//! (ignored) writes a CUDA program into `$PTX2HIP_GPU_CHECK_DIR` that compares, for every form and
//! every input vector, the PTX instruction, the portable translation and the model.
//!
//! Host compilers: clang++-19 (or clang++) for the host runs, clang-19 with the HIP headers for the
//! AMD compile; a missing compiler skips the check with a note, or fails when `CI` is set.
//! The family's cases are data (`[[rule.test]]`, run by the verification crate's `rule_cases`).

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use ptx2hip_core::lower::{self, render, RuleSet, Target, Translation};
use ptx2hip_core::rules::{Bindings, Carry, OperandKind, Rule, TypeRef};
use ptx2hip_core::scan::AsmStatement;
use ptx2hip_core::vocabulary::types::PtxType;

const FAMILY: &str = "integer_arith";
/// Rules of rules/integer.toml that belong to integer arithmetic (add, sub, mul.lo).
const INTEGER_RULES: [&str; 3] = ["I001", "I002", "I003"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rules() -> RuleSet {
    RuleSet::embedded().expect("the rule table loads")
}

fn ours(r: &Rule) -> bool {
    r.family == FAMILY || INTEGER_RULES.contains(&r.code.as_str())
}

fn statement(ptx: &str, constraints: &[String]) -> AsmStatement {
    let mut stmt = AsmStatement::synthetic(ptx, constraints);
    stmt.qualifiers = vec!["volatile".into()];
    stmt
}

// ---------------------------------------------------------------------------------------------
// Canonical cases: one asm statement per form
// ---------------------------------------------------------------------------------------------

/// One register operand of a canonical statement.
#[derive(Clone, Debug)]
struct Reg {
    /// `%N` in the template.
    op: usize,
    /// Register width (16, 32, 64).
    bits: u32,
    /// PTX type the instruction reads or writes (for inputs: how the model reads the value).
    ty: PtxType,
    /// Model variable name (`a`, `b`, `c`, `cfin`) or output slot (`r0`, `r1`).
    name: String,
}

/// A form of a rule as one asm statement plus the model that predicts its outputs.
#[derive(Clone, Debug)]
struct Case {
    form: String,
    ptx: String,
    constraints: Vec<String>,
    outputs: Vec<Reg>,
    inputs: Vec<Reg>,
    /// C++ assigning `r0` (and `r1`, the carry flag after a `.cc` form) from the typed inputs.
    model: String,
}

fn reg_c(bits: u32) -> &'static str {
    match bits {
        16 => "uint16_t",
        32 => "uint32_t",
        _ => "uint64_t",
    }
}

fn letter(bits: u32) -> char {
    match bits {
        16 => 'h',
        32 => 'r',
        _ => 'l',
    }
}

fn ty_of(rule: &Rule, t: &TypeRef, b: &Bindings) -> PtxType {
    rule.resolve_type(t, b)
        .unwrap_or_else(|| panic!("{}: operand type resolves", rule.code))
}

fn slot<'a>(b: &'a Bindings, name: &str) -> Option<&'a str> {
    b.get(name).and_then(|v| v.as_deref())
}

/// Every canonical case of the family, in rule-table order.
fn cases(rules: &RuleSet) -> Vec<Case> {
    let mut out = Vec::new();
    for rule in rules.rules.iter().filter(|r| ours(r)) {
        for (form, b) in rule.forms() {
            out.push(case(rule, &form, &b));
        }
    }
    out
}

fn case(rule: &Rule, form: &str, b: &Bindings) -> Case {
    let specs = rule.operand_specs();
    let reads = rule.carry.is_some_and(Carry::reads);
    let writes = rule.carry.is_some_and(Carry::writes);
    // Outputs first (GNU asm numbering), then the sources, then the incoming carry.
    let mut outputs = Vec::new();
    let mut inputs = Vec::new();
    let mut next = 0;
    let mut texts = Vec::new();
    for s in specs {
        let OperandKind::Scalar(t) = &s.kind else {
            panic!("{}: scalar operands only", rule.code)
        };
        let ty = ty_of(rule, t, b);
        if s.name.starts_with('d') {
            outputs.push(Reg {
                op: next,
                bits: ty.bits(),
                ty,
                name: "r0".into(),
            });
            texts.push(format!("%{next}"));
            next += 1;
        }
    }
    let cf_out = writes.then(|| {
        let r = Reg {
            op: next,
            bits: 32,
            ty: PtxType::U(32),
            name: "r1".into(),
        };
        next += 1;
        r
    });
    for s in specs {
        let OperandKind::Scalar(t) = &s.kind else {
            unreachable!()
        };
        let ty = ty_of(rule, t, b);
        if !s.name.starts_with('d') {
            inputs.push(Reg {
                op: next,
                bits: ty.bits(),
                ty,
                name: s.name.clone(),
            });
            texts.push(format!("%{next}"));
            next += 1;
        }
    }
    let cf_in = reads.then(|| Reg {
        op: next,
        bits: 32,
        ty: PtxType::U(32),
        name: "cfin".into(),
    });
    let instr = format!("{form} {};", texts.join(", "));
    let ptx = if reads || writes {
        let mut s = String::from("{ ");
        if let Some(cf) = &cf_in {
            // CF = 1 exactly when cfin is not zero (the carry out of cfin + 0xffffffff).
            s.push_str(&format!(
                ".reg .u32 t; add.cc.u32 t, %{}, 0xffffffff; ",
                cf.op
            ));
        }
        s.push_str(&instr);
        if let Some(cf) = &cf_out {
            s.push_str(&format!(" addc.u32 %{}, 0, 0;", cf.op));
        }
        s.push_str(" }");
        s
    } else {
        instr
    };
    outputs.extend(cf_out);
    inputs.extend(cf_in);
    let mut constraints = vec![String::new(); outputs.len() + inputs.len()];
    for r in &outputs {
        constraints[r.op] = format!("={}", letter(r.bits));
    }
    for r in &inputs {
        constraints[r.op] = letter(r.bits).to_string();
    }
    let model = model(rule, form, b, &outputs[0]);
    Case {
        form: form.to_string(),
        ptx,
        constraints,
        outputs,
        inputs,
        model,
    }
}

/// The C++ model of a form: statements assigning `r0` (and `r1` = carry out) from the typed
/// inputs `a`, `b`, `c` and `cfin`, through `ptx_ref::` only.
fn model(rule: &Rule, form: &str, b: &Bindings, dest: &Reg) -> String {
    let t = |name: &str| -> String {
        PtxType::parse(slot(b, name).unwrap_or_else(|| panic!("{form}: slot {name}")))
            .expect("a type")
            .c_type()
            .to_string()
    };
    let flag = |name: &str, on: &str| slot(b, name) == Some(on);
    let signed = |name: &str| slot(b, name).is_some_and(|v| v.starts_with('s'));
    let r0 = |e: String| format!("r0 = ({})({e});", reg_c(dest.bits));
    let hi = flag("mode", "hi");
    match rule.opcode.as_str() {
        "add" | "sub" | "addc" | "subc" | "mad" | "madc"
            if slot(b, "cc").is_some() || rule.opcode.ends_with('c') =>
        {
            let ty = t("T");
            let u = if ty.ends_with("64_t") {
                "uint64_t"
            } else {
                "uint32_t"
            };
            let cin = if rule.carry.is_some_and(Carry::reads) {
                "(uint32_t)(cfin != 0)"
            } else if rule.opcode.starts_with("sub") {
                "1u"
            } else {
                "0u"
            };
            let call = match rule.opcode.as_str() {
                "add" | "addc" => format!("ptx_ref::addc(({u})a, ({u})b, {cin}, &cf)"),
                "sub" | "subc" => format!("ptx_ref::subc(({u})a, ({u})b, {cin}, &cf)"),
                _ => format!("ptx_ref::madc<{ty}>({hi}, a, b, c, {cin}, &cf)"),
            };
            format!("uint32_t cf = 0; {} r1 = cf;", r0(call))
        }
        "add" if slot(b, "sat").is_some() => r0("ptx_ref::add_sat_s32(a, b)".into()),
        "sub" if slot(b, "sat").is_some() => r0("ptx_ref::sub_sat_s32(a, b)".into()),
        "add" if slot(b, "T").is_some_and(|v| v.ends_with("x2")) => {
            r0("ptx_ref::add_16x2(a, b)".into())
        }
        "add" => r0(format!("ptx_ref::add<{}>(a, b)", t("T"))),
        "sub" => r0(format!("ptx_ref::sub<{}>(a, b)", t("T"))),
        "mul" => match slot(b, "mode") {
            Some("lo") => r0(format!("ptx_ref::mul_lo<{}>(a, b)", t("T"))),
            Some("hi") => r0("ptx_ref::mul_hi(a, b)".into()),
            _ => r0("ptx_ref::mul_wide(a, b)".into()),
        },
        "mad" => match (slot(b, "mode"), slot(b, "sat")) {
            (Some("hi"), Some(_)) => r0("ptx_ref::mad_hi_sat_s32(a, b, c)".into()),
            (Some("lo"), _) => r0(format!("ptx_ref::mad_lo<{}>(a, b, c)", t("T"))),
            (Some("hi"), _) => r0(format!("ptx_ref::mad_hi<{}>(a, b, c)", t("T"))),
            _ => r0(format!(
                "ptx_ref::mad_wide<{}, {}>(a, b, c)",
                t("T"),
                reg_c(dest.bits)
            )),
        },
        "mul24" => r0(format!(
            "ptx_ref::mul24({hi}, {}, (uint32_t)a, (uint32_t)b)",
            signed("T")
        )),
        "mad24" if slot(b, "sat").is_some() => r0("ptx_ref::mad24_hi_sat_s32(a, b, c)".into()),
        "mad24" => r0(format!(
            "ptx_ref::mad24({hi}, {}, (uint32_t)a, (uint32_t)b, (uint32_t)c)",
            signed("T")
        )),
        "sad" => r0(format!("ptx_ref::sad<{}>(a, b, c)", t("T"))),
        "div" => r0(format!("ptx_ref::div<{}>(a, b)", t("T"))),
        "rem" => r0(format!("ptx_ref::rem<{}>(a, b)", t("T"))),
        "abs" => r0(format!("ptx_ref::abs<{}>(a)", t("T"))),
        "neg" => r0(format!("ptx_ref::neg<{}>(a)", t("T"))),
        "min" | "max" => {
            let is_max = rule.opcode == "max";
            let relu = slot(b, "relu").is_some();
            match slot(b, "T") {
                Some(v) if v.ends_with("x2") => r0(format!(
                    "ptx_ref::minmax_16x2({is_max}, {}, {relu}, a, b)",
                    v.starts_with('s')
                )),
                _ => {
                    let e = format!("ptx_ref::{}<{}>(a, b)", rule.opcode, t("T"));
                    r0(if relu {
                        format!("ptx_ref::relu<{}>({e})", t("T"))
                    } else {
                        e
                    })
                }
            }
        }
        "dp4a" => r0(format!(
            "ptx_ref::dp4a({}, {}, (uint32_t)a, (uint32_t)b, (uint32_t)c)",
            signed("A"),
            signed("B")
        )),
        "dp2a" => r0(format!(
            "ptx_ref::dp2a({hi}, {}, {}, (uint32_t)a, (uint32_t)b, (uint32_t)c)",
            signed("A"),
            signed("B")
        )),
        other => panic!("{form}: no model for opcode `{other}`"),
    }
}

// ---------------------------------------------------------------------------------------------
// Generated C++
// ---------------------------------------------------------------------------------------------

/// The translation of a case for a target.
fn translate(rules: &RuleSet, c: &Case, target: Target) -> Result<Translation, String> {
    let a = lower::analyze(&statement(&c.ptx, &c.constraints), rules, target);
    a.outcome.map_err(|u| u.message)
}

/// The translation's code, indented as a function body.
fn code_lines(t: &Translation) -> Vec<String> {
    render(&t.lines, "  ", "  ")
}

/// Helper definitions for a target, each once, requirements first.
fn helper_block(rules: &RuleSet, names: &[String], target: Target) -> String {
    let mut s = String::new();
    for n in rules.helper_closure(names.iter()) {
        let h = &rules.helpers[&n];
        let code = match target {
            Target::Amd => h.amd.as_deref().unwrap_or(&h.portable),
            Target::Portable => &h.portable,
        };
        writeln!(s, "{}", code.trim()).unwrap();
    }
    s
}

fn decl_inputs(c: &Case, typed: bool) -> String {
    let mut s = String::new();
    for (j, r) in c.inputs.iter().enumerate() {
        if typed {
            writeln!(
                s,
                "  {} {} = ({})({})in[{j}];",
                r.ty.c_type(),
                r.name,
                r.ty.c_type(),
                reg_c(r.bits)
            )
            .unwrap();
        } else {
            writeln!(
                s,
                "  {} op{} = ({})in[{j}];",
                reg_c(r.bits),
                r.op,
                reg_c(r.bits)
            )
            .unwrap();
        }
    }
    s
}

/// `void NAME(const uint64_t* in, uint64_t* out)` running the translation.
fn translated_fn(c: &Case, name: &str, code: &[String], qualifier: &str) -> String {
    let mut s = format!("{qualifier} void {name}(const uint64_t* in, uint64_t* out) {{\n");
    for r in &c.outputs {
        writeln!(s, "  {} op{} = 0;", reg_c(r.bits), r.op).unwrap();
    }
    s.push_str(&decl_inputs(c, false));
    for l in code {
        writeln!(s, "{l}").unwrap();
    }
    for (k, r) in c.outputs.iter().enumerate() {
        writeln!(s, "  out[{k}] = (uint64_t)op{};", r.op).unwrap();
    }
    s.push_str("}\n");
    s
}

/// `void NAME(const uint64_t* in, uint64_t* out)` running the model.
fn model_fn(c: &Case, name: &str, qualifier: &str) -> String {
    let mut s = format!("{qualifier} void {name}(const uint64_t* in, uint64_t* out) {{\n");
    s.push_str(&decl_inputs(c, true));
    s.push_str("  uint64_t r0 = 0, r1 = 0;\n");
    writeln!(s, "  {}", c.model).unwrap();
    s.push_str("  out[0] = r0;\n");
    if c.outputs.len() > 1 {
        s.push_str("  out[1] = r1;\n");
    }
    s.push_str("  (void)r1;\n}\n");
    s
}

/// `{bits, signed, is_carry}` of each input, for the vector generator.
fn spec_table(c: &Case) -> String {
    let items: Vec<String> = c
        .inputs
        .iter()
        .map(|r| {
            format!(
                "{{{}, {}, {}}}",
                r.ty.bits().min(r.bits),
                r.ty.is_signed(),
                r.name == "cfin"
            )
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// Per case a `tr_<i>` function running the translation and, with `models`, a `ref_<i>` running
/// the model; returns the definitions of the helpers they call and the functions.
fn case_functions(
    rules: &RuleSet,
    cases: &[Case],
    target: Target,
    qualifier: &str,
    models: bool,
) -> (String, String) {
    let mut helpers = Vec::new();
    let mut body = String::new();
    for (i, c) in cases.iter().enumerate() {
        let t =
            translate(rules, c, target).unwrap_or_else(|e| panic!("{} ({target}): {e}", c.form));
        helpers.extend(t.helpers.iter().cloned());
        body.push_str(&translated_fn(
            c,
            &format!("tr_{i}"),
            &code_lines(&t),
            qualifier,
        ));
        if models {
            body.push_str(&model_fn(c, &format!("ref_{i}"), qualifier));
        }
    }
    helpers.sort();
    helpers.dedup();
    (helper_block(rules, &helpers, target), body)
}

/// The `CaseInfo` initializer of a case (form, input and output counts, input specs).
fn case_info(c: &Case) -> String {
    format!(
        "{{\"{}\", {}, {}, {}}}",
        c.form,
        c.inputs.len(),
        c.outputs.len(),
        spec_table(c)
    )
}

/// `integer_arith_cases.h` of the host check (`tests/cpp/integer_arith_host_check.cpp`): the
/// helpers of `target`, `tr_<i>` and `ref_<i>` per case, and `P2H_ENTRIES`.
fn host_cases(rules: &RuleSet, cases: &[Case], target: Target) -> String {
    let (helpers, body) = case_functions(rules, cases, target, "static", true);
    let rows = cases
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{{{}, tr_{i}, ref_{i}}}", case_info(c)));
    format!(
        "// ---- helpers ({target}) ----\n{helpers}\n// ---- cases ----\n{body}\n{}",
        entries(rows)
    )
}

/// `#define P2H_ENTRIES`: the rows of the check programs' `entries` table.
fn entries(rows: impl Iterator<Item = String>) -> String {
    let mut s = String::from("#define P2H_ENTRIES");
    for row in rows {
        write!(s, " \\\n  {row},").unwrap();
    }
    s.push('\n');
    s
}

/// A file of `tests/cpp`.
fn cpp(name: &str) -> PathBuf {
    root().join("tests/cpp").join(name)
}

fn tool(names: &[&str]) -> Option<String> {
    names
        .iter()
        .find(|n| {
            Command::new(n)
                .arg("--version")
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false)
        })
        .map(|n| n.to_string())
}

/// Skips (returns None) when a compiler is missing, unless CI is set.
fn require(names: &[&str], what: &str) -> Option<String> {
    let found = tool(names);
    if found.is_none() {
        common::skip(&format!("any of {names:?}"), what);
    }
    found
}

fn run(cmd: &mut Command, what: &str) -> String {
    let o = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.status.success(),
        "{what} failed:\n{}",
        text.chars().take(6000).collect::<String>()
    );
    text
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[test]
fn rule_table_shape() {
    let rules = rules();
    let family: Vec<&Rule> = rules.rules.iter().filter(|r| r.family == FAMILY).collect();
    assert!(
        family.len() >= 36,
        "only {} integer_arith rules",
        family.len()
    );
    for r in &family {
        let n: u32 = r.code[1..].parse().expect("numeric code");
        assert!(
            r.code.starts_with('N') && (100..200).contains(&n),
            "{}: codes of this family are N100-N199",
            r.code
        );
        assert!(
            r.doc.contains("Example"),
            "{}: the doc has an example",
            r.code
        );
        assert!(!r.forms().is_empty(), "{}: claims no form", r.code);
        // A source placeholder used twice would evaluate an operand expression twice in the
        // direct (single-instruction) form: helpers take such operands instead.
        for (target, t) in [Target::Amd, Target::Portable]
            .into_iter()
            .flat_map(|target| r.templates(target).map(move |t| (target, t.code.text())))
        {
            for s in r
                .operand_specs()
                .iter()
                .filter(|s| !s.name.starts_with('d'))
            {
                let p = format!("{{{}}}", s.name);
                assert!(
                    t.matches(&p).count() <= 1,
                    "{} ({target}): {p} appears twice",
                    r.code
                );
            }
        }
    }
}

/// Every translation (portable; AMD per processor branch) against the models, on the host.
#[test]
fn translations_match_the_models_on_the_host() {
    let Some(cxx) = require(
        &["clang++-19", "clang++"],
        "host execution of the translations",
    ) else {
        return;
    };
    let rules = rules();
    let cases = cases(&rules);
    let dir = tempfile::tempdir().unwrap();
    let variants: [(&str, Target, &[&str]); 5] = [
        ("portable", Target::Portable, &[]),
        ("amd-no-dot", Target::Amd, &[]),
        ("amd-gfx90a", Target::Amd, &["-D__gfx90a__"]),
        ("amd-gfx942", Target::Amd, &["-D__gfx942__"]),
        ("amd-gfx1100", Target::Amd, &["-D__gfx1100__"]),
    ];
    // The five variants build and run side by side.
    let outputs = common::in_parallel(variants.to_vec(), |(label, target, defs)| {
        let generated = dir.path().join(label);
        std::fs::create_dir_all(&generated).unwrap();
        std::fs::write(
            generated.join("integer_arith_cases.h"),
            host_cases(&rules, &cases, target),
        )
        .unwrap();
        let exe = dir.path().join(format!("{label}.exe"));
        run(
            Command::new(&cxx)
                .args(["-std=c++17", "-O1", "-w", "-fno-strict-aliasing"])
                .args(defs)
                .arg("-I")
                .arg(&generated)
                .arg("-I")
                .arg(root().join("tests/amd_models"))
                .arg(cpp("integer_arith_host_check.cpp"))
                .arg("-o")
                .arg(&exe),
            &format!("compiling the {label} host check"),
        );
        let out = run(&mut Command::new(&exe), &format!("the {label} host check"));
        format!("{label}: {}", out.trim())
    });
    for out in outputs {
        eprintln!("{out}");
    }
}

const AMD_ARCHS: [&str; 3] = ["gfx90a", "gfx942", "gfx1100"];

/// clang-19 device compilation (`-S`: LLVM IR with `-emit-llvm` in `extra`, else assembly) of a
/// HIP file for one processor, at the optimisation level `extra` names.
fn hip_compile(clang: &str, file: &Path, arch: &str, extra: &[&str], output: &Path, what: &str) {
    run(
        Command::new(clang)
            .args([
                "-x",
                "hip",
                "-std=c++17",
                "-nogpulib",
                "--cuda-device-only",
                "-S",
            ])
            .args(extra)
            .arg(format!("--offload-arch={arch}"))
            .arg(file)
            .arg("-o")
            .arg(output),
        &format!("clang-19 {what} for {arch}"),
    );
}

/// The AMD translations (and the portable ones, which must build with HIP too) as HIP kernels.
fn hip_source(rules: &RuleSet, cases: &[Case], target: Target) -> String {
    let (helpers, mut body) = case_functions(rules, cases, target, "__device__ static", false);
    for (i, c) in cases.iter().enumerate() {
        writeln!(
            body,
            "extern \"C\" __global__ void k_{i}(const uint64_t* in, uint64_t* out) {{ int t = __builtin_amdgcn_workitem_id_x(); tr_{i}(in + {n} * t, out + 2 * t); }}",
            n = c.inputs.len()
        )
        .unwrap();
    }
    format!("#include <hip/hip_runtime.h>\n#include <stdint.h>\n{helpers}\n{body}")
}

#[test]
fn translations_compile_as_hip_for_gfx90a_gfx942_gfx1100() {
    let Some(clang) = require(&["clang-19"], "HIP compile of the translations") else {
        return;
    };
    let rules = rules();
    let cases = cases(&rules);
    let dir = tempfile::tempdir().unwrap();
    let mut compiles = Vec::new();
    for target in [Target::Amd, Target::Portable] {
        let src = dir.path().join(format!("{target}.hip"));
        std::fs::write(&src, hip_source(&rules, &cases, target)).unwrap();
        compiles.extend(AMD_ARCHS.map(|arch| (src.clone(), target, arch)));
    }
    common::in_parallel(compiles, |(src, target, arch)| {
        let what = format!("{target} translations");
        hip_compile(
            &clang,
            &src,
            arch,
            // Front-end checks only (a builtin the processor lacks is an error there).
            &["-O0", "-emit-llvm"],
            Path::new("/dev/null"),
            &what,
        );
    });
}

/// The corpus file of this family is fully translatable (so `tests/it/hip_compile.rs` compiles its
/// translations for every AMD processor, in every emit mode).
#[test]
fn corpus_file_is_translatable() {
    let rel = "corpus/integer_arith_kernels.cu";
    let o = Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
        .args(["check", "--format", "json", rel])
        .current_dir(root())
        .output()
        .unwrap();
    let findings: serde_json::Value = serde_json::from_slice(&o.stdout).expect("check prints JSON");
    let findings = findings.as_array().expect("an array");
    assert!(
        findings.len() >= 20,
        "{rel}: only {} asm statements",
        findings.len()
    );
    for f in findings {
        assert_eq!(
            f["status"], "translatable",
            "{rel}:{}: {}",
            f["line"], f["message"]
        );
    }
}

// ---------------------------------------------------------------------------------------------
// NVIDIA GPU check (run by hand on a machine with nvcc and a GPU)
// ---------------------------------------------------------------------------------------------

/// `integer_arith_cases.h` of the NVIDIA check (`tests/cpp/integer_arith_gpu_check.cu`): for every
/// case the real PTX, the portable translation and the model, run by one kernel.
fn gpu_cases(rules: &RuleSet, cases: &[Case]) -> String {
    let (helpers, mut body) =
        case_functions(rules, cases, Target::Portable, "__device__ static", true);
    let mut rows = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        // The real instruction.
        let mut asm =
            format!("__device__ static void asm_{i}(const uint64_t* in, uint64_t* out) {{\n");
        for r in &c.outputs {
            writeln!(asm, "  {} op{} = 0;", reg_c(r.bits), r.op).unwrap();
        }
        asm.push_str(&decl_inputs(c, false));
        let outs: Vec<String> = c
            .outputs
            .iter()
            .map(|r| format!("\"{}\"(op{})", c.constraints[r.op], r.op))
            .collect();
        let ins: Vec<String> = c
            .inputs
            .iter()
            .map(|r| format!("\"{}\"(op{})", c.constraints[r.op], r.op))
            .collect();
        writeln!(
            asm,
            "  asm volatile(\"{}\" : {} : {});",
            c.ptx,
            outs.join(", "),
            ins.join(", ")
        )
        .unwrap();
        for (k, r) in c.outputs.iter().enumerate() {
            writeln!(asm, "  out[{k}] = (uint64_t)op{};", r.op).unwrap();
        }
        asm.push_str("}\n");
        body.push_str(&asm);
        writeln!(
            body,
            "__global__ void k_{i}(const uint64_t* in, uint64_t* o, int n) {{ int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= n) return; \
             asm_{i}(in + {n} * t, o + 6 * t); tr_{i}(in + {n} * t, o + 6 * t + 2); ref_{i}(in + {n} * t, o + 6 * t + 4); }}",
            n = c.inputs.len()
        )
        .unwrap();
        rows.push(format!("{{{}, k_{i}}}", case_info(c)));
    }
    format!("{helpers}\n{body}\n{}", entries(rows.into_iter()))
}

/// Writes `integer_arith_gpu_check.cu` and the headers it includes into `$PTX2HIP_GPU_CHECK_DIR`;
/// build there with `nvcc -O1 -std=c++17 -arch=sm_90 integer_arith_gpu_check.cu`.
#[test]
#[ignore = "writes the NVIDIA GPU check program; run by hand"]
fn write_gpu_check() {
    let dir =
        PathBuf::from(std::env::var("PTX2HIP_GPU_CHECK_DIR").expect("set PTX2HIP_GPU_CHECK_DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = rules();
    let cases = cases(&rules);
    std::fs::write(dir.join("integer_arith_cases.h"), gpu_cases(&rules, &cases)).unwrap();
    for file in [
        cpp("integer_arith_gpu_check.cu"),
        cpp("integer_arith_vectors.h"),
        root().join("tests/amd_models/integer_arith.h"),
    ] {
        std::fs::copy(&file, dir.join(file.file_name().unwrap())).unwrap();
    }
}

/// For BENCHMARKS.md: instructions of each form's AMD translation on gfx942, next to the plainest
/// correct C++ (the model) for the same form.
#[test]
#[ignore = "prints a benchmark table; needs clang-19"]
fn amd_instruction_counts() {
    let clang = tool(&["clang-19"]).expect("clang-19");
    let rules = rules();
    let cases = cases(&rules);
    let dir = tempfile::tempdir().unwrap();
    let mut src = hip_source(&rules, &cases, Target::Amd);
    src.push_str("#include \"integer_arith.h\"\n");
    for (i, c) in cases.iter().enumerate() {
        src.push_str(&model_fn(c, &format!("ref_{i}"), "__device__ static"));
        writeln!(
            src,
            "extern \"C\" __global__ void m_{i}(const uint64_t* in, uint64_t* out) {{ int t = __builtin_amdgcn_workitem_id_x(); ref_{i}(in + {n} * t, out + 2 * t); }}",
            n = c.inputs.len()
        )
        .unwrap();
    }
    let file = dir.path().join("counts.hip");
    std::fs::write(&file, src).unwrap();
    let asm = dir.path().join("counts.s");
    let models = root().join("tests/amd_models");
    let extra = ["-O2", "-I", models.to_str().unwrap()];
    hip_compile(
        &clang,
        &file,
        "gfx942",
        &extra,
        &asm,
        "the benchmark kernels",
    );
    let counts = instruction_counts(&asm);
    println!("| form | AMD translation | plain C++ (model) |\n|---|---|---|");
    for (i, c) in cases.iter().enumerate() {
        println!(
            "| `{}` | {} | {} |",
            c.form,
            counts[&format!("k_{i}")],
            counts[&format!("m_{i}")]
        );
    }
}

/// Instructions per kernel of an AMDGPU assembly listing, counted from the kernel's first
/// `s_waitcnt` (inputs loaded) to its end, without waits, stores and store addressing.
fn instruction_counts(asm: &Path) -> BTreeMap<String, usize> {
    let text = std::fs::read_to_string(asm).unwrap();
    let mut out = BTreeMap::new();
    let mut current: Option<(String, bool, usize)> = None;
    for line in text.lines() {
        let label = line.split_once(':').filter(|(n, rest)| {
            n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && (rest.trim().is_empty() || rest.trim().starts_with(';'))
        });
        if let Some((name, _)) = label {
            current = Some((name.to_string(), false, 0));
            continue;
        }
        let Some((name, started, n)) = current.as_mut() else {
            continue;
        };
        let ins = line.trim();
        if ins.starts_with("s_waitcnt") {
            *started = true;
            continue;
        }
        if ins.starts_with("s_endpgm") {
            out.insert(name.clone(), *n);
            current = None;
            continue;
        }
        let counted = *started
            && (ins.starts_with("v_") || ins.starts_with("s_"))
            && ![
                "s_nop",
                "s_delay_alu",
                "global_store",
                "s_clause",
                "s_sendmsg",
            ]
            .iter()
            .any(|p| ins.starts_with(p))
            && !(ins.contains("s[")
                && ["v_lshl_add_u64", "v_add_co", "v_addc_co", "v_mov_b32"]
                    .iter()
                    .any(|p| ins.starts_with(p)));
        if counted {
            *n += 1;
        }
    }
    out
}
