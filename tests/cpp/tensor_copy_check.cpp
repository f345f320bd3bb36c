// The TMA translations on the host (included last by the program tests/it/models_tensor_copy.rs
// writes, after the translated statements load(), store(), ... and their helpers):
//  1. random tiled boxes against a reference written from the layout's description, element by
//     element (every rank, element size, swizzle, fill, element strides, boxes across every edge);
//  2. with a recording of an H100-class GPU (tools/probes/tma_copy's results.txt), every load, store and
//     in-kernel map edit it recorded, replayed: the same tensor, coordinates and map through the
//     translation, its shared memory (or tensor) hashed and compared with the hardware's, and
//     the mbarrier's completion with the hardware's.
#include <string>
#include <vector>

#include "../../tools/probes/tma_copy/tma_probe.h"

static const uint32_t esize_of[13] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};

struct Case {
  std::string kind;
  int type = 0, rank = 1, sw = 0, fill = 0;
  uint64_t dims[5] = {1, 1, 1, 1, 1}, strides[5] = {0, 0, 0, 0, 0};
  uint32_t box[5] = {1, 1, 1, 1, 1}, es[5] = {1, 1, 1, 1, 1};
  int32_t coords[5] = {0, 0, 0, 0, 0};
  uint32_t seed = 0, expect = 0, flags[2] = {1, 1};
  std::string op;
  unsigned long long hash = 0;
};

static char* arena;  // shared memory: the box region, the mbarrier, a map copy
static char* global;  // the tensor (and, for the edits, the second tensor)
static const uint64_t global_bytes = 1u << 22;

static uint64_t extent(const Case& c) {
  return c.rank == 1 ? c.dims[0] * esize_of[c.type] : c.strides[c.rank - 1] * c.dims[c.rank - 1];
}

static unsigned long long fnv(const uint8_t* p, uint64_t n) {
  unsigned long long h = 0xcbf29ce484222325ull;
  for (uint64_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// ptx2hip's encoder on the case's arguments.
static bool encode(const Case& c, void* address, ptx2hip_CUtensorMap* map) {
  return ptx2hip_cuTensorMapEncodeTiled(map, c.type, (uint32_t)c.rank, address, c.dims,
                                        c.strides + 1, c.box, c.es, 0, c.sw, 0, c.fill) == 0;
}

// The translated statements by rank (t_load_Nd, t_store_Nd: the program's functions).
static void load(int rank, uint32_t s, uint64_t map, const int32_t* c, uint32_t b) {
  switch (rank) {
    case 1: t_load_1d(s, map, c[0], b); break;
    case 2: t_load_2d(s, map, c[0], c[1], b); break;
    case 3: t_load_3d(s, map, c[0], c[1], c[2], b); break;
    case 4: t_load_4d(s, map, c[0], c[1], c[2], c[3], b); break;
    default: t_load_5d(s, map, c[0], c[1], c[2], c[3], c[4], b); break;
  }
}
static void store(int rank, uint64_t map, const int32_t* c, uint32_t s) {
  switch (rank) {
    case 1: t_store_1d(map, c[0], s); break;
    case 2: t_store_2d(map, c[0], c[1], s); break;
    case 3: t_store_3d(map, c[0], c[1], c[2], s); break;
    case 4: t_store_4d(map, c[0], c[1], c[2], c[3], s); break;
    default: t_store_5d(map, c[0], c[1], c[2], c[3], c[4], s); break;
  }
}
// The translated reductions (t_reduce_OP_2d, _3d) by operation name and rank.
static bool reduce(const std::string& op, int rank, uint64_t map, const int32_t* c, uint32_t s) {
#define PTX2HIP_REDUCE(name)                                 \
  if (op == #name) {                                         \
    if (rank == 2) t_reduce_##name##_2d(map, c[0], c[1], s); \
    else t_reduce_##name##_3d(map, c[0], c[1], c[2], s);     \
    return true;                                             \
  }
  if (rank != 2 && rank != 3) return false;
  PTX2HIP_REDUCE(add)
  PTX2HIP_REDUCE(min)
  PTX2HIP_REDUCE(max)
  PTX2HIP_REDUCE(inc)
  PTX2HIP_REDUCE(dec)
  PTX2HIP_REDUCE(and)
  PTX2HIP_REDUCE(or)
  PTX2HIP_REDUCE(xor)
#undef PTX2HIP_REDUCE
  return false;
}

static uint32_t test_parity(uint32_t b, uint32_t parity) {
  uint32_t done = 0;
  t_test_parity(done, b, parity);
  return done;
}

// ---- The reference: the layout as rules/helpers/tensor_copy.h describes it, coordinate-wise ----

// The H200's out-of-bounds NaN: 0x7ff7 in every 16-bit half, whatever the float type.
static const uint64_t nan_fill = 0x7ff77ff77ff77ff7ull;

// Calls visit(smem offset from the box's start, element index along dimension 0, global byte
// offset of the element, whether it is inside the tensor, whether the rest of its row is) for
// each element of the box of `c` starting at shared window address `start`, as the H200 lays it
// out: box_0 consecutive elements along dimension 0 (its element stride ignored), ceil(box_i /
// es_i) elements es_i apart along the others, rows of box_0 elements at a pitch of their bytes or
// of the swizzle span, the swizzle on the shared address. Returns the rows' bytes (the
// transaction bytes of a load: without the padding to the span).
template <class Visit>
static uint32_t reference_box(const Case& c, uint32_t start, Visit visit) {
  const uint32_t e = esize_of[c.type];
  uint32_t n[5], step[5];
  for (int i = 0; i < 5; ++i) {
    step[i] = i > 0 && i < c.rank ? c.es[i] : 1;
    n[i] = i < c.rank ? (c.box[i] + step[i] - 1) / step[i] : 1;
  }
  const uint32_t span = c.sw ? 16u << c.sw : 0;
  const uint32_t pitch = span ? span : n[0] * e;
  for (uint32_t k4 = 0; k4 < n[4]; ++k4)
    for (uint32_t k3 = 0; k3 < n[3]; ++k3)
      for (uint32_t k2 = 0; k2 < n[2]; ++k2)
        for (uint32_t k1 = 0; k1 < n[1]; ++k1)
          for (uint32_t k0 = 0; k0 < n[0]; ++k0) {
            const uint32_t k[5] = {k0, k1, k2, k3, k4};
            bool row_inside = true;
            int64_t at = 0;
            for (int i = 0; i < c.rank; ++i) {
              const int64_t x = (int64_t)c.coords[i] + (int64_t)k[i] * step[i];
              if (i > 0) row_inside = row_inside && x >= 0 && (uint64_t)x < c.dims[i];
              at += x * (int64_t)(i == 0 ? e : c.strides[i]);
            }
            const int64_t x0 = (int64_t)c.coords[0] + k0;
            const bool inside = row_inside && x0 >= 0 && (uint64_t)x0 < c.dims[0];
            const uint32_t row = ((k4 * n[3] + k3) * n[2] + k2) * n[1] + k1;
            uint32_t a = start + row * pitch + k0 * e;
            if (span) {
              const uint32_t chunk = (a >> 4) & 7, line = (a >> 7) & (span / 16 - 1);
              a = (a & ~0x70u) | ((chunk ^ line) << 4);
            }
            visit(a - start, k0, at, inside, row_inside);
          }
  return n[0] * e * n[1] * n[2] * n[3] * n[4];
}

// An f32 as a load of a tf32 map leaves it (CU types 11 and 12): nearest, ties away, on 19 bits;
// any NaN 0x7fffe000.
static uint32_t tf32_of(uint32_t x) {
  if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu) != 0) return 0x7fffe000u;
  return (x + 0x1000u) & ~0x1fffu;
}

// The shared memory a load leaves (PROBE_SMEM_BYTES, sentinel 0xa5); returns the box's bytes.
static uint32_t reference_load(const Case& c, uint32_t start, uint8_t* out) {
  const uint32_t e = esize_of[c.type];
  memset(out, 0xa5, PROBE_SMEM_BYTES);
  return reference_box(c, start, [&](uint32_t s, uint32_t, int64_t g, bool inside, bool) {
    uint64_t v = c.fill ? nan_fill : 0;
    if (inside) {
      memcpy(&v, global + g, e);
      if (c.type == 11 || c.type == 12) v = tf32_of((uint32_t)v);
    }
    memcpy(out + s, &v, e);
  });
}

// The tensor `tensor` after a store of the box at `box` (starting at shared window address
// `start`), coordinates not negative: along dimension 0 a 16-byte chunk whose first element is
// inside the tensor is written whole; rows outside are not written.
static void reference_store(const Case& c, uint32_t start, const uint8_t* box, char* tensor) {
  const uint32_t e = esize_of[c.type], per_chunk = 16 / e;
  reference_box(c, start, [&](uint32_t s, uint32_t k0, int64_t g, bool, bool row_inside) {
    const uint64_t first = (uint64_t)c.coords[0] + (k0 - k0 % per_chunk);
    if (row_inside && first < c.dims[0]) memcpy(tensor + g, box + s, e);
  });
}

// ---- The translation ---------------------------------------------------------------------

struct Result {
  uint32_t flags[2];
};

// Fills the box region with the sentinel, arms a one-arrival mbarrier for `expect` bytes, runs
// the translated load, and reads the completion as the probe kernel does.
static Result translated_load(const Case& c, const void* map) {
  uint8_t* box = (uint8_t*)arena;
  memset(box, 0xa5, PROBE_SMEM_BYTES);
  const uint32_t s = window(box), b = window(arena + PROBE_SMEM_BYTES);
  t_init(b, 1);
  t_arrive_expect_tx(b, c.expect);
  load(c.rank, s, (uint64_t)(uintptr_t)map, c.coords, b);
  Result r{};
  r.flags[0] = test_parity(b, 0);
  if (r.flags[0]) {
    t_arrive(b);
    r.flags[1] = test_parity(b, 1);
  }
  return r;
}

static void fill_global(uint64_t bytes, uint32_t seed) {
  for (uint64_t i = 0; i < bytes; ++i) global[i] = (char)probe_hash((uint32_t)i, seed);
}

static int failures = 0;
static void fail(const char* what, int i, const std::string& detail) {
  if (++failures <= 20) printf("FAIL %s case %d: %s\n", what, i, detail.c_str());
}

// ---- Random boxes against the reference --------------------------------------------------

struct Rng {
  uint64_t s;
  uint32_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(s >> 33);
  }
  int range(int lo, int hi) { return lo + (int)(next() % (uint32_t)(hi - lo + 1)); }
};

static Case random_case(Rng& r) {
  Case c;
  c.kind = "load";
  c.type = r.range(0, 12);
  c.rank = r.range(1, 5);
  c.sw = r.range(0, 3);
  c.fill = c.type >= 6 ? r.range(0, 1) : 0;
  c.seed = r.next();
  const uint32_t e = esize_of[c.type];
  for (;;) {
    c.box[0] = 16 / e * r.range(1, c.sw ? (16 << c.sw) / 16 : 8);
    for (int i = 1; i < c.rank; ++i) c.box[i] = r.range(1, i == 1 ? 12 : 4);
    for (int i = 0; i < c.rank; ++i) c.es[i] = r.range(0, 1) ? 1 : r.range(1, 8);
    uint32_t n1 = 1;
    for (int i = 1; i < c.rank; ++i) n1 *= (c.box[i] + c.es[i] - 1) / c.es[i];
    const uint32_t pitch = c.sw ? 16u << c.sw : c.box[0] * e;
    if (pitch * n1 <= 8192) break;
  }
  for (int i = 0; i < c.rank; ++i) {
    c.dims[i] = r.range(1, c.box[i] * 2 + 3);
    c.coords[i] = r.range(-(int)c.box[i] * (int)c.es[i], (int)c.dims[i]);
  }
  // The hardware takes only dimension-0 coordinates of whole 16 bytes.
  const int unit = 16 / (int)e;
  c.coords[0] =
      (c.coords[0] >= 0 ? c.coords[0] / unit : -((-c.coords[0] + unit - 1) / unit)) * unit;
  c.strides[0] = e;
  for (int i = 1; i < c.rank; ++i) {
    const uint64_t below = i == 1 ? c.dims[0] * e : c.strides[i - 1] * c.dims[i - 1];
    c.strides[i] = (below + 15) / 16 * 16 + 16 * (uint64_t)r.range(0, 2);
  }
  return c;
}

static void against_reference() {
  Rng r{2026};
  alignas(64) static unsigned char map[128];
  static uint8_t want[PROBE_SMEM_BYTES];
  int n = 0;
  for (int i = 0; i < 3000; ++i) {
    Case c = random_case(r);
    fill_global(extent(c) + 256, c.seed);
    if (!encode(c, global, (ptx2hip_CUtensorMap*)map)) {
      fail("reference", i, "the encoder refused a valid map");
      continue;
    }
    c.expect = reference_load(c, window(arena), want);
    const Result got = translated_load(c, map);
    if (memcmp(want, arena, PROBE_SMEM_BYTES) != 0) fail("reference", i, "box bytes differ");
    if (!got.flags[0] || !got.flags[1]) fail("reference", i, "the mbarrier did not complete");
    ++n;
  }
  printf("reference: %d random loads\n", n);
  // Stores of the same kinds of boxes: the translation against the reference, on copies of the
  // tensor.
  static char want_tensor[1 << 20];
  int stores = 0;
  for (int i = 0; i < 1000; ++i) {
    Case c = random_case(r);
    for (int k = 0; k < c.rank; ++k) c.coords[k] = c.coords[k] < 0 ? 0 : c.coords[k];
    const uint64_t bytes = extent(c) + 256;
    if (bytes > sizeof want_tensor) continue;
    fill_global(bytes, c.seed);
    memcpy(want_tensor, global, bytes);
    if (!encode(c, global, (ptx2hip_CUtensorMap*)map)) {
      fail("reference store", i, "the encoder refused a valid map");
      continue;
    }
    for (uint32_t k = 0; k < PROBE_SMEM_BYTES; ++k) arena[k] = (char)probe_hash(k, ~c.seed);
    reference_store(c, window(arena), (const uint8_t*)arena, want_tensor);
    store(c.rank, (uint64_t)(uintptr_t)map, c.coords, window(arena));
    if (memcmp(want_tensor, global, bytes) != 0) fail("reference store", i, "tensor bytes differ");
    ++stores;
  }
  printf("reference: %d random stores\n", stores);
}

// ---- Replay of a recording -------------------------------------------------------------------

static bool parse(const std::string& line, Case& c) {
  char kind[32];
  if (sscanf(line.c_str(), "case %*d %31s", kind) != 1) return false;
  c.kind = kind;
  if (c.kind == "validate" || line.find(" SKIP ") != std::string::npos ||
      line.find(" ENCODE ") != std::string::npos || line.find(" FAULT") != std::string::npos)
    return false;
  auto field = [&](const char* name) -> const char* {
    const size_t at = line.find(std::string(" ") + name + "=");
    return at == std::string::npos ? nullptr : line.c_str() + at + strlen(name) + 2;
  };
  unsigned long long d[5], s[4];
  if (!field("type") || !field("native_hash")) return false;
  c.type = atoi(field("type"));
  c.rank = atoi(field("rank"));
  c.sw = atoi(field("sw"));
  c.fill = atoi(field("fill"));
  sscanf(field("dims"), "%llu,%llu,%llu,%llu,%llu", &d[0], &d[1], &d[2], &d[3], &d[4]);
  sscanf(field("strides"), "%llu,%llu,%llu,%llu", &s[0], &s[1], &s[2], &s[3]);
  sscanf(field("box"), "%u,%u,%u,%u,%u", &c.box[0], &c.box[1], &c.box[2], &c.box[3], &c.box[4]);
  sscanf(field("es"), "%u,%u,%u,%u,%u", &c.es[0], &c.es[1], &c.es[2], &c.es[3], &c.es[4]);
  sscanf(field("coords"), "%d,%d,%d,%d,%d", &c.coords[0], &c.coords[1], &c.coords[2], &c.coords[3],
         &c.coords[4]);
  c.seed = (uint32_t)strtoul(field("seed"), nullptr, 10);
  char op[16] = "";
  if (field("op")) sscanf(field("op"), "%15s", op);
  c.op = op;
  c.hash = strtoull(field("native_hash"), nullptr, 16);
  if (field("expect")) c.expect = (uint32_t)strtoul(field("expect"), nullptr, 10);
  if (field("native_flags")) sscanf(field("native_flags"), "%u,%u", &c.flags[0], &c.flags[1]);
  for (int i = 0; i < 5; ++i) c.dims[i] = d[i];
  c.strides[0] = esize_of[c.type];
  for (int i = 1; i < 5; ++i) c.strides[i] = s[i - 1];
  return true;
}

static void replay(const char* path) {
  FILE* f = fopen(path, "r");
  if (!f) {
    printf("FAIL: cannot read %s\n", path);
    exit(1);
  }
  alignas(64) static unsigned char map[128];
  static char line[4096];
  int loads = 0, stores = 0, edits = 0, reductions = 0, i = 0;
  while (fgets(line, sizeof line, f)) {
    ++i;
    Case c;
    if (!parse(line, c)) continue;
    const bool edit = c.kind == "replace";
    const int before = failures;
    fill_global(edit ? global_bytes / 2 + 8192 : extent(c) + 256, c.seed);
    if (!encode(c, global, (ptx2hip_CUtensorMap*)map)) {
      fail("replay", i, "the encoder refused the recorded map");
      continue;
    }
    if (c.kind == "load" || c.kind == "load_cta" || edit) {
      const void* used = map;
      if (edit) {
        // replace_2d: the probe's edits on a copy in shared memory, published to "global" memory.
        char* smap = arena + PROBE_SMEM_BYTES + 128;
        static unsigned char gmap[128] __attribute__((aligned(128)));
        memcpy(smap, map, 128);
        const uint32_t m = window(smap);
        t_replace_address(m, (uint64_t)(uintptr_t)(global + global_bytes / 2));
        t_replace_dim0(m, 36);
        t_replace_dim1(m, 20);
        t_replace_stride1(m, 160);
        t_replace_box1(m, 6);
        t_replace_estride1(m, 2);
        t_replace_fill(m);
        t_copy_map((uint64_t)(uintptr_t)gmap, m);
        used = gmap;
      }
      const Result got = translated_load(c, used);
      if (fnv((const uint8_t*)arena, PROBE_SMEM_BYTES) != c.hash)
        fail("replay", i, "shared memory differs from the hardware's: " + std::string(line));
      // The completion is compared where the probe expected the box's bytes: with another count
      // the hardware's tx-count crosses zero or not depending on how it splits its complete_tx.
      Case edited = c;
      if (edit) {
        edited.dims[0] = 36, edited.dims[1] = 20, edited.strides[1] = 160;
        edited.box[1] = 6, edited.es[1] = 2, edited.fill = 1;
      }
      static uint8_t scratch[PROBE_SMEM_BYTES];
      const bool defined = reference_load(edited, 0, scratch) == c.expect;
      if (defined && (got.flags[0] != c.flags[0] || got.flags[1] != c.flags[1]))
        fail("replay", i, "mbarrier completion differs from the hardware's: " + std::string(line));
      if (failures == before) edit ? ++edits : ++loads;
    } else {
      // store_Nd and reduce_OP_Nd: the box region holds the probe's pattern, then the
      // translated store or reduction.
      for (uint32_t k = 0; k < PROBE_SMEM_BYTES; ++k)
        arena[k] = (char)probe_hash(k, c.seed ^ 0x5a5a5a5au);
      if (c.kind == "reduce") {
        if (!reduce(c.op, c.rank, (uint64_t)(uintptr_t)map, c.coords, window(arena))) {
          fail("replay", i, "no translated reduction for: " + std::string(line));
          continue;
        }
      } else {
        store(c.rank, (uint64_t)(uintptr_t)map, c.coords, window(arena));
      }
      if (fnv((const uint8_t*)global, extent(c)) != c.hash)
        fail("replay", i, "the tensor differs from the hardware's: " + std::string(line));
      if (failures == before) c.kind == "reduce" ? ++reductions : ++stores;
    }
  }
  fclose(f);
  printf("replay: %d loads, %d stores, %d reductions, %d edited maps identical to the recording\n",
         loads, stores, reductions, edits);
}

int main(int argc, char** argv) {
  arena = shared_arena(1 << 20);
  global = shared_arena(global_bytes);
  against_reference();
  if (argc > 1) replay(argv[1]);
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("OK\n");
  return 0;
}
