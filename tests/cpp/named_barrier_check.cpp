// The checks of tests/it/models_named_barriers.rs, after the translated statements `bar_sync(id,
// count)` (barrier.sync id, count) and `bar_arrive(id, count)` (bar.arrive id, count) and their
// helpers. Each arriving unit is a host thread (named_barrier_model.h).

// The state word's transition against the reference, one or two warps at once (a wave64 with both
// halves active arrives as its lower warp, then its upper one), over every count and arrival count.
static void next_matches_the_reference() {
  current = "ptx2hip_named_bar_next";
  for (uint32_t count = 32; count <= 1024; count += 32)
    for (uint32_t arrived = 0; arrived < count; arrived += 32)
      for (uint32_t generation : {0u, 1u, 0x7fffu, 0xffffu})
        for (uint32_t warps = 1; warps <= 2; ++warps) {
          RefBarrier ref{arrived, generation};
          uint32_t want = 0;
          for (uint32_t k = 0; k < warps; ++k) want |= ref.arrive(count) << (16 * k);
          uint32_t phases = 0;
          const uint32_t w =
              ptx2hip_named_bar_next(generation << 16 | arrived, warps, count, &phases);
          EXPECT(w == (ref.phase << 16 | ref.arrived), "state", w, ref.phase << 16 | ref.arrived);
          EXPECT(phases == want, "phases", phases, want);
        }
}

// A producer warp and consumer warpgroups through a two-stage ring for many phases: the producer
// fills a stage and arrives on its "full" barrier (bar.arrive), the consumers wait on it
// (barrier.sync), read, and arrive on its "empty" barrier, which the producer waits on; the
// consumers also meet on a barrier of their own, and every unit meets a one-warp barrier (count
// 32) at the same time as the others (a wave64 of two warps completes two phases there). Each
// entry of `consumer_warps` (and `producer_warps`) is how many PTX warps a unit stands for: 1, or
// 2 for a wave64 with both halves active (AMD target).
static void ring(const char* name, const std::vector<uint32_t>& consumer_warps,
                 uint32_t producer_warps) {
  current = name;
  constexpr int kRounds = 1000;
  uint32_t consumers = 0;
  for (uint32_t w : consumer_warps) consumers += 32 * w;
  const uint32_t count = 32 * producer_warps + consumers;
  std::vector<std::atomic<uint32_t>> stage(2);
  std::atomic<int> bad{0};
  ptx2hip_named_bar_init();
  auto exec_of = [](uint32_t warps) { return warps == 2 ? ~0ull : 1ull; };
  std::vector<std::thread> threads;
  threads.emplace_back([&] {
    model_exec = exec_of(producer_warps);
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % 2;
      if (r >= 2) bar_sync(3 + s, count);
      stage[s].store((uint32_t)r * 7u + 1u, std::memory_order_relaxed);
      bar_sync(9, 32);
      bar_arrive(1 + s, count);
    }
  });
  for (size_t c = 0; c < consumer_warps.size(); ++c)
    threads.emplace_back([&, c] {
      model_exec = exec_of(consumer_warps[c]);
      for (int r = 0; r < kRounds; ++r) {
        const int s = r % 2;
        bar_sync(1 + s, count);
        if (stage[s].load(std::memory_order_relaxed) != (uint32_t)r * 7u + 1u) bad++;
        if (r < kRounds - 2) bar_arrive(3 + s, count);
        bar_sync(5, consumers);
        bar_sync(9, 32);
      }
    });
  for (auto& t : threads) t.join();
  EXPECT(bad.load() == 0, "stale stage reads", bad.load(), 0);
  for (int id : {1, 2, 5, 9}) {
    const uint32_t w = ptx2hip_named_bar_state()[id];
    EXPECT((w & 0xffffu) == 0, "arrivals left over", id, w);
  }
}

int main() {
  next_matches_the_reference();
  // One producer warp and 8 consumer warps (two warpgroups), each unit one warp.
  ring("ring, warps", {1, 1, 1, 1, 1, 1, 1, 1}, 1);
#if defined(PTX2HIP_MODEL_AMD)
  // wave64: a producer wave of two warps, consumer waves of two warps and single half-waves.
  ring("ring, wave64 halves", {2, 2, 1, 1, 2}, 2);
#endif
  printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
