// Litmus harness: runs every test of litmus_tests.cuh (the original PTX, or ptx2hip's translation
// of the same file when built with -I pointing at the translated copy) 2^20 times and prints the
// outcome counts. Build: nvcc -std=c++17 -arch=sm_90 -O2 litmus.cu -o litmus; run: ./litmus LABEL
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <litmus_tests.cuh>  // -I picks the original (this folder) or the translation

typedef void (*thread_fn)(uint32_t*, uint32_t*, uint32_t*);

// Instances per launch and launches per test: 2^17 * 8 = 2^20 runs of each test.
constexpr int kInstances = 1 << 17;
constexpr int kLaunches = 8;
constexpr int kBlock = 256;

// One instance: two threads, locations x and y in different 128-byte lines, results in r. Role 0
// and role 1 are in neighbouring CTAs (scope gpu/sys: usually on different SMs), or in warps 0
// and 1 of a 64-thread group of one CTA (CTA scope). A bounded rendezvous makes the two threads
// start together more often, without ever waiting for a CTA that is not resident.
template <thread_fn T0, thread_fn T1, bool kSameCta>
__global__ void run(uint32_t* mem, uint32_t* meet, uint32_t* res) {
  int role, inst;
  if (kSameCta) {
    const int w = threadIdx.x / 32;
    role = w & 1;
    inst = blockIdx.x * (kBlock / 2) + (w / 2) * 32 + (threadIdx.x & 31);
  } else {
    role = blockIdx.x & 1;
    inst = (blockIdx.x >> 1) * kBlock + threadIdx.x;
  }
  // Spread neighbouring instances over memory (a fixed odd multiplier permutes the slots).
  const uint32_t slot = (uint32_t)inst * 40503u % (uint32_t)kInstances;
  uint32_t* x = mem + (size_t)slot * 64;
  uint32_t* y = x + 32;
  atomicAdd(&meet[inst], 1u);
  for (int spin = 0; spin < 2048 && atomicAdd(&meet[inst], 0u) < 2u; ++spin) {
  }
  uint32_t r[2] = {2u, 2u};
  if (role == 0) T0(x, y, r);
  else T1(x, y, r);
  if (r[0] != 2u) res[2 * inst] = r[0];
  if (r[1] != 2u) res[2 * inst + 1] = r[1];
}

struct Test {
  const char* name;
  void (*launch)(uint32_t*, uint32_t*, uint32_t*);
  int r0, r1;     // the outcome the test is about
  bool control;   // true: that outcome is allowed (a weak behaviour); false: it is forbidden
};

template <thread_fn T0, thread_fn T1, bool kSameCta>
void launch(uint32_t* mem, uint32_t* meet, uint32_t* res) {
  const int blocks = kSameCta ? kInstances / (kBlock / 2) : 2 * kInstances / kBlock;
  run<T0, T1, kSameCta><<<blocks, kBlock>>>(mem, meet, res);
}

#define TEST(name, cta, r0, r1, control) \
  { #name, launch<litmus::name##_0, litmus::name##_1, cta>, r0, r1, control }

static const Test kTests[] = {
    TEST(mp_relacq_gpu, false, 1, 0, false),
    TEST(mp_fence_gpu, false, 1, 0, false),
    TEST(mp_fence_relacq_gpu, false, 1, 0, false),
    TEST(mp_atomics_gpu, false, 1, 0, false),
    TEST(mp_exch_cas_gpu, false, 1, 0, false),
    TEST(mp_relacq_sys, false, 1, 0, false),
    TEST(mp_relacq_cta, true, 1, 0, false),
    TEST(mp_vector_gpu, false, 1, 0, false),
    TEST(mp_relaxed_gpu, false, 1, 0, true),
    TEST(sb_sc_gpu, false, 0, 0, false),
    TEST(sb_membar, false, 0, 0, false),
    TEST(sb_sc_cta, true, 0, 0, false),
    TEST(sb_acqrel_gpu, false, 0, 0, true),
    TEST(sb_relaxed_gpu, false, 0, 0, true),
    TEST(lb_acq_gpu, false, 1, 1, false),
    TEST(lb_fence_gpu, false, 1, 1, false),
    TEST(lb_relaxed_gpu, false, 1, 1, true),
};

int main(int argc, char** argv) {
  const char* label = argc > 1 ? argv[1] : "?";
  uint32_t *mem, *meet, *res;
  const size_t mem_words = (size_t)kInstances * 64;
  if (cudaMalloc(&mem, mem_words * 4) != cudaSuccess || cudaMalloc(&meet, (size_t)kInstances * 4) != cudaSuccess ||
      cudaMalloc(&res, (size_t)kInstances * 8) != cudaSuccess) {
    fprintf(stderr, "cudaMalloc failed\n");
    return 2;
  }
  std::vector<uint32_t> host((size_t)kInstances * 2);
  int bad = 0;
  for (const Test& t : kTests) {
    unsigned long long counts[2][2] = {{0, 0}, {0, 0}}, other = 0;
    for (int l = 0; l < kLaunches; ++l) {
      cudaMemset(mem, 0, mem_words * 4);
      cudaMemset(meet, 0, (size_t)kInstances * 4);
      cudaMemset(res, 0xff, (size_t)kInstances * 8);
      t.launch(mem, meet, res);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", t.name, cudaGetErrorString(e));
        return 3;
      }
      cudaMemcpy(host.data(), res, host.size() * 4, cudaMemcpyDeviceToHost);
      for (int i = 0; i < kInstances; ++i) {
        uint32_t a = host[2 * i], b = host[2 * i + 1];
        if (a > 1 || b > 1) other++;
        else counts[a][b]++;
      }
    }
    const unsigned long long hits = counts[t.r0][t.r1];
    printf("%-8s %-22s runs %d  (0,0) %llu  (0,1) %llu  (1,0) %llu  (1,1) %llu  other %llu  %s (%d,%d): %llu\n",
           label, t.name, kInstances * kLaunches, counts[0][0], counts[0][1], counts[1][0], counts[1][1], other,
           t.control ? "allowed" : "FORBIDDEN", t.r0, t.r1, hits);
    const unsigned long long forbidden = t.control ? 0 : hits;
    if (forbidden != 0 || other != 0) bad = 1;
  }
  printf("%s: %s\n", label, bad ? "FAIL" : "ok (no forbidden outcome)");
  return bad;
}
