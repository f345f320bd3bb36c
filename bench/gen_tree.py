#!/usr/bin/env python3
"""Generates the benchmark inputs: a tree of ~10,000 CUDA-like files (1% with inline asm) and one
~20 MB file dense with asm statements. Deterministic (fixed seed)."""
import os
import random
import sys

random.seed(20261122)
root = sys.argv[1]
files = int(sys.argv[2]) if len(sys.argv) > 2 else 10000

PLAIN = """// Kernel {i}: elementwise helpers
#include <cuda_runtime.h>
template <typename T>
__device__ __forceinline__ T scale_{i}(T x, T s) {{ return x * s + T({i}); }}
__global__ void kernel_{i}(const float* __restrict__ in, float* __restrict__ out, int n) {{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) {{
    float v = in[idx];
#pragma unroll
    for (int k = 0; k < 4; ++k) v = scale_{i}(v, 1.0001f);
    out[idx] = v;
  }}
}}
"""

ASM_BODY = [
    'asm volatile("add.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));',
    'asm("mul.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));',
    'asm("{{\\n\\t.reg .pred p;\\n\\tsetp.ne.b32 p, %1, 0;\\n\\t@p mov.u32 %0, %2;\\n\\t}}" : "+r"(r) : "r"(a), "r"(b));',
    'asm("cvt.rni.sat.s8.f16 %0, %1;" : "=h"(h) : "h"(g));',
    'asm volatile("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));',
]

def asm_function(i, j):
    stmts = "\n  ".join(random.choice(ASM_BODY) for _ in range(3))
    return f"""__device__ unsigned fn_{i}_{j}(unsigned a, unsigned b, unsigned c, unsigned short g) {{
  unsigned r = 0; unsigned short h = 0;
  {stmts}
  return r + h;
}}
"""

os.makedirs(root, exist_ok=True)
for i in range(files):
    d = os.path.join(root, f"mod{i // 100:03d}")
    os.makedirs(d, exist_ok=True)
    text = PLAIN.format(i=i) * 8
    if i % 100 == 0:
        text += "".join(asm_function(i, j) for j in range(10))
    with open(os.path.join(d, f"k{i:05d}.cu"), "w") as f:
        f.write(text)

with open(os.path.join(os.path.dirname(root.rstrip('/')), "big.cu"), "w") as f:
    size, j = 0, 0
    while size < 20 * 1024 * 1024:
        chunk = asm_function(99999, j)
        f.write(chunk)
        size += len(chunk)
        j += 1
