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
   bits. bf16 add, sub and mul go through f32, bf16 fma through f64 (ptx2hip_bf16_fma_f64); .ftz
   takes the exact software path. */
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
  if (ftz) return ptx2hip_h_fma_exact(a, b, c, bf, ftz, sat, relu);
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
  if (bf || ftz) {
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
