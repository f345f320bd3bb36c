// Helpers of rules/bulk.toml: bulk copies and bulk reductions done synchronously by the issuing
// thread, completed on an mbarrier (rules/helpers/async.h) or, for bulk groups, at issue.

// ptx2hip:helper ptx2hip_bulk_copy
// The copy of cp.async.bulk: `size` bytes from src to dst by the calling thread alone. PTX requires
// both addresses 16-byte aligned and size a multiple of 16 (else undefined): the copy is then
// 16-byte vector loads and stores, four loads issued before their four stores (the source and
// destination are in different state spaces, so they never overlap), which keeps four loads in
// flight (global_load/flat_load_dwordx4 + ds_write_b128 on AMD); any other operands are copied
// byte by byte rather than faulting.
__device__ inline void ptx2hip_bulk_copy(void* dst, const void* src, uint32_t size) {
  if ((((uintptr_t)dst | (uintptr_t)src | size) & 15u) == 0) {
    uint4* d = (uint4*)dst;
    const uint4* s = (const uint4*)src;
    const uint32_t chunks = size / 16u;
    uint32_t i = 0;
    for (; i + 4u <= chunks; i += 4u) {
      const uint4 a = s[i], b = s[i + 1], c = s[i + 2], e = s[i + 3];
      d[i] = a;
      d[i + 1] = b;
      d[i + 2] = c;
      d[i + 3] = e;
    }
    for (; i < chunks; ++i) d[i] = s[i];
    return;
  }
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  for (uint32_t i = 0; i < size; ++i) d[i] = s[i];
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bulk_copy_complete_tx requires=ptx2hip_bulk_copy,ptx2hip_mbar_update
// cp.async.bulk with .mbarrier::complete_tx::bytes: the copy, then complete_tx(size) on the
// mbarrier, whose update releases at CTA scope: a thread that observes the phase complete
// (test_wait/try_wait acquire) sees every byte of the copy.
__device__ inline void ptx2hip_bulk_copy_complete_tx(void* dst, const void* src, uint32_t size,
                                                     void* bar) {
  ptx2hip_bulk_copy(dst, src, size);
  (void)ptx2hip_mbar_update(bar, 0u, 0u, -(int32_t)size);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bulk_reduce
// The reduction of cp.reduce.async.bulk: each of the size / sizeof(T) elements of dst becomes
// rmw(&dst[i], src[i]), one atomic read-modify-write of the atomic family per element, in order.
template <class T, class Rmw>
__device__ inline void ptx2hip_bulk_reduce(T* dst, const T* src, uint32_t size, Rmw rmw) {
  for (uint32_t i = 0; i < size / (uint32_t)sizeof(T); ++i) rmw(dst + i, src[i]);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_bulk_minmax_half requires=ptx2hip_h_minmax,ptx2hip_cas16
// One element of cp.reduce.async.bulk min/max on f16 or bf16 (BF) bits, as an H200 computes it
// (recorded over edge grids, tools/probes/bulk_copies): the half family's min/max (-0 < +0, one
// NaN gives the other input, two give 0x7fff, subnormals kept), as a relaxed compare-and-swap
// loop on the element; a value that is already the result is left unwritten.
template <bool BF, bool MAX>
__device__ inline void ptx2hip_bulk_minmax_half(uint16_t* p, uint16_t b) {
  uint16_t old = *(volatile uint16_t*)p;
  while (true) {
    uint16_t next = ptx2hip_h_minmax(old, b, BF, false, MAX, false, false);
    if (next == old) return;
    uint16_t seen = ptx2hip_cas16(p, old, next, false);
    if (seen == old) return;
    old = seen;
  }
}
// ptx2hip:end
