// The host check of tests/it/models_integer_arith.rs: every translation (portable, or AMD with the
// host models of the AMD builtins) against the models of tests/amd_models/integer_arith.h, on the
// vectors of integer_arith_vectors.h. integer_arith_cases.h is written by the test: the helpers,
// `tr_<i>` and `ref_<i>` per case, and P2H_ENTRIES, the rows of `entries`.
#define __host__
#define __device__
#define PTX2HIP_AMD_MODELS 1
#include <stdint.h>
#include <string.h>
#include <math.h>
#include "integer_arith.h"
#include "integer_arith_vectors.h"
#include "integer_arith_cases.h"

struct Entry {
  CaseInfo info;
  void (*tr)(const uint64_t*, uint64_t*);
  void (*ref)(const uint64_t*, uint64_t*);
};
static const Entry entries[] = {P2H_ENTRIES};
int main() {
  long vectors = 0, failures = 0;
  for (const Entry& e : entries) {
    std::vector<uint64_t> v = p2h_vectors(e.info, 30000);
    long shown = 0;
    for (size_t k = 0; k + e.info.nin <= v.size(); k += e.info.nin) {
      uint64_t got[2] = {0, 0}, want[2] = {0, 0};
      e.tr(&v[k], got);
      e.ref(&v[k], want);
      vectors++;
      if (memcmp(got, want, sizeof got) != 0) {
        failures++;
        if (shown++ < 3) {
          printf("MISMATCH %s in:", e.info.form);
          for (int i = 0; i < e.info.nin; i++) printf(" %llx", (unsigned long long)v[k + i]);
          printf(" got %llx %llx want %llx %llx\n", (unsigned long long)got[0],
                 (unsigned long long)got[1], (unsigned long long)want[0],
                 (unsigned long long)want[1]);
        }
      }
    }
  }
  printf("%ld vectors, %ld mismatches\n", vectors, failures);
  return failures != 0;
}
