// Bincounts of ragged and sparse batches on the CPU: what Keras's TextVectorization and
// CategoryEncoding (count, multi_hot, tf_idf modes) leave in a frozen graph for ragged or sparse
// token ids.
//
//   RaggedBincount(splits, values, size, weights): out[r, v] = the sum of the weights of the
//     values v in [0, size) of row r, the rows given by the int64 row splits (the count when
//     weights is empty; 1 where present with binary_output). Values >= size are dropped.
//   SparseBincount(indices, values, dense_shape, size, weights): the same for a SparseTensor,
//     rows by the first coordinate of each index ([size] counts of all values for a 1-D shape,
//     [dense_shape[0], size] otherwise).
//
// A value's row is found as TensorFlow's kernel finds it (the first split past the value's
// position), so splits that decrease give TensorFlow's result. Errors are InvalidArgument with
// TensorFlow's texts ("Splits must start with 0, not with 1", "Splits must end with the number of
// values, got 4 instead of 5", "Input must be non-negative", "Sparse index tuple indices[2, :] =
// [5, 3] is out of bounds", ...). Where TensorFlow reads or writes past a buffer (weights of
// another size than values, a negative value of a 2-D sparse input) Rill refuses the input with
// the texts its other bincounts use.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/sparse_tensor_checks.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

const std::vector<DataType>& IndexTypes() {
  static const auto* types = new std::vector<DataType>{DT_INT32, DT_INT64};
  return *types;
}

absl::StatusOr<int64_t> BinCount(const Tensor& size_tensor) {
  if (size_tensor.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Shape must be rank 0 but is rank ", size_tensor.shape().rank()));
  }
  const int64_t size = IndexValues(size_tensor)[0];
  if (size < 0) {
    return absl::InvalidArgumentError(absl::StrCat("size (", size, ") must be non-negative"));
  }
  return size;
}

absl::Status CheckWeights(const Tensor& weights, const Tensor& values) {
  if (weights.NumElements() == 0 || weights.NumElements() == values.NumElements()) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "`weights` must be the same shape as `values` or a length-0 `Tensor`, in which "
      "case it acts as all weights equal to 1. Received ",
      weights.shape().DebugString(), " for values of shape ", values.shape().DebugString()));
}

// Adds value v's weight (or 1, or sets 1 for binary_output) into row `row` of `out` [rows, size].
template <typename T>
void Accumulate(T* out, int64_t size, int64_t row, int64_t v, const T* w, int64_t at,
                bool binary_output) {
  if (v >= size) return;
  T& cell = out[row * size + v];
  if (binary_output) {
    cell = T(1);
  } else {
    cell = cwise_math::WrapAdd(cell, w ? w[at] : T(1));
  }
}

class RaggedBincountOp final : public OpKernel {
 public:
  explicit RaggedBincountOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("binary_output", &binary_output_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& splits_t = ctx.input(0);
    const Tensor& values_t = ctx.input(1);
    const Tensor& weights = ctx.input(3);
    RILL_ASSIGN_OR_RETURN(const int64_t size, BinCount(ctx.input(2)));
    if (splits_t.NumElements() == 0) {
      return absl::InvalidArgumentError("Splits must be non-empty");
    }
    const int64_t* splits = splits_t.flat<int64_t>().data();
    const int64_t num_rows = splits_t.NumElements() - 1;
    const int64_t num_values = values_t.NumElements();
    if (splits[0] != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Splits must start with 0, not with ", splits[0]));
    }
    if (splits[num_rows] != num_values) {
      return absl::InvalidArgumentError(
          absl::StrCat("Splits must end with the number of values, got ", splits[num_rows],
                       " instead of ", num_values));
    }
    RILL_RETURN_IF_ERROR(CheckWeights(weights, values_t));
    const std::vector<int64_t> values = IndexValues(values_t);
    for (int64_t v : values) {
      if (v < 0) return absl::InvalidArgumentError("Input must be non-negative");
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims({num_rows, size}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    return VisitKernelTypes<int32_t, int64_t, float, double>(*this, out->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* z = out->flat<T>().data();
      for (int64_t i = 0; i < out->NumElements(); ++i) z[i] = T(0);
      const T* w = weights.NumElements() > 0 ? weights.flat<T>().data() : nullptr;
      // splits[num_rows] == num_values > idx bounds the walk.
      int64_t next = 0;
      for (int64_t idx = 0; idx < num_values; ++idx) {
        while (idx >= splits[next]) ++next;
        Accumulate(z, size, next - 1, values[idx], w, idx, binary_output_);
      }
      return absl::OkStatus();
    });
  }

 private:
  bool binary_output_ = false;
};

// TensorFlow's sparse_utils::ValidateSparseTensor: ranks, matching counts, every index inside
// the dense shape.
absl::Status ValidateSparse(const Tensor& indices, const Tensor& values, const Tensor& shape) {
  RILL_RETURN_IF_ERROR(CheckSparseTensorStructure(indices, values, shape));
  const int64_t nnz = indices.shape().dim(0);
  const int64_t rank = indices.shape().dim(1);
  const int64_t* idx = indices.flat<int64_t>().data();
  const int64_t* dims = shape.flat<int64_t>().data();
  for (int64_t i = 0; i < nnz; ++i) {
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t v = idx[i * rank + d];
      if (v < 0 || v >= dims[d]) {
        std::vector<int64_t> tuple(idx + i * rank, idx + (i + 1) * rank);
        return absl::InvalidArgumentError(absl::StrCat("Sparse index tuple indices[", i, ", :] = [",
                                                       absl::StrJoin(tuple, ", "),
                                                       "] is out of bounds"));
      }
    }
  }
  return absl::OkStatus();
}

class SparseBincountOp final : public OpKernel {
 public:
  explicit SparseBincountOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("binary_output", &binary_output_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(0);
    const Tensor& values_t = ctx.input(1);
    const Tensor& shape = ctx.input(2);
    const Tensor& weights = ctx.input(4);
    RILL_ASSIGN_OR_RETURN(const int64_t size, BinCount(ctx.input(3)));
    RILL_RETURN_IF_ERROR(ValidateSparse(indices, values_t, shape));
    RILL_RETURN_IF_ERROR(CheckWeights(weights, values_t));
    const std::vector<int64_t> values = IndexValues(values_t);
    const bool is_1d = shape.NumElements() == 1;
    for (int64_t v : values) {
      if (v < 0) return absl::InvalidArgumentError("Input arr must be non-negative!");
    }
    const int64_t nnz = values_t.NumElements();
    const int64_t rank = indices.shape().dim(1);
    // A 0-D dense shape has no rows; TensorFlow then has no index to check either (nnz must be
    // 0 for the validation above to pass).
    const int64_t num_rows = is_1d ? 1 : (rank == 0 ? 0 : shape.flat<int64_t>()[0]);
    std::vector<int64_t> dims;
    if (!is_1d) dims.push_back(num_rows);
    dims.push_back(size);
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int64_t* idx = indices.flat<int64_t>().data();
    return VisitKernelTypes<int32_t, int64_t, float, double>(*this, out->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* z = out->flat<T>().data();
      for (int64_t i = 0; i < out->NumElements(); ++i) z[i] = T(0);
      const T* w = weights.NumElements() > 0 ? weights.flat<T>().data() : nullptr;
      for (int64_t i = 0; i < nnz; ++i) {
        Accumulate(z, size, is_1d ? 0 : idx[i * rank], values[i], w, i, binary_output_);
      }
      return absl::OkStatus();
    });
  }

 private:
  bool binary_output_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("RaggedBincount")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<int32_t, int64_t, float, double>())
                    .TypeConstraint("Tidx", IndexTypes()),
                RaggedBincountOp);
REGISTER_KERNEL(KernelDefBuilder("SparseBincount")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<int32_t, int64_t, float, double>())
                    .TypeConstraint("Tidx", IndexTypes()),
                SparseBincountOp);

}  // namespace
}  // namespace rill
