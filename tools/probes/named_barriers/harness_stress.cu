// Launches stress_kernel on 2 blocks per SM for `iters` iterations (4 counted barrier statements
// and 14 completed phases each: 4 pairs, 8 single warps, the CTA, the hand-off),
// dumps sums and error counts, prints the error total and the time per iteration.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include CORPUS_FILE
int main(int argc, char** argv) {
  const int iters = argc > 2 ? atoi(argv[2]) : 20000;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int blocks = 2 * sms;
  std::vector<unsigned> h(2 * 256 * (size_t)blocks);
  unsigned* d;
  if (cudaMalloc(&d, h.size() * 4) != cudaSuccess) return 3;
  stress_kernel<<<blocks, 256>>>(d, 16);  // warm-up
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  stress_kernel<<<blocks, 256>>>(d, iters);
  cudaEventRecord(b);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 4; }
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  cudaMemcpy(h.data(), d, h.size() * 4, cudaMemcpyDeviceToHost);
  unsigned long long errors = 0;
  for (size_t i = 256 * (size_t)blocks; i < h.size(); ++i) errors += h[i];
  FILE* f = fopen(argv[1], "wb");
  if (!f) return 2;
  fwrite(h.data(), 4, h.size(), f);
  fclose(f);
  printf("stress: %d blocks x 256 threads x %d iterations (%d barrier phases per block): errors %llu, %.3f ms, %.1f ns per iteration\n",
         blocks, iters, iters * 14, errors, ms, ms * 1e6 / iters);
  return errors == 0 ? 0 : 5;
}
