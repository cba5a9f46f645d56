// Betainc(a, b, x) on the CPU: I_x(a, b), the regularized incomplete beta function, elementwise.
// The operands are either scalars or all of one shape (TensorFlow's rule: no numpy broadcasting);
// a scalar operand is used for every element. Each type is computed in its own precision by
// Eigen's SpecialFunctions module (continued fractions after Cephes), the function TensorFlow's
// CPU kernel calls, so NaN outside the domain (a <= 0, b <= 0, x outside [0, 1]) is TensorFlow's.
// Errors: InvalidArgument "Shapes of a and b are inconsistent: [2] vs. [3]" (and "a and x",
// "b and x"; TensorFlow's texts) for two non-scalar operands of different shapes.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <eigen3/unsupported/Eigen/SpecialFunctions>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// Continued fractions of up to a few hundred terms per element.
constexpr int64_t kBetaincCost = 500;

// InvalidArgument when both shapes are non-scalar and differ.
absl::Status CheckConsistent(const TensorShape& s, const TensorShape& t, absl::string_view names) {
  if (s.rank() == 0 || t.rank() == 0 || s == t) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Shapes of ", names, " are inconsistent: ", s.DebugString(), " vs. ", t.DebugString()));
}

class BetaincOp final : public OpKernel {
 public:
  explicit BetaincOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    const Tensor& x = ctx.input(2);
    RILL_RETURN_IF_ERROR(CheckConsistent(a.shape(), b.shape(), "a and b"));
    RILL_RETURN_IF_ERROR(CheckConsistent(a.shape(), x.shape(), "a and x"));
    RILL_RETURN_IF_ERROR(CheckConsistent(b.shape(), x.shape(), "b and x"));
    TensorShape shape = a.shape();
    if (b.shape().rank() > 0) shape = b.shape();
    if (x.shape().rank() > 0) shape = x.shape();
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    return VisitKernelTypes<float, double>(*this, a.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* av = a.flat<T>().data();
      const T* bv = b.flat<T>().data();
      const T* xv = x.flat<T>().data();
      // A scalar operand has stride 0.
      const int64_t sa = a.shape().rank() > 0 ? 1 : 0;
      const int64_t sb = b.shape().rank() > 0 ? 1 : 0;
      const int64_t sx = x.shape().rank() > 0 ? 1 : 0;
      T* z = out->flat<T>().data();
      ctx.ParallelFor(out->NumElements(), kBetaincCost, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          z[i] = Eigen::numext::betainc(av[i * sa], bv[i * sb], xv[i * sx]);
        }
      });
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("Betainc")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                BetaincOp);

}  // namespace
}  // namespace rill
