// What the `--target amd` wgmma translations need on the host (tests/it/wgmma_sim.rs): the wave
// model (sim.h) with threadIdx and blockDim (kernel.h: a block whose waves run one after the
// other), and shared memory as a host buffer behind the LDS helpers the translations call, which
// this file defines in their place (the test leaves them out of the helper code it generates, and
// the helper block of a translated file skips them: their PTX2HIP_HELPER_ guards are defined).
//
// An LDS offset is an offset into g_lds; an access outside it or not aligned to its size stops
// the program, as the offsets the descriptors give must stay inside the CTA's shared memory.
#pragma once
#include "kernel.h"

namespace wgmma_sim {
// The descriptor's start field reaches 2^18 bytes.
constexpr uint32_t kLdsBytes = 1u << 18;
alignas(16) inline unsigned char g_lds[kLdsBytes];

inline const unsigned char* lds_at(uint32_t off, uint32_t size) {
  if (off % size != 0 || off > kLdsBytes - size) {
    fprintf(stderr, "LDS read of %u bytes at %#x: misaligned or outside shared memory\n", size,
            off);
    abort();
  }
  return g_lds + off;
}
}  // namespace wgmma_sim

#define PTX2HIP_HELPER_ptx2hip_lds_load_u16
#define PTX2HIP_HELPER_ptx2hip_lds_load_u32
#define PTX2HIP_HELPER_ptx2hip_lds_load_u32x4
inline uint32_t ptx2hip_lds_load_u16(uint32_t off) {
  uint16_t v;
  memcpy(&v, wgmma_sim::lds_at(off, 2), 2);
  return v;
}
inline uint32_t ptx2hip_lds_load_u32(uint32_t off) {
  uint32_t v;
  memcpy(&v, wgmma_sim::lds_at(off, 4), 4);
  return v;
}
inline void ptx2hip_lds_load_u32x4(uint32_t off, uint32_t* w) {
  memcpy(w, wgmma_sim::lds_at(off, 16), 16);
}

// One statement as the checker calls it, for one thread: the descriptors (start fields as LDS
// offsets), scale-d, A's 4 registers (A in registers) and D's registers, C in and D out.
typedef void (*wgmma_entry)(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d, const uint32_t* a,
                            uint32_t* d);
