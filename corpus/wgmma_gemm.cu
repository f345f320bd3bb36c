// A Hopper warpgroup GEMM main loop written the way CUTLASS's SM90 collective mainloops,
// ThunderKittens and DeepGEMM write it: tiles in shared memory with the 128-byte swizzle, 64-bit
// matrix descriptors built from their shared-window addresses, and per k-tile
// wgmma.fence / wgmma.mma_async / wgmma.commit_group / wgmma.wait_group. One warpgroup (128
// threads) per 64-row output tile: an f16 GEMM with A and B from shared memory, a bf16 one with A
// from registers, an fp8 one (e4m3) and a saturating int8 one.
#include <cstdint>

namespace sm90 {

// CUTLASS's cast_smem_ptr_to_uint: the shared window address of a pointer to shared memory.
__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  uint32_t a;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
  return a;
}

// The descriptor of a K-major tile with the 128-byte swizzle (GmmaDescriptor): the start
// address in units of 16 bytes, the stride byte offset 1024 (8 rows of 128 bytes), mode 1.
__device__ __forceinline__ uint64_t desc_sw128(const void* tile) {
  return (uint64_t)((smem_addr(tile) & 0x3ffffu) >> 4) | (uint64_t)1 << 16 |
         (uint64_t)(1024 >> 4) << 32 | (uint64_t)1 << 62;
}

__device__ __forceinline__ void fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }

__device__ __forceinline__ void commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

template <int N>
__device__ __forceinline__ void wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// CUTLASS's SM90_64x32x16_F32F16F16_SS: D (16 f32 per thread) += A·B, both from descriptors.
__device__ __forceinline__ void mma_f16_ss(float (&d)[16], uint64_t da, uint64_t db, int scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %18, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15},"
      " %16, %17, p, %19, %20, %21, %22;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15])
      : "l"(da), "l"(db), "r"(scale_d), "n"(int32_t(1)), "n"(int32_t(1)), "n"(int32_t(0)),
        "n"(int32_t(0)));
}

// ThunderKittens' register-A form: bf16 A in 4 registers per thread, B from a descriptor.
__device__ __forceinline__ void mma_bf16_rs(float (&d)[8], const uint32_t (&a)[4], uint64_t db,
                                            int scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %13, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, 1, 1, %14;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d), "n"(0));
}

// DeepGEMM's fp8 form: e4m3 A and B from descriptors, f32 accumulators.
__device__ __forceinline__ void mma_e4m3(float (&d)[12], uint64_t da, uint64_t db, bool scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %14, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n24k32.f32.e4m3.e4m3 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11}, %12, %13, p, 1, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11])
      : "l"(da), "l"(db), "r"((int32_t)scale_d));
}

// CUTLASS's SM90_64x16x32_S32S8S8_SS_SATURATE.
__device__ __forceinline__ void mma_s8_sat(int32_t (&d)[8], uint64_t da, uint64_t db, int scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %10, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.s8.satfinite "
      "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p;\n"
      "}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]),
        "+r"(d[7])
      : "l"(da), "l"(db), "r"(scale_d));
}

// Copies a rows x 64-byte tile from global memory to shared memory in the K-major 128-byte
// swizzled layout (each 16-byte chunk c of row r at chunk c ^ (r % 8) of its 128-byte row); the
// tile's 64 bytes of K fill half of each row, the next k-tile's descriptor starts 64 bytes on.
__device__ void load_tile(unsigned char* smem, const unsigned char* gmem, int rows, int ld) {
  for (int i = threadIdx.x; i < rows * 4; i += blockDim.x) {
    const int r = i / 4, c = i % 4;
    const uint4 v = *reinterpret_cast<const uint4*>(gmem + r * ld + 16 * c);
    *reinterpret_cast<uint4*>(smem + r * 128 + 16 * (c ^ (r % 8))) = v;
  }
}

}  // namespace sm90

constexpr int kTilesK = 8;

// One warpgroup: out[t] receives thread t's accumulators of the four GEMMs (44 words).
__global__ void __launch_bounds__(128) wgmma_gemm(const unsigned char* a, const unsigned char* b,
                                                  const uint32_t* a_regs, uint32_t* out) {
  alignas(1024) __shared__ unsigned char tile_a[64 * 128];
  alignas(1024) __shared__ unsigned char tile_b[32 * 128];
  const int t = threadIdx.x;
  float f16[16] = {}, bf16[8] = {}, fp8[12] = {};
  int32_t s8[8] = {};
  for (int k = 0; k < kTilesK; ++k) {
    sm90::load_tile(tile_a, a + k * 64, 64, kTilesK * 64);
    sm90::load_tile(tile_b, b + k * 64, 32, kTilesK * 64);
    __syncthreads();
    const uint64_t da = sm90::desc_sw128(tile_a), db = sm90::desc_sw128(tile_b);
    uint32_t regs[4];
    for (int i = 0; i < 4; ++i) regs[i] = a_regs[(k * 128 + t) * 4 + i];
    sm90::fence();
    // Two k16 steps over the tile's 64 bytes of f16 K: the descriptors advance by 32 bytes.
    sm90::mma_f16_ss(f16, da, db, k > 0);
    sm90::mma_f16_ss(f16, da + 2, db + 2, 1);
    sm90::mma_bf16_rs(bf16, regs, db, k > 0);
    sm90::mma_e4m3(fp8, da, db, k > 0);
    sm90::mma_s8_sat(s8, da, db, k > 0);
    sm90::commit();
    sm90::wait<0>();
    __syncthreads();
  }
  uint32_t* o = out + t * 44;
  for (int i = 0; i < 16; ++i) o[i] = __float_as_uint(f16[i]);
  for (int i = 0; i < 8; ++i) o[16 + i] = __float_as_uint(bf16[i]);
  for (int i = 0; i < 12; ++i) o[24 + i] = __float_as_uint(fp8[i]);
  for (int i = 0; i < 8; ++i) o[36 + i] = (uint32_t)s8[i];
}
