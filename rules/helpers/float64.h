// Helpers of rules/float64.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_nan_f64 requires=ptx2hip_f64_from_bits,ptx2hip_bits_from_f64
// The NaN an NVIDIA f64 instruction returns: the first NaN among the operands, passed in the
// instruction's precedence order, quieted (sign and payload kept); 0xfff8000000000000 when the
// operation is invalid on numbers (inf - inf, 0 * inf, 0 / 0, sqrt(-1)).
__device__ inline double ptx2hip_nan_f64(double x, double y = 0.0, double z = 0.0) {
  double n = x != x ? x : y != y ? y : z;
  if (n != n) return ptx2hip_f64_from_bits(ptx2hip_bits_from_f64(n) | 0x0008000000000000ull);
  return ptx2hip_f64_from_bits(0xfff8000000000000ull);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_dir_f64 requires=ptx2hip_f64_from_bits,ptx2hip_bits_from_f64
// f64 add rounded toward zero (M 1), -Inf (2) or +Inf (3): s = RN(a + b) and its exact error e
// (TwoSum, exact when a + b does not overflow); x = s + e is then rounded by stepping s one ulp
// when s lies on the wrong side of x. Overflow clamps to +-DBL_MAX where the direction says so.
// NaN results are left to the caller. (The step is written out rather than taken from
// ptx2hip_dirstep_f64: with the sign of e at hand it compiles to about 6 fewer instructions per
// form on gfx942.)
template <int M>
__device__ inline double ptx2hip_dir_f64(double a, double b) {
  double s = __dadd_rn(a, b);
  if (s != s) return s;
  if (!(fabs(s) <= 1.7976931348623157e308)) {
    if (!(fabs(a) <= 1.7976931348623157e308) || !(fabs(b) <= 1.7976931348623157e308)) return s;
    bool keep = M == 3 ? s > 0.0 : M == 2 ? s < 0.0 : false;
    return keep ? s : (s > 0.0 ? 1.7976931348623157e308 : -1.7976931348623157e308);
  }
  if (s == 0.0) {
    if (a == 0.0 && b == 0.0 && signbit(a) == signbit(b)) return a;
    return M == 2 ? -0.0 : 0.0;
  }
  double bv = __dsub_rn(s, a);
  double e = __dadd_rn(__dsub_rn(a, __dsub_rn(s, bv)), __dsub_rn(b, bv));
  if (e == 0.0) return s;
  uint64_t u = ptx2hip_bits_from_f64(s);
  bool neg = s < 0.0;
  bool down = M == 2 ? e < 0.0 : M == 3 ? false : (e < 0.0 && !neg);
  bool up = M == 3 ? e > 0.0 : M == 2 ? false : (e > 0.0 && neg);
  if (down) return ptx2hip_f64_from_bits(neg ? u + 1u : u - 1u);
  if (up) return ptx2hip_f64_from_bits(neg ? u - 1u : u + 1u);
  return s;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_addsub_f64 requires=ptx2hip_dir_f64,ptx2hip_nan_f64,ptx2hip_op,ptx2hip_round
// f64 add, or sub (SUB) as a + (-b), with rounding M (0 rn, 1 rz, 2 rm, 3 rp). NaN results follow
// the H100: the NaN of b (not negated), then of a, quieted.
template <bool SUB, int M>
__device__ inline double ptx2hip_addsub_f64(double a, double b) {
  double nb = SUB ? -b : b;
  double r = M == 0 ? __dadd_rn(a, nb) : ptx2hip_dir_f64<M>(a, nb);
  return r == r ? r : ptx2hip_nan_f64(b, a);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mul_rn_f64 requires=ptx2hip_nan_f64
// a * b in f64 rounded to nearest even; NaN results as the H100 gives them (the NaN of b, then of a, quieted).
__device__ inline double ptx2hip_mul_rn_f64(double a, double b) {
  double r = __dmul_rn(a, b);
  return r == r ? r : ptx2hip_nan_f64(b, a);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mul_rd_f64 requires=ptx2hip_mul_dir_f64,ptx2hip_nan_f64,ptx2hip_round
// a * b in f64 rounded toward zero (M 1), -Inf (2) or +Inf (3), exactly; NaN results as the H100
// gives them (the NaN of b, then of a, quieted).
template <int M>
__device__ inline double ptx2hip_mul_rd_f64(double a, double b) {
  double r = ptx2hip_mul_dir_f64<M>(a, b);
  return r == r ? r : ptx2hip_nan_f64(b, a);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fma_rn_f64 requires=ptx2hip_nan_f64
// a * b + c (one rounding) in f64 rounded to nearest even; NaN results as the H100 gives them (the NaN of b, then c, then a, quieted).
__device__ inline double ptx2hip_fma_rn_f64(double a, double b, double c) {
  double r = __fma_rn(a, b, c);
  return r == r ? r : ptx2hip_nan_f64(b, c, a);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fma_rd_f64 requires=ptx2hip_fma_dir_f64,ptx2hip_nan_f64,ptx2hip_round
// a * b + c (one rounding) in f64 rounded toward zero (M 1), -Inf (2) or +Inf (3), exactly; NaN results as the H100
// gives them (the NaN of b, then c, then a, quieted).
template <int M>
__device__ inline double ptx2hip_fma_rd_f64(double a, double b, double c) {
  double r = ptx2hip_fma_dir_f64<M>(a, b, c);
  return r == r ? r : ptx2hip_nan_f64(b, c, a);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_div_rn_f64 requires=ptx2hip_nan_f64
// a / b in f64 rounded to nearest even; NaN results as the H100 gives them (the NaN of a, then of b, quieted).
__device__ inline double ptx2hip_div_rn_f64(double a, double b) {
  double r = a / b;
  return r == r ? r : ptx2hip_nan_f64(a, b);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_div_rd_f64 requires=ptx2hip_div_dir_f64,ptx2hip_nan_f64,ptx2hip_round
// a / b in f64 rounded toward zero (M 1), -Inf (2) or +Inf (3), exactly; NaN results as the H100
// gives them (the NaN of a, then of b, quieted).
template <int M>
__device__ inline double ptx2hip_div_rd_f64(double a, double b) {
  double r = ptx2hip_div_dir_f64<M>(a, b);
  return r == r ? r : ptx2hip_nan_f64(a, b);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_sqrt_rn_f64 requires=ptx2hip_nan_f64
// sqrt(a) in f64 rounded to nearest even; NaN results as the H100 gives them (the NaN of a, quieted).
__device__ inline double ptx2hip_sqrt_rn_f64(double a) {
  double r = sqrt(a);
  return r == r ? r : ptx2hip_nan_f64(a);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_sqrt_rd_f64 requires=ptx2hip_sqrt_dir_f64,ptx2hip_nan_f64,ptx2hip_round
// sqrt(a) in f64 rounded toward zero (M 1), -Inf (2) or +Inf (3), exactly; NaN results as the H100
// gives them (the NaN of a, quieted).
template <int M>
__device__ inline double ptx2hip_sqrt_rd_f64(double a) {
  double r = ptx2hip_sqrt_dir_f64<M>(a);
  return r == r ? r : ptx2hip_nan_f64(a);
}
// ptx2hip:end

// Directed rounding of mul, fma/mad, div, rcp and sqrt (helpers below, up to ptx2hip_sqrt_dir_f64):
// exact IEEE 754 binary64 results computed from round-to-nearest operations only (AMD has no
// per-instruction rounding mode), subnormals included; NaN results are left to the callers above.
// Method: r = the round-to-nearest result of the hardware operation; the sign of the exact residual
// x - r is found exactly; r is the directed result unless that sign asks for one step (a bit
// increment or decrement, ptx2hip_dirstep_f64). Each helper's comment gives its exactness argument.
// Checked against x86 directed rounding (fesetround) on 79 million cases in
// crates/ptx2hip-verify/tests/rules_float64_directed.rs, and against the H100 by the golden vectors.

// ptx2hip:helper ptx2hip_dmul_nofuse_f64
// RN(a*b) that the compiler may not fuse into a later add or subtract. nvcc never contracts
// __dmul_rn. hip-clang's __dmul_rn is a plain `*` and, under HIP's default
// -ffp-contract=fast-honor-pragmas, `__dadd_rn(__dmul_rn(a, b), c)` becomes one v_fma_f64 after
// inlining (checked with clang-19 for gfx942); the empty asm hides the product from the combiner
// (it emits no instruction).
__device__ inline double ptx2hip_dmul_nofuse_f64(double a, double b) {
#if defined(__HIP_DEVICE_COMPILE__)
  double p = a * b;
  __asm__("" : "+v"(p));
  return p;
#else
  return __dmul_rn(a, b);
#endif
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_dirstep_f64 requires=ptx2hip_bits_from_f64,ptx2hip_f64_from_bits
// Directed rounding (MODE 1 rz, 2 rm, 3 rp) of an exact value x from r, its round-to-nearest
// double, and sx = sign(x - r). r is finite; a zero r must carry the sign of x (so a nonzero x
// below half the smallest subnormal steps to the smallest subnormal of its sign, or stays a signed
// zero), and an overflow is passed as r = +-DBL_MAX with sx = the sign of x. A step moves |r| by
// one unit of its encoding: away from zero when the mode rounds away for this sign (rm for
// negatives, rp for positives) and |x| > |r|, toward zero when it does not and |x| < |r|. Stepping
// up from DBL_MAX gives Inf and down from the smallest subnormal gives a signed zero, as IEEE asks.
template <int MODE>
__device__ inline double ptx2hip_dirstep_f64(double r, int sx) {
  uint64_t u = ptx2hip_bits_from_f64(r);
  bool neg = (u >> 63) != 0;
  int sm = neg ? -sx : sx; /* sign of |x| - |r| */
  bool away = MODE == 2 ? neg : MODE == 3 ? !neg : false;
  if (away ? sm > 0 : sm < 0) u = away ? u + 1u : u - 1u;
  return ptx2hip_f64_from_bits(u);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mul_dir_f64 requires=ptx2hip_dmul_nofuse_f64,ptx2hip_dirstep_f64
// a*b in f64 rounded toward zero (MODE 1), -Inf (2) or +Inf (3), exactly.
// Fast path, 2^-969 < |r| <= DBL_MAX with r = RN(a*b): e = fma(a, b, -r) is exactly a*b - r. Proof:
// |a*b| < 2^(106 + q(a) + q(b)), so |r| > 2^-969 forces q(a) + q(b) >= -1074; a*b and r are
// multiples of 2^(q(a)+q(b)) (r = a*b when a*b has at most 53 bits) and
// |a*b - r| <= ulp(r)/2 <= 2^(53 + q(a) + q(b)), so a*b - r fits in 53 bits above 2^-1074.
// Slow path: NaN, Inf or zero operands give exact RN results (Inf, NaN or a signed zero); finite
// overflow follows the overflow rule; r == 0 means 0 < |a*b| <= 2^-1075 (sign of a*b). Otherwise
// 0 < |r| <= 2^-969: the smaller operand s has |s| <= 2^-484, so s' = s*2^512 and R = r*2^512 are
// exact, and sign(a*b - r) = sign(big*s' - R) is read from one fma: |a*b| > 2^-1075 gives
// q(a) + q(b) > -1181, so big*s' - R is a multiple of 2^-669, never lost by the rounding.
template <int MODE>
__device__ inline double ptx2hip_mul_dir_f64(double a, double b) {
  const double r = ptx2hip_dmul_nofuse_f64(a, b);
  int sx;
  if (fabs(r) > 0x1p-969 && fabs(r) <= 1.7976931348623157e308) {
    double e = __fma_rn(a, b, -r);
    sx = (e > 0.0) - (e < 0.0);
  } else {
    if (!(fabs(a) <= 1.7976931348623157e308) || !(fabs(b) <= 1.7976931348623157e308) || a == 0.0 ||
        b == 0.0)
      return r; /* NaN, Inf*x, x*0: RN is exact */
    bool neg = !signbit(a) != !signbit(b);
    if (!(fabs(r) <= 1.7976931348623157e308))
      return ptx2hip_dirstep_f64<MODE>(neg ? -1.7976931348623157e308 : 1.7976931348623157e308,
                                       neg ? -1 : 1);
    if (r == 0.0) return ptx2hip_dirstep_f64<MODE>(neg ? -0.0 : 0.0, neg ? -1 : 1);
    bool afirst = fabs(a) >= fabs(b);
    double big = afirst ? a : b, small = afirst ? b : a;
    double e = __fma_rn(big, __dmul_rn(small, 0x1p512), -__dmul_rn(r, 0x1p512));
    sx = (e > 0.0) - (e < 0.0);
  }
  return sx == 0 ? r : ptx2hip_dirstep_f64<MODE>(r, sx);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fma_residual_sign_f64
// sign(a*b + c - r) for r = RN(a*b + c), given p = RN(a*b), when 2^-969 < |p| <= 2^1021 and
// |c| <= 2^1021 (16 flops; Boldo & Muller's ErrFma, IEEE TC 60(2), 2011, without its last Fast2Sum).
// Domain: |p| > 2^-969 makes e = a*b - p exact (as in ptx2hip_mul_dir_f64) and x = a*b + c a
// multiple of 2^-1074, so every operation below returns what it would with an unbounded exponent
// range (sums of doubles, and x, are then exact whenever they fall below 2^-1022), and the bounds
// keep every intermediate below 2^1024. The argument is therefore the textbook one:
//   (a1, a2) = TwoSum(c, e) and (b1, b2) = TwoSum(p, a1) are Shewchuk's Grow-Expansion of the
//   expansion (e, p) by c (Shewchuk 1997, Thm 10). (e, p) is nonadjacent (|e| <= ulp(p)/2, and
//   |e| = ulp(p)/2 only when ties-to-even left p even), so x = b1 + b2 + a2 with a2, b2, b1
//   nonadjacent; in particular |a2| < lsb(b2) when b2 != 0 and |a2| < lsb(b1)/2 when b2 == 0.
//   Claim: g = (b1 - r) + b2 is computed exactly. If b1 == 0, then b2 == 0, r = x = a2 and g = -r.
//   If b2 == 0: |x - b1| = |a2| < |b1|/2, so r lies in [b1/2, 2*b1] and b1 - r is exact
//   (Sterbenz). If b2 != 0: b1 = RN(b1 + b2), so |b2| <= w/2 for
//   the spacing w from b1 to its neighbour on b2's side, and |a2| < lsb(b2) <= w/2, hence r is b1
//   (then g = b2) or that neighbour b1 + s*w, s = sign(b2); in the latter case b1 + b2 <= the
//   midpoint <= b1 + b2 + a2 (in the direction s), so |b2 - s*w/2| <= |a2| < lsb(b2), and as
//   b2 - s*w/2 is a multiple of lsb(b2) (<= w/2, both powers of two) it is 0: g = -s*w/2, exact.
//   So x - r = g + a2 exactly, and RN(g + a2) has its sign.
__device__ inline int ptx2hip_fma_residual_sign_f64(double a, double b, double c, double p,
                                                    double r) {
  double e = __fma_rn(a, b, -p); /* a*b = p + e */
  double a1 = __dadd_rn(c, e);
  double t = __dsub_rn(a1, c);
  double a2 = __dadd_rn(__dsub_rn(c, __dsub_rn(a1, t)), __dsub_rn(e, t));
  double b1 = __dadd_rn(p, a1);
  double u = __dsub_rn(b1, p);
  double b2 = __dadd_rn(__dsub_rn(p, __dsub_rn(b1, u)), __dsub_rn(a1, u));
  double z = __dadd_rn(__dadd_rn(__dsub_rn(b1, r), b2), a2);
  return (z > 0.0) - (z < 0.0);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fma_dir_f64 requires=ptx2hip_dmul_nofuse_f64,ptx2hip_fma_residual_sign_f64,ptx2hip_mul_dir_f64,ptx2hip_dirstep_f64
// a*b + c in f64 with one rounding toward zero (MODE 1), -Inf (2) or +Inf (3), exactly (PTX
// fma.{rz,rm,rp}.f64 and mad.{rz,rm,rp}.f64).
// Fast path, 2^-969 < |RN(a*b)| <= 2^1021 and |c| <= 2^1021: ptx2hip_fma_residual_sign_f64.
// Slow path, in order:
//  - a NaN or Inf operand: the RN result is exact (Inf or NaN);
//  - a*b == 0 (a or b zero): x = c unless c is zero too, then IEEE's zero-sum sign rule;
//  - c == 0: x = a*b, the directed product;
//  - RN overflow with finite operands: |x| >= 2^1024 - 2^970, the overflow rule;
//  - E(c) >= E(a) + E(b) + 56: |a*b| < 2^(E(c)-54) <= ulp(c)/4, so r == c and sign(x - r) =
//    sign(a*b);
//  - otherwise scale by 2^S, S = -(E(a) + E(b)): a' = a*2^-E(a), b' = b*2^-E(b) in [1, 2), and
//    c' = c*2^S in [2^-105, 2^56) (exact, normal), or, when E(c) + S < -105, c' = +-2^-106 with
//    the sign of c: a'*b' is a multiple of 2^-104 and so is any double near it, so a c' of either
//    value below 2^-104 only breaks ties and both give the same sign of x' - R for every double R.
//    R = r*2^S is exact: |R| < 2^58, and when S < 0, x' is a multiple of 2^-157, so x and r are 0
//    or normal and R is normal.
//    r1 = RN(x') of x' = a'*b' + c' (normal range) is the nearest double to x', so no double lies
//    strictly between them: sign(x' - R) = sign(r1 - R) when R != r1, and the fast-path residual
//    sign of (a', b', c', r1) when R == r1.
// An exact zero x of nonzero a*b and c is +0 (-0 under rm); a nonzero x that RN flushes to zero
// steps from the zero of its sign.
template <int MODE>
__device__ inline double ptx2hip_fma_dir_f64(double a, double b, double c) {
  const double r = __fma_rn(a, b, c);
  const double p = ptx2hip_dmul_nofuse_f64(a, b);
  int sx;
  if (fabs(p) > 0x1p-969 && fabs(p) <= 0x1p1021 && fabs(c) <= 0x1p1021) {
    sx = ptx2hip_fma_residual_sign_f64(a, b, c, p, r);
  } else {
    const double mx = 1.7976931348623157e308;
    if (!(fabs(a) <= mx) || !(fabs(b) <= mx) || !(fabs(c) <= mx)) return r;
    if (a == 0.0 || b == 0.0) {
      if (c != 0.0) return c;
      if ((!signbit(a) != !signbit(b)) == !!signbit(c)) return c;
      return MODE == 2 ? -0.0 : 0.0;
    }
    if (c == 0.0) return ptx2hip_mul_dir_f64<MODE>(a, b);
    if (!(fabs(r) <= mx)) return ptx2hip_dirstep_f64<MODE>(r > 0.0 ? mx : -mx, r > 0.0 ? 1 : -1);
    int ea = ilogb(a), eb = ilogb(b), ec = ilogb(c), s = -(ea + eb);
    if (ec + s >= 56) {
      sx = !signbit(a) != !signbit(b) ? -1 : 1;
    } else {
      double a1 = ldexp(a, -ea), b1 = ldexp(b, -eb);
      double c1 = ec + s < -105 ? copysign(0x1p-106, c) : ldexp(c, s);
      double rs = ldexp(r, s);
      double r1 = __fma_rn(a1, b1, c1);
      sx = rs != r1
               ? (r1 > rs ? 1 : -1)
               : ptx2hip_fma_residual_sign_f64(a1, b1, c1, ptx2hip_dmul_nofuse_f64(a1, b1), r1);
    }
  }
  if (sx == 0) return r == 0.0 ? (MODE == 2 ? -0.0 : 0.0) : r;
  return ptx2hip_dirstep_f64<MODE>(r == 0.0 ? (sx > 0 ? 0.0 : -0.0) : r, sx);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_div_dir_f64 requires=ptx2hip_dirstep_f64
// a/b in f64 rounded toward zero (MODE 1), -Inf (2) or +Inf (3), exactly (rcp: a = 1.0).
// sign(x - r) = sign(a - r*b) * sign(b), so the magnitude comparison sign(|x| - |r|) is
// sign(a - r*b) * sign(a) (r, zero included, has the sign of x).
// Fast path, |a| >= 2^-968, b finite and r = RN(a/b) finite: a - r*b = fma(-r, b, a) has its exact
// sign, because r*b is a multiple of 2^(q(r)+q(b)) >= 2^-1074 (and so is a). Proof, with
// |x| <= |r|(1 + 2^-53) when r is normal: if r and b are normal, |a| < 2^(E(r)+E(b)+3), so
// E(r) + E(b) >= E(a) - 2 >= -970; if b is subnormal, |x| > 2^54 and q(r) >= 2; if r is
// subnormal, |b| = |a|/|x| > 2^54 and q(b) >= 2; if r == 0 the residual is a itself.
// Slow path: NaN, Inf or zero operands give exact RN results; RN overflow or underflow to zero are
// the overflow and tiny rules. Otherwise a = ma*2^ea, b = mb*2^eb with ma, mb in [0.5, 1)
// (frexp, exact) and R = r*2^(eb-ea) is exact: x' = ma/mb is in (0.5, 2), and R is within 2^-53
// relative of it (r normal) or within [x'/2, 2x'] (r subnormal: |r - x| <= 2^-1075 < |x| and
// |r| >= 2^-1074), so R is normal. a - r*b = 2^ea (ma - R*mb), and ma - R*mb is a multiple of
// 2^-107: its fma keeps the sign.
template <int MODE>
__device__ inline double ptx2hip_div_dir_f64(double a, double b) {
  const double r = a / b;
  const double ar = fabs(r);
  int sm; /* sign(|x| - |r|) */
  if (fabs(a) >= 0x1p-968 && ar <= 1.7976931348623157e308 && fabs(b) <= 1.7976931348623157e308) {
    double res = __fma_rn(-r, b, a);
    sm = res == 0.0 ? 0 : (!signbit(res) == !signbit(a) ? 1 : -1);
  } else {
    const double mx = 1.7976931348623157e308;
    if (!(fabs(a) <= mx) || !(fabs(b) <= mx) || a == 0.0 || b == 0.0) return r; /* exact */
    if (!(ar <= mx)) return ptx2hip_dirstep_f64<MODE>(r > 0.0 ? mx : -mx, r > 0.0 ? 1 : -1);
    if (ar == 0.0) {
      sm = 1; /* r is the zero of the sign of x, and x != 0 */
    } else {
      int ea, eb;
      double ma = frexp(a, &ea), mb = frexp(b, &eb);
      double res = __fma_rn(-ldexp(r, eb - ea), mb, ma);
      sm = res == 0.0 ? 0 : (!signbit(res) == !signbit(a) ? 1 : -1);
    }
  }
  if (sm == 0) return r;
  return ptx2hip_dirstep_f64<MODE>(r, signbit(r) ? -sm : sm);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_sqrt_dir_f64 requires=ptx2hip_dirstep_f64
// sqrt(a) in f64 rounded toward zero (MODE 1), -Inf (2) or +Inf (3), exactly. sqrt never
// overflows or underflows, r > 0 is normal for a > 0, and sign(x - r) = sign(a - r*r).
// Fast path, 2^-970 <= a <= DBL_MAX: r >= 2^-485, so r*r is a multiple of 2^(2E(r)-104) >= 2^-1074
// and so is a: fma(-r, r, a) keeps the sign.
// Slow path: NaN, negative (NaN), +-0 and +Inf are exact under RN (sqrt(-0) = -0). For
// 0 < a < 2^-970, a' = a*2^1076 in [4, 2^106) and S = r*2^538 are exact (r >= 2^-537, normal), and
// a' - S*S = 2^1076 (a - r*r) is a multiple of 2^-102.
template <int MODE>
__device__ inline double ptx2hip_sqrt_dir_f64(double a) {
  const double r = sqrt(a);
  double res;
  if (a >= 0x1p-970 && a <= 1.7976931348623157e308) {
    res = __fma_rn(-r, r, a);
  } else {
    if (!(a > 0.0) || !(a <= 1.7976931348623157e308)) return r;
    double s = __dmul_rn(r, 0x1p538);
    res = __fma_rn(-s, s, __dmul_rn(__dmul_rn(a, 0x1p538), 0x1p538));
  }
  int sx = (res > 0.0) - (res < 0.0);
  return sx == 0 ? r : ptx2hip_dirstep_f64<MODE>(r, sx);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_minmax_f64 requires=ptx2hip_nan_f64,ptx2hip_op
// PTX min/max.f64: a NaN operand is ignored; two NaNs give the NaN of b, quieted (H100); +0 > -0.
template <bool MAX>
__device__ inline double ptx2hip_minmax_f64(double a, double b) {
  bool na = a != a, nb = b != b;
  if (na && nb) return ptx2hip_nan_f64(b);
  if (na) return b;
  if (nb) return a;
  if (a == b) return (MAX != (bool)signbit(a)) ? a : b;
  return MAX ? (a > b ? a : b) : (a < b ? a : b);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_absneg_f64 requires=ptx2hip_nan_f64,ptx2hip_op
// abs.f64 (NEG false) and neg.f64 (NEG true): the H100 quiets a NaN and keeps its sign.
template <bool NEG>
__device__ inline double ptx2hip_absneg_f64(double a) {
  if (a != a) return ptx2hip_nan_f64(a);
  return NEG ? -a : fabs(a);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_approx_ftz_f64 requires=ptx2hip_f64_from_bits,ptx2hip_bits_from_f64,ptx2hip_op
// rcp.approx.ftz.f64 (K 0) and rsqrt.approx.ftz.f64 (K 1) as the H100 computes them: only the high
// 32 bits of the operand are read (a subnormal one is a zero of its sign), NaN gives
// 0x7fffffff00000000, a result below 2^-1022 is a zero of its sign, and the low 32 bits of every
// result are zero. Here: the result for the truncated operand (1.0 / h, 1.0 / sqrt(h)), truncated to
// its high 32 bits; the H100's high word differs by at most one (one unit = 2^32 ulp).
template <int K>
__device__ inline double ptx2hip_approx_ftz_f64(double x) {
  uint64_t u = ptx2hip_bits_from_f64(x) & 0xffffffff00000000ull;
  if ((u & 0x7ff0000000000000ull) == 0) u &= 0x8000000000000000ull;
  double h = ptx2hip_f64_from_bits(u);
  double r = K == 0 ? 1.0 / h : 1.0 / sqrt(h);
  if (r != r) return ptx2hip_f64_from_bits(0x7fffffff00000000ull);
  if (fabs(r) < 2.2250738585072014e-308) r = copysign(0.0, r);
  return ptx2hip_f64_from_bits(ptx2hip_bits_from_f64(r) & 0xffffffff00000000ull);
}
// ptx2hip:end
