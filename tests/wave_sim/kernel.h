// CUDA kernels on the wave model of sim.h: a launch runs every block, and in each block every
// wave (consecutive threads, as AMD and NVIDIA form them) in lockstep; `return` ends a lane. Shared
// memory is one static array for all blocks, which the waves of a block share. No block-wide
// barrier is modelled (__syncthreads aborts): the corpus kernels run here synchronise only within
// a warp. Include before the translated file.
#pragma once
#include <vector>
#include <math.h>
#include "sim.h"

struct wave_sim_dim3 {
  unsigned x, y, z;
};

namespace wave_sim {
inline wave_sim_dim3 g_block_idx{0, 0, 0}, g_block_dim{1, 1, 1}, g_grid_dim{1, 1, 1};
inline int g_wave_first = 0;

template <class F>
void lane_trampoline(int, void* env) {
  (*(F*)env)();
}

// Runs `call` (the kernel invocation) for every thread of `grid` blocks of `block` threads,
// `wave` threads per wave. Returns an error message or nullptr.
template <class F>
const char* launch(int grid, int block, int wave, F call) {
  for (int b = 0; b < grid; b++) {
    g_block_idx = {(unsigned)b, 0, 0};
    g_block_dim = {(unsigned)block, 1, 1};
    g_grid_dim = {(unsigned)grid, 1, 1};
    for (int first = 0; first < block; first += wave) {
      g_wave_first = first;
      const int lanes = block - first < wave ? block - first : wave;
      const uint64_t mask = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
      if (const char* e = run(wave, mask, lane_trampoline<F>, &call)) return e;
    }
  }
  return nullptr;
}
}  // namespace wave_sim

inline wave_sim_dim3 wave_sim_thread_idx() {
  return {(unsigned)(wave_sim::g_wave_first + wave_sim::lane_id_in_wave()), 0u, 0u};
}
#define threadIdx (wave_sim_thread_idx())
#define blockIdx (wave_sim::g_block_idx)
#define blockDim (wave_sim::g_block_dim)
#define gridDim (wave_sim::g_grid_dim)
#define __global__
#define __shared__ static

inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline void __syncthreads() {
  fprintf(stderr, "wave_sim: __syncthreads is not modelled\n");
  abort();
}
