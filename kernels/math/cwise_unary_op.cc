// Unary elementwise kernels on the CPU: Neg, Abs, Sign, Square, Sqrt, Rsqrt, Exp, Log, Log1p, Sin,
// Cos, Tanh, Sigmoid, Relu, Relu6, Elu, Selu, Softplus, LeakyRelu (attr alpha), Floor, Ceil, Round
// (half to even), Reciprocal, Erf, Erfc, Expm1, Softsign, Asinh, Acosh, Atanh, Sinh, Cosh,
// IsFinite, LogicalNot, Atan, Asin, Acos, Tan, IsNan, IsInf, Rint (half to even) and Inv (an alias
// of Reciprocal). Floating results follow IEEE (Log(0) = -inf, Sqrt(-1) = NaN, Acosh(0.5) = NaN);
// integer Neg/Abs/Square wrap. No errors beyond a missing dtype. The special functions (Lgamma,
// Digamma, Erfinv, Ndtri, BesselI0e, BesselI1e) are in cwise_special_op.cc.
#include <cmath>
#include <eigen3/Eigen/Core>
#include <type_traits>

#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/erfc_float.h"
#include "kernels/math_lib/loop_constant.h"
#include "kernels/math_lib/vector_math.h"

namespace rill {
namespace {

using namespace cwise_math;  // NOLINT: the scalar helpers read better unqualified here

// Cycles per element of a library call (std::log, std::sin). Functors whose float loop
// vectorizes (vector_math.h) also give kVectorCost, cycles per 64 floats, measured at one thread
// with AVX-512 at 2.6 GHz (tools/bench/cwise_costs.py, docs/performance.md).
constexpr int64_t kTranscendentalCost = 20;

// Integers wrap (-MIN is MIN); floats flip the sign bit, as TensorFlow's -x: Neg(+0) is -0 and a
// NaN's sign flips.
struct NegFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsInt<T>) {
      return WrapNeg(x);
    } else if constexpr (std::is_floating_point_v<T>) {
      return -x;
    } else {
      return T(-static_cast<float>(x));
    }
  }
};
struct AbsFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsInt<T>) {
      return x < T(0) ? WrapNeg(x) : x;
    } else {
      return std::fabs(x);
    }
  }
};
struct SignFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(x)) return x;
    }
    return static_cast<T>((T(0) < x) - (x < T(0)));
  }
};
struct SquareFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    return WrapMul(x, x);
  }
};
struct SqrtFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    return std::sqrt(x);
  }
};
struct RsqrtFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    return T(1) / std::sqrt(x);
  }
};
// float: vector_math's ExpF (vectorizes; within 2 ulp). Other types: std::exp.
struct ExpFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  static constexpr int64_t kVectorCost = 52;
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, float>) {
      return vector_math::ExpF(x);
    } else {
      return std::exp(x);
    }
  }
};
struct LogFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    return std::log(x);
  }
};
struct Log1pFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    return std::log1p(x);
  }
};
struct SinFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    return std::sin(x);
  }
};
struct CosFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    return std::cos(x);
  }
};
// float: Eigen's rational approximation of tanh (what TensorFlow's CPU kernel computes; a few
// ulps, branch-free, so the loop vectorizes; std::tanh cost ~7 ns an element). Other types:
// std::tanh.
struct TanhFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  static constexpr int64_t kVectorCost = 28;
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, float>) {
      return vector_math::TanhF(x);
    } else {
      return std::tanh(x);
    }
  }
};
struct SigmoidFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  static constexpr int64_t kVectorCost = 60;
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, float>) {
      return vector_math::SigmoidF(x);
    } else {
      return T(1) / (T(1) + std::exp(-x));
    }
  }
};
struct ReluFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(x)) return x;
    }
    return x > T(0) ? x : T(0);
  }
};
struct Relu6Functor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(x)) return x;
    }
    return x > T(6) ? T(6) : (x > T(0) ? x : T(0));
  }
};
struct EluFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    return x < T(0) ? std::expm1(x) : x;
  }
};
struct SeluFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    const T scale = T(1.0507009873554804934193349852946);
    const T alpha = T(1.6732632423543772848170429916717);
    return x < T(0) ? scale * alpha * std::expm1(x) : scale * x;
  }
};
struct SoftplusFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    // TensorFlow's thresholds keep exp from overflowing: x itself when large, exp(x) when very
    // negative, log1p(exp(x)) between.
    const T threshold = std::log(std::numeric_limits<T>::epsilon()) + T(2);
    if (x > -threshold) return x;
    if (x < threshold) return std::exp(x);
    return std::log1p(std::exp(x));
  }
};
// alpha is a LoopConstant so the float loop vectorizes (a plain float member is reloaded after
// every store of the output).
struct LeakyReluFunctor : CwiseFunctorBase {
  absl::Status Init(OpKernelConstruction& ctx) {
    float a = 0.2f;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("alpha", &a));
    alpha.Set(a);
    return absl::OkStatus();
  }
  template <typename T>
  T operator()(T x) const {
    // TensorFlow's select, 0 * alpha at 0; the product is formed for every element so the loop
    // has no branch to keep it scalar.
    const T scaled = x * static_cast<T>(alpha.get());
    return x > T(0) ? x : scaled;
  }
  LoopConstant alpha{0.2f};
};
// For half inputs TensorFlow multiplies by alpha rounded to half.
struct LeakyReluHalfFunctor : LeakyReluFunctor {
  absl::Status Init(OpKernelConstruction& ctx) {
    RILL_RETURN_IF_ERROR(LeakyReluFunctor::Init(ctx));
    alpha.Set(static_cast<float>(half(alpha.get())));
    return absl::OkStatus();
  }
};
// half activations as TensorFlow's CPU kernels compute them: Eigen evaluates each step of the
// op's expression in half (every exp, add, divide done in float and rounded back to half), so
// these round where the expression does; registered for half only (x is the input in float).
inline float RoundToHalf(float v) { return static_cast<float>(half(v)); }
// Eigen's logistic: e = exp(x); 1 where e is inf, else e / (1 + e).
struct SigmoidHalfFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  float operator()(float x) const {
    const float e = RoundToHalf(std::exp(x));
    return std::isinf(e) && e > 0 ? 1.0f : e / RoundToHalf(1.0f + e);
  }
};
// x < 0 ? exp(x) - 1 : x.
struct EluHalfFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  float operator()(float x) const { return x < 0.0f ? RoundToHalf(std::exp(x)) - 1.0f : x; }
};
// x < 0 ? scale_alpha * (exp(x) - 1) : scale * x, the constants rounded to half.
struct SeluHalfFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  float operator()(float x) const {
    const float scale = RoundToHalf(1.0507009873554804934193349852946f);
    const float scale_alpha = RoundToHalf(1.7580993408473768599402175208123f);
    return x < 0.0f ? scale_alpha * RoundToHalf(RoundToHalf(std::exp(x)) - 1.0f) : scale * x;
  }
};
// TensorFlow's thresholds with Eigen's half epsilon (NumTraits<half>::epsilon() is 2^-13, not
// the 2^-10 of IEEE), log(eps) + 2 = -7.0078125 in half: x above 7.0078125, exp(x) below
// -7.0078125, log1p(exp(x)) between.
struct SoftplusHalfFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  float operator()(float x) const {
    const float threshold = RoundToHalf(RoundToHalf(std::log(0x1p-13f)) + 2.0f);
    if (x > -threshold) return x;
    const float e = RoundToHalf(std::exp(x));
    return x < threshold ? e : std::log1p(e);
  }
};
// x / (|x| + 1).
struct SoftsignHalfFunctor : CwiseFunctorBase {
  float operator()(float x) const { return x / RoundToHalf(std::fabs(x) + 1.0f); }
};
struct FloorFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    return std::floor(x);
  }
};
struct CeilFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    return std::ceil(x);
  }
};
struct RoundFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsInt<T>) {
      return x;
    } else {
      return std::nearbyint(x);  // the default rounding mode: half to even
    }
  }
};
struct ReciprocalFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsInt<T>) {
      return x == T(0) ? T(0) : TruncDiv(T(1), x);
    } else {
      return T(1) / x;
    }
  }
};
// float: Eigen's rational approximation (vector_math's ErfF, what TensorFlow's CPU kernel
// computes). Other types: std::erf.
struct ErfFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  static constexpr int64_t kVectorCost = 22;
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, float>) {
      return vector_math::ErfF(x);
    } else {
      return std::erf(x);
    }
  }
};
// float (and half / bfloat16, computed in float): erfc_float.h's ErfcF, the double erfc rounded
// once to float, vectorized. double: std::erfc.
struct ErfcFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  static constexpr int64_t kVectorCost = 400;
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, float>) {
      return vector_math::ErfcF(x);
    } else {
      return std::erfc(x);
    }
  }
};
struct Expm1Functor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    return std::expm1(x);
  }
};
struct SoftsignFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    return x / (std::fabs(x) + T(1));  // +-inf gives NaN, as in TensorFlow
  }
};
struct AsinhFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    return std::asinh(x);
  }
};
struct AcoshFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    return std::acosh(x);
  }
};
struct AtanhFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    return std::atanh(x);
  }
};
struct SinhFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    return std::sinh(x);
  }
};
struct CoshFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kTranscendentalCost;
  template <typename T>
  T operator()(T x) const {
    return std::cosh(x);
  }
};
struct IsFiniteFunctor : CwiseFunctorBase {
  template <typename T>
  bool operator()(T x) const {
    return std::isfinite(x);
  }
};
// A transcendental functor that applies std::fn.
#define RILL_STD_TRANSCENDENTAL_FUNCTOR(Name, fn)         \
  struct Name : CwiseFunctorBase {                        \
    static constexpr int64_t kCost = kTranscendentalCost; \
    template <typename T>                                 \
    T operator()(T x) const {                             \
      return std::fn(x);                                  \
    }                                                     \
  }
RILL_STD_TRANSCENDENTAL_FUNCTOR(AtanFunctor, atan);
RILL_STD_TRANSCENDENTAL_FUNCTOR(AsinFunctor, asin);
RILL_STD_TRANSCENDENTAL_FUNCTOR(AcosFunctor, acos);
RILL_STD_TRANSCENDENTAL_FUNCTOR(TanFunctor, tan);
#undef RILL_STD_TRANSCENDENTAL_FUNCTOR
struct IsNanFunctor : CwiseFunctorBase {
  template <typename T>
  bool operator()(T x) const {
    return std::isnan(x);
  }
};
struct IsInfFunctor : CwiseFunctorBase {
  template <typename T>
  bool operator()(T x) const {
    return std::isinf(x);
  }
};
struct LogicalNotFunctor : CwiseFunctorBase {
  bool operator()(bool x) const { return !x; }
};

#define RILL_FLOATS half, float, double
#define RILL_SIGNED_INTS int8_t, int16_t, int32_t, int64_t
#define RILL_UNSIGNED_INTS uint8_t, uint16_t, uint32_t, uint64_t

REGISTER_CWISE_CPU("Neg", UnaryOp, NegFunctor, RILL_FLOATS, RILL_SIGNED_INTS);
REGISTER_CWISE_CPU("Abs", UnaryOp, AbsFunctor, RILL_FLOATS, RILL_SIGNED_INTS);
REGISTER_CWISE_CPU("Sign", UnaryOp, SignFunctor, RILL_FLOATS, RILL_SIGNED_INTS);
REGISTER_CWISE_CPU("Square", UnaryOp, SquareFunctor, RILL_FLOATS, bfloat16, RILL_SIGNED_INTS,
                   RILL_UNSIGNED_INTS);
REGISTER_CWISE_CPU("Sqrt", UnaryOp, SqrtFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Rsqrt", UnaryOp, RsqrtFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Exp", UnaryOp, ExpFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Log", UnaryOp, LogFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Log1p", UnaryOp, Log1pFunctor, RILL_FLOATS, bfloat16);
REGISTER_CWISE_CPU("Sin", UnaryOp, SinFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Cos", UnaryOp, CosFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Tanh", UnaryOp, TanhFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Sigmoid", UnaryOp, SigmoidFunctor, float, double);
REGISTER_CWISE_CPU("Sigmoid", UnaryOp, SigmoidHalfFunctor, half);
REGISTER_CWISE_CPU("Relu", UnaryOp, ReluFunctor, RILL_FLOATS, RILL_SIGNED_INTS, RILL_UNSIGNED_INTS);
REGISTER_CWISE_CPU("Relu6", UnaryOp, Relu6Functor, RILL_FLOATS, RILL_SIGNED_INTS,
                   RILL_UNSIGNED_INTS);
REGISTER_CWISE_CPU("Elu", UnaryOp, EluFunctor, float, double);
REGISTER_CWISE_CPU("Elu", UnaryOp, EluHalfFunctor, half);
REGISTER_CWISE_CPU("Selu", UnaryOp, SeluFunctor, float, double);
REGISTER_CWISE_CPU("Selu", UnaryOp, SeluHalfFunctor, half);
REGISTER_CWISE_CPU("Softplus", UnaryOp, SoftplusFunctor, float, double);
REGISTER_CWISE_CPU("Softplus", UnaryOp, SoftplusHalfFunctor, half);
REGISTER_CWISE_CPU("LeakyRelu", UnaryOp, LeakyReluFunctor, float, double);
REGISTER_CWISE_CPU("LeakyRelu", UnaryOp, LeakyReluHalfFunctor, half);
REGISTER_CWISE_CPU("Floor", UnaryOp, FloorFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Ceil", UnaryOp, CeilFunctor, RILL_FLOATS);
// Not for integers: TensorFlow 2.21's CPU Round returns 0 for every int32/int64 input (recorded
// in tests/conformance/data/Round.pbtxt); Rill declines rather than copy that.
REGISTER_CWISE_CPU("Round", UnaryOp, RoundFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Reciprocal", UnaryOp, ReciprocalFunctor, RILL_FLOATS, bfloat16);
REGISTER_CWISE_CPU("Erf", UnaryOp, ErfFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Erfc", UnaryOp, ErfcFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Expm1", UnaryOp, Expm1Functor, RILL_FLOATS);
REGISTER_CWISE_CPU("Softsign", UnaryOp, SoftsignFunctor, float, double);
REGISTER_CWISE_CPU("Softsign", UnaryOp, SoftsignHalfFunctor, half);
REGISTER_CWISE_CPU("Asinh", UnaryOp, AsinhFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Acosh", UnaryOp, AcoshFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Atanh", UnaryOp, AtanhFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Sinh", UnaryOp, SinhFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Cosh", UnaryOp, CoshFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("IsFinite", UnaryOp, IsFiniteFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Atan", UnaryOp, AtanFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Asin", UnaryOp, AsinFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Acos", UnaryOp, AcosFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Tan", UnaryOp, TanFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("IsNan", UnaryOp, IsNanFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("IsInf", UnaryOp, IsInfFunctor, RILL_FLOATS);
// Rint rounds half to even like Round; TensorFlow registers it on the CPU for float and double.
REGISTER_CWISE_CPU("Rint", UnaryOp, RoundFunctor, float, double);
REGISTER_CWISE_CPU("Inv", UnaryOp, ReciprocalFunctor, RILL_FLOATS);
REGISTER_KERNEL(KernelDefBuilder("LogicalNot").Device(kDeviceCpu),
                UnaryOp<LogicalNotFunctor, bool>);

}  // namespace
}  // namespace rill
