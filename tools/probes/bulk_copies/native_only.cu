// Native-only evidence for the bulk family's refusals (rules/bulk.toml), run by run.sh on an
// H100/H200 in a launch without clusters, one case per process (an illegal instruction spoils the
// context):
//   own_st_async    st.async.shared::cluster ... to the executing CTA's own shared memory
//   own_red_async   red.async.relaxed.cluster.shared::cluster ... add.u32, likewise
//   own_bulk_copy   cp.async.bulk.shared::cluster.shared::cta ..., likewise
// Each prints "completed", "timed out" (the mbarrier phase never completed) or the CUDA error.
//   half_minmax FILE  the global bulk min/max of f16 and bf16 over destination x source grids of
//                     edge values, written to FILE (recorded for a later translation).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

__device__ __forceinline__ uint32_t smem(const void* p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}

/// Waits for phase 0 of `bar` a bounded time; true when it completed.
__device__ bool wait_phase0(uint32_t bar) {
  for (int i = 0; i < 100000; ++i) {
    uint32_t done;
    asm volatile(
        "{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(bar)
        : "memory");
    if (done) return true;
  }
  return false;
}

__global__ void own_cta(int which, unsigned* result) {
  __shared__ __attribute__((aligned(16))) unsigned src[4], dst[4];
  __shared__ __attribute__((aligned(8))) uint64_t bar;
  if (threadIdx.x != 0) return;
  src[0] = 7, src[1] = 8, src[2] = 9, src[3] = 10, dst[0] = dst[1] = dst[2] = dst[3] = 1;
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar)) : "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&bar)),
               "r"(which == 2 ? 16u : 4u)
               : "memory");
  if (which == 0)
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" ::"r"(
                     smem(dst)),
                 "r"(42u), "r"(smem(&bar))
                 : "memory");
  else if (which == 1)
    asm volatile(
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];" ::
            "r"(smem(dst)),
        "r"(42u), "r"(smem(&bar))
        : "memory");
  else
    asm volatile(
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];" ::
            "r"(smem(dst)),
        "r"(smem(src)), "r"(smem(&bar))
        : "memory");
  result[0] = wait_phase0(smem(&bar)) ? 1u : 2u;
  result[1] = dst[0];
}

template <int K>
__global__ void half_minmax(void* dst, const void* src, uint32_t bytes) {
  __shared__ __attribute__((aligned(128))) unsigned char s[1024];
  for (uint32_t i = threadIdx.x; i < bytes; i += blockDim.x) s[i] = ((const unsigned char*)src)[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x != 0) return;
  if (K == 0)
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f16 [%0], [%1], %2;" ::"l"(dst),
        "r"(smem(s)), "r"(bytes)
        : "memory");
  if (K == 1)
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.f16 [%0], [%1], %2;" ::"l"(dst),
        "r"(smem(s)), "r"(bytes)
        : "memory");
  if (K == 2)
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.bf16 [%0], [%1], %2;" ::"l"(dst),
        "r"(smem(s)), "r"(bytes)
        : "memory");
  if (K == 3)
    asm volatile(
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.bf16 [%0], [%1], %2;" ::"l"(dst),
        "r"(smem(s)), "r"(bytes)
        : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

static const uint16_t kF16[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x3c00, 0xbc00,
                                0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01,
                                0x7dff, 0x7e01, 0x4248, 0xc248, 0x0400, 0x8400};
static const uint16_t kBF16[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x3f80, 0xbf80,
                                 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81,
                                 0x7fbf, 0x7fc1, 0x4049, 0xc049, 0x0080, 0x8080};

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const char* names[] = {"own_st_async", "own_red_async", "own_bulk_copy"};
  for (int w = 0; w < 3; ++w) {
    if (strcmp(argv[1], names[w]) != 0) continue;
    unsigned* d;
    cudaMalloc(&d, 8);
    cudaMemset(d, 0, 8);
    own_cta<<<1, 32>>>(w, d);
    cudaError_t e = cudaDeviceSynchronize();
    unsigned h[2] = {0, 0};
    if (e == cudaSuccess) cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) printf("%s: %s\n", names[w], cudaGetErrorString(e));
    else printf("%s: %s, dst[0] = %u\n", names[w], h[0] == 1 ? "completed" : "timed out", h[1]);
    return 0;
  }
  if (strcmp(argv[1], "half_minmax") != 0 || argc < 3) return 2;
  FILE* out = fopen(argv[2], "wb");
  if (!out) return 2;
  const int n = 20;
  std::vector<uint16_t> dst(n * n + 8, 0), src(n * n + 8, 0);
  const uint32_t bytes = (uint32_t)((n * n * 2 + 15) / 16 * 16);
  void *dd, *ds;
  cudaMalloc(&dd, 1024);
  cudaMalloc(&ds, 1024);
  void (*kernels[])(void*, const void*, uint32_t) = {half_minmax<0>, half_minmax<1>, half_minmax<2>,
                                                     half_minmax<3>};
  for (int k = 0; k < 4; ++k) {
    const uint16_t* v = k < 2 ? kF16 : kBF16;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) dst[i * n + j] = v[i], src[i * n + j] = v[j];
    cudaMemcpy(dd, dst.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(ds, src.data(), bytes, cudaMemcpyHostToDevice);
    kernels[k]<<<1, 64>>>(dd, ds, bytes);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      printf("half_minmax %d: %s\n", k, cudaGetErrorString(e));
      return 1;
    }
    std::vector<uint16_t> got(bytes / 2);
    cudaMemcpy(got.data(), dd, bytes, cudaMemcpyDeviceToHost);
    fwrite(got.data(), 2, n * n, out);
  }
  fclose(out);
  printf("half_minmax: 4 x %d results written\n", n * n);
  return 0;
}
