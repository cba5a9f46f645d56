// StridedSlice's plan, shared by the CPU kernel (kernels/array/strided_slice_op.cc) and the CUDA
// kernel (kernels/gpu/shape_ops_gpu.cc): the sparse spec (begin/end/strides with TensorFlow's five
// masks) expanded over the input's dims exactly as TensorFlow's ValidateStridedSliceOp does, the
// indices canonicalized and clamped, and the output shape. Errors are InvalidArgument with
// TensorFlow's texts (listed at the CPU kernel).
//
//   RILL_ASSIGN_OR_RETURN(StridedSlicePlan plan,
//                         StridedSlicePlanOf(in.shape(), begin, end, strides, masks));
//   // element k of dim d of the output reads input index plan.begin[d] + k * plan.strides[d]
//
// Pure; thread-safe. begin/end/strides are int16, int32 or int64 host tensors.
#ifndef RILL_KERNELS_FRAMEWORK_STRIDED_SLICE_SPEC_H_
#define RILL_KERNELS_FRAMEWORK_STRIDED_SLICE_SPEC_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/tensor.h"
#include "core/tensor_shape.h"

namespace rill {

struct StridedSliceMasks {
  int64_t begin = 0, end = 0, ellipsis = 0, new_axis = 0, shrink_axis = 0;
};

struct StridedSlicePlan {
  // Per input dim: the first index read, the step (non-zero, may be negative) and the count.
  std::vector<int64_t> begin, strides, processing_dims;
  // The output's shape (new axes inserted, shrunk dims dropped): processing_dims reshaped.
  TensorShape final_shape;
  // The slice is the whole input in order (the output is the input reshaped).
  bool identity = true;
};

absl::StatusOr<StridedSlicePlan> StridedSlicePlanOf(const TensorShape& in, const Tensor& begin,
                                                    const Tensor& end, const Tensor& strides,
                                                    const StridedSliceMasks& masks);

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_STRIDED_SLICE_SPEC_H_
