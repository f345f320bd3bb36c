// Helpers of rules/warpgroup.toml: wgmma.mma_async (Hopper's warpgroup matrix multiply) on AMD,
// computed at once, lane by lane, in NVIDIA's register layout.
//
// A warpgroup is 4 consecutive PTX warps (linear thread ids 128q ... 128q + 127): four wave32, or
// the two halves of two wave64. Warp w of the warpgroup holds rows 16w ... 16w + 15 of the 64 x N
// result D in the layout of mma.sync's m16n8 accumulators, repeated every 8 columns: lane l (g =
// l >> 2, t = l & 3) owns D[16w + g + 8r][8j + 2t + c] (r, c = 0, 1; column block j = 0 ... N/8 -
// 1), in register 4j + 2r + c of an f32 or s32 accumulator, or in half c (low first) of register
// 2j + r of an f16 one. Each lane reads the two A rows and the N/4 B columns its outputs need
// straight from LDS through the matrix descriptors (or its A rows from its own quad when A is in
// registers) and computes its outputs with the sm_90 tensor-core model (tensor_model.h): no lane
// waits for another, so a form whose A and B are descriptors needs no convergence at all.
//
// The compute helpers share one call shape, which a --fast tier can take with a `_fast` suffix:
// (d, a, b, scale_d, scale_a, scale_b[, trans_a, trans_b]) -> d, a being the A descriptor
// (uint64_t) or A's 4 registers (ptx2hip_vec<uint32_t, 4>).

// ---- Where things are --------------------------------------------------------------------------

// ptx2hip:helper ptx2hip_wgmma_lane requires=ptx2hip_warpid
// ptx2hip:amd
// This lane's place in its warpgroup: its warp w (0 ... 3) and, in that warp, g = l >> 2 and
// t = l & 3. Independent of the wave size: on wave64 each half of a wave is one PTX warp.
struct ptx2hip_wgmma_lane {
  uint32_t w, g, t;
};
__device__ inline ptx2hip_wgmma_lane ptx2hip_wgmma_lane_of() {
  const uint32_t l = __lane_id() & 31u;
  return {ptx2hip_warpid() & 3u, l >> 2, l & 3u};
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_wgmma_addr
// ptx2hip:amd
// The LDS offset of byte kb (0 ... 31) along K of row r of a wgmma operand (A: row m, 0 ... 63;
// B: column n, 0 ... N - 1) that the 64-bit matrix descriptor desc describes. The whole layout of
// the descriptor is here, as the H100 recordings fixed it (docs/WGMMA.md, "The matrix
// descriptor"; every layout case and address probe):
// - bits 0-13: the start address, an LDS offset (the shared window address) in units of 16 bytes;
//   bits 16-29 and 32-45: the leading and stride dimension byte offsets LBO and SBO, likewise;
//   bits 49-51: the base offset, subtracted from the row bits the swizzle takes; bits 62-63: the
//   swizzle mode (0 none, 1 128B, 2 64B, 3 32B), here S = 0, 1, 2, 3 for none, 32B, 64B, 128B and
//   W = 16 << S bytes, the width of a swizzled row.
// - K-major (mn_major false: A row-major, B column-major): rows in groups of 8, the next group SBO
//   further; without swizzle a group is core matrices of 8 rows x 16 bytes, the next 16 bytes of
//   K LBO further; swizzled, each row is W bytes and K runs along it.
// - MN-major (imm-trans 1, 16-bit elements, k = kb / 2): without swizzle element (r, k) is at
//   (r mod 8) * 2 + (r / 8) * SBO + (k mod 8) * 16 + (k / 8) * LBO; swizzled, a row of W bytes
//   holds 8 << S consecutive r, the next such run LBO further, rows k mod 8 W apart, the next 8
//   values of k SBO further.
// The swizzle XORs bits 4 ... 3 + S of the address with bits 7 ... 6 + S less the base offset:
// a ^ ((((a >> 7) - base) mod 2^S) << 4), 16-byte chunks moving whole (CUTLASS's Swizzle<S, 4,
// 3> for base 0; a pattern that starts b rows into its atom reads unshifted with base b).
__device__ inline uint32_t ptx2hip_wgmma_addr(uint64_t desc, bool mn_major, uint32_t r,
                                              uint32_t kb) {
  const uint32_t start = (uint32_t)(desc & 0x3fffu) << 4;
  const uint32_t lbo = (uint32_t)((desc >> 16) & 0x3fffu) << 4;
  const uint32_t sbo = (uint32_t)((desc >> 32) & 0x3fffu) << 4;
  const uint32_t base = (uint32_t)(desc >> 49) & 7u, mode = (uint32_t)(desc >> 62);
  const uint32_t s = mode == 0 ? 0 : 4 - mode, w = 16u << s;
  uint32_t off;
  if (!mn_major) {
    off = s == 0 ? (r % 8) * 16 + (r / 8) * sbo + (kb / 16) * lbo + kb % 16
                 : (r % 8) * w + (r / 8) * sbo + kb;
  } else {
    const uint32_t k = kb / 2, run = 8u << s;
    off = s == 0 ? (r % 8) * 2 + (r / 8) * sbo + (k % 8) * 16 + (k / 8) * lbo
                 : (r % run) * 2 + (r / run) * lbo + (k % 8) * w + (k / 8) * sbo;
  }
  const uint32_t a = start + off;
  return a ^ ((((a >> 7) - base) & ((1u << s) - 1u)) << 4);
}
// ptx2hip:end

// ---- Operands from LDS -----------------------------------------------------------------------

// ptx2hip:helper ptx2hip_wgmma_row requires=ptx2hip_wgmma_addr,ptx2hip_lds_load_u16,ptx2hip_lds_load_u32x4
// ptx2hip:amd
// Row r of a descriptor operand, its 32 bytes of K as 8 words in K order (16-bit elements two a
// word, the lower k in the low half: the register format of fragments). K-major: two 16-byte
// reads (ds_read_b128: each 16-byte chunk stays whole and 16-byte aligned in every layout);
// MN-major: 16 element reads.
__device__ inline void ptx2hip_wgmma_row(uint64_t desc, bool mn_major, uint32_t r,
                                         uint32_t (&w)[8]) {
  if (!mn_major) {
    ptx2hip_lds_load_u32x4(ptx2hip_wgmma_addr(desc, false, r, 0), w);
    ptx2hip_lds_load_u32x4(ptx2hip_wgmma_addr(desc, false, r, 16), w + 4);
    return;
  }
  for (uint32_t i = 0; i < 8; ++i)
    w[i] = ptx2hip_lds_load_u16(ptx2hip_wgmma_addr(desc, true, r, 4u * i)) |
           ptx2hip_lds_load_u16(ptx2hip_wgmma_addr(desc, true, r, 4u * i + 2u)) << 16;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_wgmma_rows2 requires=ptx2hip_wgmma_row,ptx2hip_lds_load_u32
// ptx2hip:amd
// Rows r and r + 1 (r even) of a descriptor operand: a lane's two B columns 8j + 2t and 8j + 2t
// + 1. MN-major, the two elements of one k are adjacent: one 32-bit read per k, split into the
// two rows' words.
__device__ inline void ptx2hip_wgmma_rows2(uint64_t desc, bool mn_major, uint32_t r,
                                           uint32_t (&w)[2][8]) {
  if (!mn_major) {
    ptx2hip_wgmma_row(desc, false, r, w[0]);
    ptx2hip_wgmma_row(desc, false, r + 1u, w[1]);
    return;
  }
  for (uint32_t i = 0; i < 8; ++i) {
    const uint32_t even = ptx2hip_lds_load_u32(ptx2hip_wgmma_addr(desc, true, r, 4u * i));
    const uint32_t odd = ptx2hip_lds_load_u32(ptx2hip_wgmma_addr(desc, true, r, 4u * i + 2u));
    w[0][i] = (even & 0xffffu) | odd << 16;
    w[1][i] = even >> 16 | (odd & 0xffff0000u);
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_wgmma_a requires=ptx2hip_vec,ptx2hip_wgmma_lane,ptx2hip_wgmma_row,ptx2hip_mma_rows
// ptx2hip:amd
// The A rows this lane's outputs need, 16w + g and 16w + g + 8, as 8 words of K each: from LDS
// through the descriptor (trans: MN-major), or, A in registers, from the 4 lanes of the lane's
// quad (in each warp A's registers are mma.sync's m16n8k16 / k8 / k32 A fragment:
// ptx2hip_mma_rows, DPP moves that read every lane of the quad).
__device__ inline void ptx2hip_wgmma_a(uint64_t desc, bool trans, ptx2hip_wgmma_lane at,
                                       uint32_t (&row)[2][8]) {
  ptx2hip_wgmma_row(desc, trans, 16u * at.w + at.g, row[0]);
  ptx2hip_wgmma_row(desc, trans, 16u * at.w + at.g + 8u, row[1]);
}
__device__ inline void ptx2hip_wgmma_a(ptx2hip_vec<uint32_t, 4> a, bool, ptx2hip_wgmma_lane,
                                       uint32_t (&row)[2][8]) {
  ptx2hip_mma_rows(a.v, row);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_wgmma_negate
// ptx2hip:amd
// imm-scale-a/b: -1 negates every element of A or B (the sign bits SIGNS of each word flipped);
// 1 leaves it (ptxas allows no other value).
template <int R>
__device__ inline void ptx2hip_wgmma_negate(uint32_t (&x)[R][8], int32_t scale, uint32_t signs) {
  const uint32_t m = scale < 0 ? signs : 0u;
  for (int r = 0; r < R; ++r)
    for (int w = 0; w < 8; ++w) x[r][w] ^= m;
}
// ptx2hip:end

// ---- Accumulators --------------------------------------------------------------------------

// ptx2hip:helper ptx2hip_wgmma_each requires=ptx2hip_vec
// ptx2hip:amd
// Runs block(j, c) for every column block j = 0 ... N/8 - 1 of the accumulator fragment d (N/2
// registers, F16: N/4), c[r][x] holding the accumulator bits of D[16w + g + 8r][8j + 2t + x]
// (+0 when scale_d is false: D = A x B) and receiving the block's results. f32 / s32: register
// 4j + 2r + x; f16 (F16): half x of register 2j + r.
//
// The accumulators stay in registers, and the code is not N/8 copies of the block's (32 for
// N = 256: 22,000 instructions and 44 s of compilation per form on gfx942, measured): a loop
// that is not unrolled computes U blocks (at most UMAX: 4, 2 or 1, dividing N/8) at fixed
// registers, the first U blocks of the fragment, then rotates the fragment by U blocks, so that
// every register index is a constant (an index that depends on the loop variable would put the
// fragment in scratch memory). After N/8 blocks the fragment is in its order again. The rotation
// is N/2 (f16: N/4) register moves per U blocks.
template <bool F16, int UMAX, typename T, int ND, typename Block>
__device__ inline void ptx2hip_wgmma_each(ptx2hip_vec<T, ND>& d, bool scale_d, Block block) {
  constexpr int J = F16 ? ND / 2 : ND / 4;
  constexpr int U = UMAX >= 4 && J % 4 == 0 ? 4 : UMAX >= 2 && J % 2 == 0 ? 2 : 1;
  constexpr int P = F16 ? 2 : 4;  // registers per block
#pragma clang loop unroll(disable)
  for (int j = 0; j < J; j += U) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      uint32_t c[2][2];
      for (int r = 0; r < 2; ++r)
        for (int x = 0; x < 2; ++x) {
          const uint32_t v = __builtin_bit_cast(uint32_t, d.v[F16 ? P * u + r : P * u + 2 * r + x]);
          c[r][x] = !scale_d ? 0u : !F16 ? v : x ? v >> 16 : v & 0xffffu;
        }
      block((uint32_t)(j + u), c);
      for (int r = 0; r < 2; ++r) {
        if (F16) {
          d.v[P * u + r] = __builtin_bit_cast(T, (c[r][0] & 0xffffu) | c[r][1] << 16);
        } else {
          for (int x = 0; x < 2; ++x) d.v[P * u + 2 * r + x] = __builtin_bit_cast(T, c[r][x]);
        }
      }
    }
    T done[U * P];
    for (int i = 0; i < U * P; ++i) done[i] = d.v[i];
    for (int i = 0; i + U * P < ND; ++i) d.v[i] = d.v[i + U * P];
    for (int i = 0; i < U * P; ++i) d.v[ND - U * P + i] = done[i];
  }
}
// ptx2hip:end

// ---- The forms ---------------------------------------------------------------------------------

// clang-format off
// ptx2hip:helper ptx2hip_wgmma_x2 requires=ptx2hip_wgmma_a,ptx2hip_wgmma_rows2,ptx2hip_wgmma_negate,ptx2hip_wgmma_each,ptx2hip_tc_sm90,ptx2hip_tc_dot_x2
// clang-format on
// ptx2hip:amd
// wgmma with f16 or bf16 A and B (F), f32 or f16 accumulators (Accum): D = A x B + (scale_d ? D :
// 0), as the H100's tensor cores compute it (ptx2hip_tc_sm90: one block of 16 products and C).
// Each lane's two A rows stay as fragment words with both exponents of each word
// (ptx2hip_tc_x2_e); per column block its two B columns are read, and its 4 outputs are one
// ptx2hip_tc_dot_x2: the m16n8k16 lane's work of mma.sync, N / 8 times.
template <int F, int Accum, typename T, int ND, typename A>
__device__ inline ptx2hip_vec<T, ND> ptx2hip_wgmma_x2(ptx2hip_vec<T, ND> d, A a, uint64_t b,
                                                      bool scale_d, int32_t scale_a,
                                                      int32_t scale_b, int32_t trans_a,
                                                      int32_t trans_b) {
  typedef ptx2hip_tc_sm90 Model;
  constexpr bool z = Model::zero_products_in_e;
  const ptx2hip_wgmma_lane at = ptx2hip_wgmma_lane_of();
  uint32_t row[2][8], grow[2][8];
  ptx2hip_wgmma_a(a, trans_a != 0, at, row);
  ptx2hip_wgmma_negate(row, scale_a, 0x80008000u);
  for (int r = 0; r < 2; ++r)
    for (int w = 0; w < 8; ++w) grow[r][w] = ptx2hip_tc_x2_e<F, z>(row[r][w]);
  ptx2hip_wgmma_each<Accum == ptx2hip_tc_acc_f16, 4>(
      d, scale_d, [&](uint32_t j, uint32_t(&c)[2][2]) {
        uint32_t col[2][8], gcol[2][8];
        ptx2hip_wgmma_rows2(b, trans_b != 0, 8u * j + 2u * at.t, col);
        ptx2hip_wgmma_negate(col, scale_b, 0x80008000u);
        for (int x = 0; x < 2; ++x)
          for (int w = 0; w < 8; ++w) gcol[x][w] = ptx2hip_tc_x2_e<F, z>(col[x][w]);
        ptx2hip_tc_dot_x2<Model, F, Accum, 8, 2, 2>(row, grow, col, gcol, c);
      });
  return d;
}
// ptx2hip:end

// clang-format off
// ptx2hip:helper ptx2hip_wgmma_terms requires=ptx2hip_wgmma_a,ptx2hip_wgmma_rows2,ptx2hip_wgmma_negate,ptx2hip_wgmma_each,ptx2hip_tc_sm90,ptx2hip_tc_dot_terms
// clang-format on
// ptx2hip:amd
// wgmma with tf32 (FA = FB = ptx2hip_tc_tf32, k8) or fp8 (e4m3 / e5m2 each, k32) A and B, f32
// or (fp8) f16 accumulators: D = A x B + (scale_d ? D : 0) as the H100's tensor cores compute it
// (ptx2hip_tc_sm90: tf32 one block of 8 products; fp8 one block of 32 with 13 fraction bits,
// rounded to e8m13 into f32 or to nearest into f16). Every element of the lane's two A rows is
// decomposed once, those of its two B columns once per column block, and each output is one
// ptx2hip_tc_dot_terms. Elements are whole words (tf32) or bytes (fp8), in K order.
template <int FA, int FB, int Accum, typename T, int ND, typename A>
__device__ inline ptx2hip_vec<T, ND> ptx2hip_wgmma_terms(ptx2hip_vec<T, ND> d, A a, uint64_t b,
                                                         bool scale_d, int32_t scale_a,
                                                         int32_t scale_b) {
  typedef ptx2hip_tc_sm90 Model;
  constexpr bool tf32 = FA == ptx2hip_tc_tf32;
  constexpr int P = tf32 ? 1 : 4, K = 8 * P, BITS = 32 / P;
  constexpr int U = tf32 ? 4 : 1;  // column blocks per loop iteration: fp8 blocks are large
  constexpr uint32_t mask = tf32 ? 0xffffffffu : 0xffu, signs = tf32 ? 0x80000000u : 0x80808080u;
  const ptx2hip_wgmma_lane at = ptx2hip_wgmma_lane_of();
  uint32_t row[2][8];
  ptx2hip_wgmma_a(a, false, at, row);
  ptx2hip_wgmma_negate(row, scale_a, signs);
  ptx2hip_tc_elem ea[2][K];
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < K; ++k)
      ea[r][k] = ptx2hip_tc_decompose<Model, FA>((row[r][k / P] >> (BITS * (k % P))) & mask);
  ptx2hip_wgmma_each<Accum == ptx2hip_tc_acc_f16, U>(
      d, scale_d, [&](uint32_t j, uint32_t(&c)[2][2]) {
        uint32_t col[2][8];
        ptx2hip_wgmma_rows2(b, false, 8u * j + 2u * at.t, col);
        ptx2hip_wgmma_negate(col, scale_b, signs);
        ptx2hip_tc_elem eb[2][K];
        for (int x = 0; x < 2; ++x)
          for (int k = 0; k < K; ++k)
            eb[x][k] = ptx2hip_tc_decompose<Model, FB>((col[x][k / P] >> (BITS * (k % P))) & mask);
        for (int r = 0; r < 2; ++r)
          for (int x = 0; x < 2; ++x)
            c[r][x] = ptx2hip_tc_dot_terms<Model, FA, Accum, K>(ea[r], eb[x], c[r][x]);
      });
  return d;
}
// ptx2hip:end

// clang-format off
// ptx2hip:helper ptx2hip_wgmma_int requires=ptx2hip_wgmma_a,ptx2hip_wgmma_rows2,ptx2hip_wgmma_each,ptx2hip_mma_dot4
// clang-format on
// ptx2hip:amd
// wgmma with s8 / u8 A and B (SA, SB: signed), s32 accumulators: D = A x B + (scale_d ? D : 0),
// exactly: the 32 byte products of an output sum exactly in 32 bits (< 2^21, ptx2hip_mma_dot4 per
// word), then D is added modulo 2^32, or with .satfinite (SAT) exactly and clamped to [INT32_MIN,
// INT32_MAX] (as mma.sync's integer forms).
template <bool SA, bool SB, bool SAT, int ND, typename A>
__device__ inline ptx2hip_vec<int32_t, ND> ptx2hip_wgmma_int(ptx2hip_vec<int32_t, ND> d, A a,
                                                             uint64_t b, bool scale_d) {
  const ptx2hip_wgmma_lane at = ptx2hip_wgmma_lane_of();
  uint32_t row[2][8];
  ptx2hip_wgmma_a(a, false, at, row);
  ptx2hip_wgmma_each<false, 4>(d, scale_d, [&](uint32_t j, uint32_t(&c)[2][2]) {
    uint32_t col[2][8];
    ptx2hip_wgmma_rows2(b, false, 8u * j + 2u * at.t, col);
    for (int r = 0; r < 2; ++r)
      for (int x = 0; x < 2; ++x) {
        uint32_t s = 0;
        for (int w = 0; w < 8; ++w) s = ptx2hip_mma_dot4<SA, SB>(row[r][w], col[x][w], s);
        if (SAT) {
          const int64_t v = (int64_t)(int32_t)c[r][x] + (int64_t)(int32_t)s;
          c[r][x] = (uint32_t)(int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
        } else {
          c[r][x] += s;
        }
      }
  });
  return d;
}
// ptx2hip:end
