// Symmetric per-row int8 quantisation of half-precision activations, in the style of the
// quantize kernels of llama.cpp / bitsandbytes. Halves travel as their 16-bit patterns so the
// file needs no half-precision header; the conversion is the hardware rounding instruction.
#include <stdint.h>

namespace quant {

/// Round-to-nearest-even with saturation to [-128, 127]; NaN becomes 0.
__device__ __forceinline__ int8_t f16_to_s8_sat(uint16_t h) {
  short r;
  asm("cvt.rni.sat.s8.f16 %0, %1;" : "=h"(r) : "h"(h));
  return (int8_t)r;
}

/// Same conversion into a 32-bit register, as packing code does.
__device__ __forceinline__ uint32_t f16_to_s8_sat_u32(uint16_t h) {
  uint32_t r;
  asm("cvt.rni.sat.s8.f16 %0, %1;" : "=r"(r) : "h"(h));
  return r & 0xffu;
}

/// Packs four halves (already scaled) into one 32-bit word of int8 lanes.
__device__ __forceinline__ uint32_t pack4(const uint16_t* h) {
  uint32_t b0 = f16_to_s8_sat_u32(h[0]);
  uint32_t b1 = f16_to_s8_sat_u32(h[1]);
  uint32_t b2 = f16_to_s8_sat_u32(h[2]);
  uint32_t b3 = f16_to_s8_sat_u32(h[3]);
  uint32_t lo, hi, word;
  asm("mul.lo.u32 %0, %1, 256;" : "=r"(lo) : "r"(b1));
  asm("add.u32 %0, %1, %2;" : "=r"(lo) : "r"(lo), "r"(b0));
  asm("mul.lo.u32 %0, %1, 256;" : "=r"(hi) : "r"(b3));
  asm("add.u32 %0, %1, %2;" : "=r"(hi) : "r"(hi), "r"(b2));
  asm("mul.lo.u32 %0, %1, 65536;" : "=r"(word) : "r"(hi));
  asm("add.u32 %0, %1, %2;" : "=r"(word) : "r"(word), "r"(lo));
  return word;
}

}  // namespace quant

/// One thread per group of four halves: writes the int8 lanes, the packed word, and the byte count.
__global__ void quantize_int8_kernel(const uint16_t* __restrict__ x, int8_t* __restrict__ q,
                                     uint32_t* __restrict__ packed, int groups) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= groups) return;
  const uint16_t* src = x + 4 * g;
#pragma unroll
  for (int i = 0; i < 4; ++i) q[4 * g + i] = quant::f16_to_s8_sat(src[i]);
  packed[g] = quant::pack4(src);
}
