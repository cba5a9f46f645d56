// CUDA kernels that make or pass tensors: Fill (dims and value in host memory), Const (the value is
// decoded on the host and copied to the GPU once, when the kernel is built, through the device's
// ordered copy; every run hands out that tensor), ZerosLike and OnesLike (a fill on the compute
// stream), and the pass-through ops Identity, Snapshot, StopGradient and NoOp (no GPU work: the
// output is the input's buffer). float and double.
#include <string>

#include "absl/strings/str_cat.h"
#include "core/allocator.h"
#include "core/status_macros.h"
#include "kernels/framework/constant_value.h"
#include "kernels/framework/kernel_shapes.h"
#include "kernels/gpu/gpu_launchers.h"
#include "kernels/gpu/gpu_op_kernel.h"

namespace rill {
namespace {

class ConstGpuOp final : public GpuOpKernel {
 public:
  // InvalidArgument naming the node for a missing value or a dtype mismatch (the CPU kernel's
  // texts); Internal when the copy to the GPU fails.
  explicit ConstGpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx) {
    if (gpu() == nullptr) return;
    absl::StatusOr<Tensor> host = ConstValueFromAttrs(ctx, CpuAllocator::Default());
    if (!host.ok()) {
      ctx.SetStatus(host.status());
      return;
    }
    const DataType dtype = host->dtype();
    absl::StatusOr<Tensor> device =
        Tensor::AllocateUninitialized(gpu()->allocator(), dtype, host->shape());
    if (!device.ok()) {
      ctx.SetStatus(device.status());
      return;
    }
    // Ordered like every copy (after queued compute work, before later kernels), so the buffer
    // is neither written while a queued kernel still reads it nor read before it is written.
    absl::Status copied = gpu()->CopyHostToDevice(*host, *device);
    if (!copied.ok()) {
      ctx.SetStatus(
          absl::Status(copied.code(), absl::StrCat("copying Const node '", ctx.def().name(),
                                                   "' to the GPU: ", copied.message())));
      return;
    }
    tensor_ = *std::move(device);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, tensor_);
    return absl::OkStatus();
  }

 private:
  Tensor tensor_;  // GPU memory, written once at construction
};

template <int kValue>
class FillLikeGpuOp final : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, ctx.input(0).shape()));
    const int64_t n = out->NumElements();
    if (n == 0) return absl::OkStatus();
    if (out->dtype() == DT_HALF) {
      gpu_kernels::LaunchFillHalf(static_cast<uint16_t*>(out->raw_data()),
                                  half(static_cast<float>(kValue)).bits, n, stream());
    } else if (out->dtype() == DT_DOUBLE) {
      gpu_kernels::LaunchFill<double>(out->flat<double>().data(), kValue, n, stream());
    } else {
      gpu_kernels::LaunchFill<float>(out->flat<float>().data(), kValue, n, stream());
    }
    return Launched();
  }
};

// Fill: dims and value in host memory (as TensorFlow's GPU kernel), the fill on the GPU.
class FillGpuOp final : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& value = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(TensorShape shape, FillShapeOf(ctx.input(0), value));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    const int64_t n = out->NumElements();
    if (n == 0) return absl::OkStatus();
    if (out->dtype() == DT_HALF) {
      gpu_kernels::LaunchFillHalf(static_cast<uint16_t*>(out->raw_data()),
                                  value.flat<half>()[0].bits, n, stream());
    } else if (out->dtype() == DT_DOUBLE) {
      gpu_kernels::LaunchFill<double>(out->flat<double>().data(), value.flat<double>()[0], n,
                                      stream());
    } else {
      gpu_kernels::LaunchFill<float>(out->flat<float>().data(), value.flat<float>()[0], n,
                                     stream());
    }
    return Launched();
  }
};

class PassThroughGpuOp final : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    for (int i = 0; i < ctx.num_inputs() && i < ctx.num_outputs(); ++i) {
      ctx.set_output(i, ctx.input(i));
    }
    return absl::OkStatus();
  }
};

// float16 too: a half network's constants and pass-through nodes stay on the GPU.
const std::vector<DataType> kFloatTypes = {DT_HALF, DT_FLOAT, DT_DOUBLE};

REGISTER_GPU_KERNEL(KernelDefBuilder("Const").TypeConstraint("dtype", kFloatTypes), ConstGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("Fill")
                        .TypeConstraint("T", kFloatTypes)
                        .TypeConstraint("index_type", {DT_INT32, DT_INT64})
                        .HostMemory("dims")
                        .HostMemory("value"),
                    FillGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("ZerosLike").TypeConstraint("T", kFloatTypes),
                    FillLikeGpuOp<0>);
REGISTER_GPU_KERNEL(KernelDefBuilder("OnesLike").TypeConstraint("T", kFloatTypes),
                    FillLikeGpuOp<1>);
REGISTER_GPU_KERNEL(KernelDefBuilder("Identity").TypeConstraint("T", kFloatTypes),
                    PassThroughGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("Snapshot").TypeConstraint("T", kFloatTypes),
                    PassThroughGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("StopGradient").TypeConstraint("T", kFloatTypes),
                    PassThroughGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("NoOp"), PassThroughGpuOp);

}  // namespace
}  // namespace rill
