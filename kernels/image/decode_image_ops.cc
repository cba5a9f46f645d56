// The image decoders on the CPU, as TensorFlow's (one kernel for every op, as its
// DecodeImageV2Op): DecodeJpeg, DecodeAndCropJpeg, DecodePng, DecodeImage, DecodeBmp and DecodeGif
// read the format from the magic bytes, so DecodeJpeg also decodes a PNG or a one-frame GIF and
// DecodeGif a JPEG or PNG (as one frame of 3 channels), while BMP is only for DecodeBmp and
// DecodeImage. JPEG goes through jpeg_codec.h (libjpeg-turbo), PNG through png_codec.h (libpng),
// GIF through gif_codec.h; BMP (uncompressed 8/24/32 bits, bottom-up or top-down rows) is read
// here. A GIF gives [frames, height, width, 3] to DecodeGif and to DecodeImage with
// expand_animations, else its first frame. WebP is recognised but not decoded (Unimplemented).
// Error texts are TensorFlow's, with the decoder's reason added in parentheses.
//
// Outputs come from the op's allocator, so a large image fails with ResourceExhausted naming the
// node; image sizes are checked against TensorFlow's limits before anything is allocated.
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/image/gif_codec.h"
#include "kernels/image/jpeg_codec.h"
#include "kernels/image/png_codec.h"

namespace rill {
namespace {

enum class Format { kUnknown, kJpeg, kPng, kGif, kBmp, kWebp };

Format Classify(absl::string_view data) {
  if (absl::StartsWith(data, "\xff\xd8\xff")) return Format::kJpeg;
  if (absl::StartsWith(data, "\x89PNG\r\n\x1a\n")) return Format::kPng;
  if (absl::StartsWith(data, "GIF8")) return Format::kGif;
  if (absl::StartsWith(data, "BM")) return Format::kBmp;
  if (absl::StartsWith(data, "RIFF") && data.size() > 12 && data.substr(8, 4) == "WEBP") {
    return Format::kWebp;
  }
  return Format::kUnknown;
}

// " (reason)" when there is one.
std::string Reason(absl::string_view reason) {
  return reason.empty() ? "" : absl::StrCat(" (", reason, ")");
}

// Writes `n` uint8 samples to `out` as its dtype: uint16 as v * 256 and float as v / 255, as
// TensorFlow converts decoded 8-bit images.
void FromU8(const uint8_t* src, int64_t n, Tensor* out) {
  if (out->dtype() == DT_UINT16) {
    uint16_t* dst = out->flat<uint16_t>().data();
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<uint16_t>(src[i] * 256);
  } else {
    float* dst = out->flat<float>().data();
    const float scale = static_cast<float>(1.0 / 255);
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]) * scale;
  }
}

class DecodeImageOp final : public OpKernel {
 public:
  explicit DecodeImageOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    op_ = ctx.def().op();
    jpeg_.accurate_dct = false;
    if (op_ == "DecodeJpeg" || op_ == "DecodeAndCropJpeg") {
      int64_t ratio = 1;
      std::string dct;
      ctx.SetStatus(ctx.GetAttr("ratio", &ratio));
      ctx.SetStatus(ctx.GetAttr("fancy_upscaling", &jpeg_.fancy_upscaling));
      ctx.SetStatus(ctx.GetAttr("try_recover_truncated", &jpeg_.try_recover_truncated));
      ctx.SetStatus(ctx.GetAttr("acceptable_fraction", &jpeg_.min_acceptable_fraction));
      ctx.SetStatus(ctx.GetAttr("dct_method", &dct));
      if (ratio != 1 && ratio != 2 && ratio != 4 && ratio != 8) {
        ctx.SetStatus(
            absl::InvalidArgumentError(absl::StrCat("ratio must be 1, 2, 4, or 8, got ", ratio)));
        return;
      }
      jpeg_.ratio = static_cast<int>(ratio);
      if (!dct.empty() && dct != "INTEGER_FAST" && dct != "INTEGER_ACCURATE") {
        ctx.SetStatus(absl::InvalidArgumentError(
            "dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}"));
        return;
      }
      // TensorFlow's default ("") is the fast integer IDCT.
      jpeg_.accurate_dct = dct == "INTEGER_ACCURATE";
    }
    if (op_ == "DecodePng" || op_ == "DecodeImage") {
      ctx.SetStatus(ctx.GetAttr("dtype", &dtype_));
      if (op_ == "DecodeImage")
        ctx.SetStatus(ctx.GetAttr("expand_animations", &expand_animations_));
    }
    if (op_ == "DecodeGif") {  // no attrs: 3 channels of uint8
      channels_ = 3;
      return;
    }
    int64_t channels = 0;
    ctx.SetStatus(ctx.GetAttr("channels", &channels));
    if (channels != 0 && channels != 1 && channels != 3 && channels != 4) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("`channels` must be 0, 1, 3 or 4 but got ", channels)));
      return;
    }
    channels_ = static_cast<int>(channels);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& contents = ctx.input(0);
    if (contents.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("`contents` must be scalar but got shape", contents.shape().DebugString()));
    }
    const std::string& input = contents.flat<std::string>()[0];
    if (input.empty()) return absl::InvalidArgumentError("Input is empty.");
    if (input.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input contents are too large for int: ", input.size()));
    }
    switch (Classify(input)) {
      case Format::kJpeg:
        return DecodeJpeg(ctx, input);
      case Format::kPng:
        return DecodePng(ctx, input);
      case Format::kGif:
        return DecodeGif(ctx, input);
      case Format::kBmp:
        return DecodeBmp(ctx, input);
      case Format::kWebp:
        return absl::UnimplementedError(
            "WebP decoding is not implemented in Rill; convert the image to PNG or JPEG");
      case Format::kUnknown:
        break;
    }
    return absl::InvalidArgumentError(
        "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required.");
  }

 private:
  // The output for a [height, width, channels] image: the uint8 output itself, or a uint8
  // temporary converted into the output by Finish.
  absl::StatusOr<uint8_t*> AllocateU8(OpKernelContext& ctx, int height, int width, int channels,
                                      Tensor** out, Tensor* temp) const {
    const TensorShape shape = ImageShape(height, width, channels);
    RILL_ASSIGN_OR_RETURN(*out, ctx.allocate_output(0, shape));
    if (dtype_ == DT_UINT8) return (*out)->flat<uint8_t>().data();
    RILL_ASSIGN_OR_RETURN(*temp, ctx.allocate_temp(DT_UINT8, shape));
    return temp->flat<uint8_t>().data();
  }

  // [height, width, channels], or one frame of it for DecodeGif.
  TensorShape ImageShape(int64_t height, int64_t width, int64_t channels) const {
    if (op_ == "DecodeGif") return TensorShape({1, height, width, channels});
    return TensorShape({height, width, channels});
  }

  void FinishU8(Tensor* out, const Tensor& temp) const {
    if (dtype_ != DT_UINT8) FromU8(temp.flat<uint8_t>().data(), temp.NumElements(), out);
  }

  absl::Status DecodeJpeg(OpKernelContext& ctx, const std::string& input) const {
    if (channels_ == 4) return absl::InvalidArgumentError("JPEG does not support 4 channels");
    jpeg_codec::DecodeOptions options = jpeg_;
    options.components = channels_;
    if (op_ == "DecodeAndCropJpeg") {
      const Tensor& window = ctx.input(1);
      if (window.shape().rank() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("crop_window must be 1-D, got shape ", window.shape().DebugString()));
      }
      if (window.shape().dim(0) != 4) {
        return absl::InvalidArgumentError(
            absl::StrCat("crop_size must have four elements ", window.shape().DebugString()));
      }
      const int32_t* w = window.flat<int32_t>().data();
      options.crop = true;
      options.crop_y = w[0];
      options.crop_x = w[1];
      options.crop_height = w[2];
      options.crop_width = w[3];
    } else if (op_ == "DecodeBmp") {
      return absl::InvalidArgumentError(
          "Trying to decode JPEG format using DecodeBmp op. Use `decode_jpeg` or `decode_image` "
          "instead.");
    }
    Tensor* out = nullptr;
    Tensor temp;
    absl::Status s = jpeg_codec::Decode(
        input, options, [&](int h, int w, int c) { return AllocateU8(ctx, h, w, c, &out, &temp); });
    if (absl::IsDataLoss(s)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "jpeg::Uncompress failed. Invalid JPEG data or crop window.", Reason(s.message())));
    }
    RILL_RETURN_IF_ERROR(s);
    FinishU8(out, temp);
    return absl::OkStatus();
  }

  absl::Status DecodePng(OpKernelContext& ctx, const std::string& input) const {
    png_codec::PngDecoder decoder;
    if (!decoder.Init(input, channels_, dtype_ == DT_UINT8 ? 8 : 16)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Invalid PNG. Failed to initialize decoder.", Reason(decoder.error())));
    }
    const int64_t width = decoder.width();
    const int64_t height = decoder.height();
    if (width >= (int64_t{1} << 27) || height >= (int64_t{1} << 27) ||
        width * height >= (int64_t{1} << 29)) {
      return absl::InvalidArgumentError(
          absl::StrCat("PNG size too large for int: ", width, " by ", height));
    }
    const int channels = decoder.channels();
    RILL_ASSIGN_OR_RETURN(Tensor * out,
                          ctx.allocate_output(0, ImageShape(height, width, channels)));
    if (op_ == "DecodeBmp") {
      return absl::InvalidArgumentError(
          "Trying to decode PNG format using DecodeBmp op. Use `decode_png` or `decode_image` "
          "instead.");
    }
    if (op_ == "DecodeAndCropJpeg") {
      return absl::InvalidArgumentError(
          "DecodeAndCropJpeg operation can run on JPEG only, but detected PNG.");
    }
    const std::string invalid = absl::StrCat("Invalid PNG data, size ", input.size());
    if (dtype_ == DT_UINT8) {
      if (!decoder.Finish(out->flat<uint8_t>().data(), width * channels)) {
        return absl::InvalidArgumentError(absl::StrCat(invalid, Reason(decoder.error())));
      }
      return absl::OkStatus();
    }
    if (dtype_ == DT_UINT16) {
      if (!decoder.Finish(reinterpret_cast<uint8_t*>(out->flat<uint16_t>().data()),
                          width * channels * 2)) {
        return absl::InvalidArgumentError(absl::StrCat(invalid, Reason(decoder.error())));
      }
      return absl::OkStatus();
    }
    // float: decoded as 16 bits (lossless), then v / 65535.
    RILL_ASSIGN_OR_RETURN(Tensor wide, ctx.allocate_temp(DT_UINT16, out->shape()));
    uint16_t* w = wide.flat<uint16_t>().data();
    if (!decoder.Finish(reinterpret_cast<uint8_t*>(w), width * channels * 2)) {
      return absl::InvalidArgumentError(absl::StrCat(invalid, Reason(decoder.error())));
    }
    float* dst = out->flat<float>().data();
    const float scale = static_cast<float>(1.0 / 65535);
    for (int64_t i = 0; i < out->NumElements(); ++i) dst[i] = static_cast<float>(w[i]) * scale;
    return absl::OkStatus();
  }

  absl::Status DecodeGif(OpKernelContext& ctx, const std::string& input) const {
    if (channels_ != 0 && channels_ != 3) {
      return absl::InvalidArgumentError(
          absl::StrCat("channels must be 0 or 3 for GIF, got ", channels_));
    }
    if (op_ == "DecodeBmp") {
      return absl::InvalidArgumentError(
          "Trying to decode GIF format using DecodeBmp op. Use `decode_gif` or `decode_image` "
          "instead.");
    }
    if (op_ == "DecodeAndCropJpeg") {
      return absl::InvalidArgumentError(
          "DecodeAndCropJpeg operation can run on JPEG only, but detected GIF.");
    }
    Tensor* out = nullptr;
    Tensor temp;
    absl::Status allocated;  // the allocator's own error, returned as it is
    auto allocate = [&](int frames, int height, int width) -> absl::StatusOr<uint8_t*> {
      // DecodePng and DecodeJpeg take a GIF of one frame, as an image of rank 3.
      const bool frames_dim = op_ == "DecodeGif" || (op_ == "DecodeImage" && expand_animations_);
      if (op_ != "DecodeGif" && op_ != "DecodeImage" && frames != 1) {
        allocated = absl::InvalidArgumentError(
            absl::StrCat("Got ", frames, " frames, but animated gifs can only be decoded by ",
                         "tf.io.decode_gif or tf.io.decode_image"));
        return allocated;
      }
      const TensorShape shape =
          frames_dim ? TensorShape({frames, height, width, 3}) : TensorShape({height, width, 3});
      absl::StatusOr<Tensor*> output = ctx.allocate_output(0, shape);
      if (!output.ok()) return allocated = output.status();
      out = *output;
      if (dtype_ == DT_UINT8) return out->flat<uint8_t>().data();
      absl::StatusOr<Tensor> t = ctx.allocate_temp(DT_UINT8, shape);
      if (!t.ok()) return allocated = t.status();
      temp = *std::move(t);
      return temp.flat<uint8_t>().data();
    };
    const absl::Status s =
        gif_codec::Decode(input, op_ != "DecodeImage" || expand_animations_, allocate);
    RILL_RETURN_IF_ERROR(allocated);
    if (!s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Invalid GIF data (size ", input.size(), "), ", s.message()));
    }
    FinishU8(out, temp);
    return absl::OkStatus();
  }

  absl::Status DecodeBmp(OpKernelContext& ctx, const std::string& input) const {
    if (channels_ == 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("`channels` must be 0, 3 or 4 for BMP, but got ", channels_));
    }
    if (op_ != "DecodeBmp" && op_ != "DecodeImage") {
      if (op_ == "DecodeAndCropJpeg") {
        return absl::InvalidArgumentError(
            "DecodeAndCropJpeg operation can run on JPEG only, but detected BMP.");
      }
      return absl::InvalidArgumentError(absl::StrCat(
          "Trying to decode BMP format using a wrong op. Use `decode_bmp` or `decode_image` "
          "instead. Op used: ",
          op_));
    }
    if (input.size() < 32) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Incomplete bmp content, requires at least 32 bytes to find the header size, width, "
          "height, and bpp, got ",
          input.size(), " bytes"));
    }
    // Little-endian header fields.
    auto le32 = [&](int at) {
      uint32_t v = 0;
      for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(input[at + i]);
      return static_cast<int32_t>(v);
    };
    const int32_t header_size = le32(10);
    const int32_t width = le32(18);
    const int32_t height = le32(22);
    const int16_t bpp = static_cast<int16_t>(static_cast<uint8_t>(input[28]) |
                                             (static_cast<uint8_t>(input[29]) << 8));
    const int img_channels = bpp / 8;
    if (img_channels != 1 && img_channels != 3 && img_channels != 4) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Number of channels inherent in the image must be 1, 3 or 4, was ", img_channels));
    }
    const int channels = channels_ != 0 ? channels_ : img_channels;
    if (width <= 0) return absl::InvalidArgumentError("Width must be positive");
    if (height == 0) return absl::InvalidArgumentError("Height must be nonzero");
    if (header_size < 0) return absl::InvalidArgumentError("header size must be nonnegative");
    const int64_t abs_height = std::llabs(static_cast<int64_t>(height));
    if (static_cast<int64_t>(width) * abs_height >= std::numeric_limits<int32_t>::max() / 8) {
      return absl::InvalidArgumentError("Total possible pixel bytes must be less than 2^30");
    }
    // Rows are padded to a multiple of 4 bytes.
    const int64_t row_size = (static_cast<int64_t>(img_channels) * width + 3) / 4 * 4;
    const int64_t size_diff =
        static_cast<int64_t>(input.size()) - header_size - row_size * abs_height;
    if (size_diff != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Input size should match (header_size + row_size * abs_height) but they differ by ",
          size_diff));
    }
    const bool top_down = height < 0;
    Tensor* out = nullptr;
    Tensor temp;
    RILL_ASSIGN_OR_RETURN(
        uint8_t * dst, AllocateU8(ctx, static_cast<int>(abs_height), width, channels, &out, &temp));
    const uint8_t* src = reinterpret_cast<const uint8_t*>(input.data()) + header_size;
    for (int64_t y = 0; y < abs_height; ++y) {
      const uint8_t* row = src + (top_down ? y : abs_height - 1 - y) * row_size;
      uint8_t* o = dst + y * width * channels;
      for (int32_t x = 0; x < width; ++x, o += channels) {
        const uint8_t* p = row + static_cast<int64_t>(x) * img_channels;
        if (img_channels == 1) {
          o[0] = p[0];
          if (channels >= 3) o[1] = o[2] = p[0];
          if (channels == 4) o[3] = 255;
        } else {  // BGR(A) -> RGB(A)
          o[0] = p[2];
          o[1] = p[1];
          o[2] = p[0];
          if (channels == 4) o[3] = img_channels == 4 ? p[3] : 255;
        }
      }
    }
    FinishU8(out, temp);
    return absl::OkStatus();
  }

  std::string op_;
  int channels_ = 0;
  DataType dtype_ = DT_UINT8;
  bool expand_animations_ = true;
  jpeg_codec::DecodeOptions jpeg_;
};

REGISTER_KERNEL(KernelDefBuilder("DecodeJpeg").Device(kDeviceCpu), DecodeImageOp);
REGISTER_KERNEL(KernelDefBuilder("DecodeAndCropJpeg").Device(kDeviceCpu), DecodeImageOp);
REGISTER_KERNEL(KernelDefBuilder("DecodeBmp").Device(kDeviceCpu), DecodeImageOp);
REGISTER_KERNEL(KernelDefBuilder("DecodeGif").Device(kDeviceCpu), DecodeImageOp);
REGISTER_KERNEL(KernelDefBuilder("DecodePng")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", std::vector<DataType>{DT_UINT8, DT_UINT16}),
                DecodeImageOp);
REGISTER_KERNEL(KernelDefBuilder("DecodeImage")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", std::vector<DataType>{DT_UINT8, DT_UINT16, DT_FLOAT}),
                DecodeImageOp);

}  // namespace
}  // namespace rill
