#include "kernels/math_lib/square_matrices.h"

#include "absl/strings/str_cat.h"

namespace rill {

absl::StatusOr<SquareMatrices> SplitSquareMatrices(const TensorShape& shape, int index) {
  if (shape.rank() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("Input tensor ", index, " must have rank >= 2, got ", shape.rank()));
  }
  SquareMatrices m;
  m.n = shape.dim(shape.rank() - 1);
  if (shape.dim(shape.rank() - 2) != m.n) {
    return absl::InvalidArgumentError("Input matrix must be square.");
  }
  for (int i = 0; i + 2 < shape.rank(); ++i) m.count *= shape.dim(i);
  return m;
}

}  // namespace rill
