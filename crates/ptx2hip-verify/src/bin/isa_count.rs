//! AMD instruction-count benchmark (issue: "AMD output is as good as a careful human would write").
//!
//! `cargo run --release -p ptx2hip-verify --bin isa_count -- [--out DIR] [--all-forms] [--rule CODE]... [--arch gfx942|gfx1100] [--clang CLANG]`
//!
//! For every rule (its first canonical form, or every form with `--all-forms`) the canonical asm
//! statement from `ptx2hip_verify::forms` is translated twice, with `--target amd` and with
//! `--target portable`, and each translation becomes the body of one
//! `extern "C" __device__ __attribute__((noinline))` function that takes the statement's inputs as
//! arguments and returns its outputs (a struct for several; nothing for a store). All functions of a
//! target go in one file (`DIR/amd.hip`, `DIR/portable.hip`, helpers from the rule table once at the
//! top), compiled with
//! `clang-19 -x hip -std=c++17 --offload-arch=gfx942 --cuda-device-only -nogpulib -O2 -S`
//! (`--arch gfx1100`: for gfx1100, wave32, instead).
//!
//! Count: the machine instructions between a function's label and its `.Lfunc_endN` label, minus
//! the `s_setpc_b64` return(s) and the `s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)` that the calling
//! convention puts first in every non-kernel function. Directives, labels, comments and the
//! `;;#ASMSTART/END` markers of empty compiler barriers are not instructions. The count is
//! static (a loop body counts once), arguments arrive in VGPRs and results leave in VGPRs, so it
//! measures the computation and nothing else.
//!
//! Prints a Markdown table on stdout (the section of BENCHMARKS.md) and writes `DIR/counts.tsv`.
//!
//! `--matrix`: the mma forms (docs/MATRIX.md) on gfx90a, gfx942 and gfx1100 (`matrix.rs`).
//!
//! `--warp`: the warp-level forms instead, on gfx942 (wave64) and gfx1100 (wave32), each next to
//! the native HIP call a port would write (`__shfl_xor`, `__ballot`, `__any`, ...; see `warp.rs`).
//!
//! `--fragment`: every ldmatrix / stmatrix / movmatrix form on gfx942, gfx1100 and gfx1100 wave64
//! (`fragment.rs`; docs/FRAGMENTS.md).

#[path = "isa_count/fragment.rs"]
mod fragment;
#[path = "isa_count/matrix.rs"]
mod matrix;
#[path = "isa_count/warp.rs"]
mod warp;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use ptx2hip_core::lower::{self, RuleSet, Target};
use ptx2hip_verify::forms::{rule_forms, CanonicalForm, Input, Output};

const FLAGS: [&str; 7] = [
    "-x",
    "hip",
    "-std=c++17",
    "--cuda-device-only",
    "-nogpulib",
    "-O2",
    "-S",
];

/// `(rule, form, [(operand, immediate)])`.
type ImmediateVariant = (&'static str, &'static str, &'static [(usize, &'static str)]);

/// Selector-driven instructions are usually written with immediate selectors, which the canonical
/// statement (every operand a register) does not show: these variants replace operand `%N` by an
/// immediate and are reported in a second table.
const IMMEDIATE_VARIANTS: &[ImmediateVariant] = &[
    ("B008", "bfe.u32", &[(2, "8"), (3, "4")]),
    ("B008", "bfe.s32", &[(2, "8"), (3, "4")]),
    ("B009", "bfi.b32", &[(3, "8"), (4, "4")]),
    ("B010", "prmt.b32", &[(3, "0x5410")]),
    ("B010", "prmt.b32", &[(3, "0x0123")]),
    ("B010", "prmt.b32", &[(3, "0x8880")]),
    // lop3's table is an immediate in every canonical form (one form per value).
    ("B012", "lop3.b32 [lut=0x96]", &[]),
    ("B012", "lop3.b32 [lut=0xe8]", &[]),
    ("B013", "shf.l.wrap.b32", &[(3, "7")]),
    ("B013", "shf.l.clamp.b32", &[(3, "7")]),
    ("B013", "shf.r.wrap.b32", &[(3, "7")]),
    ("B013", "shf.r.clamp.b32", &[(3, "7")]),
];

/// `text` with `%op` (not `%op` followed by a digit) replaced by `value`.
fn substitute(text: &str, op: usize, value: &str) -> String {
    let pat = format!("%{op}");
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(&pat) {
        let after = &rest[i + pat.len()..];
        out.push_str(&rest[..i]);
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            out.push_str(&pat);
        } else {
            out.push_str(value);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A form's (portable, amd) instruction counts, or why it was not measured.
type Measured = Result<(usize, usize), String>;

struct Entry {
    form: CanonicalForm,
    amd: Result<(Vec<String>, Vec<String>), String>,
    portable: Result<(Vec<String>, Vec<String>), String>,
    /// The amd translation (code and helper definitions) is the portable one.
    same: bool,
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn translate(
    form: &CanonicalForm,
    rules: &RuleSet,
    target: Target,
) -> Result<(Vec<String>, Vec<String>), String> {
    let a = lower::analyze(&form.statement(), rules, target);
    a.outcome
        .map(|t| (lower::render(&t.lines, "  ", "  "), t.helpers))
        .map_err(|u| u.message)
}

fn helper_text<'a>(rules: &'a RuleSet, name: &str, target: Target) -> Option<&'a str> {
    Some(rules.helpers.get(name)?.definition(target))
}

/// The C++ type of an address operand: a 64-bit pointer, or a 32-bit `.shared`/`.local` window
/// address.
fn address_type(constraint: &str) -> &'static str {
    if constraint == "r" {
        "uint32_t"
    } else {
        "uint64_t"
    }
}

/// One noinline device function computing the form's statement from its arguments.
fn function(k: usize, f: &CanonicalForm, lines: &[String]) -> String {
    let mut params = Vec::new();
    let mut declared = vec![false; f.constraints.len()];
    for i in &f.inputs {
        match i {
            Input::Reg { op, class, .. } => {
                params.push(format!("{} op{op}", class.c_type()));
                declared[*op] = true;
            }
            Input::Mem { op, .. } => {
                params.push(format!("{} op{op}", address_type(&f.constraints[*op])));
                declared[*op] = true;
            }
        }
    }
    let regs: Vec<(usize, &'static str, bool)> = f
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Reg {
                op,
                class,
                init_zero,
            } => Some((*op, class.c_type(), *init_zero)),
            Output::Mem { .. } => None,
        })
        .collect();
    for (op, _, _) in &regs {
        declared[*op] = true;
    }
    // Address operands of stores (the only operands not declared above).
    for (op, c) in f.constraints.iter().enumerate() {
        if !declared[op] {
            params.push(format!("{} op{op}", address_type(c)));
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "// {} {}: {}", f.rule, f.form, f.ptx);
    let ret = match regs.len() {
        0 => "void".to_string(),
        1 => regs[0].1.to_string(),
        _ => {
            let _ = writeln!(
                s,
                "struct p2h_r{k} {{ {} }};",
                regs.iter()
                    .map(|(op, t, _)| format!("{t} op{op};"))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            format!("p2h_r{k}")
        }
    };
    let _ = writeln!(
        s,
        "extern \"C\" __device__ __attribute__((noinline, used)) {ret} p2h_f{k}({}) {{",
        params.join(", ")
    );
    for (op, t, zero) in &regs {
        let _ = writeln!(s, "  {t} op{op}{};", if *zero { " = 0" } else { "" });
    }
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    match regs.len() {
        0 => {}
        1 => {
            let _ = writeln!(s, "  return op{};", regs[0].0);
        }
        _ => {
            let _ = writeln!(
                s,
                "  return p2h_r{k}{{ {} }};",
                regs.iter()
                    .map(|(op, _, _)| format!("op{op}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    s.push_str("}\n");
    s
}

fn source(entries: &[Entry], rules: &RuleSet, target: Target) -> String {
    let mut s = String::from(
        "// generated by crates/ptx2hip-verify/src/bin/isa_count.rs\n#include <hip/hip_runtime.h>\n#include <stdint.h>\n#include <string.h>\n#include <math.h>\n",
    );
    fn pick(e: &Entry, target: Target) -> &Result<(Vec<String>, Vec<String>), String> {
        match target {
            Target::Amd => &e.amd,
            Target::Portable => &e.portable,
        }
    }
    let names: Vec<String> = entries
        .iter()
        .filter_map(|e| pick(e, target).as_ref().ok())
        .flat_map(|(_, h)| h.iter().cloned())
        .collect();
    s.push_str(&rules.helper_definitions(names.iter(), target));
    for (k, e) in entries.iter().enumerate() {
        if let Ok((lines, _)) = pick(e, target) {
            s.push_str(&function(k, &e.form, lines));
        }
    }
    s
}

/// Device-library bitcode linked into each file, as the HIP driver links it for gfx940 (the Debian
/// rocm-device-libs have no gfx942 ISA-version file; gfx940's is the same ISA family). Without it,
/// HIP functions such as `__clz` are calls to `__ockl_*` and would count as one tail call.
/// gfx1100 (wave32) replaces the ISA-version and wave-size files (`arch_libs`).
const DEVICE_LIBS: [&str; 7] = [
    "ocml",
    "ockl",
    "oclc_daz_opt_off",
    "oclc_unsafe_math_off",
    "oclc_finite_only_off",
    "oclc_correctly_rounded_sqrt_on",
    "oclc_abi_version_500",
];

/// The ISA-version and wave-size libraries of a processor (Debian ships no gfx1100 ISA-version
/// file; gfx1030's is the closest, as `warp.rs` uses).
fn arch_libs(arch: &str) -> [&'static str; 2] {
    if arch.starts_with("gfx11") {
        ["oclc_isa_version_1030", "oclc_wavefrontsize64_off"]
    } else {
        ["oclc_isa_version_940", "oclc_wavefrontsize64_on"]
    }
}

pub(crate) fn compile(
    clang: &str,
    arch: &str,
    devlibs: &Path,
    src: &Path,
    asm: &Path,
) -> Result<(), String> {
    let mut cmd = Command::new(clang);
    cmd.args(FLAGS).arg(format!("--offload-arch={arch}"));
    for lib in DEVICE_LIBS.into_iter().chain(arch_libs(arch)) {
        let bc = devlibs.join(format!("{lib}.bc"));
        if !bc.exists() {
            return Err(format!(
                "{} missing (apt-get install rocm-device-libs, or pass --devlibs DIR)",
                bc.display()
            ));
        }
        cmd.args(["-Xclang", "-mlink-builtin-bitcode", "-Xclang"])
            .arg(bc);
    }
    let out = cmd
        .arg(src)
        .arg("-o")
        .arg(asm)
        .output()
        .map_err(|e| format!("{clang}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{clang} failed on {}:\n{}",
            src.display(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Instruction count of every `p2h_fN` function in an assembly file, with the external functions
/// it calls (code the count cannot see).
pub(crate) fn count(asm: &str) -> BTreeMap<usize, (usize, Vec<String>)> {
    let mut counts = BTreeMap::new();
    let mut current: Option<(usize, usize, bool)> = None; // (k, count, first instruction seen)
    let mut calls: Vec<String> = Vec::new();
    for raw in asm.lines() {
        let line = raw.split(';').next().unwrap_or("").trim();
        if let Some(name) = line.strip_suffix(':') {
            if let Some(k) = name
                .strip_prefix("p2h_f")
                .and_then(|n| n.parse::<usize>().ok())
            {
                current = Some((k, 0, false));
                calls.clear();
            } else if name.starts_with(".Lfunc_end") {
                if let Some((k, n, _)) = current.take() {
                    counts.insert(k, (n, std::mem::take(&mut calls)));
                }
            }
            continue;
        }
        let Some((_, n, started)) = current.as_mut() else {
            continue;
        };
        if line.is_empty() || line.starts_with('.') {
            continue;
        }
        let mnemonic = line.split_whitespace().next().unwrap_or("");
        let entry_wait = !*started && line == "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)";
        *started = true;
        if let Some(callee) = line
            .split([' ', ','])
            .find_map(|w| w.strip_suffix("@rel32@lo+4"))
        {
            calls.push(callee.to_string());
        }
        if entry_wait || mnemonic == "s_setpc_b64" {
            continue;
        }
        *n += 1;
    }
    counts
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = PathBuf::from(arg(&args, "--out").unwrap_or_else(|| "/tmp/ptx2hip-isa".into()));
    let clang = arg(&args, "--clang").unwrap_or_else(|| "clang-19".into());
    let devlibs = PathBuf::from(
        arg(&args, "--devlibs")
            .unwrap_or_else(|| "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode".into()),
    );
    let arch = arg(&args, "--arch").unwrap_or_else(|| "gfx942".into());
    let all_forms = args.iter().any(|a| a == "--all-forms");
    let wanted: Vec<&String> = args
        .windows(2)
        .filter(|w| w[0] == "--rule")
        .map(|w| &w[1])
        .collect();
    let rules = RuleSet::embedded().expect("rules");
    std::fs::create_dir_all(&out).expect("output directory");
    if args.iter().any(|a| a == "--warp") {
        warp::main(&rules, &clang, &devlibs, &out);
        return;
    }
    if args.iter().any(|a| a == "--matrix") {
        matrix::main(&rules, &clang, &out);
        return;
    }
    if args.iter().any(|a| a == "--fragment") {
        fragment::main(&rules, &clang, &out);
        return;
    }

    let mut entries = Vec::new();
    let mut no_form = Vec::new();
    for rule in &rules.rules {
        if !wanted.is_empty() && !wanted.iter().any(|w| w.eq_ignore_ascii_case(&rule.code)) {
            continue;
        }
        if rule.warp {
            continue; // measured by `--warp` (against the native HIP calls) and `--fragment`
        }
        let forms = rule_forms(rule);
        if forms.is_empty() {
            no_form.push(rule.code.clone());
            continue;
        }
        let take = if all_forms { forms.len() } else { 1 };
        for form in forms.into_iter().take(take) {
            let amd = translate(&form, &rules, Target::Amd);
            let portable = translate(&form, &rules, Target::Portable);
            let same = match (&amd, &portable) {
                (Ok((a, ha)), Ok((p, _))) => {
                    a == p
                        && ha.iter().all(|h| {
                            helper_text(&rules, h, Target::Amd)
                                == helper_text(&rules, h, Target::Portable)
                        })
                }
                _ => false,
            };
            entries.push(Entry {
                form,
                amd,
                portable,
                same,
            });
        }
    }

    // Immediate-operand variants (the replaced operand stays an unused parameter).
    let canonical_count = entries.len();
    for (code, form, imms) in IMMEDIATE_VARIANTS {
        if !wanted.is_empty() && !wanted.iter().any(|w| w.eq_ignore_ascii_case(code)) {
            continue;
        }
        let Some(mut f) = rules
            .rule(code)
            .and_then(|r| rule_forms(r).into_iter().find(|f| &f.form == form))
        else {
            eprintln!("immediate variant {code} {form}: no such canonical form");
            continue;
        };
        for (op, value) in imms.iter() {
            f.ptx = substitute(&f.ptx, *op, value);
        }
        f.form = format!(
            "{form} ({})",
            imms.iter()
                .map(|(op, v)| format!("%{op}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let amd = translate(&f, &rules, Target::Amd);
        let portable = translate(&f, &rules, Target::Portable);
        let same = matches!((&amd, &portable), (Ok((a, _)), Ok((p, _))) if a == p)
            && !entries.iter().any(|e| e.form.rule == *code && !e.same);
        entries.push(Entry {
            form: f,
            amd,
            portable,
            same,
        });
    }

    let mut results: Vec<BTreeMap<usize, (usize, Vec<String>)>> = Vec::new();
    let jobs: Vec<(Target, PathBuf, PathBuf)> =
        [(Target::Portable, "portable"), (Target::Amd, "amd")]
            .into_iter()
            .map(|(t, name)| {
                let src = out.join(format!("{name}.hip"));
                std::fs::write(&src, source(&entries, &rules, t)).expect("write source");
                (t, src, out.join(format!("{name}.s")))
            })
            .collect();
    let handles: Vec<_> = jobs
        .iter()
        .map(|(_, src, asm)| {
            let (clang, arch, devlibs, src, asm) = (
                clang.clone(),
                arch.clone(),
                devlibs.clone(),
                src.clone(),
                asm.clone(),
            );
            std::thread::spawn(move || compile(&clang, &arch, &devlibs, &src, &asm))
        })
        .collect();
    for (h, (_, _, asm)) in handles.into_iter().zip(&jobs) {
        if let Err(e) = h.join().expect("compile thread") {
            eprintln!("{e}");
            std::process::exit(1);
        }
        results.push(count(&std::fs::read_to_string(asm).expect("read assembly")));
    }
    let (portable, amd) = (&results[0], &results[1]);

    let measured: Vec<Measured> = entries
        .iter()
        .enumerate()
        .map(|(k, e)| match (portable.get(&k), amd.get(&k)) {
            (Some((p, _)), Some((a, _))) => Ok((*p, *a)),
            _ => Err(e
                .amd
                .as_ref()
                .err()
                .or(e.portable.as_ref().err())
                .cloned()
                .unwrap_or_else(|| "no function in the assembly".into())),
        })
        .collect();
    let mut tsv = String::from("rule\tform\tportable\tamd\tamd_code\tcalls\n");
    let mut calls_notes = Vec::new();
    for (k, (e, m)) in entries.iter().zip(&measured).enumerate() {
        let kind = if e.same { "portable" } else { "own" };
        let mut calls: Vec<String> = Vec::new();
        for (target, map) in [("portable", portable), ("amd", amd)] {
            if let Some((_, c)) = map.get(&k) {
                calls.extend(c.iter().map(|c| format!("{target}:{c}")));
            }
        }
        if !calls.is_empty() {
            calls_notes.push(format!(
                "{} `{}` calls {}",
                e.form.rule,
                e.form.form,
                calls.join(", ")
            ));
        }
        let (p, a) = match m {
            Ok((p, a)) => (p.to_string(), a.to_string()),
            Err(_) => ("-".into(), "-".into()),
        };
        let _ = writeln!(
            tsv,
            "{}\t{}\t{p}\t{a}\t{kind}\t{}",
            e.form.rule,
            e.form.form,
            calls.join(" ")
        );
    }
    std::fs::write(out.join("counts.tsv"), tsv).expect("write counts.tsv");

    let ratio = |p: usize, a: usize| {
        if p == 0 {
            if a == 0 {
                1.0
            } else {
                f64::INFINITY
            }
        } else {
            a as f64 / p as f64
        }
    };
    let mut table = if all_forms {
        String::from(
            "| rule | first form | portable | amd | amd / portable | amd code | forms | forms amd < portable | forms amd > portable | all forms: portable | all forms: amd |\n\
             |---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|\n",
        )
    } else {
        String::from("| rule | form | portable | amd | amd / portable | amd code |\n|---|---|---:|---:|---:|---|\n")
    };
    let (mut rules_better, mut rules_equal, mut rules_worse, mut rules_own, mut rules_measured) =
        (0, 0, 0, 0, 0);
    let (mut forms_better, mut forms_worse, mut forms_measured) = (0, 0, 0);
    let mut worse_list = Vec::new();
    let mut failed = Vec::new();
    let mut i = 0;
    while i < canonical_count {
        let code = &entries[i].form.rule;
        let j = (i..canonical_count)
            .find(|&j| &entries[j].form.rule != code)
            .unwrap_or(canonical_count);
        let group: Vec<(&Entry, &Measured)> = entries[i..j].iter().zip(&measured[i..j]).collect();
        i = j;
        for (e, m) in &group {
            match m {
                Ok((p, a)) => {
                    forms_measured += 1;
                    if a < p {
                        forms_better += 1;
                    }
                    if a > p {
                        forms_worse += 1;
                        worse_list.push(format!("{} `{}` ({p} → {a})", e.form.rule, e.form.form));
                    }
                }
                Err(why) => failed.push(format!("{} `{}`: {why}", e.form.rule, e.form.form)),
            }
        }
        let Some((first, Ok((p, a)))) = group
            .iter()
            .find(|(_, m)| m.is_ok())
            .map(|(e, m)| (*e, (*m).clone()))
        else {
            continue;
        };
        rules_measured += 1;
        let own = group.iter().any(|(e, _)| !e.same);
        if own {
            rules_own += 1;
        }
        let (sp, sa): (usize, usize) = group
            .iter()
            .filter_map(|(_, m)| m.as_ref().ok())
            .fold((0, 0), |(x, y), (p, a)| (x + p, y + a));
        let (cmp_p, cmp_a) = if all_forms { (sp, sa) } else { (p, a) };
        match cmp_a.cmp(&cmp_p) {
            std::cmp::Ordering::Less => rules_better += 1,
            std::cmp::Ordering::Equal => rules_equal += 1,
            std::cmp::Ordering::Greater => rules_worse += 1,
        }
        let flag = if a > p { " **worse**" } else { "" };
        let kind = if own { "own" } else { "= portable" };
        let _ = write!(
            table,
            "| {code} | `{}` | {p} | {a} | {:.2}{flag} | {kind} |",
            first.form.form,
            ratio(p, a)
        );
        if all_forms {
            let ok: Vec<(usize, usize)> = group
                .iter()
                .filter_map(|(_, m)| m.as_ref().ok().copied())
                .collect();
            let _ = write!(
                table,
                " {} | {} | {} | {sp} | {sa} |",
                ok.len(),
                ok.iter().filter(|(p, a)| a < p).count(),
                ok.iter().filter(|(p, a)| a > p).count()
            );
        }
        table.push('\n');
    }
    let mut imm_table = String::from("| rule | form (immediate operands) | portable | amd | amd / portable |\n|---|---|---:|---:|---:|\n");
    let mut imm_worse = Vec::new();
    for (e, m) in entries[canonical_count..]
        .iter()
        .zip(&measured[canonical_count..])
    {
        match m {
            Ok((p, a)) => {
                let flag = if a > p { " **worse**" } else { "" };
                let _ = writeln!(
                    imm_table,
                    "| {} | `{}` | {p} | {a} | {:.2}{flag} |",
                    e.form.rule,
                    e.form.form,
                    ratio(*p, *a)
                );
                if a > p {
                    imm_worse.push(format!("{} `{}` ({p} → {a})", e.form.rule, e.form.form));
                }
            }
            Err(why) => failed.push(format!("{} `{}`: {why}", e.form.rule, e.form.form)),
        }
    }
    println!("{table}");
    println!(
        "Rules measured: {rules_measured} ({rules_own} with amd code of their own); {}: amd < portable {rules_better}, \
         amd = portable {rules_equal}, amd > portable {rules_worse}.",
        if all_forms { "compared over all their forms" } else { "first form" }
    );
    if all_forms {
        println!("\nForms measured: {forms_measured}; amd < portable {forms_better}, amd > portable {forms_worse}.");
    }
    if !worse_list.is_empty() {
        println!("\namd > portable: {}.", worse_list.join("; "));
    }
    if canonical_count < entries.len() {
        println!("\nImmediate-operand variants:\n\n{imm_table}");
        if !imm_worse.is_empty() {
            println!("amd > portable with immediates: {}.", imm_worse.join("; "));
        }
    }
    if !calls_notes.is_empty() {
        println!(
            "\nCalls to code outside the counted function: {}.",
            calls_notes.join("; ")
        );
    }
    if !failed.is_empty() {
        println!("\nNot measured: {}.", failed.join("; "));
    }
    if !no_form.is_empty() {
        println!("\nRules without a canonical form (operand shapes the form builder does not model): {}.", no_form.join(", "));
    }
    eprintln!("sources and assembly in {}", out.display());
}
