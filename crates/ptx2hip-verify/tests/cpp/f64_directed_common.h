// Shared part of the checks: operation ids, the x86 oracle and its self-test, and the inputs.
#include <fenv.h>
#include <vector>

static uint64_t p2h_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static double p2h_dbl(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

// ---- oracle: one hardware instruction in the current MXCSR rounding mode ----
// The operands go through volatile so nothing is folded or hoisted across fesetround.
enum { OP_MUL, OP_FMA, OP_DIV, OP_RCP, OP_SQRT, OP_COUNT };
static const char* const op_name[OP_COUNT] = {"mul", "fma", "div", "rcp", "sqrt"};

__attribute__((noinline)) static void oracle_batch(int op, const double* a, const double* b,
                                                   const double* c, double* out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    volatile double x = a[i], y = b[i], z = c[i];
    volatile double v;
    switch (op) {
      case OP_MUL: v = x * y; break;
      case OP_FMA: v = __builtin_fma(x, y, z); break;
      case OP_DIV: v = x / y; break;
      case OP_RCP: v = 1.0 / y; break;
      default: v = __builtin_sqrt(x); break;
    }
    out[i] = v;
  }
}

static const int fe_mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
static const char* const mode_name[4] = {"rn", "rz", "rm", "rp"};

static double oracle1(int op, int mode, double a, double b, double c) {
  double out;
  fesetround(fe_mode[mode]);
  oracle_batch(op, &a, &b, &c, &out, 1);
  fesetround(FE_TONEAREST);
  return out;
}

static bool same(double x, double y) { return (x != x && y != y) || p2h_bits(x) == p2h_bits(y); }

// ---- the oracle itself, on cases computed by hand ----
static int oracle_self_test() {
  int bad = 0;
  struct Case {
    int op, mode;
    double a, b, c;
    uint64_t want;
  };
  const double one_ulp = 0x1.0000000000001p0;
  const Case cases[] = {
      // (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104
      {OP_MUL, 1, one_ulp, one_ulp, 0, 0x3ff0000000000002ull},
      {OP_MUL, 2, one_ulp, one_ulp, 0, 0x3ff0000000000002ull},
      {OP_MUL, 3, one_ulp, one_ulp, 0, 0x3ff0000000000003ull},
      {OP_MUL, 2, -one_ulp, one_ulp, 0, 0xbff0000000000003ull},
      {OP_MUL, 1, -one_ulp, one_ulp, 0, 0xbff0000000000002ull},
      // 1/3 = 0x3fd5555555555555.55..
      {OP_DIV, 1, 1.0, 3.0, 0, 0x3fd5555555555555ull},
      {OP_DIV, 2, 1.0, 3.0, 0, 0x3fd5555555555555ull},
      {OP_DIV, 3, 1.0, 3.0, 0, 0x3fd5555555555556ull},
      {OP_DIV, 2, -1.0, 3.0, 0, 0xbfd5555555555556ull},
      {OP_RCP, 3, 0, 3.0, 0, 0x3fd5555555555556ull},
      // sqrt(2) = 1.41421356237309504880..., RN = 0x3ff6a09e667f3bcd is above it
      {OP_SQRT, 1, 2.0, 0, 0, 0x3ff6a09e667f3bccull},
      {OP_SQRT, 2, 2.0, 0, 0, 0x3ff6a09e667f3bccull},
      {OP_SQRT, 3, 2.0, 0, 0, 0x3ff6a09e667f3bcdull},
      // 2^-1074 * 0.5: below the smallest subnormal
      {OP_MUL, 1, 0x1p-1074, 0.5, 0, 0x0000000000000000ull},
      {OP_MUL, 2, 0x1p-1074, 0.5, 0, 0x0000000000000000ull},
      {OP_MUL, 3, 0x1p-1074, 0.5, 0, 0x0000000000000001ull},
      {OP_MUL, 2, -0x1p-1074, 0.5, 0, 0x8000000000000001ull},
      {OP_MUL, 3, -0x1p-1074, 0.5, 0, 0x8000000000000000ull},
      // overflow
      {OP_MUL, 1, 0x1p1023, 2.0, 0, 0x7fefffffffffffffull},
      {OP_MUL, 3, 0x1p1023, 2.0, 0, 0x7ff0000000000000ull},
      {OP_MUL, 2, 0x1p1023, -2.0, 0, 0xfff0000000000000ull},
      {OP_MUL, 3, 0x1p1023, -2.0, 0, 0xffefffffffffffffull},
      // fma: 1*1 - 1 is an exact zero: -0 only under rm
      {OP_FMA, 1, 1.0, 1.0, -1.0, 0x0000000000000000ull},
      {OP_FMA, 2, 1.0, 1.0, -1.0, 0x8000000000000000ull},
      {OP_FMA, 3, 1.0, 1.0, -1.0, 0x0000000000000000ull},
      // fma: (1 + 2^-52)^2 - 1 = 2^-51 (1 + 2^-53), between two doubles; 1 + 2^-60
      {OP_FMA, 1, one_ulp, one_ulp, -1.0, 0x3cc0000000000000ull},
      {OP_FMA, 3, one_ulp, one_ulp, -1.0, 0x3cc0000000000001ull},
      {OP_FMA, 1, 1.0, 1.0, 0x1p-60, 0x3ff0000000000000ull},
      {OP_FMA, 3, 1.0, 1.0, 0x1p-60, 0x3ff0000000000001ull},
      {OP_FMA, 2, 1.0, -1.0, -0x1p-60, 0xbff0000000000001ull},
      // (1 + 2^-52)(1 - 2^-53) - 1 = 2^-53 - 2^-105, exact (a multiply then add would give 2^-53)
      {OP_FMA, 3, one_ulp, 0x1.fffffffffffffp-1, -1.0, 0x3c9ffffffffffffeull},
      {OP_FMA, 2, one_ulp, 0x1.fffffffffffffp-1, -1.0, 0x3c9ffffffffffffeull},
  };
  for (const Case& k : cases) {
    double got = oracle1(k.op, k.mode, k.a, k.b, k.c);
    if (p2h_bits(got) != k.want) {
      printf("ORACLE-FAIL %s.%s(%a, %a, %a) = %016llx, want %016llx\n", op_name[k.op],
             mode_name[k.mode], k.a, k.b, k.c, (unsigned long long)p2h_bits(got),
             (unsigned long long)k.want);
      bad++;
    }
  }
  // and round to nearest is restored
  if (oracle1(OP_DIV, 0, 1.0, 3.0, 0) != 1.0 / 3.0) {
    printf("ORACLE-FAIL rn not restored\n");
    bad++;
  }
  return bad;
}

// ---- inputs ----
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int range(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }
  bool coin() { return next() & 1; }
  // a 52-bit fraction with a random structure: uniform bits, few bits, long runs, or short top bits
  uint64_t frac() {
    switch (next() % 9) {
      case 0:
      case 1: return next() & 0xfffffffffffffull;
      case 2: {
        uint64_t f = 0;
        int k = range(0, 4);
        for (int i = 0; i < k; i++) f |= 1ull << range(0, 51);
        return f;
      }
      case 3: {
        int lo = range(0, 51), hi = range(lo, 51);
        uint64_t m = ((2ull << hi) - 1) & ~((1ull << lo) - 1);
        return next() % 2 ? m : 0xfffffffffffffull & ~m;
      }
      case 4:
        return (next() & 0xfffffffffffffull) &
               ~((1ull << range(20, 52)) - 1); /* short significand */
      case 5:
        return (next() % 2 ? 0xfffffffffffffull : 0) ^ (1ull << range(0, 51)) ^
               (next() % 2 ? 1 : 0);
      case 6: return next() & ((1ull << range(0, 10)) - 1); /* 1 + a small multiple of ulp */
      case 7:
        return ((next() & 0xfffffffffffffull) & ~((1ull << range(20, 52)) - 1)) |
               (next() & 7); /* both ends */
      default:
        return 0xfffffffffffffull - (next() & ((1ull << range(0, 10)) - 1)); /* 2 - a few ulps */
    }
  }
  // sign * 1.frac * 2^e, e in [-1126, 1023]; below -1022 it is rounded into the subnormals
  double val(int e) {
    double m = p2h_dbl(0x3ff0000000000000ull | frac());
    double v = ldexp(m, e); /* RN host scaling: any double is a valid input */
    return coin() ? -v : v;
  }
  double any() { return p2h_dbl(next()); }
  // a subnormal (or, rarely, zero) of any sign with a structured fraction
  double sub() { return p2h_dbl((frac() >> range(0, 52)) | (next() & 0x8000000000000000ull)); }
};

static std::vector<double> edge_values() {
  std::vector<double> v;
  const double base[] = {
      0.0,
      0x1p-1074,
      0x1p-1073,
      0x1.8p-1073,
      0x1p-1072,
      0x0.fffffffffffffp-1022,
      0x0.8p-1022,
      0x0.8000000000001p-1022,
      0x1p-1022,
      0x1.0000000000001p-1022,
      0x1.fffffffffffffp-1022,
      0x1p-1021,
      0x1p-1000,
      0x1p-970,
      0x1p-969,
      0x1.8p-969,
      0x1p-968,
      0x1p-537,
      0x1.6a09e667f3bcdp-538,
      0x1p-512,
      0x1p-511,
      0x1p-485,
      0x1p-484,
      0x1p-60,
      0x1p-53,
      0x1p-52,
      0.25,
      0.5,
      0x1.fffffffffffffp-1,
      1.0,
      0x1.0000000000001p0,
      0x1.8p0,
      0x1.fffffffffffffp0,
      2.0,
      3.0,
      5.0,
      7.0,
      10.0,
      0x1.5555555555555p-2,
      0x1.6a09e667f3bcdp0,
      0x1p52,
      0x1p53,
      0x1p484,
      0x1p511,
      0x1p512,
      0x1p537,
      0x1p969,
      0x1p970,
      0x1p1021,
      0x1.fffffffffffffp1021,
      0x1p1022,
      0x1p1023,
      0x1.fffffffffffffp1023,
      0x1.ffffffffffffep1023,
      __builtin_inf(),
      __builtin_nan(""),
  };
  for (double d : base) {
    v.push_back(d);
    v.push_back(-d);
  }
  return v;
}

struct Batch {
  std::vector<double> a, b, c;
  void add(double x, double y, double z) {
    a.push_back(x);
    b.push_back(y);
    c.push_back(z);
  }
  size_t size() const { return a.size(); }
};

static const double MX = 1.7976931348623157e308;
static double pred(double x) { return nextafter(x, -__builtin_inf()); }
static double succ(double x) { return nextafter(x, __builtin_inf()); }

// Operands whose product has exponent about T: a random split, one subnormal operand, or an
// even split; significands of any structure (short ones give exact products and exact ties).
static void pair_for(Rng& g, int T, double& x, double& y) {
  int style = (int)(g.next() % 3);
  if (style == 0) {
    int ea = g.range(-1074, 1023), eb = T - ea;
    if (eb < -1126 || eb > 1023) style = 2;
    else {
      x = g.val(ea);
      y = g.val(eb);
    }
  }
  if (style == 1) {
    x = g.sub();
    int eb = T - ilogb(x);
    if (eb > 1023) eb = 1023;
    y = g.val(eb);
  }
  if (style == 2) {
    int ea = T / 2;
    x = g.val(ea);
    y = g.val(T - ea);
  }
  if (g.coin()) {
    double t = x;
    x = y;
    y = t;
  }
}

// Product (or quotient) exponents where the helpers change method or the result changes format.
static const int hard_exps[] = {-2100, -1500, -1200, -1130, -1100, -1080, -1077, -1076,
                                -1075, -1074, -1073, -1060, -1023, -1022, -1021, -1000,
                                -971,  -970,  -969,  -968,  -967,  -900,  -600,  0,
                                500,   1000,  1020,  1021,  1022,  1023,  1024};
static int hard_exp(Rng& g) {
  if (g.next() % 4 == 0) return g.range(-1090, -960);
  return hard_exps[g.next() % (sizeof hard_exps / sizeof *hard_exps)] + g.range(-3, 3);
}

static void gen_mul(Batch& t, Rng& g, size_t n, const std::vector<double>& E) {
  for (double x : E)
    for (double y : E) t.add(x, y, 0.0);
  for (size_t i = 0; i < n; i++) {
    double x, y;
    switch (i % 6) {
      case 0:
        x = g.any();
        y = g.any();
        break;
      case 1:
        x = g.val(g.range(-1126, 1023));
        y = g.val(g.range(-1126, 1023));
        break;
      default: pair_for(g, hard_exp(g), x, y);
    }
    t.add(x, y, 0.0);
  }
}

static void gen_div(Batch& t, Rng& g, size_t n, const std::vector<double>& E) {
  for (double x : E)
    for (double y : E) t.add(x, y, 0.0);
  for (size_t i = 0; i < n; i++) {
    double x, y;
    switch (i % 8) {
      case 0:
        x = g.any();
        y = g.any();
        break;
      case 1:
        x = g.val(g.range(-1126, 1023));
        y = g.val(g.range(-1126, 1023));
        break;
      case 2:
      case 3: { /* quotient exponent T: a = (about 2^T) * b */
        double q, b;
        pair_for(g, hard_exp(g), q, b);
        int T = ilogb(q);
        b = g.coin() ? g.sub() : g.val(g.range(-1074, 1023));
        x = g.val(T + ilogb(b));
        y = b;
        break;
      }
      case 4:
        x = g.coin() ? g.sub() : g.val(g.range(-1000, -960));
        y = g.val(g.range(-1126, 1023));
        break;
      case 5:
        x = g.val(g.range(-1126, 1023));
        y = g.sub();
        break;
      default: { /* exact or nearly exact quotients: a = RN(q*b) + a few ulps */
        double q, b;
        pair_for(g, g.coin() ? g.range(-1126, 1023) : hard_exp(g), q, b);
        if (g.coin()) q = p2h_dbl(p2h_bits(q) & ~((1ull << g.range(20, 52)) - 1));
        if (g.coin()) b = p2h_dbl(p2h_bits(b) & ~((1ull << g.range(20, 52)) - 1));
        double a = q * b;
        int k = g.range(-2, 2);
        for (; k > 0; k--) a = succ(a);
        for (; k < 0; k++) a = pred(a);
        x = a;
        y = b;
      }
    }
    t.add(x, y, 0.0);
  }
}

static void gen_rcp(Batch& t, Rng& g, size_t n, const std::vector<double>& E) {
  for (double y : E) t.add(1.0, y, 0.0);
  for (size_t i = 0; i < n; i++) {
    double y;
    switch (i % 4) {
      case 0: y = g.any(); break;
      case 1: y = g.val(g.range(-1126, 1023)); break;
      case 2: y = g.sub(); break;
      default:
        y = g.val(g.range(1018, 1023) + (g.coin() ? 0 : -2045)); /* 1/y subnormal or overflowing */
    }
    t.add(1.0, y, 0.0);
  }
}

static void gen_sqrt(Batch& t, Rng& g, size_t n, const std::vector<double>& E) {
  for (double x : E) t.add(x, 0.0, 0.0);
  for (size_t i = 0; i < n; i++) {
    double x;
    switch (i % 5) {
      case 0: x = g.any(); break;
      case 1: x = fabs(g.val(g.range(-1126, 1023))); break;
      case 2: x = fabs(g.coin() ? g.sub() : g.val(g.range(-1022, -960))); break;
      default: { /* exact and nearly exact squares, subnormal ones included */
        double q = fabs(g.val(g.coin() ? g.range(-560, -480) : g.range(-560, 511)));
        if (g.coin()) q = p2h_dbl(p2h_bits(q) & ~((1ull << g.range(26, 52)) - 1));
        double a = q * q;
        int k = g.range(-2, 2);
        for (; k > 0; k--) a = succ(a);
        for (; k < 0; k++) a = pred(a);
        x = a;
      }
    }
    t.add(x, 0.0, 0.0);
  }
}

static double short_sig(Rng& g, double v) {
  return p2h_dbl(p2h_bits(v) & ~((1ull << g.range(0, 52)) - 1));
}

static void gen_fma(Batch& t, Rng& g, size_t n, const std::vector<double>& E) {
  for (double x : E)
    for (double y : E)
      for (double z : E) t.add(x, y, z);
  for (size_t i = 0; i < n; i++) {
    double x, y, z;
    int kind = (int)(i % 14);
    if (kind == 0) {
      x = g.any();
      y = g.any();
      z = g.any();
    } else if (kind == 1) {
      x = g.val(g.range(-1126, 1023));
      y = g.val(g.range(-1126, 1023));
      z = g.val(g.range(-1126, 1023));
    } else {
      int T = hard_exp(g);
      pair_for(g, T, x, y);
      if (kind == 11 || (kind >= 12 && g.coin())) {
        x = short_sig(g, x);
        y = short_sig(g, y);
      }
      double p = x * y;
      T = p == 0 || !(fabs(p) <= MX) ? T : ilogb(p);
      switch (kind) {
        case 2:
        case 3: z = g.val(T + g.range(-130, 70)); break; /* c at every relative scale */
        case 4:
          z = g.val(T + g.range(-110, -100) + (g.coin() ? 0 : 158));
          break; /* tie-breaker / dominant bounds */
        case 5: z = -p; break; /* x is the product's rounding error */
        case 6: {
          z = -p;
          int k = g.range(1, 3);
          for (int j = 0; j < k; j++) z = g.coin() ? succ(z) : pred(z);
          break;
        }
        case 7: z = -(p + g.val(T - g.range(40, 110))); break; /* near cancellation with a tail */
        case 8: z = g.val(T + g.range(-60, 2)) - p; break; /* x near an arbitrary double */
        case 9: z = g.coin() ? g.sub() : g.val(g.range(-1080, -1000)); break; /* tiny c */
        case 10: { /* p + c exactly at a midpoint of the result grid, e breaks the tie */
          double m = g.val(T + g.range(-3, 3));
          z = m + (g.coin() ? 0.5 : -0.5) * (succ(fabs(m)) - fabs(m)) - p;
          break;
        }
        case 11:
          z = short_sig(g, g.val(T + g.range(-110, 60)));
          break; /* exact sums and exact ties */
        default: /* c just below the product's ulp */
          z = g.val(T - g.range(50, 60));
          if (g.coin()) z = copysign(p2h_dbl(p2h_bits(fabs(z)) | 0xfffffffffffffull), z);
          break;
      }
    }
    t.add(x, y, z);
  }
}

static void gen_op(int op, Batch& t, Rng& g, size_t n, const std::vector<double>& E) {
  switch (op) {
    case OP_MUL: gen_mul(t, g, n, E); break;
    case OP_FMA: gen_fma(t, g, 2 * n, E); break;
    case OP_DIV: gen_div(t, g, n, E); break;
    case OP_RCP: gen_rcp(t, g, n / 2, E); break;
    default: gen_sqrt(t, g, n / 2, E); break;
  }
}

static size_t report_mismatches(int op, int mode, const Batch& t, const double* want,
                                const double* got, const char* what) {
  size_t mm = 0;
  for (size_t i = 0; i < t.size(); i++) {
    if (!same(want[i], got[i])) {
      if (mm < 8)
        printf(
            "MISMATCH %s %s.%s a=%a b=%a c=%a (%016llx %016llx %016llx): want %a (%016llx) got %a (%016llx)\n",
            what, op_name[op], mode_name[mode], t.a[i], t.b[i], t.c[i],
            (unsigned long long)p2h_bits(t.a[i]), (unsigned long long)p2h_bits(t.b[i]),
            (unsigned long long)p2h_bits(t.c[i]), want[i], (unsigned long long)p2h_bits(want[i]),
            got[i], (unsigned long long)p2h_bits(got[i]));
      mm++;
    }
  }
  return mm;
}
