// Integer arithmetic through inline PTX, in the style of multi-precision libraries (CGBN,
// sppark, ECC/ZK provers), int8 inference kernels and CUTLASS-like index math: carry chains,
// wide and high multiplies, 24-bit multiplies, dot products, saturating and packed arithmetic.
#include <stdint.h>

namespace mp {

// ---- multi-word add / sub: carry chains inside one asm statement -------------------------------

/// r = a + b over four 32-bit limbs; returns the carry out of the top limb.
__device__ __forceinline__ uint32_t add128(uint32_t r[4], const uint32_t a[4], const uint32_t b[4]) {
  uint32_t carry;
  asm volatile(
      "add.cc.u32  %0, %5, %9;\n\t"
      "addc.cc.u32 %1, %6, %10;\n\t"
      "addc.cc.u32 %2, %7, %11;\n\t"
      "addc.cc.u32 %3, %8, %12;\n\t"
      "addc.u32    %4, 0, 0;"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(carry)
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]));
  return carry;
}

/// r = a - b over three 64-bit limbs; returns 1 when a >= b (the flag after sub.cc is "no borrow").
__device__ __forceinline__ uint32_t sub192(uint64_t r[3], const uint64_t a[3], const uint64_t b[3]) {
  uint32_t no_borrow;
  asm("sub.cc.u64  %0, %4, %7;\n\t"
      "subc.cc.u64 %1, %5, %8;\n\t"
      "subc.cc.u64 %2, %6, %9;\n\t"
      "addc.u32    %3, 0, 0;"
      : "=l"(r[0]), "=l"(r[1]), "=l"(r[2]), "=r"(no_borrow)
      : "l"(a[0]), "l"(a[1]), "l"(a[2]), "l"(b[0]), "l"(b[1]), "l"(b[2]));
  return no_borrow;
}

/// Conditional subtraction of the modulus, as after a Montgomery step: x -= p when x >= p.
__device__ __forceinline__ void reduce_once(uint32_t x[2], const uint32_t p[2]) {
  asm("{\n\t"
      ".reg .u32 t0, t1, no_borrow;\n\t"
      ".reg .pred ge;\n\t"
      "sub.cc.u32 t0, %0, %2;\n\t"
      "subc.cc.u32 t1, %1, %3;\n\t"
      "addc.u32 no_borrow, 0, 0;\n\t"
      "setp.ne.u32 ge, no_borrow, 0;\n\t"
      "@ge mov.u32 %0, t0;\n\t"
      "@ge mov.u32 %1, t1;\n\t"
      "}"
      : "+r"(x[0]), "+r"(x[1])
      : "r"(p[0]), "r"(p[1]));
}

// ---- multi-word multiply ------------------------------------------------------------------------

/// [r3, r2, r1, r0] = [a1, a0] * [b1, b0], the PTX ISA's madc example.
__device__ __forceinline__ void mul64x64(uint32_t r[4], uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1) {
  asm("mul.lo.u32     %0, %4, %6;\n\t"
      "mul.hi.u32     %1, %4, %6;\n\t"
      "mad.lo.cc.u32  %1, %5, %6, %1;\n\t"
      "madc.hi.u32    %2, %5, %6, 0;\n\t"
      "mad.lo.cc.u32  %1, %4, %7, %1;\n\t"
      "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
      "addc.u32       %3, 0, 0;\n\t"
      "mad.lo.cc.u32  %2, %5, %7, %2;\n\t"
      "madc.hi.u32    %3, %5, %7, %3;"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
      : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
}

/// acc[0..1] += a * b with a 64-bit product, carrying into acc[2] (sppark-style accumulation).
__device__ __forceinline__ void mac64(uint64_t acc[3], uint64_t a, uint64_t b) {
  asm("mad.lo.cc.u64  %0, %3, %4, %0;\n\t"
      "madc.hi.cc.u64 %1, %3, %4, %1;\n\t"
      "addc.u64       %2, %2, 0;"
      : "+l"(acc[0]), "+l"(acc[1]), "+l"(acc[2])
      : "l"(a), "l"(b));
}

/// Signed 64-bit high product, as in fixed-point code.
__device__ __forceinline__ int64_t mulhi_s64(int64_t a, int64_t b) {
  int64_t r;
  asm("mul.hi.s64 %0, %1, %2;" : "=l"(r) : "l"(a), "l"(b));
  return r;
}

}  // namespace mp

namespace idx {

/// Division by an invariant divisor with a precomputed multiplier (CUTLASS FastDivmod style).
struct FastDivmod {
  uint32_t divisor, multiplier, shift;
  __device__ __forceinline__ void divmod(uint32_t& q, uint32_t& r, uint32_t x) const {
    uint32_t hi;
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(hi) : "r"(x), "r"(multiplier));
    q = shift ? hi >> shift : x;
    asm("mad.lo.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(q), "r"(-(int32_t)divisor), "r"(x));
  }
};

/// 64-bit element offset of a 32-bit row index times a 32-bit pitch.
__device__ __forceinline__ uint64_t row_offset(uint32_t row, uint32_t pitch, uint64_t base) {
  uint64_t off;
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(off) : "r"(row), "r"(pitch), "l"(base));
  return off;
}

/// Legacy 24-bit index arithmetic (grids below 2^24 threads).
__device__ __forceinline__ uint32_t linear_tid24(uint32_t block, uint32_t dim, uint32_t tid) {
  uint32_t r;
  asm("mad24.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(block), "r"(dim), "r"(tid));
  return r;
}

/// Hash bucket of a key; a zero bucket count is the caller's bug and gives all ones.
__device__ __forceinline__ uint32_t bucket(uint64_t key, uint64_t nbuckets) {
  uint64_t b;
  asm("rem.u64 %0, %1, %2;" : "=l"(b) : "l"(key), "l"(nbuckets));
  return (uint32_t)b;
}

}  // namespace idx

namespace q8 {

/// int8 dot product accumulate; the signedness of each operand is a template parameter and each
/// sign combination a macro, as in int8 GEMM micro-kernels.
#define Q8_DP4A_SS(d, a, b, c) asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define Q8_DP4A_SU(d, a, b, c) asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define Q8_DP4A_US(d, a, b, c) asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))

template <bool SignedA, bool SignedB>
__device__ __forceinline__ int32_t dot4(uint32_t a, uint32_t b, int32_t c) {
  int32_t d;
  if constexpr (SignedA && SignedB) {
    Q8_DP4A_SS(d, a, b, c);
  } else if constexpr (SignedA) {
    Q8_DP4A_SU(d, a, b, c);
  } else if constexpr (SignedB) {
    Q8_DP4A_US(d, a, b, c);
  } else {
    uint32_t u;
    asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(u) : "r"(a), "r"(b), "r"((uint32_t)c));
    d = (int32_t)u;
  }
  return d;
}

/// int16 x int8 dot product over the low and high byte pairs of w (dp2a.lo then dp2a.hi).
__device__ __forceinline__ int32_t dot2x2(uint32_t x01, uint32_t x23, uint32_t w, int32_t acc) {
  asm("{\n\t"
      "dp2a.lo.s32.s32 %0, %1, %3, %0;\n\t"
      "dp2a.hi.s32.s32 %0, %2, %3, %0;\n\t"
      "}"
      : "+r"(acc)
      : "r"(x01), "r"(x23), "r"(w));
  return acc;
}

/// Saturating accumulation of a requantised product into an int32 accumulator.
__device__ __forceinline__ int32_t acc_sat(int32_t acc, int32_t x, int32_t scale, int32_t bias) {
  asm("{\n\t"
      ".reg .s32 t;\n\t"
      "mad.hi.sat.s32 t, %1, %2, %3;\n\t"
      "add.sat.s32 %0, %0, t;\n\t"
      "}"
      : "+r"(acc)
      : "r"(x), "r"(scale), "r"(bias));
  return acc;
}

/// Packed int16 ReLU6-style clamp of two activations: min(max(x, y), six) per lane, then at least
/// 0 (packed forms take no immediates: ptxas rejects `max.s16x2 d, a, 0`).
__device__ __forceinline__ uint32_t relu6_s16x2(uint32_t x, uint32_t y, uint32_t six) {
  uint32_t r;
  asm("max.s16x2 %0, %1, %2;\n\t"
      "min.relu.s16x2 %0, %0, %3;"
      : "=&r"(r)
      : "r"(x), "r"(y), "r"(six));
  return r;
}

/// Packed residual add of two int16 pairs.
__device__ __forceinline__ uint32_t add_s16x2(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("add.s16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

}  // namespace q8

namespace vision {

/// Sum of absolute differences of a 4-pixel row (block matching), signed and unsigned pixels.
__device__ __forceinline__ uint32_t sad_row(const uint32_t* a, const uint32_t* b, uint32_t acc) {
#pragma unroll
  for (int i = 0; i < 4; ++i) asm("sad.u32 %0, %1, %2, %0;" : "+r"(acc) : "r"(a[i]), "r"(b[i]));
  return acc;
}

__device__ __forceinline__ int32_t sad_signed(int16_t a, int16_t b, int16_t acc) {
  int16_t r;
  asm("sad.s16 %0, %1, %2, %3;" : "=h"(r) : "h"(a), "h"(b), "h"(acc));
  return r;
}

/// L1 distance term with clamping: |a - b| limited to [0, limit].
__device__ __forceinline__ int32_t l1_clamped(int32_t a, int32_t b, int32_t limit) {
  int32_t r;
  asm("{\n\t"
      ".reg .s32 d;\n\t"
      "sub.s32 d, %1, %2;\n\t"
      "abs.s32 d, d;\n\t"
      "min.s32 %0, d, %3;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b), "r"(limit));
  return r;
}

/// Signed mean of two 24-bit fixed-point values scaled by a 24-bit factor (bits 47..16).
__device__ __forceinline__ int32_t scale24(int32_t x, int32_t factor) {
  int32_t r;
  asm("mul24.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(factor));
  return r;
}

}  // namespace vision

/// One thread per element: exercises every helper so that the translation compiles end to end.
__global__ void integer_arith_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ out,
                                     const uint64_t* __restrict__ in64, uint64_t* __restrict__ out64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t* v = in + 8 * i;
  uint32_t r[4];
  out[16 * i] = mp::add128(r, v, v + 4);
  mp::mul64x64(r, v[0], v[1], v[2], v[3]);
  out[16 * i + 1] = r[0] ^ r[1] ^ r[2] ^ r[3];
  uint32_t x[2] = {v[4], v[5]};
  mp::reduce_once(x, v + 6);
  out[16 * i + 2] = x[0] ^ x[1];

  const uint64_t* w = in64 + 6 * i;
  uint64_t s[3];
  out[16 * i + 3] = mp::sub192(s, w, w + 3);
  uint64_t acc[3] = {s[0], s[1], s[2]};
  mp::mac64(acc, w[0], w[1]);
  out64[4 * i] = acc[0] ^ acc[1] ^ acc[2];
  out64[4 * i + 1] = (uint64_t)mp::mulhi_s64((int64_t)w[2], (int64_t)w[3]);

  idx::FastDivmod fd{v[0] | 1u, v[1], v[2] & 31u};
  uint32_t q, rem;
  fd.divmod(q, rem, v[3]);
  out[16 * i + 4] = q + rem;
  out64[4 * i + 2] = idx::row_offset(v[4], v[5], w[4]);
  out[16 * i + 5] = idx::linear_tid24(blockIdx.x, blockDim.x, threadIdx.x);
  out[16 * i + 6] = idx::bucket(w[5], w[0]);

  out[16 * i + 7] = (uint32_t)q8::dot4<true, true>(v[0], v[1], (int32_t)v[2]);
  out[16 * i + 8] = (uint32_t)q8::dot4<true, false>(v[0], v[1], (int32_t)v[2]);
  out[16 * i + 9] = (uint32_t)q8::dot4<false, true>(v[0], v[1], (int32_t)v[2]);
  out[16 * i + 10] = (uint32_t)q8::dot4<false, false>(v[0], v[1], (int32_t)v[2]);
  out[16 * i + 11] = (uint32_t)q8::dot2x2(v[3], v[4], v[5], (int32_t)v[6]);
  out[16 * i + 12] = (uint32_t)q8::acc_sat((int32_t)v[0], (int32_t)v[1], (int32_t)v[2], (int32_t)v[3]);
  out[16 * i + 13] = q8::relu6_s16x2(v[4], v[7], 0x00060006u) ^ q8::add_s16x2(v[5], v[6]);

  out[16 * i + 14] = vision::sad_row(v, v + 4, 0u) + (uint32_t)vision::sad_signed((int16_t)v[0], (int16_t)v[1], 7);
  out[16 * i + 15] = (uint32_t)(vision::l1_clamped((int32_t)v[2], (int32_t)v[3], 255) + vision::scale24((int32_t)v[4], (int32_t)v[5]));
}
