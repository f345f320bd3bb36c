// Clusters of one, native against the translation (`ptx2hip translate --emit replace --target
// portable`): every answer that a launch without clusters defines, written to one file per build
// and compared byte for byte by run.sh.
//  1. The split cluster barrier as a CTA barrier: 2,000 rounds of "store my slot, arrive
//     (release, or relaxed after a cluster fence), wait (acquire), read a neighbour's slot" in 264
//     CTAs of 256 threads; any missed ordering or early release changes a checksum.
//  2. mapa of rank 0 and getctarank, used as the programs use them: accesses through the mapped
//     address (ld.shared / generic ld), ranks added to the answers.
//  3. The mbarrier family through .shared::cluster and .cluster forms: each phase's arrivals from
//     every thread on the mapped address, tx bytes expected and completed through it, the waits at
//     cluster scope; the phase parities observed are written out.
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int kThreads = 256;
constexpr int kRounds = 2000;

__global__ void __launch_bounds__(kThreads) split_barrier(const uint32_t* in, uint32_t* out) {
  __shared__ uint32_t slot[2][kThreads];
  const int t = threadIdx.x;
  uint32_t acc = in[blockIdx.x * kThreads + t];
  for (int r = 0; r < kRounds; ++r) {
    slot[r & 1][t] = acc * 2654435761u + (uint32_t)r;
    if (r % 3 == 0) {
      asm volatile("fence.acq_rel.cluster;" ::: "memory");
      asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    } else if (r % 3 == 1) {
      asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
    } else {
      asm volatile("barrier.cluster.arrive.release;" ::: "memory");
    }
    acc ^= (uint32_t)r * 0x9e3779b9u;  // work between arrive and wait
    if (r % 2 == 0) {
      asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    } else {
      asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
    }
    acc += slot[r & 1][(t * 7 + r) % kThreads];
  }
  out[blockIdx.x * kThreads + t] = acc;
}

__global__ void __launch_bounds__(kThreads) mapped(const uint32_t* in, uint32_t* out) {
  __shared__ uint32_t word[kThreads];
  const int t = threadIdx.x;
  word[t] = in[blockIdx.x * kThreads + t];
  __syncthreads();
  const uint32_t a = (uint32_t)__cvta_generic_to_shared(&word[(t + 1) % kThreads]);
  uint32_t m, rank, v, vg;
  uint64_t mg;
  uint32_t rank_g;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(m) : "r"(a), "r"(0u));
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(rank) : "r"(m));
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
  asm volatile("mapa.u64 %0, %1, 0;" : "=l"(mg) : "l"((uint64_t)&word[(t + 2) % kThreads]));
  asm volatile("getctarank.u64 %0, %1;" : "=r"(rank_g) : "l"(mg));
  asm volatile("ld.u32 %0, [%1];" : "=r"(vg) : "l"(mg) : "memory");
  out[blockIdx.x * kThreads + t] = v * 3u + vg + rank + (uint32_t)rank_g;
}

__global__ void __launch_bounds__(kThreads) mbarrier_cluster(uint32_t* out) {
  __shared__ __attribute__((aligned(8))) uint64_t bar;
  const int t = threadIdx.x;
  const uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"((uint32_t)kThreads) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  uint32_t bc;
  asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(bc) : "r"(b));
  uint32_t seen = 0;
  for (int phase = 0; phase < 64; ++phase) {
    const uint32_t parity = (uint32_t)phase & 1u;
    uint32_t before;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(before) : "r"(b), "r"(parity) : "memory");
    switch (phase % 4) {
      case 0:
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(bc) : "memory");
        break;
      case 1:
        if (t == 0) asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], 64;" ::"r"(bc) : "memory");
        __syncthreads();
        if (t < 64) asm volatile("mbarrier.complete_tx.shared::cluster.relaxed.cluster.b64 [%0], 1;" ::"r"(bc) : "memory");
        asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];" ::"r"(bc) : "memory");
        break;
      case 2:
        if (t % 2 == 0) asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], 2;" ::"r"(bc) : "memory");
        break;
      default:
        asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], 4;" ::"r"(bc) : "memory");
        asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%0], 4;" ::"r"(bc) : "memory");
        break;
    }
    asm volatile(
        "{ .reg .pred P1; LAB_WAIT: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P1, [%0], %1; @P1 bra DONE; bra LAB_WAIT; DONE: }"
        ::"r"(b), "r"(parity) : "memory");
    uint32_t after;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 p, [%1], %2, %3; selp.u32 %0, 1, 0, p; }"
                 : "=r"(after) : "r"(b), "r"(parity), "r"(1000u) : "memory");
    seen = seen * 3u + before * 2u + after;
    __syncthreads();  // no thread arrives on the next phase before every thread saw this one
  }
  out[blockIdx.x * kThreads + t] = seen;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const int blocks = 264, n = blocks * kThreads;
  std::vector<uint32_t> h(n), r(3 * n);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (auto& v : h) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; v = (uint32_t)(x >> 32); }
  uint32_t *in, *out;
  cudaMalloc(&in, n * 4);
  cudaMalloc(&out, 3 * n * 4);
  cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice);
  split_barrier<<<blocks, kThreads>>>(in, out);
  mapped<<<blocks, kThreads>>>(in, out + n);
  mbarrier_cluster<<<blocks, kThreads>>>(out + 2 * n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error: %s\n", cudaGetErrorString(e)); return 1; }
  cudaMemcpy(r.data(), out, 3 * n * 4, cudaMemcpyDeviceToHost);
  FILE* f = fopen(argv[1], "wb");
  fwrite(r.data(), 4, r.size(), f);
  fclose(f);
  uint64_t sum = 0;
  for (auto v : r) sum = sum * 1000003u + v;
  printf("checksum %016llx\n", (unsigned long long)sum);
  return 0;
}
