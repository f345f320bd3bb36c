// Quantisation statistics with float reductions into global memory, in the style of the
// absmax/sum-of-squares passes of int8/fp8 quantisation kernels (red.global.add.f32 on per-row
// accumulators, atom.global.max on the absmax bits), plus the half-precision and vector atomics
// of sm_90 gradient accumulation.
#include <stdint.h>

namespace qstat {

__device__ __forceinline__ void red_add_f32(float* p, float v) {
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}

__device__ __forceinline__ float atom_add_f32(float* p, float v) {
  float old;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(p), "f"(v) : "memory");
  return old;
}

__device__ __forceinline__ void red_add_f64(double* p, double v) {
  asm volatile("red.global.add.f64 [%0], %1;" ::"l"(p), "d"(v) : "memory");
}

__device__ __forceinline__ uint32_t atom_max_u32(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.global.max.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ uint32_t atom_add_f16x2(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ void red_add_bf16x2(uint32_t* p, uint32_t v) {
  asm volatile("red.global.add.noftz.bf16x2 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ void atom_add_v2_f32(float* p, float a, float b, float* oa, float* ob) {
  float x, y;
  asm volatile("atom.global.v2.f32.add {%0, %1}, [%2], {%3, %4};" : "=f"(x), "=f"(y) : "l"(p), "f"(a), "f"(b)
               : "memory");
  *oa = x;
  *ob = y;
}

__device__ __forceinline__ float bits_f32(uint32_t u) { return __uint_as_float(u); }

}  // namespace qstat

/// Per row of 64 values: the absmax (atom.max on the bits of |x|), the sum of the quantised
/// values and of their squares (red.add.f32 of exact multiples of 2^-7: every order gives the
/// same sum), and a scale. Then single-owner slots exercise flushing: thread i alone adds a
/// subnormal pattern to its own slot with red/atom.add.f32 (global memory flushes on the H100),
/// and adds f64, f16x2, bf16x2 and v2.f32 values to its own words.
__global__ void quant_reduce_kernel(const uint32_t* __restrict__ x, float* stats, uint32_t* absmax,
                                    uint32_t* halves, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = i / 64;
  if (threadIdx.x == 0) {
    for (int k = 0; k < 4; ++k) {
      stats[4 * (blockIdx.x * 4 + k)] = 0.0f;
      stats[4 * (blockIdx.x * 4 + k) + 1] = 0.0f;
      absmax[blockIdx.x * 4 + k] = 0u;
    }
  }
  __syncthreads();
  // Quantise: q in [-127, 127] from the input bits; the value is q * 2^-7.
  const int q = (int)(x[i] % 255u) - 127;
  const float v = (float)q * 0.0078125f;
  qstat::atom_max_u32(&absmax[row], (uint32_t)(q < 0 ? -q : q));
  qstat::red_add_f32(&stats[4 * row], v);
  qstat::red_add_f32(&stats[4 * row + 1], v * v * 0.0078125f);
  __syncthreads();

  // Single-owner slots: subnormal and ordinary patterns, flushed or not as the hardware does.
  float* own = stats + 4096 + 4 * i;
  own[0] = qstat::bits_f32(x[n + i] & 0x807fffffu);         // a subnormal (or zero)
  own[1] = qstat::bits_f32(x[2 * n + i]);                     // any pattern, NaN included
  float o0 = qstat::atom_add_f32(&own[0], qstat::bits_f32(x[3 * n + i] & 0x807fffffu));
  qstat::red_add_f32(&own[1], qstat::bits_f32(x[4 * n + i]));
  own[2] = o0;
  double* d = (double*)(stats + 10 * 4096) + i;
  *d = (double)(int)x[5 * n + i] * 0.25;
  qstat::red_add_f64(d, (double)(int)x[6 * n + i] * 0.5);
  uint32_t* h = halves + 2 * i;
  h[0] = x[7 * n + i];
  h[1] = x[8 * n + i];
  uint32_t old = qstat::atom_add_f16x2(&h[0], x[9 * n + i]);
  qstat::red_add_bf16x2(&h[1], x[10 * n + i]);
  halves[2 * 8192 + i] = old;
  float* v2 = stats + 16 * 4096 + 2 * i;
  v2[0] = qstat::bits_f32(x[11 * n + i]);
  v2[1] = qstat::bits_f32(x[12 * n + i] & 0x80ffffffu);
  float a, b;
  qstat::atom_add_v2_f32(v2, qstat::bits_f32(x[13 * n + i]), qstat::bits_f32(x[14 * n + i] & 0x807fffffu), &a, &b);
  stats[24 * 4096 + 2 * i] = a;
  stats[24 * 4096 + 2 * i + 1] = b;
}
