// Variables on a GPU: VariableV2 / Variable, Assign, AssignAdd / AssignSub and the resource
// variables' VarHandleOp, ReadVariableOp, AssignVariableOp, AssignAdd/SubVariableOp, float and
// double. The kernels are the CPU's (kernels/state/variable_ops.h,
// kernels/state/resource_variable_ops.h); GpuDenseOps gives them the GPU's copy (a device-to-device
// cudaMemcpyAsync) and update (the elementwise Add/Sub kernel), both on the compute stream, so a
// read enqueued later sees the new value. The variable's tensor lives in GPU memory and its Var in
// the GPU device's ResourceMgr; resource handles are host memory (strings), as in TensorFlow.
#include "absl/strings/str_cat.h"
#include "core/gpu/cuda_stream.h"
#include "core/gpu/gpu_device.h"
#include "kernels/gpu/gpu_launchers.h"
#include "kernels/gpu/gpu_op_kernel.h"
#include "kernels/state/resource_variable_ops.h"
#include "kernels/state/variable_ops.h"

namespace rill {
namespace {

using variable_kernels::AssignOp;
using variable_kernels::AssignUpdateOp;
using variable_kernels::AssignUpdateVariableOp;
using variable_kernels::AssignVariableOp;
using variable_kernels::ReadVariableOp;
using variable_kernels::VarHandleOp;
using variable_kernels::VariableOp;

struct GpuDenseOps {
  static absl::Status CheckDevice(OpKernelConstruction& ctx) {
    if (AsGpuDevice(ctx.device()) != nullptr) return absl::OkStatus();
    return absl::FailedPreconditionError(absl::StrCat(ctx.def().op(), " node ", ctx.def().name(),
                                                      " needs a CUDA GPU; ", ctx.device()->name(),
                                                      " is simulated"));
  }
  static absl::Status Copy(OpKernelContext& ctx, const Tensor& from, Tensor* to) {
    GpuDevice* gpu = AsGpuDevice(ctx.device());
    std::string error;
    if (!gpu_internal::CudaMemcpyAsync(gpu->platform_id(), to->raw_data(), from.raw_data(),
                                       from.TotalBytes(), gpu_internal::CudaCopy::kDeviceToDevice,
                                       gpu->compute_stream(), &error)) {
      return gpu->CudaError(absl::StrCat("copying into the variable of ", ctx.kernel().name()),
                            error);
    }
    return absl::OkStatus();
  }
  static absl::Status Update(OpKernelContext& ctx, DenseUpdate op, const Tensor& lhs,
                             const Tensor& rhs, Tensor* out) {
    GpuDevice* gpu = AsGpuDevice(ctx.device());
    const gpu_kernels::BinaryFn fn =
        op == DenseUpdate::kAdd ? gpu_kernels::BinaryFn::kAdd : gpu_kernels::BinaryFn::kSub;
    const int64_t n = lhs.NumElements();
    gpu_internal::CudaSetDevice(gpu->platform_id(), nullptr);  // launches go to the current GPU
    if (lhs.dtype() == DT_DOUBLE) {
      gpu_kernels::LaunchBinary<double>(fn, lhs.flat<double>().data(), rhs.flat<double>().data(),
                                        out->flat<double>().data(), n, nullptr,
                                        gpu->compute_stream());
    } else {
      gpu_kernels::LaunchBinary<float>(fn, lhs.flat<float>().data(), rhs.flat<float>().data(),
                                       out->flat<float>().data(), n, nullptr,
                                       gpu->compute_stream());
    }
    return gpu->LaunchStatus(ctx.kernel().name());
  }
};

// VariableV2 and VarHandleOp do no GPU work; they need a CUDA device like every other kernel here.
template <typename Kernel>
class OnCudaGpu final : public OpKernel {
 public:
  explicit OnCudaGpu(OpKernelConstruction& ctx) : OpKernel(ctx), kernel_(ctx) {
    ctx.SetStatus(GpuDenseOps::CheckDevice(ctx));
  }
  absl::Status Compute(OpKernelContext& ctx) const override { return kernel_.Compute(ctx); }
  bool IsExpensive() const override { return false; }

 private:
  const Kernel kernel_;
};

const std::vector<DataType> kFloatTypes = {DT_FLOAT, DT_DOUBLE};

REGISTER_GPU_KERNEL(KernelDefBuilder("VariableV2").TypeConstraint("dtype", kFloatTypes),
                    OnCudaGpu<VariableOp>);
REGISTER_GPU_KERNEL(KernelDefBuilder("Variable").TypeConstraint("dtype", kFloatTypes),
                    OnCudaGpu<VariableOp>);
REGISTER_GPU_KERNEL(KernelDefBuilder("Assign").TypeConstraint("T", kFloatTypes),
                    AssignOp<GpuDenseOps>);
REGISTER_GPU_KERNEL(KernelDefBuilder("AssignAdd").TypeConstraint("T", kFloatTypes),
                    AssignUpdateOp<DenseUpdate::kAdd, GpuDenseOps>);
REGISTER_GPU_KERNEL(KernelDefBuilder("AssignSub").TypeConstraint("T", kFloatTypes),
                    AssignUpdateOp<DenseUpdate::kSub, GpuDenseOps>);
REGISTER_GPU_KERNEL(
    KernelDefBuilder("VarHandleOp").TypeConstraint("dtype", kFloatTypes).HostMemory("resource"),
    OnCudaGpu<VarHandleOp>);
REGISTER_GPU_KERNEL(
    KernelDefBuilder("ReadVariableOp").TypeConstraint("dtype", kFloatTypes).HostMemory("resource"),
    OnCudaGpu<ReadVariableOp>);
REGISTER_GPU_KERNEL(KernelDefBuilder("AssignVariableOp")
                        .TypeConstraint("dtype", kFloatTypes)
                        .HostMemory("resource"),
                    AssignVariableOp<GpuDenseOps>);
REGISTER_GPU_KERNEL(KernelDefBuilder("AssignAddVariableOp")
                        .TypeConstraint("dtype", kFloatTypes)
                        .HostMemory("resource"),
                    AssignUpdateVariableOp<DenseUpdate::kAdd, GpuDenseOps>);
REGISTER_GPU_KERNEL(KernelDefBuilder("AssignSubVariableOp")
                        .TypeConstraint("dtype", kFloatTypes)
                        .HostMemory("resource"),
                    AssignUpdateVariableOp<DenseUpdate::kSub, GpuDenseOps>);

}  // namespace
}  // namespace rill
