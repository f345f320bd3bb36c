// Helpers of rules/convert.toml (markers: rules/README.md, "Helpers").

// ---------------------------------------------------------------------------------------------
// Helpers

// ptx2hip:helper ptx2hip_fp_round
/* Exact rounding of (-1)^s * m * 2^e into a binary format with mb fraction bits and eb exponent bits
   (bias 2^(eb-1) - 1, subnormals), whose largest finite encoding is maxenc. mode: 0 nearest even,
   1 toward zero, 2 toward -inf, 3 toward +inf, 4 nearest away. Integer operations only. Overflow
   gives max finite when sat or when the mode rounds toward zero, infinity otherwise. The result has
   the sign at bit eb + mb. */
__device__ inline uint64_t ptx2hip_fp_round(uint32_t s, uint64_t m, int e, int mb, int eb,
                                            uint64_t maxenc, bool sat, int mode) {
  uint64_t sign = (uint64_t)s << (eb + mb);
  if (m == 0) return sign;
  int p = 0;
  uint64_t t = m;
  if (t >> 32) {
    t >>= 32;
    p += 32;
  }
  if (t >> 16) {
    t >>= 16;
    p += 16;
  }
  if (t >> 8) {
    t >>= 8;
    p += 8;
  }
  if (t >> 4) {
    t >>= 4;
    p += 4;
  }
  if (t >> 2) {
    t >>= 2;
    p += 2;
  }
  if (t >> 1) { p += 1; }
  int bias = (1 << (eb - 1)) - 1;
  int top = p + e; /* exponent of the leading one */
  int emin = 1 - bias;
  bool overflow = top > (int)(maxenc >> mb) - bias;
  uint64_t enc = 0;
  if (!overflow) {
    int q = (top > emin ? top : emin) - mb; /* exponent of the last kept bit */
    int shift = q - e;
    uint64_t sig;
    if (shift <= 0) {
      sig = m << (-shift);
    } else {
      sig = shift >= 64 ? 0 : m >> shift;
      uint64_t rem = shift >= 64 ? m : m & ((1ull << shift) - 1);
      int cmp = shift > 64
                    ? -1
                    : (rem < (1ull << (shift - 1)) ? -1 : (rem == (1ull << (shift - 1)) ? 0 : 1));
      bool up = mode == 0   ? (cmp > 0 || (cmp == 0 && (sig & 1)))
                : mode == 4 ? cmp >= 0
                : mode == 2 ? (rem != 0 && s)
                : mode == 3 ? (rem != 0 && !s)
                            : false;
      sig += up ? 1 : 0;
    }
    enc = ((uint64_t)(q + mb + bias - 1) << mb) + sig; /* a carry out of sig bumps the exponent */
    overflow = enc > maxenc;
  }
  if (overflow) {
    bool to_max = sat || mode == 1 || (mode == 2 && !s) || (mode == 3 && s);
    return sign | (to_max ? maxenc : (((1ull << eb) - 1) << mb));
  }
  return sign | enc;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fp_convert requires=ptx2hip_fp_round
/* Converts raw bits x of a binary format (smb fraction bits, seb exponent bits; all-ones exponent is
   Inf/NaN, or with s_fn only S.1111.111 is NaN as in OCP e4m3) to another (see ptx2hip_fp_round).
   NaN gives dnan; with relu a negative input gives +0; infinities give infinity (max when sat). */
__device__ inline uint64_t ptx2hip_fp_convert(uint64_t x, int smb, int seb, bool s_fn, int mb,
                                              int eb, uint64_t maxenc, uint64_t dnan, int mode,
                                              bool relu, bool sat) {
  uint32_t s = (uint32_t)(x >> (smb + seb)) & 1u;
  uint64_t frac = x & ((1ull << smb) - 1);
  int ex = (int)((x >> smb) & ((1ull << seb) - 1));
  int exmax = (1 << seb) - 1;
  bool nan = s_fn ? (ex == exmax && frac == ((1ull << smb) - 1)) : (ex == exmax && frac != 0);
  if (nan) return dnan;
  if (relu && s) return 0;
  if (!s_fn && ex == exmax)
    return ((uint64_t)s << (eb + mb)) | (sat ? maxenc : (((1ull << eb) - 1) << mb));
  int sbias = (1 << (seb - 1)) - 1;
  uint64_t m = ex ? (frac | (1ull << smb)) : frac;
  return ptx2hip_fp_round(s, m, (ex ? ex : 1) - sbias - smb, mb, eb, maxenc, sat, mode);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fp_bits requires=ptx2hip_bits_from_f32,ptx2hip_bits_from_f64
/* Raw bits of an f64, f32 or (already raw) f16/bf16 value. */
__device__ inline uint64_t ptx2hip_fp_bits(double x) { return ptx2hip_bits_from_f64(x); }
__device__ inline uint64_t ptx2hip_fp_bits(float x) { return ptx2hip_bits_from_f32(x); }
__device__ inline uint64_t ptx2hip_fp_bits(uint16_t x) { return x; }
// ptx2hip:end

// ptx2hip:helper ptx2hip_fp_as
/* The value of type T (double, float, or raw uint16_t bits) whose bits are the low bits of b. */
template <typename T>
__device__ inline T ptx2hip_fp_as(uint64_t b) {
  T r;
  if constexpr (sizeof(T) == 8) {
    memcpy(&r, &b, 8);
  } else if constexpr (sizeof(T) == 4) {
    uint32_t v = (uint32_t)b;
    memcpy(&r, &v, 4);
  } else {
    uint16_t v = (uint16_t)b;
    memcpy(&r, &v, 2);
  }
  return r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fp_from_int_s requires=ptx2hip_fp_round
__device__ inline uint64_t ptx2hip_fp_from_int_s(int64_t v, int mb, int eb, uint64_t maxenc,
                                                 int mode) {
  uint32_t s = v < 0 ? 1u : 0u;
  return ptx2hip_fp_round(s, s ? 0ull - (uint64_t)v : (uint64_t)v, 0, mb, eb, maxenc, false, mode);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fp_from_int_u requires=ptx2hip_fp_round
__device__ inline uint64_t ptx2hip_fp_from_int_u(uint64_t v, int mb, int eb, uint64_t maxenc,
                                                 int mode) {
  return ptx2hip_fp_round(0u, v, 0, mb, eb, maxenc, false, mode);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_f2i_sat
/* An integral (or infinite, never NaN) double clamped to a bits-wide integer; the result pattern
   is sign-extended to 64 bits. */
__device__ inline uint64_t ptx2hip_f2i_sat(double r, int bits, bool sgn) {
  if (sgn) {
    double lim = (double)(1ull << (bits - 1));
    if (r >= lim) return (1ull << (bits - 1)) - 1;
    if (r < -lim) return 0ull - (1ull << (bits - 1));
    return (uint64_t)(int64_t)r;
  }
  if (r >= (double)(1ull << (bits - 1)) * 2.0) return bits == 64 ? ~0ull : (1ull << bits) - 1;
  if (r <= 0.0) return 0;
  return (uint64_t)r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_f2i_sat_f32
/* An integral (or infinite, never NaN) float clamped to a bits-wide integer, bits <= 32. */
__device__ inline uint64_t ptx2hip_f2i_sat_f32(float r, int bits, bool sgn) {
  if (sgn) {
    float lim = (float)(1u << (bits - 1));
    if (r >= lim) return (uint64_t)((1u << (bits - 1)) - 1);
    if (r < -lim) return 0ull - (1ull << (bits - 1));
    return (uint64_t)(int64_t)(int32_t)r;
  }
  if (r >= (float)(1u << (bits - 1)) * 2.0f)
    return (uint64_t)(bits == 32 ? 0xffffffffu : (1u << bits) - 1);
  if (r <= 0.0f) return 0;
  return (uint64_t)(uint32_t)r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_round_int_f32
__device__ inline float ptx2hip_round_int_f32(float x, int mode) {
  return mode == 0 ? rintf(x) : mode == 1 ? truncf(x) : mode == 2 ? floorf(x) : ceilf(x);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_round_int_f64
__device__ inline double ptx2hip_round_int_f64(double x, int mode) {
  return mode == 0 ? rint(x) : mode == 1 ? trunc(x) : mode == 2 ? floor(x) : ceil(x);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_int_from_f32 requires=ptx2hip_round_int_f32,ptx2hip_f2i_sat_f32,ptx2hip_f2i_sat
/* cvt.{rni,rzi,rmi,rpi}{.ftz}.{s,u}{8..64}.f32: round, saturate; NaN -> 0 (64-bit: 0x8000000000000000). */
__device__ inline uint64_t ptx2hip_cvt_int_from_f32(float x, int mode, int bits, bool sgn,
                                                    bool ftz) {
  if (ftz && fabsf(x) < 1.17549435e-38f) x = copysignf(0.0f, x);
  if (x != x) return bits == 64 ? 0x8000000000000000ull : 0;
  float r = ptx2hip_round_int_f32(x, mode);
  if (bits == 64) return ptx2hip_f2i_sat((double)r, 64, sgn);
  return ptx2hip_f2i_sat_f32(r, bits, sgn);
}
// ptx2hip:amd
/* AMD: into 8 and 16 bits, the rounding instruction (v_rndne/v_trunc/v_floor/v_ceil_f32), a clamp
   to the destination range in f32 (v_max + v_min, or v_med3: both bounds are exact in f32; fmaxf
   of the quiet NaN a rounding returns gives the bound, so the conversion is always in range) and
   v_cvt_i32_f32, then one select for NaN -> 0, no branch; the compiler is told the result lies in
   the destination's range, which it is by the clamp, so the narrowing the call site writes costs
   no v_bfe. 32 bits likewise with one more select for the upper bound. 64 bits: the portable
   code. */
__device__ inline uint64_t ptx2hip_cvt_int_from_f32(float x, int mode, int bits, bool sgn,
                                                    bool ftz) {
  if (ftz && fabsf(x) < 1.17549435e-38f) x = copysignf(0.0f, x);
  float r = ptx2hip_round_int_f32(x, mode);
  if (bits <= 16) {
    float lo = sgn ? -(float)(1 << (bits - 1)) : 0.0f;
    float hi = (float)(sgn ? (1 << (bits - 1)) - 1 : (1 << bits) - 1);
    int32_t v = (int32_t)fminf(fmaxf(r, lo), hi);
    if (v < (int32_t)lo || v > (int32_t)hi) __builtin_unreachable();
    return x != x ? 0 : (uint64_t)(int64_t)v;
  }
  if (bits == 32) {
    /* the bounds 2^31 - 1 and 2^32 - 1 are not f32 values: clamp to the largest f32 below them,
       convert, and select the bound for a value at or above 2^31 (2^32) */
    if (sgn) {
      int32_t v = (int32_t)fminf(fmaxf(r, -2147483648.0f), 2147483520.0f);
      v = r >= 2147483648.0f ? 0x7fffffff : v;
      return x != x ? 0 : (uint64_t)(int64_t)v;
    }
    uint32_t v = (uint32_t)fminf(fmaxf(r, 0.0f), 4294967040.0f);
    v = r >= 4294967296.0f ? 0xffffffffu : v;
    return x != x ? 0 : (uint64_t)v;
  }
  if (x != x) return bits == 64 ? 0x8000000000000000ull : 0;
  if (bits == 64) return ptx2hip_f2i_sat((double)r, 64, sgn);
  return ptx2hip_f2i_sat_f32(r, bits, sgn);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_int_from_f16 requires=ptx2hip_cvt_int_from_f32,ptx2hip_f32_from_f16
__device__ inline uint64_t ptx2hip_cvt_int_from_f16(uint16_t h, int mode, int bits, bool sgn,
                                                    bool ftz) {
  (void)ftz;
  return ptx2hip_cvt_int_from_f32(ptx2hip_f32_from_f16(h), mode, bits, sgn, false);
}
// ptx2hip:amd
/* AMD: widened by v_cvt_f32_f16 (exact; f16 denormals kept in the HIP default MODE), a NaN stays
   a NaN. */
__device__ inline uint64_t ptx2hip_cvt_int_from_f16(uint16_t h, int mode, int bits, bool sgn,
                                                    bool ftz) {
  (void)ftz;
  _Float16 x;
  memcpy(&x, &h, 2);
  return ptx2hip_cvt_int_from_f32((float)x, mode, bits, sgn, false);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_int_from_bf16 requires=ptx2hip_cvt_int_from_f32,ptx2hip_f32_from_bits
__device__ inline uint64_t ptx2hip_cvt_int_from_bf16(uint16_t h, int mode, int bits, bool sgn,
                                                     bool ftz) {
  (void)ftz;
  return ptx2hip_cvt_int_from_f32(ptx2hip_f32_from_bits((uint32_t)h << 16), mode, bits, sgn, false);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_int_from_f64 requires=ptx2hip_round_int_f64,ptx2hip_f2i_sat
/* f64 source: NaN -> the destination width's pattern 0x80..0 (sm_90: 0x80 into u8 and s8, the
   latter sign-extended; 0x8000, 0x80000000, 0x8000000000000000), whatever the signedness. */
__device__ inline uint64_t ptx2hip_cvt_int_from_f64(double x, int mode, int bits, bool sgn,
                                                    bool ftz) {
  (void)ftz;
  if (x != x) return 1ull << (bits - 1);
  return ptx2hip_f2i_sat(ptx2hip_round_int_f64(x, mode), bits, sgn);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_sat_int_s
/* A signed value clamped to a bits-wide signed or unsigned range (pattern sign-extended to 64 bits). */
__device__ inline uint64_t ptx2hip_sat_int_s(int64_t v, int bits, bool dsgn) {
  if (dsgn) {
    int64_t hi = (int64_t)((1ull << (bits - 1)) - 1);
    int64_t lo = -hi - 1;
    return (uint64_t)(v < lo ? lo : (v > hi ? hi : v));
  }
  if (v < 0) return 0;
  uint64_t hi = bits == 64 ? ~0ull : (1ull << bits) - 1;
  return (uint64_t)v > hi ? hi : (uint64_t)v;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_sat_int_u
/* An unsigned value clamped to a bits-wide signed or unsigned range. */
__device__ inline uint64_t ptx2hip_sat_int_u(uint64_t v, int bits, bool dsgn) {
  uint64_t hi = dsgn ? (1ull << (bits - 1)) - 1 : (bits == 64 ? ~0ull : (1ull << bits) - 1);
  return v > hi ? hi : v;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_h_from_f32 requires=ptx2hip_fp_convert,ptx2hip_bits_from_f32,ptx2hip_f32_from_bits
/* f32 -> f16 (bf false) or bf16 (bf true) bits: mode 0..3, NaN -> 0x7fff, .relu, .satfinite, .ftz. */
__device__ inline uint16_t ptx2hip_cvt_h_from_f32(float x, bool bf, int mode, bool relu, bool sat,
                                                  bool ftz) {
  uint32_t u = ptx2hip_bits_from_f32(x);
  if (ftz && bf && (u & 0x7f800000u) == 0) u &= 0x80000000u; /* f16: .ftz flushes nothing (H100) */
  if (bf && mode == 0 && !relu && !sat && (u & 0x7fffffffu) <= 0x7f800000u)
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16); /* ties to even on the bits */
  return (uint16_t)ptx2hip_fp_convert(u, 23, 8, false, bf ? 7 : 10, bf ? 8 : 5,
                                      bf ? 0x7f7fu : 0x7bffu, 0x7fffu, mode, relu, sat);
}
// ptx2hip:amd
/* f32 -> f16 (bf false) or bf16 (bf true) bits: mode 0..3, NaN -> 0x7fff, .relu, .satfinite, .ftz.
   AMD, no branch: bf16 on the bits (gfx90a/gfx942/gfx1100 have no f32 -> bf16 instruction; both
   formats share the exponent range, so subnormals and overflow need nothing else): to nearest even
   by the integer add of 0x7fff plus the kept lsb, toward zero by truncation, away from zero (down
   for negatives, up for positives) by the add of 0xffff. f16 is v_cvt_f16_f32 (the default MODE
   rounds to nearest even and keeps f16 denormals); a directed mode compares that result, widened
   exactly, with the input and steps one encoding (an integer step of the magnitude bits crosses
   binades, the subnormal range, zero and infinity correctly) when it lies past the input in the
   mode's direction. Then .satfinite turns an infinite result into the largest finite value, .relu a
   negative input into +0, and a NaN gives 0x7fff, each by one select. */
__device__ inline uint16_t ptx2hip_cvt_h_from_f32(float x, bool bf, int mode, bool relu, bool sat,
                                                  bool ftz) {
  uint32_t u = ptx2hip_bits_from_f32(x);
  if (ftz && bf && (u & 0x7f800000u) == 0) u &= 0x80000000u; /* f16: .ftz flushes nothing (H100) */
  uint32_t r;
  if (bf) {
    bool neg = (u >> 31) != 0u;
    uint32_t add = mode == 0                                   ? 0x7fffu + ((u >> 16) & 1u)
                   : (mode == 2 && neg) || (mode == 3 && !neg) ? 0xffffu
                                                               : 0u;
    r = (u + add) >> 16;
  } else {
    float f = ptx2hip_f32_from_bits(u);
    _Float16 h = (_Float16)f;
    uint16_t hb;
    memcpy(&hb, &h, 2);
    r = hb;
    if (mode != 0) {
      float back = (float)h; /* exact */
      bool neg = (hb & 0x8000u) != 0u;
      bool past = mode == 1   ? __builtin_fabsf(back) > __builtin_fabsf(f)
                  : mode == 2 ? back > f
                              : back < f;
      bool toward_zero = mode == 1 || (mode == 2) != neg;
      if (past) r = toward_zero ? r - 1u : r + 1u;
    }
  }
  uint32_t inf = bf ? 0x7f80u : 0x7c00u;
  if (sat && (r & 0x7fffu) == inf) r = (r & 0x8000u) | (inf - 1u); /* overflow: max finite */
  if (relu && (u >> 31)) r = 0u; /* -0 included */
  return (u & 0x7fffffffu) > 0x7f800000u ? (uint16_t)0x7fffu : (uint16_t)r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_h2_from_f32 requires=ptx2hip_cvt_h_from_f32,ptx2hip_h2_canon_nan
/* cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a -> high half, b -> low half. */
__device__ inline uint32_t ptx2hip_cvt_h2_from_f32(float a, float b, bool bf, int mode, bool relu,
                                                   bool sat) {
  return ((uint32_t)ptx2hip_cvt_h_from_f32(a, bf, mode, relu, sat, false) << 16) |
         ptx2hip_cvt_h_from_f32(b, bf, mode, relu, sat, false);
}
// ptx2hip:amd
/* AMD: f16x2 round-to-nearest is two v_cvt_f16_f32 (a NaN stays a NaN) packed as a pair of
   _Float16 (gfx11: v_pack_b32_f16, a bit copy; gfx9: the high half by SDWA), then one packed NaN
   fix. */
typedef _Float16 ptx2hip_f16_pair_t __attribute__((vector_size(4)));
__device__ inline uint32_t ptx2hip_cvt_h2_from_f32(float a, float b, bool bf, int mode, bool relu,
                                                   bool sat) {
  if (!bf && mode == 0 && !relu && !sat) {
    ptx2hip_f16_pair_t h = {(_Float16)b, (_Float16)a};
    return ptx2hip_h2_canon_nan(__builtin_bit_cast(uint32_t, h), false);
  }
  return ((uint32_t)ptx2hip_cvt_h_from_f32(a, bf, mode, relu, sat, false) << 16) |
         ptx2hip_cvt_h_from_f32(b, bf, mode, relu, sat, false);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_f32_f64 requires=ptx2hip_fp_convert,ptx2hip_bits_from_f32,ptx2hip_bits_from_f64,ptx2hip_f32_from_bits
/* cvt.{rn,rz,rm,rp}{.ftz}.f32.f64: NaN keeps its sign and the top 23 payload bits, quieted
   (H100: 0x7ff0000000000001 -> 0x7fc00000, 0x7ff4000000000000 -> 0x7fe00000); .ftz flushes a
   subnormal result. */
__device__ inline float ptx2hip_cvt_f32_f64(double x, int mode, bool ftz) {
  uint32_t r;
  if (x != x) {
    uint64_t b = ptx2hip_bits_from_f64(x);
    r = ((uint32_t)(b >> 32) & 0x80000000u) | 0x7fc00000u | (uint32_t)((b >> 29) & 0x7fffffu);
  } else if (mode == 0) r = ptx2hip_bits_from_f32((float)x);
  else
    r = (uint32_t)ptx2hip_fp_convert(ptx2hip_bits_from_f64(x), 52, 11, false, 23, 8, 0x7f7fffffu,
                                     0x7fffffffu, mode, false, false);
  if (ftz && (r & 0x7f800000u) == 0) r &= 0x80000000u;
  return ptx2hip_f32_from_bits(r);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_f32_f16 requires=ptx2hip_f32_from_f16,ptx2hip_f32_from_bits
/* cvt.f32.f16: exact; NaN -> 0x7fffffff. (.ftz: an f16 value is never an f32 subnormal.) */
__device__ inline float ptx2hip_cvt_f32_f16(uint16_t h, bool ftz) {
  (void)ftz;
  return (h & 0x7fffu) > 0x7c00u ? ptx2hip_f32_from_bits(0x7fffffffu) : ptx2hip_f32_from_f16(h);
}
// ptx2hip:amd
/* AMD: v_cvt_f32_f16 (exact; f16 denormals, kept in the HIP default MODE, are f32 normals) and one
   select for NVIDIA's canonical NaN. */
__device__ inline float ptx2hip_cvt_f32_f16(uint16_t h, bool ftz) {
  (void)ftz;
  _Float16 x;
  memcpy(&x, &h, 2);
  float r = (float)x;
  return r != r ? ptx2hip_f32_from_bits(0x7fffffffu) : r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_f32_bf16 requires=ptx2hip_f32_from_bits
/* cvt.f32.bf16: the bits become the high half; .ftz flushes a subnormal result to a signed zero. */
__device__ inline float ptx2hip_cvt_f32_bf16(uint16_t h, bool ftz) {
  uint32_t u = (uint32_t)h << 16;
  if (ftz && (u & 0x7fffffffu) > 0x7f800000u) u = 0x7fffffffu; /* .ftz: canonical NaN */
  if (ftz && (u & 0x7f800000u) == 0) u &= 0x80000000u;
  return ptx2hip_f32_from_bits(u);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_f64_f16 requires=ptx2hip_f32_from_f16,ptx2hip_f64_from_bits
/* cvt.f64.f16: exact; a NaN keeps sign and payload, quieted (H100: 0x7d00 -> 0x7ffc000000000000). */
__device__ inline double ptx2hip_cvt_f64_f16(uint16_t h, bool ftz) {
  (void)ftz;
  return (h & 0x7fffu) > 0x7c00u
             ? ptx2hip_f64_from_bits(((uint64_t)(h & 0x8000u) << 48) | 0x7ff8000000000000ull |
                                     ((uint64_t)(h & 0x3ffu) << 42))
             : (double)ptx2hip_f32_from_f16(h);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_f64_bf16 requires=ptx2hip_f32_from_bits,ptx2hip_f64_from_bits
/* cvt.f64.bf16: exact; a NaN keeps sign and payload, quieted. */
__device__ inline double ptx2hip_cvt_f64_bf16(uint16_t h, bool ftz) {
  (void)ftz;
  return (h & 0x7fffu) > 0x7f80u
             ? ptx2hip_f64_from_bits(((uint64_t)(h & 0x8000u) << 48) | 0x7ff8000000000000ull |
                                     ((uint64_t)(h & 0x7fu) << 45))
             : (double)ptx2hip_f32_from_bits((uint32_t)h << 16);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_f64_f32
/* cvt{.ftz}.f64.f32: exact; .ftz flushes a subnormal input; NaN keeps sign and payload (quieted). */
__device__ inline double ptx2hip_cvt_f64_f32(float x, bool ftz) {
  /* H100: with .ftz every NaN gives 0x7fffffffe0000000 (the canonical f32 NaN, widened). */
  if (ftz && x != x) {
    uint64_t c = 0x7fffffffe0000000ull;
    double d;
    memcpy(&d, &c, 8);
    return d;
  }
  if (ftz && fabsf(x) < 1.17549435e-38f) x = copysignf(0.0f, x);
  return (double)x;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_rint_f32 requires=ptx2hip_round_int_f32,ptx2hip_f32_from_bits
/* cvt.{rni,rzi,rmi,rpi}{.ftz}{.sat}.f32.f32 */
__device__ inline float ptx2hip_cvt_rint_f32(float x, int mode, bool ftz, bool sat) {
  if (ftz && fabsf(x) < 1.17549435e-38f) x = copysignf(0.0f, x);
  if (x != x) return sat ? 0.0f : ptx2hip_f32_from_bits(0x7fffffffu);
  float r = ptx2hip_round_int_f32(x, mode);
  return sat ? (r > 0.0f ? (r < 1.0f ? r : 1.0f) : 0.0f) : r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_rint_f64 requires=ptx2hip_round_int_f64
/* cvt.{rni,rzi,rmi,rpi}{.sat}.f64.f64; a NaN is returned quieted, sign and payload kept (H100:
   0x7ff0000000000001 -> 0x7ff8000000000001) (sat: +0). */
__device__ inline double ptx2hip_cvt_rint_f64(double x, int mode, bool ftz, bool sat) {
  (void)ftz;
  if (x != x) {
    uint64_t b;
    memcpy(&b, &x, 8);
    b |= 0x0008000000000000ull;
    memcpy(&x, &b, 8);
    return sat ? 0.0 : x;
  }
  double r = ptx2hip_round_int_f64(x, mode);
  return sat ? (r > 0.0 ? (r < 1.0 ? r : 1.0) : 0.0) : r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_sat_f32
/* cvt{.ftz}.sat.f32.f32: clamp to [0, 1], NaN and -0 -> +0. */
__device__ inline float ptx2hip_cvt_sat_f32(float x, bool ftz) {
  if (ftz && fabsf(x) < 1.17549435e-38f) x = 0.0f;
  return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_f8x2_from_f32 requires=ptx2hip_fp_convert,ptx2hip_bits_from_f32
/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b: OCP FP8, a -> high byte; NaN -> 0x7f. */
__device__ inline uint16_t ptx2hip_cvt_f8x2_from_f32(float a, float b, bool e5, bool relu) {
  uint32_t hi = (uint32_t)ptx2hip_fp_convert(ptx2hip_bits_from_f32(a), 23, 8, false, e5 ? 2 : 3,
                                             e5 ? 5 : 4, e5 ? 0x7bu : 0x7eu, 0x7fu, 0, relu, true);
  uint32_t lo = (uint32_t)ptx2hip_fp_convert(ptx2hip_bits_from_f32(b), 23, 8, false, e5 ? 2 : 3,
                                             e5 ? 5 : 4, e5 ? 0x7bu : 0x7eu, 0x7fu, 0, relu, true);
  return (uint16_t)((hi << 8) | lo);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_f8x2_from_f16x2 requires=ptx2hip_fp_convert
/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a: high half -> high byte; NaN -> 0x7f. */
__device__ inline uint16_t ptx2hip_cvt_f8x2_from_f16x2(uint32_t a, bool e5, bool relu) {
  uint32_t hi = (uint32_t)ptx2hip_fp_convert(a >> 16, 10, 5, false, e5 ? 2 : 3, e5 ? 5 : 4,
                                             e5 ? 0x7bu : 0x7eu, 0x7fu, 0, relu, true);
  uint32_t lo = (uint32_t)ptx2hip_fp_convert(a & 0xffffu, 10, 5, false, e5 ? 2 : 3, e5 ? 5 : 4,
                                             e5 ? 0x7bu : 0x7eu, 0x7fu, 0, relu, true);
  return (uint16_t)((hi << 8) | lo);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_f16x2_from_f8x2 requires=ptx2hip_fp_convert
/* cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a: exact widening, high byte -> high half; NaN -> 0x7fff. */
__device__ inline uint32_t ptx2hip_cvt_f16x2_from_f8x2(uint16_t a, bool e5, bool relu) {
  uint32_t hi = (uint32_t)ptx2hip_fp_convert((uint32_t)a >> 8, e5 ? 2 : 3, e5 ? 5 : 4, !e5, 10, 5,
                                             0x7bffu, 0x7fffu, 0, relu, false);
  uint32_t lo = (uint32_t)ptx2hip_fp_convert(a & 0xffu, e5 ? 2 : 3, e5 ? 5 : 4, !e5, 10, 5, 0x7bffu,
                                             0x7fffu, 0, relu, false);
  return (hi << 16) | lo;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_tf32_f32 requires=ptx2hip_bits_from_f32
/* cvt to tf32 (M 0 rna, 1 rn, 2 rz; .relu; .satfinite) as sm_90 computes it: finite values rounded
   to 10 fraction bits on the bit pattern. Inf and NaN: rn/rz keep an infinity and give the
   canonical 0x7fffe000 for any NaN; rna truncates the pattern, and with .satfinite then steps
   every all-ones exponent down one tf32 ulp (Inf -> MAX_NORM 0x7f7fe000, NaN 0x7fc00000 ->
   0x7fbfe000), as it does for a rounding overflow. .relu: negative results and -Inf give +0. */
template <int M, bool RELU, bool SATF>
__device__ inline uint32_t ptx2hip_cvt_tf32_f32(float x) {
  uint32_t u = ptx2hip_bits_from_f32(x);
  bool special = (u & 0x7f800000u) == 0x7f800000u;
  if (special && M != 0 && (u & 0x007fffffu)) return 0x7fffe000u;
  uint32_t add = special || M == 2 ? 0u : M == 0 ? 0x1000u : 0xfffu + ((u >> 13) & 1u);
  uint32_t r = (u + add) & 0xffffe000u;
  if (SATF && (r & 0x7f800000u) == 0x7f800000u) r -= 0x2000u;
  if (RELU && (r & 0x80000000u)) r = 0;
  return r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_pack_sat
/* cvt.pack.sat: a, b clamped to n bits, b in the low n bits, a above, c's low bits above (n < 16). */
__device__ inline uint32_t ptx2hip_cvt_pack_sat(int32_t a, int32_t b, uint32_t c, int n, bool sgn) {
  int32_t lo = sgn ? -(1 << (n - 1)) : 0;
  int32_t hi = sgn ? (1 << (n - 1)) - 1 : (1 << n) - 1;
  uint32_t mask = (1u << n) - 1u;
  uint32_t ta = (uint32_t)(a < lo ? lo : (a > hi ? hi : a)) & mask;
  uint32_t tb = (uint32_t)(b < lo ? lo : (b > hi ? hi : b)) & mask;
  uint32_t d = tb | (ta << n);
  return n == 16 ? d : d | (c << (2 * n));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_nan_from_f64
/* cvt.*.f16.f64 / cvt.*.bf16.f64 of a NaN: sign and the top payload bits kept, quieted (H100:
   0x7ff4000000000000 -> 0x7f00 (f16) / 0x7fe0 (bf16), 0x7ff0000000000001 -> 0x7e00 / 0x7fc0).
   Any other input: the converted bits r. */
__device__ inline uint16_t ptx2hip_h_nan_from_f64(uint16_t r, uint64_t a, bool bf) {
  if ((a & 0x7fffffffffffffffull) <= 0x7ff0000000000000ull) return r;
  uint16_t sign = (uint16_t)((a >> 48) & 0x8000u);
  return bf ? (uint16_t)(sign | 0x7fc0u | (uint16_t)((a >> 45) & 0x7fu))
            : (uint16_t)(sign | 0x7e00u | (uint16_t)((a >> 42) & 0x3ffu));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_keep
/* The converted bits r (f16 <-> bf16: NaN is already the canonical 0x7fff). */
__device__ inline uint16_t ptx2hip_h_keep(uint16_t r, uint64_t a, bool bf) {
  (void)a;
  (void)bf;
  return r;
}
// ptx2hip:end

// sm_100 FP4 / FP6 (OCP MX e2m1, e2m3, e3m2: sign, eb exponent bits of bias 2^(eb-1) - 1, mb
// fraction bits, subnormals, every encoding finite: no infinity, no NaN). docs/EVIDENCE.md.

// ptx2hip:helper ptx2hip_fp_small_from_f32 requires=ptx2hip_fp_convert,ptx2hip_bits_from_f32
/* One f32 rounded to nearest even onto the format's grid as C013 rounds onto e4m3 (.satfinite:
   beyond the largest magnitude and +-inf give the largest of the sign; NaN gives the positive
   largest, the ISA's rule for formats without NaN; .relu: a negative input gives +0). */
__device__ inline uint32_t ptx2hip_fp_small_from_f32(float x, int mb, int eb, bool relu) {
  uint64_t largest = (1ull << (mb + eb)) - 1;
  return (uint32_t)ptx2hip_fp_convert(ptx2hip_bits_from_f32(x), 23, 8, false, mb, eb, largest,
                                      largest, 0, relu, true);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_f16_from_fp_small requires=ptx2hip_fp_round
/* The f16 bits of an e2m1 / e2m3 / e3m2 value x (its low 1 + eb + mb bits), exactly; .relu: a
   negative value (-0 too) gives +0, as C015 does for FP8. */
__device__ inline uint32_t ptx2hip_f16_from_fp_small(uint32_t x, int mb, int eb, bool relu) {
  uint32_t s = (x >> (mb + eb)) & 1u;
  if (relu && s) return 0;
  uint32_t frac = x & ((1u << mb) - 1), ex = (x >> mb) & ((1u << eb) - 1);
  uint64_t m = ex ? (frac | (1u << mb)) : frac;
  int e = (ex ? (int)ex : 1) - ((1 << (eb - 1)) - 1) - mb;
  return (uint32_t)ptx2hip_fp_round(s, m, e, 10, 5, 0x7bffu, false, 0);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fp_small_bits_from_f32 requires=ptx2hip_bits_from_f32
// ptx2hip:amd
/* The --target amd rounding of ptx2hip_fp_small_from_f32, with the f32's bits: from the smallest
   normal 2^(1 - bias) up, the format is f32 with MB fraction bits (exponent bias 2^(EB-1) - 1
   against 127), so adding 2^(22 - MB) - 1 plus the lowest kept bit rounds the bits to nearest
   even, and the bits from 23 - MB up, less (127 - bias) << MB, are the code (a carry into the
   exponent included); codes beyond the largest (and infinities) saturate to it. Below, the step
   is 2^(1 - bias - MB): the code is |x| scaled by its inverse (exact) rounded to nearest even.
   NaN gives the positive largest; .relu: a negative input gives +0. */
template <int MB, int EB>
__device__ inline uint32_t ptx2hip_fp_small_bits_from_f32(float x, bool relu) {
  constexpr int bias = (1 << (EB - 1)) - 1, shift = 23 - MB;
  constexpr uint32_t top = (1u << (MB + EB)) - 1;
  constexpr float min_normal = (float)(1u << 8) / (float)(1u << (8 + bias - 1));
  constexpr float inv_step = (float)(1u << (MB + bias - 1));
  float m = fabsf(x);
  uint32_t u = ptx2hip_bits_from_f32(m), s = ptx2hip_bits_from_f32(x) >> 31;
  uint32_t normal = ((u + ((1u << (shift - 1)) - 1u) + ((u >> shift) & 1u)) >> shift) -
                    ((uint32_t)(127 - bias) << MB);
  uint32_t c = m < min_normal ? (uint32_t)rintf(m * inv_step) : (normal < top ? normal : top);
  if (m != m) return top;
  if (relu && s) return 0u;
  return (s << (MB + EB)) | c;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_fp4x2_from_f32 requires=ptx2hip_fp_small_from_f32,ptx2hip_fp_small_bits_from_f32
/* cvt.rn.satfinite{.relu}.e2m1x2.f32 d, a, b: a -> bits 7:4, b -> bits 3:0. */
__device__ inline uint8_t ptx2hip_cvt_fp4x2_from_f32(float a, float b, bool relu) {
  return (uint8_t)((ptx2hip_fp_small_from_f32(a, 1, 2, relu) << 4) |
                   ptx2hip_fp_small_from_f32(b, 1, 2, relu));
}
// ptx2hip:amd
__device__ inline uint8_t ptx2hip_cvt_fp4x2_from_f32(float a, float b, bool relu) {
  return (uint8_t)((ptx2hip_fp_small_bits_from_f32<1, 2>(a, relu) << 4) |
                   ptx2hip_fp_small_bits_from_f32<1, 2>(b, relu));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_fp6x2_from_f32 requires=ptx2hip_fp_small_from_f32,ptx2hip_fp_small_bits_from_f32
/* cvt.rn.satfinite{.relu}.{e2m3x2,e3m2x2}.f32 d, a, b: a -> bits 13:8, b -> bits 5:0, bits 15:14
   and 7:6 zero. */
__device__ inline uint16_t ptx2hip_cvt_fp6x2_from_f32(float a, float b, bool e3, bool relu) {
  int mb = e3 ? 2 : 3, eb = e3 ? 3 : 2;
  return (uint16_t)((ptx2hip_fp_small_from_f32(a, mb, eb, relu) << 8) |
                    ptx2hip_fp_small_from_f32(b, mb, eb, relu));
}
// ptx2hip:amd
__device__ inline uint16_t ptx2hip_cvt_fp6x2_from_f32(float a, float b, bool e3, bool relu) {
  if (e3)
    return (uint16_t)((ptx2hip_fp_small_bits_from_f32<2, 3>(a, relu) << 8) |
                      ptx2hip_fp_small_bits_from_f32<2, 3>(b, relu));
  return (uint16_t)((ptx2hip_fp_small_bits_from_f32<3, 2>(a, relu) << 8) |
                    ptx2hip_fp_small_bits_from_f32<3, 2>(b, relu));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_f16x2_from_fp4x2 requires=ptx2hip_f16_from_fp_small
/* cvt.rn{.relu}.f16x2.e2m1x2 d, a: bits 7:4 of a -> high half, bits 3:0 -> low half. */
__device__ inline uint32_t ptx2hip_cvt_f16x2_from_fp4x2(uint32_t a, bool relu) {
  return (ptx2hip_f16_from_fp_small((a >> 4) & 0xfu, 1, 2, relu) << 16) |
         ptx2hip_f16_from_fp_small(a & 0xfu, 1, 2, relu);
}
// ptx2hip:amd
/* The same by table: byte k of the constant is the high byte of the f16 of magnitude code k
   (0, 0.5, 1, 1.5, 2, 3, 4, 6; the low bytes are all zero). */
__device__ inline uint32_t ptx2hip_f16_from_fp4(uint32_t c, bool relu) {
  uint32_t s = (c >> 3) & 1u;
  if (relu && s) return 0u;
  return (s << 15) | (((uint32_t)(0x464442403e3c3800ull >> ((c & 7u) * 8)) & 0xffu) << 8);
}
__device__ inline uint32_t ptx2hip_cvt_f16x2_from_fp4x2(uint32_t a, bool relu) {
  return (ptx2hip_f16_from_fp4((a >> 4) & 0xfu, relu) << 16) | ptx2hip_f16_from_fp4(a & 0xfu, relu);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cvt_f16x2_from_fp6x2 requires=ptx2hip_f16_from_fp_small
/* cvt.rn{.relu}.f16x2.{e2m3x2,e3m2x2} d, a: bits 13:8 of a -> high half, bits 5:0 -> low half
   (the ISA defines the inputs whose 2 upper bits per byte are 0; the others are read without them). */
__device__ inline uint32_t ptx2hip_cvt_f16x2_from_fp6x2(uint32_t a, bool e3, bool relu) {
  int mb = e3 ? 2 : 3, eb = e3 ? 3 : 2;
  return (ptx2hip_f16_from_fp_small((a >> 8) & 0x3fu, mb, eb, relu) << 16) |
         ptx2hip_f16_from_fp_small(a & 0x3fu, mb, eb, relu);
}
// ptx2hip:end
