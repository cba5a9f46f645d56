// Builder wrappers for the image ops: bicubic / area / scale-and-translate resizing,
// non-max suppression, CropAndResize, colour conversions and adjustments, image patches,
// MaxPoolWithArgmax and Dilation2D (TensorFlow's C++ API names). Included by graph/builder/ops.h.
//
//   Output keep = ops::NonMaxSuppressionV3(root, boxes, scores, max_out, iou, score_threshold);
//
// Multi-output ops return their outputs in OpDef order. Errors are recorded in the scope (see
// op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_IMAGE_OPS_H_
#define RILL_GRAPH_BUILDER_IMAGE_OPS_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// Resizing of NHWC images to size (int32 [height, width]).
Output ResizeBicubic(const Scope& scope, const Input& images, const Input& size,
                     bool align_corners = false, bool half_pixel_centers = false);
Output ResizeArea(const Scope& scope, const Input& images, const Input& size,
                  bool align_corners = false);
Output ScaleAndTranslate(const Scope& scope, const Input& images, const Input& size,
                         const Input& scale, const Input& translation,
                         absl::string_view kernel_type = "lanczos3", bool antialias = true);

// Non-max suppression: selected_indices (V4: and valid_outputs; V5: selected_scores and
// valid_outputs).
Output NonMaxSuppressionV2(const Scope& scope, const Input& boxes, const Input& scores,
                           const Input& max_output_size, const Input& iou_threshold);
Output NonMaxSuppressionV3(const Scope& scope, const Input& boxes, const Input& scores,
                           const Input& max_output_size, const Input& iou_threshold,
                           const Input& score_threshold);
std::vector<Output> NonMaxSuppressionV4(const Scope& scope, const Input& boxes, const Input& scores,
                                        const Input& max_output_size, const Input& iou_threshold,
                                        const Input& score_threshold,
                                        bool pad_to_max_output_size = false);
std::vector<Output> NonMaxSuppressionV5(const Scope& scope, const Input& boxes, const Input& scores,
                                        const Input& max_output_size, const Input& iou_threshold,
                                        const Input& score_threshold, const Input& soft_nms_sigma,
                                        bool pad_to_max_output_size = false);
// Hard NMS over a given similarity matrix overlaps [num_boxes, num_boxes]: selected_indices.
Output NonMaxSuppressionWithOverlaps(const Scope& scope, const Input& overlaps, const Input& scores,
                                     const Input& max_output_size, const Input& overlap_threshold,
                                     const Input& score_threshold);
// nmsed_boxes, nmsed_scores, nmsed_classes, valid_detections.
std::vector<Output> CombinedNonMaxSuppression(
    const Scope& scope, const Input& boxes, const Input& scores,
    const Input& max_output_size_per_class, const Input& max_total_size, const Input& iou_threshold,
    const Input& score_threshold, bool pad_per_class = false, bool clip_boxes = true);
// optimize_for_inference's fusions: ResizeBilinear (legacy sampling) and MirrorPad before a
// Conv2D, and MirrorPad before a Conv2D. mode "REFLECT" or "SYMMETRIC", padding "SAME" or "VALID".
Output FusedResizeAndPadConv2D(const Scope& scope, const Input& input, const Input& size,
                               const Input& paddings, const Input& filter, absl::string_view mode,
                               const std::vector<int64_t>& strides, absl::string_view padding,
                               bool resize_align_corners = false);
Output FusedPadConv2D(const Scope& scope, const Input& input, const Input& paddings,
                      const Input& filter, absl::string_view mode,
                      const std::vector<int64_t>& strides, absl::string_view padding);
Output CropAndResize(const Scope& scope, const Input& image, const Input& boxes,
                     const Input& box_ind, const Input& crop_size,
                     absl::string_view method = "bilinear", float extrapolation_value = 0.0f);
// The first adjust_contrast: float (x - mean) * contrast_factor + mean, clamped.
Output AdjustContrast(const Scope& scope, const Input& images, const Input& contrast_factor,
                      const Input& min_value, const Input& max_value);
// Box outlines drawn on NHWC images (colors: V2's [n, >= depth] table; none for the default).
Output DrawBoundingBoxes(const Scope& scope, const Input& images, const Input& boxes);
Output DrawBoundingBoxesV2(const Scope& scope, const Input& images, const Input& boxes,
                           const Input& colors);

// Colour.
Output RGBToHSV(const Scope& scope, const Input& images);
Output HSVToRGB(const Scope& scope, const Input& images);
Output AdjustContrastv2(const Scope& scope, const Input& images, const Input& contrast_factor);
Output AdjustHue(const Scope& scope, const Input& images, const Input& delta);
Output AdjustSaturation(const Scope& scope, const Input& images, const Input& scale);

// Sliding windows (4 values each, NHWC order).
Output ExtractImagePatches(const Scope& scope, const Input& images,
                           const std::vector<int64_t>& ksizes, const std::vector<int64_t>& strides,
                           const std::vector<int64_t>& rates, absl::string_view padding);
// output, argmax.
std::vector<Output> MaxPoolWithArgmax(const Scope& scope, const Input& input,
                                      const std::vector<int64_t>& ksize,
                                      const std::vector<int64_t>& strides,
                                      absl::string_view padding,
                                      bool include_batch_in_index = false);
Output Dilation2D(const Scope& scope, const Input& input, const Input& filter,
                  const std::vector<int64_t>& strides, const std::vector<int64_t>& rates,
                  absl::string_view padding);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_IMAGE_OPS_H_
