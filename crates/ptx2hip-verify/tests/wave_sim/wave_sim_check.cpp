// The wave simulation of tests/it/wave_sim.rs: every recorded warp form's translation runs on the
// wave model of tests/wave_sim/sim.h. wave_sim_forms.h is written by the test: the value of
// `__builtin_constant_p`, the helpers, `form_<k>` per form and the tables `forms`, `in_words`,
// `out_words`. Input: wave jobs (see `jobs` in tests/it/wave_sim.rs); output: every lane's results.
#include "sim.h"

// Host shim for `--target portable` code: the lane registers read `threadIdx`, here a block that
// is one wave.
struct wave_sim_dim3 {
  unsigned x, y, z;
};
inline wave_sim_dim3 wave_sim_thread_idx() {
  return {(unsigned)wave_sim::lane_id_in_wave(), 0u, 0u};
}
inline wave_sim_dim3 wave_sim_block_dim() { return {(unsigned)wave_sim::g.size, 1u, 1u}; }
#define threadIdx (wave_sim_thread_idx())
#define blockDim (wave_sim_block_dim())

#include "wave_sim_forms.h"

struct Job {
  unsigned form;
  const uint32_t* x[64];
  uint32_t* y[64];
};
static void lane_body(int lane, void* env) {
  Job* j = (Job*)env;
  forms[j->form](j->x[lane], j->y[lane]);
}
// Jobs: u32 count, then per job u32 form, u32 wave size, and per 32-lane half
// u32 present, u32 active, 32 * in_words words. Output: per job and present half, 32 * out_words.
int main(int argc, char** argv) {
  FILE* in = fopen(argv[1], "rb");
  FILE* out = fopen(argv[2], "wb");
  if (!in || !out) return 2;
  uint32_t n;
  if (fread(&n, 4, 1, in) != 1) return 2;
  static uint32_t xs[64 * 8], ys[64 * 8];
  long meetings = 0;
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
      uint32_t ph[2];
      if (fread(ph, 4, 2, in) != 2) return 2;
      present[h] = ph[0] != 0;
      if (!present[h]) continue;
      lanes |= (uint64_t)ph[1] << (32 * h);
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
    meetings += wave_sim::g.calls;
    for (int h = 0; h < size / 32; h++)
      if (present[h]) fwrite(ys + 32 * h * ow, 4, 32 * ow, out);
  }
  fclose(out);
  fprintf(stderr, "%u waves, %ld cross-lane meetings\n", n, wave_sim::g.calls);
  return 0;
}
