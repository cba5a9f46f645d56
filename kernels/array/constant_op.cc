// Const on the CPU: the `value` tensor is decoded once, when the kernel is built (from ctx.def():
// the kernel's own def() has no `value`, kernels/framework/op_kernel.cc), and every run hands out
// that same (shared, immutable) tensor. Cheap: runs inline on the executor's thread.
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/allocator.h"
#include "core/quantized_types.h"
#include "core/tensor_proto.h"
#include "kernels/framework/constant_value.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

class ConstOp final : public OpKernel {
 public:
  // InvalidArgument naming the node for a missing or malformed `value`, or when `dtype` differs
  // from the value's dtype.
  explicit ConstOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    // Host memory on every device: on a GPU (int32, below) the device's allocator is GPU memory,
    // which the host cannot decode into.
    Allocator* allocator = ctx.device()->device_type() == kDeviceCpu ? ctx.device()->allocator()
                                                                     : CpuAllocator::Default();
    absl::StatusOr<Tensor> t = ConstValueFromAttrs(ctx, allocator);
    if (t.ok()) tensor_ = *std::move(t);
    ctx.SetStatus(t.status());
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, tensor_);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  Tensor tensor_;  // Never written after construction; shared with every run's output.
};

REGISTER_KERNEL(KernelDefBuilder("Const")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", WithQuantizedTypes(StorableTypes())),
                ConstOp);
// int32 on a GPU lives on the host (TensorFlow's HostConstantOp): an int32 Const follows its
// consumer onto the GPU (a shape into Reshape, a loop counter's step inside a while loop) without
// a transfer. NeedsCuda: real GPUs only.
REGISTER_KERNEL(KernelDefBuilder("Const")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("dtype", {DT_INT32})
                    .HostMemory("output"),
                ConstOp);

}  // namespace
}  // namespace rill
