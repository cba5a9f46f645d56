#include "kernels/framework/array_shapes.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/math_lib/broadcast.h"

namespace rill {
namespace {

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= d;
  return p;
}

absl::StatusOr<int> CheckSplitDim(const TensorShape& in, int64_t split_dim) {
  const int rank = in.rank();
  const int64_t dim = split_dim < 0 ? split_dim + rank : split_dim;
  if (dim < 0 || dim >= rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "-input rank(-", rank, ") <= split_dim < input rank (", rank, "), but got ", split_dim));
  }
  return static_cast<int>(dim);
}

// size_splits as int64 (Tlen is int8, int32 or int64).
std::vector<int64_t> SplitSizes(const Tensor& t) {
  if (t.dtype() != DT_INT8) return IndexValues(t);
  std::vector<int64_t> out;
  for (int8_t v : t.flat<int8_t>()) out.push_back(v);
  return out;
}

}  // namespace

std::string IndexCoordinates(const TensorShape& shape, int64_t flat) {
  if (shape.rank() == 0) return "";
  std::vector<int64_t> c(shape.rank());
  for (int d = shape.rank() - 1; d >= 0; --d) {
    c[d] = shape.dim(d) == 0 ? 0 : flat % shape.dim(d);
    flat = shape.dim(d) == 0 ? 0 : flat / shape.dim(d);
  }
  return absl::StrCat("[", absl::StrJoin(c, ","), "]");
}

absl::StatusOr<TransposePlan> TransposePlanOf(const TensorShape& in, const Tensor& perm_tensor) {
  if (perm_tensor.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("perm must be rank 1, got shape ", perm_tensor.shape().DebugString()));
  }
  const int rank = in.rank();
  const std::vector<int64_t> perm_values = IndexValues(perm_tensor);
  if (static_cast<int64_t>(perm_values.size()) != rank) {
    return absl::InvalidArgumentError(absl::StrCat("transpose expects a vector of size ", rank,
                                                   ". But input(1) is a vector of size ",
                                                   perm_values.size()));
  }
  TransposePlan plan;
  std::vector<int64_t> out_dims;
  for (int i = 0; i < rank; ++i) {
    // A negative entry counts from the end, as in TensorFlow's kernel (-1 is the last dim).
    const int64_t d = perm_values[i] < 0 ? perm_values[i] + rank : perm_values[i];
    if (d < 0 || d >= rank) {
      return absl::InvalidArgumentError(absl::StrCat(d, " is out of range [0 .. ", rank, ")"));
    }
    plan.perm.push_back(static_cast<int>(d));
    out_dims.push_back(in.dim(static_cast<int>(d)));
    plan.identity &= d == i;
  }
  std::vector<bool> seen(rank, false);
  for (int d : plan.perm) seen[d] = true;
  for (int i = 0; i < rank; ++i) {
    if (!seen[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat(i, " is missing from {", absl::StrJoin(plan.perm, ","), "}."));
    }
  }
  RILL_ASSIGN_OR_RETURN(plan.out_shape, TensorShape::FromDims(out_dims));
  return plan;
}

absl::StatusOr<SlicePlan> SlicePlanOf(const TensorShape& shape, const Tensor& begin_tensor,
                                      const Tensor& size_tensor) {
  const int rank = shape.rank();
  if (begin_tensor.shape().rank() != 1 || size_tensor.shape().rank() != 1 ||
      begin_tensor.NumElements() != rank || size_tensor.NumElements() != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("Expected begin and size arguments to be 1-D tensors of size ", rank,
                     ", but got shapes ", begin_tensor.shape().DebugString(), " and ",
                     size_tensor.shape().DebugString(), " instead."));
  }
  SlicePlan plan;
  plan.begin = IndexValues(begin_tensor);
  plan.size = IndexValues(size_tensor);
  for (int i = 0; i < rank; ++i) {
    const int64_t dim = shape.dim(i);
    if (plan.size[i] == -1) plan.size[i] = dim - plan.begin[i];
    const int64_t b = plan.begin[i], s = plan.size[i];
    if (dim == 0) {
      if (b != 0 || s != 0) {
        return absl::InvalidArgumentError(absl::StrCat("Expected begin[", i, "] == 0 (got ", b,
                                                       ") and size[", i, "] == 0 (got ", s,
                                                       ") when input.dim_size(", i, ") == 0"));
      }
    } else {
      if (b < 0 || b > dim) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected begin[", i, "] in [0, ", dim, "], but got ", b));
      }
      if (s < 0 || b + s > dim) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected size[", i, "] in [0, ", dim - b, "], but got ", s));
      }
    }
    plan.identity &= b == 0 && s == dim;
  }
  RILL_ASSIGN_OR_RETURN(plan.out_shape, TensorShape::FromDims(plan.size));
  return plan;
}

absl::StatusOr<ConcatPlan> ConcatPlanOf(const std::vector<TensorShape>& values,
                                        const Tensor& axis_tensor, const char* axis_name) {
  if (axis_tensor.shape().rank() != 0) {
    return absl::InvalidArgumentError(absl::StrCat(axis_name,
                                                   " tensor should be a scalar integer, but got "
                                                   "shape ",
                                                   axis_tensor.shape().DebugString()));
  }
  const TensorShape& shape0 = values[0];
  const int rank = shape0.rank();
  const int64_t concat_dim = IndexValues(axis_tensor)[0];
  const int64_t axis = concat_dim < 0 ? concat_dim + rank : concat_dim;
  if (axis < 0 || axis >= rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("ConcatOp : Expected concatenating dimensions in the range [", -rank, ", ",
                     rank, "), but got ", concat_dim));
  }
  std::vector<int64_t> out_dims(shape0.dims().begin(), shape0.dims().end());
  out_dims[axis] = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const TensorShape& s = values[i];
    if (s.rank() != rank) {
      return absl::InvalidArgumentError(absl::StrCat(
          "ConcatOp : Ranks of all input tensors should match: shape[0] = ", shape0.DebugString(),
          " vs. shape[", i, "] = ", s.DebugString()));
    }
    for (int j = 0; j < rank; ++j) {
      if (j != axis && s.dim(j) != shape0.dim(j)) {
        return absl::InvalidArgumentError(
            absl::StrCat("ConcatOp : Dimension ", j, " in both shapes must be equal: shape[0] = ",
                         shape0.DebugString(), " vs. shape[", i, "] = ", s.DebugString()));
      }
    }
    out_dims[axis] += s.dim(static_cast<int>(axis));
  }
  ConcatPlan plan;
  plan.axis = static_cast<int>(axis);
  RILL_ASSIGN_OR_RETURN(plan.out_shape, TensorShape::FromDims(out_dims));
  return plan;
}

absl::StatusOr<ConcatPlan> PackPlanOf(const std::vector<TensorShape>& values, int64_t axis_attr) {
  const TensorShape& shape0 = values[0];
  const int out_rank = shape0.rank() + 1;
  const int64_t axis = axis_attr < 0 ? axis_attr + out_rank : axis_attr;
  if (axis < 0 || axis >= out_rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("axis = ", axis_attr, " not in [", -out_rank, ", ", out_rank, ")"));
  }
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i] != shape0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Shapes of all inputs must match: values[0].shape = ", shape0.DebugString(),
                       " != values[", i, "].shape = ", values[i].DebugString()));
    }
  }
  std::vector<int64_t> out_dims(shape0.dims().begin(), shape0.dims().end());
  out_dims.insert(out_dims.begin() + axis, static_cast<int64_t>(values.size()));
  ConcatPlan plan;
  plan.axis = static_cast<int>(axis);
  RILL_ASSIGN_OR_RETURN(plan.out_shape, TensorShape::FromDims(out_dims));
  return plan;
}

absl::StatusOr<SplitPlan> SplitPlanOf(const TensorShape& in, const Tensor& split_dim_tensor,
                                      int num_split) {
  if (split_dim_tensor.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("split_dim must be a scalar but has rank ", split_dim_tensor.shape().rank()));
  }
  SplitPlan plan;
  RILL_ASSIGN_OR_RETURN(plan.axis, CheckSplitDim(in, split_dim_tensor.flat<int32_t>()[0]));
  const int64_t size = in.dim(plan.axis);
  if (size % num_split != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Number of ways to split should evenly divide the split dimension, "
                     "but got split_dim ",
                     plan.axis, " (size = ", size, ") and num_split ", num_split));
  }
  plan.sizes.assign(num_split, size / num_split);
  return plan;
}

absl::StatusOr<SplitPlan> SplitVPlanOf(const TensorShape& in, const Tensor& split_tensor,
                                       const Tensor& split_dim_tensor, int num_split) {
  if (split_dim_tensor.NumElements() != 1) {
    return absl::InvalidArgumentError("split_dim_tensor must have exactly one element.");
  }
  if (split_tensor.shape().rank() != 1 || split_tensor.NumElements() != num_split) {
    return absl::InvalidArgumentError(absl::StrCat(
        "size of the split_tensor must be 1-D and have the same "
        "elements as outputs got ",
        split_tensor.shape().rank(), " -D and ", split_tensor.NumElements(), " elements"));
  }
  SplitPlan plan;
  plan.sizes = SplitSizes(split_tensor);
  std::vector<int64_t>& sizes = plan.sizes;
  RILL_ASSIGN_OR_RETURN(plan.axis, CheckSplitDim(in, split_dim_tensor.flat<int32_t>()[0]));
  const int64_t size = in.dim(plan.axis);
  if (num_split == 1) {
    if (sizes[0] != size) {
      return absl::InvalidArgumentError(
          absl::StrCat("If there is only one output, it must have the same "
                       "size as the input. Input size: ",
                       size, " output size: ", sizes[0]));
    }
    return plan;
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
  return plan;
}

absl::StatusOr<SplitPlan> UnpackPlanOf(const TensorShape& shape, int64_t axis_attr, int num) {
  const int rank = shape.rank();
  const int64_t axis = axis_attr < 0 ? axis_attr + rank : axis_attr;
  if (axis < 0 || axis >= rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("axis = ", axis_attr, " not in [", -rank, ", ", rank, ")"));
  }
  if (shape.dim(static_cast<int>(axis)) != num) {
    return absl::InvalidArgumentError(absl::StrCat("Input shape axis ", axis, " must equal ", num,
                                                   ", got shape ", shape.DebugString()));
  }
  SplitPlan plan;
  plan.axis = static_cast<int>(axis);
  plan.sizes.assign(num, 1);
  return plan;
}

absl::StatusOr<TensorShape> SplitOutputShape(const TensorShape& in, const SplitPlan& plan, int i,
                                             bool drop_axis) {
  std::vector<int64_t> dims(in.dims().begin(), in.dims().end());
  if (drop_axis) {
    dims.erase(dims.begin() + plan.axis);
  } else {
    dims[plan.axis] = plan.sizes[i];
  }
  return TensorShape::FromDims(dims);
}

absl::Status PaddingsOf(const TensorShape& in, const Tensor& paddings, int max_rank,
                        const char* rank_separator, std::vector<int64_t>* before,
                        std::vector<int64_t>* after) {
  const int rank = in.rank();
  if (rank > max_rank) {
    return absl::UnimplementedError(absl::StrCat("inputs rank not in [0,", max_rank, "]: ", rank));
  }
  const TensorShape& ps = paddings.shape();
  if (ps.rank() != 2 || ps.dim(1) != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("paddings must be a matrix with 2 columns: ", ps.DebugString()));
  }
  if (ps.dim(0) != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("The first dimension of paddings must be the rank of inputs", ps.DebugString(),
                     rank_separator, in.DebugString()));
  }
  const std::vector<int64_t> p = IndexValues(paddings);
  for (int d = 0; d < rank; ++d) {
    before->push_back(p[2 * d]);
    after->push_back(p[2 * d + 1]);
  }
  return absl::OkStatus();
}

absl::StatusOr<PadPlan> PadPlanOf(const TensorShape& shape, const Tensor& paddings,
                                  const Tensor* constant_values) {
  PadPlan plan;
  RILL_RETURN_IF_ERROR(PaddingsOf(shape, paddings, 8, " ", &plan.before, &plan.after));
  if (constant_values != nullptr && constant_values->shape().rank() != 0) {
    return absl::InvalidArgumentError(absl::StrCat("constant_values must be a scalar. Found: ",
                                                   constant_values->shape().DebugString()));
  }
  std::vector<int64_t> out_dims;
  for (int d = 0; d < shape.rank(); ++d) {
    const int64_t b = plan.before[d], a = plan.after[d];
    if (b < 0 || a < 0) {
      return absl::InvalidArgumentError(absl::StrCat("Paddings must be non-negative: ", b, " ", a));
    }
    int64_t dim;
    if (__builtin_add_overflow(b, shape.dim(d), &dim) || __builtin_add_overflow(dim, a, &dim)) {
      return absl::InvalidArgumentError(absl::StrCat("Paddings ", b, " ", a, " of dimension ", d,
                                                     " (size ", shape.dim(d), ") overflow int64"));
    }
    out_dims.push_back(dim);
  }
  RILL_ASSIGN_OR_RETURN(plan.out_shape, TensorShape::FromDims(out_dims));
  return plan;
}

absl::StatusOr<TilePlan> TilePlanOf(const TensorShape& in, const Tensor& multiples_t) {
  const int rank = in.rank();
  if (multiples_t.shape().rank() != 1 || multiples_t.NumElements() != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("Expected multiples argument to be a vector of length ", rank,
                     " but got length ", multiples_t.NumElements()));
  }
  TilePlan plan;
  plan.multiples = IndexValues(multiples_t);
  std::vector<int64_t> out_dims(rank);
  for (int d = 0; d < rank; ++d) {
    const int64_t m = plan.multiples[d];
    if (m < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected multiples[", d, "] >= 0, but got ", m));
    }
    if (__builtin_mul_overflow(in.dim(d), m, &out_dims[d])) {
      return absl::InvalidArgumentError(
          absl::StrCat("Encountered overflow when multiplying dimension ", d, " of size ",
                       in.dim(d), " by multiples[", d, "] = ", m));
    }
  }
  RILL_ASSIGN_OR_RETURN(plan.out_shape, TensorShape::FromDims(out_dims));
  return plan;
}

absl::StatusOr<std::vector<bool>> ReversedDimsOf(const TensorShape& in, const Tensor& axis_t) {
  if (axis_t.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("'axis' must be 1-D, not ", axis_t.shape().DebugString()));
  }
  const int rank = in.rank();
  std::vector<bool> reversed(rank, false);
  const std::vector<int64_t> axes = IndexValues(axis_t);
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (a < 0 || a >= rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("'axis'[", i, "] = ", axes[i], " is out of valid range [0, ", rank - 1));
    }
    if (reversed[a]) {
      return absl::InvalidArgumentError(absl::StrCat("axis ", a, " specified more than once."));
    }
    reversed[a] = true;
  }
  return reversed;
}

absl::StatusOr<int64_t> GatherAxisOf(const Tensor& axis_t) {
  if (axis_t.NumElements() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("axis must be scalar, but got shape ", axis_t.shape().DebugString()));
  }
  return IndexValues(axis_t)[0];
}

absl::StatusOr<GatherPlan> GatherPlanOf(const TensorShape& ps, const TensorShape& is, int64_t axis,
                                        int64_t batch_dims_attr) {
  if (ps.rank() < 1) return absl::InvalidArgumentError("params must be at least 1 dimensional");
  if (axis < -ps.rank() || axis >= ps.rank()) {
    return absl::InvalidArgumentError(absl::StrCat("Expected axis in the range [", -ps.rank(), ", ",
                                                   ps.rank(), "), but got ", axis));
  }
  if (axis < 0) axis += ps.rank();
  int64_t batch_dims = batch_dims_attr;
  if (batch_dims < 0) batch_dims += is.rank();
  if (batch_dims < 0 || batch_dims > is.rank()) {
    return absl::InvalidArgumentError(absl::StrCat("batch_dims (", batch_dims_attr,
                                                   ") must be less than or equal to "
                                                   "rank(indices) (",
                                                   is.rank(), ")"));
  }
  if (batch_dims > axis) {
    return absl::InvalidArgumentError(absl::StrCat(
        "batch_dims (", batch_dims, ") must be less than or equal to axis (", axis, ")"));
  }
  for (int d = 0; d < batch_dims; ++d) {
    if (ps.dim(d) != is.dim(d)) {
      return absl::InvalidArgumentError(absl::StrCat("params.shape[", d, "]: ", ps.dim(d),
                                                     " should be equal to indices.shape[", d,
                                                     "]: ", is.dim(d)));
    }
  }
  GatherPlan plan;
  plan.axis = static_cast<int>(axis);
  plan.batch_dims = static_cast<int>(batch_dims);
  std::vector<int64_t> out_dims(ps.dims().begin(), ps.dims().begin() + axis);
  out_dims.insert(out_dims.end(), is.dims().begin() + batch_dims, is.dims().end());
  out_dims.insert(out_dims.end(), ps.dims().begin() + axis + 1, ps.dims().end());
  RILL_ASSIGN_OR_RETURN(plan.out_shape, TensorShape::FromDims(out_dims));
  plan.gather_dim = ps.dim(plan.axis);
  plan.batch = Product(ps.dims().subspan(0, batch_dims));
  plan.outer = Product(ps.dims().subspan(batch_dims, axis - batch_dims));
  plan.inner = Product(ps.dims().subspan(axis + 1));
  plan.n = Product(is.dims().subspan(batch_dims));
  return plan;
}

absl::Status GatherIndexError(const TensorShape& indices, int64_t i, int64_t value,
                              int64_t gather_dim) {
  return absl::InvalidArgumentError(absl::StrCat("indices", IndexCoordinates(indices, i), " = ",
                                                 value, " is not in [0, ", gather_dim, ")"));
}

absl::StatusOr<SelectMode> SelectModeOf(const TensorShape& cond, const TensorShape& t,
                                        const TensorShape& e, const std::string& node,
                                        const std::string& op) {
  auto same_size_error = [&] {
    return absl::InvalidArgumentError(absl::StrCat("'then' and 'else' must have the same size.  ",
                                                   "but received: ", t.DebugString(), " vs. ",
                                                   e.DebugString()));
  };
  if (cond.rank() == 0) {
    if (t != e) return same_size_error();
    return SelectMode::kScalar;
  }
  if (cond.rank() == 1 && t.rank() != 1) {
    if (t.rank() == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("'then' must be at least a vector, but saw shape: ", t.DebugString()));
    }
    if (t.dim(0) != cond.num_elements()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Number of batches of 'then' must match size of 'cond', but saw: ", t.dim(0),
                       " vs. ", cond.num_elements()));
    }
    if (t != e) return same_size_error();
    return SelectMode::kRows;
  }
  const TensorShape* inputs[] = {&t, &e};
  for (int i = 1; i < 3; ++i) {
    const TensorShape& in = *inputs[i - 1];
    if (in != cond) {
      return absl::InvalidArgumentError(
          absl::StrCat("Inputs to operation ", node, " of type ", op,
                       " must have the same size and shape.  Input 0: ", cond.DebugString(),
                       " != input ", i, ": ", in.DebugString()));
    }
  }
  return SelectMode::kElementwise;
}

absl::StatusOr<TensorShape> SelectV2ShapeOf(const TensorShape& cond, const TensorShape& t,
                                            const TensorShape& e) {
  absl::StatusOr<TensorShape> te = BroadcastShapes(t, e);
  absl::StatusOr<TensorShape> shape = te.ok() ? BroadcastShapes(cond, *te) : te.status();
  if (!shape.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("condition ", cond.DebugString(), ", then ",
                                                   t.DebugString(), ", and else ", e.DebugString(),
                                                   " must be broadcastable"));
  }
  return *shape;
}

}  // namespace rill
