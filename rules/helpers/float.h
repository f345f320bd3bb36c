// Helpers of rules/float.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_add_rz_f32 requires=ptx2hip_f32_from_bits,ptx2hip_bits_from_f32
__device__ inline float ptx2hip_add_rz_f32(float a, float b) {
  float s = __fadd_rn(a, b);
  if (s != s) return ptx2hip_f32_from_bits(0x7fffffffu);
  if (!(fabsf(s) <= 3.40282347e+38f)) {
    /* Infinite: exact when an input is infinite, otherwise an overflow that RZ clamps. */
    if (!(fabsf(a) <= 3.40282347e+38f) || !(fabsf(b) <= 3.40282347e+38f)) return s;
    return s > 0.0f ? 3.40282347e+38f : -3.40282347e+38f;
  }
  float bv = __fsub_rn(s, a);
  float err = __fadd_rn(__fsub_rn(a, __fsub_rn(s, bv)), __fsub_rn(b, bv));
  if (err != 0.0f && ((err < 0.0f) != (s < 0.0f))) {
    /* |s| exceeds |a + b|: the truncated result is one ulp closer to zero. */
    return ptx2hip_f32_from_bits(ptx2hip_bits_from_f32(s) - 1u);
  }
  return s;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_ftz_f32
// .ftz: a subnormal f32 becomes a zero of the same sign; everything else (NaN included) is kept.
__device__ inline float ptx2hip_ftz_f32(float x) {
  return fabsf(x) < 1.17549435e-38f ? copysignf(0.0f, x) : x;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_sat_f32
// .sat: clamp to [0, 1]; NaN and -0 give +0.
__device__ inline float ptx2hip_sat_f32(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
// ptx2hip:end

// ptx2hip:helper ptx2hip_step_f32 requires=ptx2hip_f32_from_bits,ptx2hip_bits_from_f32
// Directed rounding (M: 1 rz, 2 rm, 3 rp) of an exact value x, given f, a float adjacent to x
// (floor or ceiling of x in the float grid, possibly +-Inf), and rel = sign(f - x).
template <int M>
__device__ inline float ptx2hip_step_f32(float f, int rel) {
  if (rel == 0) return f;
  uint32_t u = ptx2hip_bits_from_f32(f);
  bool neg = (u >> 31) != 0;
  bool down = M == 2 ? rel > 0 : M == 3 ? false : (rel > 0 && !neg);          /* toward -Inf */
  bool up = M == 3 ? rel < 0 : M == 2 ? false : (rel < 0 && neg);             /* toward +Inf */
  if (down) return ptx2hip_f32_from_bits(neg ? u + 1u : u - 1u);
  if (up) return ptx2hip_f32_from_bits(neg ? u - 1u : u + 1u);
  return f;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_round_dd_f32 requires=ptx2hip_step_f32
// Directed rounding to f32 of the exact value x = s + e, where s = RN53(x) is a finite nonzero
// double and only the sign of e (x - s) is used. f = (float)s is the float floor or ceiling of x
// (every float is a double, so no float lies strictly between x and s), and f != s decides
// sign(f - x) exactly because |x - s| is below half the double spacing while f is a double.
template <int M>
__device__ inline float ptx2hip_round_dd_f32(double s, double e) {
  float f = (float)s;
  double fd = (double)f;
  int rel = fd > s ? 1 : fd < s ? -1 : (e > 0.0 ? -1 : e < 0.0 ? 1 : 0);
  return ptx2hip_step_f32<M>(f, rel);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_dir_f32 requires=ptx2hip_round_dd_f32,ptx2hip_canon_f32
// f32 add (OP 0), mul (2), fma (3), div (4), sqrt (5) rounded toward zero (M 1), -Inf (2) or
// +Inf (3), exactly: the exact result is formed in double (products of floats are exact in double;
// sums as s + e through TwoSum, quotients and roots with the sign of an fma residual) and rounded
// once by ptx2hip_round_dd_f32. Special operands give exact IEEE results.
template <int OP, int M>
__device__ inline float ptx2hip_dir_f32(float a, float b, float c) {
  const double da = a, db = b, dc = c;
  double s, e = 0.0;
  if (OP == 0) {
    s = __dadd_rn(da, db);
    if (s != s || fabs(s) > 1.7976931348623157e308) return ptx2hip_canon_f32(__fadd_rn(a, b));
    if (s == 0.0) {
      /* exact zero: like signs keep their sign; x + (-x) is +0, or -0 when rounding down */
      if (a == 0.0f && b == 0.0f && signbit(a) == signbit(b)) return a;
      return M == 2 ? -0.0f : 0.0f;
    }
    double bv = __dsub_rn(s, da);
    e = __dadd_rn(__dsub_rn(da, __dsub_rn(s, bv)), __dsub_rn(db, bv));
  } else if (OP == 2) {
    s = __dmul_rn(da, db); /* exact: 48 significant bits, exponent within double range */
    if (s != s || s == 0.0 || fabs(s) > 1.7976931348623157e308) return ptx2hip_canon_f32((float)s);
  } else if (OP == 3) {
    if (!(fabsf(a) <= 3.40282347e+38f) || !(fabsf(b) <= 3.40282347e+38f) ||
        !(fabsf(c) <= 3.40282347e+38f))
      return ptx2hip_canon_f32(__fmaf_rn(a, b, c));
    s = __fma_rn(da, db, dc);          /* RN53(a*b + c) */
    double p = __fma_rn(da, db, 0.0); /* a*b exactly (an fma, so it cannot be contracted further) */
    if (s == 0.0) {
      bool pz = a == 0.0f || b == 0.0f, pneg = signbit(a) != signbit(b);
      if (pz && c == 0.0f && pneg == (bool)signbit(c)) return c;
      return M == 2 ? -0.0f : 0.0f;
    }
    double bv = __dsub_rn(s, p);
    e = __dadd_rn(__dsub_rn(p, __dsub_rn(s, bv)), __dsub_rn(dc, bv));
  } else if (OP == 4) {
    if (a != a || b != b || a == 0.0f || b == 0.0f || !(fabsf(a) <= 3.40282347e+38f) ||
        !(fabsf(b) <= 3.40282347e+38f))
      return ptx2hip_canon_f32(a / b);
    s = __ddiv_rn(da, db);
    double r = __fma_rn(-s, db, da); /* a - s*b: its sign times sign(b) is sign(x - s) */
    e = db > 0.0 ? r : -r;
  } else {
    if (a != a || a < 0.0f) return ptx2hip_canon_f32(sqrtf(a));
    if (a == 0.0f || a > 3.40282347e+38f) return a;
    s = sqrt(da);
    e = __fma_rn(-s, s, da); /* a - s*s has the sign of x - s */
  }
  return ptx2hip_round_dd_f32<M>(s, e);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tiny_f32
// .ftz mul (OP 2), fma (3), div (4) with rounding M (0 rn, 1 rz, 2 rm, 3 rp): the sign (+1 or -1)
// of the exact nonzero result x when the H100 flushes it to a zero of that sign, else 0. Tininess
// is detected after rounding: x is flushed when x rounded to 24 bits with an unbounded exponent is
// below 2^-126 (FLT_MIN) in magnitude, i.e. |x| < 2^-126 - 2^-151 (rn; the tie rounds to FLT_MIN),
// |x| < 2^-126 (rounding toward zero), |x| <= 2^-126 - 2^-150 (rounding away from zero). So
// mul.rn.ftz.f32 of 0x00800000 and 0x3f7fffff (x = 2^-126 - 2^-150) gives +0, where IEEE gradual
// underflow would round x to FLT_MIN first, while products within 2^-151 of FLT_MIN give FLT_MIN.
// a, b, c are finite and already flushed (normal or zero). Exact: the thresholds are doubles; a
// product of floats is exact in double; for fma, s = RN53(a*b + c) keeps every comparison with a
// double threshold except equality, where the sign of the TwoSum error e = a*b + c - s decides
// (s == 0 only for an exact zero: a*b + c is a multiple of 2^-298); |a / b| vs T is |a| vs T |b|
// (T has at most 26 significant bits, b 24: the product is exact in double).
template <int OP, int M>
__device__ inline int ptx2hip_tiny_f32(float a, float b, float c) {
  const double lim = 1.1754943508222875e-38; /* 2^-126 */
  const double t_rn = 1.1754943157898259e-38; /* 2^-126 - 2^-151 */
  const double t_away = 1.1754942807573643e-38; /* 2^-126 - 2^-150 */
  const double da = a, db = b, dc = c;
  double s, e = 0.0;
  if (OP == 4) {
    if (a == 0.0f || b == 0.0f) return 0;
    s = signbit(a) != signbit(b) ? -1.0 : 1.0;
  } else if (OP == 2) {
    s = __dmul_rn(da, db);
  } else {
    s = __fma_rn(da, db, dc);
    double p = __fma_rn(da, db, 0.0);
    double bv = __dsub_rn(s, p);
    e = __dadd_rn(__dsub_rn(p, __dsub_rn(s, bv)), __dsub_rn(dc, bv));
  }
  if (s == 0.0) return 0;
  bool neg = signbit(s);
  bool away = (M == 2 && neg) || (M == 3 && !neg);
  double t = M == 0 ? t_rn : away ? t_away : lim;
  int cmp; /* sign of |x| - t */
  if (OP == 4) {
    double l = fabs(da), r = __dmul_rn(t, fabs(db));
    cmp = l < r ? -1 : l > r ? 1 : 0;
  } else {
    double m = fabs(s);
    cmp = m < t ? -1 : m > t ? 1 : (e == 0.0 ? 0 : (signbit(e) == neg ? 1 : -1));
  }
  if (cmp < 0 || (away && cmp == 0)) return neg ? -1 : 1;
  return 0;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fmode
// The named template arguments of ptx2hip_fop_f32: the operation, the rounding (.rn, .rz, .rm,
// .rp), whether .ftz flushes subnormals and whether .sat clamps; min/max take .NaN and .xorsign.abs.
namespace ptx2hip_fmode {
inline constexpr int add = 0, sub = 1, mul = 2, fma = 3, div = 4, sqrt = 5;
inline constexpr int rn = 0, rz = 1, rm = 2, rp = 3;
inline constexpr bool ftz = true, no_ftz = false;
inline constexpr bool sat = true, no_sat = false;
inline constexpr bool nan = true, no_nan = false;
inline constexpr bool xorsign_abs = true, no_xorsign = false;
}  // namespace ptx2hip_fmode
// ptx2hip:end

// ptx2hip:helper ptx2hip_fop_f32 requires=ptx2hip_dir_f32,ptx2hip_tiny_f32,ptx2hip_ftz_f32,ptx2hip_sat_f32,ptx2hip_canon_f32,ptx2hip_fmode
// f32 add (OP 0), sub (1), mul (2), fma (3), div (4), sqrt (5) with rounding M (0 rn, 1 rz, 2 rm,
// 3 rp; call sites name them: ptx2hip_fmode), .ftz and .sat (clamp to [0, 1], NaN to +0). NaN
// results are the canonical 0x7fffffff.
// Round-to-nearest forms use the IEEE operations (`/` and sqrtf are correctly rounded under the
// default nvcc and HIP-clang settings). .ftz flushes subnormal inputs to sign-preserving zero, a
// mul, fma or div result that is tiny after rounding (ptx2hip_tiny_f32, as the H100 decides) to a
// zero of its sign, and any other subnormal result after rounding.
template <int OP, int M, bool FTZ, bool SAT>
__device__ inline float ptx2hip_fop_f32(float a, float b, float c) {
  if (FTZ) {
    a = ptx2hip_ftz_f32(a);
    b = ptx2hip_ftz_f32(b);
    c = ptx2hip_ftz_f32(c);
  }
  if (OP == 1) b = -b;
  float r;
  if (M == 0) {
    r = OP <= 1   ? __fadd_rn(a, b)
        : OP == 2 ? __fmul_rn(a, b)
        : OP == 3 ? __fmaf_rn(a, b, c)
        : OP == 4 ? a / b
                  : sqrtf(a);
  } else {
    r = ptx2hip_dir_f32<(OP == 1 ? 0 : OP), M>(a, b, c);
  }
  if (FTZ && (OP == 2 || OP == 3 || OP == 4) && r != 0.0f && fabsf(r) <= 1.17549435e-38f) {
    /* Only here can the exact result be tiny after rounding (then |x| < 2^-126, so r, rounded with
       subnormals, is at most FLT_MIN; otherwise r is FLT_MIN or more). Operands are finite: an
       infinite or NaN one gives an infinite, NaN or zero r. */
    int t = ptx2hip_tiny_f32<OP, M>(a, b, c);
    if (t != 0) r = t < 0 ? -0.0f : 0.0f;
  }
  if (FTZ) r = ptx2hip_ftz_f32(r);
  if (SAT) r = ptx2hip_sat_f32(r);
  return ptx2hip_canon_f32(r);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_minmax_f32 requires=ptx2hip_ftz_f32,ptx2hip_f32_from_bits,ptx2hip_bits_from_f32,ptx2hip_op,ptx2hip_fmode
// PTX min/max.f32 with .ftz, .NaN and .xorsign.abs; +0 > -0; NaN results are 0x7fffffff.
template <bool MAX, bool FTZ, bool NAN_, bool XS>
__device__ inline float ptx2hip_minmax_f32(float a, float b) {
  if (FTZ) {
    a = ptx2hip_ftz_f32(a);
    b = ptx2hip_ftz_f32(b);
  }
  bool sx = signbit(a) != signbit(b);
  if (XS) {
    a = fabsf(a);
    b = fabsf(b);
  }
  bool na = a != a, nb = b != b;
  if ((na && nb) || (NAN_ && (na || nb))) return ptx2hip_f32_from_bits(0x7fffffffu);
  float d;
  if (na) d = b;
  else if (nb) d = a;
  else if (a == b) d = (MAX != (bool)signbit(a)) ? a : b;
  else d = MAX ? (a > b ? a : b) : (a < b ? a : b);
  if (XS) d = sx ? -fabsf(d) : fabsf(d);
  return d;
}
// ptx2hip:amd
// AMD: compares and selects only (v_cmp, v_cndmask; no branch, no v_max_f32, whose zero order and
// signalling-NaN handling are not PTX's): a NaN operand compares false, so b is kept unless b is
// the NaN; equal operands (+0, -0) choose by the bits: AND clears the sign when either is +0
// (max), OR sets it when either is -0 (min); NaN results become 0x7fffffff last.
template <bool MAX, bool FTZ, bool NAN_, bool XS>
__device__ inline float ptx2hip_minmax_f32(float a, float b) {
  if (FTZ) {
    a = ptx2hip_ftz_f32(a);
    b = ptx2hip_ftz_f32(b);
  }
  uint32_t xs = (ptx2hip_bits_from_f32(a) ^ ptx2hip_bits_from_f32(b)) & 0x80000000u;
  if (XS) {
    a = fabsf(a);
    b = fabsf(b);
  }
  uint32_t ua = ptx2hip_bits_from_f32(a), ub = ptx2hip_bits_from_f32(b);
  bool na = a != a, nb = b != b, eq = a == b;
  uint32_t r = ((MAX ? a > b : a < b) | (!NAN_ & nb)) ? ua : ub;
  if (XS) r = (r & 0x7fffffffu) | xs; /* equal magnitudes have equal bits */
  else r = MAX ? r & (eq ? ua : 0xffffffffu) : r | (eq ? ua : 0u);
  return (NAN_ ? na | nb : na & nb) ? ptx2hip_f32_from_bits(0x7fffffffu) : ptx2hip_f32_from_bits(r);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_rcp_approx_f32 requires=ptx2hip_ftz_f32,ptx2hip_canon_f32,ptx2hip_fmode
// rcp.approx.f32 on any target: the correctly rounded reciprocal (inside the PTX bound).
template <bool FTZ>
__device__ inline float ptx2hip_rcp_approx_f32(float x) {
  if (FTZ) x = ptx2hip_ftz_f32(x);
  float r = 1.0f / x;
  if (FTZ) r = ptx2hip_ftz_f32(r);
  return ptx2hip_canon_f32(r);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_amd_rcp_approx_f32 requires=ptx2hip_ftz_f32,ptx2hip_canon_f32,ptx2hip_fmode
// rcp.approx.f32 with v_rcp_f32 (1 ulp); v_rcp flushes subnormal inputs and results, so without
// .ftz operands beyond 2^+-64 are scaled by an exact power of two first.
template <bool FTZ>
__device__ inline float ptx2hip_amd_rcp_approx_f32(float x) {
  if (FTZ) return ptx2hip_canon_f32(ptx2hip_ftz_f32(__builtin_amdgcn_rcpf(ptx2hip_ftz_f32(x))));
  float ax = fabsf(x);
  float s =
      ax < 5.42101086e-20f ? 1.84467441e+19f : (ax > 1.84467441e+19f ? 5.42101086e-20f : 1.0f);
  return ptx2hip_canon_f32(__builtin_amdgcn_rcpf(x * s) * s);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_rsqrt_approx_f32 requires=ptx2hip_ftz_f32,ptx2hip_canon_f32,ptx2hip_fmode
template <bool FTZ>
__device__ inline float ptx2hip_rsqrt_approx_f32(float x) {
  if (FTZ) x = ptx2hip_ftz_f32(x);
  float r = 1.0f / sqrtf(x);
  if (FTZ) r = ptx2hip_ftz_f32(r);
  return ptx2hip_canon_f32(r);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_amd_rsqrt_approx_f32 requires=ptx2hip_ftz_f32,ptx2hip_canon_f32,ptx2hip_fmode
// rsqrt.approx.f32 with v_rsq_f32 (1 ulp); positive inputs below 2^-100 (subnormals included) are
// scaled by 2^64 and the result by 2^32, since v_rsq flushes subnormal inputs.
template <bool FTZ>
__device__ inline float ptx2hip_amd_rsqrt_approx_f32(float x) {
  if (FTZ) return ptx2hip_canon_f32(__builtin_amdgcn_rsqf(ptx2hip_ftz_f32(x)));
  bool tiny = x > 0.0f && x < 7.88860905e-31f;
  float r = __builtin_amdgcn_rsqf(tiny ? x * 1.84467441e+19f : x);
  return ptx2hip_canon_f32(tiny ? r * 4.29496730e+09f : r);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_approx_f32 requires=ptx2hip_ftz_f32,ptx2hip_canon_f32,ptx2hip_op,ptx2hip_fmode
// ex2 (K 0), lg2 (1) .approx.f32 on any target: the accurate libm functions.
template <int K, bool FTZ>
__device__ inline float ptx2hip_approx_f32(float x) {
  if (FTZ) x = ptx2hip_ftz_f32(x);
  float r = K == 0 ? exp2f(x) : log2f(x);
  if (FTZ) r = ptx2hip_ftz_f32(r);
  return ptx2hip_canon_f32(r);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_amd_approx_f32 requires=ptx2hip_ftz_f32,ptx2hip_canon_f32,ptx2hip_op,ptx2hip_fmode
// ex2 (K 0), lg2 (1) .approx.f32 with the AMD transcendental units (1 ulp):
// v_exp_f32 returns 0 below -126, so a < -126 is evaluated at a + 64 (exact) and scaled by 2^-64;
// v_log_f32 flushes subnormals, so they are scaled by 2^24 first.
template <int K, bool FTZ>
__device__ inline float ptx2hip_amd_approx_f32(float x) {
  if (FTZ) x = ptx2hip_ftz_f32(x);
  float r;
  if (K == 0) {
    bool tiny = !FTZ && x < -126.0f;
    r = __builtin_amdgcn_exp2f(tiny ? x + 64.0f : x);
    if (tiny) r = r * 5.42101086e-20f;
  } else {
    bool sub = !FTZ && fabsf(x) < 1.17549435e-38f && x != 0.0f;
    r = sub ? __builtin_amdgcn_logf(x * 16777216.0f) - 24.0f : __builtin_amdgcn_logf(x);
  }
  if (FTZ) r = ptx2hip_ftz_f32(r);
  return ptx2hip_canon_f32(r);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_div_approx_f32 requires=ptx2hip_ftz_f32,ptx2hip_canon_f32,ptx2hip_fmode
// div.approx.f32: for 2^126 < |b| <= FLT_MAX PTX returns 0 (NaN when a is Inf); otherwise a * (1/b)
// with .ftz, and the correctly rounded a / b without it (the H100 keeps subnormal operands and
// results there: 0 / 0x00000001 is 0, 1 / 1 and 0x00000001 / 0x00000001 are 1).
template <bool FTZ>
__device__ inline float ptx2hip_div_approx_f32(float a, float b) {
  if (FTZ) {
    a = ptx2hip_ftz_f32(a);
    b = ptx2hip_ftz_f32(b);
  }
  float ab = fabsf(b), r;
  if (ab > 8.50705917e+37f && ab <= 3.40282347e+38f)
    r = __fmul_rn(a, 0.0f) * (b < 0.0f ? -1.0f : 1.0f);
  else r = FTZ ? __fmul_rn(a, 1.0f / b) : a / b;
  if (FTZ) r = ptx2hip_ftz_f32(r);
  return ptx2hip_canon_f32(r);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_sincos_approx_f32 requires=ptx2hip_dir_f32,ptx2hip_f32_from_bits,ptx2hip_op
// sin.approx.f32 (K 0) and cos.approx.f32 (K 1) as the H100 computes them: the angle becomes
// revolutions r = x * 0x3e22f983 (1/(2 pi) in f32) rounded toward zero, the fraction of |r| is
// truncated to a multiple of 2^-25, and the sine (sign of r) or cosine of that many turns is taken,
// here in double (the hardware's own evaluation of it differs by a few 1e-7 at most). .ftz changes
// nothing: subnormal x give a zero fraction either way, and no result is subnormal.
template <int K>
__device__ inline float ptx2hip_sincos_approx_f32(float x) {
  if (!(fabsf(x) <= 3.40282347e+38f)) return ptx2hip_f32_from_bits(0x7fffffffu);
  float r = ptx2hip_dir_f32<2, 1>(x, ptx2hip_f32_from_bits(0x3e22f983u), 0.0f);
  double m = fabs((double)r);
  double t = floor((m - floor(m)) * 33554432.0) * 2.98023223876953125e-08; /* exact: 2^25, 2^-25 */
  double v = K == 0 ? sin(6.283185307179586 * t) : cos(6.283185307179586 * t);
  if (K == 0 && signbit(r)) v = -v;
  return (float)v;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_amd_div_approx_f32 requires=ptx2hip_amd_rcp_approx_f32,ptx2hip_ftz_f32,ptx2hip_canon_f32,ptx2hip_fmode
// div.approx.f32 with the v_rcp_f32-based reciprocal of ptx2hip_amd_rcp_approx_f32.
template <bool FTZ>
__device__ inline float ptx2hip_amd_div_approx_f32(float a, float b) {
  if (FTZ) {
    a = ptx2hip_ftz_f32(a);
    b = ptx2hip_ftz_f32(b);
  }
  float ab = fabsf(b), r;
  if (ab > 8.50705917e+37f && ab <= 3.40282347e+38f)
    r = __fmul_rn(a, 0.0f) * (b < 0.0f ? -1.0f : 1.0f);
  else r = __fmul_rn(a, ptx2hip_amd_rcp_approx_f32<FTZ>(b));
  if (FTZ) r = ptx2hip_ftz_f32(r);
  return ptx2hip_canon_f32(r);
}
// ptx2hip:end

// sm_100 forms the ISA defines element by element through verified f32 forms (docs/EVIDENCE.md).

// ptx2hip:helper ptx2hip_fop_f32x2 requires=ptx2hip_fop_f32,ptx2hip_f32_from_bits,ptx2hip_bits_from_f32
// add/sub/mul/fma .f32x2 (OP as ptx2hip_fop_f32): each 32-bit half of the 64-bit operands is one
// f32, bits 0-31 element 0, and element i of d is the f32 operation of elements i, with the same
// rounding and .ftz (the ISA's definition of the form). c is read by fma only.
template <int OP, int M, bool FTZ>
__device__ inline uint64_t ptx2hip_fop_f32x2(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t d = 0;
  for (int i = 0; i < 2; i++) {
    float e = ptx2hip_fop_f32<OP, M, FTZ, false>(ptx2hip_f32_from_bits((uint32_t)(a >> (32 * i))),
                                                 ptx2hip_f32_from_bits((uint32_t)(b >> (32 * i))),
                                                 ptx2hip_f32_from_bits((uint32_t)(c >> (32 * i))));
    d |= (uint64_t)ptx2hip_bits_from_f32(e) << (32 * i);
  }
  return d;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_minmax3_f32 requires=ptx2hip_minmax_f32
// min/max{.ftz}{.NaN}{.abs}.f32 of three inputs (sm_100): the two-input operation of F013/F014
// twice, on the magnitudes under .abs. That operation selects by a total order (-0 < +0, a NaN
// input passed over unless .NaN, all-NaN or .NaN with a NaN giving 0x7fffffff), so it is
// associative and commutative, and the pairing the ISA uses cannot change the result.
template <bool MAX, bool FTZ, bool NAN_, bool ABS>
__device__ inline float ptx2hip_minmax3_f32(float a, float b, float c) {
  if (ABS) {
    a = fabsf(a);
    b = fabsf(b);
    c = fabsf(c);
  }
  return ptx2hip_minmax_f32<MAX, FTZ, NAN_, false>(ptx2hip_minmax_f32<MAX, FTZ, NAN_, false>(a, b),
                                                   c);
}
// ptx2hip:end
