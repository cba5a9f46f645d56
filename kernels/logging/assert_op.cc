// Assert on the CPU: nothing when the scalar condition is true; otherwise InvalidArgument
// "assertion failed: [<data 0>] [<data 1>] ...", each data tensor summarized to `summarize` values
// as TensorFlow does (Tensor::SummarizeValues). Errors: InvalidArgument "In[0] expected to be a
// scalar.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

class AssertOp final : public OpKernel {
 public:
  explicit AssertOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("summarize", &summarize_));
    ctx.SetStatus(CheckInt32Attr("summarize", summarize_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& cond = ctx.input(0);
    if (cond.shape().rank() != 0) {
      return absl::InvalidArgumentError("In[0] expected to be a scalar.");
    }
    if (cond.flat<bool>()[0]) return absl::OkStatus();
    std::string message = "assertion failed: ";
    for (int i = 1; i < ctx.num_inputs(); ++i) {
      if (i > 1) message += " ";
      absl::StrAppend(&message, "[", ctx.input(i).SummarizeValues(static_cast<int>(summarize_)),
                      "]");
    }
    return absl::InvalidArgumentError(message);
  }

 private:
  int64_t summarize_ = 3;
};

REGISTER_KERNEL(KernelDefBuilder("Assert").Device(kDeviceCpu), AssertOp);

}  // namespace
}  // namespace rill
