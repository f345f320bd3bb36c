// Helpers of rules/sync.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_cp_async
// cp.async done synchronously: n (4, 8 or 16) bytes to dst, the first src_size of them from src
// and the rest zeros. No source byte at or past src_size is read. PTX requires both addresses
// aligned to n, so the destination is written with one n-byte store: a full copy is one vector
// load and store; a zero fill (src_size 0, the usual out-of-bounds tile) or a partial source, read
// byte by byte, is assembled in registers first.
__device__ inline void ptx2hip_cp_async(void* dst, const void* src, uint32_t n, uint32_t src_size) {
  if (src_size >= n) {
    if (n == 16) *(uint4*)dst = *(const uint4*)src;
    else if (n == 8) *(uint2*)dst = *(const uint2*)src;
    else *(uint32_t*)dst = *(const uint32_t*)src;
    return;
  }
  const unsigned char* s = (const unsigned char*)src;
  uint64_t lo = 0, hi = 0;
  for (uint32_t i = 0; i < src_size; ++i) {
    const uint64_t b = (uint64_t)s[i] << (8 * (i & 7));
    if (i < 8) lo |= b;
    else hi |= b;
  }
  if (n == 16)
    *(uint4*)dst =
        make_uint4((uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32));
  else if (n == 8) *(uint2*)dst = make_uint2((uint32_t)lo, (uint32_t)(lo >> 32));
  else *(uint32_t*)dst = (uint32_t)lo;
}
// ptx2hip:end

// Counted barriers (`bar.sync id, count`, `bar.arrive id, count`): NVIDIA's 16 named barriers of a
// CTA emulated in 16 words of shared memory, one per barrier id:
//   bits  0..15  threads arrived in the current phase, in whole warps (PTX counts a warp's arrival
//                as 32 threads: its exited threads count too)
//   bits 16..31  the generation, incremented when a phase completes
// A warp's arrival is one compare-and-swap that adds its 32 threads and, when that reaches the
// count, completes the phase (arrivals restart at zero, the generation moves on), as the hardware
// does atomically: a warp arriving just after a completion belongs to the next phase. Waiters spin
// until the generation their arrival belonged to has passed. The words must be zero before the
// first barrier: `ptx2hip translate` calls ptx2hip_named_bar_init at the entry of every kernel of
// the file that reaches one.

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

// ptx2hip:helper ptx2hip_named_bar_next
// The state word after `warps` warps (1, or 2 for both halves of a wave64) arrive at it one after
// the other, each for 32 threads, with `count` threads completing a phase. `phases` receives the
// generation each arrival belongs to: the first warp's in bits 0..15, the second's in 16..31.
__device__ inline uint32_t ptx2hip_named_bar_next(uint32_t w, uint32_t warps, uint32_t count,
                                                  uint32_t* phases) {
  uint32_t arrived = w & 0xffffu, generation = w >> 16;
  *phases = 0u;
  for (uint32_t k = 0; k < warps; ++k) {
    *phases |= (generation & 0xffffu) << (16u * k);
    arrived += 32u;
    if (arrived >= count) {
      arrived = 0u;
      generation = (generation + 1u) & 0xffffu;
    }
  }
  return generation << 16 | arrived;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_named_bar_arrive requires=ptx2hip_named_bar_state,ptx2hip_named_bar_init,ptx2hip_named_bar_next
// The calling warp arrives at barrier `id` for its 32 threads (release at CTA scope: a fence, then
// the first active lane's compare-and-swap); returns the generation the arrival belongs to, which
// that lane hands to the others. A HIP wave64 holds two warps: it arrives once per half with an
// active lane, the lower half first.
__device__ inline uint32_t ptx2hip_named_bar_arrive(uint32_t id, uint32_t count) {
  uint32_t* w = ptx2hip_named_bar_state() + (id & 15u);
#if defined(__HIP__)
  const unsigned long long active = __ballot(1);
  const bool low = (uint32_t)active != 0u, high = (uint32_t)(active >> 32) != 0u;
  const uint32_t warps = (uint32_t)low + (uint32_t)high;
  const int leader = __ffsll(active) - 1;
  const bool first = (int)__lane_id() == leader;
  const bool second = low && high && __lane_id() >= 32u;
#else
  const uint32_t active = __activemask();
  const uint32_t warps = 1u;
  const int leader = __ffs(active) - 1;
  const bool first =
      (int)((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u) == leader;
  const bool second = false;
#endif
  __threadfence_block();
  uint32_t phases = 0u;
  if (first) {
    uint32_t old = *(volatile uint32_t*)w;
    for (;;) {
      const uint32_t seen = atomicCAS(w, old, ptx2hip_named_bar_next(old, warps, count, &phases));
      if (seen == old) break;
      old = seen;
    }
  }
#if defined(__HIP__)
  phases = __shfl(phases, leader);
#else
  phases = __shfl_sync(active, phases, leader);
#endif
  return second ? phases >> 16 : phases & 0xffffu;
}
// ptx2hip:amd
// The calling wave arrives at barrier `id` for 32 threads per PTX warp it holds with an active lane
// (both halves of a wave64, the lower first), from its first active lane: a release fence at
// workgroup scope, then one LDS compare-and-swap. Returns the generation this lane's arrival
// belongs to (the first lane's answer, read by every lane).
__device__ inline uint32_t ptx2hip_named_bar_arrive(uint32_t id, uint32_t count) {
  uint32_t* w = ptx2hip_named_bar_state() + (id & 15u);
  const uint64_t active = __builtin_amdgcn_read_exec();
  const bool low = (uint32_t)active != 0u, high = (uint32_t)(active >> 32) != 0u;
  const uint32_t warps = (uint32_t)low + (uint32_t)high;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  uint32_t phases = 0u;
  if (__lane_id() == (unsigned)__builtin_ctzll(active)) {
    uint32_t old = __hip_atomic_load(w, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
    while (!__hip_atomic_compare_exchange_weak(
        w, &old, ptx2hip_named_bar_next(old, warps, count, &phases), __ATOMIC_RELAXED,
        __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP)) {}
  }
  phases = __builtin_amdgcn_readfirstlane(phases);
  return low && high && __lane_id() >= 32u ? phases >> 16 : phases & 0xffffu;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_named_bar_sync requires=ptx2hip_named_bar_arrive,ptx2hip_spin_watch
// bar.sync id, count: arrive, then wait (acquire at CTA scope) until the phase of the arrival has
// completed. The wait is watched (ptx2hip_spin_watch): a barrier that never completes traps with
// `file:line`.
__device__ inline void ptx2hip_named_bar_sync(uint32_t id, uint32_t count, const char* file,
                                              int line) {
  const uint32_t generation = ptx2hip_named_bar_arrive(id, count);
  const volatile uint32_t* w = ptx2hip_named_bar_state() + (id & 15u);
  ptx2hip_spin spin = {0, 0};
  while ((*w >> 16) == generation) ptx2hip_spin_watch(spin, file, line);
  __threadfence_block();
}
// ptx2hip:amd
// bar.sync id, count: arrive, then wait (acquire at workgroup scope) until the phase of the arrival
// has completed, sleeping between polls so that the arriving waves get the SIMD; watched by
// ptx2hip_spin_watch.
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
