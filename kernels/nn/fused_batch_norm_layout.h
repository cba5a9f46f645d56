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
#include "kernels/framework/op_kernel.h"

namespace rill {

struct NormLayout {
  int64_t outer = 1, channels = 0, inner = 1;
  int64_t per_channel() const { return outer * inner; }
};

// The attrs of FusedBatchNorm/V2/V3, read once when a kernel is built (errors through
// ctx.SetStatus, as kernel constructors report them).
struct FusedBatchNormAttrs {
  float epsilon = 1e-4f;
  float avg_factor = 1.0f;  // exponential_avg_factor
  bool is_training = true;
  bool channels_first = false;  // data_format NCHW or NCDHW
  bool v3 = false;              // FusedBatchNormV3: a sixth output, reserve_space_3
};
FusedBatchNormAttrs ReadFusedBatchNormAttrs(OpKernelConstruction& ctx);

absl::StatusOr<NormLayout> FusedBatchNormLayout(const Tensor& x, const Tensor& scale,
                                                const Tensor& offset, const Tensor& mean,
                                                const Tensor& variance, bool channels_first,
                                                bool is_training, float avg_factor);

}  // namespace rill

#endif  // RILL_KERNELS_NN_FUSED_BATCH_NORM_LAYOUT_H_
