// Host stand-ins for what the counted-barrier helpers (rules/helpers/sync.h) call, for both
// targets, and the PTX reference of a counted barrier. Included first by the check program
// tests/it/models_named_barriers.rs writes. A host thread plays one arriving unit: on the portable
// target a warp (its lane 0, the leader, stands for the 32 threads), on the AMD target a wave
// whose execution mask says which 32-lane halves (PTX warps) are active. Shared memory is the
// helpers' own function-scope array, a static here.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#define __host__
#define __device__
#define __shared__ static

struct ptx2hip_model_dim3 {
  unsigned x, y, z;
};
static const ptx2hip_model_dim3 blockIdx = {0, 0, 0};
static ptx2hip_model_dim3 blockDim = {1, 1, 1};
static thread_local ptx2hip_model_dim3 threadIdx = {0, 0, 0};
static inline void __syncthreads() {}  // init runs before the model's threads start

// Portable target (CUDA): a warp is the thread's leader lane; sequentially consistent host
// atomics are stronger than the device's, which the helpers' own fences must not need.
static inline unsigned __activemask() { return 1u; }
static inline int __ffs(unsigned x) { return __builtin_ffs((int)x); }
static inline void __syncwarp(unsigned) {}
static inline unsigned __shfl_sync(unsigned, unsigned v, int) { return v; }
static inline unsigned atomicCAS(unsigned* p, unsigned cmp, unsigned val) {
  __atomic_compare_exchange_n(p, &cmp, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return cmp;
}
static inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// AMD target: the wave's execution mask (which halves arrive), lane 0 the first active lane.
static thread_local uint64_t model_exec = 1u;
static inline uint64_t __builtin_amdgcn_read_exec() { return model_exec; }
static inline unsigned __lane_id() { return (unsigned)__builtin_ctzll(model_exec); }
static inline uint32_t __builtin_amdgcn_readfirstlane(uint32_t v) { return v; }
#define __HIP_MEMORY_SCOPE_WORKGROUP 2
#define __hip_atomic_load(p, order, scope) __atomic_load_n(p, __ATOMIC_SEQ_CST)
#define __hip_atomic_compare_exchange_weak(p, expected, desired, ok, fail, scope) \
  __atomic_compare_exchange_n(p, expected, desired, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define __builtin_amdgcn_fence(order, scope) __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __builtin_amdgcn_s_sleep(n) std::this_thread::yield()

// The watchdog (ptx2hip_spin_watch, rules/helpers/control.h): a host clock, abort for the trap.
// Every spin reads the clock: it yields the host core to the threads that are to arrive.
static inline void __trap() { abort(); }
static inline long long clock64() {
  std::this_thread::yield();
  return (long long)std::chrono::steady_clock::now().time_since_epoch().count();
}
#define __builtin_readsteadycounter() ((uint64_t)clock64())

// The PTX ISA's counted barrier, as its text describes it: warps arrive one at a time for 32
// threads each; the arrival that brings the count to `count` completes the phase, and the barrier
// is reinitialised for the next.
struct RefBarrier {
  uint32_t arrived = 0, phase = 0;
  // The phase the arrival belongs to.
  uint32_t arrive(uint32_t count) {
    const uint32_t mine = phase;
    arrived += 32;
    if (arrived == count) arrived = 0, phase = (phase + 1) & 0xffffu;
    return mine;
  }
};

static int failures = 0;
static const char* current = "";
#define EXPECT(cond, what, a, b)                                                        \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      if (++failures < 20)                                                              \
        printf("%s: %s (%lld, %lld)\n", current, what, (long long)(a), (long long)(b)); \
    }                                                                                   \
  } while (0)
