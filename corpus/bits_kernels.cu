// Bit-manipulation and video-instruction kernels written the way quantization, hashing and image
// libraries write them: templated helpers around inline PTX, multi-instruction asm blocks, macros.
#include <cstdint>

#define DEVICE_INLINE __device__ __forceinline__

// ---------------------------------------------------------------------------------------------
// int4 -> fp16 dequantization (the lop3 "magic number" trick used by AWQ/FasterTransformer kernels).

struct half8 {
  uint32_t h[4];
};

template <int kShift>
DEVICE_INLINE uint32_t shift_right(uint32_t v) {
  uint32_t r;
  asm("shr.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "n"(kShift));
  return r;
}

DEVICE_INLINE half8 dequantize_s4_to_fp16x2(uint32_t source) {
  half8 result;
  uint32_t* h = result.h;
  static constexpr uint32_t immLut = (0xf0 & 0xcc) | 0xaa;
  static constexpr uint32_t BOTTOM_MASK = 0x000f000f;
  static constexpr uint32_t TOP_MASK = 0x00f000f0;
  static constexpr uint32_t I4s_TO_F16s_MAGIC_NUM = 0x64006400;
  const uint32_t top_i4s = shift_right<8>(source);
  asm volatile("lop3.b32 %0, %1, %2, %3, %4;\n"
               : "=r"(h[0])
               : "r"(source), "n"(BOTTOM_MASK), "n"(I4s_TO_F16s_MAGIC_NUM), "n"(immLut));
  asm volatile("lop3.b32 %0, %1, %2, %3, %4;\n"
               : "=r"(h[1])
               : "r"(source), "n"(TOP_MASK), "n"(I4s_TO_F16s_MAGIC_NUM), "n"(immLut));
  asm volatile("lop3.b32 %0, %1, %2, %3, %4;\n"
               : "=r"(h[2])
               : "r"(top_i4s), "n"(BOTTOM_MASK), "n"(I4s_TO_F16s_MAGIC_NUM), "n"(immLut));
  asm volatile("lop3.b32 %0, %1, %2, %3, %4;\n"
               : "=r"(h[3])
               : "r"(top_i4s), "n"(TOP_MASK), "n"(I4s_TO_F16s_MAGIC_NUM), "n"(immLut));
  return result;
}

// int8 -> fp16 via byte permutes: bytes are placed under the exponent of 1024.0 (0x64).
DEVICE_INLINE void dequantize_u8x4_to_fp16x4(uint32_t source, uint32_t (&out)[2]) {
  static constexpr uint32_t mask_for_elt_01 = 0x5250;
  static constexpr uint32_t mask_for_elt_23 = 0x5351;
  static constexpr uint32_t start_byte_for_fp16 = 0x64646464;
  asm volatile("prmt.b32 %0,%1,%2,%3;\n" : "=r"(out[0]) : "r"(source), "n"(start_byte_for_fp16), "n"(mask_for_elt_01));
  asm volatile("prmt.b32 %0,%1,%2,%3;\n" : "=r"(out[1]) : "r"(source), "n"(start_byte_for_fp16), "n"(mask_for_elt_23));
}

// Sign-extend the four int8 lanes of a word into two words of int16 pairs (prmt sign replication).
DEVICE_INLINE void sext_s8x4_to_s16x4(uint32_t packed, uint32_t& lo, uint32_t& hi) {
  asm("{\n\t"
      "prmt.b32 %0, %2, 0, 0x9180;\n\t"
      "prmt.b32 %1, %2, 0, 0xb3a2;\n\t"
      "}"
      : "=r"(lo), "=r"(hi)
      : "r"(packed));
}

// Generic three-input logic with the truth table as a template argument.
template <uint32_t kLut>
DEVICE_INLINE uint32_t lop3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(kLut));
  return d;
}

// ---------------------------------------------------------------------------------------------
// Bit-field packing.

template <int kPos, int kLen>
struct BitField {
  static DEVICE_INLINE uint32_t get(uint32_t word) {
    uint32_t v;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(v) : "r"(word), "n"(kPos), "n"(kLen));
    return v;
  }
  static DEVICE_INLINE int32_t get_signed(uint32_t word) {
    int32_t v;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(v) : "r"(word), "n"(kPos), "n"(kLen));
    return v;
  }
  static DEVICE_INLINE uint32_t set(uint32_t word, uint32_t value) {
    uint32_t r;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(value), "r"(word), "n"(kPos), "n"(kLen));
    return r;
  }
};

// Unpacks a variable-width field of a 64-bit record (position and width known only at run time).
DEVICE_INLINE uint64_t extract_field64(uint64_t record, uint32_t pos, uint32_t width) {
  uint64_t out;
  asm("bfe.u64 %0, %1, %2, %3;" : "=l"(out) : "l"(record), "r"(pos), "r"(width));
  return out;
}

DEVICE_INLINE uint64_t insert_field64(uint64_t record, uint64_t value, uint32_t pos, uint32_t width) {
  uint64_t out;
  asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(out) : "l"(value), "l"(record), "r"(pos), "r"(width));
  return out;
}

// Mask of `width` bits at `pos` and sign extension of a `bits`-wide value (sm_70+ forms).
DEVICE_INLINE uint32_t field_mask(uint32_t pos, uint32_t width) {
  uint32_t m;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(m) : "r"(pos), "r"(width));
  return m;
}

DEVICE_INLINE int32_t sign_extend(uint32_t value, uint32_t bits) {
  int32_t r;
  asm("szext.wrap.s32 %0, %1, %2;" : "=r"(r) : "r"(value), "r"(bits));
  return r;
}

// ---------------------------------------------------------------------------------------------
// Hashing and bit scans.

#define ROTL32(out, x, n) asm("shf.l.wrap.b32 %0, %1, %1, %2;" : "=r"(out) : "r"(x), "r"(n))

DEVICE_INLINE uint32_t murmur_mix(uint32_t h, uint32_t k) {
  uint32_t t;
  ROTL32(t, k, 15u);
  asm("{\n\t"
      ".reg .b32 r;\n\t"
      "xor.b32 %0, %1, %2;\n\t"
      "shf.l.wrap.b32 r, %0, %0, 13;\n\t"
      "mul.lo.u32 r, r, 5;\n\t"
      "add.u32 %0, r, 0xe6546b64;\n\t"
      "}"
      : "=r"(h)
      : "r"(h), "r"(t));
  return h;
}

DEVICE_INLINE uint64_t funnel_right64(uint32_t lo, uint32_t hi, uint32_t n) {
  uint32_t a, b;
  asm("shf.r.clamp.b32 %0, %2, %3, %4;\n\t"
      "shr.u32 %1, %3, %4;"
      : "=r"(a), "=r"(b)
      : "r"(lo), "r"(hi), "r"(n));
  return ((uint64_t)b << 32) | a;
}

DEVICE_INLINE uint32_t ilog2_and_bits(uint64_t x, uint32_t& ones, uint32_t& lead) {
  uint32_t msb;
  asm("bfind.u64 %0, %3;\n\t"
      "popc.b64 %1, %3;\n\t"
      "clz.b64 %2, %3;"
      : "=r"(msb), "=r"(ones), "=r"(lead)
      : "l"(x));
  return msb;
}

DEVICE_INLINE uint32_t normalize_shift(int32_t v) {
  uint32_t s;
  asm("bfind.shiftamt.s32 %0, %1;" : "=r"(s) : "r"(v));
  return s;
}

DEVICE_INLINE uint32_t reverse_bits(uint32_t v) {
  uint32_t r;
  asm("brev.b32 %0, %1;" : "=r"(r) : "r"(v));
  return r;
}

// Lane of the n-th set bit of a ballot at or above `base`.
DEVICE_INLINE uint32_t nth_active_lane(uint32_t ballot, uint32_t base, int32_t n) {
  uint32_t lane;
  asm("fns.b32 %0, %1, %2, %3;" : "=r"(lane) : "r"(ballot), "r"(base), "r"(n));
  return lane;
}

// Scaled shifts with PTX's saturating amounts (16-, 32- and 64-bit).
template <typename T>
struct Shifter;

template <>
struct Shifter<uint16_t> {
  static DEVICE_INLINE uint16_t left(uint16_t v, uint32_t n) {
    uint16_t r;
    asm("shl.b16 %0, %1, %2;" : "=h"(r) : "h"(v), "r"(n));
    return r;
  }
};

template <>
struct Shifter<int64_t> {
  static DEVICE_INLINE int64_t right(int64_t v, uint32_t n) {
    int64_t r;
    asm("shr.s64 %0, %1, %2;" : "=l"(r) : "l"(v), "r"(n));
    return r;
  }
};

// Predicate logic and C-style negation.
DEVICE_INLINE uint32_t both_nonzero_or_neither(uint32_t a, uint32_t b) {
  uint32_t r = 0;
  asm("{\n\t"
      ".reg .pred pa, pb, px;\n\t"
      "setp.ne.u32 pa, %1, 0;\n\t"
      "setp.ne.u32 pb, %2, 0;\n\t"
      "xor.pred px, pa, pb;\n\t"
      "not.pred px, px;\n\t"
      "@px mov.u32 %0, 1;\n\t"
      "}"
      : "+r"(r)
      : "r"(a), "r"(b));
  return r;
}

DEVICE_INLINE uint32_t is_zero(uint32_t v) {
  uint32_t r;
  asm("cnot.b32 %0, %1;" : "=r"(r) : "r"(v));
  return r;
}

DEVICE_INLINE uint64_t clear_low_mask(uint64_t v, uint64_t m) {
  uint64_t r;
  asm("{\n\t"
      ".reg .b64 t;\n\t"
      "not.b64 t, %2;\n\t"
      "and.b64 %0, %1, t;\n\t"
      "}"
      : "=l"(r)
      : "l"(v), "l"(m));
  return r;
}

DEVICE_INLINE uint16_t toggle_flags(uint16_t flags, uint16_t mask) {
  uint16_t r;
  asm("xor.b16 %0, %1, %2;" : "=h"(r) : "h"(flags), "h"(mask));
  return r;
}

DEVICE_INLINE uint32_t set_flags(uint32_t flags, uint32_t mask) {
  uint32_t r;
  asm("or.b32 %0, %1, %2;" : "=r"(r) : "r"(flags), "r"(mask));
  return r;
}

// ---------------------------------------------------------------------------------------------
// Video SIMD: block matching and pixel averaging as in motion-estimation code.

DEVICE_INLINE uint32_t sad4(uint32_t a, uint32_t b, uint32_t acc) {
  uint32_t r;
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  return r;
}

DEVICE_INLINE uint32_t average4(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("vavrg4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0));
  return r;
}

DEVICE_INLINE uint32_t clamped_add4(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0));
  return r;
}

DEVICE_INLINE uint32_t signed_diff2(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("vsub2.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0));
  return r;
}

DEVICE_INLINE uint32_t count_greater4(uint32_t a, uint32_t b, uint32_t count) {
  uint32_t r;
  asm("vset4.u32.u32.gt.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(count));
  return r;
}

DEVICE_INLINE uint32_t max_halves(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("vmax2.s32.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0));
  return r;
}

DEVICE_INLINE int32_t clamp_add(int32_t a, int32_t b, int32_t limit) {
  int32_t r;
  asm("vadd.s32.s32.s32.sat.min %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(limit));
  return r;
}

DEVICE_INLINE uint32_t abs_diff(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("vabsdiff.u32.u32.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

DEVICE_INLINE uint32_t scale_up_sat(uint32_t v, uint32_t n) {
  uint32_t r;
  asm("vshl.u32.u32.u32.sat.clamp %0, %1, %2;" : "=r"(r) : "r"(v), "r"(n));
  return r;
}

// ---------------------------------------------------------------------------------------------

__global__ void bits_kernels(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t x = in[i], y = in[(i + 1) % n], z = in[(i + 2) % n];
  uint32_t* o = out + 64 * i;

  const half8 h = dequantize_s4_to_fp16x2(x);
  for (int k = 0; k < 4; ++k) o[k] = h.h[k];
  uint32_t u8[2];
  dequantize_u8x4_to_fp16x4(y, u8);
  o[4] = u8[0];
  o[5] = u8[1];
  sext_s8x4_to_s16x4(z, o[6], o[7]);
  o[8] = lop3<0xca>(x, y, z);
  o[9] = lop3<0x96>(x, y, z);
  o[10] = lop3<(0xf0 & 0xcc) | ~0xaa & 0xff>(x, y, z);

  o[11] = BitField<4, 12>::get(x);
  o[12] = (uint32_t)BitField<20, 8>::get_signed(x);
  o[13] = BitField<8, 4>::set(x, y);
  const uint64_t rec = ((uint64_t)y << 32) | x;
  const uint64_t f = extract_field64(rec, z & 63u, y & 63u);
  o[14] = (uint32_t)f;
  const uint64_t g = insert_field64(rec, f, y & 63u, z & 63u);
  o[15] = (uint32_t)(g >> 32);
  o[16] = field_mask(x & 31u, y & 63u);
  o[17] = (uint32_t)sign_extend(x, y);

  o[18] = murmur_mix(x, y);
  const uint64_t fr = funnel_right64(x, y, z);
  o[19] = (uint32_t)fr;
  o[20] = (uint32_t)(fr >> 32);
  uint32_t ones, lead;
  o[21] = ilog2_and_bits(rec, ones, lead);
  o[22] = ones;
  o[23] = lead;
  o[24] = normalize_shift((int32_t)x);
  o[25] = reverse_bits(x);
  o[26] = nth_active_lane(x, y & 31u, (int32_t)(z & 7u) - 3);
  o[27] = Shifter<uint16_t>::left((uint16_t)x, y);
  o[28] = (uint32_t)Shifter<int64_t>::right((int64_t)rec, z);
  o[29] = both_nonzero_or_neither(x, y);
  o[30] = is_zero(x);
  o[31] = (uint32_t)clear_low_mask(rec, z);
  o[32] = toggle_flags((uint16_t)x, (uint16_t)y);
  o[33] = set_flags(x, y);

  o[34] = sad4(x, y, z);
  o[35] = average4(x, y);
  o[36] = clamped_add4(x, y);
  o[37] = signed_diff2(x, y);
  o[38] = count_greater4(x, y, z);
  o[39] = max_halves(x, y);
  o[40] = (uint32_t)clamp_add((int32_t)x, (int32_t)y, (int32_t)z);
  o[41] = abs_diff(x, y);
  o[42] = scale_up_sat(x, y);
}
