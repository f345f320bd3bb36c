// A lockstep model of one AMD wavefront, for running `--target amd` translations on a CPU.
//
// Every lane of the wave runs the translated C++ on its own stack (ucontext); a lane that calls a
// cross-lane builtin (ds_bpermute, ds_swizzle, DPP, readlane, readfirstlane, ballot, exec read,
// wave barrier) stops there. When every lane still running has stopped, they must all be at the
// same call of the same source line — a translation that makes a cross-lane call from divergent
// control flow is reported, since its result would depend on how the compiler structures the
// branches — and the call is evaluated for all of them at once with EXEC = the lanes that made it
// (lanes that finished the statement, and lanes that never ran it, are inactive). Lane-local
// builtins (mbcnt, fences, wavefrontsize) need no meeting.
//
// The models are written from the AMD ISA documents ("AMD Instinct MI300 (CDNA3) ISA Reference
// Guide", chapters on DS, DPP and VOP3 instructions; "RDNA3 ISA Reference Guide" for wave32) and
// LLVM's AMDGPUUsage / BuiltinsAMDGPU.def for the builtin signatures. Where the documents leave a
// value unspecified (a DPP, swizzle or readlane source lane that is inactive), the model returns a
// poison value, so a translation that depended on it would be caught.
#pragma once
#include <ucontext.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace wave_sim {

constexpr int kMaxLanes = 64;
constexpr size_t kStack = 64 * 1024;

enum Kind { kBallot, kReadExec, kReadlane, kReadfirstlane, kBpermute, kSwizzle, kDpp, kBarrier, kMatrix };

struct Call {
  Kind kind;
  int site;
  uint64_t arg[6];
  uint64_t result;
  // kMatrix: the lane's operand registers in, its result registers out; arg[0] is the model.
  uint32_t in[24];
  uint32_t out[8];
};

// A matrix instruction: computes `out` of every lane of the wave from the lanes' `in`.
typedef void (*MatrixModel)();

struct Wave {
  int size = 64;               // 32 or 64 lanes
  uint64_t started = 0;        // lanes that run the statement
  uint64_t done = 0;           // lanes that finished it
  int cur = -1;                // lane executing now
  ucontext_t main_ctx;
  ucontext_t ctx[kMaxLanes];
  Call call[kMaxLanes];
  bool waiting[kMaxLanes];
  void (*body)(int lane, void* env) = nullptr;
  void* env = nullptr;
  const char* error = nullptr;
  long calls = 0;              // cross-lane meetings evaluated
};

inline Wave g;
alignas(16) inline char g_stacks[kMaxLanes][kStack];

inline uint32_t poison(int lane) { return 0xdead0000u ^ (uint32_t)lane * 0x9e37u; }

// Stops the current lane at a cross-lane call; returns the call's result for this lane.
inline uint64_t meet(Kind kind, int site, uint64_t a0 = 0, uint64_t a1 = 0, uint64_t a2 = 0,
                     uint64_t a3 = 0, uint64_t a4 = 0, uint64_t a5 = 0) {
  const int l = g.cur;
  if (l < 0) { fprintf(stderr, "cross-lane builtin outside the wave\n"); abort(); }
  g.call[l] = Call{kind, site, {a0, a1, a2, a3, a4, a5}, 0, {}, {}};
  g.waiting[l] = true;
  swapcontext(&g.ctx[l], &g.main_ctx);
  return g.call[l].result;
}

inline int lane_id_in_wave() { return g.cur; }

// Stops the current lane at a matrix instruction with its n operand registers; the lane's result
// registers are in g.call[lane].out when it resumes.
inline const uint32_t* meet_matrix(MatrixModel model, int site, const uint32_t* in, int n) {
  const int l = g.cur;
  if (l < 0) { fprintf(stderr, "matrix builtin outside the wave\n"); abort(); }
  g.call[l] = Call{kMatrix, site, {(uint64_t)(uintptr_t)model}, 0, {}, {}};
  memcpy(g.call[l].in, in, sizeof(uint32_t) * (size_t)n);
  g.waiting[l] = true;
  swapcontext(&g.ctx[l], &g.main_ctx);
  return g.call[l].out;
}

inline void trampoline() {
  const int l = g.cur;
  g.body(l, g.env);
  g.done |= 1ull << l;
}

// DPP source lane within the row of 16 lanes (CDNA3 ISA, "DPP_CTRL" enumeration: quad_perm,
// row_shl/shr/ror, row_mirror, row_half_mirror); -1 when out of the row (an invalid source).
inline int dpp_source(int lane, unsigned ctrl) {
  const int row = lane & ~15, r = lane & 15;
  if (ctrl <= 0xff) return (lane & ~3) | (int)((ctrl >> (2 * (lane & 3))) & 3);
  if (ctrl >= 0x101 && ctrl <= 0x10f) { int s = r + (int)(ctrl & 15); return s < 16 ? row + s : -1; }
  if (ctrl >= 0x111 && ctrl <= 0x11f) { int s = r - (int)(ctrl & 15); return s >= 0 ? row + s : -1; }
  if (ctrl >= 0x121 && ctrl <= 0x12f) return row + ((r - (int)(ctrl & 15)) & 15);
  if (ctrl == 0x140) return row + (15 - r);
  if (ctrl == 0x141) return row + ((r & 8) | (7 - (r & 7)));
  fprintf(stderr, "wave_sim: DPP control %#x is not modelled\n", ctrl);
  abort();
}

// Evaluates the meeting of the lanes in `exec`, all stopped at the same call.
inline void evaluate(uint64_t exec) {
  const int first = __builtin_ctzll(exec);
  const Call& c0 = g.call[first];
  if (c0.kind == kMatrix) {
    // MFMA and WMMA read every lane's operands: WMMA requires EXEC all ones (RDNA3 ISA), and no
    // document allows MFMA less, so a matrix instruction with a lane off is an error here.
    if (exec != (g.size == 64 ? ~0ull : 0xffffffffull)) { g.error = "matrix instruction with inactive lanes"; return; }
    ((MatrixModel)(uintptr_t)c0.arg[0])();
    g.calls++;
    return;
  }
  auto active = [&](int l) { return l >= 0 && l < g.size && ((exec >> l) & 1); };
  for (int l = 0; l < g.size; l++) {
    if (!active(l)) continue;
    Call& c = g.call[l];
    switch (c.kind) {
      case kBallot: {
        // V_CMP writing an SGPR pair: bit L set for each active lane L whose condition is true.
        uint64_t m = 0;
        for (int k = 0; k < g.size; k++)
          if (active(k) && g.call[k].arg[0]) m |= 1ull << k;
        c.result = m;
        break;
      }
      case kReadExec: c.result = exec; break;
      case kReadlane: {
        // V_READLANE_B32: the lane select is an SGPR (uniform); bits [5:0] (wave64) / [4:0].
        const uint64_t sel = c.arg[1];
        if (sel != c0.arg[1]) { g.error = "v_readlane with a lane index that is not uniform"; return; }
        const int src = (int)(sel & (uint64_t)(g.size - 1));
        c.result = active(src) ? (uint32_t)g.call[src].arg[0] : poison(src);
        break;
      }
      case kReadfirstlane: c.result = (uint32_t)g.call[first].arg[0]; break;
      case kBpermute: {
        // DS_BPERMUTE_B32: lane L reads the data of lane addr[L] / 4 (modulo the wave size);
        // an inactive source lane reads as 0.
        const int src = (int)((c.arg[0] >> 2) & (uint64_t)(g.size - 1));
        c.result = active(src) ? (uint32_t)g.call[src].arg[1] : 0u;
        break;
      }
      case kSwizzle: {
        // DS_SWIZZLE_B32: offset[15] = 1: quad permute (lane within 4: offset[2q+1:2q]);
        // offset[15] = 0: bit mode on each group of 32 lanes,
        // j = ((lane & and_mask) | or_mask) ^ xor_mask, masks offset[4:0], [9:5], [14:10].
        const unsigned off = (unsigned)c.arg[1];
        int src;
        if (off & 0x8000u) {
          src = (l & ~3) | (int)((off >> (2 * (l & 3))) & 3);
        } else {
          const int lane = l & 31;
          src = (l & ~31) | ((((lane & (int)(off & 31)) | (int)((off >> 5) & 31)) ^ (int)((off >> 10) & 31)) & 31);
        }
        c.result = active(src) ? (uint32_t)g.call[src].arg[0] : poison(src);
        break;
      }
      case kDpp: {
        // V_MOV_B32 with DPP (update_dpp(old, src, ctrl, row_mask, bank_mask, bound_ctrl)):
        // a lane whose row (bit lane/16 of row_mask) or bank (bit (lane%16)/4 of bank_mask) is
        // masked keeps old; an out-of-row source gives 0 with bound_ctrl, old without.
        const unsigned ctrl = (unsigned)c.arg[2], row_mask = (unsigned)c.arg[3], bank_mask = (unsigned)c.arg[4];
        const bool bound = c.arg[5] != 0;
        if (!((row_mask >> (l / 16)) & 1) || !((bank_mask >> ((l & 15) / 4)) & 1)) { c.result = (uint32_t)c.arg[0]; break; }
        const int src = dpp_source(l, ctrl);
        if (src < 0) c.result = bound ? 0u : (uint32_t)c.arg[0];
        else c.result = active(src) ? (uint32_t)g.call[src].arg[1] : poison(src);
        break;
      }
      case kBarrier: c.result = 0; break;
      case kMatrix: break;
    }
  }
  g.calls++;
}

// Runs `body` for every lane of `lanes` in lockstep; returns an error message or nullptr.
inline const char* run(int size, uint64_t lanes, void (*body)(int, void*), void* env) {
  g.size = size;
  g.started = lanes;
  g.done = 0;
  g.body = body;
  g.env = env;
  g.error = nullptr;
  for (int l = 0; l < size; l++) {
    g.waiting[l] = false;
    if (!((lanes >> l) & 1)) continue;
    getcontext(&g.ctx[l]);
    g.ctx[l].uc_stack.ss_sp = g_stacks[l];
    g.ctx[l].uc_stack.ss_size = kStack;
    g.ctx[l].uc_link = &g.main_ctx;
    makecontext(&g.ctx[l], trampoline, 0);
  }
  for (;;) {
    for (int l = 0; l < size; l++) {
      if (!((lanes >> l) & 1) || ((g.done >> l) & 1) || g.waiting[l]) continue;
      g.cur = l;
      swapcontext(&g.main_ctx, &g.ctx[l]);
      g.cur = -1;
    }
    uint64_t exec = 0;
    for (int l = 0; l < size; l++)
      if (g.waiting[l]) exec |= 1ull << l;
    if (exec == 0) return nullptr;
    const int first = __builtin_ctzll(exec);
    for (int l = 0; l < size; l++) {
      if (!((exec >> l) & 1)) continue;
      if (g.call[l].kind != g.call[first].kind || g.call[l].site != g.call[first].site) {
        static char msg[160];
        snprintf(msg, sizeof msg, "lanes %d and %d are at different cross-lane calls (lines %d and %d): divergent cross-lane code", first, l, g.call[first].site, g.call[l].site);
        return msg;
      }
    }
    evaluate(exec);
    if (g.error) return g.error;
    for (int l = 0; l < size; l++) g.waiting[l] = false;
  }
}

}  // namespace wave_sim

// ---- The AMD builtins and HIP functions the translations call, as host models.

#define __device__
#define __host__
#define __forceinline__ inline
#ifndef __ATOMIC_RELEASE
#define __ATOMIC_RELEASE 3
#define __ATOMIC_ACQUIRE 2
#endif

// S_GETREG / compile-time constant on the GPU: the lanes of a wave.
inline unsigned __builtin_amdgcn_wavefrontsize(int = 0) { return (unsigned)wave_sim::g.size; }

// V_MBCNT_LO_U32_B32: S1 + popcount(S0 & ThreadMask[31:0]), ThreadMask = (1 << lane) - 1.
inline unsigned __builtin_amdgcn_mbcnt_lo(unsigned s0, unsigned s1) {
  const int l = wave_sim::lane_id_in_wave();
  const uint32_t mask = l >= 32 ? 0xffffffffu : (uint32_t)((1ull << l) - 1);
  return s1 + (unsigned)__builtin_popcount(s0 & mask);
}
// V_MBCNT_HI_U32_B32: S1 + popcount(S0 & ThreadMask[63:32]).
inline unsigned __builtin_amdgcn_mbcnt_hi(unsigned s0, unsigned s1) {
  const int l = wave_sim::lane_id_in_wave();
  const uint32_t mask = l < 32 ? 0u : (uint32_t)((1ull << (l - 32)) - 1);
  return s1 + (unsigned)__builtin_popcount(s0 & mask);
}
// HIP's definition (amd_device_functions.h).
inline unsigned __lane_id() { return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)); }

inline uint64_t __builtin_amdgcn_ballot_w64(bool p, int site = __builtin_LINE()) {
  return wave_sim::meet(wave_sim::kBallot, site, p);
}
inline uint64_t __builtin_amdgcn_read_exec(int site = __builtin_LINE()) {
  return wave_sim::meet(wave_sim::kReadExec, site);
}
inline int __builtin_amdgcn_readlane(int v, int lane, int site = __builtin_LINE()) {
  return (int)(uint32_t)wave_sim::meet(wave_sim::kReadlane, site, (uint32_t)v, (uint32_t)lane);
}
inline int __builtin_amdgcn_readfirstlane(int v, int site = __builtin_LINE()) {
  return (int)(uint32_t)wave_sim::meet(wave_sim::kReadfirstlane, site, (uint32_t)v);
}
inline int __builtin_amdgcn_ds_bpermute(int addr, int v, int site = __builtin_LINE()) {
  return (int)(uint32_t)wave_sim::meet(wave_sim::kBpermute, site, (uint32_t)addr, (uint32_t)v);
}
inline int __builtin_amdgcn_ds_swizzle(int v, int offset, int site = __builtin_LINE()) {
  return (int)(uint32_t)wave_sim::meet(wave_sim::kSwizzle, site, (uint32_t)v, (uint32_t)offset);
}
inline int __builtin_amdgcn_update_dpp(int old, int src, int ctrl, int row_mask, int bank_mask,
                                       bool bound_ctrl, int site = __builtin_LINE()) {
  return (int)(uint32_t)wave_sim::meet(wave_sim::kDpp, site, (uint32_t)old, (uint32_t)src,
                                       (uint32_t)ctrl, (uint32_t)row_mask, (uint32_t)bank_mask,
                                       bound_ctrl);
}
inline int __builtin_amdgcn_mov_dpp(int src, int ctrl, int row_mask, int bank_mask, bool bound_ctrl,
                                    int site = __builtin_LINE()) {
  return __builtin_amdgcn_update_dpp(0, src, ctrl, row_mask, bank_mask, bound_ctrl, site);
}
// S_BARRIER-free wave barrier: a scheduling barrier for the compiler; all lanes meet.
inline void __builtin_amdgcn_wave_barrier(int site = __builtin_LINE()) {
  wave_sim::meet(wave_sim::kBarrier, site);
}
// Wavefront-scope fences order nothing between lanes that already execute together.
inline void __builtin_amdgcn_fence(int, const char*) {}

#if defined(__clang__)
// ---- Matrix instructions (clang only: their operands are ext_vector_type values).
//
// Layouts from AMD's matrix instruction calculator (ROCm/amd_matrix_instruction_calculator, the
// CDNA3 and RDNA3 ISA guides); the models compute in double and round once to f32, which is exact
// for the small-integer data the layout checks use: they test where every value goes, not the
// hardware's rounding (docs/MATRIX_FAST.md models that in Rust).
namespace wave_sim {

// Element i of a packed 16-bit operand, as a double: IEEE binary16, or bfloat16 when bf16.
inline double matrix_element(const uint32_t* dwords, int i, bool bf16) {
  const uint32_t h = (dwords[i / 2] >> (16 * (i % 2))) & 0xffffu;
  if (bf16) {
    const uint32_t f = h << 16;
    float x;
    memcpy(&x, &f, 4);
    return x;
  }
  const int e = (int)((h >> 10) & 31u), m = (int)(h & 1023u);
  const double mag = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
  return (h & 0x8000u) ? -mag : mag;
}

inline uint32_t matrix_f32_bits(double x) {
  const float f = (float)x;
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

inline float matrix_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

// The element kinds of the matrix operands.
enum Elem { kF16, kBf16, kF32, kXf32 };

// Element i of an operand's registers as a double: 16-bit kinds packed two to a register, f32 one
// (xf32: its low 13 bits dropped, as MMA-Sim's model of the instruction truncates).
inline double operand_element(const uint32_t* regs, int i, Elem e) {
  if (e == kF16 || e == kBf16) return matrix_element(regs, i, e == kBf16);
  return matrix_f32(e == kXf32 ? regs[i] & 0xffffe000u : regs[i]);
}

// V_MFMA_F32_16X16X{16F16, 16BF16_1K, 4F32, 8_XF32}, wave64 (CDNA3 ISA, "Dense matrix layouts";
// the calculator's single-block layouts): lane L holds A[L % 16][J(L / 16) + j] and
// B[J(L / 16) + j][L % 16] as elements j < J = K / 4, then C and D[4(L / 16) + i][L % 16] as
// register i.
template <Elem kElem, int K>
inline void mfma_16x16() {
  constexpr int per_lane = K / 4;
  constexpr int regs = (kElem == kF16 || kElem == kBf16) ? per_lane / 2 : per_lane;
  if (g.size != 64) { g.error = "MFMA on a wave32"; return; }
  for (int L = 0; L < 64; L++) {
    for (int i = 0; i < 4; i++) {
      const int row = 4 * (L / 16) + i, col = L % 16;
      double s = matrix_f32(g.call[16 * (row / 4) + col].in[2 * regs + row % 4]);
      for (int k = 0; k < K; k++)
        s += operand_element(g.call[16 * (k / per_lane) + row].in, k % per_lane, kElem) *
             operand_element(g.call[16 * (k / per_lane) + col].in + regs, k % per_lane, kElem);
      g.call[L].out[i] = matrix_f32_bits(s);
    }
  }
}

// V_WMMA_F32_16X16X16_F16 / _BF16, wave32 (RDNA3 ISA, "Wave Matrix Multiply Accumulate"): lane L
// holds row L % 16 of A and column L % 16 of B, all 16 k (in[0..7], in[8..15]), and lanes 16..31
// must repeat lanes 0..15; C and D[2v + L / 16][L % 16] are register v < 8 (in[16..23], out).
template <bool kBf16>
inline void wmma_16x16x16() {
  if (g.size != 32) { g.error = "WMMA _w32 on a wave64"; return; }
  for (int L = 0; L < 16; L++)
    for (int k = 0; k < 16; k++)
      if (g.call[L].in[k] != g.call[L + 16].in[k]) { g.error = "WMMA operand lanes 16..31 differ from lanes 0..15"; return; }
  for (int L = 0; L < 32; L++) {
    for (int v = 0; v < 8; v++) {
      const int row = 2 * v + L / 16, col = L % 16;
      double s = matrix_f32(g.call[L].in[16 + v]);
      for (int k = 0; k < 16; k++)
        s += matrix_element(g.call[row].in, k, kBf16) * matrix_element(g.call[col].in + 8, k, kBf16);
      g.call[L].out[v] = matrix_f32_bits(s);
    }
  }
}

typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef short short4 __attribute__((ext_vector_type(4)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef _Float16 half16 __attribute__((ext_vector_type(16)));
typedef short short16 __attribute__((ext_vector_type(16)));
typedef float float8 __attribute__((ext_vector_type(8)));
typedef float float2 __attribute__((ext_vector_type(2)));

// Packs the operands of a matrix builtin, meets, and unpacks the result.
template <typename R, typename A, typename C>
inline R matrix_call(MatrixModel model, int site, A a, A b, C c) {
  uint32_t in[24];
  memcpy(in, &a, sizeof a);
  memcpy((char*)in + sizeof a, &b, sizeof b);
  memcpy((char*)in + 2 * sizeof a, &c, sizeof c);
  const uint32_t* out = meet_matrix(model, site, in, (int)((2 * sizeof a + sizeof c) / 4));
  R r;
  memcpy(&r, out, sizeof r);
  return r;
}

inline void matrix_modifiers(int cbsz, int abid, int blgp) {
  if (cbsz || abid || blgp) { fprintf(stderr, "wave_sim: MFMA broadcast modifiers are not modelled\n"); abort(); }
}

}  // namespace wave_sim

inline wave_sim::float4 __builtin_amdgcn_mfma_f32_16x16x16f16(wave_sim::half4 a, wave_sim::half4 b, wave_sim::float4 c, int cbsz, int abid, int blgp, int site = __builtin_LINE()) {
  wave_sim::matrix_modifiers(cbsz, abid, blgp);
  return wave_sim::matrix_call<wave_sim::float4>(wave_sim::mfma_16x16<wave_sim::kF16, 16>, site, a, b, c);
}
inline wave_sim::float4 __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(wave_sim::short4 a, wave_sim::short4 b, wave_sim::float4 c, int cbsz, int abid, int blgp, int site = __builtin_LINE()) {
  wave_sim::matrix_modifiers(cbsz, abid, blgp);
  return wave_sim::matrix_call<wave_sim::float4>(wave_sim::mfma_16x16<wave_sim::kBf16, 16>, site, a, b, c);
}
inline wave_sim::float4 __builtin_amdgcn_mfma_f32_16x16x4f32(float a, float b, wave_sim::float4 c, int cbsz, int abid, int blgp, int site = __builtin_LINE()) {
  wave_sim::matrix_modifiers(cbsz, abid, blgp);
  return wave_sim::matrix_call<wave_sim::float4>(wave_sim::mfma_16x16<wave_sim::kF32, 4>, site, a, b, c);
}
inline wave_sim::float4 __builtin_amdgcn_mfma_f32_16x16x8_xf32(wave_sim::float2 a, wave_sim::float2 b, wave_sim::float4 c, int cbsz, int abid, int blgp, int site = __builtin_LINE()) {
  wave_sim::matrix_modifiers(cbsz, abid, blgp);
  return wave_sim::matrix_call<wave_sim::float4>(wave_sim::mfma_16x16<wave_sim::kXf32, 8>, site, a, b, c);
}
inline wave_sim::float8 __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(wave_sim::half16 a, wave_sim::half16 b, wave_sim::float8 c, int site = __builtin_LINE()) {
  return wave_sim::matrix_call<wave_sim::float8>(wave_sim::wmma_16x16x16<false>, site, a, b, c);
}
inline wave_sim::float8 __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(wave_sim::short16 a, wave_sim::short16 b, wave_sim::float8 c, int site = __builtin_LINE()) {
  return wave_sim::matrix_call<wave_sim::float8>(wave_sim::wmma_16x16x16<true>, site, a, b, c);
}
#endif
