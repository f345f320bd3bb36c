// Definitions the TMA probe's kernels (tma_kernels.cu) and host (tma_probe.cu) share.
#pragma once
#include <stdint.h>

// The shared-memory region each kernel fills (sentinel 0xa5 before a load) and dumps.
#define PROBE_SMEM_BYTES 16384

// A box's coordinates (unused ones zero).
struct probe_coords {
  int32_t v[5];
  __host__ __device__ int32_t operator[](int i) const { return v[i]; }
};

// The new field values replace_2d writes into a copy of the map.
struct probe_edit {
  uint64_t address, stride1;
  uint32_t dim0, dim1, box1, estride1;
};

// A deterministic byte pattern: element i of a stream named by seed.
__host__ __device__ inline uint32_t probe_hash(uint32_t i, uint32_t seed) {
  uint32_t x = i * 0x9e3779b9u ^ seed * 0x85ebca6bu;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

#define PROBE_KERNELS(V)                                                                         \
  namespace V {                                                                                  \
  __global__ void load_1d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t, uint8_t*, \
                          uint32_t*);                                                            \
  __global__ void load_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t, uint8_t*, \
                          uint32_t*);                                                            \
  __global__ void load_3d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t, uint8_t*, \
                          uint32_t*);                                                            \
  __global__ void load_4d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t, uint8_t*, \
                          uint32_t*);                                                            \
  __global__ void load_5d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t, uint8_t*, \
                          uint32_t*);                                                            \
  __global__ void load_cta_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t,       \
                              uint8_t*, uint32_t*);                                              \
  __global__ void store_1d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);         \
  __global__ void store_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);         \
  __global__ void store_3d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);         \
  __global__ void store_4d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);         \
  __global__ void store_5d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);         \
  __global__ void reduce_add_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_add_3d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_min_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_min_3d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_max_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_max_3d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_inc_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_inc_3d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_dec_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_dec_3d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_and_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_and_3d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_or_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);     \
  __global__ void reduce_or_3d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);     \
  __global__ void reduce_xor_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void reduce_xor_3d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t);    \
  __global__ void replace_2d(const __grid_constant__ CUtensorMap, probe_coords, uint32_t,        \
                             uint8_t*, uint32_t*, CUtensorMap*, probe_edit);                     \
  }
