// The mbarrier checks of tests/it/models_async.rs, included after the translated statements (one
// function per statement, named below: init(bar, count), arrive(state, bar), ...; a predicate
// result comes back as 0/1) for one target.
//
// 1. A single thread drives one object through random operations (arrivals of several counts,
//    arrive_drop, expect_tx/complete_tx in both orders, cp.async arrivals) and compares every wait
//    answer and every pending_count with the PTX reference model.
// 2. A ring pipeline with real threads: producers fill stages and arrive on each stage's "full"
//    object (with expect_tx + complete_tx, plain arrive, or cp.async.mbarrier.arrive.noinc),
//    consumers spin on try_wait.parity (a PTX `bra` loop, a loop around try_wait, test_wait),
//    sum the stage and arrive on its "empty" object, which producers wait on. Every consumer's
//    sum of every stage is checked.

static void sequential_against_the_reference(char* smem) {
  current = "sequential";
  uint32_t bar = window(smem);
  Rng rng;
  long checks = 0;
  for (int round = 0; round < 200; ++round) {
    RefBarrier ref;
    uint32_t count = 1 + rng.next(40);
    init(bar, count);
    ref.init(count);
    for (int step = 0; step < 2000; ++step) {
      uint64_t state = 0;
      uint32_t op = rng.next(9), b = 1 + rng.next(4096);
      // With no arrival pending (bytes still expected) only transactions are allowed.
      if (ref.pending == 0) op = 5;
      uint32_t n = 1 + rng.next(ref.pending == 0 ? 1 : ref.pending);
      switch (op) {
        case 0: arrive(state, bar), ref.arrive(1, false); break;
        case 1: arrive_count(state, bar, n), ref.arrive(n, false); break;
        case 2:
          if (n < ref.pending || ref.tx != 0) {
            // The token is the state before the arrival: pending_count reads the count before it.
            const uint32_t before = ref.pending;
            arrive_nocomplete(state, bar, n), ref.arrive(n, false);
            uint32_t pending = 0;
            pending_count(pending, state);
            EXPECT(pending == before, "pending_count", pending, before);
          }
          break;
        case 3: arrive_expect_tx(state, bar, b), ref.expect_tx(b), ref.arrive(1, false); break;
        case 4: expect_tx(bar, b), ref.expect_tx(b); break;
        case 5:
          if (ref.tx > 0) {
            uint32_t c = 1 + rng.next((uint32_t)ref.tx);
            complete_tx(bar, c), ref.complete_tx(c);
          } else {
            // complete_tx before its expect_tx: the count goes negative, then back.
            complete_tx(bar, b), ref.complete_tx(b);
            expect_tx(bar, b), ref.expect_tx(b), ref.settle();
          }
          break;
        case 6:
          if (ref.expected > 1) arrive_drop(state, bar), ref.arrive(1, true);
          break;
        case 7: cp_arrive(bar); break;  // no net change
        case 8: cp_arrive_noinc(bar), ref.arrive(1, false); break;
      }
      for (uint32_t parity = 0; parity < 2; ++parity) {
        uint32_t t = 0, w = 0;
        test_parity(t, bar, parity);
        try_parity(w, bar, parity);
        EXPECT(t == ref.done(parity), "test_wait.parity", parity, ref.phase);
        EXPECT(w == ref.done(parity), "try_wait.parity", parity, ref.phase);
        checks += 2;
      }
      if (op <= 3) {
        // The token waits for the phase it arrived on: done exactly when that phase completed.
        uint32_t t = 0, w = 0;
        test_wait(t, bar, state);
        try_wait_hint(w, bar, state, 1000u);
        bool arrived_on_done = ref.phase != (uint32_t)(state >> 63);
        EXPECT(t == arrived_on_done, "test_wait token", t, ref.phase);
        EXPECT(w == arrived_on_done, "try_wait token", w, ref.phase);
        checks += 2;
      }
    }
    inval(bar);
  }
  printf("sequential: %ld wait answers checked\n", checks);
}

// 400 rounds: each stage's phase completes 100 times. Six threads spin on however few cores the
// machine has (the portable try_wait polls without sleeping): 3000 rounds took 21 s of CPU on two.
enum { STAGES = 4, PRODUCERS = 3, CONSUMERS = 3, ITERS = 400 };

struct Ring {
  uint64_t full[STAGES], empty[STAGES];
  volatile uint32_t data[STAGES][PRODUCERS];
};

static uint32_t value(int it, int p) {
  return (uint32_t)(it * 2654435761u) ^ (uint32_t)(p * 40503u);
}

static void producer(Ring* r, int p) {
  for (int it = 0; it < ITERS; ++it) {
    int s = it % STAGES;
    uint32_t parity = (uint32_t)(it / STAGES) & 1u;
    uint32_t ok = 0;
    // The stage is free once the consumers released its previous use (parity ^ 1: the first
    // round passes at once, as CUTLASS's producer start state does).
    do try_parity(ok, window(&r->empty[s]), parity ^ 1u);
    while (!ok);
    r->data[s][p] = value(it, p);
    uint64_t state = 0;
    if (p == 0) {
      arrive_expect_tx(state, window(&r->full[s]), 4u);
      complete_tx(window(&r->full[s]), 4u);
    } else if (p == 1) {
      arrive(state, window(&r->full[s]));
    } else {
      cp_arrive_noinc(window(&r->full[s]));
    }
  }
}

static void consumer(Ring* r, int c, long* errors) {
  for (int it = 0; it < ITERS; ++it) {
    int s = it % STAGES;
    uint32_t parity = (uint32_t)(it / STAGES) & 1u;
    if (c == 0) {
      spin_parity(window(&r->full[s]), parity);
    } else {
      uint32_t ok = 0;
      do
        (c == 1 ? try_parity(ok, window(&r->full[s]), parity)
                : test_parity(ok, window(&r->full[s]), parity));
      while (!ok);
    }
    uint32_t sum = 0, want = 0;
    for (int p = 0; p < PRODUCERS; ++p) sum += r->data[s][p], want += value(it, p);
    if (sum != want) ++*errors;
    uint64_t state = 0;
    arrive(state, window(&r->empty[s]));
  }
}

static void ring_with_threads(char* smem) {
  current = "ring";
  Ring* r = (Ring*)smem;
  for (int s = 0; s < STAGES; ++s) {
    init(window(&r->full[s]), PRODUCERS);
    init(window(&r->empty[s]), CONSUMERS);
  }
  long errors[CONSUMERS] = {};
  std::vector<std::thread> threads;
  for (int p = 0; p < PRODUCERS; ++p) threads.emplace_back(producer, r, p);
  for (int c = 0; c < CONSUMERS; ++c) threads.emplace_back(consumer, r, c, &errors[c]);
  for (auto& t : threads) t.join();
  long total = 0;
  for (long e : errors) total += e;
  EXPECT(total == 0, "stage sums wrong", total, 0);
  printf("ring: %d producers, %d consumers, %d stages, %d iterations: %ld errors\n", PRODUCERS,
         CONSUMERS, STAGES, ITERS, total);
}

int main() {
  char* smem = shared_arena(1 << 16);
  sequential_against_the_reference(smem);
  ring_with_threads(smem + 4096);
  printf("failures: %d\n", failures);
  return failures != 0;
}
