// A warp-specialised producer/consumer kernel synchronised by counted (named) barriers, in the
// style of flashinfer's KDA kernels: literal barrier ids and thread counts, roles by warp.
// Two producer warps fill a ring of two shared-memory stages and announce each with `bar.arrive`
// on the stage's "full" barrier; two consumer warpgroups wait for it with `barrier.sync`, read the
// stage, and hand it back with `bar.arrive` on its "empty" barrier, which the producers wait on
// before refilling. Inside a round each warpgroup exchanges partial results over its own barrier
// (`barrier.sync 5, 128` / `barrier.sync 6, 128`), the two warpgroups every eighth round over a
// barrier of 256 threads (in a static helper), and each producer warp over a barrier of one warp
// (`barrier.sync 8, 32`, used by both producer warps at once: each completes its own phase).
// Roles are whole groups of 64 threads, so no AMD wave64 holds two roles.
#include <stdint.h>

namespace named_barriers {

constexpr int kThreads = 320;     // warps 0-1 produce, 2-5 and 6-9 consume
constexpr int kProducers = 64;
constexpr int kStages = 2;
constexpr int kRounds = 64;
constexpr int kStageInts = 256;   // 64 producer threads x 4 ints

// Both consumer warpgroups (256 threads) meet here.
static __device__ __forceinline__ void consumers_sync() {
  asm volatile("barrier.sync 7, 256;" ::: "memory");
}

}  // namespace named_barriers

__global__ void __launch_bounds__(320) named_barriers_kernel(const int* in, unsigned* out) {
  using namespace named_barriers;
  __shared__ int stage[kStages][kStageInts];
  __shared__ unsigned partial[2][128];
  __shared__ unsigned cross[256];
  __shared__ unsigned lanes[2][2][32];
  const int t = threadIdx.x;
  const int* block_in = in + (size_t)blockIdx.x * kRounds * kStageInts;
  unsigned acc = 0;

  if (t < kProducers) {
    const int warp = t / 32, lane = t % 32;
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kStages;
      // Wait until the consumers handed the stage back (its first use needs no wait).
      if (r >= kStages) {
        if (s == 0) {
          asm volatile("bar.sync 3, 320;" ::: "memory");
        } else {
          asm volatile("bar.sync 4, 320;" ::: "memory");
        }
      }
      // A warp-local exchange over a barrier of one warp.
      lanes[r & 1][warp][lane] = (unsigned)block_in[r * kStageInts + 4 * t] * 2654435761u;
      asm volatile("barrier.sync 8, 32;" ::: "memory");
      const unsigned neighbour = lanes[r & 1][warp][(lane + 1) % 32];
      acc = acc * 33u + neighbour;
      for (int j = 0; j < 4; ++j) {
        stage[s][4 * t + j] = block_in[r * kStageInts + 4 * t + j] * 3 + r + (int)(neighbour >> 28);
      }
      if (s == 0) {
        asm volatile("bar.arrive 1, 320;" ::: "memory");
      } else {
        asm volatile("bar.arrive 2, 320;" ::: "memory");
      }
    }
  } else {
    const int group = (t - kProducers) / 128, ct = (t - kProducers) % 128;
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kStages;
      if (s == 0) {
        asm volatile("barrier.sync 1, 320;" ::: "memory");
      } else {
        asm volatile("barrier.sync 2, 320;" ::: "memory");
      }
      const unsigned a = (unsigned)stage[s][(2 * ct + group) % kStageInts];
      const unsigned b = (unsigned)stage[s][(2 * ct + group + 129) % kStageInts];
      // The stage is read: hand it back unless no producer round will refill it.
      if (r < kRounds - kStages) {
        if (s == 0) {
          asm volatile("bar.arrive 3, 320;" ::: "memory");
        } else {
          asm volatile("bar.arrive 4, 320;" ::: "memory");
        }
      }
      acc = (acc * 31u + a) ^ (b << 7 | b >> 25);
      // Within the warpgroup: publish, meet, read a neighbour's, meet before the next write.
      partial[group][ct] = acc;
      if (group == 0) {
        asm volatile("barrier.sync 5, 128;" ::: "memory");
      } else {
        asm volatile("barrier.sync 6, 128;" ::: "memory");
      }
      acc += partial[group][(ct + 1) % 128];
      if (group == 0) {
        asm volatile("barrier.sync 5, 128;" ::: "memory");
      } else {
        asm volatile("barrier.sync 6, 128;" ::: "memory");
      }
      // Across the two warpgroups every eighth round.
      if (r % 8 == 7) {
        cross[t - kProducers] = acc;
        consumers_sync();
        acc ^= cross[(t - kProducers + 128) % 256];
        consumers_sync();
      }
    }
  }
  out[(size_t)blockIdx.x * kThreads + t] = acc;
}
