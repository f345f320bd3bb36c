// The NVIDIA check of tests/it/rules_float64_directed.rs (`write_gpu_check`): the helpers (nvcc)
// against the PTX instructions, and the PTX results against the x86 oracle.
// f64_directed_helpers.h is written by the test: the helpers.
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <math.h>
#include "f64_directed_helpers.h"
#include "f64_directed_common.h"

// ---- NVIDIA check: the helpers (nvcc) against the PTX instructions themselves, and the x86 oracle ----
#define P2H_PTX_MODE(RND)                                                              \
  switch (op) {                                                                        \
    case OP_MUL: asm("mul." RND ".f64 %0, %1, %2;" : "=d"(d) : "d"(a), "d"(b)); break; \
    case OP_FMA:                                                                       \
      asm("fma." RND ".f64 %0, %1, %2, %3;" : "=d"(d) : "d"(a), "d"(b), "d"(c));       \
      asm("mad." RND ".f64 %0, %1, %2, %3;" : "=d"(d2) : "d"(a), "d"(b), "d"(c));      \
      break;                                                                           \
    case OP_DIV: asm("div." RND ".f64 %0, %1, %2;" : "=d"(d) : "d"(a), "d"(b)); break; \
    case OP_RCP: asm("rcp." RND ".f64 %0, %1;" : "=d"(d) : "d"(b)); break;             \
    default: asm("sqrt." RND ".f64 %0, %1;" : "=d"(d) : "d"(a)); break;                \
  }

template <int M>
__global__ void check_kernel(int op, const double* A, const double* B, const double* C, double* ptx,
                             double* hlp, unsigned long long* mad_diff, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a = A[i], b = B[i], c = C[i], d = 0.0, d2 = 0.0, h;
  if (M == 1) { P2H_PTX_MODE("rz") }
  if (M == 2) { P2H_PTX_MODE("rm") }
  if (M == 3) { P2H_PTX_MODE("rp") }
  switch (op) {
    case OP_MUL: h = ptx2hip_mul_dir_f64<M>(a, b); break;
    case OP_FMA: h = ptx2hip_fma_dir_f64<M>(a, b, c); break;
    case OP_DIV: h = ptx2hip_div_dir_f64<M>(a, b); break;
    case OP_RCP: h = ptx2hip_div_dir_f64<M>(1.0, b); break;
    default: h = ptx2hip_sqrt_dir_f64<M>(a); break;
  }
  ptx[i] = d;
  hlp[i] = h;
  if (op == OP_FMA && __double_as_longlong(d) != __double_as_longlong(d2) && !(d != d && d2 != d2))
    atomicAdd(mad_diff, 1ull);
}

int main(int argc, char** argv) {
  size_t n = argc > 1 ? (size_t)strtoull(argv[1], 0, 10) : 1000000;
  int bad = oracle_self_test();
  if (bad) {
    printf("ORACLE %d failures\n", bad);
    return 1;
  }
  std::vector<double> E = edge_values();
  Rng g{argc > 2 ? (uint64_t)strtoull(argv[2], 0, 0) : 0x5eed1234abcdull};
  size_t total = 0, mm_helper = 0, mm_x86 = 0;
  unsigned long long* mad_diff;
  cudaMallocManaged(&mad_diff, sizeof *mad_diff);
  *mad_diff = 0;
  for (int op = 0; op < OP_COUNT; op++) {
    Batch t;
    gen_op(op, t, g, n, E);
    size_t m = t.size();
    double *A, *B, *C, *P, *H;
    cudaMallocManaged(&A, m * 8);
    cudaMallocManaged(&B, m * 8);
    cudaMallocManaged(&C, m * 8);
    cudaMallocManaged(&P, m * 8);
    cudaMallocManaged(&H, m * 8);
    memcpy(A, t.a.data(), m * 8);
    memcpy(B, t.b.data(), m * 8);
    memcpy(C, t.c.data(), m * 8);
    std::vector<double> want(m);
    for (int mode = 1; mode <= 3; mode++) {
      unsigned blocks = (unsigned)((m + 255) / 256);
      if (mode == 1) check_kernel<1><<<blocks, 256>>>(op, A, B, C, P, H, mad_diff, m);
      if (mode == 2) check_kernel<2><<<blocks, 256>>>(op, A, B, C, P, H, mad_diff, m);
      if (mode == 3) check_kernel<3><<<blocks, 256>>>(op, A, B, C, P, H, mad_diff, m);
      cudaError_t err = cudaDeviceSynchronize();
      if (err != cudaSuccess) {
        printf("CUDA error %s\n", cudaGetErrorString(err));
        return 2;
      }
      fesetround(fe_mode[mode]);
      oracle_batch(op, t.a.data(), t.b.data(), t.c.data(), want.data(), m);
      fesetround(FE_TONEAREST);
      size_t mh = report_mismatches(op, mode, t, P, H, "ptx-vs-helper");
      size_t mx = report_mismatches(op, mode, t, P, want.data(), "ptx-vs-x86");
      printf("%s.%s: %zu cases, %zu helper mismatches, %zu x86 mismatches\n", op_name[op],
             mode_name[mode], m, mh, mx);
      total += m;
      mm_helper += mh;
      mm_x86 += mx;
    }
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    cudaFree(P);
    cudaFree(H);
  }
  printf("GPU TOTAL %zu HELPER-MISMATCHES %zu X86-MISMATCHES %zu MAD-VS-FMA %llu\n", total,
         mm_helper, mm_x86, *mad_diff);
  return (mm_helper || mm_x86 || *mad_diff) ? 1 : 0;
}
