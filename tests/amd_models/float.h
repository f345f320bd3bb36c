// Host models of the AMD builtins and CUDA/HIP intrinsics used by rules/float.toml, compare.toml and
// half.toml, so the generated helpers can be compiled and checked with a host compiler
// (g++ -O1 -ffp-contract=off -frounding-math). Semantics from the AMD ISA documents
// (CLRX GcnInstrsVop1.md: V_RCP_F32 "1/S0, 1 ULP", V_RSQ_F32 "1/sqrt(S0)", V_EXP_F32 "2^S0",
// V_LOG_F32 "log2(S0)", V_SIN_F32 "sin(S0*2*PI), valid on [-256, 256]", V_COS_F32, V_FRACT_F32
// "S0 - floor(S0)"; the f32 transcendental units flush subnormal inputs and results) and LLVM's
// BuiltinsAMDGPU.def. The models are the ideal (correctly rounded, then flushed) results: they check
// the scaling logic of the translations, not the hardware's last-ulp error.
#pragma once
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cassert>

#define __host__
#define __device__

inline float ptx2hip_model_flush_f32(float x) { return std::fabs(x) < 1.17549435e-38f ? std::copysign(0.0f, x) : x; }
inline double ptx2hip_model_flush_f64(double x) { return std::fabs(x) < 2.2250738585072014e-308 ? std::copysign(0.0, x) : x; }

// CUDA/HIP intrinsics: IEEE operations, round to nearest (tests build with -ffp-contract=off).
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }

// v_rcp_f32: 1/x, subnormal inputs read as zero, subnormal results flushed.
inline float __builtin_amdgcn_rcpf(float x) { return ptx2hip_model_flush_f32(1.0f / ptx2hip_model_flush_f32(x)); }
// v_rsq_f32: 1/sqrt(x), same flushing.
inline float __builtin_amdgcn_rsqf(float x) { return ptx2hip_model_flush_f32(1.0f / std::sqrt(ptx2hip_model_flush_f32(x))); }
// v_exp_f32: 2^x, results below 2^-126 flushed (returns 0 for x < -126).
inline float __builtin_amdgcn_exp2f(float x) { return ptx2hip_model_flush_f32(std::exp2(ptx2hip_model_flush_f32(x))); }
// v_log_f32: log2(x), subnormal inputs read as zero (-Inf).
inline float __builtin_amdgcn_logf(float x) { return std::log2(ptx2hip_model_flush_f32(x)); }
// v_fract_f32: x - floor(x), in [0, 1); NaN for +-Inf.
inline float __builtin_amdgcn_fractf(float x) {
  if (std::isinf(x)) return NAN;
  float r = x - std::floor(x);
  return r >= 1.0f ? 0.99999994f : r;
}
// v_sin_f32 / v_cos_f32: argument in revolutions, valid on [-256, 256], 0 outside.
inline float __builtin_amdgcn_sinf(float r) { return std::fabs(r) > 256.0f ? 0.0f : (float)std::sin((double)r * 6.283185307179586); }
inline float __builtin_amdgcn_cosf(float r) { return std::fabs(r) > 256.0f ? 0.0f : (float)std::cos((double)r * 6.283185307179586); }
// v_rcp_f64 / v_rsq_f64: approximations (~2^-26 relative); modelled as the correctly rounded value.
inline double __builtin_amdgcn_rcp(double x) { return 1.0 / x; }
inline double __builtin_amdgcn_rsq(double x) { return 1.0 / std::sqrt(x); }

// Self-checks of the models on a few points.
inline void ptx2hip_model_selfcheck() {
  assert(__builtin_amdgcn_rcpf(4.0f) == 0.25f);
  assert(__builtin_amdgcn_rcpf(1e-40f) == INFINITY);       /* subnormal input flushed */
  assert(__builtin_amdgcn_rcpf(2e38f) == 0.0f);            /* subnormal result flushed */
  assert(__builtin_amdgcn_exp2f(-130.0f) == 0.0f);
  assert(__builtin_amdgcn_exp2f(3.0f) == 8.0f);
  assert(__builtin_amdgcn_logf(8.0f) == 3.0f);
  assert(__builtin_amdgcn_logf(1e-40f) == -INFINITY);
  assert(__builtin_amdgcn_fractf(-0.25f) == 0.75f);
  assert(__builtin_amdgcn_sinf(0.25f) == 1.0f);
  assert(__builtin_amdgcn_rsqf(4.0f) == 0.5f);
}
