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
