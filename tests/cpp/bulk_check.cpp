// The bulk family's checks (tests/it/models_bulk.rs writes the statements and kReductions before
// including this file). Shared memory and the "global" buffers are arena addresses below 4 GiB
// (async_model.h), so a 32-bit window address and a 64-bit pointer name the same bytes.

#include <string.h>

#include <string>

// An integer element: its width and signedness from the PTX type.
static bool is_signed(const char* ty) { return ty[0] == 's'; }
static int width(const char* ty) { return (ty[1] == '6') ? 8 : 4; }

// PTX's value of one element: op(d, s) for the type (inc/dec: atom.inc/.dec with bound s).
static uint64_t reference(const std::string& op, const char* ty, uint64_t d, uint64_t s) {
  const bool wide = width(ty) == 8, sign = is_signed(ty);
  const uint64_t mask = wide ? ~0ull : 0xffffffffull;
  d &= mask, s &= mask;
  auto less = [&](uint64_t a, uint64_t b) {
    if (!sign) return a < b;
    return wide ? (int64_t)a < (int64_t)b : (int32_t)(uint32_t)a < (int32_t)(uint32_t)b;
  };
  if (op == "add") return (d + s) & mask;
  if (op == "min") return less(s, d) ? s : d;
  if (op == "max") return less(d, s) ? s : d;
  if (op == "and") return d & s;
  if (op == "or") return d | s;
  if (op == "xor") return d ^ s;
  if (op == "inc") return d >= s ? 0 : d + 1;
  if (op == "dec") return (d == 0 || d > s) ? s : d - 1;
  printf("unknown op %s\n", op.c_str());
  exit(2);
}

static const uint64_t kEdges[] = {0,
                                  1,
                                  2,
                                  0x7fffffff,
                                  0x80000000,
                                  0xffffffff,
                                  0xfffffffe,
                                  100,
                                  0x7fffffffffffffffull,
                                  0x8000000000000000ull,
                                  ~0ull,
                                  0x100000000ull,
                                  42,
                                  0xdeadbeefcafef00dull,
                                  3,
                                  99};

int main() {
  char* arena = shared_arena(1 << 20);
  char* src = arena;                 // 4 KB
  char* dst = arena + 4096;          // 4 KB
  char* expect = arena + 8192;       // 4 KB
  uint64_t* bar = (uint64_t*)(arena + 12288);
  Rng rng;
  int cases = 0;

  // Every integer reduction form: elements of its width, edges crossed with edges, then random.
  for (const ReduceCase& c : kReductions) {
    current = c.ptx;
    const int w = width(c.ty);
    for (uint32_t bytes : {16u, 256u, 2048u}) {
      const uint32_t n = bytes / w;
      for (uint32_t i = 0; i < n; ++i) {
        uint64_t d = i < 256 ? kEdges[(i / 16) % 16]
                             : ((uint64_t)rng.next(1u << 31) << 33) ^ rng.next(1u << 31);
        uint64_t s =
            i < 256 ? kEdges[i % 16] : ((uint64_t)rng.next(1u << 31) << 31) ^ rng.next(1u << 31);
        if (rng.next(4) == 0)
          s = d + rng.next(3) - 1;   // near the operand: inc/dec bounds, min/max ties
        uint64_t r = reference(c.op, c.ty, d, s);
        memcpy(dst + i * w, &d, w);
        memcpy(src + i * w, &s, w);
        memcpy(expect + i * w, &r, w);
      }
      memset(dst + bytes, 0x5a, 64);
      c.run((uint64_t)(uintptr_t)dst, window(src), bytes);
      for (uint32_t i = 0; i < n; ++i) {
        uint64_t got = 0, want = 0;
        memcpy(&got, dst + i * w, w);
        memcpy(&want, expect + i * w, w);
        EXPECT(got == want, "element", got, want);
      }
      EXPECT(dst[bytes] == 0x5a && dst[bytes + 63] == 0x5a, "wrote past the end", bytes, 0);
      ++cases;
    }
  }

  // The copies: every byte, in both directions, aligned (vector) and not (bytes, as PTX leaves it
  // undefined), with the loads' complete_tx, which completes the phase once the arrival is in.
  struct Copy {
    const char* name;
    bool load;
    void (*run)(uint32_t shared, uint64_t global, uint32_t bytes, uint32_t bar);
  };
  const Copy copies[] = {
      {"load_cluster", true,
       [](uint32_t s, uint64_t g, uint32_t n, uint32_t b) { load_cluster(s, g, n, b); }},
      {"load_cta_hinted", true,
       [](uint32_t s, uint64_t g, uint32_t n, uint32_t b) {
         load_cta_hinted(s, g, n, b, 0x14F0000000000000ull);
       }},
      {"store", false, [](uint32_t s, uint64_t g, uint32_t n, uint32_t) { store(g, s, n); }},
      {"store_hinted", false,
       [](uint32_t s, uint64_t g, uint32_t n, uint32_t) {
         store_hinted(g, s, n, 0x12F0000000000000ull);
       }},
  };
  char* shared = arena + 16384;
  char* global = arena + 65536;
  for (const Copy& c : copies) {
    current = c.name;
    for (uint32_t bytes : {16u, 48u, 1024u, 4096u, 13u}) {
      for (uint32_t offset : {0u, 16u, 3u}) {
        char* from = (c.load ? global : shared) + offset;
        char* to = (c.load ? shared : global) + offset;
        for (uint32_t i = 0; i < bytes + 32; ++i) from[i] = (char)rng.next(256), to[i] = 0x11;
        ptx2hip_mbar_init(bar, 1);
        if (c.load) (void)ptx2hip_mbar_update(bar, 1u, 0u, (int32_t)bytes);  // arrive.expect_tx
        c.run(window(shared + offset), (uint64_t)(uintptr_t)(global + offset), bytes, window(bar));
        EXPECT(memcmp(from, to, bytes) == 0, "copied bytes", bytes, offset);
        EXPECT(to[bytes] == 0x11, "wrote past the end", bytes, offset);
        EXPECT((*bar >> 63) == (c.load ? 1u : 0u), "phase", *bar >> 63, bytes);
        ++cases;
      }
    }
  }
  printf("%d cases, %d failures\n", cases, failures);
  return failures ? 1 : 0;
}
