// The TMA probe: the H100's cp.async.bulk.tensor (tensor maps from the driver's
// cuTensorMapEncodeTiled) against ptx2hip's translation of the same kernels (tensor maps from
// ptx2hip_cuTensorMapEncodeTiled), case by case: every byte of the shared-memory region a load
// writes (and of what it leaves alone), the mbarrier's completion, the tensor after a store or a
// reduction, and the encoders' answers to valid and invalid arguments.
//
//   tma_probe OUT_DIR [FIRST_CASE]
//
// appends one line per case to OUT_DIR/results.txt and the native bytes to OUT_DIR/native_*.bin
// (for replays); a case that faults ends the process with status 3 after printing its number, and
// run.sh resumes after it.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "ptx2hip_tensor_map.h"
#include "tma_probe.h"

PROBE_KERNELS(native)
PROBE_KERNELS(emulated)

enum Kind { VALIDATE, LOAD, LOAD_CTA, STORE, REDUCE, REPLACE };
static const char* kind_name[] = {"validate", "load", "load_cta", "store", "reduce", "replace"};
static const char* op_name[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
static const uint32_t esize_of[16] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4, 1, 1, 1};

struct Case {
  Kind kind;
  int type, rank, swizzle, fill, interleave = 0, l2 = 0, op = 0;
  uint64_t dims[5] = {1, 1, 1, 1, 1}, strides[5] = {0, 0, 0, 0, 0};
  uint32_t box[5] = {1, 1, 1, 1, 1}, es[5] = {1, 1, 1, 1, 1};
  int32_t coords[5] = {0, 0, 0, 0, 0};
  uint32_t seed;
  // Validation only: offsets that misalign the map or the address, a null address.
  uint32_t map_offset = 0, address_offset = 0;
  bool null_address = false;
  const char* what = "";
};

struct Rng {
  uint64_t s;
  uint32_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(s >> 33);
  }
  int range(int lo, int hi) { return lo + (int)(next() % (uint32_t)(hi - lo + 1)); }
};

// The box in shared memory (rules/helpers/tensor_copy.h, as the first H200 run fixed it): box_0
// elements along dimension 0 (its element stride ignored), ceil(box / es) along the others, rows
// back to back.
static uint32_t model_count(const Case& c, int i) {
  return i == 0 ? c.box[0] : (c.box[i] + c.es[i] - 1) / c.es[i];
}
static uint32_t model_bytes(const Case& c) {
  uint32_t rows = 1;
  for (int i = 1; i < c.rank; ++i) rows *= model_count(c, i);
  return c.box[0] * esize_of[c.type] * rows;
}
// The shared memory the box spans: swizzled rows sit at the span's pitch (the second run).
static uint32_t footprint(const Case& c) {
  const uint32_t row = c.box[0] * esize_of[c.type];
  const uint32_t pitch = c.swizzle ? 16u << c.swizzle : row;
  return model_bytes(c) / row * pitch;
}

// A dimension-0 coordinate of whole 16 bytes (the hardware faults on others), rounded down.
static int32_t aligned(int32_t x, uint32_t e) {
  const int32_t unit = 16 / (int32_t)e;
  return (x >= 0 ? x / unit : -((-x + unit - 1) / unit)) * unit;
}

static uint64_t extent(const Case& c) {
  return c.rank == 1 ? c.dims[0] * esize_of[c.type] : c.strides[c.rank - 1] * c.dims[c.rank - 1];
}

// A random tiled case of `rank` dimensions, type, swizzle and fill; element strides > 1 when
// `strided`; the box lands partly outside the tensor on random sides (negative coordinates too).
static Case random_case(Rng& r, Kind kind, int rank, int type, int swizzle, int fill,
                        bool strided) {
  Case c;
  c.kind = kind;
  c.type = type;
  c.rank = rank;
  c.swizzle = swizzle;
  c.fill = fill;
  c.seed = r.next();
  const uint32_t e = esize_of[type];
  const uint32_t unit = 16 / e;  // elements of 16 bytes
  const uint32_t max_units = swizzle ? (16u << swizzle) / 16 : 8;
  for (int tries = 0;; ++tries) {
    c.box[0] = unit * r.range(1, max_units);
    for (int i = 1; i < rank; ++i) c.box[i] = r.range(1, i == 1 ? 12 : 4);
    for (int i = 0; i < rank; ++i) c.es[i] = strided ? r.range(1, i == 0 ? 4 : 8) : 1;
    if (strided && r.range(0, 3) == 0) c.es[0] = r.range(1, 8);
    if (footprint(c) <= 8192) break;
  }
  for (int i = 0; i < rank; ++i) {
    const uint32_t span = c.box[i];
    c.dims[i] = r.range(1, span + span / 2 + 3);
    c.coords[i] = r.range(-(int)span, (int)c.dims[i]);
    if (r.range(0, 3) == 0) c.coords[i] = 0;
  }
  c.coords[0] = aligned(c.coords[0], e);
  // A store with a negative coordinate stops the H200 (illegal instruction: the second run):
  // stores and reductions stay at or above zero (a few faulting ones come last).
  if (kind == STORE || kind == REDUCE)
    for (int i = 0; i < rank; ++i) c.coords[i] = c.coords[i] < 0 ? 0 : c.coords[i];
  c.strides[0] = e;
  for (int i = 1; i < rank; ++i) {
    const uint64_t below = i == 1 ? c.dims[0] * e : c.strides[i - 1] * c.dims[i - 1];
    c.strides[i] = ((below + 15) / 16) * 16 + 16 * (uint64_t)r.range(0, 2);
  }
  return c;
}

static std::vector<Case> build_cases() {
  std::vector<Case> v;
  Rng r{12345};
  // The encoders' answers: a valid base map and one change each.
  Case base;
  base.kind = VALIDATE;
  base.type = 6;
  base.rank = 2;
  base.swizzle = 3;
  base.fill = 0;
  base.seed = 1;
  base.dims[0] = 64;
  base.dims[1] = 32;
  base.strides[0] = 2;
  base.strides[1] = 144;
  base.box[0] = 64;
  base.box[1] = 8;
  auto add = [&](const char* what, auto change) {
    Case c = base;
    c.what = what;
    change(c);
    v.push_back(c);
  };
  add("valid", [](Case&) {});
  add("map+32", [](Case& c) { c.map_offset = 32; });
  add("type13", [](Case& c) { c.type = 13; });
  add("type16", [](Case& c) { c.type = 16; });
  add("rank0", [](Case& c) { c.rank = 0; });
  add("rank6", [](Case& c) { c.rank = 6; });
  add("address-null", [](Case& c) { c.null_address = true; });
  add("address+8", [](Case& c) { c.address_offset = 8; });
  add("address+16", [](Case& c) { c.address_offset = 16; });
  add("dim0=0", [](Case& c) { c.dims[0] = 0; });
  add("dim1=2^32", [](Case& c) { c.dims[1] = 1ull << 32; });
  add("dim1=2^32+1", [](Case& c) { c.dims[1] = (1ull << 32) + 1; });
  add("stride=136", [](Case& c) { c.strides[1] = 136; });
  add("stride=2^40", [](Case& c) { c.strides[1] = 1ull << 40; });
  add("stride=2^40-16", [](Case& c) { c.strides[1] = (1ull << 40) - 16; });
  add("stride=16<row", [](Case& c) { c.strides[1] = 16; });
  add("stride=0", [](Case& c) { c.strides[1] = 0; });
  add("box0=0", [](Case& c) { c.box[0] = 0; });
  add("box1=256", [](Case& c) { c.box[1] = 256; });
  add("box1=257", [](Case& c) { c.box[1] = 257; });
  add("box0*e=8", [](Case& c) { c.box[0] = 4; });
  add("box0*e=24", [](Case& c) {
    c.box[0] = 12;
    c.swizzle = 0;
  });
  add("es0=0", [](Case& c) { c.es[0] = 0; });
  add("es1=8", [](Case& c) { c.es[1] = 8; });
  add("es1=9", [](Case& c) { c.es[1] = 9; });
  add("sw32-inner128", [](Case& c) { c.swizzle = 1; });
  add("sw64-inner128", [](Case& c) { c.swizzle = 2; });
  add("sw128-inner256", [](Case& c) {
    c.box[0] = 128;
    c.dims[0] = 128;
    c.strides[1] = 256;
  });
  add("none-inner512", [](Case& c) {
    c.swizzle = 0;
    c.box[0] = 256;
    c.dims[0] = 256;
    c.strides[1] = 512;
  });
  add("swizzle4", [](Case& c) { c.swizzle = 4; });
  add("interleave1-rank2", [](Case& c) { c.interleave = 1; });
  add("interleave3", [](Case& c) { c.interleave = 3; });
  add("l2=3", [](Case& c) { c.l2 = 3; });
  add("l2=4", [](Case& c) { c.l2 = 4; });
  add("fill=2", [](Case& c) { c.fill = 2; });
  add("nan-fill-f16", [](Case& c) { c.fill = 1; });
  add("nan-fill-u16", [](Case& c) {
    c.fill = 1;
    c.type = 1;
  });
  add("nan-fill-s32", [](Case& c) {
    c.fill = 1;
    c.type = 3;
    c.box[0] = 32;
  });
  add("box1>dim1", [](Case& c) { c.box[1] = 64; });
  add("rank1", [](Case& c) { c.rank = 1; });
  add("rank5", [](Case& c) {
    c.rank = 5;
    for (int i = 2; i < 5; ++i) {
      c.dims[i] = 2;
      c.strides[i] = c.strides[i - 1] * c.dims[i - 1];
    }
  });
  add("stride-not-increasing", [](Case& c) {
    c.rank = 3;
    c.dims[2] = 4;
    c.strides[2] = 144;
  });
  // Loads: every rank, type, swizzle and fill, with and without element strides.
  for (int rank = 1; rank <= 5; ++rank)
    for (int type = 0; type < 13; ++type)
      for (int sw = 0; sw < 4; ++sw)
        for (int fill = 0; fill < (type >= 6 ? 2 : 1); ++fill)
          for (int strided = 0; strided < 2; ++strided)
            v.push_back(random_case(r, LOAD, rank, type, sw, fill, strided));
  // Tiles as GEMM kernels load them, inside and across the edges.
  for (int sw = 0; sw < 4; ++sw)
    for (int k = 0; k < 4; ++k) {
      Case c = random_case(r, LOAD, 2, 9, sw, k & 1, false);
      c.box[0] = sw ? (16u << sw) / 2 : 64;
      c.box[1] = 64;
      c.dims[0] = 200;
      c.dims[1] = 150;
      c.strides[1] = 400 + 16 * k;
      c.coords[0] = k == 0 ? 64 : k == 1 ? 176 : k == 2 ? -24 : 0;
      c.coords[1] = k == 0 ? 64 : k == 1 ? 120 : k == 2 ? -33 : 100;
      v.push_back(c);
    }
  for (int i = 0; i < 24; ++i)
    v.push_back(random_case(r, LOAD_CTA, 2, r.range(0, 12), r.range(0, 3), 0, i & 1));
  // Stores: every rank, element size and swizzle.
  const int store_types[] = {0, 1, 2, 4, 9, 7};
  for (int rank = 1; rank <= 5; ++rank)
    for (int type : store_types)
      for (int sw = 0; sw < 4; ++sw)
        for (int strided = 0; strided < 2; ++strided)
          v.push_back(random_case(r, STORE, rank, type, sw, 0, strided));
  // Reductions: each operation with each element type the ISA lists for it.
  const int types_of[8][7] = {
      {2, 3, 4, 7, 10, 6, 9},  // add: u32 s32 u64 f32 f32.ftz f16 bf16
      {2, 3, 4, 5, 6, 9, -1},  // min
      {2, 3, 4, 5, 6, 9, -1},  // max
      {2, -1},                 // inc
      {2, -1},                 // dec
      {2, 3, 4, 5, -1},        // and
      {2, 3, 4, 5, -1},        // or
      {2, 3, 4, 5, -1},        // xor
  };
  for (int op = 0; op < 8; ++op)
    for (int k = 0; k < 7 && types_of[op][k] >= 0; ++k)
      for (int rank = 2; rank <= 3; ++rank)
        for (int sw = 0; sw < 4; sw += 3) {
          Case c = random_case(r, REDUCE, rank, types_of[op][k], sw, 0, rank == 3);
          c.op = op;
          v.push_back(c);
        }
  // In-kernel edits of an f32 map (last but the faults).
  for (int k = 0; k < 4; ++k) {
    Case c = random_case(r, REPLACE, 2, 7, k & 1 ? 0 : 2, 0, false);
    c.dims[0] = 40;
    c.dims[1] = 30;
    c.strides[1] = 176;
    c.box[0] = 16;
    c.box[1] = 8;
    c.coords[0] = k == 0 ? 0 : k == 1 ? 28 : k == 2 ? -8 : 12;
    c.coords[1] = k == 0 ? 0 : k == 1 ? 16 : k == 2 ? -3 : 12;
    v.push_back(c);
  }
  // Last, as each may stop the context: dimension-0 coordinates of 8 bytes (a load, a store),
  // and a reduction at a negative coordinate.
  for (Kind kind : {LOAD, STORE}) {
    Case c = random_case(r, kind, 2, 7, 0, 0, false);
    c.coords[0] = 2;
    v.push_back(c);
  }
  {
    Case c = random_case(r, REDUCE, 2, 2, 0, 0, false);
    c.coords[1] = -1;
    v.push_back(c);
  }
  return v;
}

static FILE* results;
static FILE* native_bytes;

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      printf("FAULT case %d: %s (%s)\n", current, cudaGetErrorString(e_), #x); \
      fprintf(results, "case %d FAULT %s\n", current, cudaGetErrorString(e_)); \
      fflush(results);                                                         \
      exit(3);                                                                 \
    }                                                                          \
  } while (0)

static int current;

struct Maps {
  alignas(128) unsigned char real[256];
  alignas(128) unsigned char ours[256];
  int rc_real, rc_ours;
};

// Both encoders on the case's arguments (the real map for `native`, ours for `emulated`).
static void encode(const Case& c, void* address_real, void* address_ours, Maps& m) {
  CUtensorMap* real = (CUtensorMap*)(m.real + c.map_offset);
  ptx2hip_CUtensorMap* ours = (ptx2hip_CUtensorMap*)(m.ours + c.map_offset);
  memset(m.real, 0, sizeof m.real);
  memset(m.ours, 0, sizeof m.ours);
  void* a_real = c.null_address ? nullptr : (char*)address_real + c.address_offset;
  void* a_ours = c.null_address ? nullptr : (char*)address_ours + c.address_offset;
  m.rc_real = (int)cuTensorMapEncodeTiled(
      real, (CUtensorMapDataType)c.type, (cuuint32_t)c.rank, a_real, (const cuuint64_t*)c.dims,
      (const cuuint64_t*)(c.strides + 1), (const cuuint32_t*)c.box, (const cuuint32_t*)c.es,
      (CUtensorMapInterleave)c.interleave, (CUtensorMapSwizzle)c.swizzle,
      (CUtensorMapL2promotion)c.l2, (CUtensorMapFloatOOBfill)c.fill);
  m.rc_ours = (int)ptx2hip_cuTensorMapEncodeTiled(
      ours, (CUtensorMapDataType)c.type, (cuuint32_t)c.rank, a_ours, (const cuuint64_t*)c.dims,
      (const cuuint64_t*)(c.strides + 1), (const cuuint32_t*)c.box, (const cuuint32_t*)c.es,
      (CUtensorMapInterleave)c.interleave, (CUtensorMapSwizzle)c.swizzle,
      (CUtensorMapL2promotion)c.l2, (CUtensorMapFloatOOBfill)c.fill);
}

static std::string describe(const Case& c) {
  char b[512];
  snprintf(b, sizeof b,
           "type=%d rank=%d sw=%d fill=%d op=%s dims=%llu,%llu,%llu,%llu,%llu "
           "strides=%llu,%llu,%llu,%llu box=%u,%u,%u,%u,%u es=%u,%u,%u,%u,%u "
           "coords=%d,%d,%d,%d,%d seed=%u",
           c.type, c.rank, c.swizzle, c.fill, c.kind == REDUCE ? op_name[c.op] : "-",
           (unsigned long long)c.dims[0], (unsigned long long)c.dims[1],
           (unsigned long long)c.dims[2], (unsigned long long)c.dims[3],
           (unsigned long long)c.dims[4], (unsigned long long)c.strides[1],
           (unsigned long long)c.strides[2], (unsigned long long)c.strides[3],
           (unsigned long long)c.strides[4], c.box[0], c.box[1], c.box[2], c.box[3], c.box[4],
           c.es[0], c.es[1], c.es[2], c.es[3], c.es[4], c.coords[0], c.coords[1], c.coords[2],
           c.coords[3], c.coords[4], c.seed);
  return b;
}

static void fill_tensor(uint8_t* d, uint64_t bytes, uint32_t seed) {
  std::vector<uint8_t> h(bytes);
  for (uint64_t i = 0; i < bytes; ++i) h[i] = (uint8_t)probe_hash((uint32_t)i, seed);
  cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice);
}

// FNV-1a of the bytes: what a replay compares its own result with.
static uint64_t fnv(const uint8_t* p, uint64_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint64_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static int mismatches(const uint8_t* a, const uint8_t* b, uint64_t n, long* first) {
  int m = 0;
  *first = -1;
  for (uint64_t i = 0; i < n; ++i)
    if (a[i] != b[i]) {
      if (*first < 0) *first = (long)i;
      ++m;
    }
  return m;
}

// Launches the load kernel of the case's form in the variant V (native or emulated).
#define LAUNCH_LOAD(V, c, map, pc, expect, out, flags)                                \
  do {                                                                                \
    if ((c).kind == LOAD_CTA) V::load_cta_2d<<<1, 32>>>(map, pc, expect, out, flags); \
    else if ((c).rank == 1) V::load_1d<<<1, 32>>>(map, pc, expect, out, flags);       \
    else if ((c).rank == 2) V::load_2d<<<1, 32>>>(map, pc, expect, out, flags);       \
    else if ((c).rank == 3) V::load_3d<<<1, 32>>>(map, pc, expect, out, flags);       \
    else if ((c).rank == 4) V::load_4d<<<1, 32>>>(map, pc, expect, out, flags);       \
    else V::load_5d<<<1, 32>>>(map, pc, expect, out, flags);                          \
  } while (0)

#define REDUCE_CASE(V, op, map, pc, seed, rank)                   \
  if ((rank) == 2) V::reduce_##op##_2d<<<1, 32>>>(map, pc, seed); \
  else V::reduce_##op##_3d<<<1, 32>>>(map, pc, seed)

// Launches the store or reduction kernel of the case's form in the variant V.
#define LAUNCH_STORE(V, c, map, pc, seed)                             \
  do {                                                                \
    if ((c).kind == STORE) {                                          \
      if ((c).rank == 1) V::store_1d<<<1, 32>>>(map, pc, seed);       \
      else if ((c).rank == 2) V::store_2d<<<1, 32>>>(map, pc, seed);  \
      else if ((c).rank == 3) V::store_3d<<<1, 32>>>(map, pc, seed);  \
      else if ((c).rank == 4) V::store_4d<<<1, 32>>>(map, pc, seed);  \
      else V::store_5d<<<1, 32>>>(map, pc, seed);                     \
    } else {                                                          \
      switch ((c).op) {                                               \
        case 0: REDUCE_CASE(V, add, map, pc, seed, (c).rank); break;  \
        case 1: REDUCE_CASE(V, min, map, pc, seed, (c).rank); break;  \
        case 2: REDUCE_CASE(V, max, map, pc, seed, (c).rank); break;  \
        case 3: REDUCE_CASE(V, inc, map, pc, seed, (c).rank); break;  \
        case 4: REDUCE_CASE(V, dec, map, pc, seed, (c).rank); break;  \
        case 5: REDUCE_CASE(V, and, map, pc, seed, (c).rank); break;  \
        case 6: REDUCE_CASE(V, or, map, pc, seed, (c).rank); break;   \
        default: REDUCE_CASE(V, xor, map, pc, seed, (c).rank); break; \
      }                                                               \
    }                                                                 \
  } while (0)

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--expected-faults") {
    // The cases the H200 stops with an illegal instruction (and the translation traps on): a
    // dimension-0 coordinate that is not whole 16 bytes, a negative coordinate of a store or a
    // reduction, a bit operation on an s64 map.
    const std::vector<Case> cases = build_cases();
    for (size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      if (c.kind == VALIDATE) continue;
      bool faults = ((int64_t)c.coords[0] * esize_of[c.type]) % 16 != 0;
      for (int k = 0; k < c.rank; ++k)
        faults |= (c.kind == STORE || c.kind == REDUCE) && c.coords[k] < 0;
      faults |= c.kind == REDUCE && c.type == 5 && c.op >= 5;
      if (faults) printf("%zu\n", i);
    }
    return 0;
  }
  if (argc > 1 && std::string(argv[1]) == "--list") {
    // The cases and ptx2hip's encoder's answers, without a GPU.
    const std::vector<Case> cases = build_cases();
    static unsigned char buf[1 << 22];
    for (size_t i = 0; i < cases.size(); ++i) {
      Maps m;
      const Case& c = cases[i];
      void* a = (void*)(((uintptr_t)buf + 255) & ~(uintptr_t)255);
      m.rc_ours = (int)ptx2hip_cuTensorMapEncodeTiled(
          (ptx2hip_CUtensorMap*)(m.ours + c.map_offset), (CUtensorMapDataType)c.type,
          (cuuint32_t)c.rank, c.null_address ? nullptr : (char*)a + c.address_offset,
          (const cuuint64_t*)c.dims, (const cuuint64_t*)(c.strides + 1), (const cuuint32_t*)c.box,
          (const cuuint32_t*)c.es, (CUtensorMapInterleave)c.interleave,
          (CUtensorMapSwizzle)c.swizzle, (CUtensorMapL2promotion)c.l2,
          (CUtensorMapFloatOOBfill)c.fill);
      printf("case %zu %s %s ours=%d model_bytes=%u extent=%llu %s\n", i, kind_name[c.kind], c.what,
             m.rc_ours, c.kind == VALIDATE ? 0u : model_bytes(c),
             (unsigned long long)(c.kind == VALIDATE ? 0 : extent(c)), describe(c).c_str());
    }
    return 0;
  }
  const std::string dir = argc > 1 ? argv[1] : "out";
  const int first = argc > 2 ? atoi(argv[2]) : 0;
  results = fopen((dir + "/results.txt").c_str(), "a");
  native_bytes = fopen((dir + "/native_bytes.bin").c_str(), "ab");
  current = -1;
  CHECK(cudaSetDevice(0));
  CHECK(cudaFree(0));
  const std::vector<Case> cases = build_cases();
  if (first == 0) printf("%zu cases\n", cases.size());
  const uint64_t cap = 1 << 22;
  uint8_t *g_real, *g_ours, *out_n, *out_e;
  uint32_t* flags;
  CUtensorMap* gmap;
  CHECK(cudaMalloc(&g_real, cap));
  CHECK(cudaMalloc(&g_ours, cap));
  CHECK(cudaMalloc(&out_n, PROBE_SMEM_BYTES));
  CHECK(cudaMalloc(&out_e, PROBE_SMEM_BYTES));
  CHECK(cudaMalloc(&flags, 16));
  CHECK(cudaMalloc(&gmap, 256));
  std::vector<uint8_t> hn(cap), he(cap);
  for (int i = first; i < (int)cases.size(); ++i) {
    current = i;
    const Case& c = cases[i];
    Maps m;
    if (c.kind == VALIDATE) {
      encode(c, g_real, g_ours, m);
      fprintf(results, "case %d validate %s real=%d ours=%d %s\n", i, c.what, m.rc_real, m.rc_ours,
              m.rc_real == m.rc_ours ? "SAME" : "DIFFER");
      fflush(results);
      continue;
    }
    const uint64_t bytes = extent(c);
    if (bytes + 64 > cap / 2) {
      fprintf(results, "case %d %s SKIP extent %llu\n", i, kind_name[c.kind],
              (unsigned long long)bytes);
      continue;
    }
    // The replace cases point the edited map at the second half of the buffer.
    const uint64_t filled = c.kind == REPLACE ? cap / 2 + 8192 : bytes + 256;
    fill_tensor(g_real, filled, c.seed);
    fill_tensor(g_ours, filled, c.seed);
    encode(c, g_real, g_ours, m);
    if (m.rc_real != 0 || m.rc_ours != 0) {
      fprintf(results, "case %d %s ENCODE real=%d ours=%d %s\n", i, kind_name[c.kind], m.rc_real,
              m.rc_ours, describe(c).c_str());
      fflush(results);
      continue;
    }
    probe_coords pc;
    memcpy(pc.v, c.coords, sizeof pc.v);
    const CUtensorMap real = *(CUtensorMap*)m.real;
    const CUtensorMap ours = *(CUtensorMap*)m.ours;
    std::string line;
    char b[256];
    if (c.kind == LOAD || c.kind == LOAD_CTA || c.kind == REPLACE) {
      Case edited = c;
      probe_edit e_real{}, e_ours{};
      if (c.kind == REPLACE) {
        edited.dims[0] = 36;
        edited.dims[1] = 20;
        edited.strides[1] = 160;
        edited.box[1] = 6;
        edited.es[1] = 2;
        edited.fill = 1;
        e_real = {(uint64_t)(uintptr_t)(g_real + cap / 2), 160, 36, 20, 6, 2};
        e_ours = {(uint64_t)(uintptr_t)(g_ours + cap / 2), 160, 36, 20, 6, 2};
      }
      const uint32_t expect = model_bytes(edited);
      uint32_t fn[2], fe[2];
      CHECK(cudaMemset(flags, 0xff, 16));
      if (c.kind == REPLACE)
        native::replace_2d<<<1, 32>>>(real, pc, expect, out_n, flags, gmap, e_real);
      else LAUNCH_LOAD(native, c, real, pc, expect, out_n, flags);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(fn, flags, 8, cudaMemcpyDeviceToHost));
      // When the hardware's transaction bytes are not the model's, which byte count completes
      // exactly (phase 0 and, with nothing left over, phase 1): a few candidate layouts.
      std::string tx_probe;
      if (fn[0] != 1 || fn[1] != 1) {
        const uint32_t e = esize_of[edited.type];
        uint32_t rows = 1, boxes = 1;
        for (int k = 1; k < edited.rank; ++k) {
          rows *= model_count(edited, k);
          boxes *= edited.box[k];
        }
        const uint32_t row = model_count(edited, 0) * e;
        const uint32_t candidates[] = {row * rows,
                                       ((row + 15) / 16 * 16) * rows,
                                       edited.box[0] * e * boxes,
                                       edited.box[0] * e * rows,
                                       row * boxes,
                                       (16u << edited.swizzle) * rows};
        for (uint32_t v : candidates) {
          uint32_t fv[2];
          CHECK(cudaMemset(flags, 0xff, 16));
          if (c.kind == REPLACE)
            native::replace_2d<<<1, 32>>>(real, pc, v, out_e, flags, gmap, e_real);
          else LAUNCH_LOAD(native, c, real, pc, v, out_e, flags);
          CHECK(cudaGetLastError());
          CHECK(cudaDeviceSynchronize());
          CHECK(cudaMemcpy(fv, flags, 8, cudaMemcpyDeviceToHost));
          snprintf(b, sizeof b, "%s%u:%u%u", tx_probe.empty() ? "" : ",", v, fv[0], fv[1]);
          tx_probe += b;
        }
      }
      CHECK(cudaMemset(flags, 0xff, 16));
      if (c.kind == REPLACE)
        emulated::replace_2d<<<1, 32>>>(ours, pc, expect, out_e, flags, gmap, e_ours);
      else LAUNCH_LOAD(emulated, c, ours, pc, expect, out_e, flags);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(fe, flags, 8, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(hn.data(), out_n, PROBE_SMEM_BYTES, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(he.data(), out_e, PROBE_SMEM_BYTES, cudaMemcpyDeviceToHost));
      fwrite(hn.data(), 1, PROBE_SMEM_BYTES, native_bytes);
      uint32_t written = 0;
      for (int k = 0; k < PROBE_SMEM_BYTES; ++k) written += hn[k] != 0xa5;
      long at;
      const int bad = mismatches(hn.data(), he.data(), PROBE_SMEM_BYTES, &at);
      snprintf(b, sizeof b,
               "expect=%u native_flags=%u,%u emulated_flags=%u,%u non_sentinel=%u "
               "native_hash=%016llx",
               expect, fn[0], fn[1], fe[0], fe[1], written,
               (unsigned long long)fnv(hn.data(), PROBE_SMEM_BYTES));
      line = b;
      if (!tx_probe.empty()) line += " tx_probe=" + tx_probe;
      const bool same = bad == 0 && fn[0] == fe[0] && fn[1] == fe[1];
      fprintf(results, "case %d %s %s mismatched=%d first=%ld %s %s\n", i, kind_name[c.kind],
              same ? "SAME" : "DIFFER", bad, at, line.c_str(), describe(c).c_str());
    } else {
      LAUNCH_STORE(native, c, real, pc, c.seed ^ 0x5a5a5a5au);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      LAUNCH_STORE(emulated, c, ours, pc, c.seed ^ 0x5a5a5a5au);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(hn.data(), g_real, bytes, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(he.data(), g_ours, bytes, cudaMemcpyDeviceToHost));
      fwrite(hn.data(), 1, bytes, native_bytes);
      long at;
      const int bad = mismatches(hn.data(), he.data(), bytes, &at);
      uint32_t changed = 0;
      for (uint64_t k = 0; k < bytes; ++k)
        changed += hn[k] != (uint8_t)probe_hash((uint32_t)k, c.seed);
      fprintf(
          results,
          "case %d %s %s mismatched=%d first=%ld bytes=%llu changed=%u native_hash=%016llx %s\n", i,
          kind_name[c.kind], bad == 0 ? "SAME" : "DIFFER", bad, at, (unsigned long long)bytes,
          changed, (unsigned long long)fnv(hn.data(), bytes), describe(c).c_str());
    }
    fflush(results);
    fflush(native_bytes);
  }
  printf("DONE\n");
  return 0;
}
