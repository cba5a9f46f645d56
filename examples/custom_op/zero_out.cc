// A library of custom ops for TF_LoadLibrary, written with Rill's C++ registration: ZeroOut, the
// op of TensorFlow's "create an op" guide (an int32 tensor in, the same shape out, every element
// zero but the first).
//
// Built against Rill's installed headers and linked with libtensorflow.so.2, which holds the op
// and kernel registries this code registers into (examples/cmake/CMakeLists.txt, target
// zero_out); a program then loads it with TF_LoadLibrary("libzero_out.so", status) and uses
// "ZeroOut" like any other op (load_custom_op.c).
#include <cstdint>

#include "absl/status/status.h"
#include "core/tensor.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"

namespace zero_out {

REGISTER_OP("ZeroOut")
    .Input("to_zero: int32")
    .Output("zeroed: int32")
    .SetShapeFn(::rill::shape_fns::Unchanged)
    .Doc("Copies the first element of to_zero and zeroes the others.");

class ZeroOutOp final : public ::rill::OpKernel {
 public:
  explicit ZeroOutOp(::rill::OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(::rill::OpKernelContext& ctx) const override {
    const ::rill::Tensor& input = ctx.input(0);
    absl::StatusOr<::rill::Tensor*> output = ctx.allocate_output(0, input.shape());
    if (!output.ok()) return output.status();
    auto in = input.flat<int32_t>();
    auto out = (*output)->flat<int32_t>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = i == 0 ? in[0] : 0;
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(::rill::KernelDefBuilder("ZeroOut").Device(::rill::kDeviceCpu), ZeroOutOp);

}  // namespace zero_out
