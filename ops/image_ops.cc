// Op definitions of the image ops: resizing (ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic,
// ResizeArea, ScaleAndTranslate), detection post-processing (NonMaxSuppressionV2/V3/V4/V5,
// NonMaxSuppressionWithOverlaps, CombinedNonMaxSuppression), CropAndResize, colour conversions and
// adjustments (RGBToHSV, HSVToRGB, AdjustContrastv2, AdjustHue, AdjustSaturation) and the
// sliding-window image ops (ExtractImagePatches, MaxPoolWithArgmax, Dilation2D),
// ImageProjectiveTransformV2 / V3, DrawBoundingBoxes / V2. Signatures read from TensorFlow's
// registry (tests/tfgen/dump_op_specs.py). Shape functions never fail on values the kernel checks.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

// [batch, size[0], size[1], channels] from a 4-D images input and the constant size input (its
// dims unknown when size is not constant or not 2 non-negative values).
absl::Status ResizeShape(ShapeInferenceContext& c) {
  const PartialTensorShape& images = c.input(0);
  std::vector<int64_t> out = {-1, -1, -1, -1};
  if (images.rank() == 4) {
    out[0] = images.dims()[0];
    out[3] = images.dims()[3];
  } else if (!images.unknown_rank()) {
    return absl::OkStatus();
  }
  std::vector<int64_t> size;
  if (c.ConstantIndexValues(1, &size) && size.size() == 2 && size[0] >= 0 && size[1] >= 0) {
    out[1] = size[0];
    out[2] = size[1];
  }
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

REGISTER_OP("ResizeBilinear")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: float")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

REGISTER_OP("ResizeBicubic")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: float")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

REGISTER_OP("ResizeArea")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: float")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .SetShapeFn(ResizeShape);

REGISTER_OP("ScaleAndTranslate")
    .Input("images: T")
    .Input("size: int32")
    .Input("scale: float")
    .Input("translation: float")
    .Output("resized_images: float")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double}")
    .Attr("kernel_type: string = \"lanczos3\"")
    .Attr("antialias: bool = true")
    .SetShapeFn(ResizeShape);

REGISTER_OP("ResizeNearestNeighbor")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: T")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

// A rank-`rank` output of unknown dims.
PartialTensorShape UnknownDims(int rank) {
  return PartialTensorShape(std::vector<int64_t>(rank, -1));
}

// The first form: float boxes and scores, iou_threshold an attr.
REGISTER_OP("NonMaxSuppression")
    .Input("boxes: float")
    .Input("scores: float")
    .Input("max_output_size: int32")
    .Output("selected_indices: int32")
    .Attr("iou_threshold: float = 0.5")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, UnknownDims(1));
      return absl::OkStatus();
    });

REGISTER_OP("NonMaxSuppressionV2")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T_threshold")
    .Output("selected_indices: int32")
    .Attr("T: {half, float} = float")
    .Attr("T_threshold: {half, float} = float")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, UnknownDims(1));
      return absl::OkStatus();
    });

REGISTER_OP("NonMaxSuppressionV3")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T_threshold")
    .Input("score_threshold: T_threshold")
    .Output("selected_indices: int32")
    .Attr("T: {half, float} = float")
    .Attr("T_threshold: {half, float} = float")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, UnknownDims(1));
      return absl::OkStatus();
    });

REGISTER_OP("NonMaxSuppressionV4")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T_threshold")
    .Input("score_threshold: T_threshold")
    .Output("selected_indices: int32")
    .Output("valid_outputs: int32")
    .Attr("T: {half, float} = float")
    .Attr("T_threshold: {half, float} = float")
    .Attr("pad_to_max_output_size: bool = false")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, UnknownDims(1));
      c.set_output(1, UnknownDims(0));
      return absl::OkStatus();
    });

REGISTER_OP("NonMaxSuppressionV5")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T")
    .Input("score_threshold: T")
    .Input("soft_nms_sigma: T")
    .Output("selected_indices: int32")
    .Output("selected_scores: T")
    .Output("valid_outputs: int32")
    .Attr("T: {half, float} = float")
    .Attr("pad_to_max_output_size: bool = false")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, UnknownDims(1));
      c.set_output(1, UnknownDims(1));
      c.set_output(2, UnknownDims(0));
      return absl::OkStatus();
    });

REGISTER_OP("NonMaxSuppressionWithOverlaps")
    .Input("overlaps: float")
    .Input("scores: float")
    .Input("max_output_size: int32")
    .Input("overlap_threshold: float")
    .Input("score_threshold: float")
    .Output("selected_indices: int32")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, UnknownDims(1));
      return absl::OkStatus();
    });

// optimize_for_inference's fusions of ResizeBilinear and / or MirrorPad into Conv2D: outputs
// [batch, ?, ?, the filter's output depth] (the kernel computes the spatial sizes).
absl::Status FusedPadConvShape(ShapeInferenceContext& c, bool resize) {
  const PartialTensorShape& input = c.input(0);
  const PartialTensorShape& filter = c.input(resize ? 3 : 2);
  const bool in_known = !input.unknown_rank() && input.rank() == 4;
  const bool f_known = !filter.unknown_rank() && filter.rank() == 4;
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{in_known ? input.dims()[0] : -1, -1, -1,
                                                          f_known ? filter.dims()[3] : -1}));
  return absl::OkStatus();
}

REGISTER_OP("FusedResizeAndPadConv2D")
    .Input("input: T")
    .Input("size: int32")
    .Input("paddings: int32")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: {half, float, double}")
    .Attr("resize_align_corners: bool = false")
    .Attr("mode: {'REFLECT', 'SYMMETRIC'}")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn([](ShapeInferenceContext& c) { return FusedPadConvShape(c, true); });

REGISTER_OP("FusedPadConv2D")
    .Input("input: T")
    .Input("paddings: int32")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("mode: {'REFLECT', 'SYMMETRIC'}")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn([](ShapeInferenceContext& c) { return FusedPadConvShape(c, false); });

REGISTER_OP("CombinedNonMaxSuppression")
    .Input("boxes: float")
    .Input("scores: float")
    .Input("max_output_size_per_class: int32")
    .Input("max_total_size: int32")
    .Input("iou_threshold: float")
    .Input("score_threshold: float")
    .Output("nmsed_boxes: float")
    .Output("nmsed_scores: float")
    .Output("nmsed_classes: float")
    .Output("valid_detections: int32")
    .Attr("pad_per_class: bool = false")
    .Attr("clip_boxes: bool = true")
    .SetShapeFn([](ShapeInferenceContext& c) {
      const PartialTensorShape& boxes = c.input(0);
      const int64_t batch = boxes.rank() == 4 ? boxes.dims()[0] : -1;
      c.set_output(0, PartialTensorShape({batch, -1, 4}));
      c.set_output(1, PartialTensorShape({batch, -1}));
      c.set_output(2, PartialTensorShape({batch, -1}));
      c.set_output(3, PartialTensorShape({batch}));
      return absl::OkStatus();
    });

// [num_boxes, crop_size[0], crop_size[1], depth].
// [batch, output_shape[0], output_shape[1], channels]: the sizes when output_shape is a constant.
absl::Status ImageProjectiveTransformShape(ShapeInferenceContext& c) {
  const PartialTensorShape& images = c.input(0);
  if (images.unknown_rank() || images.rank() != 4) return absl::OkStatus();
  std::vector<int64_t> size;
  const bool known = c.ConstantIndexValues(2, &size) && size.size() == 2;
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{images.dims()[0], known ? size[0] : -1,
                                                          known ? size[1] : -1, images.dims()[3]}));
  return absl::OkStatus();
}

// V3 without fill_value (points outside the image read 0): TensorFlow 2.3's Keras preprocessing
// and tfa.image.transform / rotate.
REGISTER_OP("ImageProjectiveTransformV2")
    .Input("images: dtype")
    .Input("transforms: float")
    .Input("output_shape: int32")
    .Output("transformed_images: dtype")
    .Attr("dtype: {uint8, int32, int64, half, bfloat16, float, double}")
    .Attr("interpolation: string")
    .Attr("fill_mode: string = \"CONSTANT\"")
    .SetShapeFn(ImageProjectiveTransformShape);

REGISTER_OP("ImageProjectiveTransformV3")
    .Input("images: dtype")
    .Input("transforms: float")
    .Input("output_shape: int32")
    .Input("fill_value: float")
    .Output("transformed_images: dtype")
    .Attr("dtype: {uint8, int32, int64, half, bfloat16, float, double}")
    .Attr("interpolation: string")
    .Attr("fill_mode: string = \"CONSTANT\"")
    .SetShapeFn(ImageProjectiveTransformShape);

REGISTER_OP("CropAndResize")
    .Input("image: T")
    .Input("boxes: float")
    .Input("box_ind: int32")
    .Input("crop_size: int32")
    .Output("crops: float")
    .Attr("T: {uint8, uint16, int8, int16, int32, int64, half, float, double}")
    .Attr("method: {'bilinear', 'nearest'} = \"bilinear\"")
    .Attr("extrapolation_value: float = 0.0")
    .SetShapeFn([](ShapeInferenceContext& c) {
      const PartialTensorShape& image = c.input(0);
      const PartialTensorShape& boxes = c.input(1);
      std::vector<int64_t> out = {boxes.rank() == 2 ? boxes.dims()[0] : -1, -1, -1,
                                  image.rank() == 4 ? image.dims()[3] : -1};
      std::vector<int64_t> size;
      if (c.ConstantIndexValues(3, &size) && size.size() == 2 && size[0] > 0 && size[1] > 0) {
        out[1] = size[0];
        out[2] = size[1];
      }
      c.set_output(0, PartialTensorShape(std::move(out)));
      return absl::OkStatus();
    });

REGISTER_OP("RGBToHSV")
    .Input("images: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double} = float")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("HSVToRGB")
    .Input("images: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double} = float")
    .SetShapeFn(shape_fns::Unchanged);

// The first tf.image.adjust_contrast (TensorFlow deprecates it at GraphDef version 2): float out,
// clamped to [min_value, max_value].
REGISTER_OP("AdjustContrast")
    .Input("images: T")
    .Input("contrast_factor: float")
    .Input("min_value: float")
    .Input("max_value: float")
    .Output("output: float")
    .Attr("T: {uint8, int8, int16, int32, int64, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("AdjustContrastv2")
    .Input("images: T")
    .Input("contrast_factor: float")
    .Output("output: T")
    .Attr("T: {half, float} = float")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("AdjustHue")
    .Input("images: T")
    .Input("delta: float")
    .Output("output: T")
    .Attr("T: {half, float} = float")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("AdjustSaturation")
    .Input("images: T")
    .Input("scale: float")
    .Output("output: T")
    .Attr("T: {half, float} = float")
    .SetShapeFn(shape_fns::Unchanged);

// [batch, -1, -1, channels] of a 4-D input (channels: `channels`, or the input's when -2).
PartialTensorShape WindowedShape(const PartialTensorShape& in, int64_t channels) {
  if (in.rank() != 4) return PartialTensorShape();
  return PartialTensorShape({in.dims()[0], -1, -1, channels == -2 ? in.dims()[3] : channels});
}

REGISTER_OP("ExtractImagePatches")
    .Input("images: T")
    .Output("patches: T")
    .Attr("ksizes: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("rates: list(int) >= 4")
    .Attr(
        "T: {bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, uint32, "
        "uint64, complex64, complex128, bool}")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, WindowedShape(c.input(0), -1));
      return absl::OkStatus();
    });

REGISTER_OP("MaxPoolWithArgmax")
    .Input("input: T")
    .Output("output: T")
    .Output("argmax: Targmax")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("Targmax: {int32, int64} = int64")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("include_batch_in_index: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .SetShapeFn([](ShapeInferenceContext& c) {
      // TensorFlow's MaxPool shape function: a VALID window larger than a known dim is refused.
      const PartialTensorShape& in = c.input(0);
      std::vector<int64_t> ksize, strides;
      std::string padding;
      if (in.rank() == 4 && GetNodeAttr(c.node(), "ksize", &ksize).ok() &&
          GetNodeAttr(c.node(), "strides", &strides).ok() &&
          GetNodeAttr(c.node(), "padding", &padding).ok() && ksize.size() == 4 &&
          strides.size() == 4) {
        for (int d = 1; d < 4; ++d) {
          if (in.dims()[d] < 0) continue;
          RILL_RETURN_IF_ERROR(
              CheckWindowFits(in.dims()[d], ksize[d], strides[d], 1, PaddingFromString(padding)));
        }
      }
      c.set_output(0, WindowedShape(c.input(0), -2));
      c.set_output(1, WindowedShape(c.input(0), -2));
      return absl::OkStatus();
    });

REGISTER_OP("Dilation2D")
    .Input("input: T")
    .Input("filter: T")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("strides: list(int) >= 4")
    .Attr("rates: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, WindowedShape(c.input(0), -2));
      return absl::OkStatus();
    });

// DrawBoundingBoxes / V2: the images' shape (TensorFlow requires rank 3 at least).
absl::Status DrawBoxesShape(ShapeInferenceContext& c) {
  const PartialTensorShape& images = c.input(0);
  if (!images.unknown_rank() && images.rank() < 3) {
    return absl::InvalidArgumentError(absl::StrCat("Shape must be at least rank 3 but is rank ",
                                                   images.rank(), " for node '", c.node().name(),
                                                   "'"));
  }
  c.set_output(0, images);
  return absl::OkStatus();
}

REGISTER_OP("DrawBoundingBoxes")
    .Input("images: T")
    .Input("boxes: float")
    .Output("output: T")
    .Attr("T: {float, half} = float")
    .SetShapeFn(DrawBoxesShape);

REGISTER_OP("DrawBoundingBoxesV2")
    .Input("images: T")
    .Input("boxes: float")
    .Input("colors: float")
    .Output("output: T")
    .Attr("T: {float, half} = float")
    .SetShapeFn(DrawBoxesShape);

}  // namespace
}  // namespace rill
