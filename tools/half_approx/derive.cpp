// Derives the recorded exceptions of the half-precision tanh / ex2 approximations (rules H028 and
// H029, rules/helpers/half.h) from exhaustive H100 tables recorded on the GPU (README.md).
//
// The H100 computes these forms with MUFU.TANH/EX2.F16/BF16, whose results are the f32
// approximation (tanh.approx.f32, ex2.approx.ftz.f32) truncated toward zero to the format (the
// recordings agree on every input). The helpers compute the same truncation from an f32 reference
// (tanhf, exp2f, v_exp_f32) within 2 ulp of the true function, after fixed ranges:
//   tanh: |x| <= 2^-8 gives x, |x| >= 8 gives +-1.0;
//   ex2:  |x| < 2^-23 gives 1.0, f16 x >= 16 gives +inf (bf16 flushes subnormal inputs and results).
// Every other finite input is exact for any such reference unless one of the f32 values within
// 2 ulp of the true value (computed in binary128, libquadmath) truncates to something other than
// the H100's result: those inputs, and inputs whose fixed range disagrees with the H100, are
// listed with the H100's result. NaN inputs must give 0x7fff, and each lane of an x2 form must equal
// the scalar form (checked here).
//
// Usage: derive OP FMT SCALAR.bin.gz X2.bin.gz
//   OP: tanh | ex2; FMT: f16 | bf16 (bf16 ex2 is the .ftz form). Prints the C++ hash table of the
//   listed inputs on stdout and a summary on stderr. Build: g++ -O2 -o derive derive.cpp -lquadmath
#include <quadmath.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

typedef __float128 Q;

static bool bf, ex2;

static Q decode(uint32_t h) {
  uint32_t em = bf ? 0x7f80u : 0x7c00u;
  int mant = bf ? 7 : 10, bias = bf ? 127 : 15;
  uint32_t e = (h & 0x7fffu) >> mant, m = h & ((1u << mant) - 1u);
  Q v;
  if ((h & em) == em)
    v = HUGE_VALQ;
  else if (e == 0)
    v = ldexpq((Q)m, 1 - bias - mant);
  else
    v = ldexpq((Q)(m | (1u << mant)), (int)e - bias - mant);
  return (h & 0x8000u) ? -v : v;
}

/* The f32 result r truncated to the format, as the H100 does (f16: subnormals kept, ex2 overflow
   to +inf; bf16: the high half, ex2 flushes a subnormal result). */
static uint32_t truncate(float r) {
  uint32_t u;
  memcpy(&u, &r, 4);
  if (bf) {
    uint32_t h = u >> 16;
    return ex2 && (h & 0x7f80u) == 0 ? h & 0x8000u : h;
  }
  uint32_t sign = (u >> 16) & 0x8000u;
  float a = fabsf(r);
  if (a >= 65536.0f) return sign | (ex2 ? 0x7c00u : 0x7bffu);
  if (a >= 65504.0f) return sign | 0x7bffu;
  if (a < 0x1p-14f) return sign | (uint32_t)(a * 0x1p24f); /* exact scaling, truncating cast */
  int e;
  float m = frexpf(a, &e);                             /* a = m 2^e, m in [0.5, 1) */
  uint32_t q = (uint32_t)ldexpf(m, 11);                /* 11 significant bits, truncated */
  return sign | ((uint32_t)(e + 14) << 10) | (q & 0x3ffu);
}

/* The fixed range's result for x, or -1 (see the header). */
static int32_t fixed_range(uint32_t x, Q v) {
  Q a = fabsq(v);
  uint32_t one = bf ? 0x3f80u : 0x3c00u;
  if (!ex2) {
    if (a <= 0x1p-8Q) return (int32_t)x;
    if (a >= 8) return (int32_t)(one | (x & 0x8000u));
    return -1;
  }
  if (a < 0x1p-23Q) return (int32_t)one;
  if (!bf && v >= 16) return 0x7c00;
  return -1;
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
  bf = fmt == "bf16";
  ex2 = op == "ex2";
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
  uint32_t em = bf ? 0x7f80u : 0x7c00u;
  std::vector<uint32_t> listed;
  int nan_other = 0, fixed_wrong = 0;
  for (uint32_t x = 0; x < 65536; ++x) {
    if ((x & 0x7fffu) > em) {
      nan_other += hw[x] != 0x7fffu;
      continue;
    }
    Q v = ex2 && bf && (x & em) == 0 ? 0 : decode(x);
    int32_t fixed = fixed_range(x, v);
    bool list;
    if (fixed >= 0) {
      list = (uint32_t)fixed != hw[x];
      fixed_wrong += list;
    } else {
      Q exact = ex2 ? exp2q(v) : tanhq(v);
      float near = (float)exact; /* nearest f32 (or +-inf) */
      std::set<uint32_t> outs;
      uint32_t u;
      memcpy(&u, &near, 4);
      for (int k = -2; k <= 2; ++k) {
        uint32_t mag = u & 0x7fffffffu;
        if (mag != 0 && mag != 0x7f800000u) {
          int64_t m = (int64_t)mag + k;
          mag = (uint32_t)(m < 0 ? 0 : m > 0x7f800000 ? 0x7f800000 : m);
        }
        uint32_t c = (u & 0x80000000u) | mag;
        float r;
        memcpy(&r, &c, 4);
        outs.insert(truncate(r));
      }
      list = outs.size() != 1 || *outs.begin() != hw[x];
    }
    if (list) listed.push_back(x << 16 | hw[x]);
  }
  fprintf(stderr,
          "%s.%s: %zu inputs listed (%d where the fixed range disagrees); NaN inputs not giving "
          "0x7fff: %d; x2 lanes differing from the scalar table: %d of %zu\n",
          op.c_str(), fmt.c_str(), listed.size(), fixed_wrong, nan_other, lanes_differ,
          2 * x2.size());
  /* A collision-free multiplicative hash: slot = (x * mult) >> shift, at most half the slots used;
     empty slots hold 0xffffffff (input 0xffff, a NaN, is never looked up). */
  int bits = 1;
  while ((1u << bits) < 2 * listed.size()) ++bits;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  uint32_t mult = 0;
  std::vector<uint32_t> slots;
  for (int tries = 0; mult == 0; ++tries) {
    if (tries == 100000) {
      ++bits;
      tries = 0;
    }
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t m = (uint32_t)(seed >> 32) | 1u;
    slots.assign(1u << bits, 0xffffffffu);
    bool ok = true;
    for (uint32_t w : listed) {
      uint32_t s = (uint32_t)((w >> 16) * m) >> (32 - bits);
      if (slots[s] != 0xffffffffu) {
        ok = false;
        break;
      }
      slots[s] = w;
    }
    if (ok) mult = m;
  }
  printf("constexpr uint32_t ptx2hip_%s_%s_mult = 0x%08xu;\n", op.c_str(), fmt.c_str(), mult);
  printf("constexpr int ptx2hip_%s_%s_shift = %d;\n", op.c_str(), fmt.c_str(), 32 - bits);
  printf("static __device__ const uint32_t ptx2hip_%s_%s_recorded[%zu] = {", op.c_str(), fmt.c_str(),
         slots.size());
  for (size_t i = 0; i < slots.size(); ++i) printf("%s0x%08xu,", i % 6 ? " " : "\n    ", slots[i]);
  printf("\n};\n");
  return nan_other || lanes_differ ? 1 : 0;
}
