// Helpers of rules/memory.toml (markers: rules/README.md, "Helpers").

// ---- Address windows -------------------------------------------------------------------------
// A state space's *window* address is what `cvta.to.<space>` returns and what `ld.<space>` takes.
// Each helper converts between a window address and a generic pointer: on NVIDIA with CUDA's
// `__cvta_*` functions (CUDA 11+), on AMD with an address-space cast (LDS = 3, private = 5,
// constant = 4), which the compiler sees through: a load from `ptx2hip_shared_ptr(a)` is one LDS
// instruction. The `portable` definitions choose by compiler (`__HIP__`: clang compiling HIP).

// ptx2hip:helper ptx2hip_shared_ptr
// A .shared window address (cvta.to.shared's result, 32 or 64 bits) as a generic pointer.
__device__ inline void* ptx2hip_shared_ptr(uint64_t a) {
#if defined(__HIP__)
  return (void*)(__attribute__((address_space(3))) char*)(uintptr_t)(uint32_t)a;
#else
  return __cvta_shared_to_generic((size_t)a);
#endif
}
// ptx2hip:amd
// A .shared window address (cvta.to.shared's result, 32 or 64 bits) as a generic pointer:
// LDS addresses are 32-bit offsets.
__device__ inline void* ptx2hip_shared_ptr(uint64_t a) {
  return (void*)(__attribute__((address_space(3))) char*)(uintptr_t)(uint32_t)a;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_shared_addr
// The .shared window address of a generic pointer to shared memory (cvta.to.shared); below 2^32
// on both vendors.
__device__ inline uint32_t ptx2hip_shared_addr(const void* p) {
#if defined(__HIP__)
  return (uint32_t)(uintptr_t)(const __attribute__((address_space(3))) char*)p;
#else
  return (uint32_t)__cvta_generic_to_shared(p);
#endif
}
// ptx2hip:amd
// The .shared window address of a generic pointer to shared memory (cvta.to.shared): the LDS
// offset.
__device__ inline uint32_t ptx2hip_shared_addr(const void* p) {
  return (uint32_t)(uintptr_t)(const __attribute__((address_space(3))) char*)p;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_local_ptr
// A .local window address (cvta.to.local's result) as a generic pointer.
__device__ inline void* ptx2hip_local_ptr(uint64_t a) {
#if defined(__HIP__)
  return (void*)(__attribute__((address_space(5))) char*)(uintptr_t)(uint32_t)a;
#else
  return __cvta_local_to_generic((size_t)a);
#endif
}
// ptx2hip:amd
// A .local window address (cvta.to.local's result) as a generic pointer: private (scratch)
// addresses are 32-bit offsets.
__device__ inline void* ptx2hip_local_ptr(uint64_t a) {
  return (void*)(__attribute__((address_space(5))) char*)(uintptr_t)(uint32_t)a;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_local_addr
// The .local window address of a generic pointer to local memory (cvta.to.local).
__device__ inline uint64_t ptx2hip_local_addr(const void* p) {
#if defined(__HIP__)
  return (uint32_t)(uintptr_t)(const __attribute__((address_space(5))) char*)p;
#else
  return (uint64_t)__cvta_generic_to_local(p);
#endif
}
// ptx2hip:amd
// The .local window address of a generic pointer to local memory (cvta.to.local): the private
// (scratch) offset.
__device__ inline uint64_t ptx2hip_local_addr(const void* p) {
  return (uint32_t)(uintptr_t)(const __attribute__((address_space(5))) char*)p;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_const_ptr
// A .const window address (cvta.to.const's result) as a generic pointer.
__device__ inline void* ptx2hip_const_ptr(uint64_t a) {
#if defined(__HIP__)
  return (void*)(uintptr_t)a;
#else
  return __cvta_constant_to_generic((size_t)a);
#endif
}
// ptx2hip:amd
// A .const window address (cvta.to.const's result) as a generic pointer: AMD constant memory is
// global memory, its addresses are the generic ones.
__device__ inline void* ptx2hip_const_ptr(uint64_t a) { return (void*)(uintptr_t)a; }
// ptx2hip:end

// ptx2hip:helper ptx2hip_const_addr
// The .const window address of a generic pointer to constant memory (cvta.to.const).
__device__ inline uint64_t ptx2hip_const_addr(const void* p) {
#if defined(__HIP__)
  return (uint64_t)(uintptr_t)p;
#else
  return (uint64_t)__cvta_generic_to_constant(p);
#endif
}
// ptx2hip:amd
// The .const window address of a generic pointer to constant memory (cvta.to.const): AMD
// constant memory is global memory, its addresses are the generic ones.
__device__ inline uint64_t ptx2hip_const_addr(const void* p) { return (uint64_t)(uintptr_t)p; }
// ptx2hip:end

// ptx2hip:helper ptx2hip_global_ptr
// A .global window address (cvta.to.global's result) as a generic pointer.
__device__ inline void* ptx2hip_global_ptr(uint64_t a) {
#if defined(__HIP__)
  return (void*)(uintptr_t)a;
#else
  return __cvta_global_to_generic((size_t)a);
#endif
}
// ptx2hip:amd
// A .global window address (cvta.to.global's result) as a generic pointer: the same value.
__device__ inline void* ptx2hip_global_ptr(uint64_t a) { return (void*)(uintptr_t)a; }
// ptx2hip:end

// ptx2hip:helper ptx2hip_global_addr
// The .global window address of a generic pointer to global memory (cvta.to.global).
__device__ inline uint64_t ptx2hip_global_addr(const void* p) {
#if defined(__HIP__)
  return (uint64_t)(uintptr_t)p;
#else
  return (uint64_t)__cvta_generic_to_global(p);
#endif
}
// ptx2hip:amd
// The .global window address of a generic pointer to global memory (cvta.to.global): the same
// value.
__device__ inline uint64_t ptx2hip_global_addr(const void* p) { return (uint64_t)(uintptr_t)p; }
// ptx2hip:end

// ---- Accesses --------------------------------------------------------------------------------

// ptx2hip:helper ptx2hip_vec
// N elements accessed as one aligned unit, as PTX .v2/.v4/.v8 accesses are (natural alignment of
// the whole vector, at most 32 bytes): a single wide load or store on both vendors. Larger
// aggregates (wgmma's accumulator fragments: up to 128 registers, 12 for m64n24) take the largest
// power of two that divides their size, at most 32 bytes.
__host__ __device__ constexpr unsigned long ptx2hip_vec_align(unsigned long bytes) {
  return (bytes & (~bytes + 1)) < 32 ? bytes & (~bytes + 1) : 32;
}
template <typename T, int N>
struct alignas(ptx2hip_vec_align(sizeof(T) * N)) ptx2hip_vec {
  T v[N];
};
// ptx2hip:end

// ptx2hip:helper ptx2hip_load_volatile requires=ptx2hip_vec
// ld.volatile / ld.cv: a load the compiler must perform and keep in order with other volatile
// accesses. A vector is loaded element by element (PTX gives a vector access no atomicity).
template <typename T>
__device__ inline T ptx2hip_load_volatile(const T* p) {
  return *(const volatile T*)p;
}
template <typename T, int N>
__device__ inline ptx2hip_vec<T, N> ptx2hip_load_volatile(const ptx2hip_vec<T, N>* p) {
  ptx2hip_vec<T, N> r;
  for (int i = 0; i < N; ++i) r.v[i] = ((const volatile T*)p->v)[i];
  return r;
}
// ptx2hip:amd
// ld.volatile / ld.cv (PTX: "the same memory synchronization semantics as ld.relaxed.sys", always
// performed, not reordered with volatile accesses to the same location): a relaxed system-scope
// atomic load, which the AMDGPU memory model makes one load with the cache-bypass bits of system
// scope (gfx90a glc, gfx942 sc0 sc1, gfx11 glc) and no wait, so independent loads issue back to
// back, and which stays an LDS instruction on a .shared window address (ds_read_b32/b64). Its
// atomicity gives same-location order (coherence); LLVM never deletes an ordered load; the
// compiler barrier before it keeps two loads of one location from being merged. A C++ volatile
// load would wait for its result before every later access (s_waitcnt vmcnt(0)): LLVM orders
// volatile accesses to all locations, PTX only to the same one.
template <typename W>
__device__ inline W ptx2hip_load_relaxed_sys(const void* p) {
  asm volatile("" ::: "memory");
  return __hip_atomic_load((W*)p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}
template <typename T>
__device__ inline T ptx2hip_load_volatile(const T* p) {
  T r;
  if constexpr (sizeof(T) == 8) {
    uint64_t w = ptx2hip_load_relaxed_sys<uint64_t>(p);
    __builtin_memcpy(&r, &w, sizeof r);
  } else if constexpr (sizeof(T) == 4) {
    uint32_t w = ptx2hip_load_relaxed_sys<uint32_t>(p);
    __builtin_memcpy(&r, &w, sizeof r);
  } else if constexpr (sizeof(T) == 2) {
    uint16_t w = ptx2hip_load_relaxed_sys<uint16_t>(p);
    __builtin_memcpy(&r, &w, sizeof r);
  } else {
    uint8_t w = ptx2hip_load_relaxed_sys<uint8_t>(p);
    __builtin_memcpy(&r, &w, sizeof r);
  }
  return r;
}
// A vector: PTX gives it no atomicity beyond its elements, so a 16-byte vector is two 8-byte
// relaxed loads (each element, at most 8 bytes and naturally aligned, lies in one of them); a
// smaller one is one load.
template <typename T, int N>
__device__ inline ptx2hip_vec<T, N> ptx2hip_load_volatile(const ptx2hip_vec<T, N>* p) {
  ptx2hip_vec<T, N> r;
  if constexpr (sizeof r == 16) {
    const uint64_t lo = ptx2hip_load_relaxed_sys<uint64_t>(p);
    const uint64_t hi = ptx2hip_load_relaxed_sys<uint64_t>((const uint64_t*)p + 1);
    __builtin_memcpy(&r, &lo, 8);
    __builtin_memcpy((char*)&r + 8, &hi, 8);
  } else if constexpr (sizeof r == 8) {
    const uint64_t w = ptx2hip_load_relaxed_sys<uint64_t>(p);
    __builtin_memcpy(&r, &w, 8);
  } else if constexpr (sizeof r == 4) {
    const uint32_t w = ptx2hip_load_relaxed_sys<uint32_t>(p);
    __builtin_memcpy(&r, &w, 4);
  } else {
    const uint16_t w = ptx2hip_load_relaxed_sys<uint16_t>(p);
    __builtin_memcpy(&r, &w, 2);
  }
  return r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_store_volatile requires=ptx2hip_vec
// st.volatile: a store the compiler must perform and keep in order with other volatile
// accesses. A vector is stored element by element (PTX gives a vector access no atomicity).
template <typename T>
__device__ inline void ptx2hip_store_volatile(T* p, T v) {
  *(volatile T*)p = v;
}
template <typename T, int N>
__device__ inline void ptx2hip_store_volatile(ptx2hip_vec<T, N>* p, ptx2hip_vec<T, N> v) {
  for (int i = 0; i < N; ++i) ((volatile T*)p->v)[i] = v.v[i];
}
// ptx2hip:amd
// st.volatile (the synchronization of st.relaxed.sys): a relaxed system-scope atomic store, one
// store with system scope's cache bits and no wait after it (a C++ volatile store waits for
// completion before the next access); LDS stores stay ds_write. Same-location order from its
// atomicity, no merging past the compiler barrier, as for ptx2hip_load_volatile.
template <typename W>
__device__ inline void ptx2hip_store_relaxed_sys(void* p, W w) {
  asm volatile("" ::: "memory");
  __hip_atomic_store((W*)p, w, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}
template <typename T>
__device__ inline void ptx2hip_store_volatile(T* p, T v) {
  if constexpr (sizeof(T) == 8) {
    uint64_t w;
    __builtin_memcpy(&w, &v, sizeof v);
    ptx2hip_store_relaxed_sys(p, w);
  } else if constexpr (sizeof(T) == 4) {
    uint32_t w;
    __builtin_memcpy(&w, &v, sizeof v);
    ptx2hip_store_relaxed_sys(p, w);
  } else if constexpr (sizeof(T) == 2) {
    uint16_t w;
    __builtin_memcpy(&w, &v, sizeof v);
    ptx2hip_store_relaxed_sys(p, w);
  } else {
    uint8_t w;
    __builtin_memcpy(&w, &v, sizeof v);
    ptx2hip_store_relaxed_sys(p, w);
  }
}
// A vector: two 8-byte relaxed stores for 16 bytes (element atomicity, as for loads), else one.
template <typename T, int N>
__device__ inline void ptx2hip_store_volatile(ptx2hip_vec<T, N>* p, ptx2hip_vec<T, N> v) {
  if constexpr (sizeof v == 16) {
    uint64_t lo, hi;
    __builtin_memcpy(&lo, &v, 8);
    __builtin_memcpy(&hi, (const char*)&v + 8, 8);
    ptx2hip_store_relaxed_sys(p, lo);
    ptx2hip_store_relaxed_sys((uint64_t*)p + 1, hi);
  } else if constexpr (sizeof v == 8) {
    uint64_t w;
    __builtin_memcpy(&w, &v, 8);
    ptx2hip_store_relaxed_sys(p, w);
  } else if constexpr (sizeof v == 4) {
    uint32_t w;
    __builtin_memcpy(&w, &v, 4);
    ptx2hip_store_relaxed_sys(p, w);
  } else {
    uint16_t w;
    __builtin_memcpy(&w, &v, 2);
    ptx2hip_store_relaxed_sys(p, w);
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_load_volatile_lds requires=ptx2hip_vec,ptx2hip_load_volatile
// ptx2hip:amd
// ld.volatile.shared: ptx2hip_load_volatile, except that a 16-byte vector of elements of at most
// 4 bytes is one C++ volatile 16-byte LDS load (ds_read_b128, then a wait, as a HIP port writes
// it). LDS has no cache to bypass and an LDS access does not split an aligned 4-byte bank word,
// so each element is read whole; volatile keeps it from being dropped, merged or reordered with
// other volatile accesses. 8-byte elements keep their 8-byte atomic loads.
template <typename T>
__device__ inline T ptx2hip_load_volatile_lds(const T* p) {
  return ptx2hip_load_volatile(p);
}
template <typename T, int N>
__device__ inline ptx2hip_vec<T, N> ptx2hip_load_volatile_lds(const ptx2hip_vec<T, N>* p) {
  if constexpr (sizeof(T) <= 4 && sizeof(ptx2hip_vec<T, N>) == 16) {
    typedef uint32_t W __attribute__((ext_vector_type(4)));
    const W w = *(const volatile __attribute__((address_space(3))) W*)p;
    ptx2hip_vec<T, N> r;
    __builtin_memcpy(&r, &w, sizeof r);
    return r;
  } else {
    return ptx2hip_load_volatile(p);
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_store_volatile_lds requires=ptx2hip_vec,ptx2hip_store_volatile
// ptx2hip:amd
// st.volatile.shared: ptx2hip_store_volatile, except that a 16-byte vector of elements of at
// most 4 bytes is one C++ volatile 16-byte LDS store (ds_write_b128), for the reasons of
// ptx2hip_load_volatile_lds.
template <typename T>
__device__ inline void ptx2hip_store_volatile_lds(T* p, T v) {
  ptx2hip_store_volatile(p, v);
}
template <typename T, int N>
__device__ inline void ptx2hip_store_volatile_lds(ptx2hip_vec<T, N>* p, ptx2hip_vec<T, N> v) {
  if constexpr (sizeof(T) <= 4 && sizeof(ptx2hip_vec<T, N>) == 16) {
    typedef uint32_t W __attribute__((ext_vector_type(4)));
    W w;
    __builtin_memcpy(&w, &v, sizeof w);
    *(volatile __attribute__((address_space(3))) W*)p = w;
  } else {
    ptx2hip_store_volatile(p, v);
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_load_nt
// A load with a streaming hint (.cs, .lu, .L1::evict_first, .L1::no_allocate): a plain load.
template <typename T>
__device__ inline T ptx2hip_load_nt(const T* p) {
  return *p;
}
// ptx2hip:amd
// A load with a streaming hint (.cs, .lu, .L1::evict_first, .L1::no_allocate): a nontemporal
// load (gfx90a glc slc, gfx942 nt, gfx11 slc dlc), one access of the whole value.
template <typename T>
__device__ inline T ptx2hip_load_nt(const T* p) {
  T r;
  if constexpr (sizeof(T) == 16) {
    typedef uint32_t W __attribute__((ext_vector_type(4)));
    W w = __builtin_nontemporal_load((const W*)p);
    __builtin_memcpy(&r, &w, sizeof r);
  } else if constexpr (sizeof(T) == 8) {
    uint64_t w = __builtin_nontemporal_load((const uint64_t*)p);
    __builtin_memcpy(&r, &w, sizeof r);
  } else if constexpr (sizeof(T) == 4) {
    uint32_t w = __builtin_nontemporal_load((const uint32_t*)p);
    __builtin_memcpy(&r, &w, sizeof r);
  } else if constexpr (sizeof(T) == 2) {
    uint16_t w = __builtin_nontemporal_load((const uint16_t*)p);
    __builtin_memcpy(&r, &w, sizeof r);
  } else {
    uint8_t w = __builtin_nontemporal_load((const uint8_t*)p);
    __builtin_memcpy(&r, &w, sizeof r);
  }
  return r;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_store_nt
// A store with a streaming hint (.cs, .L1::evict_first, .L1::no_allocate): a plain store.
template <typename T>
__device__ inline void ptx2hip_store_nt(T* p, T v) {
  *p = v;
}
// ptx2hip:amd
// A store with a streaming hint (.cs, .L1::evict_first, .L1::no_allocate): a nontemporal store,
// one access of the whole value.
template <typename T>
__device__ inline void ptx2hip_store_nt(T* p, T v) {
  if constexpr (sizeof(T) == 16) {
    typedef uint32_t W __attribute__((ext_vector_type(4)));
    W w;
    __builtin_memcpy(&w, &v, sizeof v);
    __builtin_nontemporal_store(w, (W*)p);
  } else if constexpr (sizeof(T) == 8) {
    uint64_t w;
    __builtin_memcpy(&w, &v, sizeof v);
    __builtin_nontemporal_store(w, (uint64_t*)p);
  } else if constexpr (sizeof(T) == 4) {
    uint32_t w;
    __builtin_memcpy(&w, &v, sizeof v);
    __builtin_nontemporal_store(w, (uint32_t*)p);
  } else if constexpr (sizeof(T) == 2) {
    uint16_t w;
    __builtin_memcpy(&w, &v, sizeof v);
    __builtin_nontemporal_store(w, (uint16_t*)p);
  } else {
    uint8_t w;
    __builtin_memcpy(&w, &v, sizeof v);
    __builtin_nontemporal_store(w, (uint8_t*)p);
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_load_cg
// ld.cg (cache in L2, not in L1): a plain load; the PTX memory model gives it no more than a weak
// load.
template <typename T>
__device__ inline T ptx2hip_load_cg(const T* p) {
  return *p;
}
// ptx2hip:amd
// ld.cg (cache in L2, not in L1). Up to 8 bytes: a relaxed agent-scope atomic load, which is the
// same one instruction with the L1 bypass bit (gfx90a glc, gfx942 sc1, gfx11 glc), so code that
// polls with ld.cg keeps seeing other CUs' writes. 16 bytes: a plain load (the PTX memory model
// gives .cg no more than a weak load, and AMD has no 16-byte atomic load).
template <typename T>
__device__ inline T ptx2hip_load_cg(const T* p) {
  T r;
  if constexpr (sizeof(T) == 8) {
    uint64_t w = __hip_atomic_load((uint64_t*)p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    __builtin_memcpy(&r, &w, sizeof r);
  } else if constexpr (sizeof(T) == 4) {
    uint32_t w = __hip_atomic_load((uint32_t*)p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    __builtin_memcpy(&r, &w, sizeof r);
  } else if constexpr (sizeof(T) == 2) {
    uint16_t w = __hip_atomic_load((uint16_t*)p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    __builtin_memcpy(&r, &w, sizeof r);
  } else if constexpr (sizeof(T) == 1) {
    uint8_t w = __hip_atomic_load((uint8_t*)p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    __builtin_memcpy(&r, &w, sizeof r);
  } else {
    r = *p;
  }
  return r;
}
// ptx2hip:end

// ---- Space tests and symbol addresses --------------------------------------------------------

// ptx2hip:helper ptx2hip_is_shared
// isspacep.shared: whether a generic address points into this block's shared memory.
__device__ inline bool ptx2hip_is_shared(const void* p) {
#if defined(__HIP__)
  return __builtin_amdgcn_is_shared((const __attribute__((address_space(0))) void*)p);
#else
  return __isShared(p) != 0;
#endif
}
// ptx2hip:amd
// isspacep.shared: whether a generic address is in the LDS aperture.
__device__ inline bool ptx2hip_is_shared(const void* p) {
  return __builtin_amdgcn_is_shared((const __attribute__((address_space(0))) void*)p);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_is_local
// isspacep.local: whether a generic address points into the thread's local memory.
__device__ inline bool ptx2hip_is_local(const void* p) {
#if defined(__HIP__)
  return __builtin_amdgcn_is_private((const __attribute__((address_space(0))) void*)p);
#else
  return __isLocal(p) != 0;
#endif
}
// ptx2hip:amd
// isspacep.local: whether a generic address is in the private (scratch) aperture.
__device__ inline bool ptx2hip_is_local(const void* p) {
  return __builtin_amdgcn_is_private((const __attribute__((address_space(0))) void*)p);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_symbol_addr requires=ptx2hip_shared_addr,ptx2hip_local_addr,ptx2hip_const_addr,ptx2hip_global_addr
// The address PTX gives a variable named as an operand (`mov.u64 d, smem;`): its address in its
// own state space (a window address), not the generic one. The variable's space is known to the
// compiler, so the tests fold away.
__device__ inline uint64_t ptx2hip_symbol_addr(const void* p) {
#if defined(__HIP__)
  if (__builtin_amdgcn_is_shared((const __attribute__((address_space(0))) void*)p))
    return ptx2hip_shared_addr(p);
  if (__builtin_amdgcn_is_private((const __attribute__((address_space(0))) void*)p))
    return ptx2hip_local_addr(p);
  return ptx2hip_global_addr(p);
#else
  if (__isShared(p)) return ptx2hip_shared_addr(p);
  if (__isLocal(p)) return ptx2hip_local_addr(p);
  if (__isConstant(p)) return ptx2hip_const_addr(p);
  return ptx2hip_global_addr(p);
#endif
}
// ptx2hip:amd
// The address PTX gives a variable named as an operand (`mov.u64 d, smem;`): its address in its
// own state space (LDS or private offset; global and constant addresses are the generic ones).
// The variable's space is known to the compiler, so the tests fold away.
__device__ inline uint64_t ptx2hip_symbol_addr(const void* p) {
  if (__builtin_amdgcn_is_shared((const __attribute__((address_space(0))) void*)p))
    return ptx2hip_shared_addr(p);
  if (__builtin_amdgcn_is_private((const __attribute__((address_space(0))) void*)p))
    return ptx2hip_local_addr(p);
  return ptx2hip_global_addr(p);
}
// ptx2hip:end
