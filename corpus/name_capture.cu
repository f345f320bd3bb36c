// Libraries wrap single PTX instructions in functions named after the CUDA function they stand
// for: a `timing::clock64()` that reads %clock64, a fast-math `fabsf` that is `abs.f32`. Inside such
// a wrapper (a namespace function or a class member), a translation that called `clock64()` or
// `fabsf()` unqualified would call the wrapper itself, forever. Every function name a translation
// calls is wrapped here, in a namespace and as a member; the kernel calls them all.
#include <cstdint>
#include <cstring>

namespace timing {

__device__ __forceinline__ uint64_t clock64() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
  return t;
}

__device__ __forceinline__ uint32_t clock() {
  uint32_t t;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t));
  return t;
}

}  // namespace timing

namespace fastmath {

__device__ __forceinline__ float fabsf(float x) {
  float y;
  asm("abs.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

__device__ __forceinline__ float tanhf(float x) {
  float y;
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

__device__ __forceinline__ double sqrt(double x) {  // deliberately 1/sqrt: a reciprocal square root
  double y;
  asm("rsqrt.approx.f64 %0, %1;" : "=d"(y) : "d"(x));
  return y;
}

__device__ __forceinline__ float copysignf(float magnitude, float sign) {
  float y;
  asm("copysign.f32 %0, %1, %2;" : "=f"(y) : "f"(sign), "f"(magnitude));
  return y;
}

__device__ __forceinline__ double copysign(double magnitude, double sign) {
  double y;
  asm("copysign.f64 %0, %1, %2;" : "=d"(y) : "d"(sign), "d"(magnitude));
  return y;
}

}  // namespace fastmath

// The same names as members: a member hides the global function inside the class.
struct Stopwatch {
  uint64_t start;
  __device__ uint64_t clock64() const {
    uint64_t t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
    return t;
  }
  __device__ uint32_t clock() const {
    uint32_t t;
    asm volatile("mov.u32 %0, %%clock;" : "=r"(t));
    return t;
  }
  __device__ bool running() const { return clock64() >= start; }
};

struct FastMath {
  __device__ float fabsf(float x) const {
    float y;
    asm("abs.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  }
  __device__ float tanhf(float x) const {
    float y;
    asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  }
  __device__ double sqrt(double x) const {
    double y;
    asm("rsqrt.approx.f64 %0, %1;" : "=d"(y) : "d"(x));
    return y;
  }
  __device__ float copysignf(float magnitude, float sign) const {
    float y;
    asm("copysign.f32 %0, %1, %2;" : "=f"(y) : "f"(sign), "f"(magnitude));
    return y;
  }
  __device__ double copysign(double magnitude, double sign) const {
    double y;
    asm("copysign.f64 %0, %1, %2;" : "=d"(y) : "d"(sign), "d"(magnitude));
    return y;
  }
};

__device__ __forceinline__ float as_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

__device__ __forceinline__ uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

__device__ __forceinline__ uint64_t bits_of(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

// Approximate results (tanh, rsqrt) are compared through what is exact about them: whether the
// result is a NaN (not which NaN) and otherwise its sign; tanh gets normal inputs.
__device__ __forceinline__ uint32_t sign_and_nan(float f) { return f != f ? 2u : bits_of(f) >> 31; }
__device__ __forceinline__ uint32_t sign_and_nan(double d) { return d != d ? 2u : (uint32_t)(bits_of(d) >> 63); }

__global__ void name_capture(const uint32_t* __restrict__ x, uint32_t* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = as_float(x[4 * i]), b = as_float(x[4 * i + 1]);
  // The same values with a non-zero exponent: never subnormal.
  float an = as_float(x[4 * i] | 0x00800000u), bn = as_float(x[4 * i + 1] | 0x00800000u);
  double d = (double)a * 3.0, e = (double)b;
  uint32_t* o = out + 16 * i;
  uint64_t t0 = timing::clock64();
  uint32_t c0 = timing::clock();
  o[0] = bits_of(fastmath::fabsf(a));
  o[1] = sign_and_nan(fastmath::tanhf(an));
  o[2] = sign_and_nan(fastmath::sqrt(d));
  o[3] = bits_of(fastmath::copysignf(a, b));
  uint64_t cs = bits_of(fastmath::copysign(d, e));
  o[4] = (uint32_t)cs;
  o[5] = (uint32_t)(cs >> 32);
  FastMath fm;
  o[6] = bits_of(fm.fabsf(b));
  o[7] = sign_and_nan(fm.tanhf(bn));
  o[8] = sign_and_nan(fm.sqrt(e));
  o[9] = bits_of(fm.copysignf(b, a));
  o[10] = (uint32_t)(bits_of(fm.copysign(e, d)) >> 32);
  Stopwatch sw{t0};
  uint32_t c1 = sw.clock();
  o[11] = sw.running() ? 1u : 0u;
  o[12] = timing::clock64() >= t0 ? 1u : 0u;
  o[13] = c1 - c0 < 0x40000000u ? 1u : 0u;  // a few cycles apart, modulo 2^32
  o[14] = sw.clock64() >= t0 ? 1u : 0u;
}
