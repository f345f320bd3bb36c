// Cache-modified loads and stores in the style of CUB's thread_load.cuh / thread_store.cuh: one
// function per PTX cache operator, for words, vectors and 128-bit values, plus the L1/L2 hint
// forms recent kernels use (vLLM/FlashInfer-style `.nc.L1::no_allocate.L2::256B` streaming loads,
// `createpolicy` + `.L2::cache_hint`), loads from constant and local memory through their window
// addresses, and `ld.volatile` polling of a flag.
#include <stdint.h>

__constant__ uint32_t corpus_lut[64] = {
    0x00000000u, 0x11111111u, 0x22222222u, 0x33333333u, 0x44444444u, 0x55555555u, 0x66666666u,
    0x77777777u, 0x88888888u, 0x99999999u, 0xaaaaaaaau, 0xbbbbbbbbu, 0xccccccccu, 0xddddddddu,
    0xeeeeeeeeu, 0xffffffffu, 0x01234567u, 0x89abcdefu, 0xdeadbeefu, 0xcafebabeu, 0x8badf00du,
    0x0badc0deu, 0xfeedfaceu, 0xabad1deau, 0x7fffffffu, 0x80000000u, 0x00000001u, 0xfffffffeu,
    0x12345678u, 0x87654321u, 0x0f0f0f0fu, 0xf0f0f0f0u, 0x3c3c3c3cu, 0xc3c3c3c3u, 0x55aa55aau,
    0xaa55aa55u, 0x00ff00ffu, 0xff00ff00u, 0x13579bdfu, 0x2468ace0u, 0x11223344u, 0x55667788u,
    0x99aabbccu, 0xddeeff00u, 0x0000ffffu, 0xffff0000u, 0x7f7f7f7fu, 0x80808080u, 0x01010101u,
    0xfefefefeu, 0x10203040u, 0x50607080u, 0x90a0b0c0u, 0xd0e0f000u, 0x31415926u, 0x27182818u,
    0x16180339u, 0x14142135u, 0x17320508u, 0x22360679u, 0x26457513u, 0x28284271u, 0x30000000u,
    0x33166247u};

namespace corpus {
namespace thread_io {

// ---- Loads: one per cache operator (cub::CacheLoadModifier) ----

__device__ __forceinline__ uint32_t load_ca(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ uint32_t load_cg(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ uint32_t load_cs(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.cs.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ uint32_t load_lu(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.lu.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ uint32_t load_cv(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.cv.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ uint32_t load_ldg(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ uint32_t load_volatile(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ uint32_t load_uniform(const uint32_t* p) {
  uint32_t v;
  asm("ldu.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

// ---- Vector and narrow loads ----

__device__ __forceinline__ uint2 load_cg_v2(const uint2* p) {
  uint2 v;
  asm volatile("ld.global.cg.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
  return v;
}

__device__ __forceinline__ uint4 load_cs_v4(const uint4* p) {
  uint4 v;
  asm volatile("ld.global.cs.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

__device__ __forceinline__ int4 load_stream_v4(const int4* p) {
  int4 v;
  asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.s32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

__device__ __forceinline__ float2 load_nc_v2f(const float2* p) {
  float2 v;
  asm("ld.global.nc.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "l"(p));
  return v;
}

__device__ __forceinline__ unsigned short load_evict_last_u16(const void* p) {
  unsigned short v;
  asm volatile("ld.global.L1::evict_last.u16 %0, [%1];" : "=h"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ double load_prefetch_f64(const double* p) {
  double v;
  asm volatile("ld.global.L2::128B.f64 %0, [%1];" : "=d"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ int load_s8(const void* p, int byte) {
  int v;
  asm volatile("ld.global.s8 %0, [%1+3];" : "=r"(v) : "l"((const char*)p + byte));
  return v;
}

__device__ __forceinline__ uint32_t load_u8_offset(const void* p) {
  uint32_t v;
  asm volatile("ld.global.u8 %0, [%1+-1];" : "=r"(v) : "l"((const char*)p + 5));
  return v;
}

__device__ __forceinline__ uint4 load_v4_u8(const void* p) {
  uint4 v;
  asm volatile("ld.global.v4.u8 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

__device__ __forceinline__ unsigned __int128 load_b128(const void* p) {
  unsigned __int128 v;
  asm volatile("ld.global.b128 %0, [%1];" : "=q"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ uint4 load_evict_first_policy(const uint4* p) {
  uint4 v;
  asm volatile(
      "{\n"
      "  .reg .b64 pol;\n"
      "  createpolicy.fractional.L2::evict_first.b64 pol, 1.0;\n"
      "  ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], pol;\n"
      "}\n"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
      : "l"(p));
  return v;
}

/// A word of a `__constant__` table through its window address (cvta.to.const + ld.const).
__device__ __forceinline__ uint32_t load_const(const uint32_t* table) {
  uint32_t v;
  asm("{\n"
      "  .reg .u64 c;\n"
      "  cvta.to.const.u64 c, %1;\n"
      "  ld.const.u32 %0, [c+4];\n"
      "}\n"
      : "=r"(v)
      : "l"(table));
  return v;
}

/// The same table named directly: `[corpus_lut+8]` is the PTX symbol of the __constant__ array.
__device__ __forceinline__ uint32_t load_const_symbol() {
  uint32_t v;
  asm("ld.const.u32 %0, [corpus_lut+8];" : "=r"(v));
  return v;
}

/// A word of a thread-local array through its .local window address.
__device__ __forceinline__ uint32_t load_local(const uint32_t* local_word) {
  uint32_t v;
  asm volatile(
      "{\n"
      "  .reg .u64 l;\n"
      "  cvta.to.local.u64 l, %1;\n"
      "  ld.local.u32 %0, [l];\n"
      "}\n"
      : "=r"(v)
      : "l"(local_word));
  return v;
}

// ---- Stores: one per cache operator (cub::CacheStoreModifier) ----

__device__ __forceinline__ void store_wb(uint32_t* p, uint32_t v) {
  asm volatile("st.global.wb.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ void store_cg(uint32_t* p, uint32_t v) {
  asm volatile("st.global.cg.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ void store_cs_v4(uint4* p, uint4 v) {
  asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y),
               "r"(v.z), "r"(v.w)
               : "memory");
}

__device__ __forceinline__ void store_wt_v2(uint2* p, uint2 v) {
  asm volatile("st.global.wt.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(v.x), "r"(v.y) : "memory");
}

__device__ __forceinline__ void store_volatile_u64(unsigned long long* p, unsigned long long v) {
  asm volatile("st.volatile.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ void store_no_allocate_b16(void* p, unsigned short v) {
  asm volatile("st.global.L1::no_allocate.b16 [%0], %1;" ::"l"(p), "h"(v) : "memory");
}

__device__ __forceinline__ void store_low_byte(void* p, uint32_t v) {
  asm volatile("st.global.s8 [%0+1], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ void store_v4_f32(float4* p, float4 v) {
  asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v.x), "f"(v.y), "f"(v.z),
               "f"(v.w)
               : "memory");
}

__device__ __forceinline__ void store_b128(void* p, unsigned __int128 v) {
  asm volatile("st.global.b128 [%0], %1;" ::"l"(p), "q"(v) : "memory");
}

__device__ __forceinline__ void store_evict_last_policy(uint32_t* p, uint32_t v) {
  asm volatile(
      "{\n"
      "  .reg .b64 pol;\n"
      "  createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 pol, 0.5;\n"
      "  st.global.L2::cache_hint.b32 [%0], %1, pol;\n"
      "}\n" ::"l"(p),
      "r"(v)
      : "memory");
}

/// Hints that change no value: a prefetch, a priority change, and a line discarded before it is
/// written again.
__device__ __forceinline__ void hints(const void* next, void* line128) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(next));
  asm volatile("prefetchu.L1 [%0];" ::"l"(next));
  asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(next));
  asm volatile("discard.global.L2 [%0], 128;" ::"l"(line128) : "memory");
}

/// Spins with ld.volatile until a flag the same thread published with st.volatile is visible.
__device__ __forceinline__ uint32_t poll_flag(uint32_t* flag, uint32_t want) {
  asm volatile("st.volatile.global.u32 [%0], %1;" ::"l"(flag), "r"(want) : "memory");
  uint32_t seen, spins = 0;
  do {
    asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(seen) : "l"(flag) : "memory");
    ++spins;
  } while (seen != want);
  return seen + spins;
}

}  // namespace thread_io
}  // namespace corpus

/// Each thread reads its own 32-byte slice of `in` with every modifier and writes 64 words of
/// results (a 256-byte slice of `out`).
__global__ void thread_load_store_kernel(const uint32_t* in, uint32_t* out) {
  using namespace corpus::thread_io;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t* src = in + 8 * i;
  uint32_t* dst = out + 64 * i;
  uint32_t local_words[4] = {src[0] ^ 1u, src[1] ^ 2u, src[2] ^ 3u, src[3] ^ 4u};

  hints(src + 8, dst + 32);
  uint32_t r[32];
  r[0] = load_ca(src);
  r[1] = load_cg(src + 1);
  r[2] = load_cs(src + 2);
  r[3] = load_lu(src + 3);
  r[4] = load_cv(src + 4);
  r[5] = load_ldg(src + 5);
  r[6] = load_volatile(src + 6);
  r[7] = load_uniform(in + 1);
  const uint2 a = load_cg_v2((const uint2*)src + 1);
  const uint4 b = load_cs_v4((const uint4*)src);
  const int4 c = load_stream_v4((const int4*)src + 1);
  const float2 f = load_nc_v2f((const float2*)src);
  r[8] = a.x ^ a.y;
  r[9] = b.x + b.y * 3u + b.z * 5u + b.w * 7u;
  r[10] = (uint32_t)(c.x - c.y + c.z - c.w);
  r[11] = (uint32_t)__float_as_uint(f.x) ^ (__float_as_uint(f.y) >> 1);
  r[12] = load_evict_last_u16(src + 7);
  const double d = load_prefetch_f64((const double*)src + 2);
  r[13] = (uint32_t)__double_as_longlong(d) ^ (uint32_t)(__double_as_longlong(d) >> 32);
  r[14] = (uint32_t)load_s8(src, i & 3);
  r[15] = load_u8_offset(src);
  const uint4 bytes = load_v4_u8(src + 1);
  r[16] = bytes.x | (bytes.y << 8) | (bytes.z << 16) | (bytes.w << 24);
  const unsigned __int128 q = load_b128(src + 4);
  r[17] = (uint32_t)(q >> 96) ^ (uint32_t)(q >> 17);
  const uint4 e = load_evict_first_policy((const uint4*)src + 1);
  r[18] = e.x ^ e.y ^ e.z ^ e.w;
  r[19] = load_const(corpus_lut + (i & 31));
  r[20] = load_const_symbol();
  r[21] = load_local(&local_words[i & 3]);
  r[22] = poll_flag(dst + 63, (uint32_t)i * 2654435761u);
  for (int k = 23; k < 32; ++k) r[k] = r[k - 23] ^ (uint32_t)k;

  for (int k = 0; k < 23; ++k) store_wb(dst + k, r[k]);
  store_cg(dst + 23, r[0] + r[9]);
  store_cs_v4((uint4*)dst + 6, b);
  store_wt_v2((uint2*)dst + 14, a);
  store_volatile_u64((unsigned long long*)dst + 15, ((unsigned long long)r[1] << 32) | r[2]);
  // Words 32..63 (one 128-byte line) were discarded above: every byte is written again.
  for (int k = 32; k < 64; ++k) store_wb(dst + k, r[k & 31] * 31u + (uint32_t)k);
  store_no_allocate_b16(dst + 48, (unsigned short)r[3]);
  store_low_byte(dst + 49, r[4] * 0x01010101u);
  store_v4_f32((float4*)dst + 13, make_float4(f.x, f.y, (float)r[5], -(float)r[6]));
  store_b128(dst + 56, q ^ ((unsigned __int128)r[7] << 64));
  store_evict_last_policy(dst + 60, r[8] + 1u);
}
