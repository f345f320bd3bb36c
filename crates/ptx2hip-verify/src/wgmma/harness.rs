//! The CUDA programs that record the `wgmma` forms on an H100, and their input and output files.
//!
//! `write_programs(dir, sets)` writes the kernels (`gG.cu`, up to [`GROUP`] forms a file, each
//! form's kernel guarded by `#if !defined(ONLY) || ONLY == F` so that a file ptxas refuses is
//! compiled again form by form), per form `in/fF.bin.gz` (gzip of a header `u32 cases, image_bytes,
//! in_words, d_regs, digest`; then every case's image; then every case's words: desc A (2),
//! desc B (2), scale-d, then per thread A's registers and C), `forms.tsv`, the driver `main.cu`
//! and `run.sh`. One warpgroup (block of 128 threads) per case: the image is copied from global
//! to shared memory at a 1024-byte boundary, `fence.proxy.async.shared::cta`, `__syncthreads`,
//! `wgmma.fence`, the instruction (the descriptors' start fields moved by the image's address),
//! `commit_group`, `wait_group 0`, and every D register is stored. The driver writes per form
//! `out/fF.out`: every thread's D words case by case (or, for the sweep, the 64-bit FNV-1a
//! digest of each case's words, [`super::model::digest`]), then the image's shared address.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use super::cases::{generate, Case};
use super::forms::{Source, WgmmaForm};
use super::sets::Set;
use crate::matrix::Elem;

/// Forms a kernel file holds.
pub const GROUP: usize = 24;

/// The words of a case after its image: desc A, desc B, scale-d, then per thread A's registers
/// and C.
pub fn case_words(form: &WgmmaForm, case: &Case) -> Vec<u32> {
    let mut w = vec![
        case.desc_a as u32,
        (case.desc_a >> 32) as u32,
        case.desc_b as u32,
        (case.desc_b >> 32) as u32,
        u32::from(case.scale_d),
    ];
    for tid in 0..128 {
        if form.a_source == Source::Regs {
            w.extend_from_slice(&case.a_regs[tid]);
        }
        w.extend_from_slice(&case.c[tid]);
    }
    w
}

/// Words per case after the image.
pub fn in_words(form: &WgmmaForm) -> usize {
    5 + 128 * (form.a_regs() + form.d_regs())
}

/// The kernel and launcher of form `f` (the `F` of `fF`).
pub fn kernel(form: &WgmmaForm, f: usize) -> String {
    let (ar, nd) = (form.a_regs(), form.d_regs());
    let float_d = form.d == Elem::F32;
    let mut s = String::new();
    let _ = writeln!(s, "#if !defined(ONLY) || ONLY == {f}\n// {}", form.name());
    let _ = writeln!(
        s,
        "__global__ void __launch_bounds__(128) form_{f}(const uint8_t* __restrict__ img, const uint32_t* __restrict__ in, uint32_t* __restrict__ out, uint32_t image_bytes, uint32_t* base_out) {{"
    );
    s.push_str("  extern __shared__ __align__(16) uint8_t smem_raw[];\n");
    s.push_str("  const int c = blockIdx.x, tid = threadIdx.x;\n");
    s.push_str("  const uint32_t raw = (uint32_t)__cvta_generic_to_shared(smem_raw);\n");
    s.push_str("  const uint32_t base = (raw + 1023u) & ~1023u;\n");
    s.push_str("  uint4* sm = (uint4*)(smem_raw + (base - raw));\n");
    s.push_str("  const uint4* src = (const uint4*)(img + (size_t)c * image_bytes);\n");
    s.push_str("  for (uint32_t i = tid; i < image_bytes / 16; i += 128) sm[i] = src[i];\n");
    let _ = writeln!(
        s,
        "  const uint32_t* x = in + (size_t)c * {};",
        in_words(form)
    );
    s.push_str("  const uint64_t da = (((uint64_t)x[1] << 32) | x[0]) + (base >> 4);\n");
    s.push_str("  const uint64_t db = (((uint64_t)x[3] << 32) | x[2]) + (base >> 4);\n");
    s.push_str("  const uint32_t scale_d = x[4];\n");
    let _ = writeln!(s, "  const uint32_t* t = x + 5 + tid * {};", ar + nd);
    for r in 0..ar {
        let _ = writeln!(s, "  uint32_t a{r} = t[{r}];");
    }
    for r in 0..nd {
        if float_d {
            let _ = writeln!(s, "  float d{r} = __uint_as_float(t[{}]);", ar + r);
        } else {
            let _ = writeln!(s, "  uint32_t d{r} = t[{}];", ar + r);
        }
    }
    s.push_str("  if (c == 0 && tid == 0) *base_out = base;\n");
    s.push_str("  asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");\n");
    s.push_str("  __syncthreads();\n");
    s.push_str("  asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n");
    let regs: Vec<String> = (0..nd).map(|r| format!("%{r}")).collect();
    let a = match form.a_source {
        Source::Desc => format!("%{}", nd),
        Source::Regs => format!("{{%{}, %{}, %{}, %{}}}", nd, nd + 1, nd + 2, nd + 3),
    };
    let bd = nd + if form.a_source == Source::Desc { 1 } else { 4 };
    let mut args = vec![
        format!("{{{}}}", regs.join(", ")),
        a,
        format!("%{bd}"),
        "p".into(),
    ];
    args.extend(form.immediates().iter().map(|i| i.to_string()));
    let _ = writeln!(
        s,
        "  asm volatile(\"{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{}, 0;\\n{} {};\\n}}\\n\"",
        bd + 1,
        form.opcode(),
        args.join(", ")
    );
    let c = if float_d { "+f" } else { "+r" };
    let outs: Vec<String> = (0..nd).map(|r| format!("\"{c}\"(d{r})")).collect();
    let mut ins = Vec::new();
    match form.a_source {
        Source::Desc => ins.push("\"l\"(da)".to_string()),
        Source::Regs => ins.extend((0..4).map(|r| format!("\"r\"(a{r})"))),
    }
    ins.push("\"l\"(db)".into());
    ins.push("\"r\"(scale_d)".into());
    let _ = writeln!(
        s,
        "    : {}\n    : {}\n    : \"memory\");",
        outs.join(", "),
        ins.join(", ")
    );
    s.push_str("  asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");\n");
    s.push_str("  asm volatile(\"wgmma.wait_group.sync.aligned 0;\" ::: \"memory\");\n");
    let _ = writeln!(s, "  uint32_t* y = out + ((size_t)c * 128 + tid) * {nd};");
    for r in 0..nd {
        if float_d {
            let _ = writeln!(s, "  y[{r}] = __float_as_uint(d{r});");
        } else {
            let _ = writeln!(s, "  y[{r}] = d{r};");
        }
    }
    s.push_str("}\n");
    let _ = writeln!(
        s,
        "extern \"C\" int run_f{f}(const uint8_t* img, const uint32_t* in, uint32_t* out, int cases, uint32_t image_bytes, uint32_t* base_out) {{\n  const int smem = (int)image_bytes + 1024;\n  cudaFuncSetAttribute(form_{f}, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);\n  form_{f}<<<cases, 128, smem>>>(img, in, out, image_bytes, base_out);\n  return (int)cudaDeviceSynchronize();\n}}\n#endif"
    );
    s
}

/// The bytes of a form's input file.
pub fn input_file<'a>(
    form: &WgmmaForm,
    cases: impl Iterator<Item = &'a Case> + Clone,
    digest: bool,
) -> Vec<u8> {
    let image_bytes = cases.clone().map(|c| c.image.len()).max().unwrap_or(1024);
    let mut v = Vec::new();
    for h in [
        cases.clone().count(),
        image_bytes,
        in_words(form),
        form.d_regs(),
        usize::from(digest),
    ] {
        v.extend_from_slice(&(h as u32).to_le_bytes());
    }
    for c in cases.clone() {
        v.extend_from_slice(&c.image);
        v.resize(v.len() + image_bytes - c.image.len(), 0);
    }
    for c in cases {
        for w in case_words(form, c) {
            v.extend_from_slice(&w.to_le_bytes());
        }
    }
    v
}

const MAIN_CU: &str = r#"// Runs the forms that compiled (table.h, written by run.sh) from index argv[2] on: in/fF.bin ->
// $OUT/fF.out. A form whose launch fails writes its index to $OUT/failed.txt and ends the run
// (the CUDA context is lost); run.sh starts again after it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
typedef int (*runner)(const uint8_t*, const uint32_t*, uint32_t*, int, uint32_t, uint32_t*);
#define RUN(b) extern "C" int run_##b(const uint8_t*, const uint32_t*, uint32_t*, int, uint32_t, uint32_t*);
#include "table.h"
#undef RUN
struct Form { const char* name; runner run; };
#define RUN(b) {#b, run_##b},
static const Form forms[] = {
#include "table.h"
};
#undef RUN
int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const int n = (int)(sizeof forms / sizeof forms[0]);
  for (int i = atoi(argv[2]); i < n; i++) {
    const Form& f = forms[i];
    char path[512];
    snprintf(path, sizeof path, "in/%s.bin", f.name);
    FILE* in = fopen(path, "rb");
    uint32_t h[5];
    if (!in || fread(h, 4, 5, in) != 5) return 2;
    const size_t cases = h[0], image = h[1], words = h[2], nd = h[3], digest = h[4];
    std::vector<uint8_t> img(cases * image);
    std::vector<uint32_t> x(cases * words), y(cases * 128 * nd, 0u);
    if (fread(img.data(), 1, img.size(), in) != img.size() || fread(x.data(), 4, x.size(), in) != x.size()) return 2;
    fclose(in);
    uint8_t* dimg; uint32_t *dx, *dy, *dbase;
    if (cudaMalloc(&dimg, img.size()) || cudaMalloc(&dx, x.size() * 4) || cudaMalloc(&dy, y.size() * 4) || cudaMalloc(&dbase, 4)) return 3;
    cudaMemcpy(dimg, img.data(), img.size(), cudaMemcpyHostToDevice);
    cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice);
    cudaMemset(dy, 0, y.size() * 4);
    const int e = f.run(dimg, dx, dy, (int)cases, (uint32_t)image, dbase);
    if (e != 0) {
      fprintf(stderr, "%s: %s\n", f.name, cudaGetErrorString((cudaError_t)e));
      snprintf(path, sizeof path, "%s/failed.txt", argv[1]);
      FILE* ff = fopen(path, "w");
      if (ff) { fprintf(ff, "%d\n", i); fclose(ff); }
      return 4;
    }
    uint32_t base = 0;
    cudaMemcpy(y.data(), dy, y.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(&base, dbase, 4, cudaMemcpyDeviceToHost);
    std::vector<uint32_t> res;
    if (digest) {
      for (size_t c = 0; c < cases; c++) {
        uint64_t d = 0xcbf29ce484222325ull;
        for (size_t k = 0; k < 128 * nd; k++) {
          const uint32_t w = y[c * 128 * nd + k];
          for (int b = 0; b < 4; b++) d = (d ^ ((w >> (8 * b)) & 0xff)) * 0x100000001b3ull;
        }
        res.push_back((uint32_t)d);
        res.push_back((uint32_t)(d >> 32));
      }
    } else {
      res = y;
    }
    res.push_back(base);
    snprintf(path, sizeof path, "%s/%s.out", argv[1], f.name);
    FILE* out = fopen(path, "wb");
    if (!out || fwrite(res.data(), 4, res.size(), out) != res.size()) return 5;
    fclose(out);
    cudaFree(dimg); cudaFree(dx); cudaFree(dy); cudaFree(dbase);
  }
  return 0;
}
"#;

const RUN_SH: &str = r#"#!/bin/bash
# Records the wgmma forms on the local H100: bash run.sh DIR (results in DIR/out/).
set -u
cd "${1:-$(dirname "$0")}"
OUT=out
mkdir -p "$OUT" obj
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
nvcc --version | grep -E "release|Build" | tr '\n' ' ' > "$OUT/nvcc.txt"
date -u +%Y-%m-%d > "$OUT/date.txt"
ARCH=${ARCH:-sm_90a}
echo "$ARCH" > "$OUT/arch.txt"
# -arch=sm_90a made nvcc 13 emit compute_90 PTX, which ptxas refuses for wgmma.
GENCODE="-gencode arch=compute_${ARCH#sm_},code=$ARCH"
cp forms.tsv "$OUT/forms.tsv"
T0=$(date +%s)
ls in/*.gz 2>/dev/null | xargs -r -P "${JOBS:-16}" -n 16 gunzip -f
# Each file at once; a file that fails is compiled again form by form (a refused form costs
# only itself).
compile_group() {
  g=$1
  if nvcc -O2 $GENCODE -c -o obj/$g.o $g.cu 2> "$OUT/$g.cerr"; then
    grep -oE "^#if !defined\(ONLY\) \|\| ONLY == [0-9]+" $g.cu | awk '{print "f"$NF}' > obj/$g.ok
  else
    : > obj/$g.ok
    for f in $(grep -oE "^#if !defined\(ONLY\) \|\| ONLY == [0-9]+" $g.cu | awk '{print $NF}'); do
      if nvcc -O2 $GENCODE -DONLY=$f -c -o obj/${g}_$f.o $g.cu 2> "$OUT/f$f.cerr"; then
        echo "f$f" >> obj/$g.ok
      else
        rm -f obj/${g}_$f.o
      fi
    done
  fi
}
export -f compile_group
export GENCODE OUT
ls g*.cu | sed 's/\.cu$//' | xargs -P "${JOBS:-16}" -I{} bash -c 'compile_group {}'
cat obj/*.ok | sort -V | awk '{print "RUN(" $1 ")"}' > table.h
echo "compiled $(wc -l < table.h) forms of $(wc -l < forms.tsv) in $(( $(date +%s) - T0 )) s"
nvcc -O2 $GENCODE -o record main.cu obj/*.o 2> "$OUT/link.err" || { echo "link failed"; exit 1; }
START=0
for attempt in $(seq 1 50); do
  rm -f "$OUT/failed.txt"
  timeout 600 ./record "$OUT" $START 2>> "$OUT/run.err"
  rc=$?
  [ $rc -eq 0 ] && break
  if [ -f "$OUT/failed.txt" ]; then
    START=$(( $(cat "$OUT/failed.txt") + 1 ))
    echo "form index $(( START - 1 )) failed, going on from $START"
  else
    echo "record stopped with $rc"; break
  fi
done
echo "recorded $(ls "$OUT"/f*.out | wc -l) forms of $(wc -l < forms.tsv) in $(( $(date +%s) - T0 )) s"
ls "$OUT"/*.out | xargs -P "${JOBS:-16}" -n 8 gzip -f
"#;

/// Writes the programs and inputs of the forms of `sets` to `dir`; returns how many forms.
pub fn write_programs(dir: &Path, sets: &[Set]) -> Result<usize, String> {
    let io = |e: std::io::Error| e.to_string();
    std::fs::create_dir_all(dir.join("in")).map_err(io)?;
    let mut tsv = String::new();
    let mut f = 0;
    let mut group = String::new();
    let mut groups = 0;
    let flush = |group: &mut String, groups: &mut usize| -> Result<(), String> {
        if group.is_empty() {
            return Ok(());
        }
        let text = format!("#include <cstdint>\n#include <cuda_runtime.h>\n{group}");
        std::fs::write(dir.join(format!("g{groups}.cu")), text).map_err(io)?;
        group.clear();
        *groups += 1;
        Ok(())
    };
    for &set in sets {
        for form in set.forms() {
            let cases = generate(set, &form);
            let digest = set == Set::Sweep;
            let file = std::fs::File::create(dir.join(format!("in/f{f}.bin.gz"))).map_err(io)?;
            let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
            gz.write_all(&input_file(&form, cases.iter(), digest))
                .map_err(io)?;
            gz.finish().map_err(io)?;
            group.push_str(&kernel(&form, f));
            let _ = writeln!(
                tsv,
                "f{f}\t{}\t{}\t{}",
                set.name(),
                cases.len(),
                form.name()
            );
            f += 1;
            if f % GROUP == 0 {
                flush(&mut group, &mut groups)?;
            }
        }
        flush(&mut group, &mut groups)?;
    }
    std::fs::write(dir.join("forms.tsv"), tsv).map_err(io)?;
    std::fs::write(dir.join("main.cu"), MAIN_CU).map_err(io)?;
    std::fs::write(dir.join("run.sh"), RUN_SH).map_err(io)?;
    Ok(f)
}
