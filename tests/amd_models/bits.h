// Host models of the AMD instructions behind the `__builtin_amdgcn_*` calls of rules/bits.toml and
// rules/video.toml, so that the AMD templates can run on a CPU against golden vectors.
//
// Sources (pseudo-code rows of the GCN/CDNA ISA as collected in CLRX/CLRX-mirror
// doc/GcnInstrsVop2.md and GcnInstrsVop3.md, key C in /work/shared/reference/ptx-to-amd.md; the
// same instructions exist unchanged on gfx90a, gfx942 and gfx11):
//   V_PERM_B32     D.byte[i] = BYTE_PERM({S0, S1}, S2.byte[i]); BYTE_PERM(S, sel): sel >= 13 -> 0xff,
//                  12 -> 0x00, 11/10/9/8 -> 0xff * S[63]/S[47]/S[31]/S[15] (sign of byte 7/5/3/1),
//                  else S.byte[sel] (S0 holds bytes 4..7, S1 bytes 0..3)
//   V_ALIGNBIT_B32 D = ({S0, S1} >> (S2 & 31))[31:0]
//   V_ALIGNBYTE_B32 D = ({S0, S1} >> (8 * (S2 & 3)))[31:0]
//   V_BFE_U32      D = (S0 >> (S1 & 31)) & ((1 << (S2 & 31)) - 1)
//   V_BFE_I32      the same field, sign-extended from its top bit (width S2 & 31; width 0 -> 0).
//                  When offset + width >= 32 the field runs off the word: LLVM treats the result as
//                  an arithmetic shift right by the offset (AMDGPUISelLowering, BFE combine); the
//                  translations only call sbfe with offset + width <= 32, where both readings agree.
//   V_SAD_U8       D = S2 + sum over bytes |S0.byte[i] - S1.byte[i]| (32-bit, no clamp)
//   V_LERP_U8      D.byte[i] = (S0.byte[i] + S1.byte[i] + (S2.byte[i] & 1)) >> 1
#ifndef PTX2HIP_AMD_MODELS_BITS_H
#define PTX2HIP_AMD_MODELS_BITS_H

#include <stdint.h>

inline uint32_t __builtin_amdgcn_perm(uint32_t s0, uint32_t s1, uint32_t sel) {
  const uint64_t s = ((uint64_t)s0 << 32) | s1;
  uint32_t d = 0u;
  for (uint32_t i = 0u; i < 4u; ++i) {
    const uint32_t k = (sel >> (8u * i)) & 0xffu;
    uint32_t byte;
    if (k >= 13u) byte = 0xffu;
    else if (k == 12u) byte = 0u;
    else if (k >= 8u) byte = ((s >> (16u * (k - 8u) + 15u)) & 1u) ? 0xffu : 0u;
    else byte = (uint32_t)(s >> (8u * k)) & 0xffu;
    d |= byte << (8u * i);
  }
  return d;
}

inline uint32_t __builtin_amdgcn_alignbit(uint32_t s0, uint32_t s1, uint32_t s2) {
  return (uint32_t)((((uint64_t)s0 << 32) | s1) >> (s2 & 31u));
}

inline uint32_t __builtin_amdgcn_alignbyte(uint32_t s0, uint32_t s1, uint32_t s2) {
  return (uint32_t)((((uint64_t)s0 << 32) | s1) >> (8u * (s2 & 3u)));
}

inline uint32_t __builtin_amdgcn_ubfe(uint32_t s0, uint32_t s1, uint32_t s2) {
  const uint32_t off = s1 & 31u, width = s2 & 31u;
  return (s0 >> off) & ((1u << width) - 1u);
}

inline int32_t __builtin_amdgcn_sbfe(int32_t s0, uint32_t s1, uint32_t s2) {
  const uint32_t off = s1 & 31u, width = s2 & 31u;
  if (width == 0u) return 0;
  if (off + width >= 32u) return s0 >> off;
  const uint32_t field = ((uint32_t)s0 >> off) & ((1u << width) - 1u);
  const uint32_t sign = 1u << (width - 1u);
  return (int32_t)(field ^ sign) - (int32_t)sign;
}

inline uint32_t __builtin_amdgcn_sad_u8(uint32_t s0, uint32_t s1, uint32_t s2) {
  uint32_t d = s2;
  for (uint32_t i = 0u; i < 4u; ++i) {
    const uint32_t x = (s0 >> (8u * i)) & 0xffu, y = (s1 >> (8u * i)) & 0xffu;
    d += x > y ? x - y : y - x;
  }
  return d;
}

inline uint32_t __builtin_amdgcn_lerp(uint32_t s0, uint32_t s1, uint32_t s2) {
  uint32_t d = 0u;
  for (uint32_t i = 0u; i < 4u; ++i) {
    const uint32_t x = (s0 >> (8u * i)) & 0xffu, y = (s1 >> (8u * i)) & 0xffu;
    const uint32_t r = (s2 >> (8u * i)) & 1u;
    d |= ((x + y + r) >> 1) << (8u * i);
  }
  return d;
}

// Self-checks on documented edge cases; returns the number of failures (0 when the models hold).
inline int ptx2hip_amd_models_bits_selfcheck() {
  int bad = 0;
  const uint32_t hi = 0x8899aabbu, lo = 0x00801122u;
  bad += __builtin_amdgcn_perm(hi, lo, 0x07060504u) != hi;           // bytes 4..7 = S0
  bad += __builtin_amdgcn_perm(hi, lo, 0x03020100u) != lo;           // bytes 0..3 = S1
  bad += __builtin_amdgcn_perm(hi, lo, 0x0c0c0c0cu) != 0u;           // 12: zero
  bad += __builtin_amdgcn_perm(hi, lo, 0x0d0e0f10u) != 0xffffffffu;  // >= 13: 0xff
  bad += __builtin_amdgcn_perm(hi, lo, 0x0b0a0908u) != 0xffff0000u;  // signs of bytes 7, 5, 3, 1
  bad += __builtin_amdgcn_alignbit(hi, lo, 0u) != lo;
  bad += __builtin_amdgcn_alignbit(hi, lo, 32u) != lo;               // amount & 31
  bad += __builtin_amdgcn_alignbit(hi, lo, 8u) != 0xbb008011u;
  bad += __builtin_amdgcn_alignbyte(hi, lo, 5u) != 0xbb008011u;      // amount & 3
  bad += __builtin_amdgcn_ubfe(0xaabbccddu, 8u, 8u) != 0xccu;
  bad += __builtin_amdgcn_ubfe(0xaabbccddu, 8u, 0u) != 0u;
  bad += __builtin_amdgcn_ubfe(0xaabbccddu, 40u, 8u) != 0xccu;       // offset & 31
  bad += __builtin_amdgcn_sbfe((int32_t)0x00000f80, 4u, 8u) != -8;
  bad += __builtin_amdgcn_sbfe(0x7f, 0u, 7u) != -1;
  bad += __builtin_amdgcn_sad_u8(0x00ff00ffu, 0xff00ff00u, 1u) != 1021u;
  bad += __builtin_amdgcn_lerp(0x000000ffu, 0u, 0x01010101u) != 0x80u;
  bad += __builtin_amdgcn_lerp(0x000000ffu, 0u, 0u) != 0x7fu;
  return bad;
}

#endif
