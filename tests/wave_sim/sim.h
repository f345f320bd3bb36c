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
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace wave_sim {

constexpr int kMaxLanes = 64;
constexpr size_t kStack = 64 * 1024;

enum Kind { kBallot, kReadExec, kReadlane, kReadfirstlane, kBpermute, kSwizzle, kDpp, kBarrier };

struct Call {
  Kind kind;
  int site;
  uint64_t arg[6];
  uint64_t result;
};

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
  g.call[l] = Call{kind, site, {a0, a1, a2, a3, a4, a5}, 0};
  g.waiting[l] = true;
  swapcontext(&g.ctx[l], &g.main_ctx);
  return g.call[l].result;
}

inline int lane_id_in_wave() { return g.cur; }

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
