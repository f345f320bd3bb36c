// An attention inner loop on tensor-core fragments, in the style of flash-attention kernels: the
// scores S = Q·Kᵀ come from mma.m16n8k16, the row softmax runs on the accumulator fragment with
// quad shuffles, the probabilities are packed to f16 straight into the A fragment of the next
// mma (the C layout of m16n8k16 is the A layout of m16n8k8), and V arrives transposed through
// ldmatrix.trans. One warp handles 16 query rows against 8 keys of head dimension 16.
#include <cstdint>

namespace attn {

// The 32-bit shared-memory window address of a pointer to shared memory, as CUTLASS computes it.
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  uint32_t a;
  asm("{ .reg .u64 u64addr; cvta.to.shared.u64 u64addr, %1; cvt.u32.u64 %0, u64addr; }\n"
      : "=r"(a)
      : "l"(p));
  return a;
}

__device__ __forceinline__ void warp_sync() { asm volatile("bar.warp.sync -1;\n" ::: "memory"); }

__device__ __forceinline__ float quad_max(float x) {
  float y;
  asm("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;\n" : "=f"(y) : "f"(x));
  x = fmaxf(x, y);
  asm("shfl.sync.bfly.b32 %0, %1, 2, 0x1f, 0xffffffff;\n" : "=f"(y) : "f"(x));
  return fmaxf(x, y);
}

__device__ __forceinline__ float quad_sum(float x) {
  float y;
  asm("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;\n" : "=f"(y) : "f"(x));
  x += y;
  asm("shfl.sync.bfly.b32 %0, %1, 2, 0x1f, 0xffffffff;\n" : "=f"(y) : "f"(x));
  return x + y;
}

__device__ __forceinline__ uint32_t pack_f16x2(float lo, float hi) {
  uint32_t r;
  asm("cvt.rn.f16x2.f32 %0, %2, %1;\n" : "=r"(r) : "f"(lo), "f"(hi));
  return r;
}

}  // namespace attn

constexpr int kWarps = 8;

// q: 16x16 f16 per warp (row-major); k: 8x16 f16 per warp (row-major, i.e. Kᵀ column-major);
// v: 8x8 f16 per warp (row-major, keys by head dims); out: O (16x8 f32) then S (16x8 f32).
__global__ void attention_tile(const uint16_t* q, const uint16_t* k, const uint16_t* v,
                               uint32_t* out) {
  __shared__ __align__(16) uint16_t q_s[kWarps][16 * 16];
  __shared__ __align__(16) uint16_t k_s[kWarps][8 * 16];
  __shared__ __align__(16) uint16_t v_s[kWarps][8 * 8];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int w = blockIdx.x * kWarps + warp;
  // Finite inputs below 2 in magnitude; scores stay far from overflow.
  for (int i = lane; i < 256; i += 32) q_s[warp][i] = q[w * 256 + i] & 0xbfffu;
  for (int i = lane; i < 128; i += 32) k_s[warp][i] = k[w * 128 + i] & 0xbfffu;
  for (int i = lane; i < 64; i += 32) v_s[warp][i] = v[w * 64 + i] & 0xbfffu;
  attn::warp_sync();
  uint32_t qa[4], kb[2], vb;
  asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(qa[0]), "=r"(qa[1]), "=r"(qa[2]), "=r"(qa[3])
               : "r"(attn::smem_u32(&q_s[warp][(lane % 16) * 16 + (lane / 16) * 8])));
  // B = Kᵀ (16x8, column n = key n): rows of K are columns of B, as ldmatrix without .trans gives.
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(kb[0]), "=r"(kb[1])
               : "r"(attn::smem_u32(&k_s[warp][(lane % 8) * 16 + ((lane / 8) % 2) * 8])));
  // B = V (8 keys x 8 dims, row-major): the k-major fragment of m16n8k8 needs it transposed.
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
               : "=r"(vb)
               : "r"(attn::smem_u32(&v_s[warp][(lane % 8) * 8])));
  float s[4] = {0.f, 0.f, 0.f, 0.f};
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(s[0]), "+f"(s[1]), "+f"(s[2]), "+f"(s[3])
      : "r"(qa[0]), "r"(qa[1]), "r"(qa[2]), "r"(qa[3]), "r"(kb[0]), "r"(kb[1]));
  // Row softmax: lanes of a quad hold the 8 columns of rows g (s0, s1) and g + 8 (s2, s3).
  const float m0 = attn::quad_max(fmaxf(s[0], s[1])), m1 = attn::quad_max(fmaxf(s[2], s[3]));
  float p[4] = {__expf(s[0] - m0), __expf(s[1] - m0), __expf(s[2] - m1), __expf(s[3] - m1)};
  const float l0 = attn::quad_sum(p[0] + p[1]), l1 = attn::quad_sum(p[2] + p[3]);
  const uint32_t pa[2] = {attn::pack_f16x2(p[0], p[1]), attn::pack_f16x2(p[2], p[3])};
  float o[4] = {0.f, 0.f, 0.f, 0.f};
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
      : "+f"(o[0]), "+f"(o[1]), "+f"(o[2]), "+f"(o[3])
      : "r"(pa[0]), "r"(pa[1]), "r"(vb));
  const float inv[2] = {1.f / l0, 1.f / l1};
  for (int i = 0; i < 4; ++i) {
    out[w * 256 + lane * 4 + i] = __float_as_uint(o[i] * inv[i / 2]);
    out[w * 256 + 128 + lane * 4 + i] = __float_as_uint(s[i]);
  }
}
