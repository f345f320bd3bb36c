// Launches named_barriers_kernel as tools/e2e/gen.py does (pseudo-random buffers, 2n threads in
// blocks of 320) and dumps both buffers.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#include CORPUS_FILE
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next() { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
int main(int argc, char** argv) {
  const int n = 4096, blocks = (2 * n + 319) / 320;
  const size_t bytes = sizeof(int) * (size_t)n * 64;
  std::vector<unsigned char> hin(bytes), hout(bytes);
  for (auto& b : hin) b = (unsigned char)(next() >> 24);
  for (auto& b : hout) b = (unsigned char)(next() >> 24);
  void *din, *dout;
  if (cudaMalloc(&din, bytes) != cudaSuccess || cudaMalloc(&dout, bytes) != cudaSuccess) return 3;
  cudaMemcpy(din, hin.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dout, hout.data(), bytes, cudaMemcpyHostToDevice);
  const int reps = argc > 2 ? atoi(argv[2]) : 1;
  for (int r = 0; r < reps; ++r) {
    named_barriers_kernel<<<blocks, 320>>>((const int*)din, (unsigned*)dout);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 4; }
  }
  cudaMemcpy(hin.data(), din, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(hout.data(), dout, bytes, cudaMemcpyDeviceToHost);
  FILE* f = fopen(argv[1], "wb");
  if (!f) return 2;
  fwrite(hin.data(), 1, bytes, f);
  fwrite(hout.data(), 1, bytes, f);
  fclose(f);
  printf("named_barriers: %d launches of %d blocks x 320 threads\n", reps, blocks);
  return 0;
}
