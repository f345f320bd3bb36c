// Profiling and scheduling markers as kernels instrument themselves (NCCL/DeepEP-style timers,
// CUTLASS-style programmatic dependent launch, spin-waits with nanosleep): %clock64, %globaltimer,
// %smid, %warpid, the cluster registers of a launch without clusters, WARP_SZ,
// griddepcontrol and nanosleep. Timers and ids differ from run to run, so the kernel writes only
// what they guarantee (monotonic timers, ids in range and uniform across a warp).
#include <stdint.h>

namespace corpus {
namespace prof {

__device__ __forceinline__ uint64_t clock64_now() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
  return t;
}

__device__ __forceinline__ uint32_t clock32_now() {
  uint32_t t;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t));
  return t;
}

__device__ __forceinline__ uint64_t globaltimer_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// The hi-lo-hi read of the split timer registers.
__device__ __forceinline__ uint64_t globaltimer_split() {
  uint32_t hi0, lo, hi1;
  asm volatile(
      "mov.u32 %0, %%globaltimer_hi;\n"
      "mov.u32 %1, %%globaltimer_lo;\n"
      "mov.u32 %2, %%globaltimer_hi;\n"
      : "=r"(hi0), "=r"(lo), "=r"(hi1));
  return hi0 == hi1 ? ((uint64_t)hi1 << 32) | lo : (uint64_t)hi1 << 32;
}

__device__ __forceinline__ uint32_t sm_id() {
  uint32_t id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ uint2 warp_ids() {
  uint2 w;
  asm volatile("mov.u32 %0, %%warpid;\n\tmov.u32 %1, %%nwarpid;" : "=r"(w.x), "=r"(w.y));
  return w;
}

__device__ __forceinline__ uint32_t warp_size() {
  uint32_t n;
  asm("mov.u32 %0, WARP_SZ;" : "=r"(n));
  return n;
}

/// The cluster coordinates of this CTA, packed (a launch without clusters: rank 0 of 1).
__device__ __forceinline__ uint4 cluster_coords() {
  uint4 c;
  asm("{\n"
      "  .reg .pred e;\n"
      "  .reg .u32 t;\n"
      "  mov.u32 %0, %%cluster_ctarank;\n"
      "  mov.u32 %1, %%cluster_nctarank;\n"
      "  mov.u32 t, %%cluster_ctaid.x;\n"
      "  mov.u32 %2, %%clusterid.x;\n"
      "  add.u32 %2, %2, t;\n"
      "  mov.u32 %3, %%nclusterid.x;\n"
      "  mov.u32 t, %%cluster_nctaid.x;\n"
      "  mad.lo.u32 %3, %3, 16, t;\n"
      "  mov.pred e, %%is_explicit_cluster;\n"
      "  @e add.u32 %3, %3, 1000;\n"
      "}\n"
      : "=r"(c.x), "=r"(c.y), "=r"(c.z), "=r"(c.w));
  return c;
}

__device__ __forceinline__ void wait_for_producer_grid() {
  asm volatile("griddepcontrol.wait;" ::: "memory");
}

__device__ __forceinline__ void allow_dependent_grid() {
  asm volatile("griddepcontrol.launch_dependents;");
}

__device__ __forceinline__ void backoff(uint32_t ns) {
  asm volatile("nanosleep.u32 %0;" ::"r"(ns));
}

}  // namespace prof
}  // namespace corpus

/// 16 result words per thread: flags and values the markers guarantee on every GPU.
__global__ void profiling_markers_kernel(const uint32_t* in, uint32_t* out) {
  using namespace corpus::prof;
  __shared__ uint32_t warp_seen[64];
  __shared__ uint2 ids[1024];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t* dst = out + 16 * i;
  if (threadIdx.x < 64) warp_seen[threadIdx.x] = 0;
  wait_for_producer_grid();
  __syncthreads();

  const uint64_t c0 = clock64_now();
  const uint64_t g0 = globaltimer_ns();
  uint32_t acc = in[i];
  for (int k = 0; k < 64; ++k) acc = acc * 1664525u + 1013904223u;
  backoff(100);
  const uint64_t c1 = clock64_now();
  const uint64_t g1 = globaltimer_ns();
  const uint64_t g2 = globaltimer_split();
  const uint32_t k32 = clock32_now();
  dst[0] = acc;
  dst[1] = c1 > c0;
  dst[2] = g1 >= g0;
  dst[3] = g2 >= g0;
  dst[4] = (uint32_t)(k32 - (uint32_t)c0) < 0x80000000u;

  const uint32_t sm = sm_id();
  const uint2 w = warp_ids();
  ids[threadIdx.x] = make_uint2(sm, w.x);
  if ((threadIdx.x & 31) == 0) atomicAdd(&warp_seen[w.x & 63], 1u);
  __syncthreads();
  const uint2 lead = ids[threadIdx.x & ~31u];
  dst[5] = sm < 4096u && sm == lead.x;
  dst[6] = w.x < w.y && w.x == lead.y;
  // Every warp of the block saw its own id: the ids are distinct within the block.
  uint32_t distinct = 0;
  for (int k = 0; k < 64; ++k) distinct += warp_seen[k] == 1;
  dst[7] = distinct == blockDim.x / 32;
  dst[8] = warp_size();
  const uint4 cl = cluster_coords();
  dst[9] = cl.x;
  dst[10] = cl.y;
  dst[11] = cl.z - blockIdx.x;
  dst[12] = cl.w;
  dst[13] = gridDim.x * 16u + 1u;
  allow_dependent_grid();
}
