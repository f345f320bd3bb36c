// Helpers of rules/atomic.toml (markers: rules/README.md, "Helpers").

// ---------------------------------------------------------------------------------------------
// Helpers: --target portable (CUDA/HIP common API)

// ptx2hip:helper ptx2hip_scope_fence requires=ptx2hip_scope
// A fence of a PTX scope through the CUDA/HIP API (SCOPE: ptx2hip_scope): fence.sc
// (membar) on NVIDIA, a seq_cst fence on AMD; either is at least an acquire-release fence.
template <int SCOPE>
__device__ inline void ptx2hip_scope_fence() {
  if (SCOPE == ptx2hip_scope::cta) __threadfence_block();
  else if (SCOPE == ptx2hip_scope::gpu) __threadfence();
  else __threadfence_system();
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fence_before requires=ptx2hip_scope_fence,ptx2hip_order
// The release half of an access with order SEM (ptx2hip_order: release, acq_rel): a fence before it.
template <int SEM, int SCOPE>
__device__ inline void ptx2hip_fence_before() {
  if (SEM == ptx2hip_order::release || SEM == ptx2hip_order::acq_rel) ptx2hip_scope_fence<SCOPE>();
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_fence_after requires=ptx2hip_scope_fence,ptx2hip_order
// The acquire half of an access with order SEM (ptx2hip_order: acquire, acq_rel): a fence after it.
template <int SEM, int SCOPE>
__device__ inline void ptx2hip_fence_after() {
  if (SEM == ptx2hip_order::acquire || SEM == ptx2hip_order::acq_rel) ptx2hip_scope_fence<SCOPE>();
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_atom_op
// The operation of atom/red as a template argument, named after the PTX .op (and, or, xor are C++
// keywords, so the bit operations are bit_and, bit_or, bit_xor); inc and dec pick atom.inc/.dec.
namespace ptx2hip_atom_op {
inline constexpr int add = 0, min = 1, max = 2, bit_and = 3, bit_or = 4, bit_xor = 5, exch = 6;
inline constexpr bool inc = false, dec = true;
}  // namespace ptx2hip_atom_op
// ptx2hip:end

// ptx2hip:helper ptx2hip_rmw_api requires=ptx2hip_atom_op
// One relaxed read-modify-write through the CUDA/HIP common API at device scope (SYS false) or
// system scope. OP: ptx2hip_atom_op. 64-bit values go through
// unsigned long long (the API's 64-bit type; add and the bit operations are the same on signed
// values); signed 64-bit min/max, missing from HIP's API, is a compare-and-swap loop.
template <int OP, bool SYS>
__device__ inline uint32_t ptx2hip_rmw_api(uint32_t* p, uint32_t b) {
  unsigned int* q = (unsigned int*)p;
  if (OP == ptx2hip_atom_op::add) return SYS ? atomicAdd_system(q, b) : atomicAdd(q, b);
  if (OP == ptx2hip_atom_op::min) return SYS ? atomicMin_system(q, b) : atomicMin(q, b);
  if (OP == ptx2hip_atom_op::max) return SYS ? atomicMax_system(q, b) : atomicMax(q, b);
  if (OP == ptx2hip_atom_op::bit_and) return SYS ? atomicAnd_system(q, b) : atomicAnd(q, b);
  if (OP == ptx2hip_atom_op::bit_or) return SYS ? atomicOr_system(q, b) : atomicOr(q, b);
  if (OP == ptx2hip_atom_op::bit_xor) return SYS ? atomicXor_system(q, b) : atomicXor(q, b);
  return SYS ? atomicExch_system(q, b) : atomicExch(q, b);
}
template <int OP, bool SYS>
__device__ inline int32_t ptx2hip_rmw_api(int32_t* p, int32_t b) {
  if (OP == ptx2hip_atom_op::min) return SYS ? atomicMin_system((int*)p, b) : atomicMin((int*)p, b);
  if (OP == ptx2hip_atom_op::max) return SYS ? atomicMax_system((int*)p, b) : atomicMax((int*)p, b);
  return (int32_t)ptx2hip_rmw_api<OP, SYS>((uint32_t*)p, (uint32_t)b);
}
template <int OP, bool SYS>
__device__ inline uint64_t ptx2hip_rmw_api(uint64_t* p, uint64_t b) {
  unsigned long long* q = (unsigned long long*)p;
  unsigned long long v = b;
  if (OP == ptx2hip_atom_op::add) return SYS ? atomicAdd_system(q, v) : atomicAdd(q, v);
  if (OP == ptx2hip_atom_op::min) return SYS ? atomicMin_system(q, v) : atomicMin(q, v);
  if (OP == ptx2hip_atom_op::max) return SYS ? atomicMax_system(q, v) : atomicMax(q, v);
  if (OP == ptx2hip_atom_op::bit_and) return SYS ? atomicAnd_system(q, v) : atomicAnd(q, v);
  if (OP == ptx2hip_atom_op::bit_or) return SYS ? atomicOr_system(q, v) : atomicOr(q, v);
  if (OP == ptx2hip_atom_op::bit_xor) return SYS ? atomicXor_system(q, v) : atomicXor(q, v);
  return SYS ? atomicExch_system(q, v) : atomicExch(q, v);
}
template <int OP, bool SYS>
__device__ inline int64_t ptx2hip_rmw_api(int64_t* p, int64_t b) {
  if (OP != 1 && OP != 2) return (int64_t)ptx2hip_rmw_api<OP, SYS>((uint64_t*)p, (uint64_t)b);
  unsigned long long* q = (unsigned long long*)p;
  unsigned long long old = *(volatile unsigned long long*)q, seen;
  while (true) {
    int64_t o = (int64_t)old;
    int64_t r = OP == ptx2hip_atom_op::min ? (b < o ? b : o) : (b > o ? b : o);
    if (r == o) return o; /* nothing to store: reading the current value is the operation */
    seen = SYS ? atomicCAS_system(q, old, (unsigned long long)r)
               : atomicCAS(q, old, (unsigned long long)r);
    if (seen == old) return o;
    old = seen;
  }
}
// ptx2hip:end

// clang-format off: it reads `ptx2hip_rmw_api<OP, SCOPE == ptx2hip_scope::sys>(p, b)` as comparisons.
// ptx2hip:helper ptx2hip_atom requires=ptx2hip_rmw_api,ptx2hip_fence_before,ptx2hip_fence_after,ptx2hip_scope
// atom/red with order SEM and scope SCOPE: fences of the scope around a relaxed API atomic.
template <int OP, int SEM, int SCOPE, class T>
__device__ inline T ptx2hip_atom(T* p, T b) {
  ptx2hip_fence_before<SEM, SCOPE>();
  T old = ptx2hip_rmw_api<OP, SCOPE == ptx2hip_scope::sys>(p, b);
  ptx2hip_fence_after<SEM, SCOPE>();
  return old;
}
// ptx2hip:end
// clang-format on

// ptx2hip:helper ptx2hip_cas_api
// One relaxed compare-and-swap through the CUDA/HIP API (device or system scope).
__device__ inline uint32_t ptx2hip_cas_api(uint32_t* p, uint32_t cmp, uint32_t val, bool sys) {
  return sys ? atomicCAS_system((unsigned int*)p, cmp, val) : atomicCAS((unsigned int*)p, cmp, val);
}
__device__ inline uint64_t ptx2hip_cas_api(uint64_t* p, uint64_t cmp, uint64_t val, bool sys) {
  unsigned long long* q = (unsigned long long*)p;
  return sys ? atomicCAS_system(q, (unsigned long long)cmp, (unsigned long long)val)
             : atomicCAS(q, (unsigned long long)cmp, (unsigned long long)val);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_cas16 requires=ptx2hip_cas_api
// 16-bit compare-and-swap on the aligned 32-bit word that holds the halfword (little-endian: an
// address with bit 1 set is the high half). Retried only while the other halfword changes, so
// the halfword operation happens once: it either stores or observes a value different from cmp.
__device__ inline uint16_t ptx2hip_cas16(uint16_t* p, uint16_t cmp, uint16_t val, bool sys) {
  uintptr_t a = (uintptr_t)p;
  uint32_t* w = (uint32_t*)(a & ~(uintptr_t)3);
  unsigned sh = (unsigned)(a & 2) * 8;
  uint32_t old = *(volatile uint32_t*)w;
  while (true) {
    uint16_t cur = (uint16_t)(old >> sh);
    if (cur != cmp) return cur;
    uint32_t next = (old & ~(0xffffu << sh)) | ((uint32_t)val << sh);
    uint32_t seen = ptx2hip_cas_api(w, old, next, sys);
    if (seen == old) return cur;
    old = seen;
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_atom_cas requires=ptx2hip_cas_api,ptx2hip_cas16,ptx2hip_fence_before,ptx2hip_fence_after,ptx2hip_scope
// atom.cas with order SEM and scope SCOPE.
template <int SEM, int SCOPE>
__device__ inline uint32_t ptx2hip_atom_cas(uint32_t* p, uint32_t cmp, uint32_t val) {
  ptx2hip_fence_before<SEM, SCOPE>();
  uint32_t old = ptx2hip_cas_api(p, cmp, val, SCOPE == ptx2hip_scope::sys);
  ptx2hip_fence_after<SEM, SCOPE>();
  return old;
}
template <int SEM, int SCOPE>
__device__ inline uint64_t ptx2hip_atom_cas(uint64_t* p, uint64_t cmp, uint64_t val) {
  ptx2hip_fence_before<SEM, SCOPE>();
  uint64_t old = ptx2hip_cas_api(p, cmp, val, SCOPE == ptx2hip_scope::sys);
  ptx2hip_fence_after<SEM, SCOPE>();
  return old;
}
template <int SEM, int SCOPE>
__device__ inline uint16_t ptx2hip_atom_cas(uint16_t* p, uint16_t cmp, uint16_t val) {
  ptx2hip_fence_before<SEM, SCOPE>();
  uint16_t old = ptx2hip_cas16(p, cmp, val, SCOPE == ptx2hip_scope::sys);
  ptx2hip_fence_after<SEM, SCOPE>();
  return old;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_atom_incdec requires=ptx2hip_cas_api,ptx2hip_fence_before,ptx2hip_fence_after,ptx2hip_scope,ptx2hip_atom_op
// atom.inc (DEC false: old >= b ? 0 : old + 1) / atom.dec (DEC true: (old == 0 || old > b) ? b :
// old - 1). CUDA's and HIP's atomicInc/atomicDec compute exactly these at device scope; system
// scope is a compare-and-swap loop (HIP has no atomicInc_system).
template <bool DEC, int SEM, int SCOPE>
__device__ inline uint32_t ptx2hip_atom_incdec(uint32_t* p, uint32_t b) {
  ptx2hip_fence_before<SEM, SCOPE>();
  uint32_t old;
  if (SCOPE != 2) {
    old = DEC ? atomicDec((unsigned int*)p, b) : atomicInc((unsigned int*)p, b);
  } else {
    old = *(volatile uint32_t*)p;
    while (true) {
      uint32_t next = DEC ? ((old == 0u || old > b) ? b : old - 1u) : (old >= b ? 0u : old + 1u);
      uint32_t seen = ptx2hip_cas_api(p, old, next, true);
      if (seen == old) break;
      old = seen;
    }
  }
  ptx2hip_fence_after<SEM, SCOPE>();
  return old;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_space_is_shared
// Whether a generic address points to shared memory (AMD is_shared, CUDA __isShared). The last
// branch is only seen by host compilation passes, which never run device code.
__device__ inline bool ptx2hip_space_is_shared(const void* p) {
#if defined(__HIP_DEVICE_COMPILE__)
  return __builtin_amdgcn_is_shared(p);
#elif defined(__CUDA_ARCH__)
  return __isShared(p) != 0;
#else
  (void)p;
  return false;
#endif
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_atom_f32_sum requires=ptx2hip_ftz_f32,ptx2hip_canon_f32
// The value atom.add.f32 stores: round-to-nearest sum; with flush, subnormal inputs and a
// subnormal result become zeros of their sign; NaN results are the canonical 0x7fffffff.
__device__ inline float ptx2hip_atom_f32_sum(float old, float b, bool flush) {
  if (flush) {
    old = ptx2hip_ftz_f32(old);
    b = ptx2hip_ftz_f32(b);
  }
  float r = __fadd_rn(old, b);
  if (flush) r = ptx2hip_ftz_f32(r);
  return ptx2hip_canon_f32(r);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_atom_add_f32 requires=ptx2hip_atom_f32_sum,ptx2hip_space_is_shared,ptx2hip_cas_api,ptx2hip_fence_before,ptx2hip_fence_after,ptx2hip_bits_from_f32,ptx2hip_f32_from_bits,ptx2hip_scope,ptx2hip_space
// atom.add.f32 as a compare-and-swap loop on the bits. FTZ (ptx2hip_space): shared never flushes, generic flushes
// unless the address points to shared memory, global always.
template <int SEM, int SCOPE, int FTZ>
__device__ inline float ptx2hip_atom_add_f32(float* p, float b) {
  bool flush = FTZ == ptx2hip_space::global ||
               (FTZ == ptx2hip_space::generic && !ptx2hip_space_is_shared(p));
  ptx2hip_fence_before<SEM, SCOPE>();
  uint32_t* w = (uint32_t*)p;
  uint32_t old = *(volatile uint32_t*)w;
  while (true) {
    uint32_t next =
        ptx2hip_bits_from_f32(ptx2hip_atom_f32_sum(ptx2hip_f32_from_bits(old), b, flush));
    uint32_t seen = ptx2hip_cas_api(w, old, next, SCOPE == ptx2hip_scope::sys);
    if (seen == old) break;
    old = seen;
  }
  ptx2hip_fence_after<SEM, SCOPE>();
  return ptx2hip_f32_from_bits(old);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_atom_f64_sum requires=ptx2hip_bits_from_f64,ptx2hip_f64_from_bits
// The value atom.add.f64 stores, as the H100 computes it (docs/VECTORS.md): the round-to-nearest
// sum, subnormals kept. A NaN result is the NaN operand b, else the old value: passed through
// unchanged on global memory (l2: the L2 atomic unit), quieted on shared memory; an invalid sum
// (Inf - Inf) gives 0xfff8000000000000.
__device__ inline double ptx2hip_atom_f64_sum(double old, double b, bool l2) {
  double r = __dadd_rn(old, b);
  if (r == r) return r;
  const uint64_t quiet = l2 ? 0u : 0x0008000000000000ull;
  if (b != b) return ptx2hip_f64_from_bits(ptx2hip_bits_from_f64(b) | quiet);
  if (old != old) return ptx2hip_f64_from_bits(ptx2hip_bits_from_f64(old) | quiet);
  return ptx2hip_f64_from_bits(0xfff8000000000000ull);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_atom_add_f64 requires=ptx2hip_atom_f64_sum,ptx2hip_space_is_shared,ptx2hip_cas_api,ptx2hip_fence_before,ptx2hip_fence_after,ptx2hip_bits_from_f64,ptx2hip_f64_from_bits,ptx2hip_scope,ptx2hip_space
// atom.add.f64 as a compare-and-swap loop on the bits. UNIT: where the H100 performs it — 0 shared
// memory, 2 global memory (the L2 atomic unit), 1 decided by the generic address.
template <int SEM, int SCOPE, int UNIT>
__device__ inline double ptx2hip_atom_add_f64(double* p, double b) {
  const bool l2 = UNIT == ptx2hip_space::global ||
                  (UNIT == ptx2hip_space::generic && !ptx2hip_space_is_shared(p));
  ptx2hip_fence_before<SEM, SCOPE>();
  uint64_t* w = (uint64_t*)p;
  uint64_t old = *(volatile uint64_t*)w;
  while (true) {
    uint64_t next = ptx2hip_bits_from_f64(ptx2hip_atom_f64_sum(ptx2hip_f64_from_bits(old), b, l2));
    uint64_t seen = ptx2hip_cas_api(w, old, next, SCOPE == ptx2hip_scope::sys);
    if (seen == old) break;
    old = seen;
  }
  ptx2hip_fence_after<SEM, SCOPE>();
  return ptx2hip_f64_from_bits(old);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_atom_add_half requires=ptx2hip_h_fma,ptx2hip_h2_fma,ptx2hip_cas_api,ptx2hip_fence_before,ptx2hip_fence_after,ptx2hip_scope,ptx2hip_hfmt
// atom.add.noftz on f16/bf16 bits (BF: bfloat16): the half family's exact old * 1 + b inside a
// compare-and-swap loop on the aligned 32-bit word (both lanes for f16x2/bf16x2).
template <int SEM, int SCOPE, bool BF>
__device__ inline uint16_t ptx2hip_atom_add_half(uint16_t* p, uint16_t b) {
  ptx2hip_fence_before<SEM, SCOPE>();
  uintptr_t a = (uintptr_t)p;
  uint32_t* w = (uint32_t*)(a & ~(uintptr_t)3);
  unsigned sh = (unsigned)(a & 2) * 8;
  uint32_t old = *(volatile uint32_t*)w;
  while (true) {
    uint16_t sum =
        ptx2hip_h_fma((uint16_t)(old >> sh), BF ? 0x3f80u : 0x3c00u, b, BF, false, false, false);
    uint32_t next = (old & ~(0xffffu << sh)) | ((uint32_t)sum << sh);
    uint32_t seen = ptx2hip_cas_api(w, old, next, SCOPE == ptx2hip_scope::sys);
    if (seen == old) break;
    old = seen;
  }
  ptx2hip_fence_after<SEM, SCOPE>();
  return (uint16_t)(old >> sh);
}
template <int SEM, int SCOPE, bool BF>
__device__ inline uint32_t ptx2hip_atom_add_half(uint32_t* p, uint32_t b) {
  ptx2hip_fence_before<SEM, SCOPE>();
  uint32_t old = *(volatile uint32_t*)p;
  while (true) {
    uint32_t next = ptx2hip_h2_fma(old, BF ? 0x3f803f80u : 0x3c003c00u, b, BF, false, false, false);
    uint32_t seen = ptx2hip_cas_api(p, old, next, SCOPE == ptx2hip_scope::sys);
    if (seen == old) break;
    old = seen;
  }
  ptx2hip_fence_after<SEM, SCOPE>();
  return old;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_ld_strong requires=ptx2hip_fence_after,ptx2hip_order,ptx2hip_scope
// ld.relaxed/.acquire through the API: a volatile load (ld.volatile = ld.relaxed.sys on NVIDIA; a
// single-copy-atomic load that bypasses non-coherent caches on AMD), then the acquire fence.
template <int SEM, int SCOPE, class T>
__device__ inline T ptx2hip_ld_strong(const T* p) {
  T v = *(const volatile T*)p;
  ptx2hip_fence_after<SEM, SCOPE>();
  return v;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_st_strong requires=ptx2hip_fence_before,ptx2hip_order,ptx2hip_scope
// st.relaxed/.release through the API: the release fence, then a volatile store.
template <int SEM, int SCOPE, class T>
__device__ inline void ptx2hip_st_strong(T* p, T v) {
  ptx2hip_fence_before<SEM, SCOPE>();
  *(volatile T*)p = v;
}
// ptx2hip:end

// ---------------------------------------------------------------------------------------------
// Helpers: --target amd

// ptx2hip:helper ptx2hip_amd_fence_before requires=ptx2hip_order,ptx2hip_scope
// AMD: the release fence of an access with order SEM (release, acq_rel) at PTX scope SCOPE.
template <int SEM, int SCOPE>
__device__ inline void ptx2hip_amd_fence_before() {
  if constexpr (SEM == ptx2hip_order::release || SEM == ptx2hip_order::acq_rel) {
    if constexpr (SCOPE == ptx2hip_scope::cta)
      __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    else if constexpr (SCOPE == ptx2hip_scope::gpu)
      __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
    else __builtin_amdgcn_fence(__ATOMIC_RELEASE, "");
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_amd_fence_after requires=ptx2hip_order,ptx2hip_scope
// AMD: the acquire fence of an access with order SEM (acquire, acq_rel) at PTX scope SCOPE.
template <int SEM, int SCOPE>
__device__ inline void ptx2hip_amd_fence_after() {
  if constexpr (SEM == ptx2hip_order::acquire || SEM == ptx2hip_order::acq_rel) {
    if constexpr (SCOPE == ptx2hip_scope::cta)
      __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    else if constexpr (SCOPE == ptx2hip_scope::gpu)
      __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
    else __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "");
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_amd_cas
// AMD: atom.cas as one scoped compare-exchange; returns the old value. 16 bits: on the aligned
// 32-bit word that holds the halfword (AMD has no 16-bit compare-and-swap), as ptx2hip_cas16:
// a halfword that differs from cmp is a failed compare, a load with the failure order (no
// compare-and-swap issued); the word's compare-and-swap is retried only while the other halfword
// changes, so the halfword operation happens once.
template <int ORDER, int FAIL, int SCOPE, class T>
__device__ inline T ptx2hip_amd_cas(T* p, T cmp, T val) {
  if constexpr (sizeof(T) == 2) {
    const uintptr_t a = (uintptr_t)p;
    uint32_t* w = (uint32_t*)(a & ~(uintptr_t)3);
    const unsigned sh = (unsigned)(a & 2) * 8;
    uint32_t old = __hip_atomic_load(w, FAIL, SCOPE);
    while (true) {
      const T cur = (T)(old >> sh);
      if (cur != cmp) return cur;
      const uint32_t next = (old & ~(0xffffu << sh)) | ((uint32_t)(uint16_t)val << sh);
      if (__hip_atomic_compare_exchange_strong(w, &old, next, ORDER, FAIL, SCOPE)) return cur;
    }
  } else {
    __hip_atomic_compare_exchange_strong(p, &cmp, val, ORDER, FAIL, SCOPE);
    return cmp;
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_amd_atom_add_f32 requires=ptx2hip_atom_f32_sum,ptx2hip_space_is_shared,ptx2hip_bits_from_f32,ptx2hip_f32_from_bits,ptx2hip_space
// AMD: atom.add.f32 as a scoped compare-exchange loop on the bits (FTZ as ptx2hip_atom_add_f32).
template <int ORDER, int SCOPE, int FTZ>
__device__ inline float ptx2hip_amd_atom_add_f32(float* p, float b) {
  bool flush = FTZ == ptx2hip_space::global ||
               (FTZ == ptx2hip_space::generic && !ptx2hip_space_is_shared(p));
  uint32_t* w = (uint32_t*)p;
  uint32_t old = __hip_atomic_load(w, __ATOMIC_RELAXED, SCOPE);
  while (!__hip_atomic_compare_exchange_weak(
      w, &old, ptx2hip_bits_from_f32(ptx2hip_atom_f32_sum(ptx2hip_f32_from_bits(old), b, flush)),
      ORDER, __ATOMIC_RELAXED, SCOPE)) {}
  return ptx2hip_f32_from_bits(old);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_amd_atom_add_f64 requires=ptx2hip_atom_f64_sum,ptx2hip_space_is_shared,ptx2hip_bits_from_f64,ptx2hip_f64_from_bits,ptx2hip_space
// AMD: atom.add.f64 as a scoped compare-exchange loop on the bits (UNIT as ptx2hip_atom_add_f64).
template <int ORDER, int SCOPE, int UNIT>
__device__ inline double ptx2hip_amd_atom_add_f64(double* p, double b) {
  const bool l2 = UNIT == ptx2hip_space::global ||
                  (UNIT == ptx2hip_space::generic && !ptx2hip_space_is_shared(p));
  uint64_t* w = (uint64_t*)p;
  uint64_t old = __hip_atomic_load(w, __ATOMIC_RELAXED, SCOPE);
  while (!__hip_atomic_compare_exchange_weak(
      w, &old, ptx2hip_bits_from_f64(ptx2hip_atom_f64_sum(ptx2hip_f64_from_bits(old), b, l2)),
      ORDER, __ATOMIC_RELAXED, SCOPE)) {}
  return ptx2hip_f64_from_bits(old);
}
// ptx2hip:end
