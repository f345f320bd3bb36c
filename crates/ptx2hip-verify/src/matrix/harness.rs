//! The CUDA programs that record the `mma` forms on an NVIDIA GPU, and their import.
//!
//! `write_programs(dir)` writes per form `k` the kernel file `fK.cu` (one warp per case, every
//! lane stores every output register), its inputs `in/fK.bin` (`u32 cases, u32 in_words,
//! u32 out_words`, then per case and lane the words of [`Case::lane_words`]), `forms.tsv`,
//! the driver `main.cu` and `run.sh`. `run.sh` compiles every form on its own (a form ptxas
//! refuses costs only itself), links those that compiled into one program and runs it once:
//! one CUDA context for all forms, well under a second of GPU time.

use std::fmt::Write as _;
use std::path::Path;

use ptx2hip_core::lower::RuleSet;
use serde_json::json;

use super::cases::{generate, inputs_digest, Case};
use super::forms::{all_forms, Elem, MmaForm, Operand};
use crate::warp::record::{RecordedForm, Recording};

/// The CUDA source of form `k`.
pub fn program(form: &MmaForm, k: usize) -> String {
    let (nin, nout) = (form.in_words(), form.out_words());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// {}\n#include <cstdint>\n#include <cuda_runtime.h>",
        form.name()
    );
    s.push_str(
        "__global__ static void form_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, int cases) {\n",
    );
    s.push_str("  const int w = (int)((blockIdx.x * blockDim.x + threadIdx.x) >> 5);\n");
    s.push_str("  const int lane = (int)(threadIdx.x & 31u);\n");
    s.push_str("  if (w >= cases) return;\n");
    let _ = writeln!(
        s,
        "  const uint32_t* x = in + ((size_t)w * 32 + lane) * {nin};"
    );
    let _ = writeln!(s, "  uint32_t* y = out + ((size_t)w * 32 + lane) * {nout};");
    let ty = |op: Operand| match form.constraint(op) {
        "f" => "float",
        "d" => "double",
        _ => "uint32_t",
    };
    let (mut outs, mut ins) = (Vec::new(), Vec::new());
    for r in 0..form.regs(Operand::D) {
        let _ = writeln!(s, "  {} o{r};", ty(Operand::D));
        outs.push(format!("\"={}\"(o{r})", form.constraint(Operand::D)));
    }
    let mut word = 0;
    for op in [Operand::A, Operand::B, Operand::C] {
        for _ in 0..form.regs(op) {
            let v = match form.constraint(op) {
                "f" => format!("\"f\"(__uint_as_float(x[{word}]))"),
                "d" => format!(
                    "\"d\"(__longlong_as_double((long long)((uint64_t)x[{word}] | ((uint64_t)x[{}] << 32))))",
                    word + 1
                ),
                _ => format!("\"r\"(x[{word}])"),
            };
            ins.push(v);
            word += form.reg_words(op);
        }
    }
    let _ = writeln!(
        s,
        "  asm volatile(\"{}\" : {} : {});",
        form.ptx(),
        outs.join(", "),
        ins.join(", ")
    );
    let mut at = 0;
    for r in 0..form.regs(Operand::D) {
        match form.elem(Operand::D) {
            Elem::F64 => {
                let _ = writeln!(
                    s,
                    "  {{ const uint64_t v = (uint64_t)__double_as_longlong(o{r}); y[{at}] = (uint32_t)v; y[{}] = (uint32_t)(v >> 32); }}",
                    at + 1
                );
            }
            Elem::F32 => {
                let _ = writeln!(s, "  y[{at}] = __float_as_uint(o{r});");
            }
            _ => {
                let _ = writeln!(s, "  y[{at}] = o{r};");
            }
        }
        at += form.reg_words(Operand::D);
    }
    s.push_str("}\n");
    let _ = writeln!(
        s,
        "extern \"C\" int run_f{k}(const uint32_t* in, uint32_t* out, int cases) {{\n  form_kernel<<<(unsigned)((cases * 32 + 127) / 128), 128>>>(in, out, cases);\n  return (int)cudaDeviceSynchronize();\n}}"
    );
    s
}

const MAIN_CU: &str = r#"// Runs every form that compiled (table.h, written by run.sh): in/fK.bin -> $RES/fK.out.
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#define RUN(b) extern "C" int run_##b(const uint32_t*, uint32_t*, int);
#include "table.h"
#undef RUN
struct Form { const char* name; int (*run)(const uint32_t*, uint32_t*, int); };
#define RUN(b) {#b, run_##b},
static const Form forms[] = {
#include "table.h"
};
#undef RUN
int main(int argc, char** argv) {
  if (argc != 2) return 2;
  int failed = 0;
  for (const Form& f : forms) {
    char path[512];
    snprintf(path, sizeof path, "in/%s.bin", f.name);
    FILE* in = fopen(path, "rb");
    uint32_t hdr[3];
    if (!in || fread(hdr, 4, 3, in) != 3) return 2;
    const size_t cases = hdr[0], nin = hdr[1], nout = hdr[2];
    std::vector<uint32_t> x(cases * 32 * nin), y(cases * 32 * nout, 0u);
    if (fread(x.data(), 4, x.size(), in) != x.size()) return 2;
    fclose(in);
    uint32_t *dx, *dy;
    if (cudaMalloc(&dx, x.size() * 4) != cudaSuccess || cudaMalloc(&dy, y.size() * 4) != cudaSuccess) return 3;
    cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice);
    cudaMemset(dy, 0, y.size() * 4);
    const int e = f.run(dx, dy, (int)cases);
    if (e != 0) {
      fprintf(stderr, "%s: %s\n", f.name, cudaGetErrorString((cudaError_t)e));
      failed++;
    } else {
      cudaMemcpy(y.data(), dy, y.size() * 4, cudaMemcpyDeviceToHost);
      snprintf(path, sizeof path, "%s/%s.out", argv[1], f.name);
      FILE* out = fopen(path, "wb");
      if (!out || fwrite(y.data(), 4, y.size(), out) != y.size()) return 5;
      fclose(out);
    }
    cudaFree(dx);
    cudaFree(dy);
  }
  return failed ? 4 : 0;
}
"#;

const RUN_SH: &str = r#"#!/bin/bash
# Records every mma form on the local NVIDIA GPU: RES=<dir> bash run.sh (default res/).
set -u
cd "$(dirname "$0")"
RES=${RES:-res}
mkdir -p "$RES"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$RES/gpu.txt" 2>&1
nvcc --version | grep -E "release|Build" | tr '\n' ' ' > "$RES/nvcc.txt"
date -u +%Y-%m-%d > "$RES/date.txt"
ARCH=${ARCH:-sm_90}
echo "$ARCH" > "$RES/arch.txt"
cp forms.tsv "$RES/forms.tsv"
rm -f f*.o
ls f*.cu | sed 's/\.cu$//' | xargs -P "${JOBS:-16}" -I{} sh -c "nvcc -O2 -arch=$ARCH -c -o {}.o {}.cu 2> $RES/{}.cerr || rm -f {}.o"
: > table.h
for o in f*.o; do echo "RUN(${o%.o})" >> table.h; done
nvcc -O2 -arch=$ARCH -o record main.cu f*.o 2> "$RES/link.err" || exit 1
time ./record "$RES" 2> "$RES/run.err"
echo "recorded $(ls "$RES"/*.out | wc -l) forms of $(ls f*.cu | wc -l)"
"#;

/// The bytes of a form's input file.
pub fn input_file(form: &MmaForm, cases: &[Case]) -> Vec<u8> {
    let mut v = Vec::new();
    for h in [cases.len(), form.in_words(), form.out_words()] {
        v.extend_from_slice(&(h as u32).to_le_bytes());
    }
    for c in cases {
        for lane in 0..32 {
            for w in c.lane_words(form, lane) {
                v.extend_from_slice(&w.to_le_bytes());
            }
        }
    }
    v
}

/// Writes the programs, inputs, `forms.tsv`, `main.cu` and `run.sh` of every form whose name
/// contains `only` to `dir` (a new form is recorded alone; [`import`] keeps the others).
pub fn write_programs(dir: &Path, only: &str) -> Result<usize, String> {
    let io = |e: std::io::Error| e.to_string();
    std::fs::create_dir_all(dir.join("in")).map_err(io)?;
    let mut tsv = String::new();
    let forms: Vec<MmaForm> = all_forms()
        .into_iter()
        .filter(|f| f.name().contains(only))
        .collect();
    for (k, form) in forms.iter().enumerate() {
        let cases = generate(form);
        std::fs::write(dir.join(format!("f{k}.cu")), program(form, k)).map_err(io)?;
        std::fs::write(dir.join(format!("in/f{k}.bin")), input_file(form, &cases)).map_err(io)?;
        let _ = writeln!(tsv, "f{k}\t{}\t{}", cases.len(), form.name());
    }
    std::fs::write(dir.join("forms.tsv"), tsv).map_err(io)?;
    std::fs::write(dir.join("main.cu"), MAIN_CU).map_err(io)?;
    std::fs::write(dir.join("run.sh"), RUN_SH).map_err(io)?;
    Ok(forms.len())
}

/// The code of the rule that translates `form`, or empty for a form recorded but refused.
fn rule_of(rules: &RuleSet, form: &MmaForm) -> String {
    rules
        .rules_for("mma")
        .find(|r| r.forms().iter().any(|(n, _)| *n == form.name()))
        .map(|r| r.code.clone())
        .unwrap_or_default()
}

/// Gives every form of `recording` the rule that translates it now (the evidence table counts
/// recorded warps by that field): a form recorded while refused (fp8 before X008) keeps its
/// outputs and gains its rule. Returns the forms whose rule changed.
pub fn retag(recording: &mut Recording) -> Result<Vec<String>, String> {
    let rules = RuleSet::embedded().map_err(|e| e.to_string())?;
    let catalog = all_forms();
    let mut changed = Vec::new();
    for r in &mut recording.forms {
        let Some(form) = catalog.iter().find(|f| f.name() == r.name) else {
            continue;
        };
        let rule = rule_of(&rules, form);
        if rule != r.rule {
            changed.push(format!("{}: {:?} -> {rule:?}", r.name, r.rule));
            r.rule = rule;
        }
    }
    Ok(changed)
}

/// What an import found.
pub struct Imported {
    pub recording: Recording,
    /// `(form name, compiler or run error)` for forms without outputs.
    pub missing: Vec<(String, String)>,
}

/// Reads the outputs in `res` (written by `run.sh` for the programs of [`write_programs`]); a
/// form this run did not record keeps its outputs from `earlier`, the recording it adds to.
pub fn import(res: &Path, earlier: Option<&Recording>) -> Result<Imported, String> {
    let read = |name: &str| {
        std::fs::read_to_string(res.join(name))
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    };
    let gpu = read("gpu.txt");
    let (name, driver) = gpu.split_once(',').unwrap_or((gpu.as_str(), ""));
    let header = json!({
        "gpu": name.trim(),
        "driver": driver.trim(),
        "nvcc": read("nvcc.txt"),
        "date": read("date.txt"),
        "arch": read("arch.txt"),
    });
    // `fK` of the run, by form name (`forms.tsv`, which run.sh copies); else the index of today.
    let index: Vec<String> = read("forms.tsv")
        .lines()
        .filter_map(|l| l.split('\t').nth(2).map(String::from))
        .collect();
    let rules = RuleSet::embedded().map_err(|e| e.to_string())?;
    let mut forms = Vec::new();
    let mut missing = Vec::new();
    for (today, form) in all_forms().iter().enumerate() {
        let k = if index.is_empty() {
            today
        } else {
            match index.iter().position(|n| *n == form.name()) {
                Some(k) => k,
                None => {
                    match earlier.and_then(|r| r.form(&form.name())) {
                        Some(r) => forms.push(r.clone()),
                        None => missing.push((form.name(), "not recorded yet".to_string())),
                    }
                    continue;
                }
            }
        };
        let cases = generate(form);
        let want = cases.len() * 32 * form.out_words() * 4;
        match std::fs::read(res.join(format!("f{k}.out"))) {
            Ok(bytes) if bytes.len() == want => forms.push(RecordedForm {
                name: form.name(),
                rule: rule_of(&rules, form),
                ptx: form.ptx(),
                constraints: form.constraints(),
                cases: cases.len(),
                out_words: form.out_words(),
                inputs_digest: inputs_digest(form, &cases),
                outputs: bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            }),
            _ => {
                let why = read(&format!("f{k}.cerr"));
                let why = if why.is_empty() { read("run.err") } else { why };
                missing.push((form.name(), why));
            }
        }
    }
    Ok(Imported {
        recording: Recording { header, forms },
        missing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_binds_every_register_with_its_type() {
        let forms = all_forms();
        let (k, f) = forms
            .iter()
            .enumerate()
            .find(|(_, f)| f.name() == "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64")
            .unwrap();
        let p = program(f, k);
        assert!(p.contains(r#""=d"(o0), "=d"(o1)"#), "{p}");
        assert!(p.contains(&format!("run_f{k}(")), "{p}");
        let f = forms
            .iter()
            .find(|f| f.name() == "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")
            .unwrap();
        let p = program(f, 0);
        assert!(
            p.contains(r#""r"(x[0])"#) && p.contains(r#""f"(__uint_as_float(x[6]))"#),
            "{p}"
        );
    }
}
