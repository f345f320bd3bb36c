#!/usr/bin/env python3
"""Writes forms.cuh (one device function per half-family PTX form, real inline asm), main.cu (the
bit-exact comparison of the real instruction against the ptx2hip translation, for the GPU) and
table.inc (the forms for tests/amd_models/half_check.cpp).

GPU run (sm_90): python3 gen.py DIR; ptx2hip translate --emit replace --target portable --out-dir DIR/o
DIR/forms.cuh; sed 's/PTXF_/PORT_/g' DIR/o/forms.cuh > DIR/port.cuh;
nvcc -arch=sm_90 -O2 -std=c++17 --extended-lambda DIR/main.cu -o t && ./t
(binary/ternary forms: 2^24 vectors each, all 36^n edge combinations first, then random bits with
edge values mixed in and, for fma, c chosen near -a*b or tiny; unary: all 65536 values, x2 with a
varying high lane). RESULTS-sm90.txt is the output on an H100 (nvcc 13.0)."""
import sys
out = sys.argv[1]
forms = []  # (name, ptx, kind, nsrc, x2, bf)
def add(ptx, nsrc, ty):
    x2 = ty.endswith('x2'); bf = ty.startswith('bf')
    name = ptx.replace('.', '_')
    ops = ', '.join(f'%{i}' for i in range(nsrc + 1))
    forms.append((name, f'{ptx} {ops};', nsrc, x2, bf))
for op in ['add', 'sub', 'mul']:
    for ty in ['f16', 'f16x2', 'bf16', 'bf16x2']:
        mods = ['', '.rn'] + (['.ftz', '.sat', '.rn.ftz.sat'] if not ty.startswith('bf') else [])
        for m in mods: add(f'{op}{m}.{ty}', 2, ty)
for ty in ['f16', 'f16x2', 'bf16', 'bf16x2']:
    mods = ['.rn', '.rn.relu'] + (['.rn.ftz', '.rn.sat', '.rn.ftz.sat', '.rn.ftz.relu'] if not ty.startswith('bf') else [])
    for m in mods: add(f'fma{m}.{ty}', 3, ty)
for op in ['neg', 'abs']:
    for ty in ['f16', 'f16x2', 'bf16', 'bf16x2']:
        for m in [''] + (['.ftz'] if not ty.startswith('bf') else []): add(f'{op}{m}.{ty}', 1, ty)
for op in ['min', 'max']:
    for ty in ['f16', 'f16x2', 'bf16', 'bf16x2']:
        mods = ['', '.NaN', '.xorsign.abs', '.NaN.xorsign.abs'] + (['.ftz', '.ftz.NaN', '.ftz.xorsign.abs'] if not ty.startswith('bf') else [])
        for m in mods: add(f'{op}{m}.{ty}', 2, ty)
f = ['#include <stdint.h>', '#include <string.h>', '#include <math.h>']
for i, (name, ptx, n, x2, bf) in enumerate(forms):
    t = 'uint32_t' if x2 else 'uint16_t'; c = 'r' if x2 else 'h'
    args = ', '.join(f'{t} s{j}' for j in range(n))
    ins = ', '.join(f'"{c}"(s{j})' for j in range(n))
    f += [f'__device__ {t} PTXF_{i}({args}) {{', f'  {t} d;', f'  asm("{ptx}" : "={c}"(d) : {ins});', '  return d;', '}']
open(f'{out}/forms.cuh', 'w').write('\n'.join(f) + '\n')
m = ['#include <cstdio>', '#include <cstdint>', '#include <cstring>', '#include "forms.cuh"', '#include "port.cuh"',
r'''
__device__ uint64_t mix(uint64_t x) { x += 0x9e3779b97f4a7c15ull; x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull; x = (x ^ (x >> 27)) * 0x94d049bb133111ebull; return x ^ (x >> 31); }
__constant__ uint16_t EF[] = {0x0000,0x8000,0x0001,0x8001,0x03ff,0x83ff,0x0400,0x8400,0x3c00,0xbc00,0x3c01,0x3bff,0x7bff,0xfbff,0x7c00,0xfc00,0x7e00,0xfe00,0x7c01,0xfd55,0x7fff,0x3800,0x1000,0x0200,0x3555,0x4000,0x5bff,0x0002,0x1400,0x3e00,0xc000,0x2400,0x3bfe,0x0401,0x3be0,0x0410};
__constant__ uint16_t EB[] = {0x0000,0x8000,0x0001,0x8001,0x007f,0x807f,0x0080,0x8080,0x3f80,0xbf80,0x3f81,0x3f7f,0x7f7f,0xff7f,0x7f80,0xff80,0x7fc0,0xffc0,0x7f81,0xffaa,0x7fff,0x3f00,0x3b80,0x0040,0x3eab,0x4000,0x7f00,0x0002,0x3c00,0x3fc0,0xc000,0x2000,0x3f7e,0x0081,0x3f7c,0x0082};
#define NE 36
__device__ uint16_t lane(uint64_t i, int which, uint64_t r, bool bf, int nsrc) {
  /* first NE^nsrc indices: every combination of edge values; then random bits, with edge values mixed in */
  uint64_t ne = 1; for (int k = 0; k < nsrc; ++k) ne *= NE;
  if (i < ne) { uint64_t q = i; for (int k = 0; k < which; ++k) q /= NE; return bf ? EB[q % NE] : EF[q % NE]; }
  uint64_t h = mix(r * 7 + which);
  if ((h >> 60) == 0) return bf ? EB[(h >> 20) % NE] : EF[(h >> 20) % NE];
  return (uint16_t)h;
}
__device__ uint16_t near_prod(uint16_t a, uint16_t b, uint64_t h, bool bf) {
  /* a c close to -(a*b) or to a value aligning with the product's rounding point: exercises ties and cancellation */
  uint16_t p = bf ? (uint16_t)ptx2hip_h_fma(a, b, 0x8000u, true, false, false, false) : (uint16_t)ptx2hip_h_fma(a, b, 0x8000u, false, false, false, false);
  uint16_t c = p ^ (uint16_t)((h >> 8) & 0x3);
  if (h & 1) c ^= 0x8000u;
  if ((h >> 4) & 1) { /* tiny c (sticky bit) */ c = (uint16_t)((h >> 16) & 0x83ffu); }
  return c;
}
__device__ unsigned long long nmis[256];
__device__ unsigned int ex[256][8][5];
template <int NS, bool X2, bool BF, typename F, typename G>
__device__ void run(int id, uint64_t n, F f, G g) {
  for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
    uint32_t s[3];
    uint64_t r = mix(i * 0x100000001b3ull + id);
    for (int k = 0; k < 3; ++k) {
      uint32_t lo = lane(i, k, r, BF, NS), hi = lane(i, k, mix(r + 99), BF, NS);
      if (NS == 1 && !X2) lo = (uint16_t)i;   /* unary scalar: exhaustive */
      if (NS == 1 && X2) { lo = (uint16_t)i; hi = (uint16_t)(i * 40503u >> 3) ^ (uint16_t)(i >> 16); }
      s[k] = X2 ? (lo | (hi << 16)) : lo;
    }
    if (NS == 3 && (mix(r + 7) & 3) == 0) {
      uint64_t h = mix(r + 13);
      uint32_t clo = near_prod((uint16_t)s[0], (uint16_t)s[1], h, BF);
      uint32_t chi = near_prod((uint16_t)(s[0] >> 16), (uint16_t)(s[1] >> 16), h >> 32, BF);
      s[2] = X2 ? (clo | (chi << 16)) : clo;
    }
    uint32_t d1 = f(s[0], s[1], s[2]), d2 = g(s[0], s[1], s[2]);
    if (d1 != d2) {
      unsigned long long o = atomicAdd(&nmis[id], 1ull);
      if (o < 8) { ex[id][o][0] = s[0]; ex[id][o][1] = s[1]; ex[id][o][2] = s[2]; ex[id][o][3] = d1; ex[id][o][4] = d2; }
    }
  }
}
''']
names = []
idx = {name: i for i, (name, *_r) in enumerate(forms)}
m.append('__global__ void probe(uint32_t* o) {')
m.append(f'  o[0] = PTXF_{idx["mul_ftz_f16"]}(0x3bfe, 0x0401); o[1] = PORT_{idx["mul_ftz_f16"]}(0x3bfe, 0x0401);')
m.append(f'  o[2] = PTXF_{idx["fma_rn_ftz_f16"]}(0x0400, 0x8400, 0x0400); o[3] = PORT_{idx["fma_rn_ftz_f16"]}(0x0400, 0x8400, 0x0400);')
m.append(f'  o[4] = PTXF_{idx["fma_rn_f16"]}(0x3d56, 0x4200, 0x0001); o[5] = PORT_{idx["fma_rn_f16"]}(0x3d56, 0x4200, 0x0001);')
m.append(f'  o[6] = PTXF_{idx["neg_f16"]}(0x7e00); o[7] = PTXF_{idx["abs_bf16"]}(0xffc1);')
m.append(f'  o[8] = PTXF_{idx["mul_ftz_f16"]}(0x3be0, 0x0410); o[9] = PORT_{idx["mul_ftz_f16"]}(0x3be0, 0x0410);')
m.append(f'  o[10] = PTXF_{idx["mul_ftz_f16"]}(0xbbe0, 0x0410); o[11] = PORT_{idx["mul_ftz_f16"]}(0xbbe0, 0x0410);')
m.append('}')
for i, (name, ptx, n, x2, bf) in enumerate(forms):
    t = 'uint32_t' if x2 else 'uint16_t'
    a3 = ', '.join(f'({t})s{j}' for j in range(n))
    cnt = {1: '65536ull * (%s)' % ('16' if x2 else '1'), 2: '(1ull << 24)', 3: '(1ull << 24)'}[n]
    m.append(f'__global__ void K_{i}() {{ run<{n}, {"true" if x2 else "false"}, {"true" if bf else "false"}>({i}, {cnt}, '
             f'[] __device__ (uint32_t s0, uint32_t s1, uint32_t s2) -> uint32_t {{ (void)s1; (void)s2; return PTXF_{i}({a3}); }}, '
             f'[] __device__ (uint32_t s0, uint32_t s1, uint32_t s2) -> uint32_t {{ (void)s1; (void)s2; return PORT_{i}({a3}); }}); }}')
    names.append((name, n, x2))
m.append('int main() {')
m.append('  { uint32_t* o; cudaMalloc(&o, 64); probe<<<1,1>>>(o); uint32_t h[12]; cudaMemcpy(h, o, 48, cudaMemcpyDeviceToHost);')
m.append('    printf("probe mul.ftz.f16(0x3bfe,0x0401) ptx=%04x port=%04x\\n", h[0], h[1]);')
m.append('    printf("probe fma.rn.ftz.f16(0x0400,0x8400,0x0400) ptx=%04x port=%04x\\n", h[2], h[3]);')
m.append('    printf("probe fma.rn.f16(0x3d56,0x4200,0x0001) ptx=%04x port=%04x\\n", h[4], h[5]);')
m.append('    printf("probe neg.f16(0x7e00)=%04x abs.bf16(0xffc1)=%04x\\n", h[6], h[7]);')
m.append('    printf("probe mul.ftz.f16(0x3be0,0x0410) [exact 2^-14(1-2^-12), a tie] ptx=%04x port=%04x\\n", h[8], h[9]);')
m.append('    printf("probe mul.ftz.f16(0xbbe0,0x0410) ptx=%04x port=%04x\\n", h[10], h[11]); }')
for i, (name, n, x2) in enumerate(names):
    m.append(f'  K_{i}<<<1024, 256>>>();')
m.append('  cudaError_t e = cudaDeviceSynchronize(); if (e) { printf("CUDA error %s\\n", cudaGetErrorString(e)); return 1; }')
m.append('  static unsigned long long hn[256]; static unsigned int hex_[256][8][5];')
m.append('  cudaMemcpyFromSymbol(hn, nmis, sizeof hn); cudaMemcpyFromSymbol(hex_, ex, sizeof hex_);')
m.append('  unsigned long long tot = 0;')
for i, (name, n, x2) in enumerate(names):
    cnt = {1: 65536 * (16 if x2 else 1), 2: 1 << 24, 3: 1 << 24}[n]
    m.append(f'  printf("%-28s vectors %9llu mismatches %llu\\n", "{name}", {cnt}ull, hn[{i}]); tot += hn[{i}];')
    m.append(f'  for (int k = 0; k < 8 && k < (int)hn[{i}]; ++k) printf("    a=%08x b=%08x c=%08x ptx=%08x port=%08x\\n", hex_[{i}][k][0], hex_[{i}][k][1], hex_[{i}][k][2], hex_[{i}][k][3], hex_[{i}][k][4]);')
m.append('  printf("TOTAL mismatches %%llu over %%d forms\\n", tot, %d); return 0; }' % len(names))
open(f'{out}/main.cu', 'w').write('\n'.join(m) + '\n')
print(len(forms), 'forms')
# table.inc: uniform wrappers and each form's semantics, for the host reference check
# (tests/amd_models/half_check.cpp).
tb = ['struct HalfForm { const char* name; const char* op; int nsrc; bool x2, bf, ftz, sat, relu, nan, xs; uint32_t (*fn)(uint32_t, uint32_t, uint32_t); };']
for i, (name, ptx, n, x2, bf) in enumerate(forms):
    t = 'uint32_t' if x2 else 'uint16_t'
    a3 = ', '.join(f'({t})s{j}' for j in range(n))
    tb.append(f'static uint32_t W_{i}(uint32_t s0, uint32_t s1, uint32_t s2) {{ (void)s1; (void)s2; return PTXF_{i}({a3}); }}')
tb.append('static const HalfForm HALF_FORMS[] = {')
for i, (name, ptx, n, x2, bf) in enumerate(forms):
    mods = ptx.split()[0].split('.')
    has = lambda m: 'true' if m in mods else 'false'
    tb.append(f'  {{"{ptx.split()[0]}", "{mods[0]}", {n}, {"true" if x2 else "false"}, {"true" if bf else "false"}, {has("ftz")}, {has("sat")}, {has("relu")}, {has("NaN")}, {has("xorsign")}, W_{i}}},')
tb.append('};')
open(f'{out}/table.inc', 'w').write('\n'.join(tb) + '\n')
