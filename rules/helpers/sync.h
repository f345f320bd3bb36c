// Helpers of rules/sync.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_cp_async
// cp.async done synchronously: n (4, 8 or 16) bytes to dst, the first src_size of them from src
// and the rest zeros. No source byte at or past src_size is read. A full copy is one vector load
// and store.
__device__ inline void ptx2hip_cp_async(void* dst, const void* src, uint32_t n, uint32_t src_size) {
  if (src_size >= n) {
    if (n == 16) *(uint4*)dst = *(const uint4*)src;
    else if (n == 8) *(uint2*)dst = *(const uint2*)src;
    else *(uint32_t*)dst = *(const uint32_t*)src;
    return;
  }
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  for (uint32_t i = 0; i < n; ++i) d[i] = i < src_size ? s[i] : (unsigned char)0;
}
// ptx2hip:end
