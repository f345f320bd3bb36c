// What the H100 answers for the cluster instructions of a CTA that is its own cluster (never
// translated: the hardware's raw answers, printed by run.sh). Each kernel is launched without
// clusters (<<<>>>) and with an explicit cluster of 1x1x1 (cudaLaunchKernelEx); the loads through
// the addresses run last, as a fault there ends the process.
#include <cstdint>
#include <cstdio>

__global__ void addresses(unsigned long long* out) {
  __shared__ uint32_t word;
  if (threadIdx.x != 0) return;
  word = 0xC0FFEE01u;
  const uint32_t a32 = (uint32_t)__cvta_generic_to_shared(&word);
  const uint64_t a64 = (uint64_t)__cvta_generic_to_shared(&word);
  const uint64_t p = (uint64_t)&word;
  uint32_t m32, rank_a, rank_m, rank_p, rank_mg, ctarank, nctarank, explicit_cluster;
  uint64_t m64, mg;
  asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(m32) : "r"(a32));
  asm volatile("mapa.shared::cluster.u64 %0, %1, 0;" : "=l"(m64) : "l"(a64));
  asm volatile("mapa.u64 %0, %1, 0;" : "=l"(mg) : "l"(p));
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(rank_a) : "r"(a32));
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(rank_m) : "r"(m32));
  asm volatile("getctarank.u64 %0, %1;" : "=r"(rank_p) : "l"(p));
  asm volatile("getctarank.u64 %0, %1;" : "=r"(rank_mg) : "l"(mg));
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(ctarank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(nctarank));
  asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }"
               : "=r"(explicit_cluster));
  const unsigned long long f[] = {a32,    m32,    a64,     m64,      p,       mg,
                                  rank_a, rank_m, rank_p,  rank_mg,  ctarank, nctarank,
                                  explicit_cluster};
  for (int i = 0; i < 13; ++i) out[i] = f[i];
}

__global__ void loads(unsigned long long* out) {
  __shared__ uint32_t word;
  if (threadIdx.x != 0) return;
  word = 0xC0FFEE01u;
  const uint32_t a32 = (uint32_t)__cvta_generic_to_shared(&word);
  uint32_t m32, v_a, v_m, v_g;
  uint64_t mg;
  asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(m32) : "r"(a32));
  asm volatile("mapa.u64 %0, %1, 0;" : "=l"(mg) : "l"((uint64_t)&word));
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v_m) : "r"(m32) : "memory");
  asm volatile("ld.u32 %0, [%1];" : "=r"(v_g) : "l"(mg) : "memory");
  out[0] = v_m;
  out[1] = v_g;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v_a) : "r"(a32) : "memory");
  out[2] = v_a;
}

static const char* kNames[16] = {
    "cvta.shared a32", "mapa.shared::cluster.u32 a32,0", "cvta.shared a64",
    "mapa.shared::cluster.u64 a64,0", "generic p", "mapa.u64 p,0",
    "getctarank.shared::cluster a32", "getctarank.shared::cluster mapa(a32)", "getctarank.u64 p",
    "getctarank.u64 mapa(p)", "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster",
    "ld.shared::cluster [mapa(a32)]", "ld [mapa(p)]", "ld.shared::cluster [a32] (cta address)"};

/// Launches `k` on one CTA of 32 threads, without clusters or with a 1x1x1 cluster, and copies
/// `n` answers to `h`.
static cudaError_t launch(void (*k)(unsigned long long*), bool cluster, unsigned long long* d,
                          unsigned long long* h, int n) {
  cudaError_t e;
  if (!cluster) {
    k<<<1, 32>>>(d);
    e = cudaGetLastError();
  } else {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = 1;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    e = cudaLaunchKernelEx(&cfg, k, d);
  }
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(h, d, n * sizeof(*h), cudaMemcpyDeviceToHost);
  return e;
}

int main() {
  unsigned long long* d;
  unsigned long long h[2][16] = {};
  cudaError_t e[2][2];
  if (cudaMalloc(&d, sizeof(h[0])) != cudaSuccess) return 2;
  for (int c = 0; c < 2; ++c) e[c][0] = launch(addresses, c == 1, d, h[c], 13);
  for (int c = 0; c < 2; ++c) e[c][1] = launch(loads, c == 1, d, h[c] + 13, 3);
  printf("addresses: no cluster %s, cluster 1x1x1 %s\n", cudaGetErrorString(e[0][0]),
         cudaGetErrorString(e[1][0]));
  printf("loads: no cluster %s, cluster 1x1x1 %s\n", cudaGetErrorString(e[0][1]),
         cudaGetErrorString(e[1][1]));
  for (int i = 0; i < 16; ++i)
    printf("%-40s  no cluster 0x%llx   cluster 1x1x1 0x%llx\n", kNames[i], h[0][i], h[1][i]);
  const bool same = h[0][1] == h[0][0] && h[0][3] == h[0][2] && h[0][5] == h[0][4];
  printf("mapa of rank 0 returns its operand (launch without clusters): %s\n", same ? "yes" : "NO");
  return 0;
}
