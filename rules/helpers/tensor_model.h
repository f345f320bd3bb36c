// The block-FMA model of NVIDIA tensor cores for float mma (docs/TENSOR_MODEL.md; tensor-cores.md
// §1.2): what the exact AMD translations of mma compute, bit for bit. Checked against the Rust
// reference ptx2hip_verify::matrix::model by crates/ptx2hip-verify/tests/tensor_model.rs.
// Only `amd` sections: the portable target declines mma (nvcc runs the instruction itself).
//
// Arithmetic: every input is an exact double; a product of two inputs is exact in a double, and so
// is its scaling by 2^(nfrac - E); trunc() is the model's truncation toward zero; the truncated
// terms are integers below 2^27 (f16/bf16/tf32) at weight 2^(E - nfrac), so their sum (at most
// 33 terms) is exact in a double. IEEE double arithmetic also yields the specials the model
// wants: NaN from a NaN input, Inf x 0 or Inf - Inf, and +-Inf otherwise.

// ptx2hip:helper ptx2hip_tc_format
// ptx2hip:amd
// The element formats of A and B (the Format argument of the helpers below) and the accumulator
// types (Accum). tf32 elements are whole f32 registers, fp8 ones OCP e4m3/e5m2 codes.
enum ptx2hip_tc_format {
  ptx2hip_tc_f16,
  ptx2hip_tc_bf16,
  ptx2hip_tc_tf32,
  ptx2hip_tc_e4m3,
  ptx2hip_tc_e5m2
};
enum ptx2hip_tc_accum { ptx2hip_tc_acc_f32, ptx2hip_tc_acc_f16 };
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_choices
// ptx2hip:amd
// What the published recordings leave open (tensor-cores.md §1.2), one member per choice, the same
// as Choices in crates/ptx2hip-verify/src/matrix/model.rs (change both; docs/TENSOR_MODEL.md).
struct ptx2hip_tc_choices {
  // Zero products count in E with exponent e_min(a) + e_min(b) (false: dropped before E).
  static constexpr bool zero_products_in_e = false;
  // An exactly zero sum is -0 when every truncated term is -0 (false: +0 always).
  static constexpr bool ieee_zero_sign = false;
  // Subnormal results kept (false: flushed to a zero of the result's sign).
  static constexpr bool subnormal_outputs = true;
  // A finite sum at or above 2^(emax+1) gives Inf (false: RZ saturates at the largest finite).
  static constexpr bool overflow_to_inf = true;
  // E is raised to at least the architecture's floor (false: no floor).
  static constexpr bool align_clamp = true;
  // tf32 drops the register's low 13 bits (false: rounds them to nearest, ties away).
  static constexpr bool tf32_truncate = true;
  // fp8 with f16 accumulators rounds to e8m13 (RZ), then to f16 (false: once to f16, RNE).
  static constexpr bool fp8_f16_via_e8m13 = false;
};
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_sm90 requires=ptx2hip_tc_choices,ptx2hip_tc_format
// ptx2hip:amd
// H100/H200 (mma.sync and wgmma; fp8 as wgmma computes it: fp8 mma.sync takes another datapath,
// docs/TENSOR_MODEL.md): products per block and fraction bits kept below E per format, and the
// floor of E per accumulator type (the published model's min_exp_limit).
struct ptx2hip_tc_sm90 : ptx2hip_tc_choices {
  static constexpr int block(int format) {
    return format == ptx2hip_tc_tf32                                ? 8
           : format == ptx2hip_tc_e4m3 || format == ptx2hip_tc_e5m2 ? 32
                                                                    : 16;
  }
  static constexpr int nfrac(int format) {
    return format == ptx2hip_tc_e4m3 || format == ptx2hip_tc_e5m2 ? 13 : 25;
  }
  static constexpr int floor(int accum) { return accum == ptx2hip_tc_acc_f16 ? -21 : -133; }
};
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_sm80 requires=ptx2hip_tc_choices,ptx2hip_tc_format
// ptx2hip:amd
// A100 (and A30, A2, RTX 30): blocks of 8 (tf32 4) products with 24 fraction bits; a longer K
// chains blocks, each rounded to the accumulator type. No fp8 (block 0).
struct ptx2hip_tc_sm80 : ptx2hip_tc_choices {
  static constexpr int block(int format) {
    return format == ptx2hip_tc_tf32                                ? 4
           : format == ptx2hip_tc_e4m3 || format == ptx2hip_tc_e5m2 ? 0
                                                                    : 8;
  }
  static constexpr int nfrac(int) { return 24; }
  static constexpr int floor(int accum) { return accum == ptx2hip_tc_acc_f16 ? -20 : -132; }
};
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_elem requires=ptx2hip_f32_from_bits,ptx2hip_bits_from_f32,ptx2hip_tc_format
// ptx2hip:amd
// One element decomposed for the model: its exact value v (every element format is a subset of
// f32; +-Inf, NaN as themselves) and its exponent e = max(floor(log2 |x|), e_min of its format);
// zeros get e = -4096, far below any real exponent, so that zero products never decide E (or
// e_min under zero_products_in_e); the e of Inf and NaN does not matter (the result is special).
// Decompose each A-row and B-column element once; a product is then v_a * v_b (exact in a double,
// for f16 and fp8 already in a float), its exponent e_a + e_b.
struct ptx2hip_tc_elem {
  float v;
  int e;
};

// {v, max(exponent of v, EMIN)}, ZERO_E for a zero v.
template <int EMIN>
__device__ inline ptx2hip_tc_elem ptx2hip_tc_elem_of(float v, int zero_e) {
  int ex = (int)((ptx2hip_bits_from_f32(v) >> 23) & 0xffu) - 127;
  return {v, v == 0.0f ? zero_e : ex > EMIN ? ex : EMIN};
}

// The same element in one register, to move between lanes: the f32 bits of v, whose low 13 bits
// are zero for every element format, with e + 4096 in those bits.
__device__ inline uint32_t ptx2hip_tc_pack(ptx2hip_tc_elem x) {
  return ptx2hip_bits_from_f32(x.v) | (uint32_t)(x.e + 4096);
}

__device__ inline ptx2hip_tc_elem ptx2hip_tc_unpack(uint32_t p) {
  return {ptx2hip_f32_from_bits(p & ~0x1fffu), (int)(p & 0x1fffu) - 4096};
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_decompose requires=ptx2hip_tc_elem
// ptx2hip:amd
// The f16 value of the low 16 bits of x, exactly (the hardware conversion: v_cvt_f32_f16).
__device__ inline float ptx2hip_tc_f16_value(uint32_t x) {
  uint16_t u = (uint16_t)x;
  _Float16 h;
  memcpy(&h, &u, sizeof h);
  return (float)h;
}

// The element `bits` of format Format under Model's choices (f16, bf16: low 16 bits; fp8: low 8).
// Every format goes through a hardware conversion: bf16 and tf32 are f32 bit patterns, e5m2 is
// the top byte of an f16, e4m3 placed in an f16 is its value times 2^-8.
template <typename Model, int Format>
__device__ inline ptx2hip_tc_elem ptx2hip_tc_decompose(uint32_t bits) {
  const bool z = Model::zero_products_in_e;
  if (Format == ptx2hip_tc_f16)
    return ptx2hip_tc_elem_of<-14>(ptx2hip_tc_f16_value(bits), z ? -14 : -4096);
  if (Format == ptx2hip_tc_e5m2)
    return ptx2hip_tc_elem_of<-14>(ptx2hip_tc_f16_value(bits << 8), z ? -14 : -4096);
  if (Format == ptx2hip_tc_e4m3) {
    float v = ptx2hip_tc_f16_value((bits & 0x80u) << 8 | (bits & 0x7fu) << 7) * 256.0f;
    if ((bits & 0x7fu) == 0x7fu) v = ptx2hip_f32_from_bits(0x7fc00000u);
    return ptx2hip_tc_elem_of<-6>(v, z ? -6 : -4096);
  }
  if (Format == ptx2hip_tc_bf16)
    return ptx2hip_tc_elem_of<-126>(ptx2hip_f32_from_bits(bits << 16), z ? -126 : -4096);
  // tf32: the f32 register's top 19 bits, the low 13 dropped or rounded to nearest (ties away;
  // a NaN stays NaN).
  bool nan = (bits & 0x7fffffffu) > 0x7f800000u;
  uint32_t kept = Model::tf32_truncate ? bits : nan ? 0x7fc00000u : bits + 0x1000u;
  return ptx2hip_tc_elem_of<-126>(ptx2hip_f32_from_bits(kept & 0xffffe000u), z ? -126 : -4096);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_round requires=ptx2hip_tc_format,ptx2hip_bits_from_f64,ptx2hip_bits_from_f32,ptx2hip_f32_from_bits,ptx2hip_f64_from_bits
// ptx2hip:amd
// 2^k for -1022 <= k <= 1023.
__device__ inline double ptx2hip_tc_pow2(int k) {
  return ptx2hip_f64_from_bits((uint64_t)(k + 1023) << 52);
}

// x rounded to f32 toward zero, subnormals included: the conversion rounds to nearest, then one
// step toward zero where that went past x (Inf from x < 2^128 steps to FLT_MAX).
__device__ inline float ptx2hip_tc_rz_f32(double x) {
  float f = (float)x;
  return __builtin_fabs((double)f) > __builtin_fabs(x)
             ? ptx2hip_f32_from_bits(ptx2hip_bits_from_f32(f) - 1u)
             : f;
}

// The block sum s (an integer in a double, at weight 2^w) rounded once to the output as
// accumulator bits: f32 RZ to 24 bits, e8m13 RZ for fp8 into f32 (14 bits: the low 10 of an f32
// cleared), f16 RNE (an RZ f32 with a sticky last bit, which the f16 conversion then rounds
// correctly); NaN canonical, zeros, overflow and subnormals per Model's choices. Written without
// branches: every case is computed and selected (NaN, Inf and zero pass through the conversions).
template <typename Model, int Format, int Accum>
__device__ inline uint32_t ptx2hip_tc_round(double s, int w) {
  constexpr bool fp8 = Format == ptx2hip_tc_e4m3 || Format == ptx2hip_tc_e5m2;
  double x = s * ptx2hip_tc_pow2(w);
  float z = ptx2hip_tc_rz_f32(x);
  uint32_t zb = ptx2hip_bits_from_f32(z);
  uint32_t r;
  if (Accum == ptx2hip_tc_acc_f32) {
    r = fp8 ? zb & ~0x3ffu : zb;
    if (Model::overflow_to_inf)
      r = __builtin_fabs(x) >= 0x1p128 ? (zb & 0x80000000u) | 0x7f800000u : r;
    if (!Model::subnormal_outputs) r = (r & 0x7f800000u) == 0 ? r & 0x80000000u : r;
  } else {
    if (fp8 && Model::fp8_f16_via_e8m13) zb &= ~0x3ffu;
    else zb |= (double)z != x ? 1u : 0u;
    _Float16 h = (_Float16)ptx2hip_f32_from_bits(zb);
    uint16_t u;
    memcpy(&u, &h, sizeof u);
    r = u;
    if (!Model::subnormal_outputs) r = (r & 0x7c00u) == 0 ? r & 0x8000u : r;
  }
  // A nonzero sum that rounds (or is flushed) to zero gives +0 (the H100's wgmma).
  r = s != 0.0 && r == (Accum == ptx2hip_tc_acc_f32 ? 0x80000000u : 0x8000u) ? 0u : r;
  if (!Model::ieee_zero_sign) r = s == 0.0 ? 0u : r;
  return s != s ? (Accum == ptx2hip_tc_acc_f32 ? 0x7fffffffu : 0x7fffu) : r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_dot_terms requires=ptx2hip_tc_round,ptx2hip_tc_decompose
// ptx2hip:amd
// d = c + sum a[k] * b[k] over decomposed elements (ptx2hip_tc_decompose): blocks of
// Model::block(Format) products chained through c, each one: E = the largest exponent (the
// products' a.e + b.e, c's exponent in its own format (e_min -126, f16 -14), at least
// Model::floor), every term truncated toward zero at 2^(E - nfrac), the exact sum rounded once
// (ptx2hip_tc_round). c and the result: raw accumulator bits (f16 in the low 16 bits). Format:
// A's (for the fp8 mixes either fp8 format: B's elements carry their own decomposition).
template <typename Model, int Format, int Accum, int N>
__device__ inline uint32_t ptx2hip_tc_block(const ptx2hip_tc_elem* a, const ptx2hip_tc_elem* b,
                                            uint32_t c) {
  constexpr int nfrac = Model::nfrac(Format);
  // f16 and fp8 products are exact in a float (at most 22 bits, exponents from -48 to 32).
  constexpr bool f32_products = Format != ptx2hip_tc_bf16 && Format != ptx2hip_tc_tf32;
  float cv = Accum == ptx2hip_tc_acc_f16 ? ptx2hip_tc_f16_value(c) : ptx2hip_f32_from_bits(c);
  // c's exponent is clamped at its own format's e_min (a subnormal f16 c aligns at 2^-14).
  constexpr int c_emin = Accum == ptx2hip_tc_acc_f16 ? -14 : -126;
  ptx2hip_tc_elem cd = ptx2hip_tc_elem_of<c_emin>(cv, -4096);
  // -300 lies below every real exponent (>= 2 * -126) and keeps 2^(nfrac - E) finite.
  int e = Model::align_clamp ? Model::floor(Accum) : -300;
  e = e > cd.e ? e : cd.e;
  for (int k = 0; k < N; ++k) {
    int pe = a[k].e + b[k].e;
    e = e > pe ? e : pe;
  }
  // Inf and NaN elements may have raised E up to 2 * 128: the scale stays a power of two.
  double scale = ptx2hip_tc_pow2(nfrac - e);
  double s = __builtin_trunc((double)cv * scale);
  for (int k = 0; k < N; ++k) {
    double p = f32_products ? (double)(a[k].v * b[k].v) : (double)a[k].v * (double)b[k].v;
    s += __builtin_trunc(p * scale);
  }
  return ptx2hip_tc_round<Model, Format, Accum>(s, e - nfrac);
}

template <typename Model, int Format, int Accum, int K>
__device__ inline uint32_t ptx2hip_tc_dot_terms(const ptx2hip_tc_elem (&a)[K],
                                                const ptx2hip_tc_elem (&b)[K], uint32_t c) {
  constexpr int B = Model::block(Format);
  static_assert(B > 0, "this architecture has no tensor-core path for the format");
  constexpr int N = B < K ? B : K;
  for (int k = 0; k < K; k += N) c = ptx2hip_tc_block<Model, Format, Accum, N>(a + k, b + k, c);
  return c;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_u16x2
// ptx2hip:amd
// Two 16-bit lanes of a register: their unsigned maximum and logical right shift, lane by lane
// (v_pk_max_u16 and v_pk_lshrrev_b16 on AMD).
typedef uint16_t ptx2hip_tc_u16x2 __attribute__((vector_size(4)));
__device__ inline uint32_t ptx2hip_tc_max_u16x2(uint32_t a, uint32_t b) {
  const ptx2hip_tc_u16x2 x = __builtin_bit_cast(ptx2hip_tc_u16x2, a);
  const ptx2hip_tc_u16x2 y = __builtin_bit_cast(ptx2hip_tc_u16x2, b);
  return __builtin_bit_cast(uint32_t, x > y ? x : y);
}
template <int S>
__device__ inline uint32_t ptx2hip_tc_shr_u16x2(uint32_t a) {
  return __builtin_bit_cast(uint32_t, __builtin_bit_cast(ptx2hip_tc_u16x2, a) >> S);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_dot_x2 requires=ptx2hip_tc_round,ptx2hip_tc_decompose,ptx2hip_tc_u16x2
// ptx2hip:amd
// The f16 and bf16 dots as fragment registers hold them, two elements a register (k even in the
// low half), so that the work per element is done on register pairs: ptx2hip_tc_x2_e gives both
// exponents of a register with 16-bit lane operations, the products read the halves directly,
// and no element is ever decomposed into a float and an int. Same model as ptx2hip_tc_block.
// Bits of the exponent field's lowest bit in a 16-bit element (f16 10, bf16 7) and the offset of
// ptx2hip_tc_x2_e (g = e + G0 for a nonzero element: the bias plus bit 15 shifted down).
constexpr int ptx2hip_tc_x2_shift(int format) { return format == ptx2hip_tc_f16 ? 10 : 7; }
constexpr int ptx2hip_tc_x2_g0(int format) {
  return format == ptx2hip_tc_f16 ? 15 + (1 << 5) : 127 + (1 << 8);
}

// Each half of x (an f16 or a bf16) as g = e + G0 for a nonzero element, e its model exponent
// (max(exponent, e_min); Inf and NaN as the largest exponent plus one), and 1 for a zero (e_min
// + G0 under zero_products_in_e). The sum of two is e_a + e_b + 2 G0 >= 2 (G0 + e_min) where
// both are nonzero (66 f16, 514 bf16) and at most 2 less where one is zero (f16 1 + 63, bf16
// 1 + 511): a block takes its E from the larger sums only, as the model ignores zero products
// (a zero times an Inf or NaN gives a NaN, whatever E). Bit 15 of (h & 0x7fff) + 0x7fff is set
// exactly when the half is nonzero (no carry between halves).
template <int Format, bool ZERO_IN_E>
__device__ inline uint32_t ptx2hip_tc_x2_e(uint32_t x) {
  constexpr int S = ptx2hip_tc_x2_shift(Format);
  const uint32_t m = x & 0x7fff7fffu;
  const uint32_t v = ptx2hip_tc_max_u16x2(m, (1u << S) * 0x10001u);
  const uint32_t nonzero = ZERO_IN_E ? 0x80008000u : (m + 0x7fff7fffu) & 0x80008000u;
  return ptx2hip_tc_shr_u16x2<S>(v | nonzero);
}

// The low and the high element of x as exact floats.
template <int Format>
__device__ inline float ptx2hip_tc_x2_lo(uint32_t x) {
  return Format == ptx2hip_tc_f16 ? ptx2hip_tc_f16_value(x) : ptx2hip_f32_from_bits(x << 16);
}
template <int Format>
__device__ inline float ptx2hip_tc_x2_hi(uint32_t x) {
  return Format == ptx2hip_tc_f16 ? ptx2hip_tc_f16_value(x >> 16)
                                  : ptx2hip_f32_from_bits(x & 0xffff0000u);
}

// One block of 2W products for each of R x J outputs (ptx2hip_tc_block for f16 and bf16), output
// (r, j) the dot of a[r] and b[j] (W element pairs each; ga, gb their ptx2hip_tc_x2_e) plus c[r][j]
// (raw accumulator bits, replaced by the result). The outputs share their operands: the products
// go k pair by k pair over all outputs, so that an element converted for one is used by the others
// right away (bf16 products are doubles: kept across outputs, 64 of them spilled on gfx942).
template <typename Model, int Format, int Accum, int W, int R, int J>
__device__ inline void ptx2hip_tc_block_x2(const uint32_t* const (&a)[R],
                                           const uint32_t* const (&ga)[R],
                                           const uint32_t* const (&b)[J],
                                           const uint32_t* const (&gb)[J], uint32_t (&c)[R][J]) {
  constexpr int nfrac = Model::nfrac(Format), g0 = ptx2hip_tc_x2_g0(Format);
  constexpr int c_emin = Accum == ptx2hip_tc_acc_f16 ? -14 : -126;
  constexpr int valid = 2 * (g0 + (Format == ptx2hip_tc_f16 ? -14 : -126));
  int e[R][J];
  double scale[R][J], s[R][J];
  uint32_t tb = 0;
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < J; ++j) {
      float cv = Accum == ptx2hip_tc_acc_f16 ? ptx2hip_tc_f16_value(c[r][j])
                                             : ptx2hip_f32_from_bits(c[r][j]);
      // The largest sum of each half (at most 2 (G0 + 1 + the largest exponent) < 2^16: the
      // halves never carry into each other).
      tb = 0;
      for (int w = 0; w < W; ++w) tb = ptx2hip_tc_max_u16x2(tb, ga[r][w] + gb[j][w]);
      const int g = (int)((tb & 0xffffu) > (tb >> 16) ? tb & 0xffffu : tb >> 16);
      // -300 lies below every real exponent (>= 2 * -126) and keeps 2^(nfrac - E) finite.
      int x = Model::align_clamp ? Model::floor(Accum) : -300;
      const int ce = ptx2hip_tc_elem_of<c_emin>(cv, -4096).e;
      x = x > ce ? x : ce;
      e[r][j] = g >= valid && g - 2 * g0 > x ? g - 2 * g0 : x;
      scale[r][j] = ptx2hip_tc_pow2(nfrac - e[r][j]);
      s[r][j] = __builtin_trunc((double)cv * scale[r][j]);
    }
  // f16: fma(a, b, -0) is the exact product (-0 leaves every sum, zeros included, as it is); an
  // addend the compiler cannot fold (tb's bits are a small finite float) makes it one
  // v_fma_mix_f32 that reads both f16 halves in place. bf16: exact in a double.
  const float z = ptx2hip_f32_from_bits(tb) * -0.0f;
  for (int w = 0; w < W; ++w)
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < J; ++j) {
        const float al = ptx2hip_tc_x2_lo<Format>(a[r][w]), bl = ptx2hip_tc_x2_lo<Format>(b[j][w]);
        const float ah = ptx2hip_tc_x2_hi<Format>(a[r][w]), bh = ptx2hip_tc_x2_hi<Format>(b[j][w]);
        const double lo =
            Format == ptx2hip_tc_f16 ? (double)__builtin_fmaf(al, bl, z) : (double)al * (double)bl;
        const double hi =
            Format == ptx2hip_tc_f16 ? (double)__builtin_fmaf(ah, bh, z) : (double)ah * (double)bh;
        s[r][j] += __builtin_trunc(lo * scale[r][j]);
        s[r][j] += __builtin_trunc(hi * scale[r][j]);
      }
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < J; ++j)
      c[r][j] = ptx2hip_tc_round<Model, Format, Accum>(s[r][j], e[r][j] - nfrac);
}

// c[r][j] += the dot of the 2W elements of a[r] and b[j] (f16 or bf16 pairs; ga, gb: their
// ptx2hip_tc_x2_e), in blocks of Model::block(Format) products chained through c.
template <typename Model, int Format, int Accum, int W, int R, int J>
__device__ inline void ptx2hip_tc_dot_x2(const uint32_t (&a)[R][W], const uint32_t (&ga)[R][W],
                                         const uint32_t (&b)[J][W], const uint32_t (&gb)[J][W],
                                         uint32_t (&c)[R][J]) {
  constexpr int B = Model::block(Format) / 2, N = B < W ? B : W;
  for (int w = 0; w < W; w += N) {
    const uint32_t *pa[R], *pga[R], *pb[J], *pgb[J];
    for (int r = 0; r < R; ++r) pa[r] = a[r] + w, pga[r] = ga[r] + w;
    for (int j = 0; j < J; ++j) pb[j] = b[j] + w, pgb[j] = gb[j] + w;
    ptx2hip_tc_block_x2<Model, Format, Accum, N, R, J>(pa, pga, pb, pgb, c);
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_dot requires=ptx2hip_tc_dot_terms,ptx2hip_tc_dot_x2
// ptx2hip:amd
// One output element d = c + sum a[k] * b[k] of an mma whose K is K (products per output element),
// as Model's tensor cores compute it; a, b: raw element bits, c and the result: raw accumulator
// bits; FormatB: B's format where it differs (the fp8 mixes .e4m3.e5m2, .e5m2.e4m3). The
// reference form; fragment code decomposes each element once (ptx2hip_tc_dot_terms), f16 and
// bf16 work on register pairs (ptx2hip_tc_dot_x2, which they go through here too).
template <typename Model, int Format, int Accum, int K, int FormatB = Format>
__device__ inline uint32_t ptx2hip_tc_dot(const uint32_t (&a)[K], const uint32_t (&b)[K],
                                          uint32_t c) {
  if ((Format == ptx2hip_tc_f16 || Format == ptx2hip_tc_bf16) && K % 2 == 0) {
    constexpr int W = K / 2 > 0 ? K / 2 : 1;
    uint32_t a2[1][W], b2[1][W], ga[1][W], gb[1][W], d[1][1] = {{c}};
    for (int w = 0; w < W; ++w) {
      a2[0][w] = (a[2 * w] & 0xffffu) | a[2 * w + 1] << 16;
      b2[0][w] = (b[2 * w] & 0xffffu) | b[2 * w + 1] << 16;
      ga[0][w] = ptx2hip_tc_x2_e<Format, Model::zero_products_in_e>(a2[0][w]);
      gb[0][w] = ptx2hip_tc_x2_e<Format, Model::zero_products_in_e>(b2[0][w]);
    }
    ptx2hip_tc_dot_x2<Model, Format, Accum, W, 1, 1>(a2, ga, b2, gb, d);
    return d[0][0];
  }
  ptx2hip_tc_elem da[K], db[K];
  for (int k = 0; k < K; ++k) {
    da[k] = ptx2hip_tc_decompose<Model, Format>(a[k]);
    db[k] = ptx2hip_tc_decompose<Model, FormatB>(b[k]);
  }
  return ptx2hip_tc_dot_terms<Model, Format, Accum, K>(da, db, c);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_fp8_sync requires=ptx2hip_tc_dot_terms,ptx2hip_tc_sm90
// ptx2hip:amd
// fp8 mma.sync as the H100 computes it (docs/TENSOR_MODEL.md, "fp8 mma.sync"; the Rust reference
// is model::dot_fp8_sync, which reproduces every element of its recording). It is not wgmma's fp8
// path (ptx2hip_tc_sm90's e8m13 blocks of 32) but f16 arithmetic: each fp8 element converted to
// f16, the products of k mod 4 in {0, 1} (the low two bytes of each register) one sm_90 f16 block
// from c = +0, those of k mod 4 in {2, 3} a second block from the first one's rounded result, and
// C added last by an IEEE adder of the accumulator type. Every architecture takes this path: fp8
// mma needs sm_89 or later, so no A100 (sm_80) code has it.

// An fp8 element (the low 8 bits of `bits`, format F: ptx2hip_tc_e4m3 or ptx2hip_tc_e5m2)
// decomposed as the f16 value it converts to exactly: an e4m3 subnormal is a normal f16, so its
// exponent is its own, not e4m3's e_min (as ptx2hip_tc_decompose<Model, e4m3> would give).
template <int F>
__device__ inline ptx2hip_tc_elem ptx2hip_tc_fp8_elem(uint32_t bits) {
  bits &= 0xffu;
  if (F == ptx2hip_tc_e5m2) return ptx2hip_tc_decompose<ptx2hip_tc_sm90, ptx2hip_tc_f16>(bits << 8);
  // e4m3 placed in an f16 (bias 15 for 7) is its value times 2^-8, subnormals included.
  float v = ptx2hip_tc_f16_value((bits & 0x80u) << 8 | (bits & 0x7fu) << 7) * 256.0f;
  if ((bits & 0x7fu) == 0x7fu) v = ptx2hip_f32_from_bits(0x7fc00000u);
  return ptx2hip_tc_elem_of<-14>(v, -4096);
}

// x + c (accumulator bits) as an IEEE adder of the accumulator type computes it: round to nearest
// even, subnormals kept, +0 + -0 = +0, Inf - Inf and any NaN give the canonical NaN. f32: one
// v_add_f32 (denormals kept, as the helpers assume throughout). f16: the f32 sum of the two f16
// values (v_add_f32) converted to f16 (v_cvt_f16_f32, round to nearest even): rounding twice is
// harmless for a sum when the wider format has at least 2p + 2 bits (Figueroa, "When is double
// rounding innocuous?", 1995: 24 >= 2 * 11 + 2), and the f32 sum of f16 values is never subnormal.
template <int Accum>
__device__ inline uint32_t ptx2hip_tc_add_ieee(uint32_t x, uint32_t c) {
  if (Accum == ptx2hip_tc_acc_f32) {
    float s = ptx2hip_f32_from_bits(x) + ptx2hip_f32_from_bits(c);
    return s != s ? 0x7fffffffu : ptx2hip_bits_from_f32(s);
  }
  float s = ptx2hip_tc_f16_value(x) + ptx2hip_tc_f16_value(c);
  _Float16 h = (_Float16)s;
  uint16_t u;
  memcpy(&u, &h, sizeof u);
  return s != s ? 0x7fffu : u;
}

// One output element: a[0], b[0] the elements of k mod 4 in {0, 1} in k order, a[1], b[1] those of
// k mod 4 in {2, 3} (ptx2hip_tc_fp8_elem); H = K / 2 products per block; c and the result: raw
// accumulator bits (f16 in the low 16 bits).
template <int Accum, int H>
__device__ inline uint32_t ptx2hip_tc_fp8_sync(const ptx2hip_tc_elem (&a)[2][H],
                                               const ptx2hip_tc_elem (&b)[2][H], uint32_t c) {
  uint32_t s = ptx2hip_tc_block<ptx2hip_tc_sm90, ptx2hip_tc_f16, Accum, H>(a[0], b[0], 0u);
  s = ptx2hip_tc_block<ptx2hip_tc_sm90, ptx2hip_tc_f16, Accum, H>(a[1], b[1], s);
  return ptx2hip_tc_add_ieee<Accum>(s, c);
}
// ptx2hip:end
