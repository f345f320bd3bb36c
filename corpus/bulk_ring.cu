// A TMA-free producer/consumer ring fed by bulk copies, in the style of the 1D "TMA" paths of
// DeepEP and flashinfer: one producer thread loads each stage from global memory with
// cp.async.bulk (mbarrier::complete_tx::bytes) after arming the stage's full barrier with
// arrive.expect_tx, consumer warps wait for the stage's phase by parity, compute, write their
// results to an output stage and release the input stage on its empty barrier; one consumer
// thread stores each output stage back to global memory with a shared -> global bulk copy,
// commit_group and wait_group.read, and releases the output stage. Roles are whole groups of 64
// threads (a waiter and an arriver never share a wave on AMD wave64).
#include <stdint.h>

namespace bulk_ring {

constexpr int kStages = 4;
constexpr int kRounds = 16;
constexpr int kStageBytes = 1024;   // 256 ints per input stage, four bulk copies of 256 bytes
constexpr int kChunkBytes = 256;
constexpr int kConsumers = 192;     // threads 64..255
constexpr int kOutBytes = kConsumers * 4;   // 768: a multiple of 16, as bulk copies need
constexpr uint64_t kEvictFirst = 0x12F0000000000000ull;   // CUTLASS's CacheHintSm90 values
constexpr uint64_t kEvictLast = 0x14F0000000000000ull;

__device__ __forceinline__ uint32_t smem_addr32(const void* p) {
#if defined(__HIP_PLATFORM_AMD__)
  return (uint32_t)(uintptr_t)(const __attribute__((address_space(3))) void*)p;
#else
  return (uint32_t)__cvta_generic_to_shared(p);
#endif
}

__device__ __forceinline__ void init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void fence_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void wait_parity(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n"
      "  .reg .pred P1;\n"
      "LAB_WAIT:\n"
      "  mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
      "  @P1 bra DONE;\n"
      "  bra LAB_WAIT;\n"
      "DONE:\n"
      "}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}

/// global -> shared, completing on `bar` (the .shared::cluster spelling of CUTLASS's SM90_BULK_COPY_G2S).
__device__ __forceinline__ void load_cluster(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               ::"r"(dst), "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

/// The same with the PTX 8.6 .shared::cta destination and an L2 cache hint (cccl's spelling).
__device__ __forceinline__ void load_cta_hinted(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar,
                                                uint64_t policy) {
  asm volatile(
      "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
      ::"r"(dst), "l"(src), "r"(bytes), "r"(bar), "l"(policy)
      : "memory");
}

__device__ __forceinline__ void prefetch_l2(const void* src, uint32_t bytes) {
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(src), "r"(bytes) : "memory");
}

__device__ __forceinline__ void prefetch_l2_hinted(const void* src, uint32_t bytes, uint64_t policy) {
  asm volatile("cp.async.bulk.prefetch.L2.global.L2::cache_hint [%0], %1, %2;" ::"l"(src), "r"(bytes),
               "l"(policy)
               : "memory");
}

__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/// shared -> global as a bulk group (CUTLASS's SM90_BULK_COPY_S2G), with or without a cache hint.
__device__ __forceinline__ void store(void* dst, uint32_t src, uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(src),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void store_hinted(void* dst, uint32_t src, uint32_t bytes, uint64_t policy) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;" ::"l"(dst),
               "r"(src), "r"(bytes), "l"(policy)
               : "memory");
}

__device__ __forceinline__ void commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }

__device__ __forceinline__ void wait_read_0() {
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

__device__ __forceinline__ void wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

}  // namespace bulk_ring

/// Per block: 16 rounds through a 4-stage ring of 1 KB input stages and 768-byte output stages.
/// Thread 0 produces (four 256-byte bulk copies per stage, armed before or after the copies by
/// round parity); threads 64..255 consume (a weighted sum of 8 stage elements, stored as one word
/// per consumer per round in `out` by thread 64's bulk stores).
__global__ void __launch_bounds__(256) bulk_ring_kernel(const int* in, unsigned* out) {
  using namespace bulk_ring;
  __shared__ __attribute__((aligned(128))) int stage[kStages][kStageBytes / 4];
  __shared__ __attribute__((aligned(128))) unsigned result[kStages][kConsumers];
  __shared__ __attribute__((aligned(8))) uint64_t full[kStages];
  __shared__ __attribute__((aligned(8))) uint64_t empty[kStages];
  __shared__ __attribute__((aligned(8))) uint64_t out_full[kStages];
  __shared__ __attribute__((aligned(8))) uint64_t out_empty[kStages];
  const int t = threadIdx.x;
  const char* block_in = (const char*)(in + (size_t)blockIdx.x * kRounds * (kStageBytes / 4));
  unsigned* block_out = out + (size_t)blockIdx.x * kRounds * kConsumers;

  if (t == 0) {
    for (int s = 0; s < kStages; ++s) {
      init(smem_addr32(&full[s]), 1);
      init(smem_addr32(&empty[s]), kConsumers);
      init(smem_addr32(&out_full[s]), kConsumers);
      init(smem_addr32(&out_empty[s]), 1);
    }
    fence_init();
  }
  __syncthreads();

  if (t == 0) {
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kStages;
      const uint32_t parity = (uint32_t)(r / kStages) & 1u;
      wait_parity(smem_addr32(&empty[s]), parity ^ 1u);
      const char* src = block_in + (size_t)r * kStageBytes;
      if (r + 1 < kRounds) {
        if (r % 2 == 0) prefetch_l2(src + kStageBytes, kStageBytes);
        else prefetch_l2_hinted(src + kStageBytes, kStageBytes, kEvictLast);
      }
      const uint32_t bar = smem_addr32(&full[s]);
      // Even rounds arm the barrier first (CUTLASS), odd rounds after the copies have completed
      // their bytes (the tx-count goes negative in between).
      if (r % 2 == 0) arrive_expect_tx(bar, kStageBytes);
      for (int c = 0; c < kStageBytes / kChunkBytes; ++c) {
        const uint32_t dst = smem_addr32((const char*)stage[s] + c * kChunkBytes);
        if (c % 2 == 0) load_cluster(dst, src + c * kChunkBytes, kChunkBytes, bar);
        else load_cta_hinted(dst, src + c * kChunkBytes, kChunkBytes, bar, kEvictFirst);
      }
      if (r % 2 == 1) arrive_expect_tx(bar, kStageBytes);
    }
  } else if (t >= 64) {
    const int c = t - 64;
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kStages;
      const uint32_t parity = (uint32_t)(r / kStages) & 1u;
      wait_parity(smem_addr32(&full[s]), parity);
      uint32_t sum = 0;
      for (int j = 0; j < 8; ++j) sum += (uint32_t)stage[s][(c + 37 * j) % 256] * (uint32_t)(2 * j + 1);
      arrive(smem_addr32(&empty[s]));
      // The output stage is free once its previous bulk store has read it.
      wait_parity(smem_addr32(&out_empty[s]), parity ^ 1u);
      result[s][c] = sum ^ (uint32_t)r;
      fence_proxy_async();
      arrive(smem_addr32(&out_full[s]));
      if (c == 0) {
        wait_parity(smem_addr32(&out_full[s]), parity);
        unsigned* dst = block_out + (size_t)r * kConsumers;
        if (r % 3 == 0) store_hinted(dst, smem_addr32(result[s]), kOutBytes, kEvictFirst);
        else store(dst, smem_addr32(result[s]), kOutBytes);
        commit();
        wait_read_0();
        arrive(smem_addr32(&out_empty[s]));
      }
    }
    if (c == 0) wait_all();
  }
}
