#include "graph/builder/image_codec_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

OpBuilder& JpegAttrs(OpBuilder& b, const DecodeJpegAttrs& a) {
  return b.Attr("channels", a.channels)
      .Attr("ratio", a.ratio)
      .Attr("fancy_upscaling", a.fancy_upscaling)
      .Attr("try_recover_truncated", a.try_recover_truncated)
      .Attr("acceptable_fraction", a.acceptable_fraction)
      .Attr("dct_method", a.dct_method);
}

}  // namespace

Output DecodeJpeg(const Scope& scope, const Input& contents, const DecodeJpegAttrs& attrs) {
  OpBuilder b(scope, "DecodeJpeg");
  b.Input(contents);
  return JpegAttrs(b, attrs).Finalize().output(0);
}

Output DecodeAndCropJpeg(const Scope& scope, const Input& contents, const Input& crop_window,
                         const DecodeJpegAttrs& attrs) {
  OpBuilder b(scope, "DecodeAndCropJpeg");
  b.Input(contents).Input(crop_window);
  return JpegAttrs(b, attrs).Finalize().output(0);
}

Output DecodePng(const Scope& scope, const Input& contents, int64_t channels, DataType dtype) {
  return OpBuilder(scope, "DecodePng")
      .Input(contents)
      .Attr("channels", channels)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Output DecodeImage(const Scope& scope, const Input& contents, int64_t channels, DataType dtype,
                   bool expand_animations) {
  return OpBuilder(scope, "DecodeImage")
      .Input(contents)
      .Attr("channels", channels)
      .Attr("dtype", dtype)
      .Attr("expand_animations", expand_animations)
      .Finalize()
      .output(0);
}

Output DecodeBmp(const Scope& scope, const Input& contents, int64_t channels) {
  return OpBuilder(scope, "DecodeBmp")
      .Input(contents)
      .Attr("channels", channels)
      .Finalize()
      .output(0);
}

Output DecodeGif(const Scope& scope, const Input& contents) {
  return OpBuilder(scope, "DecodeGif").Input(contents).Finalize().output(0);
}

Output ExtractJpegShape(const Scope& scope, const Input& contents, DataType output_type) {
  return OpBuilder(scope, "ExtractJpegShape")
      .Input(contents)
      .Attr("output_type", output_type)
      .Finalize()
      .output(0);
}

Output EncodePng(const Scope& scope, const Input& image, int64_t compression) {
  return OpBuilder(scope, "EncodePng")
      .Input(image)
      .Attr("compression", compression)
      .Finalize()
      .output(0);
}

Output EncodeJpeg(const Scope& scope, const Input& image, const EncodeJpegAttrs& attrs) {
  return OpBuilder(scope, "EncodeJpeg")
      .Input(image)
      .Attr("format", attrs.format)
      .Attr("quality", attrs.quality)
      .Attr("progressive", attrs.progressive)
      .Attr("optimize_size", attrs.optimize_size)
      .Attr("chroma_downsampling", attrs.chroma_downsampling)
      .Attr("density_unit", attrs.density_unit)
      .Attr("x_density", attrs.x_density)
      .Attr("y_density", attrs.y_density)
      .Attr("xmp_metadata", attrs.xmp_metadata)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
