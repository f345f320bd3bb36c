// Helpers of rules/cluster.toml (markers: rules/README.md, "Helpers"): clusters of one.

// ptx2hip:helper ptx2hip_mapa_own requires=ptx2hip_trap
// mapa in a launch without clusters: rank 0 is the executing CTA, whose .shared::cluster (or
// generic) addresses are the addresses themselves; any other rank names no CTA and traps.
template <class T>
__device__ inline T ptx2hip_mapa_own(T addr, uint32_t rank) {
  if (rank != 0) ptx2hip_trap();
  return addr;
}
// ptx2hip:end
