// Split (num_split equal pieces along split_dim), SplitV (pieces of the sizes
// in size_splits, one of them possibly -1 for "the rest") and Unpack (num
// slices along `axis`, which is dropped). All view the input as [outer, dim *
// inner] (outer = the dims before the axis) and copy contiguous row pieces into
// each output. Elements are moved by size, so every storable dtype is served
// (strings are copied as strings). A single piece forwards the input's buffer.
//
// Errors (InvalidArgument, TensorFlow's texts): Split "split_dim must be a
// scalar but has rank 1",
// "-input rank(-2) <= split_dim < input rank (2), but got 2", "Number of ways
// to split should evenly divide the split dimension, but got split_dim 0 (size
// = 4) and num_split 3"; SplitV "size of the split_tensor must be 1-D and have
// the same elements as outputs got 1 -D and 3 elements", "There can only be one
// -1 in the input.", "Determined shape must either match input shape along
// split_dim exactly if fully specified, or be less than the size of the input
// along split_dim if not fully specified.  Got: 3", "Split size at index 1 must
// be >= 0. Got: -2"; Unpack "axis = 2 not in [-2, 2)", "Input shape axis 0 must
// equal 3, got shape [2,3]".
//
// Thread safety: Compute is const and keeps no state; concurrent steps are
// safe.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

// Allocates the outputs of `plan` (sizes along its axis, dropped when `drop_axis`) and copies
// their rows.
absl::Status SplitRows(OpKernelContext& ctx, const Tensor& input, const SplitPlan& plan,
                       bool drop_axis) {
  const TensorShape& shape = input.shape();
  const int axis = plan.axis;
  const std::vector<int64_t>& sizes = plan.sizes;
  const int64_t outer = DimProduct(shape.dims(), 0, axis);
  const int64_t inner = DimProduct(shape.dims(), axis + 1, shape.rank());
  const int64_t row = shape.dim(axis) * inner;
  std::vector<Tensor*> outs;
  for (size_t i = 0; i < sizes.size(); ++i) {
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape,
                          SplitOutputShape(shape, plan, static_cast<int>(i), drop_axis));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(static_cast<int>(i), out_shape));
    outs.push_back(out);
  }
  if (input.NumElements() == 0) return absl::OkStatus();
  return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    const T* in = ElementsOf<T>(input);
    int64_t start = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      const int64_t piece = sizes[i] * inner;
      T* dst = ElementsOf<T>(*outs[i]);
      for (int64_t o = 0; o < outer; ++o) dst = std::copy_n(in + o * row + start, piece, dst);
      start += piece;
    }
    return absl::OkStatus();
  });
}

class SplitOp final : public OpKernel {
 public:
  explicit SplitOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(1);
    const int num_split = ctx.num_outputs();
    RILL_ASSIGN_OR_RETURN(SplitPlan plan, SplitPlanOf(input.shape(), ctx.input(0), num_split));
    if (num_split == 1) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    return SplitRows(ctx, input, plan, /*drop_axis=*/false);
  }
};

class SplitVOp final : public OpKernel {
 public:
  explicit SplitVOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const int num_split = ctx.num_outputs();
    RILL_ASSIGN_OR_RETURN(SplitPlan plan,
                          SplitVPlanOf(input.shape(), ctx.input(1), ctx.input(2), num_split));
    if (num_split == 1) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    return SplitRows(ctx, input, plan, /*drop_axis=*/false);
  }
};

class UnpackOp final : public OpKernel {
 public:
  explicit UnpackOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("axis", &axis_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(SplitPlan plan, UnpackPlanOf(input.shape(), axis_, ctx.num_outputs()));
    return SplitRows(ctx, input, plan, /*drop_axis=*/true);
  }

 private:
  int64_t axis_ = 0;
};

REGISTER_KERNEL(KernelDefBuilder("Split").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
                SplitOp);
REGISTER_KERNEL(KernelDefBuilder("SplitV")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tlen", {DT_INT8, DT_INT32, DT_INT64}),
                SplitVOp);
REGISTER_KERNEL(KernelDefBuilder("Unpack").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
                UnpackOp);

}  // namespace
}  // namespace rill
