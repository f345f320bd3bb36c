// Interval arithmetic on doubles with outward rounding: every lower bound is rounded toward -inf
// and every upper bound toward +inf, so the true result always lies inside the interval. Written
// in the style of verified-numerics libraries, which pin the rounding of each bound with PTX
// because the C++ operators only round to nearest.
#pragma once

#include <cstdint>

namespace ivl {

// The directed operations, one PTX string each (object-like macros, so headers can share them).
#define IVL_ADD_DOWN "add.rm.f64 %0, %1, %2;"
#define IVL_ADD_UP "add.rp.f64 %0, %1, %2;"
#define IVL_SUB_DOWN "sub.rm.f64 %0, %1, %2;"
#define IVL_SUB_UP "sub.rp.f64 %0, %1, %2;"
#define IVL_MUL_DOWN "mul.rm.f64 %0, %1, %2;"
#define IVL_MUL_UP "mul.rp.f64 %0, %1, %2;"
#define IVL_DIV_DOWN "div.rm.f64 %0, %1, %2;"
#define IVL_DIV_UP "div.rp.f64 %0, %1, %2;"

__device__ __forceinline__ double add_down(double a, double b) {
  double r;
  asm(IVL_ADD_DOWN : "=d"(r) : "d"(a), "d"(b));
  return r;
}
__device__ __forceinline__ double add_up(double a, double b) {
  double r;
  asm(IVL_ADD_UP : "=d"(r) : "d"(a), "d"(b));
  return r;
}
__device__ __forceinline__ double sub_down(double a, double b) {
  double r;
  asm(IVL_SUB_DOWN : "=d"(r) : "d"(a), "d"(b));
  return r;
}
__device__ __forceinline__ double sub_up(double a, double b) {
  double r;
  asm(IVL_SUB_UP : "=d"(r) : "d"(a), "d"(b));
  return r;
}
__device__ __forceinline__ double mul_down(double a, double b) {
  double r;
  asm(IVL_MUL_DOWN : "=d"(r) : "d"(a), "d"(b));
  return r;
}
__device__ __forceinline__ double mul_up(double a, double b) {
  double r;
  asm(IVL_MUL_UP : "=d"(r) : "d"(a), "d"(b));
  return r;
}
__device__ __forceinline__ double div_down(double a, double b) {
  double r;
  asm(IVL_DIV_DOWN : "=d"(r) : "d"(a), "d"(b));
  return r;
}
__device__ __forceinline__ double div_up(double a, double b) {
  double r;
  asm(IVL_DIV_UP : "=d"(r) : "d"(a), "d"(b));
  return r;
}

struct interval {
  double lo, hi;
};

__device__ __forceinline__ interval operator+(interval x, interval y) {
  return {add_down(x.lo, y.lo), add_up(x.hi, y.hi)};
}

__device__ __forceinline__ interval operator-(interval x, interval y) {
  return {sub_down(x.lo, y.hi), sub_up(x.hi, y.lo)};
}

// The product's bounds are the extreme of the four corner products, each rounded outward.
__device__ inline interval operator*(interval x, interval y) {
  double lo, hi;
  asm("{\n\t"
      ".reg .f64 t0, t1, t2, t3;\n\t"
      "mul.rm.f64 t0, %2, %4;\n\t"
      "mul.rm.f64 t1, %2, %5;\n\t"
      "mul.rm.f64 t2, %3, %4;\n\t"
      "mul.rm.f64 t3, %3, %5;\n\t"
      "min.f64 t0, t0, t1;\n\t"
      "min.f64 t2, t2, t3;\n\t"
      "min.f64 %0, t0, t2;\n\t"
      "mul.rp.f64 t0, %2, %4;\n\t"
      "mul.rp.f64 t1, %2, %5;\n\t"
      "mul.rp.f64 t2, %3, %4;\n\t"
      "mul.rp.f64 t3, %3, %5;\n\t"
      "max.f64 t0, t0, t1;\n\t"
      "max.f64 t2, t2, t3;\n\t"
      "max.f64 %1, t0, t2;\n\t"
      "}"
      : "=d"(lo), "=d"(hi)
      : "d"(x.lo), "d"(x.hi), "d"(y.lo), "d"(y.hi));
  return {lo, hi};
}

// Division by an interval that excludes zero.
__device__ inline interval divide_positive(interval x, interval y) {
  return {div_down(x.lo, y.hi), div_up(x.hi, y.lo)};
}

__device__ inline interval sqrt(interval x) {
  double lo, hi;
  asm("sqrt.rm.f64 %0, %1;" : "=d"(lo) : "d"(x.lo));
  asm("sqrt.rp.f64 %0, %1;" : "=d"(hi) : "d"(x.hi));
  return {lo, hi};
}

// |x| of an interval: the magnitude of the bound farther from zero, and 0 when x straddles it.
__device__ inline interval abs(interval x) {
  double lo, hi, alo, ahi;
  asm("abs.f64 %0, %1;" : "=d"(alo) : "d"(x.lo));
  asm("abs.f64 %0, %1;" : "=d"(ahi) : "d"(x.hi));
  asm("max.f64 %0, %1, %2;" : "=d"(hi) : "d"(alo), "d"(ahi));
  lo = (x.lo <= 0.0 && x.hi >= 0.0) ? 0.0 : (alo < ahi ? alo : ahi);
  return {lo, hi};
}

__device__ __forceinline__ interval negate(interval x) {
  double lo, hi;
  asm("neg.f64 %0, %1;" : "=d"(lo) : "d"(x.hi));
  asm("neg.f64 %0, %1;" : "=d"(hi) : "d"(x.lo));
  return {lo, hi};
}

// a*x + y with one outward rounding per bound, for non-negative a and x.
__device__ inline interval axpy_nonneg(interval a, interval x, interval y) {
  double lo, hi;
  asm("fma.rm.f64 %0, %1, %2, %3;" : "=d"(lo) : "d"(a.lo), "d"(x.lo), "d"(y.lo));
  asm("fma.rp.f64 %0, %1, %2, %3;" : "=d"(hi) : "d"(a.hi), "d"(x.hi), "d"(y.hi));
  return {lo, hi};
}

// Midpoint, rounded to nearest: used to bisect an interval.
__device__ __forceinline__ double midpoint(interval x) {
  double m;
  asm("{\n\t"
      ".reg .f64 s;\n\t"
      "add.rn.f64 s, %1, %2;\n\t"
      "mul.rn.f64 %0, s, 0d3FE0000000000000;\n\t"
      "}"
      : "=d"(m)
      : "d"(x.lo), "d"(x.hi));
  return m;
}

template <int N>
__device__ inline interval enclose_polynomial(interval x, const double* coeff) {
  interval acc{coeff[N - 1], coeff[N - 1]};
  for (int k = N - 2; k >= 0; --k) {
    interval c{coeff[k], coeff[k]};
    acc = acc * x + c;
  }
  return acc;
}

}  // namespace ivl

// One Newton-style refinement step per element, over structure-of-arrays bounds: exercises every
// operation above. Outputs: out[8 * i + 0..7].
__global__ void interval_refine(const double* __restrict__ lo, const double* __restrict__ hi,
                                const double* __restrict__ coeff, double* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ivl::interval x{lo[i], hi[i]};
  ivl::interval y{lo[i + n], hi[i + n]};
  ivl::interval p = ivl::enclose_polynomial<4>(x, coeff + 4 * (i % 64));
  ivl::interval q = ivl::divide_positive(p - y, ivl::abs(y));
  ivl::interval r = ivl::axpy_nonneg(ivl::abs(x), ivl::sqrt(ivl::abs(y)), ivl::negate(q));
  out[8 * i + 0] = p.lo;
  out[8 * i + 1] = p.hi;
  out[8 * i + 2] = q.lo;
  out[8 * i + 3] = q.hi;
  out[8 * i + 4] = r.lo;
  out[8 * i + 5] = r.hi;
  out[8 * i + 6] = ivl::midpoint(r);
  out[8 * i + 7] = ivl::mul_up(x.hi, y.lo) - ivl::mul_down(x.hi, y.lo);
}
