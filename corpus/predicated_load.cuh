// Predicated global loads with zero fill, in the style of CUTLASS' arch/memory.h and the
// sparse-convolution gather kernels built on it: when the guard is false the destination is
// zero (or keeps the fallback value) and memory is not touched.
#pragma once

#include <stdint.h>

namespace corpus {
namespace arch {

struct alignas(16) AlignedU32x4 {
  uint32_t storage[4];
};

template <typename AccessType, int LoadBytes>
struct global_load;

/// 16-byte access: one predicated vector load, zero-filled when the guard is off.
template <typename AccessType>
struct global_load<AccessType, 16> {
  __device__ __forceinline__ global_load(AccessType& D, void const* ptr, bool pred_guard) {
    uint4& data = reinterpret_cast<uint4&>(D);
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  setp.ne.b32 p, %5, 0;\n"
        "  mov.b32 %0, %6;\n"
        "  mov.b32 %1, %7;\n"
        "  mov.b32 %2, %8;\n"
        "  mov.b32 %3, %9;\n"
        "  @p ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\n"
        "}\n"
        : "=r"(data.x), "=r"(data.y), "=r"(data.z), "=r"(data.w)
        : "l"(ptr), "r"((int)pred_guard), "r"(0), "r"(0), "r"(0), "r"(0));
  }
};

/// 4-byte access: one predicated scalar load that keeps the previous contents otherwise.
template <typename AccessType>
struct global_load<AccessType, 4> {
  __device__ __forceinline__ global_load(AccessType& D, void const* ptr, bool pred_guard) {
    unsigned& data = reinterpret_cast<unsigned&>(D);
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  setp.ne.b32 p, %2, 0;\n"
        "  @p ld.global.u32 %0, [%1];\n"
        "}\n"
        : "+r"(data)
        : "l"(ptr), "r"((int)pred_guard));
  }
};

/// Predicated store, the counterpart used by epilogues.
template <typename AccessType>
__device__ __forceinline__ void global_store_u32(AccessType const& D, void* ptr, bool pred_guard) {
  unsigned const& data = reinterpret_cast<unsigned const&>(D);
  asm volatile(
      "{\n"
      "  .reg .pred p;\n"
      "  setp.ne.b32 p, %2, 0;\n"
      "  @p st.global.u32 [%0], %1;\n"
      "}\n"
      :
      : "l"(ptr), "r"(data), "r"((int)pred_guard)
      : "memory");
}

}  // namespace arch

/// Gathers rows of 16 bytes through an index map; missing rows (index < 0) read as zero.
__device__ __forceinline__ uint4 gather_row16(const uint4* table, int index) {
  uint4 v;
  const bool valid = index >= 0;
  arch::global_load<uint4, 16>(v, valid ? table + index : table, valid);
  return v;
}

/// Reads one word when in bounds, otherwise keeps the fallback.
__device__ __forceinline__ unsigned load_or(const unsigned* src, int i, int n, unsigned fallback) {
  unsigned v = fallback;
  arch::global_load<unsigned, 4>(v, src + (i < n ? i : 0), i < n);
  return v;
}

}  // namespace corpus

__global__ void predicated_load_kernel(const uint4* table, const int* indices, uint4* rows,
                                       const unsigned* words, unsigned* words_out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= 2 * n) return;
  if (t < n) rows[t] = corpus::gather_row16(table, indices[t]);
  unsigned w = corpus::load_or(words, t, n, 0xdeadbeefu);
  corpus::arch::global_store_u32(w, words_out + t, (t & 1) == 0);
}
