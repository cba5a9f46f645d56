// Shape checks the CPU and GPU kernels of one op share, with TensorFlow's error texts, so both
// devices accept and refuse the same inputs with the same words. Pure; thread-safe.
//   MatMulShapeOf:   InvalidArgument "In[0] is not a matrix. Instead it has shape [2,3,4]",
//                    "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,2]".
//   BiasAddLayoutOf: InvalidArgument "Input tensor must be at least 2D: [3]", "Biases must be
//                    1D: [2,2]", "Must provide as many biases as the last dimension of the input
//                    tensor: [3] vs. [2,4]" (channel dimension for NCHW).
//   FillShapeOf:     InvalidArgument "dims must be a vector, got shape [2,2]", "value must be a
//                    scalar, got shape [2]", "dims must be non-negative, got [2,-1]".
//   CheckSoftmaxLogits: InvalidArgument "logits must have >= 1 dimension, got []".
#ifndef RILL_KERNELS_FRAMEWORK_KERNEL_SHAPES_H_
#define RILL_KERNELS_FRAMEWORK_KERNEL_SHAPES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/tensor.h"
#include "core/tensor_shape.h"
#include "kernels/framework/index_values.h"

namespace rill {

// The product op(a)[m,k] * op(b)[k,n] of MatMul's inputs.
struct MatMulShape {
  int64_t m = 0, n = 0, k = 0;
};

inline absl::StatusOr<MatMulShape> MatMulShapeOf(const TensorShape& a, const TensorShape& b,
                                                 bool transpose_a, bool transpose_b) {
  if (a.rank() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("In[0] is not a matrix. Instead it has shape ", a.DebugString()));
  }
  if (b.rank() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("In[1] is not a matrix. Instead it has shape ", b.DebugString()));
  }
  MatMulShape s;
  s.m = a.dim(transpose_a ? 1 : 0);
  s.k = a.dim(transpose_a ? 0 : 1);
  s.n = b.dim(transpose_b ? 0 : 1);
  if (b.dim(transpose_b ? 1 : 0) != s.k) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Matrix size-incompatible: In[0]: ", a.DebugString(), ", In[1]: ", b.DebugString()));
  }
  return s;
}

// BiasAdd's view of its value as [outer, channels, inner]: inner is 1 for NHWC (channels last),
// the spatial size for NCHW (channels_first only for rank >= 3, as TensorFlow).
struct BiasAddLayout {
  int64_t outer = 0, channels = 0, inner = 1;
};

inline absl::StatusOr<BiasAddLayout> BiasAddLayoutOf(const TensorShape& value,
                                                     const TensorShape& bias, bool nchw) {
  if (value.rank() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("Input tensor must be at least 2D: ", value.DebugString()));
  }
  if (bias.rank() != 1) {
    return absl::InvalidArgumentError(absl::StrCat("Biases must be 1D: ", bias.DebugString()));
  }
  const bool channels_first = nchw && value.rank() >= 3;
  const int channel_dim = channels_first ? 1 : value.rank() - 1;
  BiasAddLayout layout;
  layout.channels = value.dim(channel_dim);
  if (bias.num_elements() != layout.channels) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Must provide as many biases as the ", channels_first ? "channel" : "last",
        " dimension of the input tensor: ", bias.DebugString(), " vs. ", value.DebugString()));
  }
  for (int d = channel_dim + 1; d < value.rank(); ++d) layout.inner *= value.dim(d);
  const int64_t plane = layout.channels * layout.inner;
  layout.outer = plane == 0 ? 0 : value.num_elements() / plane;
  return layout;
}

// Softmax and LogSoftmax normalize along the last dimension, so their logits need one.
inline absl::Status CheckSoftmaxLogits(const TensorShape& logits) {
  if (logits.rank() >= 1) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("logits must have >= 1 dimension, got ", logits.DebugString()));
}

// Fill's output shape from its `dims` (int32/int64 vector) and `value` (scalar).
inline absl::StatusOr<TensorShape> FillShapeOf(const Tensor& dims, const Tensor& value) {
  if (dims.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("dims must be a vector, got shape ", dims.shape().DebugString()));
  }
  if (value.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("value must be a scalar, got shape ", value.shape().DebugString()));
  }
  const std::vector<int64_t> d = IndexValues(dims);
  for (int64_t x : d) {
    if (x < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("dims must be non-negative, got [", absl::StrJoin(d, ","), "]"));
    }
  }
  return TensorShape::FromDims(d);
}

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_KERNEL_SHAPES_H_
