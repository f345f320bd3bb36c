// The exactness argument of ptx2hip_h_tanh / ptx2hip_h_ex2 (rules/helpers/half.h): every input
// not in the recorded tables truncates the same for any f32 reference within 2 ulp of the true
// function. The helpers' tanhf / exp2f / __builtin_amdgcn_exp2f are redirected (see
// models_half_approx.rs) to the host's function moved by `shift` ulps, and all 65,536 inputs of
// each format must give the results of the unmoved reference.
#include <cmath>
#include <cstdint>
#include <cstdio>

static int shift = 0;

/* r moved by `shift` ulps (up for a positive shift); zeros and infinities stay, and a move never
   changes the sign (no reference within 2 ulp gives -tiny for +tiny). */
static float moved(float r) {
  if (r == 0 || std::isinf(r)) return r;
  float m = r;
  for (int i = 0; i < shift; ++i) m = std::nextafter(m, INFINITY);
  for (int i = 0; i > shift; --i) m = std::nextafter(m, -INFINITY);
  return std::signbit(m) == std::signbit(r) ? m : std::copysign(0.0f, r);
}
float ptx2hip_test_tanhf(float x) { return moved(std::tanh(x)); }
float ptx2hip_test_exp2f(float x) { return moved(std::exp2(x)); }

/* v_cvt_pkrtz_f16_f32 (round toward zero, f16 denormals kept) on the low lane, by integer
   truncation of the significand; the callers never pass NaN or values above 65504. */
ptx2hip_test_half2 ptx2hip_test_pkrtz(float a, float) {
  float m = std::fabs(a);
  uint16_t h;
  if (m < 0x1p-14f) {
    h = (uint16_t)(m * 0x1p24f);
  } else {
    int e;
    float f = std::frexp(m, &e);
    h = (uint16_t)(((e + 14) << 10) | ((uint32_t)std::ldexp(f, 11) & 0x3ffu));
  }
  if (std::signbit(a)) h |= 0x8000u;
  ptx2hip_test_half2 r;
  r[0] = __builtin_bit_cast(_Float16, h);
  r[1] = 0;
  return r;
}

static uint16_t tanh_of(uint16_t a, bool bf) {
  return bf ? ptx2hip_h_tanh_bf16(a) : ptx2hip_h_tanh_f16(a);
}
static uint16_t ex2_of(uint16_t a, bool bf) {
  return bf ? ptx2hip_h_ex2_bf16(a) : ptx2hip_h_ex2_f16(a);
}

int main() {
  long mismatches = 0, checked = 0;
  for (int bf = 0; bf < 2; ++bf)
    for (uint32_t a = 0; a < 65536; ++a) {
      shift = 0;
      uint16_t t0 = tanh_of((uint16_t)a, bf), e0 = ex2_of((uint16_t)a, bf);
      for (shift = -2; shift <= 2; ++shift) {
        uint16_t t = tanh_of((uint16_t)a, bf), e = ex2_of((uint16_t)a, bf);
        checked += 2;
        if (t != t0 || e != e0) {
          if (++mismatches <= 10)
            printf("%s 0x%04x, reference moved %d ulp: tanh 0x%04x (0x%04x), ex2 0x%04x (0x%04x)\n",
                   bf ? "bf16" : "f16", a, shift, t, t0, e, e0);
        }
      }
    }
  printf("%ld results, %ld mismatches\n", checked, mismatches);
  return mismatches != 0;
}
