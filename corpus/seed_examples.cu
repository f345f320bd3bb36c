// Every example of NVIDIA's "Inline PTX Assembly in CUDA" guide, written as device functions
// with explicit inputs and outputs, plus one kernel that runs each of them over arrays.
#include <stdint.h>

namespace seed {

// add.s32 with operands in order, reordered, and repeated.
__device__ __forceinline__ int add_s32(int j, int k) {
  int i;
  asm("add.s32 %0, %1, %2;" : "=r"(i) : "r"(j), "r"(k));
  return i;
}

__device__ __forceinline__ int add_s32_reordered(int j, int k) {
  int i;
  asm("add.s32 %0, %2, %1;" : "=r"(i) : "r"(k), "r"(j));
  return i;
}

__device__ __forceinline__ int add_s32_repeated(int k) {
  int i;
  asm("add.s32 %0, %1, %1;" : "=r"(i) : "r"(k));
  return i;
}

__device__ __forceinline__ long long add_s64(long long y, long long z) {
  long long x;
  asm("add.s64 %0, %1, %2;" : "=l"(x) : "l"(y), "l"(z));
  return x;
}

__device__ __forceinline__ unsigned mul_lo_u32(unsigned a, unsigned b) {
  unsigned d;
  asm("mul.lo.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

__device__ __forceinline__ short sub_s16(short a, short b) {
  short d;
  asm("sub.s16 %0, %1, %2;" : "=h"(d) : "h"(a), "h"(b));
  return d;
}

// mov with no inputs.
__device__ __forceinline__ int mov_two() {
  int i;
  asm("mov.s32 %0, 2;" : "=r"(i));
  return i;
}

// Reading the cycle counter.
__device__ __forceinline__ unsigned read_clock() {
  unsigned x;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(x));
  return x;
}

// The cube routine: a scoped temporary register.
__device__ __forceinline__ unsigned cube(unsigned x) {
  unsigned y;
  asm("{\n\t"
      " .reg .u32 t1;\n\t"
      " mul.lo.u32 t1, %1, %1;\n\t"
      " mul.lo.u32 %0, t1, %1;\n\t"
      "}"
      : "=r"(y)
      : "r"(x));
  return y;
}

// The conditional routine: increment y when x == 34.
__device__ __forceinline__ int conditional_increment(int y, int x) {
  asm("{\n\t"
      " .reg .pred p;\n\t"
      " setp.eq.s32 p, %1, 34;\n\t"
      " @p add.s32 %0, %0, 1;\n\t"
      "}"
      : "+r"(y)
      : "r"(x));
  return y;
}

// 64-bit integer to float, "l" constraint.
__device__ __forceinline__ float s64_to_f32(long long y) {
  float x;
  // The guide writes `cvt.f32.s64`; ptxas (nvcc 13, sm_90) rejects an int-to-float cvt without a
  // rounding modifier, so real code spells the round-to-nearest it gets.
  asm("cvt.rn.f32.s64 %0, %1;" : "=f"(x) : "l"(y));
  return x;
}

// An immediate through the "n" constraint.
__device__ __forceinline__ unsigned add_42(unsigned x) {
  asm("add.u32 %0, %0, %1;" : "+r"(x) : "n"(42));
  return x;
}

// Memory: a byte load, a store and a fence, all with the "memory" clobber.
__device__ __forceinline__ unsigned load_u8(const unsigned char* p) {
  unsigned x;
  asm volatile("ld.u8 %0, [%1];" : "=r"(x) : "l"(p) : "memory");
  return x;
}

__device__ __forceinline__ void store_u32(unsigned* p, unsigned x) {
  asm volatile("st.u32 [%0], %1;" : : "l"(p), "r"(x) : "memory");
}

__device__ __forceinline__ void fence_gl() {
  asm volatile("membar.gl;" ::: "memory");
}

// The "C" constraint: the rounding modifier comes from a compile-time string.
constexpr int mode_rz = 0;
constexpr int mode_rn = 1;

template <int mode>
struct helper;

template <>
struct helper<mode_rz> {
  static constexpr const char mode[] = ".rz";
};

template <>
struct helper<mode_rn> {
  static constexpr const char mode[] = ".rn";
};

template <int rounding_mode>
__device__ float compute_add(float a, float b) {
  float result;
  asm("add.f32%1 %0,%2,%3;" : "=f"(result) : "C"(helper<rounding_mode>::mode), "f"(a), "f"(b));
  return result;
}

}  // namespace seed

struct SeedIn {
  int i0, i1;
  long long l0, l1;
  float f0, f1;
  unsigned u0;
  short s0, s1;
};

struct SeedOut {
  int add, add_reordered, add_repeated, mov2, cond;
  long long add64;
  unsigned mul, clock_nonzero, cube, add42, byte, stored;
  short sub16;
  float cvt, add_rn, add_rz;
};

__global__ void seed_examples_kernel(const SeedIn* in, const unsigned char* bytes, SeedOut* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const SeedIn a = in[t];
  SeedOut r;
  r.add = seed::add_s32(a.i0, a.i1);
  r.add_reordered = seed::add_s32_reordered(a.i0, a.i1);
  r.add_repeated = seed::add_s32_repeated(a.i1);
  r.add64 = seed::add_s64(a.l0, a.l1);
  r.mul = seed::mul_lo_u32(a.u0, (unsigned)a.i0);
  r.sub16 = seed::sub_s16(a.s0, a.s1);
  r.mov2 = seed::mov_two();
  unsigned c0 = seed::read_clock();
  unsigned c1 = seed::read_clock();
  r.clock_nonzero = (c0 | c1) != 0u;
  r.cube = seed::cube(a.u0);
  r.cond = seed::conditional_increment(a.i0, a.i1);
  r.cvt = seed::s64_to_f32(a.l0);
  r.add42 = seed::add_42(a.u0);
  r.byte = seed::load_u8(bytes + t);
  seed::store_u32(&r.stored, a.u0 ^ 0x5a5a5a5au);
  seed::fence_gl();
  r.add_rn = seed::compute_add<seed::mode_rn>(a.f0, a.f1);
  r.add_rz = seed::compute_add<seed::mode_rz>(a.f0, a.f1);
  out[t] = r;
}
