// ptx2hip_tensor_map.h: the host side of ptx2hip's TMA emulation.
//
// ptx2hip_cuTensorMapEncodeTiled has the signature of the CUDA driver's cuTensorMapEncodeTiled and
// validates its arguments as the driver documents them (CUDA_ERROR_INVALID_VALUE for what the
// driver refuses), but writes ptx2hip's own layout into the 128-byte map: the one the device
// helpers of the translated cp.async.bulk.tensor decode (rules/helpers/tensor_copy.h describes
// it; a map they did not write traps). `ptx2hip translate` rewrites the calls of
// cuTensorMapEncodeTiled in translated files to this function and includes this header.
//
// Compiles without the CUDA driver headers (a HIP build): where <cuda.h> is absent it defines the
// types under ptx2hip_ names, with the driver's values. Interleaved layouts (16B, 32B) are not
// emulated: they answer CUDA_ERROR_NOT_SUPPORTED.
#ifndef PTX2HIP_TENSOR_MAP_H
#define PTX2HIP_TENSOR_MAP_H

#include <stdint.h>
#include <string.h>

#if !defined(CUDA_VERSION) && !defined(__HIP_PLATFORM_AMD__) && defined(__has_include)
#if __has_include(<cuda.h>)
#include <cuda.h>
#endif
#endif

#if defined(CUDA_VERSION)
typedef CUresult ptx2hip_CUresult;
typedef CUtensorMap ptx2hip_CUtensorMap;
typedef CUtensorMapDataType ptx2hip_CUtensorMapDataType;
typedef CUtensorMapInterleave ptx2hip_CUtensorMapInterleave;
typedef CUtensorMapSwizzle ptx2hip_CUtensorMapSwizzle;
typedef CUtensorMapL2promotion ptx2hip_CUtensorMapL2promotion;
typedef CUtensorMapFloatOOBfill ptx2hip_CUtensorMapFloatOOBfill;
typedef cuuint32_t ptx2hip_cuuint32_t;
typedef cuuint64_t ptx2hip_cuuint64_t;
#else
typedef int ptx2hip_CUresult;
typedef struct alignas(64) {
  uint64_t opaque[16];
} ptx2hip_CUtensorMap;
typedef int ptx2hip_CUtensorMapDataType;
typedef int ptx2hip_CUtensorMapInterleave;
typedef int ptx2hip_CUtensorMapSwizzle;
typedef int ptx2hip_CUtensorMapL2promotion;
typedef int ptx2hip_CUtensorMapFloatOOBfill;
typedef uint32_t ptx2hip_cuuint32_t;
typedef uint64_t ptx2hip_cuuint64_t;
#endif

// The driver's result codes this encoder returns.
enum : int {
  ptx2hip_CUDA_SUCCESS = 0,
  ptx2hip_CUDA_ERROR_INVALID_VALUE = 1,
  ptx2hip_CUDA_ERROR_NOT_SUPPORTED = 801,
};

// The element type as tensormap.replace numbers it (our layout's byte 4) for a
// CUtensorMapDataType (0 UINT8 ... 12 TFLOAT32_FTZ), or -1 for another value.
static inline int ptx2hip_tmap_ptx_type(int cu) {
  static const signed char ptx[13] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 11, 12};
  return cu >= 0 && cu < 13 ? ptx[cu] : -1;
}

// Element sizes of the CUtensorMapDataType values 0 ... 12.
static inline uint32_t ptx2hip_tmap_cu_esize(int cu) {
  static const unsigned char size[13] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return size[cu];
}

static inline ptx2hip_CUresult ptx2hip_cuTensorMapEncodeTiled(
    ptx2hip_CUtensorMap* tensorMap, ptx2hip_CUtensorMapDataType tensorDataType,
    ptx2hip_cuuint32_t tensorRank, void* globalAddress, const ptx2hip_cuuint64_t* globalDim,
    const ptx2hip_cuuint64_t* globalStrides, const ptx2hip_cuuint32_t* boxDim,
    const ptx2hip_cuuint32_t* elementStrides, ptx2hip_CUtensorMapInterleave interleave,
    ptx2hip_CUtensorMapSwizzle swizzle, ptx2hip_CUtensorMapL2promotion l2Promotion,
    ptx2hip_CUtensorMapFloatOOBfill oobFill) {
  const ptx2hip_CUresult invalid = (ptx2hip_CUresult)ptx2hip_CUDA_ERROR_INVALID_VALUE;
  const int type = (int)tensorDataType, il = (int)interleave, sw = (int)swizzle;
  const int l2 = (int)l2Promotion, fill = (int)oobFill;
  if (tensorMap == 0 || ((uintptr_t)tensorMap & 63u) != 0) return invalid;
  if (ptx2hip_tmap_ptx_type(type) < 0) return invalid;
  if (tensorRank == 0 || tensorRank > 5) return invalid;
  if (il < 0 || il > 2 || sw < 0 || sw > 3 || l2 < 0 || l2 > 3 || fill < 0 || fill > 1)
    return invalid;
  if (il != 0 && tensorRank < 3) return invalid;
  if (globalAddress == 0 || ((uintptr_t)globalAddress & (il == 2 ? 31u : 15u)) != 0) return invalid;
  if (globalDim == 0 || boxDim == 0 || elementStrides == 0) return invalid;
  if (tensorRank > 1 && globalStrides == 0) return invalid;
  const uint32_t esize = ptx2hip_tmap_cu_esize(type);
  for (uint32_t i = 0; i < tensorRank; ++i) {
    if (globalDim[i] == 0 || globalDim[i] > (1ull << 32)) return invalid;
    if (boxDim[i] == 0 || boxDim[i] > 256) return invalid;
    if (elementStrides[i] == 0 || elementStrides[i] > 8) return invalid;
    if (i + 1 < tensorRank) {
      const uint64_t s = globalStrides[i];
      if (s % (il == 2 ? 32u : 16u) != 0 || s >= (1ull << 40)) return invalid;
    }
  }
  const bool is_float = type >= 6;
  if (fill == 1 && !is_float) return invalid;
  if (il == 0) {
    const uint64_t inner = (uint64_t)boxDim[0] * esize;
    if (inner % 16 != 0) return invalid;
    if (sw != 0 && inner > (16u << sw)) return invalid;
  }
  if (il != 0) return (ptx2hip_CUresult)ptx2hip_CUDA_ERROR_NOT_SUPPORTED;

  // Our layout (rules/helpers/tensor_copy.h).
  unsigned char m[128];
  memset(m, 0, sizeof m);
  const uint32_t magic = 0x50325448u;
  memcpy(m, &magic, 4);
  m[4] = (unsigned char)ptx2hip_tmap_ptx_type(type);
  m[5] = (unsigned char)(tensorRank - 1);
  m[6] = 0;
  m[7] = (unsigned char)sw;
  m[8] = (unsigned char)fill;
  m[9] = (unsigned char)l2;
  const uint64_t address = (uint64_t)(uintptr_t)globalAddress;
  memcpy(m + 16, &address, 8);
  for (uint32_t i = 0; i < tensorRank; ++i) {
    const uint64_t d = globalDim[i];
    memcpy(m + 24 + 8 * i, &d, 8);
    if (i + 1 < tensorRank) {
      const uint64_t s = globalStrides[i];
      memcpy(m + 64 + 8 * i, &s, 8);
    }
    const uint16_t b = (uint16_t)boxDim[i];
    memcpy(m + 96 + 2 * i, &b, 2);
    m[106 + i] = (unsigned char)elementStrides[i];
  }
  memcpy((void*)tensorMap, m, sizeof m);
  return (ptx2hip_CUresult)ptx2hip_CUDA_SUCCESS;
}

#endif  // PTX2HIP_TENSOR_MAP_H
