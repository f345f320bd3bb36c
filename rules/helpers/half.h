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

// ptx2hip:helper ptx2hip_h_fma requires=ptx2hip_h_fma_exact,ptx2hip_h_fix_f16
__device__ inline uint16_t ptx2hip_h_fma(uint16_t a, uint16_t b, uint16_t c, bool bf, bool ftz,
                                         bool sat, bool relu) {
  return ptx2hip_h_fma_exact(a, b, c, bf, ftz, sat, relu);
}
// ptx2hip:amd
/* AMD: f16 without .ftz is v_fma_f16 (add = fma(a, 1, b) folds to v_add_f16, mul = fma(a, b, -0) to
   v_mul_f16): IEEE, one rounding to nearest even, f16 denormals kept (the HIP kernel default MODE:
   float_denorm_mode_16_64 = 3, float_round_mode_16_64 = 0); NaN/.sat/.relu are then fixed on the
   bits. bf16 and .ftz take the exact software path. */
__device__ inline uint16_t ptx2hip_h_fma(uint16_t a, uint16_t b, uint16_t c, bool bf, bool ftz,
                                         bool sat, bool relu) {
  if (bf || ftz) return ptx2hip_h_fma_exact(a, b, c, bf, ftz, sat, relu);
  _Float16 x, y, z;
  memcpy(&x, &a, 2);
  memcpy(&y, &b, 2);
  memcpy(&z, &c, 2);
  _Float16 r = __builtin_fmaf16(x, y, z);
  uint16_t u;
  memcpy(&u, &r, 2);
  return (uint16_t)ptx2hip_h_fix_f16(u, sat, relu);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_fma requires=ptx2hip_h_fma,ptx2hip_h_fix_f16
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
   in the low half as in PTX; each lane's NaN/.sat/.relu is then fixed on the bits. */
typedef _Float16 ptx2hip_f16x2_t __attribute__((ext_vector_type(2)));
__device__ inline uint32_t ptx2hip_h2_fma(uint32_t a, uint32_t b, uint32_t c, bool bf, bool ftz,
                                          bool sat, bool relu) {
  if (bf || ftz) {
    uint32_t lo = ptx2hip_h_fma((uint16_t)a, (uint16_t)b, (uint16_t)c, bf, ftz, sat, relu);
    uint32_t hi = ptx2hip_h_fma((uint16_t)(a >> 16), (uint16_t)(b >> 16), (uint16_t)(c >> 16), bf,
                                ftz, sat, relu);
    return lo | (hi << 16);
  }
  ptx2hip_f16x2_t x, y, z;
  memcpy(&x, &a, 4);
  memcpy(&y, &b, 4);
  memcpy(&z, &c, 4);
  ptx2hip_f16x2_t r = __builtin_elementwise_fma(x, y, z);
  uint32_t u;
  memcpy(&u, &r, 4);
  return ptx2hip_h_fix_f16(u & 0xffffu, sat, relu) | (ptx2hip_h_fix_f16(u >> 16, sat, relu) << 16);
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

// ptx2hip:helper ptx2hip_h2_negabs requires=ptx2hip_h_negabs
__device__ inline uint32_t ptx2hip_h2_negabs(uint32_t a, bool bf, bool ftz, bool abs) {
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
  if (bf) {
    uint32_t ua = a << 16, ub = b << 16;
    float x, y;
    memcpy(&x, &ua, 4);
    memcpy(&y, &ub, 4);
    return ptx2hip_fcmp<C>(x, y);
  }
  uint16_t ha = (uint16_t)a, hb = (uint16_t)b;
  if (ftz && (ha & 0x7c00u) == 0) ha &= 0x8000u;
  if (ftz && (hb & 0x7c00u) == 0) hb &= 0x8000u;
  _Float16 x, y;
  memcpy(&x, &ha, 2);
  memcpy(&y, &hb, 2);
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
/* The H100 result recorded for the 16-bit input x in tab (words `input << 16 | result`, sorted by
   input), or -1 when x is not listed: a binary search. */
__device__ inline int32_t ptx2hip_h_recorded(const uint32_t* tab, uint32_t n, uint32_t x) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if ((tab[mid] >> 16) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && (tab[lo] >> 16) == x ? (int32_t)(tab[lo] & 0xffffu) : -1;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_tanh_recorded
/* tanh.approx.f16 / .bf16 inputs whose H100 result is not the correctly rounded tanh, or whose
   tanh lies within 8 f32 ulps of a rounding boundary (where a 2-ulp f32 tanhf could round to the
   other side), with the H100's result. Generated by tools/half_approx/derive.cpp from the H100
   tables of all 65,536 inputs (tools/half_approx/README.md). */
static __device__ const uint32_t ptx2hip_tanh_f16_recorded[38] = {
    0x27442744u, 0x27452744u, 0x27462745u, 0x28942894u, 0x28952894u, 0x2a9b2a9au, 0x2d862d82u,
    0x3179316bu, 0x319b318du, 0x34e334beu, 0x36543605u, 0x36b23654u, 0x397a38c2u, 0x3a44393du,
    0x3d613afcu, 0x3e773b65u, 0x3ec43b79u, 0x402f3bc2u, 0x42d03bfbu, 0xa744a744u, 0xa745a744u,
    0xa746a745u, 0xa894a894u, 0xa895a894u, 0xaa9baa9au, 0xad86ad82u, 0xb179b16bu, 0xb19bb18du,
    0xb4e3b4beu, 0xb654b605u, 0xb6b2b654u, 0xb97ab8c2u, 0xba44b93du, 0xbd61bafcu, 0xbe77bb65u,
    0xbec4bb79u, 0xc02fbbc2u, 0xc2d0bbfbu,
};
static __device__ const uint32_t ptx2hip_tanh_bf16_recorded[0] = {};
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_tanh requires=ptx2hip_h_recorded,ptx2hip_h_tanh_recorded,ptx2hip_f32_from_f16,ptx2hip_f32_from_bits,ptx2hip_cvt_h_from_f32
/* tanh.approx of f16 (bf false) or bf16 (bf true) bits, bit for bit as the H100: the recorded
   result for a listed input, 0x7fff for NaN, otherwise tanh rounded to the format (an f32 tanhf
   within 2 ulp rounds to the same value for every input not listed). */
__device__ inline uint16_t ptx2hip_h_tanh(uint16_t a, bool bf) {
  if ((a & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u)) return 0x7fffu;
  int32_t r =
      bf ? ptx2hip_h_recorded(ptx2hip_tanh_bf16_recorded, sizeof ptx2hip_tanh_bf16_recorded / 4, a)
         : ptx2hip_h_recorded(ptx2hip_tanh_f16_recorded, sizeof ptx2hip_tanh_f16_recorded / 4, a);
  if (r >= 0) return (uint16_t)r;
  float x = bf ? ptx2hip_f32_from_bits((uint32_t)a << 16) : ptx2hip_f32_from_f16(a);
  return ptx2hip_cvt_h_from_f32(::tanhf(x), bf, 0, false, false, false);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_tanh requires=ptx2hip_h_tanh
/* ptx2hip_h_tanh on each 16-bit lane (the H100 computes the lanes independently). */
__device__ inline uint32_t ptx2hip_h2_tanh(uint32_t a, bool bf) {
  return ptx2hip_h_tanh((uint16_t)a, bf) |
         ((uint32_t)ptx2hip_h_tanh((uint16_t)(a >> 16), bf) << 16);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_ex2_recorded
/* ex2.approx.f16 / .ftz.bf16 inputs whose H100 result is not the correctly rounded 2^x, or whose
   2^x lies within 8 f32 ulps of a rounding boundary, with the H100's result (generated like the
   tanh table above). */
static __device__ const uint32_t ptx2hip_ex2_f16_recorded[71] = {
    0x11c33c00u, 0x11c43c00u, 0x11c53c00u, 0x11c63c01u, 0x11c73c01u, 0x18533c01u, 0x1b343c02u,
    0x1b353c03u, 0x1e7a3c04u, 0x1fea3c06u, 0x21643c08u, 0x221b3c08u, 0x23893c0au, 0x2bdb3c2cu,
    0x2e7c3c4au, 0x2ea73c4cu, 0x2fe73c5bu, 0x36b63d5au, 0x38633dd9u, 0x39f83eb5u, 0x3a8a3f0cu,
    0x3b123f62u, 0x3b823faau, 0x3efc42b5u, 0x3f45430cu, 0x3f894362u, 0x3fc143aau, 0x417e46b5u,
    0x437e4ab5u, 0x44bf4eb5u, 0x45bf52b5u, 0x46bf56b5u, 0x47bf5ab5u, 0x8dc33c00u, 0x8dc43c00u,
    0x8dc53c00u, 0x8dc63bffu, 0x8dc73bffu, 0x8dc83bffu, 0x94543bffu, 0x94553bfeu, 0x97383bfdu,
    0x990e3bfcu, 0x9a803bfbu, 0x9bf23bfbu, 0x9e253bf7u, 0x9f983bf5u, 0xa2b43bedu, 0xa52d3be3u,
    0xa86d3bd0u, 0xa8b43bccu, 0xa9d13bc0u, 0xabe03baau, 0xaf573b63u, 0xaf703b62u, 0xb1d83b0cu,
    0xb4103ab5u, 0xb4db3a7cu, 0xb73a39d9u, 0xb8a5395au, 0xbc3f37aau, 0xbc773762u, 0xbcbb370cu,
    0xbd0436b5u, 0xc08232b5u, 0xc2822eb5u, 0xc4412ab5u, 0xc54126b5u, 0xc64122b5u, 0xc7411eb5u,
    0xce400000u,
};
static __device__ const uint32_t ptx2hip_ex2_bf16_recorded[1] = {
    0xc3060000u,
};
// ptx2hip:end

// ptx2hip:helper ptx2hip_h_ex2 requires=ptx2hip_h_recorded,ptx2hip_h_ex2_recorded,ptx2hip_f32_from_f16,ptx2hip_f32_from_bits,ptx2hip_cvt_h_from_f32
/* ex2.approx of f16 (bf false) or, flushing subnormal inputs and results, bf16 (bf true) bits, bit
   for bit as the H100: the recorded result for a listed input, 0x7fff for NaN, otherwise 2^x
   rounded to the format from an f32 exp2f (within 2 ulp: the same rounding for every input not
   listed). */
__device__ inline uint16_t ptx2hip_h_ex2(uint16_t a, bool bf) {
  if ((a & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u)) return 0x7fffu;
  int32_t r =
      bf ? ptx2hip_h_recorded(ptx2hip_ex2_bf16_recorded, sizeof ptx2hip_ex2_bf16_recorded / 4, a)
         : ptx2hip_h_recorded(ptx2hip_ex2_f16_recorded, sizeof ptx2hip_ex2_f16_recorded / 4, a);
  if (r >= 0) return (uint16_t)r;
  if (bf && (a & 0x7f80u) == 0) a &= 0x8000u;
  float x = bf ? ptx2hip_f32_from_bits((uint32_t)a << 16) : ptx2hip_f32_from_f16(a);
  return ptx2hip_cvt_h_from_f32(::exp2f(x), bf, 0, false, false, bf);
}
// ptx2hip:amd
/* AMD: 2^x is v_exp_f32 (1 ulp; it flushes results below 2^-126, which neither an f16 nor a
   flushing bf16 result can hold), rounded by v_cvt_f16_f32 for f16. */
__device__ inline uint16_t ptx2hip_h_ex2(uint16_t a, bool bf) {
  if ((a & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u)) return 0x7fffu;
  int32_t r =
      bf ? ptx2hip_h_recorded(ptx2hip_ex2_bf16_recorded, sizeof ptx2hip_ex2_bf16_recorded / 4, a)
         : ptx2hip_h_recorded(ptx2hip_ex2_f16_recorded, sizeof ptx2hip_ex2_f16_recorded / 4, a);
  if (r >= 0) return (uint16_t)r;
  if (bf && (a & 0x7f80u) == 0) a &= 0x8000u;
  float x = bf ? ptx2hip_f32_from_bits((uint32_t)a << 16) : ptx2hip_f32_from_f16(a);
  return ptx2hip_cvt_h_from_f32(__builtin_amdgcn_exp2f(x), bf, 0, false, false, bf);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_h2_ex2 requires=ptx2hip_h_ex2
/* ptx2hip_h_ex2 on each 16-bit lane (the H100 computes the lanes independently). */
__device__ inline uint32_t ptx2hip_h2_ex2(uint32_t a, bool bf) {
  return ptx2hip_h_ex2((uint16_t)a, bf) | ((uint32_t)ptx2hip_h_ex2((uint16_t)(a >> 16), bf) << 16);
}
// ptx2hip:end
