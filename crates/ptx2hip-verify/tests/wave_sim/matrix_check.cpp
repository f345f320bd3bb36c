// The wave simulation of tests/it/matrix.rs: the `--target amd` translation of every mma form runs
// on the wave model of sim.h. matrix_forms.h is written by the test: the helpers, `form_<k>` per
// form and the tables `forms`, `in_words`, `out_words`. Input: wave jobs (see `jobs` in
// tests/it/matrix.rs); output: every lane's output words of every present half.
#include "sim.h"

// The integer dot-product instructions, lane-local (the test compiles this file with
// -D__gfx942__ or -D__gfx1100__ to run the helpers' code for those processors). AMD Instinct
// MI300 ISA, V_DOT4_I32_I8 / V_DOT4_U32_U8 / V_DOT8_I32_I4 / V_DOT8_U32_U4: D = S2 + the sum of
// the element products; RDNA3 ISA, V_DOT4_I32_IU8 / V_DOT8_I32_IU4: the same with a sign flag per
// operand. Without clamp the sum is modulo 2^32; the translations never clamp.
inline uint32_t wave_sim_dot(uint32_t a, bool sa, uint32_t b, bool sb, uint32_t c, int bits,
                             bool clamp) {
  if (clamp) abort();
  const uint32_t m = (1u << bits) - 1u, sign = 1u << (bits - 1);
  for (int i = 0; i < 32; i += bits) {
    uint32_t x = (a >> i) & m, y = (b >> i) & m;
    if (sa) x = (x ^ sign) - sign;
    if (sb) y = (y ^ sign) - sign;
    c += x * y;
  }
  return c;
}
inline int __builtin_amdgcn_sdot4(int a, int b, int c, bool cl) {
  return (int)wave_sim_dot(a, true, b, true, c, 8, cl);
}
inline unsigned __builtin_amdgcn_udot4(unsigned a, unsigned b, unsigned c, bool cl) {
  return wave_sim_dot(a, false, b, false, c, 8, cl);
}
inline int __builtin_amdgcn_sdot8(int a, int b, int c, bool cl) {
  return (int)wave_sim_dot(a, true, b, true, c, 4, cl);
}
inline unsigned __builtin_amdgcn_udot8(unsigned a, unsigned b, unsigned c, bool cl) {
  return wave_sim_dot(a, false, b, false, c, 4, cl);
}
inline int __builtin_amdgcn_sudot4(bool sa, int a, bool sb, int b, int c, bool cl) {
  return (int)wave_sim_dot(a, sa, b, sb, c, 8, cl);
}
inline int __builtin_amdgcn_sudot8(bool sa, int a, bool sb, int b, int c, bool cl) {
  return (int)wave_sim_dot(a, sa, b, sb, c, 4, cl);
}

#include "matrix_forms.h"

struct Job {
  unsigned form;
  const uint32_t* x[64];
  uint32_t* y[64];
};
static void lane_body(int lane, void* env) {
  Job* j = (Job*)env;
  forms[j->form](j->x[lane], j->y[lane]);
}
// Jobs: u32 count, then per job u32 form, u32 wave size, and per 32-lane half u32 present and,
// when present, 32 * in_words words. Output: per job and present half, 32 * out_words words.
int main(int argc, char** argv) {
  FILE* in = fopen(argv[1], "rb");
  FILE* out = fopen(argv[2], "wb");
  if (!in || !out) return 2;
  uint32_t n;
  if (fread(&n, 4, 1, in) != 1) return 2;
  static uint32_t xs[64 * 64], ys[64 * 16];
  for (uint32_t k = 0; k < n; k++) {
    uint32_t hdr[2];
    if (fread(hdr, 4, 2, in) != 2) return 2;
    Job job;
    job.form = hdr[0];
    const int size = (int)hdr[1];
    const unsigned iw = in_words[job.form], ow = out_words[job.form];
    uint64_t lanes = 0;
    bool present[2] = {false, false};
    memset(ys, 0, sizeof ys);
    for (int h = 0; h < size / 32; h++) {
      uint32_t p;
      if (fread(&p, 4, 1, in) != 1) return 2;
      present[h] = p != 0;
      if (!present[h]) continue;
      lanes |= 0xffffffffull << (32 * h);
      if (fread(xs + 32 * h * iw, 4, 32 * iw, in) != 32 * iw) return 2;
    }
    for (int l = 0; l < size; l++) {
      job.x[l] = xs + l * iw;
      job.y[l] = ys + l * ow;
    }
    const char* err = wave_sim::run(size, lanes, lane_body, &job);
    if (err) {
      fprintf(stderr, "job %u (form %u, wave%d): %s\n", k, job.form, size, err);
      return 3;
    }
    for (int h = 0; h < size / 32; h++)
      if (present[h]) fwrite(ys + 32 * h * ow, 4, 32 * ow, out);
  }
  fclose(out);
  fprintf(stderr, "%u waves, %ld cross-lane meetings\n", n, wave_sim::g.calls);
  return 0;
}
