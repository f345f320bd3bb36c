// Host stand-ins for the device functions the TMA helpers (rules/helpers/tensor_copy.h) and the
// mbarrier helpers they complete (rules/helpers/async.h) call, for the portable target. Included
// first by the check program tests/models_tensor_copy.rs writes. Shared memory is an arena below
// 4 GiB, so that a 32-bit .shared window address is the host address itself.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define __host__
#define __device__
#define __attribute__(x)

struct uint4 {
  uint32_t x, y, z, w;
};

static inline void* __cvta_shared_to_generic(size_t a) { return (void*)a; }
static inline size_t __cvta_generic_to_shared(const void* p) { return (size_t)p; }
static inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long cmp,
                                           unsigned long long val) {
  __atomic_compare_exchange_n(p, &cmp, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return cmp;
}
static inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// A trap ends the check with the statement's complaint.
static inline void __trap() {
  printf("TRAP: the translation trapped (a tensor map it did not write?)\n");
  exit(3);
}

// `bytes` zeroed bytes at an address below 2^32.
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
