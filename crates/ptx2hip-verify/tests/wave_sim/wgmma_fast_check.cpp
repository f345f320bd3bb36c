// The --fast wgmma helper (rules/helpers/warpgroup_fast.h) on the wave model of sim.h, for the
// processor the compile defines (tests/it/wgmma_fast.rs): one warpgroup of 128 threads (two wave64
// or four wave32, run one wave after the other as the helper never looks past its own wave) over
// random small integers (every product and sum exact in f32 and f16, so any misplaced value shows;
// tf32 elements carry random bits below the tf32 value, which must be ignored). A and B lie in
// shared memory as the descriptors say (every swizzle mode, K-major and MN-major), or A in the
// registers of mma.sync's A fragment; scale-d, imm-scale-a/b vary. Every accumulator register of
// every thread must equal the plain matrix product. A partial wave must take the exact path, here
// a stub that marks the lanes calling it. wgmma_fast_vec.h (ptx2hip_vec) and wgmma_fast_helpers.h
// (the rest, less the LDS loads shimmed here) are written by the test, `--target amd` code;
// WAVE_SIZE is the compile's wave size. Prints one line per failure; exit status 1 if any.
#include "kernel.h"
#include <random>
#include <type_traits>

#include "wgmma_fast_vec.h"

// ---- Shared memory: a host buffer; an LDS offset is an offset into it.
namespace lds {
alignas(16) inline unsigned char g_mem[1 << 16];

inline unsigned char* at(uint32_t off, uint32_t size) {
  if (off % size != 0 || off + size > sizeof g_mem) {
    fprintf(stderr, "LDS access of %u bytes at %#x: misaligned or outside shared memory\n", size,
            off);
    abort();
  }
  return g_mem + off;
}
}  // namespace lds

inline uint32_t ptx2hip_lds_load_u16(uint32_t off) {
  uint16_t v;
  memcpy(&v, lds::at(off, 2), 2);
  return v;
}
inline uint32_t ptx2hip_lds_load_u32(uint32_t off) {
  uint32_t v;
  memcpy(&v, lds::at(off, 4), 4);
  return v;
}
inline void ptx2hip_lds_load_u32x4(uint32_t off, uint32_t* w) { memcpy(w, lds::at(off, 16), 16); }
inline ptx2hip_vec<uint32_t, 2> ptx2hip_lds_load_u32x2(uint32_t off) {
  ptx2hip_vec<uint32_t, 2> v;
  memcpy(v.v, lds::at(off, 8), 8);
  return v;
}

#include "wgmma_fast_helpers.h"

namespace {

enum Fmt { kF16 = ptx2hip_tc_f16, kBf16 = ptx2hip_tc_bf16, kTf32 = ptx2hip_tc_tf32 };

std::mt19937 rng(21);
int failures = 0;

int random(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// The bits of a small integer as an element of F (tf32: an f32 register with noise below tf32).
uint32_t encode(int x, Fmt f) {
  const float v = (float)x;
  if (f == kTf32) return __builtin_bit_cast(uint32_t, v) | ((uint32_t)rng() & 0x1fffu);
  if (f == kBf16) return __builtin_bit_cast(uint32_t, v) >> 16;
  return __builtin_bit_cast(uint16_t, (_Float16)v);
}

// One operand in shared memory: a descriptor and where it starts.
struct Layout {
  uint64_t desc;
  const char* name;
};

// A descriptor for `rows` rows (A: 64, B: N) of 32 bytes of K, K-major or MN-major (16-bit
// elements only), swizzle mode 0 (none), 1 (128B), 2 (64B) or 3 (32B), at `start`, with the
// leading and stride byte offsets that pack it (ptx2hip_wgmma_addr's layout).
Layout layout(uint32_t start, uint32_t rows, bool mn_major, uint32_t mode) {
  static const char* names[2][4] = {{"K-major", "K-major 128B", "K-major 64B", "K-major 32B"},
                                    {"MN-major", "MN-major 128B", "MN-major 64B", "MN-major 32B"}};
  const uint32_t s = mode == 0 ? 0 : 4 - mode, w = 16u << s;
  uint32_t lbo, sbo;
  if (!mn_major) {
    lbo = 128;                    // no swizzle: the second 16 bytes of K, after 8 rows of 16
    sbo = s == 0 ? 256 : 8 * w;   // the next 8 rows
  } else {
    const uint32_t run = 8u << s, groups = (rows + run - 1) / run;
    lbo = s == 0 ? 128 * ((rows + 7) / 8) : 8 * w;  // the next 8 k (none) / the next run of rows
    sbo = s == 0 ? 128 : groups * 8 * w;            // the next 8 rows (none) / the next 8 k
  }
  const uint64_t desc = (uint64_t)(start >> 4) | (uint64_t)(lbo >> 4) << 16 |
                        (uint64_t)(sbo >> 4) << 32 | (uint64_t)mode << 62;
  return {desc, names[mn_major][mode]};
}

// Writes element (r, k) of a rows x K operand of format f through the descriptor; false if two
// elements would share a byte (then the layout parameters are wrong, not the helper).
bool store(const Layout& l, bool mn_major, Fmt f, int rows, int k_count, const int* value,
           std::vector<bool>& used) {
  const uint32_t bytes = f == kTf32 ? 4 : 2;
  for (int r = 0; r < rows; r++)
    for (int k = 0; k < k_count; k++) {
      const uint32_t bits = encode(value[r * k_count + k], f);
      for (uint32_t b = 0; b < bytes; b += 2) {
        const uint32_t off = ptx2hip_wgmma_addr(l.desc, mn_major, (uint32_t)r, bytes * k + b);
        if (off + 2 > sizeof lds::g_mem || used[off]) return false;
        used[off] = true;
        const uint16_t h = (uint16_t)(bits >> (8 * b));
        memcpy(lds::g_mem + off, &h, 2);
      }
    }
  return true;
}

// The accumulator fragment: N/2 f32 registers, or N/4 registers of two f16.
template <int N, bool ACC16>
using Frag = std::conditional_t<ACC16, ptx2hip_vec<uint32_t, N / 4>, ptx2hip_vec<float, N / 2>>;

// One warpgroup's case and each thread's registers.
template <int N, bool ACC16>
struct Case {
  Fmt f;
  bool regs_a;                   // A in registers (RS) instead of a descriptor
  int trans_a, trans_b, scale_a, scale_b;
  bool scale_d;
  uint64_t desc_a, desc_b;
  ptx2hip_vec<uint32_t, 4> a[128];
  Frag<N, ACC16> d[128];
  bool exact[128];
};

// The exact translation's place in the rule template: marks the lane.
template <int N, bool ACC16>
Frag<N, ACC16> exact_stub(Frag<N, ACC16> d, bool* mark) {
  *mark = true;
  return d;
}

// The statement as the rule's fast template writes it, for thread threadIdx.x.
template <int N, bool ACC16, int F>
void body(Case<N, ACC16>* c) {
  const uint32_t tid = threadIdx.x;
  constexpr int acc = ACC16 ? ptx2hip_tc_acc_f16 : ptx2hip_tc_acc_f32;
  Frag<N, ACC16> d = c->d[tid];
  if (c->regs_a) {
    d = ptx2hip_wave_full() ? ptx2hip_wgmma_fast<F, acc>(d, c->a[tid], c->desc_b, c->scale_d,
                                                         c->scale_a, c->scale_b, 0, c->trans_b)
                            : exact_stub<N, ACC16>(d, &c->exact[tid]);
  } else {
    d = ptx2hip_wave_full()
            ? ptx2hip_wgmma_fast<F, acc>(d, c->desc_a, c->desc_b, c->scale_d, c->scale_a,
                                         c->scale_b, c->trans_a, c->trans_b)
            : exact_stub<N, ACC16>(d, &c->exact[tid]);
  }
  c->d[tid] = d;
}

template <int N, bool ACC16, int F>
void lane(int, void* env) {
  body<N, ACC16, F>((Case<N, ACC16>*)env);
}

// Runs the 128 threads, wave by wave, with `active` (bit i: thread i) running the statement.
template <int N, bool ACC16, int F>
const char* run(Case<N, ACC16>& c, const bool* active) {
  wave_sim::g_block_dim = {128, 1, 1};
  for (int first = 0; first < 128; first += WAVE_SIZE) {
    wave_sim::g_wave_first = first;
    uint64_t mask = 0;
    for (int l = 0; l < WAVE_SIZE; l++)
      if (active[first + l]) mask |= 1ull << l;
    if (const char* e = wave_sim::run(WAVE_SIZE, mask, lane<N, ACC16, F>, &c)) return e;
  }
  return nullptr;
}

template <int N, bool ACC16, int F>
void check(const char* form, int trials) {
  constexpr int K = F == kTf32 ? 8 : 16;
  static Case<N, ACC16> c;
  static int a[64 * K], bt[N * K], cin[64 * N];  // bt: B transposed, row n holds column n
  for (int trial = 0; trial < trials; trial++) {
    c.f = (Fmt)F;
    c.regs_a = trial % 2 == 1;
    const bool sixteen = F != kTf32;
    c.trans_a = sixteen && !c.regs_a ? random(0, 1) : 0;
    c.trans_b = sixteen ? random(0, 1) : 0;
    c.scale_a = random(0, 1) ? 1 : -1;
    c.scale_b = random(0, 1) ? 1 : -1;
    c.scale_d = trial % 5 != 4;
    const uint32_t mode_a = (uint32_t)random(0, 3), mode_b = (uint32_t)random(0, 3);
    const Layout la = layout(0x1000, 64, c.trans_a, mode_a);
    const Layout lb = layout(0x8000, N, c.trans_b, mode_b);
    c.desc_a = la.desc;
    c.desc_b = lb.desc;
    for (int& v : a) v = random(-8, 8);
    for (int& v : bt) v = random(-8, 8);
    for (int& v : cin) v = random(-200, 200);
    memset(lds::g_mem, 0xa5, sizeof lds::g_mem);
    std::vector<bool> used(sizeof lds::g_mem);
    if (!store(la, c.trans_a, (Fmt)F, 64, K, a, used) ||
        !store(lb, c.trans_b, (Fmt)F, N, K, bt, used)) {
      printf("%s: layouts %s / %s overlap (test bug)\n", form, la.name, lb.name);
      failures++;
      return;
    }
    // Each thread's registers: A (mma.sync's A fragment of its warp) and D.
    for (int tid = 0; tid < 128; tid++) {
      const int w = tid / 32, g = tid % 32 / 4, t = tid % 4;
      for (int i = 0; i < 4; i++) {
        const int m = 16 * w + g + 8 * (i & 1);
        if (F == kTf32) {
          c.a[tid].v[i] = encode(a[m * K + t + 4 * (i >> 1)], (Fmt)F);
        } else {
          const int k = 2 * t + 8 * (i >> 1);
          c.a[tid].v[i] = encode(a[m * K + k], (Fmt)F) | encode(a[m * K + k + 1], (Fmt)F) << 16;
        }
      }
      for (int j = 0; j < N / 8; j++)
        for (int r = 0; r < 2; r++)
          for (int x = 0; x < 2; x++) {
            const int v = cin[(16 * w + g + 8 * r) * N + 8 * j + 2 * t + x];
            if constexpr (ACC16) {
              uint32_t& reg = c.d[tid].v[2 * j + r];
              reg = (reg & (x ? 0xffffu : 0xffff0000u)) | encode(v, kF16) << (16 * x);
            } else {
              c.d[tid].v[4 * j + 2 * r + x] = (float)v;
            }
          }
      c.exact[tid] = false;
    }
    bool all[128];
    for (bool& x : all) x = true;
    if (const char* e = run<N, ACC16, F>(c, all)) {
      printf("%s: %s\n", form, e);
      failures++;
      return;
    }
    for (int tid = 0; tid < 128; tid++) {
      const int w = tid / 32, g = tid % 32 / 4, t = tid % 4;
      if (c.exact[tid] && ++failures <= 20)
        printf("%s: thread %d took the exact path\n", form, tid);
      for (int j = 0; j < N / 8; j++)
        for (int r = 0; r < 2; r++)
          for (int x = 0; x < 2; x++) {
            const int m = 16 * w + g + 8 * r, n = 8 * j + 2 * t + x;
            int want = c.scale_d ? cin[m * N + n] : 0;
            for (int k = 0; k < K; k++)
              want += c.scale_a * c.scale_b * a[m * K + k] * bt[n * K + k];
            float got;
            if constexpr (ACC16) {
              const uint32_t reg = c.d[tid].v[2 * j + r];
              got = (float)__builtin_bit_cast(_Float16, (uint16_t)(reg >> (16 * x)));
            } else {
              got = c.d[tid].v[4 * j + 2 * r + x];
            }
            if (got != (float)want && ++failures <= 20)
              printf(
                  "%s (%s A, A %s, B %s, scale-d %d, scale-a %d, scale-b %d): thread %d, "
                  "D[%d][%d]: got %g, expected %d\n",
                  form, c.regs_a ? "register" : "descriptor", la.name, lb.name, c.scale_d,
                  c.scale_a, c.scale_b, tid, m, n, got, want);
          }
    }
  }
  // Partial waves: one thread off, and one whole PTX warp off: the exact path, for exactly the
  // threads that run the statement.
  for (int off_warp = 0; off_warp < 2; off_warp++) {
    bool active[128];
    for (int tid = 0; tid < 128; tid++) {
      active[tid] = off_warp ? tid / 32 != 1 : tid != 37;
      c.exact[tid] = false;
    }
    if (const char* e = run<N, ACC16, F>(c, active)) {
      printf("%s: partial wave: %s\n", form, e);
      failures++;
      continue;
    }
    for (int tid = 0; tid < 128; tid++) {
      // A wave with all its lanes active still takes the fast path.
      const int first = tid / WAVE_SIZE * WAVE_SIZE;
      bool full = true;
      for (int l = first; l < first + WAVE_SIZE; l++) full = full && active[l];
      const bool want = active[tid] && !full;
      if (c.exact[tid] != want && ++failures <= 20)
        printf("%s: partial wave: thread %d %s the exact path\n", form, tid,
               want ? "did not take" : "took");
    }
  }
}

}  // namespace

int main() {
  check<8, false, kF16>("m64n8k16.f32.f16", 10);
  check<24, false, kF16>("m64n24k16.f32.f16", 10);
  check<64, false, kF16>("m64n64k16.f32.f16", 6);
  check<256, false, kF16>("m64n256k16.f32.f16", 4);
  check<8, true, kF16>("m64n8k16.f16.f16", 10);
  check<24, true, kF16>("m64n24k16.f16.f16", 10);
  check<256, true, kF16>("m64n256k16.f16.f16", 4);
  check<8, false, kBf16>("m64n8k16.f32.bf16", 10);
  check<40, false, kBf16>("m64n40k16.f32.bf16", 10);
  check<256, false, kBf16>("m64n256k16.f32.bf16", 4);
  check<8, false, kTf32>("m64n8k8.f32.tf32", 10);
  check<24, false, kTf32>("m64n24k8.f32.tf32", 10);
  check<256, false, kTf32>("m64n256k8.f32.tf32", 4);
  if (failures) return 1;
  printf("ok\n");
  return 0;
}
