// Host stand-ins for the device functions the TMA helpers (rules/helpers/tensor_copy.h) and the
// mbarrier helpers they complete (rules/helpers/async.h) call, for the portable target. Included
// first by the check program tests/it/models_tensor_copy.rs writes. Shared memory is an arena below
// 4 GiB, so that a 32-bit .shared window address is the host address itself.

#include <math.h>
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
// The reductions' atomics, one thread at a time (the check is single-threaded): the CUDA API's
// read-modify-writes by their documented results.
static inline unsigned int atomicCAS(unsigned int* p, unsigned int cmp, unsigned int val) {
  __atomic_compare_exchange_n(p, &cmp, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return cmp;
}
template <class T>
static T atomicCAS_system(T* p, T cmp, T val) {
  return atomicCAS(p, cmp, val);
}
#define PTX2HIP_MODEL_RMW(name, expr) \
  template <class T, class U>         \
  static T name(T* p, U b) {          \
    const T o = *p, v = (T)b;         \
    *p = (expr);                      \
    return o;                         \
  }                                   \
  template <class T, class U>         \
  static T name##_system(T* p, U b) { \
    return name(p, b);                \
  }
PTX2HIP_MODEL_RMW(atomicAdd, (T)(o + v))
PTX2HIP_MODEL_RMW(atomicMin, v < o ? v : o)
PTX2HIP_MODEL_RMW(atomicMax, v > o ? v : o)
PTX2HIP_MODEL_RMW(atomicAnd, (T)(o& v))
PTX2HIP_MODEL_RMW(atomicOr, (T)(o | v))
PTX2HIP_MODEL_RMW(atomicXor, (T)(o ^ v))
PTX2HIP_MODEL_RMW(atomicExch, v)
PTX2HIP_MODEL_RMW(atomicInc, o >= v ? 0u : o + 1u)
PTX2HIP_MODEL_RMW(atomicDec, (o == 0u || o > v) ? v : o - 1u)
static inline float __fadd_rn(float a, float b) { return a + b; }

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
