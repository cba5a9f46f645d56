// Scalar arithmetic as TensorFlow's CPU kernels define it, shared by the elementwise functors:
// integer ops wrap on overflow (two's complement, never undefined behaviour), integer division
// truncates (Div) or floors (FloorDiv, FloorMod, Python's sign rules), floating Floor* follow
// numpy, Maximum/Minimum propagate NaN, Round rounds half to even.
//
// Pure functions; thread-safe.
#ifndef RILL_KERNELS_MATH_LIB_CWISE_MATH_H_
#define RILL_KERNELS_MATH_LIB_CWISE_MATH_H_

#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

namespace rill {
namespace cwise_math {

template <typename T>
inline constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};
template <typename T>
inline constexpr bool kIsComplex = IsComplex<T>::value;

template <typename T>
T WrapAdd(T a, T b) {
  if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}
template <typename T>
T WrapSub(T a, T b) {
  if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
  } else {
    return a - b;
  }
}
template <typename T>
T WrapMul(T a, T b) {
  if constexpr (kIsInt<T>) {
    // Promote to at least unsigned int so uint16*uint16 cannot overflow a signed int.
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
  } else {
    return a * b;
  }
}
template <typename T>
T WrapNeg(T a) {
  return WrapSub(T(0), a);
}

// Integer division truncating toward zero; REQUIRES b != 0. MIN / -1 wraps to MIN.
template <typename T>
T TruncDiv(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return WrapNeg(a);
  }
  return static_cast<T>(a / b);
}

template <typename T>
T FloorDiv(T a, T b) {
  if constexpr (kIsInt<T>) {
    const T q = TruncDiv(a, b);
    if constexpr (std::is_signed_v<T>) {
      if ((a % b != 0) && ((a < 0) != (b < 0))) return static_cast<T>(q - 1);
    }
    return q;
  } else {
    return std::floor(a / b);
  }
}

template <typename T>
T FloorMod(T a, T b) {
  if constexpr (kIsInt<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);
      const T r = static_cast<T>(a % b);
      return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
    } else {
      return static_cast<T>(a % b);
    }
  } else {
    const T r = std::fmod(a, b);
    return (r != 0 && ((b < 0) != (r < 0))) ? r + b : r;
  }
}

template <typename T>
T Max(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return a < b ? b : a;
}
template <typename T>
T Min(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return b < a ? b : a;
}

// Integer power by squaring (wrapping); REQUIRES e >= 0 for signed types.
template <typename T>
T IntPow(T base, T e) {
  T result = 1;
  while (e > 0) {
    if (e & 1) result = WrapMul(result, base);
    base = WrapMul(base, base);
    e = static_cast<T>(e >> 1);
  }
  return result;
}

}  // namespace cwise_math
}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_CWISE_MATH_H_
