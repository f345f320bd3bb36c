// Inline PTX passed as an argument of the project's own function-like macros, as test suites and
// error-checking wrappers do (`CHECK(asm volatile(...));`). Translations whose code holds a comma
// outside parentheses (a vector load's `ptx2hip_vec<uint32_t, 2>`) must not split the argument,
// not even where a macro passes its argument on to another macro.
#include <stdint.h>

#define RUN(stmt) \
  do {            \
    stmt;         \
  } while (0)
#define RUN_TWICE_CHECKED(stmt) RUN(stmt)
#define TIMED(label, stmt) \
  do {                     \
    (void)(label);         \
    stmt                   \
  } while (0)

/// The asm is the whole argument, without its `;` (the macro adds it).
__device__ __forceinline__ void load_pair(const uint32_t* p, uint32_t& a, uint32_t& b) {
  RUN(asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(p)));
}

/// The argument is passed on to a second macro: it is expanded before it is passed on.
__device__ __forceinline__ void load_pair_nested(const uint32_t* p, uint32_t& a, uint32_t& b) {
  RUN_TWICE_CHECKED(asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(p)));
}

/// The asm is the second argument and ends with its own `;`.
__device__ __forceinline__ void store_pair(uint32_t* p, uint32_t a, uint32_t b) {
  TIMED("store", asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(a), "r"(b) : "memory"););
}

/// No comma in the translation: spliced as it is.
__device__ __forceinline__ uint32_t add(uint32_t a, uint32_t b) {
  uint32_t d;
  RUN(asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)));
  return d;
}

/// Inside a `#define` body too.
#define LOAD_PAIR(p, a, b) RUN(asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(p)))

__global__ void macro_arguments_kernel(const uint32_t* in, uint32_t* out, int n) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i + 1 >= n) return;
  uint32_t a, b, c, d;
  load_pair(in + i, a, b);
  load_pair_nested(in + i, c, d);
  LOAD_PAIR(in + i, c, d);
  store_pair(out + i, add(a, c), add(b, d));
}
