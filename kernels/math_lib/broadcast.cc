#include "kernels/math_lib/broadcast.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace rill {

absl::StatusOr<TensorShape> BroadcastShapes(const TensorShape& a, const TensorShape& b) {
  const int rank = std::max(a.rank(), b.rank());
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    const int ia = a.rank() - rank + i, ib = b.rank() - rank + i;
    const int64_t da = ia >= 0 ? a.dim(ia) : 1, db = ib >= 0 ? b.dim(ib) : 1;
    if (da != db && da != 1 && db != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Incompatible shapes: ", a.DebugString(), " vs. ", b.DebugString()));
    }
    dims[i] = da == 1 ? db : da;
  }
  return TensorShape::FromDims(dims);
}

std::vector<int64_t> BroadcastStrides(const TensorShape& in, const TensorShape& out) {
  const int rank = out.rank();
  std::vector<int64_t> strides(rank, 0);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    const int i = in.rank() - rank + d;
    const int64_t dim = i >= 0 ? in.dim(i) : 1;
    strides[d] = dim == 1 ? 0 : stride;
    stride *= dim;
  }
  return strides;
}

}  // namespace rill
