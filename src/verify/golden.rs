//! Golden vector files, the CUDA programs that produce them and the host C++ check that replays
//! them through the rule translations.
//!
//! File format (`tests/vectors/<family>.bin.gz`, gzip): the line `P2HV1`, one line of JSON with
//! `family, gpu, driver, nvcc, date`, then per form: `u32 len + bytes` for the form name, the rule
//! code and the canonical asm text, `u32 in_bytes, u32 out_bytes, u32 count`, and `count` records of
//! `in_bytes + out_bytes` bytes (values little-endian at register width, see [`super::forms`]).

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::forms::{CanonicalForm, Input, Output, MEM_STRIDE, STORE_FILL};
use crate::lower::{self, RuleSet, Target};

const MAGIC: &str = "P2HV1\n";

/// The vectors of one form as recorded on the GPU.
#[derive(Debug, Clone)]
pub struct FormVectors {
    pub form: String,
    pub rule: String,
    pub ptx: String,
    pub in_bytes: usize,
    pub out_bytes: usize,
    /// `count * (in_bytes + out_bytes)` bytes.
    pub records: Vec<u8>,
}

impl FormVectors {
    pub fn count(&self) -> usize {
        self.records.len() / (self.in_bytes + self.out_bytes).max(1)
    }
    pub fn record(&self, i: usize) -> (&[u8], &[u8]) {
        let n = self.in_bytes + self.out_bytes;
        let r = &self.records[i * n..(i + 1) * n];
        r.split_at(self.in_bytes)
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
            for n in [f.in_bytes, f.out_bytes, f.count()] {
                raw.extend_from_slice(&(n as u32).to_le_bytes());
            }
            raw.extend_from_slice(&f.records);
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
        flate2::read::GzDecoder::new(file).read_to_end(&mut raw).map_err(|e| format!("{}: {e}", path.display()))?;
        let bad = || format!("{}: not a golden vector file", path.display());
        let rest = raw.strip_prefix(MAGIC.as_bytes()).ok_or_else(bad)?;
        let nl = rest.iter().position(|&b| b == b'\n').ok_or_else(bad)?;
        let header: Value = serde_json::from_slice(&rest[..nl]).map_err(|_| bad())?;
        let mut p = &rest[nl + 1..];
        let u32_ = |p: &mut &[u8]| -> Result<usize, String> {
            if p.len() < 4 {
                return Err(bad());
            }
            let v = u32::from_le_bytes(p[..4].try_into().unwrap()) as usize;
            *p = &p[4..];
            Ok(v)
        };
        let mut forms = Vec::new();
        while !p.is_empty() {
            let mut strs = Vec::new();
            for _ in 0..3 {
                let n = u32_(&mut p)?;
                if p.len() < n {
                    return Err(bad());
                }
                strs.push(String::from_utf8_lossy(&p[..n]).into_owned());
                p = &p[n..];
            }
            let (ib, ob, count) = (u32_(&mut p)?, u32_(&mut p)?, u32_(&mut p)?);
            let len = count * (ib + ob);
            if p.len() < len {
                return Err(bad());
            }
            let ptx = strs.pop().unwrap();
            let rule = strs.pop().unwrap();
            let form = strs.pop().unwrap();
            forms.push(FormVectors { form, rule, ptx, in_bytes: ib, out_bytes: ob, records: p[..len].to_vec() });
            p = &p[len..];
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
    let mut off = 0;
    for i in &form.inputs {
        match i {
            Input::Reg { op, class, .. } => {
                let _ = writeln!(s, "  {} op{op}; memcpy(&op{op}, x + {off}, {});", class.c_type(), class.bytes());
                declared[*op] = true;
            }
            Input::Mem { op, bytes, .. } => {
                let _ = writeln!(s, "  memcpy(buf, x + {off}, {bytes});");
                let _ = writeln!(s, "  uint64_t op{op} = (uint64_t)(uintptr_t)buf;");
                declared[*op] = true;
            }
        }
        off += i.bytes();
    }
    for o in &form.outputs {
        match o {
            Output::Reg { op, class, init_zero } => {
                let init = if *init_zero { " = 0" } else { "" };
                let _ = writeln!(s, "  {} op{op}{init};", class.c_type());
                declared[*op] = true;
            }
            Output::Mem { .. } => {
                let _ = writeln!(s, "  memset(buf, {STORE_FILL:#x}, {MEM_STRIDE});");
            }
        }
    }
    // Address operands of stores.
    for (k, c) in form.constraints.iter().enumerate() {
        if !declared[k] && c == "l" {
            let _ = writeln!(s, "  uint64_t op{k} = (uint64_t)(uintptr_t)buf;");
        }
    }
    s
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

/// A standalone CUDA program running one form over `argv[1]` (input records) into `argv[2]`.
pub fn cuda_program(form: &CanonicalForm) -> String {
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
        r#"// generated by ptx2hip verify: {rule} {form}
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <vector>
#define IN_BYTES {ib}
#define OUT_BYTES {ob}
__global__ void run_form(const unsigned char* xs, unsigned char* ys, unsigned char* mem, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned char* x = xs + (size_t)i * (IN_BYTES ? IN_BYTES : 1);
  unsigned char* y = ys + (size_t)i * OUT_BYTES;
  unsigned char* buf = mem + (size_t)i * {stride};
  (void)x; (void)buf;
{setup}  asm volatile("{ptx}" : {outs} : {ins} : "memory");
{results}}}
int main(int argc, char** argv) {{
  FILE* f = fopen(argv[1], "rb");
  std::vector<unsigned char> in;
  unsigned char chunk[65536];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) in.insert(in.end(), chunk, chunk + got);
  fclose(f);
  int n = IN_BYTES ? (int)(in.size() / IN_BYTES) : 1;
  unsigned char *din, *dout, *dmem;
  cudaMalloc(&din, in.size() + 16);
  cudaMalloc(&dout, (size_t)n * OUT_BYTES + 16);
  cudaMalloc(&dmem, (size_t)n * {stride} + 16);
  cudaMemcpy(din, in.data(), in.size(), cudaMemcpyHostToDevice);
  run_form<<<(n + 255) / 256, 256>>>(din, dout, dmem, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {{ fprintf(stderr, "cuda: %s\n", cudaGetErrorString(e)); return 1; }}
  std::vector<unsigned char> out((size_t)n * OUT_BYTES);
  cudaMemcpy(out.data(), dout, out.size(), cudaMemcpyDeviceToHost);
  FILE* g = fopen(argv[2], "wb");
  fwrite(out.data(), 1, out.size(), g);
  fclose(g);
  return 0;
}}
"#,
        rule = form.rule,
        form = form.form,
        ib = form.in_bytes(),
        ob = form.out_bytes(),
        stride = MEM_STRIDE,
        setup = operand_setup(form),
        ptx = c_escape(&form.ptx),
        outs = outs.join(", "),
        ins = ins.join(", "),
        results = operand_results(form),
    )
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
struct uint4 { uint32_t x, y, z, w; };
struct uint2 { uint32_t x, y; };
struct p2h_dim3 { uint32_t x, y, z; };
static const p2h_dim3 threadIdx = {0, 0, 0}, blockIdx = {0, 0, 0}, blockDim = {1, 1, 1}, gridDim = {1, 1, 1};
static inline void __threadfence() {}
static inline void __threadfence_block() {}
static inline void __threadfence_system() {}
static inline long long clock64() { return 0; }
"#;

/// One translated form ready for the host program.
pub struct HostForm<'a> {
    pub form: &'a CanonicalForm,
    pub lines: Vec<String>,
    pub helpers: Vec<String>,
}

/// Translates every form for a target; `Err` lists the forms the rules no longer translate.
pub fn translate<'a>(forms: &'a [CanonicalForm], rules: &RuleSet, target: Target) -> Result<Vec<HostForm<'a>>, String> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for f in forms {
        let a = lower::analyze(&f.statement(), rules, target);
        match a.outcome {
            Ok(t) => out.push(HostForm { form: f, lines: lower::render(&t.lines, "  ", "  "), helpers: t.helpers }),
            Err(u) => errors.push(format!("{} ({}): {}", f.form, f.ptx, u.message)),
        }
    }
    if errors.is_empty() { Ok(out) } else { Err(errors.join("\n")) }
}

/// The C++17 check program for a set of translated forms.
pub fn host_program(forms: &[HostForm], rules: &RuleSet, target: Target, prelude: &str) -> String {
    let mut s = String::from(HOST_SHIM);
    s.push_str(prelude);
    let all: Vec<String> = forms.iter().flat_map(|f| f.helpers.iter().cloned()).collect();
    for name in rules.helper_closure(all.iter()) {
        if let Some(h) = rules.helpers.get(&name) {
            let text = match target {
                Target::Amd => h.amd.as_deref().unwrap_or(&h.portable),
                Target::Portable => &h.portable,
            };
            s.push_str(text.trim());
            s.push('\n');
        }
    }
    for (k, f) in forms.iter().enumerate() {
        let _ = writeln!(s, "// {} {}: {}", f.form.rule, f.form.form, f.form.ptx);
        let _ = writeln!(s, "static void form_{k}(const unsigned char* x, unsigned char* y, unsigned char* buf) {{");
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
        (0..forms.len()).map(|k| format!("form_{k}")).collect::<Vec<_>>().join(", ")
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
  alignas(16) unsigned char buf[64];
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
    pub mismatches: usize,
    /// The first few mismatches of each form.
    pub examples: Vec<Mismatch>,
    /// Per form: (form, vectors, mismatches).
    pub per_form: Vec<(String, usize, usize)>,
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
    let translated = translate(forms, rules, target)?;
    let program = host_program(&translated, rules, target, prelude);
    let src = dir.join("check.cpp");
    let bin = dir.join("check");
    std::fs::write(&src, &program).map_err(|e| e.to_string())?;
    let out = Command::new(cxx)
        .args(["-std=c++17", "-O1", "-ffp-contract=off", "-fno-strict-aliasing", "-w", "-o"])
        .arg(&bin)
        .arg(&src)
        .output()
        .map_err(|e| format!("{cxx}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{cxx} failed on {}:\n{}", src.display(), String::from_utf8_lossy(&out.stderr)));
    }
    let mut input = Vec::new();
    for (k, (f, g)) in forms.iter().zip(golden).enumerate() {
        if f.in_bytes() != g.in_bytes || f.out_bytes() != g.out_bytes {
            return Err(format!("{}: record layout differs from the golden file (stale vectors)", f.form));
        }
        input.extend_from_slice(&(k as u32).to_le_bytes());
        input.extend_from_slice(&(g.count() as u32).to_le_bytes());
        for i in 0..g.count() {
            input.extend_from_slice(g.record(i).0);
        }
    }
    let inp = dir.join("in.bin");
    let outp = dir.join("out.bin");
    std::fs::write(&inp, &input).map_err(|e| e.to_string())?;
    let st = Command::new(&bin).arg(&inp).arg(&outp).status().map_err(|e| e.to_string())?;
    if !st.success() {
        return Err(format!("check program failed: {st}"));
    }
    let results = std::fs::read(&outp).map_err(|e| e.to_string())?;
    let mut report = CheckReport::default();
    let mut off = 0;
    for (f, g) in forms.iter().zip(golden) {
        let in_sizes: Vec<usize> = f.inputs.iter().map(Input::bytes).collect();
        let out_sizes: Vec<usize> = f.outputs.iter().map(Output::bytes).collect();
        let mut bad = 0;
        for i in 0..g.count() {
            let (x, want) = g.record(i);
            let got = &results[off..off + g.out_bytes];
            off += g.out_bytes;
            if got != want {
                bad += 1;
                if bad <= 3 {
                    report.examples.push(Mismatch {
                        rule: f.rule.clone(),
                        form: f.form.clone(),
                        input: values(x, &in_sizes),
                        expected: values(want, &out_sizes),
                        got: values(got, &out_sizes),
                    });
                }
            }
        }
        report.vectors += g.count();
        report.mismatches += bad;
        report.per_form.push((f.form.clone(), g.count(), bad));
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
                    || a.helpers.iter().any(|h| rules.helpers.get(h).is_some_and(|h| h.amd.is_some()))
            }
            _ => true,
        }
    })
}
