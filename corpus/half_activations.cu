// Half-precision activation and masking helpers of the kind found in attention and MLP kernels:
// a packed tanh for GELU, base-2 exponentials for a softmax in f16 and bf16, a NaN-aware ReLU mask
// built with `set`, and a dropout keep-mask compared in f16x2.
#include <cstdint>

// GELU's tanh, two lanes at once (the caller forms u = sqrt(2/pi) (x + 0.044715 x^3)).
__device__ __forceinline__ uint32_t tanh_h2(uint32_t u) {
  uint32_t t;
  asm("tanh.approx.f16x2 %0, %1;" : "=r"(t) : "r"(u));
  return t;
}

__device__ __forceinline__ unsigned short tanh_h(unsigned short u) {
  unsigned short t;
  asm("tanh.approx.f16 %0, %1;" : "=h"(t) : "h"(u));
  return t;
}

__device__ __forceinline__ unsigned short tanh_bf(unsigned short u) {
  unsigned short t;
  asm("tanh.approx.bf16 %0, %1;" : "=h"(t) : "h"(u));
  return t;
}

// Softmax numerators: 2^(x - max) with the scale folded into log2(e) by the caller.
__device__ __forceinline__ uint32_t exp2_h2(uint32_t x) {
  uint32_t y;
  asm("ex2.approx.f16x2 %0, %1;" : "=r"(y) : "r"(x));
  return y;
}

__device__ __forceinline__ unsigned short exp2_h(unsigned short x) {
  unsigned short y;
  asm("ex2.approx.f16 %0, %1;" : "=h"(y) : "h"(x));
  return y;
}

__device__ __forceinline__ uint32_t exp2_bf2(uint32_t x) {
  uint32_t y;
  asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(y) : "r"(x));
  return y;
}

// ReLU auxiliary mask: all ones where the activation kept its input (NaN inputs count as kept).
__device__ __forceinline__ uint32_t relu_keep_mask(unsigned short out, unsigned short in) {
  uint32_t m;
  asm("set.equ.u32.f16 %0, %1, %2;" : "=r"(m) : "h"(out), "h"(in));
  return m;
}

// Dropout: keep a lane when its random byte pair is at most the threshold, as a 0xffff lane mask.
__device__ __forceinline__ uint32_t dropout_keep_h2(uint32_t rnd, uint32_t threshold) {
  uint32_t m;
  asm("set.le.u32.f16x2 %0, %1, %2;" : "=r"(m) : "r"(rnd), "r"(threshold));
  return m;
}

// Clamp helper: 1.0 per lane where x > limit, else 0.0, in bf16x2 (multiplied into the output).
__device__ __forceinline__ uint32_t above_bf2(uint32_t x, uint32_t limit) {
  uint32_t m;
  asm("set.gt.bf16x2.bf16x2 %0, %1, %2;" : "=r"(m) : "r"(x), "r"(limit));
  return m;
}

__global__ void gelu_softmax_tail(const uint32_t* x, uint32_t* y, uint32_t* mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t t = tanh_h2(x[i]);
  uint32_t e = exp2_h2(x[i]);
  unsigned short s = tanh_h((unsigned short)x[i]) ^ exp2_h((unsigned short)(x[i] >> 16));
  unsigned short b = tanh_bf((unsigned short)e);
  y[i] = t ^ e ^ exp2_bf2(x[i]) ^ above_bf2(x[i], 0x3f803f80u) ^ s ^ ((uint32_t)b << 16);
  mask[i] = relu_keep_mask((unsigned short)t, (unsigned short)x[i]) & dropout_keep_h2(x[i], t);
}
