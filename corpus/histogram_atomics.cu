// Histograms, ring counters and lock-free slot claims with atom.inc/dec/cas/exch/min/max on shared
// memory (through generic addresses) and global memory, in the style of the histogram and
// allocator kernels of CUB and of ring-buffer bookkeeping in communication kernels, with barrier
// reductions (bar.red.popc/and/or) to count and vote across the block.
#include <stdint.h>

namespace hist {

/// The shared-memory window address of a pointer to shared memory.
__device__ __forceinline__ uint32_t smem(const void* p) {
#if defined(__HIP_PLATFORM_AMD__)
  return (uint32_t)(uintptr_t)(const __attribute__((address_space(3))) void*)p;
#else
  return (uint32_t)__cvta_generic_to_shared(p);
#endif
}

__device__ __forceinline__ uint32_t atom_shared_add(uint32_t a, uint32_t v) {
  uint32_t old;
  asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(a), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ void red_shared_max(uint32_t a, uint32_t v) {
  asm volatile("red.shared::cta.max.u32 [%0+4], %1;" ::"r"(a), "r"(v) : "memory");
}

__device__ __forceinline__ float atom_shared_add_f32(uint32_t a, float v) {
  float old;
  asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=f"(old) : "r"(a), "f"(v) : "memory");
  return old;
}

__device__ __forceinline__ void st_release_cta_shared(uint32_t a, uint32_t v) {
  asm volatile("st.release.cta.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}

__device__ __forceinline__ uint32_t ld_acquire_cta_shared(uint32_t a) {
  uint32_t v;
  asm volatile("ld.acquire.cta.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
  return v;
}

__device__ __forceinline__ uint32_t atom_add(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ uint32_t atom_inc(uint32_t* p, uint32_t bound) {
  uint32_t old;
  asm volatile("atom.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(bound) : "memory");
  return old;
}

__device__ __forceinline__ uint32_t atom_dec_global(uint32_t* p, uint32_t bound) {
  uint32_t old;
  asm volatile("atom.global.dec.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(bound) : "memory");
  return old;
}

__device__ __forceinline__ uint32_t atom_cas(uint32_t* p, uint32_t cmp, uint32_t val) {
  uint32_t old;
  asm volatile("atom.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(p), "r"(cmp), "r"(val) : "memory");
  return old;
}

__device__ __forceinline__ uint64_t atom_cas_global_b64(uint64_t* p, uint64_t cmp, uint64_t val) {
  uint64_t old;
  asm volatile("atom.global.acquire.gpu.cas.b64 %0, [%1], %2, %3;" : "=l"(old) : "l"(p), "l"(cmp), "l"(val)
               : "memory");
  return old;
}

__device__ __forceinline__ uint16_t atom_cas_b16(uint16_t* p, uint16_t cmp, uint16_t val) {
  uint16_t old;
  asm volatile("atom.global.cas.b16 %0, [%1], %2, %3;" : "=h"(old) : "l"(p), "h"(cmp), "h"(val) : "memory");
  return old;
}

__device__ __forceinline__ uint64_t atom_exch_b64(uint64_t* p, uint64_t v) {
  uint64_t old;
  asm volatile("atom.exch.b64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
  return old;
}

__device__ __forceinline__ int atom_min_s32(int* p, int v) {
  int old;
  asm volatile("atom.global.min.s32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ int64_t atom_max_s64(int64_t* p, int64_t v) {
  int64_t old;
  asm volatile("atom.global.relaxed.cta.max.s64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
  return old;
}

__device__ __forceinline__ void red_or(uint32_t* p, uint32_t v) {
  asm volatile("red.or.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ void red_xor_global(uint32_t* p, uint32_t v) {
  asm volatile("red.global.xor.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ uint32_t atom_and_global(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.global.and.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ void red_inc_global(uint32_t* p, uint32_t bound) {
  asm volatile("red.global.inc.u32 [%0], %1;" ::"l"(p), "r"(bound) : "memory");
}

__device__ __forceinline__ float atom_add_f32_generic(float* p, float v) {
  float old;
  asm volatile("atom.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(p), "f"(v) : "memory");
  return old;
}

__device__ __forceinline__ uint32_t block_count(bool pred) {
  uint32_t n;
  asm volatile(
      "{\n"
      "  .reg .pred p;\n"
      "  setp.ne.u32 p, %1, 0;\n"
      "  bar.red.popc.u32 %0, 0, p;\n"
      "}\n"
      : "=r"(n)
      : "r"((uint32_t)pred)
      : "memory");
  return n;
}

__device__ __forceinline__ uint32_t block_all(bool pred) {
  uint32_t r;
  asm volatile(
      "{\n"
      "  .reg .pred p, q;\n"
      "  setp.ne.u32 p, %1, 0;\n"
      "  bar.red.and.pred q, 0, p;\n"
      "  selp.u32 %0, 1, 0, q;\n"
      "}\n"
      : "=r"(r)
      : "r"((uint32_t)pred)
      : "memory");
  return r;
}

__device__ __forceinline__ uint32_t block_any_not(bool pred) {
  uint32_t r;
  asm volatile(
      "{\n"
      "  .reg .pred p, q;\n"
      "  setp.ne.u32 p, %1, 0;\n"
      "  barrier.red.or.pred q, 0, !p;\n"
      "  selp.u32 %0, 1, 0, q;\n"
      "}\n"
      : "=r"(r)
      : "r"((uint32_t)pred)
      : "memory");
  return r;
}

__device__ __forceinline__ void sync() { asm volatile("bar.sync 0;" ::: "memory"); }
__device__ __forceinline__ void sync_named() { asm volatile("barrier.cta.sync 2;" ::: "memory"); }

}  // namespace hist

/// Per block: a 64-bin histogram of the input in shared memory, 8 wrapping ring counters, a
/// lock-free claim of 256 slots by compare-and-swap (each slot exactly once), barrier votes, then
/// global counters and single-owner words for 64-bit and 16-bit atomics. Only values that every
/// serialisation of the atomics gives are written.
__global__ void histogram_atomics_kernel(const uint32_t* __restrict__ x, uint32_t* out, uint32_t* counters,
                                         int n) {
  __shared__ uint32_t bins[64];
  __shared__ uint32_t ring[8];
  __shared__ uint32_t next;
  __shared__ uint32_t claimed[8];
  __shared__ float fs[256];
  __shared__ float fs2[256];
  __shared__ uint32_t maxes[2];
  __shared__ uint32_t mailbox[2];
  const int t = threadIdx.x, b = blockIdx.x, i = b * blockDim.x + t;
  if (t < 64) bins[t] = 0;
  if (t < 8) {
    ring[t] = 0;
    claimed[t] = 0;
  }
  if (t == 0) {
    next = 0;
    maxes[0] = 0;
    maxes[1] = 0;
    mailbox[0] = 0;
    mailbox[1] = 0;
  }
  fs[t] = __uint_as_float(x[n + i] & 0x807fffffu);
  fs2[t] = __uint_as_float(x[14 * n + i] & 0x807fffffu);
  uint32_t* g = counters + 16 * b;
  if (t == 0) {
    g[0] = 0;       // global ring (dec)
    g[1] = 0xffffffffu;  // and-mask
    g[2] = 0;       // xor
    g[3] = 0;       // inc ring
    ((int*)g)[4] = 0x7fffffff;  // min
  }
  hist::sync();

  const uint32_t v = x[i];
  hist::atom_shared_add(hist::smem(&bins[v % 64]), 1u);
  hist::red_shared_max(hist::smem(&maxes[0]), v);
  hist::atom_inc(&ring[t % 8], 9u);            // 32 increments wrapping at 9: ends at 32 % 10
  hist::atom_dec_global(&g[0], 6u);            // 256 decrements from 0 wrapping at 6
  hist::atom_and_global(&g[1], ~(1u << (v % 32)));
  hist::red_xor_global(&g[2], v);
  hist::red_inc_global(&g[3], 100u);
  hist::atom_min_s32((int*)&g[4], (int)v);
  // Claim a unique slot with compare-and-swap.
  uint32_t slot;
  for (uint32_t cur = next;;) {
    uint32_t seen = hist::atom_cas(&next, cur, cur + 1);
    if (seen == cur) {
      slot = cur;
      break;
    }
    cur = seen;
  }
  hist::red_or(&claimed[slot / 32], 1u << (slot % 32));
  // Generic f32 atomic on shared memory: single owner, subnormal operands.
  float before = hist::atom_add_f32_generic(&fs[t], __uint_as_float(x[2 * n + i] & 0x807fffffu));
  float before2 = hist::atom_shared_add_f32(hist::smem(&fs2[t]), __uint_as_float(x[15 * n + i] & 0x807fffffu));
  // Warp 1 hands a value to warp 0 through shared memory with release/acquire at CTA scope.
  if (t == 32) {
    mailbox[1] = v ^ 0x5a5a5a5au;
    hist::st_release_cta_shared(hist::smem(&mailbox[0]), 1u);
  }
  uint32_t handed = 0;
  if (t == 0) {
    while (hist::ld_acquire_cta_shared(hist::smem(&mailbox[0])) != 1u) {
    }
    handed = mailbox[1];
  }
  (void)hist::atom_add(&bins[v % 64], 0u);
  const uint32_t odd = hist::block_count(v & 1u);
  const uint32_t all_small = hist::block_all(v < 0xf0000000u);
  const uint32_t any_big = hist::block_any_not(v < 0xf0000000u);
  hist::sync_named();

  uint32_t* o = out + 512 * b;
  if (t < 64) o[t] = bins[t];
  if (t < 8) o[64 + t] = ring[t];
  if (t < 8) o[72 + t] = claimed[t];
  if (t == 0) {
    o[80] = next;
    o[81] = odd;
    o[82] = all_small;
    o[83] = any_big;
    o[84] = maxes[1];
    o[85] = handed;
  }
  out[200000 + i] = __float_as_uint(fs2[t]) ^ (__float_as_uint(before2) << 3);
  o[256 + t] = __float_as_uint(fs[t]) ^ (__float_as_uint(before) << 1);

  // Single-owner 64-bit and 16-bit atomics.
  uint64_t* w = (uint64_t*)(out + 65536) + i;
  *w = ((uint64_t)x[3 * n + i] << 32) | x[4 * n + i];
  const uint64_t expect = (x[5 * n + i] & 1u) ? *w : (uint64_t)x[6 * n + i];
  const uint64_t seen = hist::atom_cas_global_b64(w, expect, (uint64_t)x[7 * n + i] * 0x9e3779b97f4a7c15ull);
  const uint64_t ex = hist::atom_exch_b64(w, seen + 1);
  int64_t* m = (int64_t*)(out + 65536) + 8192 + i;
  *m = (int64_t)(((uint64_t)x[8 * n + i] << 32) | x[9 * n + i]);
  const int64_t mx = hist::atom_max_s64(m, (int64_t)(((uint64_t)x[10 * n + i] << 32) | x[11 * n + i]));
  uint16_t* h = (uint16_t*)(out + 131072) + 2 * i;
  h[0] = (uint16_t)x[12 * n + i];
  h[1] = (uint16_t)(x[12 * n + i] >> 16);
  const uint16_t cmp = (x[13 * n + i] & 1u) ? h[1] : (uint16_t)x[13 * n + i];
  const uint16_t old16 = hist::atom_cas_b16(&h[1], cmp, (uint16_t)(x[13 * n + i] >> 16));
  out[140000 + i] = (uint32_t)(ex >> 7) ^ (uint32_t)mx ^ old16;
}
