// Host models of the AMD operations the convert family's `amd` helper variants rely on.
//
// Only one AMD-specific operation is used: `(_Float16)x` for `cvt.rn.f16.f32` (and the f16x2
// packing), which clang lowers to V_CVT_F16_F32 (LLVM `fptrunc float to half`).
// Source: AMD CDNA3 ISA (MI300) / RDNA3 ISA, V_CVT_F16_F32: "D.f16 = flt32_to_flt16(S0.f)",
// rounding by MODE.FP_ROUND (HIP kernels run with round-to-nearest-even) and FP16 denormals
// kept (MODE.FP_DENORM for f16/f64 is "allow" by default in HSA code objects, as LLVM's
// AMDGPUUsage "FLOAT_DENORM_MODE_16_64" documents). NaN inputs are quieted with the sign and the
// top fraction bits kept — unlike NVIDIA, which returns 0x7fff, hence the fix-up in the helper.
// No builtins (__builtin_amdgcn_*) are used: gfx942's FP8 conversions are FNUZ, not OCP, and
// gfx90a/gfx1100 have none, so FP8 stays in software; cvt_pkrtz is round-toward-zero.
#pragma once
#include <cstdint>
#include <cstring>

// V_CVT_F16_F32 under the default MODE (round to nearest even, f16 denormals kept).
inline uint16_t amd_model_v_cvt_f16_f32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  uint32_t sign = (u >> 16) & 0x8000u;
  uint32_t ex = (u >> 23) & 0xffu, fr = u & 0x7fffffu;
  if (ex == 0xff) return (uint16_t)(sign | 0x7c00u | (fr ? 0x200u | (fr >> 13) : 0));  // Inf / quiet NaN
  int e = (int)ex - 127;
  if (e > 15) return (uint16_t)(sign | 0x7c00u);  // overflow rounds to infinity
  uint64_t m = ex ? (fr | 0x800000u) : fr;         // value = m * 2^(max(ex,1) - 150)
  int shift = (ex ? (int)ex : 1) - 150;
  // target quantum 2^-24 for subnormals, else 2^(e-10)
  int q = (e < -14 ? -24 : e - 10);
  int s = q - shift;                               // bits to drop (>= 13 for normal f32 inputs)
  uint64_t sig, rem, half;
  if (s >= 40) { sig = 0; rem = m; half = ~0ull; }  // far below half of the smallest subnormal
  else { sig = m >> s; rem = m & ((1ull << s) - 1); half = 1ull << (s - 1); }
  if (rem > half || (rem == half && (sig & 1))) ++sig;
  uint32_t enc = (e < -14) ? (uint32_t)sig : (uint32_t)(((e + 15 - 1) << 10) + sig);
  if (enc >= 0x7c00u) enc = 0x7c00u;
  return (uint16_t)(sign | enc);
}

// Self-checks on values whose results are known by hand; returns the number of failures.
inline int amd_model_convert_selfcheck() {
  struct { uint32_t in; uint16_t out; } cases[] = {
      {0x3f800000u, 0x3c00},  // 1.0
      {0x3f801000u, 0x3c00},  // 1 + 2^-11: tie -> even
      {0x3f803000u, 0x3c02},  // 1 + 3*2^-11: tie -> even (up)
      {0x477fe000u, 0x7bff},  // 65504
      {0x477ff000u, 0x7c00},  // 65520 -> inf
      {0x33800000u, 0x0001},  // 2^-24
      {0x33000000u, 0x0000},  // 2^-25: tie -> 0
      {0x33000001u, 0x0001},  // just above -> min subnormal
      {0xffc00001u, 0xfe00},  // NaN keeps sign, quiet (NVIDIA: 0x7fff)
      {0x7f800000u, 0x7c00},
  };
  int fails = 0;
  for (auto& c : cases) {
    float f;
    std::memcpy(&f, &c.in, 4);
    if (amd_model_v_cvt_f16_f32(f) != c.out) ++fails;
  }
  return fails;
}
