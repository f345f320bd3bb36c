// Operand binding as libraries write it: registers filled from enums, pointers, bit-fields, const
// references, vector and half types reinterpreted as the register's integer (the cuda_fp16.hpp
// idiom), and "n" constants whose type is narrower than the instruction. nvcc binds only a scalar
// of exactly the register's size and kind (docs/OPERANDS.md), so generic code is instantiated with
// such types only.
#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_fp16.h>
#else
#include <cuda_fp16.h>
#endif
#include <cstdint>

namespace bind {

// Byte selectors of prmt, as a scoped enum: a 4-byte enum binds to "r" like its underlying type.
enum class Lanes : uint32_t { Identity = 0x3210u, Swap16 = 0x1032u, Reverse = 0x0123u, Spread = 0x5140u };

// Sign flags returned through an unscoped enum.
enum Sign : int { kPositive = 1, kNegative = -1 };

// A packed record header: bit-fields bind by their declared type and give the field's value
// (sign-extended for the signed one).
struct Header {
  unsigned len : 12;
  int delta : 5;
  unsigned tag : 15;
};

__device__ __forceinline__ uint32_t permute(uint32_t a, uint32_t b, Lanes sel) {
  uint32_t d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
  return d;
}

__device__ __forceinline__ Sign sign_of(int x) {
  Sign s;
  asm("{\n\t.reg .pred p;\n\tsetp.lt.s32 p, %1, 0;\n\tselp.b32 %0, %2, %3, p;\n\t}"
      : "=r"(s)
      : "r"(x), "r"(kNegative), "r"(kPositive));
  return s;
}

__device__ __forceinline__ uint32_t load_first(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ uint32_t header_sum(Header h) {
  uint32_t s;
  asm("add.u32 %0, %1, %2;" : "=r"(s) : "r"(h.len), "r"(h.delta));
  return s;
}

__device__ __forceinline__ uint32_t header_tag(const Header& h) {
  uint32_t t;
  asm("shr.u32 %0, %1, 3;" : "=r"(t) : "r"(h.tag));
  return t;
}

__device__ __forceinline__ uint64_t mul_wide(const uint32_t& a, const uint32_t& b) {
  uint64_t d;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(d) : "r"(a), "r"(b));
  return d;
}

// nvcc prints an "n" constant as a signed integer of the constant's own width: 0xFFFFFFFFu in a
// 64-bit `and` is -1, all ones, so this mask keeps every bit (a classic pitfall, reproduced).
__device__ __forceinline__ uint64_t mask_low_word(uint64_t x) {
  uint64_t d;
  asm("and.b64 %0, %1, %2;" : "=l"(d) : "l"(x), "n"(0xFFFFFFFFu));
  return d;
}

template <uint32_t Mask>
__device__ __forceinline__ uint64_t mask_with(uint64_t x) {
  uint64_t d;
  asm("and.b64 %0, %1, %2;" : "=l"(d) : "l"(x), "n"(Mask));
  return d;
}

__device__ __forceinline__ uint16_t invert16(uint16_t x) {
  uint16_t d;
  asm("xor.b16 %0, %1, %2;" : "=h"(d) : "h"(x), "n"(-1));
  return d;
}

// __half2 and __half through their bits, as cuda_fp16.hpp binds them (__HALF2_TO_UI,
// __half_as_ushort): nvcc rejects a __half2 or __half operand itself.
#define BIND_H2_TO_UI(var) *(reinterpret_cast<unsigned int*>(&(var)))
#define BIND_H2_TO_CUI(var) *(reinterpret_cast<const unsigned int*>(&(var)))

__device__ __forceinline__ __half2 h2_fma(__half2 a, __half2 b, __half2 c) {
  __half2 d;
  asm("fma.rn.f16x2 %0, %1, %2, %3;"
      : "=r"(BIND_H2_TO_UI(d))
      : "r"(BIND_H2_TO_CUI(a)), "r"(BIND_H2_TO_CUI(b)), "r"(BIND_H2_TO_CUI(c)));
  return d;
}

__device__ __forceinline__ __half h_relu(__half x) {
  unsigned short y;
  asm("max.f16 %0, %1, %2;" : "=h"(y) : "h"(__half_as_ushort(x)), "h"((unsigned short)0));
  return __ushort_as_half(y);
}

// short2 and uchar4 through their 32 bits.
__device__ __forceinline__ short2 relu_s16x2(short2 v) {
  short2 d;
  asm("max.s16x2 %0, %1, %2;"
      : "=r"(*reinterpret_cast<uint32_t*>(&d))
      : "r"(*reinterpret_cast<const uint32_t*>(&v)), "r"(0));
  return d;
}

__device__ __forceinline__ uchar4 add_sat_u8x4(uchar4 a, uchar4 b) {
  uchar4 d;
  asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;"
      : "=r"(*reinterpret_cast<uint32_t*>(&d))
      : "r"(*reinterpret_cast<const uint32_t*>(&a)), "r"(*reinterpret_cast<const uint32_t*>(&b)), "r"(0));
  return d;
}

// Generic over the operand type: the register holds the bits of any 4-byte integer or enum; the
// translation cannot see T and checks it where it is instantiated, as nvcc does.
template <class T>
__device__ __forceinline__ T rotate_left(T x, uint32_t n) {
  T d;
  asm("shf.l.wrap.b32 %0, %1, %1, %2;" : "=r"(d) : "r"(x), "r"(n));
  return d;
}

// Written for clang, which binds an aggregate of the register's size by its bits; nvcc rejects
// `"r"` for a __half2, short2 or float, and so does the translation (a static_assert naming the
// operand) wherever this is instantiated with one. Not used here.
template <class H2>
__device__ __forceinline__ H2 h2_add_any(H2 a, H2 b) {
  H2 d;
  asm("add.rn.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

// The input read after a "+r" output of the same object: both see the object as one register.
__device__ __forceinline__ void accumulate(uint32_t& acc, const uint32_t& x) {
  asm("add.u32 %0, %0, %1;" : "+r"(acc) : "r"(x));
}

}  // namespace bind

__global__ void operand_binding(const uint32_t* __restrict__ x, uint32_t* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  using namespace bind;
  const uint32_t a = x[4 * i], b = x[4 * i + 1], c = x[4 * i + 2], e = x[4 * i + 3];
  uint32_t* o = out + 32 * i;
  const Lanes lanes[4] = {Lanes::Identity, Lanes::Swap16, Lanes::Reverse, Lanes::Spread};
  o[0] = permute(a, b, lanes[c & 3]);
  o[1] = (uint32_t)sign_of((int)b);
  o[2] = load_first(x + (a % (uint32_t)n));
  Header h;
  h.len = a;
  h.delta = (int)b;
  h.tag = c;
  o[3] = header_sum(h);
  o[4] = header_tag(h);
  uint64_t w = mul_wide(a, b);
  o[5] = (uint32_t)w;
  o[6] = (uint32_t)(w >> 32);
  uint64_t ab = ((uint64_t)a << 32) | b;
  uint64_t m = mask_low_word(ab);
  o[7] = (uint32_t)(m >> 32);
  m = mask_with<0x80000000u>(ab);
  o[8] = (uint32_t)(m >> 32);
  o[9] = (uint32_t)(mask_with<0x7FFFFFFFu>(ab) >> 32);
  o[10] = invert16((uint16_t)c);
  __half2 ha = *reinterpret_cast<const __half2*>(&a), hb = *reinterpret_cast<const __half2*>(&b),
          hc = *reinterpret_cast<const __half2*>(&c);
  __half2 hd = h2_fma(ha, hb, hc);
  o[11] = *reinterpret_cast<const uint32_t*>(&hd);
  __half hr = h_relu(__ushort_as_half((unsigned short)e));
  o[12] = __half_as_ushort(hr);
  short2 s = relu_s16x2(*reinterpret_cast<const short2*>(&c));
  o[13] = *reinterpret_cast<const uint32_t*>(&s);
  uchar4 u = add_sat_u8x4(*reinterpret_cast<const uchar4*>(&a), *reinterpret_cast<const uchar4*>(&e));
  o[14] = *reinterpret_cast<const uint32_t*>(&u);
  o[15] = rotate_left(a, e);
  o[16] = (uint32_t)rotate_left((int)b, e);
  o[17] = (uint32_t)rotate_left(lanes[e & 3], c);
  uint32_t acc = a;
  accumulate(acc, e);
  o[18] = acc;
}
