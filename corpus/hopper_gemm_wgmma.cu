// A Hopper GEMM main loop in the style of the sm_90 warpgroup kernels (CUTLASS's collective
// mainloops, DeepGEMM, FlashAttention-3): a warpgroup (128 threads) stages its tiles of A and B in
// shared memory in the layouts the tensor cores read, describes each with a 64-bit matrix
// descriptor, and issues wgmma.mma_async per k-step, advancing the descriptors along K; the first
// k-step starts from scale-d = 0 (D = A·B), later ones accumulate. fence / commit / wait bracket
// every k-block. Four mainloops, one per layout family a real kernel builds:
//   f16 · f16 -> f32, m64n64k16, A and B K-major, 128-byte swizzle (the common GEMM);
//   bf16 · bf16 -> f32, m64n32k16, A from registers, B N-major (transposed), 64-byte swizzle;
//   s8 · s8 -> s32 .satfinite, m64n16k32, A and B K-major, no swizzle (interleaved core matrices);
//   e4m3 · e4m3 -> f32, m64n8k32, A and B K-major, 32-byte swizzle.
// Tiles are written by plain stores, so fence.proxy.async makes them visible to the tensor cores.
#include <cstdint>

namespace sm90 {

// The 32-bit shared-memory window address of a pointer to shared memory, as CUTLASS computes it.
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  uint32_t a;
  asm("{ .reg .u64 u64addr; cvta.to.shared.u64 u64addr, %1; cvt.u32.u64 %0, u64addr; }\n"
      : "=r"(a)
      : "l"(p));
  return a;
}

// Swizzle modes of the descriptor's bits 62-63.
enum class Swizzle : uint64_t { none = 0, b128 = 1, b64 = 2, b32 = 3 };

// A wgmma matrix descriptor: start address, leading and stride byte offsets (all >> 4), swizzle.
__device__ __forceinline__ uint64_t make_desc(uint32_t addr, uint32_t lbo, uint32_t sbo,
                                              Swizzle mode) {
  return (uint64_t)((addr & 0x3ffff) >> 4) | (uint64_t)((lbo & 0x3ffff) >> 4) << 16 |
         (uint64_t)((sbo & 0x3ffff) >> 4) << 32 | (uint64_t)mode << 62;
}

__device__ __forceinline__ void fence_view_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
__device__ __forceinline__ void warpgroup_arrive() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void warpgroup_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void warpgroup_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// D(64x64, f32) (+)= A(64x16, f16, descriptor) · B(16x64, f16, descriptor).
template <int ScaleA, int ScaleB, int TransA, int TransB>
__device__ __forceinline__ void wgmma_m64n64k16_f16(float (&d)[32], uint64_t desc_a,
                                                    uint64_t desc_b, int scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "%32, %33, p, %35, %36, %37, %38;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
        "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),
        "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(ScaleA), "n"(ScaleB), "n"(TransA),
        "n"(TransB));
}

// D(64x32, f32) (+)= A(64x16, bf16, registers) · B(16x32, bf16, descriptor).
template <int ScaleA, int ScaleB, int TransB>
__device__ __forceinline__ void wgmma_m64n32k16_bf16_rs(float (&d)[16], const uint32_t (&a)[4],
                                                        uint64_t desc_b, int scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %21, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, "
      "{%16, %17, %18, %19}, %20, p, %22, %23, %24;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d), "n"(ScaleA),
        "n"(ScaleB), "n"(TransB));
}

// D(64x16, s32) = sat(D + A(64x32, s8) · B(32x16, s8)), both from descriptors.
__device__ __forceinline__ void wgmma_m64n16k32_s8(int32_t (&d)[8], uint64_t desc_a,
                                                   uint64_t desc_b, int scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %10, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.s8.satfinite "
      "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p;\n"
      "}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]),
        "+r"(d[7])
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

// D(64x8, f32) (+)= A(64x32, e4m3) · B(32x8, e4m3), both from descriptors.
__device__ __forceinline__ void wgmma_m64n8k32_e4m3(float (&d)[4], uint64_t desc_a,
                                                    uint64_t desc_b, int scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %6, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 "
      "{%0, %1, %2, %3}, %4, %5, p, 1, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

// Byte offset of 16-byte chunk `chunk` of row `row` in a K-major tile of 128-byte rows with the
// 128-byte swizzle (the chunk index XORed with the row within each 8-row, 1024-byte atom).
__device__ __forceinline__ uint32_t swizzle128(uint32_t row, uint32_t chunk) {
  return row * 128 + ((chunk ^ (row % 8)) * 16);
}

}  // namespace sm90

constexpr int kWarpgroups = 2;   // per block of 256 threads
constexpr int kKBlocks = 2;      // k-blocks per mainloop
constexpr int kTiles = 8;        // warpgroups that compute (the others exit)

// f16 values below 2 in magnitude (subnormals included), from raw bits.
__device__ __forceinline__ uint16_t small_f16(uint16_t x) { return x & 0xbfffu; }

// a, b: raw f16/bf16/8-bit inputs; out: per tile and thread 32 + 16 + 8 + 4 result words.
__global__ void hopper_gemm_wgmma(const uint16_t* a, const uint16_t* b, uint32_t* out) {
  __shared__ __align__(1024) uint8_t tile_a[kWarpgroups][64 * 128];
  __shared__ __align__(1024) uint8_t tile_b[kWarpgroups][64 * 128];
  const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  const int tile = blockIdx.x * kWarpgroups + wg;
  if (blockIdx.x * kWarpgroups >= kTiles) return;  // whole blocks: __syncthreads below
  uint8_t* sa = tile_a[wg];
  uint8_t* sb = tile_b[wg];
  uint32_t* o = out + (size_t)(tile * 128 + tid) * 60;

  // 1. f16, 64x64x(2 x 64), 128-byte swizzle, K-major A (64 rows of 64 k) and B (64 n of 64 k).
  // Accumulators hold garbage (NaNs included) until the first k-step: scale-d = 0 ignores them.
  float acc[32];
  for (int i = 0; i < 32; ++i) acc[i] = __uint_as_float((uint32_t)a[tid * 32 + i] << 16 | b[i]);
  for (int kb = 0; kb < kKBlocks; ++kb) {
    __syncthreads();
    for (int i = tid; i < 64 * 8; i += 128) {
      const int row = i / 8, chunk = i % 8;
      for (int e = 0; e < 8; ++e) {
        const size_t src = ((size_t)(tile * kKBlocks + kb) * 64 + row) * 64 + chunk * 8 + e;
        uint16_t va = small_f16(a[src]), vb = small_f16(b[src]);
        __builtin_memcpy(sa + sm90::swizzle128(row, chunk) + 2 * e, &va, 2);
        __builtin_memcpy(sb + sm90::swizzle128(row, chunk) + 2 * e, &vb, 2);
      }
    }
    sm90::fence_view_async_shared();
    __syncthreads();
    sm90::warpgroup_arrive();
    for (int k = 0; k < 4; ++k) {
      // k-step k is 32 bytes further along each 128-byte row: the start address moves inside
      // the swizzle atom, which the hardware swizzles by address.
      const uint64_t da =
          sm90::make_desc(sm90::smem_u32(sa) + 32 * k, 16, 1024, sm90::Swizzle::b128);
      const uint64_t db =
          sm90::make_desc(sm90::smem_u32(sb) + 32 * k, 16, 1024, sm90::Swizzle::b128);
      sm90::wgmma_m64n64k16_f16<1, 1, 0, 0>(acc, da, db, kb > 0 || k > 0);
    }
    sm90::warpgroup_commit();
    sm90::warpgroup_wait<0>();
  }
  for (int i = 0; i < 32; ++i) o[i] = __float_as_uint(acc[i]);

  // 2. bf16, A from registers (the warp's 16 rows in the m16n8k16 A fragment), B N-major: row k
  //    of B holds 32 n contiguous, 64-byte swizzle, 8 k-rows per 512-byte atom (SBO).
  float acc2[16];
  for (int i = 0; i < 16; ++i) acc2[i] = __uint_as_float(0xffc00000u | b[tid * 16 + i]);
  const int warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  for (int kb = 0; kb < kKBlocks; ++kb) {
    __syncthreads();
    for (int i = tid; i < 16 * 32; i += 128) {
      const int k = i / 32, n = i % 32;
      const uint32_t off = (n % 8) * 2 + ((n / 8) % 4) * 16 + (k % 8) * 64 + (k / 8) * 512;
      const uint32_t sw = off ^ (((off >> 7) & 3) << 4);
      const uint16_t v = small_f16(b[(size_t)(tile * kKBlocks + kb) * 512 + i]);
      __builtin_memcpy(sb + sw, &v, 2);
    }
    sm90::fence_view_async_shared();
    __syncthreads();
    uint32_t frag[4];
    for (int r = 0; r < 4; ++r) {
      const int row = 16 * warp + g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
      const size_t src = ((size_t)(tile * kKBlocks + kb) * 64 + row) * 16 + col;
      frag[r] = small_f16(a[src]) | (uint32_t)small_f16(a[src + 1]) << 16;
    }
    sm90::warpgroup_arrive();
    const uint64_t db = sm90::make_desc(sm90::smem_u32(sb), 16, 512, sm90::Swizzle::b64);
    sm90::wgmma_m64n32k16_bf16_rs<1, -1, 1>(acc2, frag, db, kb > 0);
    sm90::warpgroup_commit();
    sm90::warpgroup_wait<0>();
  }
  for (int i = 0; i < 16; ++i) o[32 + i] = __float_as_uint(acc2[i]);

  // 3. s8, no swizzle: 8x16-byte core matrices, the two along K 128 bytes apart (LBO), 8-row
  //    groups 256 bytes apart (SBO); D starts from the inputs' bits, saturating.
  int32_t acc3[8];
  for (int i = 0; i < 8; ++i) acc3[i] = (int32_t)((uint32_t)a[tid * 8 + i] << 16 | b[tid * 8 + i]);
  __syncthreads();
  for (int i = tid; i < 64 * 32; i += 128) {
    const int row = i / 32, kbyte = i % 32;
    const uint32_t off = (row % 8) * 16 + (row / 8) * 256 + (kbyte / 16) * 128 + kbyte % 16;
    sa[off] = (uint8_t)a[(size_t)tile * 2048 + i];
    if (row < 16) sb[off] = (uint8_t)b[(size_t)tile * 2048 + i];
  }
  sm90::fence_view_async_shared();
  __syncthreads();
  sm90::warpgroup_arrive();
  sm90::wgmma_m64n16k32_s8(acc3, sm90::make_desc(sm90::smem_u32(sa), 128, 256, sm90::Swizzle::none),
                           sm90::make_desc(sm90::smem_u32(sb), 128, 256, sm90::Swizzle::none), 1);
  sm90::warpgroup_commit();
  sm90::warpgroup_wait<0>();
  for (int i = 0; i < 8; ++i) o[48 + i] = (uint32_t)acc3[i];

  // 4. e4m3, 32-byte swizzle: rows of 32 bytes, 8-row atoms of 256 bytes (SBO).
  float acc4[4] = {0.f, 0.f, 0.f, 0.f};
  __syncthreads();
  for (int i = tid; i < 64 * 32; i += 128) {
    const int row = i / 32, kbyte = i % 32;
    const uint32_t off = row * 32 + kbyte;
    const uint32_t sw = off ^ (((off >> 7) & 1) << 4);
    // e4m3 codes without NaN (0x7f / 0xff) and below 2 in magnitude.
    sa[sw] = (uint8_t)(a[(size_t)tile * 2048 + i] & 0xbe);
    if (row < 8) sb[sw] = (uint8_t)(b[(size_t)tile * 2048 + i] & 0xbe);
  }
  sm90::fence_view_async_shared();
  __syncthreads();
  sm90::warpgroup_arrive();
  sm90::wgmma_m64n8k32_e4m3(acc4, sm90::make_desc(sm90::smem_u32(sa), 16, 256, sm90::Swizzle::b32),
                            sm90::make_desc(sm90::smem_u32(sb), 16, 256, sm90::Swizzle::b32), 1);
  sm90::warpgroup_commit();
  sm90::warpgroup_wait<0>();
  for (int i = 0; i < 4; ++i) o[56 + i] = __float_as_uint(acc4[i]);
}
