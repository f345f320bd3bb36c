// A producer/consumer ring of shared-memory stages synchronised by mbarrier objects, in the style
// of a CUTLASS sm90 pipeline (one "full" and one "empty" mbarrier per stage): a producer role
// fills each stage and arrives on its full barrier, consumer roles wait for the stage's phase,
// read it and arrive on its empty barrier, which the producer waits on before refilling. Even
// stages are filled with plain loads and stores and signalled with complete_tx +
// arrive.expect_tx (the transaction bytes a TMA copy would complete); odd stages with cp.async
// copies and cp.async.mbarrier.arrive.noinc. Roles are whole groups of 64 threads (a waiter and an
// arriver never share a wave on AMD wave64).
#include <stdint.h>

namespace mbar_ring {

constexpr int kStages = 4;
constexpr int kRounds = 16;
constexpr int kStageInts = 256;     // 64 producer threads x 16 bytes
constexpr int kProducers = 64;      // threads 0..63
constexpr int kConsumers = 192;     // threads 64..255

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

__device__ __forceinline__ void inval(uint32_t bar) {
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void fence_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

__device__ __forceinline__ uint64_t arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  uint64_t state;
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;"
               : "=l"(state)
               : "r"(bar), "r"(bytes)
               : "memory");
  return state;
}

__device__ __forceinline__ void complete_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void cp_async_16(uint32_t smem, const void* gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem), "l"(gmem) : "memory");
}

__device__ __forceinline__ void cp_async_arrive_noinc(uint32_t bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
}

/// The consumer's wait as CUTLASS writes it: a PTX spin loop around try_wait.parity.
__device__ __forceinline__ void wait_spin(uint32_t bar, uint32_t parity) {
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

/// test_wait.parity: whether the phase of that parity has completed (never blocks).
__device__ __forceinline__ bool test_parity(uint32_t bar, uint32_t parity) {
  uint32_t done;
  asm volatile(
      "{\n"
      "  .reg .pred p;\n"
      "  mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2;\n"
      "  selp.u32 %0, 1, 0, p;\n"
      "}\n"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done != 0;
}

/// try_wait.parity with a suspend-time hint, in a C++ loop (the producer's wait).
__device__ __forceinline__ void wait_hinted(uint32_t bar, uint32_t parity) {
  uint32_t done;
  do {
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2, %3;\n"
        "  selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity), "r"(10000000u)
        : "memory");
  } while (!done);
}

}  // namespace mbar_ring

/// Per block: 16 rounds through a 4-stage ring of 256 ints. Threads 0..63 produce (16 bytes each
/// per round from `in`), threads 64..255 consume (a weighted sum of 8 stage elements per round,
/// hashed over the rounds into `out`).
__global__ void __launch_bounds__(256) mbarrier_ring_kernel(const int* in, unsigned* out) {
  using namespace mbar_ring;
  __shared__ __attribute__((aligned(16))) int stage[kStages][kStageInts];
  __shared__ __attribute__((aligned(8))) uint64_t full[kStages];
  __shared__ __attribute__((aligned(8))) uint64_t empty[kStages];
  const int t = threadIdx.x;
  const int* block_in = in + (size_t)blockIdx.x * kRounds * kStageInts;

  if (t == 0) {
    for (int s = 0; s < kStages; ++s) {
      init(smem_addr32(&full[s]), kProducers);
      init(smem_addr32(&empty[s]), kConsumers);
    }
    fence_init();
  }
  __syncthreads();

  uint32_t acc = 0;
  if (t < kProducers) {
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kStages;
      const uint32_t parity = (uint32_t)(r / kStages) & 1u;
      // The stage is free once the consumers released its previous round (the first round of
      // each stage passes at once: phase 0 has not the parity 1 waited on).
      wait_hinted(smem_addr32(&empty[s]), parity ^ 1u);
      const int* src = block_in + r * kStageInts + 4 * t;
      int* dst = &stage[s][4 * t];
      if (s % 2 == 0) {
        const int4 v = *(const int4*)src;
        *(int4*)dst = v;
        acc += (uint32_t)v.x ^ (uint32_t)v.w;
        // The bytes first (the count may go negative), then the arrival that expects them.
        complete_tx(smem_addr32(&full[s]), 16u);
        (void)arrive_expect_tx(smem_addr32(&full[s]), 16u);
      } else {
        cp_async_16(smem_addr32(dst), src);
        cp_async_arrive_noinc(smem_addr32(&full[s]));
        acc += (uint32_t)src[1];
      }
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
      arrive(smem_addr32(&empty[s]));
    }
  }
  out[blockIdx.x * 256 + t] = acc;

  __syncthreads();
  if (t == 0) {
    for (int s = 0; s < kStages; ++s) {
      inval(smem_addr32(&full[s]));
      inval(smem_addr32(&empty[s]));
    }
  }
}
