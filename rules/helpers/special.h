// Helpers of rules/special.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_clock64
// %clock64: a 64-bit counter that wraps only at 2^64: s_memtime where it exists, else (gfx11) the
// 64-bit constant-rate counter, since the 20-bit SHADER_CYCLES register wraps within a millisecond.
__device__ inline uint64_t ptx2hip_clock64() {
#if !defined(__HIP__)
  return (uint64_t)clock64();
#elif __has_builtin(__builtin_amdgcn_s_memtime)
  return __builtin_amdgcn_s_memtime();
#else
  return __builtin_readsteadycounter();
#endif
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_warpid
// %warpid: unique within the block and the same across a warp (32 consecutive linear thread
// indices, also on wave64 where a wave holds two warps).
__device__ inline uint32_t ptx2hip_warpid() {
  return (uint32_t)((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) / 32u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_smid
// %smid: the SM (AMD: the compute unit, as HIP's __smid() packs it) the thread runs on.
__device__ inline uint32_t ptx2hip_smid() {
#if defined(__HIP__)
  return (uint32_t)__smid();
#else
  uint32_t r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
#endif
}
// ptx2hip:amd
// %smid: the compute unit the wave runs on, as HIP's __smid() packs it (not contiguous).
__device__ inline uint32_t ptx2hip_smid() { return (uint32_t)__smid(); }
// ptx2hip:end

// ptx2hip:helper ptx2hip_globaltimer
// %globaltimer in nanoseconds. AMD: the constant-rate counter, 25 MHz on gfx9 before gfx940
// (gfx90a), 100 MHz on gfx940-gfx942 and gfx10+; the exact rate is hipDeviceAttributeWallClockRate.
__device__ inline uint64_t ptx2hip_globaltimer() {
#if defined(__HIP__)
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__) || defined(__gfx950__) || \
    !defined(__GFX9__)
  return __builtin_readsteadycounter() * 10u;
#else
  return __builtin_readsteadycounter() * 40u;
#endif
#else
  uint64_t r;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r));
  return r;
#endif
}
// ptx2hip:amd
// %globaltimer in nanoseconds from the constant-rate counter (s_memrealtime on gfx9, s_sendmsg_rtn
// REALTIME on gfx11): 25 MHz on gfx9 before gfx940 (gfx90a), 100 MHz on gfx940-gfx942 and gfx10+;
// the exact rate is a board property, hipDeviceAttributeWallClockRate.
__device__ inline uint64_t ptx2hip_globaltimer() {
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__) || defined(__gfx950__) || \
    !defined(__GFX9__)
  return __builtin_readsteadycounter() * 10u;
#else
  return __builtin_readsteadycounter() * 40u;
#endif
}
// ptx2hip:end
