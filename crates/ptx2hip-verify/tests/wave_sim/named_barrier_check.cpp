// tests/it/wave_sim.rs, `counted_barrier_arrivals_count_one_warp_per_active_half`: the AMD counted
// barrier helpers (rules/helpers/sync.h) on one wave of the lockstep model, after the translated
// statements `bar_sync(id, count)` and the helpers (included before this file by the test). A
// wave arrives for 32 threads per 32-lane half with an active lane (both halves of a wave64 in
// order: lower, then upper), whatever the number of active lanes; every case completes on the
// wave's own arrivals, so no lane waits for another wave (the model runs one wave).

static int failures = 0;
static void expect(bool ok, const char* what, long long got, long long want) {
  if (!ok && ++failures < 20)
    printf("wave%d: %s: got %lld, want %lld\n", wave_sim::g.size, what, got, want);
}

struct Case {
  uint32_t id, count;
};
static Case g_case;
static uint32_t g_generation[64];

static void sync_body(int, void*) { bar_sync(g_case.id, g_case.count); }
static void arrive_body(int lane, void*) {
  g_generation[lane] = ptx2hip_named_bar_arrive(g_case.id, g_case.count);
}

static uint32_t state(uint32_t id) { return ptx2hip_named_bar_state()[id]; }

int main() {
  for (int size : {64, 32}) {
    const uint64_t all = size == 64 ? ~0ull : 0xffffffffull;
    for (int i = 0; i < 16; i++) ptx2hip_named_bar_state()[i] = 0;
    // A whole wave completes a barrier of its own threads: one phase.
    g_case = {1, (uint32_t)size};
    expect(!wave_sim::run(size, all, sync_body, nullptr), "whole wave, own count", 1, 0);
    expect(state(1) == 1u << 16, "whole wave, own count: state", state(1), 1u << 16);
    // A barrier of one warp: a wave64 is two warps, which complete two phases in turn.
    g_case = {2, 32};
    expect(!wave_sim::run(size, all, sync_body, nullptr), "count 32", 1, 0);
    expect(state(2) == (uint32_t)(size / 32) << 16, "count 32: state", state(2), (size / 32) << 16);
    // A few lanes of one half arrive for that half's whole warp (exited lanes count in PTX).
    g_case = {3, 32};
    expect(!wave_sim::run(size, 0x00f000f0ull, sync_body, nullptr), "lanes 4-7, 20-23", 1, 0);
    expect(state(3) == 1u << 16, "lanes of one half: state", state(3), 1u << 16);
    if (size == 64) {
      // Only the upper half, and lanes in both halves (two warps).
      g_case = {4, 32};
      expect(!wave_sim::run(size, 0xffff000000000000ull, sync_body, nullptr), "upper half", 1, 0);
      expect(state(4) == 1u << 16, "upper half: state", state(4), 1u << 16);
      g_case = {5, 64};
      expect(!wave_sim::run(size, 0x0000000180000000ull, sync_body, nullptr), "lanes 31, 32", 1, 0);
      expect(state(5) == 1u << 16, "lanes 31 and 32: state", state(5), 1u << 16);
      // After another warp's arrival, a wave64 completes the phase with its lower half; its upper
      // half's arrival belongs to the next phase, as a second warp arriving after it would.
      ptx2hip_named_bar_state()[6] = 7u << 16 | 32u;
      g_case = {6, 64};
      expect(!wave_sim::run(size, all, arrive_body, nullptr), "arrive after another warp", 1, 0);
      expect(state(6) == (8u << 16 | 32u), "arrive after another warp: state", state(6),
             8u << 16 | 32u);
      for (int l = 0; l < 64; l++)
        expect(g_generation[l] == (l < 32 ? 7u : 8u), "the generation a lane's arrival belongs to",
               g_generation[l], l < 32 ? 7 : 8);
    }
  }
  printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
