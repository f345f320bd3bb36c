// Helpers of rules/bits.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_bfind_u32
// bfind.u32: position of the highest set bit, 0xffffffff for 0; shiftamt: 31 - position.
__device__ inline uint32_t ptx2hip_bfind_u32(uint32_t x, bool shiftamt) {
  uint32_t lz = (uint32_t)__clz((int)x); /* 32 when x == 0 */
  return x == 0u ? 0xffffffffu : (shiftamt ? lz : 31u - lz);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bfind_s32 requires=ptx2hip_bfind_u32
// bfind.s32: negative inputs are complemented, then as bfind.u32.
__device__ inline uint32_t ptx2hip_bfind_s32(int32_t a, bool shiftamt) {
  uint32_t u = (uint32_t)a;
  return ptx2hip_bfind_u32(a < 0 ? ~u : u, shiftamt);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bfind_u64
// bfind.u64: position of the highest set bit, 0xffffffff for 0; shiftamt: 63 - position.
__device__ inline uint32_t ptx2hip_bfind_u64(uint64_t x, bool shiftamt) {
  uint32_t lz = (uint32_t)__clzll((long long)x); /* 64 when x == 0 */
  return x == 0u ? 0xffffffffu : (shiftamt ? lz : 63u - lz);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bfind_s64 requires=ptx2hip_bfind_u64
// bfind.s64: negative inputs are complemented, then as bfind.u64.
__device__ inline uint32_t ptx2hip_bfind_s64(int64_t a, bool shiftamt) {
  uint64_t u = (uint64_t)a;
  return ptx2hip_bfind_u64(a < 0 ? ~u : u, shiftamt);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fns
// fns.b32 (find n-th set bit from base; base > 31 is undefined in PTX and gives 0xffffffff here).
__device__ inline uint32_t ptx2hip_fns(uint32_t mask, uint32_t base, int32_t offset) {
  if (offset == (int32_t)0x80000000)
    return 0u; /* H100: an offset of INT_MIN gives 0 for every mask and base */
  if (base > 31u) return 0xffffffffu;
  if (offset == 0) return ((mask >> base) & 1u) ? base : 0xffffffffu;
  uint32_t n = offset > 0 ? (uint32_t)offset : 0u - (uint32_t)offset;
  if (offset > 0) {
    uint32_t m = mask & (0xffffffffu << base);
    while (m != 0u && --n != 0u) m &= m - 1u; /* drop the lowest remaining set bit */
    return m != 0u ? (uint32_t)__popc((m & (0u - m)) - 1u) : 0xffffffffu;
  }
  uint32_t m = mask & (0xffffffffu >> (31u - base));
  while (m != 0u && --n != 0u)
    m &= ~(0x80000000u >> (uint32_t)__clz((int)m)); /* drop the highest */
  return m != 0u ? 31u - (uint32_t)__clz((int)m) : 0xffffffffu;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bmsk
// bmsk.{clamp,wrap}.b32, transcribed from the PTX pseudo-code (every shift amount < 32).
__device__ inline uint32_t ptx2hip_bmsk(uint32_t a, uint32_t b, bool clamp) {
  uint32_t a1 = a & 31u, b1 = b & 31u, sum = a1 + b1;
  uint32_t mask0 = 0xffffffffu << a1;
  bool overflow = sum >= 32u;
  if (clamp && a >= 32u) {
    mask0 = 0u;
    overflow = true;
  }
  if (clamp && b >= 32u) overflow = true;
  uint32_t mask1 = overflow ? 0u : (b1 == 0u ? 0xffffffffu : 0xffffffffu << sum);
  return mask0 & ~mask1;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_szext
// szext.{clamp,wrap}.{u32,s32}, transcribed from the PTX pseudo-code.
__device__ inline uint32_t ptx2hip_szext(uint32_t a, uint32_t b, bool clamp, bool is_signed) {
  uint32_t b1 = b & 31u;
  bool too_large = clamp && b >= 32u;
  uint32_t mask = too_large ? 0u : 0xffffffffu << b1;
  bool sign = is_signed && b1 != 0u && !too_large && ((a >> ((b1 - 1u) & 31u)) & 1u);
  return (a & ~mask) | (sign ? mask : 0u);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bfe_bits
// Exact PTX bfe on a width-bit value held in x (pos and len already reduced as the form requires).
__device__ inline uint64_t ptx2hip_bfe_bits(uint64_t x, uint32_t width, uint32_t pos, uint32_t len,
                                            bool is_signed) {
  if (len == 0u) return 0u;
  uint32_t msb = width - 1u;
  uint64_t top = (uint64_t)pos + len - 1u;
  if (top > msb) top = msb;
  bool sbit = is_signed && ((x >> top) & 1u);
  uint64_t field = 0u;
  uint32_t valid = 0u; /* bits of d that come from the field */
  if (pos <= msb) {
    valid = width - pos < len ? width - pos : len;
    field = x >> pos;
    if (valid < 64u) field &= (1ull << valid) - 1u;
  }
  if (sbit && valid < 64u) field |= ~0ull << valid;
  return width == 64u ? field : field & ((1ull << width) - 1u);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bfe_u32 requires=ptx2hip_bfe_bits
// bfe.u32: pos and len are the low 8 bits of b and c.
__device__ inline uint32_t ptx2hip_bfe_u32(uint32_t a, uint32_t b, uint32_t c) {
  return (uint32_t)ptx2hip_bfe_bits(a, 32u, b & 0xffu, c & 0xffu, false);
}
// ptx2hip:amd
// bfe.u32: v_bfe_u32 reads pos and len modulo 32, which is exact for pos, len < 32 (the field's
// bits above bit 31 are 0 anyway); len >= 32 keeps every bit from pos up (a shift, which also reads
// pos modulo 32), pos >= 32 gives 0. Branch-free; constant pos/len fold to one instruction.
__device__ inline uint32_t ptx2hip_bfe_u32(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t field = (c & 0xe0u) == 0u ? __builtin_amdgcn_ubfe(a, b, c) : a >> (b & 31u);
  return (b & 0xe0u) == 0u ? field : 0u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bfe_s32 requires=ptx2hip_bfe_bits
// bfe.s32: pos and len are the low 8 bits of b and c; sign-filled from the field's top bit.
__device__ inline int32_t ptx2hip_bfe_s32(int32_t a, uint32_t b, uint32_t c) {
  return (int32_t)(uint32_t)ptx2hip_bfe_bits((uint32_t)a, 32u, b & 0xffu, c & 0xffu, true);
}
// ptx2hip:amd
// bfe.s32 with pos clamped to 31 (pos >= 32 replicates bit 31, as a >> 31 does): a field that
// reaches bit 31 (pos + len >= 32) is the arithmetic shift a >> pos; otherwise it lies inside the
// word with len < 32, where v_bfe_i32 is exact (len = 0 gives 0). Branch-free.
__device__ inline int32_t ptx2hip_bfe_s32(int32_t a, uint32_t b, uint32_t c) {
  uint32_t pos = b & 0xffu, len = c & 0xffu;
  if (pos > 31u) pos = 31u;
  return pos + len >= 32u ? a >> pos : __builtin_amdgcn_sbfe(a, pos, len);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bfe_u64 requires=ptx2hip_bfe_bits
// bfe.u64: pos and len use all 32 bits (sm_90 hardware; the PTX text says & 0xff).
__device__ inline uint64_t ptx2hip_bfe_u64(uint64_t a, uint32_t b, uint32_t c) {
  return ptx2hip_bfe_bits(a, 64u, b, c, false);
}
// ptx2hip:amd
// bfe.u64: the field a >> pos keeps its low len bits by a shift left then right by 64 - len
// (len >= 64: by 0); len = 0 and pos >= 64 give 0. Branch-free.
__device__ inline uint64_t ptx2hip_bfe_u64(uint64_t a, uint32_t b, uint32_t c) {
  uint32_t drop = 64u - (c < 64u ? c : 64u);
  uint64_t field = (a >> (b & 63u)) << (drop & 63u) >> (drop & 63u);
  return b < 64u && c != 0u ? field : 0u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bfe_s64 requires=ptx2hip_bfe_bits
// bfe.s64: pos and len use all 32 bits (sm_90 hardware; the PTX text says & 0xff).
__device__ inline int64_t ptx2hip_bfe_s64(int64_t a, uint32_t b, uint32_t c) {
  return (int64_t)ptx2hip_bfe_bits((uint64_t)a, 64u, b, c, true);
}
// ptx2hip:amd
// bfe.s64 with pos clamped to 63 and len to 64: a field that reaches bit 63 (pos + len >= 64) is
// the arithmetic shift a >> pos; otherwise a shift left moves its top bit to bit 63 and an
// arithmetic shift right by 64 - len sign-extends it. len = 0 gives 0. Branch-free.
__device__ inline int64_t ptx2hip_bfe_s64(int64_t a, uint32_t b, uint32_t c) {
  uint32_t pos = b < 63u ? b : 63u, len = c < 64u ? c : 64u;
  uint32_t up = pos + len >= 64u ? 0u : 64u - pos - len;
  int64_t field = (int64_t)((uint64_t)a << up) >> ((up + pos) & 63u);
  return len != 0u ? field : 0;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bfi_b32
// bfi.b32: pos and len are the low 8 bits of their operands.
__device__ inline uint32_t ptx2hip_bfi_b32(uint32_t a, uint32_t b, uint32_t pos_in,
                                           uint32_t len_in) {
  uint32_t pos = pos_in & 0xffu, len = len_in & 0xffu;
  if (len == 0u || pos >= 32u) return b;
  uint32_t m = (len >= 32u ? 0xffffffffu : (1u << len) - 1u) << pos;
  return ((a << pos) & m) | (b & ~m);
}
// ptx2hip:amd
// bfi.b32: the mask is v_bfm_b32 ((1 << len) - 1) << pos for pos, len < 32 (v_bfm reads both
// modulo 32), every bit from pos up for len >= 32, none for pos >= 32; then one v_bfi_b32 (bitwise
// select). Branch-free.
__device__ inline uint32_t ptx2hip_bfi_b32(uint32_t a, uint32_t b, uint32_t pos, uint32_t len) {
  uint32_t shift = pos & 31u;
  uint32_t m = (len & 0xe0u) == 0u ? ((1u << (len & 31u)) - 1u) << shift : 0xffffffffu << shift;
  if ((pos & 0xe0u) != 0u) m = 0u;
  return (m & (a << shift)) | (~m & b);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bfi_b64
// bfi.b64: pos and len use all 32 bits (sm_90 hardware; the PTX text says & 0xff).
__device__ inline uint64_t ptx2hip_bfi_b64(uint64_t a, uint64_t b, uint32_t pos, uint32_t len) {
  if (len == 0u || pos >= 64u) return b;
  uint64_t m = (len >= 64u ? ~0ull : (1ull << len) - 1u) << pos;
  return ((a << pos) & m) | (b & ~m);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_prmt_generic
// prmt.b32 (generic mode), straight from the PTX semantics.
__device__ inline uint32_t ptx2hip_prmt_generic(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t t = ((uint64_t)b << 32) | a;
  uint32_t d = 0u;
  for (uint32_t i = 0u; i < 4u; ++i) {
    uint32_t sel = (c >> (4u * i)) & 0xfu;
    uint32_t byte = (uint32_t)(t >> (8u * (sel & 7u))) & 0xffu;
    if (sel & 8u) byte = (byte & 0x80u) ? 0xffu : 0u;
    d |= byte << (8u * i);
  }
  return d;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_prmt requires=ptx2hip_prmt_generic
__device__ inline uint32_t ptx2hip_prmt(uint32_t a, uint32_t b, uint32_t c) {
  return ptx2hip_prmt_generic(a, b, c);
}
// ptx2hip:amd
// prmt.b32 (generic mode). A constant selector without even-byte sign replication is one
// v_perm_b32 (its codes: 0..7 pick a byte of {b, a}, 8 + k/2 the sign of odd byte k, 12 gives 0x00;
// even-byte signs have no code). Otherwise, branch-free: the four nibbles of c spread to bytes
// (v_perm, v_lshl_or), v_perm picks the four bytes by their low 3 bits, and the bytes whose nibble
// has bit 3 take their own sign: v_perm sign codes 8..11 read bit 7 of bytes 1, 3, 5, 7 of
// {x << 8, x}, which are bytes 1, 3, 0, 2 of x, so selector 0x090b080a replicates the sign of each
// byte of x in place; the same on the spread selector shifted left by 4 (bit 3 of a nibble at bit
// 7 of its byte) gives the byte mask that chooses (v_bfi_b32).
__device__ inline uint32_t ptx2hip_prmt(uint32_t a, uint32_t b, uint32_t c) {
  if (__builtin_constant_p(c)) {
    uint32_t sel = 0u;
    bool even_sign = false;
    for (uint32_t i = 0u; i < 4u; ++i) {
      uint32_t n = (c >> (4u * i)) & 0xfu, s = 0x0cu;
      if (n < 8u) s = n;
      else if (n & 1u) s = 8u + ((n & 7u) >> 1);
      else even_sign = true;
      sel |= s << (8u * i);
    }
    if (!even_sign) return __builtin_amdgcn_perm(b, a, sel);
  }
  const uint32_t own_sign = 0x090b080au;
  uint32_t halves = __builtin_amdgcn_perm(0u, c, 0x0c010c00u); /* byte 1 of c to byte 2 */
  uint32_t nibbles = halves | (halves << 4); /* nibble i in the low half of byte i */
  uint32_t picked = __builtin_amdgcn_perm(b, a, nibbles & 0x07070707u);
  uint32_t signs = __builtin_amdgcn_perm(picked << 8, picked, own_sign);
  uint32_t replicate = __builtin_amdgcn_perm(nibbles << 12, nibbles << 4, own_sign);
  return (replicate & signs) | (~replicate & picked);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_prmt_mode
// prmt.b32.{f4e,b4e,rc8,ecl,ecr,rc16} (mode 0..5), straight from the PTX table.
__device__ inline uint32_t ptx2hip_prmt_mode(uint32_t a, uint32_t b, uint32_t c, int mode) {
  uint64_t t = ((uint64_t)b << 32) | a;
  uint32_t k = c & 3u, d = 0u;
  for (uint32_t i = 0u; i < 4u; ++i) {
    uint32_t s;
    switch (mode) {
      case 0: s = k + i; break;
      case 1: s = (k - i) & 7u; break;
      case 2: s = k; break;
      case 3: s = i > k ? i : k; break;
      case 4: s = i < k ? i : k; break;
      default: s = (k & 1u) * 2u + (i & 1u); break;
    }
    d |= ((uint32_t)(t >> (8u * s)) & 0xffu) << (8u * i);
  }
  return d;
}
// ptx2hip:amd
// prmt.b32.{f4e,b4e,rc8,ecl,ecr,rc16} (mode 0..5): one v_perm_b32 with the selector of the mode.
__device__ inline uint32_t ptx2hip_prmt_mode(uint32_t a, uint32_t b, uint32_t c, int mode) {
  uint32_t k = c & 3u, sel = 0u;
  for (uint32_t i = 0u; i < 4u; ++i) {
    uint32_t s;
    switch (mode) {
      case 0: s = k + i; break;
      case 1: s = (k - i) & 7u; break;
      case 2: s = k; break;
      case 3: s = i > k ? i : k; break;
      case 4: s = i < k ? i : k; break;
      default: s = (k & 1u) * 2u + (i & 1u); break;
    }
    sel |= s << (8u * i);
  }
  return __builtin_amdgcn_perm(b, a, sel);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_prmt_f4e_amd
// prmt.b32.f4e: bytes k .. k+3 of {b, a} (k = c & 3). Only the AMD template calls this helper.
__device__ inline uint32_t ptx2hip_prmt_f4e_amd(uint32_t a, uint32_t b, uint32_t c) {
  return (uint32_t)((((uint64_t)b << 32) | a) >> (8u * (c & 3u)));
}
// ptx2hip:amd
// prmt.b32.f4e: bytes k .. k+3 of {b, a} (k = c & 3) = v_alignbyte_b32 (which reads c & 3).
__device__ inline uint32_t ptx2hip_prmt_f4e_amd(uint32_t a, uint32_t b, uint32_t c) {
  return __builtin_amdgcn_alignbyte(b, a, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_lop3
// lop3.b32: bit i of the result is bit (4*a_i + 2*b_i + c_i) of lut. Each case is a minimal
// &/|/^/~ formula of its truth table; a constant lut (PTX requires one) folds to that formula.
__device__ inline uint32_t ptx2hip_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  switch (lut & 0xffu) {
    case 0x00u: return 0u;
    case 0x01u: return ~(b | (c | a));
    case 0x02u: return (~(b | a)) & c;
    case 0x03u: return ~(b | a);
    case 0x04u: return (~(c | a)) & b;
    case 0x05u: return ~(c | a);
    case 0x06u: return ~a & (c ^ b);
    case 0x07u: return ~((c & b) | a);
    case 0x08u: return ~a & (c & b);
    case 0x09u: return ~((c ^ b) | a);
    case 0x0au: return ~a & c;
    case 0x0bu: return ~a & (~b | c);
    case 0x0cu: return ~a & b;
    case 0x0du: return ~a & (~c | b);
    case 0x0eu: return ~a & (c | b);
    case 0x0fu: return ~a;
    case 0x10u: return (~(c | b)) & a;
    case 0x11u: return ~(c | b);
    case 0x12u: return ~b & (c ^ a);
    case 0x13u: return ~((c & a) | b);
    case 0x14u: return (b ^ a) & ~c;
    case 0x15u: return ~(c | (b & a));
    case 0x16u: return b ^ ((c ^ a) | (b & a));
    case 0x17u: return b ^ ((c ^ a) | (~a ^ b));
    case 0x18u: return (b ^ a) & (c ^ a);
    case 0x19u: return ~((c ^ b) | (b & a));
    case 0x1au: return (c | (b & a)) ^ a;
    case 0x1bu: return (c & a) ^ (~b | c);
    case 0x1cu: return ((c & a) | b) ^ a;
    case 0x1du: return (b & a) ^ (~c | b);
    case 0x1eu: return (c | b) ^ a;
    case 0x1fu: return ~((c | b) & a);
    case 0x20u: return ~b & (c & a);
    case 0x21u: return ~((c ^ a) | b);
    case 0x22u: return ~b & c;
    case 0x23u: return ~b & (~a | c);
    case 0x24u: return (b ^ a) & (c ^ b);
    case 0x25u: return ~((c ^ a) | (b & a));
    case 0x26u: return b ^ (c | (b & a));
    case 0x27u: return (c & b) ^ (~a | c);
    case 0x28u: return (b ^ a) & c;
    case 0x29u: return b ^ ((~a ^ c) | (b & a));
    case 0x2au: return (~(b & a)) & c;
    case 0x2bu: return b ^ ((c ^ b) | (~a ^ b));
    case 0x2cu: return (b ^ a) & (c | b);
    case 0x2du: return (~c | b) ^ a;
    case 0x2eu: return (b & a) ^ (c | b);
    case 0x2fu: return ~a | (~b & c);
    case 0x30u: return ~b & a;
    case 0x31u: return ~b & (~c | a);
    case 0x32u: return ~b & (c | a);
    case 0x33u: return ~b;
    case 0x34u: return b ^ ((c & b) | a);
    case 0x35u: return (b & a) ^ (~c | a);
    case 0x36u: return b ^ (c | a);
    case 0x37u: return ~(b & (c | a));
    case 0x38u: return (b ^ a) & (c | a);
    case 0x39u: return b ^ (~c | a);
    case 0x3au: return (b & a) ^ (c | a);
    case 0x3bu: return (~a & c) | ~b;
    case 0x3cu: return b ^ a;
    case 0x3du: return (~(c | a)) | (b ^ a);
    case 0x3eu: return (~a & c) | (b ^ a);
    case 0x3fu: return ~(b & a);
    case 0x40u: return ~c & (b & a);
    case 0x41u: return ~((b ^ a) | c);
    case 0x42u: return (c ^ a) & (c ^ b);
    case 0x43u: return ~((b ^ a) | (c & a));
    case 0x44u: return ~c & b;
    case 0x45u: return ~c & (~a | b);
    case 0x46u: return c ^ ((c & a) | b);
    case 0x47u: return (c & b) ^ (~a | b);
    case 0x48u: return (c ^ a) & b;
    case 0x49u: return c ^ ((c & a) | (~a ^ b));
    case 0x4au: return (c ^ a) & (c | b);
    case 0x4bu: return (~b | c) ^ a;
    case 0x4cu: return (~(c & a)) & b;
    case 0x4du: return c ^ ((c ^ b) | (~a ^ b));
    case 0x4eu: return (c & a) ^ (c | b);
    case 0x4fu: return ~a | (~c & b);
    case 0x50u: return ~c & a;
    case 0x51u: return ~c & (~b | a);
    case 0x52u: return c ^ ((c & b) | a);
    case 0x53u: return (c & a) ^ (~b | a);
    case 0x54u: return ~c & (b | a);
    case 0x55u: return ~c;
    case 0x56u: return c ^ (b | a);
    case 0x57u: return ~(c & (b | a));
    case 0x58u: return (c ^ a) & (b | a);
    case 0x59u: return c ^ (~b | a);
    case 0x5au: return c ^ a;
    case 0x5bu: return (~(b | a)) | (c ^ a);
    case 0x5cu: return (c & a) ^ (b | a);
    case 0x5du: return (~a & b) | ~c;
    case 0x5eu: return (~a & b) | (c ^ a);
    case 0x5fu: return ~(c & a);
    case 0x60u: return (c ^ b) & a;
    case 0x61u: return c ^ ((c & b) | (~a ^ b));
    case 0x62u: return (c ^ b) & (c | a);
    case 0x63u: return (~a | c) ^ b;
    case 0x64u: return (c ^ b) & (b | a);
    case 0x65u: return c ^ (~a | b);
    case 0x66u: return c ^ b;
    case 0x67u: return (~(b | a)) | (c ^ b);
    case 0x68u: return (c & a) ^ (b & (c | a));
    case 0x69u: return c ^ (~a ^ b);
    case 0x6au: return c ^ (b & a);
    case 0x6bu: return ~a ^ ((c ^ b) & (b | a));
    case 0x6cu: return (c & a) ^ b;
    case 0x6du: return c ^ (~((b ^ a) & (c | a)));
    case 0x6eu: return (~a & b) | (c ^ b);
    case 0x6fu: return ~a | (c ^ b);
    case 0x70u: return (~(c & b)) & a;
    case 0x71u: return c ^ ((c ^ a) | (~a ^ b));
    case 0x72u: return (c & b) ^ (c | a);
    case 0x73u: return ~b | (~c & a);
    case 0x74u: return (c & b) ^ (b | a);
    case 0x75u: return (~b & a) | ~c;
    case 0x76u: return (~b & a) | (c ^ b);
    case 0x77u: return ~(c & b);
    case 0x78u: return (c & b) ^ a;
    case 0x79u: return c ^ (~((b ^ a) & (c | b)));
    case 0x7au: return (~b & a) | (c ^ a);
    case 0x7bu: return ~b | (c ^ a);
    case 0x7cu: return (b ^ a) | (~c & a);
    case 0x7du: return (b ^ a) | ~c;
    case 0x7eu: return (b ^ a) | (c ^ a);
    case 0x7fu: return ~(c & (b & a));
    case 0x80u: return c & (b & a);
    case 0x81u: return ~((b ^ a) | (c ^ a));
    case 0x82u: return c & (~a ^ b);
    case 0x83u: return (~a | c) & (~a ^ b);
    case 0x84u: return (~a ^ c) & b;
    case 0x85u: return (~a ^ c) & (~a | b);
    case 0x86u: return (c ^ b) ^ ((c | b) & a);
    case 0x87u: return ~a ^ (c & b);
    case 0x88u: return c & b;
    case 0x89u: return (~b ^ c) & (~a | b);
    case 0x8au: return c & (~a | b);
    case 0x8bu: return (~(b | a)) | (c & b);
    case 0x8cu: return (~a | c) & b;
    case 0x8du: return (~(c | a)) | (c & b);
    case 0x8eu: return ((b ^ a) | (c ^ a)) ^ a;
    case 0x8fu: return ~a | (c & b);
    case 0x90u: return (~b ^ c) & a;
    case 0x91u: return (~b ^ c) & (~b | a);
    case 0x92u: return (c ^ a) ^ (b & (c | a));
    case 0x93u: return ~b ^ (c & a);
    case 0x94u: return (b ^ a) ^ (c & (b | a));
    case 0x95u: return ~c ^ (b & a);
    case 0x96u: return (b ^ a) ^ c;
    case 0x97u: return (b ^ a) ^ ((~(b | a)) | c);
    case 0x98u: return (~b ^ c) & (b | a);
    case 0x99u: return ~b ^ c;
    case 0x9au: return (c ^ a) ^ (b & a);
    case 0x9bu: return ~((c ^ b) & (b | a));
    case 0x9cu: return (b ^ a) ^ (c & a);
    case 0x9du: return ~((c ^ b) & (c | a));
    case 0x9eu: return (c & b) | ((b ^ a) ^ c);
    case 0x9fu: return ~((c ^ b) & a);
    case 0xa0u: return c & a;
    case 0xa1u: return (~a ^ c) & (~b | a);
    case 0xa2u: return c & (~b | a);
    case 0xa3u: return (~(b | a)) | (c & a);
    case 0xa4u: return (~a ^ c) & (b | a);
    case 0xa5u: return ~a ^ c;
    case 0xa6u: return (c ^ a) ^ (b | a);
    case 0xa7u: return ~((c ^ a) & (b | a));
    case 0xa8u: return c & (b | a);
    case 0xa9u: return ~c ^ (b | a);
    case 0xaau: return c;
    case 0xabu: return (~(b | a)) | c;
    case 0xacu: return ((c ^ b) & a) ^ b;
    case 0xadu: return (c & b) | (~a ^ c);
    case 0xaeu: return (~a & b) | c;
    case 0xafu: return ~a | c;
    case 0xb0u: return (~b | c) & a;
    case 0xb1u: return (~(c & a)) ^ (c | b);
    case 0xb2u: return ((b ^ a) & (c ^ a)) ^ c;
    case 0xb3u: return ~b | (c & a);
    case 0xb4u: return (b ^ a) ^ (c & b);
    case 0xb5u: return ~((c ^ a) & (c | b));
    case 0xb6u: return (c ^ a) ^ ((c & a) | b);
    case 0xb7u: return ~((c ^ a) & b);
    case 0xb8u: return ((c ^ a) & b) ^ a;
    case 0xb9u: return (~b ^ c) | (c & a);
    case 0xbau: return (~b & a) | c;
    case 0xbbu: return ~b | c;
    case 0xbcu: return (b ^ a) | (c & a);
    case 0xbdu: return (b ^ a) | (~a ^ c);
    case 0xbeu: return (b ^ a) | c;
    case 0xbfu: return (~(b & a)) | c;
    case 0xc0u: return b & a;
    case 0xc1u: return (~a ^ b) & (~c | a);
    case 0xc2u: return (~a ^ b) & (c | a);
    case 0xc3u: return ~a ^ b;
    case 0xc4u: return b & (~c | a);
    case 0xc5u: return (~(b & a)) ^ (c | a);
    case 0xc6u: return (b ^ a) ^ (c | a);
    case 0xc7u: return ~((b ^ a) & (c | a));
    case 0xc8u: return b & (c | a);
    case 0xc9u: return ~b ^ (c | a);
    case 0xcau: return ((c ^ b) & a) ^ c;
    case 0xcbu: return (c & b) | (~a ^ b);
    case 0xccu: return b;
    case 0xcdu: return (~(c | a)) | b;
    case 0xceu: return (~a & c) | b;
    case 0xcfu: return ~a | b;
    case 0xd0u: return (~c | b) & a;
    case 0xd1u: return (~(b & a)) ^ (c | b);
    case 0xd2u: return (b ^ a) ^ (c | b);
    case 0xd3u: return ~((b ^ a) & (c | b));
    case 0xd4u: return ((b ^ a) & c) ^ (b | a);
    case 0xd5u: return ~c | (b & a);
    case 0xd6u: return (b ^ a) ^ (c | (b & a));
    case 0xd7u: return ~((b ^ a) & c);
    case 0xd8u: return ((b ^ a) & c) ^ a;
    case 0xd9u: return (~b ^ c) | (b & a);
    case 0xdau: return (c ^ a) | (b & a);
    case 0xdbu: return (c ^ a) | (~a ^ b);
    case 0xdcu: return (~c & a) | b;
    case 0xddu: return ~c | b;
    case 0xdeu: return (c ^ a) | b;
    case 0xdfu: return (~(c & a)) | b;
    case 0xe0u: return (c | b) & a;
    case 0xe1u: return ~a ^ (c | b);
    case 0xe2u: return ((c ^ a) & b) ^ c;
    case 0xe3u: return (c & a) | (~a ^ b);
    case 0xe4u: return ((b ^ a) & c) ^ b;
    case 0xe5u: return (~a ^ c) | (b & a);
    case 0xe6u: return (c ^ b) | (b & a);
    case 0xe7u: return (c ^ b) | (~a ^ b);
    case 0xe8u: return (c & a) | (b & (c | a));
    case 0xe9u: return ~a ^ ((c ^ b) | (b & a));
    case 0xeau: return c | (b & a);
    case 0xebu: return c | (~a ^ b);
    case 0xecu: return (c & a) | b;
    case 0xedu: return (~a ^ c) | b;
    case 0xeeu: return c | b;
    case 0xefu: return c | (~a | b);
    case 0xf0u: return a;
    case 0xf1u: return (~(c | b)) | a;
    case 0xf2u: return (~b & c) | a;
    case 0xf3u: return ~b | a;
    case 0xf4u: return (~c & b) | a;
    case 0xf5u: return ~c | a;
    case 0xf6u: return (c ^ b) | a;
    case 0xf7u: return (~(c & b)) | a;
    case 0xf8u: return (c & b) | a;
    case 0xf9u: return (~b ^ c) | a;
    case 0xfau: return c | a;
    case 0xfbu: return c | (~b | a);
    case 0xfcu: return b | a;
    case 0xfdu: return b | (~c | a);
    case 0xfeu: return b | (c | a);
    case 0xffu: return 0xffffffffu;
  }
  return 0u; /* unreachable: every 8-bit table has a case */
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_shf_l_wrap
__device__ inline uint32_t ptx2hip_shf_l_wrap(uint32_t a, uint32_t b, uint32_t c) {
  return (uint32_t)(((((uint64_t)b << 32) | a) << (c & 31u)) >> 32);
}
// ptx2hip:amd
// v_alignbit_b32(b, a, 32 - n) is the high word of b:a << n for n = 1..31.
// A runtime amount keeps the 64-bit shift, which is shorter than guarding n == 0.
__device__ inline uint32_t ptx2hip_shf_l_wrap(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t n = c & 31u;
  if (!__builtin_constant_p(n)) return (uint32_t)(((((uint64_t)b << 32) | a) << n) >> 32);
  return n == 0u ? b : __builtin_amdgcn_alignbit(b, a, 32u - n);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_shf_l_clamp
__device__ inline uint32_t ptx2hip_shf_l_clamp(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t n = c < 32u ? c : 32u;
  return (uint32_t)(((((uint64_t)b << 32) | a) << n) >> 32);
}
// ptx2hip:amd
// A runtime amount keeps the 64-bit shift, which is shorter than guarding both edges.
__device__ inline uint32_t ptx2hip_shf_l_clamp(uint32_t a, uint32_t b, uint32_t c) {
  if (!__builtin_constant_p(c))
    return (uint32_t)(((((uint64_t)b << 32) | a) << (c < 32u ? c : 32u)) >> 32);
  if (c >= 32u) return a;
  return c == 0u ? b : __builtin_amdgcn_alignbit(b, a, 32u - c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_shf_r_wrap
__device__ inline uint32_t ptx2hip_shf_r_wrap(uint32_t a, uint32_t b, uint32_t c) {
  return (uint32_t)((((uint64_t)b << 32) | a) >> (c & 31u));
}
// ptx2hip:amd
// shf.r.wrap is exactly v_alignbit_b32 (which uses c & 31).
__device__ inline uint32_t ptx2hip_shf_r_wrap(uint32_t a, uint32_t b, uint32_t c) {
  return __builtin_amdgcn_alignbit(b, a, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_shf_r_clamp
__device__ inline uint32_t ptx2hip_shf_r_clamp(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t n = c < 32u ? c : 32u;
  return (uint32_t)((((uint64_t)b << 32) | a) >> n);
}
// ptx2hip:amd
// A runtime amount keeps the 64-bit shift, which is shorter than the clamp guard.
__device__ inline uint32_t ptx2hip_shf_r_clamp(uint32_t a, uint32_t b, uint32_t c) {
  if (!__builtin_constant_p(c)) return (uint32_t)((((uint64_t)b << 32) | a) >> (c < 32u ? c : 32u));
  return c >= 32u ? b : __builtin_amdgcn_alignbit(b, a, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_shl
// shl.b16/b32/b64: amounts at or above the width give 0.
__device__ inline uint16_t ptx2hip_shl(uint16_t a, uint32_t n) {
  return n < 16u ? (uint16_t)((uint32_t)a << n) : (uint16_t)0u;
}
__device__ inline uint32_t ptx2hip_shl(uint32_t a, uint32_t n) { return n < 32u ? a << n : 0u; }
__device__ inline uint64_t ptx2hip_shl(uint64_t a, uint32_t n) { return n < 64u ? a << n : 0ull; }
// ptx2hip:end

// ptx2hip:helper ptx2hip_shr
// shr.{b,u}{16,32,64}: zero fill, 0 at or above the width; shr.s*: sign fill (amount clamped).
__device__ inline uint16_t ptx2hip_shr(uint16_t a, uint32_t n) {
  return n < 16u ? (uint16_t)((uint32_t)a >> n) : (uint16_t)0u;
}
__device__ inline uint32_t ptx2hip_shr(uint32_t a, uint32_t n) { return n < 32u ? a >> n : 0u; }
__device__ inline uint64_t ptx2hip_shr(uint64_t a, uint32_t n) { return n < 64u ? a >> n : 0ull; }
__device__ inline int16_t ptx2hip_shr(int16_t a, uint32_t n) {
  return (int16_t)((int32_t)a >> (n < 15u ? n : 15u));
}
__device__ inline int32_t ptx2hip_shr(int32_t a, uint32_t n) { return a >> (n < 31u ? n : 31u); }
__device__ inline int64_t ptx2hip_shr(int64_t a, uint32_t n) { return a >> (n < 63u ? n : 63u); }
// ptx2hip:end
