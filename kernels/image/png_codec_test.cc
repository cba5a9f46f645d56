#include "kernels/image/png_codec.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace png_codec {
namespace {

std::string Encode8(const std::vector<uint8_t>& pixels, int height, int width, int channels) {
  std::string out;
  EXPECT_TRUE(EncodePng(pixels.data(), width, height, width * channels, channels, 8, -1, &out));
  return out;
}

// Decodes to `channels` of `bits`, returning the samples widened to uint16.
std::vector<uint16_t> Decode(const std::string& png, int channels, int bits, int* got_channels) {
  PngDecoder d;
  EXPECT_TRUE(d.Init(png, channels, bits)) << d.error();
  *got_channels = d.channels();
  const int64_t row_bytes = static_cast<int64_t>(d.width()) * d.channels() * bits / 8;
  std::vector<uint8_t> buffer(row_bytes * d.height());
  EXPECT_TRUE(d.Finish(buffer.data(), row_bytes)) << d.error();
  std::vector<uint16_t> out;
  if (bits == 8) {
    out.assign(buffer.begin(), buffer.end());
  } else {
    out.resize(buffer.size() / 2);
    std::memcpy(out.data(), buffer.data(), buffer.size());
  }
  return out;
}

TEST(PngCodecTest, ChannelConversionsAreTensorFlows) {
  // 1 x 2 RGBA pixels.
  const std::vector<uint8_t> rgba = {10, 20, 30, 40, 250, 128, 0, 255};
  const std::string png = Encode8(rgba, 1, 2, 4);
  int c = 0;
  EXPECT_EQ(Decode(png, 0, 8, &c), std::vector<uint16_t>(rgba.begin(), rgba.end()));
  EXPECT_EQ(c, 4);
  EXPECT_EQ(Decode(png, 3, 8, &c), (std::vector<uint16_t>{10, 20, 30, 250, 128, 0}));
  // 8 bits asked for as 16: v * 257.
  EXPECT_EQ(Decode(png, 3, 16, &c), (std::vector<uint16_t>{2570, 5140, 7710, 64250, 32896, 0}));
  // Gray replicates into RGB and gains an opaque alpha.
  const std::string gray = Encode8({7, 200}, 1, 2, 1);
  EXPECT_EQ(Decode(gray, 4, 8, &c), (std::vector<uint16_t>{7, 7, 7, 255, 200, 200, 200, 255}));
  EXPECT_EQ(Decode(gray, 2, 8, &c), (std::vector<uint16_t>{7, 255, 200, 255}));
}

TEST(PngCodecTest, SixteenBitSamplesRoundTripAndNarrowToTheHighByte) {
  const std::vector<uint16_t> samples = {0, 1, 256, 65535, 4660, 43981};
  std::string png;
  ASSERT_TRUE(EncodePng(samples.data(), 2, 1, 2 * 3 * 2, 3, 16, 9, &png));
  int c = 0;
  EXPECT_EQ(Decode(png, 0, 16, &c), samples);
  EXPECT_EQ(Decode(png, 0, 8, &c), (std::vector<uint16_t>{0, 0, 1, 255, 18, 171}));
}

TEST(PngCodecTest, BadDataFailsWithLibpngsReason) {
  const std::string png = Encode8(std::vector<uint8_t>(64 * 3, 9), 8, 8, 3);
  PngDecoder garbage;
  EXPECT_FALSE(garbage.Init("\x89PNG\r\n\x1a\nxxxxxxxxxxxx", 0, 8));
  EXPECT_FALSE(garbage.error().empty());
  PngDecoder header_only;
  EXPECT_FALSE(header_only.Init(png.substr(0, 20), 0, 8));
  EXPECT_EQ(header_only.error(), "More bytes requested to read than available");
  PngDecoder truncated;
  ASSERT_TRUE(truncated.Init(png.substr(0, png.size() - 20), 0, 8));
  std::vector<uint8_t> out(64 * 3);
  EXPECT_FALSE(truncated.Finish(out.data(), 8 * 3));
  EXPECT_FALSE(truncated.error().empty());
}

TEST(PngCodecTest, EncodeRefusesEmptyImagesAndBadChannels) {
  std::string out = "x";
  const uint8_t pixel[8] = {0};
  EXPECT_FALSE(EncodePng(pixel, 0, 1, 0, 3, 8, -1, &out));
  EXPECT_EQ(out, "");
  EXPECT_FALSE(EncodePng(pixel, 1, 1, 5, 5, 8, -1, &out));
}

}  // namespace
}  // namespace png_codec
}  // namespace rill
