//! Golden vector files, the CUDA programs that produce them and the host C++ check that replays
//! them through the rule translations.
//!
//! File format (`tests/vectors/<family>.bin.gz`, gzip; docs/VECTORS.md): the line `P2HV2`, one
//! line of JSON with `family, gpu, driver, nvcc, date`, then per form: `u32 len + bytes` for the
//! form name, the rule code and the canonical asm text; `u32 in_bytes, out_bytes, count, chunk`;
//! `u32 n_full` and `n_full` full records `u32 index ‖ inputs ‖ outputs` (values little-endian at
//! register width, see [`super::forms`]); `u32 n_digests` and that many `u64` digests, digest `c`
//! being FNV-1a-64 of the outputs of vectors `c*chunk .. (c+1)*chunk` in order. Vector `i` is the
//! `i`-th of [`super::inputs::vectors`] (regenerated from the per-form seed), so every vector is
//! checked, by value where a full record exists, else through its chunk's digest. Approximate
//! rules keep full records of every vector (they are compared within a bound) and no digests.
//! `P2HV1` files (full records of every vector, no index) are still read.

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::forms::{CanonicalForm, Input, MemSpace, Output, RegClass, MEM_STRIDE, STORE_FILL};
use ptx2hip_core::lower::{self, RuleSet, Target};

const MAGIC_V1: &str = "P2HV1\n";
const MAGIC: &str = "P2HV2\n";

/// Vectors per digest chunk.
pub const CHUNK: usize = 1024;
/// Full records kept per form (edge-case vectors, sampled evenly when there are more).
pub const FULL_CAP: usize = 384;
/// Full records kept per form whose input space is enumerated (no edge set).
pub const FULL_CAP_EXHAUSTIVE: usize = 256;

/// FNV-1a-64 of a byte string.
pub fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The golden vectors of one form as recorded on the GPU.
#[derive(Debug, Clone)]
pub struct FormVectors {
    pub form: String,
    pub rule: String,
    pub ptx: String,
    pub in_bytes: usize,
    pub out_bytes: usize,
    /// Number of vectors the form was run on.
    pub count: usize,
    /// Vectors per digest (0: no digests).
    pub chunk: usize,
    /// Indices of the fully recorded vectors, ascending.
    pub full_index: Vec<u32>,
    /// `full_index.len() * (in_bytes + out_bytes)` bytes.
    pub full: Vec<u8>,
    /// Output digests per chunk.
    pub digests: Vec<u64>,
}

impl FormVectors {
    pub fn count(&self) -> usize {
        self.count
    }
    /// The `k`-th full record: (index, inputs, outputs).
    pub fn record(&self, k: usize) -> (usize, &[u8], &[u8]) {
        let n = self.in_bytes + self.out_bytes;
        let r = &self.full[k * n..(k + 1) * n];
        let (x, y) = r.split_at(self.in_bytes);
        (self.full_index[k] as usize, x, y)
    }

    /// Builds the stored form from all inputs (packed) and GPU outputs of a form's vectors.
    pub fn from_outputs(
        form: &CanonicalForm,
        ptx: &str,
        inputs: &[u8],
        marks: &[bool],
        outputs: &[u8],
    ) -> FormVectors {
        let (ib, ob) = (form.in_bytes(), form.out_bytes());
        let count = marks.len();
        assert_eq!(outputs.len(), count * ob, "{}: output size", form.form);
        assert_eq!(inputs.len(), count * ib, "{}: input size", form.form);
        let index: Vec<usize> = if form.tolerance.is_some() {
            (0..count).collect()
        } else {
            let edges: Vec<usize> = (0..count).filter(|&i| marks[i]).collect();
            let (pool, cap) = if edges.is_empty() {
                ((0..count).collect::<Vec<_>>(), FULL_CAP_EXHAUSTIVE)
            } else {
                (edges, FULL_CAP)
            };
            let cap = (cap / form.variants.max(1)).max(8);
            if pool.len() <= cap {
                pool
            } else {
                (0..cap).map(|k| pool[k * pool.len() / cap]).collect()
            }
        };
        let mut full = Vec::with_capacity(index.len() * (ib + ob));
        for &i in &index {
            full.extend_from_slice(&inputs[i * ib..(i + 1) * ib]);
            full.extend_from_slice(&outputs[i * ob..(i + 1) * ob]);
        }
        let (chunk, digests) = if form.tolerance.is_some() || ob == 0 {
            (0, Vec::new())
        } else {
            (CHUNK, outputs.chunks(CHUNK * ob).map(digest).collect())
        };
        FormVectors {
            form: form.form.clone(),
            rule: form.rule.clone(),
            ptx: ptx.to_string(),
            in_bytes: ib,
            out_bytes: ob,
            count,
            chunk,
            full_index: index.iter().map(|&i| i as u32).collect(),
            full,
            digests,
        }
    }
}

/// One golden file: a rule family's vectors and the hardware that produced them.
#[derive(Debug, Clone)]
pub struct GoldenFile {
    pub header: Value,
    pub forms: Vec<FormVectors>,
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

impl GoldenFile {
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let mut raw = Vec::new();
        raw.extend_from_slice(MAGIC.as_bytes());
        raw.extend_from_slice(self.header.to_string().as_bytes());
        raw.push(b'\n');
        for f in &self.forms {
            put_str(&mut raw, &f.form);
            put_str(&mut raw, &f.rule);
            put_str(&mut raw, &f.ptx);
            for n in [
                f.in_bytes,
                f.out_bytes,
                f.count,
                f.chunk,
                f.full_index.len(),
            ] {
                raw.extend_from_slice(&(n as u32).to_le_bytes());
            }
            let n = f.in_bytes + f.out_bytes;
            for (k, &i) in f.full_index.iter().enumerate() {
                raw.extend_from_slice(&i.to_le_bytes());
                raw.extend_from_slice(&f.full[k * n..(k + 1) * n]);
            }
            raw.extend_from_slice(&(f.digests.len() as u32).to_le_bytes());
            for d in &f.digests {
                raw.extend_from_slice(&d.to_le_bytes());
            }
        }
        let file = std::fs::File::create(path)?;
        let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::best());
        gz.write_all(&raw)?;
        gz.finish()?;
        Ok(())
    }

    pub fn read(path: &Path) -> Result<GoldenFile, String> {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(file)
            .read_to_end(&mut raw)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let bad = || format!("{}: not a golden vector file", path.display());
        let (v1, rest) = match raw.strip_prefix(MAGIC.as_bytes()) {
            Some(r) => (false, r),
            None => (true, raw.strip_prefix(MAGIC_V1.as_bytes()).ok_or_else(bad)?),
        };
        let nl = rest.iter().position(|&b| b == b'\n').ok_or_else(bad)?;
        let header: Value = serde_json::from_slice(&rest[..nl]).map_err(|_| bad())?;
        let mut p = &rest[nl + 1..];
        fn take<'a>(
            p: &mut &'a [u8],
            n: usize,
            bad: &dyn Fn() -> String,
        ) -> Result<&'a [u8], String> {
            if p.len() < n {
                return Err(bad());
            }
            let (a, b) = p.split_at(n);
            *p = b;
            Ok(a)
        }
        let u32_ = |p: &mut &[u8]| -> Result<usize, String> {
            Ok(u32::from_le_bytes(take(p, 4, &bad)?.try_into().unwrap()) as usize)
        };
        let mut forms = Vec::new();
        while !p.is_empty() {
            let mut strs = Vec::new();
            for _ in 0..3 {
                let n = u32_(&mut p)?;
                strs.push(String::from_utf8_lossy(take(&mut p, n, &bad)?).into_owned());
            }
            let ptx = strs.pop().unwrap();
            let rule = strs.pop().unwrap();
            let form = strs.pop().unwrap();
            let (ib, ob, count) = (u32_(&mut p)?, u32_(&mut p)?, u32_(&mut p)?);
            let n = ib + ob;
            if v1 {
                let full = take(&mut p, count * n, &bad)?.to_vec();
                let full_index = (0..count as u32).collect();
                forms.push(FormVectors {
                    form,
                    rule,
                    ptx,
                    in_bytes: ib,
                    out_bytes: ob,
                    count,
                    chunk: 0,
                    full_index,
                    full,
                    digests: Vec::new(),
                });
                continue;
            }
            let chunk = u32_(&mut p)?;
            let nfull = u32_(&mut p)?;
            let mut full_index = Vec::with_capacity(nfull);
            let mut full = Vec::with_capacity(nfull * n);
            for _ in 0..nfull {
                full_index.push(u32_(&mut p)? as u32);
                full.extend_from_slice(take(&mut p, n, &bad)?);
            }
            let nd = u32_(&mut p)?;
            let mut digests = Vec::with_capacity(nd);
            for _ in 0..nd {
                digests.push(u64::from_le_bytes(
                    take(&mut p, 8, &bad)?.try_into().unwrap(),
                ));
            }
            forms.push(FormVectors {
                form,
                rule,
                ptx,
                in_bytes: ib,
                out_bytes: ob,
                count,
                chunk,
                full_index,
                full,
                digests,
            });
        }
        Ok(GoldenFile { header, forms })
    }
}

fn c_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Declarations of the operands, reading the inputs from `x` and the buffer `buf`.
fn operand_setup(form: &CanonicalForm) -> String {
    let mut s = String::new();
    let mut declared = vec![false; form.constraints.len()];
    // A buffer read back after the statement starts filled, then the memory inputs go in (atom and
    // red have both).
    if form.outputs.iter().any(|o| matches!(o, Output::Mem { .. })) {
        let _ = writeln!(s, "  memset(buf, {STORE_FILL:#x}, {MEM_STRIDE});");
    }
    let mut off = 0;
    for i in &form.inputs {
        match i {
            Input::Reg { op, class, .. } => {
                let _ = writeln!(
                    s,
                    "  {} op{op}; memcpy(&op{op}, x + {off}, {});",
                    class.c_type(),
                    class.bytes()
                );
                declared[*op] = true;
            }
            Input::Mem { op, bytes, .. } => {
                let _ = writeln!(s, "  memcpy(buf, x + {off}, {bytes});");
                let _ = writeln!(s, "{}", buffer_address(form.mem_space, *op));
                declared[*op] = true;
            }
        }
        off += i.bytes();
    }
    for o in &form.outputs {
        match o {
            Output::Reg {
                op,
                class,
                init_zero,
            } => {
                let init = if *init_zero { " = 0" } else { "" };
                let _ = writeln!(s, "  {} op{op}{init};", class.c_type());
                declared[*op] = true;
            }
            Output::Mem { .. } => {}
        }
    }
    // Address operands of stores (the only operands not declared above).
    for (k, _) in declared.iter().enumerate().filter(|(_, d)| !**d) {
        let _ = writeln!(s, "{}", buffer_address(form.mem_space, k));
    }
    s
}

/// The declaration of address operand `%op` pointing at `buf`: a generic pointer, or the window
/// address of a `.shared`/`.local` buffer (`P2H_SHARED_ADDR`/`P2H_LOCAL_ADDR`: CUDA's
/// `__cvta_generic_to_*` on the GPU, the offset in a static array standing for the window on the
/// host).
fn buffer_address(space: MemSpace, op: usize) -> String {
    match space {
        MemSpace::Global => format!("  uint64_t op{op} = (uint64_t)(uintptr_t)buf;"),
        MemSpace::Shared => format!("  uint32_t op{op} = P2H_SHARED_ADDR(buf);"),
        MemSpace::Local => format!("  uint32_t op{op} = P2H_LOCAL_ADDR(buf);"),
    }
}

/// Where a form's buffer lives in the GPU kernel: a slot of the global `mem` array, of a
/// `__shared__` array (one per thread of the 256-thread block) or a local array.
fn gpu_buffer(space: MemSpace) -> String {
    match space {
        MemSpace::Global => format!("  unsigned char* buf = mem + (size_t)i * {MEM_STRIDE};"),
        MemSpace::Shared => format!(
            "  __shared__ __align__(16) unsigned char p2h_sbuf[256 * {MEM_STRIDE}];\n  unsigned char* buf = p2h_sbuf + threadIdx.x * {MEM_STRIDE};"
        ),
        MemSpace::Local => format!(
            "  __align__(16) unsigned char p2h_lbuf[{MEM_STRIDE}];\n  unsigned char* buf = p2h_lbuf;"
        ),
    }
}

fn operand_results(form: &CanonicalForm) -> String {
    let mut s = String::new();
    let mut off = 0;
    for o in &form.outputs {
        match o {
            Output::Reg { op, class, .. } => {
                let _ = writeln!(s, "  memcpy(y + {off}, &op{op}, {});", class.bytes());
            }
            Output::Mem { bytes } => {
                let _ = writeln!(s, "  memcpy(y + {off}, buf, {bytes});");
            }
        }
        off += o.bytes();
    }
    s
}

fn cuda_kernel(form: &CanonicalForm, n: usize) -> String {
    let outs: Vec<String> = form
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Reg { op, .. } => Some(format!("\"{}\"(op{op})", form.constraints[*op])),
            _ => None,
        })
        .collect();
    let ins: Vec<String> = form
        .constraints
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.starts_with('=') && !c.starts_with('+'))
        .map(|(k, c)| format!("\"{c}\"(op{k})"))
        .collect();
    format!(
        r#"// {rule} {form}
__global__ void run_form_{n}(const unsigned char* xs, unsigned char* ys, unsigned char* mem, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned char* x = xs + (size_t)i * ({ib} ? {ib} : 1);
  unsigned char* y = ys + (size_t)i * {pad};
{buffer}
  (void)x; (void)buf; (void)mem;
{setup}  asm volatile("{ptx}" : {outs} : {ins} : "memory");
{results}}}
"#,
        rule = form.rule,
        form = form.form,
        ib = form.in_bytes(),
        buffer = gpu_buffer(form.mem_space),
        setup = operand_setup(form),
        ptx = c_escape(&form.ptx),
        outs = outs.join(", "),
        ins = ins.join(", "),
        results = gpu_results(form),
        pad = padded_out_bytes(form),
    )
}

/// Bytes of a form's output record on the GPU: every register output in its own 8-byte slot,
/// written with one aligned store of its own type. (Byte-wise copies of 16-bit results let
/// ptxas 13.0 fold the low byte of `cvt.rn.f16.*` results into a saturating u8 conversion of the
/// source: the recorded values were wrong in their low byte.)
fn padded_out_bytes(form: &CanonicalForm) -> usize {
    form.outputs.iter().map(|o| o.bytes().div_ceil(8) * 8).sum()
}

fn gpu_results(form: &CanonicalForm) -> String {
    let mut s = String::new();
    let mut off = 0;
    for o in &form.outputs {
        match o {
            Output::Reg { op, class, .. } => {
                let _ = writeln!(s, "  *({}*)(y + {off}) = op{op};", class.c_type());
            }
            Output::Mem { bytes } => {
                let _ = writeln!(s, "  memcpy(y + {off}, buf, {bytes});");
            }
        }
        off += o.bytes().div_ceil(8) * 8;
    }
    s
}

/// `{pad, size}` pairs: where each output value lies in the padded GPU record, and its size.
fn gpu_layout(form: &CanonicalForm) -> String {
    let mut off = 0;
    let mut parts = Vec::new();
    for o in &form.outputs {
        parts.push(format!("{{{off}, {}}}", o.bytes()));
        off += o.bytes().div_ceil(8) * 8;
    }
    parts.join(", ")
}

/// A CUDA program running several forms: form `n` reads `i<n>.bin` (input records) and writes
/// `<outdir>/f<n>.out` (`argv[1]` is `outdir`); exits non-zero on the first CUDA error.
pub fn cuda_program_multi(forms: &[(usize, &CanonicalForm)]) -> String {
    let mut s = String::from(
        r#"// generated by ptx2hip verify
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <string>
#include <vector>
#define P2H_SHARED_ADDR(p) ((uint32_t)__cvta_generic_to_shared(p))
#define P2H_LOCAL_ADDR(p) ((uint32_t)__cvta_generic_to_local(p))
typedef void (*kernel_fn)(const unsigned char*, unsigned char*, unsigned char*, int);
static int run_one(const char* outdir, int id, kernel_fn k, size_t in_bytes, size_t out_bytes, size_t pad_bytes, const int (*layout)[2], int nlayout) {
  std::string ip = "i" + std::to_string(id) + ".bin", op = std::string(outdir) + "/f" + std::to_string(id) + ".out";
  FILE* f = fopen(ip.c_str(), "rb");
  if (!f) { fprintf(stderr, "%s: missing\n", ip.c_str()); return 1; }
  std::vector<unsigned char> in;
  unsigned char chunk[65536];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) in.insert(in.end(), chunk, chunk + got);
  fclose(f);
  int n = in_bytes ? (int)(in.size() / in_bytes) : 1;
  unsigned char *din, *dout, *dmem;
  cudaMalloc(&din, in.size() + 16);
  cudaMalloc(&dout, (size_t)n * pad_bytes + 16);
  cudaMalloc(&dmem, (size_t)n * 32 + 16);
  cudaMemcpy(din, in.data(), in.size(), cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256>>>(din, dout, dmem, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { fprintf(stderr, "f%d: cuda: %s\n", id, cudaGetErrorString(e)); return 1; }
  std::vector<unsigned char> padded((size_t)n * pad_bytes), out((size_t)n * out_bytes);
  cudaMemcpy(padded.data(), dout, padded.size(), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) {
    size_t o = 0;
    for (int k = 0; k < nlayout; k++) { memcpy(&out[(size_t)i * out_bytes + o], &padded[(size_t)i * pad_bytes + layout[k][0]], layout[k][1]); o += layout[k][1]; }
  }
  cudaFree(din); cudaFree(dout); cudaFree(dmem);
  FILE* g = fopen(op.c_str(), "wb");
  fwrite(out.data(), 1, out.size(), g);
  fclose(g);
  return 0;
}
"#,
    );
    for (n, f) in forms {
        s.push_str(&cuda_kernel(f, *n));
    }
    s.push_str(
        "int main(int argc, char** argv) {\n  const char* outdir = argc > 1 ? argv[1] : \".\";\n",
    );
    for (n, f) in forms {
        let _ = writeln!(
            s,
            "  {{ static const int layout[][2] = {{ {} }}; if (run_one(outdir, {n}, run_form_{n}, {}, {}, {}, layout, {})) return 1; }}",
            gpu_layout(f),
            f.in_bytes(),
            f.out_bytes(),
            padded_out_bytes(f),
            f.outputs.len()
        );
    }
    s.push_str("  return 0;\n}\n");
    s
}

/// A standalone CUDA program running one form (see [`cuda_program_multi`]).
pub fn cuda_program(n: usize, form: &CanonicalForm) -> String {
    cuda_program_multi(&[(n, form)])
}

/// The host shim that lets translations compile as plain C++17 (no GPU headers).
pub const HOST_SHIM: &str = r#"#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <math.h>
#define __host__
#define __device__
#define __forceinline__ inline
// Compiled with -ffp-contract=off: each is one IEEE operation in the default rounding mode.
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dsub_rn(double a, double b) { return a - b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline double __ddiv_rn(double a, double b) { return a / b; }
static inline float __frcp_rn(float a) { return 1.0f / a; }
static inline double __drcp_rn(double a) { return 1.0 / a; }
static inline float __fsqrt_rn(float a) { return sqrtf(a); }
static inline double __dsqrt_rn(double a) { return sqrt(a); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
struct uint4 { uint32_t x, y, z, w; };
struct uint2 { uint32_t x, y; };
struct p2h_dim3 { uint32_t x, y, z; };
static const p2h_dim3 threadIdx = {0, 0, 0}, blockIdx = {0, 0, 0}, blockDim = {1, 1, 1}, gridDim = {1, 1, 1};
static inline void __threadfence() {}
static inline void __threadfence_block() {}
static inline void __threadfence_system() {}
static inline long long clock64() { return 0; }
// The CUDA/HIP atomic API, single-threaded (the check runs one thread at a time).
#define P2H_RMW(name, T, expr) \
  static inline T name(T* p, T v) { T o = *p; *p = (T)(expr); return o; } \
  static inline T name##_system(T* p, T v) { return name(p, v); }
#define P2H_RMW_ALL(T) \
  P2H_RMW(atomicAdd, T, o + v) P2H_RMW(atomicMin, T, v < o ? v : o) P2H_RMW(atomicMax, T, v > o ? v : o) \
  P2H_RMW(atomicAnd, T, o & v) P2H_RMW(atomicOr, T, o | v) P2H_RMW(atomicXor, T, o ^ v) P2H_RMW(atomicExch, T, v)
P2H_RMW_ALL(unsigned int)
P2H_RMW_ALL(int)
P2H_RMW_ALL(unsigned long long)
static inline unsigned int atomicInc(unsigned int* p, unsigned int v) { unsigned o = *p; *p = o >= v ? 0u : o + 1u; return o; }
static inline unsigned int atomicDec(unsigned int* p, unsigned int v) { unsigned o = *p; *p = (o == 0u || o > v) ? v : o - 1u; return o; }
template <class T> static inline T atomicCAS(T* p, T c, T v) { T o = *p; if (o == c) *p = v; return o; }
template <class T> static inline T atomicCAS_system(T* p, T c, T v) { return atomicCAS(p, c, v); }
// The .shared and .local windows: one static array; a window address is an offset into it.
alignas(16) static unsigned char p2h_window[128];
#define P2H_SHARED_ADDR(p) ((uint32_t)((unsigned char*)(p) - p2h_window))
#define P2H_LOCAL_ADDR(p) ((uint32_t)((unsigned char*)(p) - p2h_window))
static inline void* __cvta_shared_to_generic(size_t a) { return p2h_window + a; }
static inline void* __cvta_local_to_generic(size_t a) { return p2h_window + a; }
static inline size_t __cvta_generic_to_shared(const void* p) { return (size_t)((const unsigned char*)p - p2h_window); }
static inline size_t __cvta_generic_to_local(const void* p) { return (size_t)((const unsigned char*)p - p2h_window); }
// CUDA integer intrinsics, as the CUDA Math API defines them (plain loops).
static inline int __popc(unsigned int x) { int n = 0; for (int i = 0; i < 32; ++i) n += (x >> i) & 1u; return n; }
static inline int __popcll(unsigned long long x) { int n = 0; for (int i = 0; i < 64; ++i) n += (int)((x >> i) & 1u); return n; }
static inline int __clz(int x) { for (int i = 31; i >= 0; --i) if (((uint32_t)x >> i) & 1u) return 31 - i; return 32; }
static inline int __clzll(long long x) { for (int i = 63; i >= 0; --i) if (((uint64_t)x >> i) & 1u) return 63 - i; return 64; }
static inline unsigned int __brev(unsigned int x) { unsigned r = 0; for (int i = 0; i < 32; ++i) if ((x >> i) & 1u) r |= 1u << (31 - i); return r; }
static inline unsigned long long __brevll(unsigned long long x) { unsigned long long r = 0; for (int i = 0; i < 64; ++i) if ((x >> i) & 1u) r |= 1ull << (63 - i); return r; }
"#;

/// One translated form ready for the host program.
pub struct HostForm<'a> {
    pub form: &'a CanonicalForm,
    pub lines: Vec<String>,
    pub helpers: Vec<String>,
}

/// Translates every form for a target; `Err` lists the forms the rules no longer translate.
pub fn translate<'a>(
    forms: &'a [CanonicalForm],
    rules: &RuleSet,
    target: Target,
) -> Result<Vec<HostForm<'a>>, String> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for f in forms {
        let a = lower::analyze(&f.statement(), rules, target);
        match a.outcome {
            Ok(t) => out.push(HostForm {
                form: f,
                lines: lower::render(&t.lines, "  ", "  "),
                helpers: t.helpers,
            }),
            Err(u) => errors.push(format!("{} ({}): {}", f.form, f.ptx, u.message)),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors.join("\n"))
    }
}

/// The C++17 check program for a set of translated forms.
pub fn host_program(forms: &[HostForm], rules: &RuleSet, target: Target, prelude: &str) -> String {
    let mut s = String::from(HOST_SHIM);
    s.push_str(prelude);
    let all: Vec<String> = forms
        .iter()
        .flat_map(|f| f.helpers.iter().cloned())
        .collect();
    s.push_str(&rules.helper_definitions(all.iter(), target));
    for (k, f) in forms.iter().enumerate() {
        let _ = writeln!(s, "// {} {}: {}", f.form.rule, f.form.form, f.form.ptx);
        let _ = writeln!(
            s,
            "static void form_{k}(const unsigned char* x, unsigned char* y, unsigned char* buf) {{"
        );
        s.push_str("  (void)x; (void)buf;\n");
        s.push_str(&operand_setup(f.form));
        for l in &f.lines {
            s.push_str(l);
            s.push('\n');
        }
        s.push_str(&operand_results(f.form));
        s.push_str("}\n");
    }
    s.push_str("typedef void (*form_fn)(const unsigned char*, unsigned char*, unsigned char*);\n");
    let _ = writeln!(
        s,
        "static const form_fn forms[] = {{ {} }};",
        (0..forms.len())
            .map(|k| format!("form_{k}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        s,
        "static const unsigned in_bytes[] = {{ {} }};\nstatic const unsigned out_bytes[] = {{ {} }};",
        forms.iter().map(|f| f.form.in_bytes().to_string()).collect::<Vec<_>>().join(", "),
        forms.iter().map(|f| f.form.out_bytes().to_string()).collect::<Vec<_>>().join(", ")
    );
    s.push_str(
        r#"// stdin: blocks of [u32 form][u32 count][count * in_bytes]; stdout: count * out_bytes per block.
int main(int argc, char** argv) {
  FILE* in = fopen(argv[1], "rb");
  FILE* out = fopen(argv[2], "wb");
  uint32_t hdr[2];
  unsigned char* buf = p2h_window + 32;  // a nonzero window offset
  std::vector<unsigned char> x, y;
  while (fread(hdr, 4, 2, in) == 2) {
    unsigned k = hdr[0], n = hdr[1];
    x.resize((size_t)n * in_bytes[k] + 1);
    y.assign((size_t)n * out_bytes[k] + 1, 0);
    if (fread(x.data(), 1, (size_t)n * in_bytes[k], in) != (size_t)n * in_bytes[k]) return 2;
    for (unsigned i = 0; i < n; i++) forms[k](x.data() + (size_t)i * in_bytes[k], y.data() + (size_t)i * out_bytes[k], buf);
    fwrite(y.data(), 1, (size_t)n * out_bytes[k], out);
  }
  fclose(out);
  return 0;
}
"#,
    );
    s
}

/// A difference between the GPU and a translation.
#[derive(Debug, Clone)]
pub struct Mismatch {
    pub rule: String,
    pub form: String,
    pub input: String,
    pub expected: String,
    pub got: String,
}

/// Result of replaying golden vectors through translations.
#[derive(Debug, Default)]
pub struct CheckReport {
    pub vectors: usize,
    /// Vectors that differ, counting every vector of a chunk whose digest differs.
    pub mismatches: usize,
    /// The first few mismatches of each form.
    pub examples: Vec<Mismatch>,
    /// Per form: (form, vectors, mismatches).
    pub per_form: Vec<(String, usize, usize)>,
    /// Approximate forms: (form, largest ulp difference seen, largest absolute difference seen
    /// where the ulp difference exceeds the bound).
    pub max_ulp: Vec<(String, u64, f64)>,
}

fn hex(b: &[u8]) -> String {
    b.iter().rev().map(|x| format!("{x:02x}")).collect()
}

/// Splits a record region into per-value hex strings (most significant byte first).
fn values(bytes: &[u8], sizes: &[usize]) -> String {
    let mut off = 0;
    let mut parts = Vec::new();
    for &n in sizes {
        parts.push(format!("0x{}", hex(&bytes[off..off + n])));
        off += n;
    }
    parts.join(", ")
}

/// Distance in units in the last place between two floats given as bits, counted over the values
/// a result can take (`+0` and `-0` coincide); `None` when exactly one is a NaN (two NaNs: 0).
/// An infinity is the value after the largest finite one of its sign, so `FLT_MAX` and `+Inf` are
/// 1 ulp apart (the H100's `div.full.f32` of 0x7f7ffffe and 0x3f7fffff is `+Inf`, the correctly
/// rounded quotient `FLT_MAX`). See [`ulp_distance_ftz`] for results of `.ftz` forms.
pub fn ulp_distance(a: u64, b: u64, bits: u32) -> Option<u64> {
    ulp_distance_ftz(a, b, bits, false)
}

/// [`ulp_distance`]; with `ftz` (a form with `.ftz`, whose results are never subnormal) the count
/// skips the subnormals, so `±0` and `±FLT_MIN` are 1 ulp apart: an approximation that lands on the
/// other side of the flush threshold is one step off, not 2^23 (the H100's `div.approx.ftz.f32`
/// gives 0 for some quotients just above `FLT_MIN`). A subnormal on either side is counted plainly.
pub fn ulp_distance_ftz(a: u64, b: u64, bits: u32, ftz: bool) -> Option<u64> {
    let (sign, exp_mask, man_mask) = if bits == 32 {
        (1u64 << 31, 0x7f80_0000u64, 0x007f_ffffu64)
    } else {
        (
            1u64 << 63,
            0x7ff0_0000_0000_0000u64,
            0x000f_ffff_ffff_ffffu64,
        )
    };
    let nan = |x: u64| x & exp_mask == exp_mask && x & man_mask != 0;
    if nan(a) || nan(b) {
        return (nan(a) && nan(b)).then_some(0);
    }
    let subnormal = |x: u64| x & exp_mask == 0 && x & man_mask != 0;
    let skip = ftz && !subnormal(a) && !subnormal(b);
    let key = |x: u64| -> i128 {
        let mut m = (x & !sign) as i128;
        if skip && m != 0 {
            // normal numbers follow zero directly
            m -= man_mask as i128;
        }
        if x & sign != 0 {
            -m
        } else {
            m
        }
    };
    Some((key(a) - key(b)).unsigned_abs() as u64)
}

fn as_f64(x: u64, bits: u32) -> f64 {
    if bits == 32 {
        f32::from_bits(x as u32) as f64
    } else {
        f64::from_bits(x)
    }
}

/// Whether `got` is within `tol` of `want` for every output value (floats by ulp / absolute
/// difference, anything else exactly); also the largest ulp distance seen.
fn within(form: &CanonicalForm, want: &[u8], got: &[u8], tol: (u64, f64)) -> (bool, u64, f64) {
    let mut off = 0;
    let (mut ok, mut worst, mut worst_abs) = (true, 0u64, 0f64);
    let ftz = form.form.split('.').any(|m| m == "ftz");
    for o in &form.outputs {
        let n = o.bytes();
        let (w, g) = (&want[off..off + n], &got[off..off + n]);
        off += n;
        let bits = match o {
            Output::Reg {
                class: RegClass::F, ..
            } => 32,
            Output::Reg {
                class: RegClass::D, ..
            } => 64,
            _ => {
                ok &= w == g;
                continue;
            }
        };
        let mut le = [0u8; 8];
        le[..n].copy_from_slice(w);
        let wv = u64::from_le_bytes(le);
        le[..n].copy_from_slice(g);
        let gv = u64::from_le_bytes(le);
        match ulp_distance_ftz(wv, gv, bits, ftz) {
            None => ok = false,
            Some(d) => {
                worst = worst.max(d);
                if d > tol.0 {
                    let abs = (as_f64(wv, bits) - as_f64(gv, bits)).abs();
                    worst_abs = worst_abs.max(abs);
                    ok &= abs <= tol.1;
                }
            }
        }
    }
    (ok, worst, worst_abs)
}

/// The packed inputs of every vector of a form, and how many there are.
pub fn form_inputs(form: &CanonicalForm) -> (Vec<u8>, usize) {
    let v = super::inputs::vectors(form);
    (super::inputs::pack(form, &v), v.len())
}

/// Compiles the check program for `forms` and replays their golden vectors; `cxx` is the compiler
/// (`g++`), `dir` a scratch directory.
pub fn check(
    forms: &[CanonicalForm],
    golden: &[&FormVectors],
    rules: &RuleSet,
    target: Target,
    prelude: &str,
    cxx: &str,
    dir: &Path,
) -> Result<CheckReport, String> {
    check_with_inputs(forms, golden, None, rules, target, prelude, cxx, dir)
}

/// [`check`] with the inputs of every form already generated ([`form_inputs`]), so that several
/// targets can share them.
#[allow(clippy::too_many_arguments)]
pub fn check_with_inputs(
    forms: &[CanonicalForm],
    golden: &[&FormVectors],
    pregenerated: Option<&[(Vec<u8>, usize)]>,
    rules: &RuleSet,
    target: Target,
    prelude: &str,
    cxx: &str,
    dir: &Path,
) -> Result<CheckReport, String> {
    let translated = translate(forms, rules, target)?;
    let program = host_program(&translated, rules, target, prelude);
    let src = dir.join("check.cpp");
    let bin = dir.join("check");
    std::fs::write(&src, &program).map_err(|e| e.to_string())?;
    let compile = Command::new(cxx)
        .args([
            "-std=c++17",
            "-O0",
            "-ffp-contract=off",
            "-fno-strict-aliasing",
            "-w",
            "-o",
        ])
        .arg(&bin)
        .arg(&src)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("{cxx}: {e}"))?;
    // Regenerate the inputs while the compiler runs.
    let mut input = Vec::new();
    let mut counts = Vec::new();
    let mut all_inputs = Vec::new();
    for (k, (f, g)) in forms.iter().zip(golden).enumerate() {
        if f.in_bytes() != g.in_bytes || f.out_bytes() != g.out_bytes {
            return Err(format!(
                "{}: record layout differs from the golden file (stale vectors)",
                f.form
            ));
        }
        let (bytes, count) = match pregenerated {
            Some(p) => p[k].clone(),
            None => form_inputs(f),
        };
        if count != g.count {
            return Err(format!(
                "{} {}: {count} vectors generated, {} recorded (stale vectors)",
                f.rule, f.form, g.count
            ));
        }
        for (j, &i) in g.full_index.iter().enumerate() {
            let i = i as usize;
            let ib = f.in_bytes();
            if i >= count || bytes[i * ib..(i + 1) * ib] != *g.record(j).1 {
                return Err(format!(
                    "{} {}: recorded inputs differ from the generated ones (stale vectors)",
                    f.rule, f.form
                ));
            }
        }
        input.extend_from_slice(&(k as u32).to_le_bytes());
        input.extend_from_slice(&(count as u32).to_le_bytes());
        input.extend_from_slice(&bytes);
        counts.push(count);
        all_inputs.push(bytes);
    }
    let out = compile
        .wait_with_output()
        .map_err(|e| format!("{cxx}: {e}"))?;
    if !out.status.success() {
        let _ = std::fs::copy(&src, std::env::temp_dir().join("p2h_failed_check.cpp"));
        return Err(format!(
            "{cxx} failed ({}) on {}:\n{}",
            out.status,
            src.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let inp = dir.join("in.bin");
    let outp = dir.join("out.bin");
    std::fs::write(&inp, &input).map_err(|e| e.to_string())?;
    drop(input);
    let st = Command::new(&bin)
        .arg(&inp)
        .arg(&outp)
        .status()
        .map_err(|e| e.to_string())?;
    if !st.success() {
        return Err(format!("check program failed: {st}"));
    }
    let results = std::fs::read(&outp).map_err(|e| e.to_string())?;
    let mut report = CheckReport::default();
    let mut off = 0;
    for ((f, g), xs) in forms.iter().zip(golden).zip(&all_inputs) {
        let in_sizes: Vec<usize> = f.inputs.iter().map(Input::bytes).collect();
        let out_sizes: Vec<usize> = f.outputs.iter().map(Output::bytes).collect();
        let ob = g.out_bytes;
        let ib = g.in_bytes;
        let mine = &results[off..off + g.count * ob];
        off += g.count * ob;
        let mut shown = 0;
        let mut show = |report: &mut CheckReport, input: String, expected: String, got: String| {
            shown += 1;
            if shown <= 3 {
                report.examples.push(Mismatch {
                    rule: f.rule.clone(),
                    form: f.form.clone(),
                    input,
                    expected,
                    got,
                });
            }
        };
        let mut bad_full = 0;
        let mut worst = (0u64, 0f64);
        for j in 0..g.full_index.len() {
            let (i, x, want) = g.record(j);
            let got = &mine[i * ob..(i + 1) * ob];
            let ok = match f.tolerance {
                Some(tol) => {
                    let (ok, w, a) = within(f, want, got, tol);
                    worst = (worst.0.max(w), worst.1.max(a));
                    ok
                }
                None => got == want,
            };
            if !ok {
                bad_full += 1;
                show(
                    &mut report,
                    format!("#{i}: {}", values(x, &in_sizes)),
                    values(want, &out_sizes),
                    values(got, &out_sizes),
                );
            }
        }
        let mut bad_chunk_vectors = 0;
        if g.chunk > 0 {
            if g.digests.len() != g.count.div_ceil(g.chunk) {
                return Err(format!(
                    "{} {}: digest count does not match the vectors (stale vectors)",
                    f.rule, f.form
                ));
            }
            for (c, d) in g.digests.iter().enumerate() {
                let lo = c * g.chunk;
                let hi = ((c + 1) * g.chunk).min(g.count);
                if digest(&mine[lo * ob..hi * ob]) != *d {
                    bad_chunk_vectors += hi - lo;
                    show(
                        &mut report,
                        format!(
                            "chunk {c} (vectors {lo}..{hi}, first: {})",
                            values(&xs[lo * ib..(lo + 1) * ib], &in_sizes)
                        ),
                        "digest differs".into(),
                        values(&mine[lo * ob..(lo + 1) * ob], &out_sizes),
                    );
                }
            }
        } else if g.full_index.len() != g.count {
            return Err(format!(
                "{} {}: neither digests nor a full record of every vector",
                f.rule, f.form
            ));
        }
        let bad = (bad_full + bad_chunk_vectors).min(g.count);
        if f.tolerance.is_some() {
            report.max_ulp.push((f.form.clone(), worst.0, worst.1));
        }
        report.vectors += g.count;
        report.mismatches += bad;
        report.per_form.push((f.form.clone(), g.count, bad));
    }
    Ok(report)
}

/// Whether any form's `amd` translation differs from its portable one.
pub fn amd_differs(forms: &[CanonicalForm], rules: &RuleSet) -> bool {
    forms.iter().any(|f| {
        let a = lower::analyze(&f.statement(), rules, Target::Amd);
        let p = lower::analyze(&f.statement(), rules, Target::Portable);
        match (a.outcome, p.outcome) {
            (Ok(a), Ok(p)) => {
                a.lines != p.lines
                    || a.helpers
                        .iter()
                        .any(|h| rules.helpers.get(h).is_some_and(|h| h.amd.is_some()))
            }
            _ => true,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{ulp_distance, ulp_distance_ftz};

    #[test]
    fn ulp_distance_counts_representable_results() {
        let d = |a: u32, b: u32| ulp_distance(a as u64, b as u64, 32);
        assert_eq!(d(0x3f80_0000, 0x3f80_0002), Some(2));
        assert_eq!(d(0x0000_0000, 0x8000_0000), Some(0)); // +0 and -0
        assert_eq!(d(0x0000_0001, 0x8000_0001), Some(2)); // across zero
        assert_eq!(d(0x7f80_0000, 0x7f7f_ffff), Some(1)); // Inf follows FLT_MAX
        assert_eq!(d(0xff80_0000, 0xff7f_fffe), Some(2));
        assert!(d(0x7f80_0000, 0xff80_0000).unwrap() > 1 << 31);
        assert_eq!(d(0x7fc0_0000, 0x7fff_ffff), Some(0)); // NaNs
        assert_eq!(d(0x7fc0_0000, 0x7f80_0000), None);
        assert_eq!(d(0x0080_0000, 0x0000_0000), Some(0x80_0000)); // no .ftz: subnormals count
        let f = |a: u32, b: u32| ulp_distance_ftz(a as u64, b as u64, 32, true);
        assert_eq!(f(0x0080_0000, 0x0000_0000), Some(1)); // .ftz: FLT_MIN follows 0
        assert_eq!(f(0x8080_0001, 0x0000_0000), Some(2));
        assert_eq!(f(0x8080_0000, 0x0080_0000), Some(2));
        assert_eq!(f(0x3f80_0000, 0x3f80_0002), Some(2));
        assert_eq!(f(0x0000_0001, 0x0000_0000), Some(1)); // a subnormal: plain count
        assert_eq!(
            ulp_distance_ftz(0x0010_0000_0000_0000, 0x8000_0000_0000_0000, 64, true),
            Some(1)
        );
        assert_eq!(
            ulp_distance(0x7ff0_0000_0000_0000, 0x7fef_ffff_ffff_ffff, 64),
            Some(1)
        );
    }
}
