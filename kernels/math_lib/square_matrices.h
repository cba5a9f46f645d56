// The batch of square matrices a linear-algebra kernel reads from its input [..., n, n], with
// TensorFlow's InvalidArgument texts for an input that is not one: "Input tensor <index> must have
// rank >= 2, got <rank>" and "Input matrix must be square.".
#ifndef RILL_KERNELS_MATH_LIB_SQUARE_MATRICES_H_
#define RILL_KERNELS_MATH_LIB_SQUARE_MATRICES_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/tensor.h"

namespace rill {

struct SquareMatrices {
  int64_t count = 1;  // matrices in the batch (the product of the leading dims; 0 when one is 0)
  int64_t n = 0;      // rows and columns of each
};

absl::StatusOr<SquareMatrices> SplitSquareMatrices(const TensorShape& shape, int index);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_SQUARE_MATRICES_H_
