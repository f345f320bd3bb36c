// Row softmax statistics for attention, one warp per row, in the style of the warp-level softmax
// of FasterTransformer / flash-attention: every lane keeps a running max and sum over its strided
// slice of the row, then the warp combines them with xor butterflies (shfl.sync.bfly). Scores are
// in log2 units quantised to integers, so exp2 is an exact ldexpf and results are reproducible.
#include <stdint.h>
#include <math.h>

namespace softmax {

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1) {
    float other;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(other) : "f"(v), "r"(mask));
    v = fmaxf(v, other);
  }
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
  float t;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0xffffffff;" : "=f"(t) : "f"(v));
  v += t;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 8, 0x1f, 0xffffffff;" : "=f"(t) : "f"(v));
  v += t;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 4, 0x1f, 0xffffffff;" : "=f"(t) : "f"(v));
  v += t;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 2, 0x1f, 0xffffffff;" : "=f"(t) : "f"(v));
  v += t;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=f"(t) : "f"(v));
  return v + t;
}

/// Sum over 8-lane groups (four rows of 8 columns per warp) with the segment mask in c.
__device__ __forceinline__ float group8_sum(float v) {
  float t;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 4, 0x181f, 0xffffffff;" : "=f"(t) : "f"(v));
  v += t;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 2, 0x181f, 0xffffffff;" : "=f"(t) : "f"(v));
  v += t;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x181f, 0xffffffff;" : "=f"(t) : "f"(v));
  return v + t;
}

}  // namespace softmax

/// Row r (one warp) covers scores[r*96 .. r*96+len) with len = 96 - (r % 7) * 9 (rows of different
/// lengths: some lanes have one element fewer). Writes the row max, the row sum of 2^(s - max),
/// every probability 2^(s - max) / sum, and an 8-column group sum of the first 32 probabilities.
__global__ void softmax_rows_kernel(const int32_t* __restrict__ scores, float* __restrict__ row_max,
                                    float* __restrict__ row_sum, float* __restrict__ probs,
                                    float* __restrict__ group_sums, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = tid / 32;
  if (row * 96 >= n) return;
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  const int len = 96 - (row % 7) * 9;
  const int32_t* s = scores + row * 96;
  float m = -INFINITY;
  for (int c = (int)lane; c < len; c += 32) m = fmaxf(m, (float)(s[c] % 64));
  m = softmax::warp_max(m);
  float sum = 0.0f;
  for (int c = (int)lane; c < len; c += 32) sum += ldexpf(1.0f, (int)((float)(s[c] % 64) - m));
  sum = softmax::warp_sum(sum);
  for (int c = (int)lane; c < len; c += 32)
    probs[row * 96 + c] = ldexpf(1.0f, (int)((float)(s[c] % 64) - m)) / sum;
  const float first = lane < (unsigned)len ? probs[row * 96 + lane] : 0.0f;
  group_sums[row * 32 + lane] = softmax::group8_sum(first);
  if (lane == 0) {
    row_max[row] = m;
    row_sum[row] = sum;
  }
}
