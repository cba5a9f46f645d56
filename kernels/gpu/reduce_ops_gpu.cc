// CUDA kernels of the reductions Sum, Mean, Prod, Max and Min (float, double; reduction_indices
// int32/int64 in host memory, as TensorFlow's GPU kernels take them) over any set of axes, and of
// Softmax / LogSoftmax over the last dimension. The plan (axes, output shape, TensorFlow's
// "Invalid reduction dimension" error) is the CPU kernels' (kernels/math/reduction_plan.h); the
// work is one launch, one block per output element, or two when the outputs are too few to fill the
// GPU (partial results per block, then their reduction).
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_shapes.h"
#include "kernels/gpu/gpu_launchers.h"
#include "kernels/gpu/gpu_op_kernel.h"
#include "kernels/math/reduction_plan.h"

namespace rill {
namespace {

using gpu_kernels::ReduceFn;

template <ReduceFn kFn>
class ReduceGpuOp final : public GpuOpKernel {
 public:
  explicit ReduceGpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("keep_dims", &keep_dims_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& axes = ctx.input(1);  // host memory
    if (axes.shape().rank() > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "reduction_indices must be a scalar or a vector, got ", axes.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(ReductionPlan plan, PlanReduction(in.shape(), axes, keep_dims_));
    const int rank = in.shape().rank();
    if (rank > gpu_kernels::kMaxRank) {
      return absl::UnimplementedError(absl::StrCat(type_string(), " node ", name(),
                                                   " on the GPU reduces up to ",
                                                   gpu_kernels::kMaxRank, " dimensions"));
    }
    gpu_kernels::ReduceIndex index;
    int64_t stride = 1;
    int64_t kept_strides[gpu_kernels::kMaxRank], kept_dims[gpu_kernels::kMaxRank];
    int64_t red_strides[gpu_kernels::kMaxRank], red_dims[gpu_kernels::kMaxRank];
    int kept = 0, reduced = 0;
    for (int d = rank - 1; d >= 0; --d) {  // innermost first, reversed below
      if (plan.reduced[d]) {
        red_dims[reduced] = in.shape().dim(d);
        red_strides[reduced++] = stride;
      } else {
        kept_dims[kept] = in.shape().dim(d);
        kept_strides[kept++] = stride;
      }
      stride *= in.shape().dim(d);
    }
    for (int i = 0; i < kept; ++i) {
      index.kept_dims[i] = kept_dims[kept - 1 - i];
      index.kept_strides[i] = kept_strides[kept - 1 - i];
      index.outputs *= kept_dims[i];
    }
    for (int i = 0; i < reduced; ++i) {
      index.reduced_dims[i] = red_dims[reduced - 1 - i];
      index.reduced_strides[i] = red_strides[reduced - 1 - i];
    }
    index.kept_rank = kept;
    index.reduced_rank = reduced;
    index.reduced_count = plan.count;
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.output));
    if (out->NumElements() == 0) return absl::OkStatus();
    // Partial results of a reduction to few outputs (freed when Compute returns: later work on
    // the compute stream, the only one that touches it, runs after both launches).
    const int64_t parts = gpu_kernels::ReduceParts(index);
    Tensor scratch;
    if (parts > 1) {
      RILL_ASSIGN_OR_RETURN(scratch,
                            ctx.allocate_temp(in.dtype(), TensorShape({index.outputs * parts})));
    }
    if (in.dtype() == DT_DOUBLE) {
      gpu_kernels::LaunchReduce<double>(kFn, in.flat<double>().data(), out->flat<double>().data(),
                                        index, parts > 1 ? scratch.flat<double>().data() : nullptr,
                                        stream());
    } else {
      gpu_kernels::LaunchReduce<float>(kFn, in.flat<float>().data(), out->flat<float>().data(),
                                       index, parts > 1 ? scratch.flat<float>().data() : nullptr,
                                       stream());
    }
    return Launched();
  }

 private:
  bool keep_dims_ = false;
};

template <bool kLog>
class SoftmaxGpuOp final : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& logits = ctx.input(0);
    const TensorShape& shape = logits.shape();
    RILL_RETURN_IF_ERROR(CheckSoftmaxLogits(shape));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (shape.num_elements() == 0) return absl::OkStatus();
    const int64_t cols = shape.dim(shape.rank() - 1);
    const int64_t rows = shape.num_elements() / cols;
    if (logits.dtype() == DT_DOUBLE) {
      gpu_kernels::LaunchSoftmax<double>(logits.flat<double>().data(), out->flat<double>().data(),
                                         rows, cols, kLog, stream());
    } else {
      gpu_kernels::LaunchSoftmax<float>(logits.flat<float>().data(), out->flat<float>().data(),
                                        rows, cols, kLog, stream());
    }
    return Launched();
  }
};

const std::vector<DataType> kFloatTypes = {DT_FLOAT, DT_DOUBLE};

#define RILL_GPU_REDUCE(op, fn)                                         \
  REGISTER_GPU_KERNEL(KernelDefBuilder(op)                              \
                          .TypeConstraint("T", kFloatTypes)             \
                          .TypeConstraint("Tidx", {DT_INT32, DT_INT64}) \
                          .HostMemory("reduction_indices"),             \
                      ReduceGpuOp<ReduceFn::fn>)
RILL_GPU_REDUCE("Sum", kSum);
RILL_GPU_REDUCE("Mean", kMean);
RILL_GPU_REDUCE("Prod", kProd);
RILL_GPU_REDUCE("Max", kMax);
RILL_GPU_REDUCE("Min", kMin);
#undef RILL_GPU_REDUCE

REGISTER_GPU_KERNEL(KernelDefBuilder("Softmax").TypeConstraint("T", kFloatTypes),
                    SoftmaxGpuOp<false>);
REGISTER_GPU_KERNEL(KernelDefBuilder("LogSoftmax").TypeConstraint("T", kFloatTypes),
                    SoftmaxGpuOp<true>);

}  // namespace
}  // namespace rill
