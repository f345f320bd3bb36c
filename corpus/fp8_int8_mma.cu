// Low-precision tensor-core loops: an fp8 (e4m3 and e5m2) GEMM main loop accumulating in f32 over
// m16n8k32, as the fp8 attention and GEMM kernels of SageAttention-style libraries write it, and
// an int8 GEMM with saturating and wrapping s32 accumulators (m16n8k32, m8n8k16). One warp per
// output tile; fragments are loaded straight from global memory in their register layout.
#include <cstdint>

namespace lowp {

__device__ __forceinline__ void mma_e4m3(float (&d)[4], const uint32_t (&a)[4],
                                         const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void mma_e5m2(float (&d)[4], const uint32_t (&a)[4],
                                         const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void mma_s8_sat(int (&d)[4], const uint32_t (&a)[4],
                                           const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void mma_u8s8_m8n8k16(int (&d)[2], uint32_t a, uint32_t b) {
  asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.u8.s8.s32 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
               : "+r"(d[0]), "+r"(d[1])
               : "r"(a), "r"(b));
}

}  // namespace lowp

constexpr int kTilesK = 4;

// a, b: fragments in register order per lane (6 words per k-tile); bias: the s32 accumulator's
// start values; out: e4m3 results, e5m2 results, saturated s32, wrapping s32 (14 words per lane).
__global__ void lowp_mma(const uint32_t* frags, const int* bias, uint32_t* out) {
  const int lane = threadIdx.x % 32;
  const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float f8[4] = {0.f, 0.f, 0.f, 0.f}, f5[4] = {0.f, 0.f, 0.f, 0.f};
  int sat[4], wrap[2];
  for (int i = 0; i < 4; ++i) sat[i] = bias[(w * 32 + lane) * 4 + i];
  wrap[0] = bias[(w * 32 + lane) * 4];
  wrap[1] = bias[(w * 32 + lane) * 4 + 1];
  for (int kt = 0; kt < kTilesK; ++kt) {
    const uint32_t* f = frags + ((w * kTilesK + kt) * 32 + lane) * 6;
    uint32_t a[4], b[2], a8[4], b8[2];
    for (int i = 0; i < 4; ++i) {
      a[i] = f[i];
      a8[i] = f[i] & 0xbfbfbfbfu;  // e4m3 without NaN: the top exponent bit clear
    }
    for (int i = 0; i < 2; ++i) {
      b[i] = f[4 + i];
      b8[i] = f[4 + i] & 0xbfbfbfbfu;
    }
    lowp::mma_e4m3(f8, a8, b8);
    lowp::mma_e5m2(f5, a8, b8);
    lowp::mma_s8_sat(sat, a, b);
    lowp::mma_u8s8_m8n8k16(wrap, a[kt], b[kt % 2]);
  }
  uint32_t* o = out + (w * 32 + lane) * 14;
  for (int i = 0; i < 4; ++i) {
    o[i] = __float_as_uint(f8[i]);
    o[4 + i] = __float_as_uint(f5[i]);
    o[8 + i] = (uint32_t)sat[i];
  }
  o[12] = (uint32_t)wrap[0];
  o[13] = (uint32_t)wrap[1];
}
