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

// ptx2hip:helper ptx2hip_round
// Rounding modifiers as template arguments, named as PTX writes them: .rn (or none), .rz, .rm,
// .rp for floating-point results, .rni, .rzi, .rmi, .rpi for integral ones.
namespace ptx2hip_round {
inline constexpr int rn = 0, rz = 1, rm = 2, rp = 3;
inline constexpr int rni = 0, rzi = 1, rmi = 2, rpi = 3;
}  // namespace ptx2hip_round
// ptx2hip:end

// ptx2hip:helper ptx2hip_order
// Memory-order modifiers (.sem) as template arguments; no modifier is relaxed.
namespace ptx2hip_order {
inline constexpr int relaxed = 0, acquire = 1, release = 2, acq_rel = 3;
}  // namespace ptx2hip_order
// ptx2hip:end

// ptx2hip:helper ptx2hip_scope
// Scope modifiers as template arguments; no modifier is .gpu, and .cluster is kept as wide as .gpu
// (a cluster is never wider than the device).
namespace ptx2hip_scope {
inline constexpr int cta = 0, cluster = 1, gpu = 1, sys = 2;
}  // namespace ptx2hip_scope
// ptx2hip:end

// ptx2hip:helper ptx2hip_space
// State-space modifiers as template arguments: .shared, no modifier (a generic address) or .global.
namespace ptx2hip_space {
inline constexpr int shared = 0, generic = 1, global = 2;
}  // namespace ptx2hip_space
// ptx2hip:end

// ptx2hip:helper ptx2hip_op
// Which of two related operations a helper performs, as a template argument named after the PTX
// opcode or mode: min/max, add/sub, abs/neg, lo/hi (bool selectors), rcp/rsqrt, ex2/lg2, sin/cos.
namespace ptx2hip_op {
inline constexpr bool min = false, max = true;
inline constexpr bool add = false, sub = true;
inline constexpr bool abs = false, neg = true;
inline constexpr int rcp = 0, rsqrt = 1;
inline constexpr int ex2 = 0, lg2 = 1;
inline constexpr int sin = 0, cos = 1;
inline constexpr bool lo = false, hi = true;
}  // namespace ptx2hip_op
// ptx2hip:end

// ptx2hip:helper ptx2hip_sign
// The signedness of an integer type as a template argument, named after the PTX type.
namespace ptx2hip_sign {
inline constexpr bool u32 = false, s32 = true;
}  // namespace ptx2hip_sign
// ptx2hip:end
