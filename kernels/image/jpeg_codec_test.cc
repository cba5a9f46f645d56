#include "kernels/image/jpeg_codec.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace jpeg_codec {
namespace {

using ::testing::Each;
using ::testing::HasSubstr;

// A [height, width, channels] image whose samples are all `value`.
std::vector<uint8_t> Flat(int height, int width, int channels, uint8_t value) {
  return std::vector<uint8_t>(static_cast<size_t>(height) * width * channels, value);
}

std::string EncodeOrDie(const std::vector<uint8_t>& pixels, int height, int width,
                        EncodeOptions options) {
  std::string out;
  const absl::Status s = Encode(pixels.data(), height, width, options, &out);
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

struct Decoded {
  absl::Status status;
  int height = 0, width = 0, channels = 0;
  std::vector<uint8_t> pixels;
};

Decoded DecodeToVector(const std::string& data, const DecodeOptions& options) {
  Decoded d;
  d.status = Decode(data, options, [&](int h, int w, int c) -> absl::StatusOr<uint8_t*> {
    d.height = h;
    d.width = w;
    d.channels = c;
    d.pixels.assign(static_cast<size_t>(h) * w * c, 7);
    return d.pixels.data();
  });
  return d;
}

EncodeOptions Gray() {
  EncodeOptions o;
  o.components = 1;
  return o;
}

// A flat gray image has only DC coefficients, which the 128 level shift makes exactly 0: every
// IDCT gives back 128 exactly.
TEST(JpegCodecTest, FlatGrayRoundTripsExactly) {
  const std::string jpeg = EncodeOrDie(Flat(17, 23, 1, 128), 17, 23, Gray());
  for (bool accurate : {false, true}) {
    DecodeOptions o;
    o.accurate_dct = accurate;
    Decoded d = DecodeToVector(jpeg, o);
    ASSERT_TRUE(d.status.ok()) << d.status;
    EXPECT_EQ(d.height, 17);
    EXPECT_EQ(d.width, 23);
    EXPECT_EQ(d.channels, 1);
    EXPECT_THAT(d.pixels, Each(128));
  }
  DecodeOptions rgb;
  rgb.components = 3;
  Decoded d = DecodeToVector(jpeg, rgb);
  ASSERT_TRUE(d.status.ok()) << d.status;
  EXPECT_EQ(d.channels, 3);
  EXPECT_THAT(d.pixels, Each(128));
}

TEST(JpegCodecTest, RatioScalesTheOutputRoundingUp) {
  const std::string jpeg = EncodeOrDie(Flat(17, 23, 3, 128), 17, 23, EncodeOptions());
  const int want[][2] = {{17, 23}, {9, 12}, {5, 6}, {3, 3}};
  int i = 0;
  for (int ratio : {1, 2, 4, 8}) {
    DecodeOptions o;
    o.ratio = ratio;
    Decoded d = DecodeToVector(jpeg, o);
    ASSERT_TRUE(d.status.ok()) << d.status;
    EXPECT_EQ(d.height, want[i][0]) << ratio;
    EXPECT_EQ(d.width, want[i][1]) << ratio;
    EXPECT_EQ(d.channels, 3);
    ++i;
  }
}

TEST(JpegCodecTest, CropWindowIsExactAndCheckedAgainstTheImage) {
  // Left half 0, right half 255 (at 8-pixel block boundaries, so the crop shows the edge).
  std::vector<uint8_t> pixels(16 * 32);
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 32; ++x) pixels[y * 32 + x] = x < 16 ? 0 : 255;
  }
  const std::string jpeg = EncodeOrDie(pixels, 16, 32, Gray());
  DecodeOptions o;
  o.crop = true;
  o.crop_y = 3;
  o.crop_x = 13;
  o.crop_height = 5;
  o.crop_width = 7;
  Decoded full = DecodeToVector(jpeg, DecodeOptions());
  Decoded crop = DecodeToVector(jpeg, o);
  ASSERT_TRUE(crop.status.ok()) << crop.status;
  ASSERT_EQ(crop.height, 5);
  ASSERT_EQ(crop.width, 7);
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 7; ++x) {
      EXPECT_EQ(crop.pixels[y * 7 + x], full.pixels[(y + 3) * 32 + x + 13]) << y << "," << x;
    }
  }
  o.crop_x = 30;  // 30 + 7 > 32
  EXPECT_EQ(DecodeToVector(jpeg, o).status,
            absl::DataLossError("Invalid crop window: x=30, y=3, w=7, h=5 for image_width: 32 "
                                "and image_height: 16"));
}

TEST(JpegCodecTest, TruncatedDataFailsUnlessRecovering) {
  std::vector<uint8_t> pixels(32 * 32 * 3);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<uint8_t>(i * 37);
  const std::string jpeg = EncodeOrDie(pixels, 32, 32, EncodeOptions());
  const std::string cut = jpeg.substr(0, jpeg.size() * 3 / 4);
  // The data runs out inside the scan: libjpeg-turbo's Huffman decoder asks for more with its
  // own copy of the buffer state, the source suspends, and the rows read so far are kept when
  // they reach acceptable_fraction (the rest black), as TensorFlow's.
  EXPECT_EQ(DecodeToVector(cut, DecodeOptions()).status,
            absl::DataLossError(
                "Premature end of JPEG data: read 14 of 32 rows, less than acceptable_fraction"));
  DecodeOptions partial;
  partial.min_acceptable_fraction = 0.25f;
  Decoded p = DecodeToVector(cut, partial);
  ASSERT_TRUE(p.status.ok()) << p.status;
  EXPECT_THAT(std::vector<uint8_t>(p.pixels.begin() + 14 * 32 * 3, p.pixels.end()), Each(0));
  DecodeOptions recover;
  recover.try_recover_truncated = true;
  Decoded d = DecodeToVector(cut, recover);
  ASSERT_TRUE(d.status.ok()) << d.status;
  EXPECT_EQ(d.height, 32);
  EXPECT_EQ(d.width, 32);
  // Cut inside the header: nothing to recover.
  EXPECT_EQ(DecodeToVector(jpeg.substr(0, 20), recover).status.code(), absl::StatusCode::kDataLoss);
}

// A stream cut right after SOI and one marker byte: libjpeg's marker reader asks for data in the
// same state again and again (TensorFlow 2.21 never returns); Rill ends it at a fake EOI.
TEST(JpegCodecTest, RecoveringACutMarkerEnds) {
  DecodeOptions recover;
  recover.try_recover_truncated = true;
  EXPECT_EQ(DecodeToVector(std::string("\xff\xd8\xff", 3), recover).status,
            absl::DataLossError("JPEG datastream contains no image"));
}

TEST(JpegCodecTest, GarbageAndEmptyInputsFail) {
  EXPECT_EQ(DecodeToVector("", DecodeOptions()).status, absl::DataLossError("empty input"));
  EXPECT_EQ(DecodeToVector("\xff\xd8\xff\xe0garbage", DecodeOptions()).status.code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(DecodeToVector("not a jpeg", DecodeOptions()).status,
            absl::DataLossError("Not a JPEG file: starts with 0x6e 0x6f"));
  EXPECT_EQ(ReadShape("not a jpeg").status(),
            absl::DataLossError("Not a JPEG file: starts with 0x6e 0x6f"));
}

// Patches the SOF0 marker's height and width.
std::string WithDims(std::string jpeg, int height, int width) {
  const size_t sof = jpeg.find("\xff\xc0");
  EXPECT_NE(sof, std::string::npos);
  jpeg[sof + 5] = static_cast<char>(height >> 8);
  jpeg[sof + 6] = static_cast<char>(height & 255);
  jpeg[sof + 7] = static_cast<char>(width >> 8);
  jpeg[sof + 8] = static_cast<char>(width & 255);
  return jpeg;
}

TEST(JpegCodecTest, HugeHeaderDimensionsFailBeforeAllocating) {
  const std::string jpeg =
      WithDims(EncodeOrDie(Flat(8, 8, 3, 9), 8, 8, EncodeOptions()), 65000, 65000);
  bool allocated = false;
  absl::Status s = Decode(jpeg, DecodeOptions(), [&](int, int, int) -> absl::StatusOr<uint8_t*> {
    allocated = true;
    return nullptr;
  });
  EXPECT_EQ(s,
            absl::DataLossError("Image too large: 65000 x 65000 x 3 samples (the limit is 2^29)"));
  EXPECT_FALSE(allocated);
  absl::StatusOr<ImageShape> shape = ReadShape(jpeg);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->height, 65000);
  EXPECT_EQ(shape->width, 65000);
  EXPECT_EQ(shape->components, 3);
  // A zero height is refused by libjpeg itself.
  EXPECT_EQ(DecodeToVector(WithDims(jpeg, 0, 8), DecodeOptions()).status,
            absl::DataLossError("Empty JPEG image (DNL not supported)"));
}

TEST(JpegCodecTest, AllocatorFailureIsReturned) {
  const std::string jpeg = EncodeOrDie(Flat(8, 8, 1, 9), 8, 8, Gray());
  absl::Status s = Decode(jpeg, DecodeOptions(), [](int, int, int) -> absl::StatusOr<uint8_t*> {
    return absl::ResourceExhaustedError("OOM");
  });
  EXPECT_EQ(s, absl::ResourceExhaustedError("OOM"));
}

TEST(JpegCodecTest, ReadShapeGivesTheDefaultOutputComponents) {
  absl::StatusOr<ImageShape> rgb = ReadShape(EncodeOrDie(Flat(5, 7, 3, 9), 5, 7, EncodeOptions()));
  ASSERT_TRUE(rgb.ok()) << rgb.status();
  EXPECT_EQ(rgb->height, 5);
  EXPECT_EQ(rgb->width, 7);
  EXPECT_EQ(rgb->components, 3);
  absl::StatusOr<ImageShape> gray = ReadShape(EncodeOrDie(Flat(5, 7, 1, 9), 5, 7, Gray()));
  ASSERT_TRUE(gray.ok()) << gray.status();
  EXPECT_EQ(gray->components, 1);
}

TEST(JpegCodecTest, EncodeOptionsReachTheStream) {
  const std::vector<uint8_t> pixels = Flat(9, 9, 3, 200);
  EncodeOptions o;
  o.progressive = true;
  o.xmp_metadata = "<x:xmpmeta/>";
  o.density_unit = 2;
  o.x_density = 72;
  o.y_density = 96;
  const std::string jpeg = EncodeOrDie(pixels, 9, 9, o);
  EXPECT_NE(jpeg.find("\xff\xc2"), std::string::npos);  // SOF2: progressive
  EXPECT_NE(jpeg.find(std::string("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>", 41)),
            std::string::npos);
  // JFIF APP0: "JFIF\0", version (2 bytes), units, Xdensity, Ydensity.
  const size_t jfif = jpeg.find(std::string("JFIF\0", 5));
  ASSERT_NE(jfif, std::string::npos);
  EXPECT_EQ(jpeg.substr(jfif + 7, 5), std::string("\x02\x00\x48\x00\x60", 5));
  std::string out;
  EXPECT_EQ(Encode(pixels.data(), 0, 9, o, &out), absl::DataLossError("Invalid image size: 9 x 0"));
}

}  // namespace
}  // namespace jpeg_codec
}  // namespace rill
