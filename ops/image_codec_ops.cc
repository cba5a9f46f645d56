// Op definitions of the image codec ops: DecodeJpeg, DecodeAndCropJpeg, DecodePng, DecodeImage,
// DecodeBmp, DecodeGif, ExtractJpegShape, EncodePng, EncodeJpeg. Signatures read from TensorFlow's
// registry (tests/tfgen/dump_op_specs.py); shape functions give what TensorFlow's give (a decoded
// image is [height, width, channels] with the channel count known when the attr fixes it).
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// The `channels` attr as an output dim: -1 when 0 (the image's own count); InvalidArgument when
// negative, as TensorFlow's shape function.
absl::StatusOr<int64_t> ChannelsDim(const ShapeInferenceContext& c) {
  int64_t channels = 0;
  (void)GetNodeAttr(c.node(), "channels", &channels);
  if (channels < 0) {
    return absl::InvalidArgumentError(absl::StrCat("channels must be non-negative, got ", channels,
                                                   " for node '", c.node().name(), "'"));
  }
  return channels == 0 ? -1 : channels;
}

// A scalar string in, [height, width, channels] out.
absl::Status DecodeShape(ShapeInferenceContext& c) {
  RILL_RETURN_IF_ERROR(c.WithRank(0, 0));
  RILL_ASSIGN_OR_RETURN(int64_t channels, ChannelsDim(c));
  c.set_output(0, PartialTensorShape({-1, -1, channels}));
  return absl::OkStatus();
}

// [crop_height, crop_width, channels] when crop_window is a constant.
absl::Status DecodeAndCropShape(ShapeInferenceContext& c) {
  RILL_RETURN_IF_ERROR(c.WithRank(0, 0));
  RILL_RETURN_IF_ERROR(c.WithRank(1, 1));
  const PartialTensorShape& window = c.input(1);
  if (window.rank() == 1) {
    int64_t unused;
    RILL_RETURN_IF_ERROR(c.MergeDim(window.dims()[0], 4, &unused, "crop_window"));
  }
  RILL_ASSIGN_OR_RETURN(int64_t channels, ChannelsDim(c));
  std::vector<int64_t> crop;
  int64_t h = -1, w = -1;
  if (c.ConstantIndexValues(1, &crop) && crop.size() == 4) {
    h = crop[2];
    w = crop[3];
  }
  c.set_output(0, PartialTensorShape({h, w, channels}));
  return absl::OkStatus();
}

// DecodeImage: rank unknown when animations expand (a GIF gives 4 dims), else as DecodeShape.
absl::Status DecodeImageShape(ShapeInferenceContext& c) {
  RILL_RETURN_IF_ERROR(c.WithRank(0, 0));
  RILL_ASSIGN_OR_RETURN(int64_t channels, ChannelsDim(c));
  bool expand = true;
  (void)GetNodeAttr(c.node(), "expand_animations", &expand);
  c.set_output(0, expand ? PartialTensorShape() : PartialTensorShape({-1, -1, channels}));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("DecodeJpeg")
    .Input("contents: string")
    .Output("image: uint8")
    .Attr("channels: int = 0")
    .Attr("ratio: int = 1")
    .Attr("fancy_upscaling: bool = true")
    .Attr("try_recover_truncated: bool = false")
    .Attr("acceptable_fraction: float = 1.0")
    .Attr("dct_method: string = \"\"")
    .SetShapeFn(DecodeShape);

REGISTER_OP("DecodeAndCropJpeg")
    .Input("contents: string")
    .Input("crop_window: int32")
    .Output("image: uint8")
    .Attr("channels: int = 0")
    .Attr("ratio: int = 1")
    .Attr("fancy_upscaling: bool = true")
    .Attr("try_recover_truncated: bool = false")
    .Attr("acceptable_fraction: float = 1.0")
    .Attr("dct_method: string = \"\"")
    .SetShapeFn(DecodeAndCropShape);

REGISTER_OP("DecodePng")
    .Input("contents: string")
    .Output("image: dtype")
    .Attr("channels: int = 0")
    .Attr("dtype: {uint8, uint16} = uint8")
    .SetShapeFn(DecodeShape);

REGISTER_OP("DecodeImage")
    .Input("contents: string")
    .Output("image: dtype")
    .Attr("channels: int = 0")
    .Attr("dtype: {uint8, uint16, float} = uint8")
    .Attr("expand_animations: bool = true")
    .SetShapeFn(DecodeImageShape);

REGISTER_OP("DecodeBmp")
    .Input("contents: string")
    .Output("image: uint8")
    .Attr("channels: int = 0")
    .SetShapeFn(DecodeShape);

// DecodeGif: [num_frames, height, width, 3].
REGISTER_OP("DecodeGif")
    .Input("contents: string")
    .Output("image: uint8")
    .SetShapeFn([](ShapeInferenceContext& c) {
      RILL_RETURN_IF_ERROR(c.WithRank(0, 0));
      c.set_output(0, PartialTensorShape({-1, -1, -1, 3}));
      return absl::OkStatus();
    });

REGISTER_OP("ExtractJpegShape")
    .Input("contents: string")
    .Output("image_shape: output_type")
    .Attr("output_type: {int32, int64} = int32")
    .SetShapeFn([](ShapeInferenceContext& c) {
      RILL_RETURN_IF_ERROR(c.WithRank(0, 0));
      c.set_output(0, PartialTensorShape({3}));
      return absl::OkStatus();
    });

// A string per image: the batch dims before [height, width, channels].
REGISTER_OP("EncodePng")
    .Input("image: T")
    .Output("contents: string")
    .Attr("compression: int = -1")
    .Attr("T: {uint8, uint16} = uint8")
    .SetShapeFn([](ShapeInferenceContext& c) {
      const PartialTensorShape& image = c.input(0);
      if (image.unknown_rank()) {
        c.set_output(0, PartialTensorShape());
        return absl::OkStatus();
      }
      if (image.rank() < 3) {
        return absl::InvalidArgumentError(absl::StrCat("Shape must be at least rank 3 but is rank ",
                                                       image.rank(), " for node '", c.node().name(),
                                                       "'"));
      }
      c.set_output(0, PartialTensorShape(
                          std::vector<int64_t>(image.dims().begin(), image.dims().end() - 3)));
      return absl::OkStatus();
    });

REGISTER_OP("EncodeJpeg")
    .Input("image: uint8")
    .Output("contents: string")
    .Attr("format: {'', 'grayscale', 'rgb'} = \"\"")
    .Attr("quality: int = 95")
    .Attr("progressive: bool = false")
    .Attr("optimize_size: bool = false")
    .Attr("chroma_downsampling: bool = true")
    .Attr("density_unit: {'in', 'cm'} = \"in\"")
    .Attr("x_density: int = 300")
    .Attr("y_density: int = 300")
    .Attr("xmp_metadata: string = \"\"")
    .SetShapeFn([](ShapeInferenceContext& c) {
      RILL_RETURN_IF_ERROR(c.WithRank(0, 3));
      c.set_output(0, PartialTensorShape({}));
      return absl::OkStatus();
    });

}  // namespace rill
