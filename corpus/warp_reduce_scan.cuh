// Warp-wide reductions, scans and exchanges in the style of CUB's WarpReduceShfl, WarpScanShfl
// and WarpExchange: logical warps of 2..32 threads addressed through the segment mask of
// shfl.sync's c operand, partial warps through its clamp, and a warp-synchronous shared-memory
// transpose fenced by bar.warp.sync.
#pragma once
#include <stdint.h>

namespace warp_prims {

/// Lane of the calling thread in its (hardware) warp.
__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

/// Reduction and scan over logical warps of LOGICAL_WARP_THREADS lanes.
template <int LOGICAL_WARP_THREADS>
struct WarpShfl {
  /// shfl.sync's c operand: the segment mask in bits 12:8; the clamp goes in bits 4:0.
  static constexpr unsigned SHFL_C = (32u - LOGICAL_WARP_THREADS) << 8;

  /// One step of a reduction: add the value `offset` lanes up, if that lane is in range.
  __device__ __forceinline__ static uint32_t ReduceStep(uint32_t input, int offset, unsigned last_lane,
                                                        unsigned member_mask) {
    uint32_t output;
    asm volatile(
        "{"
        "  .reg .u32 r0;"
        "  .reg .pred p;"
        "  shfl.sync.down.b32 r0|p, %1, %2, %3, %5;"
        "  @p add.u32 r0, r0, %4;"
        "  mov.u32 %0, r0;"
        "}"
        : "=r"(output)
        : "r"(input), "r"(offset), "r"(SHFL_C | last_lane), "r"(input), "r"(member_mask));
    return output;
  }

  /// Sum over the first `valid` lanes of each logical warp; lane 0 of the segment holds it.
  __device__ __forceinline__ static uint32_t Sum(uint32_t input, unsigned valid, unsigned member_mask) {
    const unsigned last_lane = valid - 1;
#pragma unroll
    for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2)
      input = ReduceStep(input, offset, last_lane, member_mask);
    return input;
  }

  /// One step of an inclusive scan: add the value `offset` lanes down, if in the segment.
  __device__ __forceinline__ static uint32_t ScanStep(uint32_t input, int offset, unsigned member_mask) {
    uint32_t output;
    asm volatile(
        "{"
        "  .reg .u32 r0;"
        "  .reg .pred p;"
        "  shfl.sync.up.b32 r0|p, %1, %2, %3, %4;"
        "  @p add.u32 r0, r0, %1;"
        "  mov.u32 %0, r0;"
        "}"
        : "=r"(output)
        : "r"(input), "r"(offset), "r"(SHFL_C), "r"(member_mask));
    return output;
  }

  __device__ __forceinline__ static uint32_t InclusiveSum(uint32_t input, unsigned member_mask) {
#pragma unroll
    for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2)
      input = ScanStep(input, offset, member_mask);
    return input;
  }

  /// The value of lane `src` of the logical warp.
  __device__ __forceinline__ static uint32_t Broadcast(uint32_t input, int src, unsigned member_mask) {
    uint32_t output;
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, %4;"
                 : "=r"(output)
                 : "r"(input), "r"(src), "r"(SHFL_C | (LOGICAL_WARP_THREADS - 1)), "r"(member_mask));
    return output;
  }
};

/// Maximum of the whole warp in every lane, with the hardware reduction (sm_80+).
__device__ __forceinline__ int32_t warp_max(int32_t v) {
  int32_t r;
  asm("redux.sync.max.s32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  return r;
}

/// Bitwise or of the lanes of `mask`.
__device__ __forceinline__ uint32_t warp_or(uint32_t v, unsigned mask) {
  uint32_t r;
  asm("redux.sync.or.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask));
  return r;
}

/// Lane l receives the value of lane 31 - l through shared memory, fenced by bar.warp.sync.
__device__ __forceinline__ uint32_t reverse_through_smem(uint32_t v, volatile uint32_t* tile) {
  const unsigned lane = lane_id();
  tile[lane] = v;
  asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
  const uint32_t r = tile[31 - lane];
  asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
  return r;
}

}  // namespace warp_prims

/// Per element: the 16-lane segment sum (in lane 0 of each segment), the 8-lane inclusive scan,
/// the 4-lane broadcast of lane 2, the warp max, the or of the odd lanes and the reversed warp.
/// The last 11 threads of the range exit first, so the last warp is partial: its reductions only
/// add the valid lanes (the clamp), and its reversal skips the lanes that exited.
__global__ void warp_reduce_scan_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ sums16,
                                        uint32_t* __restrict__ scan8, uint32_t* __restrict__ bcast4,
                                        int32_t* __restrict__ maxes, uint32_t* __restrict__ ors,
                                        uint32_t* __restrict__ reversed, int n) {
  __shared__ uint32_t tiles[8][32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int limit = n - 11;
  if (i >= limit) return;
  const uint32_t v = in[i];
  const int warp_first = i & ~31;
  const unsigned valid_in_warp = (unsigned)(limit - warp_first < 32 ? limit - warp_first : 32);
  const unsigned lane = warp_prims::lane_id();
  const unsigned seg_first = lane & ~15u;
  const unsigned valid16 = valid_in_warp > seg_first ? (valid_in_warp - seg_first < 16 ? valid_in_warp - seg_first : 16) : 0;
  const unsigned members = valid_in_warp == 32 ? 0xffffffffu : (1u << valid_in_warp) - 1u;
  sums16[i] = warp_prims::WarpShfl<16>::Sum(v, valid16, members);
  scan8[i] = warp_prims::WarpShfl<8>::InclusiveSum(v, members);
  const uint32_t b = warp_prims::WarpShfl<4>::Broadcast(v, 2, members);
  bcast4[i] = (lane & ~3u) + 2 < valid_in_warp ? b : 0u;
  maxes[i] = warp_prims::warp_max((int32_t)v);
  if (lane & 1u) ors[i] = warp_prims::warp_or(v, members & 0xaaaaaaaau);
  else ors[i] = warp_prims::warp_or(v, members & 0x55555555u);
  const uint32_t r = warp_prims::reverse_through_smem(v, tiles[threadIdx.x / 32]);
  reversed[i] = 31 - lane < valid_in_warp ? r : 0u;
}
