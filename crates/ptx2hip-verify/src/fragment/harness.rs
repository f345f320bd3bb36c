//! The CUDA program that records every fragment form on an NVIDIA GPU, and the import of its
//! results into `tests/vectors/fragment/fragment.bin.gz` (the per-warp format of
//! `crate::warp::Recording`).
//!
//! One program holds one kernel per form; each block of 32 threads is one case: it copies the
//! case's tile into shared memory, runs the statement with the lane's row address (a shared
//! window address, or a generic pointer), and stores the lane's outputs (`stmatrix`: its eight
//! words of the tile afterwards).

use std::fmt::Write as _;
use std::path::Path;

use serde_json::json;

use super::cases::CASE_WORDS;
use super::{all_forms, generate, inputs_digest, Form, Op, Space, TILE_WORDS, WARP};
use crate::warp::{RecordedForm, Recording};

/// The kernel of form `k`.
fn kernel(k: usize, form: &Form) -> String {
    let mut s = String::new();
    let ow = form.out_words();
    let _ = writeln!(s, "// {}", form.ptx());
    let _ = writeln!(
        s,
        "__global__ void form_{k}(const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {{"
    );
    s.push_str(
        "  __shared__ __align__(16) uint32_t tile[TILE_WORDS];\n  \
         const uint32_t* c = in + (size_t)blockIdx.x * CASE_WORDS;\n  \
         const int l = threadIdx.x;\n  \
         for (int w = l; w < TILE_WORDS; w += 32) tile[w] = c[5 * 32 + w];\n  \
         __syncthreads();\n  \
         const uint32_t* r = c + 32 + 4 * l;\n",
    );
    let _ = writeln!(
        s,
        "  uint32_t* o = out + ((size_t)blockIdx.x * 32 + l) * {ow};"
    );
    let addr = match form.space {
        Space::Generic => "  const uint64_t a = (uint64_t)((char*)tile + c[l]);\n",
        _ => "  const uint32_t a = (uint32_t)__cvta_generic_to_shared(tile) + c[l];\n",
    };
    let ac = if form.space == Space::Generic {
        "l"
    } else {
        "r"
    };
    let ptx = form.ptx();
    match form.op {
        Op::Ld => {
            s.push_str(addr);
            let _ = writeln!(s, "  uint32_t d[4] = {{0, 0, 0, 0}};");
            let outs: Vec<String> = (0..form.num).map(|i| format!("\"=r\"(d[{i}])")).collect();
            let _ = writeln!(
                s,
                "  asm volatile(\"{ptx}\" : {} : \"{ac}\"(a) : \"memory\");",
                outs.join(", ")
            );
            let _ = writeln!(s, "  for (int i = 0; i < {}; i++) o[i] = d[i];", form.num);
        }
        Op::St => {
            s.push_str(addr);
            let ins: Vec<String> = (0..form.num).map(|i| format!("\"r\"(r[{i}])")).collect();
            let _ = writeln!(
                s,
                "  asm volatile(\"{ptx}\" : : \"{ac}\"(a), {} : \"memory\");",
                ins.join(", ")
            );
            let _ = writeln!(
                s,
                "  __syncthreads();\n  for (int i = 0; i < {ow}; i++) o[i] = tile[{ow} * l + i];"
            );
        }
        Op::Mov => {
            let _ = writeln!(
                s,
                "  uint32_t d;\n  asm volatile(\"{ptx}\" : \"=r\"(d) : \"r\"(r[0]));\n  o[0] = d;"
            );
        }
    }
    s.push_str("}\n");
    s
}

/// The whole program: kernels, and a `main` that runs each form over its cases
/// (`main IN OUT`: IN the cases' words form by form, OUT the outputs form by form).
pub fn program() -> String {
    let forms = all_forms();
    let mut s = format!(
        "// Records every form of rules/fragment.toml (crates/ptx2hip-verify/src/fragment/harness.rs).\n\
         #include <cstdint>\n#include <cstdio>\n#include <vector>\n\
         #define TILE_WORDS {TILE_WORDS}\n#define CASE_WORDS {CASE_WORDS}\n"
    );
    for (k, f) in forms.iter().enumerate() {
        s.push_str(&kernel(k, f));
    }
    s.push_str("typedef void (*kernel_fn)(const uint32_t*, uint32_t*);\n");
    let _ = writeln!(
        s,
        "static const kernel_fn kernels[] = {{ {} }};",
        (0..forms.len())
            .map(|k| format!("form_{k}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let cases: Vec<String> = forms
        .iter()
        .map(|f| generate(f).len().to_string())
        .collect();
    let ows: Vec<String> = forms.iter().map(|f| f.out_words().to_string()).collect();
    let _ = writeln!(
        s,
        "static const int cases[] = {{ {} }};\nstatic const int out_words[] = {{ {} }};",
        cases.join(", "),
        ows.join(", ")
    );
    s.push_str(
        r#"int main(int argc, char** argv) {
  if (argc != 3) return 2;
  FILE* fi = fopen(argv[1], "rb");
  FILE* fo = fopen(argv[2], "wb");
  if (!fi || !fo) return 2;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    std::vector<uint32_t> in((size_t)cases[k] * CASE_WORDS), out((size_t)cases[k] * 32 * out_words[k]);
    if (fread(in.data(), 4, in.size(), fi) != in.size()) return 3;
    uint32_t *din, *dout;
    cudaMalloc(&din, in.size() * 4);
    cudaMalloc(&dout, out.size() * 4);
    cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
    cudaMemset(dout, 0, out.size() * 4);
    kernels[k]<<<cases[k], 32>>>(din, dout);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "form %zu: %s\n", k, cudaGetErrorString(e)); return 4; }
    cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
    fwrite(out.data(), 4, out.size(), fo);
    cudaFree(din);
    cudaFree(dout);
  }
  fclose(fo);
  return 0;
}
"#,
    );
    s
}

const RUN_SH: &str = r#"#!/bin/sh
# Records every fragment form on the local NVIDIA GPU (sm_90: stmatrix): RES=<dir> sh run.sh
set -eu
cd "$(dirname "$0")"
RES=${RES:-res}
mkdir -p "$RES"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$RES/gpu.txt" 2>&1
nvcc --version | grep -E "release|Build" | tr '\n' ' ' > "$RES/nvcc.txt"
date -u +%Y-%m-%d > "$RES/date.txt"
ARCH=${ARCH:-sm_90}
echo "$ARCH" > "$RES/arch.txt"
nvcc -O2 -arch="$ARCH" -o fragment fragment.cu
./fragment in.bin "$RES/out.bin"
"#;

/// Writes `fragment.cu`, `in.bin` and `run.sh` to `dir`; returns the number of forms.
pub fn write_programs(dir: &Path) -> Result<usize, String> {
    let io = |e: std::io::Error| e.to_string();
    std::fs::create_dir_all(dir).map_err(io)?;
    let forms = all_forms();
    let mut input = Vec::new();
    for f in &forms {
        for c in generate(f) {
            for w in c.words() {
                input.extend_from_slice(&w.to_le_bytes());
            }
        }
    }
    std::fs::write(dir.join("fragment.cu"), program()).map_err(io)?;
    std::fs::write(dir.join("in.bin"), input).map_err(io)?;
    std::fs::write(dir.join("run.sh"), RUN_SH).map_err(io)?;
    Ok(forms.len())
}

/// The recording from a results directory (`out.bin` and the `*.txt` of run.sh).
pub fn import(res: &Path) -> Result<Recording, String> {
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
    let bytes = std::fs::read(res.join("out.bin")).map_err(|e| format!("out.bin: {e}"))?;
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut at = 0;
    let mut forms = Vec::new();
    for f in all_forms() {
        let cases = generate(&f);
        let n = cases.len() * WARP * f.out_words();
        let outputs = words
            .get(at..at + n)
            .ok_or_else(|| format!("out.bin ends inside `{}`", f.ptx()))?
            .to_vec();
        at += n;
        forms.push(RecordedForm {
            name: f.name(),
            rule: f.rule().to_string(),
            ptx: f.ptx(),
            constraints: f.constraints(),
            cases: cases.len(),
            out_words: f.out_words(),
            inputs_digest: inputs_digest(&cases),
            outputs,
        });
    }
    if at != words.len() {
        return Err(format!("out.bin has {} words, the forms {at}", words.len()));
    }
    Ok(Recording { header, forms })
}
