// Builder wrappers for the gradient helpers of training graphs (TensorFlow's C++ API names).
// Included by graph/builder/ops.h. Argument order follows the ops: (gradients, features) for the
// activation gradients, (y, dy) for SigmoidGrad, TanhGrad, SqrtGrad, RsqrtGrad.
//
//   Output dx = ops::ReluGrad(root, dy, x);
//   ops::BroadcastArgs r = ops::BroadcastGradientArgs(root, ops::Shape(root, a), ops::Shape(root,
//   b));
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_GRAD_OPS_H_
#define RILL_GRAPH_BUILDER_GRAD_OPS_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

Output ReluGrad(const Scope& scope, const Input& gradients, const Input& features);
Output Relu6Grad(const Scope& scope, const Input& gradients, const Input& features);
Output EluGrad(const Scope& scope, const Input& gradients, const Input& outputs);
Output SeluGrad(const Scope& scope, const Input& gradients, const Input& outputs);
Output SoftplusGrad(const Scope& scope, const Input& gradients, const Input& features);
Output LeakyReluGrad(const Scope& scope, const Input& gradients, const Input& features,
                     float alpha = 0.2f);
Output SigmoidGrad(const Scope& scope, const Input& y, const Input& dy);
Output TanhGrad(const Scope& scope, const Input& y, const Input& dy);
Output SqrtGrad(const Scope& scope, const Input& y, const Input& dy);
Output RsqrtGrad(const Scope& scope, const Input& y, const Input& dy);
Output BiasAddGrad(const Scope& scope, const Input& out_backprop,
                   absl::string_view data_format = "NHWC");
struct BroadcastArgs {
  Output r0, r1;
};
BroadcastArgs BroadcastGradientArgs(const Scope& scope, const Output& s0, const Output& s1);
Output InvertPermutation(const Scope& scope, const Input& x);

// Gradients of Conv2D (for the filter of shape filter_sizes), pooling and batch normalization.
Output Conv2DBackpropFilter(const Scope& scope, const Input& input, const Input& filter_sizes,
                            const Input& out_backprop, const std::vector<int64_t>& strides,
                            absl::string_view padding);
Output DepthwiseConv2dNativeBackpropInput(const Scope& scope, const Input& input_sizes,
                                          const Input& filter, const Input& out_backprop,
                                          const std::vector<int64_t>& strides,
                                          absl::string_view padding);
Output DepthwiseConv2dNativeBackpropFilter(const Scope& scope, const Input& input,
                                           const Input& filter_sizes, const Input& out_backprop,
                                           const std::vector<int64_t>& strides,
                                           absl::string_view padding);
Output MaxPoolGrad(const Scope& scope, const Output& orig_input, const Output& orig_output,
                   const Output& grad, const std::vector<int64_t>& ksize,
                   const std::vector<int64_t>& strides, absl::string_view padding);
Output AvgPoolGrad(const Scope& scope, const Output& orig_input_shape, const Output& grad,
                   const std::vector<int64_t>& ksize, const std::vector<int64_t>& strides,
                   absl::string_view padding);
// The gradient of MaxPoolGrad with respect to its `grad` (of orig_output's shape).
Output MaxPoolGradGrad(const Scope& scope, const Output& orig_input, const Output& orig_output,
                       const Output& grad, const std::vector<int64_t>& ksize,
                       const std::vector<int64_t>& strides, absl::string_view padding);
// Gradients of LRN and image resizing (NHWC): ResizeBilinearGrad gives original_image's shape and
// dtype from float `grads`; ResizeNearestNeighborGrad sums onto an image of int32 `size` [h, w].
Output LRNGrad(const Scope& scope, const Input& input_grads, const Input& input_image,
               const Input& output_image, int64_t depth_radius = 5, float bias = 1.0f,
               float alpha = 1.0f, float beta = 0.5f);
Output ResizeBilinearGrad(const Scope& scope, const Input& grads, const Input& original_image,
                          bool align_corners = false, bool half_pixel_centers = false);
Output ResizeNearestNeighborGrad(const Scope& scope, const Input& grads, const Input& size,
                                 bool align_corners = false, bool half_pixel_centers = false);
// Gradients of the 3-D convolution and pools (NDHWC, ksize and strides of 5)
// and Dilation2D.
Output Conv3DBackpropFilterV2(const Scope& scope, const Input& input, const Input& filter_sizes,
                              const Input& out_backprop, const std::vector<int64_t>& strides,
                              absl::string_view padding);
Output AvgPool3DGrad(const Scope& scope, const Output& orig_input_shape, const Output& grad,
                     const std::vector<int64_t>& ksize, const std::vector<int64_t>& strides,
                     absl::string_view padding);
// MaxPool3DGrad gives orig_input's shape, MaxPool3DGradGrad orig_output's.
Output MaxPool3DGrad(const Scope& scope, const Output& orig_input, const Output& orig_output,
                     const Output& grad, const std::vector<int64_t>& ksize,
                     const std::vector<int64_t>& strides, absl::string_view padding);
Output MaxPool3DGradGrad(const Scope& scope, const Output& orig_input, const Output& orig_output,
                         const Output& grad, const std::vector<int64_t>& ksize,
                         const std::vector<int64_t>& strides, absl::string_view padding);
Output Dilation2DBackpropInput(const Scope& scope, const Input& input, const Input& filter,
                               const Input& out_backprop, const std::vector<int64_t>& strides,
                               const std::vector<int64_t>& rates, absl::string_view padding);
Output Dilation2DBackpropFilter(const Scope& scope, const Input& input, const Input& filter,
                                const Input& out_backprop, const std::vector<int64_t>& strides,
                                const std::vector<int64_t>& rates, absl::string_view padding);
// Gradients of ResizeBicubic (float `grads`, original_image's shape and dtype) and CropAndResize
// (the image of int32 `image_size` [batch, h, w, depth]; the boxes, float [num_boxes, 4]).
Output ResizeBicubicGrad(const Scope& scope, const Input& grads, const Input& original_image,
                         bool align_corners = false, bool half_pixel_centers = false);
Output CropAndResizeGradImage(const Scope& scope, const Input& grads, const Input& boxes,
                              const Input& box_ind, const Input& image_size, DataType dtype,
                              absl::string_view method = "bilinear");
Output CropAndResizeGradBoxes(const Scope& scope, const Input& grads, const Input& image,
                              const Input& boxes, const Input& box_ind);
// The gradient of ScaleAndTranslate for its float image (scale and translation: float [y, x]).
Output ScaleAndTranslateGrad(const Scope& scope, const Input& grads, const Input& original_image,
                             const Input& scale, const Input& translation,
                             absl::string_view kernel_type = "lanczos3", bool antialias = true);
// {x_backprop, scale_backprop, offset_backprop, reserve...}; reserve_space_3 only for V3.
std::vector<Output> FusedBatchNormGradV3(const Scope& scope, const Input& y_backprop,
                                         const Input& x, const Input& scale,
                                         const Input& reserve_space_1, const Input& reserve_space_2,
                                         const Input& reserve_space_3, float epsilon,
                                         bool is_training);
std::vector<Output> FusedBatchNormGrad(const Scope& scope, const Input& y_backprop, const Input& x,
                                       const Input& scale, const Input& reserve_space_1,
                                       const Input& reserve_space_2, float epsilon,
                                       bool is_training, bool v2 = false);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_GRAD_OPS_H_
