// Helpers of rules/matrix.toml: mma.sync on AMD, lane by lane, in NVIDIA's fragment layout.
//
// A PTX warp is 32 lanes (one wave32, or one half of a wave64: docs/WARP.md). Lane l holds the
// fragments of PTX's layout (g = l >> 2, t = l & 3; docs/MATRIX.md): the A rows its outputs need
// (g and g + 8) are spread over the 4 lanes of its own quad, the B columns (2t and 2t + 1) over
// the quads 2t and 2t + 1. Each lane gathers those words (DPP quad_perm for A: every quad is a
// DPP quad on both wave sizes; ds_bpermute for B) and computes its own outputs. Every lane of the
// PTX warp executes mma.sync (.aligned), so every source lane is active.

// ---- Gathers -----------------------------------------------------------------------------

// ptx2hip:helper ptx2hip_mma_quad
// ptx2hip:amd
// The value of v in lane T of this lane's quad (T = 0..3): one DPP quad_perm move.
template <int T>
__device__ inline uint32_t ptx2hip_mma_quad(uint32_t v) {
  return (uint32_t)__builtin_amdgcn_update_dpp(0, (int)v, T * 0x55, 0xf, 0xf, false);
}
template <int T>
__device__ inline uint64_t ptx2hip_mma_quad(uint64_t v) {
  return (uint64_t)ptx2hip_mma_quad<T>((uint32_t)v) |
         (uint64_t)ptx2hip_mma_quad<T>((uint32_t)(v >> 32)) << 32;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_lane requires=ptx2hip_warp_read
// ptx2hip:amd
// The value of v in lane j of this lane's PTX warp (ds_bpermute), 32 or 64 bits.
__device__ inline uint32_t ptx2hip_mma_lane(uint32_t v, uint32_t j) {
  return ptx2hip_warp_read(v, j);
}
__device__ inline uint64_t ptx2hip_mma_lane(uint64_t v, uint32_t j) {
  return (uint64_t)ptx2hip_warp_read((uint32_t)v, j) |
         (uint64_t)ptx2hip_warp_read((uint32_t)(v >> 32), j) << 32;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_rows requires=ptx2hip_mma_quad
// ptx2hip:amd
// The A rows this lane's outputs need, from the 4 lanes of its quad: row[r][w] is word w of row
// g + 8r (R = 2 for m16n8, 1 for m8n8), words in k order. Register i of quad lane u holds word
// 4(i / R) + u of row i % R.
template <typename T, int N, int R, int W>
__device__ inline void ptx2hip_mma_rows(const T (&a)[N], T (&row)[R][W]) {
  static_assert(W == 4 * N / R, "A fragment and row words disagree");
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const T v = a[i];
    row[i % R][4 * (i / R) + 0] = ptx2hip_mma_quad<0>(v);
    row[i % R][4 * (i / R) + 1] = ptx2hip_mma_quad<1>(v);
    row[i % R][4 * (i / R) + 2] = ptx2hip_mma_quad<2>(v);
    row[i % R][4 * (i / R) + 3] = ptx2hip_mma_quad<3>(v);
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_cols requires=ptx2hip_mma_lane
// ptx2hip:amd
// The B columns this lane's outputs need: col[j][w] is word w of column 2t + j, words in k order.
// Register i of lane 4n + u holds word 4i + u of column n.
template <typename T, int N, int W>
__device__ inline void ptx2hip_mma_cols(const T (&b)[N], T (&col)[2][W]) {
  static_assert(W == 4 * N, "B fragment and column words disagree");
  const uint32_t first = (__lane_id() & 3u) * 8u;  // lane 4 * (2t) of the warp
#pragma unroll
  for (int j = 0; j < 2; ++j)
#pragma unroll
    for (int i = 0; i < N; ++i)
#pragma unroll
      for (int u = 0; u < 4; ++u) col[j][4 * i + u] = ptx2hip_mma_lane(b[i], first + 4u * j + u);
}
// ptx2hip:end

// ---- Integer forms --------------------------------------------------------------------------

// ptx2hip:helper ptx2hip_mma_dot4 requires=ptx2hip_amd_dot_insts,ptx2hip_dp4a
// ptx2hip:amd
// c + the four byte products of a and b (SA/SB: bytes signed), modulo 2^32. CDNA has no
// mixed-sign dot instruction: an unsigned byte u is (u ^ 0x80) read signed, plus 128, so
// s·u = sdot4(s, u ^ 0x80808080) + 128·Σs, and 128·Σs is two sdot4 with 64 in every byte.
template <bool SA, bool SB>
__device__ inline uint32_t ptx2hip_mma_dot4(uint32_t a, uint32_t b, uint32_t c) {
#if defined(PTX2HIP_AMD_DOT1) && !defined(PTX2HIP_AMD_DOT8)
  if (SA != SB) {
    const int s = (int)(SA ? a : b), u = (int)((SA ? b : a) ^ 0x80808080u);
    c = (uint32_t)__builtin_amdgcn_sdot4(s, u, (int)c, false);
    c = (uint32_t)__builtin_amdgcn_sdot4(s, 0x40404040, (int)c, false);
    return (uint32_t)__builtin_amdgcn_sdot4(s, 0x40404040, (int)c, false);
  }
#endif
  return ptx2hip_dp4a<SA, SB>(a, b, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_dot8 requires=ptx2hip_amd_dot_insts
// ptx2hip:amd
// c + the eight 4-bit products of a and b (SA/SB: nibbles signed), modulo 2^32; the processor's
// dot instruction when it has one (clamp off).
template <bool SA, bool SB>
__device__ inline uint32_t ptx2hip_mma_dot8(uint32_t a, uint32_t b, uint32_t c) {
#if defined(PTX2HIP_AMD_DOT8)
  return (uint32_t)__builtin_amdgcn_sudot8(SA, (int)a, SB, (int)b, (int)c, false);
#else
#if defined(PTX2HIP_AMD_DOT1)
  if (SA && SB) return (uint32_t)__builtin_amdgcn_sdot8((int)a, (int)b, (int)c, false);
  if (!SA && !SB) return __builtin_amdgcn_udot8(a, b, c, false);
  // Mixed signs, as ptx2hip_mma_dot4: u = (u ^ 8) read signed, plus 8; 8·Σs = two sdot8 by 4.
  const int s = (int)(SA ? a : b), u = (int)((SA ? b : a) ^ 0x88888888u);
  c = (uint32_t)__builtin_amdgcn_sdot8(s, u, (int)c, false);
  c = (uint32_t)__builtin_amdgcn_sdot8(s, 0x44444444, (int)c, false);
  return (uint32_t)__builtin_amdgcn_sdot8(s, 0x44444444, (int)c, false);
#else
  for (int i = 0; i < 32; i += 4) {
    uint32_t x = (a >> i) & 0xfu, y = (b >> i) & 0xfu;
    if (SA) x = (x ^ 0x8u) - 0x8u; /* sign-extend modulo 2^32 */
    if (SB) y = (y ^ 0x8u) - 0x8u;
    c += x * y;
  }
  return c;
#endif
#endif
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_kind
// ptx2hip:amd
// What one 32-bit word of an integer mma fragment holds and how two words multiply.
enum class ptx2hip_mma_kind { i8, i4, b1_xor, b1_and };
// ptx2hip:end

// clang-format off
// ptx2hip:helper ptx2hip_mma_int requires=ptx2hip_vec,ptx2hip_mma_kind,ptx2hip_mma_rows,ptx2hip_mma_cols,ptx2hip_mma_dot4,ptx2hip_mma_dot8
// clang-format on
// ptx2hip:amd
// Integer mma.sync (m8n8k16/k32/k128, m16n8k16/k32/k64/k128/k256): D = C + A·B. The products of
// one output sum exactly in 32 bits (at most 32 · 255 · 255 < 2^21), then C is added modulo 2^32
// or, with .satfinite (SAT), exactly and clamped to [INT32_MIN, INT32_MAX] (PTX ISA, mma).
// SA/SB: A/B elements signed.
template <ptx2hip_mma_kind K, bool SA, bool SB, bool SAT, int NA, int NB, int ND>
__device__ inline ptx2hip_vec<int32_t, ND> ptx2hip_mma_int(ptx2hip_vec<uint32_t, NA> a,
                                                           ptx2hip_vec<uint32_t, NB> b,
                                                           ptx2hip_vec<int32_t, ND> c) {
  constexpr int R = NA >= 2 ? 2 : 1, W = 4 * NA / R;
  static_assert(ND == 2 * R && W == 4 * NB, "not an mma.sync integer fragment");
  uint32_t row[R][W], col[2][W];
  ptx2hip_mma_rows(a.v, row);
  ptx2hip_mma_cols(b.v, col);
  ptx2hip_vec<int32_t, ND> d;
#pragma unroll
  for (int i = 0; i < ND; ++i) {
    uint32_t s = 0;
#pragma unroll
    for (int w = 0; w < W; ++w) {
      const uint32_t x = row[i >> 1][w], y = col[i & 1][w];
      if (K == ptx2hip_mma_kind::i8) s = ptx2hip_mma_dot4<SA, SB>(x, y, s);
      if (K == ptx2hip_mma_kind::i4) s = ptx2hip_mma_dot8<SA, SB>(x, y, s);
      if (K == ptx2hip_mma_kind::b1_xor) s += (uint32_t)__builtin_popcount(x ^ y);
      if (K == ptx2hip_mma_kind::b1_and) s += (uint32_t)__builtin_popcount(x & y);
    }
    if (SAT) {
      const int64_t v = (int64_t)c.v[i] + (int64_t)(int32_t)s;
      d.v[i] = (int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
    } else {
      d.v[i] = (int32_t)((uint32_t)c.v[i] + s);
    }
  }
  return d;
}
// ptx2hip:end

// ---- f64 forms ------------------------------------------------------------------------------

// ptx2hip:helper ptx2hip_mma_nan_f64
// ptx2hip:amd
// The NaN the H100's f64 mma chain d = fma(a_w, b_w, d) from d = c gives (found on its
// recording): at each step a NaN operand comes out quieted with its sign and payload, b first,
// then the accumulator, then a; an invalid operation (Inf·0, Inf − Inf) gives 0xfff8000000000000.
// So the last NaN of b wins; else a NaN c; else the first NaN of a, unless the chain before it
// was already invalid. Called only when the chain's value is a NaN.
template <int W>
__device__ inline double ptx2hip_mma_nan_f64(const uint64_t (&a)[W], const uint64_t (&b)[W],
                                             double c) {
  const uint64_t mag = 0x7fffffffffffffffull, inf = 0x7ff0000000000000ull, quiet = 1ull << 51;
  const uint64_t cb = __builtin_bit_cast(uint64_t, c);
  uint64_t n = (cb & mag) > inf ? cb | quiet : 0;
  bool b_nan = false;
  for (int w = 0; w < W; ++w)
    if ((b[w] & mag) > inf) {
      n = b[w] | quiet;
      b_nan = true;
    }
  if (b_nan || n != 0) return __builtin_bit_cast(double, n);
  int first = W;
  uint64_t an = 0;
  for (int w = W - 1; w >= 0; --w)
    if ((a[w] & mag) > inf) {
      first = w;
      an = a[w] | quiet;
    }
  double s = c;
  for (int w = 0; w < W; ++w)
    if (w < first)
      s = __builtin_fma(__builtin_bit_cast(double, a[w]), __builtin_bit_cast(double, b[w]), s);
  return __builtin_bit_cast(double, s != s ? 0xfff8000000000000ull : an);
}
// ptx2hip:end

// clang-format off
// ptx2hip:helper ptx2hip_mma_f64 requires=ptx2hip_vec,ptx2hip_mma_rows,ptx2hip_mma_cols,ptx2hip_mma_nan_f64
// clang-format on
// ptx2hip:amd
// f64 mma.sync (m8n8k4, m16n8k4/k8/k16): each output is the chain d = fma(a_k, b_k, d) over k in
// order from d = c, rounded to nearest even at every step (PTX ISA, mma: .f64 is an fma chain).
// v_fma_f64 gives the H100's value whenever it is not a NaN; a NaN result (rare) is the H100's
// NaN (ptx2hip_mma_nan_f64).
template <int NA, int NB, int ND>
__device__ inline ptx2hip_vec<double, ND> ptx2hip_mma_f64(ptx2hip_vec<double, NA> a,
                                                          ptx2hip_vec<double, NB> b,
                                                          ptx2hip_vec<double, ND> c) {
  constexpr int R = NA >= 2 ? 2 : 1, W = 4 * NA / R;
  static_assert(ND == 2 * R && W == 4 * NB, "not an mma.sync f64 fragment");
  uint64_t ab[NA], bb[NB], row[R][W], col[2][W];
#pragma unroll
  for (int i = 0; i < NA; ++i) ab[i] = __builtin_bit_cast(uint64_t, a.v[i]);
#pragma unroll
  for (int i = 0; i < NB; ++i) bb[i] = __builtin_bit_cast(uint64_t, b.v[i]);
  ptx2hip_mma_rows(ab, row);
  ptx2hip_mma_cols(bb, col);
  ptx2hip_vec<double, ND> d;
#pragma unroll
  for (int i = 0; i < ND; ++i) {
    double s = c.v[i];
#pragma unroll
    for (int w = 0; w < W; ++w)
      s = __builtin_fma(__builtin_bit_cast(double, row[i >> 1][w]),
                        __builtin_bit_cast(double, col[i & 1][w]), s);
    d.v[i] = s == s ? s : ptx2hip_mma_nan_f64(row[i >> 1], col[i & 1], c.v[i]);
  }
  return d;
}
// ptx2hip:end

// ---- Float forms (the tensor-core model) ----------------------------------------------------

// ptx2hip:helper ptx2hip_mma_tc requires=ptx2hip_tc_format
// ptx2hip:amd
// The tensor model's element formats and accumulator types under one name the rule table's
// lookups can give (a lookup value names helpers only): ptx2hip_mma_tc::f16, ::acc_f16, ...
struct ptx2hip_mma_tc {
  static constexpr int f16 = ptx2hip_tc_f16, bf16 = ptx2hip_tc_bf16, tf32 = ptx2hip_tc_tf32;
  static constexpr int e4m3 = ptx2hip_tc_e4m3, e5m2 = ptx2hip_tc_e5m2;
  static constexpr int acc_f32 = ptx2hip_tc_acc_f32, acc_f16 = ptx2hip_tc_acc_f16;
};
// ptx2hip:end

// clang-format off
// ptx2hip:helper ptx2hip_mma_float requires=ptx2hip_vec,ptx2hip_mma_rows,ptx2hip_mma_cols,ptx2hip_tc_dot_terms,ptx2hip_mma_tc,ptx2hip_tc_dot_x2
// clang-format on
// ptx2hip:amd
// Float mma.sync (f16, bf16, tf32; f32 or f16 accumulators) as Model's tensor cores compute it
// (tensor_model.h, docs/TENSOR_MODEL.md). Each lane gathers its A rows and B columns, decomposes
// every element once (2 rows and 2 columns of K elements each) and computes its own outputs with
// ptx2hip_tc_dot_terms. F: the format of A and B, BITS: bits of one element in its register. T: the C/D carrier (float for f32, uint32_t holding two f16 for f16).
template <typename Model, int F, int Accum, int BITS, int NA, int NB, typename T, int NC>
__device__ inline ptx2hip_vec<T, NC> ptx2hip_mma_float(ptx2hip_vec<uint32_t, NA> a,
                                                       ptx2hip_vec<uint32_t, NB> b,
                                                       ptx2hip_vec<T, NC> c) {
  constexpr int R = NA >= 2 ? 2 : 1, W = 4 * NA / R, P = 32 / BITS, K = W * P;
  static_assert(W == 4 * NB && R == 2, "not an m16n8 float fragment");
  constexpr uint32_t mask = (uint32_t)((1ull << BITS) - 1u);
  uint32_t row[R][W], col[2][W];
  ptx2hip_mma_rows(a.v, row);
  ptx2hip_mma_cols(b.v, col);
  ptx2hip_vec<T, NC> d;
  if (F == ptx2hip_tc_f16 || F == ptx2hip_tc_bf16) {
    // f16 and bf16: the gathered registers as they are, both exponents of each once
    // (ptx2hip_tc_dot_x2).
    constexpr bool z = Model::zero_products_in_e, f32 = Accum == ptx2hip_tc_acc_f32;
    uint32_t grow[R][W], gcol[2][W];
#pragma unroll
    for (int w = 0; w < W; ++w) {
#pragma unroll
      for (int r = 0; r < R; ++r) grow[r][w] = ptx2hip_tc_x2_e<F, z>(row[r][w]);
#pragma unroll
      for (int j = 0; j < 2; ++j) gcol[j][w] = ptx2hip_tc_x2_e<F, z>(col[j][w]);
    }
    // Output (r, j): row g + 8r, column 2t + j; f32 in register 2r + j, f16 in the half j of
    // register r.
    uint32_t cd[R][2];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const uint32_t ci = __builtin_bit_cast(uint32_t, c.v[f32 ? 2 * r + j : r]);
        cd[r][j] = f32 ? ci : j ? ci >> 16 : ci & 0xffffu;
      }
    ptx2hip_tc_dot_x2<Model, F, Accum, W, R, 2>(row, grow, col, gcol, cd);
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const uint32_t di = f32 ? cd[r][j] : (cd[r][0] & 0xffffu) | cd[r][1] << 16;
        d.v[f32 ? 2 * r + j : r] = __builtin_bit_cast(T, di);
      }
    return d;
  }
  ptx2hip_tc_elem ea[R][K], eb[2][K];
#pragma unroll
  for (int w = 0; w < W; ++w)
#pragma unroll
    for (int h = 0; h < P; ++h) {
#pragma unroll
      for (int r = 0; r < R; ++r)
        ea[r][w * P + h] = ptx2hip_tc_decompose<Model, F>((row[r][w] >> (BITS * h)) & mask);
#pragma unroll
      for (int j = 0; j < 2; ++j)
        eb[j][w * P + h] = ptx2hip_tc_decompose<Model, F>((col[j][w] >> (BITS * h)) & mask);
    }
  if (Accum == ptx2hip_tc_acc_f32) {
    // Register i: row g + 8(i >> 1), column 2t + (i & 1).
#pragma unroll
    for (int i = 0; i < NC; ++i) {
      const uint32_t ci = __builtin_bit_cast(uint32_t, c.v[i]);
      const uint32_t di = ptx2hip_tc_dot_terms<Model, F, Accum, K>(ea[i >> 1], eb[i & 1], ci);
      d.v[i] = __builtin_bit_cast(T, di);
    }
  } else {
    // Register i: row g + 8i, columns 2t (low half) and 2t + 1 (high half).
#pragma unroll
    for (int i = 0; i < NC; ++i) {
      const uint32_t ci = __builtin_bit_cast(uint32_t, c.v[i]);
      const uint32_t lo = ptx2hip_tc_dot_terms<Model, F, Accum, K>(ea[i], eb[0], ci & 0xffffu);
      const uint32_t hi = ptx2hip_tc_dot_terms<Model, F, Accum, K>(ea[i], eb[1], ci >> 16);
      d.v[i] = __builtin_bit_cast(T, (lo & 0xffffu) | hi << 16);
    }
  }
  return d;
}
// ptx2hip:end

// clang-format off
// ptx2hip:helper ptx2hip_mma_fp8 requires=ptx2hip_vec,ptx2hip_mma_rows,ptx2hip_mma_cols,ptx2hip_tc_fp8_sync
// clang-format on
// ptx2hip:amd
// fp8 mma.sync (m16n8k16, m16n8k32; e4m3/e5m2 and their mixes; f32 or f16 accumulators) as the
// H100 computes it (ptx2hip_tc_fp8_sync). The fragments are those of the 8-bit integer forms
// (4 bytes per register, element 0 in the low byte), gathered as X001 does; each lane decomposes
// its 2 rows and 2 columns once, split by k mod 4 (byte 0, 1 / byte 2, 3 of each word).
// FA, FB: ptx2hip_tc_e4m3 or ptx2hip_tc_e5m2; T: the C/D carrier (float for f32, uint32_t
// holding two f16 for f16).
template <int FA, int FB, int Accum, int NA, int NB, typename T, int NC>
__device__ inline ptx2hip_vec<T, NC> ptx2hip_mma_fp8(ptx2hip_vec<uint32_t, NA> a,
                                                     ptx2hip_vec<uint32_t, NB> b,
                                                     ptx2hip_vec<T, NC> c) {
  constexpr int R = 2, W = 4 * NA / R, H = 2 * W;
  static_assert(NA >= 2 && W == 4 * NB, "not an m16n8 fp8 fragment");
  uint32_t row[R][W], col[2][W];
  ptx2hip_mma_rows(a.v, row);
  ptx2hip_mma_cols(b.v, col);
  ptx2hip_tc_elem ea[R][2][H], eb[2][2][H];
#pragma unroll
  for (int w = 0; w < W; ++w)
#pragma unroll
    for (int h = 0; h < 4; ++h) {
#pragma unroll
      for (int r = 0; r < R; ++r)
        ea[r][h >> 1][2 * w + (h & 1)] = ptx2hip_tc_fp8_elem<FA>(row[r][w] >> (8 * h));
#pragma unroll
      for (int j = 0; j < 2; ++j)
        eb[j][h >> 1][2 * w + (h & 1)] = ptx2hip_tc_fp8_elem<FB>(col[j][w] >> (8 * h));
    }
  ptx2hip_vec<T, NC> d;
  if (Accum == ptx2hip_tc_acc_f32) {
    // Register i: row g + 8(i >> 1), column 2t + (i & 1).
#pragma unroll
    for (int i = 0; i < NC; ++i) {
      const uint32_t ci = __builtin_bit_cast(uint32_t, c.v[i]);
      const uint32_t di = ptx2hip_tc_fp8_sync<Accum, H>(ea[i >> 1], eb[i & 1], ci);
      d.v[i] = __builtin_bit_cast(T, di);
    }
  } else {
    // Register i: row g + 8i, columns 2t (low half) and 2t + 1 (high half).
#pragma unroll
    for (int i = 0; i < NC; ++i) {
      const uint32_t ci = __builtin_bit_cast(uint32_t, c.v[i]);
      const uint32_t lo = ptx2hip_tc_fp8_sync<Accum, H>(ea[i], eb[0], ci & 0xffffu);
      const uint32_t hi = ptx2hip_tc_fp8_sync<Accum, H>(ea[i], eb[1], ci >> 16);
      d.v[i] = __builtin_bit_cast(T, (lo & 0xffffu) | hi << 16);
    }
  }
  return d;
}
// ptx2hip:end

// ---- Volta's m8n8k4 f16 (quad pairs) ----------------------------------------------------------

// ptx2hip:helper ptx2hip_mma_pick
// ptx2hip:amd
// v[i] for a lane-dependent i (0..7): a select tree, no indexed private array.
__device__ inline uint32_t ptx2hip_mma_pick(const uint32_t (&v)[8], uint32_t i) {
  const uint32_t x0 = i & 1u ? v[1] : v[0], x1 = i & 1u ? v[3] : v[2];
  const uint32_t x2 = i & 1u ? v[5] : v[4], x3 = i & 1u ? v[7] : v[6];
  const uint32_t y0 = i & 2u ? x1 : x0, y1 = i & 2u ? x3 : x2;
  return i & 4u ? y1 : y0;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_volta_dot requires=ptx2hip_f32_from_bits,ptx2hip_bits_from_f32,ptx2hip_cvt_h_from_f32
// ptx2hip:amd
// The f32 of f16 bits (low 16 bits; exact: v_cvt_f32_f16).
__device__ inline float ptx2hip_mma_f16_f32(uint32_t x) {
  const uint16_t u = (uint16_t)x;
  _Float16 h;
  memcpy(&h, &u, sizeof h);
  return (float)h;
}
// One output of Volta's m8n8k4 f16 as the H100 computes it (found on its recording, docs/MATRIX.md):
// IEEE f32 arithmetic, not the tensor-core model. f32 D: an fma chain over k = 0..3 from +0, then
// C added (an f16 C widened exactly); f16 D: an fma chain from C over k = 0, 1, 3, 2, rounded to
// f16 to nearest even. NaN results are NVIDIA's canonical ones. x, y: A's row and B's column as
// f32 bits (widened f16); c: raw C bits (f16 in the low 16 bits).
template <bool CF16, bool DF16>
__device__ inline uint32_t ptx2hip_mma_volta_dot(const uint32_t (&x)[4], const uint32_t (&y)[4],
                                                 uint32_t c) {
  const float cv = CF16 ? ptx2hip_mma_f16_f32(c) : ptx2hip_f32_from_bits(c);
  float a[4], b[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    a[k] = ptx2hip_f32_from_bits(x[k]);
    b[k] = ptx2hip_f32_from_bits(y[k]);
  }
  if (DF16) {
    float acc = __builtin_fmaf(a[0], b[0], cv);
    acc = __builtin_fmaf(a[1], b[1], acc);
    acc = __builtin_fmaf(a[3], b[3], acc);
    acc = __builtin_fmaf(a[2], b[2], acc);
    return ptx2hip_cvt_h_from_f32(acc, false, 0, false, false, false);
  }
  float acc = __builtin_fmaf(a[0], b[0], 0.0f);
#pragma unroll
  for (int k = 1; k < 4; ++k) acc = __builtin_fmaf(a[k], b[k], acc);
  const float d = acc + cv;
  return d != d ? 0x7fffffffu : ptx2hip_bits_from_f32(d);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mma_volta_d
// ptx2hip:amd
// The D fragment of m8n8k4 f16: 8 f32 registers, or 4 registers of two f16.
template <bool DF16>
struct ptx2hip_mma_volta_d {
  typedef float type;
  static constexpr int n = 8;
};
template <>
struct ptx2hip_mma_volta_d<true> {
  typedef uint32_t type;
  static constexpr int n = 4;
};
// ptx2hip:end

// clang-format off
// ptx2hip:helper ptx2hip_mma_volta requires=ptx2hip_vec,ptx2hip_mma_lane,ptx2hip_mma_pick,ptx2hip_mma_volta_dot,ptx2hip_mma_volta_d
// clang-format on
// ptx2hip:amd
// Volta's mma.m8n8k4 with f16 A and B (PTX ISA, Matrix fragments for mma.m8n8k4 with .f16): the
// warp computes four independent 8x8x4 products, product q in lanes 4q..4q+3 (the low half: rows
// 0-3 of A, C and D) and 16+4q..16+4q+3 (the high half: rows 4-7), lane t of a half holding its
// elements e = 2i + h as: A .row A[t][e], .col A[e][t]; B .row B[t][e], .col B[e][t] (the high
// half: + 4 to A's row, B's column); C/D f16 C[t][e] (e = 0..7), f32 register i
// C[(l & 1) + (i & 2)][(i & 4) + (l & 2) + (i & 1)]. Each lane reads the 2 A and 2 B registers
// of the 8 lanes of its product (ds_bpermute), picks the rows and columns of its own outputs and
// computes each with ptx2hip_mma_volta_dot; an f16 C under an f32 D is read from the lane that
// holds its element. ACOL: A is .col; BROW: B is .row; DF16: D is f16 (then C is too).
template <bool ACOL, bool BROW, bool DF16, typename TC, int NC>
__device__ inline ptx2hip_vec<typename ptx2hip_mma_volta_d<DF16>::type,
                              ptx2hip_mma_volta_d<DF16>::n>
ptx2hip_mma_volta(ptx2hip_vec<uint32_t, 2> a, ptx2hip_vec<uint32_t, 2> b, ptx2hip_vec<TC, NC> c) {
  typedef typename ptx2hip_mma_volta_d<DF16>::type TD;
  constexpr int ND = ptx2hip_mma_volta_d<DF16>::n;
  constexpr bool cf16 = NC == 4;
  static_assert(NC == 4 || (NC == 8 && !DF16), "not an m8n8k4 accumulator fragment");
  const uint32_t l = __lane_id() & 31u, first = l & 12u, hi = (l >> 4) * 4u;
  // wa[s][i]: register i of lane s of the product, s = 0..3 the low half's t, 4..7 the high's.
  uint32_t wa[8][2], wb[8][2];
#pragma unroll
  for (int s = 0; s < 8; ++s)
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const uint32_t src = first + (uint32_t)(s & 3) + 16u * (uint32_t)(s >> 2);
      wa[s][i] = ptx2hip_mma_lane(a.v[i], src);
      wb[s][i] = ptx2hip_mma_lane(b.v[i], src);
    }
  // The product's A by columns (at[k][r]) and B (mb[k][n]), each element widened to f32 once.
  uint32_t at[4][8], mb[4][8];
#pragma unroll
  for (int k = 0; k < 4; ++k)
#pragma unroll
    for (int x = 0; x < 8; ++x) {
      const int half = 4 * (x >> 2), sa = ACOL ? k + half : (x & 3) + half;
      const int ea = ACOL ? x & 3 : k, sb = BROW ? k + half : (x & 3) + half;
      const int eb = BROW ? x & 3 : k;
      at[k][x] = ptx2hip_bits_from_f32(ptx2hip_mma_f16_f32(wa[sa][ea >> 1] >> (16 * (ea & 1))));
      mb[k][x] = ptx2hip_bits_from_f32(ptx2hip_mma_f16_f32(wb[sb][eb >> 1] >> (16 * (eb & 1))));
    }
  uint32_t cw[NC];
#pragma unroll
  for (int i = 0; i < NC; ++i) cw[i] = __builtin_bit_cast(uint32_t, c.v[i]);
  ptx2hip_vec<TD, ND> d;
  if (!DF16) {
    // Register i: row (l & 1) + (i & 2) + hi, column (i & 4) + (l & 2) + (i & 1).
#pragma unroll
    for (int i = 0; i < ND; ++i) {
      uint32_t row[4], col[4];
      const uint32_t r = (l & 1u) + (uint32_t)(i & 2) + hi;
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        row[k] = ptx2hip_mma_pick(at[k], r);
        const int n = (i & 4) + (i & 1);
        col[k] = l & 2u ? mb[k][n + 2] : mb[k][n];
      }
      uint32_t ci = cw[i % NC];
      if (cf16) {
        // f16 C[r][n] is half n & 1 of register n >> 1 of lane r - hi of this half.
        const uint32_t src = first + (l & 16u) + (r & 3u);
        const uint32_t lo = ptx2hip_mma_lane(cw[(i & 4) >> 1], src);
        const uint32_t up = ptx2hip_mma_lane(cw[((i & 4) >> 1) + 1], src);
        ci = ((l & 2u ? up : lo) >> (16 * (i & 1))) & 0xffffu;
      }
      d.v[i] = __builtin_bit_cast(TD, ptx2hip_mma_volta_dot<cf16, false>(row, col, ci));
    }
  } else {
    // Register i: row t + hi, columns 2i (low half) and 2i + 1 (high half).
    uint32_t row[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) row[k] = ptx2hip_mma_pick(at[k], (l & 3u) + hi);
#pragma unroll
    for (int i = 0; i < ND; ++i) {
      uint32_t out[2];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        uint32_t col[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) col[k] = mb[k][2 * i + h];
        out[h] = ptx2hip_mma_volta_dot<true, true>(row, col, (cw[i % NC] >> (16 * h)) & 0xffffu);
      }
      d.v[i] = __builtin_bit_cast(TD, (out[0] & 0xffffu) | out[1] << 16);
    }
  }
  return d;
}
// ptx2hip:end
