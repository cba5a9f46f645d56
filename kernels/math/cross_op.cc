// Cross on the CPU: the cross product of the 3-element vectors in the last dim of a and b (same
// shapes), computed in T (half in float, rounded once per component).
// Errors (TensorFlow's texts): InvalidArgument "Both inputs must be of same shape: [3] vs. [2,3]",
// "Input must be at least 1D[]"; FailedPrecondition "Cross-products are only defined for
// 3-element vectors.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_CROSS_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

class CrossOp final : public OpKernel {
 public:
  explicit CrossOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (a.shape() != b.shape()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Both inputs must be of same shape: ", a.shape().DebugString(), " vs. ",
                       b.shape().DebugString()));
    }
    if (a.shape().rank() < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input must be at least 1D", a.shape().DebugString()));
    }
    if (a.shape().dim(a.shape().rank() - 1) != 3) {
      return absl::FailedPreconditionError(
          "Cross-products are only defined for 3-element vectors.");
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, a.shape()));
    const int64_t n = a.NumElements() / 3;
    return VisitKernelTypes<RILL_CROSS_TYPES>(*this, a.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      // half is computed in float and rounded once per component.
      using C = std::conditional_t<std::is_same_v<T, half>, float, T>;
      const T* u = a.flat<T>().data();
      const T* v = b.flat<T>().data();
      T* w = out->flat<T>().data();
      for (int64_t i = 0; i < n; ++i, u += 3, v += 3, w += 3) {
        const C u0 = static_cast<C>(u[0]), u1 = static_cast<C>(u[1]), u2 = static_cast<C>(u[2]);
        const C v0 = static_cast<C>(v[0]), v1 = static_cast<C>(v[1]), v2 = static_cast<C>(v[2]);
        w[0] = static_cast<T>(u1 * v2 - u2 * v1);
        w[1] = static_cast<T>(u2 * v0 - u0 * v2);
        w[2] = static_cast<T>(u0 * v1 - u1 * v0);
      }
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("Cross")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_CROSS_TYPES>()),
                CrossOp);

}  // namespace
}  // namespace rill
