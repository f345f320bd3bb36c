// Hardware facts for ptx2hip's memory/special-register rules (run once on the H100).
#include <cstdio>
#include <cstdint>
__constant__ uint32_t cbuf[16];
__device__ uint32_t gvar[4];
extern __shared__ uint32_t dyn[];
__device__ uint32_t isg(const void* p) { uint32_t r; asm volatile("{.reg .pred q; isspacep.global q, %1; selp.u32 %0,1,0,q;}" : "=r"(r) : "l"(p)); return r; }
__device__ uint32_t isc(const void* p) { uint32_t r; asm volatile("{.reg .pred q; isspacep.const q, %1; selp.u32 %0,1,0,q;}" : "=r"(r) : "l"(p)); return r; }
__device__ uint32_t iss(const void* p) { uint32_t r; asm volatile("{.reg .pred q; isspacep.shared q, %1; selp.u32 %0,1,0,q;}" : "=r"(r) : "l"(p)); return r; }
__device__ uint32_t isl(const void* p) { uint32_t r; asm volatile("{.reg .pred q; isspacep.local q, %1; selp.u32 %0,1,0,q;}" : "=r"(r) : "l"(p)); return r; }
__global__ void probe(unsigned long long* o, const uint32_t* gbuf, int kparam) {
  __shared__ uint32_t s[64];
  volatile uint32_t l[4]; l[threadIdx.x & 3] = threadIdx.x;
  const void* ps[6] = {gbuf, cbuf, s, (const void*)l, gvar, &kparam};
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    for (int k = 0; k < 6; ++k) {
      o[k] = isg(ps[k]) | isc(ps[k]) << 1 | iss(ps[k]) << 2 | isl(ps[k]) << 3 |
             (unsigned long long)__isGlobal(ps[k]) << 8 | (unsigned long long)__isConstant(ps[k]) << 9;
    }
    unsigned long long a;
    asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(a) : "l"(&s[5])); o[6] = a;
    o[7] = (unsigned long long)(uintptr_t)&s[5];
    asm volatile("cvta.to.local.u64 %0, %1;" : "=l"(a) : "l"((const void*)&l[1])); o[8] = a;
    asm volatile("cvta.to.const.u64 %0, %1;" : "=l"(a) : "l"(&cbuf[2])); o[9] = a;
    asm volatile("cvta.to.global.u64 %0, %1;" : "=l"(a) : "l"(gbuf)); o[10] = a; o[11] = (uintptr_t)gbuf;
    uint32_t r;
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(r)); o[12] = r;
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(r)); o[13] = r;
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(a)); o[14] = a;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r)); o[15] = r;
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(r)); o[16] = r;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(a)); o[17] = a;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(a)); o[18] = a;
    asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %0, 0.5;" : "=l"(a)); o[19] = a;
    asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0;" : "=l"(a)); o[20] = a;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); o[21] = r;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r)); o[22] = r;
    asm volatile("{.reg .pred e; mov.pred e, %%is_explicit_cluster; selp.u32 %0, 1, 0, e;}" : "=r"(r)); o[23] = r;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(r)); o[24] = r;
    uint64_t g0, g1, c0, c1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0)); asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
    for (volatile int k = 0; k < 100000; ++k) {}
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1)); asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
    o[25] = g1 - g0; o[26] = c1 - c0;
    o[27] = (unsigned long long)(uintptr_t)dyn;
  }
  if (blockIdx.x == 0 && (threadIdx.x & 31) == 0) {
    uint32_t w, sm; asm volatile("mov.u32 %0, %%warpid;" : "=r"(w)); asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    o[32 + threadIdx.x / 32] = w | (unsigned long long)sm << 32;
  }
}
int main() {
  unsigned long long* o; uint32_t* g; cudaMalloc(&o, 8 * 128); cudaMalloc(&g, 64); cudaMemset(o, 0xff, 8 * 128);
  probe<<<2, 1024, 1000>>>(o, g, 7);
  cudaError_t e = cudaDeviceSynchronize(); if (e) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
  unsigned long long h[128]; cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  const char* names[6] = {"global buffer", "__constant__", "__shared__", "local", "__device__ var", "&kernel param"};
  for (int k = 0; k < 6; ++k) printf("space %-15s isspacep global=%llu const=%llu shared=%llu local=%llu | __isGlobal=%llu __isConstant=%llu\n", names[k], h[k]&1, (h[k]>>1)&1, (h[k]>>2)&1, (h[k]>>3)&1, (h[k]>>8)&1, (h[k]>>9)&1);
  const char* lab[] = {"cvta.to.shared.u64(&s[5])", "generic &s[5]", "cvta.to.local.u64", "cvta.to.const.u64(&cbuf[2])", "cvta.to.global.u64(gbuf)", "gbuf", "%nwarpid", "%nsmid", "%gridid", "%dynamic_smem_size (1000 requested)", "%total_smem_size", "createpolicy frac evict_first 1.0", "createpolicy frac evict_last 1.0", "createpolicy frac evict_last.evict_unchanged 0.5", "createpolicy frac evict_normal (default)", "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster", "%warpid of thread 0", "globaltimer delta (ns)", "clock64 delta", "dyn generic"};
  for (int k = 6; k < 28; ++k) printf("%-50s 0x%016llx (%llu)\n", lab[k - 6], h[k], h[k]);
  for (int k = 32; k < 64; ++k) printf("warp %2d of block 0: %%warpid %llu %%smid %llu\n", k - 32, h[k] & 0xffffffffull, h[k] >> 32);
  return 0;
}
