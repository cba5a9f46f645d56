// Binary elementwise kernels on the CPU (numpy broadcasting): Sub, Mul, MulNoNan, Div, RealDiv,
// DivNoNan, FloorDiv, FloorMod, Maximum, Minimum, Pow, SquaredDifference, the comparisons Less,
// LessEqual, Greater, GreaterEqual, Equal, NotEqual, LogicalAnd, LogicalOr, Atan2, Xlogy, Xdivy,
// Xlog1py (0 where x is 0, whatever y is), TruncateDiv, TruncateMod and Mod (C's truncating / and
// %, fmod for floats). Arithmetic follows kernels/math_lib/cwise_math.h. Errors (InvalidArgument,
// TensorFlow's texts): "Incompatible shapes: [2,3] vs. [3,2]"; "Integer division by zero" (Div,
// FloorDiv, FloorMod on integers; Internal for TruncateDiv and TruncateMod, TensorFlow's code
// there); "Integers to negative integer powers are not allowed" (Pow).
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/denormal.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/vector_math.h"

namespace rill {
namespace {

using namespace cwise_math;  // NOLINT: the scalar helpers read better unqualified here

// Integer divisions reject a zero divisor before computing, as TensorFlow does.
struct IntDivisionCheck : CwiseFunctorBase {
  template <typename T>
  absl::Status Check(const OpKernelContext& ctx) const {
    if constexpr (kIsInt<T>) {
      const Tensor& y = ctx.input(1);
      const T* b = y.flat<T>().data();
      for (int64_t i = 0; i < y.NumElements(); ++i) {
        if (b[i] == T(0)) return absl::InvalidArgumentError("Integer division by zero");
      }
    }
    return absl::OkStatus();
  }
};

// TruncateDiv and TruncateMod reject a zero integer divisor too, with TensorFlow's code for them:
// Internal (its kernel reports them as an unexpected error in the binary operator).
struct TruncateDivisionCheck : CwiseFunctorBase {
  template <typename T>
  absl::Status Check(const OpKernelContext& ctx) const {
    if constexpr (kIsInt<T>) {
      const Tensor& y = ctx.input(1);
      const T* b = y.flat<T>().data();
      for (int64_t i = 0; i < y.NumElements(); ++i) {
        if (b[i] == T(0)) return absl::InternalError("Integer division by zero");
      }
    }
    return absl::OkStatus();
  }
};

struct SubFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return WrapSub(x, y);
  }
};
struct MulFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return WrapMul(x, y);
  }
};
struct DivFunctor : IntDivisionCheck {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (kIsInt<T>) {
      return y == T(0) ? T(0) : TruncDiv(x, y);  // zero already rejected by Check
    } else {
      return x / y;
    }
  }
};
struct DivNoNanFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return y == T(0) ? T(0) : x / y;
  }
};
// MulNoNan: 0 where y is 0 (even for an x of NaN or infinity), x * y elsewhere.
struct MulNoNanFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return y == T(0) ? T(0) : x * y;
  }
};
struct FloorDivFunctor : IntDivisionCheck {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (kIsInt<T>) {
      if (y == T(0)) return T(0);
    }
    return FloorDiv(x, y);
  }
};
struct FloorModFunctor : IntDivisionCheck {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (kIsInt<T>) {
      if (y == T(0)) return T(0);
    }
    return FloorMod(x, y);
  }
};
// Maximum and Minimum return an operand, which no arithmetic flushes: with subnormals flushed
// (core/denormal.h) a subnormal result is returned as a zero of its sign, as TensorFlow's
// minps/maxps give it (the comparison reads subnormals as 0, so ties between a subnormal and a
// zero return x, flushed). RILL_KEEP_DENORMALS=1 keeps the operand.
struct FlushedSelection : CwiseFunctorBase {
  absl::Status Init(OpKernelConstruction& ctx) {
    // bfloat16 is selected in float, but TensorFlow returns the bfloat16 operand unflushed.
    DataType dtype = DT_FLOAT;
    flush = FlushDenormals() && ctx.GetAttr("T", &dtype).ok() && dtype != DT_BFLOAT16;
    return absl::OkStatus();
  }
  template <typename T>
  T Flushed(T r) const {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (flush && std::fabs(r) < std::numeric_limits<T>::min()) return std::copysign(T(0), r);
    }
    return r;
  }
  bool flush = true;
};
struct MaximumFunctor : FlushedSelection {
  template <typename T>
  T operator()(T x, T y) const {
    return Flushed(Max(x, y));
  }
};
struct MinimumFunctor : FlushedSelection {
  template <typename T>
  T operator()(T x, T y) const {
    return Flushed(Min(x, y));
  }
};
// powf / pow read their operands' bits in software, where the denormals-are-zero mode
// (core/denormal.h) does not reach: a subnormal float or double operand is read as a zero of its
// sign first, as TensorFlow's vectorized pow reads it (Pow(-1e-40, 0.5) is 0 there, not NaN, and
// Pow(1e-40, 0.5) 0, not 1e-20); an exponent of 1 returns x itself, as there (a subnormal x or a
// NaN's sign kept). RILL_KEEP_DENORMALS=1 keeps subnormals.
struct PowFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 40;
  absl::Status Init(OpKernelConstruction& ctx) {
    flush = FlushDenormals();
    // bfloat16 runs this float functor, and TensorFlow flushes its x ^ 1 as any other power.
    DataType dtype = DT_FLOAT;
    one_returns_x = !ctx.GetAttr("T", &dtype).ok() || dtype != DT_BFLOAT16;
    return absl::OkStatus();
  }
  template <typename T>
  T Daz(T v) const {
    return flush && std::fabs(v) < std::numeric_limits<T>::min() ? std::copysign(T(0), v) : v;
  }
  template <typename T>
  absl::Status Check(const OpKernelContext& ctx) const {
    if constexpr (kIsInt<T> && std::is_signed_v<T>) {
      const Tensor& y = ctx.input(1);
      const T* b = y.flat<T>().data();
      for (int64_t i = 0; i < y.NumElements(); ++i) {
        if (b[i] < 0) {
          return absl::InvalidArgumentError("Integers to negative integer powers are not allowed");
        }
      }
    }
    return absl::OkStatus();
  }
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (kIsInt<T>) {
      return y < T(0) ? T(0) : IntPow(x, y);
    } else if constexpr (std::is_same_v<T, float>) {
      // Squares and cubes (StarReLU's x^2, the tanh GELU's x^3) without powf's call, correctly
      // rounded: x * x is also what TensorFlow's Pow gives for an exponent of 2 (powf is 1 ulp
      // off it for about 0.04% of floats); TensorFlow's x^3 is within an ulp of CubeF.
      if (y == 1.0f && one_returns_x) return x;  // TensorFlow's returns x, subnormal or NaN
      x = Daz(x);
      if (y == 2.0f) return x * x;
      if (y == 3.0f) return vector_math::CubeF(x);
      return std::pow(x, Daz(y));
    } else if constexpr (std::is_same_v<T, double>) {
      if (y == 1.0) return x;
      return std::pow(Daz(x), Daz(y));
    } else {
      return std::pow(x, y);
    }
  }
  bool flush = true;
  bool one_returns_x = true;  // float and double: Pow(x, 1) is x
};
struct SquaredDifferenceFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    const T d = WrapSub(x, y);
    return WrapMul(d, d);
  }
};
// half as TensorFlow's Eigen kernels compute it (each operation rounded to half; x and y come in
// float): SquaredDifference squares x - y rounded to half, FloorDiv floors x / y rounded to half.
struct SquaredDifferenceHalfFunctor : CwiseFunctorBase {
  float operator()(float x, float y) const {
    const float d = static_cast<float>(half(x - y));
    return d * d;
  }
};
// For half and bfloat16 operands TensorFlow rounds the quotient to the type before flooring it.
template <typename Narrow>
struct FloorDivNarrowFunctor : CwiseFunctorBase {
  float operator()(float x, float y) const { return std::floor(static_cast<float>(Narrow(x / y))); }
};

struct Atan2Functor : CwiseFunctorBase {
  static constexpr int64_t kCost = 20;
  template <typename T>
  T operator()(T y, T x) const {
    return std::atan2(y, x);
  }
};
// x * f(y), and x itself (a zero) where x == 0, even for y NaN or infinite.
struct XlogyFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 20;
  template <typename T>
  T operator()(T x, T y) const {
    return x == T(0) ? x : x * std::log(y);
  }
};
struct XdivyFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return x == T(0) ? x : x / y;
  }
};
struct Xlog1pyFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 20;
  template <typename T>
  T operator()(T x, T y) const {
    return x == T(0) ? x : x * std::log1p(y);
  }
};
struct TruncateDivFunctor : TruncateDivisionCheck {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (kIsInt<T>) {
      return y == T(0) ? T(0) : TruncDiv(x, y);  // zero already rejected by Check
    } else {
      return std::trunc(x / y);
    }
  }
};
// For half and bfloat16 operands TensorFlow rounds the quotient to the type before truncating it.
template <typename Narrow>
struct TruncateDivNarrowFunctor : TruncateDivisionCheck {
  float operator()(float x, float y) const { return std::trunc(static_cast<float>(Narrow(x / y))); }
};
// C's % and fmod; Check is the zero-divisor check whose code the op reports.
template <typename Check>
struct TruncatingModFunctor : Check {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (kIsInt<T>) {
      if (y == T(0)) return T(0);  // already rejected by Check
      if constexpr (std::is_signed_v<T>) {
        if (y == T(-1)) return T(0);  // MIN % -1 would overflow
      }
      return static_cast<T>(x % y);
    } else {
      return std::fmod(x, y);
    }
  }
};
using TruncateModFunctor = TruncatingModFunctor<TruncateDivisionCheck>;
// Mod is TruncateMod's older name; TensorFlow reports its zero divisor as InvalidArgument.
using ModFunctor = TruncatingModFunctor<IntDivisionCheck>;

struct LessFunctor : CwiseFunctorBase {
  template <typename T>
  bool operator()(T x, T y) const {
    return x < y;
  }
};
struct LessEqualFunctor : CwiseFunctorBase {
  template <typename T>
  bool operator()(T x, T y) const {
    return x <= y;
  }
};
struct GreaterFunctor : CwiseFunctorBase {
  template <typename T>
  bool operator()(T x, T y) const {
    return x > y;
  }
};
struct GreaterEqualFunctor : CwiseFunctorBase {
  template <typename T>
  bool operator()(T x, T y) const {
    return x >= y;
  }
};
// Equal/NotEqual: with incompatible_shape_error=false, operands that do not broadcast compare as
// a scalar false (Equal) / true (NotEqual), as in TensorFlow.
struct EqualityFunctorBase : CwiseFunctorBase {
  absl::Status Init(OpKernelConstruction& ctx) {
    return ctx.GetAttr("incompatible_shape_error", &incompatible_shape_error);
  }
  bool incompatible_shape_error = true;
};
struct EqualFunctor : EqualityFunctorBase {
  int IncompatibleShapesResult() const { return incompatible_shape_error ? -1 : 0; }
  template <typename T>
  bool operator()(const T& x, const T& y) const {
    return x == y;
  }
};
struct NotEqualFunctor : EqualityFunctorBase {
  int IncompatibleShapesResult() const { return incompatible_shape_error ? -1 : 1; }
  template <typename T>
  bool operator()(const T& x, const T& y) const {
    return x != y;
  }
};
struct LogicalAndFunctor : CwiseFunctorBase {
  bool operator()(bool x, bool y) const { return x && y; }
};
struct LogicalOrFunctor : CwiseFunctorBase {
  bool operator()(bool x, bool y) const { return x || y; }
};

#define RILL_FLOATS half, float, double
#define RILL_INTS int8_t, int16_t, int32_t, int64_t, uint8_t
// The wider unsigned integers and bfloat16 where TensorFlow's CPU kernels take them (bfloat16
// computed in float and rounded once to nearest even, as Eigen's bfloat16).
#define RILL_WIDE_UNSIGNED uint16_t, uint32_t, uint64_t

REGISTER_CWISE_CPU("Sub", BinaryOp, SubFunctor, RILL_FLOATS, bfloat16, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
REGISTER_CWISE_CPU("Mul", BinaryOp, MulFunctor, RILL_FLOATS, bfloat16, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
REGISTER_CWISE_CPU("Div", BinaryOp, DivFunctor, RILL_FLOATS, bfloat16, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
REGISTER_CWISE_CPU("RealDiv", BinaryOp, DivFunctor, RILL_FLOATS, bfloat16);
REGISTER_CWISE_CPU("DivNoNan", BinaryOp, DivNoNanFunctor, RILL_FLOATS, bfloat16);
REGISTER_CWISE_CPU("MulNoNan", BinaryOp, MulNoNanFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("FloorDiv", BinaryOp, FloorDivFunctor, float, double, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
REGISTER_CWISE_CPU("FloorDiv", BinaryOp, FloorDivNarrowFunctor<half>, half);
REGISTER_CWISE_CPU("FloorDiv", BinaryOp, FloorDivNarrowFunctor<bfloat16>, bfloat16);
REGISTER_CWISE_CPU("FloorMod", BinaryOp, FloorModFunctor, RILL_FLOATS, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
REGISTER_CWISE_CPU("Maximum", BinaryOp, MaximumFunctor, RILL_FLOATS, bfloat16, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
REGISTER_CWISE_CPU("Minimum", BinaryOp, MinimumFunctor, RILL_FLOATS, bfloat16, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
REGISTER_CWISE_CPU("Pow", BinaryOp, PowFunctor, RILL_FLOATS, bfloat16, int8_t, int16_t, int32_t,
                   int64_t);
REGISTER_CWISE_CPU("SquaredDifference", BinaryOp, SquaredDifferenceFunctor, float, double, int32_t,
                   int64_t);
REGISTER_CWISE_CPU("SquaredDifference", BinaryOp, SquaredDifferenceHalfFunctor, half);
REGISTER_CWISE_CPU("Less", BinaryOp, LessFunctor, RILL_FLOATS, bfloat16, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
REGISTER_CWISE_CPU("LessEqual", BinaryOp, LessEqualFunctor, RILL_FLOATS, bfloat16, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
REGISTER_CWISE_CPU("Greater", BinaryOp, GreaterFunctor, RILL_FLOATS, bfloat16, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
REGISTER_CWISE_CPU("GreaterEqual", BinaryOp, GreaterEqualFunctor, RILL_FLOATS, bfloat16, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
// int32 comparisons on a GPU run on the host, the bool result too (as TensorFlow's int32 GPU
// kernels), so a while loop's condition reaches LoopCond without leaving the host or the GPU's
// partition. NeedsCuda: real GPUs only.
#define REGISTER_INT32_ON_GPU(op, Functor)             \
  REGISTER_KERNEL(KernelDefBuilder(op)                 \
                      .Device(kDeviceGpu)              \
                      .NeedsCuda()                     \
                      .TypeConstraint("T", {DT_INT32}) \
                      .HostMemory("x")                 \
                      .HostMemory("y")                 \
                      .HostMemory("z"),                \
                  BinaryOp<Functor, int32_t>)
REGISTER_INT32_ON_GPU("Less", LessFunctor);
REGISTER_INT32_ON_GPU("LessEqual", LessEqualFunctor);
REGISTER_INT32_ON_GPU("Greater", GreaterFunctor);
REGISTER_INT32_ON_GPU("GreaterEqual", GreaterEqualFunctor);
#undef REGISTER_INT32_ON_GPU
// Strings too, as TensorFlow's CPU kernels: text models compare tokens (TextVectorization).
REGISTER_CWISE_CPU("Equal", BinaryOp, EqualFunctor, RILL_FLOATS, bfloat16, RILL_INTS,
                   RILL_WIDE_UNSIGNED, bool, std::string, complex64, complex128);
REGISTER_CWISE_CPU("NotEqual", BinaryOp, NotEqualFunctor, RILL_FLOATS, bfloat16, RILL_INTS,
                   RILL_WIDE_UNSIGNED, bool, std::string, complex64, complex128);
REGISTER_CWISE_CPU("Atan2", BinaryOp, Atan2Functor, RILL_FLOATS, bfloat16);
REGISTER_CWISE_CPU("Xlogy", BinaryOp, XlogyFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Xdivy", BinaryOp, XdivyFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("Xlog1py", BinaryOp, Xlog1pyFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("TruncateDiv", BinaryOp, TruncateDivFunctor, float, double, RILL_INTS,
                   RILL_WIDE_UNSIGNED);
REGISTER_CWISE_CPU("TruncateDiv", BinaryOp, TruncateDivNarrowFunctor<half>, half);
REGISTER_CWISE_CPU("TruncateDiv", BinaryOp, TruncateDivNarrowFunctor<bfloat16>, bfloat16);
// TensorFlow has no half CPU kernel for TruncateMod, and registers only these integers.
REGISTER_CWISE_CPU("TruncateMod", BinaryOp, TruncateModFunctor, float, double, int32_t, int64_t);
REGISTER_CWISE_CPU("Mod", BinaryOp, ModFunctor, float, double, int32_t, int64_t);
REGISTER_KERNEL(KernelDefBuilder("LogicalAnd").Device(kDeviceCpu),
                BinaryOp<LogicalAndFunctor, bool>);
REGISTER_KERNEL(KernelDefBuilder("LogicalOr").Device(kDeviceCpu), BinaryOp<LogicalOrFunctor, bool>);

}  // namespace
}  // namespace rill
