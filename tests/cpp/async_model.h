// Host stand-ins for the device functions the mbarrier helpers (rules/helpers/async.h) call, for
// both targets, and the PTX reference model of an mbarrier object. Included first by the check
// program tests/it/models_async.rs writes. Shared memory is an arena mapped below 4 GiB, so that a
// 32-bit .shared window address is the host address itself on both targets.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#define __host__
#define __device__
#define __attribute__(x)

// Portable target: CUDA's shared window and block-scope atomics, as sequentially consistent host
// atomics (stronger than the device's, which the helpers' own fences must not need).
static inline void* __cvta_shared_to_generic(size_t a) { return (void*)a; }
static inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long cmp,
                                           unsigned long long val) {
  __atomic_compare_exchange_n(p, &cmp, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return cmp;
}
static inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// AMD target: the clang HIP atomics and AMDGPU builtins the amd helpers use.
#define __HIP_MEMORY_SCOPE_WORKGROUP 2
#define __hip_atomic_load(p, order, scope) __atomic_load_n(p, __ATOMIC_SEQ_CST)
#define __hip_atomic_compare_exchange_weak(p, expected, desired, ok, fail, scope) \
  __atomic_compare_exchange_n(p, expected, desired, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define __builtin_amdgcn_fence(order, scope) __atomic_thread_fence(__ATOMIC_SEQ_CST)
// s_sleep: every 64th gives the processor up. The threaded ring's six spinning threads must let
// the others run on a machine of two cores; a yield at every poll made the single-threaded part's
// try_wait time-outs (256 polls each) 15 s of system time.
static inline void ptx2hip_model_sleep() {
  static thread_local unsigned calls;
  if (++calls % 64 == 0) std::this_thread::yield();
}
#define __builtin_amdgcn_s_sleep(n) ptx2hip_model_sleep()

// The watchdog of PTX spin loops (ptx2hip_spin_watch, rules/helpers/control.h), both targets:
// a host clock, the CUDA/HIP thread indices of one thread, and abort for the trap.
static inline void __trap() { abort(); }
static inline long long clock64() {
  return (long long)std::chrono::steady_clock::now().time_since_epoch().count();
}
#define __builtin_readsteadycounter() ((uint64_t)clock64())
struct ptx2hip_model_dim3 {
  unsigned x, y, z;
};
static const ptx2hip_model_dim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0};

// The shared-memory arena: `bytes` zeroed bytes at an address below 2^32.
static char* shared_arena(size_t bytes) {
  void* p =
      mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
  if (p == MAP_FAILED || (uintptr_t)p + bytes > (1ull << 32)) {
    printf("no arena below 4 GiB\n");
    exit(2);
  }
  return (char*)p;
}
static uint32_t window(const void* p) { return (uint32_t)(uintptr_t)p; }

// The PTX ISA's mbarrier, as its text describes it (independent of the helpers' packing).
struct RefBarrier {
  uint32_t pending = 0, expected = 0, phase = 0;
  int32_t tx = 0;
  void init(uint32_t count) { pending = expected = count, phase = 0, tx = 0; }
  void settle() {
    if (pending == 0 && tx == 0) phase ^= 1, pending = expected;
  }
  void arrive(uint32_t n, bool drop) {
    pending -= n;
    if (drop) expected -= n;
    settle();
  }
  void expect_tx(uint32_t b) { tx += (int32_t)b; }
  void complete_tx(uint32_t b) {
    tx -= (int32_t)b;
    settle();
  }
  bool done(uint32_t parity) const { return phase != (parity & 1); }
};

static int failures = 0;
#define EXPECT(cond, what, a, b)                                                        \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      if (++failures < 20)                                                              \
        printf("%s: %s (%lld, %lld)\n", current, what, (long long)(a), (long long)(b)); \
    }                                                                                   \
  } while (0)
static const char* current = "";

// xorshift64*, fixed seed: the same sequence on every run.
struct Rng {
  uint64_t s = 0x9e3779b97f4a7c15ull;
  uint32_t next(uint32_t n) {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    return (uint32_t)((s * 0x2545f4914f6cdd1dull) >> 33) % n;
  }
};
