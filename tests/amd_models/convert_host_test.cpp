// Host-side semantic test of the convert-family helpers against independent references.
// Built by tests/it/models_convert.rs: g++ -std=c++17 -O1 -frounding-math -include <generated helpers>.
// The helpers come from rules/helpers/convert.h (portable, or amd variants with -DPTX2HIP_AMD_VARIANT).
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include <algorithm>
#include "convert.h"

static int failures = 0;
#define CHECK(cond, ...) do { if (!(cond)) { if (failures++ < 40) { std::printf("FAIL %s:%d: ", __FILE__, __LINE__); std::printf(__VA_ARGS__); std::printf("\n"); } } } while (0)

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t dbits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static double bitsd(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }

// ---- An independent model of a small binary format: every positive finite value listed, then
// rounding by choosing between the two neighbours (long double comparisons are exact here).
struct Fmt {
  int mb, eb; uint32_t maxenc; bool has_inf;
  std::vector<long double> v;  // v[enc] for enc in 0..maxenc, plus v[maxenc+1] = next power step
  long double value(uint32_t enc) const {  // positive encodings only
    int ex = (int)(enc >> mb), fr = (int)(enc & ((1u << mb) - 1));
    int bias = (1 << (eb - 1)) - 1;
    if (ex == 0) return ldexpl((long double)fr, 1 - bias - mb);
    return ldexpl((long double)(fr + (1 << mb)), ex - bias - mb);
  }
  Fmt(int mb_, int eb_, uint32_t maxenc_, bool inf) : mb(mb_), eb(eb_), maxenc(maxenc_), has_inf(inf) {
    for (uint32_t e = 0; e <= maxenc + 1; ++e) v.push_back(value(e));
  }
  // Rounds a finite long double; mode 0 rn,1 rz,2 rm,3 rp,4 rna. Overflow: inf enc or maxenc per IEEE (sat: max).
  uint32_t round(long double x, int mode, bool sat) const {
    uint32_t sign = std::signbit(x) ? 1u : 0u;
    long double a = fabsl(x);
    uint32_t sh = (uint32_t)(eb + mb);
    uint32_t infenc = ((1u << eb) - 1) << mb;
    if (a >= v[maxenc + 1]) {  // beyond the virtual next value: overflow for every mode except toward zero
      bool to_max = sat || mode == 1 || (mode == 2 && !sign) || (mode == 3 && sign);
      return (sign << sh) | (to_max ? maxenc : infenc);
    }
    uint32_t lo = (uint32_t)(std::upper_bound(v.begin(), v.end(), a) - v.begin()) - 1;  // v[lo] <= a
    uint32_t r;
    if (v[lo] == a) r = lo;
    else {
      uint32_t hi = lo + 1;
      long double dl = a - v[lo], dh = v[hi] - a;
      switch (mode) {
        case 0: r = dl < dh ? lo : dh < dl ? hi : ((lo & 1) ? hi : lo); break;
        case 4: r = dl < dh ? lo : hi; break;
        case 1: r = lo; break;
        case 2: r = sign ? hi : lo; break;
        default: r = sign ? lo : hi; break;
      }
    }
    if (r > maxenc) {
      bool to_max = sat || mode == 1 || (mode == 2 && !sign) || (mode == 3 && sign);
      r = to_max ? maxenc : infenc;
    }
    return (sign << sh) | r;
  }
};

static const Fmt F16(10, 5, 0x7bff, true), BF16(7, 8, 0x7f7f, true), E4M3(3, 4, 0x7e, false), E5M2(2, 5, 0x7b, true);

static long double f16_value(uint16_t h) {
  long double m = (h & 0x7fff) == 0x7c00 ? (long double)INFINITY : F16.value(h & 0x7fff);
  return (h & 0x8000 ? -1 : 1) * m;
}

static std::mt19937_64 rng(12345);
static float rand_f32() {
  uint32_t u = (uint32_t)rng();
  switch (rng() % 6) {
    case 0: return bitsf(u);
    case 1: return bitsf((u & 0x807fffffu) | ((uint32_t)(100 + rng() % 60) << 23));   // around f16 range
    case 2: return bitsf((u & 0x807fffffu) | ((uint32_t)(rng() % 30) << 23));         // tiny / subnormal
    case 3: return bitsf((u & 0x80001fffu) | ((uint32_t)(rng() % 255) << 23) | (rng() & 1 ? 0x1000u : 0)); // near ties
    case 4: return (float)((int64_t)(rng() % 2000001) - 1000000) * 0.25f;             // halves / quarters
    default: return bitsf((u & 0x8000ffffu) | 0x47000000u | ((uint32_t)(rng() % 8) << 20)); // near 65504
  }
}

static void test_f32_to_h() {
  for (int bf = 0; bf < 2; ++bf) {
    const Fmt& F = bf ? BF16 : F16;
    for (int mode = 0; mode < 4; ++mode)
      for (int flags = 0; flags < 8; ++flags) {
        bool relu = flags & 1, sat = flags & 2, ftz = flags & 4;
        for (int i = 0; i < 400000; ++i) {
          float x = i < 64 ? bitsf(i * 0x04000000u + (i & 3)) : rand_f32();
          uint32_t u = fbits(x);
          uint16_t want;
          if (ftz && bf && (u & 0x7f800000u) == 0) u &= 0x80000000u;
          float xf = bitsf(u);
          if (xf != xf) want = 0x7fff;
          else if (relu && (u >> 31)) want = 0;
          else if (std::isinf(xf)) want = (uint16_t)(((u >> 31) << 15) | (sat ? F.maxenc : (F.maxenc + 1)));
          else want = (uint16_t)F.round((long double)xf, mode, sat);
          uint16_t got = ptx2hip_cvt_h_from_f32(x, bf, mode, relu, sat, ftz);
          CHECK(got == want, "cvt_h_from_f32 bf=%d mode=%d flags=%d x=%08x got %04x want %04x", bf, mode, flags, fbits(x), got, want);
        }
      }
  }
  // packing order: a -> high half
  CHECK(ptx2hip_cvt_h2_from_f32(1.0f, 2.0f, false, 0, false, false) == 0x3c004000u, "f16x2 order");
  CHECK(ptx2hip_cvt_h2_from_f32(1.0f, -2.0f, true, 1, false, false) == 0x3f80c000u, "bf16x2 order");
}

static void test_f64_to_f32() {
  const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  for (int mode = 0; mode < 4; ++mode)
    for (int i = 0; i < 1000000; ++i) {
      uint64_t b = rng();
      if (i % 3 == 1) b = (b & 0x800fffffffffffffull) | ((uint64_t)(1023 - 160 + rng() % 300) << 52);
      if (i % 3 == 2) b = (b & 0x8000000fffffffffull) | ((uint64_t)(1023 - 150 + rng() % 40) << 52) | ((rng() & 1) << 28);
      double x = bitsd(b);
      for (int ftz = 0; ftz < 2; ++ftz) {
        std::fesetround(modes[mode]);
        volatile double vx = x;
        volatile float r = (float)vx;
        std::fesetround(FE_TONEAREST);
        uint32_t want = fbits(r);
        if (x != x) want = ((uint32_t)(b >> 32) & 0x80000000u) | 0x7fc00000u | (uint32_t)((b >> 29) & 0x7fffffu); /* H100: sign and top payload kept, quieted */
        if (ftz && (want & 0x7f800000u) == 0) want &= 0x80000000u;
        uint32_t got = fbits(ptx2hip_cvt_f32_f64(x, mode, ftz));
        CHECK(got == want, "cvt_f32_f64 mode=%d ftz=%d x=%016llx got %08x want %08x", mode, ftz, (unsigned long long)b, got, want);
      }
    }
}

static void test_narrow_generic() {
  // f64 -> f16 / bf16 (single rounding), f16 <-> bf16 exhaustive.
  for (int mode = 0; mode < 4; ++mode) {
    for (int i = 0; i < 300000; ++i) {
      uint64_t b = (rng() & 0x800fffffffffffffull) | ((uint64_t)(1023 - 30 + rng() % 50) << 52);
      if (i % 4 == 0) b &= ~0xffffffffull;
      double x = bitsd(b);
      uint16_t g16 = (uint16_t)ptx2hip_fp_convert(dbits(x), 52, 11, false, 10, 5, 0x7bffull, 0x7fffull, mode, false, false);
      uint16_t gbf = (uint16_t)ptx2hip_fp_convert(dbits(x), 52, 11, false, 7, 8, 0x7f7full, 0x7fffull, mode, false, false);
      CHECK(g16 == F16.round(x, mode, false), "f16.f64 mode=%d x=%016llx got %04x", mode, (unsigned long long)b, g16);
      CHECK(gbf == BF16.round(x, mode, false), "bf16.f64 mode=%d x=%016llx got %04x", mode, (unsigned long long)b, gbf);
    }
    for (uint32_t h = 0; h < 65536; ++h) {
      bool nan16 = (h & 0x7fff) > 0x7c00, inf16 = (h & 0x7fff) == 0x7c00;
      uint16_t got = (uint16_t)ptx2hip_fp_convert(h, 10, 5, false, 7, 8, 0x7f7full, 0x7fffull, mode, false, false);
      uint16_t want = nan16 ? 0x7fff : inf16 ? (uint16_t)((h & 0x8000) | 0x7f80) : (uint16_t)BF16.round(f16_value(h), mode, false);
      CHECK(got == want, "bf16.f16 mode=%d h=%04x got %04x want %04x", mode, h, got, want);
      bool nanb = (h & 0x7fff) > 0x7f80, infb = (h & 0x7fff) == 0x7f80;
      long double bv = (long double)bitsf(h << 16);
      got = (uint16_t)ptx2hip_fp_convert(h, 7, 8, false, 10, 5, 0x7bffull, 0x7fffull, mode, false, false);
      want = nanb ? 0x7fff : infb ? (uint16_t)((h & 0x8000) | 0x7c00) : (uint16_t)F16.round(bv, mode, false);
      CHECK(got == want, "f16.bf16 mode=%d h=%04x got %04x want %04x", mode, h, got, want);
    }
  }
}

static void test_int_to_float() {
  const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  for (int mode = 0; mode < 4; ++mode)
    for (int i = 0; i < 300000; ++i) {
      uint64_t u = rng() >> (rng() % 64);
      int64_t s = (int64_t)(rng() >> (rng() % 64)) * ((rng() & 1) ? -1 : 1);
      if (i == 0) { u = ~0ull; s = INT64_MIN; }
      std::fesetround(modes[mode]);
      volatile uint64_t vu = u; volatile int64_t vs = s;
      volatile float fu = (float)vu, fs = (float)vs;
      volatile double du = (double)vu, ds = (double)vs;
      std::fesetround(FE_TONEAREST);
      CHECK(fbits(ptx2hip_fp_as<float>(ptx2hip_fp_from_int_u(u, 23, 8, 0x7f7fffffull, mode))) == fbits(fu), "f32.u64 mode=%d %llu", mode, (unsigned long long)u);
      CHECK(fbits(ptx2hip_fp_as<float>(ptx2hip_fp_from_int_s(s, 23, 8, 0x7f7fffffull, mode))) == fbits(fs), "f32.s64 mode=%d %lld", mode, (long long)s);
      CHECK(dbits(ptx2hip_fp_as<double>(ptx2hip_fp_from_int_u(u, 52, 11, 0x7fefffffffffffffull, mode))) == dbits(du), "f64.u64 mode=%d", mode);
      CHECK(dbits(ptx2hip_fp_as<double>(ptx2hip_fp_from_int_s(s, 52, 11, 0x7fefffffffffffffull, mode))) == dbits(ds), "f64.s64 mode=%d", mode);
      int32_t s32 = (int32_t)s; uint32_t u32 = (uint32_t)u;
      if (i & 1) { s32 = (int32_t)(s % 140000); u32 = (uint32_t)(u % 140000); }
      CHECK(ptx2hip_fp_as<uint16_t>(ptx2hip_fp_from_int_s(s32, 10, 5, 0x7bffull, mode)) == F16.round((long double)s32, mode, false), "f16.s32 mode=%d %d", mode, s32);
      CHECK(ptx2hip_fp_as<uint16_t>(ptx2hip_fp_from_int_u(u32, 10, 5, 0x7bffull, mode)) == F16.round((long double)u32, mode, false), "f16.u32 mode=%d %u", mode, u32);
      CHECK(ptx2hip_fp_as<uint16_t>(ptx2hip_fp_from_int_s(s, 7, 8, 0x7f7full, mode)) == BF16.round((long double)s, mode, false), "bf16.s64 mode=%d", mode);
      CHECK(ptx2hip_fp_as<uint16_t>(ptx2hip_fp_from_int_u(u, 7, 8, 0x7f7full, mode)) == BF16.round((long double)u, mode, false), "bf16.u64 mode=%d", mode);
    }
}

// Reference float -> int: long double rounding and clamping.
static uint64_t ref_f2i(long double x, bool isnan, int mode, int bits, bool sgn, uint64_t nanres) {
  if (isnan) return nanres;
  long double r = mode == 0 ? rintl(x) : mode == 1 ? truncl(x) : mode == 2 ? floorl(x) : ceill(x);
  long double lo = sgn ? -ldexpl(1, bits - 1) : 0, hi = sgn ? ldexpl(1, bits - 1) - 1 : ldexpl(1, bits) - 1;
  if (r < lo) r = lo;
  if (r > hi) r = hi;
  if (sgn) return (uint64_t)(int64_t)r;
  return (uint64_t)r;
}
static uint64_t trunc_bits(uint64_t v, int bits) { return bits == 64 ? v : v & ((1ull << bits) - 1); }

static void test_float_to_int() {
  const int widths[4] = {8, 16, 32, 64};
  for (int mode = 0; mode < 4; ++mode)
    for (int w = 0; w < 4; ++w)
      for (int sg = 0; sg < 2; ++sg) {
        int bits = widths[w];
        for (uint32_t h = 0; h < 65536; ++h) {  // f16 and bf16 exhaustive
          bool nan = (h & 0x7fff) > 0x7c00;
          uint64_t want = ref_f2i(f16_value(h & 0xffff), nan, mode, bits, sg, bits == 64 ? 0x8000000000000000ull : 0);
          CHECK(trunc_bits(ptx2hip_cvt_int_from_f16((uint16_t)h, mode, bits, sg, false), bits) == trunc_bits(want, bits), "int.f16 mode=%d bits=%d s=%d h=%04x", mode, bits, sg, h);
          float bfv = bitsf(h << 16);
          want = ref_f2i(bfv, bfv != bfv, mode, bits, sg, bits == 64 ? 0x8000000000000000ull : 0);
          CHECK(trunc_bits(ptx2hip_cvt_int_from_bf16((uint16_t)h, mode, bits, sg, false), bits) == trunc_bits(want, bits), "int.bf16 mode=%d bits=%d s=%d h=%04x", mode, bits, sg, h);
        }
        for (int i = 0; i < 200000; ++i) {
          float x = rand_f32();
          if (i % 5 == 0) x = bitsf((fbits(x) & 0x807fffffu) | ((uint32_t)(120 + rng() % 50) << 23));
          for (int ftz = 0; ftz < 2; ++ftz) {
            float xf = (ftz && fabsf(x) < 1.17549435e-38f) ? copysignf(0.0f, x) : x;
            uint64_t want = ref_f2i(xf, xf != xf, mode, bits, sg, bits == 64 ? 0x8000000000000000ull : 0);
            CHECK(trunc_bits(ptx2hip_cvt_int_from_f32(x, mode, bits, sg, ftz), bits) == trunc_bits(want, bits), "int.f32 mode=%d bits=%d s=%d ftz=%d x=%08x", mode, bits, sg, ftz, fbits(x));
          }
          if (bits >= 32) {
            uint64_t b = rng();
            if (i & 1) b = (b & 0x800fffffffffffffull) | ((uint64_t)(1023 + rng() % 70) << 52);
            if (i % 4 == 0) b &= ~0xfffffffull;
            double d = bitsd(b);
            uint64_t want = ref_f2i(d, d != d, mode, bits, sg, bits == 64 ? 0x8000000000000000ull : 0x80000000ull);
            CHECK(trunc_bits(ptx2hip_cvt_int_from_f64(d, mode, bits, sg, false), bits) == trunc_bits(want, bits), "int.f64 mode=%d bits=%d s=%d x=%016llx", mode, bits, sg, (unsigned long long)b);
          }
        }
      }
  // facts from the doc
  CHECK((int8_t)ptx2hip_cvt_int_from_f16(0x4100, 0, 8, true, false) == 2, "rni 2.5 -> 2");
  CHECK((int8_t)ptx2hip_cvt_int_from_f16(0xda40, 0, 8, true, false) == -128, "-200 -> -128");
  CHECK(ptx2hip_cvt_int_from_f32(bitsf(0x00000001u), 3, 32, true, false) == 1, "rpi subnormal");
  CHECK(ptx2hip_cvt_int_from_f32(bitsf(0x00000001u), 3, 32, true, true) == 0, "rpi.ftz subnormal");
}

static void test_int_int() {
  for (int i = 0; i < 200000; ++i) {
    int64_t v = (int64_t)(rng() >> (rng() % 64)) * ((rng() & 1) ? -1 : 1);
    uint64_t u = rng() >> (rng() % 64);
    for (int bits : {8, 16, 32, 64})
      for (int ds = 0; ds < 2; ++ds) {
        long double lo = ds ? -ldexpl(1, bits - 1) : 0, hi = ds ? ldexpl(1, bits - 1) - 1 : ldexpl(1, bits) - 1;
        long double rv = v < lo ? lo : v > hi ? hi : v, ru = u < lo ? lo : u > hi ? hi : u;
        uint64_t wv = rv < 0 ? (uint64_t)(int64_t)rv : (uint64_t)rv, wu = (uint64_t)ru;
        CHECK(trunc_bits(ptx2hip_sat_int_s(v, bits, ds), bits) == trunc_bits(wv, bits), "sat_s %lld bits=%d ds=%d", (long long)v, bits, ds);
        CHECK(trunc_bits(ptx2hip_sat_int_u(u, bits, ds), bits) == trunc_bits(wu, bits), "sat_u %llu bits=%d ds=%d", (unsigned long long)u, bits, ds);
      }
  }
}

static void test_pack() {
  for (int i = 0; i < 200000; ++i) {
    int32_t a = (int32_t)(rng() >> (rng() % 64)), b = (int32_t)(rng() >> (rng() % 64));
    if (rng() & 1) a = -a;
    uint32_t c = (uint32_t)rng();
    for (int n : {2, 4, 8, 16})
      for (int sg = 0; sg < 2; ++sg) {
        int64_t lo = sg ? -(1ll << (n - 1)) : 0, hi = sg ? (1ll << (n - 1)) - 1 : (1ll << n) - 1;
        int64_t ta = std::min<int64_t>(std::max<int64_t>(a, lo), hi), tb = std::min<int64_t>(std::max<int64_t>(b, lo), hi);
        uint64_t d = ((uint64_t)tb & ((1ull << n) - 1)) | (((uint64_t)ta & ((1ull << n) - 1)) << n);
        if (n < 16) d |= (uint64_t)c << (2 * n);
        CHECK(ptx2hip_cvt_pack_sat(a, b, c, n, sg) == (uint32_t)d, "pack n=%d s=%d a=%d b=%d", n, sg, a, b);
      }
  }
  CHECK(ptx2hip_cvt_pack_sat(300, -1, 0x1234, 8, false) == 0x1234ff00u, "doc example");
  CHECK(ptx2hip_cvt_pack_sat(40000, -5, 0, 16, true) == 0x7ffffffbu, "doc example 16");
}

static long double fp8_value(uint32_t b, bool e5) {
  const Fmt& F = e5 ? E5M2 : E4M3;
  return (b & 0x80 ? -1 : 1) * F.value(b & 0x7f);
}

static void test_fp8() {
  for (int e5 = 0; e5 < 2; ++e5) {
    const Fmt& F = e5 ? E5M2 : E4M3;
    for (int relu = 0; relu < 2; ++relu) {
      // decode: all 256 x 256 pairs
      for (uint32_t a = 0; a < 65536; ++a) {
        uint32_t got = ptx2hip_cvt_f16x2_from_f8x2((uint16_t)a, e5, relu);
        for (int half = 0; half < 2; ++half) {
          uint32_t b = (a >> (8 * half)) & 0xff;
          bool nan = e5 ? ((b & 0x7f) > 0x7c) : ((b & 0x7f) == 0x7f);
          bool inf = e5 && (b & 0x7f) == 0x7c;
          uint16_t want = nan ? 0x7fff : (relu && (b & 0x80)) ? 0 : inf ? (uint16_t)(((b & 0x80) << 8) | 0x7c00) : (uint16_t)F16.round(fp8_value(b, e5), 0, false);
          uint16_t g = (uint16_t)(got >> (16 * half));
          CHECK(g == want, "f16x2.fp8 e5=%d relu=%d b=%02x got %04x want %04x", e5, relu, b, g, want);
        }
        if (a >= 256) a += 255;  // low byte exhaustive, high byte sampled
      }
      // encode from f16: exhaustive
      for (uint32_t h = 0; h < 65536; ++h) {
        bool nan = (h & 0x7fff) > 0x7c00, inf = (h & 0x7fff) == 0x7c00;
        uint32_t want = nan ? 0x7f : (relu && (h & 0x8000)) ? 0 : inf ? (((h >> 8) & 0x80) | F.maxenc) : F.round(f16_value(h), 0, true);
        uint32_t got = ptx2hip_cvt_f8x2_from_f16x2((h << 16) | 0x3c00u, e5, relu);
        CHECK((got >> 8) == want, "fp8.f16 e5=%d relu=%d h=%04x got %02x want %02x", e5, relu, h, got >> 8, want);
        CHECK((got & 0xff) == (e5 ? 0x3cu : 0x38u), "fp8.f16 low byte");
      }
      // encode from f32: random
      for (int i = 0; i < 300000; ++i) {
        float x = rand_f32();
        if (i & 1) x = bitsf((fbits(x) & 0x807fffffu) | ((uint32_t)(110 + rng() % 40) << 23));
        uint32_t u = fbits(x);
        bool nan = x != x, inf = std::isinf(x);
        uint32_t want = nan ? 0x7f : (relu && (u >> 31)) ? 0 : inf ? (((u >> 24) & 0x80) | F.maxenc) : F.round(x, 0, true);
        uint32_t got = ptx2hip_cvt_f8x2_from_f32(x, 1.0f, e5, relu);
        CHECK((got >> 8) == want, "fp8.f32 e5=%d relu=%d x=%08x got %02x want %02x", e5, relu, u, got >> 8, want);
      }
    }
  }
  CHECK(ptx2hip_cvt_f8x2_from_f32(1.0f, 500.0f, false, false) == 0x387e, "doc e4m3 example");
  CHECK(ptx2hip_cvt_f8x2_from_f16x2(0x3c00c000u, true, false) == 0x3cc0, "doc e5m2 example");
  CHECK(ptx2hip_cvt_f16x2_from_f8x2(0x387e, false, false) == 0x3c005f00u, "doc decode example");
}

static void test_misc() {
  // tf32: rna ties away, rn ties to even, rz truncates, on the magnitude; specials as sm_90 gives
  // them (rna: truncated, and one ulp down under .satfinite; rn/rz: Inf kept, NaN 0x7fffe000).
  for (int i = 0; i < 1000000; ++i) {
    uint32_t u = (uint32_t)rng();
    float x = bitsf(u);
    bool special = (u & 0x7f800000u) == 0x7f800000u, nan = special && (u & 0x7fffffu);
    uint32_t low = u & 0x1fffu, base = u & 0xffffe000u, odd = (base >> 13) & 1u;
    uint32_t rna = special ? base : low >= 0x1000u ? base + 0x2000u : base;
    uint32_t rn = nan ? 0x7fffe000u : special ? base : (low > 0x1000u || (low == 0x1000u && odd)) ? base + 0x2000u : base;
    uint32_t rz = nan ? 0x7fffe000u : base;
    uint32_t rna_sat = ((rna >> 23) & 0xffu) == 0xffu ? rna - 0x2000u : rna;
    auto relu = [](uint32_t r) { return (r >> 31) ? 0u : r; };
    CHECK((ptx2hip_cvt_tf32_f32<0, false, false>(x)) == rna, "tf32 rna %08x", u);
    CHECK((ptx2hip_cvt_tf32_f32<0, false, true>(x)) == rna_sat, "tf32 rna.satfinite %08x", u);
    CHECK((ptx2hip_cvt_tf32_f32<1, false, false>(x)) == rn, "tf32 rn %08x", u);
    CHECK((ptx2hip_cvt_tf32_f32<1, true, false>(x)) == relu(rn), "tf32 rn.relu %08x", u);
    CHECK((ptx2hip_cvt_tf32_f32<2, false, false>(x)) == rz, "tf32 rz %08x", u);
    CHECK((ptx2hip_cvt_tf32_f32<2, true, false>(x)) == relu(rz), "tf32 rz.relu %08x", u);
  }
  CHECK((ptx2hip_cvt_tf32_f32<0, false, false>(bitsf(0x7f800001u))) == 0x7f800000u, "tf32 NaN -> Inf");
  CHECK((ptx2hip_cvt_tf32_f32<0, false, true>(bitsf(0xff877931u))) == 0xff874000u, "tf32 satfinite NaN");
  CHECK((ptx2hip_cvt_tf32_f32<0, false, true>(bitsf(0x7f7ff000u))) == 0x7f7fe000u, "tf32 satfinite overflow");
  // widening
  for (uint32_t h = 0; h < 65536; ++h) {
    bool nan = (h & 0x7fff) > 0x7c00;
    float f = ptx2hip_cvt_f32_f16((uint16_t)h, false);
    if (nan) CHECK(fbits(f) == 0x7fffffffu, "f32.f16 nan %04x", h);
    else CHECK((long double)f == f16_value(h) && std::signbit(f) == ((h & 0x8000) != 0), "f32.f16 %04x", h);
    double d = ptx2hip_cvt_f64_f16((uint16_t)h, false);
    if (nan) CHECK(dbits(d) == (((uint64_t)(h & 0x8000u) << 48) | 0x7ff8000000000000ull | ((uint64_t)(h & 0x3ffu) << 42)), "f64.f16 nan"); /* H100: payload kept, quieted */
    else CHECK((long double)d == f16_value(h), "f64.f16 %04x", h);
    CHECK(fbits(ptx2hip_cvt_f32_bf16((uint16_t)h, false)) == h << 16, "f32.bf16");
  }
  // integral rounding in float
  CHECK(ptx2hip_cvt_rint_f32(2.5f, 0, false, false) == 2.0f && ptx2hip_cvt_rint_f32(-1.5f, 0, false, false) == -2.0f, "rint");
  CHECK(std::signbit(ptx2hip_cvt_rint_f32(-0.4f, 0, false, false)), "rint -0");
  CHECK(ptx2hip_cvt_rint_f32(bitsf(1u), 3, false, false) == 1.0f && ptx2hip_cvt_rint_f32(bitsf(1u), 3, true, false) == 0.0f, "rpi ftz");
  CHECK(fbits(ptx2hip_cvt_rint_f32(bitsf(0xffc00001u), 0, false, false)) == 0x7fffffffu, "rint nan");
  CHECK(fbits(ptx2hip_cvt_sat_f32(bitsf(0xffc00001u), false)) == 0 && ptx2hip_cvt_sat_f32(1.5f, false) == 1.0f &&
        fbits(ptx2hip_cvt_sat_f32(-0.0f, false)) == 0 && ptx2hip_cvt_sat_f32(0.25f, false) == 0.25f, "sat");
}

static void test_amd_model() {
  CHECK(amd_model_convert_selfcheck() == 0, "amd model self-check");
  // The amd helper variant's rn f16 path = V_CVT_F16_F32 (model) with NaN -> 0x7fff.
  for (int i = 0; i < 2000000; ++i) {
    float x = rand_f32();
    uint16_t m = amd_model_v_cvt_f16_f32(x);
    uint16_t want = x != x ? 0x7fff : m;
    CHECK(ptx2hip_cvt_h_from_f32(x, false, 0, false, false, false) == want, "amd model vs helper x=%08x", fbits(x));
  }
}

int main() {
  test_amd_model();
  test_f32_to_h();
  test_f64_to_f32();
  test_narrow_generic();
  test_int_to_float();
  test_float_to_int();
  test_int_int();
  test_pack();
  test_fp8();
  test_misc();
  if (failures) { std::printf("%d failures\n", failures); return 1; }
  std::printf("convert helpers: all checks passed\n");
  return 0;
}
