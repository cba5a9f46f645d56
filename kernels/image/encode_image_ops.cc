// Image encoders and the JPEG shape reader on the CPU, as TensorFlow's:
//   EncodePng: a [..., height, width, channels] uint8/uint16 image (1 to 4 channels) to one PNG
//     string per leading index, compression -1 (zlib's default) to 9 (png_codec.h).
//   EncodeJpeg: a [height, width, 1 or 3] uint8 image to a JPEG string with the quality,
//     progressive, Huffman optimisation, chroma subsampling, JFIF density and XMP attrs
//     (jpeg_codec.h).
//   ExtractJpegShape: [height, width, components] from a JPEG's header.
// Error texts are TensorFlow's. Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/image/jpeg_codec.h"
#include "kernels/image/png_codec.h"

namespace rill {
namespace {

class EncodePngOp final : public OpKernel {
 public:
  explicit EncodePngOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    int64_t compression = -1;
    ctx.SetStatus(ctx.GetAttr("compression", &compression));
    if (compression < -1 || compression > 9) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("compression should be in [-1,9], got ", compression)));
    }
    compression_ = static_cast<int>(compression);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& image = ctx.input(0);
    const TensorShape& shape = image.shape();
    if (shape.rank() < 3) {
      return absl::InvalidArgumentError(
          absl::StrCat("images must be at least rank 3", shape.DebugString()));
    }
    if (image.NumElements() >= std::numeric_limits<int32_t>::max()) {
      return absl::InvalidArgumentError("image cannot have >= int32 max elements");
    }
    const int batch_dims = shape.rank() - 3;
    const int64_t height = shape.dim(batch_dims);
    const int64_t width = shape.dim(batch_dims + 1);
    const int64_t channels = shape.dim(batch_dims + 2);
    if (width * channels >= std::numeric_limits<int32_t>::max() / 2) {
      return absl::InvalidArgumentError("image too wide to encode");
    }
    if (channels < 1 || channels > 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("image must have 1, 2, 3, or 4 channels, got ", channels));
    }
    const std::vector<int64_t> batch(shape.dims().begin(), shape.dims().end() - 3);
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(batch));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int bits = image.dtype() == DT_UINT16 ? 16 : 8;
    const int64_t row_bytes = width * channels * bits / 8;
    const int64_t image_bytes = height * row_bytes;
    const uint8_t* data = static_cast<const uint8_t*>(image.raw_data());
    std::vector<int64_t> bad;
    auto strings = out->flat<std::string>();
    for (int64_t i = 0; i < out_shape.num_elements(); ++i) {
      if (!png_codec::EncodePng(data + i * image_bytes, static_cast<int>(width),
                                static_cast<int>(height), row_bytes, static_cast<int>(channels),
                                bits, compression_, &strings[i])) {
        bad.push_back(i);
      }
    }
    if (!bad.empty()) {
      return absl::InternalError(
          absl::StrCat("PNG encoding failed at the following flattened batch indices: ",
                       absl::StrJoin(bad, ", ")));
    }
    return absl::OkStatus();
  }

 private:
  int compression_ = -1;
};

REGISTER_KERNEL(KernelDefBuilder("EncodePng")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", std::vector<DataType>{DT_UINT8, DT_UINT16}),
                EncodePngOp);

class EncodeJpegOp final : public OpKernel {
 public:
  explicit EncodeJpegOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string unit;
    int64_t quality = 95, x_density = 300, y_density = 300;
    ctx.SetStatus(ctx.GetAttr("format", &format_));
    ctx.SetStatus(ctx.GetAttr("quality", &quality));
    ctx.SetStatus(ctx.GetAttr("progressive", &options_.progressive));
    ctx.SetStatus(ctx.GetAttr("optimize_size", &options_.optimize_size));
    ctx.SetStatus(ctx.GetAttr("chroma_downsampling", &options_.chroma_downsampling));
    ctx.SetStatus(ctx.GetAttr("density_unit", &unit));
    ctx.SetStatus(ctx.GetAttr("x_density", &x_density));
    ctx.SetStatus(ctx.GetAttr("y_density", &y_density));
    ctx.SetStatus(ctx.GetAttr("xmp_metadata", &options_.xmp_metadata));
    if (!format_.empty() && format_ != "grayscale" && format_ != "rgb") {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("format must be '', grayscale or rgb, got ", format_)));
    }
    if (quality < 0 || quality > 100) {
      ctx.SetStatus(
          absl::InvalidArgumentError(absl::StrCat("quality must be in [0,100], got ", quality)));
    }
    if (unit != "in" && unit != "cm") {
      ctx.SetStatus(
          absl::InvalidArgumentError(absl::StrCat("density_unit must be 'in' or 'cm'", unit)));
    }
    options_.quality = static_cast<int>(quality);
    options_.density_unit = unit == "cm" ? 2 : 1;
    // JFIF stores densities in 16 bits; TensorFlow passes the int attr through libjpeg's UINT16.
    options_.x_density = static_cast<int>(static_cast<uint16_t>(x_density));
    options_.y_density = static_cast<int>(static_cast<uint16_t>(y_density));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& image = ctx.input(0);
    const TensorShape& shape = image.shape();
    if (shape.rank() != 3) {
      return absl::InvalidArgumentError(
          absl::StrCat("image must be 3-dimensional", shape.DebugString()));
    }
    if (image.NumElements() >= std::numeric_limits<int32_t>::max()) {
      return absl::InvalidArgumentError("Cannot encode images with >= max int32 elements");
    }
    const int64_t channels = shape.dim(2);
    jpeg_codec::EncodeOptions options = options_;
    if (format_.empty()) {
      if (channels != 1 && channels != 3) {
        return absl::InvalidArgumentError(
            absl::StrCat("image must have 1 or 3 channels, got ", shape.DebugString()));
      }
      options.components = static_cast<int>(channels);
    } else {
      options.components = format_ == "grayscale" ? 1 : 3;
      if (channels != options.components) {
        return absl::InvalidArgumentError(absl::StrCat("format ", format_, " expects ",
                                                       options.components, " channels, got ",
                                                       shape.DebugString()));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape()));
    absl::Status s =
        jpeg_codec::Encode(image.flat<uint8_t>().data(), static_cast<int>(shape.dim(0)),
                           static_cast<int>(shape.dim(1)), options, &out->flat<std::string>()[0]);
    if (!s.ok()) {
      return absl::InternalError(absl::StrCat("JPEG encoding failed (", s.message(), ")"));
    }
    return absl::OkStatus();
  }

 private:
  std::string format_;
  jpeg_codec::EncodeOptions options_;
};

REGISTER_KERNEL(KernelDefBuilder("EncodeJpeg").Device(kDeviceCpu), EncodeJpegOp);

class ExtractJpegShapeOp final : public OpKernel {
 public:
  explicit ExtractJpegShapeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("output_type", &output_type_));
  }

  bool IsExpensive() const override { return false; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& contents = ctx.input(0);
    if (contents.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("contents must be scalar, got shape ", contents.shape().DebugString()));
    }
    const std::string& input = contents.flat<std::string>()[0];
    if (input.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
      return absl::InvalidArgumentError(
          absl::StrCat("JPEG contents are too large for int: ", input.size()));
    }
    absl::StatusOr<jpeg_codec::ImageShape> shape = jpeg_codec::ReadShape(input);
    if (!shape.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("Invalid JPEG data, size ", input.size(), " (",
                                                     shape.status().message(), ")"));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({3})));
    const int64_t values[3] = {shape->height, shape->width, shape->components};
    for (int i = 0; i < 3; ++i) {
      if (output_type_ == DT_INT64) {
        out->flat<int64_t>()[i] = values[i];
      } else {
        out->flat<int32_t>()[i] = static_cast<int32_t>(values[i]);
      }
    }
    return absl::OkStatus();
  }

 private:
  DataType output_type_ = DT_INT32;
};

REGISTER_KERNEL(KernelDefBuilder("ExtractJpegShape")
                    .Device(kDeviceCpu)
                    .TypeConstraint("output_type", std::vector<DataType>{DT_INT32, DT_INT64}),
                ExtractJpegShapeOp);

}  // namespace
}  // namespace rill
