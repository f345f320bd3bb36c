// tests/it/wave_sim.rs, `divergent_cross_lane_calls_are_reported`: lanes that reach different
// cross-lane calls make the model report it instead of making up a result.
#include "sim.h"
static void body(int lane, void*) {
  if (lane & 1) (void)__builtin_amdgcn_ballot_w64(true);
  else (void)__builtin_amdgcn_ballot_w64(false);
}
int main() {
  const char* e = wave_sim::run(64, ~0ull, body, nullptr);
  if (!e) return 1;
  puts(e);
  return 0;
}
