// Records one PTX statement's output for a fixed input set (see run.sh): all 65,536 16-bit
// inputs (MODE 16), three passes of 65,536 32-bit words (MODE 32: lanes x | perm(x) << 16,
// x | x << 16, then SplitMix64 words), or the f32 values of every f16 and every bf16 (MODE 1).
// KIND: 0 h->h, 1 r->r, 2 f->f, 3 h->r, 4 r->h.
// Output file: u32 count, then count pairs (input, output) of u32, little-endian.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

__global__ void kernel(const uint32_t* in, uint32_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
#if KIND == 0
  unsigned short a = (unsigned short)in[i], d;
  asm volatile(STMT : "=h"(d) : "h"(a));
  out[i] = d;
#elif KIND == 1
  uint32_t a = in[i], d;
  asm volatile(STMT : "=r"(d) : "r"(a));
  out[i] = d;
#elif KIND == 2
  float a = __uint_as_float(in[i]), d;
  asm volatile(STMT : "=f"(d) : "f"(a));
  out[i] = __float_as_uint(d);
#elif KIND == 3
  unsigned short a = (unsigned short)in[i];
  uint32_t d;
  asm volatile(STMT : "=r"(d) : "h"(a));
  out[i] = d;
#else
  uint32_t a = in[i];
  unsigned short d;
  asm volatile(STMT : "=h"(d) : "r"(a));
  out[i] = d;
#endif
}

static uint32_t f16_to_f32_bits(uint32_t h) {
  uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 31, m = h & 0x3ffu;
  if (e == 31) return s | 0x7f800000u | (m << 13);
  if (e == 0) {
    if (m == 0) return s;
    int k = 0;
    while (!(m & 0x400u)) { m <<= 1; ++k; }
    return s | ((uint32_t)(113 - k) << 23) | ((m & 0x3ffu) << 13);
  }
  return s | ((e + 112) << 23) | (m << 13);
}

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: table OUTFILE\n"); return 2; }
  std::vector<uint32_t> in;
#if MODE == 16
  for (uint32_t x = 0; x < 65536; ++x) in.push_back(x);
#elif MODE == 32
  for (uint32_t x = 0; x < 65536; ++x) in.push_back(x | (((x * 40503u + 0x9e37u) & 0xffffu) << 16));
  for (uint32_t x = 0; x < 65536; ++x) in.push_back(x | (x << 16));
  uint64_t s = 0x2545f4914f6cdd1dull;
  for (int i = 0; i < 65536; ++i) {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    in.push_back((uint32_t)(z ^ (z >> 31)));
  }
#else
  for (uint32_t x = 0; x < 65536; ++x) in.push_back(f16_to_f32_bits(x));
  for (uint32_t x = 0; x < 65536; ++x) in.push_back(x << 16);
#endif
  int n = (int)in.size();
  uint32_t *din, *dout;
  if (cudaMalloc(&din, n * 4) || cudaMalloc(&dout, n * 4)) { fprintf(stderr, "cudaMalloc failed\n"); return 1; }
  cudaMemcpy(din, in.data(), n * 4, cudaMemcpyHostToDevice);
  kernel<<<(n + 255) / 256, 256>>>(din, dout, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { fprintf(stderr, "kernel: %s\n", cudaGetErrorString(e)); return 1; }
  std::vector<uint32_t> out(n);
  cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost);
  FILE* f = fopen(argv[1], "wb");
  if (!f) { perror("fopen"); return 1; }
  uint32_t cnt = (uint32_t)n;
  fwrite(&cnt, 4, 1, f);
  for (int i = 0; i < n; ++i) { fwrite(&in[i], 4, 1, f); fwrite(&out[i], 4, 1, f); }
  fclose(f);
  printf("%s: %d values\n", argv[1], n);
  return 0;
}
