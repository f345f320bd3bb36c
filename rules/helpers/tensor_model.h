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
// H100/H200 (mma.sync and wgmma): products per block and fraction bits kept below E per format,
// and the floor of E per accumulator type (the published model's min_exp_limit).
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

// ptx2hip:helper ptx2hip_tc_elem requires=ptx2hip_f64_from_bits,ptx2hip_tc_format
// ptx2hip:amd
// One element decomposed for the model: its exact value v (+-Inf, NaN as themselves) and its
// exponent e = max(floor(log2 |x|), e_min of the format); zeros and specials get e = -4096, far
// below any real exponent, so that they never decide E (zero_products_in_e: zeros get e_min).
// Decompose each A-row and B-column element once; every product is then a.v * b.v, exponent
// a.e + b.e.
struct ptx2hip_tc_elem {
  double v;
  int e;
};

// 2^k for -1022 <= k <= 1023.
__device__ inline double ptx2hip_tc_pow2(int k) {
  return ptx2hip_f64_from_bits((uint64_t)(k + 1023) << 52);
}

// A binary format with EB exponent and FB fraction bits; INF: the all-ones exponent holds
// Inf/NaN (otherwise only all ones is NaN: e4m3). ZERO_E: the exponent given to zeros.
template <int EB, int FB, bool INF>
__device__ inline ptx2hip_tc_elem ptx2hip_tc_decode(uint32_t x, int zero_e) {
  const int bias = (1 << (EB - 1)) - 1;
  const uint32_t top = (1u << EB) - 1, fmask = (1u << FB) - 1;
  uint32_t field = (x >> FB) & top, frac = x & fmask;
  bool neg = (x >> (EB + FB)) & 1;
  if (field == top && (INF || frac == fmask)) {
    double special = INF && frac == 0 ? ptx2hip_tc_pow2(1023) * 2.0
                                      : ptx2hip_f64_from_bits(0x7ff8000000000000ull);
    return {neg ? -special : special, -4096};
  }
  int e = field != 0 ? (int)field - bias : 1 - bias;
  uint32_t m = field != 0 ? frac | (1u << (uint32_t)FB) : frac;
  double v = (double)m * ptx2hip_tc_pow2(e - FB);
  return {neg ? -v : v, m != 0 ? e : zero_e};
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_decompose requires=ptx2hip_tc_elem
// ptx2hip:amd
// The element `bits` of format Format under Model's choices (f16, bf16: low 16 bits; fp8: low 8).
template <typename Model, int Format>
__device__ inline ptx2hip_tc_elem ptx2hip_tc_decompose(uint32_t bits) {
  if (Format == ptx2hip_tc_f16)
    return ptx2hip_tc_decode<5, 10, true>(bits & 0xffffu, Model::zero_products_in_e ? -14 : -4096);
  if (Format == ptx2hip_tc_bf16)
    return ptx2hip_tc_decode<8, 7, true>(bits & 0xffffu, Model::zero_products_in_e ? -126 : -4096);
  if (Format == ptx2hip_tc_e4m3)
    return ptx2hip_tc_decode<4, 3, false>(bits & 0xffu, Model::zero_products_in_e ? -6 : -4096);
  if (Format == ptx2hip_tc_e5m2)
    return ptx2hip_tc_decode<5, 2, true>(bits & 0xffu, Model::zero_products_in_e ? -14 : -4096);
  // tf32: the f32 register's top 19 bits, the low 13 dropped or rounded (ties away).
  bool special = ((bits >> 23) & 0xffu) == 0xffu;
  if (!Model::tf32_truncate && special && (bits & 0x7fffffu) != 0)
    return ptx2hip_tc_decode<8, 10, true>(0x3ffffu, -4096);
  uint32_t kept = Model::tf32_truncate || special ? bits : bits + 0x1000u;
  return ptx2hip_tc_decode<8, 10, true>(kept >> 13, Model::zero_products_in_e ? -126 : -4096);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_round requires=ptx2hip_tc_elem,ptx2hip_bits_from_f64,ptx2hip_bits_from_f32,ptx2hip_f32_from_bits
// ptx2hip:amd
// x (finite, non-zero, a normal double) rounded to P fraction bits with exponents >= EMIN, toward
// zero or to nearest even (RNE), as an exact double.
template <int P, int EMIN, bool RNE>
__device__ inline double ptx2hip_tc_quantize(double x) {
  int ex = (int)((ptx2hip_bits_from_f64(x) >> 52) & 0x7ffu) - 1023;
  int q = (ex > EMIN ? ex : EMIN) - P;
  double y = x * ptx2hip_tc_pow2(-q);
  return (RNE ? __builtin_rint(y) : __builtin_trunc(y)) * ptx2hip_tc_pow2(q);
}

// A rounded value v (exact in the accumulator type or beyond its range) encoded as the accumulator
// type: Inf beyond the range (or the largest finite when RZ saturates), subnormals kept or flushed.
template <typename Model, int Accum, bool RNE>
__device__ inline uint32_t ptx2hip_tc_encode(double v, int p) {
  bool neg = ptx2hip_bits_from_f64(v) >> 63;
  double a = neg ? -v : v;
  if (Accum == ptx2hip_tc_acc_f32) {
    uint32_t sign = neg ? 0x80000000u : 0u;
    if (a >= ptx2hip_tc_pow2(128)) {
      if (Model::overflow_to_inf || RNE) return sign | 0x7f800000u;
      return sign | (0x7f800000u - (1u << (23 - p)));
    }
    if (!Model::subnormal_outputs && a < ptx2hip_tc_pow2(-126)) return sign;
    return sign | ptx2hip_bits_from_f32((float)a);
  }
  uint32_t sign = neg ? 0x8000u : 0u;
  if (a >= ptx2hip_tc_pow2(16)) {
    if (Model::overflow_to_inf || RNE) return sign | 0x7c00u;
    return sign | (0x7c00u - (1u << (10 - p)));
  }
  if (a < ptx2hip_tc_pow2(-14))
    return Model::subnormal_outputs ? sign | (uint32_t)(a * ptx2hip_tc_pow2(24)) : sign;
  uint64_t b = ptx2hip_bits_from_f64(a);
  return sign | (uint32_t)((((b >> 52) & 0x7ffu) - 1008u) << 10) | (uint32_t)((b >> 42) & 0x3ffu);
}

// The block sum s (an integer in a double, at weight 2^w) rounded once to the output: f32 RZ to
// 24 bits, e8m13 RZ for fp8 into f32, f16 RNE; NaN canonical, zeros per Model's choices.
template <typename Model, int Format, int Accum>
__device__ inline uint32_t ptx2hip_tc_round(double s, int w) {
  constexpr bool fp8 = Format == ptx2hip_tc_e4m3 || Format == ptx2hip_tc_e5m2;
  constexpr bool f16 = Accum == ptx2hip_tc_acc_f16;
  if (s != s) return f16 ? 0x7fffu : 0x7fffffffu;
  if (s == 0.0) {
    bool neg = Model::ieee_zero_sign && (ptx2hip_bits_from_f64(s) >> 63);
    return neg ? (f16 ? 0x8000u : 0x80000000u) : 0u;
  }
  if (s - s != 0.0)
    return f16 ? (s < 0.0 ? 0xfc00u : 0x7c00u) : (s < 0.0 ? 0xff800000u : 0x7f800000u);
  double x = s * ptx2hip_tc_pow2(w);
  if (!f16) {
    if (fp8)
      return ptx2hip_tc_encode<Model, Accum, false>(ptx2hip_tc_quantize<13, -126, false>(x), 13);
    return ptx2hip_tc_encode<Model, Accum, false>(ptx2hip_tc_quantize<23, -126, false>(x), 23);
  }
  // An e8m13 value beyond f32's range, Inf or saturated, rounds to an f16 Inf all the same.
  if (fp8 && Model::fp8_f16_via_e8m13) x = ptx2hip_tc_quantize<13, -126, false>(x);
  return ptx2hip_tc_encode<Model, Accum, true>(ptx2hip_tc_quantize<10, -14, true>(x), 10);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tc_dot_terms requires=ptx2hip_tc_round,ptx2hip_tc_decompose
// ptx2hip:amd
// d = c + sum a[k] * b[k] over decomposed elements (ptx2hip_tc_decompose): blocks of
// Model::block(Format) products chained through c, each one: E = the largest exponent (the
// products' a.e + b.e, c's exponent as an f32, at least Model::floor), every term truncated toward
// zero at 2^(E - nfrac), the exact sum rounded once (ptx2hip_tc_round). c and the result: raw
// accumulator bits (f16 in the low 16 bits).
template <typename Model, int Format, int Accum, int N>
__device__ inline uint32_t ptx2hip_tc_block(const ptx2hip_tc_elem* a, const ptx2hip_tc_elem* b,
                                            uint32_t c) {
  constexpr int nfrac = Model::nfrac(Format);
  ptx2hip_tc_elem cd = Accum == ptx2hip_tc_acc_f16
                           ? ptx2hip_tc_decode<5, 10, true>(c & 0xffffu, -4096)
                           : ptx2hip_tc_decode<8, 23, true>(c, -4096);
  if (cd.e != -4096) {
    int ex = (int)((ptx2hip_bits_from_f64(cd.v) >> 52) & 0x7ffu) - 1023;
    cd.e = ex > -126 ? ex : -126;
  }
  // -300 lies below every real exponent (>= 2 * -126) and keeps 2^(nfrac - E) finite.
  int e = Model::align_clamp ? Model::floor(Accum) : -300;
  e = e > cd.e ? e : cd.e;
  for (int k = 0; k < N; ++k) {
    int pe = a[k].e + b[k].e;
    e = e > pe ? e : pe;
  }
  double scale = ptx2hip_tc_pow2(nfrac - e);
  double s = __builtin_trunc(cd.v * scale);
  for (int k = 0; k < N; ++k) s += __builtin_trunc(a[k].v * b[k].v * scale);
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

// ptx2hip:helper ptx2hip_tc_dot requires=ptx2hip_tc_dot_terms
// ptx2hip:amd
// One output element d = c + sum a[k] * b[k] of an mma whose K is K (products per output element),
// as Model's tensor cores compute it; a, b: raw element bits, c and the result: raw accumulator
// bits. The reference form; fragment code decomposes each element once (ptx2hip_tc_dot_terms).
template <typename Model, int Format, int Accum, int K>
__device__ inline uint32_t ptx2hip_tc_dot(const uint32_t (&a)[K], const uint32_t (&b)[K],
                                          uint32_t c) {
  ptx2hip_tc_elem da[K], db[K];
  for (int k = 0; k < K; ++k) {
    da[k] = ptx2hip_tc_decompose<Model, Format>(a[k]);
    db[k] = ptx2hip_tc_decompose<Model, Format>(b[k]);
  }
  return ptx2hip_tc_dot_terms<Model, Format, Accum, K>(da, db, c);
}
// ptx2hip:end
