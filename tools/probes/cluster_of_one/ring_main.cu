// Runs corpus/cluster_of_one.cu (included from RING_FILE: the original or its translation) over
// deterministic inputs and writes `out` to argv[1].
#include <cstdint>
#include <cstdio>
#include <vector>
#include RING_FILE

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const int blocks = 264, n_in = blocks * 16 * 256, n_out = blocks * 256;
  std::vector<int> h(n_in);
  uint64_t x = 0x2545f4914f6cdd1dull;
  for (auto& v : h) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; v = (int)(x >> 32); }
  int* in;
  unsigned* out;
  cudaMalloc(&in, n_in * 4);
  cudaMalloc(&out, n_out * 4);
  cudaMemcpy(in, h.data(), n_in * 4, cudaMemcpyHostToDevice);
  for (int rep = 0; rep < 20; ++rep) cluster_of_one_kernel<<<blocks, 256>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error: %s\n", cudaGetErrorString(e)); return 1; }
  std::vector<unsigned> r(n_out);
  cudaMemcpy(r.data(), out, n_out * 4, cudaMemcpyDeviceToHost);
  FILE* f = fopen(argv[1], "wb");
  fwrite(r.data(), 4, r.size(), f);
  fclose(f);
  return 0;
}
