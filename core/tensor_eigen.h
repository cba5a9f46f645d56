// Eigen views of a Tensor's buffer (no copy): flat vectors and row-major matrices, for kernels
// that want Eigen's expressions. Kept apart from tensor.h so that only files that use Eigen pay
// for its headers.
//
//   auto m = TensorMatrix<float>(t);   // REQUIRES: t.dtype() == DT_FLOAT, rank 2
//   m.row(0).sum();
//
// The views alias the tensor's buffer and live as long as the caller keeps the tensor alive.
#ifndef RILL_CORE_TENSOR_EIGEN_H_
#define RILL_CORE_TENSOR_EIGEN_H_

#include <eigen3/Eigen/Core>

#include "core/tensor.h"

namespace rill {

template <typename T>
using EigenRowMajorMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The whole buffer as a column vector of NumElements() entries.
template <typename T>
Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>, Eigen::Aligned64> TensorFlat(const Tensor& t) {
  return Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>, Eigen::Aligned64>(
      static_cast<T*>(t.raw_data()), t.NumElements());
}

// A rank-2 tensor as a row-major matrix. REQUIRES: t.shape().rank() == 2.
template <typename T>
Eigen::Map<EigenRowMajorMatrix<T>, Eigen::Aligned64> TensorMatrix(const Tensor& t) {
  return Eigen::Map<EigenRowMajorMatrix<T>, Eigen::Aligned64>(static_cast<T*>(t.raw_data()),
                                                              t.shape().dim(0), t.shape().dim(1));
}

}  // namespace rill

#endif  // RILL_CORE_TENSOR_EIGEN_H_
