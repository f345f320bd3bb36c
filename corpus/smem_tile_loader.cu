// A GEMM-style shared-memory tile loader, as CUTLASS/FlashAttention main loops write it: the tile's
// generic pointer becomes a 32-bit shared address once (cvta.to.shared + cvt), and every
// st.shared / ld.shared then takes `[%r]` / `[%r+imm]` 32-bit addresses. Also: a file-scope
// __shared__ array named directly in PTX (`[corpus_smem_words+8]`, `mov.u32 r, corpus_smem_words`),
// cvta round trips and isspacep.
#include <stdint.h>

__shared__ uint32_t corpus_smem_words[256];

namespace corpus {
namespace smem {

/// The 32-bit shared-window address of a generic pointer to shared memory.
__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  uint32_t a;
  asm("{\n"
      "  .reg .u64 a64;\n"
      "  cvta.to.shared.u64 a64, %1;\n"
      "  cvt.u32.u64 %0, a64;\n"
      "}\n"
      : "=r"(a)
      : "l"(p));
  return a;
}

__device__ __forceinline__ uint64_t smem_addr64(const void* p) {
  uint64_t a;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(a) : "l"(p));
  return a;
}

__device__ __forceinline__ void sts128(uint32_t addr, uint4 v) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(v.x), "r"(v.y), "r"(v.z),
               "r"(v.w));
}

__device__ __forceinline__ uint4 lds128(uint32_t addr) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(addr));
  return v;
}

__device__ __forceinline__ uint32_t lds32(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.shared.b32 %0, [%1+4];" : "=r"(v) : "r"(addr));
  return v;
}

__device__ __forceinline__ float2 lds64f(uint64_t addr64) {
  float2 v;
  asm volatile("ld.shared::cta.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "l"(addr64));
  return v;
}

__device__ __forceinline__ int lds_s16(uint32_t addr) {
  int v;
  asm volatile("ld.shared.s16 %0, [%1+2];" : "=r"(v) : "r"(addr));
  return v;
}

__device__ __forceinline__ void sts16(uint32_t addr, unsigned short v) {
  asm volatile("st.shared.b16 [%0], %1;" ::"r"(addr), "h"(v));
}

__device__ __forceinline__ void sts64(uint32_t addr, uint2 v) {
  asm volatile("st.shared.v2.u32 [%0+8], {%1, %2};" ::"r"(addr), "r"(v.x), "r"(v.y));
}

__device__ __forceinline__ uint32_t lds_volatile(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
  return v;
}

/// corpus_smem_words named as a PTX symbol: its shared-window address and a word of it.
__device__ __forceinline__ uint2 symbol_words() {
  uint2 v;
  asm volatile(
      "mov.u32 %0, corpus_smem_words;\n"
      "ld.shared.u32 %1, [corpus_smem_words+8];\n"
      : "=r"(v.x), "=r"(v.y));
  return v;
}

/// cvta.shared of a window address back to a generic pointer.
__device__ __forceinline__ uint64_t to_generic(uint64_t window) {
  uint64_t g;
  asm("cvta.shared.u64 %0, %1;" : "=l"(g) : "l"(window));
  return g;
}

__device__ __forceinline__ uint32_t is_shared(const void* p) {
  uint32_t r;
  asm("{\n"
      "  .reg .pred q;\n"
      "  isspacep.shared q, %1;\n"
      "  selp.u32 %0, 1, 0, q;\n"
      "}\n"
      : "=r"(r)
      : "l"(p));
  return r;
}

__device__ __forceinline__ uint32_t is_local(const void* p) {
  uint32_t r;
  asm("{\n"
      "  .reg .pred q;\n"
      "  isspacep.local q, %1;\n"
      "  selp.u32 %0, 1, 0, q;\n"
      "}\n"
      : "=r"(r)
      : "l"(p));
  return r;
}

}  // namespace smem
}  // namespace corpus

/// 256 threads per block stage a 4 KB tile of A in shared memory with 16-byte stores, then read
/// it back transposed with 16-, 8-, 4- and 2-byte loads; 32 result words per thread.
__global__ void smem_tile_loader_kernel(const uint4* A, uint32_t* out) {
  using namespace corpus::smem;
  __shared__ __align__(16) uint4 tile[256];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  uint32_t* dst = out + 32 * i;

  const uint32_t base = smem_addr(tile);
  sts128(base + 16u * t, A[i]);
  corpus_smem_words[t] = A[i].x ^ (uint32_t)t;
  __syncthreads();

  const int j = (t * 7 + 3) & 255;
  const uint4 v = lds128(base + 16u * j);
  dst[0] = v.x;
  dst[1] = v.y;
  dst[2] = v.z;
  dst[3] = v.w;
  dst[4] = lds32(base + 16u * ((j + 1) & 255));
  const float2 f = lds64f(smem_addr64(&tile[(j + 2) & 255]) + 8);
  dst[5] = __float_as_uint(f.x);
  dst[6] = __float_as_uint(f.y);
  dst[7] = (uint32_t)lds_s16(base + 16u * ((j + 3) & 255));
  dst[8] = lds_volatile(base + 16u * ((j + 4) & 255) + 12u);

  const uint2 sym = symbol_words();
  dst[9] = sym.x == smem_addr(corpus_smem_words);
  dst[10] = sym.y;
  const uint64_t w64 = smem_addr64(&tile[t]);
  dst[11] = (uint32_t)(w64 >> 32);
  dst[12] = to_generic(w64) == (uint64_t)(uintptr_t)&tile[t];
  dst[13] = smem_addr(&tile[t]) - base;
  uint32_t local_word = v.x;
  dst[14] = is_shared(&tile[j]) | (is_shared(A + i) << 1) | (is_shared(&local_word) << 2);
  dst[15] = is_local(&local_word) | (is_local(&tile[j]) << 1) | (is_local(A + i) << 2);
  __syncthreads();

  // Narrow and 8-byte stores through 32-bit addresses, read back by plain C++.
  sts16(base + 16u * t + 2u, (unsigned short)(v.y >> 3));
  sts64(base + 16u * t, make_uint2(v.z, v.w ^ 0x5a5a5a5au));
  __syncthreads();
  const uint4 back = tile[(t + 1) & 255];
  dst[16] = back.x;
  dst[17] = back.y;
  dst[18] = back.z;
  dst[19] = back.w;
}
