// Contended atomics: many threads per address, through the forms of contention_ops.cuh (original
// PTX, or ptx2hip's translation when built with -I pointing at it). Checks what holds for every
// serialisation on every vendor: the final value, that the returned old values are exactly the
// values a serialisation passes through (a permutation of them), and that compare-and-swap claims
// each ticket exactly once. Build: nvcc -std=c++17 -arch=sm_90 -O2 -I DIR contention.cu
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include <contention_ops.cuh>  // -I picks the original (this folder) or the translation

constexpr int kBlock = 256;

__global__ void k_add_u32(uint32_t* c, uint32_t* olds, int n, int addrs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = ops::add_u32(&c[i % addrs], 1u);
}
__global__ void k_add_sys(uint32_t* c, uint32_t* olds, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = ops::add_acq_rel_sys_u32(c, 1u);
}
__global__ void k_inc(uint32_t* c, uint32_t* olds, int n, uint32_t b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = ops::inc_u32(c, b);
}
__global__ void k_dec(uint32_t* c, uint32_t* olds, int n, uint32_t b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = ops::dec_sys_u32(c, b);
}
__global__ void k_cas32(uint32_t* c, uint32_t* tickets, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t cur = *(volatile uint32_t*)c;
  for (;;) {
    uint32_t seen = ops::cas_b32(c, cur, cur + 1);
    if (seen == cur) break;
    cur = seen;
  }
  tickets[i] = cur;
}
__global__ void k_cas64(uint64_t* c, uint64_t* tickets, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t cur = *(volatile uint64_t*)c;
  for (;;) {
    uint64_t seen = ops::cas_b64(c, cur, cur + 0x100000001ull);
    if (seen == cur) break;
    cur = seen;
  }
  tickets[i] = cur;
}
// Two 16-bit counters in one 32-bit word, claimed by alternating threads.
__global__ void k_cas16(uint16_t* c, uint32_t* tickets, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint16_t* p = c + (i & 1);
  uint16_t cur = *(volatile uint16_t*)p;
  for (;;) {
    uint16_t seen = ops::cas_b16(p, cur, (uint16_t)(cur + 1));
    if (seen == cur) break;
    cur = seen;
  }
  tickets[i] = cur;
}
__global__ void k_exch(uint32_t* c, uint32_t* olds, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = ops::exch_b32(c, (uint32_t)i + 1u);
}
__global__ void k_min(int64_t* c, int64_t* olds, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = ops::min_s64(c, (int64_t)((uint64_t)i * 0x9e3779b97f4a7c15ull));
}
__global__ void k_add_f32(float* c, float* olds, int n, int addrs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = ops::add_f32(&c[i % addrs], 1.0f);
}
__global__ void k_red_f32(float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ops::red_add_f32(c, 0.5f);
}
__global__ void k_add_f64(double* c, double* olds, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = ops::add_f64(c, 1.0);
}
__global__ void k_add_f16x2(uint32_t* c, uint32_t* olds, int n, int addrs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = ops::add_f16x2(&c[i % addrs], 0x3c003c00u);
}
__global__ void k_add_bf16(uint16_t* c, uint16_t* olds, int n, int addrs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = ops::add_bf16(&c[i % addrs], (uint16_t)0x3f80u);
}

static int blocks(int n) { return (n + kBlock - 1) / kBlock; }

template <class T>
static std::vector<T> fetch(const T* d, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

static const char* g_label = "?";
static int g_bad = 0;
static void report(const char* test, bool ok, const char* detail) {
  printf("%-8s %-34s %s %s\n", g_label, test, ok ? "ok" : "FAIL", detail);
  if (!ok) g_bad = 1;
}

// Whether `got` (as a multiset) equals `want`.
template <class T>
static bool same_multiset(std::vector<T> got, std::vector<T> want) {
  std::map<T, long> m;
  for (T v : got) m[v]++;
  for (T v : want) m[v]--;
  for (auto& kv : m)
    if (kv.second != 0) return false;
  return true;
}

static uint16_t f16_of_int(uint32_t v) {  // exact for 0 <= v <= 2048
  if (v == 0) return 0;
  int e = 31 - __builtin_clz(v);
  return (uint16_t)(((e + 15) << 10) | ((v << (10 - e)) & 0x3ffu));
}
static uint16_t bf16_of_int(uint32_t v) {  // exact for 0 <= v <= 256
  float f = (float)v;
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)(u >> 16);
}

int main(int argc, char** argv) {
  g_label = argc > 1 ? argv[1] : "?";
  const int N = 1 << 20;
  void *dc, *dv;
  cudaMalloc(&dc, 1 << 16);
  cudaMalloc(&dv, (size_t)N * 8);
  char detail[256];

  {  // add.u32: 16 addresses, 2^16 adds each.
    const int addrs = 16;
    cudaMemset(dc, 0, 1 << 16);
    k_add_u32<<<blocks(N), kBlock>>>((uint32_t*)dc, (uint32_t*)dv, N, addrs);
    auto fin = fetch((uint32_t*)dc, addrs);
    auto olds = fetch((uint32_t*)dv, N);
    bool ok = true;
    for (int a = 0; a < addrs; ++a) {
      std::vector<uint32_t> got, want;
      for (int i = a; i < N; i += addrs) got.push_back(olds[i]);
      for (uint32_t k = 0; k < (uint32_t)(N / addrs); ++k) want.push_back(k);
      ok = ok && fin[a] == (uint32_t)(N / addrs) && same_multiset(got, want);
    }
    snprintf(detail, sizeof detail, "final %u (want %d)", fin[0], N / addrs);
    report("atom.global.add.u32 x2^20", ok, detail);
  }
  {  // add.acq_rel.sys: one address.
    const int n = 1 << 16;
    cudaMemset(dc, 0, 4);
    k_add_sys<<<blocks(n), kBlock>>>((uint32_t*)dc, (uint32_t*)dv, n);
    auto fin = fetch((uint32_t*)dc, 1);
    auto olds = fetch((uint32_t*)dv, n);
    std::vector<uint32_t> want;
    for (uint32_t k = 0; k < (uint32_t)n; ++k) want.push_back(k);
    snprintf(detail, sizeof detail, "final %u", fin[0]);
    report("atom.acq_rel.sys.add.u32 x2^16", fin[0] == (uint32_t)n && same_multiset(olds, want), detail);
  }
  {  // inc with bound 1000, one address: the olds are the wrapping sequence 0, 1, ..., 1000, 0, ...
    const uint32_t b = 1000;
    cudaMemset(dc, 0, 4);
    k_inc<<<blocks(N), kBlock>>>((uint32_t*)dc, (uint32_t*)dv, N, b);
    auto fin = fetch((uint32_t*)dc, 1);
    auto olds = fetch((uint32_t*)dv, N);
    std::vector<uint32_t> want;
    uint32_t s = 0;
    for (int k = 0; k < N; ++k) {
      want.push_back(s);
      s = s >= b ? 0 : s + 1;
    }
    snprintf(detail, sizeof detail, "final %u (want %u)", fin[0], s);
    report("atom.global.inc.u32 b=1000 x2^20", fin[0] == s && same_multiset(olds, want), detail);
  }
  {  // dec.sys with bound 999 from 0: 0, 999, 998, ..., 1, 0, 999, ...
    const uint32_t b = 999;
    const int n = 1 << 17;
    cudaMemset(dc, 0, 4);
    k_dec<<<blocks(n), kBlock>>>((uint32_t*)dc, (uint32_t*)dv, n, b);
    auto fin = fetch((uint32_t*)dc, 1);
    auto olds = fetch((uint32_t*)dv, n);
    std::vector<uint32_t> want;
    uint32_t s = 0;
    for (int k = 0; k < n; ++k) {
      want.push_back(s);
      s = (s == 0 || s > b) ? b : s - 1;
    }
    snprintf(detail, sizeof detail, "final %u (want %u)", fin[0], s);
    report("atom.sys.global.dec.u32 b=999 x2^17", fin[0] == s && same_multiset(olds, want), detail);
  }
  {  // cas.b32 ticket claims: each ticket exactly once.
    const int n = 1 << 18;
    cudaMemset(dc, 0, 4);
    k_cas32<<<blocks(n), kBlock>>>((uint32_t*)dc, (uint32_t*)dv, n);
    auto fin = fetch((uint32_t*)dc, 1);
    auto t = fetch((uint32_t*)dv, n);
    std::vector<uint32_t> want;
    for (uint32_t k = 0; k < (uint32_t)n; ++k) want.push_back(k);
    snprintf(detail, sizeof detail, "final %u", fin[0]);
    report("atom.global.cas.b32 claims x2^18", fin[0] == (uint32_t)n && same_multiset(t, want), detail);
  }
  {  // cas.b64 (acquire): both halves count.
    const int n = 1 << 16;
    cudaMemset(dc, 0, 8);
    k_cas64<<<blocks(n), kBlock>>>((uint64_t*)dc, (uint64_t*)dv, n);
    auto fin = fetch((uint64_t*)dc, 1);
    auto t = fetch((uint64_t*)dv, n);
    std::vector<uint64_t> want;
    for (uint64_t k = 0; k < (uint64_t)n; ++k) want.push_back(k * 0x100000001ull);
    snprintf(detail, sizeof detail, "final %#llx", (unsigned long long)fin[0]);
    report("atom.acquire.gpu.cas.b64 claims x2^16", fin[0] == (uint64_t)n * 0x100000001ull && same_multiset(t, want),
           detail);
  }
  {  // cas.b16 on the two halves of one word.
    const int n = 60000;
    cudaMemset(dc, 0, 4);
    k_cas16<<<blocks(n), kBlock>>>((uint16_t*)dc, (uint32_t*)dv, n);
    auto fin = fetch((uint16_t*)dc, 2);
    auto t = fetch((uint32_t*)dv, n);
    std::vector<uint32_t> got[2], want;
    for (int i = 0; i < n; ++i) got[i & 1].push_back(t[i]);
    for (uint32_t k = 0; k < (uint32_t)(n / 2); ++k) want.push_back(k);
    snprintf(detail, sizeof detail, "final %u %u", fin[0], fin[1]);
    report("atom.global.cas.b16 two halves x60000",
           fin[0] == n / 2 && fin[1] == n / 2 && same_multiset(got[0], want) && same_multiset(got[1], want), detail);
  }
  {  // exch: the olds and the final value are {0, 1, ..., N}, each once.
    cudaMemset(dc, 0, 4);
    k_exch<<<blocks(N), kBlock>>>((uint32_t*)dc, (uint32_t*)dv, N);
    auto fin = fetch((uint32_t*)dc, 1);
    auto olds = fetch((uint32_t*)dv, N);
    olds.push_back(fin[0]);
    std::vector<uint32_t> want;
    for (uint32_t k = 0; k <= (uint32_t)N; ++k) want.push_back(k);
    report("atom.global.exch.b32 x2^20", same_multiset(olds, want), "");
  }
  {  // min.s64.
    int64_t init = INT64_MAX;
    cudaMemcpy(dc, &init, 8, cudaMemcpyHostToDevice);
    k_min<<<blocks(N), kBlock>>>((int64_t*)dc, (int64_t*)dv, N);
    auto fin = fetch((int64_t*)dc, 1);
    auto olds = fetch((int64_t*)dv, N);
    int64_t m = INT64_MAX;
    for (int i = 0; i < N; ++i) m = std::min(m, (int64_t)((uint64_t)i * 0x9e3779b97f4a7c15ull));
    bool ok = fin[0] == m;
    for (int i = 0; i < N; ++i) ok = ok && olds[i] >= m;
    report("atom.global.min.s64 x2^20", ok, "");
  }
  {  // add.f32: 16 addresses, 2^16 adds of 1.0 each (exact): olds are 0, 1, ..., 65535.
    const int addrs = 16;
    cudaMemset(dc, 0, 1 << 16);
    k_add_f32<<<blocks(N), kBlock>>>((float*)dc, (float*)dv, N, addrs);
    auto fin = fetch((float*)dc, addrs);
    auto olds = fetch((float*)dv, N);
    bool ok = true;
    for (int a = 0; a < addrs; ++a) {
      std::vector<float> got, want;
      for (int i = a; i < N; i += addrs) got.push_back(olds[i]);
      for (int k = 0; k < N / addrs; ++k) want.push_back((float)k);
      ok = ok && fin[a] == (float)(N / addrs) && same_multiset(got, want);
    }
    snprintf(detail, sizeof detail, "final %.1f", fin[0]);
    report("atom.global.add.f32 x2^20", ok, detail);
  }
  {  // red.add.f32 of 0.5, one address.
    cudaMemset(dc, 0, 4);
    k_red_f32<<<blocks(N), kBlock>>>((float*)dc, N);
    auto fin = fetch((float*)dc, 1);
    snprintf(detail, sizeof detail, "final %.1f", fin[0]);
    report("red.relaxed.gpu.add.f32 x2^20", fin[0] == 0.5f * N, detail);
  }
  {  // add.f64 of 1.0, one address.
    cudaMemset(dc, 0, 8);
    k_add_f64<<<blocks(N), kBlock>>>((double*)dc, (double*)dv, N);
    auto fin = fetch((double*)dc, 1);
    auto olds = fetch((double*)dv, N);
    std::vector<double> want;
    for (int k = 0; k < N; ++k) want.push_back((double)k);
    report("atom.global.add.f64 x2^20", fin[0] == (double)N && same_multiset(olds, want), "");
  }
  {  // add.noftz.f16x2: 64 addresses, 2048 adds of (1, 1) each (exact in f16).
    const int addrs = 64, n = addrs * 2048;
    cudaMemset(dc, 0, 1 << 16);
    k_add_f16x2<<<blocks(n), kBlock>>>((uint32_t*)dc, (uint32_t*)dv, n, addrs);
    auto fin = fetch((uint32_t*)dc, addrs);
    auto olds = fetch((uint32_t*)dv, n);
    bool ok = true;
    for (int a = 0; a < addrs; ++a) {
      std::vector<uint32_t> got, want;
      for (int i = a; i < n; i += addrs) got.push_back(olds[i]);
      for (uint32_t k = 0; k < 2048; ++k) want.push_back(f16_of_int(k) * 0x10001u);
      ok = ok && fin[a] == f16_of_int(2048) * 0x10001u && same_multiset(got, want);
    }
    snprintf(detail, sizeof detail, "final %#x", fin[0]);
    report("atom.global.add.noftz.f16x2 x2^17", ok, detail);
  }
  {  // add.noftz.bf16: 256 halfword addresses (pairs share a word), 256 adds of 1.0 each.
    const int addrs = 256, n = addrs * 256;
    cudaMemset(dc, 0, 1 << 16);
    k_add_bf16<<<blocks(n), kBlock>>>((uint16_t*)dc, (uint16_t*)dv, n, addrs);
    auto fin = fetch((uint16_t*)dc, addrs);
    auto olds = fetch((uint16_t*)dv, n);
    bool ok = true;
    for (int a = 0; a < addrs; ++a) {
      std::vector<uint16_t> got, want;
      for (int i = a; i < n; i += addrs) got.push_back(olds[i]);
      for (uint32_t k = 0; k < 256; ++k) want.push_back(bf16_of_int(k));
      ok = ok && fin[a] == bf16_of_int(256) && same_multiset(got, want);
    }
    snprintf(detail, sizeof detail, "final %#x", fin[0]);
    report("atom.global.add.noftz.bf16 x2^16", ok, detail);
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("%s: cuda error %s\n", g_label, cudaGetErrorString(e));
    return 3;
  }
  printf("%s: %s\n", g_label, g_bad ? "FAIL" : "ok (every invariant holds)");
  return g_bad;
}
