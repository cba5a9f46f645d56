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
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

// Allocates output i with `input`'s shape but sizes[i] along `axis` (dropped
// when `drop_axis`), and copies its rows.
absl::Status SplitRows(OpKernelContext& ctx, const Tensor& input, int axis,
                       const std::vector<int64_t>& sizes, bool drop_axis) {
  const TensorShape& shape = input.shape();
  const int64_t outer = DimProduct(shape.dims(), 0, axis);
  const int64_t inner = DimProduct(shape.dims(), axis + 1, shape.rank());
  const int64_t row = shape.dim(axis) * inner;
  std::vector<Tensor*> outs;
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::vector<int64_t> dims(shape.dims().begin(), shape.dims().end());
    if (drop_axis) {
      dims.erase(dims.begin() + axis);
    } else {
      dims[axis] = sizes[i];
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
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

absl::Status CheckSplitDim(const Tensor& input, int64_t split_dim_orig, int64_t* split_dim) {
  const int rank = input.shape().rank();
  *split_dim = split_dim_orig < 0 ? split_dim_orig + rank : split_dim_orig;
  if (*split_dim < 0 || *split_dim >= rank) {
    return absl::InvalidArgumentError(absl::StrCat("-input rank(-", rank,
                                                   ") <= split_dim < input rank (", rank,
                                                   "), but got ", split_dim_orig));
  }
  return absl::OkStatus();
}

class SplitOp final : public OpKernel {
 public:
  explicit SplitOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& split_dim_tensor = ctx.input(0);
    const Tensor& input = ctx.input(1);
    const int num_split = ctx.num_outputs();
    if (split_dim_tensor.shape().rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat("split_dim must be a scalar but has rank ",
                                                     split_dim_tensor.shape().rank()));
    }
    int64_t split_dim;
    RILL_RETURN_IF_ERROR(CheckSplitDim(input, split_dim_tensor.flat<int32_t>()[0], &split_dim));
    const int64_t size = input.shape().dim(static_cast<int>(split_dim));
    if (size % num_split != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Number of ways to split should evenly divide the split dimension, "
                       "but got split_dim ",
                       split_dim, " (size = ", size, ") and num_split ", num_split));
    }
    if (num_split == 1) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    return SplitRows(ctx, input, static_cast<int>(split_dim),
                     std::vector<int64_t>(num_split, size / num_split),
                     /*drop_axis=*/false);
  }
};

// size_splits as int64 (Tlen is int8, int32 or int64).
std::vector<int64_t> SplitSizes(const Tensor& t) {
  if (t.dtype() != DT_INT8) return IndexValues(t);
  std::vector<int64_t> out;
  for (int8_t v : t.flat<int8_t>()) out.push_back(v);
  return out;
}

class SplitVOp final : public OpKernel {
 public:
  explicit SplitVOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& split_tensor = ctx.input(1);
    const Tensor& split_dim_tensor = ctx.input(2);
    const int num_split = ctx.num_outputs();
    if (split_dim_tensor.NumElements() != 1) {
      return absl::InvalidArgumentError("split_dim_tensor must have exactly one element.");
    }
    if (split_tensor.shape().rank() != 1 || split_tensor.NumElements() != num_split) {
      return absl::InvalidArgumentError(absl::StrCat(
          "size of the split_tensor must be 1-D and have the same "
          "elements as outputs got ",
          split_tensor.shape().rank(), " -D and ", split_tensor.NumElements(), " elements"));
    }
    std::vector<int64_t> sizes = SplitSizes(split_tensor);
    int64_t split_dim;
    RILL_RETURN_IF_ERROR(CheckSplitDim(input, split_dim_tensor.flat<int32_t>()[0], &split_dim));
    const int64_t size = input.shape().dim(static_cast<int>(split_dim));
    if (num_split == 1) {
      if (sizes[0] != size) {
        return absl::InvalidArgumentError(
            absl::StrCat("If there is only one output, it must have the same "
                         "size as the input. Input size: ",
                         size, " output size: ", sizes[0]));
      }
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    int neg_one = -1;
    int64_t determined = 0;
    for (int i = 0; i < num_split; ++i) {
      if (sizes[i] == -1) {
        if (neg_one != -1) {
          return absl::InvalidArgumentError("There can only be one -1 in the input.");
        }
        neg_one = i;
      } else {
        determined += sizes[i];
      }
    }
    if (!((neg_one == -1 && determined == size) || (neg_one >= 0 && determined <= size))) {
      return absl::InvalidArgumentError(
          absl::StrCat("Determined shape must either match input shape along "
                       "split_dim exactly if fully "
                       "specified, or be less than the size of the input along "
                       "split_dim if not fully "
                       "specified.  Got: ",
                       determined));
    }
    if (neg_one >= 0) sizes[neg_one] = size - determined;
    for (int i = 0; i < num_split; ++i) {
      if (sizes[i] < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Split size at index ", i, " must be >= 0. Got: ", sizes[i]));
      }
    }
    return SplitRows(ctx, input, static_cast<int>(split_dim), sizes,
                     /*drop_axis=*/false);
  }
};

class UnpackOp final : public OpKernel {
 public:
  explicit UnpackOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("axis", &axis_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const TensorShape& shape = input.shape();
    const int num = ctx.num_outputs();
    const int rank = shape.rank();
    const int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
    if (axis < 0 || axis >= rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("axis = ", axis_, " not in [", -rank, ", ", rank, ")"));
    }
    if (shape.dim(static_cast<int>(axis)) != num) {
      return absl::InvalidArgumentError(absl::StrCat("Input shape axis ", axis, " must equal ", num,
                                                     ", got shape ", shape.DebugString()));
    }
    return SplitRows(ctx, input, static_cast<int>(axis), std::vector<int64_t>(num, 1),
                     /*drop_axis=*/true);
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
