// Complex numbers on the CPU: Complex (real and imaginary parts, broadcast), Real, Imag,
// ComplexAbs, Angle and Conj, and the complex64/complex128 registrations of the elementwise ops
// TensorFlow's tf.signal graphs apply to complex tensors (Exp, Add/AddV2, Sub, Mul, Div/RealDiv,
// Neg, Square) and the eigenvalue gradients apply (Reciprocal, Inv), over the shared templates of
// kernels/math_lib/cwise_op.h.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <complex>
#include <cstdint>

#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// Complex(real, imag) with numpy broadcasting; R is the part type, C = std::complex<R>.
class ComplexOp final : public OpKernel {
 public:
  explicit ComplexOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& re = ctx.input(0);
    const Tensor& im = ctx.input(1);
    TensorShape shape = re.shape();
    if (re.shape() != im.shape()) {
      RILL_ASSIGN_OR_RETURN(shape, BroadcastShapes(re.shape(), im.shape()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (shape.num_elements() == 0) return absl::OkStatus();
    return VisitKernelTypes<float, double>(*this, re.dtype(), [&](auto tag) {
      using R = typename decltype(tag)::type;
      using C = std::complex<R>;
      const R* a = re.flat<R>().data();
      const R* b = im.flat<R>().data();
      C* z = out->flat<C>().data();
      if (re.shape() == im.shape()) {
        ctx.ParallelFor(shape.num_elements(), 1, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) z[i] = C(a[i], b[i]);
        });
      } else {
        ForEachBroadcastRow(
            re.shape(), im.shape(), shape,
            [&](int64_t o, int64_t oa, int64_t ob, int64_t inner, int64_t sa, int64_t sb) {
              for (int64_t j = 0; j < inner; ++j) z[o + j] = C(a[oa + j * sa], b[ob + j * sb]);
            });
      }
      return absl::OkStatus();
    });
  }
};

// A complex -> real (or complex -> complex) elementwise map: out[i] = F(in[i]).
template <typename F>
class ComplexUnaryOp final : public OpKernel {
 public:
  explicit ComplexUnaryOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, x.shape()));
    const int64_t n = x.NumElements();
    if (n == 0) return absl::OkStatus();
    return VisitKernelTypes<complex64, complex128>(*this, x.dtype(), [&](auto tag) {
      using C = typename decltype(tag)::type;
      using Out = decltype(F()(C()));
      const C* a = x.flat<C>().data();
      Out* z = out->flat<Out>().data();
      ctx.ParallelFor(n, F::kCost, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) z[i] = F()(a[i]);
      });
      return absl::OkStatus();
    });
  }
};

struct RealPart {
  static constexpr int64_t kCost = 1;
  template <typename C>
  typename C::value_type operator()(const C& c) const {
    return c.real();
  }
};
struct ImagPart {
  static constexpr int64_t kCost = 1;
  template <typename C>
  typename C::value_type operator()(const C& c) const {
    return c.imag();
  }
};
struct Magnitude {
  static constexpr int64_t kCost = 10;
  template <typename C>
  typename C::value_type operator()(const C& c) const {
    return std::hypot(c.real(), c.imag());
  }
};
struct Argument {
  static constexpr int64_t kCost = 20;
  template <typename C>
  typename C::value_type operator()(const C& c) const {
    return std::atan2(c.imag(), c.real());
  }
};
struct Conjugate {
  static constexpr int64_t kCost = 1;
  template <typename C>
  C operator()(const C& c) const {
    return std::conj(c);
  }
};

// Registers a complex -> part kernel for the pairs TensorFlow's CPU kernels have: complex64 ->
// float and complex128 -> double.
#define RILL_COMPLEX_TO_REAL(op, F)                         \
  REGISTER_KERNEL(KernelDefBuilder(op)                      \
                      .Device(kDeviceCpu)                   \
                      .TypeConstraint("T", {DT_COMPLEX64})  \
                      .TypeConstraint("Tout", {DT_FLOAT}),  \
                  ComplexUnaryOp<F>);                       \
  REGISTER_KERNEL(KernelDefBuilder(op)                      \
                      .Device(kDeviceCpu)                   \
                      .TypeConstraint("T", {DT_COMPLEX128}) \
                      .TypeConstraint("Tout", {DT_DOUBLE}), \
                  ComplexUnaryOp<F>)

RILL_COMPLEX_TO_REAL("Real", RealPart);
RILL_COMPLEX_TO_REAL("Imag", ImagPart);
RILL_COMPLEX_TO_REAL("ComplexAbs", Magnitude);
RILL_COMPLEX_TO_REAL("Angle", Argument);

REGISTER_KERNEL(
    KernelDefBuilder("Conj").Device(kDeviceCpu).TypeConstraint("T", {DT_COMPLEX64, DT_COMPLEX128}),
    ComplexUnaryOp<Conjugate>);

REGISTER_KERNEL(KernelDefBuilder("Complex")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT})
                    .TypeConstraint("Tout", {DT_COMPLEX64}),
                ComplexOp);
REGISTER_KERNEL(KernelDefBuilder("Complex")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_DOUBLE})
                    .TypeConstraint("Tout", {DT_COMPLEX128}),
                ComplexOp);

// The elementwise ops on complex operands (the real dtypes are registered beside their other
// functors in cwise_unary_op.cc, cwise_binary_op.cc and add_op.cc).
struct CAddFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return x + y;
  }
};
struct CSubFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return x - y;
  }
};
struct CMulFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 4;
  template <typename T>
  T operator()(T x, T y) const {
    return x * y;
  }
};
struct CDivFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 10;
  template <typename T>
  T operator()(T x, T y) const {
    return x / y;
  }
};
struct CNegFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    return -x;
  }
};
struct CSquareFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 4;
  template <typename T>
  T operator()(T x) const {
    return x * x;
  }
};
struct CReciprocalFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 10;
  template <typename T>
  T operator()(T x) const {
    return T(1) / x;
  }
};
struct CExpFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 40;
  template <typename T>
  T operator()(T x) const {
    return std::exp(x);
  }
};

REGISTER_CWISE_CPU("Add", BinaryOp, CAddFunctor, complex64, complex128);
REGISTER_CWISE_CPU("AddV2", BinaryOp, CAddFunctor, complex64, complex128);
REGISTER_CWISE_CPU("Sub", BinaryOp, CSubFunctor, complex64, complex128);
REGISTER_CWISE_CPU("Mul", BinaryOp, CMulFunctor, complex64, complex128);
REGISTER_CWISE_CPU("Div", BinaryOp, CDivFunctor, complex64, complex128);
REGISTER_CWISE_CPU("RealDiv", BinaryOp, CDivFunctor, complex64, complex128);
REGISTER_CWISE_CPU("Neg", UnaryOp, CNegFunctor, complex64, complex128);
REGISTER_CWISE_CPU("Square", UnaryOp, CSquareFunctor, complex64, complex128);
REGISTER_CWISE_CPU("Exp", UnaryOp, CExpFunctor, complex64, complex128);
REGISTER_CWISE_CPU("Reciprocal", UnaryOp, CReciprocalFunctor, complex64, complex128);
REGISTER_CWISE_CPU("Inv", UnaryOp, CReciprocalFunctor, complex64, complex128);

}  // namespace
}  // namespace rill
