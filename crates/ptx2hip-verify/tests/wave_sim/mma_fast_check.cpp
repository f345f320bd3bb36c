// The data movement of the --fast mma helpers (rules/helpers/matrix_fast.h) on the wave model of
// sim.h, for the processor the compile defines (tests/it/mma_fast.rs): random small-integer
// fragments (every product and sum exact in f32, so any misplaced value shows; tf32 registers
// carry random bits below the tf32 value, which must be ignored), on wave64 two
// different PTX warps in the two halves; every output register of every lane must equal the plain
// matrix product of the de-fragmented inputs. A partial wave must take the exact path, here a stub
// that marks the lanes calling it. mma_fast_helpers.h is written by the test: the helpers with
// what they require, `--target amd` code; WAVE_SIZE is the compile's wave size. Prints one line
// per failure; exit status 1 if any.
#include "sim.h"
#include <random>
#include <type_traits>

#include "mma_fast_helpers.h"

namespace {

// One PTX warp's matrices: A is 16 x K, B is K x 8, C and D are 16 x 8.
struct Warp {
  int a[16][16], b[16][8], c[16][8];
};

// Packs two small integers as f16 or bf16 (both exact for |x| <= 256).
uint32_t pack(int lo, int hi, bool bf16) {
  auto enc = [bf16](int x) -> uint32_t {
    const float f = (float)x;
    if (bf16) return __builtin_bit_cast(uint32_t, f) >> 16;
    return __builtin_bit_cast(uint16_t, (_Float16)f);
  };
  return enc(lo) | enc(hi) << 16;
}

// The element format of A and B.
enum Fmt { kF16, kBf16, kTf32 };

// Registers of A and B per lane.
constexpr int a_regs(int k, Fmt f) { return f == kTf32 ? k / 2 : k / 4; }
constexpr int b_regs(int k, Fmt f) { return f == kTf32 ? k / 4 : k / 8; }

// One lane's fragments (tensor-cores.md §2.1; g = l / 4, t = l % 4); C and D as f32 values.
struct Lane {
  uint32_t a[4], b[2];
  float c[4], d[4];
  bool exact;
};

Lane fragments(const Warp& w, int l, int k, Fmt f, std::mt19937& rng) {
  const int g = l / 4, t = l % 4;
  Lane x = {};
  for (int i = 0; i < 4; i++) x.c[i] = (float)w.c[g + 8 * (i >> 1)][2 * t + (i & 1)];
  if (f == kTf32) {
    // A[g + 8(i & 1)][t + 4(i >> 1)], B[t + 4i][g], with noise in the 13 bits below tf32.
    auto tf32 = [&rng](int v) {
      return __builtin_bit_cast(uint32_t, (float)v) | (rng() & 0x1fffu);
    };
    for (int i = 0; i < k / 2; i++) x.a[i] = tf32(w.a[g + 8 * (i & 1)][t + 4 * (i >> 1)]);
    for (int i = 0; i < k / 4; i++) x.b[i] = tf32(w.b[t + 4 * i][g]);
    return x;
  }
  const bool bf16 = f == kBf16;
  for (int i = 0; i < k / 4; i++) {
    // m16n8k16: A[g + 8(i & 1)][2t + h + 8(i >> 1)]; m16n8k8: A[g + 8i][2t + h].
    const int row = g + 8 * (i & 1), col = 2 * t + 8 * (i >> 1);
    x.a[i] = pack(w.a[row][col], w.a[row][col + 1], bf16);
  }
  for (int i = 0; i < k / 8; i++)
    x.b[i] = pack(w.b[2 * t + 8 * i][g], w.b[2 * t + 8 * i + 1][g], bf16);
  return x;
}

// The registers of C and D: f32, or f16 pairs (register i holds f32 registers 2i, 2i + 1).
template <bool ACC16>
using Acc = std::conditional_t<ACC16, ptx2hip_vec<uint32_t, 2>, ptx2hip_vec<float, 4>>;

template <bool ACC16>
Acc<ACC16> to_acc(const float* x) {
  Acc<ACC16> r;
  if constexpr (ACC16) {
    for (int i = 0; i < 2; i++) r.v[i] = pack((int)x[2 * i], (int)x[2 * i + 1], false);
  } else {
    for (int i = 0; i < 4; i++) r.v[i] = x[i];
  }
  return r;
}

template <bool ACC16>
void from_acc(const Acc<ACC16>& r, float* x) {
  for (int i = 0; i < 4; i++) {
    if constexpr (ACC16) {
      x[i] = (float)__builtin_bit_cast(_Float16, (uint16_t)(r.v[i / 2] >> (16 * (i % 2))));
    } else {
      x[i] = r.v[i];
    }
  }
}

// The exact translation's place in the rule template: marks the lane.
template <bool ACC16>
Acc<ACC16> exact_stub(Lane* lane) {
  lane->exact = true;
  const float minus[4] = {-1.0f, -1.0f, -1.0f, -1.0f};
  return to_acc<ACC16>(minus);
}

template <int K, Fmt F, bool ACC16>
Acc<ACC16> fast(ptx2hip_vec<uint32_t, a_regs(K, F)> a, ptx2hip_vec<uint32_t, b_regs(K, F)> b,
                Acc<ACC16> c) {
  if constexpr (F == kTf32 && K == 8) {
    return ptx2hip_mma_fast_m16n8k8_f32_tf32(a, b, c);
  } else if constexpr (F == kTf32) {
    return ptx2hip_mma_fast_m16n8k4_f32_tf32(a, b, c);
  } else if constexpr (ACC16 && K == 16) {
    return ptx2hip_mma_fast_m16n8k16_f16_f16(a, b, c);
  } else if constexpr (ACC16) {
    return ptx2hip_mma_fast_m16n8k8_f16_f16(a, b, c);
  } else if constexpr (K == 16 && F == kBf16) {
    return ptx2hip_mma_fast_m16n8k16_f32_bf16(a, b, c);
  } else if constexpr (K == 16) {
    return ptx2hip_mma_fast_m16n8k16_f32_f16(a, b, c);
  } else if constexpr (F == kBf16) {
    return ptx2hip_mma_fast_m16n8k8_f32_bf16(a, b, c);
  } else {
    return ptx2hip_mma_fast_m16n8k8_f32_f16(a, b, c);
  }
}

Lane lanes[64];

// The statement as the rule's fast template writes it.
template <int K, Fmt F, bool ACC16>
void body(int l, void*) {
  Lane& x = lanes[l];
  ptx2hip_vec<uint32_t, a_regs(K, F)> a;
  ptx2hip_vec<uint32_t, b_regs(K, F)> b;
  for (int i = 0; i < a_regs(K, F); i++) a.v[i] = x.a[i];
  for (int i = 0; i < b_regs(K, F); i++) b.v[i] = x.b[i];
  const Acc<ACC16> c = to_acc<ACC16>(x.c);
  Acc<ACC16> d;
  d = ptx2hip_wave_full() ? fast<K, F, ACC16>(a, b, c) : exact_stub<ACC16>(&x);
  from_acc<ACC16>(d, x.d);
}

int failures = 0;

void fail(const char* form, const char* what, int lane, int reg, float got, float want) {
  if (++failures <= 20)
    printf("%s: %s: lane %d register %d: got %g, expected %g\n", form, what, lane, reg, got, want);
}

template <int K, Fmt F, bool ACC16>
void check(const char* form, std::mt19937& rng, int size) {
  std::uniform_int_distribution<int> small(-8, 8), acc(-200, 200);
  for (int trial = 0; trial < 20; trial++) {
    Warp w[2];
    for (Warp& x : w) {
      for (auto& r : x.a)
        for (int& v : r) v = small(rng);
      for (auto& r : x.b)
        for (int& v : r) v = small(rng);
      for (auto& r : x.c)
        for (int& v : r) v = acc(rng);
    }
    for (int l = 0; l < size; l++) lanes[l] = fragments(w[l / 32], l % 32, K, F, rng);
    if (const char* e =
            wave_sim::run(size, size == 64 ? ~0ull : 0xffffffffull, body<K, F, ACC16>, nullptr)) {
      printf("%s: full wave: %s\n", form, e);
      failures++;
      return;
    }
    for (int l = 0; l < size; l++) {
      const Warp& x = w[l / 32];
      const int g = (l % 32) / 4, t = l % 4;
      if (lanes[l].exact) fail(form, "full wave took the exact path", l, 0, 0, 0);
      for (int i = 0; i < 4; i++) {
        const int m = g + 8 * (i >> 1), n = 2 * t + (i & 1);
        int want = x.c[m][n];
        for (int k = 0; k < K; k++) want += x.a[m][k] * x.b[k][n];
        if (lanes[l].d[i] != (float)want) fail(form, "full wave", l, i, lanes[l].d[i], (float)want);
      }
    }
  }
  // Partial waves: one lane off, and (wave64) one whole PTX warp off.
  const uint64_t full = size == 64 ? ~0ull : 0xffffffffull;
  for (uint64_t active : {full & ~(1ull << 5), size == 64 ? 0xffffffffull : full >> 1}) {
    for (int l = 0; l < size; l++) lanes[l].exact = false;
    if (const char* e = wave_sim::run(size, active, body<K, F, ACC16>, nullptr)) {
      printf("%s: partial wave: %s\n", form, e);
      failures++;
      continue;
    }
    for (int l = 0; l < size; l++)
      if (lanes[l].exact != (((active >> l) & 1) != 0))
        fail(form, "partial wave: exact path not taken by exactly the active lanes", l, 0, 0, 0);
  }
}

}  // namespace

int main() {
  std::mt19937 rng(20);
  check<16, kF16, false>("m16n8k16.f32.f16", rng, WAVE_SIZE);
  check<16, kBf16, false>("m16n8k16.f32.bf16", rng, WAVE_SIZE);
  check<8, kF16, false>("m16n8k8.f32.f16", rng, WAVE_SIZE);
  check<8, kBf16, false>("m16n8k8.f32.bf16", rng, WAVE_SIZE);
  check<16, kF16, true>("m16n8k16.f16.f16", rng, WAVE_SIZE);
  check<8, kF16, true>("m16n8k8.f16.f16", rng, WAVE_SIZE);
  check<8, kTf32, false>("m16n8k8.f32.tf32", rng, WAVE_SIZE);
  check<4, kTf32, false>("m16n8k4.f32.tf32", rng, WAVE_SIZE);
  if (failures) return 1;
  printf("ok\n");
  return 0;
}
