// Helpers of rules/operands.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_operand
#include <type_traits>
/* The operands nvcc binds to a register R (measured with nvcc 13.0, docs/OPERANDS.md): a scalar of
   exactly R's size and kind -- "h"/"r"/"l" an integer or enum of 2/4/8 bytes or ("l") a pointer,
   "f" a float, "d" a double -- whose bits fill the register. nvcc rejects every other operand
   (bool, narrower or wider integers, float in "r", __half, __half2, short2, uchar4, any struct),
   and so does the translation, here, at compile time. */
template <class R, class T>
struct ptx2hip_operand {
  static_assert(
      !::std::is_class<T>::value && !::std::is_union<T>::value,
      "ptx2hip: nvcc rejects this asm operand: a class type (__half, __half2, short2, a struct) "
      "is not a scalar; pass its bits as an integer of the register's size (e.g. __half_as_ushort)");
  static_assert(
      sizeof(T) == sizeof(R),
      "ptx2hip: nvcc rejects this asm operand: its size differs from its constraint's register "
      "(\"h\": 2 bytes, \"r\" and \"f\": 4, \"l\" and \"d\": 8)");
  static_assert(
      ::std::is_floating_point<R>::value
          ? ::std::is_same<T, R>::value
          : ::std::is_integral<T>::value || ::std::is_enum<T>::value || ::std::is_pointer<T>::value,
      "ptx2hip: nvcc rejects this asm operand: \"f\" and \"d\" take a float and a double, "
      "\"h\", \"r\" and \"l\" an integer, an enum or (\"l\") a pointer");
};
/* The type nvcc binds for an operand of C++ type T. CUDA's built-in variables threadIdx, blockIdx,
   blockDim and gridDim are uint3/dim3 values, so `"r"(threadIdx.x)` binds an unsigned int; HIP
   spells each coordinate as an empty class that converts to unsigned int, which the checks above
   would refuse as "a struct". Those exact types (HIP's own, whatever their names in a HIP
   version) bind as the unsigned int nvcc sees; every other class is still refused. */
template <class T>
struct ptx2hip_nvcc_type {
#if defined(__HIP__)
  template <class C>
  static constexpr bool coordinate_of(const C&) {
    return ::std::is_same<T, typename ::std::remove_cv<decltype(C::x)>::type>::value ||
           ::std::is_same<T, typename ::std::remove_cv<decltype(C::y)>::type>::value ||
           ::std::is_same<T, typename ::std::remove_cv<decltype(C::z)>::type>::value;
  }
  static constexpr bool builtin = coordinate_of(threadIdx) || coordinate_of(blockIdx) ||
                                  coordinate_of(blockDim) || coordinate_of(gridDim);
#else
  static constexpr bool builtin = false;
#endif
  using type = typename ::std::conditional<builtin, unsigned int, T>::type;
};
/* The register an asm input operand fills: its bits. */
template <class R, class T>
__device__ inline R ptx2hip_in_as(T x) {
  typedef typename ptx2hip_nvcc_type<T>::type V;
  (void)sizeof(ptx2hip_operand<R, V>);
  return (R)(V)x;
}
/* The destination of an asm output operand: `ptx2hip_out_as<R>(y) = v` stores register value v into
   y as nvcc does. A const y is refused: nvcc warns (#137-D) and writes it. */
template <class R, class T>
struct ptx2hip_out_ref {
  T& dst;
  __device__ void operator=(R v) const { dst = (T)v; }
};
template <class R, class T>
__device__ inline ptx2hip_out_ref<R, T> ptx2hip_out_as(T& dst) {
  static_assert(!::std::is_const<T>::value, "ptx2hip: this asm output operand is const");
  (void)sizeof(ptx2hip_operand<R, typename ::std::remove_volatile<T>::type>);
  return {dst};
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_in_h requires=ptx2hip_operand
template <class T>
__device__ inline uint16_t ptx2hip_in_h(T x) {
  return ptx2hip_in_as<uint16_t>(x);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_out_h requires=ptx2hip_operand
template <class T>
__device__ inline ptx2hip_out_ref<uint16_t, T> ptx2hip_out_h(T& y) {
  return ptx2hip_out_as<uint16_t>(y);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_in_r requires=ptx2hip_operand
template <class T>
__device__ inline uint32_t ptx2hip_in_r(T x) {
  return ptx2hip_in_as<uint32_t>(x);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_out_r requires=ptx2hip_operand
template <class T>
__device__ inline ptx2hip_out_ref<uint32_t, T> ptx2hip_out_r(T& y) {
  return ptx2hip_out_as<uint32_t>(y);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_in_l requires=ptx2hip_operand
template <class T>
__device__ inline uint64_t ptx2hip_in_l(T x) {
  return ptx2hip_in_as<uint64_t>(x);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_out_l requires=ptx2hip_operand
template <class T>
__device__ inline ptx2hip_out_ref<uint64_t, T> ptx2hip_out_l(T& y) {
  return ptx2hip_out_as<uint64_t>(y);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_in_f requires=ptx2hip_operand
template <class T>
__device__ inline float ptx2hip_in_f(T x) {
  return ptx2hip_in_as<float>(x);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_out_f requires=ptx2hip_operand
template <class T>
__device__ inline ptx2hip_out_ref<float, T> ptx2hip_out_f(T& y) {
  return ptx2hip_out_as<float>(y);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_in_d requires=ptx2hip_operand
template <class T>
__device__ inline double ptx2hip_in_d(T x) {
  return ptx2hip_in_as<double>(x);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_out_d requires=ptx2hip_operand
template <class T>
__device__ inline ptx2hip_out_ref<double, T> ptx2hip_out_d(T& y) {
  return ptx2hip_out_as<double>(y);
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_operand_q requires=ptx2hip_operand
/* "q" binds only __int128 and unsigned __int128 (measured with nvcc 13.0, docs/OPERANDS.md);
   std::is_integral is not relied on: strict -std=c++17 libraries say false for __int128. */
template <class T>
struct ptx2hip_operand_q {
  static_assert(
      sizeof(T) == 16 && !::std::is_class<T>::value && !::std::is_union<T>::value &&
          !::std::is_floating_point<T>::value && !::std::is_pointer<T>::value,
      "ptx2hip: nvcc rejects this asm operand: \"q\" takes only __int128 or unsigned __int128");
};
// ptx2hip:end

// ptx2hip:helper ptx2hip_in_q requires=ptx2hip_operand_q
template <class T>
__device__ inline unsigned __int128 ptx2hip_in_q(T x) {
  (void)sizeof(ptx2hip_operand_q<T>);
  return (unsigned __int128)x;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_out_q requires=ptx2hip_operand_q
template <class T>
__device__ inline ptx2hip_out_ref<unsigned __int128, T> ptx2hip_out_q(T& y) {
  static_assert(!::std::is_const<T>::value, "ptx2hip: this asm output operand is const");
  (void)sizeof(ptx2hip_operand_q<typename ::std::remove_volatile<T>::type>);
  return {y};
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_imm
#include <type_traits>
/* The value of an "n" operand in an instruction operand of type R: nvcc prints the constant as a
   signed integer of the constant's own width, which the instruction truncates to its width
   ("n"(0xffffffffu) in a 64-bit instruction is all ones; measured, docs/OPERANDS.md). */
template <class R, class T>
__host__ __device__ constexpr R ptx2hip_imm(T v) {
  static_assert(::std::is_integral<T>::value,
                "ptx2hip: nvcc takes only an integral constant expression for an \"n\" operand "
                "(not an enumerator or a floating-point value)");
  return sizeof(T) == 1   ? (R)(int8_t)v
         : sizeof(T) == 2 ? (R)(int16_t)v
         : sizeof(T) == 4 ? (R)(int32_t)v
                          : (R)(int64_t)v;
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_macro_use
/* Which translation a macro's rewritten body takes (src/emit/uses.rs): the position of `key`, the
   macro's arguments stringified by the preprocessor and joined by newlines (which no stringified
   argument holds), among the argument lists ptx2hip translated, or -1. Compared character by
   character, the terminating null included: equal strings only. */
template <unsigned N>
__host__ __device__ constexpr bool ptx2hip_macro_use_is(const char* key, const char (&known)[N]) {
  for (unsigned i = 0; i < N; ++i) {
    if (key[i] != known[i]) return false;
  }
  return true;
}
__host__ __device__ constexpr int ptx2hip_macro_use_next(int k) { return k < 0 ? -1 : k + 1; }
__host__ __device__ constexpr int ptx2hip_macro_use_index(const char*) { return -1; }
template <unsigned N, class... Known>
__host__ __device__ constexpr int ptx2hip_macro_use_index(const char* key, const char (&first)[N],
                                                          const Known&... rest) {
  return ptx2hip_macro_use_is(key, first)
             ? 0
             : ptx2hip_macro_use_next(ptx2hip_macro_use_index(key, rest...));
}
/* The position as a type, which the generic lambda of the rewritten body takes: its `if constexpr`
   branches then depend on it, and only the taken one is instantiated. */
template <int K>
struct ptx2hip_macro_use {
  static constexpr int value = K;
};
// ptx2hip:end
