// Warp-cooperative hash-table insertion in the style of cuCollections / WarpCore: lanes holding
// the same key are grouped with match.any.sync so that one leader per key (elect.sync over the
// group) claims the slot, duplicates learn the group size, and a warp that agrees on one key
// takes a fast path (match.all.sync). Keys are 64-bit; the table is per warp (32 slots), so the
// result does not depend on the order of the warps.
#include <stdint.h>

namespace probe {

__device__ __forceinline__ unsigned group_of(uint64_t key, unsigned mask) {
  unsigned g;
  asm volatile("match.any.sync.b64 %0, %1, %2;" : "=r"(g) : "l"(key), "r"(mask));
  return g;
}

__device__ __forceinline__ unsigned group_of32(uint32_t key, unsigned mask) {
  unsigned g;
  asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(g) : "r"(key), "r"(mask));
  return g;
}

/// Whether every lane of `mask` holds the same key; `agree` is the mask when they do.
__device__ __forceinline__ bool all_same(uint64_t key, unsigned mask, unsigned* agree) {
  unsigned d, p;
  asm volatile("{ .reg .pred q; match.all.sync.b64 %0|q, %2, %3; selp.u32 %1, 1, 0, q; }"
               : "=r"(d), "=r"(p)
               : "l"(key), "r"(mask));
  *agree = d;
  return p != 0;
}

/// The lowest lane of `mask`, elected; `leader` is true in that lane only.
__device__ __forceinline__ unsigned elect(unsigned mask, bool* leader) {
  unsigned lane, is_leader;
  asm volatile("{ .reg .pred p; elect.sync %0|p, %2; selp.u32 %1, 1, 0, p; }"
               : "=r"(lane), "=r"(is_leader)
               : "r"(mask));
  *leader = is_leader != 0;
  return lane;
}

__device__ __forceinline__ bool elected(unsigned mask) {
  unsigned is_leader;
  asm volatile("{ .reg .pred p; elect.sync _|p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(is_leader) : "r"(mask));
  return is_leader != 0;
}

}  // namespace probe

/// Each thread inserts key k = keys[i] (a few distinct values per warp, some differing only in the
/// high word). Per warp w: slots[w*32 + leader lane] = key for each distinct key, group_sizes[i]
/// the number of lanes sharing the thread's key, leaders[i] the lane elected for it, same[w] the
/// agreement mask (0 if the warp holds several keys). The last 7 threads exit first (a partial
/// warp); lanes with a low key take a branch where they group among themselves with 32-bit keys.
__global__ void hash_insert_kernel(const uint32_t* __restrict__ keys, uint64_t* __restrict__ slots,
                                   uint32_t* __restrict__ group_sizes, uint32_t* __restrict__ leaders,
                                   uint32_t* __restrict__ same, uint32_t* __restrict__ low_groups, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 7) return;
  const int warp = i / 32;
  const int valid = n - 7 - warp * 32;
  const unsigned members = valid >= 32 ? 0xffffffffu : (1u << valid) - 1u;
  const uint32_t raw = keys[i];
  const uint64_t key = ((uint64_t)(raw & 1u) << 32) | (raw % 5u);
  const unsigned group = probe::group_of(key, members);
  bool leader;
  const unsigned leader_lane = probe::elect(group, &leader);
  if (leader) slots[warp * 32 + leader_lane] = key;
  group_sizes[i] = (uint32_t)__popc(group);
  leaders[i] = leader_lane;
  unsigned agree;
  const bool uniform = probe::all_same(key, members, &agree);
  if (probe::elected(members)) same[warp] = uniform ? agree : 0u;
  if ((raw % 5u) < 2u) {
    unsigned here;
    asm volatile("activemask.b32 %0;" : "=r"(here));
    const unsigned low = probe::group_of32(raw % 5u, here);
    low_groups[i] = low;
  } else {
    low_groups[i] = 0;
  }
}
