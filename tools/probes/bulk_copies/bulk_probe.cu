// A GPU probe of the bulk family (rules/bulk.toml), run natively and as ptx2hip's portable
// translation (run.sh): the two answer files must be identical, and each run also checks its
// ring results against the host.
//
// 1. ring: 64 blocks x 2,048 rounds through 3 stages (every stage passes both parities hundreds
//    of times), round r moving 2 bulk copies of 16 to 1,024 bytes each (16-byte multiples that
//    vary by round) armed by arrive.expect_tx before or after the copies, 4 consumer warps waiting
//    by parity and summing the stage, one consumer thread storing each round's 512-byte result
//    with a shared -> global bulk copy, commit_group and wait_group.read.
// 2. edges: every global bulk reduction the family translates over destination x source grids of
//    edge values (NaN payloads, infinities, signed zeros, subnormals, the largest and smallest
//    integers, inc/dec bounds).
// Output: argv[1] gets block 0's ring results and every reduced array; stdout a summary.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int kBlocks = 64, kRounds = 2048, kStages = 3, kConsumers = 128;
constexpr int kWindow = 64 * 1024;   // input bytes per block, read round-robin

__device__ __forceinline__ uint32_t smem(const void* p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void wait_parity(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred P1;\nLAB_WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
      " @P1 bra DONE;\n bra LAB_WAIT;\nDONE:\n}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void bulk_load(uint32_t dst, const void* src, uint32_t bytes,
                                          uint32_t bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(dst),
      "l"(src), "r"(bytes), "r"(bar)
      : "memory");
}
__device__ __forceinline__ void bulk_store(void* dst, uint32_t src, uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(src),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void commit_wait_read() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
__device__ __forceinline__ void wait_all() {
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

/// Bytes of copy `k` (0 or 1) of round r: 16 to 1,024.
__host__ __device__ inline uint32_t chunk_bytes(int r, int k) {
  return 16u * (1u + (uint32_t)(r * 7 + k * 29) % 64u);
}
__host__ __device__ inline uint32_t round_offset(int r) {
  return (uint32_t)(r * 1040) % (kWindow - 2048);
}

__global__ void __launch_bounds__(256) ring(const unsigned char* in, unsigned* out) {
  __shared__ __attribute__((aligned(128))) unsigned stage[kStages][512];
  __shared__ __attribute__((aligned(128))) unsigned result[kStages][kConsumers];
  __shared__ __attribute__((aligned(8))) uint64_t full[kStages], empty[kStages], out_full[kStages],
      out_empty[kStages];
  const int t = threadIdx.x;
  const unsigned char* block_in = in + (size_t)blockIdx.x * kWindow;
  unsigned* block_out = out + (size_t)blockIdx.x * kRounds * kConsumers;
  if (t == 0) {
    for (int s = 0; s < kStages; ++s) {
      mbar_init(smem(&full[s]), 1);
      mbar_init(smem(&empty[s]), kConsumers);
      mbar_init(smem(&out_full[s]), kConsumers);
      mbar_init(smem(&out_empty[s]), 1);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (t == 0) {
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kStages;
      const uint32_t parity = (uint32_t)(r / kStages) & 1u, bar = smem(&full[s]);
      wait_parity(smem(&empty[s]), parity ^ 1u);
      const uint32_t b0 = chunk_bytes(r, 0), b1 = chunk_bytes(r, 1);
      const unsigned char* src = block_in + round_offset(r);
      if (r % 3 != 1) arrive_expect_tx(bar, b0 + b1);
      bulk_load(smem(stage[s]), src, b0, bar);
      bulk_load(smem((const char*)stage[s] + b0), src + b0, b1, bar);
      if (r % 3 == 1) arrive_expect_tx(bar, b0 + b1);
    }
  } else if (t >= 128) {
    const int c = t - 128;
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kStages;
      const uint32_t parity = (uint32_t)(r / kStages) & 1u;
      wait_parity(smem(&full[s]), parity);
      const int words = (int)(chunk_bytes(r, 0) + chunk_bytes(r, 1)) / 4;
      uint32_t sum = 0;
      for (int k = c; k < words; k += kConsumers) sum += stage[s][k] * (uint32_t)(k + 1);
      arrive(smem(&empty[s]));
      wait_parity(smem(&out_empty[s]), parity ^ 1u);
      result[s][c] = sum;
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      arrive(smem(&out_full[s]));
      if (c == 0) {
        wait_parity(smem(&out_full[s]), parity);
        bulk_store(block_out + (size_t)r * kConsumers, smem(result[s]), kConsumers * 4);
        commit_wait_read();
        arrive(smem(&out_empty[s]));
      }
    }
    if (c == 0) wait_all();
  }
}

// ---------------------------------------------------------------------------------------------
// Edge-value reductions: one block; thread 0 stages the source and reduces the whole array.

/// Stages `bytes` of `src` in shared memory, then thread 0 runs `reduce` (one bulk reduction into
/// the global `dst`, committed and awaited).
template <class Reduce>
__global__ void global_reduce(void* dst, const void* src, uint32_t bytes) {
  __shared__ __attribute__((aligned(128))) unsigned char s[8192];
  for (uint32_t i = threadIdx.x; i < bytes; i += blockDim.x) s[i] = ((const unsigned char*)src)[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    Reduce::run(dst, smem(s), bytes);
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

struct G_min_f16 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f16 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_max_f16 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.f16 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_min_bf16 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.bf16 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_max_bf16 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.bf16 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_add_u32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_add_s32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.s32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_min_u32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_max_u32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.u32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_min_s32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_max_s32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_inc_u32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.u32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_dec_u32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.dec.u32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_and_b32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.and.b32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_or_b32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.or.b32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_xor_b32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.xor.b32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_add_u64 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u64 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_min_u64 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u64 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_max_u64 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.u64 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_min_s64 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s64 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_max_s64 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s64 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_and_b64 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.and.b64 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_or_b64 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.or.b64 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_xor_b64 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.xor.b64 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_add_f32 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_add_f64 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f64 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_add_f16 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%0], [%1], %2;" ::"l"(g),
        "r"(s), "r"(n)
        : "memory");
  }
};
struct G_add_bf16 {
  __device__ static void run(void* g, uint32_t s, uint32_t n) {
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%0], [%1], %2;" ::"l"(
            g),
        "r"(s), "r"(n)
        : "memory");
  }
};

typedef void (*Kernel)(void*, const void*, uint32_t);

static const uint32_t kF32[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
    0x3f800000, 0xbf800000, 0x3f800001, 0x33800000, 0x4b800000, 0x7f7fffff, 0xff7fffff, 0x7f800000,
    0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, 0xff800001, 0x7fc00001, 0x40490fdb,
    0xc0490fdb, 0x34000000, 0x00400000, 0x80400000, 0x3effffff, 0x7effffff, 0x0f800000, 0x8f800000};
static const uint64_t kF64[] = {0x0ull,
                                0x8000000000000000ull,
                                0x1ull,
                                0x8000000000000001ull,
                                0x000fffffffffffffull,
                                0x0010000000000000ull,
                                0x3ff0000000000000ull,
                                0xbff0000000000000ull,
                                0x3ff0000000000001ull,
                                0x3ca0000000000000ull,
                                0x7fefffffffffffffull,
                                0xffefffffffffffffull,
                                0x7ff0000000000000ull,
                                0xfff0000000000000ull,
                                0x7ff8000000000000ull,
                                0xfff8000000000000ull,
                                0x7ff0000000000001ull,
                                0x7ff4000000000000ull,
                                0xfff0000000000001ull,
                                0x7ff8000000000001ull,
                                0x400921fb54442d18ull,
                                0xc00921fb54442d18ull,
                                0x0008000000000000ull,
                                0x8008000000000000ull};
static const uint16_t kF16[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x3c00,
                                0xbc00, 0x3c01, 0x1400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
                                0xfe00, 0x7c01, 0x7dff, 0x7e01, 0x4248, 0x0200};
static const uint16_t kBF16[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x3f80, 0xbf80,
                                 0x3f81, 0x3380, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc0,
                                 0x7f81, 0x7fbf, 0x7fc1, 0x4049, 0x0040, 0x8040};
static const uint32_t kU32[] = {
    0u,          1u,          2u,   3u,  7u,   0x7fffffffu, 0x80000000u, 0x80000001u,
    0xfffffffeu, 0xffffffffu, 100u, 99u, 101u, 0x12345678u, 0xdeadbeefu, 16u};
static const uint64_t kU64[] = {0ull,
                                1ull,
                                2ull,
                                0x7fffffffffffffffull,
                                0x8000000000000000ull,
                                0x8000000000000001ull,
                                0xfffffffffffffffeull,
                                0xffffffffffffffffull,
                                0xffffffffull,
                                0x100000000ull,
                                0x123456789abcdef0ull,
                                0xfedcba9876543210ull,
                                42ull,
                                0x80000000ull,
                                0x7fffffffull,
                                3ull};

/// The destination x source grid of n edge values of `size` bytes, rounded up to 16 bytes.
template <class T>
static void grid(const T* v, int n, std::vector<unsigned char>& dst,
                 std::vector<unsigned char>& src) {
  size_t bytes = ((size_t)n * n * sizeof(T) + 15) / 16 * 16;
  dst.assign(bytes, 0);
  src.assign(bytes, 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      memcpy(&dst[(i * n + j) * sizeof(T)], &v[i], sizeof(T));
      memcpy(&src[(i * n + j) * sizeof(T)], &v[j], sizeof(T));
    }
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  setvbuf(stdout, nullptr, _IONBF,
          0);   // a case that hangs is killed by run.sh: keep what came before
  FILE* answers = fopen(argv[1], "wb");
  if (!answers) return 2;
  int failures = 0;

  // 1. The ring, checked against the host.
  std::vector<unsigned char> h_in((size_t)kBlocks * kWindow);
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  for (auto& b : h_in) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    b = (unsigned char)(rng >> 24);
  }
  unsigned char* d_in;
  unsigned* d_out;
  const size_t out_words = (size_t)kBlocks * kRounds * kConsumers;
  cudaMalloc(&d_in, h_in.size());
  cudaMalloc(&d_out, out_words * 4);
  cudaMemcpy(d_in, h_in.data(), h_in.size(), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0xff, out_words * 4);
  ring<<<kBlocks, 256>>>(d_in, d_out);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("ring: %s\nFAIL\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<unsigned> h_out(out_words);
  cudaMemcpy(h_out.data(), d_out, out_words * 4, cudaMemcpyDeviceToHost);
  fwrite(h_out.data(), 4, (size_t)kRounds * kConsumers, answers);  // block 0: the host checks all
  long ring_bad = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int r = 0; r < kRounds; ++r) {
      const int words = (int)(chunk_bytes(r, 0) + chunk_bytes(r, 1)) / 4;
      const unsigned char* src = &h_in[(size_t)b * kWindow + round_offset(r)];
      for (int c = 0; c < kConsumers; ++c) {
        uint32_t sum = 0;
        for (int k = c; k < words; k += kConsumers) {
          uint32_t w;
          memcpy(&w, src + 4 * k, 4);
          sum += w * (uint32_t)(k + 1);
        }
        ring_bad += h_out[((size_t)b * kRounds + r) * kConsumers + c] != sum;
      }
    }
  printf("ring: %d blocks x %d rounds x %d stages, %ld results differ from the host\n", kBlocks,
         kRounds, kStages, ring_bad);
  failures += ring_bad != 0;

  // 2. Edge-value reductions (answers only: run.sh compares native with the translation).
  struct Case {
    const char* name;
    Kernel k;
    int type;  // 0 u32, 1 u64, 2 f32, 3 f64, 4 f16, 5 bf16
  };
  const Case cases[] = {
      {"add.u32", global_reduce<G_add_u32>, 0},
      {"add.s32", global_reduce<G_add_s32>, 0},
      {"min.u32", global_reduce<G_min_u32>, 0},
      {"max.u32", global_reduce<G_max_u32>, 0},
      {"min.s32", global_reduce<G_min_s32>, 0},
      {"max.s32", global_reduce<G_max_s32>, 0},
      {"inc.u32", global_reduce<G_inc_u32>, 0},
      {"dec.u32", global_reduce<G_dec_u32>, 0},
      {"and.b32", global_reduce<G_and_b32>, 0},
      {"or.b32", global_reduce<G_or_b32>, 0},
      {"xor.b32", global_reduce<G_xor_b32>, 0},
      {"add.u64", global_reduce<G_add_u64>, 1},
      {"min.u64", global_reduce<G_min_u64>, 1},
      {"max.u64", global_reduce<G_max_u64>, 1},
      {"min.s64", global_reduce<G_min_s64>, 1},
      {"max.s64", global_reduce<G_max_s64>, 1},
      {"and.b64", global_reduce<G_and_b64>, 1},
      {"or.b64", global_reduce<G_or_b64>, 1},
      {"xor.b64", global_reduce<G_xor_b64>, 1},
      {"add.f32", global_reduce<G_add_f32>, 2},
      {"add.f64", global_reduce<G_add_f64>, 3},
      {"add.noftz.f16", global_reduce<G_add_f16>, 4},
      {"add.noftz.bf16", global_reduce<G_add_bf16>, 5},
      {"min.f16", global_reduce<G_min_f16>, 4},
      {"max.f16", global_reduce<G_max_f16>, 4},
      {"min.bf16", global_reduce<G_min_bf16>, 5},
      {"max.bf16", global_reduce<G_max_bf16>, 5},
  };
  void *d_dst, *d_src;
  cudaMalloc(&d_dst, 8192);
  cudaMalloc(&d_src, 8192);
  for (const Case& c : cases) {
    std::vector<unsigned char> dst, src;
    switch (c.type) {
      case 0: grid(kU32, 16, dst, src); break;
      case 1: grid(kU64, 16, dst, src); break;
      case 2: grid(kF32, 32, dst, src); break;
      case 3: grid(kF64, 24, dst, src); break;
      case 4: grid(kF16, 22, dst, src); break;
      default: grid(kBF16, 22, dst, src); break;
    }
    cudaMemcpy(d_dst, dst.data(), dst.size(), cudaMemcpyHostToDevice);
    cudaMemcpy(d_src, src.data(), src.size(), cudaMemcpyHostToDevice);
    c.k<<<1, 128>>>(d_dst, d_src, (uint32_t)dst.size());
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      printf("%s: %s\n", c.name, cudaGetErrorString(e));
      ++failures;
      break;
    }
    cudaMemcpy(dst.data(), d_dst, dst.size(), cudaMemcpyDeviceToHost);
    fwrite(dst.data(), 1, dst.size(), answers);
    fflush(answers);
    uint64_t h = 1469598103934665603ull;
    for (unsigned char x : dst) h = (h ^ x) * 1099511628211ull;
    printf("%-16s %5zu bytes, fnv %016llx\n", c.name, dst.size(), (unsigned long long)h);
  }
  fclose(answers);
  printf(failures ? "FAIL\n" : "ok\n");
  return failures ? 1 : 0;
}
