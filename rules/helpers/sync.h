// Helpers of rules/sync.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_cp_async
// cp.async done synchronously: n (4, 8 or 16) bytes to dst, the first src_size of them from src
// and the rest zeros. No source byte at or past src_size is read. A full copy is one vector load
// and store.
__device__ inline void ptx2hip_cp_async(void* dst, const void* src, uint32_t n, uint32_t src_size) {
  if (src_size >= n) {
    if (n == 16) *(uint4*)dst = *(const uint4*)src;
    else if (n == 8) *(uint2*)dst = *(const uint2*)src;
    else *(uint32_t*)dst = *(const uint32_t*)src;
    return;
  }
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  for (uint32_t i = 0; i < n; ++i) d[i] = i < src_size ? s[i] : (unsigned char)0;
}
// ptx2hip:end

// Counted barriers (`bar.sync id, count`, `bar.arrive id, count`): NVIDIA's 16 named barriers of a
// CTA emulated in 16 words of shared memory, one per barrier id:
//   bits  0..15  threads arrived in the current phase, in whole warps (PTX counts a warp's arrival
//                as 32 threads: its exited threads count too)
//   bits 16..31  the generation, incremented when a phase completes
// The arrival that brings the count to `count` completes the phase: one atomic add subtracts
// `count` and adds one generation, so arrivals restart at zero; waiters spin until the generation
// they arrived in has passed. The words must be zero before the first barrier: `ptx2hip translate`
// calls ptx2hip_named_bar_init at the entry of every kernel of the file that reaches one.

// ptx2hip:helper ptx2hip_named_bar_state
// The 16 state words: a function-scope __shared__ array, so every kernel that calls it (through the
// barrier helpers) gets its own 64 bytes of shared memory, and nothing else names them.
__device__ inline uint32_t* ptx2hip_named_bar_state() {
  __shared__ uint32_t state[16];
  return state;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_named_bar_init requires=ptx2hip_named_bar_state
// Zeroes the 16 state words (generation 0, nothing arrived), then waits for the whole CTA: the
// statement translate inserts at the entry of a kernel, before any thread can reach a barrier.
__device__ inline void ptx2hip_named_bar_init() {
  const uint32_t threads = blockDim.x * blockDim.y * blockDim.z;
  const uint32_t t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  for (uint32_t i = t; i < 16u; i += threads) ptx2hip_named_bar_state()[i] = 0u;
  __syncthreads();
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_named_bar_arrive requires=ptx2hip_named_bar_state,ptx2hip_named_bar_init
// The calling warp arrives at barrier `id` (release at CTA scope) for its 32 threads, and the phase
// completes if that brings the arrivals to `count`. Returns the generation the arrival belongs to.
// Every thread reads it before the warp's first active lane arrives (after __syncwarp on NVIDIA,
// whose lanes do not run in lockstep): the phase cannot complete before this warp's arrival, so
// each thread reads the generation it waits on. A HIP wave64 is two warps: it arrives for 32
// threads per half with an active lane.
__device__ inline uint32_t ptx2hip_named_bar_arrive(uint32_t id, uint32_t count) {
  uint32_t* w = ptx2hip_named_bar_state() + (id & 15u);
  const uint32_t generation = *(volatile uint32_t*)w >> 16;
#if defined(__HIP__)
  const unsigned long long active = __ballot(1);
  const uint32_t weight = 32u * (((uint32_t)active != 0u) + ((uint32_t)(active >> 32) != 0u));
  const bool first = __lane_id() == (unsigned)(__ffsll(active) - 1);
#else
  const uint32_t active = __activemask();
  const uint32_t weight = 32u;
  const uint32_t lane =
      (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u;
  const bool first = lane == (uint32_t)(__ffs(active) - 1);
  __syncwarp(active);
#endif
  __threadfence_block();
  if (first) {
    const uint32_t before = atomicAdd(w, weight);
    if ((before & 0xffffu) + weight == count) atomicAdd(w, 0x10000u - count);
  }
  return generation;
}
// ptx2hip:amd
// The calling wave arrives at barrier `id` (release at workgroup scope) for 32 threads per PTX warp
// it holds with an active lane (both halves of a wave64: 64), from its first active lane; the phase
// completes if that brings the arrivals to `count`. Returns the generation the arrival belongs to,
// which every lane reads before the wave arrives (the lanes run in lockstep).
__device__ inline uint32_t ptx2hip_named_bar_arrive(uint32_t id, uint32_t count) {
  uint32_t* w = ptx2hip_named_bar_state() + (id & 15u);
  const uint32_t generation =
      __hip_atomic_load(w, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP) >> 16;
  const uint64_t active = __builtin_amdgcn_read_exec();
  const uint32_t weight = 32u * (((uint32_t)active != 0u) + ((uint32_t)(active >> 32) != 0u));
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  if (__lane_id() == (unsigned)__builtin_ctzll(active)) {
    const uint32_t before =
        __hip_atomic_fetch_add(w, weight, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
    if ((before & 0xffffu) + weight == count)
      __hip_atomic_fetch_add(w, 0x10000u - count, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  }
  return generation;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_named_bar_sync requires=ptx2hip_named_bar_arrive,ptx2hip_spin_watch
// bar.sync id, count: arrive, then wait (acquire at CTA scope) until the phase has completed. The
// wait is watched (ptx2hip_spin_watch): a barrier that never completes traps with `file:line`.
__device__ inline void ptx2hip_named_bar_sync(uint32_t id, uint32_t count, const char* file,
                                              int line) {
  const uint32_t generation = ptx2hip_named_bar_arrive(id, count);
  const volatile uint32_t* w = ptx2hip_named_bar_state() + (id & 15u);
  ptx2hip_spin spin = {0, 0};
  while ((*w >> 16) == generation) ptx2hip_spin_watch(spin, file, line);
  __threadfence_block();
}
// ptx2hip:amd
// bar.sync id, count: arrive, then wait (acquire at workgroup scope) until the phase has completed,
// sleeping between polls so that the arriving waves get the SIMD; watched by ptx2hip_spin_watch.
__device__ inline void ptx2hip_named_bar_sync(uint32_t id, uint32_t count, const char* file,
                                              int line) {
  const uint32_t generation = ptx2hip_named_bar_arrive(id, count);
  uint32_t* w = ptx2hip_named_bar_state() + (id & 15u);
  ptx2hip_spin spin = {0, 0};
  while ((__hip_atomic_load(w, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP) >> 16) ==
         generation) {
    __builtin_amdgcn_s_sleep(1);
    ptx2hip_spin_watch(spin, file, line);
  }
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
// ptx2hip:end
