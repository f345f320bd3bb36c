// Instruction-count pairs for BENCHMARKS.md ("AMD paths vs the HIP API"): each `ptx_NAME` holds an
// inline-PTX statement that ptx2hip translates (`--target amd`), each `api_NAME` the HIP API call a
// careful human port would write for the same job. bench/sync_api.sh translates this file,
// compiles it for gfx90a, gfx942 and gfx1100 and counts the machine instructions of each function.
#include <stdint.h>
#define F extern "C" __device__ __attribute__((noinline, used))

F uint32_t ptx_atom_add_u32(uint32_t* p, uint32_t v) { uint32_t o; asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v)); return o; }
F uint32_t api_atom_add_u32(uint32_t* p, uint32_t v) { return atomicAdd(p, v); }
F void ptx_red_add_u32(uint32_t* p, uint32_t v) { asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v)); }
F void api_red_add_u32(uint32_t* p, uint32_t v) { atomicAdd(p, v); }
F uint32_t ptx_atom_add_sys_u32(uint32_t* p, uint32_t v) { uint32_t o; asm volatile("atom.sys.global.add.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v)); return o; }
F uint32_t api_atom_add_sys_u32(uint32_t* p, uint32_t v) { return atomicAdd_system(p, v); }
F uint32_t ptx_atom_acq_rel_add_u32(uint32_t* p, uint32_t v) { uint32_t o; asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v)); return o; }
F uint32_t api_atom_acq_rel_add_u32(uint32_t* p, uint32_t v) { __threadfence(); uint32_t o = atomicAdd(p, v); __threadfence(); return o; }
F uint32_t ptx_atom_inc_u32(uint32_t* p, uint32_t v) { uint32_t o; asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v)); return o; }
F uint32_t api_atom_inc_u32(uint32_t* p, uint32_t v) { return atomicInc(p, v); }
F uint32_t ptx_atom_cas_b32(uint32_t* p, uint32_t c, uint32_t v) { uint32_t o; asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(o) : "l"(p), "r"(c), "r"(v)); return o; }
F uint32_t api_atom_cas_b32(uint32_t* p, uint32_t c, uint32_t v) { return atomicCAS(p, c, v); }
F uint32_t ptx_atom_exch_b32(uint32_t* p, uint32_t v) { uint32_t o; asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v)); return o; }
F uint32_t api_atom_exch_b32(uint32_t* p, uint32_t v) { return atomicExch(p, v); }
F int ptx_atom_min_s32(int* p, int v) { int o; asm volatile("atom.global.min.s32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v)); return o; }
F int api_atom_min_s32(int* p, int v) { return atomicMin(p, v); }
F float ptx_atom_add_f32(float* p, float v) { float o; asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(o) : "l"(p), "f"(v)); return o; }
F float api_atom_add_f32(float* p, float v) { return atomicAdd(p, v); }
F void ptx_red_add_f32(float* p, float v) { asm volatile("red.global.add.f32 [%0], %1;" ::"l"(p), "f"(v)); }
F void api_red_add_f32(float* p, float v) { atomicAdd(p, v); }
F double ptx_atom_add_f64(double* p, double v) { double o; asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(o) : "l"(p), "d"(v)); return o; }
F double api_atom_add_f64(double* p, double v) { return atomicAdd(p, v); }
F uint32_t ptx_ld_acquire_gpu(const uint32_t* p) { uint32_t v; asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p)); return v; }
F uint32_t api_ld_acquire_gpu(const uint32_t* p) { uint32_t v = *(const volatile uint32_t*)p; __threadfence(); return v; }
F void ptx_st_release_gpu(uint32_t* p, uint32_t v) { asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v)); }
F void api_st_release_gpu(uint32_t* p, uint32_t v) { __threadfence(); *(volatile uint32_t*)p = v; }
F void ptx_st_release_sys(uint32_t* p, uint32_t v) { asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v)); }
F void api_st_release_sys(uint32_t* p, uint32_t v) { __threadfence_system(); *(volatile uint32_t*)p = v; }
F void ptx_fence_sc_gpu() { asm volatile("fence.sc.gpu;"); }
F void api_fence_sc_gpu() { __threadfence(); }
F void ptx_fence_acq_rel_gpu() { asm volatile("fence.acq_rel.gpu;"); }
F void api_fence_acq_rel_gpu() { __threadfence(); }
F void ptx_membar_cta() { asm volatile("membar.cta;"); }
F void api_membar_cta() { __threadfence_block(); }
F void ptx_fence_sc_sys() { asm volatile("fence.sc.sys;"); }
F void api_fence_sc_sys() { __threadfence_system(); }
F void ptx_bar_sync() { asm volatile("bar.sync 0;"); }
F void api_bar_sync() { __syncthreads(); }
F uint32_t ptx_bar_red_popc(uint32_t x) { uint32_t n; asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 0, p; }" : "=r"(n) : "r"(x)); return n; }
F uint32_t api_bar_red_popc(uint32_t x) { return (uint32_t)__syncthreads_count(x != 0); }
F void ptx_cp_async_16(uint32_t smem, const void* g) { asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem), "l"(g)); }
F void api_cp_async_16(uint32_t smem, const void* g) { *(uint4*)(void*)(__attribute__((address_space(3))) char*)(uintptr_t)smem = *(const uint4*)g; }
F uint32_t ptx_atom_shared_add(uint32_t smem, uint32_t v) { uint32_t o; asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(o) : "r"(smem), "r"(v)); return o; }
F uint32_t api_atom_shared_add(uint32_t smem, uint32_t v) { return atomicAdd((uint32_t*)(void*)(__attribute__((address_space(3))) char*)(uintptr_t)smem, v); }
