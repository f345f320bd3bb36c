// Derives the recorded exceptions of the half-precision tanh / ex2 approximations (rules H028 and
// H029, rules/helpers/half.h) from exhaustive H100 tables recorded by record/run.sh.
//
// For every finite f16 / bf16 input x the exact value f(x) is computed in binary128 (libquadmath)
// and rounded to the format (nearest even; bf16 ex2 flushes subnormal inputs and results). The
// helpers compute that rounding from an f32 reference (tanhf, exp2f or v_exp_f32: at most 2 ulp of
// f32 from f(x)), which rounds to the same value whenever f(x) is more than MARGIN f32 ulps from
// the format's nearest rounding boundary. An input is listed, with the H100's result, when the
// H100 differs from the correct rounding or when f(x) is that close to a boundary; NaN inputs are
// checked against the one NaN result the helpers return. Also checks that each lane of the x2
// tables equals the scalar table.
//
// Usage: derive OP FMT SCALAR.bin.gz X2.bin.gz
//   OP: tanh | ex2; FMT: f16 | bf16 (bf16 ex2 is the .ftz form). Prints the C++ table on stdout
//   and a summary on stderr. Build: g++ -O2 -o derive derive.cpp -lquadmath
#include <quadmath.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

typedef __float128 Q;
constexpr double MARGIN = 8.0;  // f32 ulps: four times the largest reference error allowed

struct Format {
  int mant;  // fraction bits
  int bias;
  uint32_t exp_mask;
};
const Format F16{10, 15, 0x7c00u}, BF16{7, 127, 0x7f80u};

static bool is_nan(uint32_t h, Format f) { return (h & 0x7fffu) > f.exp_mask; }

static Q decode(uint32_t h, Format f) {
  uint32_t e = (h & 0x7fffu) >> f.mant, m = h & ((1u << f.mant) - 1u);
  Q v;
  if ((h & f.exp_mask) == f.exp_mask)
    v = HUGE_VALQ;
  else if (e == 0)
    v = ldexpq((Q)m, 1 - f.bias - f.mant);
  else
    v = ldexpq((Q)(m | (1u << f.mant)), (int)e - f.bias - f.mant);
  return (h & 0x8000u) ? -v : v;
}

/* Nearest-even rounding of v to the format; ftz flushes a subnormal result to a zero of its sign.
   Also returns the distance of v from the nearest rounding boundary in f32 ulps of v. */
static uint32_t round_to(Q v, Format f, bool ftz, double* margin) {
  uint32_t sign = signbitq(v) ? 0x8000u : 0u;
  Q a = fabsq(v);
  *margin = 1e30;
  if (a == 0) return sign;
  if (a == HUGE_VALQ) return sign | f.exp_mask;
  int e;
  frexpq(a, &e);
  e -= 1;                               /* a in [2^e, 2^(e+1)) */
  int eq = e < 1 - f.bias ? 1 - f.bias : e; /* the format's exponent of a's ulp */
  Q scaled = ldexpq(a, f.mant - eq);
  Q frac = scaled - floorq(scaled);
  *margin = (double)(fabsq(frac - 0.5Q) * ldexpq(1.0Q, eq - f.mant) / ldexpq(1.0Q, e - 23));
  uint64_t q = (uint64_t)rintq(scaled);
  uint32_t bits;
  if (q >= (2ull << f.mant)) {
    q >>= 1;
    ++eq;
  }
  if (eq > f.bias) return sign | f.exp_mask;
  if (q < (1ull << f.mant))
    bits = (uint32_t)q;
  else
    bits = ((uint32_t)(eq + f.bias) << f.mant) | ((uint32_t)q & ((1u << f.mant) - 1u));
  if (ftz && (bits & f.exp_mask) == 0) bits = 0;
  return sign | bits;
}

static std::vector<std::pair<uint32_t, uint32_t>> load(const char* path) {
  std::string cmd = std::string("zcat ") + path;
  FILE* p = popen(cmd.c_str(), "r");
  std::vector<std::pair<uint32_t, uint32_t>> v;
  uint32_t n;
  if (!p || fread(&n, 4, 1, p) != 1) return v;
  v.resize(n);
  for (auto& r : v)
    if (fread(&r.first, 4, 1, p) != 1 || fread(&r.second, 4, 1, p) != 1) return {};
  pclose(p);
  return v;
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: derive tanh|ex2 f16|bf16 SCALAR.bin.gz X2.bin.gz\n");
    return 2;
  }
  std::string op = argv[1], fmt = argv[2];
  bool bf = fmt == "bf16", ex2 = op == "ex2", ftz = bf && ex2;
  Format f = bf ? BF16 : F16;
  auto scalar = load(argv[3]), x2 = load(argv[4]);
  if (scalar.size() != 65536) {
    fprintf(stderr, "%s: expected 65536 records\n", argv[3]);
    return 1;
  }
  std::vector<uint32_t> hw(65536);
  for (auto& [in, out] : scalar) hw[in & 0xffffu] = out & 0xffffu;
  int lanes_differ = 0;
  for (auto& [in, out] : x2)
    for (int sh = 0; sh < 32; sh += 16)
      if (((out >> sh) & 0xffffu) != hw[(in >> sh) & 0xffffu]) ++lanes_differ;
  std::vector<uint32_t> listed;
  int wrong = 0, close = 0, nan_other = 0;
  for (uint32_t x = 0; x < 65536; ++x) {
    if (is_nan(x, f)) {
      if (hw[x] != 0x7fffu) ++nan_other;
      continue;
    }
    Q v = decode(x, f);
    if (ftz && (x & f.exp_mask) == 0) v = 0;
    Q exact = ex2 ? exp2q(v) : tanhq(v);
    double margin;
    uint32_t cr = round_to(exact, f, ftz, &margin);
    bool is_wrong = cr != hw[x], is_close = margin < MARGIN;
    if (is_wrong && wrong < 8)
      fprintf(stderr, "  0x%04x: H100 0x%04x, correctly rounded 0x%04x (%.1f f32 ulps from a boundary)\n", x,
              hw[x], cr, margin);
    wrong += is_wrong;
    close += is_close && !is_wrong;
    if (is_wrong || is_close) listed.push_back(x << 16 | hw[x]);
  }
  fprintf(stderr,
          "%s.%s: %d inputs differ from the correct rounding, %d more within %.0f f32 ulps of a "
          "boundary; NaN inputs not giving 0x7fff: %d; x2 lanes differing from the scalar "
          "table: %d of %zu\n",
          op.c_str(), fmt.c_str(), wrong, close, MARGIN, nan_other, lanes_differ, 2 * x2.size());
  printf("static __device__ const uint32_t ptx2hip_%s_%s_recorded[%zu] = {", op.c_str(),
         fmt.c_str(), listed.size());
  for (size_t i = 0; i < listed.size(); ++i)
    printf("%s0x%08xu,", i % 6 ? " " : "\n    ", listed[i]);
  printf("\n};\n");
  return nan_other || lanes_differ ? 1 : 0;
}
