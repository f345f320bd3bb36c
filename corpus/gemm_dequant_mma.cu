// A quantised GEMM main loop in the style of the int4 weight-only kernels (marlin, AWQ, GPTQ):
// activations reach the tensor cores through ldmatrix, 4-bit weights are dequantised to f16 pairs
// in registers between the loads and the mma, and the f32 accumulators are stored as f16 through
// stmatrix in the epilogue. One warp owns one 16x8 output tile.
#include <cstdint>

namespace gemm {

// The 32-bit shared-memory window address of a pointer to shared memory, as CUTLASS computes it.
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  uint32_t a;
  asm("{ .reg .u64 u64addr; cvta.to.shared.u64 u64addr, %1; cvt.u32.u64 %0, u64addr; }\n"
      : "=r"(a)
      : "l"(p));
  return a;
}

__device__ __forceinline__ void warp_sync() { asm volatile("bar.warp.sync -1;\n" ::: "memory"); }

// Four 8x8 b16 matrices from shared memory: lane l gives the address of row l % 8 of matrix l / 8.
__device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

// Two int4 values (bits 0-3 and 16-19) to an f16 pair: OR them into the mantissa of 1024.0, then
// subtract 1032.0, giving q - 8 exactly.
__device__ __forceinline__ uint32_t dequant_pair(uint32_t q) {
  uint32_t h;
  asm("lop3.b32 %0, %1, %2, %3, 0xea;\n" : "=r"(h) : "r"(q), "n"(0x000f000f), "n"(0x64006400));
  asm("sub.f16x2 %0, %0, %1;\n" : "+r"(h) : "r"(0x64086408u));
  return h;
}

__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4],
                                             const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ uint32_t pack_f16x2(float lo, float hi) {
  uint32_t r;
  asm("cvt.rn.f16x2.f32 %0, %2, %1;\n" : "=r"(r) : "f"(lo), "f"(hi));
  return r;
}

// Two 8x8 b16 matrices to shared memory, the inverse of ldmatrix.x2.
__device__ __forceinline__ void stsm_x2(uint32_t addr, uint32_t r0, uint32_t r1) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};\n" ::"r"(addr), "r"(r0),
               "r"(r1));
}

}  // namespace gemm

constexpr int kWarps = 8;
constexpr int kTilesK = 2;

// act: f16 activations, 16x16 per k-tile per warp; qweight: 32 words of packed int4 per k-tile per
// warp; out: the f16 16x8 tile of each warp (64 words), then its f32 accumulators.
__global__ void gemm_dequant(const uint16_t* act, const uint32_t* qweight, uint32_t* out) {
  __shared__ __align__(16) uint16_t a_tile[kWarps][16 * 16];
  __shared__ __align__(16) uint16_t d_tile[kWarps][16 * 8];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int w = blockIdx.x * kWarps + warp;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int kt = 0; kt < kTilesK; ++kt) {
    for (int i = lane; i < 256; i += 32) {
      // Finite activations of every magnitude below 2 (subnormals included).
      a_tile[warp][i] = act[(w * kTilesK + kt) * 256 + i] & 0xbfffu;
    }
    gemm::warp_sync();
    uint32_t a[4];
    gemm::ldsm_x4(a, gemm::smem_u32(&a_tile[warp][(lane % 16) * 16 + (lane / 16) * 8]));
    const uint32_t q = qweight[(w * kTilesK + kt) * 32 + lane];
    const uint32_t b[2] = {gemm::dequant_pair(q), gemm::dequant_pair(q >> 4)};
    gemm::mma_m16n8k16(acc, a, b);
    gemm::warp_sync();
  }
  // The accumulator fragment (rows g and g + 8, columns 2t and 2t + 1) is two 8x8 matrices.
  gemm::stsm_x2(gemm::smem_u32(&d_tile[warp][(lane % 16) * 8]), gemm::pack_f16x2(acc[0], acc[1]),
                gemm::pack_f16x2(acc[2], acc[3]));
  gemm::warp_sync();
  for (int i = lane; i < 64; i += 32) {
    out[w * 192 + i] = d_tile[warp][2 * i] | (uint32_t)d_tile[warp][2 * i + 1] << 16;
  }
  for (int i = 0; i < 4; ++i) out[w * 192 + 64 + lane * 4 + i] = __float_as_uint(acc[i]);
}
