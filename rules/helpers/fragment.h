// Helpers of rules/fragment.toml (markers: rules/README.md, "Helpers").
//
// ldmatrix / stmatrix / movmatrix move 8x8 tiles of b16 elements between shared memory (16-byte
// rows) and the registers of a 32-lane PTX warp, in the fragment layout of mma.sync: register m of
// lane l holds row l/4, columns 2(l%4) and 2(l%4)+1 of matrix m (low half first). Lanes 8m..8m+7
// give the row addresses of matrix m. On AMD each lane fetches the row addresses it needs from the
// lane that holds them (ds_bpermute within the lane's own PTX warp: on wave64 each half of the
// wave is one warp) and accesses LDS itself.
//
// The row addresses travel as 32-bit LDS offsets, not 64-bit pointers: one ds_bpermute per row
// instead of two. That is exact: the instructions access only shared memory (PTX: a generic
// address that is not in the .shared window is undefined behaviour), and cvta.to.shared of a
// shared pointer is its LDS offset, below 2^32.

// ptx2hip:helper ptx2hip_lds_load_u32
// ptx2hip:amd
// The 32-bit word at LDS offset off (one ds_read_b32).
__device__ inline uint32_t ptx2hip_lds_load_u32(uint32_t off) {
  return *(const __attribute__((address_space(3))) uint32_t*)(uintptr_t)off;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_lds_load_u16
// ptx2hip:amd
// The 16-bit element at LDS offset off (one ds_read_u16, or ds_read_u16_d16(_hi) into a half).
__device__ inline uint32_t ptx2hip_lds_load_u16(uint32_t off) {
  return *(const __attribute__((address_space(3))) uint16_t*)(uintptr_t)off;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_lds_load_u32x4
// ptx2hip:amd
// The 16 bytes at LDS offset off, 16-byte aligned, as 4 words (one ds_read_b128).
struct alignas(16) ptx2hip_lds_u32x4 {
  uint32_t w[4];
};
__device__ inline void ptx2hip_lds_load_u32x4(uint32_t off, uint32_t* w) {
  const __attribute__((address_space(3))) ptx2hip_lds_u32x4* p =
      (const __attribute__((address_space(3))) ptx2hip_lds_u32x4*)(uintptr_t)off;
  for (int i = 0; i < 4; ++i) w[i] = p->w[i];
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_lds_store_u32
// ptx2hip:amd
// Stores v at LDS offset off (one ds_write_b32).
__device__ inline void ptx2hip_lds_store_u32(uint32_t off, uint32_t v) {
  *(__attribute__((address_space(3))) uint32_t*)(uintptr_t)off = v;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_lds_store_u16
// ptx2hip:amd
// Stores the low 16 bits of v at LDS offset off (one ds_write_b16, or ds_write_b16_d16_hi).
__device__ inline void ptx2hip_lds_store_u16(uint32_t off, uint32_t v) {
  *(__attribute__((address_space(3))) uint16_t*)(uintptr_t)off = (uint16_t)v;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_ldmatrix requires=ptx2hip_vec,ptx2hip_shared_addr,ptx2hip_warp_read,ptx2hip_lds_load_u32,ptx2hip_lds_load_u16
// ptx2hip:amd
// ldmatrix.sync.aligned.m8n8.xN{.trans}.b16 of the row address p (a generic pointer to shared
// memory). Without .trans register m of lane l is the word at column pair l%4 of row l/4 of matrix
// m: one row address read and one 32-bit LDS load. With .trans it holds the elements at column
// l/4 of rows 2(l%4) and 2(l%4)+1: two row addresses and two 16-bit loads.
template <int N, bool Trans>
__device__ inline ptx2hip_vec<uint32_t, N> ptx2hip_ldmatrix(uintptr_t p) {
  const uint32_t row = ptx2hip_shared_addr((const void*)p);
  const uint32_t l = __lane_id() & 31u, g = l >> 2, t = l & 3u;
  ptx2hip_vec<uint32_t, N> d;
  for (int m = 0; m < N; ++m) {
    if (Trans) {
      const uint32_t lo = ptx2hip_warp_read(row, 8u * m + 2u * t);
      const uint32_t hi = ptx2hip_warp_read(row, 8u * m + 2u * t + 1u);
      d.v[m] = ptx2hip_lds_load_u16(lo + 2u * g) | ptx2hip_lds_load_u16(hi + 2u * g) << 16;
    } else {
      d.v[m] = ptx2hip_lds_load_u32(ptx2hip_warp_read(row, 8u * m + g) + 4u * t);
    }
  }
  return d;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_stmatrix requires=ptx2hip_vec,ptx2hip_shared_addr,ptx2hip_warp_read,ptx2hip_lds_store_u32,ptx2hip_lds_store_u16
// ptx2hip:amd
// stmatrix.sync.aligned.m8n8.xN{.trans}.b16, the inverse of ptx2hip_ldmatrix: each lane stores
// its own registers at the rows other lanes address (32-bit stores; with .trans each half to its
// own row, 16-bit stores).
template <int N, bool Trans>
__device__ inline void ptx2hip_stmatrix(uintptr_t p, ptx2hip_vec<uint32_t, N> r) {
  const uint32_t row = ptx2hip_shared_addr((const void*)p);
  const uint32_t l = __lane_id() & 31u, g = l >> 2, t = l & 3u;
  for (int m = 0; m < N; ++m) {
    const uint32_t x = r.v[m];
    if (Trans) {
      const uint32_t lo = ptx2hip_warp_read(row, 8u * m + 2u * t);
      const uint32_t hi = ptx2hip_warp_read(row, 8u * m + 2u * t + 1u);
      ptx2hip_lds_store_u16(lo + 2u * g, x);
      ptx2hip_lds_store_u16(hi + 2u * g, x >> 16);
    } else {
      ptx2hip_lds_store_u32(ptx2hip_warp_read(row, 8u * m + g) + 4u * t, x);
    }
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_movmatrix requires=ptx2hip_warp_read
// ptx2hip:amd
// movmatrix.sync.aligned.m8n8.trans.b16: lane l receives column l/4, rows 2(l%4) and 2(l%4)+1 of
// the 8x8 matrix the warp holds in the fragment layout. Element (r, c) sits in lane 4r + c/2, half
// c%2, so both halves come from lanes 8(l%4) + l/8 and 8(l%4) + 4 + l/8, half (l/4)%2 of each.
__device__ inline uint32_t ptx2hip_movmatrix(uint32_t a) {
  const uint32_t l = __lane_id() & 31u, src = 8u * (l & 3u) + (l >> 3), s = (l & 4u) << 2;
  const uint32_t lo = ptx2hip_warp_read(a, src);
  const uint32_t hi = ptx2hip_warp_read(a, src + 4u);
  return (lo >> s & 0xffffu) | (hi >> s) << 16;
}
// ptx2hip:end
