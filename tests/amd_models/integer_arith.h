// Models for testing the integer-arithmetic rules (rules/integer_arith.toml) without an AMD GPU.
//
// Two independent parts, plain C++ that clang++ compiles for the host and nvcc for the device:
//
// * `ptx_ref::` — the PTX semantics of every form, written from the PTX ISA text and the hardware
//   facts in shared/reference/ptx-to-amd.md, not from the rule templates. The GPU check
//   (tests/it/models_integer_arith.rs, `gpu_check_source`) runs each model next to the real PTX
//   instruction on an NVIDIA GPU; the CPU tests then compare every translation (portable, and AMD
//   per architecture) with them.
// * `PTX2HIP_AMD_MODELS`: host models of the AMD builtins the AMD templates call
//   (`__builtin_amdgcn_sdot4`, ...), written from the AMD ISA pseudo-code (CLRX GcnInstrsVop3.md,
//   V_DOT4_I32_I8 and friends; with clamp = 0 the sums wrap modulo 2^32), so that each processor's
//   branch of an AMD helper runs on the CPU: compile with `-D__gfx942__` (or another processor
//   macro) to take that processor's branch.
#pragma once
#include <stdint.h>

#if defined(__CUDACC__) || defined(__HIP__)
#define PTX_REF_FN __host__ __device__ inline
#else
#define PTX_REF_FN inline
#endif

namespace ptx_ref {

typedef unsigned __int128 u128;
typedef __int128 s128;

template <class T> struct uns;
template <> struct uns<uint16_t> { typedef uint16_t type; };
template <> struct uns<int16_t> { typedef uint16_t type; };
template <> struct uns<uint32_t> { typedef uint32_t type; };
template <> struct uns<int32_t> { typedef uint32_t type; };
template <> struct uns<uint64_t> { typedef uint64_t type; };
template <> struct uns<int64_t> { typedef uint64_t type; };

// ---- add / sub -----------------------------------------------------------------------------
template <class T> PTX_REF_FN T add(T a, T b) { return (T)((uint64_t)a + (uint64_t)b); }
template <class T> PTX_REF_FN T sub(T a, T b) { return (T)((uint64_t)a - (uint64_t)b); }
PTX_REF_FN int64_t clamp_s32(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v; }
PTX_REF_FN int32_t add_sat_s32(int32_t a, int32_t b) { return (int32_t)clamp_s32((int64_t)a + b); }
PTX_REF_FN int32_t sub_sat_s32(int32_t a, int32_t b) { return (int32_t)clamp_s32((int64_t)a - b); }

// Lane i of a packed 16x2 value, sign- or zero-extended, and packing back.
PTX_REF_FN int32_t lane16(uint32_t v, int i, bool sgn) {
  uint32_t h = (v >> (16 * i)) & 0xffffu;
  return sgn ? (int32_t)(int16_t)h : (int32_t)h;
}
PTX_REF_FN uint32_t pack16(int32_t lo, int32_t hi) {
  return ((uint32_t)lo & 0xffffu) | (((uint32_t)hi & 0xffffu) << 16);
}
PTX_REF_FN uint32_t add_16x2(uint32_t a, uint32_t b) {
  return pack16(lane16(a, 0, false) + lane16(b, 0, false), lane16(a, 1, false) + lane16(b, 1, false));
}

// ---- carry chains --------------------------------------------------------------------------
// Hardware polarity (ptx-to-amd.md, checked on an H100): the flag is the carry out of the
// addition; after sub.cc it is 1 when there was NO borrow, and subc computes a - b - !CF.
PTX_REF_FN uint32_t addc(uint32_t a, uint32_t b, uint32_t cin, uint32_t* cout) {
  uint64_t s = (uint64_t)a + b + cin;
  *cout = (uint32_t)(s >> 32);
  return (uint32_t)s;
}
PTX_REF_FN uint64_t addc(uint64_t a, uint64_t b, uint32_t cin, uint32_t* cout) {
  u128 s = (u128)a + b + cin;
  *cout = (uint32_t)(s >> 64);
  return (uint64_t)s;
}
PTX_REF_FN uint32_t subc(uint32_t a, uint32_t b, uint32_t cin, uint32_t* cout) {
  int64_t s = (int64_t)a - (int64_t)b - (int64_t)(1 - cin);
  *cout = s >= 0;
  return (uint32_t)(uint64_t)s;
}
PTX_REF_FN uint64_t subc(uint64_t a, uint64_t b, uint32_t cin, uint32_t* cout) {
  s128 s = (s128)a - (s128)b - (s128)(1 - cin);
  *cout = s >= 0;
  return (uint64_t)(u128)s;
}

// ---- mul / mad -----------------------------------------------------------------------------
template <class T> PTX_REF_FN T mul_lo(T a, T b) { return (T)((uint64_t)a * (uint64_t)b); }
PTX_REF_FN uint16_t mul_hi(uint16_t a, uint16_t b) { return (uint16_t)(((uint32_t)a * b) >> 16); }
PTX_REF_FN int16_t mul_hi(int16_t a, int16_t b) { return (int16_t)(((int32_t)a * b) >> 16); }
PTX_REF_FN uint32_t mul_hi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
PTX_REF_FN int32_t mul_hi(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * b) >> 32); }
PTX_REF_FN uint64_t mul_hi(uint64_t a, uint64_t b) { return (uint64_t)(((u128)a * b) >> 64); }
PTX_REF_FN int64_t mul_hi(int64_t a, int64_t b) { return (int64_t)(((s128)a * b) >> 64); }
PTX_REF_FN uint32_t mul_wide(uint16_t a, uint16_t b) { return (uint32_t)a * b; }
PTX_REF_FN int32_t mul_wide(int16_t a, int16_t b) { return (int32_t)a * b; }
PTX_REF_FN uint64_t mul_wide(uint32_t a, uint32_t b) { return (uint64_t)a * b; }
PTX_REF_FN int64_t mul_wide(int32_t a, int32_t b) { return (int64_t)a * b; }
template <class T> PTX_REF_FN T mad_lo(T a, T b, T c) { return add<T>(mul_lo<T>(a, b), c); }
template <class T> PTX_REF_FN T mad_hi(T a, T b, T c) { return add<T>(mul_hi(a, b), c); }
template <class T, class W> PTX_REF_FN W mad_wide(T a, T b, W c) { return add<W>(mul_wide(a, b), c); }
PTX_REF_FN int32_t mad_hi_sat_s32(int32_t a, int32_t b, int32_t c) {
  return (int32_t)clamp_s32((int64_t)mul_hi(a, b) + c);
}
// mad{.lo,.hi}.cc and madc{.lo,.hi}{.cc}: part of the product + c + CF; the carry is the one of
// that addition, unsigned whatever the type.
template <class T> PTX_REF_FN T madc(bool hi, T a, T b, T c, uint32_t cin, uint32_t* cout) {
  typedef typename uns<T>::type U;
  U part = hi ? (U)mul_hi(a, b) : (U)mul_lo<T>(a, b);
  return (T)addc(part, (U)c, cin, cout);
}

// ---- mul24 / mad24 -------------------------------------------------------------------------
// The low 24 bits of each operand, zero- or sign-extended; .hi returns product bits 47..16.
PTX_REF_FN int64_t op24(uint32_t v, bool sgn) {
  return sgn ? (int64_t)(((int32_t)(v << 8)) >> 8) : (int64_t)(v & 0xffffffu);
}
PTX_REF_FN uint32_t mul24(bool hi, bool sgn, uint32_t a, uint32_t b) {
  int64_t p = op24(a, sgn) * op24(b, sgn);
  return hi ? (uint32_t)(uint64_t)(p >> 16) : (uint32_t)(uint64_t)p;
}
PTX_REF_FN uint32_t mad24(bool hi, bool sgn, uint32_t a, uint32_t b, uint32_t c) {
  return mul24(hi, sgn, a, b) + c;
}
PTX_REF_FN int32_t mad24_hi_sat_s32(int32_t a, int32_t b, int32_t c) {
  return (int32_t)clamp_s32((int64_t)(int32_t)mul24(true, true, (uint32_t)a, (uint32_t)b) + c);
}

// ---- sad -----------------------------------------------------------------------------------
template <class T> PTX_REF_FN T sad(T a, T b, T c) { return add<T>(c, a < b ? sub<T>(b, a) : sub<T>(a, b)); }

// ---- div / rem -----------------------------------------------------------------------------
// PTX: "division by zero yields an unspecified, machine-specific value". An H100 (sm_90) returns
// all ones for both div and rem by zero, for every type and every a (the GPU check of
// tests/it/models_integer_arith.rs); the translations return the same, with no C++ undefined
// behaviour. The most negative value divided by -1 wraps to itself, remainder 0.
template <class T> PTX_REF_FN bool is_signed_type() { return (T)~(T)0 < 0; }
template <class T> PTX_REF_FN T div(T a, T b) {
  if (b == 0) return (T)~(T)0;
  if (is_signed_type<T>() && b == (T)-1) return (T)(0 - (typename uns<T>::type)a);
  return (T)(a / b);
}
template <class T> PTX_REF_FN T rem(T a, T b) {
  if (b == 0) return (T)~(T)0;
  if (is_signed_type<T>() && b == (T)-1) return 0;
  return (T)(a % b);
}

// ---- abs / neg / min / max -----------------------------------------------------------------
template <class T> PTX_REF_FN T abs(T a) { return a < 0 ? (T)(0 - (typename uns<T>::type)a) : a; }
template <class T> PTX_REF_FN T neg(T a) { return (T)(0 - (typename uns<T>::type)a); }
template <class T> PTX_REF_FN T min(T a, T b) { return a < b ? a : b; }
template <class T> PTX_REF_FN T max(T a, T b) { return a > b ? a : b; }
template <class T> PTX_REF_FN T relu(T a) { return a < 0 ? 0 : a; }
// Packed 16x2 min/max (sgn: lanes are s16), optionally with relu.
PTX_REF_FN uint32_t minmax_16x2(bool is_max, bool sgn, bool relu_, uint32_t a, uint32_t b) {
  int32_t r[2];
  for (int i = 0; i < 2; i++) {
    int32_t x = lane16(a, i, sgn), y = lane16(b, i, sgn);
    r[i] = is_max ? (x > y ? x : y) : (x < y ? x : y);
    if (relu_ && r[i] < 0) r[i] = 0;
  }
  return pack16(r[0], r[1]);
}

// ---- dp4a / dp2a ---------------------------------------------------------------------------
PTX_REF_FN int64_t byte_of(uint32_t v, int i, bool sgn) {
  uint32_t x = (v >> (8 * i)) & 0xffu;
  return sgn ? (int64_t)(int8_t)x : (int64_t)x;
}
PTX_REF_FN uint32_t dp4a(bool sa, bool sb, uint32_t a, uint32_t b, uint32_t c) {
  int64_t d = (int64_t)(sa || sb ? (int64_t)(int32_t)c : (int64_t)c);
  for (int i = 0; i < 4; i++) d += byte_of(a, i, sa) * byte_of(b, i, sb);
  return (uint32_t)(uint64_t)d;
}
PTX_REF_FN uint32_t dp2a(bool hi, bool sa, bool sb, uint32_t a, uint32_t b, uint32_t c) {
  int64_t d = (int64_t)(sa || sb ? (int64_t)(int32_t)c : (int64_t)c);
  int sel = hi ? 2 : 0;
  for (int i = 0; i < 2; i++) d += (int64_t)lane16(a, i, sa) * byte_of(b, sel + i, sb);
  return (uint32_t)(uint64_t)d;
}

}  // namespace ptx_ref

#if defined(PTX2HIP_AMD_MODELS)
// ---- AMD builtins, modelled on the host ----------------------------------------------------
// V_DOT4_I32_I8 / V_DOT4_U32_U8 / V_DOT4_I32_IU8 / V_DOT2_I32_I16: the sum of
// the lane products plus the accumulator; with clamp = 0 (the only value ptx2hip passes) the
// result wraps modulo 2^32. sudot4's booleans say whether each operand's bytes are signed.
static inline int64_t p2h_model_lane(uint32_t v, int bits, int i, bool sgn) {
  uint32_t x = (v >> (bits * i)) & ((1u << bits) - 1u);
  if (sgn && (x >> (bits - 1))) return (int64_t)x - ((int64_t)1 << bits);
  return (int64_t)x;
}
static inline uint32_t p2h_model_dot(int lanes, int bits, bool sa, uint32_t a, bool sb, uint32_t b, uint32_t c, bool clamp) {
  if (clamp) __builtin_trap();  // never generated: PTX wraps
  uint64_t acc = c;
  for (int i = 0; i < lanes; i++) acc += (uint64_t)(p2h_model_lane(a, bits, i, sa) * p2h_model_lane(b, bits, i, sb));
  return (uint32_t)acc;
}
typedef short p2h_model_short2 __attribute__((ext_vector_type(2)));
static inline uint32_t p2h_model_bits(p2h_model_short2 v) { return __builtin_bit_cast(uint32_t, v); }

#if defined(__gfx906__) || defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx940__) || \
    defined(__gfx941__) || defined(__gfx942__) || defined(__gfx950__) || defined(__gfx1011__) ||  \
    defined(__gfx1012__) || defined(__gfx1030__) || defined(__gfx1031__) || defined(__gfx1032__) || \
    defined(__gfx1033__) || defined(__gfx1034__) || defined(__gfx1035__) || defined(__gfx1036__)
static inline int __builtin_amdgcn_sdot4(int a, int b, int c, bool clamp) {
  return (int)p2h_model_dot(4, 8, true, (uint32_t)a, true, (uint32_t)b, (uint32_t)c, clamp);
}
static inline int __builtin_amdgcn_sdot2(p2h_model_short2 a, p2h_model_short2 b, int c, bool clamp) {
  return (int)p2h_model_dot(2, 16, true, p2h_model_bits(a), true, p2h_model_bits(b), (uint32_t)c, clamp);
}
#define P2H_MODEL_UDOT4 1
#endif
#if defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__) || defined(__gfx1103__) || \
    defined(__gfx1150__) || defined(__gfx1151__) || defined(__gfx1152__) || defined(__gfx1200__) ||  \
    defined(__gfx1201__)
static inline int __builtin_amdgcn_sudot4(bool sa, int a, bool sb, int b, int c, bool clamp) {
  return (int)p2h_model_dot(4, 8, sa, (uint32_t)a, sb, (uint32_t)b, (uint32_t)c, clamp);
}
#define P2H_MODEL_UDOT4 1
#endif
#if defined(P2H_MODEL_UDOT4)
static inline unsigned __builtin_amdgcn_udot4(unsigned a, unsigned b, unsigned c, bool clamp) {
  return p2h_model_dot(4, 8, false, a, false, b, c, clamp);
}
#endif
#endif  // PTX2HIP_AMD_MODELS
