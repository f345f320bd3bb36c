// Helpers of rules/control.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_trap
// trap: abort the kernel with an error the host sees. nvcc has no __builtin_trap in device code;
// CUDA spells it __trap() (the trap instruction), AMD __builtin_trap() (s_trap 2).
__device__ inline void ptx2hip_trap() {
#if defined(__HIP__)
  __builtin_trap();
#else
  __trap();
#endif
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_brkpt
// brkpt: a debugger breakpoint (AMD: s_trap 3).
__device__ inline void ptx2hip_brkpt() {
#if defined(__HIP__)
  __builtin_debugtrap();
#else
  __brkpt();
#endif
}
// ptx2hip:amd
// brkpt: a debugger breakpoint (s_trap 3).
__device__ inline void ptx2hip_brkpt() { __builtin_debugtrap(); }
// ptx2hip:end

// ptx2hip:helper ptx2hip_spin_watch requires=ptx2hip_trap
// The watchdog of a spin loop: a PTX loop around an mbarrier wait (src/lower/block/control.rs puts
// a call at the top of the loop's body) or a counted barrier's wait (ptx2hip_named_bar_sync): the
// first pass costs an increment, the second starts a clock,
// and a loop still spinning PTX2HIP_SPIN_LIMIT_SECONDS later (default 60; 0: never) prints where
// and traps, so that a hang (a waiter and its arriver in one AMD wave, a lost arrival) is an
// error the host sees rather than a kernel that never ends. nvcc: clock64() cycles, counted at
// 2 GHz (H100/H200 clocks are 1.6 to 2 GHz, so the limit is reached within 25 %); HIP: AMD's
// 100 MHz constant-rate counter.
#ifndef PTX2HIP_SPIN_LIMIT_SECONDS
#define PTX2HIP_SPIN_LIMIT_SECONDS 60
#endif
struct ptx2hip_spin {
  uint32_t passes;
  uint64_t start;
};
__device__ inline void ptx2hip_spin_watch(ptx2hip_spin& s, const char* file, int line) {
  if (PTX2HIP_SPIN_LIMIT_SECONDS == 0 || s.passes++ == 0) return;
#if defined(__HIP__)
  const uint64_t now = __builtin_readsteadycounter(), per_second = 100000000ull;
#else
  const uint64_t now = (uint64_t)clock64(), per_second = 2000000000ull;
#endif
  if (s.passes == 2) s.start = now;
  else if (now - s.start > (uint64_t)PTX2HIP_SPIN_LIMIT_SECONDS * per_second) {
    printf(
        "ptx2hip: %s:%d: a barrier wait has not completed in %d s (block %u,%u,%u thread "
        "%u,%u,%u): trap (PTX2HIP_SPIN_LIMIT_SECONDS sets the limit)\n",
        file, line, (int)PTX2HIP_SPIN_LIMIT_SECONDS, (unsigned)blockIdx.x, (unsigned)blockIdx.y,
        (unsigned)blockIdx.z, (unsigned)threadIdx.x, (unsigned)threadIdx.y, (unsigned)threadIdx.z);
    ptx2hip_trap();
  }
}
// ptx2hip:amd
// The watchdog of a PTX spin loop around an mbarrier wait (see the portable definition). The
// clock is the 100 MHz constant-rate counter (s_memrealtime on gfx9, the REALTIME message on
// gfx11).
#ifndef PTX2HIP_SPIN_LIMIT_SECONDS
#define PTX2HIP_SPIN_LIMIT_SECONDS 60
#endif
struct ptx2hip_spin {
  uint32_t passes;
  uint64_t start;
};
__device__ inline void ptx2hip_spin_watch(ptx2hip_spin& s, const char* file, int line) {
  if (PTX2HIP_SPIN_LIMIT_SECONDS == 0 || s.passes++ == 0) return;
  const uint64_t now = __builtin_readsteadycounter();
  if (s.passes == 2) s.start = now;
  else if (now - s.start > (uint64_t)PTX2HIP_SPIN_LIMIT_SECONDS * 100000000ull) {
    printf(
        "ptx2hip: %s:%d: a barrier wait has not completed in %d s (block %u,%u,%u thread "
        "%u,%u,%u): trap (PTX2HIP_SPIN_LIMIT_SECONDS sets the limit)\n",
        file, line, (int)PTX2HIP_SPIN_LIMIT_SECONDS, (unsigned)blockIdx.x, (unsigned)blockIdx.y,
        (unsigned)blockIdx.z, (unsigned)threadIdx.x, (unsigned)threadIdx.y, (unsigned)threadIdx.z);
    ptx2hip_trap();
  }
}
// ptx2hip:end
