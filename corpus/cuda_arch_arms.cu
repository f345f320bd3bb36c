// Architecture-dependent inline PTX the way communication, transformer and GEMM libraries
// write it: `#if __CUDA_ARCH__ >= N` chains pick a PTX path per NVIDIA architecture, with an
// older path or a stub that traps in the arms below; host and device functions keep their host
// implementation in the `#else` of `#ifdef __CUDA_ARCH__`; a feature macro is defined from the
// architecture and tested later. A HIP compilation never defines `__CUDA_ARCH__`: as written,
// the AMD device pass would compile the stubs and the host implementations, which call host
// functions and so do not compile as device code.

#include <assert.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 890)
#define ARCH_FP8_PATH 1
#endif

namespace arch_arms {

// Host implementations, in a host-only translation unit.
uint32_t host_mul_hi(uint32_t a, uint32_t b);
uint32_t host_select_bytes(uint32_t a, uint32_t b, uint32_t sel);

// The high 32 bits of a 32x32 product: one instruction from sm_80 on, two before sm_70, and
// a stub that traps on anything older (the stub arm holds no asm).
__host__ __device__ inline uint32_t mul_hi(uint32_t a, uint32_t b) {
  uint32_t d;
#if __CUDA_ARCH__ >= 800
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
#elif __CUDA_ARCH__ >= 700 // Volta: the wide product
  uint64_t wide;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(wide) : "r"(a), "r"(b));
  d = (uint32_t)(wide >> 32);
#elif defined(__CUDA_ARCH__)
  printf("mul_hi: unsupported architecture\n");
  assert(0);
  d = 0;
#else
  d = host_mul_hi(a, b);
#endif
  return d;
}

// Host and pre-Volta first: an undefined macro is 0 in `#if`, so this first arm is what the
// AMD device pass compiles as written.
__host__ __device__ inline uint32_t bit_reverse(uint32_t a) {
  uint32_t d = 0;
#if __CUDA_ARCH__ < 700
  for (int i = 0; i < 32; ++i) d |= ((a >> i) & 1u) << (31 - i);
#else
  asm("brev.b32 %0, %1;" : "=r"(d) : "r"(a));
#endif
  return d;
}

// Device code against a host fallback; the device arm nests its own architecture choice.
__host__ __device__ inline uint32_t select_bytes(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t d;
#ifdef __CUDA_ARCH__
#  if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600 /* any device arch in use */
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
#  else
  d = a;
#  endif
#else
  d = host_select_bytes(a, b, sel);
#endif
  return d;
}

// A feature macro defined from the architecture at the top of the file.
__host__ __device__ inline uint32_t min_u32(uint32_t a, uint32_t b) {
  uint32_t d;
#if defined(ARCH_FP8_PATH)
  asm("min.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
#else
  d = b < a ? b : a;
#endif
  return d;
}

// The PTX text chosen per architecture inside the statement (an L2 prefetch hint from sm_80 on):
// every arm is translated, and the `#if` choosing between the translations tests the macro too.
__device__ __forceinline__ uint32_t load_hinted(const uint32_t *p) {
  uint32_t v;
  asm volatile(
#if __CUDA_ARCH__ >= 800
      "ld.global.L2::128B.u32 %0, [%1];"
#else
      "ld.global.u32 %0, [%1];"
#endif
      : "=r"(v)
      : "l"(p));
  return v;
}

// Host code that tests `__CUDA_ARCH__` for "compiled as device code": no asm, left alone.
__host__ __device__ inline int where_am_i() {
#ifndef __CUDA_ARCH__
  return 0;
#else
  return 1;
#endif
}

} // namespace arch_arms

__global__ void arch_arms_kernel(const uint32_t *a, const uint32_t *b, uint32_t *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[6 * t + 0] = arch_arms::mul_hi(a[t], b[t]);
  out[6 * t + 1] = arch_arms::bit_reverse(a[t]);
  out[6 * t + 2] = arch_arms::select_bytes(a[t], b[t], 0x5140u);
  out[6 * t + 3] = arch_arms::min_u32(a[t], b[t]);
  out[6 * t + 4] = (uint32_t)arch_arms::where_am_i();
  out[6 * t + 5] = arch_arms::load_hinted(&a[t]);
}
