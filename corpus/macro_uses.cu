// Inline PTX whose text the macro's arguments make, as load/store libraries generate their
// cache-operator variants: a `#define` per access width whose template stringifies the cache
// operator (`#cop`), a constraint built from a register letter (`"=" #reg`, `"r"` pasted as
// `REG_##bits`), one macro passing its parameters on to the others, a state space and operator
// in one dotted argument (`global.nc`), and an instruction name
// chosen by the compiler version under an `#if` that only the compiler decides.
#include <stdint.h>

// Loads of one register, cache operator and PTX type given by the use.
#define CACHED_LOAD(name, cop, ptx_ty, reg, cxx_ty)                                      \
  __device__ __forceinline__ cxx_ty name(const cxx_ty* ptr) {                           \
    cxx_ty v;                                                                            \
    asm volatile("ld.global." #cop "." #ptx_ty " %0, [%1];" : "=" #reg(v) : "l"(ptr)); \
    return v;                                                                            \
  }

// Stores: the register constraint comes from the width by pasting.
#define REG_32 "r"
#define REG_64 "l"
#define CACHED_STORE(name, cop, bits)                                                   \
  __device__ __forceinline__ void name(uint##bits##_t* ptr, uint##bits##_t v) {         \
    asm volatile("st.global." #cop ".u" #bits " [%0], %1;" ::"l"(ptr), REG_##bits(v)    \
                 : "memory");                                                           \
  }

// The state space and operator in one argument, dots and all (`global.nc`): not one name.
#define LOAD_VIA(name, ptx_modifier)                                     \
  __device__ __forceinline__ uint32_t name(const uint32_t* ptr) {        \
    uint32_t v;                                                          \
    asm volatile("ld." #ptx_modifier ".u32 %0, [%1];" : "=r"(v) : "l"(ptr)); \
    return v;                                                            \
  }

LOAD_VIA(load_nc_u32, global.nc)
LOAD_VIA(load_lu_u32, global.lu)
LOAD_VIA(load_volatile_u32, volatile.global)

// Every width of one cache operator, as the libraries' `_ALL` macros do.
#define CACHED_LOAD_ALL(prefix, cop)                    \
  CACHED_LOAD(prefix##_u32, cop, u32, r, uint32_t)      \
  CACHED_LOAD(prefix##_u64, cop, u64, l, uint64_t)      \
  CACHED_LOAD(prefix##_f32, cop, f32, f, float)

CACHED_LOAD_ALL(load_cg, cg)
CACHED_LOAD_ALL(load_cs, cs)
CACHED_LOAD(load_ca_u32, ca, u32, r, uint32_t)
CACHED_STORE(store_cs_u32, cs, 32)
CACHED_STORE(store_wb_u64, wb, 64)

// The streaming load names a different instruction for old compilers.
#if defined(__CUDACC_VER_MAJOR__) && (__CUDACC_VER_MAJOR__ >= 11)
#define LOAD_STREAM_U32 "ld.global.cs.u32"
#else
#define LOAD_STREAM_U32 "ld.global.cv.u32"
#endif

__device__ __forceinline__ uint32_t load_stream_u32(const uint32_t* p) {
  uint32_t v;
  asm volatile(LOAD_STREAM_U32 " %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__global__ void macro_uses_kernel(const uint32_t* in32, const uint64_t* in64,
                                  const float* inf, uint32_t* out32, uint64_t* out64,
                                  float* outf, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint32_t a = load_cg_u32(in32 + t) ^ load_cs_u32(in32 + n + t) ^ load_ca_u32(in32 + 2 * n + t);
  a += load_nc_u32(in32 + 4 * n + t) ^ load_lu_u32(in32 + 5 * n + t) ^ load_volatile_u32(in32 + 6 * n + t);
  uint64_t b = load_cg_u64(in64 + t) + load_cs_u64(in64 + n + t);
  float c = load_cg_f32(inf + t) + load_cs_f32(inf + n + t);
  store_cs_u32(out32 + t, a + load_stream_u32(in32 + 3 * n + t));
  store_wb_u64(out64 + t, b);
  outf[t] = c;
}
