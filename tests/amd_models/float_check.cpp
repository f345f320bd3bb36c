// Host semantic check of the float helpers (run through run_float_check.sh). References: the host
// FPU in the requested rounding mode (fesetround; built with -frounding-math -ffp-contract=off).
#include <cstdio>
#include <random>
#include HELPERS_AMD
#include HELPERS_PORT

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t db(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static float bf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double bd(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
static long fails = 0, checks = 0;

static float ref_f32(int op, int m, float a, float b, float c) {
  fesetround(modes[m]);
  volatile float va = a, vb = b, vc = c;
  volatile float r = op == 0 ? va + vb : op == 1 ? va - vb : op == 2 ? va * vb : op == 3 ? std::fma((float)va, (float)vb, (float)vc)
          : op == 4 ? va / vb : std::sqrt((float)va);
  fesetround(FE_TONEAREST);
  float rr = r;
  return rr != rr ? bf(0x7fffffffu) : rr;
}
template <int OP, int M> static void chk32(float a, float b, float c) {
  float got = ptx2hip_fop_f32<OP, M, false, false>(a, b, c);
  float want = ref_f32(OP, M, a, b, c);
  ++checks;
  if (fb(got) != fb(want) && ++fails < 20)
    printf("FAIL f32 op%d mode%d a=%08x b=%08x c=%08x got %08x want %08x\n", OP, M, fb(a), fb(b), fb(c), fb(got), fb(want));
}
template <int OP> static void all32(float a, float b, float c) {
  chk32<OP, 0>(a, b, c); chk32<OP, 1>(a, b, c); chk32<OP, 2>(a, b, c); chk32<OP, 3>(a, b, c);
}
static void all(float a, float b, float c) {
  all32<0>(a, b, c); all32<1>(a, b, c); all32<2>(a, b, c); all32<3>(a, b, c); all32<4>(a, b, c); all32<5>(a, b, c);
}

int main() {
  ptx2hip_model_selfcheck();
  std::mt19937_64 rng(12345);
  const uint32_t edge[] = {0, 0x80000000u, 1, 0x80000001u, 0x007fffffu, 0x00800000u, 0x80800000u, 0x3f800000u, 0xbf800000u,
                           0x3f800001u, 0x3f7fffffu, 0x7f7fffffu, 0xff7fffffu, 0x7f7ffffeu, 0x7f800000u, 0xff800000u,
                           0x7fc00000u, 0x7f800001u, 0x33800000u, 0x34000000u, 0x4b800000u, 0x00000003u, 0x3fc00000u};
  for (uint32_t a : edge)
    for (uint32_t b : edge)
      for (uint32_t c : edge) all(bf(a), bf(b), bf(c));
  auto rnd32 = [&]() -> float {
    uint64_t r = rng();
    switch (r & 3) {
      case 0: return bf((uint32_t)(r >> 32));                                        /* any bits */
      case 1: return bf((uint32_t)((r >> 32) & 0x807fffffu) | (uint32_t)((0x7f + (int)((r >> 8) & 15) - 7) << 23)); /* near 1 */
      case 2: return bf((uint32_t)((r >> 32) & 0x80ffffffu));                         /* tiny / subnormal */
      default: return bf((uint32_t)((r >> 32) & 0x807fffffu) | 0x7e800000u);          /* huge */
    }
  };
  for (int i = 0; i < 300000; ++i) {
    float a = rnd32(), b = rnd32(), c = rnd32();
    all(a, b, c);
    all(a, -a * 0.5f, b);  /* cancellation */
    float p = a * b;
    all(a, b, -p);         /* fma residuals */
  }
  /* AMD approximate helpers: within a loose relative bound of the accurate value (and exact zeros/Infs). */
  for (int i = 0; i < 200000; ++i) {
    float x = rnd32();
    if (x != x) continue;
    auto near = [&](float got, double want, double tol, const char* what) {
      ++checks;
      if (want != want) { if (got == got && ++fails < 40) printf("FAIL %s(%a) got %a want NaN\n", what, x, got); return; }
      if (std::isinf(want) || want == 0) { if (got != (float)want && ++fails < 40) printf("FAIL %s(%a) got %a want %a\n", what, x, got, want); return; }
      double err = std::fabs(got - want);
      double ulp = std::max(std::ldexp(1.0, std::ilogb((float)want) - 23), std::ldexp(1.0, -149));
      if (err > tol * ulp && ++fails < 40) printf("FAIL %s(%a) got %a want %a (%.2f ulp)\n", what, x, got, want, err / ulp);
    };
    near(ptx2hip_amd_rcp_approx_f32<false>(x), 1.0 / x, 1.01, "rcp");
    if (x >= 0) near(ptx2hip_amd_rsqrt_approx_f32<false>(x), 1.0 / std::sqrt((double)x), 2.0, "rsqrt");
    if (x > -150 && x < 128) near(ptx2hip_amd_approx_f32<0, false>(x), std::exp2((double)x), 1.01, "ex2");
    if (x > 0) near(ptx2hip_amd_approx_f32<1, false>(x), std::log2((double)x), 2.0, "lg2");
  }
  printf("%ld checks, %ld failures\n", checks, fails);
  return fails != 0;
}
