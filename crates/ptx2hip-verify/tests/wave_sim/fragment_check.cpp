// The fragment forms (ldmatrix, stmatrix, movmatrix) on the wave model of sim.h: see
// tests/it/fragment_sim.rs. fragment_forms.h is written by the test: the helpers (less the LDS ones,
// shimmed here), `form_<k>` per form and the tables `kind`, `generic`, `out_words`.
//
// Shared memory is a host buffer of two 1 KiB tiles, one per 32-lane half of a wave (two warps
// in one wave64 use different tiles, as two warps of a block would). An LDS offset is an offset
// into it; a generic pointer to shared memory is a host pointer into it.
#include "sim.h"

namespace frag_sim {
constexpr uint32_t kTile = 1024;
constexpr uint32_t kTileWords = kTile / 4;
alignas(16) inline unsigned char g_lds[2 * kTile];

inline unsigned char* at(uint32_t off, uint32_t size) {
  if (off % size != 0 || off + size > sizeof g_lds) {
    fprintf(stderr, "LDS access of %u bytes at %#x: misaligned or outside shared memory\n", size,
            off);
    abort();
  }
  return g_lds + off;
}
}  // namespace frag_sim

inline void* ptx2hip_shared_ptr(uint64_t a) { return frag_sim::g_lds + (uint32_t)a; }
inline uint32_t ptx2hip_shared_addr(const void* p) {
  return (uint32_t)((const unsigned char*)p - frag_sim::g_lds);
}
inline uint32_t ptx2hip_lds_load_u32(uint32_t off) {
  uint32_t v;
  memcpy(&v, frag_sim::at(off, 4), 4);
  return v;
}
inline uint32_t ptx2hip_lds_load_u16(uint32_t off) {
  uint16_t v;
  memcpy(&v, frag_sim::at(off, 2), 2);
  return v;
}
inline void ptx2hip_lds_store_u32(uint32_t off, uint32_t v) { memcpy(frag_sim::at(off, 4), &v, 4); }
inline void ptx2hip_lds_store_u16(uint32_t off, uint32_t v) {
  const uint16_t h = (uint16_t)v;
  memcpy(frag_sim::at(off, 2), &h, 2);
}

#include "fragment_forms.h"

// Per lane: the address operand (LDS offset or host pointer), then four registers.
struct Job {
  unsigned form;
  uint64_t x[64][5];
  uint32_t y[64][4];
};
static void lane_body(int lane, void* env) {
  Job* j = (Job*)env;
  forms[j->form](j->x[lane], j->y[lane]);
}

enum { kLd = 0, kSt = 1, kMov = 2 };
constexpr unsigned kCaseWords = 32 + 4 * 32 + frag_sim::kTileWords;

// Jobs: u32 count, then per job u32 form, u32 wave size, and per 32-lane half u32 present and,
// when present, the case's words (rows, registers, tile). Output: per job and present half,
// 32 * out_words words (stmatrix: the half's tile afterwards).
int main(int argc, char** argv) {
  FILE* in = fopen(argv[1], "rb");
  FILE* out = fopen(argv[2], "wb");
  if (!in || !out) return 2;
  uint32_t n;
  if (fread(&n, 4, 1, in) != 1) return 2;
  static Job job;
  static uint32_t words[2][kCaseWords];
  for (uint32_t k = 0; k < n; k++) {
    uint32_t hdr[2];
    if (fread(hdr, 4, 2, in) != 2) return 2;
    job.form = hdr[0];
    const int size = (int)hdr[1];
    bool present[2] = {false, false};
    uint64_t lanes = 0;
    memset(frag_sim::g_lds, 0xa5, sizeof frag_sim::g_lds);
    memset(job.y, 0, sizeof job.y);
    for (int h = 0; h < size / 32; h++) {
      uint32_t p;
      if (fread(&p, 4, 1, in) != 1) return 2;
      present[h] = p != 0;
      if (!present[h]) continue;
      if (fread(words[h], 4, kCaseWords, in) != kCaseWords) return 2;
      lanes |= 0xffffffffull << (32 * h);
      memcpy(frag_sim::g_lds + h * frag_sim::kTile, words[h] + 160, frag_sim::kTile);
      for (int l = 0; l < 32; l++) {
        const uint32_t off = h * frag_sim::kTile + words[h][l];
        uint64_t* x = job.x[32 * h + l];
        x[0] = generic[job.form] ? (uint64_t)(uintptr_t)(frag_sim::g_lds + off) : off;
        for (int r = 0; r < 4; r++) x[1 + r] = words[h][32 + 4 * l + r];
      }
    }
    const char* err = wave_sim::run(size, lanes, lane_body, &job);
    if (err) {
      fprintf(stderr, "job %u (form %u, wave%d): %s\n", k, job.form, size, err);
      return 3;
    }
    for (int h = 0; h < size / 32; h++) {
      if (!present[h]) continue;
      if (kind[job.form] == kSt) {
        fwrite(frag_sim::g_lds + h * frag_sim::kTile, 1, frag_sim::kTile, out);
      } else {
        for (int l = 0; l < 32; l++) fwrite(job.y[32 * h + l], 4, out_words[job.form], out);
      }
    }
  }
  fclose(out);
  fprintf(stderr, "%u waves, %ld cross-lane meetings\n", n, wave_sim::g.calls);
  return 0;
}
