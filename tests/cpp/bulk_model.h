// Host stand-ins for the device functions the bulk helpers (rules/helpers/bulk.h) and the atomic
// helpers they call (rules/helpers/atomic.h) use, for both targets, after async_model.h. Every
// atomic is a sequentially consistent host atomic (stronger than the device's relaxed ones).

#include <stdint.h>

struct uint4 {
  uint32_t x, y, z, w;
};

// The value a compare-and-swap loop stores: next(old).
template <class T, class F>
static T host_rmw(T* p, F next) {
  T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while (!__atomic_compare_exchange_n(p, &old, next(old), false, __ATOMIC_SEQ_CST,
                                      __ATOMIC_SEQ_CST)) {}
  return old;
}

// Portable target: the CUDA/HIP API atomics (device and system scope alike on the host).
template <class T>
static T atomicAdd(T* p, T v) {
  return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}
template <class T>
static T atomicAnd(T* p, T v) {
  return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
}
template <class T>
static T atomicOr(T* p, T v) {
  return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
}
template <class T>
static T atomicXor(T* p, T v) {
  return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
}
template <class T>
static T atomicExch(T* p, T v) {
  return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}
template <class T>
static T atomicMin(T* p, T v) {
  return host_rmw(p, [v](T o) { return v < o ? v : o; });
}
template <class T>
static T atomicMax(T* p, T v) {
  return host_rmw(p, [v](T o) { return v > o ? v : o; });
}
static unsigned atomicCAS(unsigned* p, unsigned cmp, unsigned val) {
  __atomic_compare_exchange_n(p, &cmp, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return cmp;
}
static unsigned atomicInc(unsigned* p, unsigned b) {
  return host_rmw(p, [b](unsigned o) { return o >= b ? 0u : o + 1u; });
}
static unsigned atomicDec(unsigned* p, unsigned b) {
  return host_rmw(p, [b](unsigned o) { return (o == 0u || o > b) ? b : o - 1u; });
}
#define atomicAdd_system atomicAdd
#define atomicAnd_system atomicAnd
#define atomicOr_system atomicOr
#define atomicXor_system atomicXor
#define atomicExch_system atomicExch
#define atomicMin_system atomicMin
#define atomicMax_system atomicMax
#define atomicCAS_system atomicCAS
static inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// AMD target: clang's HIP scoped atomics and the AMDGPU inc/dec builtins.
#define __HIP_MEMORY_SCOPE_AGENT 3
#define __hip_atomic_fetch_add(p, v, order, scope) __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST)
#define __hip_atomic_fetch_and(p, v, order, scope) __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST)
#define __hip_atomic_fetch_or(p, v, order, scope) __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST)
#define __hip_atomic_fetch_xor(p, v, order, scope) __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST)
#define __hip_atomic_fetch_min(p, v, order, scope) atomicMin(p, v)
#define __hip_atomic_fetch_max(p, v, order, scope) atomicMax(p, v)
#define __builtin_amdgcn_atomic_inc32(p, v, order, scope) atomicInc((unsigned*)(p), v)
#define __builtin_amdgcn_atomic_dec32(p, v, order, scope) atomicDec((unsigned*)(p), v)

// One integer bulk reduction statement of the family (kReductions, written by models_bulk.rs):
// its PTX, .op and .type, and a call of its translation (dst: a global pointer, src: a shared
// window address).
struct ReduceCase {
  const char* ptx;
  const char* op;
  const char* ty;
  void (*run)(uint64_t dst, uint32_t src, uint32_t bytes);
};
