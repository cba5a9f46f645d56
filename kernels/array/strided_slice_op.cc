// StridedSlice: numpy-style basic indexing, input[begin:end:stride, ...] with
// TensorFlow's five masks: begin_mask/end_mask (bit i: ignore begin[i]/end[i],
// take the widest range), ellipsis_mask (bit i: spec entry i stands for as many
// whole dims as needed), new_axis_mask (bit i: insert a size-1 dim),
// shrink_axis_mask (bit i: take the single index begin[i] and drop the dim).
// The sparse spec (one entry per begin element) is expanded to a dense one (one
// entry per input dim) exactly as TensorFlow's ValidateStridedSliceOp does (the plan is
// kernels/framework/strided_slice_spec.h, shared with the CUDA kernel),
// indices are canonicalized and clamped, and the elements are gathered by size
// (every storable dtype; strings copied as strings) with contiguous runs where
// the last stride is 1. A slice of the whole input forwards its buffer.
//
// Errors (InvalidArgument, TensorFlow's texts): "Expected begin, end, and
// strides to be 1D equal size tensors, but got shapes [2], [3], and [2]
// instead.", "Multiple ellipses in slice spec not allowed", "Index out of range
// using input dim 2; input has only 2 dims", "strides[1] must be non-zero",
// "only stride 1 allowed on non-range indexing.", "slice index 5 of dimension 0
// out of bounds.".
//
// Thread safety: Compute is const and keeps no state; concurrent steps are
// safe.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/framework/strided_slice_spec.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

class StridedSliceOp final : public OpKernel {
 public:
  explicit StridedSliceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("begin_mask", &masks_.begin));
    ctx.SetStatus(ctx.GetAttr("end_mask", &masks_.end));
    ctx.SetStatus(ctx.GetAttr("ellipsis_mask", &masks_.ellipsis));
    ctx.SetStatus(ctx.GetAttr("new_axis_mask", &masks_.new_axis));
    ctx.SetStatus(ctx.GetAttr("shrink_axis_mask", &masks_.shrink_axis));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const TensorShape& shape = input.shape();
    RILL_ASSIGN_OR_RETURN(
        StridedSlicePlan plan,
        StridedSlicePlanOf(shape, ctx.input(1), ctx.input(2), ctx.input(3), masks_));
    const TensorShape& final_shape = plan.final_shape;
    if (plan.identity) {
      RILL_ASSIGN_OR_RETURN(Tensor out, input.Reshaped(final_shape));
      ctx.set_output(0, std::move(out));
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, final_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      StridedCopy(ElementsOf<T>(input), shape.dims(), plan.begin, plan.strides,
                  plan.processing_dims, ElementsOf<T>(*out));
      return absl::OkStatus();
    });
  }

 private:
  StridedSliceMasks masks_;
};

REGISTER_KERNEL(KernelDefBuilder("StridedSlice")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Index", {DT_INT16, DT_INT32, DT_INT64}),
                StridedSliceOp);
// int32 on a GPU (shape arithmetic) lives in host memory: this host code serves it, as
// TensorFlow's int32 GPU kernel; real GPUs only.
REGISTER_KERNEL(KernelDefBuilder("StridedSlice")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("T", {DT_INT32})
                    .TypeConstraint("Index", {DT_INT32}),
                StridedSliceOp);

}  // namespace
}  // namespace rill
