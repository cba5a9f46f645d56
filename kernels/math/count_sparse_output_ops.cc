// DenseCountSparseOutput, SparseCountSparseOutput and RaggedCountSparseOutput on the CPU
// (tf.sparse.bincount of a dense, sparse or ragged tensor): per batch row, the count of each value
// v in [0, maxlength) (every v >= 0 when maxlength is -1), or the sum of the weights of its
// occurrences, or 1 with binary_output, as a 2-D sparse tensor [rows, size] (1-D [size] for a
// vector or a 1-D sparse input) with the values of each row in increasing order. size is
// maxlength when it is 0 or more (0: nothing is counted, as in TensorFlow), else max(largest value
// counted + 1, minlength). Rows: a matrix's rows,
// the first index of a sparse tensor, a ragged tensor's splits (read as TensorFlow's loop reads
// them, each value in the row whose split it has not passed). Weights (empty: none) sum in input
// order in output_type.
//
// Errors are InvalidArgument with TensorFlow 2.21's texts, in its order: Dense: "Input must be a 1
// or 2-dimensional tensor. Got: [1,1,1]", "Input values must all be non-negative", "Weights and
// data must have the same shape. Weight shape: [3]; data shape: [2]", "Invalid input: Shapes
// dimension cannot be 0."; Sparse: "Input indices must be a 2-dimensional tensor. Got: [2]",
// "Input values must be a vector. Got: [1,1]", "Input shape must be a vector. Got: [..]", "Number
// of values must match first dimension of indices.Got 2 values, indices shape: [1,2]", "Number of
// dimensions must match second dimension of indices.Got 2 dimensions, indices shape: [1,1]", "The
// shape argument requires at least one element.", "Invalid index value at 0: dimension 1 has value
// 7 which is not in [0, 2) (as given by dense shape Tensor<type: int64 shape: [2] values: 3 2>",
// non-negative values, the weights' shape, "Cannot allocate 0 batches, is the dense shape too
// wide?"; Ragged: the weights' shape, "Must provide at least 2 elements for the splits argument",
// "Splits must start with 0, not with 1", "Splits must end with the number of values, got 4
// instead of 5", non-negative values.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

enum class Kind { kDense, kSparse, kRagged };

// TensorFlow's Tensor::DebugString of an int64 vector (its first three values).
std::string Int64TensorString(const Tensor& t, const std::vector<int64_t>& values) {
  std::vector<int64_t> shown(values.begin(), values.begin() + std::min<size_t>(3, values.size()));
  return absl::StrCat("Tensor<type: int64 shape: ", t.shape().DebugString(),
                      " values: ", absl::StrJoin(shown, " "), values.size() > 3 ? "..." : "", ">");
}

class CountSparseOutputOp final : public OpKernel {
 public:
  explicit CountSparseOutputOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    const std::string& op = ctx.def().op();
    kind_ = op == "DenseCountSparseOutput"
                ? Kind::kDense
                : (op == "SparseCountSparseOutput" ? Kind::kSparse : Kind::kRagged);
    absl::Status s = ctx.GetAttr("minlength", &minlength_);
    if (s.ok()) s = ctx.GetAttr("maxlength", &maxlength_);
    if (s.ok()) s = ctx.GetAttr("binary_output", &binary_output_);
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& values = ctx.input(kind_ == Kind::kDense ? 0 : 1);
    const Tensor& weights = ctx.input(ctx.num_inputs() - 1);
    std::vector<int64_t> row;  // the batch row of each value
    int64_t rows = 1;
    bool is_1d = false;
    switch (kind_) {
      case Kind::kDense:
        RILL_RETURN_IF_ERROR(DenseRows(values, weights, &row, &rows, &is_1d));
        break;
      case Kind::kSparse:
        RILL_RETURN_IF_ERROR(SparseRows(ctx, values, weights, &row, &rows, &is_1d));
        break;
      case Kind::kRagged:
        RILL_RETURN_IF_ERROR(RaggedRows(ctx.input(0), values, weights, &row, &rows));
        break;
    }
    const std::vector<int64_t> v = IndexValues(values);
    return VisitKernelTypes<int32_t, int64_t, float,
                            double>(*this, weights.dtype(), [&](auto tag) -> absl::Status {
      using W = typename decltype(tag)::type;
      const bool use_weights = weights.NumElements() > 0;
      const W* w = weights.flat<W>().data();
      std::vector<std::map<int64_t, W>> counts(rows);
      int64_t max_value = 0;
      for (size_t i = 0; i < v.size(); ++i) {
        if (v[i] < 0 || (maxlength_ >= 0 && v[i] >= maxlength_)) continue;
        W& c = counts[row[i]][v[i]];
        if (binary_output_) {
          c = W(1);
        } else if (use_weights) {
          c = cwise_math::WrapAdd(c, w[i]);
        } else {
          c = cwise_math::WrapAdd(c, W(1));
        }
        max_value = std::max(max_value, v[i]);
      }
      const int64_t size = maxlength_ >= 0 ? maxlength_ : std::max(max_value + 1, minlength_);
      int64_t total = 0;
      for (const auto& m : counts) total += static_cast<int64_t>(m.size());
      const int64_t inner = is_1d ? 1 : 2;
      RILL_ASSIGN_OR_RETURN(Tensor * out_idx, ctx.allocate_output(0, TensorShape({total, inner})));
      RILL_ASSIGN_OR_RETURN(Tensor * out_val, ctx.allocate_output(1, TensorShape({total})));
      RILL_ASSIGN_OR_RETURN(Tensor * out_shape, ctx.allocate_output(2, TensorShape({inner})));
      int64_t* idx = out_idx->flat<int64_t>().data();
      W* val = out_val->flat<W>().data();
      int64_t at = 0;
      for (int64_t b = 0; b < rows; ++b) {
        for (const auto& [value, count] : counts[b]) {
          if (!is_1d) *idx++ = b;
          *idx++ = value;
          val[at++] = count;
        }
      }
      int64_t* shape = out_shape->flat<int64_t>().data();
      if (!is_1d) *shape++ = rows;
      *shape = size;
      return absl::OkStatus();
    });
  }

 private:
  static absl::Status CheckNonNegative(const Tensor& values) {
    for (int64_t x : IndexValues(values)) {
      if (x < 0) return absl::InvalidArgumentError("Input values must all be non-negative");
    }
    return absl::OkStatus();
  }

  static absl::Status CheckWeights(const Tensor& weights, const Tensor& values, const char* what) {
    if (weights.NumElements() > 0 && weights.shape() != values.shape()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Weights and ", what, " must have the same shape. Weight shape: ",
          weights.shape().DebugString(), "; ", what, " shape: ", values.shape().DebugString()));
    }
    return absl::OkStatus();
  }

  static absl::Status DenseRows(const Tensor& data, const Tensor& weights,
                                std::vector<int64_t>* row, int64_t* rows, bool* is_1d) {
    const int rank = data.shape().rank();
    if (rank != 1 && rank != 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Input must be a 1 or 2-dimensional tensor. Got: ", data.shape().DebugString()));
    }
    RILL_RETURN_IF_ERROR(CheckNonNegative(data));
    RILL_RETURN_IF_ERROR(CheckWeights(weights, data, "data"));
    *is_1d = rank == 1;
    *rows = 1;
    int64_t per_row = data.NumElements();
    if (rank == 2) {
      if (data.shape().dim(0) == 0) {
        return absl::InvalidArgumentError("Invalid input: Shapes dimension cannot be 0.");
      }
      *rows = data.shape().dim(0);
      per_row = data.shape().dim(1);
    }
    row->resize(data.NumElements());
    for (int64_t i = 0; i < data.NumElements(); ++i) (*row)[i] = i / std::max<int64_t>(per_row, 1);
    return absl::OkStatus();
  }

  static absl::Status SparseRows(OpKernelContext& ctx, const Tensor& values, const Tensor& weights,
                                 std::vector<int64_t>* row, int64_t* rows, bool* is_1d) {
    const Tensor& indices = ctx.input(0);
    const Tensor& shape = ctx.input(2);
    if (indices.shape().rank() != 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Input indices must be a 2-dimensional tensor. Got: ", indices.shape().DebugString()));
    }
    if (values.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input values must be a vector. Got: ", values.shape().DebugString()));
    }
    if (shape.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input shape must be a vector. Got: ", shape.shape().DebugString()));
    }
    const int64_t n = indices.shape().dim(0);
    const int64_t rank = indices.shape().dim(1);
    if (values.shape().dim(0) != n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Number of values must match first dimension of indices.Got ", values.shape().dim(0),
          " values, indices shape: ", indices.shape().DebugString()));
    }
    if (shape.shape().dim(0) != rank) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Number of dimensions must match second dimension of indices.Got ", shape.shape().dim(0),
          " dimensions, indices shape: ", indices.shape().DebugString()));
    }
    if (shape.NumElements() == 0) {
      return absl::InvalidArgumentError("The shape argument requires at least one element.");
    }
    const std::vector<int64_t> idx = IndexValues(indices);
    const std::vector<int64_t> dims = IndexValues(shape);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < rank; ++j) {
        const int64_t x = idx[i * rank + j];
        if (x < 0 || x >= dims[j]) {
          return absl::InvalidArgumentError(
              absl::StrCat("Invalid index value at ", i, ": dimension ", j, " has value ", x,
                           " which is not in [0, ", dims[j], ") (as given by dense shape ",
                           Int64TensorString(shape, dims)));
        }
      }
    }
    RILL_RETURN_IF_ERROR(CheckNonNegative(values));
    RILL_RETURN_IF_ERROR(CheckWeights(weights, values, "values"));
    *is_1d = rank == 1;
    *rows = *is_1d ? 1 : dims[0];
    if (*rows <= 0 || *rows >= std::numeric_limits<int32_t>::max()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Cannot allocate ", *rows, " batches, is the dense shape too wide?"));
    }
    row->resize(n);
    for (int64_t i = 0; i < n; ++i) (*row)[i] = *is_1d ? 0 : idx[i * rank];
    return absl::OkStatus();
  }

  static absl::Status RaggedRows(const Tensor& splits_t, const Tensor& values,
                                 const Tensor& weights, std::vector<int64_t>* row, int64_t* rows) {
    RILL_RETURN_IF_ERROR(CheckWeights(weights, values, "values"));
    const std::vector<int64_t> splits = IndexValues(splits_t);
    const int64_t n = values.NumElements();
    if (splits.size() < 2) {
      return absl::InvalidArgumentError("Must provide at least 2 elements for the splits argument");
    }
    if (splits[0] != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Splits must start with 0, not with ", splits[0]));
    }
    if (splits.back() != n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Splits must end with the number of values, got ", splits.back(), " instead of ", n));
    }
    RILL_RETURN_IF_ERROR(CheckNonNegative(values));
    *rows = static_cast<int64_t>(splits.size()) - 1;
    row->resize(n);
    // TensorFlow's walk: move past every split <= the value's position (the last split is n, so
    // the walk stops there whatever the order of the others).
    size_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
      while (i >= splits[k]) ++k;
      (*row)[i] = static_cast<int64_t>(k) - 1;
    }
    return absl::OkStatus();
  }

  Kind kind_ = Kind::kDense;
  int64_t minlength_ = -1;
  int64_t maxlength_ = -1;
  bool binary_output_ = false;
};

#define RILL_COUNT_SPARSE_OUTPUT(name)                                                    \
  REGISTER_KERNEL(                                                                        \
      KernelDefBuilder(name)                                                              \
          .Device(kDeviceCpu)                                                             \
          .TypeConstraint("T", DataTypesOf<int32_t, int64_t>())                           \
          .TypeConstraint("output_type", DataTypesOf<int32_t, int64_t, float, double>()), \
      CountSparseOutputOp)

RILL_COUNT_SPARSE_OUTPUT("DenseCountSparseOutput");
RILL_COUNT_SPARSE_OUTPUT("SparseCountSparseOutput");
RILL_COUNT_SPARSE_OUTPUT("RaggedCountSparseOutput");

#undef RILL_COUNT_SPARSE_OUTPUT

}  // namespace
}  // namespace rill
