#!/usr/bin/env bash
# AMD instruction counts of memory/special-register translations next to the plain HIP a careful
# port would write for the same thing (gfx942 by default). Each pair is two noinline device
# functions in one file: `ptx_N` holds the inline PTX (translated by ptx2hip --target amd),
# `hip_N` the HIP idiom. Counted like crates/ptx2hip-verify/src/bin/isa_count.rs: machine instructions between a
# function's label and its .Lfunc_end label, without the entry s_waitcnt and the s_setpc_b64.
# Usage: bench/memory_equivalents.sh [arch] [workdir]    (prints a Markdown table)
set -euo pipefail
arch=${1:-gfx942}
work=${2:-/tmp/ptx2hip-memeq}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
cargo build --release --manifest-path "$here/Cargo.toml" -q
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
# (what, signature, PTX body, HIP body)
pairs = [
  ("ld.global.u32", "uint32_t f(const uint32_t* p)", 'uint32_t v; asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p)); return v;', "return *p;"),
  ("ld.global.v4.u32", "uint4 f(const uint4* p)", 'uint4 v; asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p)); return v;', "return *p;"),
  ("ld.global.cs.v4.u32 (nontemporal)", "uint4 f(const uint4* p)", 'uint4 v; asm volatile("ld.global.cs.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p)); return v;', "typedef uint32_t W __attribute__((ext_vector_type(4))); W w = __builtin_nontemporal_load((const W*)p); return make_uint4(w.x, w.y, w.z, w.w);"),
  ("ld.global.cg.u32 (L1 bypass)", "uint32_t f(const uint32_t* p)", 'uint32_t v; asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p)); return v;', "return __hip_atomic_load((uint32_t*)p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);"),
  ("ld.volatile.global.u32", "uint32_t f(const uint32_t* p)", 'uint32_t v; asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p)); return v;', "return *(const volatile uint32_t*)p;"),
  ("2 × ld.volatile.global.u32 (independent)", "uint32_t f(const uint32_t* p, const uint32_t* q)", 'uint32_t a, b; asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(a) : "l"(p)); asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(b) : "l"(q)); return a + b;', "return __hip_atomic_load((uint32_t*)p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM) + __hip_atomic_load((uint32_t*)q, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);"),
  ("ld.volatile.shared.v4.u32 [32-bit addr]", "uint4 f(uint32_t a)", 'uint4 v; asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a)); return v;', "typedef uint32_t W __attribute__((ext_vector_type(4))); W w = *(const volatile __attribute__((address_space(3))) W*)(uintptr_t)a; return make_uint4(w.x, w.y, w.z, w.w);"),
  ("cp.async.cg 16, src-size (zero fill)", "void f(uint32_t s, const uint4* g, uint32_t n)", 'asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(s), "l"(g), "r"(n) : "memory");', "*(uint4*)(__attribute__((address_space(3))) char*)(uintptr_t)s = n ? *g : make_uint4(0, 0, 0, 0);"),
  ("atom.global.cas.b16", "uint16_t f(uint16_t* p, uint16_t c, uint16_t v)", 'uint16_t o; asm volatile("atom.global.cas.b16 %0, [%1], %2, %3;" : "=h"(o) : "l"(p), "h"(c), "h"(v) : "memory"); return o;', "__hip_atomic_compare_exchange_strong(p, &c, v, __ATOMIC_RELAXED, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT); return c;"),
  ("st.global.cs.v4.u32 (nontemporal)", "void f(uint4* p, uint4 v)", 'asm volatile("st.global.cs.v4.u32 [%0], {%1,%2,%3,%4};" :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w));', "typedef uint32_t W __attribute__((ext_vector_type(4))); W w = {v.x, v.y, v.z, v.w}; __builtin_nontemporal_store(w, (W*)p);"),
  ("ld.shared.v4.u32 [32-bit addr]", "uint4 f(uint32_t a)", 'uint4 v; asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4+16];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a)); return v;', "return *(const uint4*)(const __attribute__((address_space(3))) char*)(uintptr_t)(a + 16);"),
  ("st.shared.b32 [32-bit addr]", "void f(uint32_t a, uint32_t v)", 'asm volatile("st.shared.b32 [%0], %1;" :: "r"(a), "r"(v));', "*(uint32_t*)(__attribute__((address_space(3))) char*)(uintptr_t)a = v;"),
  ("cvta.to.shared.u64", "uint64_t f(const void* p)", 'uint64_t a; asm("cvta.to.shared.u64 %0, %1;" : "=l"(a) : "l"(p)); return a;', "return (uint32_t)(uintptr_t)(const __attribute__((address_space(3))) char*)p;"),
  ("isspacep.shared", "uint32_t f(const void* p)", 'uint32_t r; asm("{ .reg .pred q; isspacep.shared q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(r) : "l"(p)); return r;', "return __builtin_amdgcn_is_shared((const __attribute__((address_space(0))) void*)p);"),
  ("%clock64", "uint64_t f()", 'uint64_t t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)); return t;', "return clock64();"),
  ("%globaltimer (ns)", "uint64_t f()", 'uint64_t t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t;', "return wall_clock64() * 10;"),
  ("%smid", "uint32_t f()", 'uint32_t s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s;', "return __smid();"),
  ("%warpid", "uint32_t f()", 'uint32_t w; asm volatile("mov.u32 %0, %%warpid;" : "=r"(w)); return w;', "return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32;"),
  ("nanosleep.u32 6400", "void f()", 'asm volatile("nanosleep.u32 6400;");', "for (int i = 0; i < 100; ++i) __builtin_amdgcn_s_sleep(1);"),
  ("prefetch.global.L2", "void f(const void* p)", 'asm volatile("prefetch.global.L2 [%0];" :: "l"(p));', ""),
]
with open(f"{work}/pairs.cu", "w") as f:
    f.write("#include <stdint.h>\n")
    for k, (what, sig, ptx, hip) in enumerate(pairs):
        name = sig.split(" f(")[0]
        args = sig[sig.index("("):]
        f.write(f'extern "C" __device__ __attribute__((noinline, used)) {name} ptx_{k}{args} {{ {ptx} }}\n')
        f.write(f'extern "C" __device__ __attribute__((noinline, used)) {name} hip_{k}{args} {{ {hip} }}\n')
with open(f"{work}/pairs.tsv", "w") as f:
    for what, *_ in pairs:
        f.write(what + "\n")
PY
"$here/target/release/ptx2hip" translate --target amd --emit replace --out-dir "$work/amd" "$work/pairs.cu" 2>&1 | grep -v "^$" || true
clang-19 -x hip -std=c++17 --offload-arch="$arch" --cuda-device-only -nogpulib -O2 -S \
  -include hip/hip_runtime.h "$work/amd/pairs.cu" -o "$work/pairs.s" 2>&1 | grep -E "error" || true
python3 - "$work" "$arch" <<'PY'
import re, sys
work, arch = sys.argv[1], sys.argv[2]
asm = open(f"{work}/pairs.s").read().splitlines()
def count(fn):
    n, inside = 0, False
    for line in asm:
        if line.startswith(fn + ":"):
            inside, first = True, True
            continue
        if inside:
            if line.startswith(".Lfunc_end"):
                return n
            s = line.strip()
            if not s or s.startswith((";", ".", "//")) or s.endswith(":"):
                continue
            if s.startswith("s_setpc_b64"):
                continue
            if first and s.startswith("s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)"):
                first = False
                continue
            first = False
            n += 1
    return None
print(f"| form ({arch}) | ptx2hip --target amd | plain HIP |")
print("|---|---:|---:|")
for k, what in enumerate(open(f"{work}/pairs.tsv").read().splitlines()):
    print(f"| `{what}` | {count(f'ptx_{k}')} | {count(f'hip_{k}')} |")
PY
