// Helpers of the --fast tier of rules/warpgroup.toml (markers: rules/README.md, "Helpers"): float
// wgmma.mma_async (f16, bf16, tf32) through AMD's matrix instructions, inexact by design
// (docs/WGMMA_FAST.md states the modelled deviation from the H100). Same call shape as the exact
// helpers of warpgroup.h: (d, a, b, scale_d, scale_a, scale_b, trans_a, trans_b) -> d, d being
// this lane's accumulator fragment in NVIDIA's layout (warp w of the warpgroup, lane l, g = l >> 2,
// t = l & 3: f32 register 4j + 2r + c, or half c of f16 register 2j + r, holds D[16w + g + 8r][8j +
// 2t + c]) and a the A descriptor or A's 4 registers (mma.sync's A fragment in each warp).
//
// The operands come straight from LDS through the descriptors (ptx2hip_wgmma_addr): each lane
// reads the elements the matrix instruction wants in it, so which row of A and which column of B
// an instruction row or column stands for is free. That freedom is spent on the accumulators,
// the only data that must move between lanes: the product is computed transposed, Dᵀ = Bᵀ·Aᵀ
// (instruction rows are columns n of D, instruction columns rows m), with the rows and columns
// ordered so that each accumulator register of the instruction maps to one PTX register in every
// lane (CDNA), or to one of two (RDNA3): C in and D out are one ds_bpermute per register.

// ptx2hip:helper ptx2hip_lds_load_u32x2 requires=ptx2hip_vec
// ptx2hip:amd
// The 8 bytes at LDS offset off, 8-byte aligned, as 2 words (one ds_read_b64).
__device__ inline ptx2hip_vec<uint32_t, 2> ptx2hip_lds_load_u32x2(uint32_t off) {
  const __attribute__((address_space(3))) ptx2hip_vec<uint32_t, 2>* p =
      (const __attribute__((address_space(3))) ptx2hip_vec<uint32_t, 2>*)(uintptr_t)off;
  return {{p->v[0], p->v[1]}};
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_wgmma_fast_words requires=ptx2hip_wgmma_addr,ptx2hip_lds_load_u32x2,ptx2hip_lds_load_u16
// ptx2hip:amd
// Words 2x and 2x + 1 of row r of a descriptor operand: bytes 8x ... 8x + 7 of its 32 bytes of K,
// in the word format of ptx2hip_wgmma_row. K-major one ds_read_b64 (8 aligned bytes never cross
// the 16-byte chunks every layout keeps whole); MN-major (16-bit elements) four element reads.
__device__ inline ptx2hip_vec<uint32_t, 2> ptx2hip_wgmma_fast_words(uint64_t desc, bool mn_major,
                                                                    uint32_t r, uint32_t x) {
  if (!mn_major) return ptx2hip_lds_load_u32x2(ptx2hip_wgmma_addr(desc, false, r, 8u * x));
  ptx2hip_vec<uint32_t, 2> w;
  for (uint32_t i = 0; i < 2; ++i)
    w.v[i] = ptx2hip_lds_load_u16(ptx2hip_wgmma_addr(desc, true, r, 8u * x + 4u * i)) |
             ptx2hip_lds_load_u16(ptx2hip_wgmma_addr(desc, true, r, 8u * x + 4u * i + 2u)) << 16;
  return w;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_wgmma_fast_read
// ptx2hip:amd
// The word v of lane j of the wave, whichever PTX warp holds it (one ds_bpermute_b32).
__device__ inline uint32_t ptx2hip_wgmma_fast_read(uint32_t v, uint32_t j) {
  return (uint32_t)__builtin_amdgcn_ds_bpermute((int)(j << 2), (int)v);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_wgmma_fast_value requires=ptx2hip_tc_format
// ptx2hip:amd
// Element h of word w of an operand of format F as a float: f16 or bf16 in half h (low first);
// tf32 the whole word without its low 13 bits, which the tensor cores ignore.
template <int F>
__device__ inline float ptx2hip_wgmma_fast_value(uint32_t w, int h) {
  if (F == ptx2hip_tc_tf32) return __builtin_bit_cast(float, w & 0xffffe000u);
  const uint32_t bits = (w >> (16 * h)) & 0xffffu;
  if (F == ptx2hip_tc_bf16) return __builtin_bit_cast(float, bits << 16);
  return (float)__builtin_bit_cast(_Float16, (uint16_t)bits);
}
// ptx2hip:end

// clang-format off
// ptx2hip:helper ptx2hip_wgmma_fast_fmaf requires=ptx2hip_wgmma_a,ptx2hip_wgmma_rows2,ptx2hip_wgmma_negate,ptx2hip_wgmma_each,ptx2hip_wgmma_fast_value
// clang-format on
// ptx2hip:amd
// The fast tier where no matrix instruction fits (processors without MFMA or WMMA, gfx11 built for
// wave64, tf32 on RDNA3): each lane computes its own outputs as the exact helpers do (its A rows
// and B columns from LDS or its quad, the column blocks in ptx2hip_wgmma_each), each one a
// sequential fmaf chain over k in order; f16 accumulators widened and the result rounded to
// nearest even.
template <int F, int Accum, typename T, int ND, typename A>
__device__ inline ptx2hip_vec<T, ND> ptx2hip_wgmma_fast_fmaf(ptx2hip_vec<T, ND> d, A a, uint64_t b,
                                                             bool scale_d, int32_t scale_a,
                                                             int32_t scale_b, int32_t trans_a,
                                                             int32_t trans_b) {
  constexpr bool F16 = Accum == ptx2hip_tc_acc_f16, TF32 = F == ptx2hip_tc_tf32;
  constexpr int P = TF32 ? 1 : 2, K = 8 * P;
  constexpr uint32_t signs = TF32 ? 0x80000000u : 0x80008000u;
  const ptx2hip_wgmma_lane at = ptx2hip_wgmma_lane_of();
  uint32_t row[2][8];
  ptx2hip_wgmma_a(a, trans_a != 0, at, row);
  ptx2hip_wgmma_negate(row, scale_a, signs);
  float ra[2][K];
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < K; ++k) ra[r][k] = ptx2hip_wgmma_fast_value<F>(row[r][k / P], k % P);
  ptx2hip_wgmma_each<F16, 2>(d, scale_d, [&](uint32_t j, uint32_t(&c)[2][2]) {
    uint32_t col[2][8];
    ptx2hip_wgmma_rows2(b, trans_b != 0, 8u * j + 2u * at.t, col);
    ptx2hip_wgmma_negate(col, scale_b, signs);
    for (int x = 0; x < 2; ++x) {
      float cb[K];
      for (int k = 0; k < K; ++k) cb[k] = ptx2hip_wgmma_fast_value<F>(col[x][k / P], k % P);
      for (int r = 0; r < 2; ++r) {
        float s = F16 ? (float)__builtin_bit_cast(_Float16, (uint16_t)c[r][x])
                      : __builtin_bit_cast(float, c[r][x]);
        for (int k = 0; k < K; ++k) s = __builtin_fmaf(ra[r][k], cb[k], s);
        c[r][x] = F16 ? (uint32_t)__builtin_bit_cast(uint16_t, (_Float16)s)
                      : __builtin_bit_cast(uint32_t, s);
      }
    }
  });
  return d;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_wgmma_fast_scale_d requires=ptx2hip_vec
// ptx2hip:amd
// scale-d false (D = A·B): this lane's accumulators become +0 before they move, so the moves need
// no test. Behind a wave-uniform test, as scale-d is almost always the same in every lane.
template <typename T, int ND>
__device__ inline void ptx2hip_wgmma_fast_scale_d(ptx2hip_vec<T, ND>& d, bool scale_d) {
  if (__builtin_amdgcn_ballot_w64(!scale_d) != 0)
    for (int i = 0; i < ND; ++i) d.v[i] = scale_d ? d.v[i] : (T)0;
}
// ptx2hip:end

// clang-format off
// ptx2hip:helper ptx2hip_wgmma_fast requires=ptx2hip_vec,ptx2hip_tc_format,ptx2hip_warpid,ptx2hip_wgmma_row,ptx2hip_wgmma_fast_words,ptx2hip_wgmma_fast_read,ptx2hip_wgmma_fast_scale_d,ptx2hip_wgmma_fast_fmaf
// clang-format on
// ptx2hip:amd
// wgmma.mma_async with f16, bf16 (F) or tf32 A and B, f32 or f16 accumulators (Accum): D = A·B +
// (scale_d ? D : 0) on AMD's matrix instructions, for a full wave (ptx2hip_wave_full). f16
// accumulators are widened to f32 (exactly) and the results rounded to f16 to nearest even: the
// instructions accumulate in f32. imm-scale-a/b -1 flip the operands' sign bits; tf32 operands lose
// their low 13 bits, as on the tensor cores. Vector values are converted whole with
// __builtin_bit_cast, never element by element (clang-19 miscompile, tensor-cores.md §6).
#if defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
// CDNA, wave64: the wave holds warps w0 = 2q and w0 + 1 of the warpgroup (lanes 0-31, 32-63), 32
// rows of D. Tiles of 16 x 16, one MFMA over all of K each: v_mfma_f32_16x16x16{f16,bf16_1k},
// tf32 v_mfma_f32_16x16x8_xf32 (gfx940-942) or two v_mfma_f32_16x16x4f32 (gfx90a, no xf32). MFMA
// lane L (c = L % 16, x = L / 16) holds operand words 2x, 2x + 1 (bytes 8x ... 8x + 7 of K) of
// its row of X = Bᵀ, B column n = 16J + 2(c / 4) + c % 2 + 8(c / 2 % 2), and of its column of
// Y = Aᵀ, A row m = 16(w0 + c / 8) + 8r + c % 8 (tile (J, r)). Its accumulator v is then D[m][16J
// + 2x + v % 2 + 8(v / 2)] — PTX register 8J + 4(v / 2) + 2r + v % 2 of lane 32(c / 8) + 4(c % 8)
// + x in every lane — so C and D move as one ds_bpermute per register, each lane reading lane
// `from` (C in) or `back` (D out); an f16 accumulator pair moves as one packed word. For N / 8
// odd, the last tile holds one block of 8 columns (its X rows repeat them; accumulators 2, 3
// unused).

// The MFMAs of one tile over all of K.
template <int F>
__device__ __attribute__((always_inline)) inline ptx2hip_vec<float, 4> ptx2hip_wgmma_fast_mfma(
    ptx2hip_vec<uint32_t, 2> x, ptx2hip_vec<uint32_t, 2> y, ptx2hip_vec<float, 4> acc) {
  typedef float F4 __attribute__((ext_vector_type(4)));
  const F4 c = __builtin_bit_cast(F4, acc);
  if constexpr (F == ptx2hip_tc_f16) {
    typedef _Float16 H4 __attribute__((ext_vector_type(4)));
    return __builtin_bit_cast(ptx2hip_vec<float, 4>, __builtin_amdgcn_mfma_f32_16x16x16f16(
                                                         __builtin_bit_cast(H4, x),
                                                         __builtin_bit_cast(H4, y), c, 0, 0, 0));
  } else if constexpr (F == ptx2hip_tc_bf16) {
    typedef short S4 __attribute__((ext_vector_type(4)));
    return __builtin_bit_cast(ptx2hip_vec<float, 4>, __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(
                                                         __builtin_bit_cast(S4, x),
                                                         __builtin_bit_cast(S4, y), c, 0, 0, 0));
  } else {
#if defined(__gfx90a__)
    // k = 2x (word 0), then k = 2x + 1 (word 1): the chain visits k 0, 2, 4, 6, 1, 3, 5, 7.
    const uint32_t x0 = x.v[0], x1 = x.v[1], y0 = y.v[0], y1 = y.v[1];
    const F4 e = __builtin_amdgcn_mfma_f32_16x16x4f32(__builtin_bit_cast(float, x0),
                                                      __builtin_bit_cast(float, y0), c, 0, 0, 0);
    return __builtin_bit_cast(
        ptx2hip_vec<float, 4>,
        __builtin_amdgcn_mfma_f32_16x16x4f32(__builtin_bit_cast(float, x1),
                                             __builtin_bit_cast(float, y1), e, 0, 0, 0));
#else
    typedef float F2 __attribute__((ext_vector_type(2)));
    return __builtin_bit_cast(ptx2hip_vec<float, 4>, __builtin_amdgcn_mfma_f32_16x16x8_xf32(
                                                         __builtin_bit_cast(F2, x),
                                                         __builtin_bit_cast(F2, y), c, 0, 0, 0));
#endif
  }
}

// Y of tile rows r = 0, 1 from the A descriptor (trans: MN-major).
__device__ inline void ptx2hip_wgmma_fast_y(uint64_t a, bool trans,
                                            ptx2hip_vec<uint32_t, 2> (&y)[2]) {
  const uint32_t lane = __lane_id(), c = lane & 15u;
  const uint32_t m = 16u * ((ptx2hip_warpid() & 2u) + (c >> 3)) + (c & 7u);
  for (uint32_t r = 0; r < 2; ++r) y[r] = ptx2hip_wgmma_fast_words(a, trans, m + 8u * r, lane >> 4);
}
// Y from A's registers: word e of A row 8r + g of warp w0 + h is register r + 2(e / 4) of lane
// 32h + 4g + e % 4. Lane L wants words 2x, 2x + 1 of lanes src, src + 1, both register r +
// 2(x / 2). Rotation: permute q reads lane src + (q ^ hi), hi = x / 2, which offers its register
// r + 2(q ^ odd), odd = its lane % 2; the result is word q ^ hi.
__device__ inline void ptx2hip_wgmma_fast_y(ptx2hip_vec<uint32_t, 4> a, bool,
                                            ptx2hip_vec<uint32_t, 2> (&y)[2]) {
  const uint32_t lane = __lane_id(), c = lane & 15u, x = lane >> 4, hi = x >> 1, odd = lane & 1u;
  const uint32_t src = 32u * (c >> 3) + 4u * (c & 7u) + 2u * (x & 1u);
  for (int r = 0; r < 2; ++r) {
    const uint32_t lo = a.v[r], up = a.v[r + 2];
    const uint32_t r0 = ptx2hip_wgmma_fast_read(odd ? up : lo, src + hi);
    const uint32_t r1 = ptx2hip_wgmma_fast_read(odd ? lo : up, src + (hi ^ 1u));
    y[r] = {{hi ? r1 : r0, hi ? r0 : r1}};
  }
}

template <int F, int Accum, typename T, int ND, typename A>
__device__ inline ptx2hip_vec<T, ND> ptx2hip_wgmma_fast(ptx2hip_vec<T, ND> d, A a, uint64_t b,
                                                        bool scale_d, int32_t scale_a,
                                                        int32_t scale_b, int32_t trans_a,
                                                        int32_t trans_b) {
  constexpr bool F16 = Accum == ptx2hip_tc_acc_f16, TF32 = F == ptx2hip_tc_tf32;
  constexpr int N = F16 ? 4 * ND : 2 * ND;
  constexpr uint32_t signs = TF32 ? 0x80000000u : 0x80008000u, keep = TF32 ? 0xffffe000u : ~0u;
  const uint32_t lane = __lane_id(), x = lane >> 4;
  const uint32_t from = 32u * ((lane >> 3) & 1u) + 4u * (lane & 7u) + x;
  const uint32_t back = 16u * (lane & 3u) + 8u * (lane >> 5) + ((lane >> 2) & 7u);
  const uint32_t n = 2u * ((lane >> 2) & 3u) + (lane & 1u) + 8u * ((lane >> 1) & 1u);
  const uint32_t na = scale_a < 0 ? signs : 0u, nb = scale_b < 0 ? signs : 0u;
  ptx2hip_wgmma_fast_scale_d(d, scale_d);
  ptx2hip_vec<uint32_t, 2> y[2];
  ptx2hip_wgmma_fast_y(a, trans_a != 0, y);
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 2; ++i) y[r].v[i] = (y[r].v[i] ^ na) & keep;
#pragma unroll
  for (int jt = 0; jt < (N + 15) / 16; ++jt) {
    const int regs = 16 * jt + 8 == N ? 2 : 4;  // accumulators in use
    ptx2hip_vec<uint32_t, 2> xw =
        ptx2hip_wgmma_fast_words(b, trans_b != 0, 16u * jt + (regs == 2 ? n & 7u : n), x);
    for (int i = 0; i < 2; ++i) xw.v[i] = (xw.v[i] ^ nb) & keep;
    for (int r = 0; r < 2; ++r) {
      ptx2hip_vec<float, 4> acc = {{0.0f, 0.0f, 0.0f, 0.0f}};
      // Accumulators v, v + 1 are f32 registers 8jt + 2v + 2r, + 1, or f16 register 4jt + v + r.
      for (int v = 0; v < regs; v += 2) {
        if (F16) {
          const uint32_t w =
              ptx2hip_wgmma_fast_read(__builtin_bit_cast(uint32_t, d.v[4 * jt + v + r]), from);
          acc.v[v] = (float)__builtin_bit_cast(_Float16, (uint16_t)w);
          acc.v[v + 1] = (float)__builtin_bit_cast(_Float16, (uint16_t)(w >> 16));
        } else {
          for (int q = 0; q < 2; ++q) {
            const uint32_t p = __builtin_bit_cast(uint32_t, d.v[8 * jt + 2 * v + 2 * r + q]);
            acc.v[v + q] = __builtin_bit_cast(float, ptx2hip_wgmma_fast_read(p, from));
          }
        }
      }
      acc = ptx2hip_wgmma_fast_mfma<F>(xw, y[r], acc);
      for (int v = 0; v < regs; v += 2) {
        if (F16) {
          const uint32_t lo = __builtin_bit_cast(uint16_t, (_Float16)acc.v[v]);
          const uint32_t hi = __builtin_bit_cast(uint16_t, (_Float16)acc.v[v + 1]);
          d.v[4 * jt + v + r] = __builtin_bit_cast(T, ptx2hip_wgmma_fast_read(lo | hi << 16, back));
        } else {
          for (int q = 0; q < 2; ++q)
            d.v[8 * jt + 2 * v + 2 * r + q] = __builtin_bit_cast(
                T, ptx2hip_wgmma_fast_read(__builtin_bit_cast(uint32_t, acc.v[v + q]), back));
        }
      }
    }
  }
  return d;
}
#elif defined(__GFX11__) && __AMDGCN_WAVEFRONT_SIZE == 32
// RDNA3, wave32: the wave is warp w of the warpgroup, 16 rows of D. Tiles of 16 x 16, one
// v_wmma_f32_16x16x16_{f16,bf16}_w32 each (no tf32 WMMA: tf32 takes ptx2hip_wgmma_fast_fmaf).
// WMMA lane L (c = L % 16, hi = L / 16) holds all 8 operand words of its row of X = Bᵀ, B column
// n = 16J + (c & 12) + 2(c % 2) + c / 2 % 2, and of its column of Y = Aᵀ, A row 16w + c (lanes
// 16-31 repeat lanes 0-15, as WMMA requires). Its accumulator v = 4j' + 2s + e is then D[16w +
// c][16J + 8j' + 2(2s + hi) + e]: PTX register 4(2J + j') + 2(c / 8) + e of lane 4(c % 8) + 2s + hi.
// The register depends on the lane by the bit r = c / 8 (and, seen from the PTX lane, s = t / 2),
// so C and D move as two ds_bpermute per pair of registers 4j'' + e, 4j'' + 2 + e, the source
// choosing its register by its bit and the destination swapping the two results back by its own.

// Y from the A descriptor (trans: MN-major): A row 16w + c.
__device__ inline void ptx2hip_wgmma_fast_y(uint64_t a, bool trans, uint32_t (&y)[8]) {
  ptx2hip_wgmma_row(a, trans, 16u * (ptx2hip_warpid() & 3u) + (__lane_id() & 15u), y);
}
// Y from A's registers: word e of A row c = g + 8r is register 2(e / 4) + r of lane 4g + e % 4.
// Rotation per pair of words e, e + 1 (e even): permute q reads lane 4g + (e % 4 + (q ^ r)), which
// offers its register 2(e / 4) + (q ^ odd), odd = its lane % 2; the result is word e + (q ^ r).
__device__ inline void ptx2hip_wgmma_fast_y(ptx2hip_vec<uint32_t, 4> a, bool, uint32_t (&y)[8]) {
  const uint32_t l = __lane_id() & 31u, c = l & 15u, r = c >> 3, odd = l & 1u;
  const uint32_t quad = 4u * (c & 7u);
  for (int e = 0; e < 8; e += 2) {
    const uint32_t lo = a.v[2 * (e >> 2)], up = a.v[2 * (e >> 2) + 1];
    const uint32_t r0 = ptx2hip_wgmma_fast_read(odd ? up : lo, quad + (e & 3) + r);
    const uint32_t r1 = ptx2hip_wgmma_fast_read(odd ? lo : up, quad + (e & 3) + (r ^ 1u));
    y[e] = r ? r1 : r0;
    y[e + 1] = r ? r0 : r1;
  }
}

template <int F, int Accum, typename T, int ND, typename A>
__device__ inline ptx2hip_vec<T, ND> ptx2hip_wgmma_fast(ptx2hip_vec<T, ND> d, A a, uint64_t b,
                                                        bool scale_d, int32_t scale_a,
                                                        int32_t scale_b, int32_t trans_a,
                                                        int32_t trans_b) {
  if constexpr (F == ptx2hip_tc_tf32) {
    return ptx2hip_wgmma_fast_fmaf<F, Accum>(d, a, b, scale_d, scale_a, scale_b, trans_a, trans_b);
  } else {
    typedef float F8 __attribute__((ext_vector_type(8)));
    typedef _Float16 H16 __attribute__((ext_vector_type(16)));
    typedef short S16 __attribute__((ext_vector_type(16)));
    constexpr bool F16 = Accum == ptx2hip_tc_acc_f16;
    constexpr int N = F16 ? 4 * ND : 2 * ND;
    const uint32_t l = __lane_id() & 31u, c = l & 15u, rc = c >> 3, t = l & 3u, s = t >> 1;
    // Where this lane reads C (WMMA layout) and D (PTX layout) in permute e of a pair.
    const uint32_t c_from[2] = {4u * (c & 7u) + 2u * rc + (l >> 4),
                                4u * (c & 7u) + 2u * (rc ^ 1u) + (l >> 4)};
    const uint32_t d_from[2] = {16u * (t & 1u) + (l >> 2) + 8u * s,
                                16u * (t & 1u) + (l >> 2) + 8u * (s ^ 1u)};
    const uint32_t n = (c & 12u) | (c & 1u) << 1 | ((c >> 1) & 1u);
    const uint32_t na = scale_a < 0 ? 0x80008000u : 0u, nb = scale_b < 0 ? 0x80008000u : 0u;
    ptx2hip_wgmma_fast_scale_d(d, scale_d);
    ptx2hip_vec<uint32_t, 8> y;
    ptx2hip_wgmma_fast_y(a, trans_a != 0, y.v);
    for (int i = 0; i < 8; ++i) y.v[i] ^= na;
#pragma unroll
    for (int jt = 0; jt < (N + 15) / 16; ++jt) {
      const int blocks = 16 * jt + 8 == N ? 1 : 2;  // column blocks of 8 in this tile
      ptx2hip_vec<uint32_t, 8> x;
      ptx2hip_wgmma_row(b, trans_b != 0, 16u * jt + (blocks == 1 ? n & 7u : n), x.v);
      for (int i = 0; i < 8; ++i) x.v[i] ^= nb;
      ptx2hip_vec<float, 8> acc = {};
      for (int jb = 0; jb < blocks; ++jb) {
        const int j = 2 * jt + jb;
        // C in: permute e reads lane c_from[e], which offers its PTX register 4j + 2(e ^ s) +
        // cc (f16: 2j + (e ^ s), both cc); the result is accumulator 4jb + 2(e ^ rc) + cc.
        if (F16) {
          uint32_t got[2];
          for (int e = 0; e < 2; ++e) {
            const uint32_t p0 = __builtin_bit_cast(uint32_t, d.v[2 * j]);
            const uint32_t p1 = __builtin_bit_cast(uint32_t, d.v[2 * j + 1]);
            got[e] = ptx2hip_wgmma_fast_read((e ^ s) ? p1 : p0, c_from[e]);
          }
          const uint32_t lo = rc ? got[1] : got[0], up = rc ? got[0] : got[1];
          acc.v[4 * jb] = (float)__builtin_bit_cast(_Float16, (uint16_t)lo);
          acc.v[4 * jb + 1] = (float)__builtin_bit_cast(_Float16, (uint16_t)(lo >> 16));
          acc.v[4 * jb + 2] = (float)__builtin_bit_cast(_Float16, (uint16_t)up);
          acc.v[4 * jb + 3] = (float)__builtin_bit_cast(_Float16, (uint16_t)(up >> 16));
        } else {
          for (int cc = 0; cc < 2; ++cc) {
            float got[2];
            for (int e = 0; e < 2; ++e) {
              const uint32_t p0 = __builtin_bit_cast(uint32_t, d.v[4 * j + cc]);
              const uint32_t p1 = __builtin_bit_cast(uint32_t, d.v[4 * j + 2 + cc]);
              got[e] =
                  __builtin_bit_cast(float, ptx2hip_wgmma_fast_read((e ^ s) ? p1 : p0, c_from[e]));
            }
            acc.v[4 * jb + cc] = rc ? got[1] : got[0];
            acc.v[4 * jb + 2 + cc] = rc ? got[0] : got[1];
          }
        }
      }
      const F8 cin = __builtin_bit_cast(F8, acc);
      if constexpr (F == ptx2hip_tc_bf16) {
        acc = __builtin_bit_cast(ptx2hip_vec<float, 8>,
                                 __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(
                                     __builtin_bit_cast(S16, x), __builtin_bit_cast(S16, y), cin));
      } else {
        acc = __builtin_bit_cast(ptx2hip_vec<float, 8>,
                                 __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(
                                     __builtin_bit_cast(H16, x), __builtin_bit_cast(H16, y), cin));
      }
      for (int jb = 0; jb < blocks; ++jb) {
        const int j = 2 * jt + jb;
        // D out: permute e reads lane d_from[e], which offers its accumulator 4jb + 2(e ^ rc) +
        // cc (f16: both cc rounded and packed); the result is PTX register 4j + 2(e ^ s) + cc
        // (f16: 2j + (e ^ s)).
        if (F16) {
          uint32_t pk[2], got[2];
          for (int h = 0; h < 2; ++h) {
            const uint32_t lo = __builtin_bit_cast(uint16_t, (_Float16)acc.v[4 * jb + 2 * h]);
            const uint32_t up = __builtin_bit_cast(uint16_t, (_Float16)acc.v[4 * jb + 2 * h + 1]);
            pk[h] = lo | up << 16;
          }
          for (int e = 0; e < 2; ++e)
            got[e] = ptx2hip_wgmma_fast_read((e ^ rc) ? pk[1] : pk[0], d_from[e]);
          d.v[2 * j] = __builtin_bit_cast(T, s ? got[1] : got[0]);
          d.v[2 * j + 1] = __builtin_bit_cast(T, s ? got[0] : got[1]);
        } else {
          for (int cc = 0; cc < 2; ++cc) {
            uint32_t got[2];
            for (int e = 0; e < 2; ++e) {
              const float a0 = acc.v[4 * jb + cc], a1 = acc.v[4 * jb + 2 + cc];
              got[e] = ptx2hip_wgmma_fast_read(__builtin_bit_cast(uint32_t, (e ^ rc) ? a1 : a0),
                                               d_from[e]);
            }
            d.v[4 * j + cc] = __builtin_bit_cast(T, s ? got[1] : got[0]);
            d.v[4 * j + 2 + cc] = __builtin_bit_cast(T, s ? got[0] : got[1]);
          }
        }
      }
    }
    return d;
  }
}
#else
// No matrix instruction with these layouts (other processors, gfx11 in wave64).
template <int F, int Accum, typename T, int ND, typename A>
__device__ inline ptx2hip_vec<T, ND> ptx2hip_wgmma_fast(ptx2hip_vec<T, ND> d, A a, uint64_t b,
                                                        bool scale_d, int32_t scale_a,
                                                        int32_t scale_b, int32_t trans_a,
                                                        int32_t trans_b) {
  return ptx2hip_wgmma_fast_fmaf<F, Accum>(d, a, b, scale_d, scale_a, scale_b, trans_a, trans_b);
}
#endif
// ptx2hip:end
