// A producer/consumer ring written for thread-block clusters, run in a launch without clusters
// (every CTA its own cluster of one), in the style of CUTLASS sm90 and ThunderKittens code that
// addresses the mbarriers of "the CTA of rank r" through mapa: the producer signals the full
// barriers through .shared::cluster addresses (complete_tx, expect_tx, arrive.expect_tx at
// .cluster scope), consumers wait at .cluster scope (a PTX try_wait spin, or a test_wait loop) and
// release each stage through a generic mapa address. Set-up and teardown use the split cluster
// barrier (barrier.cluster.arrive / wait). Roles are whole groups of 64 threads (a waiter and an
// arriver never share a wave on AMD wave64).
#include <stdint.h>

namespace cluster1 {

constexpr int kStages = 4;
constexpr int kRounds = 16;
constexpr int kStageInts = 256;  // 64 producer threads x 16 bytes
constexpr int kProducers = 64;   // threads 0..63
constexpr int kConsumers = 192;  // threads 64..255

__device__ __forceinline__ uint32_t smem_addr32(const void* p) {
#if defined(__HIP_PLATFORM_AMD__)
  return (uint32_t)(uintptr_t)(const __attribute__((address_space(3))) void*)p;
#else
  return (uint32_t)__cvta_generic_to_shared(p);
#endif
}

__device__ __forceinline__ uint32_t cta_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

/// The address of the same shared object in the CTA of rank `rank` (.shared::cluster window).
__device__ __forceinline__ uint32_t map_shared(uint32_t addr, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
  return r;
}

/// The same for a generic pointer.
__device__ __forceinline__ void* map_generic(void* p, uint32_t rank) {
  uint64_t r;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(r) : "l"((uint64_t)p), "r"(rank));
  return (void*)r;
}

__device__ __forceinline__ uint32_t owner_rank(uint32_t cluster_addr) {
  uint32_t r;
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(r) : "r"(cluster_addr));
  return r;
}

__device__ __forceinline__ void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}

__device__ __forceinline__ void cluster_wait() {
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
}

__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ __forceinline__ void init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void complete_tx_remote(uint32_t cluster_bar, uint32_t bytes) {
  asm volatile("mbarrier.complete_tx.shared::cluster.relaxed.cluster.b64 [%0], %1;" ::"r"(cluster_bar),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void expect_tx_remote(uint32_t cluster_bar, uint32_t bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], %1;" ::"r"(cluster_bar),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void arrive_expect_tx_remote(uint32_t cluster_bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;" ::"r"(
                   cluster_bar),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void arrive_remote(uint32_t cluster_bar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(cluster_bar)
               : "memory");
}

__device__ __forceinline__ void arrive_generic(void* bar) {
  asm volatile("mbarrier.arrive.release.cluster.b64 _, [%0];" ::"l"((uint64_t)bar) : "memory");
}

/// The wait as CUTLASS's ClusterBarrier writes it: a PTX spin loop around try_wait.parity.
__device__ __forceinline__ void wait_spin(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n"
      "  .reg .pred P1;\n"
      "LAB_WAIT:\n"
      "  mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P1, [%0], %1;\n"
      "  @P1 bra DONE;\n"
      "  bra LAB_WAIT;\n"
      "DONE:\n"
      "}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}

/// test_wait.parity at cluster scope: whether the phase of that parity has completed.
__device__ __forceinline__ bool test_parity(uint32_t bar, uint32_t parity) {
  uint32_t done;
  asm volatile(
      "{\n"
      "  .reg .pred p;\n"
      "  mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
      "  selp.u32 %0, 1, 0, p;\n"
      "}\n"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done != 0;
}

}  // namespace cluster1

/// Per block: 16 rounds through a 4-stage ring of 256 ints. Threads 0..63 produce (16 bytes each
/// per round from `in`), threads 64..255 consume (a weighted sum of 8 stage elements per round,
/// hashed over the rounds into `out`).
__global__ void __launch_bounds__(256) cluster_of_one_kernel(const int* in, unsigned* out) {
  using namespace cluster1;
  __shared__ __attribute__((aligned(16))) int stage[kStages][kStageInts];
  __shared__ __attribute__((aligned(8))) uint64_t full[kStages];
  __shared__ __attribute__((aligned(8))) uint64_t empty[kStages];
  const int t = threadIdx.x;
  const int* block_in = in + (size_t)blockIdx.x * kRounds * kStageInts;
  const uint32_t rank = cta_rank();

  if (t == 0) {
    for (int s = 0; s < kStages; ++s) {
      init(smem_addr32(&full[s]), kProducers);
      init(smem_addr32(&empty[s]), kConsumers);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  // CUTLASS's set-up: arrive relaxed, build the pipeline state, then wait.
  cluster_arrive_relaxed();
  uint32_t acc = rank;
  cluster_wait();

  if (t < kProducers) {
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kStages;
      const uint32_t parity = (uint32_t)(r / kStages) & 1u;
      wait_spin(smem_addr32(&empty[s]), parity ^ 1u);
      const int* src = block_in + r * kStageInts + 4 * t;
      int* dst = &stage[s][4 * t];
      const uint32_t full_c = map_shared(smem_addr32(&full[s]), rank);
      acc += owner_rank(full_c);
      const int4 v = *(const int4*)src;
      if (s % 2 == 0) {
        *(int4*)dst = v;
        // The bytes first (the count may go negative), then the arrival that expects them.
        complete_tx_remote(full_c, 16u);
        arrive_expect_tx_remote(full_c, 16u);
      } else {
        expect_tx_remote(full_c, 16u);
        *(int4*)dst = v;
        complete_tx_remote(full_c, 16u);
        arrive_remote(full_c);
      }
      acc += (uint32_t)v.x ^ (uint32_t)v.w;
    }
  } else {
    const int c = t - kProducers, warp = c / 32;
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kStages;
      const uint32_t parity = (uint32_t)(r / kStages) & 1u;
      if (warp % 2 == 0) {
        wait_spin(smem_addr32(&full[s]), parity);
      } else {
        while (!test_parity(smem_addr32(&full[s]), parity)) {
        }
      }
      uint32_t sum = 0;
      for (int j = 0; j < 8; ++j) sum += (uint32_t)stage[s][(c + 37 * j) % kStageInts] * (uint32_t)(2 * j + 1);
      acc = acc * 31u + sum;
      arrive_generic(map_generic(&empty[s], rank));
    }
  }
  out[blockIdx.x * 256 + t] = acc;

  asm volatile("fence.proxy.async.shared::cluster;" ::: "memory");
  cluster_sync();
}
