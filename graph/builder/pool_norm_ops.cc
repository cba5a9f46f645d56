#include "graph/builder/pool_norm_ops.h"

#include <string>
#include <vector>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {

Output MaxPool(const Scope& scope, const Input& input, const std::vector<int64_t>& ksize,
               const std::vector<int64_t>& strides, absl::string_view padding,
               const std::vector<int64_t>& explicit_paddings) {
  return OpBuilder(scope, "MaxPool")
      .Input(input)
      .Attr("ksize", ksize)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Attr("explicit_paddings", explicit_paddings)
      .Finalize()
      .output(0);
}
Output MaxPoolV2(const Scope& scope, const Input& input, const Input& ksize, const Input& strides,
                 absl::string_view padding) {
  return OpBuilder(scope, "MaxPoolV2")
      .Input(input)
      .Input(ksize)
      .Input(strides)
      .Attr("padding", padding)
      .Finalize()
      .output(0);
}
Output AvgPool(const Scope& scope, const Input& value, const std::vector<int64_t>& ksize,
               const std::vector<int64_t>& strides, absl::string_view padding) {
  return OpBuilder(scope, "AvgPool")
      .Input(value)
      .Attr("ksize", ksize)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Finalize()
      .output(0);
}

namespace {

std::vector<Output> BatchNorm(const Scope& scope, const char* op, const Input& x,
                              const Input& scale, const Input& offset, const Input& mean,
                              const Input& variance, const FusedBatchNormAttrs& attrs) {
  Operation node = OpBuilder(scope, op)
                       .Input(x)
                       .Input(scale)
                       .Input(offset)
                       .Input(mean)
                       .Input(variance)
                       .Attr("epsilon", attrs.epsilon)
                       .Attr("exponential_avg_factor", attrs.exponential_avg_factor)
                       .Attr("data_format", attrs.data_format)
                       .Attr("is_training", attrs.is_training)
                       .Finalize();
  std::vector<Output> out;
  for (int i = 0; i < node.num_outputs(); ++i) out.push_back(node.output(i));
  return out;
}

}  // namespace

std::vector<Output> FusedBatchNorm(const Scope& scope, const Input& x, const Input& scale,
                                   const Input& offset, const Input& mean, const Input& variance,
                                   const FusedBatchNormAttrs& attrs) {
  return BatchNorm(scope, "FusedBatchNorm", x, scale, offset, mean, variance, attrs);
}
std::vector<Output> FusedBatchNormV2(const Scope& scope, const Input& x, const Input& scale,
                                     const Input& offset, const Input& mean, const Input& variance,
                                     const FusedBatchNormAttrs& attrs) {
  return BatchNorm(scope, "FusedBatchNormV2", x, scale, offset, mean, variance, attrs);
}
std::vector<Output> FusedBatchNormV3(const Scope& scope, const Input& x, const Input& scale,
                                     const Input& offset, const Input& mean, const Input& variance,
                                     const FusedBatchNormAttrs& attrs) {
  return BatchNorm(scope, "FusedBatchNormV3", x, scale, offset, mean, variance, attrs);
}

Output LRN(const Scope& scope, const Input& input, int64_t depth_radius, float bias, float alpha,
           float beta) {
  return OpBuilder(scope, "LRN")
      .Input(input)
      .Attr("depth_radius", depth_radius)
      .Attr("bias", bias)
      .Attr("alpha", alpha)
      .Attr("beta", beta)
      .Finalize()
      .output(0);
}

Output ResizeBilinear(const Scope& scope, const Input& images, const Input& size,
                      bool align_corners, bool half_pixel_centers) {
  return OpBuilder(scope, "ResizeBilinear")
      .Input(images)
      .Input(size)
      .Attr("align_corners", align_corners)
      .Attr("half_pixel_centers", half_pixel_centers)
      .Finalize()
      .output(0);
}
Output ResizeNearestNeighbor(const Scope& scope, const Input& images, const Input& size,
                             bool align_corners, bool half_pixel_centers) {
  return OpBuilder(scope, "ResizeNearestNeighbor")
      .Input(images)
      .Input(size)
      .Attr("align_corners", align_corners)
      .Attr("half_pixel_centers", half_pixel_centers)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
