// In-place scatter updates of a variable's value, shared by the ref-variable kernels (ScatterAdd,
// ScatterNdAdd, ...; kernels/state/scatter_ops.cc) and resource-variable forms:
//
//   RILL_RETURN_IF_ERROR(ValidateScatter(params, indices, updates));
//   RILL_RETURN_IF_ERROR(ApplyScatter(ScatterOp::kAdd, indices, updates, &params));
//
// ScatterOp (scatter_combine.h) combines a variable element with an update. Errors are
// TensorFlow's texts (InvalidArgument).
//
// Pure functions over the tensors they are given; the caller holds the variable's lock.
#ifndef RILL_KERNELS_STATE_SCATTER_UPDATE_H_
#define RILL_KERNELS_STATE_SCATTER_UPDATE_H_

#include "absl/status/status.h"
#include "core/tensor.h"
#include "kernels/state/scatter_combine.h"

namespace rill {

// Row scatter (ScatterAdd & co.): updates must have shape indices.shape + params.shape[1:], or be
// a scalar applied to every picked row. InvalidArgument "params must be at least 1-D, got shape
// []" or "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got
// updates.shape [2,3], indices.shape [2], params.shape [3,2]".
absl::Status ValidateScatter(const Tensor& params, const Tensor& indices, const Tensor& updates);

// params[indices[i], ...] = params[indices[i], ...] (op) updates[i, ...], for i in order (the last
// of duplicate indices wins for kUpdate). REQUIRES: ValidateScatter passed, dtypes match, indices
// int32 or int64. Stops at the first index outside [0, params.dim(0)), leaving earlier rows
// updated, with InvalidArgument "indices[1,0] = -1 is not in [0, 3)" (as TensorFlow does);
// InvalidArgument "Integer division by zero" (nothing updated) for kDiv of integers by 0.
absl::Status ApplyScatter(ScatterOp op, const Tensor& indices, const Tensor& updates,
                          Tensor* params);

// Slice scatter (ScatterNdAdd & co.): indices [..., K] picks
// slices params[i0, ..., iK-1, ...]; updates has shape indices.shape[:-1] + params.shape[K:].
// Checks the shapes and every index first, then updates in order; nothing is updated on error.
// ignore_bad_indices skips indices outside params instead of failing. InvalidArgument (TensorFlow's
// texts): "Output must be at least 1-D, got shape: []", "Indices and updates specified for empty
// output.  indices shape: [1,1]", "Dimensions [0,1) of indices[shape=[2,1]] must match dimensions
// [0,1) of updates[shape=[3]]", "Dimensions [1,2) of input[shape=[3,2]] must match dimensions
// [1,2) of updates[shape=[2,3]]", "Only indices.shape[-1] values between 1 and 7 are currently
// supported.  Requested rank: 0", "indices[1] = [3] does not index into shape [3,2]".
absl::Status ApplyScatterNd(ScatterOp op, const Tensor& indices, const Tensor& updates,
                            bool ignore_bad_indices, Tensor* params);

}  // namespace rill

#endif  // RILL_KERNELS_STATE_SCATTER_UPDATE_H_
