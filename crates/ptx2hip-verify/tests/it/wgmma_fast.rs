//! The `--fast` wgmma helper (`rules/helpers/warpgroup_fast.h`):
//!
//! - it moves data right: `tests/wave_sim/wgmma_fast_check.cpp` runs it on the lockstep wave
//!   model (`tests/wave_sim/sim.h`, with its MFMA and WMMA models) for a whole warpgroup, A and B
//!   in shared memory through descriptors of every swizzle mode and both majors (or A in
//!   registers), random small integers whose products and sums are exact, and compares every
//!   accumulator register with the plain matrix product; a partial wave must take the exact path.
//!   Each processor's code is compiled by defining its macros: gfx942 and gfx90a (MFMA, wave64,
//!   two warps in the halves; they differ in tf32), gfx1100 (WMMA, wave32) and gfx1100 built for
//!   wave64 (the fmaf path);
//! - it compiles without warnings for gfx90a, gfx942, gfx1100 and gfx1100 in wave64, without
//!   scratch memory, in fewer instructions than the exact helpers (the table of
//!   docs/WGMMA_FAST.md: static instructions per wgmma for N = 8, 64, 256);
//! - `--fast` translates every float wgmma rule (Y001–Y006) through it, and the translated
//!   statements (operand glue, the whole-wave test, the exact path beside it) compile for the
//!   same processors.
//!
//! Needs clang-19 (the helpers use clang's vector types): without it skipped with a note, or a
//! failure when `CI` is set.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use ptx2hip_core::lower::{self, RuleSet, Settings, Target, TensorModel};
use ptx2hip_core::scan::AsmStatement;

/// The helpers the rules' fast templates call.
const FAST: [&str; 2] = ["ptx2hip_wave_full", "ptx2hip_wgmma_fast"];

/// Helpers the simulation replaces by host shims over its shared-memory buffer, and the vector
/// type the shims return (defined before them).
const SHIMMED: [&str; 5] = [
    "ptx2hip_vec",
    "ptx2hip_lds_load_u16",
    "ptx2hip_lds_load_u32",
    "ptx2hip_lds_load_u32x2",
    "ptx2hip_lds_load_u32x4",
];

fn sim_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/wave_sim")
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn fast_wgmma_helper_gives_the_matrix_product_on_every_wave_shape() {
    if !common::require(&["clang++-19"], "the --fast wgmma simulation") {
        return;
    }
    // (processor, the macros its compile defines, wave size).
    let processors: [(&str, &[&str], u32); 4] = [
        ("gfx942", &["-D__gfx942__"], 64),
        ("gfx90a", &["-D__gfx90a__"], 64),
        ("gfx1100", &["-D__gfx1100__", "-D__GFX11__"], 32),
        (
            "gfx1100 -mwavefrontsize64",
            &["-D__gfx1100__", "-D__GFX11__"],
            64,
        ),
    ];
    let rules = RuleSet::embedded().expect("rule table loads");
    let names: Vec<String> = FAST.iter().map(|s| s.to_string()).collect();
    let mut helpers = String::new();
    for name in rules.helper_closure(names.iter()) {
        if !SHIMMED.contains(&name.as_str()) {
            helpers.push_str(rules.helpers[&name].definition(Target::Amd).trim());
            helpers.push('\n');
        }
    }
    let vec = rules.helper_definitions([String::from("ptx2hip_vec")].iter(), Target::Amd);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("wgmma_fast_helpers.h"), helpers).unwrap();
    std::fs::write(dir.path().join("wgmma_fast_vec.h"), vec).unwrap();
    for (name, macros, wave) in processors {
        let bin = dir.path().join(name.replace(' ', "_"));
        run(
            Command::new("clang++-19")
                .args(["-std=c++17", "-O1", "-w", "-I"])
                .arg(sim_dir())
                .arg("-I")
                .arg(dir.path())
                .args(macros)
                .arg(format!("-D__AMDGCN_WAVEFRONT_SIZE={wave}"))
                .arg(format!("-DWAVE_SIZE={wave}"))
                .arg(sim_dir().join("wgmma_fast_check.cpp"))
                .arg("-o")
                .arg(&bin),
            &format!("{name}: compiling the check"),
        );
        run(&mut Command::new(&bin), name);
    }
}

/// Per kernel `count_NAME` in `asm`: its machine instructions, counted as `isa_count` counts
/// (between the label and `.Lfunc_end`) less the global loads and stores of the harness, and how
/// many of them touch scratch memory.
fn counts(asm: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut current: Option<(String, usize, usize)> = None;
    for line in asm.lines() {
        if let Some(name) = line
            .strip_prefix("count_")
            .and_then(|l| l.split(':').next())
        {
            if line.contains(':') {
                current = Some((name.to_string(), 0, 0));
                continue;
            }
        }
        if line.starts_with(".Lfunc_end") {
            out.extend(current.take());
            continue;
        }
        let Some((_, n, scratch)) = current.as_mut() else {
            continue;
        };
        let code = line.split(';').next().unwrap_or("").trim();
        let instruction = line.starts_with('\t')
            && !code.is_empty()
            && !code.starts_with('.')
            && !code.starts_with("global_")
            && !code.starts_with("flat_");
        *n += usize::from(instruction);
        *scratch += usize::from(
            instruction && (code.starts_with("scratch_") || code.starts_with("buffer_")),
        );
    }
    out
}

/// The forms counted: (name, format, accumulator, A's C++ type, the exact call).
const COUNTED: [(&str, &str, &str, &str, &str); 5] = [
    ("f32_f16", "f16", "acc_f32", "uint64_t", "ptx2hip_wgmma_x2<ptx2hip_mma_tc::f16, ptx2hip_mma_tc::acc_f32>(d, a, b, s, 1, 1, 0, 0)"),
    ("f32_f16_rs", "f16", "acc_f32", "ptx2hip_vec<uint32_t, 4>", "ptx2hip_wgmma_x2<ptx2hip_mma_tc::f16, ptx2hip_mma_tc::acc_f32>(d, a, b, s, 1, 1, 0, 0)"),
    ("f16_f16", "f16", "acc_f16", "uint64_t", "ptx2hip_wgmma_x2<ptx2hip_mma_tc::f16, ptx2hip_mma_tc::acc_f16>(d, a, b, s, 1, 1, 0, 0)"),
    ("f32_bf16", "bf16", "acc_f32", "uint64_t", "ptx2hip_wgmma_x2<ptx2hip_mma_tc::bf16, ptx2hip_mma_tc::acc_f32>(d, a, b, s, 1, 1, 0, 0)"),
    ("f32_tf32", "tf32", "acc_f32", "uint64_t", "ptx2hip_wgmma_terms<ptx2hip_mma_tc::tf32, ptx2hip_mma_tc::tf32, ptx2hip_mma_tc::acc_f32>(d, a, b, s, 1, 1)"),
];

/// One kernel per form, N and path: it loads the fragment, runs one wgmma and stores the
/// fragment, in blocks of at most 384 threads (three warpgroups, as CUTLASS's warp-specialized
/// Hopper kernels have: with the default bound of 1024 an N = 256 f32 fragment alone fills the
/// 128 registers a thread may have and spills; with fewer than 384 CDNA keeps MFMA accumulators
/// in AGPRs and adds two moves per register). Under `-nogpulib` threadIdx and blockDim would be calls into the device library;
/// they are read here as the library inlines them (the work-item id registers, the dispatch
/// packet), so that the counts are those of real code.
fn count_unit(rules: &RuleSet) -> String {
    let names = [
        "ptx2hip_mma_tc",
        "ptx2hip_wgmma_fast",
        "ptx2hip_wgmma_x2",
        "ptx2hip_wgmma_terms",
    ]
    .map(String::from);
    let mut unit = String::from(
        "#include <stdint.h>\n\
         struct count_dim3 { uint32_t x, y, z; };\n\
         __device__ inline count_dim3 count_thread() { return {__builtin_amdgcn_workitem_id_x(), \
         __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z()}; }\n\
         __device__ inline count_dim3 count_block() { return {__builtin_amdgcn_workgroup_size_x(), \
         __builtin_amdgcn_workgroup_size_y(), __builtin_amdgcn_workgroup_size_z()}; }\n\
         #define threadIdx (count_thread())\n#define blockDim (count_block())\n",
    );
    unit.push_str(&rules.helper_definitions(names.iter(), Target::Amd));
    for (form, f, acc, a, exact) in COUNTED {
        for n in [8, 64, 256] {
            let d = if acc == "acc_f16" {
                format!("ptx2hip_vec<uint32_t, {}>", n / 4)
            } else {
                format!("ptx2hip_vec<float, {}>", n / 2)
            };
            let fast = format!(
                "ptx2hip_wgmma_fast<ptx2hip_mma_tc::{f}, ptx2hip_mma_tc::{acc}>(d, a, b, s, 1, 1, \
                 0, 0)"
            );
            for (path, call) in [("fast", fast.as_str()), ("exact", exact)] {
                unit.push_str(&format!(
                    "extern \"C\" __global__ __attribute__((amdgpu_flat_work_group_size(1, 384))) \
                     void count_{path}_{form}_n{n}({d}* p, const {a}* q, \
                     uint64_t b, int flag) {{ {d} d = p[threadIdx.x]; const {a} a = *q; \
                     const bool s = flag != 0; d = {call}; p[threadIdx.x] = d; }}\n"
                ));
            }
        }
    }
    unit
}

fn compile_counts(dir: &Path, processor: &str, wave: Option<&str>) -> Vec<(String, usize, usize)> {
    let asm = dir.join(format!("{processor}{}.s", wave.unwrap_or("")));
    run(
        Command::new("clang-19")
            .args(["-x", "hip", "-std=c++17", "-include", "hip/hip_runtime.h"])
            .args(["--cuda-device-only", "-nogpulib", "-O2", "-S"])
            .args(["-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter"])
            .arg(format!("--offload-arch={processor}"))
            .args(wave)
            .arg("-o")
            .arg(&asm)
            .arg(dir.join("count.hip")),
        &format!("{processor} {}", wave.unwrap_or("")),
    );
    counts(&std::fs::read_to_string(&asm).unwrap())
}

#[test]
fn fast_wgmma_helper_compiles_without_scratch_and_beats_the_exact_path() {
    if !common::require(&["clang-19"], "the --fast wgmma compile check") {
        return;
    }
    let rules = RuleSet::embedded().expect("rule table loads");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("count.hip"), count_unit(&rules)).unwrap();
    let builds = [
        ("gfx90a", None),
        ("gfx942", None),
        ("gfx1100", None),
        ("gfx1100", Some("-mwavefrontsize64")),
    ];
    let mut report = String::new();
    let mut wrong = Vec::new();
    for (processor, wave) in builds {
        let counted = compile_counts(dir.path(), processor, wave);
        let counted: HashMap<String, (usize, usize)> =
            counted.into_iter().map(|(k, n, s)| (k, (n, s))).collect();
        for (form, ..) in COUNTED {
            for n in [8, 64, 256] {
                let kernel = |path: &str| {
                    counted
                        .get(&format!("{path}_{form}_n{n}"))
                        .copied()
                        .unwrap_or_else(|| panic!("{processor}: no kernel {path}_{form}_n{n}"))
                };
                let ((fast, scratch), (exact, _)) = (kernel("fast"), kernel("exact"));
                report.push_str(&format!(
                    "{processor}{} {form} N={n}: fast {fast}, exact {exact}\n",
                    wave.map_or(String::new(), |w| format!(" {w}"))
                ));
                if scratch > 0 {
                    wrong.push(format!(
                        "{processor} {form} N={n}: {scratch} scratch instructions"
                    ));
                }
                if fast >= exact {
                    wrong.push(format!(
                        "{processor} {form} N={n}: fast {fast} >= exact {exact}"
                    ));
                }
            }
        }
    }
    eprint!("{report}");
    assert!(wrong.is_empty(), "{wrong:?}\n{report}");
}

/// Statements of the rules with a fast tier: (shape and types, N, the accumulator constraint,
/// its registers per 8 columns, A in registers, the operands after A and B). Widths with an odd
/// number of 8-column blocks, both A sources, MN-major and negated operands.
#[rustfmt::skip]
const STATEMENTS: [(&str, usize, &str, usize, bool, &str); 9] = [
    ("m64n8k16.f32.f16.f16", 8, "+f", 4, false, "p, 1, 1, 0, 0"),
    ("m64n24k16.f32.f16.f16", 24, "+f", 4, false, "p, -1, 1, 1, 1"),
    ("m64n256k16.f32.f16.f16", 256, "+f", 4, true, "p, 1, -1, 1"),
    ("m64n16k16.f16.f16.f16", 16, "+r", 2, false, "p, 1, 1, 0, 1"),
    ("m64n64k16.f16.f16.f16", 64, "+r", 2, true, "p, 1, 1, 0"),
    ("m64n40k16.f32.bf16.bf16", 40, "+f", 4, false, "p, 1, 1, 1, 0"),
    ("m64n8k16.f32.bf16.bf16", 8, "+f", 4, true, "p, -1, -1, 1"),
    ("m64n24k8.f32.tf32.tf32", 24, "+f", 4, false, "p, 1, -1"),
    ("m64n256k8.f32.tf32.tf32", 256, "+f", 4, true, "p, 1, 1"),
];

#[test]
fn fast_translations_of_every_float_wgmma_rule_compile_for_every_processor() {
    if !common::require(&["clang-19"], "the --fast wgmma translation compile") {
        return;
    }
    let rules = RuleSet::embedded().expect("rule table loads");
    let settings = Settings {
        target: Target::Amd,
        tensor_model: TensorModel::Sm90,
        fast: true,
        evidence: Default::default(),
    };
    let mut helpers = Vec::new();
    let mut kernels = String::new();
    let mut fast_rules = Vec::new();
    for (k, (form, n, acc, per8, regs_a, rest)) in STATEMENTS.into_iter().enumerate() {
        let nd = n / 8 * per8;
        let d: Vec<String> = (0..nd).map(|i| format!("%{i}")).collect();
        let (a, mut constraints) = if regs_a {
            let a: Vec<String> = (nd..nd + 4).map(|i| format!("%{i}")).collect();
            (format!("{{{}}}", a.join(", ")), vec!["r"; 4])
        } else {
            (format!("%{nd}"), vec!["l"])
        };
        let b = nd + constraints.len();
        let ptx = format!(
            "{{ .reg .pred p; setp.ne.b32 p, %{}, 0; wgmma.mma_async.sync.aligned.{form} {{{}}}, \
             {a}, %{b}, {rest}; }}",
            b + 1,
            d.join(", ")
        );
        constraints.extend(["l", "r"]);
        let all: Vec<String> = std::iter::repeat_n(acc, nd)
            .chain(constraints)
            .map(String::from)
            .collect();
        let t = lower::analyze(&AsmStatement::synthetic(&ptx, &all), &rules, settings)
            .outcome
            .unwrap_or_else(|u| panic!("{form}: not translated: {}", u.message));
        assert!(
            t.fast.len() == 1 && t.fast[0].starts_with('Y'),
            "{form}: the fast tier was not taken: {:?}",
            t.rules
        );
        fast_rules.extend(t.fast.iter().cloned());
        helpers.extend(t.helpers.iter().cloned());
        let ty = |c: &str| match c {
            "+f" => "float",
            "l" => "uint64_t",
            _ => "uint32_t",
        };
        let params: Vec<String> = all
            .iter()
            .enumerate()
            .skip(nd)
            .map(|(i, c)| format!("{} op{i}", ty(c.as_str())))
            .collect();
        kernels.push_str(&format!(
            "// {ptx}\nextern \"C\" __global__ void form_{k}({}* out, {}) {{\n",
            ty(acc),
            params.join(", ")
        ));
        for i in 0..nd {
            kernels.push_str(&format!("  {} op{i} = out[{i}];\n", ty(acc)));
        }
        for line in lower::render(&t.lines, "  ", "  ") {
            kernels.push_str(&line);
            kernels.push('\n');
        }
        for i in 0..nd {
            kernels.push_str(&format!("  out[{i}] = op{i};\n"));
        }
        kernels.push_str("}\n");
    }
    fast_rules.sort();
    fast_rules.dedup();
    assert_eq!(fast_rules, ["Y001", "Y002", "Y003", "Y004", "Y005", "Y006"]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fast.hip");
    let mut unit = String::from("#include <hip/hip_runtime.h>\n#include <stdint.h>\n");
    unit.push_str(&rules.helper_definitions(helpers.iter(), Target::Amd));
    unit.push_str(&kernels);
    std::fs::write(&file, unit).unwrap();
    let processors: [&[&str]; 4] = [
        &["--offload-arch=gfx90a"],
        &["--offload-arch=gfx942"],
        &["--offload-arch=gfx1100"],
        &["--offload-arch=gfx1100", "-mwavefrontsize64"],
    ];
    for arch in processors {
        run(
            Command::new("clang-19")
                .args(["-x", "hip", "-std=c++17", "--cuda-device-only", "-nogpulib"])
                .args([
                    "-O1",
                    "-S",
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    "-o",
                    "/dev/null",
                ])
                .args(arch)
                .arg(&file),
            &format!("{arch:?}"),
        );
    }
}
