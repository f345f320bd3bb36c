//! The wgmma forms (rules/warpgroup.toml) translate for `--target amd` as CUTLASS writes them and
//! compile with clang-19 for gfx90a, gfx942 and gfx1100 (wave32 and wave64), warning-free under
//! `-Wall -Wextra -Werror`, each statement in a kernel of one warpgroup's worth of threads.
//!
//! `every_type_compiles_for_amd_targets` (run by `cargo test`) takes every combination of types,
//! accumulator and A source once, each at one N of a rotation that covers the smallest, the
//! largest, odd multiples of 8 and every loop unrolling (8, 24, 256, 40, 64, 16, 128, 48);
//! `every_form_compiles_for_amd_targets` (`--ignored`) takes every form the table claims.
//! Values are the business of the H100 recordings (crates/ptx2hip-verify).

use crate::common;

use std::fmt::Write as _;
use std::process::Command;

use ptx2hip_core::lower::{analyze, render, RuleSet, Target};
use ptx2hip_core::rules::{Bindings, OperandKind, Rule, TypeRef};
use ptx2hip_core::scan::AsmStatement;

/// One wgmma statement: its PTX, its operands (constraint, C++ value) and the C++ type of its
/// accumulators.
struct Statement {
    form: String,
    ptx: String,
    operands: Vec<(String, String)>,
    accumulator: &'static str,
}

/// The statement of a form as CUTLASS writes it: D `"+f"` / `"+r"` (`d[i]`), descriptors `"l"`,
/// A's registers `"r"` (`a[i]`), scale-d a predicate set from an `"r"` operand, the immediates
/// `"n"` constant expressions (imm-scale 1 or -1, imm-trans 0 or 1, alternating by `variant`).
/// Operands are (constraint, the value they are initialised with).
fn statement(rule: &Rule, form: &str, b: &Bindings, variant: usize) -> Statement {
    let mut operands: Vec<(String, String)> = Vec::new();
    let mut texts = Vec::new();
    let mut accumulator = "float";
    let mut scale_d = None;
    for spec in rule.operand_specs() {
        match &spec.kind {
            OperandKind::Fragment { shape, ty } => {
                let (n, carrier) = rule.fragment(&spec.name, shape, ty, b).expect("sized");
                let float = carrier.to_string() == "f32";
                let (letter, array) = if spec.name == "d" {
                    accumulator = match carrier.to_string().as_str() {
                        "f32" => "float",
                        "s32" => "int32_t",
                        _ => "uint32_t",
                    };
                    (if float { "+f" } else { "+r" }, "d")
                } else {
                    ("r", "a")
                };
                let first = operands.len();
                for k in 0..n as usize {
                    operands.push((letter.into(), format!("{array}[{k}]")));
                }
                let regs: Vec<String> = (first..operands.len()).map(|i| format!("%{i}")).collect();
                texts.push(format!("{{{}}}", regs.join(", ")));
            }
            OperandKind::Scalar(TypeRef::Fixed(t)) if t.to_string() == "pred" => {
                operands.push(("r".into(), "scale_d".into()));
                scale_d = Some(operands.len() - 1);
                texts.push("p".into());
            }
            OperandKind::Scalar(TypeRef::Fixed(t)) if t.to_string() == "b64" => {
                operands.push(("l".into(), format!("desc_{}", spec.name)));
                texts.push(format!("%{}", operands.len() - 1));
            }
            _ => {
                let value = match spec.name.as_str() {
                    n if n.starts_with("scale") => ["1", "-1"][variant % 2],
                    n if n.starts_with("trans") => ["0", "1"][(variant / 2) % 2],
                    _ => "0",
                };
                operands.push(("n".into(), format!("int32_t({value})")));
                texts.push(format!("%{}", operands.len() - 1));
            }
        }
    }
    let instruction = format!("{form} {};", texts.join(", "));
    let ptx = match scale_d {
        Some(k) => format!("{{ .reg .pred p; setp.ne.b32 p, %{k}, 0; {instruction} }}"),
        None => instruction,
    };
    Statement {
        form: form.to_string(),
        ptx,
        operands,
        accumulator,
    }
}

/// A form of a rule: the rule, the form's name and its slot values.
type Form<'r> = (&'r Rule, String, Bindings);

/// The wgmma.mma_async forms of the table.
fn forms(rules: &RuleSet) -> Vec<Form<'_>> {
    rules
        .rules_for("wgmma")
        .filter(|r| r.slots.iter().any(|s| s.values == ["mma_async"]))
        .flat_map(|r| r.forms().into_iter().map(move |(f, b)| (r, f, b)))
        .collect()
}

/// N of a form's shape `m64n{N}k{K}`.
fn n_of(b: &Bindings) -> u32 {
    let shape = b["shape"].as_deref().expect("shape");
    ptx2hip_core::rules::shapes::MatrixShape::parse(shape)
        .expect("m{M}n{N}k{K}")
        .n
}

/// The HIP file: one kernel per statement, its operands locals `op0`, `op1`, ... (the names
/// [`AsmStatement::synthetic`] gives them; `"n"` operands `constexpr`), its translation, and the
/// accumulators stored back; the helpers once.
fn hip_file(rules: &RuleSet, statements: &[Statement]) -> String {
    let mut kernels = String::new();
    let mut helpers = Vec::new();
    for (k, s) in statements.iter().enumerate() {
        let constraints: Vec<String> = s.operands.iter().map(|(c, _)| c.clone()).collect();
        let t = analyze(
            &AsmStatement::synthetic(&s.ptx, &constraints),
            rules,
            Target::Amd,
        )
        .outcome
        .unwrap_or_else(|u| panic!("{}: {}", s.form, u.message));
        helpers.extend(t.helpers.clone());
        let _ = writeln!(
            kernels,
            "// {}\n__global__ void __launch_bounds__(128) form_{k}({}* d, const uint32_t* a, uint64_t desc_a, uint64_t desc_b, uint32_t scale_d) {{",
            s.form, s.accumulator
        );
        for (i, (c, value)) in s.operands.iter().enumerate() {
            let ty = match c.trim_start_matches('+') {
                "f" => "float",
                "r" if c.starts_with('+') => s.accumulator,
                "r" => "uint32_t",
                "l" => "uint64_t",
                _ => "constexpr int32_t",
            };
            let _ = writeln!(kernels, "  {ty} op{i} = {value};");
        }
        let _ = writeln!(kernels, "{}", render(&t.lines, "  ", "  ").join("\n"));
        for (i, (c, value)) in s.operands.iter().enumerate() {
            if c.starts_with('+') {
                let _ = writeln!(kernels, "  {value} = op{i};");
            }
        }
        let _ = writeln!(kernels, "  (void)a; (void)desc_a; (void)scale_d;\n}}");
    }
    let mut file = String::from("#include <stdint.h>\n");
    file.push_str(&rules.helper_definitions(helpers.iter(), Target::Amd));
    file.push_str(&kernels);
    file
}

/// Compiles `file` for every AMD processor side; the failures.
fn compile_everywhere(file: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wgmma_forms.hip");
    std::fs::write(&path, file).unwrap();
    let sides = vec![
        ("gfx90a", false),
        ("gfx942", false),
        ("gfx1100", false),
        ("gfx1100", true),
    ];
    common::in_parallel(sides, |(arch, wave64)| {
        let mut cmd = Command::new("clang-19");
        cmd.args(["-x", "hip", "-std=c++17", "-include", "hip/hip_runtime.h"])
            .args(["-nogpulib", "-Wall", "-Wextra", "-Werror"])
            .arg(format!("--offload-arch={arch}"));
        if wave64 {
            cmd.arg("-mwavefrontsize64");
        }
        let out = cmd
            .args(["--cuda-device-only", "-O2", "-S", "-o", "/dev/null"])
            .arg(&path)
            .output()
            .expect("clang-19 runs");
        (!out.status.success()).then(|| {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let head: Vec<&str> = stderr.lines().take(20).collect();
            format!("{arch} wave64={wave64}: {}", head.join("\n"))
        })
    })
    .into_iter()
    .flatten()
    .collect()
}

/// N values in the order forms take them: every unrolling of the block loop (N/8 divisible by 4,
/// 2 or neither), the smallest and the largest N, fragments of non-power-of-two size.
const N_ROTATION: [u32; 8] = [8, 24, 256, 40, 64, 16, 128, 48];

#[test]
fn every_type_compiles_for_amd_targets() {
    if !common::require(&["clang-19"], "the wgmma AMD compile check") {
        return;
    }
    let rules = RuleSet::embedded().unwrap();
    // The forms of each rule with the same slot values but the shape, in table order.
    let mut groups: Vec<((String, String), Vec<Form>)> = Vec::new();
    for (rule, form, b) in forms(&rules) {
        let types: Vec<String> = b
            .iter()
            .filter(|(slot, _)| slot.as_str() != "shape")
            .map(|(s, v)| format!("{s}={v:?}"))
            .collect();
        let key = (rule.code.clone(), types.join(","));
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push((rule, form, b)),
            None => groups.push((key, vec![(rule, form, b)])),
        }
    }
    // Group i takes the first N of the rotation from position i that it has.
    let statements: Vec<Statement> = groups
        .iter()
        .enumerate()
        .map(|(i, (_, members))| {
            let (rule, form, b) = (0..N_ROTATION.len())
                .map(|s| N_ROTATION[(i + s) % N_ROTATION.len()])
                .find_map(|n| members.iter().find(|(_, _, b)| n_of(b) == n))
                .expect("a form with an N of the rotation");
            statement(rule, form, b, i)
        })
        .collect();
    assert!(statements.len() >= 40, "{} forms", statements.len());
    let failures = compile_everywhere(&hip_file(&rules, &statements));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
#[ignore = "every form: about 1,100 statements, minutes of compilation per processor"]
fn every_form_compiles_for_amd_targets() {
    if !common::require(&["clang-19"], "the wgmma AMD compile check") {
        return;
    }
    let rules = RuleSet::embedded().unwrap();
    let statements: Vec<Statement> = forms(&rules)
        .into_iter()
        .enumerate()
        .map(|(k, (rule, form, b))| statement(rule, &form, &b, k))
        .collect();
    let mut failures = Vec::new();
    for chunk in statements.chunks(64) {
        failures.extend(compile_everywhere(&hip_file(&rules, chunk)));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
