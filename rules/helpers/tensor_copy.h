// Helpers of rules/tensor_copy.toml: TMA tensor copies (cp.async.bulk.tensor and friends),
// performed synchronously by the issuing thread from a tensor map in ptx2hip's own layout.
//
// The tensor map is the 128-byte CUtensorMap that ptx2hip_cuTensorMapEncodeTiled (the host
// helper at the end of this file) fills; NVIDIA's layout is undocumented, so the
// encoder writes ours and every device helper decodes it (a map it did not write traps):
//   bytes   0..3    magic 0x50325448 ("HT2P" little-endian)
//   byte    4       element type, numbered as tensormap.replace's .elemtype (0 u8, 1 u16, 2 u32,
//                   3 s32, 4 u64, 5 s64, 6 f16, 7 f32, 8 f32.ftz, 9 f64, 10 bf16, 11 tf32,
//                   12 tf32.ftz)
//   byte    5       rank - 1 (tensormap.replace's .rank)
//   byte    6       interleave (0: none; the encoder writes no other)
//   byte    7       swizzle (0 none, 1 32B, 2 64B, 3 128B)
//   byte    8       out-of-bounds fill (0 zeros, 1 NaN)
//   byte    9       L2 promotion (a hint, unused)
//   bytes  16..23   global address
//   bytes  24..63   global dimensions 0..4, 64-bit each
//   bytes  64..95   global strides of dimensions 1..4 in bytes, 64-bit each
//   bytes  96..105  box dimensions 0..4, 16-bit each
//   bytes 106..110  element strides 0..4, one byte each
//
// The box in shared memory, as two H200 runs of the native TMA against this emulation fixed it
// (tools/probes/tma_copy; 1728 loads, 308 stores, 120 reductions and 4 in-kernel map edits
// replayed by tests/models_tensor_copy.rs):
// box_0 consecutive elements along dimension 0 (its element stride is ignored), and along each
// dimension i > 0 n_i = ceil(box_i / estride_i) elements at coordinates c_i + k * estride_i,
// dimension 0 innermost; a row is box_0 * size bytes (a multiple of 16) and rows follow each other
// at that pitch, or at the swizzle span (32, 64, 128 bytes) when the map swizzles. A swizzled box
// XORs the 16-byte chunk bits 4 ... 3 + S of each shared-memory address with its bits 7 ... 6 + S
// (S = 1, 2, 3 for 32B, 64B, 128B), the pattern of wgmma's descriptors (warpgroup.h,
// ptx2hip_wgmma_addr), 16-byte chunks moving whole. A load's transaction bytes are the rows'
// bytes without the padding to the span.
// - Loads: elements outside the tensor (a coordinate below 0 or at least the dimension) read as
//   zeros, or with the NaN fill as the bytes 0xf7 0x7f repeated (f16/bf16 0x7ff7, f32 0x7ff77ff7,
//   f64 0x7ff77ff77ff77ff7: the hardware's pattern). The tf32 types round each f32 inside the
//   tensor to tf32 (nearest, ties away: + 0x1000, low 13 bits cleared; any NaN 0x7fffe000;
//   subnormals kept, also for tf32.ftz). A dimension-0 coordinate that is not a whole number of
//   16 bytes stops the H200 with an illegal instruction: the translation traps there too.
// - Stores and reductions: a coordinate below 0, or a misaligned dimension-0 coordinate, stops
//   the H200 with an illegal instruction (the translation traps); along dimension 0 the tensor is
//   written in 16-byte chunks, a chunk whose first element lies inside the tensor whole (the
//   elements past the dimension's end in it too), as the H200 does; rows outside the tensor are
//   not written.

// ---- The tensor map ----------------------------------------------------------------------------

// ptx2hip:helper ptx2hip_tmap requires=ptx2hip_trap
// A tensor map decoded from our layout (above), ready for the copies: the element size and
// pitch, the elements the box takes along each dimension, the strides in bytes.
struct ptx2hip_tmap {
  uintptr_t base;
  uint64_t dim[5], stride[5];
  uint32_t count[5], step[5];
  uint32_t rank, type, esize, swizzle, pitch;
  bool nan_fill;
};
// The coordinates of a box, as the instruction's vector gives them (.1d ... .5d: the rest zero).
struct ptx2hip_tma_coords {
  int32_t c[5];
};
// The size in bytes of an element of tensormap.replace's .elemtype numbering.
__device__ inline uint32_t ptx2hip_tmap_esize(uint32_t type) {
  const uint32_t log2[13] = {0, 1, 2, 2, 3, 3, 1, 2, 2, 3, 1, 2, 2};
  return type < 13 ? 1u << log2[type] : 0u;
}
// Decodes the map at `map` (any generic address: a kernel parameter, global or shared memory);
// traps on a map that ptx2hip_cuTensorMapEncodeTiled did not write.
__device__ inline ptx2hip_tmap ptx2hip_tmap_decode(const void* map) {
  const unsigned char* m = (const unsigned char*)map;
  ptx2hip_tmap t;
  t.type = m[4];
  t.rank = m[5] + 1u;
  t.esize = ptx2hip_tmap_esize(t.type);
  if (*(const uint32_t*)m != 0x50325448u || t.rank > 5 || t.esize == 0 || m[6] != 0 || m[7] > 3)
    ptx2hip_trap();
  t.swizzle = m[7];
  t.nan_fill = m[8] != 0;
  t.base = (uintptr_t)*(const uint64_t*)(m + 16);
  t.stride[0] = t.esize;
  for (uint32_t i = 0; i < 5; ++i) {
    const bool used = i < t.rank;
    t.dim[i] = used ? ((const uint64_t*)(m + 24))[i] : 1u;
    if (i > 0) t.stride[i] = used ? ((const uint64_t*)(m + 64))[i - 1] : 0u;
    const uint32_t box = used ? ((const uint16_t*)(m + 96))[i] : 1u;
    // The hardware ignores the element stride of dimension 0.
    t.step[i] = used && i > 0 ? m[106 + i] : 1u;
    if (t.step[i] == 0) ptx2hip_trap();
    t.count[i] = (box + t.step[i] - 1) / t.step[i];
  }
  t.pitch = t.swizzle ? 16u << t.swizzle : t.count[0] * t.esize;
  return t;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tmap_nan requires=ptx2hip_tmap
// The bytes of an out-of-bounds element under the NaN fill, as the H200 writes them whatever the
// floating-point type (the encoder lets no integer type have a NaN fill): 0x7ff7 in every 16-bit
// half, a NaN in f16, bf16, f32, tf32 and f64 alike (the low bytes of the value for smaller types).
__device__ inline uint64_t ptx2hip_tmap_nan() { return 0x7ff77ff77ff77ff7ull; }
// ptx2hip:end

// ptx2hip:helper ptx2hip_tmap_tf32
// An f32 as a load of a tf32 map leaves it (the H200's rounding): to nearest with ties away from
// zero on 19 bits, any NaN 0x7fffe000, subnormals and infinities kept.
__device__ inline uint32_t ptx2hip_tmap_tf32(uint32_t x) {
  if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu) != 0) return 0x7fffe000u;
  return (x + 0x1000u) & ~0x1fffu;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tmap_box_bytes requires=ptx2hip_tmap
// The bytes of a box's rows, out-of-bounds elements included and the padding of swizzled rows to
// the span not: what a load's complete_tx counts.
__device__ inline uint32_t ptx2hip_tmap_box_bytes(const ptx2hip_tmap& t) {
  return t.count[0] * t.esize * t.count[1] * t.count[2] * t.count[3] * t.count[4];
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tmap_smem requires=ptx2hip_tmap
// The shared-memory window address of element k0 of row `row` of a box that starts at window
// address `start`, with the map's swizzle applied to the address.
__device__ inline uint32_t ptx2hip_tmap_smem(const ptx2hip_tmap& t, uint32_t start, uint32_t row,
                                             uint32_t k0) {
  const uint32_t a = start + row * t.pitch + k0 * t.esize;
  return a ^ (((a >> 7) & ((1u << t.swizzle) - 1u)) << 4);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tmap_global requires=ptx2hip_tmap
// The global address of element (k0, row) of a box at coordinates c (row: k1 + n1 * (k2 + n2 *
// (k3 + n3 * k4))), or 0 when it lies outside the tensor.
__device__ inline uintptr_t ptx2hip_tmap_global(const ptx2hip_tmap& t, const int32_t* c,
                                                uint32_t row, uint32_t k0) {
  uintptr_t a = t.base;
  for (uint32_t i = 0; i < 5; ++i) {
    uint32_t k = k0;
    if (i > 0) {
      k = row % t.count[i];
      row /= t.count[i];
    }
    const int64_t x = (int64_t)(i < t.rank ? c[i] : 0) + (int64_t)k * t.step[i];
    if (x < 0 || (uint64_t)x >= t.dim[i]) return 0;
    a += (uintptr_t)((uint64_t)x * t.stride[i]);
  }
  return a;
}
// ptx2hip:end

// ---- Copies ------------------------------------------------------------------------------------

// ptx2hip:helper ptx2hip_tma_load requires=ptx2hip_tmap,ptx2hip_tmap_nan,ptx2hip_tmap_tf32,ptx2hip_tmap_box_bytes,ptx2hip_tmap_smem,ptx2hip_tmap_global,ptx2hip_shared_addr,ptx2hip_shared_ptr,ptx2hip_mbar_update
// cp.async.bulk.tensor global -> shared: the box of `map` at coordinates c into shared memory at
// `dst` in the issuing thread — a row wholly inside the tensor as 16-byte chunks (a row is whole
// 16-byte chunks, 16-byte aligned at both ends, and the swizzle moves chunks whole), any other
// element by element — then complete_tx of the box's bytes on the mbarrier at `mbar` (whose
// update releases the stores to the phase's waiters).
__device__ inline void ptx2hip_tma_load(void* dst, const void* map, ptx2hip_tma_coords c,
                                        void* mbar) {
  const ptx2hip_tmap t = ptx2hip_tmap_decode(map);
  const int32_t* at = c.c;
  if ((((int64_t)at[0] * t.esize) & 15) != 0) ptx2hip_trap();
  const uint64_t fill = t.nan_fill ? ptx2hip_tmap_nan() : 0u;
  const uint32_t start = ptx2hip_shared_addr(dst);
  const uint32_t rows = t.count[1] * t.count[2] * t.count[3] * t.count[4];
  const bool tf32 = t.type == 11 || t.type == 12;
  const uint32_t per_chunk = 16 / t.esize;
  for (uint32_t row = 0; row < rows; ++row) {
    const uintptr_t first = ptx2hip_tmap_global(t, at, row, 0);
    if (!tf32 && first && ptx2hip_tmap_global(t, at, row, t.count[0] - 1) && (first & 15) == 0) {
      for (uint32_t k0 = 0; k0 < t.count[0]; k0 += per_chunk)
        *(uint4*)ptx2hip_shared_ptr(ptx2hip_tmap_smem(t, start, row, k0)) =
            *(const uint4*)(first + k0 * t.esize);
      continue;
    }
    for (uint32_t k0 = 0; k0 < t.count[0]; ++k0) {
      const uintptr_t g = ptx2hip_tmap_global(t, at, row, k0);
      void* s = ptx2hip_shared_ptr(ptx2hip_tmap_smem(t, start, row, k0));
      switch (t.esize) {
        case 1: *(uint8_t*)s = g ? *(const uint8_t*)g : (uint8_t)fill; break;
        case 2: *(uint16_t*)s = g ? *(const uint16_t*)g : (uint16_t)fill; break;
        case 4: {
          uint32_t v = g ? *(const uint32_t*)g : (uint32_t)fill;
          *(uint32_t*)s = g && tf32 ? ptx2hip_tmap_tf32(v) : v;
          break;
        }
        default: *(uint64_t*)s = g ? *(const uint64_t*)g : fill; break;
      }
    }
  }
  (void)ptx2hip_mbar_update(mbar, 0u, 0u, -(int32_t)ptx2hip_tmap_box_bytes(t));
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tma_store requires=ptx2hip_tmap,ptx2hip_tmap_smem,ptx2hip_tmap_global,ptx2hip_shared_addr,ptx2hip_shared_ptr
// cp.async.bulk.tensor shared -> global: the box at `src` in shared memory (laid out as a load
// leaves it) into the tensor at coordinates c, as the H200 writes it (above: a negative
// coordinate traps; a 16-byte chunk whose first element is inside is written whole) — a row
// wholly inside the tensor and 16-byte aligned there as 16-byte chunks, any other element by
// element.
__device__ inline void ptx2hip_tma_store(const void* map, ptx2hip_tma_coords c, const void* src) {
  const ptx2hip_tmap t = ptx2hip_tmap_decode(map);
  const int32_t* at = c.c;
  if ((((int64_t)at[0] * t.esize) & 15) != 0) ptx2hip_trap();
  for (uint32_t i = 0; i < t.rank; ++i)
    if (at[i] < 0) ptx2hip_trap();
  const uint32_t start = ptx2hip_shared_addr(src);
  const uint32_t rows = t.count[1] * t.count[2] * t.count[3] * t.count[4];
  const uint32_t per_chunk = 16 / t.esize;
  for (uint32_t row = 0; row < rows; ++row) {
    const uintptr_t first = ptx2hip_tmap_global(t, at, row, 0);
    if (first && ptx2hip_tmap_global(t, at, row, t.count[0] - 1) && (first & 15) == 0) {
      for (uint32_t k0 = 0; k0 < t.count[0]; k0 += per_chunk)
        *(uint4*)(first + k0 * t.esize) =
            *(const uint4*)ptx2hip_shared_ptr(ptx2hip_tmap_smem(t, start, row, k0));
      continue;
    }
    for (uint32_t k0 = 0; k0 < t.count[0]; ++k0) {
      const uint32_t chunk = k0 - k0 % per_chunk;
      const uintptr_t base = ptx2hip_tmap_global(t, at, row, chunk);
      if (!base) continue;
      const uintptr_t g = base + (k0 - chunk) * t.esize;
      const void* s = ptx2hip_shared_ptr(ptx2hip_tmap_smem(t, start, row, k0));
      switch (t.esize) {
        case 1: *(uint8_t*)g = *(const uint8_t*)s; break;
        case 2: *(uint16_t*)g = *(const uint16_t*)s; break;
        case 4: *(uint32_t*)g = *(const uint32_t*)s; break;
        default: *(uint64_t*)g = *(const uint64_t*)s; break;
      }
    }
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tma_half_minmax requires=ptx2hip_h_minmax,ptx2hip_cas_api
// min (MAX false) or max of the f16 or bf16 (BF) element at p with b, as min.f16 and max.f16
// compute it: a compare-and-swap loop on the aligned 32-bit word that holds the element.
template <bool MAX, bool BF>
__device__ inline void ptx2hip_tma_half_minmax(uint16_t* p, uint16_t b) {
  const uintptr_t a = (uintptr_t)p;
  uint32_t* w = (uint32_t*)(a & ~(uintptr_t)3);
  const unsigned sh = (unsigned)(a & 2) * 8;
  uint32_t old = *(volatile uint32_t*)w;
  while (true) {
    const uint16_t r = ptx2hip_h_minmax((uint16_t)(old >> sh), b, BF, false, MAX, false, false);
    const uint32_t next = (old & ~(0xffffu << sh)) | ((uint32_t)r << sh);
    const uint32_t seen = ptx2hip_cas_api(w, old, next, false);
    if (seen == old) break;
    old = seen;
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tma_op requires=ptx2hip_atom_op
// The operations of cp.reduce.async.bulk.tensor as template arguments: ptx2hip_atom_op's add, min,
// max, bit_and, bit_or, bit_xor, and atom's inc and dec, which ptx2hip_atom_op keeps apart.
namespace ptx2hip_tma_op {
inline constexpr int add = ptx2hip_atom_op::add, min = ptx2hip_atom_op::min,
                     max = ptx2hip_atom_op::max, bit_and = ptx2hip_atom_op::bit_and,
                     bit_or = ptx2hip_atom_op::bit_or, bit_xor = ptx2hip_atom_op::bit_xor, inc = 16,
                     dec = 17;
}  // namespace ptx2hip_tma_op
// ptx2hip:end

// ptx2hip:helper ptx2hip_tma_reduce_one requires=ptx2hip_tma_op,ptx2hip_tmap,ptx2hip_atom_op,ptx2hip_rmw_api,ptx2hip_atom_incdec,ptx2hip_atom_add_f32,ptx2hip_atom_add_half,ptx2hip_tma_half_minmax,ptx2hip_order,ptx2hip_scope,ptx2hip_space
// One element of cp.reduce.async.bulk.tensor: the relaxed, device-scope atomic of operation OP
// (ptx2hip_tma_op) on the element at g,
// of the map's element type, with the value at s. The ISA's combinations: add on u32, s32, u64,
// f32, f16, bf16; min and max on u32, s32, u64, s64, f16, bf16; inc and dec on u32; and, or, xor
// on 32- and 64-bit integers. Any other traps (PTX leaves it undefined).
template <int OP>
__device__ inline void ptx2hip_tma_reduce_one(uint32_t type, uintptr_t g, const void* s) {
  constexpr int relaxed = ptx2hip_order::relaxed, gpu = ptx2hip_scope::gpu;
  constexpr bool add = OP == ptx2hip_atom_op::add;
  constexpr bool minmax = OP == ptx2hip_atom_op::min || OP == ptx2hip_atom_op::max;
  constexpr int op = OP < 16 ? OP : 0;
  if (OP == ptx2hip_tma_op::inc || OP == ptx2hip_tma_op::dec) {
    if (type != 2) ptx2hip_trap();
    (void)ptx2hip_atom_incdec<OP == ptx2hip_tma_op::dec, relaxed, gpu>((uint32_t*)g,
                                                                       *(const uint32_t*)s);
    return;
  }
  switch (type) {
    case 2:  // u32
      (void)ptx2hip_rmw_api<op, false>((uint32_t*)g, *(const uint32_t*)s);
      return;
    case 3:  // s32
      (void)ptx2hip_rmw_api<op, false>((int32_t*)g, *(const int32_t*)s);
      return;
    case 4:  // u64
      (void)ptx2hip_rmw_api<op, false>((uint64_t*)g, *(const uint64_t*)s);
      return;
    case 5:  // s64: min and max (add and the bit operations stop the H200: illegal instruction)
      if (!minmax) break;
      (void)ptx2hip_rmw_api<op, false>((int64_t*)g, *(const int64_t*)s);
      return;
    case 7:  // f32: add, subnormals kept
      if (!add) break;
      (void)ptx2hip_atom_add_f32<relaxed, gpu, ptx2hip_space::shared>((float*)g, *(const float*)s);
      return;
    case 8:  // f32.ftz: add, subnormals flushed
      if (!add) break;
      (void)ptx2hip_atom_add_f32<relaxed, gpu, ptx2hip_space::global>((float*)g, *(const float*)s);
      return;
    case 6:  // f16
    case 10:  // bf16
      if (add && type == 6)
        (void)ptx2hip_atom_add_half<relaxed, gpu, false>((uint16_t*)g, *(const uint16_t*)s);
      else if (add)
        (void)ptx2hip_atom_add_half<relaxed, gpu, true>((uint16_t*)g, *(const uint16_t*)s);
      else if (minmax && type == 6)
        ptx2hip_tma_half_minmax<OP == ptx2hip_atom_op::max, false>((uint16_t*)g,
                                                                   *(const uint16_t*)s);
      else if (minmax)
        ptx2hip_tma_half_minmax<OP == ptx2hip_atom_op::max, true>((uint16_t*)g,
                                                                  *(const uint16_t*)s);
      else break;
      return;
    default: break;
  }
  ptx2hip_trap();
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tma_reduce requires=ptx2hip_tma_reduce_one,ptx2hip_tmap_smem,ptx2hip_tmap_global,ptx2hip_shared_addr,ptx2hip_shared_ptr
// cp.reduce.async.bulk.tensor: each element of the box at `src` in shared memory reduced into
// the tensor at coordinates c by one atomic (ptx2hip_tma_reduce_one), covering the tensor as a
// store does (ptx2hip_tma_store: a negative or misaligned coordinate traps; a 16-byte chunk whose
// first element is inside is reduced whole).
template <int OP>
__device__ inline void ptx2hip_tma_reduce(const void* map, ptx2hip_tma_coords c, const void* src) {
  const ptx2hip_tmap t = ptx2hip_tmap_decode(map);
  const int32_t* at = c.c;
  if ((((int64_t)at[0] * t.esize) & 15) != 0) ptx2hip_trap();
  for (uint32_t i = 0; i < t.rank; ++i)
    if (at[i] < 0) ptx2hip_trap();
  const uint32_t start = ptx2hip_shared_addr(src);
  const uint32_t rows = t.count[1] * t.count[2] * t.count[3] * t.count[4];
  const uint32_t per_chunk = 16 / t.esize;
  for (uint32_t row = 0; row < rows; ++row) {
    for (uint32_t k0 = 0; k0 < t.count[0]; ++k0) {
      const uint32_t chunk = k0 - k0 % per_chunk;
      const uintptr_t base = ptx2hip_tmap_global(t, at, row, chunk);
      if (base)
        ptx2hip_tma_reduce_one<OP>(t.type, base + (k0 - chunk) * t.esize,
                                   ptx2hip_shared_ptr(ptx2hip_tmap_smem(t, start, row, k0)));
    }
  }
}
// ptx2hip:end

// ---- Editing a tensor map ----------------------------------------------------------------------

// ptx2hip:helper ptx2hip_tmap_replace
// tensormap.replace: writes field FIELD of our layout in the map at `map` (FIELD: the byte
// offset of the field's first entry, SIZE its entry size in bytes; ord: the entry, 0 for a
// single-entry field). The .rank field takes rank - 1, as PTX's new_val does.
template <int FIELD, int SIZE>
__device__ inline void ptx2hip_tmap_replace(void* map, uint32_t ord, uint64_t v) {
  unsigned char* f = (unsigned char*)map + FIELD + ord * SIZE;
  if (SIZE == 1) *f = (unsigned char)v;
  if (SIZE == 2) *(uint16_t*)f = (uint16_t)v;
  if (SIZE == 8) *(uint64_t*)f = v;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_tmap_copy requires=ptx2hip_scope_fence,ptx2hip_scope
// tensormap.cp_fenceproxy: the 128-byte map from shared memory at `src` to global memory at `dst`
// (eight 16-byte stores), then a release fence at scope SCOPE (ptx2hip_scope_fence), which orders
// the copy before the copies that later read the map through it.
template <int SCOPE>
__device__ inline void ptx2hip_tmap_copy(void* dst, const void* src) {
  for (int i = 0; i < 8; ++i) ((uint4*)dst)[i] = ((const uint4*)src)[i];
  ptx2hip_scope_fence<SCOPE>();
}
// ptx2hip:end

// ---- The host side: tensor maps in our layout --------------------------------------------------

// ptx2hip:helper ptx2hip_cuTensorMapEncodeTiled
// Host code (the one helper that is not device code): the CUDA driver's cuTensorMapEncodeTiled
// with the same signature, validating its arguments as the driver does (CUDA_ERROR_INVALID_VALUE
// where it refuses them: 42 argument sets answered alike on an H200) but writing our layout
// (above) into the 128-byte map, which the translated copies decode. `translate` renames the
// calls of the driver's function to it (with --emit guarded for AMD only: the NVIDIA build keeps
// the asm and the driver's maps) and adds it to the file's helpers, after the file's includes:
// where they include <cuda.h> (CUDA_VERSION) the types are the driver's, elsewhere (a HIP build)
// it defines those it needs under ptx2hip_ names, with the driver's values. Interleaved layouts
// (16B, 32B) are not emulated: they answer CUDA_ERROR_NOT_SUPPORTED.
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
inline int ptx2hip_tmap_ptx_type(int cu) {
  static const signed char ptx[13] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 11, 12};
  return cu >= 0 && cu < 13 ? ptx[cu] : -1;
}

// Element sizes of the CUtensorMapDataType values 0 ... 12.
inline uint32_t ptx2hip_tmap_cu_esize(int cu) {
  static const unsigned char size[13] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return size[cu];
}

inline ptx2hip_CUresult ptx2hip_cuTensorMapEncodeTiled(
    ptx2hip_CUtensorMap* tensorMap, ptx2hip_CUtensorMapDataType tensorDataType,
    ptx2hip_cuuint32_t tensorRank, void* globalAddress, const ptx2hip_cuuint64_t* globalDim,
    const ptx2hip_cuuint64_t* globalStrides, const ptx2hip_cuuint32_t* boxDim,
    const ptx2hip_cuuint32_t* elementStrides, ptx2hip_CUtensorMapInterleave interleave,
    ptx2hip_CUtensorMapSwizzle swizzle, ptx2hip_CUtensorMapL2promotion l2Promotion,
    ptx2hip_CUtensorMapFloatOOBfill oobFill) {
  const ptx2hip_CUresult invalid = (ptx2hip_CUresult)ptx2hip_CUDA_ERROR_INVALID_VALUE;
  const int type = (int)tensorDataType, il = (int)interleave, sw = (int)swizzle;
  const int l2 = (int)l2Promotion, fill = (int)oobFill;
  // The driver takes a map 32-byte aligned and a null global address (an H200 run): so do we.
  if (tensorMap == 0) return invalid;
  if (ptx2hip_tmap_ptx_type(type) < 0) return invalid;
  if (tensorRank == 0 || tensorRank > 5) return invalid;
  if (il < 0 || il > 2 || sw < 0 || sw > 3 || l2 < 0 || l2 > 3 || fill < 0 || fill > 1)
    return invalid;
  if (il != 0 && tensorRank < 3) return invalid;
  if (((uintptr_t)globalAddress & (il == 2 ? 31u : 15u)) != 0) return invalid;
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
// ptx2hip:end
