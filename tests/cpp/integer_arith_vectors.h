// Input vectors of the integer-arithmetic checks (tests/it/models_integer_arith.rs): the cartesian
// product of edge values (capped), then fixed-seed random values.

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <vector>
struct InSpec {
  int bits;
  bool sgn;
  bool carry;
};
struct CaseInfo {
  const char* form;
  int nin;
  int nout;
  InSpec spec[4];
};
static uint64_t p2h_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static uint64_t p2h_next(uint64_t* s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static std::vector<uint64_t> p2h_edges(InSpec s) {
  if (s.carry) return {0, 1};
  uint64_t m = p2h_mask(s.bits), top = 1ull << (s.bits - 1);
  uint64_t raw[] = {0,
                    1,
                    2,
                    3,
                    5,
                    m,
                    m - 1,
                    m - 4,
                    top,
                    top - 1,
                    top + 1,
                    top >> 1,
                    0x7fffffull,
                    0x800000ull,
                    0xffffffull,
                    0x1000000ull,
                    0x5555555555555555ull,
                    0xaaaaaaaaaaaaaaaaull,
                    0x00ff00ff00ff00ffull,
                    0xff00ff00ff00ff00ull,
                    0x7f7f7f7f7f7f7f7full,
                    0x8080808080808080ull,
                    0xffff0000ffff0000ull,
                    0x8000800080008000ull,
                    0x7fff7fff7fff7fffull};
  std::vector<uint64_t> v;
  for (uint64_t x : raw) {
    x &= m;
    bool seen = false;
    for (uint64_t y : v) seen |= y == x;
    if (!seen) v.push_back(x);
  }
  return v;
}
// Every vector of a case, nin values each, flattened.
static std::vector<uint64_t> p2h_vectors(const CaseInfo& c, int random_count) {
  std::vector<std::vector<uint64_t>> e;
  for (int i = 0; i < c.nin; i++) e.push_back(p2h_edges(c.spec[i]));
  std::vector<uint64_t> out;
  size_t total = 1;
  for (auto& v : e) total *= v.size();
  size_t step = total > 20000 ? total / 20000 + 1 : 1;
  for (size_t k = 0; k < total; k += step) {
    size_t r = k;
    for (int i = 0; i < c.nin; i++) {
      out.push_back(e[i][r % e[i].size()]);
      r /= e[i].size();
    }
  }
  uint64_t seed = 0x1234567;
  for (const char* p = c.form; *p; p++) seed = (seed ^ (uint8_t)*p) * 0x100000001b3ull;
  for (int n = 0; n < random_count; n++) {
    for (int i = 0; i < c.nin; i++) {
      uint64_t x = p2h_next(&seed);
      switch (p2h_next(&seed) % 4) {
        case 0: x &= 0xff; break;                                     // small
        case 1: x = ~(x & 0xff); break;                               // small negative
        default: break;
      }
      if (c.spec[i].carry) x &= 1;
      out.push_back(x & p2h_mask(c.spec[i].bits));
    }
  }
  return out;
}
