// Helpers of rules/half.toml (markers: rules/README.md, "Helpers").

// ---------------------------------------------------------------------------------------------
// Helpers

// ptx2hip:helper ptx2hip_hfmt
// The half-precision format of a helper's bf argument, named after the PTX type.
namespace ptx2hip_hfmt {
inline constexpr bool f16 = false, bf16 = true;
}  // namespace ptx2hip_hfmt
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_to_f64 requires=ptx2hip_f64_from_bits
/* Exact value of f16 (bf false) or bf16 (bf true) bits as a double (integer decoding: no
   half-precision header, no denormal mode involved); a NaN keeps its sign and payload. */
__device__ inline double ptx2hip_h_to_f64(uint32_t h, bool bf) {
  int mb = bf ? 7 : 10;
  uint32_t emax = bf ? 0xffu : 0x1fu;
  uint64_t sign = (uint64_t)((h >> 15) & 1u) << 63;
  uint32_t ex = (h >> mb) & emax;
  uint64_t fr = h & ((1u << mb) - 1u);
  if (ex == emax) return ptx2hip_f64_from_bits(sign | 0x7ff0000000000000ull | (fr << (52 - mb)));
  if (ex == 0) {
    double v = (double)fr * (bf ? 0x1p-133 : 0x1p-24); /* exact */
    return sign ? -v : v;
  }
  return ptx2hip_f64_from_bits(sign | ((uint64_t)(ex + (bf ? 896u : 1008u)) << 52) |
                               (fr << (52 - mb)));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_fma_exact requires=ptx2hip_h_to_f64,ptx2hip_bits_from_f64,ptx2hip_fp_convert
/* fma(a, b, c) on f16 (bf false) or bf16 (bf true) bits with one rounding to nearest even, as PTX
   add/sub/mul/fma.rn do: NaN -> 0x7fff; ftz flushes subnormal inputs, and results tiny after rounding (sign kept);
   sat clamps to [0, 1] (NaN, -0 -> +0); relu gives +0 for a negative result, NaN stays 0x7fff.
   The product is exact in double; TwoSum recovers the error of p + c, and a non-zero error turns
   the double into its round-to-odd value, so the final rounding is exact (53 >= 11 + 2). */
__device__ inline uint16_t ptx2hip_h_fma_exact(uint16_t a, uint16_t b, uint16_t c, bool bf,
                                               bool ftz, bool sat, bool relu) {
  uint32_t em = bf ? 0x7f80u : 0x7c00u;
  if (ftz) {
    if ((a & em) == 0) a &= 0x8000u;
    if ((b & em) == 0) b &= 0x8000u;
    if ((c & em) == 0) c &= 0x8000u;
  }
  double x = ptx2hip_h_to_f64(a, bf), y = ptx2hip_h_to_f64(b, bf), z = ptx2hip_h_to_f64(c, bf);
  double p = x * y; /* exact: a fused contraction with the add below gives the same s */
  double s = p + z;
  if (s != s) return relu || !sat ? 0x7fffu : 0u;
  uint64_t u = ptx2hip_bits_from_f64(s);
  if (s - s == 0.0) {
    double pv = s - z, zv = s - pv;
    double err = (p - pv) + (z - zv); /* exact error of the rounded sum (TwoSum) */
    if (err != 0.0 && (u & 1u) == 0) u = ((err > 0.0) == (s > 0.0)) ? u + 1u : u - 1u;
  }
  uint32_t r;
  /* ftz flushes when the result rounded to 11 bits with an unbounded exponent is below 2^-14
     (tininess after rounding, as sm_90 does: (1 - 2^-11) times 2^-14 gives 0, (1 - 2^-20) times 2^-14
     gives 0x0400). Rounding the round-to-odd double to 11 bits is that rounding of the exact value. */
  uint64_t mag = u & 0x7fffffffffffffffull;
  if (ftz &&
      ((mag + 0x1ffffffffffull + ((mag >> 42) & 1u)) & ~0x3ffffffffffull) < 0x3f10000000000000ull)
    r = (uint32_t)(u >> 48) & 0x8000u;
  else
    r = (uint32_t)ptx2hip_fp_convert(u, 52, 11, false, bf ? 7 : 10, bf ? 8 : 5,
                                     bf ? 0x7f7fu : 0x7bffu, 0x7fffu, 0, false, false);
  if (sat) r = (r & 0x8000u) ? 0u : (r > (bf ? 0x3f80u : 0x3c00u) ? (bf ? 0x3f80u : 0x3c00u) : r);
  if (relu && (r & 0x8000u)) r = 0u;
  return (uint16_t)r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_fix_f16
/* NVIDIA's view of one f16 result lane computed by an IEEE round-to-nearest-even unit: NaN -> 0x7fff
   (+0 with sat), then .sat clamps to [0, 1] (-0 -> +0) and .relu turns negatives (-0 too) into +0. */
__device__ inline uint32_t ptx2hip_h_fix_f16(uint32_t u, bool sat, bool relu) {
  if ((u & 0x7fffu) > 0x7c00u) return sat ? 0u : 0x7fffu;
  if (sat) u = (u & 0x8000u) ? 0u : (u > 0x3c00u ? 0x3c00u : u);
  if (relu && (u & 0x8000u)) u = 0u;
  return u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bf16_fma_f64 requires=ptx2hip_f32_from_bits,ptx2hip_bits_from_f32
// ptx2hip:amd
/* bf16 fma with one rounding to nearest even (NaN -> 0x7fff, relu: negative results -> +0) in
   hardware f64 and f32 arithmetic, no branch: the product of two bf16 values is exact in f64, the
   error e of s = p + z rounded to f64 is exact by TwoSum, and the f32 conversion of s is turned
   into the round-to-odd f32 value of the exact p + z (step one ulp toward zero when the rounding
   went away from zero, set the last bit when inexact); round-to-odd to 24 bits then nearest even
   to 8 bits is one correct rounding (24 >= 8 + 2), also for subnormal and overflowing results
   (f32 and bf16 share the exponent range; an f32 infinity steps back to FLT_MAX, which rounds
   to the bf16 infinity). */
__device__ inline uint16_t ptx2hip_bf16_fma_f64(uint16_t a, uint16_t b, uint16_t c, bool relu) {
  double x = ptx2hip_f32_from_bits((uint32_t)a << 16), y = ptx2hip_f32_from_bits((uint32_t)b << 16),
         z = ptx2hip_f32_from_bits((uint32_t)c << 16);
  double p = x * y; /* exact */
  double s = p + z;
  double zv = s - p, pv = s - zv;
  double e = (p - pv) + (z - zv); /* exact error of s (TwoSum); NaN when s is infinite */
  float f = (float)s;
  double fd = f;
  /* f above / below the exact value (bitwise, not short-circuit operators: no branch) */
  bool tie = fd == s;
  bool above = (fd > s) | (tie & (e < 0.0)), below = (fd < s) | (tie & (e > 0.0));
  uint32_t u = ptx2hip_bits_from_f32(f);
  u -= (uint32_t)(s < 0.0 ? below : above); /* toward zero */
  u |= (uint32_t)(above | below);
  uint32_t r = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  if (relu && (r & 0x8000u)) r = 0u;
  return s != s ? (uint16_t)0x7fffu : (uint16_t)r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_fma requires=ptx2hip_h_fma_exact,ptx2hip_h_fix_f16,ptx2hip_f32_from_bits,ptx2hip_cvt_h_from_f32,ptx2hip_bf16_fma_f64
__device__ inline uint16_t ptx2hip_h_fma(uint16_t a, uint16_t b, uint16_t c, bool bf, bool ftz,
                                         bool sat, bool relu) {
  return ptx2hip_h_fma_exact(a, b, c, bf, ftz, sat, relu);
}
// ptx2hip:amd
/* AMD: f16 without .ftz is v_fma_f16 (add = fma(a, 1, b) folds to v_add_f16, mul = fma(a, b, -0) to
   v_mul_f16): IEEE, one rounding to nearest even, f16 denormals kept (the HIP kernel default MODE:
   float_denorm_mode_16_64 = 3, float_round_mode_16_64 = 0); NaN/.sat/.relu are then fixed on the
   bits. bf16 add, sub and mul go through f32, bf16 fma through f64 (ptx2hip_bf16_fma_f64).
   .ftz (f16 only) by selects around the same instruction: subnormal inputs become zeros of their
   sign, and a result below the smallest normal 2^-14 a zero of its sign. sm_90 flushes when the
   exact result rounded to 11 bits with an unbounded exponent is below 2^-14, i.e. when its
   magnitude is below T = 2^-14 - 2^-26; the hardware rounds to the subnormal grid instead, which
   differs only for magnitudes in [2^-14 - 2^-25, T), rounded up to 2^-14 by the hardware: for a
   result of magnitude 2^-14 the exact value decides, computed in f64 (a product of two f16 is
   exact there, and a sum of it and an f16 near 2^-14 needs at most 34 significant bits: exact).
   add and sub (b = 1.0) skip that test: a sum of f16 values below 2^-13 is exact in f16. */
__device__ inline uint16_t ptx2hip_h_fma(uint16_t a, uint16_t b, uint16_t c, bool bf, bool ftz,
                                         bool sat, bool relu) {
  if (bf && !relu &&
      ((__builtin_constant_p(b) && b == 0x3f80u) || (__builtin_constant_p(c) && c == 0x8000u))) {
    /* bf16 add/sub (b = 1.0) and mul (c = -0) in f32, then rounded to bf16 on the bits (v_add_f32 /
       v_mul_f32, NaN by one select): a product of two bf16 values is exact in f32 and a sum is
       rounded once to 24 bits, and rounding to 24 then to 8 bits is one correct rounding for a sum
       or product (24 >= 2 * 8 + 2); both formats share the exponent range, so subnormal bf16
       results are exact too (f32 denormals kept: the HIP default). */
    float x = ptx2hip_f32_from_bits((uint32_t)a << 16),
          y = ptx2hip_f32_from_bits((uint32_t)b << 16),
          z = ptx2hip_f32_from_bits((uint32_t)c << 16);
    return ptx2hip_cvt_h_from_f32(b == 0x3f80u ? x + z : x * y, true, 0, false, false, false);
  }
  if (bf) return ptx2hip_bf16_fma_f64(a, b, c, relu);
  if (ftz) { /* own locals: the other forms keep the caller's operands as they are */
    uint16_t fa = (a & 0x7c00u) == 0u ? (uint16_t)(a & 0x8000u) : a;
    uint16_t fb = (b & 0x7c00u) == 0u ? (uint16_t)(b & 0x8000u) : b;
    uint16_t fc = (c & 0x7c00u) == 0u ? (uint16_t)(c & 0x8000u) : c;
    _Float16 x, y, z;
    memcpy(&x, &fa, 2);
    memcpy(&y, &fb, 2);
    memcpy(&z, &fc, 2);
    _Float16 r = __builtin_fmaf16(x, y, z);
    uint16_t u;
    memcpy(&u, &r, 2);
    bool tiny = (u & 0x7fffu) < 0x0400u;
    if (!(__builtin_constant_p(b) && b == 0x3c00u) && (u & 0x7fffu) == 0x0400u) {
      double exact = (double)x * (double)y + (double)z;
      tiny = __builtin_fabs(exact) < 0x1.ffep-15; /* 2^-14 - 2^-26 */
    }
    if (tiny) u &= 0x8000u;
    return (uint16_t)ptx2hip_h_fix_f16(u, sat, relu);
  }
  _Float16 x, y, z;
  memcpy(&x, &a, 2);
  memcpy(&y, &b, 2);
  memcpy(&z, &c, 2);
  _Float16 r = __builtin_fmaf16(x, y, z);
  uint16_t u;
  memcpy(&u, &r, 2);
  if (!sat && !relu) return r != r ? (uint16_t)0x7fffu : u; /* one compare and one select */
  return (uint16_t)ptx2hip_h_fix_f16(u, sat, relu);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_canon_nan
// ptx2hip:amd
/* Two f16 (bf false) or bf16 (bf true) lanes with every NaN lane replaced by NVIDIA's 0x7fff,
   without a branch: a lane's magnitude plus 0x3ff (bf16: 0x7f) reaches bit 15 exactly when it is
   above 0x7c00 (0x7f80), a NaN, and no carry crosses into the other lane (at most 0x7fff + 0x3ff =
   0x83fe); an arithmetic shift of each 16-bit lane spreads that bit into a lane mask (AMD: v_and,
   v_add, v_pk_ashrrev_i16, v_bfi). */
typedef int16_t ptx2hip_i16x2_t __attribute__((vector_size(4)));
__device__ inline uint32_t ptx2hip_h2_canon_nan(uint32_t u, bool bf) {
  uint32_t t = (u & 0x7fff7fffu) + (bf ? 0x007f007fu : 0x03ff03ffu);
  ptx2hip_i16x2_t lanes;
  memcpy(&lanes, &t, 4);
  lanes = lanes >> 15;
  uint32_t nan_mask;
  memcpy(&nan_mask, &lanes, 4);
  return (u & ~nan_mask) | (0x7fff7fffu & nan_mask);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_fma requires=ptx2hip_h_fma,ptx2hip_h_fix_f16,ptx2hip_h2_canon_nan
/* ptx2hip_h_fma on each 16-bit lane of f16x2 / bf16x2 words (low half is lane 0). */
__device__ inline uint32_t ptx2hip_h2_fma(uint32_t a, uint32_t b, uint32_t c, bool bf, bool ftz,
                                          bool sat, bool relu) {
  uint32_t lo = ptx2hip_h_fma((uint16_t)a, (uint16_t)b, (uint16_t)c, bf, ftz, sat, relu);
  uint32_t hi = ptx2hip_h_fma((uint16_t)(a >> 16), (uint16_t)(b >> 16), (uint16_t)(c >> 16), bf,
                              ftz, sat, relu);
  return lo | (hi << 16);
}
// ptx2hip:amd
/* AMD: f16x2 without .ftz is one v_pk_fma_f16 (v_pk_add_f16 / v_pk_mul_f16 for add and mul), lane 0
   in the low half as in PTX; NaN lanes become 0x7fff by one packed mask (ptx2hip_h2_canon_nan),
   .sat/.relu are fixed on each lane's bits. */
typedef _Float16 ptx2hip_f16x2_t __attribute__((ext_vector_type(2)));
__device__ inline uint32_t ptx2hip_h2_fma(uint32_t a, uint32_t b, uint32_t c, bool bf, bool ftz,
                                          bool sat, bool relu) {
  if (bf || ftz) { /* .ftz: the f16 code on each lane */
    uint32_t lo = ptx2hip_h_fma((uint16_t)a, (uint16_t)b, (uint16_t)c, bf, ftz, sat, relu);
    uint32_t hi = ptx2hip_h_fma((uint16_t)(a >> 16), (uint16_t)(b >> 16), (uint16_t)(c >> 16), bf,
                                ftz, sat, relu);
    return lo | (hi << 16);
  }
  /* __builtin_bit_cast, not memcpy: after sub's sign flip a memcpy makes clang re-pack bytes. */
  ptx2hip_f16x2_t r = __builtin_elementwise_fma(__builtin_bit_cast(ptx2hip_f16x2_t, a),
                                                __builtin_bit_cast(ptx2hip_f16x2_t, b),
                                                __builtin_bit_cast(ptx2hip_f16x2_t, c));
  uint32_t u = __builtin_bit_cast(uint32_t, r);
  if (!sat && !relu) return ptx2hip_h2_canon_nan(u, false);
  return ptx2hip_h_fix_f16(u & 0xffffu, sat, relu) | (ptx2hip_h_fix_f16(u >> 16, sat, relu) << 16);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_fma_fast requires=ptx2hip_h_fma
// ptx2hip:amd
/* --fast: f16 without .ftz/.sat/.relu is the bare v_fma_f16 (v_add_f16 / v_mul_f16), whose NaN
   result is AMD's (the quieted input NaN, or 0x7e00) where the H100 gives 0x7fff; every other form
   is ptx2hip_h_fma. */
__device__ inline uint16_t ptx2hip_h_fma_fast(uint16_t a, uint16_t b, uint16_t c, bool bf, bool ftz,
                                              bool sat, bool relu) {
  if (bf || ftz || sat || relu) return ptx2hip_h_fma(a, b, c, bf, ftz, sat, relu);
  return __builtin_bit_cast(
      uint16_t, __builtin_fmaf16(__builtin_bit_cast(_Float16, a), __builtin_bit_cast(_Float16, b),
                                 __builtin_bit_cast(_Float16, c)));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_fma_fast requires=ptx2hip_h2_fma
// ptx2hip:amd
/* --fast: f16x2 without .ftz/.sat/.relu is the bare v_pk_fma_f16 (v_pk_add_f16 / v_pk_mul_f16),
   NaN lanes as AMD returns them; every other form is ptx2hip_h2_fma. */
__device__ inline uint32_t ptx2hip_h2_fma_fast(uint32_t a, uint32_t b, uint32_t c, bool bf,
                                               bool ftz, bool sat, bool relu) {
  if (bf || ftz || sat || relu) return ptx2hip_h2_fma(a, b, c, bf, ftz, sat, relu);
  return __builtin_bit_cast(uint32_t,
                            __builtin_elementwise_fma(__builtin_bit_cast(ptx2hip_f16x2_t, a),
                                                      __builtin_bit_cast(ptx2hip_f16x2_t, b),
                                                      __builtin_bit_cast(ptx2hip_f16x2_t, c)));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_negabs
/* neg (abs false) / abs (abs true) of f16 or bf16 bits: a sign-bit operation, except that every
   NaN gives 0x7fff (sm_90); ftz first turns a subnormal into a zero of the same sign. */
__device__ inline uint16_t ptx2hip_h_negabs(uint16_t a, bool bf, bool ftz, bool abs) {
  uint32_t em = bf ? 0x7f80u : 0x7c00u;
  if ((a & 0x7fffu) > em) return 0x7fffu;
  if (ftz && (a & em) == 0) a &= 0x8000u;
  return (uint16_t)(abs ? (a & 0x7fffu) : (a ^ 0x8000u));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_negabs requires=ptx2hip_h_negabs,ptx2hip_h2_canon_nan
__device__ inline uint32_t ptx2hip_h2_negabs(uint32_t a, bool bf, bool ftz, bool abs) {
  return ptx2hip_h_negabs((uint16_t)a, bf, ftz, abs) |
         ((uint32_t)ptx2hip_h_negabs((uint16_t)(a >> 16), bf, ftz, abs) << 16);
}
// ptx2hip:amd
/* AMD: without .ftz, one sign operation on both lanes and ptx2hip_h2_canon_nan. */
__device__ inline uint32_t ptx2hip_h2_negabs(uint32_t a, bool bf, bool ftz, bool abs) {
  if (!ftz) return ptx2hip_h2_canon_nan(abs ? (a & 0x7fff7fffu) : (a ^ 0x80008000u), bf);
  return ptx2hip_h_negabs((uint16_t)a, bf, ftz, abs) |
         ((uint32_t)ptx2hip_h_negabs((uint16_t)(a >> 16), bf, ftz, abs) << 16);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_minmax
/* min (mx false) / max (mx true) of f16 or bf16 bits: -0 < +0; one NaN gives the other input,
   two NaNs (or any NaN with nan) give 0x7fff; xorsign compares magnitudes and gives the result
   the sign sign(a) ^ sign(b); ftz flushes subnormal inputs first. */
__device__ inline uint16_t ptx2hip_h_minmax(uint16_t a, uint16_t b, bool bf, bool ftz, bool mx,
                                            bool nan, bool xorsign) {
  uint32_t em = bf ? 0x7f80u : 0x7c00u;
  if (ftz && (a & em) == 0) a &= 0x8000u;
  if (ftz && (b & em) == 0) b &= 0x8000u;
  uint32_t xs = (uint32_t)(a ^ b) & 0x8000u;
  if (xorsign) {
    a &= 0x7fffu;
    b &= 0x7fffu;
  }
  bool an = (a & 0x7fffu) > em, bn = (b & 0x7fffu) > em;
  if ((an && bn) || (nan && (an || bn))) return 0x7fffu;
  uint32_t r;
  if (an) r = b;
  else if (bn) r = a;
  else {
    uint32_t ka = (a & 0x8000u) ? (~(uint32_t)a & 0xffffu) : (a | 0x8000u); /* monotone key */
    uint32_t kb = (b & 0x8000u) ? (~(uint32_t)b & 0xffffu) : (b | 0x8000u);
    r = (ka < kb) != mx ? a : b;
  }
  if (xorsign) r = (r & 0x7fffu) | xs;
  return (uint16_t)r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_minmax requires=ptx2hip_h_minmax
__device__ inline uint32_t ptx2hip_h2_minmax(uint32_t a, uint32_t b, bool bf, bool ftz, bool mx,
                                             bool nan, bool xorsign) {
  return ptx2hip_h_minmax((uint16_t)a, (uint16_t)b, bf, ftz, mx, nan, xorsign) |
         ((uint32_t)ptx2hip_h_minmax((uint16_t)(a >> 16), (uint16_t)(b >> 16), bf, ftz, mx, nan,
                                     xorsign)
          << 16);
}
// ptx2hip:amd
/* AMD: both lanes at once on 16-bit integer lanes, without a branch (about half the instructions
   of two ptx2hip_h_minmax; the packed f16 min/max instructions are not used: they quiet a
   signalling NaN instead of ignoring it). ftz flushes subnormal inputs, xorsign takes magnitudes,
   a NaN lane is replaced by the key that loses (so the other input wins), and lanes where both
   inputs (or with nan either input) are NaN become 0x7fff. The key x ^ ((x >> 15) & 0x7fff)
   orders the bits as their values, -0 below +0. */
typedef int16_t ptx2hip_i16x2_t __attribute__((vector_size(4)));
__device__ inline uint32_t ptx2hip_h2_minmax(uint32_t a, uint32_t b, bool bf, bool ftz, bool mx,
                                             bool nan, bool xorsign) {
  if (nan && xorsign) /* here the lane-wise code is as short */
    return ptx2hip_h_minmax((uint16_t)a, (uint16_t)b, bf, ftz, mx, nan, xorsign) |
           ((uint32_t)ptx2hip_h_minmax((uint16_t)(a >> 16), (uint16_t)(b >> 16), bf, ftz, mx, nan,
                                       xorsign)
            << 16);
  const ptx2hip_i16x2_t mag = {0x7fff, 0x7fff}, sign = {(int16_t)0x8000, (int16_t)0x8000};
  const ptx2hip_i16x2_t em = bf ? ptx2hip_i16x2_t{0x7f80, 0x7f80} : ptx2hip_i16x2_t{0x7c00, 0x7c00};
  ptx2hip_i16x2_t x, y;
  memcpy(&x, &a, 4);
  memcpy(&y, &b, 4);
  if (ftz) {
    x &= ~((x & em) == 0) | sign;
    y &= ~((y & em) == 0) | sign;
  }
  ptx2hip_i16x2_t xs = (x ^ y) & sign;
  if (xorsign) {
    x &= mag;
    y &= mag;
  }
  ptx2hip_i16x2_t xn = (x & mag) > em, yn = (y & mag) > em;
  ptx2hip_i16x2_t lose = mx ? sign : mag; /* the key no other value reaches */
  ptx2hip_i16x2_t kx = ((x ^ ((x >> 15) & mag)) & ~xn) | (lose & xn);
  ptx2hip_i16x2_t ky = ((y ^ ((y >> 15) & mag)) & ~yn) | (lose & yn);
  ptx2hip_i16x2_t pick_x = mx ? kx > ky : kx < ky;
  ptx2hip_i16x2_t r = (x & pick_x) | (y & ~pick_x);
  if (xorsign) r = (r & mag) | xs;
  ptx2hip_i16x2_t bad = nan ? (xn | yn) : (xn & yn);
  r = (r & ~bad) | (mag & bad);
  uint32_t u;
  memcpy(&u, &r, 4);
  return u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_fcmp requires=ptx2hip_fcmp,ptx2hip_h_to_f64
/* PTX floating-point CmpOp (ptx2hip_cmp) on f16 (bf false) or bf16 (bf true) bits, as set/setp
   compare: ordered forms false on NaN, unordered forms true, -0 equal to +0; ftz compares a
   subnormal as a zero of its sign. Both values widen exactly to double. */
template <int C>
__device__ inline bool ptx2hip_h_fcmp(uint32_t a, uint32_t b, bool bf, bool ftz) {
  uint32_t em = bf ? 0x7f80u : 0x7c00u;
  if (ftz && (a & em) == 0) a &= 0x8000u;
  if (ftz && (b & em) == 0) b &= 0x8000u;
  return ptx2hip_fcmp<C>(ptx2hip_h_to_f64(a, bf), ptx2hip_h_to_f64(b, bf));
}
// ptx2hip:amd
/* AMD: f16 compares as _Float16 (v_cmp_*_f16, which keeps f16 denormals), bf16 as the f32 whose
   high half it is (v_cmp_*_f32 on the shifted bits); both widenings are exact. */
template <int C>
__device__ inline bool ptx2hip_h_fcmp(uint32_t a, uint32_t b, bool bf, bool ftz) {
  if (bf)
    return ptx2hip_fcmp<C>(__builtin_bit_cast(float, a << 16), __builtin_bit_cast(float, b << 16));
  _Float16 x = __builtin_bit_cast(_Float16, (uint16_t)a);
  _Float16 y = __builtin_bit_cast(_Float16, (uint16_t)b);
  if (ftz && __builtin_fabsf16(x) < (_Float16)0x1p-14f) x = (_Float16)0.0f; /* -0 == +0 */
  if (ftz && __builtin_fabsf16(y) < (_Float16)0x1p-14f) y = (_Float16)0.0f;
  return ptx2hip_fcmp<C>(x, y);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_set requires=ptx2hip_h_fcmp
/* set on f16x2 / bf16x2 words: each 16-bit lane's comparison (lane 0 low), combined with c by
   B (0 none, 1 and, 2 or, 3 xor), writes `one` (1.0 of the format or 0xffff) or 0 into its half. */
template <int C, int B>
__device__ inline uint32_t ptx2hip_h2_set(uint32_t a, uint32_t b, bool bf, bool ftz, uint32_t one,
                                          bool c) {
  uint32_t r = 0;
  for (int lane = 0; lane < 2; ++lane) {
    int sh = 16 * lane;
    bool t = ptx2hip_h_fcmp<C>((a >> sh) & 0xffffu, (b >> sh) & 0xffffu, bf, ftz);
    if (B == 1) t = t && c;
    if (B == 2) t = t || c;
    if (B == 3) t = t != c;
    if (t) r |= one << sh;
  }
  return r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_recorded
/* The H100 result recorded for the 16-bit input x in a hash table whose slot for x is
   `(x * mult) >> shift` (each listed input has its own slot, holding `input << 16 | result`; empty
   slots hold 0xffffffff, whose input 0xffff is a NaN that is never looked up), or -1 when x is not
   listed: one load and one compare. */
__device__ inline int32_t ptx2hip_h_recorded(const uint32_t* tab, uint32_t mult, int shift,
                                             uint32_t x) {
  uint32_t w = tab[(x * mult) >> shift];
  return (w >> 16) == x ? (int32_t)(w & 0xffffu) : -1;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_trunc requires=ptx2hip_cvt_h_from_f32
/* A non-NaN f32 result truncated (rounded toward zero) to f16 (bf false) or bf16 (bf true) bits, as
   the H100's MUFU.TANH/EX2 .F16/.BF16 deliver their f32 approximation; ftz flushes a bf16 result
   below the smallest normal to a zero of its sign. (f16 results never exceed 65504 here.) */
__device__ inline uint16_t ptx2hip_h_trunc(float r, bool bf, bool ftz) {
  return ptx2hip_cvt_h_from_f32(r, bf, 1, false, false, ftz);
}
// ptx2hip:amd
/* AMD: f16 is v_cvt_pkrtz_f16_f32 (round toward zero, f16 denormals kept in the default MODE);
   bf16 is the high half of the bits. */
__device__ inline uint16_t ptx2hip_h_trunc(float r, bool bf, bool ftz) {
  if (!bf) return __builtin_bit_cast(uint16_t, __builtin_amdgcn_cvt_pkrtz(r, 0.0f)[0]);
  uint32_t h = __builtin_bit_cast(uint32_t, r) >> 16;
  return (uint16_t)(ftz && (h & 0x7f80u) == 0 ? h & 0x8000u : h);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_tanh requires=ptx2hip_f32_from_f16,ptx2hip_f32_from_bits,ptx2hip_h_trunc
/* tanh.approx of f16 (bf false) or bf16 (bf true) bits, bit for bit as the H100 (MUFU.TANH.F16 /
   .BF16: tanh.approx.f32 truncated to the format), given `recorded`, the H100's result when the
   input is listed in the format's table (else -1): 0x7fff for NaN, the recorded result, x itself
   for |x| <= 2^-8, +-1 for |x| >= 8, otherwise an f32 tanhf truncated (any tanhf within 2 ulp
   gives the H100's result for every input not listed). */
__device__ inline uint16_t ptx2hip_h_tanh(uint16_t a, bool bf, int32_t recorded) {
  if ((a & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u)) return 0x7fffu;
  if (recorded >= 0) return (uint16_t)recorded;
  float x = bf ? ptx2hip_f32_from_bits((uint32_t)a << 16) : ptx2hip_f32_from_f16(a);
  if (::fabsf(x) <= 0x1p-8f) return a;
  if (::fabsf(x) >= 8.0f) return (uint16_t)((a & 0x8000u) | (bf ? 0x3f80u : 0x3c00u));
  return ptx2hip_h_trunc(::tanhf(x), bf, false);
}
// ptx2hip:amd
/* AMD: the input widens with v_cvt_f32_f16 (exact); tanhf is the device library's (ocml). */
__device__ inline uint16_t ptx2hip_h_tanh(uint16_t a, bool bf, int32_t recorded) {
  if ((a & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u)) return 0x7fffu;
  if (recorded >= 0) return (uint16_t)recorded;
  float x =
      bf ? __builtin_bit_cast(float, (uint32_t)a << 16) : (float)__builtin_bit_cast(_Float16, a);
  if (__builtin_fabsf(x) <= 0x1p-8f) return a;
  if (__builtin_fabsf(x) >= 8.0f) return (uint16_t)((a & 0x8000u) | (bf ? 0x3f80u : 0x3c00u));
  return ptx2hip_h_trunc(::tanhf(x), bf, false);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tanh_f16_recorded
/* tanh.approx.f16 inputs whose H100 result ptx2hip_h_tanh's f32 path could miss (an f32 tanh
   within 2 ulp of the true value that truncates to another value), with the H100's result, as
   ptx2hip_h_recorded's hash table. Generated by tools/half_approx/update.py from the H100 tables
   of all 65,536 inputs (its README.md). */
constexpr uint32_t ptx2hip_tanh_f16_mult = 0x5643aebfu;
constexpr int ptx2hip_tanh_f16_shift = 24;
static __device__ const uint32_t ptx2hip_tanh_f16_recorded[256] = {
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x3eab3b72u, 0xffffffffu, 0xac96ac94u, 0xbe23bb49u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x40803bd3u,
    0xffffffffu, 0xffffffffu, 0x2e9d2e97u, 0xffffffffu, 0xffffffffu, 0x1c021c02u, 0xffffffffu,
    0xffffffffu, 0x1c051c05u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x2d3f2d3bu, 0x3db83b21u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x32ff32e3u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x2c962c94u, 0xffffffffu, 0x3e233b49u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xae39ae34u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb064b05du, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x9c039c03u, 0xffffffffu, 0xffffffffu, 0x9c069c06u, 0xbfd5bbb0u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb23fb22bu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xbed6bb7eu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x2e392e34u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x3064305du, 0xffffffffu, 0xffffffffu, 0xa9c6a9c5u, 0xffffffffu, 0xffffffffu,
    0x1c031c03u, 0xffffffffu, 0xffffffffu, 0x1c061c06u, 0xffffffffu, 0x3fd53bb0u, 0xbcc9baa9u,
    0xffffffffu, 0xffffffffu, 0x323f322bu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xbde3bb33u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb9f8b90fu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x3ed63b7eu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb55bb52au,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb72db6bbu,
    0xffffffffu, 0xbc8eba82u, 0xffffffffu, 0x29c629c5u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x9c019c01u, 0xffffffffu, 0xffffffffu, 0x9c049c04u, 0x3cc93aa9u, 0xffffffffu,
    0x9c079c07u, 0xbc9dba8cu, 0xffffffffu, 0xffffffffu, 0x3de33b33u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc429bbfeu, 0x39f8390fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x355b352au, 0xac95ac93u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x372d36bbu, 0xffffffffu,
    0x3c8e3a82u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x1c011c01u, 0xffffffffu, 0xffffffffu, 0x1c041c04u, 0xffffffffu, 0x1c071c07u, 0xffffffffu,
    0x3c9d3a8cu, 0xffffffffu, 0xffffffffu, 0xb824b79du, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x44293bfeu, 0xffffffffu, 0xb99ab8d6u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x2c952c93u, 0xffffffffu,
    0xffffffffu, 0xbeabbb72u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc080bbd3u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xae9dae97u, 0xffffffffu, 0xffffffffu, 0x9c029c02u, 0xffffffffu, 0x9c059c05u,
    0xffffffffu, 0x3824379du, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x399a38d6u, 0xad3fad3bu, 0xbdb8bb21u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xb2ffb2e3u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
};
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_tanh_f16 requires=ptx2hip_h_recorded,ptx2hip_tanh_f16_recorded,ptx2hip_h_tanh
__device__ inline uint16_t ptx2hip_h_tanh_f16(uint16_t a) {
  return ptx2hip_h_tanh(a, false,
                        ptx2hip_h_recorded(ptx2hip_tanh_f16_recorded, ptx2hip_tanh_f16_mult,
                                           ptx2hip_tanh_f16_shift, a));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_tanh_f16 requires=ptx2hip_h_tanh_f16
/* ptx2hip_h_tanh_f16 on each 16-bit lane (the H100 computes the lanes independently). */
__device__ inline uint32_t ptx2hip_h2_tanh_f16(uint32_t a) {
  return ptx2hip_h_tanh_f16((uint16_t)a) |
         ((uint32_t)ptx2hip_h_tanh_f16((uint16_t)(a >> 16)) << 16);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tanh_bf16_recorded
/* tanh.approx.bf16 inputs, as ptx2hip_tanh_f16_recorded. */
constexpr uint32_t ptx2hip_tanh_bf16_mult = 0x2ceaee21u;
constexpr int ptx2hip_tanh_bf16_shift = 30;
static __device__ const uint32_t ptx2hip_tanh_bf16_recorded[4] = {
    0xffffffffu,
    0xbf3fbf21u,
    0xffffffffu,
    0x3f3f3f21u,
};
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_tanh_bf16 requires=ptx2hip_h_recorded,ptx2hip_tanh_bf16_recorded,ptx2hip_h_tanh
__device__ inline uint16_t ptx2hip_h_tanh_bf16(uint16_t a) {
  return ptx2hip_h_tanh(a, true,
                        ptx2hip_h_recorded(ptx2hip_tanh_bf16_recorded, ptx2hip_tanh_bf16_mult,
                                           ptx2hip_tanh_bf16_shift, a));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_tanh_bf16 requires=ptx2hip_h_tanh_bf16
/* ptx2hip_h_tanh_bf16 on each 16-bit lane (the H100 computes the lanes independently). */
__device__ inline uint32_t ptx2hip_h2_tanh_bf16(uint32_t a) {
  return ptx2hip_h_tanh_bf16((uint16_t)a) |
         ((uint32_t)ptx2hip_h_tanh_bf16((uint16_t)(a >> 16)) << 16);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_ex2 requires=ptx2hip_f32_from_f16,ptx2hip_f32_from_bits,ptx2hip_h_trunc
/* ex2.approx of f16 (bf false) or, flushing subnormal inputs and results, bf16 (bf true) bits, bit
   for bit as the H100 (MUFU.EX2.F16 / .BF16: ex2.approx.ftz.f32 truncated to the format): 0x7fff
   for NaN, the recorded result for a listed input, 1.0 for |x| < 2^-23, +inf for f16 x >= 16,
   otherwise an f32 exp2f truncated (any exp2f within 2 ulp gives the H100's result for every input
   not listed). */
__device__ inline uint16_t ptx2hip_h_ex2(uint16_t a, bool bf, int32_t recorded) {
  if ((a & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u)) return 0x7fffu;
  if (recorded >= 0) return (uint16_t)recorded;
  if (bf && (a & 0x7f80u) == 0) a &= 0x8000u;
  float x = bf ? ptx2hip_f32_from_bits((uint32_t)a << 16) : ptx2hip_f32_from_f16(a);
  if (::fabsf(x) < 0x1p-23f) return bf ? 0x3f80u : 0x3c00u;
  if (!bf && x >= 16.0f) return 0x7c00u;
  return ptx2hip_h_trunc(::exp2f(x), bf, bf);
}
// ptx2hip:amd
/* AMD: the input widens with v_cvt_f32_f16 (exact) and 2^x is v_exp_f32 (1 ulp; it flushes
   results below 2^-126, which neither an f16 nor a flushing bf16 result can hold). */
__device__ inline uint16_t ptx2hip_h_ex2(uint16_t a, bool bf, int32_t recorded) {
  if ((a & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u)) return 0x7fffu;
  if (recorded >= 0) return (uint16_t)recorded;
  if (bf && (a & 0x7f80u) == 0) a &= 0x8000u;
  float x =
      bf ? __builtin_bit_cast(float, (uint32_t)a << 16) : (float)__builtin_bit_cast(_Float16, a);
  if (__builtin_fabsf(x) < 0x1p-23f) return bf ? 0x3f80u : 0x3c00u;
  if (!bf && x >= 16.0f) return 0x7c00u;
  return ptx2hip_h_trunc(__builtin_amdgcn_exp2f(x), bf, bf);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_ex2_f16_recorded
/* ex2.approx.f16 inputs whose H100 result ptx2hip_h_ex2's f32 path could miss, with the H100's
   result (generated like ptx2hip_tanh_f16_recorded). */
constexpr uint32_t ptx2hip_ex2_f16_mult = 0x1456db7du;
constexpr int ptx2hip_ex2_f16_shift = 25;
static __device__ const uint32_t ptx2hip_ex2_f16_recorded[128] = {
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc8801800u, 0xffffffffu, 0xcb800200u, 0x19c43c02u,
    0xffffffffu, 0xffffffffu, 0x44004c00u, 0xffffffffu, 0x47005800u, 0xffffffffu, 0x4a006c00u,
    0xffffffffu, 0x9b393bfau, 0xffffffffu, 0xffffffffu, 0xc0003400u, 0xffffffffu, 0x00023c00u,
    0xffffffffu, 0xc6002400u, 0xffffffffu, 0xffffffffu, 0xc9001400u, 0xffffffffu, 0xcc000100u,
    0xffffffffu, 0xffffffffu, 0x00033c00u, 0xffffffffu, 0xffffffffu, 0xa4b83be6u, 0xffffffffu,
    0x4a807000u, 0x95c63bfeu, 0xffffffffu, 0xcc400080u, 0xba8d3889u, 0x00043c00u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x3c004000u, 0xc9801000u, 0xffffffffu, 0xffffffffu,
    0xcc800040u, 0x42004800u, 0xffffffffu, 0x45005000u, 0xffffffffu, 0x48005c00u, 0xffffffffu,
    0xffffffffu, 0x4b007400u, 0xffffffffu, 0xffffffffu, 0xccc00020u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc4002c00u, 0xffffffffu, 0xc7002000u, 0xad563b8du, 0xca000c00u, 0xffffffffu,
    0xcd000010u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x80023bffu, 0x48806000u,
    0xffffffffu, 0x4b807800u, 0xffffffffu, 0xffffffffu, 0xcd400008u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x80033bffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xca800800u,
    0x40004400u, 0xcd800004u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x46005400u, 0xffffffffu,
    0x49006400u, 0xa39d3beau, 0xbc003800u, 0xffffffffu, 0xffffffffu, 0xcdc00002u, 0xffffffffu,
    0xc2003000u, 0x31cc3c89u, 0xc5002800u, 0xffffffffu, 0xc8001c00u, 0xffffffffu, 0xffffffffu,
    0xcb000400u, 0xffffffffu, 0xce000001u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x91c63bfeu,
    0xffffffffu, 0x49806800u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu,
};
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_ex2_f16 requires=ptx2hip_h_recorded,ptx2hip_ex2_f16_recorded,ptx2hip_h_ex2
__device__ inline uint16_t ptx2hip_h_ex2_f16(uint16_t a) {
  return ptx2hip_h_ex2(
      a, false,
      ptx2hip_h_recorded(ptx2hip_ex2_f16_recorded, ptx2hip_ex2_f16_mult, ptx2hip_ex2_f16_shift, a));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_ex2_f16 requires=ptx2hip_h_ex2_f16
/* ptx2hip_h_ex2_f16 on each 16-bit lane (the H100 computes the lanes independently). */
__device__ inline uint32_t ptx2hip_h2_ex2_f16(uint32_t a) {
  return ptx2hip_h_ex2_f16((uint16_t)a) | ((uint32_t)ptx2hip_h_ex2_f16((uint16_t)(a >> 16)) << 16);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_ex2_bf16_recorded
/* ex2.approx.ftz.bf16 inputs, as ptx2hip_ex2_f16_recorded. */
constexpr uint32_t ptx2hip_ex2_bf16_mult = 0xc162b277u;
constexpr int ptx2hip_ex2_bf16_shift = 21;
static __device__ const uint32_t ptx2hip_ex2_bf16_recorded[2048] = {
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2e00780u, 0xffffffffu,
    0x34833f80u, 0xffffffffu, 0x42685c80u, 0xffffffffu, 0xb4433f7fu, 0xffffffffu, 0xffffffffu,
    0xc2282a80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x41b04a80u, 0xffffffffu, 0x34563f80u,
    0xffffffffu, 0xc1703800u, 0xffffffffu, 0xb4163f7fu, 0xffffffffu, 0xffffffffu, 0x42c67100u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2861e00u, 0x34293f80u, 0xffffffffu,
    0x40404100u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc0003e80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc2e40680u, 0x34873f80u, 0xffffffffu, 0xffffffffu, 0x426c5d00u, 0xb4473f7fu,
    0xffffffffu, 0xffffffffu, 0xc22c2a00u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x345a3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb41a3f7fu,
    0xffffffffu, 0xffffffffu, 0x42ca7200u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc28a1d00u,
    0x342d3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34003f80u, 0xffffffffu, 0xffffffffu, 0xc2e80580u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x42705d80u, 0xffffffffu, 0xb44b3f7fu, 0xffffffffu, 0xc2302980u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x41b84b00u, 0x345e3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xb41e3f7fu, 0xffffffffu, 0x41004380u, 0x42ce7300u, 0xffffffffu, 0xffffffffu,
    0xc0c03c80u, 0xc28e1c00u, 0xffffffffu, 0x34313f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x34043f80u, 0xffffffffu, 0xffffffffu, 0xc2ec0480u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x42745e00u, 0xffffffffu, 0xb44f3f7fu, 0xffffffffu, 0xffffffffu,
    0xc2342900u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34623f80u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4223f7fu, 0xffffffffu, 0xffffffffu, 0x42d27400u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2921b00u, 0x34353f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34083f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc2f00380u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x42785e80u, 0xb4533f7fu,
    0xffffffffu, 0xffffffffu, 0xc2382880u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x41c04b80u,
    0xffffffffu, 0x34663f80u, 0xffffffffu, 0xffffffffu, 0xc1803780u, 0xffffffffu, 0xb4263f7fu,
    0xffffffffu, 0xffffffffu, 0x42d67500u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2961a00u,
    0x34393f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x340c3f80u, 0xffffffffu, 0xffffffffu, 0xc2f40280u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x427c5f00u, 0xffffffffu, 0xb4573f7fu, 0xffffffffu, 0xffffffffu, 0xc23c2800u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x346a3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xb42a3f7fu, 0xffffffffu, 0xffffffffu, 0x42da7600u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc29a1900u, 0xffffffffu, 0x343d3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x34103f80u, 0xffffffffu, 0xffffffffu, 0xc2f80180u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x42805f80u, 0xffffffffu, 0xb45b3f7fu, 0xffffffffu, 0xffffffffu,
    0xc2402780u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x41c84c00u, 0xffffffffu, 0x346e3f80u,
    0xffffffffu, 0xc1883700u, 0xffffffffu, 0xb42e3f7fu, 0xffffffffu, 0x41104400u, 0x42de7700u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc29e1800u, 0x34413f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb4013f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34143f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc2fc0080u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x42846080u, 0xb45f3f7fu,
    0xffffffffu, 0xffffffffu, 0xc2442700u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x34723f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4323f7fu,
    0xffffffffu, 0xffffffffu, 0x42e27800u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2a21700u,
    0x34453f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4053f7fu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34183f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x42886180u, 0xffffffffu, 0xb4633f7fu, 0xffffffffu, 0xffffffffu, 0xc2482680u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x41d04c80u, 0x34763f80u, 0xffffffffu, 0xffffffffu, 0xc1903680u,
    0xffffffffu, 0xb4363f7fu, 0xffffffffu, 0xffffffffu, 0x42e67900u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc2a61600u, 0xffffffffu, 0x34493f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xb4093f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x341c3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x428c6280u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc24c2600u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x347a3f80u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb43a3f7fu, 0xffffffffu, 0xffffffffu, 0x42ea7a00u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2aa1500u, 0x344d3f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb40d3f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34203f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x42906380u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc2502580u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x41d84d00u,
    0xffffffffu, 0x347e3f80u, 0xffffffffu, 0xffffffffu, 0xc1983600u, 0xffffffffu, 0xb43e3f7fu,
    0xffffffffu, 0x41204480u, 0x42ee7b00u, 0xffffffffu, 0xffffffffu, 0xc0e03c00u, 0xc2ae1400u,
    0x34513f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4113f7fu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34243f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x42946480u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2542500u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34823f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xb4423f7fu, 0xffffffffu, 0xffffffffu, 0x42f27c00u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc2b21300u, 0xffffffffu, 0x34553f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xb4153f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x34283f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x42986580u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc2582480u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x41e04d80u, 0xffffffffu, 0x34863f80u,
    0xffffffffu, 0xc1a03580u, 0xffffffffu, 0xb4463f7fu, 0xffffffffu, 0xffffffffu, 0x42f67d00u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2b61200u, 0x34593f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb4193f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x342c3f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x429c6680u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc25c2400u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x348a3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb44a3f7fu,
    0xffffffffu, 0xffffffffu, 0x42fa7e00u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2ba1100u,
    0x345d3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb41d3f7fu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34303f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x42a06780u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2602380u, 0x34033f80u,
    0xffffffffu, 0xffffffffu, 0x41e84e00u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc1a83500u,
    0xffffffffu, 0xb44e3f7fu, 0xffffffffu, 0x41304500u, 0x42fe7f00u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc2be1000u, 0xffffffffu, 0x34613f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xb4213f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x34343f80u, 0xffffffffu, 0xbf803f00u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x42a46880u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc2642300u, 0x34073f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4523f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2c20f00u, 0x34653f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb4253f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34383f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x42a86980u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc2682280u, 0x340b3f80u, 0xffffffffu, 0xffffffffu, 0x41f04e80u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc1b03480u, 0xffffffffu, 0xb4563f7fu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2c60e00u,
    0x34693f80u, 0xffffffffu, 0x40804180u, 0xffffffffu, 0xffffffffu, 0xb4293f7fu, 0xffffffffu,
    0xc0403e00u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x343c3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x42ac6a80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc26c2200u, 0x340f3f80u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xb45a3f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc2ca0d00u, 0xffffffffu, 0x346d3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xb42d3f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x34403f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4003f7fu,
    0xffffffffu, 0xffffffffu, 0x42b06b80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc2702180u, 0x34133f80u, 0xffffffffu, 0xffffffffu, 0x41f84f00u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc1b83400u, 0xffffffffu, 0xb45e3f7fu, 0xffffffffu, 0x41404580u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc1003b80u, 0xc2ce0c00u, 0x34713f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb4313f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34443f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb4043f7fu, 0xffffffffu, 0xffffffffu, 0x42b46c80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc2742100u, 0x34173f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4623f7fu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2d20b00u,
    0x34753f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4353f7fu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34483f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4083f7fu, 0xffffffffu, 0xffffffffu,
    0x42b86d80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2782080u, 0x341b3f80u,
    0xffffffffu, 0xffffffffu, 0x42004f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc1c03380u,
    0xffffffffu, 0xb4663f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc2d60a00u, 0xffffffffu, 0x34793f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xb4393f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x344c3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb40c3f7fu,
    0xffffffffu, 0xffffffffu, 0x42bc6e80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc27c2000u, 0x341f3f80u, 0xffffffffu, 0xffffffffu, 0x42045000u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2da0900u, 0x347d3f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb43d3f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34503f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb4103f7fu, 0xffffffffu, 0xffffffffu, 0x42c06f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc2801f80u, 0x34233f80u, 0xffffffffu, 0xffffffffu, 0x42085080u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc1c83300u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x41504600u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc1103b00u, 0xc2de0800u,
    0x34813f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4413f7fu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34543f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4143f7fu, 0xffffffffu, 0xffffffffu,
    0x42c47080u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2841e80u, 0x34273f80u,
    0xffffffffu, 0xffffffffu, 0x420c5100u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc2e20700u, 0xffffffffu, 0x34853f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xb4453f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x34583f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4183f7fu,
    0xffffffffu, 0xffffffffu, 0x42c87180u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc2881d80u, 0x342b3f80u, 0xffffffffu, 0xffffffffu, 0x42105180u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xc1d03280u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2e60600u, 0x34893f80u, 0xffffffffu,
    0x40a04200u, 0xffffffffu, 0xffffffffu, 0xb4493f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x345c3f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb41c3f7fu, 0xffffffffu, 0xffffffffu, 0x42cc7280u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc28c1c80u, 0x342f3f80u, 0xffffffffu, 0xffffffffu, 0x42145200u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34023f80u, 0xffffffffu, 0xffffffffu, 0xc2ea0500u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb44d3f7fu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34603f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4203f7fu, 0xffffffffu, 0xffffffffu,
    0x42d07380u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2901b80u, 0x34333f80u,
    0xffffffffu, 0xffffffffu, 0x42185280u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc1d83200u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x41604680u, 0xffffffffu, 0x34063f80u, 0xffffffffu,
    0xffffffffu, 0xc1203a80u, 0xc2ee0400u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xb4513f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x34643f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4243f7fu,
    0xffffffffu, 0xffffffffu, 0x42d47480u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc2941a80u, 0x34373f80u, 0xffffffffu, 0xffffffffu, 0x421c5300u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x340a3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2f20300u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4553f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34683f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb4283f7fu, 0xffffffffu, 0xffffffffu, 0x42d87580u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc2981980u, 0x343b3f80u, 0xffffffffu, 0xffffffffu, 0x42205380u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc1e03180u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x340e3f80u, 0xffffffffu, 0xffffffffu, 0xc2f60200u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4593f7fu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x346c3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb42c3f7fu, 0xffffffffu, 0xffffffffu,
    0x42dc7680u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc29c1880u, 0x343f3f80u,
    0xffffffffu, 0xffffffffu, 0x42245400u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34123f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc2fa0100u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x42826000u,
    0xb45d3f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x34703f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4303f7fu,
    0xffffffffu, 0xffffffffu, 0x42e07780u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc2a01780u, 0x34433f80u, 0xffffffffu, 0xffffffffu, 0x42285480u, 0xffffffffu, 0xb4033f7fu,
    0xffffffffu, 0xc1e83100u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x41704700u, 0xffffffffu,
    0x34163f80u, 0xffffffffu, 0xffffffffu, 0xc1303a00u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x42866100u, 0xffffffffu, 0xb4613f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x40004080u, 0xffffffffu, 0xffffffffu, 0x34743f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb4343f7fu, 0xffffffffu, 0xffffffffu, 0x42e47880u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc2a41680u, 0x34473f80u, 0xffffffffu, 0xffffffffu, 0x422c5500u,
    0xffffffffu, 0xb4073f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x341a3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x428a6200u, 0xffffffffu, 0xb4653f7fu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34783f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4383f7fu, 0xffffffffu, 0xffffffffu,
    0x42e87980u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2a81580u, 0x344b3f80u,
    0xffffffffu, 0xffffffffu, 0x42305580u, 0xb40b3f7fu, 0xffffffffu, 0xffffffffu, 0xc1f03080u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x341e3f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x40c04280u, 0x428e6300u,
    0xffffffffu, 0xffffffffu, 0xc0803d80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x347c3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb43c3f7fu,
    0xffffffffu, 0xffffffffu, 0x42ec7a80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc2ac1480u, 0x344f3f80u, 0xffffffffu, 0xffffffffu, 0x42345600u, 0xffffffffu, 0xb40f3f7fu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34223f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x42926400u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34803f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb4403f7fu, 0xffffffffu, 0xffffffffu, 0x42f07b80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc2b01380u, 0xffffffffu, 0x34533f80u, 0xffffffffu, 0x42385680u,
    0xffffffffu, 0xb4133f7fu, 0xffffffffu, 0xffffffffu, 0xc1f83000u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x41804780u, 0xffffffffu, 0x34263f80u, 0xffffffffu, 0xc1403980u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x42966500u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34843f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4443f7fu, 0xffffffffu, 0xffffffffu,
    0x42f47c80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2b41280u, 0x34573f80u,
    0xffffffffu, 0xffffffffu, 0x423c5700u, 0xb4173f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x342a3f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x429a6600u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x34883f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4483f7fu,
    0xffffffffu, 0xffffffffu, 0x42f87d80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc2b81180u, 0x345b3f80u, 0xffffffffu, 0xffffffffu, 0x42405780u, 0xffffffffu, 0xb41b3f7fu,
    0xffffffffu, 0xc2002f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x41884800u, 0xffffffffu,
    0x342e3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x429e6700u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34013f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb44c3f7fu, 0xffffffffu, 0xffffffffu, 0x42fc7e80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc2bc1080u, 0xffffffffu, 0x345f3f80u, 0xffffffffu, 0x42445800u,
    0xffffffffu, 0xb41f3f7fu, 0xffffffffu, 0xffffffffu, 0xc2042f00u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34323f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x42a26800u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x34053f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4503f7fu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2c00f80u, 0x34633f80u,
    0xffffffffu, 0xffffffffu, 0x42485880u, 0xb4233f7fu, 0xffffffffu, 0xffffffffu, 0xc2082e80u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x41904880u, 0xffffffffu, 0x34363f80u, 0xffffffffu,
    0xffffffffu, 0xc1503900u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x42a66900u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34093f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4543f7fu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc2c40e80u, 0x34673f80u, 0xffffffffu, 0xffffffffu, 0x424c5900u, 0xffffffffu, 0xb4273f7fu,
    0xffffffffu, 0xc20c2e00u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x343a3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x42aa6a00u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x340d3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb4583f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc2c80d80u, 0xffffffffu, 0x346b3f80u, 0xffffffffu, 0x42505980u,
    0xffffffffu, 0xb42b3f7fu, 0xffffffffu, 0xffffffffu, 0xc2102d80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x41984900u, 0xffffffffu, 0x343e3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x40e04300u, 0x42ae6b00u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc0a03d00u, 0xffffffffu, 0x34113f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb45c3f7fu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2cc0c80u, 0x346f3f80u,
    0xffffffffu, 0xffffffffu, 0x42545a00u, 0xb42f3f7fu, 0xffffffffu, 0xffffffffu, 0xc2142d00u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34423f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4023f7fu, 0xffffffffu, 0xffffffffu, 0x42b26c00u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34153f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4603f7fu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc2d00b80u, 0x34733f80u, 0xffffffffu, 0xffffffffu, 0x42585a80u, 0xffffffffu, 0xb4333f7fu,
    0xffffffffu, 0xc2182c80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x41a04980u, 0xffffffffu,
    0x34463f80u, 0xffffffffu, 0xffffffffu, 0xc1603880u, 0xffffffffu, 0xb4063f7fu, 0xffffffffu,
    0xffffffffu, 0x42b66d00u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34193f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xb4643f7fu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xc2d40a80u, 0xffffffffu, 0x34773f80u, 0xffffffffu, 0x425c5b00u,
    0xffffffffu, 0xb4373f7fu, 0xffffffffu, 0xffffffffu, 0xc21c2c00u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x344a3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xb40a3f7fu, 0xffffffffu, 0xffffffffu, 0x42ba6e00u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x341d3f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2d80980u, 0x347b3f80u,
    0xffffffffu, 0xffffffffu, 0x42605b80u, 0xb43b3f7fu, 0xffffffffu, 0xffffffffu, 0xc2202b80u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0x41a84a00u, 0xffffffffu, 0x344e3f80u, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb40e3f7fu, 0xffffffffu, 0xffffffffu, 0x42be6f00u,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x34213f80u, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0x3f804000u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xc2dc0880u, 0x347f3f80u, 0xffffffffu, 0xffffffffu, 0x42645c00u, 0xffffffffu, 0xb43f3f7fu,
    0xffffffffu, 0xc2242b00u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0x34523f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xb4123f7fu, 0xffffffffu,
    0xffffffffu, 0x42c27000u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xc2821f00u, 0xffffffffu,
    0x34253f80u, 0xffffffffu, 0xffffffffu, 0xffffffffu,
};
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_ex2_bf16 requires=ptx2hip_h_recorded,ptx2hip_ex2_bf16_recorded,ptx2hip_h_ex2
__device__ inline uint16_t ptx2hip_h_ex2_bf16(uint16_t a) {
  return ptx2hip_h_ex2(a, true,
                       ptx2hip_h_recorded(ptx2hip_ex2_bf16_recorded, ptx2hip_ex2_bf16_mult,
                                          ptx2hip_ex2_bf16_shift, a));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_ex2_bf16 requires=ptx2hip_h_ex2_bf16
/* ptx2hip_h_ex2_bf16 on each 16-bit lane (the H100 computes the lanes independently). */
__device__ inline uint32_t ptx2hip_h2_ex2_bf16(uint32_t a) {
  return ptx2hip_h_ex2_bf16((uint16_t)a) |
         ((uint32_t)ptx2hip_h_ex2_bf16((uint16_t)(a >> 16)) << 16);
}
// ptx2hip:end
