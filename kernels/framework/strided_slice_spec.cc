#include "kernels/framework/strided_slice_spec.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

constexpr int64_t kNewAxis = -1;
constexpr int64_t kShrinkAxis = -2;

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
                            const std::vector<int64_t>& strides, StridedSliceMasks masks, int rank,
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

}  // namespace

absl::StatusOr<StridedSlicePlan> StridedSlicePlanOf(const TensorShape& shape, const Tensor& begin_t,
                                                    const Tensor& end_t, const Tensor& strides_t,
                                                    const StridedSliceMasks& masks) {
  for (const auto& [name, mask] : {std::pair<const char*, int64_t>{"begin_mask", masks.begin},
                                   {"end_mask", masks.end},
                                   {"ellipsis_mask", masks.ellipsis},
                                   {"new_axis_mask", masks.new_axis},
                                   {"shrink_axis_mask", masks.shrink_axis}}) {
    RILL_RETURN_IF_ERROR(CheckInt32Attr(name, mask));
  }
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
  if (masks.ellipsis != 0 && (masks.ellipsis & (masks.ellipsis - 1)) != 0) {
    return absl::InvalidArgumentError("Multiple ellipses in slice spec not allowed");
  }
  const int rank = shape.rank();
  DenseSpec dense;
  RILL_RETURN_IF_ERROR(
      BuildDenseSpec(Values(begin_t), Values(end_t), Values(strides_t), masks, rank, &dense));
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
  StridedSlicePlan plan;
  plan.begin = std::move(dense.begin);
  plan.strides = std::move(dense.strides);
  plan.processing_dims = std::move(processing_dims);
  plan.final_shape = final_shape;
  plan.identity = identity;
  return plan;
}

}  // namespace rill
