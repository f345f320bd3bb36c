// Register classes that do not fit the instruction, as they survive in configurations nobody
// builds any more: a 64-bit result into a 32-bit "=r", a 32-bit one into a 16-bit "=h", and
// operands wider than a non-conversion instruction. ptxas rejects every one of them ("Arguments
// mismatch"), so they sit in macros and templates that are never instantiated; a translation
// must refuse them too, instead of truncating the result.
#include <cstdint>

// A 64-bit bit reverse whose result was meant to be split, written into one 32-bit register.
#define BREV64_LOW(d, x) asm("brev.b64 %0, %1;" : "=r"(d) : "l"(x))

// The high half of a 32x32 product, taken from mul.wide with a 32-bit destination.
template <class T>
__device__ __forceinline__ uint32_t mul_wide_low(T a, T b) {
  uint32_t d;
  asm("mul.wide.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

// A half-to-u64 conversion into a 32-bit register.
template <class H>
__device__ __forceinline__ uint32_t half_to_index(H h) {
  uint32_t d;
  asm("cvt.rzi.u64.f16 %0, %1;" : "=r"(d) : "h"(h));
  return d;
}

// A 32-bit sum into a 16-bit register, and a 16-bit add fed 32-bit registers.
template <class T>
__device__ __forceinline__ uint16_t add_narrow(T a, T b) {
  uint16_t d;
  asm("add.u32 %0, %1, %2;" : "=h"(d) : "r"(a), "r"(b));
  return d;
}

template <class T>
__device__ __forceinline__ uint16_t add16_from_words(T a, T b) {
  uint16_t d;
  asm("add.u16 %0, %1, %2;" : "=h"(d) : "r"(a), "r"(b));
  return d;
}

// A 16-bit result widened by a plain add (only cvt, ld and st take wider registers).
template <class T>
__device__ __forceinline__ uint32_t add16_into_word(T a, T b) {
  uint32_t d;
  asm("add.u16 %0, %1, %2;" : "=r"(d) : "h"(a), "h"(b));
  return d;
}

// An integer add on float registers.
template <class F>
__device__ __forceinline__ F add_bits_as_int(F a, F b) {
  F d;
  asm("add.u32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  return d;
}

// The forms the current configuration uses: the same instructions with registers of their size.
__device__ __forceinline__ uint64_t brev64(uint64_t x) {
  uint64_t d;
  asm("brev.b64 %0, %1;" : "=l"(d) : "l"(x));
  return d;
}

__device__ __forceinline__ uint64_t mul_wide(uint32_t a, uint32_t b) {
  uint64_t d;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(d) : "r"(a), "r"(b));
  return d;
}
