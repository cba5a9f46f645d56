// FusedBatchNorm's (V1, V2, V3) checks and layout, shared by the CPU and GPU kernels: x of rank 4
// or 5 viewed as [outer, channels, inner] (inner 1 for channels-last formats). InvalidArgument with
// TensorFlow's texts: "input must be 4 or 5-dimensional[2,3]", "scale must be
// 1-dimensional[]" (also offset, estimated_mean, estimated_variance), "scale must have the same
// number of elements as the channels of x, got 2 and 3" (also offset), "When is_training=false,
// mean must have the same number of elements as the channels of x, got 2 and 3" (also variance;
// "When exponential_avg_factor != 1, ..." in training). Pure function; thread-safe.
#ifndef RILL_KERNELS_NN_FUSED_BATCH_NORM_LAYOUT_H_
#define RILL_KERNELS_NN_FUSED_BATCH_NORM_LAYOUT_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/tensor.h"

namespace rill {

struct NormLayout {
  int64_t outer = 1, channels = 0, inner = 1;
  int64_t per_channel() const { return outer * inner; }
};

absl::StatusOr<NormLayout> FusedBatchNormLayout(const Tensor& x, const Tensor& scale,
                                                const Tensor& offset, const Tensor& mean,
                                                const Tensor& variance, bool channels_first,
                                                bool is_training, float avg_factor);

}  // namespace rill

#endif  // RILL_KERNELS_NN_FUSED_BATCH_NORM_LAYOUT_H_
