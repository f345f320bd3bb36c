// Float-heavy device helpers of the kind found in inference kernels: a softmax step with
// ex2.approx, a GELU (tanh form), clamps with setp/selp, directed-rounding interval arithmetic,
// NaN-aware reductions and predicate-combining compares.
#include <cstdint>
#include <cstdint>  // nvcc includes the CUDA runtime header itself; hipcc the HIP one

#define LOG2E 1.4426950408889634f

// exp(x - m) via ex2.approx.ftz: the classic online-softmax inner step.
__device__ __forceinline__ float softmax_exp(float x, float m) {
  float y;
  asm("{\n\t"
      ".reg .f32 t;\n\t"
      "sub.f32 t, %1, %2;\n\t"
      "mul.f32 t, t, %3;\n\t"
      "ex2.approx.ftz.f32 %0, t;\n\t"
      "}"
      : "=f"(y)
      : "f"(x), "f"(m), "f"(LOG2E));
  return y;
}

// GELU, tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
__device__ __forceinline__ float gelu_tanh(float x) {
  float y;
  asm("{\n\t"
      ".reg .f32 x3, u, t;\n\t"
      "mul.f32 x3, %1, %1;\n\t"
      "mul.f32 x3, x3, %1;\n\t"
      "fma.rn.f32 u, x3, 0f3D372713, %1;\n\t"     // 0.044715
      "mul.f32 u, u, 0f3F4C422A;\n\t"             // sqrt(2/pi)
      "tanh.approx.f32 t, u;\n\t"
      "add.f32 t, t, 0f3F800000;\n\t"
      "mul.f32 t, t, %1;\n\t"
      "mul.f32 %0, t, 0f3F000000;\n\t"
      "}"
      : "=f"(y)
      : "f"(x));
  return y;
}

// Clamp to [lo, hi] with NaN mapped to lo: setp + selp, unordered compare.
__device__ __forceinline__ float clamp_nan_lo(float x, float lo, float hi) {
  float y;
  asm("{\n\t"
      ".reg .pred isnan, below, above;\n\t"
      "setp.nan.f32 isnan, %1, %1;\n\t"
      "setp.ltu.or.f32 below, %1, %2, isnan;\n\t"
      "setp.gt.f32 above, %1, %3;\n\t"
      "selp.f32 %0, %3, %1, above;\n\t"
      "selp.f32 %0, %2, %0, below;\n\t"
      "}"
      : "=f"(y)
      : "f"(x), "f"(lo), "f"(hi));
  return y;
}

// Interval arithmetic: [a_lo, a_hi] * [b, b] and + c with outward rounding.
template <bool kAdd>
__device__ __forceinline__ void interval_step(float a_lo, float a_hi, float b, float c, float& lo, float& hi) {
  if (kAdd) {
    asm("add.rm.f32 %0, %2, %4;\n\t"
        "add.rp.f32 %1, %3, %4;"
        : "=f"(lo), "=f"(hi)
        : "f"(a_lo), "f"(a_hi), "f"(c));
  } else {
    asm("{\n\t"
        ".reg .f32 p, q;\n\t"
        ".reg .pred neg;\n\t"
        "mul.rm.f32 p, %2, %4;\n\t"
        "mul.rm.f32 q, %3, %4;\n\t"
        "min.f32 %0, p, q;\n\t"
        "mul.rp.f32 p, %2, %4;\n\t"
        "mul.rp.f32 q, %3, %4;\n\t"
        "max.f32 %1, p, q;\n\t"
        "}"
        : "=f"(lo), "=f"(hi)
        : "f"(a_lo), "f"(a_hi), "f"(b));
  }
}

// Directed-rounding fma for error-free accumulation.
__device__ __forceinline__ float fma_down(float a, float b, float c) {
  float d;
  asm("fma.rm.f32 %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c));
  return d;
}

// NaN-propagating max and sign-magnitude min used by quantisation scales.
__device__ __forceinline__ float nan_max(float a, float b) {
  float d;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  return d;
}
__device__ __forceinline__ float xorsign_min(float a, float b) {
  float d;
  asm("min.xorsign.abs.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  return d;
}

// Reciprocal square root normalisation (RMSNorm) and correctly rounded variants.
__device__ __forceinline__ float rms_scale(float sumsq, float inv_n, float eps) {
  float r;
  asm("{\n\t"
      ".reg .f32 m;\n\t"
      "fma.rn.f32 m, %1, %2, %3;\n\t"
      "rsqrt.approx.ftz.f32 %0, m;\n\t"
      "}"
      : "=f"(r)
      : "f"(sumsq), "f"(inv_n), "f"(eps));
  return r;
}
__device__ __forceinline__ float exact_div(float a, float b) {
  float q;
  asm("div.rn.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
  return q;
}
__device__ __forceinline__ float fast_div(float a, float b) {
  float q;
  asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
  return q;
}

// f64 accumulation with directed rounding and a sanity test of the result class.
__device__ __forceinline__ uint32_t f64_accumulate(double acc, double x, double& lo, double& hi) {
  uint32_t finite;
  asm("{\n\t"
      ".reg .pred ok;\n\t"
      "add.rm.f64 %1, %3, %4;\n\t"
      "add.rp.f64 %2, %3, %4;\n\t"
      "testp.finite.f64 ok, %2;\n\t"
      "selp.u32 %0, 1, 0, ok;\n\t"
      "}"
      : "=r"(finite), "=d"(lo), "=d"(hi)
      : "d"(acc), "d"(x));
  return finite;
}

// set/slct/copysign: masks and sign transfer.
__device__ __forceinline__ uint32_t lt_mask(float a, float b) {
  uint32_t m;
  asm("set.lt.ftz.u32.f32 %0, %1, %2;" : "=r"(m) : "f"(a), "f"(b));
  return m;
}
__device__ __forceinline__ float sign_select(float a, float b, float s) {
  float d;
  asm("{\n\t"
      ".reg .f32 t;\n\t"
      "slct.f32.f32 t, %1, %2, %3;\n\t"
      "copysign.f32 %0, %3, t;\n\t"
      "}"
      : "=f"(d)
      : "f"(a), "f"(b), "f"(s));
  return d;
}

// Trigonometric rotation with sin/cos.approx and a log2 feature.
__device__ __forceinline__ void rotate(float theta, float& c, float& s, float& l) {
  asm("cos.approx.ftz.f32 %0, %3;\n\t"
      "sin.approx.ftz.f32 %1, %3;\n\t"
      "lg2.approx.f32 %2, %3;"
      : "=f"(c), "=f"(s), "=f"(l)
      : "f"(theta));
}

// Range check combining two compares into a predicate pair.
__device__ __forceinline__ uint32_t in_range(int32_t v, int32_t lo, int32_t hi) {
  uint32_t r;
  asm("{\n\t"
      ".reg .pred p, q, ge;\n\t"
      "setp.ge.s32 ge, %1, %2;\n\t"
      "setp.le.and.s32 p|q, %1, %3, ge;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t"
      "}"
      : "=r"(r)
      : "r"(v), "r"(lo), "r"(hi));
  return r;
}

__global__ void float_kernels(const float* __restrict__ x, const double* __restrict__ xd, float* out,
                              double* outd, uint32_t* flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float lo, hi, c, s, l;
  interval_step<true>(v, v, 3.0f, 0.1f, lo, hi);
  interval_step<false>(lo, hi, 3.0f, 0.0f, lo, hi);
  rotate(v, c, s, l);
  out[8 * i + 0] = softmax_exp(v, 1.0f);
  out[8 * i + 1] = gelu_tanh(v);
  out[8 * i + 2] = clamp_nan_lo(v, -1.0f, 1.0f);
  out[8 * i + 3] = hi - lo + fma_down(v, v, -1.0f);
  out[8 * i + 4] = nan_max(v, xorsign_min(v, -2.0f));
  out[8 * i + 5] = rms_scale(v * v, 0.5f, 1e-6f) + exact_div(v, 3.0f) + fast_div(v, 7.0f);
  out[8 * i + 6] = sign_select(v, -v, c - s);
  out[8 * i + 7] = l;
  double dlo, dhi;
  flags[2 * i] = f64_accumulate(xd[i], 1e-20, dlo, dhi) | lt_mask(v, 0.0f);
  flags[2 * i + 1] = in_range(i, 2, n - 2);
  outd[2 * i] = dlo;
  outd[2 * i + 1] = dhi;
}
