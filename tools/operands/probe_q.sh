#!/usr/bin/env bash
# Which C++ types nvcc binds to the "q" (128-bit) constraint, as input and as output, and with what bits.
# Run on a machine with an NVIDIA GPU and nvcc; docs/OPERANDS.md records the result.
cd "$(mktemp -d)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ) nvcc: $(nvcc --version | tail -1)"
types=("__int128" "unsigned __int128" "long long" "unsigned long long" "double" "uint4" "float4" "longlong2" "S16" "const unsigned __int128" "bool" "int")
for dir in in out; do
 for t in "${types[@]}"; do
  f="p_${dir}_${t// /_}.cu"
  cat > "$f" <<CU
#include <cstdio>
#include <cstdint>
#include <cstring>
struct S16 { unsigned long long a, b; };
__global__ void k(unsigned char* o) {
  unsigned __int128 src = ((unsigned __int128)0x0123456789abcdefull << 64) | 0xfedcba9876543210ull;
  $( [ $dir = in ] && echo "$t x; memcpy((void*)&x, &src, sizeof(x) < 16 ? sizeof(x) : 16); unsigned __int128 y = 0; asm volatile(\"mov.b128 %0, %1;\" : \"=q\"(y) : \"q\"(x)); memcpy(o, &y, 16);" || echo "$t y{}; asm volatile(\"mov.b128 %0, %1;\" : \"=q\"(y) : \"q\"(src)); memcpy(o, (const void*)&y, sizeof(y) < 16 ? sizeof(y) : 16);" )
}
int main() { unsigned char* d; cudaMalloc(&d, 16); cudaMemset(d, 0xa5, 16); k<<<1,1>>>(d); unsigned char h[16]; cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost); for (int i = 15; i >= 0; --i) printf("%02x", h[i]); printf("\n"); }
CU
  if nvcc -arch=sm_90 -std=c++17 -w "$f" -o "${f%.cu}" 2> "${f%.cu}.log"; then
    echo -e "$dir\t$t\tok\t$(./${f%.cu})"
  else
    echo -e "$dir\t$t\trejected\t$(grep -m1 error "${f%.cu}.log" | cut -c1-150)"
  fi
 done
done
