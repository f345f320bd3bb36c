// Inline PTX hidden in #define bodies with line continuations, as older hashing and
// reduction libraries do (one macro per instruction, composed by other macros).
#include <stdint.h>

#define ADD_U32(d, a, b) asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define SUB_U32(d, a, b) \
  asm("sub.u32 %0, %1, %2;" \
      : "=r"(d)           \
      : "r"(a), "r"(b))
#define MUL_LO_U64(d, a, b)                                   \
  asm volatile("mul.lo.u64 %0, %1, %2;"                      \
               : "=l"(d)                                     \
               : "l"(a), "l"(b))
#define LOAD_GLOBAL_U32(d, p) \
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(d) : "l"(p) : "memory");
#define STORE_GLOBAL_U32(p, v) \
  asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory")
#define FENCE_CTA() asm volatile("membar.cta;" ::: "memory")
#define SELECT_MIN_U32(d, a, b)                 \
  asm("{\n\t"                                  \
      ".reg .pred lt;\n\t"                     \
      "setp.lo.u32 lt, %1, %2;\n\t"            \
      "mov.u32 %0, %2;\n\t"                    \
      "@lt mov.u32 %0, %1;\n\t"                \
      "}"                                      \
      : "=r"(d)                                \
      : "r"(a), "r"(b))

/// A mixing round in the style of a 32-bit FNV/multiply-add hash.
__device__ __forceinline__ uint32_t mix32(uint32_t h, uint32_t x) {
  uint32_t t, u;
  ADD_U32(t, h, x);
  SUB_U32(u, t, 0x7f4a7c15u);
  return u;
}

__device__ __forceinline__ uint64_t mix64(uint64_t h, uint64_t k) {
  uint64_t r;
  MUL_LO_U64(r, h, k);
  return r;
}

__device__ __forceinline__ uint32_t min_u32(uint32_t a, uint32_t b) {
  uint32_t m;
  SELECT_MIN_U32(m, a, b);
  return m;
}

__global__ void macro_kernels_kernel(const uint32_t* in, uint32_t* out32, const uint64_t* in64,
                                     uint64_t* out64, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint32_t x;
  LOAD_GLOBAL_U32(x, in + t)
  uint32_t h = mix32(0x811c9dc5u, x);
  h = min_u32(h, x);
  STORE_GLOBAL_U32(out32 + t, h);
  FENCE_CTA();
  out64[t] = mix64(in64[t], 0x9e3779b97f4a7c15ull);
}
