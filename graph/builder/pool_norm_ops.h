// Builder wrappers for pooling, batch normalization, local response normalization and image
// resizing (TensorFlow's C++ API names). Included by graph/builder/ops.h.
//
//   Output p = ops::MaxPool(root, x, {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID");
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_POOL_NORM_OPS_H_
#define RILL_GRAPH_BUILDER_POOL_NORM_OPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// Pooling over NHWC windows of ksize moved by strides (4 values each, NHWC order); MaxPoolV2 takes
// them as int32 tensors.
Output MaxPool(const Scope& scope, const Input& input, const std::vector<int64_t>& ksize,
               const std::vector<int64_t>& strides, absl::string_view padding,
               const std::vector<int64_t>& explicit_paddings = {});
Output MaxPoolV2(const Scope& scope, const Input& input, const Input& ksize, const Input& strides,
                 absl::string_view padding);
Output AvgPool(const Scope& scope, const Input& value, const std::vector<int64_t>& ksize,
               const std::vector<int64_t>& strides, absl::string_view padding);

// Batch normalization; the outputs are y, batch_mean, batch_variance, reserve_space_1,
// reserve_space_2 (and reserve_space_3 for V3).
struct FusedBatchNormAttrs {
  FusedBatchNormAttrs Epsilon(float x) const {
    FusedBatchNormAttrs r = *this;
    r.epsilon = x;
    return r;
  }
  FusedBatchNormAttrs IsTraining(bool x) const {
    FusedBatchNormAttrs r = *this;
    r.is_training = x;
    return r;
  }
  FusedBatchNormAttrs ExponentialAvgFactor(float x) const {
    FusedBatchNormAttrs r = *this;
    r.exponential_avg_factor = x;
    return r;
  }
  FusedBatchNormAttrs DataFormat(absl::string_view x) const {
    FusedBatchNormAttrs r = *this;
    r.data_format = std::string(x);
    return r;
  }
  float epsilon = 1e-4f;
  float exponential_avg_factor = 1.0f;
  std::string data_format = "NHWC";
  bool is_training = true;
};
std::vector<Output> FusedBatchNorm(const Scope& scope, const Input& x, const Input& scale,
                                   const Input& offset, const Input& mean, const Input& variance,
                                   const FusedBatchNormAttrs& attrs = {});
std::vector<Output> FusedBatchNormV2(const Scope& scope, const Input& x, const Input& scale,
                                     const Input& offset, const Input& mean, const Input& variance,
                                     const FusedBatchNormAttrs& attrs = {});
std::vector<Output> FusedBatchNormV3(const Scope& scope, const Input& x, const Input& scale,
                                     const Input& offset, const Input& mean, const Input& variance,
                                     const FusedBatchNormAttrs& attrs = {});

// Local response normalization over the last dimension.
Output LRN(const Scope& scope, const Input& input, int64_t depth_radius = 5, float bias = 1.0f,
           float alpha = 1.0f, float beta = 0.5f);

// Image resizing of NHWC images to size (int32 [height, width]).
Output ResizeBilinear(const Scope& scope, const Input& images, const Input& size,
                      bool align_corners = false, bool half_pixel_centers = false);
Output ResizeNearestNeighbor(const Scope& scope, const Input& images, const Input& size,
                             bool align_corners = false, bool half_pixel_centers = false);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_POOL_NORM_OPS_H_
