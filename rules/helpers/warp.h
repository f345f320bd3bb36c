// Helpers of rules/warp.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_lane_id
// %laneid: warps are formed from consecutive linear thread indices on NVIDIA and AMD alike.
__device__ inline uint32_t ptx2hip_lane_id() {
  return (uint32_t)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u;
}
// ptx2hip:amd
// %laneid: the lane in the thread's 32-lane PTX warp (on wave64, in its half of the wave).
__device__ inline uint32_t ptx2hip_lane_id() { return __lane_id() & 31u; }
// ptx2hip:end

// ptx2hip:helper ptx2hip_warp_base
// ptx2hip:amd
// First lane of this lane's PTX warp in its wave: 0, or 32 in the upper half of a wave64.
// v_mbcnt_lo(~0, 0) counts the set bits below the lane in the low 32: every upper-half lane
// counts 32, and on wave32 every lane counts less than 32, so the expression is right for both
// wave sizes; where the compiler says the wave has 32 lanes it is simply 0.
__device__ inline uint32_t ptx2hip_warp_base() {
#if defined(__AMDGCN_WAVEFRONT_SIZE) && __AMDGCN_WAVEFRONT_SIZE == 32
  return 0u;
#else
  return __builtin_amdgcn_mbcnt_lo(~0u, 0u) & 32u;
#endif
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_warp_ballot requires=ptx2hip_warp_base
// ptx2hip:amd
// Lanes of this lane's PTX warp that execute this call with p true: the wave's 64-bit ballot cut
// to the lane's 32-lane half (on wave32 the 64-bit ballot is the 32-bit one, zero-extended).
__device__ inline uint32_t ptx2hip_warp_ballot(bool p) {
  return (uint32_t)(__builtin_amdgcn_ballot_w64(p) >> ptx2hip_warp_base());
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_warp_read requires=ptx2hip_warp_base
// ptx2hip:amd
// The value of a in lane j (0..31) of this lane's PTX warp (ds_bpermute_b32; an inactive lane
// reads as 0).
__device__ inline uint32_t ptx2hip_warp_read(uint32_t a, uint32_t j) {
  return (uint32_t)__builtin_amdgcn_ds_bpermute((int)((j + ptx2hip_warp_base()) << 2), (int)a);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_warp_swizzle requires=ptx2hip_warp_read
// ptx2hip:amd
// The value of a in lane ((L & and_mask) | or_mask) ^ xor_mask of this lane's PTX warp, with
// offset = and_mask | or_mask << 5 | xor_mask << 10 (each 5 bits): the bit mode of
// ds_swizzle_b32, which acts on each group of 32 lanes of the wave by itself. The instruction
// needs its offset as an immediate: for a constant offset the switch folds to one DPP move (the
// patterns a row of 16 lanes can do: xor 1, 2, 3, 7, 8, 15) or one ds_swizzle_b32; other offsets
// read through ds_bpermute_b32.
__device__ inline uint32_t ptx2hip_warp_swizzle(uint32_t a, uint32_t offset) {
  const int x = (int)a;
  if (__builtin_constant_p(offset)) {
    switch (offset) {
      case 0x001fu: return a;
      case 0x041fu: return (uint32_t)__builtin_amdgcn_update_dpp(x, x, 0xb1, 0xf, 0xf, false);
      case 0x081fu: return (uint32_t)__builtin_amdgcn_update_dpp(x, x, 0x4e, 0xf, 0xf, false);
      case 0x0c1fu: return (uint32_t)__builtin_amdgcn_update_dpp(x, x, 0x1b, 0xf, 0xf, false);
      case 0x1c1fu: return (uint32_t)__builtin_amdgcn_update_dpp(x, x, 0x141, 0xf, 0xf, false);
      case 0x201fu: return (uint32_t)__builtin_amdgcn_update_dpp(x, x, 0x128, 0xf, 0xf, false);
      case 0x3c1fu: return (uint32_t)__builtin_amdgcn_update_dpp(x, x, 0x140, 0xf, 0xf, false);
      case 0x101fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x101f);
      case 0x141fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x141f);
      case 0x181fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x181f);
      case 0x241fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x241f);
      case 0x281fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x281f);
      case 0x2c1fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x2c1f);
      case 0x301fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x301f);
      case 0x341fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x341f);
      case 0x381fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x381f);
      case 0x401fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x401f);
      case 0x441fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x441f);
      case 0x481fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x481f);
      case 0x4c1fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x4c1f);
      case 0x501fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x501f);
      case 0x541fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x541f);
      case 0x581fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x581f);
      case 0x5c1fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x5c1f);
      case 0x601fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x601f);
      case 0x641fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x641f);
      case 0x681fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x681f);
      case 0x6c1fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x6c1f);
      case 0x701fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x701f);
      case 0x741fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x741f);
      case 0x781fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x781f);
      case 0x7c1fu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x7c1f);
      case 0x0000u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0000);
      case 0x0020u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0020);
      case 0x0040u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0040);
      case 0x0060u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0060);
      case 0x0080u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0080);
      case 0x00a0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x00a0);
      case 0x00c0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x00c0);
      case 0x00e0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x00e0);
      case 0x0100u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0100);
      case 0x0120u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0120);
      case 0x0140u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0140);
      case 0x0160u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0160);
      case 0x0180u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0180);
      case 0x01a0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x01a0);
      case 0x01c0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x01c0);
      case 0x01e0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x01e0);
      case 0x0200u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0200);
      case 0x0220u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0220);
      case 0x0240u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0240);
      case 0x0260u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0260);
      case 0x0280u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0280);
      case 0x02a0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x02a0);
      case 0x02c0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x02c0);
      case 0x02e0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x02e0);
      case 0x0300u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0300);
      case 0x0320u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0320);
      case 0x0340u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0340);
      case 0x0360u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0360);
      case 0x0380u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0380);
      case 0x03a0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x03a0);
      case 0x03c0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x03c0);
      case 0x03e0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x03e0);
      case 0x0010u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0010);
      case 0x0030u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0030);
      case 0x0050u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0050);
      case 0x0070u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0070);
      case 0x0090u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0090);
      case 0x00b0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x00b0);
      case 0x00d0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x00d0);
      case 0x00f0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x00f0);
      case 0x0110u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0110);
      case 0x0130u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0130);
      case 0x0150u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0150);
      case 0x0170u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0170);
      case 0x0190u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0190);
      case 0x01b0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x01b0);
      case 0x01d0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x01d0);
      case 0x01f0u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x01f0);
      case 0x0018u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0018);
      case 0x0038u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0038);
      case 0x0058u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0058);
      case 0x0078u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0078);
      case 0x0098u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x0098);
      case 0x00b8u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x00b8);
      case 0x00d8u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x00d8);
      case 0x00f8u: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x00f8);
      case 0x001cu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x001c);
      case 0x003cu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x003c);
      case 0x005cu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x005c);
      case 0x007cu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x007c);
      case 0x001eu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x001e);
      case 0x003eu: return (uint32_t)__builtin_amdgcn_ds_swizzle(x, 0x003e);
      default: break;
    }
  }
  const uint32_t lane = __lane_id() & 31u;
  const uint32_t j = ((lane & offset) | ((offset >> 5) & 31u)) ^ ((offset >> 10) & 31u);
  return ptx2hip_warp_read(a, j);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_shfl_up requires=ptx2hip_warp_read
// ptx2hip:amd
// shfl up: j = L - (b & 31), in range when j >= maxLane (the PTX source-lane rule); out of
// range, the lane reads its own value.
__device__ inline uint32_t ptx2hip_shfl_up(uint32_t a, uint32_t b, uint32_t c, bool* p) {
  const uint32_t lane = __lane_id() & 31u, seg = (c >> 8) & 31u;
  const uint32_t max_lane = (lane & seg) | (c & 31u & ~seg);
  const int j = (int)lane - (int)(b & 31u);
  const bool ok = j >= (int)max_lane;
  if (p) *p = ok;
  return ptx2hip_warp_read(a, ok ? (uint32_t)j : lane);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_shfl_down requires=ptx2hip_warp_read
// ptx2hip:amd
// shfl down: j = L + (b & 31), in range when j <= maxLane.
__device__ inline uint32_t ptx2hip_shfl_down(uint32_t a, uint32_t b, uint32_t c, bool* p) {
  const uint32_t lane = __lane_id() & 31u, seg = (c >> 8) & 31u;
  const uint32_t max_lane = (lane & seg) | (c & 31u & ~seg);
  const uint32_t j = lane + (b & 31u);
  const bool ok = j <= max_lane;
  if (p) *p = ok;
  return ptx2hip_warp_read(a, ok ? j : lane);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_shfl_bfly requires=ptx2hip_warp_read,ptx2hip_warp_swizzle
// ptx2hip:amd
// shfl bfly: j = L ^ (b & 31), in range when j <= maxLane. A constant b is a fixed lane
// permutation within every 32-lane group: one DPP move or ds_swizzle_b32.
__device__ inline uint32_t ptx2hip_shfl_bfly(uint32_t a, uint32_t b, uint32_t c, bool* p) {
  const uint32_t lane = __lane_id() & 31u, seg = (c >> 8) & 31u;
  const uint32_t max_lane = (lane & seg) | (c & 31u & ~seg);
  const uint32_t j = lane ^ (b & 31u);
  const bool ok = j <= max_lane;
  if (p) *p = ok;
  const uint32_t v = __builtin_constant_p(b & 31u)
                         ? ptx2hip_warp_swizzle(a, 0x1fu | ((b & 31u) << 10))
                         : ptx2hip_warp_read(a, j);
  return ok ? v : a;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_shfl_idx requires=ptx2hip_warp_read,ptx2hip_warp_swizzle
// ptx2hip:amd
// shfl idx: j = minLane | (b & 31 & ~seg), in range when j <= maxLane. Constant b and c are a
// fixed pattern within every 32-lane group: ds_swizzle_b32 keeps the segment bits of the lane
// (and_mask = seg) and sets the others from b (or_mask).
__device__ inline uint32_t ptx2hip_shfl_idx(uint32_t a, uint32_t b, uint32_t c, bool* p) {
  const uint32_t lane = __lane_id() & 31u, seg = (c >> 8) & 31u;
  const uint32_t max_lane = (lane & seg) | (c & 31u & ~seg);
  const uint32_t j = (lane & seg) | (b & 31u & ~seg);
  const bool ok = j <= max_lane;
  if (p) *p = ok;
  const uint32_t v = __builtin_constant_p(seg | (b & 31u & ~seg))
                         ? ptx2hip_warp_swizzle(a, seg | ((b & 31u & ~seg) << 5))
                         : ptx2hip_warp_read(a, j);
  return ok ? v : a;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_vote_any requires=ptx2hip_warp_ballot
// ptx2hip:amd
__device__ inline bool ptx2hip_vote_any(bool a, uint32_t m) {
  return (ptx2hip_warp_ballot(a) & m) != 0u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_vote_all requires=ptx2hip_warp_ballot
// ptx2hip:amd
// all: no executing lane of m has a false.
__device__ inline bool ptx2hip_vote_all(bool a, uint32_t m) {
  return (ptx2hip_warp_ballot(!a) & m) == 0u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_vote_uni requires=ptx2hip_warp_ballot
// ptx2hip:amd
// uni: the executing lanes of m all have a true, or all false.
__device__ inline bool ptx2hip_vote_uni(bool a, uint32_t m) {
  const uint32_t yes = ptx2hip_warp_ballot(a) & m;
  return yes == 0u || yes == (ptx2hip_warp_ballot(true) & m);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_match_any_b32 requires=ptx2hip_warp_base
// ptx2hip:amd
// match.any: one pass per distinct value of each 32-lane warp, the loop uniform for the wave:
// the lowest remaining lane's value (v_readlane), the lanes of its half holding it (ballot).
__device__ inline uint32_t ptx2hip_match_any_b32(uint32_t a, uint32_t m) {
  const uint32_t base = ptx2hip_warp_base();
  uint64_t todo = __builtin_amdgcn_ballot_w64(true);
  uint32_t mask = 0u;
  while (todo != 0u) {
    const uint32_t leader = (uint32_t)__builtin_ctzll(todo);
    const uint32_t value = (uint32_t)__builtin_amdgcn_readlane((int)a, (int)leader);
    const uint32_t half = leader & 32u;
    const uint64_t same = __builtin_amdgcn_ballot_w64(a == value) & (0xffffffffull << half);
    if (half == base && a == value) mask = (uint32_t)(same >> half);
    todo &= ~same;
  }
  return mask & m;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_match_any_b64 requires=ptx2hip_warp_base
// ptx2hip:amd
// match.any.b64: as the b32 form, comparing both words.
__device__ inline uint32_t ptx2hip_match_any_b64(uint64_t a, uint32_t m) {
  const uint32_t base = ptx2hip_warp_base();
  const uint32_t lo = (uint32_t)a, hi = (uint32_t)(a >> 32);
  uint64_t todo = __builtin_amdgcn_ballot_w64(true);
  uint32_t mask = 0u;
  while (todo != 0u) {
    const uint32_t leader = (uint32_t)__builtin_ctzll(todo);
    const uint32_t vlo = (uint32_t)__builtin_amdgcn_readlane((int)lo, (int)leader);
    const uint32_t vhi = (uint32_t)__builtin_amdgcn_readlane((int)hi, (int)leader);
    const bool equal = lo == vlo && hi == vhi;
    const uint32_t half = leader & 32u;
    const uint64_t same = __builtin_amdgcn_ballot_w64(equal) & (0xffffffffull << half);
    if (half == base && equal) mask = (uint32_t)(same >> half);
    todo &= ~same;
  }
  return mask & m;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_match_all_b32 requires=ptx2hip_warp_ballot,ptx2hip_warp_read
// ptx2hip:amd
// match.all: compare with the lowest executing lane of m; one ballot says whether any differs.
__device__ inline uint32_t ptx2hip_match_all_b32(uint32_t a, uint32_t m, bool* p) {
  const uint32_t members = ptx2hip_warp_ballot(true) & m;
  const uint32_t first = ptx2hip_warp_read(a, (uint32_t)__builtin_ffs((int)members) - 1u);
  const bool all = (ptx2hip_warp_ballot(a != first) & members) == 0u;
  if (p) *p = all;
  return all ? members : 0u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_match_all_b64 requires=ptx2hip_warp_ballot,ptx2hip_warp_read
// ptx2hip:amd
__device__ inline uint32_t ptx2hip_match_all_b64(uint64_t a, uint32_t m, bool* p) {
  const uint32_t members = ptx2hip_warp_ballot(true) & m;
  const uint32_t first = (uint32_t)__builtin_ffs((int)members) - 1u;
  const uint32_t lo = (uint32_t)a, hi = (uint32_t)(a >> 32);
  const uint32_t first_lo = ptx2hip_warp_read(lo, first), first_hi = ptx2hip_warp_read(hi, first);
  const bool equal = lo == first_lo && hi == first_hi;
  const bool all = (ptx2hip_warp_ballot(!equal) & members) == 0u;
  if (p) *p = all;
  return all ? members : 0u;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_redux requires=ptx2hip_warp_base,ptx2hip_warp_swizzle
// ptx2hip:amd
// Reduction over the lanes of m with op 0 = add, 1 = or, 2 = xor, 3 = unsigned max: each has the
// identity 0. Fast path (uniform test): every active lane names its whole warp and every warp with
// an active lane is complete, so a butterfly over all 32 lanes of each half (DPP moves within
// rows of 16, ds_swizzle_b32 across them) sums exactly the warp. Otherwise a loop, uniform for the
// wave, over its active lanes: v_readlane broadcasts each one's value, and every lane of the same
// half whose membermask names it adds it in (no inactive lane is ever read).
__device__ inline uint32_t ptx2hip_redux_combine(uint32_t x, uint32_t y, int op) {
  switch (op) {
    case 0: return x + y;
    case 1: return x | y;
    case 2: return x ^ y;
    default: return x > y ? x : y;
  }
}
__device__ inline uint32_t ptx2hip_redux(uint32_t x, uint32_t m, int op) {
  const uint64_t exec = __builtin_amdgcn_ballot_w64(true);
  const uint32_t lo = (uint32_t)exec, hi = (uint32_t)(exec >> 32);
  if ((lo == 0u || lo == ~0u) && (hi == 0u || hi == ~0u) &&
      __builtin_amdgcn_ballot_w64(m != ~0u) == 0u) {
    x = ptx2hip_redux_combine(x, ptx2hip_warp_swizzle(x, 0x041fu), op);
    x = ptx2hip_redux_combine(x, ptx2hip_warp_swizzle(x, 0x081fu), op);
    x = ptx2hip_redux_combine(x, ptx2hip_warp_swizzle(x, 0x1c1fu), op);
    x = ptx2hip_redux_combine(x, ptx2hip_warp_swizzle(x, 0x201fu), op);
    return ptx2hip_redux_combine(x, ptx2hip_warp_swizzle(x, 0x401fu), op);
  }
  const uint32_t base = ptx2hip_warp_base();
  uint32_t result = 0u;
  for (uint64_t todo = exec; todo != 0u; todo &= todo - 1u) {
    const uint32_t l = (uint32_t)__builtin_ctzll(todo);
    const uint32_t v = (uint32_t)__builtin_amdgcn_readlane((int)x, (int)l);
    if ((l & 32u) == base && ((m >> (l & 31u)) & 1u)) result = ptx2hip_redux_combine(result, v, op);
  }
  return result;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_redux_add_u32 requires=ptx2hip_redux
// ptx2hip:amd
__device__ inline uint32_t ptx2hip_redux_add_u32(uint32_t a, uint32_t m) {
  return ptx2hip_redux(a, m, 0);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_redux_add_s32 requires=ptx2hip_redux
// ptx2hip:amd
__device__ inline int32_t ptx2hip_redux_add_s32(int32_t a, uint32_t m) {
  return (int32_t)ptx2hip_redux((uint32_t)a, m, 0);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_redux_max_u32 requires=ptx2hip_redux
// ptx2hip:amd
__device__ inline uint32_t ptx2hip_redux_max_u32(uint32_t a, uint32_t m) {
  return ptx2hip_redux(a, m, 3);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_redux_min_u32 requires=ptx2hip_redux
// ptx2hip:amd
// min(a) = ~max(~a)
__device__ inline uint32_t ptx2hip_redux_min_u32(uint32_t a, uint32_t m) {
  return ~ptx2hip_redux(~a, m, 3);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_redux_max_s32 requires=ptx2hip_redux
// ptx2hip:amd
// Signed order is unsigned order with the sign bit flipped.
__device__ inline int32_t ptx2hip_redux_max_s32(int32_t a, uint32_t m) {
  return (int32_t)(ptx2hip_redux((uint32_t)a ^ 0x80000000u, m, 3) ^ 0x80000000u);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_redux_min_s32 requires=ptx2hip_redux
// ptx2hip:amd
// min(a) = ~max(~a), in the sign-flipped unsigned order.
__device__ inline int32_t ptx2hip_redux_min_s32(int32_t a, uint32_t m) {
  return (int32_t)(ptx2hip_redux((uint32_t)a ^ 0x7fffffffu, m, 3) ^ 0x7fffffffu);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_redux_and_b32 requires=ptx2hip_redux
// ptx2hip:amd
// and(a) = ~or(~a)
__device__ inline uint32_t ptx2hip_redux_and_b32(uint32_t a, uint32_t m) {
  return ~ptx2hip_redux(~a, m, 1);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_redux_or_b32 requires=ptx2hip_redux
// ptx2hip:amd
__device__ inline uint32_t ptx2hip_redux_or_b32(uint32_t a, uint32_t m) {
  return ptx2hip_redux(a, m, 1);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_redux_xor_b32 requires=ptx2hip_redux
// ptx2hip:amd
__device__ inline uint32_t ptx2hip_redux_xor_b32(uint32_t a, uint32_t m) {
  return ptx2hip_redux(a, m, 2);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_elect requires=ptx2hip_warp_ballot
// ptx2hip:amd
// elect: the lowest executing lane of m; every lane gets its number, the leader p = true.
__device__ inline uint32_t ptx2hip_elect(uint32_t m, bool* p) {
  const uint32_t leader = (uint32_t)__builtin_ffs((int)(ptx2hip_warp_ballot(true) & m)) - 1u;
  if (p) *p = (__lane_id() & 31u) == leader;
  return leader;
}
// ptx2hip:end
