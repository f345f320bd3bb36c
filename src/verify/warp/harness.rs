//! The CUDA programs that record the warp forms on an NVIDIA GPU, and the import of their
//! outputs into a [`Recording`].
//!
//! `write_programs(dir)` writes, per form `k`, `fK.cu` (one kernel, one warp per case), its input
//! file `in/fK.bin` (`u32 cases, u32 words_per_case`, then the words of [`Case::words`]), the
//! table `forms.tsv` and `run.sh`. A lane that does not run the statement returns first (the case
//! says its lanes exited) or skips it inside the branch; every lane that runs it stores its
//! outputs, each in its own 32-bit word.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::json;

use super::cases::{generate, inputs_digest, Case};
use super::forms::{all_forms, Out, Role, WarpForm};
use super::record::{RecordedForm, Recording};
use super::WARP;

/// The asm template as C string contents: `%name` (a special register) is written `%%name`.
fn c_template(ptx: &str) -> String {
    let mut out = String::new();
    let mut chars = ptx.chars().peekable();
    while let Some(ch) = chars.next() {
        out.push(ch);
        if ch == '%' && chars.peek().is_some_and(|n| !n.is_ascii_digit()) {
            out.push('%');
        }
    }
    out
}

/// The CUDA program of one form.
pub fn program(form: &WarpForm) -> String {
    let nin = form.in_words();
    let nout = form.out_words();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// {}\n#include <cstdint>\n#include <cstdio>\n#include <vector>",
        form.name
    );
    let _ = writeln!(
        s,
        "__global__ void warp_form(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, int cases) {{"
    );
    s.push_str("  const int w = (int)((blockIdx.x * blockDim.x + threadIdx.x) >> 5);\n");
    s.push_str("  const int lane = (int)(threadIdx.x & 31u);\n");
    s.push_str("  if (w >= cases) return;\n");
    let _ = writeln!(
        s,
        "  const uint32_t* c = in + (size_t)w * {};",
        2 + WARP * nin
    );
    s.push_str("  const bool on = (c[0] >> lane) & 1u;\n");
    s.push_str("  if (!on && c[1] != 0u) return;\n");
    s.push_str("  if (on) {\n");
    let _ = writeln!(s, "    const uint32_t* x = c + 2 + lane * {nin};");
    let _ = writeln!(
        s,
        "    uint32_t* y = out + ((size_t)w * 32 + lane) * {nout};"
    );
    let mut outs = Vec::new();
    for (k, o) in form.outputs.iter().enumerate() {
        let ty = if *o == Out::D64 {
            "uint64_t"
        } else {
            "uint32_t"
        };
        let _ = writeln!(s, "    {ty} o{k};");
        let letter = if *o == Out::D64 { "=l" } else { "=r" };
        outs.push(format!("\"{letter}\"(o{k})"));
    }
    let mut ins = Vec::new();
    let mut word = 0;
    for r in &form.inputs {
        if *r == Role::A64 {
            ins.push(format!(
                "\"l\"((uint64_t)x[{word}] | ((uint64_t)x[{}] << 32))",
                word + 1
            ));
        } else {
            ins.push(format!("\"r\"(x[{word}])"));
        }
        word += r.words();
    }
    let _ = writeln!(
        s,
        "    asm volatile(\"{}\" : {} : {});",
        c_template(&form.ptx),
        outs.join(", "),
        ins.join(", ")
    );
    let mut at = 0;
    for (k, o) in form.outputs.iter().enumerate() {
        if *o == Out::D64 {
            let _ = writeln!(
                s,
                "    y[{at}] = (uint32_t)o{k}; y[{}] = (uint32_t)(o{k} >> 32);",
                at + 1
            );
        } else {
            let _ = writeln!(s, "    y[{at}] = o{k};");
        }
        at += o.words();
    }
    s.push_str("  }\n}\n");
    s.push_str(HOST_MAIN);
    s
}

const HOST_MAIN: &str = r#"int main(int argc, char** argv) {
  if (argc != 3) return 2;
  FILE* f = fopen(argv[1], "rb");
  if (!f) return 2;
  uint32_t hdr[2];
  if (fread(hdr, 4, 2, f) != 2) return 2;
  const size_t cases = hdr[0], words = hdr[1];
  std::vector<uint32_t> in(cases * words);
  if (fread(in.data(), 4, in.size(), f) != in.size()) return 2;
  fclose(f);
  const size_t nout = OUT_WORDS;
  std::vector<uint32_t> out(cases * 32 * nout, 0u);
  uint32_t *din, *dout;
  if (cudaMalloc(&din, in.size() * 4) != cudaSuccess || cudaMalloc(&dout, out.size() * 4) != cudaSuccess) return 3;
  cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, out.size() * 4);
  warp_form<<<(unsigned)((cases * 32 + 127) / 128), 128>>>(din, dout, (int)cases);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 4; }
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  FILE* g = fopen(argv[2], "wb");
  if (!g || fwrite(out.data(), 4, out.size(), g) != out.size()) return 5;
  fclose(g);
  return 0;
}
"#;

/// The bytes of a form's input file.
pub fn input_file(form: &WarpForm, cases: &[Case]) -> Vec<u8> {
    let words = 2 + WARP * form.in_words();
    let mut v = Vec::with_capacity(8 + cases.len() * words * 4);
    v.extend_from_slice(&(cases.len() as u32).to_le_bytes());
    v.extend_from_slice(&(words as u32).to_le_bytes());
    for c in cases {
        for w in c.words(form) {
            v.extend_from_slice(&w.to_le_bytes());
        }
    }
    v
}

const RUN_SH: &str = r#"#!/bin/bash
# Records every warp form on the local NVIDIA GPU: RES=<dir> bash run.sh
set -u
cd "$(dirname "$0")"
RES=${RES:-res}
mkdir -p "$RES"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$RES/gpu.txt" 2>&1
nvcc --version | grep -E "release|Build" | tr '\n' ' ' > "$RES/nvcc.txt"
date -u +%Y-%m-%d > "$RES/date.txt"
ARCH=${ARCH:-sm_90}
echo "$ARCH" > "$RES/arch.txt"
ls f*.cu | sed 's/\.cu$//' | xargs -P "${JOBS:-16}" -I{} sh -c "nvcc -O2 -arch=$ARCH -o {} {}.cu 2> $RES/{}.cerr || true"
for f in f*.cu; do
  b=${f%.cu}
  if [ -x "$b" ]; then timeout 30 "./$b" "in/$b.bin" "$RES/$b.out" 2> "$RES/$b.err" || echo "run failed: $?" >> "$RES/$b.err"; fi
done
"#;

/// Writes the programs, inputs, `forms.tsv` and `run.sh` of every form to `dir`.
pub fn write_programs(dir: &Path) -> Result<usize, String> {
    let io = |e: std::io::Error| e.to_string();
    std::fs::create_dir_all(dir.join("in")).map_err(io)?;
    let mut tsv = String::new();
    let forms = all_forms();
    for (k, form) in forms.iter().enumerate() {
        let cases = generate(form);
        let src = program(form).replace("OUT_WORDS", &form.out_words().to_string());
        std::fs::write(dir.join(format!("f{k}.cu")), src).map_err(io)?;
        std::fs::write(dir.join(format!("in/f{k}.bin")), input_file(form, &cases)).map_err(io)?;
        let _ = writeln!(tsv, "f{k}\t{}\t{}", cases.len(), form.name);
    }
    std::fs::write(dir.join("forms.tsv"), tsv).map_err(io)?;
    std::fs::write(dir.join("run.sh"), RUN_SH).map_err(io)?;
    Ok(forms.len())
}

/// What an import found.
pub struct Imported {
    pub recording: Recording,
    /// `(form name, compiler or run error)` for forms without outputs.
    pub missing: Vec<(String, String)>,
}

/// Reads the outputs in `res` (written by `run.sh` for the programs of [`write_programs`]).
pub fn import(res: &Path) -> Result<Imported, String> {
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
    let mut forms = Vec::new();
    let mut missing = Vec::new();
    for (k, form) in all_forms().iter().enumerate() {
        let cases = generate(form);
        let want = cases.len() * WARP * form.out_words() * 4;
        match std::fs::read(res.join(format!("f{k}.out"))) {
            Ok(bytes) if bytes.len() == want => forms.push(RecordedForm {
                name: form.name.clone(),
                rule: form.rule.to_string(),
                ptx: form.ptx.clone(),
                constraints: form.constraints.clone(),
                cases: cases.len(),
                out_words: form.out_words(),
                inputs_digest: inputs_digest(form, &cases),
                outputs: bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            }),
            _ => {
                let why = [read(&format!("f{k}.cerr")), read(&format!("f{k}.err"))]
                    .join(" ")
                    .trim()
                    .to_string();
                missing.push((form.name.clone(), why));
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
    fn special_registers_are_escaped_and_operands_are_not() {
        assert_eq!(c_template("mov.u32 %0, %laneid;"), "mov.u32 %0, %%laneid;");
        assert_eq!(
            c_template("shfl.sync.up.b32 %0|p, %2"),
            "shfl.sync.up.b32 %0|p, %2"
        );
    }

    #[test]
    fn a_program_binds_every_operand() {
        let form = all_forms()
            .into_iter()
            .find(|f| f.name == "match.any.sync.b64")
            .unwrap();
        let p = program(&form);
        assert!(p.contains(
            r#"asm volatile("match.any.sync.b64 %0, %1, %2;" : "=r"(o0) : "l"((uint64_t)x[0] | ((uint64_t)x[1] << 32)), "r"(x[2]));"#
        ), "{p}");
    }
}
