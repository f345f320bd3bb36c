// Host models of AMD GPU builtins, so `--target amd` translations can be replayed against the
// golden vectors on a CPU (crates/ptx2hip-verify/tests/it/golden.rs). Each model is written from the ISA pseudo-code
// (AMD "Vega"/CDNA3 ISA reference, VOP3 section; CLRX doc/GcnInstrsVop3.md), not from HIP headers.
// Include after the host shim of ptx2hip_verify::golden (needs <cstdint>, <math.h>).
#pragma once

// V_PERM_B32 (gfx8+): D.byte[i] = perm({S0, S1}, S2.byte[i]); S0 is the HIGH word (bytes 4..7),
// S1 the low word (bytes 0..3). Selector: 0..7 byte; 8,9,10,11 = sign of byte 1,3,5,7 replicated
// (0x00 or 0xff); 12 = 0x00; >= 13 = 0xff.
static inline uint32_t __builtin_amdgcn_perm(uint32_t s0, uint32_t s1, uint32_t sel) {
  uint64_t in = ((uint64_t)s0 << 32) | s1;
  uint32_t d = 0;
  for (int i = 0; i < 4; i++) {
    uint32_t s = (sel >> (8 * i)) & 0xff, b;
    if (s <= 7) b = (uint32_t)(in >> (8 * s)) & 0xff;
    else if (s <= 11) b = ((in >> (8 * (2 * (s - 8) + 1) + 7)) & 1) ? 0xff : 0x00;
    else if (s == 12) b = 0x00;
    else b = 0xff;
    d |= b << (8 * i);
  }
  return d;
}

// V_BFE_U32: D = (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1). Offset and width use 5 bits only.
static inline uint32_t __builtin_amdgcn_ubfe(uint32_t s0, uint32_t s1, uint32_t s2) {
  uint32_t off = s1 & 31, w = s2 & 31;
  return (s0 >> off) & ((1u << w) - 1u);
}

// V_BFE_I32: as V_BFE_U32 then sign-extended from bit width-1; width 0 gives 0.
static inline int32_t __builtin_amdgcn_sbfe(int32_t s0, uint32_t s1, uint32_t s2) {
  uint32_t off = s1 & 31, w = s2 & 31;
  if (w == 0) return 0;
  uint32_t f = ((uint32_t)s0 >> off) & ((1u << w) - 1u);
  uint32_t sign = 1u << (w - 1);
  return (int32_t)((f ^ sign) - sign);
}

// V_ALIGNBIT_B32: D = ({S0, S1} >> S2[4:0]) & 0xffffffff (S0 high word).
static inline uint32_t __builtin_amdgcn_alignbit(uint32_t s0, uint32_t s1, uint32_t s2) {
  return (uint32_t)((((uint64_t)s0 << 32) | s1) >> (s2 & 31));
}

// V_MED3_F32: if any input is NaN, D = min3 (V_MIN_F32 returns the non-NaN operand); otherwise
// the median: max3 == S0 -> max(S1, S2), max3 == S1 -> max(S0, S2), else max(S0, S1).
static inline float __builtin_amdgcn_fmed3f(float a, float b, float c) {
  if (a != a || b != b || c != c) return fminf(fminf(a, b), c);
  float mx = fmaxf(fmaxf(a, b), c);
  if (mx == a) return fmaxf(b, c);
  if (mx == b) return fmaxf(a, c);
  return fmaxf(a, b);
}

// Edge cases of each model, from the ISA definitions; returns the number of failures.
// V_LERP_U8: per byte, (S0.byte + S1.byte + (S2.byte & 1)) >> 1 (unsigned average, rounding bit
// from S2).
static inline uint32_t __builtin_amdgcn_lerp(uint32_t s0, uint32_t s1, uint32_t s2) {
  uint32_t d = 0;
  for (int i = 0; i < 32; i += 8) {
    uint32_t a = (s0 >> i) & 0xffu, b = (s1 >> i) & 0xffu, c = (s2 >> i) & 1u;
    d |= ((a + b + c) >> 1) << i;
  }
  return d;
}

// V_SAD_U8: sum over the four bytes of |S0.byte - S1.byte|, plus S2.
static inline uint32_t __builtin_amdgcn_sad_u8(uint32_t s0, uint32_t s1, uint32_t s2) {
  uint32_t d = s2;
  for (int i = 0; i < 32; i += 8) {
    int a = (int)((s0 >> i) & 0xffu), b = (int)((s1 >> i) & 0xffu);
    d += (uint32_t)(a > b ? a - b : b - a);
  }
  return d;
}

// V_ALIGNBYTE_B32: ({S0, S1} >> (8 * (S2 & 3)))[31:0], S0 the high word.
static inline uint32_t __builtin_amdgcn_alignbyte(uint32_t s0, uint32_t s1, uint32_t s2) {
  return (uint32_t)((((uint64_t)s0 << 32) | s1) >> (8u * (s2 & 3u)));
}

// HIP scoped atomics and AMDGPU memory builtins, single-threaded: the golden check runs one
// thread, so an atomic is its read-modify-write on memory and orders, scopes and fences change no
// value (the litmus runs check those, docs/MEMORY_MODEL.md). Scope constants as in HIP's headers.
// (clang has the __hip_atomic builtins on every target: they are only modelled for other compilers.)
#ifndef __HIP_MEMORY_SCOPE_AGENT
#define __HIP_MEMORY_SCOPE_SINGLETHREAD 1
#define __HIP_MEMORY_SCOPE_WAVEFRONT 2
#define __HIP_MEMORY_SCOPE_WORKGROUP 3
#define __HIP_MEMORY_SCOPE_AGENT 4
#define __HIP_MEMORY_SCOPE_SYSTEM 5
#endif
#if !defined(__has_builtin) || !__has_builtin(__hip_atomic_load)
template <class T> static inline T __hip_atomic_load(T* p, int, int) { return *p; }
template <class T> static inline void __hip_atomic_store(T* p, T v, int, int) { *p = v; }
template <class T> static inline T __hip_atomic_fetch_add(T* p, T v, int, int) { T o = *p; *p = (T)(o + v); return o; }
template <class T> static inline T __hip_atomic_fetch_min(T* p, T v, int, int) { T o = *p; *p = v < o ? v : o; return o; }
template <class T> static inline T __hip_atomic_fetch_max(T* p, T v, int, int) { T o = *p; *p = v > o ? v : o; return o; }
template <class T> static inline T __hip_atomic_fetch_and(T* p, T v, int, int) { T o = *p; *p = o & v; return o; }
template <class T> static inline T __hip_atomic_fetch_or(T* p, T v, int, int) { T o = *p; *p = o | v; return o; }
template <class T> static inline T __hip_atomic_fetch_xor(T* p, T v, int, int) { T o = *p; *p = o ^ v; return o; }
template <class T> static inline T __hip_atomic_exchange(T* p, T v, int, int) { T o = *p; *p = v; return o; }
template <class T> static inline bool __hip_atomic_compare_exchange_strong(T* p, T* expected, T desired, int, int, int) {
  if (memcmp(p, expected, sizeof(T)) == 0) { *p = desired; return true; }
  *expected = *p;
  return false;
}
template <class T> static inline bool __hip_atomic_compare_exchange_weak(T* p, T* expected, T desired, int a, int b, int c) {
  return __hip_atomic_compare_exchange_strong(p, expected, desired, a, b, c);
}
#endif
// FLAT/GLOBAL_ATOMIC_INC: tmp = MEM; MEM = (tmp >= DATA) ? 0 : tmp + 1; DEC: MEM = (tmp == 0 ||
// tmp > DATA) ? DATA : tmp - 1 (CDNA3 ISA, flat/global atomics).
static inline uint32_t __builtin_amdgcn_atomic_inc32(volatile uint32_t* p, uint32_t v, int, const char*) {
  uint32_t o = *p; *p = o >= v ? 0u : o + 1u; return o;
}
static inline uint32_t __builtin_amdgcn_atomic_dec32(volatile uint32_t* p, uint32_t v, int, const char*) {
  uint32_t o = *p; *p = (o == 0u || o > v) ? v : o - 1u; return o;
}
static inline void __builtin_amdgcn_fence(int, const char*) {}
// The golden buffers are global memory.
static inline bool __builtin_amdgcn_is_shared(const void*) { return false; }

// V_EXP_F32: 2^S0 within 1 ULP; results below 2^-126 flush to +0 (no denormal output). The
// helpers that call it are exact for any result within 2 ulp (tests/it/models_half_approx.rs), so the
// host's exp2f stands for it.
static inline float __builtin_amdgcn_exp2f(float x) {
  float r = exp2f(x);
  return r < 0x1p-126f ? 0.0f : r;
}

#if defined(__clang__)
// V_CVT_PKRTZ_F16_F32: both sources converted to f16 rounding toward zero (denormals kept, as in
// the HIP default MODE), S0 in the low half. Integer truncation of the significand; NaN -> quiet
// NaN with the top fraction bits, overflow -> 65504 (toward zero).
typedef _Float16 ptx2hip_model_half2 __attribute__((ext_vector_type(2)));
static inline uint16_t ptx2hip_model_f16_rtz(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  uint16_t s = (uint16_t)((u >> 16) & 0x8000u);
  uint32_t e = (u >> 23) & 0xffu, m = u & 0x7fffffu;
  if (e == 0xffu) return (uint16_t)(s | 0x7c00u | (m ? 0x200u | (m >> 13) : 0u));
  if (e >= 143) return (uint16_t)(s | 0x7bffu);          /* |x| >= 65536 */
  if (e >= 113) return (uint16_t)(s | ((e - 112) << 10) | (m >> 13));
  if (e < 103) return s;                                 /* below 2^-24 */
  return (uint16_t)(s | ((m | 0x800000u) >> (126 - e)));  /* f16 subnormal */
}
static inline ptx2hip_model_half2 __builtin_amdgcn_cvt_pkrtz(float a, float b) {
  uint16_t lo = ptx2hip_model_f16_rtz(a), hi = ptx2hip_model_f16_rtz(b);
  ptx2hip_model_half2 r;
  r[0] = __builtin_bit_cast(_Float16, lo);
  r[1] = __builtin_bit_cast(_Float16, hi);
  return r;
}
#endif

static inline int ptx2hip_amd_models_self_test() {
  int bad = 0;
#define P2H_EXPECT(e) do { if (!(e)) { printf("FAIL %s\n", #e); bad++; } } while (0)
  P2H_EXPECT(__builtin_amdgcn_perm(0x77665544u, 0x33221100u, 0x07060504u) == 0x77665544u);
  P2H_EXPECT(__builtin_amdgcn_perm(0x77665544u, 0x33221100u, 0x03020100u) == 0x33221100u);
  P2H_EXPECT(__builtin_amdgcn_perm(0x80000000u, 0x00008000u, 0x0b0a0908u) == 0xff0000ffu);
  P2H_EXPECT(__builtin_amdgcn_perm(0u, 0u, 0x0c0d0eff) == 0x00ffffffu);
  P2H_EXPECT(__builtin_amdgcn_ubfe(0xf0f0f0f0u, 4, 8) == 0x0fu);
  P2H_EXPECT(__builtin_amdgcn_ubfe(0xffffffffu, 0, 32) == 0u);     /* width 32 & 31 = 0 */
  P2H_EXPECT(__builtin_amdgcn_ubfe(0x80000000u, 63, 1) == 1u);     /* offset 63 & 31 = 31 */
  P2H_EXPECT(__builtin_amdgcn_sbfe((int32_t)0x00000080, 4, 4) == -8);
  P2H_EXPECT(__builtin_amdgcn_sbfe((int32_t)0x00000070, 4, 4) == 7);
  P2H_EXPECT(__builtin_amdgcn_sbfe(-1, 3, 0) == 0);
  P2H_EXPECT(__builtin_amdgcn_alignbit(0x11223344u, 0x55667788u, 8) == 0x44556677u);
  P2H_EXPECT(__builtin_amdgcn_alignbit(0x11223344u, 0x55667788u, 0) == 0x55667788u);
  P2H_EXPECT(__builtin_amdgcn_alignbit(0x11223344u, 0x55667788u, 32) == 0x55667788u); /* 32 & 31 = 0 */
  P2H_EXPECT(__builtin_amdgcn_fmed3f(1.0f, 3.0f, 2.0f) == 2.0f);
  P2H_EXPECT(__builtin_amdgcn_fmed3f(-5.0f, 0.0f, -7.0f) == -5.0f);
  P2H_EXPECT(__builtin_amdgcn_fmed3f(NAN, 3.0f, 2.0f) == 2.0f);
  P2H_EXPECT(__builtin_amdgcn_fmed3f(INFINITY, -INFINITY, 0.0f) == 0.0f);
  P2H_EXPECT(__builtin_amdgcn_exp2f(-130.0f) == 0.0f);
  P2H_EXPECT(__builtin_amdgcn_exp2f(3.0f) == 8.0f);
#if defined(__clang__)
  P2H_EXPECT(ptx2hip_model_f16_rtz(1.0f) == 0x3c00u);
  P2H_EXPECT(ptx2hip_model_f16_rtz(0.99999994f) == 0x3bffu);
  P2H_EXPECT(ptx2hip_model_f16_rtz(-65535.0f) == 0xfbffu);
  P2H_EXPECT(ptx2hip_model_f16_rtz(0x1.fffffep-15f) == 0x03ffu); /* largest f16 subnormal */
  P2H_EXPECT(ptx2hip_model_f16_rtz(0x1.8p-24f) == 0x0001u);
  P2H_EXPECT(ptx2hip_model_f16_rtz(0x1p-25f) == 0x0000u);
#endif
#undef P2H_EXPECT
  return bad;
}
