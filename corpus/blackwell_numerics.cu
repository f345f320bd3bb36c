// Blackwell (sm_100) numeric idioms: packed f32x2 epilogue math on 64-bit registers, NVFP4
// quantisation (e2m1 pairs) and dequantisation, an FP6 round trip, a three-input max for row
// statistics and a bf16 x bf16 + f32 accumulate. ptx2hip translates them by their ISA
// decomposition into forms verified on the H100 (docs/EVIDENCE.md). The sm_100 code is compiled
// for Blackwell and for HIP only.
#include <cstdint>

#if (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000) || defined(__HIP__)
#define BLACKWELL_NUMERICS 1
#else
#define BLACKWELL_NUMERICS 0
#endif

struct Float2Bits {
  static __device__ __forceinline__ uint64_t pack(float lo, float hi) {
    return (uint64_t)__float_as_uint(lo) | ((uint64_t)__float_as_uint(hi) << 32);
  }
  static __device__ __forceinline__ float lo(uint64_t v) { return __uint_as_float((uint32_t)v); }
  static __device__ __forceinline__ float hi(uint64_t v) {
    return __uint_as_float((uint32_t)(v >> 32));
  }
};

#if BLACKWELL_NUMERICS
// y = alpha * acc + beta * c, two columns at a time.
__device__ uint64_t epilogue_pair(uint64_t acc, uint64_t c, uint64_t alpha, uint64_t beta) {
  uint64_t scaled, out;
  asm("mul.rn.ftz.f32x2 %0, %1, %2;" : "=l"(scaled) : "l"(acc), "l"(alpha));
  asm("fma.rn.ftz.f32x2 %0, %1, %2, %3;" : "=l"(out) : "l"(c), "l"(beta), "l"(scaled));
  return out;
}

// Centre two columns on their running means.
__device__ uint64_t centre_pair(uint64_t x, uint64_t mean) {
  uint64_t d;
  asm("sub.f32x2 %0, %1, %2;" : "=l"(d) : "l"(x), "l"(mean));
  asm("add.rn.f32x2 %0, %0, %1;" : "+l"(d) : "l"(mean));
  return d;
}

// Eight floats, pre-scaled, to one word of NVFP4 codes (element 0 in the lowest nibble).
__device__ uint32_t quantize_nvfp4(const float (&x)[8], float inv_scale) {
  uint32_t packed;
  asm("{\n"
      "  .reg .b8 q0, q1, q2, q3;\n"
      "  .reg .f32 s0, s1, s2, s3, s4, s5, s6, s7;\n"
      "  mul.f32 s0, %1, %9;\n"
      "  mul.f32 s1, %2, %9;\n"
      "  mul.f32 s2, %3, %9;\n"
      "  mul.f32 s3, %4, %9;\n"
      "  mul.f32 s4, %5, %9;\n"
      "  mul.f32 s5, %6, %9;\n"
      "  mul.f32 s6, %7, %9;\n"
      "  mul.f32 s7, %8, %9;\n"
      "  cvt.rn.satfinite.e2m1x2.f32 q0, s1, s0;\n"
      "  cvt.rn.satfinite.e2m1x2.f32 q1, s3, s2;\n"
      "  cvt.rn.satfinite.e2m1x2.f32 q2, s5, s4;\n"
      "  cvt.rn.satfinite.e2m1x2.f32 q3, s7, s6;\n"
      "  mov.b32 %0, {q0, q1, q2, q3};\n"
      "}"
      : "=r"(packed)
      : "f"(x[0]), "f"(x[1]), "f"(x[2]), "f"(x[3]), "f"(x[4]), "f"(x[5]), "f"(x[6]), "f"(x[7]),
        "f"(inv_scale));
  return packed;
}

// One byte of NVFP4 codes to a half2 word, clamping negatives to zero when asked.
template <bool kRelu>
__device__ uint32_t dequantize_nvfp4_pair(uint16_t byte) {
  uint32_t h2;
  if (kRelu) {
    asm("cvt.rn.relu.f16x2.e2m1x2 %0, %1;" : "=r"(h2) : "h"(byte));
  } else {
    asm("cvt.rn.f16x2.e2m1x2 %0, %1;" : "=r"(h2) : "h"(byte));
  }
  return h2;
}

// Two floats through FP6 (e3m2) and back.
__device__ uint32_t fp6_roundtrip(float hi, float lo) {
  uint16_t packed;
  uint32_t h2;
  asm("cvt.rn.satfinite.e3m2x2.f32 %0, %1, %2;" : "=h"(packed) : "f"(hi), "f"(lo));
  asm("cvt.rn.f16x2.e3m2x2 %0, %1;" : "=r"(h2) : "h"(packed));
  return h2;
}

// The largest magnitude of three partial row maxima, NaN-propagating.
__device__ float row_absmax3(float a, float b, float c) {
  float m;
  asm("max.NaN.abs.f32 %0, %1, %2, %3;" : "=f"(m) : "f"(a), "f"(b), "f"(c));
  return m;
}

// acc += a * b with bf16 operands and an f32 accumulator, one rounding.
__device__ float bf16_dot_step(uint16_t a, uint16_t b, float acc) {
  asm("fma.rn.f32.bf16 %0, %1, %2, %0;" : "+f"(acc) : "h"(a), "h"(b));
  return acc;
}

__global__ void blackwell_numerics(const float* in, uint32_t* words, uint64_t* pairs, float* stats) {
  unsigned t = threadIdx.x;
  float x[8];
  for (int i = 0; i < 8; i++) x[i] = in[8 * t + i];
  words[t] = quantize_nvfp4(x, 0.5f);
  words[t + 1024] = dequantize_nvfp4_pair<false>((uint16_t)(words[t] & 0xff)) ^
                    dequantize_nvfp4_pair<true>((uint16_t)(words[t] >> 8));
  words[t + 2048] = fp6_roundtrip(x[0], x[1]);
  uint64_t p = Float2Bits::pack(x[2], x[3]);
  pairs[t] = centre_pair(epilogue_pair(p, p, Float2Bits::pack(2.0f, 2.0f), p), p);
  stats[t] = row_absmax3(x[4], x[5], x[6]) + Float2Bits::lo(pairs[t]) + Float2Bits::hi(pairs[t]);
  stats[t + 1024] = bf16_dot_step((uint16_t)words[t], (uint16_t)(words[t] >> 16), x[7]);
}
#endif
