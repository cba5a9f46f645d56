// The elementwise gradient ops TensorFlow's training graphs contain, on the CPU, with TensorFlow's
// formulas (so the rounding matches): operands have one shape (no broadcasting).
//   ReluGrad(g, x) = g * (x > 0)                  Relu6Grad(g, x) = g * (0 < x < 6)
//   (products, as TensorFlow's: a NaN or infinite g gives NaN where the mask is 0)
//   EluGrad(g, y) = y < 0 ? g * (y + 1) : g        SeluGrad(g, y) = y < 0 ? g * (y + scale*alpha)
//   LeakyReluGrad(g, x) = x > 0 ? g : g * alpha                                    : g * scale
//   SoftplusGrad(g, x) = g / (exp(-x) + 1)
//   SigmoidGrad(y, dy) = dy * y * (1 - y)         TanhGrad(y, dy) = dy * (1 - y * y)
//   SqrtGrad(y, dy) = 0.5 * dy / y                RsqrtGrad(y, dy) = -0.5 * (dy * y) * (y * y)
//   (both 0 where dy is 0, whatever y is: TensorFlow's, so a zero gradient at y = 0 stays 0)
// half is computed in float. Errors (InvalidArgument, TensorFlow's texts): the first group needs
// equal shapes ("Inputs to operation g of type ReluGrad must have the same size and shape.  Input
// 0: [2] != input 1: [3]"), the y/dy group equal element counts ("The two arguments to a cwise op
// must have same number of elements, got 2 and 3"; the output has y's shape).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>

#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/loop_constant.h"

namespace rill {
namespace {

struct GradFunctor : CwiseFunctorBase {
  static constexpr bool kSameShape = true;
};
struct OutputGradFunctor : CwiseFunctorBase {
  static constexpr bool kSameCount = true;
};

struct ReluGradFunctor : GradFunctor {
  template <typename T>
  T operator()(T g, T x) const {
    return g * static_cast<T>(x > T(0));  // TensorFlow's product: a NaN or inf g stays NaN
  }
};
struct Relu6GradFunctor : GradFunctor {
  template <typename T>
  T operator()(T g, T x) const {
    return g * static_cast<T>(x > T(0) && x < T(6));
  }
};
struct EluGradFunctor : GradFunctor {
  template <typename T>
  T operator()(T g, T y) const {
    return y < T(0) ? g * (y + T(1)) : g;
  }
};
struct SeluGradFunctor : GradFunctor {
  template <typename T>
  T operator()(T g, T y) const {
    const T scale = static_cast<T>(1.0507009873554804934193349852946);
    const T scale_alpha = static_cast<T>(1.7580993408473768599402175208123);
    return y < T(0) ? g * (y + scale_alpha) : g * scale;
  }
};
// alpha is a LoopConstant so the float loop vectorizes (a plain float member is reloaded after
// every store of the output).
struct LeakyReluGradFunctor : GradFunctor {
  absl::Status Init(OpKernelConstruction& ctx) {
    float a = 0.2f;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("alpha", &a));
    alpha.Set(a);
    return absl::OkStatus();
  }
  template <typename T>
  T operator()(T g, T x) const {
    const T scaled = g * static_cast<T>(alpha.get());  // formed for every element: no branch
    return x > T(0) ? g : scaled;
  }
  LoopConstant alpha{0.2f};
};
// half: TensorFlow multiplies by alpha rounded to half.
struct LeakyReluGradHalfFunctor : LeakyReluGradFunctor {
  absl::Status Init(OpKernelConstruction& ctx) {
    RILL_RETURN_IF_ERROR(LeakyReluGradFunctor::Init(ctx));
    alpha.Set(static_cast<float>(half(alpha.get())));
    return absl::OkStatus();
  }
};
struct SoftplusGradFunctor : GradFunctor {
  static constexpr int64_t kCost = 20;
  template <typename T>
  T operator()(T g, T x) const {
    return g / (std::exp(-x) + T(1));
  }
};
struct SigmoidGradFunctor : OutputGradFunctor {
  template <typename T>
  T operator()(T y, T dy) const {
    return dy * y * (T(1) - y);
  }
};
struct TanhGradFunctor : OutputGradFunctor {
  template <typename T>
  T operator()(T y, T dy) const {
    return dy * (T(1) - y * y);
  }
};
struct SqrtGradFunctor : OutputGradFunctor {
  template <typename T>
  T operator()(T y, T dy) const {
    return dy == T(0) ? T(0) : static_cast<T>(0.5) * dy / y;
  }
};
struct RsqrtGradFunctor : OutputGradFunctor {
  template <typename T>
  T operator()(T y, T dy) const {
    return dy == T(0) ? T(0) : static_cast<T>(-0.5) * (dy * y) * (y * y);
  }
};

#define RILL_FLOATS half, float, double
#define RILL_INTS int8_t, int16_t, int32_t, int64_t, uint8_t

REGISTER_CWISE_CPU("ReluGrad", BinaryOp, ReluGradFunctor, RILL_FLOATS, RILL_INTS);
REGISTER_CWISE_CPU("Relu6Grad", BinaryOp, Relu6GradFunctor, RILL_FLOATS, RILL_INTS);
REGISTER_CWISE_CPU("EluGrad", BinaryOp, EluGradFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("SeluGrad", BinaryOp, SeluGradFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("LeakyReluGrad", BinaryOp, LeakyReluGradFunctor, float, double);
REGISTER_CWISE_CPU("LeakyReluGrad", BinaryOp, LeakyReluGradHalfFunctor, half);
REGISTER_CWISE_CPU("SoftplusGrad", BinaryOp, SoftplusGradFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("SigmoidGrad", BinaryOp, SigmoidGradFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("TanhGrad", BinaryOp, TanhGradFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("SqrtGrad", BinaryOp, SqrtGradFunctor, RILL_FLOATS);
REGISTER_CWISE_CPU("RsqrtGrad", BinaryOp, RsqrtGradFunctor, RILL_FLOATS);

}  // namespace
}  // namespace rill
