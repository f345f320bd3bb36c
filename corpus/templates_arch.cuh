// Template-heavy device code in the style of CUB / FlashInfer utility headers: asm inside class
// templates, member function templates, lambdas, `if constexpr` dispatch and `#if __CUDA_ARCH__`
// branches. Everything is instantiated by the kernel at the end.
#pragma once

#include <stdint.h>

namespace corpus {
namespace detail {

template <typename T, int Bits = sizeof(T) * 8>
struct IntOps;

template <typename T>
struct IntOps<T, 32> {
  __device__ __forceinline__ static T add(T a, T b) {
    T d;
    asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
  }
  __device__ __forceinline__ static T mul(T a, T b) {
    T d;
    asm("mul.lo.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
  }
};

template <typename T>
struct IntOps<T, 64> {
  __device__ __forceinline__ static T add(T a, T b) {
    T d;
    asm("add.u64 %0, %1, %2;" : "=l"(d) : "l"(a), "l"(b));
    return d;
  }
  __device__ __forceinline__ static T mul(T a, T b) {
    T d;
    asm("mul.lo.u64 %0, %1, %2;" : "=l"(d) : "l"(a), "l"(b));
    return d;
  }
};

template <typename T>
struct IntOps<T, 16> {
  __device__ __forceinline__ static T add(T a, T b) {
    T d;
    asm("add.u16 %0, %1, %2;" : "=h"(d) : "h"(a), "h"(b));
    return d;
  }
  __device__ __forceinline__ static T mul(T a, T b) {
    T d;
    asm("mul.lo.u16 %0, %1, %2;" : "=h"(d) : "h"(a), "h"(b));
    return d;
  }
};

}  // namespace detail

/// Lane and warp helpers (cub::LaneId style) with an architecture split.
struct ThreadInfo {
  __device__ __forceinline__ static unsigned tid_x() {
    unsigned r;
    asm("mov.u32 %0, %%tid.x;" : "=r"(r));
    return r;
  }
  __device__ __forceinline__ static unsigned ntid_x() {
    unsigned r;
    asm("mov.u32 %0, %%ntid.x;" : "=r"(r));
    return r;
  }
  template <bool Wide>
  __device__ __forceinline__ static unsigned long long flat_id() {
    if constexpr (Wide) {
      unsigned long long y = tid_x(), n = ntid_x(), d;
      asm("add.u64 %0, %1, %2;" : "=l"(d) : "l"(y), "l"(n));
      return d;
    } else {
      return tid_x();
    }
  }
};

/// Accumulates a fixed-size fragment; the reduction operator is a lambda that wraps asm.
template <typename T, int N>
struct Fragment {
  T v[N];

  template <typename Op>
  __device__ __forceinline__ T reduce(Op op) const {
    T acc = v[0];
#pragma unroll
    for (int i = 1; i < N; ++i) acc = op(acc, v[i]);
    return acc;
  }

  __device__ __forceinline__ T sum() const {
    return reduce([](T a, T b) { return detail::IntOps<T>::add(a, b); });
  }

  __device__ __forceinline__ T product() const {
    auto mul = [](T a, T b) {
      T d;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      d = detail::IntOps<T>::mul(a, b);
#else
      d = a * b;
#endif
      return d;
    };
    return reduce(mul);
  }
};

/// Float accumulation with the rounding mode picked at compile time.
template <bool TowardZero>
__device__ __forceinline__ float add_f32(float a, float b) {
  float d;
  if constexpr (TowardZero) {
    asm("add.rz.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  } else {
    asm("add.rn.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  }
  return d;
}

/// Sums n + (n-1) + ... + 0 with a backward branch, then clamps with a forward branch
/// (retry/spin loops in synchronisation code have this shape).
__device__ __forceinline__ unsigned countdown_sum(unsigned n) {
  unsigned acc;
  asm("{\n\t"
      ".reg .pred more, small;\n\t"
      ".reg .u32 i;\n\t"
      "mov.u32 %0, 0;\n\t"
      "mov.u32 i, %1;\n"
      "LOOP:\n\t"
      "add.u32 %0, %0, i;\n\t"
      "setp.ne.u32 more, i, 0;\n\t"
      "sub.u32 i, i, 1;\n\t"
      "@more bra.uni LOOP;\n\t"
      "setp.le.u32 small, %0, 1000;\n\t"
      "@small bra.uni DONE;\n\t"
      "mov.u32 %0, 1000;\n"
      "DONE:\n\t"
      "}"
      : "=r"(acc)
      : "r"(n));
  return acc;
}

}  // namespace corpus

__global__ void templates_arch_kernel(const int* a, const unsigned long long* b, const unsigned short* c,
                                      const float* f, int* out_i, unsigned long long* out_l,
                                      unsigned short* out_h, float* out_f, unsigned* out_u, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  corpus::Fragment<int, 4> fi{{a[4 * t], a[4 * t + 1], a[4 * t + 2], a[4 * t + 3]}};
  corpus::Fragment<unsigned long long, 2> fl{{b[2 * t], b[2 * t + 1]}};
  corpus::Fragment<unsigned short, 2> fh{{c[2 * t], c[2 * t + 1]}};
  out_i[2 * t] = fi.sum();
  out_i[2 * t + 1] = fi.product();
  out_l[2 * t] = fl.sum();
  out_l[2 * t + 1] = fl.product() + corpus::ThreadInfo::flat_id<true>() + corpus::ThreadInfo::flat_id<false>();
  out_h[2 * t] = fh.sum();
  out_h[2 * t + 1] = fh.product();
  out_f[2 * t] = corpus::add_f32<true>(f[2 * t], f[2 * t + 1]);
  out_f[2 * t + 1] = corpus::add_f32<false>(f[2 * t], f[2 * t + 1]);
  out_u[t] = corpus::countdown_sum((unsigned)(a[4 * t] & 63));
}
