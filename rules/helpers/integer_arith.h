// Helpers of rules/integer_arith.toml (markers: rules/README.md, "Helpers").

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

// ptx2hip:helper ptx2hip_add_sat_s32
// add.sat.s32: the exact sum clamped to the int32_t range.
__device__ inline int32_t ptx2hip_add_sat_s32(int32_t a, int32_t b) {
  int64_t s = (int64_t)a + b;
  return (int32_t)(s > 2147483647 ? 2147483647 : s < -2147483647 - 1 ? -2147483647 - 1 : s);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_sub_sat_s32
// sub.sat.s32: the exact difference clamped to the int32_t range.
__device__ inline int32_t ptx2hip_sub_sat_s32(int32_t a, int32_t b) {
  int64_t s = (int64_t)a - b;
  return (int32_t)(s > 2147483647 ? 2147483647 : s < -2147483647 - 1 ? -2147483647 - 1 : s);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_add_16x2
// add.u16x2 / add.s16x2: independent 16-bit lane sums.
__device__ inline uint32_t ptx2hip_add_16x2(uint32_t a, uint32_t b) {
  return ((a + b) & 0xffffu) | (((a >> 16) + (b >> 16)) << 16);
}
// ptx2hip:amd
// add.u16x2 / add.s16x2: independent 16-bit lane sums (v_pk_add_u16).
__device__ inline uint32_t ptx2hip_add_16x2(uint32_t a, uint32_t b) {
  typedef unsigned short v2 __attribute__((ext_vector_type(2)));
  return __builtin_bit_cast(uint32_t, __builtin_bit_cast(v2, a) + __builtin_bit_cast(v2, b));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_addc
// a + b + cin (cin is 0 or 1); *cout receives the carry out (0 or 1).
__device__ inline uint32_t ptx2hip_addc(uint32_t a, uint32_t b, uint32_t cin, uint32_t* cout) {
  uint32_t s = a + b;
  uint32_t r = s + cin;
  *cout = (uint32_t)(s < a) | (uint32_t)(r < s);
  return r;
}
__device__ inline uint64_t ptx2hip_addc(uint64_t a, uint64_t b, uint32_t cin, uint32_t* cout) {
  uint64_t s = a + b;
  uint64_t r = s + cin;
  *cout = (uint32_t)(s < a) | (uint32_t)(r < s);
  return r;
}
// ptx2hip:amd
// a + b + cin (cin is 0 or 1); *cout receives the carry out (0 or 1). A chain becomes
// v_add_co_u32 / v_addc_co_u32 with the carry in VCC; 64-bit values as two 32-bit links (LLVM
// does not chain 64-bit carries by itself).
__device__ inline uint32_t ptx2hip_addc(uint32_t a, uint32_t b, uint32_t cin, uint32_t* cout) {
  unsigned int carry;
  uint32_t r = __builtin_addc(a, b, cin, &carry);
  *cout = carry;
  return r;
}
__device__ inline uint64_t ptx2hip_addc(uint64_t a, uint64_t b, uint32_t cin, uint32_t* cout) {
  uint32_t mid;
  uint32_t lo = ptx2hip_addc((uint32_t)a, (uint32_t)b, cin, &mid);
  uint32_t hi = ptx2hip_addc((uint32_t)(a >> 32), (uint32_t)(b >> 32), mid, cout);
  return ((uint64_t)hi << 32) | lo;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_subc
// a - b - (1 - cin) with NVIDIA's carry polarity: cin and *cout are 1 when there is NO borrow
// (the carry of a + ~b + cin).
__device__ inline uint32_t ptx2hip_subc(uint32_t a, uint32_t b, uint32_t cin, uint32_t* cout) {
  uint32_t borrow_in = 1u - cin;
  uint32_t s = a - b;
  *cout = (uint32_t)(a >= b) & (uint32_t)(s >= borrow_in);
  return s - borrow_in;
}
__device__ inline uint64_t ptx2hip_subc(uint64_t a, uint64_t b, uint32_t cin, uint32_t* cout) {
  uint64_t borrow_in = 1u - cin;
  uint64_t s = a - b;
  *cout = (uint32_t)(a >= b) & (uint32_t)(s >= borrow_in);
  return s - borrow_in;
}
// ptx2hip:amd
// a - b - (1 - cin) with NVIDIA's carry polarity: cin and *cout are 1 when there is NO borrow.
// __builtin_subc (v_sub_co_u32 / v_subb_co_u32) works with a true borrow, hence the inversions;
// 64-bit values as two 32-bit links.
__device__ inline uint32_t ptx2hip_subc(uint32_t a, uint32_t b, uint32_t cin, uint32_t* cout) {
  unsigned int borrow;
  uint32_t r = __builtin_subc(a, b, 1u - cin, &borrow);
  *cout = 1u - borrow;
  return r;
}
__device__ inline uint64_t ptx2hip_subc(uint64_t a, uint64_t b, uint32_t cin, uint32_t* cout) {
  uint32_t mid;
  uint32_t lo = ptx2hip_subc((uint32_t)a, (uint32_t)b, cin, &mid);
  uint32_t hi = ptx2hip_subc((uint32_t)(a >> 32), (uint32_t)(b >> 32), mid, cout);
  return ((uint64_t)hi << 32) | lo;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mul_lo
// The low half of the product (the same bits for signed and unsigned types).
template <class T>
__device__ inline T ptx2hip_mul_lo(T a, T b) {
  return (T)((unsigned long long)a * (unsigned long long)b);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mul_hi
// The high half of the full product, signed for signed types.
__device__ inline uint16_t ptx2hip_mul_hi(uint16_t a, uint16_t b) {
  return (uint16_t)(((uint32_t)a * b) >> 16);
}
__device__ inline int16_t ptx2hip_mul_hi(int16_t a, int16_t b) {
  return (int16_t)(((int32_t)a * b) >> 16);
}
__device__ inline uint32_t ptx2hip_mul_hi(uint32_t a, uint32_t b) {
  return (uint32_t)(((uint64_t)a * b) >> 32);
}
__device__ inline int32_t ptx2hip_mul_hi(int32_t a, int32_t b) {
  return (int32_t)(((int64_t)a * b) >> 32);
}
__device__ inline uint64_t ptx2hip_mul_hi(uint64_t a, uint64_t b) {
  return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
__device__ inline int64_t ptx2hip_mul_hi(int64_t a, int64_t b) {
  /* 32x32-bit pieces, high words signed; no intermediate can overflow. */
  uint64_t a0 = (uint32_t)a, b0 = (uint32_t)b;
  int64_t a1 = a >> 32, b1 = b >> 32;
  int64_t t = a1 * (int64_t)b0 + (int64_t)((a0 * b0) >> 32);
  int64_t u = (t & 0xffffffff) + (int64_t)a0 * b1;
  return a1 * b1 + (t >> 32) + (u >> 32);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mad_hi_sat_s32 requires=ptx2hip_mul_hi
// mad.hi.sat.s32: high half of the product plus c, clamped to the int32_t range.
__device__ inline int32_t ptx2hip_mad_hi_sat_s32(int32_t a, int32_t b, int32_t c) {
  int64_t s = (int64_t)ptx2hip_mul_hi(a, b) + c;
  return (int32_t)(s > 2147483647 ? 2147483647 : s < -2147483647 - 1 ? -2147483647 - 1 : s);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mul24_lo
// mul24.lo: bits 31..0 of the product of the low 24 bits (sign-extended for s32).
__device__ inline uint32_t ptx2hip_mul24_lo(uint32_t a, uint32_t b) {
  return (a & 0xffffffu) * (b & 0xffffffu);
}
__device__ inline int32_t ptx2hip_mul24_lo(int32_t a, int32_t b) {
  int32_t x = (int32_t)((uint32_t)a << 8) >> 8, y = (int32_t)((uint32_t)b << 8) >> 8;
  return (int32_t)((uint32_t)x * (uint32_t)y);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mul24_hi
// mul24.hi: bits 47..16 (not 63..32) of the product of the low 24 bits (sign-extended for s32).
__device__ inline uint32_t ptx2hip_mul24_hi(uint32_t a, uint32_t b) {
  return (uint32_t)(((uint64_t)(a & 0xffffffu) * (b & 0xffffffu)) >> 16);
}
__device__ inline int32_t ptx2hip_mul24_hi(int32_t a, int32_t b) {
  int32_t x = (int32_t)((uint32_t)a << 8) >> 8, y = (int32_t)((uint32_t)b << 8) >> 8;
  return (int32_t)(((int64_t)x * y) >> 16);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mad24_hi_sat_s32 requires=ptx2hip_mul24_hi
// mad24.hi.sat.s32: mul24.hi.s32 plus c, clamped to the int32_t range.
__device__ inline int32_t ptx2hip_mad24_hi_sat_s32(int32_t a, int32_t b, int32_t c) {
  int64_t s = (int64_t)ptx2hip_mul24_hi(a, b) + c;
  return (int32_t)(s > 2147483647 ? 2147483647 : s < -2147483647 - 1 ? -2147483647 - 1 : s);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_sad
// sad: c + |a - b|, compared in the type's signedness, wrapping modulo 2^n.
__device__ inline uint16_t ptx2hip_sad(uint16_t a, uint16_t b, uint16_t c) {
  return (uint16_t)(c + (a > b ? a - b : b - a));
}
__device__ inline int16_t ptx2hip_sad(int16_t a, int16_t b, int16_t c) {
  return (int16_t)(uint16_t)((uint32_t)c + (a > b ? (uint32_t)(a - b) : (uint32_t)(b - a)));
}
__device__ inline uint32_t ptx2hip_sad(uint32_t a, uint32_t b, uint32_t c) {
  return c + (a > b ? a - b : b - a); /* v_sad_u32 */
}
__device__ inline int32_t ptx2hip_sad(int32_t a, int32_t b, int32_t c) {
  /* Flipping the sign bits maps the signed order onto the unsigned one; a - b is unchanged. */
  return (int32_t)ptx2hip_sad((uint32_t)a ^ 0x80000000u, (uint32_t)b ^ 0x80000000u, (uint32_t)c);
}
__device__ inline uint64_t ptx2hip_sad(uint64_t a, uint64_t b, uint64_t c) {
  return c + (a > b ? a - b : b - a);
}
__device__ inline int64_t ptx2hip_sad(int64_t a, int64_t b, int64_t c) {
  return (int64_t)((uint64_t)c + (a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_div
// div: truncating division that never divides by zero. b == 0 gives all ones (unsigned max, or
// -1), as NVIDIA sm_90 does; MIN / -1 wraps to MIN.
__device__ inline uint16_t ptx2hip_div(uint16_t a, uint16_t b) {
  uint16_t q = (uint16_t)(a / (b == 0 ? 1 : b));
  return b == 0 ? (uint16_t)0xffffu : q;
}
__device__ inline uint32_t ptx2hip_div(uint32_t a, uint32_t b) {
  uint32_t q = a / (b == 0 ? 1u : b);
  return b == 0 ? 0xffffffffu : q;
}
__device__ inline uint64_t ptx2hip_div(uint64_t a, uint64_t b) {
  return b == 0 ? ~(uint64_t)0 : a / b;
}
__device__ inline int16_t ptx2hip_div(int16_t a, int16_t b) {
  int32_t q = (int32_t)a / (b == 0 ? 1 : (int32_t)b); /* in int: -32768 / -1 does not overflow */
  return b == 0 ? (int16_t)-1 : (int16_t)(uint16_t)(uint32_t)q;
}
__device__ inline int32_t ptx2hip_div(int32_t a, int32_t b) {
  uint32_t ua = a < 0 ? 0u - (uint32_t)a : (uint32_t)a, ub = b < 0 ? 0u - (uint32_t)b : (uint32_t)b;
  uint32_t q = ua / (ub == 0 ? 1u : ub);
  return b == 0 ? -1 : (int32_t)((a < 0) != (b < 0) ? 0u - q : q);
}
__device__ inline int64_t ptx2hip_div(int64_t a, int64_t b) {
  uint64_t ua = a < 0 ? 0u - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0u - (uint64_t)b : (uint64_t)b;
  uint64_t q = ua / (ub == 0 ? 1u : ub);
  return b == 0 ? -1 : (int64_t)((a < 0) != (b < 0) ? 0u - q : q);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_rem
// rem: remainder of the truncating division (sign of a) that never divides by zero. b == 0
// gives all ones (unsigned max, or -1), as NVIDIA sm_90 does; MIN rem -1 is 0.
__device__ inline uint16_t ptx2hip_rem(uint16_t a, uint16_t b) {
  uint16_t r = (uint16_t)(a % (b == 0 ? 1 : b));
  return b == 0 ? (uint16_t)0xffffu : r;
}
__device__ inline uint32_t ptx2hip_rem(uint32_t a, uint32_t b) {
  uint32_t r = a % (b == 0 ? 1u : b);
  return b == 0 ? 0xffffffffu : r;
}
__device__ inline uint64_t ptx2hip_rem(uint64_t a, uint64_t b) {
  return b == 0 ? ~(uint64_t)0 : a % b;
}
__device__ inline int16_t ptx2hip_rem(int16_t a, int16_t b) {
  int32_t r = (int32_t)a % (b == 0 ? 1 : (int32_t)b);
  return b == 0 ? (int16_t)-1 : (int16_t)r;
}
__device__ inline int32_t ptx2hip_rem(int32_t a, int32_t b) {
  uint32_t ua = a < 0 ? 0u - (uint32_t)a : (uint32_t)a, ub = b < 0 ? 0u - (uint32_t)b : (uint32_t)b;
  uint32_t r = ua % (ub == 0 ? 1u : ub);
  return b == 0 ? -1 : (int32_t)(a < 0 ? 0u - r : r);
}
__device__ inline int64_t ptx2hip_rem(int64_t a, int64_t b) {
  uint64_t ua = a < 0 ? 0u - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0u - (uint64_t)b : (uint64_t)b;
  uint64_t r = ua % (ub == 0 ? 1u : ub);
  return b == 0 ? -1 : (int64_t)(a < 0 ? 0u - r : r);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_abs
// abs: |a| negated in unsigned arithmetic, so the most negative value stays itself.
__device__ inline int16_t ptx2hip_abs(int16_t a) {
  return (int16_t)(uint16_t)(a < 0 ? 0u - (uint32_t)a : (uint32_t)a);
}
__device__ inline int32_t ptx2hip_abs(int32_t a) {
  return (int32_t)(a < 0 ? 0u - (uint32_t)a : (uint32_t)a);
}
__device__ inline int64_t ptx2hip_abs(int64_t a) {
  return (int64_t)(a < 0 ? 0u - (uint64_t)a : (uint64_t)a);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_min
// Integer minimum in the operands' own type and signedness.
template <class T>
__device__ inline T ptx2hip_min(T a, T b) {
  return b < a ? b : a;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_max
// Integer maximum in the operands' own type and signedness.
template <class T>
__device__ inline T ptx2hip_max(T a, T b) {
  return a < b ? b : a;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_min_u16x2
// min.u16x2: lane-wise unsigned 16-bit minimum.
__device__ inline uint32_t ptx2hip_min_u16x2(uint32_t a, uint32_t b) {
  uint32_t a0 = a & 0xffffu, a1 = a >> 16, b0 = b & 0xffffu, b1 = b >> 16;
  return (b0 < a0 ? b0 : a0) | ((b1 < a1 ? b1 : a1) << 16);
}
// ptx2hip:amd
// min.u16x2: lane-wise unsigned 16-bit minimum (v_pk_min_u16).
__device__ inline uint32_t ptx2hip_min_u16x2(uint32_t a, uint32_t b) {
  typedef unsigned short v2 __attribute__((ext_vector_type(2)));
  return __builtin_bit_cast(
      uint32_t, __builtin_elementwise_min(__builtin_bit_cast(v2, a), __builtin_bit_cast(v2, b)));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_max_u16x2
// max.u16x2: lane-wise unsigned 16-bit maximum.
__device__ inline uint32_t ptx2hip_max_u16x2(uint32_t a, uint32_t b) {
  uint32_t a0 = a & 0xffffu, a1 = a >> 16, b0 = b & 0xffffu, b1 = b >> 16;
  return (a0 < b0 ? b0 : a0) | ((a1 < b1 ? b1 : a1) << 16);
}
// ptx2hip:amd
// max.u16x2: lane-wise unsigned 16-bit maximum (v_pk_max_u16).
__device__ inline uint32_t ptx2hip_max_u16x2(uint32_t a, uint32_t b) {
  typedef unsigned short v2 __attribute__((ext_vector_type(2)));
  return __builtin_bit_cast(
      uint32_t, __builtin_elementwise_max(__builtin_bit_cast(v2, a), __builtin_bit_cast(v2, b)));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_min_s16x2
// min.s16x2: lane-wise signed 16-bit minimum.
__device__ inline uint32_t ptx2hip_min_s16x2(uint32_t a, uint32_t b) {
  int32_t a0 = (int32_t)((a & 0xffffu) ^ 0x8000u) - 0x8000,
          a1 = (int32_t)((a >> 16) ^ 0x8000u) - 0x8000;
  int32_t b0 = (int32_t)((b & 0xffffu) ^ 0x8000u) - 0x8000,
          b1 = (int32_t)((b >> 16) ^ 0x8000u) - 0x8000;
  return ((uint32_t)(b0 < a0 ? b0 : a0) & 0xffffu) | ((uint32_t)(b1 < a1 ? b1 : a1) << 16);
}
// ptx2hip:amd
// min.s16x2: lane-wise signed 16-bit minimum (v_pk_min_i16).
__device__ inline uint32_t ptx2hip_min_s16x2(uint32_t a, uint32_t b) {
  typedef short v2 __attribute__((ext_vector_type(2)));
  return __builtin_bit_cast(
      uint32_t, __builtin_elementwise_min(__builtin_bit_cast(v2, a), __builtin_bit_cast(v2, b)));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_max_s16x2
// max.s16x2: lane-wise signed 16-bit maximum (with b = 0: the .relu clamp).
__device__ inline uint32_t ptx2hip_max_s16x2(uint32_t a, uint32_t b) {
  int32_t a0 = (int32_t)((a & 0xffffu) ^ 0x8000u) - 0x8000,
          a1 = (int32_t)((a >> 16) ^ 0x8000u) - 0x8000;
  int32_t b0 = (int32_t)((b & 0xffffu) ^ 0x8000u) - 0x8000,
          b1 = (int32_t)((b >> 16) ^ 0x8000u) - 0x8000;
  return ((uint32_t)(a0 < b0 ? b0 : a0) & 0xffffu) | ((uint32_t)(a1 < b1 ? b1 : a1) << 16);
}
// ptx2hip:amd
// max.s16x2: lane-wise signed 16-bit maximum (v_pk_max_i16; with b = 0: the .relu clamp).
__device__ inline uint32_t ptx2hip_max_s16x2(uint32_t a, uint32_t b) {
  typedef short v2 __attribute__((ext_vector_type(2)));
  return __builtin_bit_cast(
      uint32_t, __builtin_elementwise_max(__builtin_bit_cast(v2, a), __builtin_bit_cast(v2, b)));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_amd_dot_insts
// (AMD dot-product instruction sets: used by --target amd only)
// ptx2hip:amd
// AMD processors with the integer dot-product instructions (LLVM AMDGPU.td): dot1/dot2 (sdot4,
// sdot2) and dot7 (udot4) on gfx906/908/90a/94x/950 and gfx1011/1012/103x; dot7 and dot8
// (udot4, sudot4) on gfx11 and gfx12. Generic targets (gfx11-generic, ...) have none of them.
#if defined(__gfx906__) || defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx940__) ||  \
    defined(__gfx941__) || defined(__gfx942__) || defined(__gfx950__) || defined(__gfx1011__) || \
    defined(__gfx1012__) || defined(__gfx1030__) || defined(__gfx1031__) ||                      \
    defined(__gfx1032__) || defined(__gfx1033__) || defined(__gfx1034__) ||                      \
    defined(__gfx1035__) || defined(__gfx1036__)
#define PTX2HIP_AMD_DOT1 1
#endif
#if defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__) || \
    defined(__gfx1103__) || defined(__gfx1150__) || defined(__gfx1151__) || \
    defined(__gfx1152__) || defined(__gfx1153__) || defined(__gfx1200__) || defined(__gfx1201__)
#define PTX2HIP_AMD_DOT8 1
#endif
// ptx2hip:end

// ptx2hip:helper ptx2hip_dp4a requires=ptx2hip_amd_dot_insts,ptx2hip_sign
// dp4a: c + the four byte products of a and b (SA/SB: bytes signed), modulo 2^32.
template <bool SA, bool SB>
__device__ inline uint32_t ptx2hip_dp4a(uint32_t a, uint32_t b, uint32_t c) {
  for (int i = 0; i < 32; i += 8) {
    uint32_t x = (a >> i) & 0xffu, y = (b >> i) & 0xffu;
    if (SA) x = (x ^ 0x80u) - 0x80u; /* sign-extend modulo 2^32 */
    if (SB) y = (y ^ 0x80u) - 0x80u;
    c += x * y;
  }
  return c;
}
// ptx2hip:amd
// dp4a: c + the four byte products of a and b (SA/SB: bytes signed), modulo 2^32; the dot
// instruction of the processor when it has one (clamp false: PTX wraps).
template <bool SA, bool SB>
__device__ inline uint32_t ptx2hip_dp4a(uint32_t a, uint32_t b, uint32_t c) {
#if defined(PTX2HIP_AMD_DOT8)
  return (uint32_t)__builtin_amdgcn_sudot4(SA, (int)a, SB, (int)b, (int)c, false);
#else
#if defined(PTX2HIP_AMD_DOT1)
  if (SA && SB) return (uint32_t)__builtin_amdgcn_sdot4((int)a, (int)b, (int)c, false);
  if (!SA && !SB) return __builtin_amdgcn_udot4(a, b, c, false);
#endif
  for (int i = 0; i < 32; i += 8) {
    uint32_t x = (a >> i) & 0xffu, y = (b >> i) & 0xffu;
    if (SA) x = (x ^ 0x80u) - 0x80u; /* sign-extend modulo 2^32 */
    if (SB) y = (y ^ 0x80u) - 0x80u;
    c += x * y;
  }
  return c;
#endif
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_dp2a requires=ptx2hip_sign,ptx2hip_op
// dp2a: c + the 16-bit halves of a times bytes 0-1 (HI: 2-3) of b (SA/SB: signed), modulo 2^32.
template <bool HI, bool SA, bool SB>
__device__ inline uint32_t ptx2hip_dp2a(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t bb = HI ? b >> 16 : b;
  for (int i = 0; i < 2; i++) {
    uint32_t x = (a >> (16 * i)) & 0xffffu, y = (bb >> (8 * i)) & 0xffu;
    if (SA) x = (x ^ 0x8000u) - 0x8000u; /* sign-extend modulo 2^32 */
    if (SB) y = (y ^ 0x80u) - 0x80u;
    c += x * y;
  }
  return c;
}
// ptx2hip:end
