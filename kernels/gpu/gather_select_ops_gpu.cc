// CUDA kernels of GatherV2 and Gather (params on the GPU, GatherV2's axis in host memory; float,
// double, int64) and of Select and SelectV2 (a bool condition on the GPU; float, double, int64,
// bool). The plans and their errors are the CPU kernels' (kernels/framework/array_shapes.h).
// int32 params and values stay on the CPU: int32 tensors on a GPU live in host memory.
//
// Indices: int32 indices are in host memory (as every int32 tensor on a GPU), so they are checked
// there with the CPU kernel's error ("indices[1] = 7 is not in [0, 5)") and copied to the GPU.
// int64 indices are in GPU memory; checking them would wait for the GPU in the middle of a step,
// so an out-of-range int64 index gathers zeros, as TensorFlow's GPU kernel does.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/gpu/broadcast_index.h"
#include "kernels/gpu/copy_launchers.h"
#include "kernels/gpu/gpu_op_kernel.h"
#include "kernels/math_lib/broadcast.h"

namespace rill {
namespace {

class GatherGpuOp final : public GpuOpKernel {
 public:
  explicit GatherGpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx) {
    has_axis_ = ctx.def().op() == "GatherV2";
    if (has_axis_) ctx.SetStatus(ctx.GetAttr("batch_dims", &batch_dims_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& params = ctx.input(0);
    const Tensor& indices = ctx.input(1);
    int64_t axis = 0;
    if (has_axis_) {
      RILL_ASSIGN_OR_RETURN(axis, GatherAxisOf(ctx.input(2)));
    }
    RILL_ASSIGN_OR_RETURN(GatherPlan plan,
                          GatherPlanOf(params.shape(), indices.shape(), axis, batch_dims_));
    const int size = DataTypeSize(params.dtype());
    if (indices.dtype() == DT_INT32) {
      // int32 tensors on a GPU live in host memory: the indices are checked here, with the CPU
      // kernel's error, and copied to the GPU (an ordered copy; no wait).
      const int32_t* index = indices.flat<int32_t>().data();
      for (int64_t i = 0; i < indices.NumElements(); ++i) {
        if (index[i] < 0 || index[i] >= plan.gather_dim) {
          return GatherIndexError(indices.shape(), i, index[i], plan.gather_dim);
        }
      }
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
      if (out->NumElements() == 0) return absl::OkStatus();
      RILL_ASSIGN_OR_RETURN(
          Tensor device_index,
          Tensor::AllocateUninitialized(gpu()->allocator(), DT_INT32, indices.shape()));
      void* s = stream();
      RILL_RETURN_IF_ERROR(gpu()->CopyHostToDevice(indices, device_index));
      gpu_kernels::LaunchGather<int32_t>(params.raw_data(), device_index.flat<int32_t>().data(),
                                         out->raw_data(), size, plan.batch, plan.outer,
                                         plan.gather_dim, plan.inner, plan.n, s);
    } else {
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
      if (out->NumElements() == 0) return absl::OkStatus();
      gpu_kernels::LaunchGather<int64_t>(params.raw_data(), indices.flat<int64_t>().data(),
                                         out->raw_data(), size, plan.batch, plan.outer,
                                         plan.gather_dim, plan.inner, plan.n, stream());
    }
    return Launched();
  }

 private:
  bool has_axis_ = false;
  int64_t batch_dims_ = 0;
};

class SelectGpuOp final : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& cond = ctx.input(0);
    const Tensor& t = ctx.input(1);
    const Tensor& e = ctx.input(2);
    RILL_ASSIGN_OR_RETURN(SelectMode mode,
                          SelectModeOf(cond.shape(), t.shape(), e.shape(), name(), type_string()));
    // A scalar condition lives on the GPU too, so it picks per element rather than on the host.
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, t.shape()));
    const int64_t n = out->NumElements();
    if (n == 0) return absl::OkStatus();
    const int64_t rows =
        mode == SelectMode::kRows ? cond.NumElements() : (mode == SelectMode::kScalar ? 1 : 0);
    gpu_kernels::LaunchSelect(cond.flat<bool>().data(), t.raw_data(), e.raw_data(), out->raw_data(),
                              DataTypeSize(t.dtype()), n, rows, nullptr, stream());
    return Launched();
  }
};

class SelectV2GpuOp final : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& cond = ctx.input(0);
    const Tensor& t = ctx.input(1);
    const Tensor& e = ctx.input(2);
    RILL_ASSIGN_OR_RETURN(TensorShape shape, SelectV2ShapeOf(cond.shape(), t.shape(), e.shape()));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    const int64_t n = out->NumElements();
    if (n == 0) return absl::OkStatus();
    const bool same = cond.shape() == shape && t.shape() == shape && e.shape() == shape;
    gpu_kernels::SelectIndex index;
    if (!same) {
      const TensorShape* const operands[3] = {&cond.shape(), &t.shape(), &e.shape()};
      RILL_RETURN_IF_ERROR(
          gpu_broadcast::FillBroadcast<3>(operands, shape, index.out_dims, index.strides));
      index.rank = shape.rank();
    }
    gpu_kernels::LaunchSelect(cond.flat<bool>().data(), t.raw_data(), e.raw_data(), out->raw_data(),
                              DataTypeSize(t.dtype()), n, 0, same ? nullptr : &index, stream());
    return Launched();
  }
};

const std::vector<DataType> kIndexTypes = {DT_INT32, DT_INT64};
const std::vector<DataType> kParamTypes = {DT_FLOAT, DT_DOUBLE, DT_INT64};

REGISTER_GPU_KERNEL(KernelDefBuilder("GatherV2")
                        .TypeConstraint("Tparams", kParamTypes)
                        .TypeConstraint("Tindices", kIndexTypes)
                        .TypeConstraint("Taxis", kIndexTypes)
                        .HostMemory("axis"),
                    GatherGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("Gather")
                        .TypeConstraint("Tparams", kParamTypes)
                        .TypeConstraint("Tindices", kIndexTypes),
                    GatherGpuOp);
const std::vector<DataType> kSelectTypes = {DT_FLOAT, DT_DOUBLE, DT_INT64, DT_BOOL};
REGISTER_GPU_KERNEL(KernelDefBuilder("Select").TypeConstraint("T", kSelectTypes), SelectGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("SelectV2").TypeConstraint("T", kSelectTypes), SelectV2GpuOp);

}  // namespace
}  // namespace rill
