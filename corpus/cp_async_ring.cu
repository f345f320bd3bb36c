// A multi-stage cp.async ring feeding a tiled matrix product, in the style of the main loops of
// CUTLASS/FlashAttention sm80 kernels: every stage is filled with 16-byte cp.async copies (the
// ragged K edge with src-size zero fill, the tiles past the edge with the ignore-src predicate),
// committed as a group, and consumed after cp.async.wait_group STAGES-2 and a CTA barrier.
#include <stdint.h>

namespace ring {

constexpr int kTile = 16;     // 16 x 16 output tile per block, one element per thread
constexpr int kStages = 3;    // ring depth
constexpr int kLd = 120;      // row stride of A (ints), a multiple of 4 (16-byte rows)
constexpr int kK = 118;       // logical K: the last chunk of a row is partial (8 of 16 bytes)
constexpr int kKTiles = 8;    // 8 K-tiles of 16 cover 128 >= kK columns

/// The shared-memory window address of a pointer to shared memory, as the program computes it.
__device__ __forceinline__ uint64_t smem_addr(const void* p) {
#if defined(__HIP_PLATFORM_AMD__)
  return (uint64_t)(uint32_t)(uintptr_t)(const __attribute__((address_space(3))) void*)p;
#else
  return (uint64_t)__cvta_generic_to_shared(p);
#endif
}

/// The 32-bit form CUTLASS passes to cp.async (`cast_smem_ptr_to_uint`).
__device__ __forceinline__ uint32_t smem_addr32(const void* p) { return (uint32_t)smem_addr(p); }

__device__ __forceinline__ void cp_async_16(uint32_t smem, const void* gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem), "l"(gmem) : "memory");
}

__device__ __forceinline__ void cp_async_16_zfill(uint32_t smem, const void* gmem, uint32_t src_bytes) {
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;" ::"r"(smem), "l"(gmem), "r"(src_bytes)
               : "memory");
}

__device__ __forceinline__ void cp_async_16_ignore(uint32_t smem, const void* gmem, bool skip) {
  asm volatile(
      "{\n"
      "  .reg .pred p;\n"
      "  setp.ne.b32 p, %2, 0;\n"
      "  cp.async.ca.shared::cta.global [%0], [%1], 16, p;\n"
      "}\n" ::"r"(smem),
      "l"(gmem), "r"((uint32_t)skip)
      : "memory");
}

__device__ __forceinline__ void cp_async_4(uint64_t smem, const void* gmem) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"l"(smem), "l"(gmem) : "memory");
}

__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

template <int N>
__device__ __forceinline__ void wait_group() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

__device__ __forceinline__ void wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }

__device__ __forceinline__ void barrier() { asm volatile("bar.sync 0;" ::: "memory"); }

__device__ __forceinline__ void barrier_named() { asm volatile("barrier.sync.aligned 1;" ::: "memory"); }

}  // namespace ring

/// C[64 x 128] = A[64 x kK] * B[kK x 128] (32-bit arithmetic modulo 2^32), 16 x 16 tiles, one tile per
/// block; A's K tiles stream through a 3-stage cp.async ring, B's tile is copied 4 bytes at a time.
__global__ void cp_async_ring_kernel(const int* __restrict__ A, const int* __restrict__ B, int* C,
                                     int n) {
  using namespace ring;
  __shared__ __attribute__((aligned(16))) int sa[kStages][kTile][kTile];
  __shared__ __attribute__((aligned(16))) int sb[kStages][kTile][kTile];
  const int t = threadIdx.x, r = t / kTile, c = t % kTile;
  const int tile_m = blockIdx.x / 8, tile_n = blockIdx.x % 8;
  const int row0 = tile_m * kTile, col0 = tile_n * kTile;
  (void)n;

  // Thread t < 64 copies chunk t of A's K tile (row t / 4, 16 bytes at column 4 * (t % 4)).
  auto load_stage = [&](int kt, int s) {
    if (t < 64) {
      const int ar = t / 4, ac = 4 * (t % 4), k = kt * kTile + ac;
      const int* src = A + (row0 + ar) * kLd + k;
      const uint32_t dst = smem_addr32(&sa[s][ar][ac]);
      if (k + 4 <= kK) {
        cp_async_16(dst, src);
      } else if (k < kK) {
        cp_async_16_zfill(dst, src, (uint32_t)(4 * (kK - k)));
      } else {
        // Past the matrix: the predicate keeps the (out-of-range) source from being read.
        cp_async_16_ignore(dst, A, true);
      }
    }
    // B's tile: 256 ints, one 4-byte copy per thread through a 64-bit window address (rows past kK
    // are copied and multiplied by A's zero-filled columns).
    const int k = kt * kTile + r;
    cp_async_4(smem_addr(&sb[s][r][c]), B + k * 128 + col0 + c);
  };

  for (int s = 0; s < kStages - 1; ++s) {
    load_stage(s, s);
    commit();
  }
  uint32_t acc = 0;
  for (int kt = 0; kt < kKTiles; ++kt) {
    wait_group<kStages - 2>();
    barrier();
    const int s = kt % kStages;
#pragma unroll
    for (int k = 0; k < kTile; ++k) acc += (uint32_t)sa[s][r][k] * (uint32_t)sb[s][k][c];
    const int next = kt + kStages - 1;
    if (next < kKTiles) load_stage(next, next % kStages);
    commit();
    barrier_named();
  }
  wait_all();
  C[(row0 + r) * 128 + col0 + c] = (int)acc;
}
