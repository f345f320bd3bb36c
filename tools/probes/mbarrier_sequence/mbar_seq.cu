// mbarrier semantics on the H100 against ptx2hip's emulation: one thread drives one object through
// a fixed random sequence of operations and records every observable answer (test_wait.parity on
// both parities, test_wait on each arrive's token, pending_count of .noComplete tokens). Built as
// written (native mbarrier) and as `ptx2hip translate --target portable` rewrote it (emulation);
// the two answer files must be equal byte for byte.
#include <cstdio>
#include <cstdint>

__device__ __forceinline__ void init(uint32_t b, uint32_t n) { asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(n) : "memory"); }
__device__ __forceinline__ uint64_t arrive(uint32_t b) { uint64_t s; asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory"); return s; }
__device__ __forceinline__ uint64_t arrive_count(uint32_t b, uint32_t n) { uint64_t s; asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(n) : "memory"); return s; }
__device__ __forceinline__ uint64_t arrive_nocomplete(uint32_t b, uint32_t n) { uint64_t s; asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(n) : "memory"); return s; }
__device__ __forceinline__ uint64_t arrive_expect_tx(uint32_t b, uint32_t tx) { uint64_t s; asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(tx) : "memory"); return s; }
__device__ __forceinline__ uint64_t arrive_drop(uint32_t b) { uint64_t s; asm volatile("mbarrier.arrive_drop.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory"); return s; }
__device__ __forceinline__ void expect_tx(uint32_t b, uint32_t tx) { asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(tx) : "memory"); }
__device__ __forceinline__ void complete_tx(uint32_t b, uint32_t tx) { asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(tx) : "memory"); }
__device__ __forceinline__ uint32_t test_wait(uint32_t b, uint64_t s) { uint32_t d; asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(d) : "r"(b), "l"(s) : "memory"); return d; }
__device__ __forceinline__ uint32_t test_parity(uint32_t b, uint32_t par) { uint32_t d; asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(d) : "r"(b), "r"(par) : "memory"); return d; }
__device__ __forceinline__ uint32_t try_parity(uint32_t b, uint32_t par) { uint32_t d; asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(d) : "r"(b), "r"(par) : "memory"); return d; }
__device__ __forceinline__ uint32_t pending_count(uint64_t s) { uint32_t d; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(d) : "l"(s)); return d; }
__device__ __forceinline__ void cp_arrive(uint32_t b) { asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" ::"r"(b) : "memory"); }
__device__ __forceinline__ void cp_arrive_noinc(uint32_t b) { asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(b) : "memory"); }
__device__ __forceinline__ void inval(uint32_t b) { asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(b) : "memory"); }

// The driver keeps its own counts only to stay inside what PTX defines (no arrival beyond the
// pending count, .noComplete never completing, drops keeping one expected arrival).
__global__ void seq(uint32_t* out, int rounds, int steps) {
  __shared__ uint64_t bar;
  uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  auto next = [&](uint32_t n) { rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27; return (uint32_t)((rng * 0x2545f4914f6cdd1dull) >> 33) % n; };
  int k = 0;
  for (int r = 0; r < rounds; ++r) {
    uint32_t count = 1 + next(40), pending = count, expected = count; int tx = 0;
    init(b, count);
    for (int st = 0; st < steps; ++st) {
      uint32_t op = next(9), by = 1 + next(4096);
      if (pending == 0) op = 5;
      uint32_t n = 1 + next(pending == 0 ? 1 : pending);
      uint64_t s = 0; bool tok = false;
      auto settle = [&]() { if (pending == 0 && tx == 0) pending = expected; };
      switch (op) {
        case 0: s = arrive(b); tok = true; pending -= 1; settle(); break;
        case 1: s = arrive_count(b, n); tok = true; pending -= n; settle(); break;
        case 2: if (n < pending || tx != 0) { s = arrive_nocomplete(b, n); pending -= n; out[k++] = pending_count(s); out[k++] = test_wait(b, s); } break;
        case 3: s = arrive_expect_tx(b, by); tok = true; tx += by; pending -= 1; settle(); break;
        case 4: expect_tx(b, by); tx += by; break;
        case 5: if (tx > 0) { uint32_t c = 1 + next((uint32_t)tx); complete_tx(b, c); tx -= c; settle(); }
                else { complete_tx(b, by); expect_tx(b, by); } break;
        case 6: if (expected > 1) { s = arrive_drop(b); tok = true; pending -= 1; expected -= 1; settle(); } break;
        case 7: cp_arrive(b); break;
        case 8: cp_arrive_noinc(b); pending -= 1; settle(); break;
      }
      out[k++] = test_parity(b, 0) | test_parity(b, 1) << 1 | (test_parity(b, 0) ? try_parity(b, 0) << 2 : 0) | (test_parity(b, 1) ? try_parity(b, 1) << 3 : 0);
      if (tok) out[k++] = test_wait(b, s);
    }
    inval(b);
  }
  out[0x3fffff] = k;
}

int main(int argc, char** argv) {
  const int n = 0x400000;
  uint32_t* d; cudaMalloc(&d, n * 4); cudaMemset(d, 0xff, n * 4);
  seq<<<1, 1>>>(d, 200, 2000);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 4; }
  static uint32_t h[0x400000];
  cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost);
  FILE* f = fopen(argv[1], "wb"); fwrite(h, 4, h[0x3fffff] + 1, f); fwrite(&h[0x3fffff], 4, 1, f); fclose(f);
  printf("%u answers\n", h[0x3fffff]);
  return 0;
}
