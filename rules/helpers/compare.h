// Helpers of rules/compare.toml (markers: rules/README.md, "Helpers").

// ptx2hip:helper ptx2hip_cmp
// The floating-point CmpOp of setp/set/selp as a template argument, named as PTX writes it.
namespace ptx2hip_cmp {
inline constexpr int eq = 0, ne = 1, lt = 2, le = 3, gt = 4, ge = 5;
inline constexpr int equ = 6, neu = 7, ltu = 8, leu = 9, gtu = 10, geu = 11, num = 12, nan = 13;
}  // namespace ptx2hip_cmp
// ptx2hip:end

// ptx2hip:helper ptx2hip_fclass
// The class that testp tests, as a template argument named as PTX writes it.
namespace ptx2hip_fclass {
inline constexpr int finite = 0, infinite = 1, number = 2, notanumber = 3, normal = 4,
                     subnormal = 5;
}  // namespace ptx2hip_fclass
// ptx2hip:end

// ptx2hip:helper ptx2hip_fcmp requires=ptx2hip_cmp
// PTX floating-point CmpOp (0 eq 1 ne 2 lt 3 le 4 gt 5 ge 6 equ 7 neu 8 ltu 9 leu 10 gtu 11 geu
// 12 num 13 nan): ordered forms are false on NaN, unordered forms true.
template <int C, class T>
__device__ inline bool ptx2hip_fcmp(T a, T b) {
  switch (C) {
    case 0: return a == b;
    case 1: return a < b || a > b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return a >= b;
    case 6: return !(a < b || a > b);
    case 7: return !(a == b);
    case 8: return !(a >= b);
    case 9: return !(a > b);
    case 10: return !(a <= b);
    case 11: return !(a < b);
    case 12: return a == a && b == b;
    default: return a != a || b != b;
  }
}
// ptx2hip:end

// ptx2hip:helper ptx2hip_testp requires=ptx2hip_fclass
// PTX testp: 0 finite 1 infinite 2 number 3 notanumber 4 normal (zero included) 5 subnormal.
template <int K>
__device__ inline bool ptx2hip_testp_m(double m, bool nan, double mx, double mn) {
  switch (K) {
    case 0: return m <= mx;
    case 1: return m > mx;
    case 2: return !nan;
    case 3: return nan;
    case 4: return m <= mx && (m == 0 || m >= mn);
    default: return m != 0 && m < mn;
  }
}
template <int K>
__device__ inline bool ptx2hip_testp(float x) {
  return ptx2hip_testp_m<K>(fabs((double)x), x != x, 3.4028234663852886e+38,
                            1.1754943508222875e-38);
}
template <int K>
__device__ inline bool ptx2hip_testp(double x) {
  return ptx2hip_testp_m<K>(fabs(x), x != x, 1.7976931348623157e+308, 2.2250738585072014e-308);
}
// ptx2hip:end
