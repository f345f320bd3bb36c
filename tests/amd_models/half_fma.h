// Host model of the AMD half-precision fma that rules/helpers/half.h's amd code calls, for the golden
// replay of the half family (crates/ptx2hip-verify/tests/it/golden.rs, compiled with clang for _Float16
// vectors). V_FMA_F16 / V_PK_FMA_F16 (AMD "Vega"/CDNA3 ISA, VOP3 / VOP3P): IEEE fused multiply-add,
// one rounding to nearest even with f16 denormals kept (the HIP default MODE); a host f16 fma would
// round twice (through f32), so the model is the exact software fma of the portable helpers
// (ptx2hip_h_fma_exact, defined by the replayed translation), and a NaN result is returned as 0xfe01,
// not NVIDIA's 0x7fff, so that the translation's own NaN fix is what the vectors check.
#pragma once
#include <cstdint>
#include <cstring>
uint16_t ptx2hip_h_fma_exact(uint16_t a, uint16_t b, uint16_t c, bool bf, bool ftz, bool sat,
                             bool relu);
static inline _Float16 ptx2hip_model_fmaf16(_Float16 x, _Float16 y, _Float16 z) {
  uint16_t a, b, c;
  memcpy(&a, &x, 2);
  memcpy(&b, &y, 2);
  memcpy(&c, &z, 2);
  uint16_t r = ptx2hip_h_fma_exact(a, b, c, false, false, false, false);
  if (r == 0x7fffu) r = 0xfe01u;
  _Float16 h;
  memcpy(&h, &r, 2);
  return h;
}
template <class V>
static inline V ptx2hip_model_fma2(V x, V y, V z) {
  V r;
  r[0] = ptx2hip_model_fmaf16(x[0], y[0], z[0]);
  r[1] = ptx2hip_model_fmaf16(x[1], y[1], z[1]);
  return r;
}
#define __builtin_fmaf16(x, y, z) ptx2hip_model_fmaf16(x, y, z)
#define __builtin_elementwise_fma(x, y, z) ptx2hip_model_fma2(x, y, z)
