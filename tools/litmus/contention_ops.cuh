// The atomic forms the contention test hammers (tools/litmus/contention.cu); like
// litmus_tests.cuh, this file is the original and `ptx2hip translate --emit replace` gives the
// translation that runs next to it.
#pragma once
#include <stdint.h>

namespace ops {

__device__ __forceinline__ uint32_t add_u32(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}
__device__ __forceinline__ uint32_t add_acq_rel_sys_u32(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.acq_rel.sys.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}
__device__ __forceinline__ uint32_t inc_u32(uint32_t* p, uint32_t b) {
  uint32_t old;
  asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(b) : "memory");
  return old;
}
__device__ __forceinline__ uint32_t dec_sys_u32(uint32_t* p, uint32_t b) {
  uint32_t old;
  asm volatile("atom.sys.global.dec.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(b) : "memory");
  return old;
}
__device__ __forceinline__ uint32_t cas_b32(uint32_t* p, uint32_t c, uint32_t v) {
  uint32_t old;
  asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(p), "r"(c), "r"(v) : "memory");
  return old;
}
__device__ __forceinline__ uint64_t cas_b64(uint64_t* p, uint64_t c, uint64_t v) {
  uint64_t old;
  asm volatile("atom.acquire.gpu.global.cas.b64 %0, [%1], %2, %3;" : "=l"(old) : "l"(p), "l"(c), "l"(v) : "memory");
  return old;
}
__device__ __forceinline__ uint16_t cas_b16(uint16_t* p, uint16_t c, uint16_t v) {
  uint16_t old;
  asm volatile("atom.global.cas.b16 %0, [%1], %2, %3;" : "=h"(old) : "l"(p), "h"(c), "h"(v) : "memory");
  return old;
}
__device__ __forceinline__ uint32_t exch_b32(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}
__device__ __forceinline__ int64_t min_s64(int64_t* p, int64_t v) {
  int64_t old;
  asm volatile("atom.global.min.s64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
  return old;
}
__device__ __forceinline__ float add_f32(float* p, float v) {
  float old;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(p), "f"(v) : "memory");
  return old;
}
__device__ __forceinline__ void red_add_f32(float* p, float v) {
  asm volatile("red.relaxed.gpu.global.add.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}
__device__ __forceinline__ double add_f64(double* p, double v) {
  double old;
  asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(old) : "l"(p), "d"(v) : "memory");
  return old;
}
__device__ __forceinline__ uint32_t add_f16x2(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}
__device__ __forceinline__ uint16_t add_bf16(uint16_t* p, uint16_t v) {
  uint16_t old;
  asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(old) : "l"(p), "h"(v) : "memory");
  return old;
}

}  // namespace ops
