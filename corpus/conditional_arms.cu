// Inline PTX whose text depends on project macros, written the way tensor-core and
// quantization libraries write it: an `#if` inside the asm statement chooses between
// two PTX strings (a cache hint, an exact or a fast path). ptx2hip cannot know these
// macros for AMD, so it translates every arm and keeps the same `#if` around the
// translations.
// hip-compile-also: -DVEC_ENABLE_L2_PREFETCH=1 -DVEC_NC_LOADS -DQUANT_ROUND_MODE=2 -DQUANT_SATURATE

#include <stdint.h>

namespace vec {

// A predicated 128-bit global load: with the prefetch hint enabled, the L2 fetches a
// 128-byte line (a hint only: the loaded values are the same).
struct global_load_128 {
  __device__ global_load_128(uint4 &d, void const *ptr, bool pred_guard) {
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  setp.ne.b32 p, %5, 0;\n"
        "  mov.b32 %0, %6;\n"
        "  mov.b32 %1, %7;\n"
        "  mov.b32 %2, %8;\n"
        "  mov.b32 %3, %9;\n"
#if VEC_ENABLE_L2_PREFETCH
        "  @p ld.global.L2::128B.v4.u32 {%0, %1, %2, %3}, [%4];\n"
#else
        "  @p ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\n"
#endif
        "}\n"
        : "=r"(d.x), "=r"(d.y), "=r"(d.z), "=r"(d.w)
        : "l"(ptr), "r"((int)pred_guard), "r"(d.x), "r"(d.y), "r"(d.z), "r"(d.w));
  }
};

// A read-only load through the non-coherent path when the project enables it.
__device__ __forceinline__ uint32_t load_readonly(const uint32_t *p) {
  uint32_t v;
  asm volatile(
#ifdef VEC_NC_LOADS
      "ld.global.nc.u32 %0, [%1];"
#else
      "ld.global.u32 %0, [%1];"
#endif
      : "=r"(v)
      : "l"(p));
  return v;
}

}  // namespace vec

namespace quant {

// Packs the low bytes of two words; with saturation enabled, each word is clamped to
// [0, 255] first (the extra instructions only exist in that arm).
__device__ __forceinline__ uint32_t pack_bytes(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("{\n"
      "  .reg .u32 lo, hi;\n"
      "  mov.b32 lo, %1;\n"
      "  mov.b32 hi, %2;\n"
#ifdef QUANT_SATURATE
      "  min.u32 lo, lo, 255;\n"
      "  min.u32 hi, hi, 255;\n"
#endif
      "  prmt.b32 %0, lo, hi, 0x0040;\n"
      "}\n"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

// Rounding of a scaled value, chosen at build time: to nearest even (1), toward zero
// (2), or down (anything else); with QUANT_FUSED_SCALE the product is not rounded
// before the conversion.
__device__ __forceinline__ int32_t round_scaled(float x, float scale) {
  int32_t q;
  asm("{\n"
      "  .reg .f32 t;\n"
#if defined(QUANT_FUSED_SCALE)
      "  mul.f32 t, %1, %2;\n"
#else
      "  mul.rn.f32 t, %1, %2;\n"
#endif
#if QUANT_ROUND_MODE == 1
      "  cvt.rni.s32.f32 %0, t;\n"
#elif QUANT_ROUND_MODE == 2
      "  cvt.rzi.s32.f32 %0, t;\n"
#else
      "  cvt.rmi.s32.f32 %0, t;\n"
#endif
      "}\n"
      : "=r"(q)
      : "f"(x), "f"(scale));
  return q;
}

}  // namespace quant

__global__ void quantize_rows(const uint4 *in, const uint32_t *flags, uint32_t *out,
                              float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint4 v = make_uint4(0, 0, 0, 0);
  vec::global_load_128(v, in + i, i < n);
  uint32_t f = vec::load_readonly(flags + i);
  int32_t lo = quant::round_scaled(__uint_as_float(v.x), scale);
  int32_t hi = quant::round_scaled(__uint_as_float(v.y), scale);
  if (i < n) {
    out[i] = quant::pack_bytes((uint32_t)lo, (uint32_t)hi) ^ f;
  }
}
