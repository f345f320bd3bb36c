// Litmus tests for the memory orders ptx2hip translates: message passing (MP), store buffering
// (SB) and load buffering (LB) with acquire/release accesses, release/acquire atomics and fences,
// at CTA, GPU and system scope. Each test is two device functions (thread 0 and thread 1 of the
// test); the original is this file, the translation is `ptx2hip translate --emit replace` of it,
// and tools/litmus/run.sh runs both on the GPU and counts the outcomes (r0, r1).
//
// Forbidden outcomes (PTX memory model; the translation must never show them):
//   MP*: r0 == 1 (flag seen) && r1 == 0 (data not seen)
//   SB_sc*: r0 == 0 && r1 == 0
//   LB*: r0 == 1 && r1 == 1
// The *_relaxed tests and SB_acqrel are controls: their weak outcome is allowed.
#pragma once
#include <stdint.h>

namespace litmus {

// ---- accesses -------------------------------------------------------------------------------

__device__ __forceinline__ void st_relaxed_gpu(uint32_t* p, uint32_t v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ uint32_t ld_relaxed_gpu(uint32_t* p) {
  uint32_t v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_release_gpu(uint32_t* p, uint32_t v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ uint32_t ld_acquire_gpu(uint32_t* p) {
  uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_release_sys(uint32_t* p, uint32_t v) {
  asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ uint32_t ld_acquire_sys(uint32_t* p) {
  uint32_t v;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_relaxed_cta(uint32_t* p, uint32_t v) {
  asm volatile("st.relaxed.cta.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void st_release_cta(uint32_t* p, uint32_t v) {
  asm volatile("st.release.cta.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ uint32_t ld_acquire_cta(uint32_t* p) {
  uint32_t v;
  asm volatile("ld.acquire.cta.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ uint32_t ld_relaxed_cta(uint32_t* p) {
  uint32_t v;
  asm volatile("ld.relaxed.cta.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void red_release_gpu_add(uint32_t* p, uint32_t v) {
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ uint32_t atom_acquire_gpu_add(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.acquire.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}
__device__ __forceinline__ uint32_t atom_acq_rel_gpu_exch(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.acq_rel.gpu.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}
__device__ __forceinline__ uint32_t atom_acquire_gpu_cas(uint32_t* p, uint32_t cmp, uint32_t v) {
  uint32_t old;
  asm volatile("atom.acquire.gpu.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(p), "r"(cmp), "r"(v)
               : "memory");
  return old;
}
__device__ __forceinline__ void fence_acq_rel_gpu() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
__device__ __forceinline__ void fence_sc_gpu() { asm volatile("fence.sc.gpu;" ::: "memory"); }
__device__ __forceinline__ void fence_sc_sys() { asm volatile("fence.sc.sys;" ::: "memory"); }
__device__ __forceinline__ void fence_sc_cta() { asm volatile("fence.sc.cta;" ::: "memory"); }
__device__ __forceinline__ void fence_release_gpu() { asm volatile("fence.release.gpu;" ::: "memory"); }
__device__ __forceinline__ void fence_acquire_gpu() { asm volatile("fence.acquire.gpu;" ::: "memory"); }
__device__ __forceinline__ void membar_gl() { asm volatile("membar.gl;" ::: "memory"); }
__device__ __forceinline__ void st_release_gpu_v2(uint32_t* p, uint32_t a, uint32_t b) {
  asm volatile("st.release.gpu.global.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(a), "r"(b) : "memory");
}
__device__ __forceinline__ void ld_acquire_gpu_v2(uint32_t* p, uint32_t* a, uint32_t* b) {
  uint32_t x, y;
  asm volatile("ld.acquire.gpu.global.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "l"(p) : "memory");
  *a = x;
  *b = y;
}

// ---- tests: (x, y) are the two locations, r the thread's observation ------------------------

// MP with release store / acquire load.
__device__ void mp_relacq_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); st_release_gpu(y, 1); (void)r; }
__device__ void mp_relacq_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { r[0] = ld_acquire_gpu(y); r[1] = ld_relaxed_gpu(x); }
// MP with fences between relaxed accesses.
__device__ void mp_fence_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); fence_acq_rel_gpu(); st_relaxed_gpu(y, 1); (void)r; }
__device__ void mp_fence_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { r[0] = ld_relaxed_gpu(y); fence_acq_rel_gpu(); r[1] = ld_relaxed_gpu(x); }
// MP with fence.release / fence.acquire (PTX 8.6).
__device__ void mp_fence_relacq_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); fence_release_gpu(); st_relaxed_gpu(y, 1); (void)r; }
__device__ void mp_fence_relacq_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { r[0] = ld_relaxed_gpu(y); fence_acquire_gpu(); r[1] = ld_relaxed_gpu(x); }
// MP with a release reduction and an acquire read-modify-write.
__device__ void mp_atomics_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); red_release_gpu_add(y, 1); (void)r; }
__device__ void mp_atomics_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { r[0] = atom_acquire_gpu_add(y, 0); r[1] = ld_relaxed_gpu(x); }
// MP with acq_rel exchange (writer) and acquire compare-and-swap (reader).
__device__ void mp_exch_cas_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); (void)atom_acq_rel_gpu_exch(y, 1); (void)r; }
__device__ void mp_exch_cas_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { r[0] = atom_acquire_gpu_cas(y, 1, 1); r[1] = ld_relaxed_gpu(x); }
// MP at system scope.
__device__ void mp_relacq_sys_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); fence_sc_sys(); st_release_sys(y, 1); (void)r; }
__device__ void mp_relacq_sys_1(uint32_t* x, uint32_t* y, uint32_t* r) { r[0] = ld_acquire_sys(y); r[1] = ld_relaxed_gpu(x); }
// MP at CTA scope (the two threads are in one CTA).
__device__ void mp_relacq_cta_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_cta(x, 1); st_release_cta(y, 1); (void)r; }
__device__ void mp_relacq_cta_1(uint32_t* x, uint32_t* y, uint32_t* r) { r[0] = ld_acquire_cta(y); r[1] = ld_relaxed_cta(x); }
// MP through vector release/acquire accesses (data in the first element, flag in the second).
__device__ void mp_vector_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); st_release_gpu_v2(y, 1, 1); (void)r; }
__device__ void mp_vector_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { uint32_t a, b; ld_acquire_gpu_v2(y, &a, &b); r[0] = b; r[1] = ld_relaxed_gpu(x); (void)a; }
// Control: MP with relaxed accesses only (the weak outcome is allowed).
__device__ void mp_relaxed_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); st_relaxed_gpu(y, 1); (void)r; }
__device__ void mp_relaxed_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { r[0] = ld_relaxed_gpu(y); r[1] = ld_relaxed_gpu(x); }

// SB with fence.sc.
__device__ void sb_sc_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); fence_sc_gpu(); r[0] = ld_relaxed_gpu(y); }
__device__ void sb_sc_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(y, 1); fence_sc_gpu(); r[1] = ld_relaxed_gpu(x); }
// SB with membar.gl (= fence.sc.gpu).
__device__ void sb_membar_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); membar_gl(); r[0] = ld_relaxed_gpu(y); }
__device__ void sb_membar_1(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(y, 1); membar_gl(); r[1] = ld_relaxed_gpu(x); }
// SB with fence.sc at CTA scope (one CTA).
__device__ void sb_sc_cta_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_cta(x, 1); fence_sc_cta(); r[0] = ld_relaxed_cta(y); }
__device__ void sb_sc_cta_1(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_cta(y, 1); fence_sc_cta(); r[1] = ld_relaxed_cta(x); }
// Control: SB with fence.acq_rel (the weak outcome is allowed).
__device__ void sb_acqrel_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); fence_acq_rel_gpu(); r[0] = ld_relaxed_gpu(y); }
__device__ void sb_acqrel_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(y, 1); fence_acq_rel_gpu(); r[1] = ld_relaxed_gpu(x); }
// Control: SB with relaxed accesses only.
__device__ void sb_relaxed_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(x, 1); r[0] = ld_relaxed_gpu(y); }
__device__ void sb_relaxed_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { st_relaxed_gpu(y, 1); r[1] = ld_relaxed_gpu(x); }

// LB with acquire loads.
__device__ void lb_acq_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { r[0] = ld_acquire_gpu(x); st_relaxed_gpu(y, 1); }
__device__ void lb_acq_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { r[1] = ld_acquire_gpu(y); st_relaxed_gpu(x, 1); }
// LB with fences.
__device__ void lb_fence_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { r[0] = ld_relaxed_gpu(x); fence_acq_rel_gpu(); st_relaxed_gpu(y, 1); }
__device__ void lb_fence_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { r[1] = ld_relaxed_gpu(y); fence_acq_rel_gpu(); st_relaxed_gpu(x, 1); }
// Control: LB with relaxed accesses only.
__device__ void lb_relaxed_gpu_0(uint32_t* x, uint32_t* y, uint32_t* r) { r[0] = ld_relaxed_gpu(x); st_relaxed_gpu(y, 1); }
__device__ void lb_relaxed_gpu_1(uint32_t* x, uint32_t* y, uint32_t* r) { r[1] = ld_relaxed_gpu(y); st_relaxed_gpu(x, 1); }

}  // namespace litmus
