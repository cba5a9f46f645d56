// Builder wrappers for the image codec ops: DecodeJpeg, DecodeAndCropJpeg, DecodePng,
// DecodeImage, DecodeBmp, DecodeGif, ExtractJpegShape, EncodePng and EncodeJpeg (TensorFlow's C++
// API names; the JPEG ops' many attrs come in a struct with TensorFlow's defaults). Included by
// graph/builder/ops.h.
//
//   ops::DecodeJpegAttrs attrs;
//   attrs.channels = 3;
//   Output image = ops::DecodeJpeg(root, contents, attrs);
//   Output png = ops::EncodePng(root, image);
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_IMAGE_CODEC_OPS_H_
#define RILL_GRAPH_BUILDER_IMAGE_CODEC_OPS_H_

#include <cstdint>
#include <string>

#include "core/types.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// DecodeJpeg's and DecodeAndCropJpeg's attrs.
struct DecodeJpegAttrs {
  int64_t channels = 0;  // 0 (the image's), 1 or 3
  int64_t ratio = 1;     // 1, 2, 4 or 8
  bool fancy_upscaling = true;
  bool try_recover_truncated = false;
  float acceptable_fraction = 1.0f;
  std::string dct_method;  // "", "INTEGER_FAST" or "INTEGER_ACCURATE"
};

// A scalar string in; uint8 [height, width, channels] out.
Output DecodeJpeg(const Scope& scope, const Input& contents, const DecodeJpegAttrs& attrs = {});
// crop_window: int32 [y, x, height, width].
Output DecodeAndCropJpeg(const Scope& scope, const Input& contents, const Input& crop_window,
                         const DecodeJpegAttrs& attrs = {});
// dtype: uint8 or uint16.
Output DecodePng(const Scope& scope, const Input& contents, int64_t channels = 0,
                 DataType dtype = DT_UINT8);
// JPEG, PNG or BMP; dtype uint8, uint16 or float.
Output DecodeImage(const Scope& scope, const Input& contents, int64_t channels = 0,
                   DataType dtype = DT_UINT8, bool expand_animations = true);
Output DecodeBmp(const Scope& scope, const Input& contents, int64_t channels = 0);
// uint8 [num_frames, height, width, 3] (a JPEG or PNG gives one frame).
Output DecodeGif(const Scope& scope, const Input& contents);
// [height, width, components] as output_type (int32 or int64).
Output ExtractJpegShape(const Scope& scope, const Input& contents, DataType output_type = DT_INT32);

// uint8 or uint16 [..., height, width, channels] in; a string per leading index out.
Output EncodePng(const Scope& scope, const Input& image, int64_t compression = -1);

struct EncodeJpegAttrs {
  std::string format;  // "", "grayscale" or "rgb"
  int64_t quality = 95;
  bool progressive = false;
  bool optimize_size = false;
  bool chroma_downsampling = true;
  std::string density_unit = "in";  // "in" or "cm"
  int64_t x_density = 300;
  int64_t y_density = 300;
  std::string xmp_metadata;
};

// uint8 [height, width, 1 or 3] in; a scalar string out.
Output EncodeJpeg(const Scope& scope, const Input& image, const EncodeJpegAttrs& attrs = {});

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_IMAGE_CODEC_OPS_H_
