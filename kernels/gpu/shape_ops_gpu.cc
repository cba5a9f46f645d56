// CUDA kernels of the layout ops models use between layers: Transpose, Slice, StridedSlice (every
// mask), ConcatV2, Pack, Unpack, Split, SplitV, Pad, PadV2, Tile and ReverseV2; float, double,
// int64 and bool. Their shape arguments (perm, begin/size/end/strides, axis, split_dim,
// size_splits, paddings, constant_values, multiples) are in host memory, as TensorFlow's GPU
// kernels take them; the plan and its errors are the CPU kernels' (kernels/framework/
// array_shapes.h, strided_slice_spec.h). The work is the strided copy of copy_ops.cu: one launch
// per op, per input (ConcatV2, Pack) or per output (Unpack, Split, SplitV); Pad fills the output
// first. A plan that moves nothing forwards the input's buffer, as on the CPU.
//
// int32 is left to the CPU: TensorFlow's int32 GPU kernels of these ops keep every argument in
// host memory (shape arithmetic), which the placer gets by leaving them there.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/strided_slice_spec.h"
#include "kernels/gpu/copy_box.h"
#include "kernels/gpu/copy_launchers.h"
#include "kernels/gpu/gpu_op_kernel.h"

namespace rill {
namespace {

using gpu_kernels::StridedCopy;

using gpu_copy::CopyBox;
using gpu_copy::RowMajor;

class CopyGpuOpKernel : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;

 protected:
  // Launches `box` from src to dst (copy_box.h merges its dims).
  absl::Status Copy(const CopyBox& box, const Tensor& src, Tensor* dst) const {
    StridedCopy copy;
    absl::StatusOr<bool> any = gpu_copy::MergeCopyBox(box, &copy);
    if (!any.ok()) {
      return absl::UnimplementedError(
          absl::StrCat(type_string(), " node ", name(), ": ", any.status().message()));
    }
    if (!*any) return absl::OkStatus();
    gpu_kernels::LaunchStridedCopy(copy, DataTypeSize(src.dtype()), src.raw_data(), dst->raw_data(),
                                   stream());
    return Launched();
  }
};

class TransposeGpuOp final : public CopyGpuOpKernel {
 public:
  using CopyGpuOpKernel::CopyGpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(TransposePlan plan, TransposePlanOf(input.shape(), ctx.input(1)));
    if (plan.identity) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    CopyBox box(plan.out_shape.dims());
    const std::vector<int64_t> in_strides = RowMajor(input.shape().dims());
    for (size_t k = 0; k < plan.perm.size(); ++k) box.src_strides[k] = in_strides[plan.perm[k]];
    return Copy(box, input, out);
  }
};

class SliceGpuOp final : public CopyGpuOpKernel {
 public:
  using CopyGpuOpKernel::CopyGpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(SlicePlan plan, SlicePlanOf(input.shape(), ctx.input(1), ctx.input(2)));
    if (plan.identity) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    CopyBox box(plan.size);
    box.src_strides = RowMajor(input.shape().dims());
    for (size_t d = 0; d < plan.begin.size(); ++d) {
      box.src_base += plan.begin[d] * box.src_strides[d];
    }
    return Copy(box, input, out);
  }
};

class StridedSliceGpuOp final : public CopyGpuOpKernel {
 public:
  explicit StridedSliceGpuOp(OpKernelConstruction& ctx) : CopyGpuOpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("begin_mask", &masks_.begin));
    ctx.SetStatus(ctx.GetAttr("end_mask", &masks_.end));
    ctx.SetStatus(ctx.GetAttr("ellipsis_mask", &masks_.ellipsis));
    ctx.SetStatus(ctx.GetAttr("new_axis_mask", &masks_.new_axis));
    ctx.SetStatus(ctx.GetAttr("shrink_axis_mask", &masks_.shrink_axis));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(
        StridedSlicePlan plan,
        StridedSlicePlanOf(input.shape(), ctx.input(1), ctx.input(2), ctx.input(3), masks_));
    if (plan.identity) {
      RILL_ASSIGN_OR_RETURN(Tensor out, input.Reshaped(plan.final_shape));
      ctx.set_output(0, std::move(out));
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.final_shape));
    CopyBox box(plan.processing_dims);
    const std::vector<int64_t> in_strides = RowMajor(input.shape().dims());
    for (size_t d = 0; d < plan.begin.size(); ++d) {
      box.src_base += plan.begin[d] * in_strides[d];
      box.src_strides[d] = plan.strides[d] * in_strides[d];
    }
    return Copy(box, input, out);
  }

 private:
  StridedSliceMasks masks_;
};

class ConcatV2GpuOp final : public CopyGpuOpKernel {
 public:
  using CopyGpuOpKernel::CopyGpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const int n = ctx.num_inputs() - 1;
    std::vector<TensorShape> shapes;
    for (int i = 0; i < n; ++i) shapes.push_back(ctx.input(i).shape());
    RILL_ASSIGN_OR_RETURN(ConcatPlan plan, ConcatPlanOf(shapes, ctx.input(n), "axis"));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    const std::vector<int64_t> out_strides = RowMajor(plan.out_shape.dims());
    int64_t offset = 0;
    for (int i = 0; i < n; ++i) {
      CopyBox box(shapes[i].dims());
      box.dst_strides = out_strides;
      box.dst_base = offset * out_strides[plan.axis];
      RILL_RETURN_IF_ERROR(Copy(box, ctx.input(i), out));
      offset += shapes[i].dim(plan.axis);
    }
    return absl::OkStatus();
  }
};

class PackGpuOp final : public CopyGpuOpKernel {
 public:
  explicit PackGpuOp(OpKernelConstruction& ctx) : CopyGpuOpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("axis", &axis_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const int n = ctx.num_inputs();
    std::vector<TensorShape> shapes;
    for (int i = 0; i < n; ++i) shapes.push_back(ctx.input(i).shape());
    RILL_ASSIGN_OR_RETURN(ConcatPlan plan, PackPlanOf(shapes, axis_));
    if (n == 1) {  // a reshape: share the buffer
      RILL_ASSIGN_OR_RETURN(Tensor out, ctx.input(0).Reshaped(plan.out_shape));
      ctx.set_output(0, std::move(out));
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    const std::vector<int64_t> out_strides = RowMajor(plan.out_shape.dims());
    std::vector<int64_t> dims(plan.out_shape.dims().begin(), plan.out_shape.dims().end());
    dims[plan.axis] = 1;  // each input is one slice along the new axis
    for (int i = 0; i < n; ++i) {
      CopyBox box(dims);
      box.dst_strides = out_strides;
      box.dst_base = i * out_strides[plan.axis];
      RILL_RETURN_IF_ERROR(Copy(box, ctx.input(i), out));
    }
    return absl::OkStatus();
  }

 private:
  int64_t axis_ = 0;
};

// Split, SplitV and Unpack: output i is the input's slice [start_i, start_i + sizes[i]) along the
// plan's axis (dropped for Unpack).
enum class SplitKind { kSplit, kSplitV, kUnpack };

template <SplitKind kKind>
class SplitGpuOp final : public CopyGpuOpKernel {
 public:
  explicit SplitGpuOp(OpKernelConstruction& ctx) : CopyGpuOpKernel(ctx) {
    if (kKind == SplitKind::kUnpack) ctx.SetStatus(ctx.GetAttr("axis", &axis_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const int num = ctx.num_outputs();
    const Tensor& input = ctx.input(kKind == SplitKind::kSplit ? 1 : 0);
    SplitPlan plan;
    if (kKind == SplitKind::kSplit) {
      RILL_ASSIGN_OR_RETURN(plan, SplitPlanOf(input.shape(), ctx.input(0), num));
    } else if (kKind == SplitKind::kSplitV) {
      RILL_ASSIGN_OR_RETURN(plan, SplitVPlanOf(input.shape(), ctx.input(1), ctx.input(2), num));
    } else {
      RILL_ASSIGN_OR_RETURN(plan, UnpackPlanOf(input.shape(), axis_, num));
    }
    const bool drop_axis = kKind == SplitKind::kUnpack;
    if (num == 1 && !drop_axis) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    const std::vector<int64_t> in_strides = RowMajor(input.shape().dims());
    int64_t start = 0;
    for (int i = 0; i < num; ++i) {
      RILL_ASSIGN_OR_RETURN(TensorShape shape, SplitOutputShape(input.shape(), plan, i, drop_axis));
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(i, shape));
      std::vector<int64_t> dims(input.shape().dims().begin(), input.shape().dims().end());
      dims[plan.axis] = plan.sizes[i];
      CopyBox box(dims);  // the destination is row-major over these dims, as `out` is
      box.src_strides = in_strides;
      box.src_base = start * in_strides[plan.axis];
      RILL_RETURN_IF_ERROR(Copy(box, input, out));
      start += plan.sizes[i];
    }
    return absl::OkStatus();
  }

 private:
  int64_t axis_ = 0;
};

// Pad and PadV2 (constant_values a host scalar): fill, then copy the input into the interior.
class PadGpuOp final : public CopyGpuOpKernel {
 public:
  using CopyGpuOpKernel::CopyGpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const bool has_constant = ctx.num_inputs() == 3;
    RILL_ASSIGN_OR_RETURN(PadPlan plan, PadPlanOf(input.shape(), ctx.input(1),
                                                  has_constant ? &ctx.input(2) : nullptr));
    if (plan.out_shape.num_elements() == input.NumElements()) {  // nothing padded
      RILL_ASSIGN_OR_RETURN(Tensor out, input.Reshaped(plan.out_shape));
      ctx.set_output(0, std::move(out));
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    const int size = DataTypeSize(input.dtype());
    uint64_t zero = 0;
    const void* value = has_constant ? ctx.input(2).raw_data() : &zero;
    gpu_kernels::LaunchFillBytes(out->raw_data(), value, size, out->NumElements(), stream());
    RILL_RETURN_IF_ERROR(Launched());
    CopyBox box(input.shape().dims());
    box.dst_strides = RowMajor(plan.out_shape.dims());
    for (size_t d = 0; d < plan.before.size(); ++d) {
      box.dst_base += plan.before[d] * box.dst_strides[d];
    }
    return Copy(box, input, out);
  }
};

class TileGpuOp final : public CopyGpuOpKernel {
 public:
  using CopyGpuOpKernel::CopyGpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(TilePlan plan, TilePlanOf(input.shape(), ctx.input(1)));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    CopyBox box(plan.out_shape.dims());
    box.src_strides = RowMajor(input.shape().dims());
    for (size_t d = 0; d < plan.multiples.size(); ++d) {
      if (plan.multiples[d] != 1) box.src_mod[d] = input.shape().dim(static_cast<int>(d));
    }
    return Copy(box, input, out);
  }
};

class ReverseV2GpuOp final : public CopyGpuOpKernel {
 public:
  using CopyGpuOpKernel::CopyGpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(std::vector<bool> reversed, ReversedDimsOf(input.shape(), ctx.input(1)));
    bool any = false;
    for (bool r : reversed) any |= r;
    if (!any) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, input.shape()));
    if (input.NumElements() == 0) return absl::OkStatus();
    CopyBox box(input.shape().dims());
    for (size_t d = 0; d < reversed.size(); ++d) {
      if (!reversed[d]) continue;
      box.src_base += (box.dims[d] - 1) * box.src_strides[d];
      box.src_strides[d] = -box.src_strides[d];
    }
    return Copy(box, input, out);
  }
};

const std::vector<DataType> kTypes = {DT_FLOAT, DT_DOUBLE, DT_INT64, DT_BOOL};
const std::vector<DataType> kIndexTypes = {DT_INT32, DT_INT64};

REGISTER_GPU_KERNEL(KernelDefBuilder("Transpose")
                        .TypeConstraint("T", kTypes)
                        .TypeConstraint("Tperm", kIndexTypes)
                        .HostMemory("perm"),
                    TransposeGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("Slice")
                        .TypeConstraint("T", kTypes)
                        .TypeConstraint("Index", kIndexTypes)
                        .HostMemory("begin")
                        .HostMemory("size"),
                    SliceGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("StridedSlice")
                        .TypeConstraint("T", kTypes)
                        .TypeConstraint("Index", kIndexTypes)
                        .HostMemory("begin")
                        .HostMemory("end")
                        .HostMemory("strides"),
                    StridedSliceGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("ConcatV2")
                        .TypeConstraint("T", kTypes)
                        .TypeConstraint("Tidx", kIndexTypes)
                        .HostMemory("axis"),
                    ConcatV2GpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("Pack").TypeConstraint("T", kTypes), PackGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("Unpack").TypeConstraint("T", kTypes),
                    SplitGpuOp<SplitKind::kUnpack>);
REGISTER_GPU_KERNEL(KernelDefBuilder("Split").TypeConstraint("T", kTypes).HostMemory("split_dim"),
                    SplitGpuOp<SplitKind::kSplit>);
REGISTER_GPU_KERNEL(KernelDefBuilder("SplitV")
                        .TypeConstraint("T", kTypes)
                        .TypeConstraint("Tlen", {DT_INT32, DT_INT64})
                        .HostMemory("size_splits")
                        .HostMemory("split_dim"),
                    SplitGpuOp<SplitKind::kSplitV>);
REGISTER_GPU_KERNEL(KernelDefBuilder("Pad")
                        .TypeConstraint("T", kTypes)
                        .TypeConstraint("Tpaddings", kIndexTypes)
                        .HostMemory("paddings"),
                    PadGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("PadV2")
                        .TypeConstraint("T", kTypes)
                        .TypeConstraint("Tpaddings", kIndexTypes)
                        .HostMemory("paddings")
                        .HostMemory("constant_values"),
                    PadGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("Tile")
                        .TypeConstraint("T", kTypes)
                        .TypeConstraint("Tmultiples", kIndexTypes)
                        .HostMemory("multiples"),
                    TileGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("ReverseV2")
                        .TypeConstraint("T", kTypes)
                        .TypeConstraint("Tidx", kIndexTypes)
                        .HostMemory("axis"),
                    ReverseV2GpuOp);

}  // namespace
}  // namespace rill
