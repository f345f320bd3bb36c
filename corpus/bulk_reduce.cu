// Bulk reductions (cp.reduce.async.bulk) from shared memory into global memory, in the style of
// DeepEP's and cutlass's reduce-store epilogues (SM90_BULK_REDUCE_ADD). Every block stages 4 KB of
// its input in shared memory, then single threads issue one reduction per operation and type the
// ISA lists: the commutative integer operations into regions every block reduces into, the
// order-sensitive ones (floating-point adds, inc/dec) into regions of their own block.
#include <stdint.h>

namespace bulk_reduce {

constexpr int kBytes = 1024;   // one reduction: 1 KB

__device__ __forceinline__ uint32_t smem_addr32(const void* p) {
#if defined(__HIP_PLATFORM_AMD__)
  return (uint32_t)(uintptr_t)(const __attribute__((address_space(3))) void*)p;
#else
  return (uint32_t)__cvta_generic_to_shared(p);
#endif
}

// Global destinations, bulk groups.
__device__ __forceinline__ void add_u32(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void add_s32(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.s32 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void min_u32(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u32 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void max_s32(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s32 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void min_s32_hinted(void* g, uint32_t s, uint64_t policy) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.min.s32 [%0], [%1], %2, %3;"
               ::"l"(g), "r"(s), "r"(kBytes), "l"(policy)
               : "memory");
}
__device__ __forceinline__ void and_b32(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.and.b32 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void or_b32(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.or.b32 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void xor_b32_hinted(void* g, uint32_t s, uint64_t policy) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.xor.b32 [%0], [%1], %2, %3;"
               ::"l"(g), "r"(s), "r"(kBytes), "l"(policy)
               : "memory");
}
__device__ __forceinline__ void inc_u32(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.u32 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void dec_u32(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.dec.u32 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void add_u64(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u64 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void min_u64(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u64 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void max_s64(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s64 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void or_b64(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.or.b64 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void xor_b64(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.xor.b64 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void add_f32(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;" ::"l"(g), "r"(s),
               "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void add_f64_hinted(void* g, uint32_t s, uint64_t policy) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.f64 [%0], [%1], %2, %3;"
               ::"l"(g), "r"(s), "r"(kBytes), "l"(policy)
               : "memory");
}
__device__ __forceinline__ void add_f16(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%0], [%1], %2;" ::"l"(g),
               "r"(s), "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void add_bf16(void* g, uint32_t s) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%0], [%1], %2;" ::"l"(g),
               "r"(s), "r"(kBytes)
               : "memory");
}
__device__ __forceinline__ void commit_and_wait() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

}  // namespace bulk_reduce

/// Per block: 4 KB of `in` staged in shared memory; thread 0 reduces into 32-bit regions, thread
/// 32 into 64-bit ones, thread 64 into floating-point ones, each in a bulk group it waits for.
__global__ void __launch_bounds__(256) bulk_reduce_kernel(const unsigned* in, unsigned* acc32,
                                                          unsigned long long* acc64, float* accf,
                                                          double* accd, unsigned short* acch) {
  using namespace bulk_reduce;
  __shared__ __attribute__((aligned(128))) unsigned src[4 * kBytes / 4];
  const int t = threadIdx.x, b = blockIdx.x;
  const unsigned* block_in = in + (size_t)b * kBytes;   // 4 KB of input per block
  for (int i = t; i < kBytes; i += 256) src[i] = block_in[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();

  const uint32_t s0 = smem_addr32(src), s1 = s0 + kBytes, s2 = s0 + 2 * kBytes, s3 = s0 + 3 * kBytes;
  const uint64_t evict_first = 0x12F0000000000000ull;
  const size_t r32 = kBytes / 4;   // one region of acc32: 256 words
  if (t == 0) {
    // Every block into the same regions: the result is independent of the blocks' order.
    add_u32(acc32 + 0 * r32, s0);
    add_s32(acc32 + 1 * r32, s1);
    min_u32(acc32 + 2 * r32, s2);
    max_s32(acc32 + 3 * r32, s3);
    min_s32_hinted(acc32 + 4 * r32, s1, evict_first);
    and_b32(acc32 + 5 * r32, s2);
    or_b32(acc32 + 6 * r32, s3);
    xor_b32_hinted(acc32 + 7 * r32, s0, evict_first);
    // inc/dec depend on the order of their operands: one block per region.
    inc_u32(acc32 + (8 + 2 * b) * r32, s1);
    dec_u32(acc32 + (9 + 2 * b) * r32, s2);
    commit_and_wait();
  } else if (t == 32) {
    const size_t r64 = kBytes / 8;
    add_u64(acc64 + 0 * r64, s0);
    min_u64(acc64 + 1 * r64, s1);
    max_s64(acc64 + 2 * r64, s2);
    or_b64(acc64 + 3 * r64, s3);
    xor_b64(acc64 + 4 * r64, s1);
    commit_and_wait();
  } else if (t == 64) {
    // Floating-point adds round after each element: one block per region.
    add_f32(accf + (size_t)b * (kBytes / 4), s0);
    add_f64_hinted(accd + (size_t)b * (kBytes / 8), s1, evict_first);
    add_f16(acch + (size_t)(2 * b) * (kBytes / 2), s2);
    add_bf16(acch + (size_t)(2 * b + 1) * (kBytes / 2), s3);
    commit_and_wait();
  }
}
