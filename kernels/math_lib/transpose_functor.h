// Transpose of a tensor's elements into a preallocated output, shared by the Transpose kernel and
// kernels that permute operands internally (Einsum):
//
//   // out has dims in.dim(perm[0]), ..., in.dim(perm[r-1]) and in's dtype.
//   RILL_RETURN_IF_ERROR(TransposeInto(in, perm, out));
//
// Moves elements only, so one path per element size serves every storable dtype (strings are
// copied as strings). Size-1 dims are dropped and dims that stay adjacent are merged first; a swap
// of the last two (merged) dims runs as cache-blocked matrix transposes, other permutations as a
// strided loop that copies whole rows when the last dim stays last.
// REQUIRES: perm is a permutation of [0, rank); `out` is allocated as above. Errors:
// Unimplemented for a dtype without storage. Thread-safe (no state).
#ifndef RILL_KERNELS_MATH_LIB_TRANSPOSE_FUNCTOR_H_
#define RILL_KERNELS_MATH_LIB_TRANSPOSE_FUNCTOR_H_

#include <vector>

#include "absl/status/status.h"
#include "core/tensor.h"

namespace rill {

absl::Status TransposeInto(const Tensor& in, const std::vector<int>& perm, Tensor* out);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_TRANSPOSE_FUNCTOR_H_
