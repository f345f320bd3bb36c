// Helpers of rules/video.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_vmode
// Modifiers of the video instructions as template arguments: .sat, the vshl/vshr direction and
// .clamp/.wrap, and the .add of the SIMD forms (the signedness of the types: ptx2hip_sign).
namespace ptx2hip_vmode {
inline constexpr bool sat = true, no_sat = false;
inline constexpr bool shl = true, shr = false;
inline constexpr bool clamp = true, wrap = false;
inline constexpr bool add = true, no_add = false;
}  // namespace ptx2hip_vmode
// ptx2hip:end

// ptx2hip:helper ptx2hip_vop2
// The secondary operation of a scalar video instruction (.add, .min, .max), or none.
namespace ptx2hip_vop2 {
inline constexpr int none = 0, add = 1, min = 2, max = 3;
}  // namespace ptx2hip_vop2
// ptx2hip:end

// ptx2hip:helper ptx2hip_vop_op
// The operation of ptx2hip_vop: vadd, vsub, vabsdiff, vmin, vmax and the vset compares.
namespace ptx2hip_vop_op {
inline constexpr int add = 0, sub = 1, absdiff = 2, min = 3, max = 4;
inline constexpr int eq = 5, ne = 6, lt = 7, le = 8, gt = 9, ge = 10;
}  // namespace ptx2hip_vop_op
// ptx2hip:end

// ptx2hip:helper ptx2hip_vsimd_op
// The operation of ptx2hip_vsimd: vadd2/4, vsub, vavrg, vabsdiff, vmin, vmax and the vset compares.
namespace ptx2hip_vsimd_op {
inline constexpr int add = 0, sub = 1, avrg = 2, absdiff = 3, min = 4, max = 5;
inline constexpr int eq = 6, ne = 7, lt = 8, le = 9, gt = 10, ge = 11;
}  // namespace ptx2hip_vsimd_op
// ptx2hip:end

// ptx2hip:helper ptx2hip_video_finish requires=ptx2hip_vmode,ptx2hip_vop2,ptx2hip_sign
// Scalar video tail as an H100 computes it (sm_90, CUDA 13.0; golden vectors), not the PTX pseudo-code:
// SAT clamps the intermediate t to S32 when DS (.dtype .s32), but to U32 only from below (t < 0 gives 0,
// t >= 2^32 keeps its low 32 bits). OP2 (0 none, 1 add, 2 min, 3 max): .add adds c modulo 2^32; .min/.max
// compare the 64-bit x with c extended by .dtype, as int64 when DS, as uint64 otherwise, where x is t,
// or with SEXT the low 32 bits of t sign-extended (whatever .dtype is). The low 32 bits are the result.
template <bool DS, bool SAT, int OP2, bool SEXT>
__device__ inline uint32_t ptx2hip_video_finish(int64_t t, uint32_t c) {
  if (SAT) {
    if (DS) t = t < -2147483647LL - 1 ? -2147483647LL - 1 : (t > 2147483647LL ? 2147483647LL : t);
    else if (t < 0) t = 0;
  }
  const uint32_t r = (uint32_t)(uint64_t)t;
  if (OP2 == 0) return r;
  if (OP2 == 1) return r + c;
  const int64_t x = SEXT ? (int64_t)(int32_t)r : t;
  const bool below = DS ? x < (int64_t)(int32_t)c : (uint64_t)x < (uint64_t)c;
  return (OP2 == 2) == below ? r : c;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_vop requires=ptx2hip_video_finish,ptx2hip_vop_op,ptx2hip_sign
// Scalar video vadd/vsub/vabsdiff/vmin/vmax (OP 0..4) and vset compares (OP 5..10: eq ne lt le gt ge)
// on 33-bit sign-/zero-extended operands (AS, BS: signed source types); exact in int64_t. .min/.max see
// the sign-extended low 32 bits of a vadd/vsub result, the exact value of the others (H100).
template <int OP, bool DS, bool AS, bool BS, bool SAT, int OP2>
__device__ inline uint32_t ptx2hip_vop(uint32_t a, uint32_t b, uint32_t c) {
  const int64_t ta = AS ? (int64_t)(int32_t)a : (int64_t)a;
  const int64_t tb = BS ? (int64_t)(int32_t)b : (int64_t)b;
  int64_t t;
  switch (OP) {
    case 0: t = ta + tb; break;
    case 1: t = ta - tb; break;
    case 2: t = ta > tb ? ta - tb : tb - ta; break;
    case 3: t = ta < tb ? ta : tb; break;
    case 4: t = ta > tb ? ta : tb; break;
    case 5: t = ta == tb; break;
    case 6: t = ta != tb; break;
    case 7: t = ta < tb; break;
    case 8: t = ta <= tb; break;
    case 9: t = ta > tb; break;
    default: t = ta >= tb; break;
  }
  return ptx2hip_video_finish<DS, SAT, OP2, (OP <= 1)>(t, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_vsh requires=ptx2hip_video_finish,ptx2hip_vmode,ptx2hip_vop2,ptx2hip_sign
// Scalar video vshl (SHL) / vshr of the 33-bit extended a by n = min(b, 32) (CLAMP) or b & 31, as an
// H100 computes it: vshl keeps the 64-bit shifted value (bits above 63 lost) for .min/.max, but .sat
// clamps its 34-bit signed intermediate (bits above 33 lost) to the full .dtype range; vshr is exact.
// With .sat, .min/.max see the saturated low 32 bits sign-extended.
template <bool SHL, bool DS, bool AS, bool SAT, bool CLAMP, int OP2>
__device__ inline uint32_t ptx2hip_vsh(uint32_t a, uint32_t b, uint32_t c) {
  const int64_t ta = AS ? (int64_t)(int32_t)a : (int64_t)a;
  const uint32_t n = CLAMP ? (b > 32u ? 32u : b) : (b & 31u);
  int64_t t;
  if (!SHL) {
    t = ta >> n; /* n <= 32: arithmetic for negative values */
  } else if (!SAT) {
    t = (int64_t)((uint64_t)ta << n);
  } else {
    const uint64_t s = ((uint64_t)ta << n) & 0x3ffffffffull;
    t = (s >> 33) ? (int64_t)s - 0x400000000LL : (int64_t)s;
    const int64_t lo = DS ? -2147483647LL - 1 : 0LL, hi = DS ? 2147483647LL : 4294967295LL;
    t = t < lo ? lo : (t > hi ? hi : t);
  }
  return ptx2hip_video_finish<DS, SAT, OP2, SAT>(t, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_vsimd requires=ptx2hip_vmode,ptx2hip_vsimd_op,ptx2hip_sign
// SIMD video over N lanes (2: half-words, 4: bytes) with default selectors and mask.
// OP: 0 add, 1 sub, 2 avrg, 3 absdiff, 4 min, 5 max, 6..11 compare eq ne lt le gt ge (0/1).
// DS/AS/BS: signed .dtype/.atype/.btype; SAT clamps lanes to .dtype; ADD: c + sum of lanes.
template <int N, int OP, bool DS, bool AS, bool BS, bool SAT, bool ADD>
__device__ inline uint32_t ptx2hip_vsimd(uint32_t a, uint32_t b, uint32_t c) {
  const uint32_t w = 32u / (uint32_t)N, m = (1u << w) - 1u, sb = 1u << (w - 1u);
  uint32_t d = 0u, acc = c;
  for (int i = 0; i < N; ++i) {
    const uint32_t sh = w * (uint32_t)i;
    const uint32_t ua = (a >> sh) & m, ub = (b >> sh) & m;
    const int32_t va = AS ? (int32_t)(ua ^ sb) - (int32_t)sb : (int32_t)ua;
    const int32_t vb = BS ? (int32_t)(ub ^ sb) - (int32_t)sb : (int32_t)ub;
    int32_t t;
    switch (OP) {
      case 0: t = va + vb; break;
      case 1: t = va - vb; break;
      case 2: {
        const int32_t s = va + vb;
        t = s >= 0 ? (s + 1) >> 1 : s >> 1;
      } break;
      case 3: t = va > vb ? va - vb : vb - va; break;
      case 4: t = va < vb ? va : vb; break;
      case 5: t = va > vb ? va : vb; break;
      case 6: t = va == vb; break;
      case 7: t = va != vb; break;
      case 8: t = va < vb; break;
      case 9: t = va <= vb; break;
      case 10: t = va > vb; break;
      default: t = va >= vb; break;
    }
    if (SAT) {
      const int32_t lo = DS ? -(int32_t)sb : 0, hi = DS ? (int32_t)sb - 1 : (int32_t)m;
      t = t < lo ? lo : (t > hi ? hi : t);
    }
    if (ADD) acc += (uint32_t)t;
    else d |= ((uint32_t)t & m) << sh;
  }
  return ADD ? acc : d;
}
// ptx2hip:end
