// Many phases of counted barriers at once: pairs of warps in different waves (ids 1-4, 64
// threads), every warp alone on one id (9, 32 threads: each warp's arrival completes a phase, all
// warps at the same time), the whole CTA by count (10, 256), and a producer/consumer hand-off
// (11: warps 0-3 bar.arrive, warps 4-7 bar.sync). Each exchange checks what it reads.
#include <stdint.h>

__global__ void __launch_bounds__(256) stress_kernel(unsigned* out, int iters) {
  __shared__ unsigned slot[2][8];
  __shared__ unsigned all[2][256];
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  unsigned errors = 0, sum = 0;
  for (int i = 0; i < iters; ++i) {
    const int b = i & 1;
    if (lane == 0) slot[b][warp] = (unsigned)i * 8u + warp;
    switch (warp % 4) {
      case 0: asm volatile("barrier.sync 1, 64;" ::: "memory"); break;
      case 1: asm volatile("barrier.sync 2, 64;" ::: "memory"); break;
      case 2: asm volatile("barrier.sync 3, 64;" ::: "memory"); break;
      default: asm volatile("barrier.sync 4, 64;" ::: "memory"); break;
    }
    const unsigned partner = slot[b][(warp + 4) % 8];
    errors += partner != (unsigned)i * 8u + (warp + 4) % 8;
    asm volatile("barrier.sync 9, 32;" ::: "memory");
    all[b][t] = (unsigned)(i ^ t);
    asm volatile("barrier.sync 10, 256;" ::: "memory");
    const unsigned other = all[b][(t + 97) % 256];
    errors += other != (unsigned)(i ^ ((t + 97) % 256));
    sum = sum * 17u + partner + other;
    if (warp < 4) {
      asm volatile("bar.arrive 11, 256;" ::: "memory");
    } else {
      asm volatile("bar.sync 11, 256;" ::: "memory");
    }
  }
  out[blockIdx.x * 256 + t] = sum;
  out[gridDim.x * 256 + blockIdx.x * 256 + t] = errors;
}
