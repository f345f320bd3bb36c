//! Whole corpus kernels as warp tests: the same launch runs the original file on the GPU (the
//! recording) and the `--target amd` translation on the wave model (`crates/ptx2hip-verify/tests/it/wave_sim.rs`).
//!
//! Each pointer parameter gets a buffer of [`ELEMS`] elements: `const` ones (inputs) filled from a
//! fixed xorshift sequence, the others with 0xA5 bytes; every buffer is dumped after the launch,
//! in parameter order. Integer parameters get [`N`]. The launch is [`BLOCKS`] blocks of [`THREADS`]
//! threads, so every kernel sees several warps per block, its own partial warps (each corpus
//! kernel lets some of the last threads exit) and its divergent branches.

use std::fmt::Write as _;

/// The `n` argument of every corpus kernel.
pub const N: usize = 640;
/// Elements per buffer.
pub const ELEMS: usize = 4 * N;
pub const THREADS: usize = 128;
pub const BLOCKS: usize = N.div_ceil(THREADS);

/// The corpus files run as kernels (every statement in them translates for AMD).
pub const FILES: [&str; 4] = [
    "warp_reduce_scan.cuh",
    "softmax_warp.cu",
    "stream_compaction.cu",
    "hash_probe.cu",
];

/// One parameter of a kernel.
#[derive(Debug, Clone, PartialEq)]
pub enum Param {
    /// `const T*` (an input) or `T*` (an output): element type, name.
    Pointer {
        ty: String,
        input: bool,
    },
    Int,
}

/// The first `__global__ void name(params)` of a CUDA source.
pub fn kernel_signature(src: &str) -> Option<(String, Vec<Param>)> {
    let at = src.find("__global__ void ")?;
    let rest = &src[at + "__global__ void ".len()..];
    let open = rest.find('(')?;
    let name = rest[..open].trim().to_string();
    let close = rest.find(')')?;
    let params = rest[open + 1..close]
        .split(',')
        .map(|p| {
            let p = p.replace("__restrict__", " ");
            let words: Vec<&str> = p.split_whitespace().collect();
            if let Some(star) = p.rfind('*') {
                let ty: Vec<&str> = p[..star]
                    .split_whitespace()
                    .filter(|w| *w != "const")
                    .collect();
                Param::Pointer {
                    ty: ty.join(" "),
                    input: words.first() == Some(&"const"),
                }
            } else {
                Param::Int
            }
        })
        .collect();
    Some((name, params))
}

/// Buffer setup shared by the GPU harness and the host driver: identical inputs on both.
fn buffers(params: &[Param]) -> String {
    let mut s = String::from(
        "static uint64_t p2h_rng = 0x9e3779b97f4a7c15ull;\n\
         static uint64_t p2h_next() { p2h_rng ^= p2h_rng << 13; p2h_rng ^= p2h_rng >> 7; p2h_rng ^= p2h_rng << 17; return p2h_rng; }\n",
    );
    let _ = writeln!(
        s,
        "static void p2h_fill(std::vector<std::vector<unsigned char>>& b) {{"
    );
    for p in params {
        if let Param::Pointer { ty, input } = p {
            let _ = writeln!(s, "  b.emplace_back(sizeof({ty}) * {ELEMS});");
            if *input {
                let _ = writeln!(
                    s,
                    "  for (auto& x : b.back()) x = (unsigned char)(p2h_next() >> 24);"
                );
            } else {
                let _ = writeln!(s, "  for (auto& x : b.back()) x = 0xA5;");
            }
        }
    }
    s.push_str("}\n");
    s
}

fn call_args(params: &[Param], buf: &str) -> String {
    let mut args = Vec::new();
    let mut k = 0;
    for p in params {
        match p {
            Param::Pointer { ty, .. } => {
                args.push(format!("({ty}*){buf}[{k}]"));
                k += 1;
            }
            Param::Int => args.push(N.to_string()),
        }
    }
    args.join(", ")
}

/// The CUDA program that runs the original file's kernel and dumps every buffer to argv[1].
pub fn gpu_harness(file: &str, src: &str) -> Option<String> {
    let (name, params) = kernel_signature(src)?;
    let mut s =
        format!("#include <cstdio>\n#include <cstdint>\n#include <vector>\n#include \"{file}\"\n");
    s.push_str(&buffers(&params));
    let _ = writeln!(
        s,
        "int main(int argc, char** argv) {{\n  std::vector<std::vector<unsigned char>> h;\n  p2h_fill(h);\n  std::vector<void*> d(h.size());\n  for (size_t k = 0; k < h.size(); ++k) {{ cudaMalloc(&d[k], h[k].size()); cudaMemcpy(d[k], h[k].data(), h[k].size(), cudaMemcpyHostToDevice); }}"
    );
    let _ = writeln!(
        s,
        "  {name}<<<{BLOCKS}, {THREADS}>>>({});",
        call_args(&params, "d")
    );
    s.push_str(
        "  cudaError_t e = cudaDeviceSynchronize();\n  if (e != cudaSuccess) { fprintf(stderr, \"%s\\n\", cudaGetErrorString(e)); return 4; }\n  FILE* f = fopen(argv[1], \"wb\");\n  for (size_t k = 0; k < h.size(); ++k) { cudaMemcpy(h[k].data(), d[k], h[k].size(), cudaMemcpyDeviceToHost); fwrite(h[k].data(), 1, h[k].size(), f); }\n  fclose(f);\n  return 0;\n}\n",
    );
    Some(s)
}

/// The host driver that runs the translated kernel on the wave model (with `wave` lanes per
/// wave) and dumps every buffer to argv[1]; include after the translated file.
pub fn host_driver(src: &str, wave: usize) -> Option<String> {
    let (name, params) = kernel_signature(src)?;
    let mut s = buffers(&params);
    let _ = writeln!(
        s,
        "int main(int argc, char** argv) {{\n  std::vector<std::vector<unsigned char>> h;\n  p2h_fill(h);\n  std::vector<void*> d(h.size());\n  for (size_t k = 0; k < h.size(); ++k) d[k] = h[k].data();"
    );
    let _ = writeln!(
        s,
        "  const char* err = wave_sim::launch({BLOCKS}, {THREADS}, {wave}, [&] {{ {name}({}); }});",
        call_args(&params, "d")
    );
    s.push_str(
        "  if (err) { fprintf(stderr, \"%s\\n\", err); return 3; }\n  FILE* f = fopen(argv[1], \"wb\");\n  for (auto& b : h) fwrite(b.data(), 1, b.size(), f);\n  fclose(f);\n  return 0;\n}\n",
    );
    Some(s)
}

const MAGIC: &str = "P2HK1";

/// `(corpus file, every buffer after the launch)` per kernel.
pub type Dumps = Vec<(String, Vec<u8>)>;

/// Writes the recorded dumps: gzip of `P2HK1`, a JSON header line, then per file a JSON line
/// `{file, bytes}` and the dump.
pub fn write_dumps(
    path: &std::path::Path,
    header: &serde_json::Value,
    dumps: &[(String, Vec<u8>)],
) -> Result<(), String> {
    use std::io::Write;
    let mut out = format!("{MAGIC}\n{header}\n").into_bytes();
    for (file, bytes) in dumps {
        out.extend_from_slice(
            serde_json::json!({"file": file, "bytes": bytes.len()})
                .to_string()
                .as_bytes(),
        );
        out.push(b'\n');
        out.extend_from_slice(bytes);
    }
    let f = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut w = flate2::write::GzEncoder::new(f, flate2::Compression::best());
    w.write_all(&out).map_err(|e| e.to_string())?;
    w.finish().map_err(|e| e.to_string())?;
    Ok(())
}

/// Reads what [`write_dumps`] wrote: the header and `(file, dump)` pairs.
pub fn read_dumps(path: &std::path::Path) -> Result<(serde_json::Value, Dumps), String> {
    use std::io::{BufRead, Read};
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut r = std::io::BufReader::new(flate2::read::GzDecoder::new(f));
    let mut line = String::new();
    r.read_line(&mut line).map_err(|e| e.to_string())?;
    if line.trim_end() != MAGIC {
        return Err(format!("{}: not a {MAGIC} file", path.display()));
    }
    line.clear();
    r.read_line(&mut line).map_err(|e| e.to_string())?;
    let header: serde_json::Value = serde_json::from_str(&line).map_err(|e| e.to_string())?;
    let mut dumps = Vec::new();
    loop {
        line.clear();
        if r.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            break;
        }
        let v: serde_json::Value = serde_json::from_str(&line).map_err(|e| e.to_string())?;
        let mut bytes = vec![0u8; v["bytes"].as_u64().unwrap_or(0) as usize];
        r.read_exact(&mut bytes).map_err(|e| e.to_string())?;
        dumps.push((v["file"].as_str().unwrap_or_default().to_string(), bytes));
    }
    Ok((header, dumps))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_split_inputs_outputs_and_sizes() {
        let (name, params) = kernel_signature(
            "__global__ void k(const uint32_t* __restrict__ in, uint64_t* out,\n int n) {",
        )
        .unwrap();
        assert_eq!(name, "k");
        assert_eq!(
            params,
            [
                Param::Pointer {
                    ty: "uint32_t".into(),
                    input: true
                },
                Param::Pointer {
                    ty: "uint64_t".into(),
                    input: false
                },
                Param::Int
            ]
        );
    }
}
