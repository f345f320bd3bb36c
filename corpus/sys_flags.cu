// System- and device-scope flags and acquire/release handshakes, in the style of the NCCL and
// DeepEP communication kernels (st.release.sys / ld.acquire.sys flag words, relaxed L1::no_allocate
// polling, release reductions on counters, fences between data and flag).
#include <stdint.h>

namespace comm {

__device__ __forceinline__ void st_release_sys(uint32_t* flag, uint32_t v) {
  asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(flag), "r"(v) : "memory");
}

__device__ __forceinline__ uint32_t ld_acquire_sys(const uint32_t* flag) {
  uint32_t v;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
  return v;
}

__device__ __forceinline__ void st_release_gpu(uint32_t* flag, uint32_t v) {
  asm volatile("st.global.release.gpu.b32 [%0], %1;" ::"l"(flag), "r"(v) : "memory");
}

__device__ __forceinline__ uint32_t ld_acquire_gpu(const uint32_t* flag) {
  uint32_t v;
  asm volatile("ld.global.acquire.gpu.b32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
  return v;
}

__device__ __forceinline__ uint32_t ld_relaxed_gpu_no_alloc(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.relaxed.gpu.global.L1::no_allocate.b32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ void st_relaxed_gpu_no_alloc(uint32_t* p, uint32_t v) {
  asm volatile("st.relaxed.gpu.global.L1::no_allocate.b32 [%0], %1;" ::"l"(p), "r"(v));
}

__device__ __forceinline__ uint64_t ld_acquire_sys_u64(const uint64_t* p) {
  uint64_t v;
  asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void st_release_sys_u64(uint64_t* p, uint64_t v) {
  asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ void red_release_gpu_add(int* counter, int v) {
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(counter), "r"(v) : "memory");
}

__device__ __forceinline__ void red_relaxed_gpu_add(int* counter, int v) {
  asm volatile("red.relaxed.gpu.global.add.s32 [%0], %1;" ::"l"(counter), "r"(v) : "memory");
}

__device__ __forceinline__ uint32_t atom_add_release_gpu(uint32_t* counter, uint32_t v) {
  uint32_t old;
  asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;" : "=r"(old) : "l"(counter), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ uint32_t atom_acq_rel_sys_exch(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.acq_rel.sys.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ void fence_acq_rel_gpu() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
__device__ __forceinline__ void fence_sc_sys() { asm volatile("fence.sc.sys;" ::: "memory"); }
__device__ __forceinline__ void fence_acq_rel_cta() { asm volatile("fence.acq_rel.cta;" ::: "memory"); }
__device__ __forceinline__ void block_sync() { asm volatile("bar.sync 0;" ::: "memory"); }

}  // namespace comm

/// Each block runs a handshake between its warp 0 (producer) and warp 1 (consumer) through
/// device-scope and system-scope flags, then every thread adds to counters with release
/// reductions. Everything written is deterministic: the consumer only reads data after it saw
/// the flag, the counters receive commutative integer additions.
__global__ void sys_flags_kernel(const uint32_t* __restrict__ in, uint32_t* flags, uint32_t* data,
                                 uint32_t* out, int n) {
  const int b = blockIdx.x, t = threadIdx.x;
  uint32_t* f = flags + 8 * b;            // f[0]: gpu flag, f[1]: sys flag, f[2]: counter
  uint32_t* d = data + 64 * b;            // 32 words for the gpu handshake, 32 for sys
  uint64_t* f64 = (uint64_t*)(flags + 8 * b + 4);
  if (t == 0) {
    f[0] = 0;
    f[1] = 0;
    f[2] = 0;
    f64[0] = 0;
  }
  comm::block_sync();
  const uint32_t token = (in[b] | 1u);
  if (t < 32) {
    // Producer: data, then the flag with release semantics (two protocols).
    d[t] = in[64 * b + t] ^ token;
    comm::fence_acq_rel_cta();
    if (t == 0) comm::st_release_gpu(&f[0], token);
    comm::st_relaxed_gpu_no_alloc(&d[32 + t], in[64 * b + 32 + t] + token);
    comm::fence_sc_sys();
    if (t == 0) comm::st_release_sys(&f[1], token);
    if (t == 1) comm::st_release_sys_u64(f64, ((uint64_t)token << 32) | token);
  } else if (t < 64) {
    const int i = t - 32;
    while (comm::ld_acquire_gpu(&f[0]) != token) {
    }
    uint32_t a = d[i];
    while (comm::ld_acquire_sys(&f[1]) != token) {
    }
    uint32_t c = comm::ld_relaxed_gpu_no_alloc(&d[32 + i]);
    comm::fence_acq_rel_gpu();
    uint64_t w = comm::ld_acquire_sys_u64(f64);
    out[64 * b + i] = a;
    out[64 * b + 32 + i] = c ^ (uint32_t)(w >> 32) ^ (uint32_t)w;
  }
  // Counters: every thread adds its lane number; the sum and the final exchange are fixed.
  comm::red_release_gpu_add((int*)&f[2], t & 7);
  comm::red_relaxed_gpu_add((int*)&f[2], 1);
  uint32_t before = comm::atom_add_release_gpu(&f[3], 0u);
  (void)before;
  comm::block_sync();
  if (t == 0) {
    out[64 * n / 64 + b] = comm::atom_acq_rel_sys_exch(&f[2], 0u);
    out[64 * n / 64 + 64 + b] = comm::ld_relaxed_gpu_no_alloc(&f[2]);
  }
}
