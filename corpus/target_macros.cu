// Architecture dispatch in the style of CCCL's <nv/target> (`NV_IF_TARGET(NV_IS_DEVICE, (...), (...))`)
// and of CUTLASS/CUB helper macros: the inline PTX sits inside the arguments of function-like
// macro invocations — as a parenthesized statement group, as a bare argument, in a lambda handed
// to a function, and in a `#define` built on the dispatch macro. The file starts with a UTF-8
// byte order mark, as files saved by some Windows editors do.
#include <stdint.h>

// Dispatch: CORPUS_IF_ELSE_DEVICE((device statements), (host statements)) becomes a block with
// one of the groups, parentheses removed (the groups may hold commas).
#define CORPUS_STRIP(...) __VA_ARGS__
#define CORPUS_BLOCK(group) { CORPUS_STRIP group }
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define CORPUS_IF_ELSE_DEVICE(device_group, host_group) CORPUS_BLOCK(device_group)
#else
#define CORPUS_IF_ELSE_DEVICE(device_group, host_group) CORPUS_BLOCK(host_group)
#endif

// A statement handed over as one bare macro argument (CUTLASS-style wrappers).
#define CORPUS_DEVICE_STMT(stmt) \
  do {                           \
    stmt;                        \
  } while (0)

// A `#define` built on the dispatch macro, with the asm inside its statement group.
#define CORPUS_MUL_HI(d, a, b)                                                    \
  CORPUS_IF_ELSE_DEVICE((asm("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));), \
                        (d = (uint32_t)(((uint64_t)(a) * (b)) >> 32);))

namespace corpus_target {

/// Applies `f` to 0..n-1 (a plain function: a lambda handed to it is an argument list to the
/// preprocessor all the same).
template <typename F>
__device__ __forceinline__ void apply_each(int n, F f) {
  for (int i = 0; i < n; ++i) f(i);
}

/// One statement in the device group.
__device__ __forceinline__ uint32_t add_on_device(uint32_t a, uint32_t b) {
  uint32_t d;
  CORPUS_IF_ELSE_DEVICE((asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));), (d = a + b;));
  return d;
}

/// Several statements in the device group, over several lines, one of them after the asm.
__device__ __forceinline__ uint32_t rotate_then_add(uint32_t a, uint32_t b) {
  uint32_t d;
  CORPUS_IF_ELSE_DEVICE(
      (asm volatile("shf.l.wrap.b32 %0, %1, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
       d += 1;),
      (d = ((a << (b & 31)) | (a >> ((32 - (b & 31)) & 31))) + 1;));
  return d;
}

/// A translation with commas (a template helper) inside the group's own parentheses.
__device__ __forceinline__ float fma_on_device(float a, float b, float c) {
  float d;
  CORPUS_IF_ELSE_DEVICE((asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c));),
                        (d = a * b + c;));
  return d;
}

/// The asm as a bare macro argument, without its `;`.
__device__ __forceinline__ uint32_t popc_stmt(uint32_t a) {
  uint32_t d;
  CORPUS_DEVICE_STMT(asm("popc.b32 %0, %1;" : "=r"(d) : "r"(a)));
  return d;
}

/// The asm inside a lambda handed to a function.
__device__ __forceinline__ uint32_t sum_of_xors(uint32_t a, int n) {
  uint32_t acc = 0;
  apply_each(n, [&](int i) {
    uint32_t t;
    asm("xor.b32 %0, %1, %2;" : "=r"(t) : "r"(a), "r"((uint32_t)i));
    acc += t;
  });
  return acc;
}

/// The dispatch inside a `#define`.
__device__ __forceinline__ uint32_t mul_hi(uint32_t a, uint32_t b) {
  uint32_t d;
  CORPUS_MUL_HI(d, a, b);
  return d;
}

}  // namespace corpus_target

__global__ void target_macros_kernel(const uint32_t* a, const uint32_t* b, const float* f,
                                     uint32_t* out_u, float* out_f, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint32_t x = a[t], y = b[t];
  out_u[6 * t] = corpus_target::add_on_device(x, y);
  out_u[6 * t + 1] = corpus_target::rotate_then_add(x, y);
  out_u[6 * t + 2] = corpus_target::popc_stmt(x);
  out_u[6 * t + 3] = corpus_target::sum_of_xors(x, (int)(y & 7));
  out_u[6 * t + 4] = corpus_target::mul_hi(x, y);
  out_u[6 * t + 5] = x ^ y;
  out_f[t] = corpus_target::fma_on_device(f[3 * t], f[3 * t + 1], f[3 * t + 2]);
}
