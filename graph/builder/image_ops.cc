#include "graph/builder/image_ops.h"

#include <string>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

std::vector<Output> Outputs(const Operation& node) {
  std::vector<Output> out;
  for (int i = 0; i < node.num_outputs(); ++i) out.push_back(node.output(i));
  return out;
}

Output OneInput(const Scope& scope, const char* op, const Input& x) {
  return OpBuilder(scope, op).Input(x).Finalize().output(0);
}

Output TwoInputs(const Scope& scope, const char* op, const Input& x, const Input& y) {
  return OpBuilder(scope, op).Input(x).Input(y).Finalize().output(0);
}

}  // namespace

Output ResizeBicubic(const Scope& scope, const Input& images, const Input& size, bool align_corners,
                     bool half_pixel_centers) {
  return OpBuilder(scope, "ResizeBicubic")
      .Input(images)
      .Input(size)
      .Attr("align_corners", align_corners)
      .Attr("half_pixel_centers", half_pixel_centers)
      .Finalize()
      .output(0);
}

Output ResizeArea(const Scope& scope, const Input& images, const Input& size, bool align_corners) {
  return OpBuilder(scope, "ResizeArea")
      .Input(images)
      .Input(size)
      .Attr("align_corners", align_corners)
      .Finalize()
      .output(0);
}

Output ScaleAndTranslate(const Scope& scope, const Input& images, const Input& size,
                         const Input& scale, const Input& translation,
                         absl::string_view kernel_type, bool antialias) {
  return OpBuilder(scope, "ScaleAndTranslate")
      .Input(images)
      .Input(size)
      .Input(scale)
      .Input(translation)
      .Attr("kernel_type", kernel_type)
      .Attr("antialias", antialias)
      .Finalize()
      .output(0);
}

Output NonMaxSuppressionV2(const Scope& scope, const Input& boxes, const Input& scores,
                           const Input& max_output_size, const Input& iou_threshold) {
  return OpBuilder(scope, "NonMaxSuppressionV2")
      .Input(boxes)
      .Input(scores)
      .Input(max_output_size)
      .Input(iou_threshold)
      .Finalize()
      .output(0);
}

Output NonMaxSuppressionV3(const Scope& scope, const Input& boxes, const Input& scores,
                           const Input& max_output_size, const Input& iou_threshold,
                           const Input& score_threshold) {
  return OpBuilder(scope, "NonMaxSuppressionV3")
      .Input(boxes)
      .Input(scores)
      .Input(max_output_size)
      .Input(iou_threshold)
      .Input(score_threshold)
      .Finalize()
      .output(0);
}

std::vector<Output> NonMaxSuppressionV4(const Scope& scope, const Input& boxes, const Input& scores,
                                        const Input& max_output_size, const Input& iou_threshold,
                                        const Input& score_threshold, bool pad_to_max_output_size) {
  return Outputs(OpBuilder(scope, "NonMaxSuppressionV4")
                     .Input(boxes)
                     .Input(scores)
                     .Input(max_output_size)
                     .Input(iou_threshold)
                     .Input(score_threshold)
                     .Attr("pad_to_max_output_size", pad_to_max_output_size)
                     .Finalize());
}

std::vector<Output> NonMaxSuppressionV5(const Scope& scope, const Input& boxes, const Input& scores,
                                        const Input& max_output_size, const Input& iou_threshold,
                                        const Input& score_threshold, const Input& soft_nms_sigma,
                                        bool pad_to_max_output_size) {
  return Outputs(OpBuilder(scope, "NonMaxSuppressionV5")
                     .Input(boxes)
                     .Input(scores)
                     .Input(max_output_size)
                     .Input(iou_threshold)
                     .Input(score_threshold)
                     .Input(soft_nms_sigma)
                     .Attr("pad_to_max_output_size", pad_to_max_output_size)
                     .Finalize());
}

Output NonMaxSuppressionWithOverlaps(const Scope& scope, const Input& overlaps, const Input& scores,
                                     const Input& max_output_size, const Input& overlap_threshold,
                                     const Input& score_threshold) {
  return OpBuilder(scope, "NonMaxSuppressionWithOverlaps")
      .Input(overlaps)
      .Input(scores)
      .Input(max_output_size)
      .Input(overlap_threshold)
      .Input(score_threshold)
      .Finalize()
      .output(0);
}

Output FusedResizeAndPadConv2D(const Scope& scope, const Input& input, const Input& size,
                               const Input& paddings, const Input& filter, absl::string_view mode,
                               const std::vector<int64_t>& strides, absl::string_view padding,
                               bool resize_align_corners) {
  return OpBuilder(scope, "FusedResizeAndPadConv2D")
      .Input(input)
      .Input(size)
      .Input(paddings)
      .Input(filter)
      .Attr("resize_align_corners", resize_align_corners)
      .Attr("mode", mode)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Finalize()
      .output(0);
}

Output FusedPadConv2D(const Scope& scope, const Input& input, const Input& paddings,
                      const Input& filter, absl::string_view mode,
                      const std::vector<int64_t>& strides, absl::string_view padding) {
  return OpBuilder(scope, "FusedPadConv2D")
      .Input(input)
      .Input(paddings)
      .Input(filter)
      .Attr("mode", mode)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Finalize()
      .output(0);
}

std::vector<Output> CombinedNonMaxSuppression(
    const Scope& scope, const Input& boxes, const Input& scores,
    const Input& max_output_size_per_class, const Input& max_total_size, const Input& iou_threshold,
    const Input& score_threshold, bool pad_per_class, bool clip_boxes) {
  return Outputs(OpBuilder(scope, "CombinedNonMaxSuppression")
                     .Input(boxes)
                     .Input(scores)
                     .Input(max_output_size_per_class)
                     .Input(max_total_size)
                     .Input(iou_threshold)
                     .Input(score_threshold)
                     .Attr("pad_per_class", pad_per_class)
                     .Attr("clip_boxes", clip_boxes)
                     .Finalize());
}

Output AdjustContrast(const Scope& scope, const Input& images, const Input& contrast_factor,
                      const Input& min_value, const Input& max_value) {
  return OpBuilder(scope, "AdjustContrast")
      .Input(images)
      .Input(contrast_factor)
      .Input(min_value)
      .Input(max_value)
      .Finalize()
      .output(0);
}

Output DrawBoundingBoxes(const Scope& scope, const Input& images, const Input& boxes) {
  return OpBuilder(scope, "DrawBoundingBoxes").Input(images).Input(boxes).Finalize().output(0);
}

Output DrawBoundingBoxesV2(const Scope& scope, const Input& images, const Input& boxes,
                           const Input& colors) {
  return OpBuilder(scope, "DrawBoundingBoxesV2")
      .Input(images)
      .Input(boxes)
      .Input(colors)
      .Finalize()
      .output(0);
}

Output CropAndResize(const Scope& scope, const Input& image, const Input& boxes,
                     const Input& box_ind, const Input& crop_size, absl::string_view method,
                     float extrapolation_value) {
  return OpBuilder(scope, "CropAndResize")
      .Input(image)
      .Input(boxes)
      .Input(box_ind)
      .Input(crop_size)
      .Attr("method", method)
      .Attr("extrapolation_value", extrapolation_value)
      .Finalize()
      .output(0);
}

Output RGBToHSV(const Scope& scope, const Input& images) {
  return OneInput(scope, "RGBToHSV", images);
}
Output HSVToRGB(const Scope& scope, const Input& images) {
  return OneInput(scope, "HSVToRGB", images);
}
Output AdjustContrastv2(const Scope& scope, const Input& images, const Input& contrast_factor) {
  return TwoInputs(scope, "AdjustContrastv2", images, contrast_factor);
}
Output AdjustHue(const Scope& scope, const Input& images, const Input& delta) {
  return TwoInputs(scope, "AdjustHue", images, delta);
}
Output AdjustSaturation(const Scope& scope, const Input& images, const Input& scale) {
  return TwoInputs(scope, "AdjustSaturation", images, scale);
}

Output ExtractImagePatches(const Scope& scope, const Input& images,
                           const std::vector<int64_t>& ksizes, const std::vector<int64_t>& strides,
                           const std::vector<int64_t>& rates, absl::string_view padding) {
  return OpBuilder(scope, "ExtractImagePatches")
      .Input(images)
      .Attr("ksizes", ksizes)
      .Attr("strides", strides)
      .Attr("rates", rates)
      .Attr("padding", padding)
      .Finalize()
      .output(0);
}

std::vector<Output> MaxPoolWithArgmax(const Scope& scope, const Input& input,
                                      const std::vector<int64_t>& ksize,
                                      const std::vector<int64_t>& strides,
                                      absl::string_view padding, bool include_batch_in_index) {
  return Outputs(OpBuilder(scope, "MaxPoolWithArgmax")
                     .Input(input)
                     .Attr("ksize", ksize)
                     .Attr("strides", strides)
                     .Attr("padding", padding)
                     .Attr("include_batch_in_index", include_batch_in_index)
                     .Finalize());
}

Output Dilation2D(const Scope& scope, const Input& input, const Input& filter,
                  const std::vector<int64_t>& strides, const std::vector<int64_t>& rates,
                  absl::string_view padding) {
  return OpBuilder(scope, "Dilation2D")
      .Input(input)
      .Input(filter)
      .Attr("strides", strides)
      .Attr("rates", rates)
      .Attr("padding", padding)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
