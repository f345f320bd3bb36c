// Every directed-rounding helper in every mode as a HIP kernel (tests/it/rules_float64_directed.rs,
// `helpers_compile_for_amd`). f64_directed_helpers.h is written by the test: the helpers.
#include <hip/hip_runtime.h>
#include <cstdint>
#include <cstring>
#include "f64_directed_helpers.h"
#define P2H_K(NAME, M, EXPR)                                          \
  extern "C" __global__ void NAME##_##M(double* o, const double* i) { \
    unsigned t = threadIdx.x;                                         \
    double a = i[t], b = i[t + 256], c = i[t + 512];                  \
    (void)a;                                                          \
    (void)b;                                                          \
    (void)c;                                                          \
    o[t] = EXPR;                                                      \
  }
#define P2H_ALL(M)                               \
  P2H_K(mul, M, ptx2hip_mul_dir_f64<M>(a, b))    \
  P2H_K(fma, M, ptx2hip_fma_dir_f64<M>(a, b, c)) \
  P2H_K(div, M, ptx2hip_div_dir_f64<M>(a, b))    \
  P2H_K(rcp, M, ptx2hip_div_dir_f64<M>(1.0, b))  \
  P2H_K(sqrt, M, ptx2hip_sqrt_dir_f64<M>(a))
P2H_ALL(1)
P2H_ALL(2)
P2H_ALL(3)
