// The structural checks of a SparseTensor given as (indices, values, dense_shape) inputs, with
// TensorFlow's texts (sparse_utils::ValidateSparseTensor): indices a matrix, values and shape
// vectors, one value per index row, one shape entry per index column. Index bounds are the
// caller's (ops differ in whether they check them).
//
//   RILL_RETURN_IF_ERROR(CheckSparseTensorStructure(ctx.input(0), ctx.input(1), ctx.input(2)));
//
// Pure; thread-safe.
#ifndef RILL_KERNELS_FRAMEWORK_SPARSE_TENSOR_CHECKS_H_
#define RILL_KERNELS_FRAMEWORK_SPARSE_TENSOR_CHECKS_H_

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/tensor.h"

namespace rill {

// InvalidArgument naming what is wrong; OK when the three tensors describe one SparseTensor.
inline absl::Status CheckSparseTensorStructure(const Tensor& indices, const Tensor& values,
                                               const Tensor& shape) {
  if (indices.shape().rank() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("Sparse indices must be rank 2 but is rank ", indices.shape().rank()));
  }
  if (values.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Sparse values must be rank 1 but is rank ", values.shape().rank()));
  }
  if (shape.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Sparse shape must be rank 1 but is rank ", shape.shape().rank()));
  }
  const int64_t nnz = indices.shape().dim(0);
  const int64_t rank = indices.shape().dim(1);
  if (values.NumElements() != nnz) {
    return absl::InvalidArgumentError(absl::StrCat("Number of elements in indices (", nnz,
                                                   ") and values (", values.NumElements(),
                                                   ") do not match"));
  }
  if (shape.NumElements() != rank) {
    return absl::InvalidArgumentError(absl::StrCat("Index rank (", rank, ") and shape rank (",
                                                   shape.NumElements(), ") do not match"));
  }
  return absl::OkStatus();
}

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_SPARSE_TENSOR_CHECKS_H_
