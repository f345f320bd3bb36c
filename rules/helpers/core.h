// Helpers of rules/core.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_f32_from_bits
__device__ inline float ptx2hip_f32_from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bits_from_f32
__device__ inline uint32_t ptx2hip_bits_from_f32(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_f64_from_bits
__device__ inline double ptx2hip_f64_from_bits(uint64_t u) {
  double f;
  memcpy(&f, &u, sizeof f);
  return f;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bits_from_f64
__device__ inline uint64_t ptx2hip_bits_from_f64(double f) {
  uint64_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_canon_f32 requires=ptx2hip_f32_from_bits
// NVIDIA f32 arithmetic returns the canonical NaN 0x7fffffff whatever the input payloads.
__device__ inline float ptx2hip_canon_f32(float x) {
  return x != x ? ptx2hip_f32_from_bits(0x7fffffffu) : x;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_f32_from_f16 requires=ptx2hip_f32_from_bits
// Exact widening of IEEE binary16 bits; no half-precision header involved.
__device__ inline float ptx2hip_f32_from_f16(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1fu) return ptx2hip_f32_from_bits(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0)
    return ptx2hip_f32_from_bits(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  float magnitude = (float)mantissa * 5.9604644775390625e-08f; /* mantissa * 2^-24, exact */
  return sign ? -magnitude : magnitude;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_streq
// Compile-time comparison of "C"-constraint strings (selects the translation of each template text).
__host__ __device__ constexpr bool ptx2hip_streq(const char* a, const char* b) {
  return *a == *b && (*a == 0 || ptx2hip_streq(a + 1, b + 1));
}
// ptx2hip:end
