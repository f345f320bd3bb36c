// A mix of forms ptx2hip translates today and forms it does not (yet): byte permutes, warp
// shuffles, carry chains, widening conversions and shared-memory loads, in the style of the
// warp-reduction and big-integer helpers found in cryptography and quantisation kernels.
// `ptx2hip check` must name every unsupported statement precisely; the translatable ones are
// still rewritten by `translate`.
#include <stdint.h>

namespace mix {

// Translatable: plain integer arithmetic.
__device__ __forceinline__ uint32_t add_u32(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

// Translatable: warp-wide reduction (each 32-lane half of a wave64 is one warp).
__device__ __forceinline__ uint32_t warp_total(uint32_t x) {
  uint32_t d;
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(d) : "r"(x));
  return d;
}

// Unsupported: a floating-point warp reduction (sm_100a only: no H100 result to verify against;
// only built for sm_100 and later).
__device__ __forceinline__ float warp_min(float x) {
  float d;
  asm volatile("redux.sync.min.f32 %0, %1, 0xffffffff;" : "=f"(d) : "f"(x));
  return d;
}

// Translatable: butterfly warp shuffle (exact on wave32 and wave64).
__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    float other;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(other) : "f"(v), "r"(offset));
    asm("add.f32 %0, %1, %2;" : "=f"(v) : "f"(v), "f"(other));
  }
  return v;
}

// Unsupported: a 64-bit add through a 32-bit carry chain (add.cc / addc).
__device__ __forceinline__ void add64_carry(uint32_t& lo, uint32_t& hi, uint32_t blo, uint32_t bhi) {
  asm("add.cc.u32 %0, %0, %2;\n\t"
      "addc.u32 %1, %1, %3;"
      : "+r"(lo), "+r"(hi)
      : "r"(blo), "r"(bhi));
}

// Unsupported: the carry chain split over two statements (the carry flag crosses statements).
__device__ __forceinline__ uint32_t add_carry_split(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  uint32_t lo, hi;
  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(lo) : "r"(a), "r"(b));
  asm volatile("addc.u32 %0, %1, %2;" : "=r"(hi) : "r"(c), "r"(d));
  return lo ^ hi;
}

// Unsupported: a block whose translatable setp is mixed with an untranslatable prmt.
__device__ __forceinline__ uint32_t select_bytes(uint32_t a, uint32_t b, int flag) {
  uint32_t d;
  asm("{\n\t"
      ".reg .pred p;\n\t"
      "setp.ne.s32 p, %3, 0;\n\t"
      "mov.u32 %0, %1;\n\t"
      "@p prmt.b32 %0, %1, %2, 0x5410;\n\t"
      "}"
      : "=r"(d)
      : "r"(a), "r"(b), "r"(flag));
  return d;
}

// Translatable: the lane id (its lane in the 32-lane half on wave64).
__device__ __forceinline__ unsigned lane_id() {
  unsigned d;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(d));
  return d;
}

// Translatable: address-space conversion and a shared-memory load through a 32-bit address.
__device__ __forceinline__ uint32_t load_shared(const uint32_t* smem_generic) {
  uint32_t d;
  unsigned long long shared64;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(shared64) : "l"(smem_generic));
  uint32_t addr = (uint32_t)shared64;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(d) : "r"(addr));
  return d;
}

// Translatable: predicated select with setp + mov.
__device__ __forceinline__ int max_s32(int a, int b) {
  int d;
  asm("{\n\t"
      ".reg .pred gt;\n\t"
      "setp.gt.s32 gt, %1, %2;\n\t"
      "mov.s32 %0, %2;\n\t"
      "@gt mov.s32 %0, %1;\n\t"
      "}"
      : "=r"(d)
      : "r"(a), "r"(b));
  return d;
}

}  // namespace mix

__global__ void unsupported_mix_kernel(const uint32_t* a, const uint32_t* b, float* f, uint32_t* out,
                                       unsigned long long* out64, int n) {
  __shared__ uint32_t tile[256];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x & 255] = t < n ? a[t] : 0u;
  __syncthreads();
  if (t >= n) return;
  uint32_t lo = a[t], hi = b[t];
  // Distinct values: the asm writes %0 before it reads %3 without an early clobber, so an input
  // equal to `lo` could share its register and change the NVIDIA result.
  mix::add64_carry(lo, hi, b[t] ^ 0x5a5a5a5au, a[t] + 1u);
  out[6 * t + 0] = mix::add_u32(a[t], b[t]);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
  out[6 * t + 1] = (uint32_t)mix::warp_min((float)a[t]);
#else
  out[6 * t + 1] = mix::warp_total(a[t]);
#endif
  out[6 * t + 2] = lo ^ hi;
  out[6 * t + 3] = mix::add_carry_split(a[t], b[t], b[t], a[t]);
  out[6 * t + 4] = mix::select_bytes(a[t], b[t], (int)(t & 1));
  out[6 * t + 5] = (uint32_t)mix::max_s32((int)a[t], (int)b[t]) + mix::load_shared(&tile[(threadIdx.x + 1) & 255]);
  out64[t] = mix::lane_id();
  f[t] = mix::warp_sum(f[t]);
}
