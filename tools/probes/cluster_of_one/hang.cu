// The watchdog of ptx2hip's translated mbarrier spin loops (run translated only, built with
// -DPTX2HIP_SPIN_LIMIT_SECONDS=2: the native kernel would hang): the barrier expects two arrivals
// and gets one, so CUTLASS's try_wait loop never ends; the translation must print the statement's
// file and line and trap, an error the host sees.
#include <cstdint>
#include <cstdio>

__global__ void lost_arrival(unsigned* out) {
  __shared__ __attribute__((aligned(8))) uint64_t bar;
  const uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" ::"r"(b) : "memory");
  __syncthreads();
  if (threadIdx.x == 0) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(b) : "memory");
  asm volatile(
      "{\n"
      "  .reg .pred P1;\n"
      "LAB_WAIT:\n"
      "  mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0;\n"
      "  @P1 bra DONE;\n"
      "  bra LAB_WAIT;\n"
      "DONE:\n"
      "}\n" ::"r"(b)
      : "memory");
  out[threadIdx.x] = 1;
}

int main() {
  unsigned* out;
  cudaMalloc(&out, 64 * sizeof(unsigned));
  lost_arrival<<<1, 64>>>(out);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("kernel: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
