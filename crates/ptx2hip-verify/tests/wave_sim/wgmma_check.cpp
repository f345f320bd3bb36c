// The wave simulation of tests/it/wgmma_sim.rs: a recorded wgmma case runs through the `--target
// amd` translation of its statement for the 128 threads of a warpgroup, as 2 waves of 64 and as 4
// waves of 32, each wave on the lockstep model of sim.h, over shared memory holding the case's
// image (wgmma_check.h). wgmma_table.h is written by the test: `entries` (wgmma_entry per
// statement, defined in the test's other translation units), `a_regs` and `d_regs` per entry.
//
// Input: u32 jobs, then per job u32 entry, u32 warpgroup (its threads are 128 * warpgroup ...
// 128 * warpgroup + 127 of a block of 128 * (warpgroup + 1)), u32 LDS offset of the image (a
// multiple of 1024), u32 image bytes, the image, and the case's words (tests/it/wgmma_sim.rs:
// harness::case_words: desc A and desc B as two words each, start fields relative to the image,
// scale-d, then per thread A's registers and C). Output: per job, every thread's D registers on
// wave64, then on wave32.
#include "wgmma_check.h"
#include "wgmma_table.h"

namespace {
struct Job {
  wgmma_entry entry;
  uint64_t desc_a, desc_b;
  uint32_t scale_d, na, nd;
  const uint32_t* threads;  // per thread: A's registers, then C
  uint32_t* d;              // per thread: D's registers
  unsigned first;           // the wave's first thread in the warpgroup
};

void lane_body(int lane, void* env) {
  const Job* j = (const Job*)env;
  const unsigned t = j->first + (unsigned)lane;
  j->entry(j->desc_a, j->desc_b, j->scale_d, j->threads + t * (j->na + j->nd), j->d + t * j->nd);
}

// A descriptor whose start field (bits 0-13, 16-byte units) moves by `at` bytes.
uint64_t moved(uint64_t desc, uint32_t at) {
  const uint64_t start = (desc & 0x3fffu) + at / 16;
  if (start > 0x3fffu) {
    fprintf(stderr, "image at %#x: a start address leaves the descriptor's field\n", at);
    exit(2);
  }
  return (desc & ~(uint64_t)0x3fffu) | start;
}

bool read_words(FILE* in, void* p, size_t n) { return fread(p, 4, n, in) == n; }
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  FILE* in = fopen(argv[1], "rb");
  FILE* out = fopen(argv[2], "wb");
  if (!in || !out) return 2;
  uint32_t jobs;
  if (!read_words(in, &jobs, 1)) return 2;
  static uint32_t words[5 + 128 * (4 + 128)], d[128 * 128];
  for (uint32_t k = 0; k < jobs; k++) {
    uint32_t hdr[4];
    if (!read_words(in, hdr, 4)) return 2;
    const uint32_t entry = hdr[0], warpgroup = hdr[1], at = hdr[2], bytes = hdr[3];
    if (at % 1024 != 0 || bytes > wgmma_sim::kLdsBytes - at) return 2;
    memset(wgmma_sim::g_lds, 0xa5, sizeof wgmma_sim::g_lds);
    if (fread(wgmma_sim::g_lds + at, 1, bytes, in) != bytes) return 2;
    Job job;
    job.entry = entries[entry];
    job.na = a_regs[entry];
    job.nd = d_regs[entry];
    if (!read_words(in, words, 5 + 128 * (job.na + job.nd))) return 2;
    job.desc_a = moved(words[0] | (uint64_t)words[1] << 32, at);
    job.desc_b = moved(words[2] | (uint64_t)words[3] << 32, at);
    job.scale_d = words[4];
    job.threads = words + 5;
    job.d = d;
    for (int wave : {64, 32}) {
      for (unsigned t = 0; t < 128; t++)
        memcpy(d + t * job.nd, job.threads + t * (job.na + job.nd) + job.na, 4 * job.nd);
      wave_sim::g_block_dim = {128 * (warpgroup + 1), 1, 1};
      for (job.first = 0; job.first < 128; job.first += (unsigned)wave) {
        wave_sim::g_wave_first = (int)(128 * warpgroup + job.first);
        const uint64_t lanes = wave == 64 ? ~0ull : 0xffffffffull;
        if (const char* err = wave_sim::run(wave, lanes, lane_body, &job)) {
          fprintf(stderr, "job %u (entry %u, wave%d): %s\n", k, entry, wave, err);
          return 3;
        }
      }
      fwrite(d, 4, 128 * job.nd, out);
    }
  }
  fclose(out);
  fprintf(stderr, "%u cases, %ld cross-lane meetings\n", jobs, wave_sim::g.calls);
  return 0;
}
