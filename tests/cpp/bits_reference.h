// Host stand-ins for the CUDA/HIP device intrinsics the portable helpers call, written from the
// CUDA Math API definitions (loops, nothing clever), and the independent PTX reference models of
// the bits and video families. Included first by the check program tests/it/models_bits.rs writes
// (translations of every case for both targets, with their helpers and tests/amd_models/bits.h).

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <vector>
#define __host__
#define __device__
static int __popc(unsigned int x) {
  int n = 0;
  for (int i = 0; i < 32; ++i) n += (x >> i) & 1u;
  return n;
}
static int __popcll(unsigned long long x) {
  int n = 0;
  for (int i = 0; i < 64; ++i) n += (int)((x >> i) & 1u);
  return n;
}
static int __clz(int x) {
  for (int i = 31; i >= 0; --i)
    if (((uint32_t)x >> i) & 1u) return 31 - i;
  return 32;
}
static int __clzll(long long x) {
  for (int i = 63; i >= 0; --i)
    if (((uint64_t)x >> i) & 1u) return 63 - i;
  return 64;
}
static unsigned int __brev(unsigned int x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i)
    if ((x >> i) & 1u) r |= 1u << (31 - i);
  return r;
}
static unsigned long long __brevll(unsigned long long x) {
  unsigned long long r = 0;
  for (int i = 0; i < 64; ++i)
    if ((x >> i) & 1u) r |= 1ull << (63 - i);
  return r;
}

static int failures = 0;
static const char* current = "";
#define EXPECT(cond, x, y, z)                                                            \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      if (++failures < 40)                                                               \
        printf("MISMATCH %s: inputs %llx %llx %llx\n", current, (unsigned long long)(x), \
               (unsigned long long)(y), (unsigned long long)(z));                        \
    }                                                                                    \
  } while (0)

static std::vector<uint32_t> V32, POS, SEL, C32;
static std::vector<uint64_t> V64;
static std::vector<uint16_t> V16;
static std::vector<int32_t> OFFS;
static void init_values() {
  const uint32_t e[] = {
      0u,          1u,          2u,          3u,          0x7fu,       0x80u,       0xffu,
      0x100u,      0x7fffu,     0x8000u,     0xffffu,     0x10000u,    0x7fffffffu, 0x80000000u,
      0x80000001u, 0xfffffffeu, 0xffffffffu, 0x12345678u, 0xdeadbeefu, 0x00ff00ffu, 0xff00ff00u,
      0x80808080u, 0x7f7f7f7fu, 0x01020304u, 0x7fff8000u, 0x8000ffffu, 0x0f0f0f0fu, 0xf0f0f0f0u};
  for (uint32_t x : e) V32.push_back(x);
  uint64_t s = 0x243f6a8885a308d3ull;
  for (int i = 0; i < 14; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    V32.push_back((uint32_t)(s >> 29));
  }
  for (uint32_t x : V32) {
    V16.push_back((uint16_t)x);
    V64.push_back(((uint64_t)x << 32) | (x * 0x9e3779b9u));
    V64.push_back(x);
    V64.push_back((uint64_t)(int64_t)(int32_t)x);
  }
  for (uint32_t p = 0; p <= 70; ++p) POS.push_back(p);
  const uint32_t big[] = {127u,        128u,        255u,       256u,        257u,
                          288u,        0x120u,      0x1000u,    0x10000020u, 0x7fffffffu,
                          0x80000000u, 0xffffffe0u, 0xffffffffu};
  for (uint32_t x : big) POS.push_back(x);
  for (uint32_t c = 0; c < 0x10000u; c += 0x0111u) SEL.push_back(c);
  const uint32_t sels[] = {0x3210u,     0x7654u,     0x8880u, 0x9999u, 0xaaaau, 0xbbbbu, 0xccccu,
                           0xddddu,     0xeeeeu,     0xffffu, 0x0123u, 0x4567u, 0x8a9bu, 0xcedfu,
                           0x1f2e3d4cu, 0xffff8888u, 0x5140u, 0x7531u, 0xe6c4u};
  for (uint32_t x : sels) SEL.push_back(x);
  const uint32_t cs[] = {0u,          1u,          0x7fffffffu, 0x80000000u,
                         0xffffffffu, 0x12345678u, 0x000000ffu, 0xfffffff0u};
  for (uint32_t x : cs) C32.push_back(x);
  const int32_t o[] = {0,
                       1,
                       2,
                       3,
                       5,
                       17,
                       31,
                       32,
                       33,
                       -1,
                       -2,
                       -3,
                       -5,
                       -17,
                       -31,
                       -32,
                       -33,
                       2147483647,
                       -2147483647 - 1};
  for (int32_t x : o) OFFS.push_back(x);
}

static uint64_t bit(uint64_t x, uint64_t i) { return i < 64 ? (x >> i) & 1u : 0u; }
static uint64_t wmask(int w) { return w == 64 ? ~0ull : (1ull << w) - 1u; }
static uint32_t ref_popc(uint64_t x) {
  uint32_t n = 0;
  for (int i = 0; i < 64; ++i) n += (uint32_t)bit(x, i);
  return n;
}
static uint32_t ref_clz(uint64_t x, int w) {
  for (int i = w - 1; i >= 0; --i)
    if (bit(x, i)) return (uint32_t)(w - 1 - i);
  return (uint32_t)w;
}
static uint64_t ref_brev(uint64_t x, int w) {
  uint64_t r = 0;
  for (int i = 0; i < w; ++i)
    if (bit(x, i)) r |= 1ull << (w - 1 - i);
  return r;
}
static uint32_t ref_bfind(uint64_t a, int w, bool sgn, bool shiftamt) {
  a &= wmask(w);
  if (sgn && bit(a, w - 1)) a = ~a & wmask(w);
  uint32_t d = 0xffffffffu;
  for (int i = w - 1; i >= 0; --i)
    if (bit(a, i)) {
      d = (uint32_t)i;
      break;
    }
  if (shiftamt && d != 0xffffffffu) d = (uint32_t)(w - 1) - d;
  return d;
}
static uint32_t ref_fns(uint32_t mask, uint32_t base, int32_t offset) {
  uint32_t d = 0xffffffffu;
  if (offset == INT32_MIN) return 0u; /* H100 golden vectors: offset INT_MIN gives 0 */
  if (offset == 0) {
    if (bit(mask, base)) d = base;
    return d;
  }
  int64_t pos = base, count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1,
          inc = offset > 0 ? 1 : -1;
  while (pos >= 0 && pos < 32) {
    if (bit(mask, (uint64_t)pos)) {
      if (count == 0) {
        d = (uint32_t)pos;
        break;
      }
      --count;
    }
    pos += inc;
  }
  return d;
}
// bmsk, per bit: .wrap: [a & 31, (a & 31) + (b & 31)); .clamp: [a, a + min(b, 32)), nothing when a >= 32.
static uint32_t ref_bmsk(uint32_t a, uint32_t b, bool clamp) {
  uint64_t pos = clamp ? a : (a & 31u), width = clamp ? (b < 32u ? b : 32u) : (b & 31u);
  uint32_t d = 0;
  for (uint64_t i = 0; i < 32; ++i)
    if (i >= pos && i < pos + width) d |= 1u << i;
  return d;
}
static uint32_t ref_szext(uint32_t a, uint32_t b, bool clamp, bool sgn) {
  if (clamp && b >= 32u) return a;
  uint32_t n = b & 31u, d = 0;
  if (n == 0) return 0;
  for (uint32_t i = 0; i < 32; ++i)
    if (i < n ? bit(a, i) : (sgn && bit(a, n - 1))) d |= 1u << i;
  return d;
}
static uint64_t ref_bfe(uint64_t a, uint32_t b, uint32_t c, int w, bool sgn) {
  uint64_t msb = (uint64_t)w - 1, pos = w == 32 ? (b & 0xffu) : b, len = w == 32 ? (c & 0xffu) : c;
  uint64_t top = pos + len - 1 < msb ? pos + len - 1 : msb;
  uint64_t sbit = (!sgn || len == 0) ? 0 : bit(a, top);
  uint64_t d = 0;
  for (uint64_t i = 0; i <= msb; ++i)
    if ((i < len && pos + i <= msb) ? bit(a, pos + i) : sbit) d |= 1ull << i;
  return d;
}
static uint64_t ref_bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t d, int w) {
  uint64_t msb = (uint64_t)w - 1, pos = w == 32 ? (c & 0xffu) : c, len = w == 32 ? (d & 0xffu) : d;
  uint64_t f = b & wmask(w);
  for (uint64_t i = 0; i < len && pos + i <= msb; ++i)
    f = (f & ~(1ull << (pos + i))) | (bit(a, i) << (pos + i));
  return f;
}
// prmt: mode -1 is the generic form; 0..5 = f4e b4e rc8 ecl ecr rc16, rows of the PTX table (d.b0 .. d.b3).
static uint32_t ref_prmt(uint32_t a, uint32_t b, uint32_t c, int mode) {
  static const int table[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
  };
  uint8_t bytes[8];
  for (int i = 0; i < 4; ++i) {
    bytes[i] = (uint8_t)(a >> (8 * i));
    bytes[4 + i] = (uint8_t)(b >> (8 * i));
  }
  uint32_t d = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t v;
    if (mode < 0) {
      uint32_t n = (c >> (4 * i)) & 0xfu;
      v = bytes[n & 7u];
      if (n & 8u) v = (v & 0x80u) ? 0xffu : 0u;
    } else {
      v = bytes[table[mode][c & 3u][i]];
    }
    d |= v << (8 * i);
  }
  return d;
}
static uint32_t ref_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t d = 0;
  for (int i = 0; i < 32; ++i)
    d |= (uint32_t)bit(lut, bit(a, i) * 4 + bit(b, i) * 2 + bit(c, i)) << i;
  return d;
}
static uint32_t ref_shf(uint32_t a, uint32_t b, uint32_t c, bool left, bool clamp) {
  uint64_t n = clamp ? (c < 32u ? c : 32u) : (c & 31u), v = ((uint64_t)b << 32) | a;
  uint32_t d = 0;
  for (uint64_t i = 0; i < 32; ++i) {
    uint64_t src = left ? 32 + i - n : i + n; /* bit of b:a that lands in bit i */
    if (src < 64 && bit(v, src)) d |= 1u << i;
  }
  return d;
}
// kind 0: shl; 1: logical shr; 2: arithmetic shr (bit by bit).
static uint64_t ref_shift(uint64_t a, uint32_t n, int w, int kind) {
  a &= wmask(w);
  uint64_t d = 0, sign = kind == 2 ? bit(a, w - 1) : 0;
  for (uint64_t i = 0; i < (uint64_t)w; ++i) {
    uint64_t v =
        kind == 0 ? (i >= n ? bit(a, i - n) : 0) : (i + n < (uint64_t)w ? bit(a, i + n) : sign);
    d |= v << i;
  }
  return d;
}
// Video instructions from the PTX pseudo-code with 128-bit intermediates.
static __int128 clamp128(__int128 t, __int128 lo, __int128 hi) {
  return t < lo ? lo : (t > hi ? hi : t);
}
static __int128 ext(uint32_t x, int w, bool sgn) {
  uint32_t m = w == 32 ? 0xffffffffu : (1u << w) - 1u;
  x &= m;
  if (sgn && (x >> (w - 1)) & 1u) return (__int128)x - ((__int128)1 << w);
  return x;
}
static bool cmp(const char* c, __int128 a, __int128 b) {
  if (!strcmp(c, "eq")) return a == b;
  if (!strcmp(c, "ne")) return a != b;
  if (!strcmp(c, "lt")) return a < b;
  if (!strcmp(c, "le")) return a <= b;
  if (!strcmp(c, "gt")) return a > b;
  return a >= b;
}
static __int128 prim(const char* op, const char* sub, __int128 a, __int128 b) {
  if (!strcmp(op, "vadd")) return a + b;
  if (!strcmp(op, "vsub")) return a - b;
  if (!strcmp(op, "vabsdiff")) return a > b ? a - b : b - a;
  if (!strcmp(op, "vmin")) return a < b ? a : b;
  if (!strcmp(op, "vmax")) return a > b ? a : b;
  if (!strcmp(op, "vavrg"))
    return a + b >= 0 ? (a + b + 1) / 2
                      : -((-(a + b) + 1) / 2); /* floor((a+b)/2) for negative sums */
  return cmp(sub, a, b) ? 1 : 0;
}
static uint32_t ref_video(const char* op, int lanes, bool ds, bool as, bool bs, bool sat,
                          const char* op2, const char* sub, uint32_t a, uint32_t b, uint32_t c) {
  if (lanes == 1) {
    /* The PTX pseudo-code, except where an H100 (sm_90, CUDA 13.0) computes otherwise (golden vectors):
       vshl keeps a 64-bit shift result and saturates a 34-bit one; .sat to .u32 only clamps negative
       values to 0; .min/.max compare c (extended by .dtype, for vset by .atype) with a 64-bit value:
       the low 32 bits sign-extended for vadd/vsub and any saturated vshl/vshr, else the exact value,
       signed for .s32 and unsigned (64-bit) for .u32. */
    bool shl = !strcmp(op, "vshl"), shift = shl || !strcmp(op, "vshr");
    if (!strcmp(op, "vset")) ds = as;
    __int128 ta = ext(a, 32, as), tb = ext(b, 32, bs), t;
    if (shift) {
      uint32_t n = !strcmp(sub, "clamp") ? (b > 32u ? 32u : b) : (b & 31u);
      t = shl ? ta * ((__int128)1 << n)
              : (ta >= 0 ? ta >> n : -((-ta + ((__int128)1 << n) - 1) >> n));
      if (shl) t = (__int128)(int64_t)(uint64_t)(unsigned __int128)t;
    } else {
      t = prim(op, sub, ta, tb);
    }
    if (sat && shl) {
      t &= ((__int128)1 << 34) - 1;
      if (t >> 33) t -= (__int128)1 << 34;
      t = ds ? clamp128(t, -((__int128)1 << 31), ((__int128)1 << 31) - 1)
             : clamp128(t, 0, ((__int128)1 << 32) - 1);
    } else if (sat) {
      t = ds ? clamp128(t, -((__int128)1 << 31), ((__int128)1 << 31) - 1) : (t < 0 ? 0 : t);
    }
    uint32_t r = (uint32_t)(unsigned __int128)t;
    if (!strcmp(op2, "add")) return r + c;
    if (!strcmp(op2, "min") || !strcmp(op2, "max")) {
      bool low = !strcmp(op, "vadd") || !strcmp(op, "vsub") || (sat && shift);
      __int128 x = low ? ext(r, 32, true) : t, tc = ext(c, 32, ds);
      if (!ds) {
        x &= ((__int128)1 << 64) - 1;
        tc &= ((__int128)1 << 64) - 1;
      }
      bool take_t = !strcmp(op2, "min") ? x < tc : x > tc;
      return take_t ? r : c;
    }
    return r;
  }
  int w = 32 / lanes;
  uint32_t m = (1u << w) - 1u, d = 0, acc = c;
  for (int i = 0; i < lanes; ++i) {
    __int128 va = ext(a >> (w * i), w, as), vb = ext(b >> (w * i), w, bs);
    __int128 t = prim(op, sub, va, vb);
    if (sat)
      t = ds ? clamp128(t, -((__int128)1 << (w - 1)), ((__int128)1 << (w - 1)) - 1)
             : clamp128(t, 0, m);
    if (!strcmp(op2, "add")) acc += (uint32_t)(unsigned __int128)t;
    else d |= ((uint32_t)(unsigned __int128)t & m) << (w * i);
  }
  return !strcmp(op2, "add") ? acc : d;
}
