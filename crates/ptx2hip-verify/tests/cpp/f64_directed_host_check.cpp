// The x86 check of tests/it/rules_float64_directed.rs: the directed-rounding helpers, run in
// round-to-nearest, against the x86 instruction executed in each rounding mode.
// f64_directed_helpers.h is written by the test: the ptx2hip host shim and the helpers.
#include "f64_directed_helpers.h"
#include "f64_directed_common.h"

// ---- host check: the helpers (round to nearest) against the x86 instruction in each mode ----
template <int M>
__attribute__((noinline)) static void helper_batch(int op, const double* a, const double* b,
                                                   const double* c, double* out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    switch (op) {
      case OP_MUL: out[i] = ptx2hip_mul_dir_f64<M>(a[i], b[i]); break;
      case OP_FMA: out[i] = ptx2hip_fma_dir_f64<M>(a[i], b[i], c[i]); break;
      case OP_DIV: out[i] = ptx2hip_div_dir_f64<M>(a[i], b[i]); break;
      case OP_RCP: out[i] = ptx2hip_div_dir_f64<M>(1.0, b[i]); break;
      default: out[i] = ptx2hip_sqrt_dir_f64<M>(a[i]); break;
    }
  }
}

// ---- which path of each helper an input takes (mirrors the helpers' branch conditions) ----
static int path_of(int op, double a, double b, double c) {
  switch (op) {
    case OP_MUL: {
      double r = a * b;
      if (fabs(r) > 0x1p-969 && fabs(r) <= MX) return 0;                       /* fast */
      if (!(fabs(a) <= MX) || !(fabs(b) <= MX) || a == 0 || b == 0) return 1;    /* special */
      if (!(fabs(r) <= MX)) return 2;                                            /* overflow */
      if (r == 0) return 3; /* flushed to zero */
      return 4; /* scaled */
    }
    case OP_FMA: {
      double p = a * b, r = fma(a, b, c);
      if (fabs(p) > 0x1p-969 && fabs(p) <= 0x1p1021 && fabs(c) <= 0x1p1021)
        return r == 0 ? 1 : 0; /* fast (exact zero) */
      if (!(fabs(a) <= MX) || !(fabs(b) <= MX) || !(fabs(c) <= MX)) return 2; /* special */
      if (a == 0 || b == 0) return 3; /* zero product */
      if (c == 0) return 4; /* product only */
      if (!(fabs(r) <= MX)) return 5; /* overflow */
      int ea = ilogb(a), eb = ilogb(b), ec = ilogb(c), s = -(ea + eb);
      if (ec + s >= 56) return 6; /* c dominates */
      double rs = ldexp(r, s), r1 = fma(ldexp(a, -ea), ldexp(b, -eb),
                                        ec + s < -105 ? copysign(0x1p-106, c) : ldexp(c, s));
      if (ec + s < -105) return 7; /* c only breaks ties */
      if (r == 0) return 8; /* scaled, RN flushed to 0 */
      return rs != r1 ? 9 : 10; /* scaled */
    }
    case OP_DIV:
    case OP_RCP: {
      if (op == OP_RCP) a = 1.0;
      double r = a / b;
      if (fabs(a) >= 0x1p-968 && fabs(r) <= MX && fabs(b) <= MX) return 0;
      if (!(fabs(a) <= MX) || !(fabs(b) <= MX) || a == 0 || b == 0) return 1;
      if (!(fabs(r) <= MX)) return 2;
      if (r == 0) return 3;
      return 4;
    }
    default:
      if (a >= 0x1p-970 && a <= MX) return 0;
      if (!(a > 0) || !(a <= MX)) return 1;
      return 2;
  }
}
static const int path_count[OP_COUNT] = {5, 11, 5, 5, 3};

int main(int argc, char** argv) {
  size_t n = argc > 1 ? (size_t)strtoull(argv[1], 0, 10) : 1000000;
  int bad = oracle_self_test();
  if (bad) {
    printf("ORACLE %d failures\n", bad);
    return 1;
  }
  std::vector<double> E = edge_values();
  Rng g{argc > 2 ? (uint64_t)strtoull(argv[2], 0, 0) : 0x5eed1234abcdull};
  size_t total = 0, mismatches = 0;
  for (int op = 0; op < OP_COUNT; op++) {
    Batch t;
    gen_op(op, t, g, n, E);
    size_t m = t.size();
    size_t paths[16] = {0};
    for (size_t i = 0; i < m; i++) paths[path_of(op, t.a[i], t.b[i], t.c[i])]++;
    printf("%s paths:", op_name[op]);
    for (int k = 0; k < path_count[op]; k++) printf(" %zu", paths[k]);
    printf("\n");
    for (int k = 0; k < path_count[op]; k++)
      if (paths[k] == 0 &&
          !(op == OP_RCP && k >= 3)) { /* 1/b never flushes to zero nor takes the scaled path */
        printf("PATH-UNCOVERED %s %d\n", op_name[op], k);
        mismatches++;
      }
    std::vector<double> want(m), got(m);
    for (int mode = 1; mode <= 3; mode++) {
      fesetround(fe_mode[mode]);
      oracle_batch(op, t.a.data(), t.b.data(), t.c.data(), want.data(), m);
      fesetround(FE_TONEAREST);
      if (mode == 1) helper_batch<1>(op, t.a.data(), t.b.data(), t.c.data(), got.data(), m);
      if (mode == 2) helper_batch<2>(op, t.a.data(), t.b.data(), t.c.data(), got.data(), m);
      if (mode == 3) helper_batch<3>(op, t.a.data(), t.b.data(), t.c.data(), got.data(), m);
      size_t mm = report_mismatches(op, mode, t, want.data(), got.data(), "x86-vs-helper");
      printf("%s.%s: %zu cases, %zu mismatches\n", op_name[op], mode_name[mode], m, mm);
      total += m;
      mismatches += mm;
    }
  }
  printf("TOTAL %zu MISMATCHES %zu\n", total, mismatches);
  return mismatches != 0;
}
