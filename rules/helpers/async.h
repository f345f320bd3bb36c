// Helpers of rules/async.toml: mbarrier objects emulated in their own 8 bytes of shared memory.
//
// The state word (our layout; PTX leaves the object opaque and bounds its counts by 2^20 - 1):
//   bits  0..19  pending arrivals of the current phase
//   bits 20..39  expected arrivals of every phase (init's count, lowered by arrive_drop)
//   bits 40..60  tx-count, 21-bit two's complement (complete_tx may run before expect_tx)
//   bit  63      phase parity (0 after init)
// Every update is one 64-bit compare-and-swap that also completes the phase: when pending
// arrivals and tx-count are both zero, the parity flips and pending arrivals restart at the
// expected count. Waits compare the parity with the one they wait on.

// ptx2hip:helper ptx2hip_mbar_next
// The state word after `arrivals` arrivals, `drops` of them also dropped from the expected count
// (arrive_drop), and `tx` added to the tx-count (expect_tx: +, complete_tx: -), with the phase
// completed when nothing is pending.
__device__ inline uint64_t ptx2hip_mbar_next(uint64_t w, uint32_t arrivals, uint32_t drops,
                                             int32_t tx) {
  uint32_t pending = ((uint32_t)w - arrivals) & 0xfffffu;
  uint32_t expected = ((uint32_t)(w >> 20) - drops) & 0xfffffu;
  int32_t tx_count = ((int32_t)((uint32_t)(w >> 40) << 11) >> 11) + tx;
  uint64_t phase = w >> 63;
  if (pending == 0 && tx_count == 0) {
    phase ^= 1;
    pending = expected;
  }
  return (uint64_t)pending | (uint64_t)expected << 20 |
         (uint64_t)((uint32_t)tx_count & 0x1fffffu) << 40 | phase << 63;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mbar_init
// mbarrier.init: phase 0, `count` pending and expected arrivals, tx-count 0. A plain store, as
// PTX's init is (other threads see it after a barrier or fence.mbarrier_init).
__device__ inline void ptx2hip_mbar_init(void* bar, uint32_t count) {
  *(volatile uint64_t*)bar = (uint64_t)(count & 0xfffffu) * 0x100001u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mbar_inval
// mbarrier.inval: the 8 bytes may be reused for anything; zero them, a word no phase has.
__device__ inline void ptx2hip_mbar_inval(void* bar) { *(volatile uint64_t*)bar = 0; }
// ptx2hip:end

// ptx2hip:helper ptx2hip_mbar_update requires=ptx2hip_mbar_next
// One update with release semantics at CTA scope (a fence, then the compare-and-swap loop).
// Returns the state token of mbarrier.arrive: the word before the update (PTX: the state prior to
// the arrive-on operation), so that test_wait on the token waits for the phase the arrival belongs
// to and pending_count of a token reads the arrivals pending before it — as the H100 answers
// (an H200 run of 473,565 answers, native against this emulation: VERIFICATION.md).
__device__ inline uint64_t ptx2hip_mbar_update(void* bar, uint32_t arrivals, uint32_t drops,
                                               int32_t tx) {
  unsigned long long* p = (unsigned long long*)bar;
  __threadfence_block();
  unsigned long long old = *(volatile unsigned long long*)p;
  for (;;) {
    unsigned long long seen =
        atomicCAS(p, old, (unsigned long long)ptx2hip_mbar_next(old, arrivals, drops, tx));
    if (seen == old) break;
    old = seen;
  }
  return old;
}
// ptx2hip:amd
// One update with release semantics at workgroup scope: a 64-bit LDS compare-and-swap loop
// (ds_cmpst_rtn_b64 on gfx9, ds_cmpstore_rtn_b64 on gfx11). Returns the state token (see the
// portable definition).
__device__ inline uint64_t ptx2hip_mbar_update(void* bar, uint32_t arrivals, uint32_t drops,
                                               int32_t tx) {
  uint64_t* p = (uint64_t*)bar;
  uint64_t old = __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  while (!__hip_atomic_compare_exchange_weak(p, &old, ptx2hip_mbar_next(old, arrivals, drops, tx),
                                             __ATOMIC_RELEASE, __ATOMIC_RELAXED,
                                             __HIP_MEMORY_SCOPE_WORKGROUP)) {}
  return old;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mbar_test_parity
// Whether the phase of parity `parity` has completed, i.e. the object's parity differs from it;
// acquire at CTA scope when it has. Never blocks.
__device__ inline bool ptx2hip_mbar_test_parity(const void* bar, uint32_t parity) {
  uint64_t w = *(const volatile unsigned long long*)bar;
  bool done = (uint32_t)(w >> 63) != (parity & 1u);
  if (done) __threadfence_block();
  return done;
}
// ptx2hip:amd
// Whether the phase of parity `parity` has completed; acquire at workgroup scope when it has.
__device__ inline bool ptx2hip_mbar_test_parity(const void* bar, uint32_t parity) {
  uint64_t w =
      __hip_atomic_load((const uint64_t*)bar, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  bool done = (uint32_t)(w >> 63) != (parity & 1u);
  if (done) __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  return done;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mbar_try_parity requires=ptx2hip_mbar_test_parity
// try_wait: polls a bounded number of times, then reports "not yet" as PTX allows when its time
// limit runs out (callers loop). The wait is a few microseconds, like the hardware's.
__device__ inline bool ptx2hip_mbar_try_parity(const void* bar, uint32_t parity) {
  for (int i = 0; i < 1024; ++i)
    if (ptx2hip_mbar_test_parity(bar, parity)) return true;
  return false;
}
// ptx2hip:amd
// try_wait: polls a bounded number of times, sleeping between polls so that the arriving waves of
// the workgroup get the SIMD, then reports "not yet" as PTX allows when its time limit runs out.
__device__ inline bool ptx2hip_mbar_try_parity(const void* bar, uint32_t parity) {
  for (int i = 0; i < 256; ++i) {
    if (ptx2hip_mbar_test_parity(bar, parity)) return true;
    __builtin_amdgcn_s_sleep(1);
  }
  return false;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_mbar_pending
// mbarrier.pending_count of a state token: its pending arrivals.
__device__ inline uint32_t ptx2hip_mbar_pending(uint64_t state) {
  return (uint32_t)state & 0xfffffu;
}
// ptx2hip:end
