// Helpers of the --fast tier of rules/matrix.toml (markers: rules/README.md, "Helpers"): float
// `mma.sync` through AMD's matrix instructions, inexact by design (docs/MATRIX_FAST.md states the
// modelled deviation from the H100). Each helper takes and returns the PTX fragments of one lane
// (layouts: tensor-cores.md §2.1), so the C++ around the statement keeps NVIDIA's layout.
//
// The product is computed transposed, Dᵀ = Bᵀ·Aᵀ: the MFMA/WMMA result rows are then the PTX n
// columns, and the lanes holding a warp's result are lanes of that warp (on wave64, of its half of
// the wave). On CDNA (wave64) one v_mfma_f32_16x16x16 multiplies both warps of the wave at once
// with block-diagonal operands: its k range 0..15 is warp 0's 8 k values (lanes 0..31 hold them)
// then warp 1's (lanes 32..63), so no value crosses between the halves; an m16n8k16 is two such
// MFMAs (k 0..7, then k 8..15, the first one's result the second one's C). On RDNA3 (wave32) one
// v_wmma_f32_16x16x16 does the warp's product; its rows 8..15 are unused.
//
// Fragments move with ds_bpermute (ptx2hip_warp_read). Where two destination lanes need different
// registers of one source lane, the source chooses its register per permute and the destination
// swaps the results back ("rotations" below), so that every permute carries useful data.

// ptx2hip:helper ptx2hip_wave_full
// ptx2hip:amd
// Whether every lane of the wave executes this call: the condition of the --fast matrix helpers
// (WMMA requires all lanes, RDNA3 ISA; nothing documents MFMA with lanes off; and on wave64 both
// PTX warps of the wave take part in one call). EXEC is one scalar register, so the result is
// wave-uniform: `ptx2hip_wave_full() ? fast : exact` sends the whole wave down one side.
__device__ inline bool ptx2hip_wave_full() {
  const uint64_t all = __builtin_amdgcn_wavefrontsize() == 64 ? ~0ull : 0xffffffffull;
  return __builtin_amdgcn_read_exec() == all;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_fast_rotate
// ptx2hip:amd
// v[i] becomes v[(i + s) % 4], for a per-lane s: two rounds of four selects on values (indexing a
// register array by a lane-varying value puts the array in scratch memory).
__device__ inline void ptx2hip_mma_fast_rotate(float* v, uint32_t s) {
  const bool one = (s & 1u) != 0, two = (s & 2u) != 0;
  const float a0 = one ? v[1] : v[0], a1 = one ? v[2] : v[1];
  const float a2 = one ? v[3] : v[2], a3 = one ? v[0] : v[3];
  v[0] = two ? a2 : a0;
  v[1] = two ? a3 : a1;
  v[2] = two ? a0 : a2;
  v[3] = two ? a1 : a3;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_fast_read requires=ptx2hip_warp_read
// ptx2hip:amd
// The float v of lane j of this lane's PTX warp (ptx2hip_warp_read of its bits).
__device__ inline float ptx2hip_mma_fast_read(float v, uint32_t j) {
  return __builtin_bit_cast(float, ptx2hip_warp_read(__builtin_bit_cast(uint32_t, v), j));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_fast requires=ptx2hip_vec,ptx2hip_warp_read,ptx2hip_mma_fast_read,ptx2hip_mma_fast_rotate
// ptx2hip:amd
// D = A·B + C of mma.m16n8kK.row.col.f32.T.T.f32 on the PTX fragments of this lane, for a full
// wave (ptx2hip_wave_full): ptx2hip_mma_fast<BF16, K> for f16 (bf16 when BF16), K = 8 or 16, and
// ptx2hip_mma_fast_tf32<K> for tf32, K = 4 or 8. Vector values are converted whole with
// __builtin_bit_cast, never element by element (clang-19 miscompile, tensor-cores.md §6).
#if defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
// CDNA, wave64: MFMA lane L = 32w + l, with w the warp (half) and l its lane. Operand A of the MFMA
// is X = Bᵀ (row r = l % 16 is n = r % 8 of warp r / 8; zero outside the lane's own warp, which
// makes X block-diagonal), operand B is Y = Aᵀ (column m = l % 16). The k of an MFMA that lanes of
// a half hold are that warp's: lane l holds those of group l / 16, read from the PTX lanes
// 4(l % 8)…4(l % 8) + 3 of row or column l % 8.

// C in the MFMA layout: accumulator i of lane l is C[m = l % 16][n = 4(l / 16) + i], register
// (i & 1) + 2·hi of PTX lane src + i / 2 (hi = bit 3 of l, src = 4(l % 8) + 2(l / 16)). Rotation:
// permute e reads lane src + ((e & 1) ^ hi), which offers its register (e >> 1) + 2((e & 1) ^ odd).
__device__ __attribute__((always_inline)) inline ptx2hip_vec<float, 4> ptx2hip_mma_fast_cdna_c(
    ptx2hip_vec<float, 4> c) {
  const uint32_t l = __lane_id() & 31u, hi = (l >> 3) & 1u, odd = l & 1u;
  const uint32_t src = 4u * (l & 7u) + 2u * (l >> 4);
  // Each register is read into a value used by two selects: a select between two single-use
  // loads of an array becomes one load at a computed index, which puts the array in scratch.
  const float c0 = c.v[0], c1 = c.v[1], c2 = c.v[2], c3 = c.v[3];
  float r[4];
  for (uint32_t e = 0; e < 4; ++e) {
    const uint32_t pair = (e & 1u) ^ odd;
    const float v = (e >> 1) ? (pair ? c3 : c1) : (pair ? c2 : c0);
    r[e] = ptx2hip_mma_fast_read(v, src + ((e & 1u) ^ hi));
  }
  return {{hi ? r[1] : r[0], hi ? r[3] : r[2], hi ? r[0] : r[1], hi ? r[2] : r[3]}};
}

// D back to the PTX layout: register j of PTX lane l = 4g + t is accumulator 2(t & 1) + (j & 1) of
// lane 16(t / 2) + g + 8(j / 2). Rotation: permute e reads lane 16(t / 2) + g + 8((e >> 1) ^ (t &
// 1)), which offers its accumulator 2((e >> 1) ^ hi) + (e & 1); the result is register e ^ 2(t & 1).
__device__ __attribute__((always_inline)) inline ptx2hip_vec<float, 4> ptx2hip_mma_fast_cdna_d(
    ptx2hip_vec<float, 4> acc) {
  const uint32_t l = __lane_id() & 31u, hi = (l >> 3) & 1u, odd = l & 1u;
  const uint32_t base = 16u * ((l >> 1) & 1u) + (l >> 2);
  const float d0 = acc.v[0], d1 = acc.v[1], d2 = acc.v[2], d3 = acc.v[3];
  float r[4];
  for (uint32_t e = 0; e < 4; ++e) {
    // Accumulator 2((e >> 1) ^ hi) + (e & 1).
    const bool upper = ((e >> 1) ^ hi) != 0;
    const float v = (e & 1u) ? (upper ? d3 : d1) : (upper ? d2 : d0);
    r[e] = ptx2hip_mma_fast_read(v, base + 8u * ((e >> 1) ^ odd));
  }
  return {{odd ? r[2] : r[0], odd ? r[3] : r[1], odd ? r[0] : r[2], odd ? r[1] : r[3]}};
}

// f16/bf16: v_mfma_f32_16x16x16, 8 k per warp each. Operand dword d of lane l holds k =
// 8s + 4(l / 16) + 2d + {0, 1}: one register of one PTX lane, src + d.
template <bool BF16, int K>
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast(ptx2hip_vec<uint32_t, K / 4> a,
                                                         ptx2hip_vec<uint32_t, K / 8> b,
                                                         ptx2hip_vec<float, 4> c) {
  typedef float F4 __attribute__((ext_vector_type(4)));
  typedef _Float16 H4 __attribute__((ext_vector_type(4)));
  typedef short S4 __attribute__((ext_vector_type(4)));
  const uint32_t lane = __lane_id(), l = lane & 31u, w = lane >> 5;
  const uint32_t hi = (l >> 3) & 1u, odd = l & 1u, src = 4u * (l & 7u) + 2u * (l >> 4);
  ptx2hip_vec<float, 4> acc = ptx2hip_mma_fast_cdna_c(c);
  for (int s = 0; s < K / 8; ++s) {
    // X: B register s of lane src + d, kept only in the rows of this lane's own warp.
    ptx2hip_vec<uint32_t, 2> x = {
        {ptx2hip_warp_read(b.v[s], src), ptx2hip_warp_read(b.v[s], src + 1u)}};
    if (hi != w) x = {{0u, 0u}};
    // Y: A register 2s + hi of lane src + d. Rotation: permute e reads lane src + (e ^ hi),
    // which offers its register 2s + (e ^ odd).
    const uint32_t lo = a.v[2 * s], up = a.v[2 * s + 1];
    const uint32_t y0 = ptx2hip_warp_read(odd ? up : lo, src + hi);
    const uint32_t y1 = ptx2hip_warp_read(odd ? lo : up, src + (hi ^ 1u));
    const ptx2hip_vec<uint32_t, 2> y = {{hi ? y1 : y0, hi ? y0 : y1}};
    const F4 cin = __builtin_bit_cast(F4, acc);
    if constexpr (BF16) {
      acc = __builtin_bit_cast(ptx2hip_vec<float, 4>, __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(
                                                          __builtin_bit_cast(S4, x),
                                                          __builtin_bit_cast(S4, y), cin, 0, 0, 0));
    } else {
      acc = __builtin_bit_cast(ptx2hip_vec<float, 4>, __builtin_amdgcn_mfma_f32_16x16x16f16(
                                                          __builtin_bit_cast(H4, x),
                                                          __builtin_bit_cast(H4, y), cin, 0, 0, 0));
    }
  }
  return ptx2hip_mma_fast_cdna_d(acc);
}

// tf32 (m16n8kK, K = 4 or 8): A register i holds A[g + 8(i & 1)][t + 4(i / 2)], B register i
// B[t + 4i][g]; the low 13 bits of each register are not part of the value (cleared here: the f32
// instructions would use them).
#if defined(__gfx90a__)
// K / 2 v_mfma_f32_16x16x4f32, 2 k per warp each: lane l holds k = 2s + l / 16, PTX lane
// 4(l % 8) + 2(s & 1) + l / 16, register s / 2 of B and 2(s / 2) + hi of A.
template <int K>
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast_tf32(ptx2hip_vec<uint32_t, K / 2> a,
                                                              ptx2hip_vec<uint32_t, K / 4> b,
                                                              ptx2hip_vec<float, 4> c) {
  typedef float F4 __attribute__((ext_vector_type(4)));
  const uint32_t lane = __lane_id(), l = lane & 31u, w = lane >> 5;
  const uint32_t hi = (l >> 3) & 1u, t1 = (l >> 1) & 1u, src = 4u * (l & 7u) + (l >> 4);
  ptx2hip_vec<float, 4> acc = ptx2hip_mma_fast_cdna_c(c);
  for (int p = 0; p < K / 4; ++p) {
    // Y of MFMAs 2p and 2p + 1. Rotation: permute e reads lane src + 2(e ^ hi), which offers its
    // register 2p + (e ^ t1); the result is Y of MFMA 2p + (e ^ hi).
    const uint32_t lo = a.v[2 * p] & 0xffffe000u, up = a.v[2 * p + 1] & 0xffffe000u;
    const uint32_t r0 = ptx2hip_warp_read(t1 ? up : lo, src + 2u * hi);
    const uint32_t r1 = ptx2hip_warp_read(t1 ? lo : up, src + 2u * (hi ^ 1u));
    const uint32_t y[2] = {hi ? r1 : r0, hi ? r0 : r1};
    for (int q = 0; q < 2; ++q) {
      // X: B register p of lane src + 2q, kept only in the rows of this lane's own warp.
      const uint32_t x = ptx2hip_warp_read(b.v[p] & 0xffffe000u, src + 2u * q);
      const float xf = hi == w ? __builtin_bit_cast(float, x) : 0.0f;
      acc = __builtin_bit_cast(ptx2hip_vec<float, 4>, __builtin_amdgcn_mfma_f32_16x16x4f32(
                                                          xf, __builtin_bit_cast(float, y[q]),
                                                          __builtin_bit_cast(F4, acc), 0, 0, 0));
    }
  }
  return ptx2hip_mma_fast_cdna_d(acc);
}
#else
// K / 4 v_mfma_f32_16x16x8_xf32 (gfx940-942), 4 k per warp each: element j of lane l holds
// k = 4s + 2(l / 16) + j, PTX lane src + j, register s of B and 2s + hi of A.
template <int K>
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast_tf32(ptx2hip_vec<uint32_t, K / 2> a,
                                                              ptx2hip_vec<uint32_t, K / 4> b,
                                                              ptx2hip_vec<float, 4> c) {
  typedef float F2 __attribute__((ext_vector_type(2)));
  typedef float F4 __attribute__((ext_vector_type(4)));
  const uint32_t lane = __lane_id(), l = lane & 31u, w = lane >> 5;
  const uint32_t hi = (l >> 3) & 1u, odd = l & 1u, src = 4u * (l & 7u) + 2u * (l >> 4);
  ptx2hip_vec<float, 4> acc = ptx2hip_mma_fast_cdna_c(c);
  for (int s = 0; s < K / 4; ++s) {
    const uint32_t bs = b.v[s] & 0xffffe000u;
    ptx2hip_vec<uint32_t, 2> x = {{ptx2hip_warp_read(bs, src), ptx2hip_warp_read(bs, src + 1u)}};
    if (hi != w) x = {{0u, 0u}};
    // Y: rotation as for f16: permute e reads lane src + (e ^ hi), which offers its register
    // 2s + (e ^ odd).
    const uint32_t lo = a.v[2 * s] & 0xffffe000u, up = a.v[2 * s + 1] & 0xffffe000u;
    const uint32_t y0 = ptx2hip_warp_read(odd ? up : lo, src + hi);
    const uint32_t y1 = ptx2hip_warp_read(odd ? lo : up, src + (hi ^ 1u));
    const ptx2hip_vec<uint32_t, 2> y = {{hi ? y1 : y0, hi ? y0 : y1}};
    acc = __builtin_bit_cast(
        ptx2hip_vec<float, 4>,
        __builtin_amdgcn_mfma_f32_16x16x8_xf32(__builtin_bit_cast(F2, x), __builtin_bit_cast(F2, y),
                                               __builtin_bit_cast(F4, acc), 0, 0, 0));
  }
  return ptx2hip_mma_fast_cdna_d(acc);
}
#endif
#elif defined(__GFX11__) && __AMDGCN_WAVEFRONT_SIZE == 32
// RDNA3, wave32: WMMA operand A is X = Bᵀ (lane l holds row r = l % 16, n = r % 8; rows 8..15
// repeat rows 0..7 and their results are dropped), operand B is Y = Aᵀ (column m = l % 16); lanes
// 16..31 hold the same data as lanes 0..15, as WMMA requires. Operand dword e holds k = 2e, 2e + 1
// (zero for k >= K). Result register v of lane l is Dᵀ[n = 2v + l / 16][m = l % 16], v < 4.
template <bool BF16, int K>
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast(ptx2hip_vec<uint32_t, K / 4> a,
                                                         ptx2hip_vec<uint32_t, K / 8> b,
                                                         ptx2hip_vec<float, 4> c) {
  typedef float F8 __attribute__((ext_vector_type(8)));
  typedef _Float16 H16 __attribute__((ext_vector_type(16)));
  typedef short S16 __attribute__((ext_vector_type(16)));
  const uint32_t l = __lane_id() & 31u, t = l & 3u, odd = l & 1u, hi = (l >> 3) & 1u;
  const uint32_t row = 4u * (l & 7u);
  ptx2hip_vec<uint32_t, 8> x = {}, y = {};
  for (int e = 0; e < K / 2; ++e) {
    // X dword e: B register e / 4 of lane row + e % 4.
    x.v[e] = ptx2hip_warp_read(b.v[e >> 2], row + (e & 3));
  }
  for (int e = 0; e < K / 2; e += 2) {
    // Y dwords e, e + 1: A register 2(e / 4) + hi of lanes row + e % 4, row + e % 4 + 1.
    // Rotation: permute e' (e or e + 1) reads lane row + (e' ^ hi) % 4, which offers its register
    // 2(e / 4) + ((e' ^ t) & 1); the result is dword e' ^ hi. (The pair is swapped on values: a
    // select between array elements indexed by the loop would become a dynamic index.)
    const uint32_t lo = a.v[2 * (e >> 2)], up = a.v[2 * (e >> 2) + 1];
    const uint32_t r0 = ptx2hip_warp_read(odd ? up : lo, row + ((e ^ hi) & 3u));
    const uint32_t r1 = ptx2hip_warp_read(odd ? lo : up, row + (((e + 1) ^ hi) & 3u));
    y.v[e] = hi ? r1 : r0;
    y.v[e + 1] = hi ? r0 : r1;
  }
  // C: register v < 4 of lane l is C[m = l % 16][n = 2v + l / 16], register β = l / 16 + 2·hi of
  // lane row + v. Rotation: permute e reads lane row + (e - β) % 4, which offers its register
  // (e - t) % 4; the result is register (e - β) % 4.
  const uint32_t beta = (l >> 4) + 2u * hi;
  float rc[4] = {c.v[0], c.v[1], c.v[2], c.v[3]};
  ptx2hip_mma_fast_rotate(rc, 0u - t);
  for (uint32_t e = 0; e < 4; ++e) {
    rc[e] = ptx2hip_mma_fast_read(rc[e], row + ((e - beta) & 3u));
  }
  ptx2hip_mma_fast_rotate(rc, beta);
  ptx2hip_vec<float, 8> acc = {{rc[0], rc[1], rc[2], rc[3]}};
  const F8 cin = __builtin_bit_cast(F8, acc);
  if constexpr (BF16) {
    acc = __builtin_bit_cast(ptx2hip_vec<float, 8>,
                             __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(
                                 __builtin_bit_cast(S16, x), __builtin_bit_cast(S16, y), cin));
  } else {
    acc = __builtin_bit_cast(ptx2hip_vec<float, 8>,
                             __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(
                                 __builtin_bit_cast(H16, x), __builtin_bit_cast(H16, y), cin));
  }
  // D: register j of PTX lane l = 4g + t is result register t of WMMA lane
  // 16(j & 1) + g + 8(j / 2), whose j(L) = 2·hi + l / 16. Rotation: permute e reads the lane of
  // register (e + t) % 4, which offers its result register (j(L) - e) % 4.
  const uint32_t mine = 2u * hi + (l >> 4);
  // acc[(mine - e) % 4] is rd[(e - mine) % 4] of rd = acc[0], acc[3], acc[2], acc[1].
  float rd[4] = {acc.v[0], acc.v[3], acc.v[2], acc.v[1]};
  ptx2hip_mma_fast_rotate(rd, 0u - mine);
  for (uint32_t e = 0; e < 4; ++e) {
    const uint32_t j = (e + t) & 3u;
    rd[e] = ptx2hip_mma_fast_read(rd[e], 16u * (j & 1u) + (l >> 2) + 8u * (j >> 1));
  }
  ptx2hip_mma_fast_rotate(rd, 0u - t);
  return {{rd[0], rd[1], rd[2], rd[3]}};
}
#else
// No matrix instruction with these layouts (other processors, gfx11 in wave64): per output a
// sequential fmaf chain over k on operands read from the other lanes, for any wave size.
template <bool BF16, int K>
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast(ptx2hip_vec<uint32_t, K / 4> a,
                                                         ptx2hip_vec<uint32_t, K / 8> b,
                                                         ptx2hip_vec<float, 4> c) {
  const uint32_t l = __lane_id() & 31u, g = l >> 2, t = l & 3u;
  ptx2hip_vec<float, 4> d = c;
  for (int p = 0; p < K / 2; ++p) {
    // k pair p: A rows g, g + 8 in registers 2(p / 4), 2(p / 4) + 1 of lane 4g + p % 4; B columns
    // 2t, 2t + 1 in register p / 4 of lanes 8t + p % 4, 8t + 4 + p % 4.
    const uint32_t a0 = ptx2hip_warp_read(a.v[2 * (p >> 2)], 4u * g + (p & 3));
    const uint32_t a1 = ptx2hip_warp_read(a.v[2 * (p >> 2) + 1], 4u * g + (p & 3));
    const uint32_t b0 = ptx2hip_warp_read(b.v[p >> 2], 8u * t + (p & 3));
    const uint32_t b1 = ptx2hip_warp_read(b.v[p >> 2], 8u * t + 4u + (p & 3));
    for (int h = 0; h < 2; ++h) {
      float x[4];
      const uint32_t in[4] = {a0, a1, b0, b1};
      for (int i = 0; i < 4; ++i) {
        const uint32_t bits = (in[i] >> (16 * h)) & 0xffffu;
        x[i] = BF16 ? __builtin_bit_cast(float, bits << 16)
                    : (float)__builtin_bit_cast(_Float16, (uint16_t)bits);
      }
      d.v[0] = __builtin_fmaf(x[0], x[2], d.v[0]);
      d.v[1] = __builtin_fmaf(x[0], x[3], d.v[1]);
      d.v[2] = __builtin_fmaf(x[1], x[2], d.v[2]);
      d.v[3] = __builtin_fmaf(x[1], x[3], d.v[3]);
    }
  }
  return d;
}
#endif
#if !(defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__))
// tf32 without a matrix instruction for it (RDNA3 has none): the fmaf chain, A register i holding
// A[g + 8(i & 1)][t + 4(i / 2)], B register i B[t + 4i][g], the low 13 bits cleared.
template <int K>
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast_tf32(ptx2hip_vec<uint32_t, K / 2> a,
                                                              ptx2hip_vec<uint32_t, K / 4> b,
                                                              ptx2hip_vec<float, 4> c) {
  const uint32_t l = __lane_id() & 31u, g = l >> 2, t = l & 3u;
  ptx2hip_vec<float, 4> d = c;
  for (int k = 0; k < K; ++k) {
    const uint32_t from = (uint32_t)(k & 3);
    float x[4];
    x[0] = __builtin_bit_cast(float, ptx2hip_warp_read(a.v[2 * (k >> 2)], 4u * g + from));
    x[1] = __builtin_bit_cast(float, ptx2hip_warp_read(a.v[2 * (k >> 2) + 1], 4u * g + from));
    x[2] = __builtin_bit_cast(float, ptx2hip_warp_read(b.v[k >> 2], 8u * t + from));
    x[3] = __builtin_bit_cast(float, ptx2hip_warp_read(b.v[k >> 2], 8u * t + 4u + from));
    for (int i = 0; i < 4; ++i) {
      const float v = x[i];
      x[i] = __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, v) & 0xffffe000u);
    }
    d.v[0] = __builtin_fmaf(x[0], x[2], d.v[0]);
    d.v[1] = __builtin_fmaf(x[0], x[3], d.v[1]);
    d.v[2] = __builtin_fmaf(x[1], x[2], d.v[2]);
    d.v[3] = __builtin_fmaf(x[1], x[3], d.v[3]);
  }
  return d;
}
#endif
// ptx2hip:end

// ---- The forms ------------------------------------------------------------------------------
// One helper per PTX form, named after it, for the rules' fast templates:
// `{d} = ptx2hip_wave_full() ? ptx2hip_mma_fast_<shape>_<D type>_<A type>({a}, {b}, {c}) : <exact>;`

// ptx2hip:helper ptx2hip_mma_fast_m16n8k16_f32_f16 requires=ptx2hip_mma_fast
// ptx2hip:amd
// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 on MFMA/WMMA (full wave only).
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast_m16n8k16_f32_f16(
    ptx2hip_vec<uint32_t, 4> a, ptx2hip_vec<uint32_t, 2> b, ptx2hip_vec<float, 4> c) {
  return ptx2hip_mma_fast<false, 16>(a, b, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_fast_m16n8k16_f32_bf16 requires=ptx2hip_mma_fast
// ptx2hip:amd
// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 on MFMA/WMMA (full wave only).
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast_m16n8k16_f32_bf16(
    ptx2hip_vec<uint32_t, 4> a, ptx2hip_vec<uint32_t, 2> b, ptx2hip_vec<float, 4> c) {
  return ptx2hip_mma_fast<true, 16>(a, b, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_fast_m16n8k8_f32_f16 requires=ptx2hip_mma_fast
// ptx2hip:amd
// mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 on MFMA/WMMA (full wave only).
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast_m16n8k8_f32_f16(ptx2hip_vec<uint32_t, 2> a,
                                                                         ptx2hip_vec<uint32_t, 1> b,
                                                                         ptx2hip_vec<float, 4> c) {
  return ptx2hip_mma_fast<false, 8>(a, b, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_fast_m16n8k8_f32_bf16 requires=ptx2hip_mma_fast
// ptx2hip:amd
// mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 on MFMA/WMMA (full wave only).
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast_m16n8k8_f32_bf16(
    ptx2hip_vec<uint32_t, 2> a, ptx2hip_vec<uint32_t, 1> b, ptx2hip_vec<float, 4> c) {
  return ptx2hip_mma_fast<true, 8>(a, b, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_fast_m16n8k8_f32_tf32 requires=ptx2hip_mma_fast
// ptx2hip:amd
// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 on MFMA (CDNA), fmaf elsewhere (full wave).
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast_m16n8k8_f32_tf32(
    ptx2hip_vec<uint32_t, 4> a, ptx2hip_vec<uint32_t, 2> b, ptx2hip_vec<float, 4> c) {
  return ptx2hip_mma_fast_tf32<8>(a, b, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_fast_m16n8k4_f32_tf32 requires=ptx2hip_mma_fast
// ptx2hip:amd
// mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 on MFMA (CDNA), fmaf elsewhere (full wave).
__device__ inline ptx2hip_vec<float, 4> ptx2hip_mma_fast_m16n8k4_f32_tf32(
    ptx2hip_vec<uint32_t, 2> a, ptx2hip_vec<uint32_t, 1> b, ptx2hip_vec<float, 4> c) {
  return ptx2hip_mma_fast_tf32<4>(a, b, c);
}
// ptx2hip:end

// ---- f16 accumulators -------------------------------------------------------------------------
// The AMD instructions accumulate in f32 only: C is widened (exactly) and D rounded to f16 to
// nearest even, the f16 C/D registers holding the elements of the f32 ones in pairs.

// ptx2hip:helper ptx2hip_mma_fast_f16_acc requires=ptx2hip_mma_fast
// ptx2hip:amd
// mma.m16n8kK.row.col.f16.f16.f16.f16 through the f32 path (full wave only).
template <int K>
__device__ inline ptx2hip_vec<uint32_t, 2> ptx2hip_mma_fast_f16_acc(ptx2hip_vec<uint32_t, K / 4> a,
                                                                    ptx2hip_vec<uint32_t, K / 8> b,
                                                                    ptx2hip_vec<uint32_t, 2> c) {
  ptx2hip_vec<float, 4> wide;
  for (int i = 0; i < 4; ++i) {
    const uint16_t h = (uint16_t)(c.v[i >> 1] >> (16 * (i & 1)));
    wide.v[i] = (float)__builtin_bit_cast(_Float16, h);
  }
  const ptx2hip_vec<float, 4> d = ptx2hip_mma_fast<false, K>(a, b, wide);
  ptx2hip_vec<uint32_t, 2> r;
  for (int i = 0; i < 2; ++i) {
    const uint32_t lo = __builtin_bit_cast(uint16_t, (_Float16)d.v[2 * i]);
    const uint32_t hi = __builtin_bit_cast(uint16_t, (_Float16)d.v[2 * i + 1]);
    r.v[i] = lo | hi << 16;
  }
  return r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_fast_m16n8k16_f16_f16 requires=ptx2hip_mma_fast_f16_acc
// ptx2hip:amd
// mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 on MFMA/WMMA (full wave only).
__device__ inline ptx2hip_vec<uint32_t, 2> ptx2hip_mma_fast_m16n8k16_f16_f16(
    ptx2hip_vec<uint32_t, 4> a, ptx2hip_vec<uint32_t, 2> b, ptx2hip_vec<uint32_t, 2> c) {
  return ptx2hip_mma_fast_f16_acc<16>(a, b, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_fast_m16n8k8_f16_f16 requires=ptx2hip_mma_fast_f16_acc
// ptx2hip:amd
// mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 on MFMA/WMMA (full wave only).
__device__ inline ptx2hip_vec<uint32_t, 2> ptx2hip_mma_fast_m16n8k8_f16_f16(
    ptx2hip_vec<uint32_t, 2> a, ptx2hip_vec<uint32_t, 1> b, ptx2hip_vec<uint32_t, 2> c) {
  return ptx2hip_mma_fast_f16_acc<8>(a, b, c);
}
// ptx2hip:end
