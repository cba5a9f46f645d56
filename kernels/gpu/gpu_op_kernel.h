// GpuOpKernel: the base of Rill's CUDA kernels. It finds the node's GpuDevice when the kernel is
// built (FailedPrecondition naming the node and device when the device is not a CUDA GPU: a
// simulated GPU in a test, whose sessions hide CUDA kernels from the placer anyway) and counts
// as cheap: Compute only enqueues on the device's compute stream, so the executor runs it inline.
//
//   class ReluGpuOp : public GpuOpKernel { ... LaunchUnary(..., stream()); return Launched(); };
//   REGISTER_GPU_KERNEL(KernelDefBuilder("Relu").TypeConstraint("T", {DT_FLOAT}), ReluGpuOp);
//
// Thread-safe as OpKernels are (Compute is const; launches on one stream are ordered).
#ifndef RILL_KERNELS_GPU_GPU_OP_KERNEL_H_
#define RILL_KERNELS_GPU_GPU_OP_KERNEL_H_

#include "absl/strings/str_cat.h"
#include "core/gpu/cuda_stream.h"
#include "core/gpu/gpu_device.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"

namespace rill {

class GpuOpKernel : public OpKernel {
 public:
  explicit GpuOpKernel(OpKernelConstruction& ctx) : OpKernel(ctx), gpu_(AsGpuDevice(ctx.device())) {
    if (gpu_ == nullptr) {
      ctx.SetStatus(absl::FailedPreconditionError(
          absl::StrCat(ctx.def().op(), " node ", ctx.def().name(), " has only a CUDA kernel on ",
                       ctx.device()->name(),
                       ", which is not a CUDA GPU (a simulated GPU); pin the node to "
                       "a CPU or run on a machine with a GPU")));
    }
  }
  bool IsExpensive() const override { return false; }

 protected:
  GpuDevice* gpu() const { return gpu_; }
  // The compute stream, with this GPU made the thread's current device: CUDA launches only on
  // streams of the current device (executor and waiter threads serve several GPUs).
  void* stream() const {
    gpu_internal::CudaSetDevice(gpu_->platform_id(), nullptr);
    return gpu_->compute_stream();
  }
  // OK, or Internal naming this node when the launch just made failed.
  absl::Status Launched() const { return gpu_->LaunchStatus(name()); }

 private:
  GpuDevice* const gpu_;  // Not owned; the device outlives its kernels.
};

// Registers a CUDA kernel: device GPU, marked NeedsCuda.
#define REGISTER_GPU_KERNEL(builder, ...) \
  REGISTER_KERNEL((builder).Device(::rill::kDeviceGpu).NeedsCuda(), __VA_ARGS__)

}  // namespace rill

#endif  // RILL_KERNELS_GPU_GPU_OP_KERNEL_H_
