// AddN on the CPU: the elementwise sum of N same-shaped tensors (no broadcasting), added in input
// order with Add's arithmetic (integers wrap). Inputs of different shapes are InvalidArgument with
// TensorFlow's text "Inputs to operation <node> of type AddN must have the same size and shape.
// Input 0: [2] != input 1: [3]". Cheap.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/add_op.h"
#include "kernels/kernel_registry.h"

namespace rill {
namespace {

class AddNOp final : public OpKernel {
 public:
  explicit AddNOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    std::vector<Tensor> inputs;
    inputs.reserve(ctx.num_inputs());
    for (int i = 0; i < ctx.num_inputs(); ++i) inputs.push_back(ctx.input(i));
    const TensorShape& shape = inputs[0].shape();
    for (size_t i = 1; i < inputs.size(); ++i) {
      if (inputs[i].shape() != shape) {
        return absl::InvalidArgumentError(
            absl::StrCat("Inputs to operation ", name(), " of type ", type_string(),
                         " must have the same size and shape.  Input 0: ", shape.DebugString(),
                         " != input ", i, ": ", inputs[i].shape().DebugString()));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    return VisitDataType(inputs[0].dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
        return absl::InvalidArgumentError(absl::StrCat("AddN node ", name(),
                                                       " has no CPU implementation for ",
                                                       DataTypeString(inputs[0].dtype())));
      } else {
        auto z = out->flat<T>();
        auto x0 = inputs[0].flat<T>();
        std::copy(x0.begin(), x0.end(), z.begin());
        for (size_t i = 1; i < inputs.size(); ++i) {
          auto x = inputs[i].flat<T>();
          for (size_t j = 0; j < z.size(); ++j) z[j] = AddValues(z[j], x[j]);
        }
        return absl::OkStatus();
      }
    });
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("AddN")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T",
                                    {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_UINT8, DT_INT8, DT_INT16,
                                     DT_INT32, DT_INT64}),
                AddNOp);

}  // namespace
}  // namespace rill
