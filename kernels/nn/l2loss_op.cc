// L2Loss on the CPU: sum(t * t) / 2 as a scalar, accumulated in float for half.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>

#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

class L2LossOp final : public OpKernel {
 public:
  explicit L2LossOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& t = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape()));
    return VisitKernelTypes<half, float, double>(*this, t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      const T* x = t.flat<T>().data();
      decltype(Load(x[0])) sum = 0;
      for (int64_t i = 0; i < t.NumElements(); ++i) sum += Load(x[i]) * Load(x[i]);
      out->flat<T>()[0] = cwise_internal::Store<T>(sum / 2);
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("L2Loss")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double>()),
                L2LossOp);

}  // namespace
}  // namespace rill
