// Identity, IdentityN, RefIdentity and NoOp on the CPU. Identity of a ref input (a TF1 variable's
// `v/read`) outputs the variable's current value: a handle sharing the variable's buffer, read
// under the variable's mutex (TensorFlow's snapshot semantics for ref reads). RefIdentity outputs
// the reference itself (the variable, initialized or not), so later assignments through it reach
// the variable. All cheap.
#include <vector>

#include "core/quantized_types.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

// Output i = input i (reading through refs).
class IdentityOp final : public OpKernel {
 public:
  explicit IdentityOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    for (int i = 0; i < ctx.num_inputs() && i < ctx.num_outputs(); ++i) {
      ctx.set_output(i, ctx.input(i));
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

// Output 0 = the reference input 0 (a non-ref input, which a valid graph never gives, is passed
// by value).
class RefIdentityOp final : public OpKernel {
 public:
  explicit RefIdentityOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    if (ctx.input_value(0).is_ref()) {
      ctx.forward_ref_input_to_ref_output(0, 0);
    } else {
      ctx.set_output(0, ctx.input_value(0).tensor);
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class NoOp final : public OpKernel {
 public:
  explicit NoOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext&) const override { return absl::OkStatus(); }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("Identity")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", WithQuantizedTypes(PassThroughTypes())),
                IdentityOp);
REGISTER_KERNEL(
    KernelDefBuilder("IdentityN").Device(kDeviceCpu).TypeConstraint("T", PassThroughTypes()),
    IdentityOp);
REGISTER_KERNEL(
    KernelDefBuilder("RefIdentity").Device(kDeviceCpu).TypeConstraint("T", PassThroughTypes()),
    RefIdentityOp);
REGISTER_KERNEL(KernelDefBuilder("NoOp").Device(kDeviceCpu), NoOp);
// GuaranteeConst (a promise for the grappler, a pass-through at run time) and DeepCopy (whose
// copy no Rill kernel can tell from the input: kernels write in place only into buffers nothing
// else holds) pass their input through.
std::vector<DataType> CopyTypes() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32,     DT_INT64,      DT_UINT8,
          DT_INT8,  DT_INT16,  DT_BOOL, DT_COMPLEX64, DT_COMPLEX128, DT_STRING};
}
REGISTER_KERNEL(
    KernelDefBuilder("GuaranteeConst").Device(kDeviceCpu).TypeConstraint("T", CopyTypes()),
    IdentityOp);
REGISTER_KERNEL(KernelDefBuilder("DeepCopy").Device(kDeviceCpu).TypeConstraint("T", CopyTypes()),
                IdentityOp);
// On a GPU, int32 (as TensorFlow's int32 GPU kernels), bool and variant (a TensorList's handle)
// pass in host memory: a while loop's counter, its condition (an int32 comparison's bool on the
// way to LoopCond) and its lists pass the body's and condition's Identity nodes without leaving
// the host or the GPU's partition. NeedsCuda: real GPUs only.
REGISTER_KERNEL(KernelDefBuilder("Identity")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("T", {DT_INT32, DT_BOOL, DT_VARIANT})
                    .HostMemory("input")
                    .HostMemory("output"),
                IdentityOp);

}  // namespace
}  // namespace rill
