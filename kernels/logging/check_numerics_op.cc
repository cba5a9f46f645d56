// CheckNumerics on the CPU: forwards its input when every element is finite; otherwise
// InvalidArgument "<message> : Tensor had NaN values" ("... Inf values", "... Inf and NaN
// values"), TensorFlow's texts. half and bfloat16 are checked as float.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

class CheckNumericsOp final : public OpKernel {
 public:
  explicit CheckNumericsOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("message", &message_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    bool nan = false, inf = false;
    absl::Status s =
        VisitKernelTypes<half, bfloat16, float, double>(*this, in.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          const T* x = in.flat<T>().data();
          for (int64_t i = 0; i < in.NumElements(); ++i) {
            const auto v = cwise_internal::Load(x[i]);
            nan |= std::isnan(v);
            inf |= std::isinf(v);
          }
          return absl::OkStatus();
        });
    if (!s.ok()) return s;
    if (nan || inf) {
      return absl::InvalidArgumentError(absl::StrCat(message_, " : Tensor had ", inf ? "Inf" : "",
                                                     inf && nan ? " and " : "", nan ? "NaN" : "",
                                                     " values"));
    }
    ctx.set_output(0, in);
    return absl::OkStatus();
  }

 private:
  std::string message_;
};

REGISTER_KERNEL(KernelDefBuilder("CheckNumerics")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, bfloat16, float, double>()),
                CheckNumericsOp);

}  // namespace
}  // namespace rill
