// Paths the TensorFlow-recorded conformance cases (tests/conformance/data/Decode*.pbtxt.gz) do
// not reach: hand-built BMPs of every layout, headers with huge dimensions, formats Rill does not
// decode, and each op's attr checks.
#include <cstdint>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/image/jpeg_codec.h"
#include "kernels/image/png_codec.h"

namespace rill {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

Tensor Scalar(const std::string& s) { return Tensor::FromVector<std::string>({s}, TensorShape()); }

void PutLe(std::string* s, size_t at, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) (*s)[at + i] = static_cast<char>((v >> (8 * i)) & 255);
}

// A BMP with a 54-byte header and `pixels` rows as stored (already padded to 4 bytes).
std::string Bmp(int32_t width, int32_t height, int bpp, const std::string& rows) {
  std::string s(54, '\0');
  s[0] = 'B';
  s[1] = 'M';
  PutLe(&s, 2, static_cast<uint32_t>(54 + rows.size()), 4);
  PutLe(&s, 10, 54, 4);
  PutLe(&s, 14, 40, 4);
  PutLe(&s, 18, static_cast<uint32_t>(width), 4);
  PutLe(&s, 22, static_cast<uint32_t>(height), 4);
  PutLe(&s, 26, 1, 2);
  PutLe(&s, 28, bpp, 2);
  return s + rows;
}

absl::StatusOr<std::vector<Tensor>> RunDecode(const std::string& op, const std::string& data,
                                              int channels = 0, DataType dtype = DT_UINT8) {
  OpTester t(op, "decode");
  if (op != "DecodeGif") t.Attr("channels", int64_t{channels});
  if (op == "DecodePng" || op == "DecodeImage") t.Attr("dtype", dtype);
  if (op == "DecodeImage") t.Attr("expand_animations", false);
  t.Input(Scalar(data));
  if (op == "DecodeAndCropJpeg") t.Input(Tensor::FromVector<int32_t>({0, 0, 1, 1}, {4}));
  return t.Run();
}

// 2 x 3 pixels, 24 bits, bottom-up: the first stored row is the image's last.
const std::string kBgrRows = std::string("\x01\x02\x03\x04\x05\x06\x07\x08\x09\0\0\0", 12) +
                             std::string("\x11\x12\x13\x14\x15\x16\x17\x18\x19\0\0\0", 12);

TEST(DecodeImageOpsTest, BmpRowsAreFlippedAndBgrBecomesRgb) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, RunDecode("DecodeBmp", Bmp(3, 2, 24, kBgrRows)));
  ExpectTensorEqual(out[0], Tensor::FromVector<uint8_t>({0x13, 0x12, 0x11, 0x16, 0x15, 0x14, 0x19,
                                                         0x18, 0x17, 3, 2, 1, 6, 5, 4, 9, 8, 7},
                                                        TensorShape({2, 3, 3})));
  // A negative height stores rows top-down.
  RILL_ASSERT_OK_AND_ASSIGN(auto down, RunDecode("DecodeBmp", Bmp(3, -2, 24, kBgrRows), 4));
  ExpectTensorEqual(down[0],
                    Tensor::FromVector<uint8_t>(
                        {3,    2,    1,    255, 6,    5,    4,    255, 9,    8,    7,    255,
                         0x13, 0x12, 0x11, 255, 0x16, 0x15, 0x14, 255, 0x19, 0x18, 0x17, 255},
                        TensorShape({2, 3, 4})));
}

TEST(DecodeImageOpsTest, BmpOtherDepthsAndDtypes) {
  // 32 bits: BGRA, alpha kept with 4 channels and dropped with 3.
  const std::string bgra("\x01\x02\x03\x04\x05\x06\x07\x08", 8);
  RILL_ASSERT_OK_AND_ASSIGN(auto four, RunDecode("DecodeBmp", Bmp(2, 1, 32, bgra)));
  ExpectTensorEqual(four[0],
                    Tensor::FromVector<uint8_t>({3, 2, 1, 4, 7, 6, 5, 8}, TensorShape({1, 2, 4})));
  RILL_ASSERT_OK_AND_ASSIGN(auto three, RunDecode("DecodeBmp", Bmp(2, 1, 32, bgra), 3));
  ExpectTensorEqual(three[0],
                    Tensor::FromVector<uint8_t>({3, 2, 1, 7, 6, 5}, TensorShape({1, 2, 3})));
  // 8 bits: one gray channel, replicated for 3.
  const std::string gray("\x05\xfa\0\0", 4);
  RILL_ASSERT_OK_AND_ASSIGN(auto g, RunDecode("DecodeBmp", Bmp(2, 1, 8, gray), 3));
  ExpectTensorEqual(g[0],
                    Tensor::FromVector<uint8_t>({5, 5, 5, 250, 250, 250}, TensorShape({1, 2, 3})));
  // DecodeImage converts: uint16 as v * 256, float as v / 255.
  RILL_ASSERT_OK_AND_ASSIGN(auto wide, RunDecode("DecodeImage", Bmp(2, 1, 8, gray), 0, DT_UINT16));
  ExpectTensorEqual(wide[0], Tensor::FromVector<uint16_t>({1280, 64000}, TensorShape({1, 2, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto f, RunDecode("DecodeImage", Bmp(2, -1, 8, gray), 0, DT_FLOAT));
  ExpectTensorEqual(f[0], Tensor::FromVector<float>({5 * static_cast<float>(1.0 / 255),
                                                     250 * static_cast<float>(1.0 / 255)},
                                                    TensorShape({1, 2, 1})));
}

TEST(DecodeImageOpsTest, BadBmpHeadersAreRefusedBeforeAllocating) {
  const auto invalid = [](const std::string& bmp, const char* phrase) {
    EXPECT_THAT(RunDecode("DecodeBmp", bmp).status(),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(phrase)))
        << phrase;
  };
  invalid(std::string("BM", 2) + std::string(20, '\0'),
          "Incomplete bmp content, requires at least 32 bytes to find the header size, width, "
          "height, and bpp, got 22 bytes");
  invalid(Bmp(3, 2, 16, kBgrRows),
          "Number of channels inherent in the image must be 1, 3 or 4, was 2");
  invalid(Bmp(-3, 2, 24, kBgrRows), "Width must be positive");
  invalid(Bmp(3, 0, 24, kBgrRows), "Height must be nonzero");
  invalid(Bmp(100000, 100000, 24, kBgrRows), "Total possible pixel bytes must be less than 2^30");
  invalid(Bmp(3, INT32_MIN, 24, kBgrRows), "Total possible pixel bytes must be less than 2^30");
  invalid(Bmp(3, 3, 24, kBgrRows),
          "Input size should match (header_size + row_size * abs_height) but they differ by -12");
  std::string negative_header = Bmp(3, 2, 24, kBgrRows);
  PutLe(&negative_header, 10, static_cast<uint32_t>(-5), 4);
  invalid(negative_header, "header size must be nonnegative");
  EXPECT_THAT(RunDecode("DecodeBmp", Bmp(3, 2, 24, kBgrRows), 1).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("`channels` must be 0, 3 or 4 for BMP, but got 1")));
  EXPECT_THAT(RunDecode("DecodeJpeg", Bmp(3, 2, 24, kBgrRows)).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Trying to decode BMP format using a wrong op. Use `decode_bmp` "
                                 "or `decode_image` instead. Op used: DecodeJpeg")));
}

std::string Jpeg(int height, int width) {
  std::vector<uint8_t> pixels(static_cast<size_t>(height) * width * 3, 90);
  std::string out;
  EXPECT_TRUE(
      jpeg_codec::Encode(pixels.data(), height, width, jpeg_codec::EncodeOptions(), &out).ok());
  return out;
}

TEST(DecodeImageOpsTest, HugeJpegHeaderIsRefused) {
  std::string jpeg = Jpeg(8, 8);
  const size_t sof = jpeg.find("\xff\xc0");
  ASSERT_NE(sof, std::string::npos);
  jpeg.replace(sof + 5, 4, "\xfd\xe8\xfd\xe8");  // 65000 x 65000
  EXPECT_THAT(RunDecode("DecodeJpeg", jpeg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("jpeg::Uncompress failed. Invalid JPEG data or crop "
                                       "window."),
                             HasSubstr("Image too large: 65000 x 65000 x 3"))));
}

// A PNG whose IHDR (with a correct CRC) claims width x height; no image data follows.
std::string PngHeader(uint32_t width, uint32_t height) {
  std::string png;
  std::vector<uint8_t> pixels(3, 0);
  EXPECT_TRUE(png_codec::EncodePng(pixels.data(), 1, 1, 3, 3, 8, -1, &png));
  // Patch IHDR's width and height and recompute the chunk's CRC-32 (over type and data).
  std::string ihdr = png.substr(12, 17);  // "IHDR" + 13 bytes
  for (int i = 0; i < 4; ++i) {
    ihdr[4 + i] = static_cast<char>(width >> (24 - 8 * i));
    ihdr[8 + i] = static_cast<char>(height >> (24 - 8 * i));
  }
  uint32_t crc = 0xffffffffu;
  for (unsigned char c : ihdr) {
    crc ^= c;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
  }
  crc ^= 0xffffffffu;
  std::string out = png.substr(0, 12) + ihdr;
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(crc >> (24 - 8 * i)));
  return out + png.substr(33);
}

TEST(DecodeImageOpsTest, HugePngHeaderIsRefused) {
  EXPECT_THAT(RunDecode("DecodePng", PngHeader(100000, 100000)).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("PNG size too large for int: 100000 by 100000")));
  // Past libpng's own limit (1000000): the header is refused.
  EXPECT_THAT(RunDecode("DecodePng", PngHeader(2000000, 1)).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Invalid PNG. Failed to initialize decoder.")));
}

// Two 4x3 frames (gif_codec_test.cc's kAnimation).
const std::string kGifAnimation(
    "\x47\x49\x46\x38\x39\x61\x04\x00\x03\x00\xf1\x00\x00\x00\x00\x00\x0a\x14\x1e\x14\x28\x3c\x1e"
    "\x3c\x5a\x2c\x00\x00\x00\x00\x04\x00\x03\x00\x00\x02\x05\x44\x34\x86\x3a\x05\x00\x21\xf9\x04"
    "\x01\x00\x00\x01\x00\x2c\x01\x00\x01\x00\x02\x00\x02\x00\x00\x02\x03\x8c\x16\x05\x00\x3b",
    68);

// TensorFlow 2.21: DecodeGif gives every frame, DecodeImage (here without expand_animations)
// the first, as float v / 255; DecodePng refuses an animation.
TEST(DecodeImageOpsTest, GifFramesByOp) {
  RILL_ASSERT_OK_AND_ASSIGN(auto all, RunDecode("DecodeGif", kGifAnimation));
  EXPECT_EQ(all[0].shape(), TensorShape({2, 3, 4, 3}));
  EXPECT_EQ(all[0].flat<uint8_t>()[3 * 4 * 3 + 9 * 3 + 2], 90);  // frame 2, row 2, column 1
  RILL_ASSERT_OK_AND_ASSIGN(auto first, RunDecode("DecodeImage", kGifAnimation, 0, DT_FLOAT));
  EXPECT_EQ(first[0].shape(), TensorShape({3, 4, 3}));
  EXPECT_EQ(first[0].flat<float>()[3], 10.0f * static_cast<float>(1.0 / 255));
  EXPECT_THAT(RunDecode("DecodePng", kGifAnimation).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Got 2 frames, but animated gifs can only be decoded by tf.io.decode_gif "
                       "or tf.io.decode_image"));
  EXPECT_THAT(
      RunDecode("DecodeImage", kGifAnimation, 1).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, "channels must be 0 or 3 for GIF, got 1"));
}

TEST(DecodeImageOpsTest, FormatsAndOpsTensorFlowRefuses) {
  std::string png;
  std::vector<uint8_t> pixels(3, 0);
  ASSERT_TRUE(png_codec::EncodePng(pixels.data(), 1, 1, 3, 3, 8, -1, &png));
  RILL_ASSERT_OK_AND_ASSIGN(auto jpeg_op_on_png, RunDecode("DecodeJpeg", png));
  EXPECT_EQ(jpeg_op_on_png[0].shape(), TensorShape({1, 1, 3}));
  EXPECT_THAT(RunDecode("DecodeAndCropJpeg", png).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("DecodeAndCropJpeg operation can run on JPEG only, but detected "
                                 "PNG.")));
  EXPECT_THAT(RunDecode("DecodeBmp", Jpeg(8, 8)).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Trying to decode JPEG format using DecodeBmp op.")));
  // TensorFlow 2.21: the screen descriptor is read, then record type 0 is refused.
  EXPECT_THAT(RunDecode("DecodeImage", "GIF89a" + std::string(20, '\0')).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Invalid GIF data (size 26), failed to slurp gif file: Wrong record type "
                       "detected"));
  RILL_ASSERT_OK_AND_ASSIGN(auto gif_op_on_png, RunDecode("DecodeGif", png));
  EXPECT_EQ(gif_op_on_png[0].shape(), TensorShape({1, 1, 1, 3}));
  EXPECT_THAT(RunDecode("DecodeImage", std::string("RIFF\x10\0\0\0WEBPVP8 xxxx", 20)).status(),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("WebP decoding is not implemented in Rill")));
  EXPECT_THAT(RunDecode("DecodeImage", "abcd").status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, "
                                 "WebP required.")));
  EXPECT_THAT(RunDecode("DecodeJpeg", "").status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Input is empty.")));
  EXPECT_THAT(
      RunDecode("DecodeJpeg", Jpeg(8, 8), 4).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("JPEG does not support 4 channels")));
}

TEST(DecodeImageOpsTest, AttrChecksAreTensorFlows) {
  OpTester ratio("DecodeJpeg");
  ratio.Attr("ratio", int64_t{3}).Input(Scalar(Jpeg(8, 8)));
  EXPECT_THAT(ratio.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                             HasSubstr("ratio must be 1, 2, 4, or 8, got 3")));
  OpTester dct("DecodeJpeg");
  dct.Attr("dct_method", std::string("FLOAT")).Input(Scalar(Jpeg(8, 8)));
  EXPECT_THAT(dct.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("dct_method must be one of {'', 'INTEGER_FAST', "
                                 "'INTEGER_ACCURATE'}")));
  EXPECT_THAT(RunDecode("DecodeImage", Jpeg(8, 8), 2).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("`channels` must be 0, 1, 3 or 4 but got 2")));
  OpTester vec("DecodeJpeg");
  vec.Input(Tensor::FromVector<std::string>({"a"}, TensorShape({1})));
  EXPECT_THAT(vec.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("`contents` must be scalar but got shape[1]")));
}

}  // namespace
}  // namespace rill
