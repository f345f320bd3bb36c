// The NVIDIA check of tests/it/models_integer_arith.rs (`write_gpu_check`): the real PTX
// instruction, the ptx2hip portable translation and the model of tests/amd_models/integer_arith.h,
// per vector.
// integer_arith_cases.h is written by the test: the helpers, `asm_<i>`, `tr_<i>`, `ref_<i>` and
// the kernel `k_<i>` per case, and P2H_ENTRIES, the rows of `entries`.
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>
#include "integer_arith.h"
#include "integer_arith_vectors.h"
#include "integer_arith_cases.h"

struct Entry {
  CaseInfo info;
  void (*kernel)(const uint64_t*, uint64_t*, int);
};
static const Entry entries[] = {P2H_ENTRIES};
int main() {
  long vectors = 0, asm_vs_tr = 0, asm_vs_ref = 0;
  for (const Entry& e : entries) {
    std::vector<uint64_t> v = p2h_vectors(e.info, 200000);
    int n = (int)(v.size() / e.info.nin);
    uint64_t *din, *dout;
    cudaMalloc(&din, v.size() * 8);
    cudaMalloc(&dout, (size_t)n * 48);
    cudaMemcpy(din, v.data(), v.size() * 8, cudaMemcpyHostToDevice);
    e.kernel<<<(n + 255) / 256, 256>>>(din, dout, n);
    std::vector<uint64_t> o((size_t)n * 6);
    cudaError_t err = cudaMemcpy(o.data(), dout, o.size() * 8, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
      printf("CUDA error %s in %s\n", cudaGetErrorString(err), e.info.form);
      return 2;
    }
    cudaFree(din);
    cudaFree(dout);
    long bad_tr = 0, bad_ref = 0;
    for (int k = 0; k < n; k++) {
      const uint64_t* r = &o[(size_t)k * 6];
      bool t = r[0] != r[2] || r[1] != r[3], m = r[0] != r[4] || r[1] != r[5];
      bad_tr += t;
      bad_ref += m;
      if ((t || m) && bad_tr + bad_ref <= 4) {
        printf("  %s in:", e.info.form);
        for (int i = 0; i < e.info.nin; i++)
          printf(" %llx", (unsigned long long)v[(size_t)k * e.info.nin + i]);
        printf(" ptx %llx %llx translation %llx %llx model %llx %llx\n", (unsigned long long)r[0],
               (unsigned long long)r[1], (unsigned long long)r[2], (unsigned long long)r[3],
               (unsigned long long)r[4], (unsigned long long)r[5]);
      }
    }
    printf("%-24s %8d vectors  translation %s  model %s\n", e.info.form, n,
           bad_tr ? "DIFFERS" : "ok", bad_ref ? "DIFFERS" : "ok");
    vectors += n;
    asm_vs_tr += bad_tr;
    asm_vs_ref += bad_ref;
  }
  printf("TOTAL %ld vectors, %ld translation mismatches, %ld model mismatches\n", vectors,
         asm_vs_tr, asm_vs_ref);
  return asm_vs_tr || asm_vs_ref;
}
