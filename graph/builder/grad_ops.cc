#include "graph/builder/grad_ops.h"

#include <initializer_list>
#include <string>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

Output Pair(const Scope& scope, const char* op, const Input& a, const Input& b) {
  return OpBuilder(scope, op).Input(a).Input(b).Finalize().output(0);
}

}  // namespace

Output ReluGrad(const Scope& scope, const Input& gradients, const Input& features) {
  return Pair(scope, "ReluGrad", gradients, features);
}
Output Relu6Grad(const Scope& scope, const Input& gradients, const Input& features) {
  return Pair(scope, "Relu6Grad", gradients, features);
}
Output EluGrad(const Scope& scope, const Input& gradients, const Input& outputs) {
  return Pair(scope, "EluGrad", gradients, outputs);
}
Output SeluGrad(const Scope& scope, const Input& gradients, const Input& outputs) {
  return Pair(scope, "SeluGrad", gradients, outputs);
}
Output SoftplusGrad(const Scope& scope, const Input& gradients, const Input& features) {
  return Pair(scope, "SoftplusGrad", gradients, features);
}
Output LeakyReluGrad(const Scope& scope, const Input& gradients, const Input& features,
                     float alpha) {
  return OpBuilder(scope, "LeakyReluGrad")
      .Input(gradients)
      .Input(features)
      .Attr("alpha", alpha)
      .Finalize()
      .output(0);
}
Output SigmoidGrad(const Scope& scope, const Input& y, const Input& dy) {
  return Pair(scope, "SigmoidGrad", y, dy);
}
Output TanhGrad(const Scope& scope, const Input& y, const Input& dy) {
  return Pair(scope, "TanhGrad", y, dy);
}
Output SqrtGrad(const Scope& scope, const Input& y, const Input& dy) {
  return Pair(scope, "SqrtGrad", y, dy);
}
Output RsqrtGrad(const Scope& scope, const Input& y, const Input& dy) {
  return Pair(scope, "RsqrtGrad", y, dy);
}
Output BiasAddGrad(const Scope& scope, const Input& out_backprop, absl::string_view data_format) {
  return OpBuilder(scope, "BiasAddGrad")
      .Input(out_backprop)
      .Attr("data_format", std::string(data_format))
      .Finalize()
      .output(0);
}
BroadcastArgs BroadcastGradientArgs(const Scope& scope, const Output& s0, const Output& s1) {
  Operation op = OpBuilder(scope, "BroadcastGradientArgs").Input(s0).Input(s1).Finalize();
  return {op.output(0), op.output(1)};
}
Output InvertPermutation(const Scope& scope, const Input& x) {
  return OpBuilder(scope, "InvertPermutation").Input(x).Finalize().output(0);
}

Output Conv2DBackpropFilter(const Scope& scope, const Input& input, const Input& filter_sizes,
                            const Input& out_backprop, const std::vector<int64_t>& strides,
                            absl::string_view padding) {
  return OpBuilder(scope, "Conv2DBackpropFilter")
      .Input(input)
      .Input(filter_sizes)
      .Input(out_backprop)
      .Attr("strides", strides)
      .Attr("padding", std::string(padding))
      .Finalize()
      .output(0);
}
namespace {
Output ConvBackprop(const Scope& scope, const char* op, const Input& a, const Input& b,
                    const Input& out_backprop, const std::vector<int64_t>& strides,
                    absl::string_view padding) {
  return OpBuilder(scope, op)
      .Input(a)
      .Input(b)
      .Input(out_backprop)
      .Attr("strides", strides)
      .Attr("padding", std::string(padding))
      .Finalize()
      .output(0);
}
}  // namespace

Output DepthwiseConv2dNativeBackpropInput(const Scope& scope, const Input& input_sizes,
                                          const Input& filter, const Input& out_backprop,
                                          const std::vector<int64_t>& strides,
                                          absl::string_view padding) {
  return ConvBackprop(scope, "DepthwiseConv2dNativeBackpropInput", input_sizes, filter,
                      out_backprop, strides, padding);
}
Output DepthwiseConv2dNativeBackpropFilter(const Scope& scope, const Input& input,
                                           const Input& filter_sizes, const Input& out_backprop,
                                           const std::vector<int64_t>& strides,
                                           absl::string_view padding) {
  return ConvBackprop(scope, "DepthwiseConv2dNativeBackpropFilter", input, filter_sizes,
                      out_backprop, strides, padding);
}
namespace {
// A pooling gradient op: `inputs` in order, then the window attrs.
Output PoolGradOp(const Scope& scope, const char* op, std::initializer_list<Output> inputs,
                  const std::vector<int64_t>& ksize, const std::vector<int64_t>& strides,
                  absl::string_view padding) {
  OpBuilder b(scope, op);
  for (const Output& in : inputs) b.Input(in);
  return b.Attr("ksize", ksize)
      .Attr("strides", strides)
      .Attr("padding", std::string(padding))
      .Finalize()
      .output(0);
}

// Dilation2DBackpropInput / Dilation2DBackpropFilter.
Output DilationBackprop(const Scope& scope, const char* op, const Input& input, const Input& filter,
                        const Input& out_backprop, const std::vector<int64_t>& strides,
                        const std::vector<int64_t>& rates, absl::string_view padding) {
  return OpBuilder(scope, op)
      .Input(input)
      .Input(filter)
      .Input(out_backprop)
      .Attr("strides", strides)
      .Attr("rates", rates)
      .Attr("padding", std::string(padding))
      .Finalize()
      .output(0);
}
}  // namespace

Output MaxPoolGrad(const Scope& scope, const Output& orig_input, const Output& orig_output,
                   const Output& grad, const std::vector<int64_t>& ksize,
                   const std::vector<int64_t>& strides, absl::string_view padding) {
  return PoolGradOp(scope, "MaxPoolGrad", {orig_input, orig_output, grad}, ksize, strides, padding);
}
Output MaxPoolGradGrad(const Scope& scope, const Output& orig_input, const Output& orig_output,
                       const Output& grad, const std::vector<int64_t>& ksize,
                       const std::vector<int64_t>& strides, absl::string_view padding) {
  return PoolGradOp(scope, "MaxPoolGradGrad", {orig_input, orig_output, grad}, ksize, strides,
                    padding);
}

Output LRNGrad(const Scope& scope, const Input& input_grads, const Input& input_image,
               const Input& output_image, int64_t depth_radius, float bias, float alpha,
               float beta) {
  return OpBuilder(scope, "LRNGrad")
      .Input(input_grads)
      .Input(input_image)
      .Input(output_image)
      .Attr("depth_radius", depth_radius)
      .Attr("bias", bias)
      .Attr("alpha", alpha)
      .Attr("beta", beta)
      .Finalize()
      .output(0);
}

Output ResizeBilinearGrad(const Scope& scope, const Input& grads, const Input& original_image,
                          bool align_corners, bool half_pixel_centers) {
  return OpBuilder(scope, "ResizeBilinearGrad")
      .Input(grads)
      .Input(original_image)
      .Attr("align_corners", align_corners)
      .Attr("half_pixel_centers", half_pixel_centers)
      .Finalize()
      .output(0);
}

Output ResizeNearestNeighborGrad(const Scope& scope, const Input& grads, const Input& size,
                                 bool align_corners, bool half_pixel_centers) {
  return OpBuilder(scope, "ResizeNearestNeighborGrad")
      .Input(grads)
      .Input(size)
      .Attr("align_corners", align_corners)
      .Attr("half_pixel_centers", half_pixel_centers)
      .Finalize()
      .output(0);
}

Output Conv3DBackpropFilterV2(const Scope& scope, const Input& input, const Input& filter_sizes,
                              const Input& out_backprop, const std::vector<int64_t>& strides,
                              absl::string_view padding) {
  return OpBuilder(scope, "Conv3DBackpropFilterV2")
      .Input(input)
      .Input(filter_sizes)
      .Input(out_backprop)
      .Attr("strides", strides)
      .Attr("padding", std::string(padding))
      .Finalize()
      .output(0);
}

Output AvgPool3DGrad(const Scope& scope, const Output& orig_input_shape, const Output& grad,
                     const std::vector<int64_t>& ksize, const std::vector<int64_t>& strides,
                     absl::string_view padding) {
  return PoolGradOp(scope, "AvgPool3DGrad", {orig_input_shape, grad}, ksize, strides, padding);
}

Output MaxPool3DGrad(const Scope& scope, const Output& orig_input, const Output& orig_output,
                     const Output& grad, const std::vector<int64_t>& ksize,
                     const std::vector<int64_t>& strides, absl::string_view padding) {
  return PoolGradOp(scope, "MaxPool3DGrad", {orig_input, orig_output, grad}, ksize, strides,
                    padding);
}

Output MaxPool3DGradGrad(const Scope& scope, const Output& orig_input, const Output& orig_output,
                         const Output& grad, const std::vector<int64_t>& ksize,
                         const std::vector<int64_t>& strides, absl::string_view padding) {
  return PoolGradOp(scope, "MaxPool3DGradGrad", {orig_input, orig_output, grad}, ksize, strides,
                    padding);
}

Output Dilation2DBackpropInput(const Scope& scope, const Input& input, const Input& filter,
                               const Input& out_backprop, const std::vector<int64_t>& strides,
                               const std::vector<int64_t>& rates, absl::string_view padding) {
  return DilationBackprop(scope, "Dilation2DBackpropInput", input, filter, out_backprop, strides,
                          rates, padding);
}

Output Dilation2DBackpropFilter(const Scope& scope, const Input& input, const Input& filter,
                                const Input& out_backprop, const std::vector<int64_t>& strides,
                                const std::vector<int64_t>& rates, absl::string_view padding) {
  return DilationBackprop(scope, "Dilation2DBackpropFilter", input, filter, out_backprop, strides,
                          rates, padding);
}

Output ResizeBicubicGrad(const Scope& scope, const Input& grads, const Input& original_image,
                         bool align_corners, bool half_pixel_centers) {
  return OpBuilder(scope, "ResizeBicubicGrad")
      .Input(grads)
      .Input(original_image)
      .Attr("align_corners", align_corners)
      .Attr("half_pixel_centers", half_pixel_centers)
      .Finalize()
      .output(0);
}

Output CropAndResizeGradImage(const Scope& scope, const Input& grads, const Input& boxes,
                              const Input& box_ind, const Input& image_size, DataType dtype,
                              absl::string_view method) {
  return OpBuilder(scope, "CropAndResizeGradImage")
      .Input(grads)
      .Input(boxes)
      .Input(box_ind)
      .Input(image_size)
      .Attr("T", dtype)
      .Attr("method", std::string(method))
      .Finalize()
      .output(0);
}

Output CropAndResizeGradBoxes(const Scope& scope, const Input& grads, const Input& image,
                              const Input& boxes, const Input& box_ind) {
  return OpBuilder(scope, "CropAndResizeGradBoxes")
      .Input(grads)
      .Input(image)
      .Input(boxes)
      .Input(box_ind)
      .Finalize()
      .output(0);
}

Output ScaleAndTranslateGrad(const Scope& scope, const Input& grads, const Input& original_image,
                             const Input& scale, const Input& translation,
                             absl::string_view kernel_type, bool antialias) {
  return OpBuilder(scope, "ScaleAndTranslateGrad")
      .Input(grads)
      .Input(original_image)
      .Input(scale)
      .Input(translation)
      .Attr("kernel_type", std::string(kernel_type))
      .Attr("antialias", antialias)
      .Finalize()
      .output(0);
}

Output AvgPoolGrad(const Scope& scope, const Output& orig_input_shape, const Output& grad,
                   const std::vector<int64_t>& ksize, const std::vector<int64_t>& strides,
                   absl::string_view padding) {
  return PoolGradOp(scope, "AvgPoolGrad", {orig_input_shape, grad}, ksize, strides, padding);
}

namespace {
std::vector<Output> Outputs(const Operation& op, int n) {
  std::vector<Output> out;
  for (int i = 0; i < n; ++i) out.push_back(op.output(i));
  return out;
}
}  // namespace

std::vector<Output> FusedBatchNormGradV3(const Scope& scope, const Input& y_backprop,
                                         const Input& x, const Input& scale,
                                         const Input& reserve_space_1, const Input& reserve_space_2,
                                         const Input& reserve_space_3, float epsilon,
                                         bool is_training) {
  return Outputs(OpBuilder(scope, "FusedBatchNormGradV3")
                     .Input(y_backprop)
                     .Input(x)
                     .Input(scale)
                     .Input(reserve_space_1)
                     .Input(reserve_space_2)
                     .Input(reserve_space_3)
                     .Attr("epsilon", epsilon)
                     .Attr("is_training", is_training)
                     .Finalize(),
                 5);
}
std::vector<Output> FusedBatchNormGrad(const Scope& scope, const Input& y_backprop, const Input& x,
                                       const Input& scale, const Input& reserve_space_1,
                                       const Input& reserve_space_2, float epsilon,
                                       bool is_training, bool v2) {
  return Outputs(OpBuilder(scope, v2 ? "FusedBatchNormGradV2" : "FusedBatchNormGrad")
                     .Input(y_backprop)
                     .Input(x)
                     .Input(scale)
                     .Input(reserve_space_1)
                     .Input(reserve_space_2)
                     .Attr("epsilon", epsilon)
                     .Attr("is_training", is_training)
                     .Finalize(),
                 5);
}

}  // namespace ops
}  // namespace rill
