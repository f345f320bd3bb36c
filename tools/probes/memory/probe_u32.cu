#include <cstdio>
#include <cstdint>
__global__ void k(unsigned* o) {
  __shared__ uint32_t s[64];
  s[threadIdx.x] = threadIdx.x;
  uint32_t lo = (uint32_t)(uintptr_t)&s[5], r, g;
  asm volatile("cvta.to.shared.u32 %0, %1;" : "=r"(r) : "r"(lo));
  o[0] = r; o[1] = (uint32_t)__cvta_generic_to_shared(&s[5]);
  asm volatile("cvta.shared.u32 %0, %1;" : "=r"(g) : "r"(o[1]));
  o[2] = g; o[3] = lo;
}
int main() { unsigned* o; cudaMalloc(&o, 64); k<<<1, 64>>>(o); cudaError_t e = cudaDeviceSynchronize(); if (e) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
  unsigned h[4]; cudaMemcpy(h, o, 16, cudaMemcpyDeviceToHost);
  printf("cvta.to.shared.u32(low32 of &s[5]) = 0x%08x, __cvta_generic_to_shared = 0x%08x, cvta.shared.u32(that) = 0x%08x, low32 generic = 0x%08x\n", h[0], h[1], h[2], h[3]); return 0; }
