// TMA copy atoms in the style of a CUTE/CUTLASS sm90 header: one struct per instruction form,
// each a static `copy` that issues the asm from one thread with the tensor map's generic address
// as a 64-bit integer and shared-memory addresses as 32-bit window offsets. The descriptors come
// from the host (`cuTensorMapEncodeTiled`); in-kernel descriptor updates use tensormap.replace
// on a shared copy, then tensormap.cp_fenceproxy and an acquire fence before the first copy.
// The multicast and im2col atoms stay as written (clusters, im2col maps: not emulated).
#pragma once
#include <stdint.h>

namespace tma_atoms {

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
#if defined(__HIP_PLATFORM_AMD__)
  return (uint32_t)(uintptr_t)(const __attribute__((address_space(3))) void*)p;
#else
  return (uint32_t)__cvta_generic_to_shared(p);
#endif
}

struct Load2D {
  static __device__ void copy(const void* desc, uint64_t* mbar, void* smem, int32_t x, int32_t y) {
    uint64_t d = reinterpret_cast<uint64_t>(desc);
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4}], [%2];"
        :
        : "r"(smem_u32(smem)), "l"(d), "r"(smem_u32(mbar)), "r"(x), "r"(y)
        : "memory");
  }
};

struct Load3DHint {
  static __device__ void copy(const void* desc, uint64_t* mbar, uint64_t policy, void* smem,
                              int32_t x, int32_t y, int32_t z) {
    uint64_t d = reinterpret_cast<uint64_t>(desc);
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
        " [%0], [%1, {%3, %4, %5}], [%2], %6;"
        :
        : "r"(smem_u32(smem)), "l"(d), "r"(smem_u32(mbar)), "r"(x), "r"(y), "r"(z), "l"(policy)
        : "memory");
  }
};

struct Load5D {
  static __device__ void copy(const void* desc, uint64_t* mbar, void* smem, int32_t c0, int32_t c1,
                              int32_t c2, int32_t c3, int32_t c4) {
    uint64_t d = reinterpret_cast<uint64_t>(desc);
    asm volatile(
        "cp.async.bulk.tensor.5d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4, %5, %6, %7}], [%2];"
        :
        : "r"(smem_u32(smem)), "l"(d), "r"(smem_u32(mbar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3),
          "r"(c4)
        : "memory");
  }
};

struct Store2D {
  static __device__ void copy(const void* desc, const void* smem, int32_t x, int32_t y) {
    uint64_t d = reinterpret_cast<uint64_t>(desc);
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
                 :
                 : "l"(d), "r"(smem_u32(smem)), "r"(x), "r"(y)
                 : "memory");
  }
};

struct ReduceAdd2D {
  static __device__ void copy(const void* desc, const void* smem, int32_t x, int32_t y) {
    uint64_t d = reinterpret_cast<uint64_t>(desc);
    asm volatile(
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%2, %3}], [%1];"
        :
        : "l"(d), "r"(smem_u32(smem)), "r"(x), "r"(y)
        : "memory");
  }
};

__device__ __forceinline__ void prefetch_box(const void* desc, int32_t x, int32_t y) {
  uint64_t d = reinterpret_cast<uint64_t>(desc);
  asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];"
               :
               : "l"(d), "r"(x), "r"(y)
               : "memory");
}

__device__ __forceinline__ void prefetch_descriptor(const void* desc) {
  asm volatile("prefetch.tensormap [%0];" : : "l"(reinterpret_cast<uint64_t>(desc)) : "memory");
}

// Points a copy of the descriptor at another tensor of the same shape (a grouped GEMM's next
// problem) and publishes it to the global descriptor the next copies read.
__device__ __forceinline__ void retarget(void* smem_desc, void* gmem_desc, const void* tensor,
                                         uint32_t rows, uint64_t row_bytes) {
  uint32_t s = smem_u32(smem_desc);
  asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;"
               :
               : "r"(s), "l"(reinterpret_cast<uint64_t>(tensor))
               : "memory");
  asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %1;"
               :
               : "r"(s), "r"(rows)
               : "memory");
  asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %1;"
               :
               : "r"(s), "l"(row_bytes)
               : "memory");
  asm volatile(
      "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"
      " [%0], [%1], 128;"
      :
      : "l"(reinterpret_cast<uint64_t>(gmem_desc)), "r"(s)
      : "memory");
}

__device__ __forceinline__ void acquire_descriptor(const void* gmem_desc) {
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
               :
               : "l"(reinterpret_cast<uint64_t>(gmem_desc))
               : "memory");
}

__device__ __forceinline__ void release_descriptors() {
  asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
}

// Left as written: a multicast to the CTAs of a cluster, and an im2col load.
struct Load2DMulticast {
  static __device__ void copy(const void* desc, uint64_t* mbar, uint16_t mask, void* smem,
                              int32_t x, int32_t y) {
    uint64_t d = reinterpret_cast<uint64_t>(desc);
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%4, %5}], [%2], %3;"
        :
        : "r"(smem_u32(smem)), "l"(d), "r"(smem_u32(mbar)), "h"(mask), "r"(x), "r"(y)
        : "memory");
  }
};

struct LoadIm2col3D {
  static __device__ void copy(const void* desc, uint64_t* mbar, void* smem, int32_t c, int32_t w,
                              int32_t n, uint16_t offset_w) {
    uint64_t d = reinterpret_cast<uint64_t>(desc);
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4, %5}], [%2], {%6};"
        :
        : "r"(smem_u32(smem)), "l"(d), "r"(smem_u32(mbar)), "r"(c), "r"(w), "r"(n), "h"(offset_w)
        : "memory");
  }
};

}  // namespace tma_atoms
