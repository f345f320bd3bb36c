// Warp-aggregated stream compaction, as in the select/partition kernels of CUB and the
// "warp-aggregated atomics" idiom: the warp ballots its predicate, each selected lane finds its
// slot as the population count of the selected lanes below it (%lanemask_lt), and one leader
// per warp publishes the count. Each warp compacts into its own 32-slot segment, so the output
// does not depend on the order in which warps run.
#include <stdint.h>

namespace compact {

__device__ __forceinline__ unsigned ballot(bool pred, unsigned mask) {
  unsigned r;
  asm volatile(
      "{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }"
      : "=r"(r)
      : "r"((unsigned)pred), "r"(mask));
  return r;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned r;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
  return r;
}

__device__ __forceinline__ unsigned active_mask() {
  unsigned r;
  asm volatile("activemask.b32 %0;" : "=r"(r));
  return r;
}

/// True if every lane of `mask` holds `pred`.
__device__ __forceinline__ bool all_of(bool pred, unsigned mask) {
  unsigned r;
  asm volatile(
      "{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.all.pred q, p, %2; selp.u32 %0, 1, 0, q; }"
      : "=r"(r)
      : "r"((unsigned)pred), "r"(mask));
  return r != 0;
}

/// True if `pred` is the same in every lane of `mask`.
__device__ __forceinline__ bool uniform(bool pred, unsigned mask) {
  unsigned r;
  asm volatile(
      "{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.uni.pred q, !p, %2; selp.u32 %0, 1, 0, q; }"
      : "=r"(r)
      : "r"((unsigned)pred), "r"(mask));
  return r != 0;
}

}  // namespace compact

/// Keeps the even values. out[w*32 ..] receives warp w's kept values in lane order, counts[w] how
/// many; flags[i] records whether the warp's lanes all kept (bit 0) or agreed (bit 1). Threads at
/// and after n - 5 exit first (a partial last warp), and lanes whose value is a multiple of 3
/// take a branch of their own, where the ballot covers only the lanes that took it.
__global__ void compact_even_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ out,
                                    uint32_t* __restrict__ counts, uint32_t* __restrict__ flags,
                                    uint32_t* __restrict__ branch_ranks, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 5) return;
  const uint32_t v = in[i];
  const bool keep = (v & 1u) == 0;
  const unsigned members = compact::active_mask();
  const unsigned kept = compact::ballot(keep, members);
  const unsigned lane_below = compact::lanemask_lt();
  const int warp = i / 32;
  if (keep) out[warp * 32 + __popc(kept & lane_below)] = v;
  if ((lane_below & members) == 0) counts[warp] = __popc(kept);
  flags[i] = (compact::all_of(keep, members) ? 1u : 0u) | (compact::uniform(keep, members) ? 2u : 0u);
  if (v % 3u == 0) {
    // Divergent: only the lanes holding a multiple of 3 are here.
    const unsigned here = compact::active_mask();
    const unsigned small = compact::ballot(v < 0x80000000u, here);
    branch_ranks[i] = (uint32_t)__popc(small & lane_below) | ((uint32_t)__popc(here) << 8);
  } else {
    branch_ranks[i] = 0xffffffffu;
  }
}
