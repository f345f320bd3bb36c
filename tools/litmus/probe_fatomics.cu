// Measures how atom.add.f32 treats subnormals and NaNs in each state space on the GPU it runs on:
// .global, .shared (32-bit window address) and generic addresses into shared memory, over every
// pair of a list of edge-case values. For each space it prints how many results differ from two
// host models — IEEE round-to-nearest keeping subnormals (with NVIDIA's canonical NaN), and the
// same with subnormal inputs and results flushed to zeros of their sign — and the first
// differences. Build: nvcc -std=c++17 -arch=sm_90 -O2 probe_fatomics.cu
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

static const uint32_t kValues[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x00000002u, 0x007fffffu, 0x807fffffu, 0x00400000u,
    0x00800000u, 0x80800000u, 0x00800001u, 0x3f800000u, 0xbf800000u, 0x34000000u, 0x0c000000u, 0x7f7fffffu,
    0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7fffffffu, 0x7f800001u, 0xff800001u,
    0x7fa00000u, 0x00000003u, 0x00600000u, 0x80200000u, 0x01000000u, 0x00ffffffu, 0x33800000u, 0xb3800000u,
};
constexpr int kN = sizeof(kValues) / sizeof(kValues[0]);

__global__ void probe(const uint32_t* vals, uint32_t* out) {
  __shared__ float s[kN * kN];
  __shared__ float g2[kN * kN];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = threadIdx.x;
  if (i >= kN * kN) return;
  const uint32_t a = vals[i / kN], b = vals[i % kN];
  float* gl = (float*)(out + 8 * (kN * kN)) + i;
  *gl = __uint_as_float(a);
  s[t] = __uint_as_float(a);
  g2[t] = __uint_as_float(a);
  float o0, o1, o2;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(o0) : "l"(gl), "f"(__uint_as_float(b)) : "memory");
  const uint32_t sa = (uint32_t)__cvta_generic_to_shared(&s[t]);
  asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=f"(o1) : "r"(sa), "f"(__uint_as_float(b)) : "memory");
  asm volatile("atom.add.f32 %0, [%1], %2;" : "=f"(o2) : "l"(&g2[t]), "f"(__uint_as_float(b)) : "memory");
  out[6 * i + 0] = __float_as_uint(o0);
  out[6 * i + 1] = __float_as_uint(*gl);
  out[6 * i + 2] = __float_as_uint(o1);
  out[6 * i + 3] = __float_as_uint(s[t]);
  out[6 * i + 4] = __float_as_uint(o2);
  out[6 * i + 5] = __float_as_uint(g2[t]);
}

static float f(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }
static uint32_t u(float x) { uint32_t v; memcpy(&v, &x, 4); return v; }
static uint32_t ftz(uint32_t v) { return (v & 0x7f800000u) == 0 ? (v & 0x80000000u) : v; }
static uint32_t model(uint32_t a, uint32_t b, bool flush) {
  if (flush) { a = ftz(a); b = ftz(b); }
  float r = f(a) + f(b);
  if (r != r) return 0x7fffffffu;
  uint32_t v = u(r);
  return flush ? ftz(v) : v;
}

int main() {
  uint32_t *dv, *dout;
  cudaMalloc(&dv, sizeof kValues);
  cudaMalloc(&dout, 4 * 9 * kN * kN);
  cudaMemcpy(dv, kValues, sizeof kValues, cudaMemcpyHostToDevice);
  probe<<<(kN * kN + 1023) / 1024, 1024>>>(dv, dout);
  std::vector<uint32_t> h(6 * kN * kN);
  cudaMemcpy(h.data(), dout, h.size() * 4, cudaMemcpyDeviceToHost);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("cuda error %s\n", cudaGetErrorString(e)); return 3; }
  const char* space[3] = {"global", "shared", "generic->shared"};
  for (int sp = 0; sp < 3; ++sp) {
    int keep = 0, flush = 0, old_changed = 0, shown = 0;
    for (int i = 0; i < kN * kN; ++i) {
      uint32_t a = kValues[i / kN], b = kValues[i % kN];
      uint32_t old = h[6 * i + 2 * sp], res = h[6 * i + 2 * sp + 1];
      if (old != a) old_changed++;
      if (res != model(a, b, false)) keep++;
      if (res != model(a, b, true)) flush++;
      if (res != model(a, b, false) && res != model(a, b, true) && shown < 6) {
        printf("  %s: %08x + %08x -> %08x (keep %08x, flush %08x)\n", space[sp], a, b, res, model(a, b, false),
               model(a, b, true));
        shown++;
      }
    }
    printf("atom.add.f32 %-16s pairs %d: differs from keep-subnormals model %d, from flush model %d, returned old != stored %d\n",
           space[sp], kN * kN, keep, flush, old_changed);
  }
  return 0;
}
