// StridedSlice: numpy-style basic indexing, input[begin:end:stride, ...] with
// TensorFlow's five masks: begin_mask/end_mask (bit i: ignore begin[i]/end[i],
// take the widest range), ellipsis_mask (bit i: spec entry i stands for as many
// whole dims as needed), new_axis_mask (bit i: insert a size-1 dim),
// shrink_axis_mask (bit i: take the single index begin[i] and drop the dim).
// The sparse spec (one entry per begin element) is expanded to a dense one (one
// entry per input dim) exactly as TensorFlow's ValidateStridedSliceOp does,
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
#include <array>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

constexpr int64_t kNewAxis = -1;
constexpr int64_t kShrinkAxis = -2;

struct Masks {
  int64_t begin = 0, end = 0, ellipsis = 0, new_axis = 0, shrink_axis = 0;
};

// The slice over the input's dims (TensorFlow's StridedSliceDenseSpec).
struct DenseSpec {
  std::vector<int64_t> begin, end, strides;
  int64_t begin_mask = 0, end_mask = 0, shrink_axis_mask = 0;
  // Per output dim: the dense dim it comes from, or kNewAxis / kShrinkAxis.
  std::vector<int64_t> final_shape_gather_indices;
};

// The elements of an int16, int32 or int64 index tensor.
std::vector<int64_t> Values(const Tensor& t) {
  std::vector<int64_t> out;
  if (t.dtype() == DT_INT16) {
    for (int16_t v : t.flat<int16_t>()) out.push_back(v);
  } else if (t.dtype() == DT_INT32) {
    for (int32_t v : t.flat<int32_t>()) out.push_back(v);
  } else {
    for (int64_t v : t.flat<int64_t>()) out.push_back(v);
  }
  return out;
}

// Expands the sparse spec (entries of begin/end/strides with `masks`) over
// `rank` input dims.
absl::Status BuildDenseSpec(const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
                            const std::vector<int64_t>& strides, Masks masks, int rank,
                            DenseSpec* dense) {
  int sparse_dims = static_cast<int>(strides.size());
  int num_add_axis_after_ellipsis = 0;
  bool ellipsis_seen = false;
  for (int i = 0; i < sparse_dims; ++i) {
    if (ellipsis_seen && ((int64_t{1} << i) & masks.new_axis) != 0) ++num_add_axis_after_ellipsis;
    if ((int64_t{1} << i) & masks.ellipsis) ellipsis_seen = true;
  }
  if (!ellipsis_seen) {  // an implicit ellipsis at the end
    masks.ellipsis |= int64_t{1} << sparse_dims;
    ++sparse_dims;
  }
  dense->begin.assign(rank, 0);
  dense->end.assign(rank, 0);
  dense->strides.assign(rank, 1);
  int full_index = 0;
  for (int i = 0; i < sparse_dims; ++i) {
    const int64_t bit = int64_t{1} << i;
    if (bit & masks.ellipsis) {
      const int next_index =
          std::min(rank - (sparse_dims - i) + 1 + num_add_axis_after_ellipsis, rank);
      for (; full_index < next_index; ++full_index) {
        dense->begin_mask |= int64_t{1} << full_index;
        dense->end_mask |= int64_t{1} << full_index;
        dense->final_shape_gather_indices.push_back(full_index);
      }
    } else if (bit & masks.new_axis) {
      dense->final_shape_gather_indices.push_back(kNewAxis);
    } else {
      if (full_index == rank) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Index out of range using input dim ", full_index, "; input has only ", rank, " dims"));
      }
      dense->begin[full_index] = begin[i];
      dense->end[full_index] = end[i];
      dense->strides[full_index] = strides[i];
      if (masks.begin & bit) dense->begin_mask |= int64_t{1} << full_index;
      if (masks.end & bit) dense->end_mask |= int64_t{1} << full_index;
      if (masks.shrink_axis & bit) {
        dense->final_shape_gather_indices.push_back(kShrinkAxis);
        dense->shrink_axis_mask |= int64_t{1} << full_index;
      } else {
        dense->final_shape_gather_indices.push_back(full_index);
      }
      ++full_index;
    }
  }
  return absl::OkStatus();
}

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
    const Tensor &begin_t = ctx.input(1), end_t = ctx.input(2), strides_t = ctx.input(3);
    const int64_t n = strides_t.NumElements();
    auto wrong = [n](const Tensor& t) {
      return t.shape().rank() != 1 || t.NumElements() != n || n >= 32;
    };
    if (wrong(begin_t) || wrong(end_t) || strides_t.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected begin, end, and strides to be 1D equal size tensors, but "
                       "got shapes ",
                       begin_t.shape().DebugString(), ", ", end_t.shape().DebugString(), ", and ",
                       strides_t.shape().DebugString(), " instead."));
    }
    if (masks_.ellipsis != 0 && (masks_.ellipsis & (masks_.ellipsis - 1)) != 0) {
      return absl::InvalidArgumentError("Multiple ellipses in slice spec not allowed");
    }
    const TensorShape& shape = input.shape();
    const int rank = shape.rank();
    DenseSpec dense;
    RILL_RETURN_IF_ERROR(
        BuildDenseSpec(Values(begin_t), Values(end_t), Values(strides_t), masks_, rank, &dense));
    std::vector<int64_t> processing_dims;
    bool identity = true;
    for (int i = 0; i < rank; ++i) {
      int64_t& begin_i = dense.begin[i];
      int64_t& end_i = dense.end[i];
      const int64_t stride_i = dense.strides[i];
      const int64_t dim_i = shape.dim(i);
      if (stride_i == 0) {
        return absl::InvalidArgumentError(absl::StrCat("strides[", i, "] must be non-zero"));
      }
      const bool shrink_i = (dense.shrink_axis_mask & (int64_t{1} << i)) != 0;
      const std::array<bool, 2> masked = {(dense.begin_mask & (int64_t{1} << i)) != 0,
                                          (dense.end_mask & (int64_t{1} << i)) != 0};
      const std::array<int64_t, 2> valid_range = {stride_i > 0 ? 0 : -1,
                                                  stride_i > 0 ? dim_i : dim_i - 1};
      auto canonical = [&](int64_t x, int c) {
        if (masked[c]) return stride_i > 0 ? valid_range[c] : valid_range[(c + 1) & 1];
        const int64_t x_fwd = x < 0 ? dim_i + x : x;
        return x_fwd < valid_range[0] ? valid_range[0]
                                      : (x_fwd > valid_range[1] ? valid_range[1] : x_fwd);
      };
      if (shrink_i && stride_i <= 0) {
        return absl::InvalidArgumentError("only stride 1 allowed on non-range indexing.");
      }
      if (shrink_i) {
        // end would be wrong for negative begins (foo[-1]): the range is
        // [begin, begin + 1).
        begin_i = begin_i < 0 ? dim_i + begin_i : begin_i;
        end_i = begin_i + 1;
        if (begin_i < 0 || begin_i >= dim_i) {
          return absl::InvalidArgumentError(
              absl::StrCat("slice index ", begin_i, " of dimension ", i, " out of bounds."));
        }
      } else {
        begin_i = canonical(begin_i, 0);
        end_i = canonical(end_i, 1);
      }
      identity &= stride_i == 1 && begin_i == 0 && end_i == dim_i;
      const int64_t interval = end_i - begin_i;
      int64_t size_i = 0;
      if (interval != 0 && (interval < 0) == (stride_i < 0)) {
        size_i = interval / stride_i + (interval % stride_i != 0 ? 1 : 0);
      }
      processing_dims.push_back(size_i);
    }
    std::vector<int64_t> final_dims;
    for (int64_t d : dense.final_shape_gather_indices) {
      if (d >= 0) {
        final_dims.push_back(processing_dims[d]);
      } else if (d == kNewAxis) {
        final_dims.push_back(1);
      }
    }
    RILL_ASSIGN_OR_RETURN(TensorShape final_shape, TensorShape::FromDims(final_dims));
    if (identity) {
      RILL_ASSIGN_OR_RETURN(Tensor out, input.Reshaped(final_shape));
      ctx.set_output(0, std::move(out));
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, final_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      StridedCopy(ElementsOf<T>(input), shape.dims(), dense.begin, dense.strides, processing_dims,
                  ElementsOf<T>(*out));
      return absl::OkStatus();
    });
  }

 private:
  Masks masks_;
};

REGISTER_KERNEL(KernelDefBuilder("StridedSlice")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Index", {DT_INT16, DT_INT32, DT_INT64}),
                StridedSliceOp);

}  // namespace
}  // namespace rill
