// Test tooling, never shipped: the few AMD builtins the `--target amd` translations of
// warp-collective PTX (shuffles, matrix fragments) call, written with CUDA's warp functions, so
// that a translation can run on an NVIDIA GPU as a wave32 AMD wave would run it and be compared
// bit for bit with the original PTX on the same GPU (tools/e2e/gen.py, the `amd/` builds).
//
// The model is a 32-lane wave (gfx1100's wave32): `__AMDGCN_WAVEFRONT_SIZE` is 32, so
// `ptx2hip_warp_base()` is 0 and a wave is one PTX warp. Each builtin is written from the AMD ISA
// documents as crates/ptx2hip-verify/tests/wave_sim/sim.h models it: ds_bpermute reads lane
// (addr / 4) mod 32 and an inactive source reads 0 (here: the lanes that call together are the
// active ones; the matrix forms always run with the whole warp), DPP and ds_swizzle select a
// source lane by their control words. Only what the translations call is here; a missing one is
// a compile error, never a silent substitute.
#pragma once
#include <cstdint>

#define __AMDGCN_WAVEFRONT_SIZE 32

namespace amd_on_cuda {
__device__ inline unsigned lane() {
  unsigned l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}
__device__ inline unsigned read(unsigned v, int src) { return __shfl_sync(__activemask(), v, src & 31); }
// DPP source lane within the row of 16 lanes (quad_perm, row_shl/shr/ror, row_mirror,
// row_half_mirror); -1 out of the row.
__device__ inline int dpp_source(int l, unsigned ctrl) {
  const int row = l & ~15, r = l & 15;
  if (ctrl <= 0xff) return (l & ~3) | (int)((ctrl >> (2 * (l & 3))) & 3);
  if (ctrl >= 0x101 && ctrl <= 0x10f) { int s = r + (int)(ctrl & 15); return s < 16 ? row + s : -1; }
  if (ctrl >= 0x111 && ctrl <= 0x11f) { int s = r - (int)(ctrl & 15); return s >= 0 ? row + s : -1; }
  if (ctrl >= 0x121 && ctrl <= 0x12f) return row + ((r - (int)(ctrl & 15)) & 15);
  if (ctrl == 0x140) return row + (15 - r);
  if (ctrl == 0x141) return row + ((r & 8) | (7 - (r & 7)));
  __trap();
  return -1;
}
}  // namespace amd_on_cuda

__device__ inline unsigned __lane_id() { return amd_on_cuda::lane(); }
__device__ inline unsigned __builtin_amdgcn_mbcnt_lo(unsigned m, unsigned base) {
  return base + __popc(m & ((1u << amd_on_cuda::lane()) - 1u));
}
__device__ inline unsigned __builtin_amdgcn_mbcnt_hi(unsigned, unsigned base) { return base; }
__device__ inline int __builtin_amdgcn_ds_bpermute(int addr, int v) {
  return (int)amd_on_cuda::read((unsigned)v, (addr >> 2) & 31);
}
__device__ inline int __builtin_amdgcn_ds_swizzle(int v, int offset) {
  const int l = (int)amd_on_cuda::lane();
  const unsigned off = (unsigned)offset;
  const int src = (off & 0x8000u)
                      ? (l & ~3) | (int)((off >> (2 * (l & 3))) & 3)
                      : ((((l & (int)(off & 31)) | (int)((off >> 5) & 31)) ^ (int)((off >> 10) & 31)) & 31);
  return (int)amd_on_cuda::read((unsigned)v, src);
}
__device__ inline int __builtin_amdgcn_update_dpp(int old, int src, int ctrl, int row_mask,
                                                  int bank_mask, bool bound_ctrl) {
  const int l = (int)amd_on_cuda::lane();
  const int s = amd_on_cuda::dpp_source(l, (unsigned)ctrl);
  const unsigned got = amd_on_cuda::read((unsigned)src, s < 0 ? l : s);
  if (!((row_mask >> (l / 16)) & 1) || !((bank_mask >> ((l & 15) / 4)) & 1)) return old;
  if (s < 0) return bound_ctrl ? 0 : old;
  return (int)got;
}
__device__ inline int __builtin_amdgcn_mov_dpp(int src, int ctrl, int row_mask, int bank_mask,
                                               bool bound_ctrl) {
  return __builtin_amdgcn_update_dpp(0, src, ctrl, row_mask, bank_mask, bound_ctrl);
}
__device__ inline uint64_t __builtin_amdgcn_ballot_w64(bool p) {
  return (uint64_t)__ballot_sync(__activemask(), p);
}
__device__ inline unsigned __builtin_amdgcn_ballot_w32(bool p) { return __ballot_sync(__activemask(), p); }
__device__ inline uint64_t __builtin_amdgcn_read_exec() { return (uint64_t)__activemask(); }
__device__ inline int __builtin_amdgcn_readfirstlane(int v) {
  return (int)amd_on_cuda::read((unsigned)v, __ffs(__activemask()) - 1);
}
__device__ inline int __builtin_amdgcn_readlane(int v, int l) { return (int)amd_on_cuda::read((unsigned)v, l); }
__device__ inline void __builtin_amdgcn_wave_barrier() { __syncwarp(__activemask()); }
