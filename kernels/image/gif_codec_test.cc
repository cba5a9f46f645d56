#include "kernels/image/gif_codec.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace gif_codec {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

// GIFs written by tests/tfgen/kernel_cases/images_gif.py's writer; palette entry i is
// (10 i, 20 i, 30 i). Expected pixels and errors are TensorFlow 2.21's tf.io.decode_gif.
// A 4x3 frame of indices 0 1 2 3 in each row.
const std::string kSingle(
    "\x47\x49\x46\x38\x39\x61\x04\x00\x03\x00\xf1\x00\x00\x00\x00\x00\x0a\x14\x1e\x14\x28\x3c\x1e"
    "\x3c\x5a\x2c\x00\x00\x00\x00\x04\x00\x03\x00\x00\x02\x05\x44\x34\x86\x3a\x05\x00\x3b",
    44);
// kSingle, then a 2x2 frame at (1, 1) with indices 1 2 / 3 1 whose index 1 is transparent.
const std::string kAnimation(
    "\x47\x49\x46\x38\x39\x61\x04\x00\x03\x00\xf1\x00\x00\x00\x00\x00\x0a\x14\x1e\x14\x28\x3c\x1e"
    "\x3c\x5a\x2c\x00\x00\x00\x00\x04\x00\x03\x00\x00\x02\x05\x44\x34\x86\x3a\x05\x00\x21\xf9\x04"
    "\x01\x00\x00\x01\x00\x2c\x01\x00\x01\x00\x02\x00\x02\x00\x00\x02\x03\x8c\x16\x05\x00\x3b",
    68);
// An interlaced 2x5 frame with rows 0 1 / 1 2 / 2 3 / 3 0 / 1 1.
const std::string kInterlaced(
    "\x47\x49\x46\x38\x39\x61\x02\x00\x05\x00\xf1\x00\x00\x00\x00\x00\x0a\x14\x1e\x14\x28\x3c\x1e"
    "\x3c\x5a\x2c\x00\x00\x00\x00\x02\x00\x05\x00\x40\x02\x05\x44\x2e\x13\x09\x05\x00\x3b",
    44);
// No colour table at all.
const std::string kNoColorMap(
    "\x47\x49\x46\x38\x39\x61\x04\x00\x03\x00\x00\x00\x00\x2c\x00\x00\x00\x00\x04\x00\x03\x00\x00"
    "\x02\x03\x8c\x8f\x56\x00\x3b",
    30);
// Index 3 with a colour table of 2 entries.
const std::string kIndexOutside(
    "\x47\x49\x46\x38\x39\x61\x04\x00\x03\x00\xf0\x00\x00\x00\x00\x00\x0a\x14\x1e\x2c\x00\x00\x00"
    "\x00\x04\x00\x03\x00\x00\x02\x03\x9c\x8f\x56\x00\x3b",
    36);

// The bytes of a literal, NULs included.
template <size_t N>
std::string Bytes(const char (&s)[N]) {
  return std::string(s, N - 1);
}

std::vector<uint8_t> Colors(const std::vector<int>& indices) {
  std::vector<uint8_t> rgb;
  for (int i : indices) {
    rgb.push_back(static_cast<uint8_t>(10 * i));
    rgb.push_back(static_cast<uint8_t>(20 * i));
    rgb.push_back(static_cast<uint8_t>(30 * i));
  }
  return rgb;
}

struct Decoded {
  absl::Status status;
  int frames = 0, height = 0, width = 0;
  std::vector<uint8_t> pixels;
};

Decoded DecodeAll(const std::string& data, bool expand = true) {
  Decoded d;
  d.status = Decode(data, expand, [&](int frames, int height, int width) {
    d.frames = frames;
    d.height = height;
    d.width = width;
    d.pixels.assign(static_cast<size_t>(frames) * height * width * 3, 0xee);
    return d.pixels.data();
  });
  return d;
}

TEST(GifCodecTest, DecodesOneFrame) {
  Decoded d = DecodeAll(kSingle);
  ASSERT_TRUE(d.status.ok()) << d.status;
  EXPECT_EQ(d.frames, 1);
  EXPECT_EQ(d.height, 3);
  EXPECT_EQ(d.width, 4);
  EXPECT_THAT(d.pixels, ElementsAreArray(Colors({0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3})));
}

TEST(GifCodecTest, LaterFramesPaintOverThePreviousOneExceptTransparentPixels) {
  Decoded d = DecodeAll(kAnimation);
  ASSERT_TRUE(d.status.ok()) << d.status;
  ASSERT_EQ(d.frames, 2);
  std::vector<uint8_t> second(d.pixels.begin() + 36, d.pixels.end());
  EXPECT_THAT(second, ElementsAreArray(Colors({0, 1, 2, 3, 0, 1, 2, 3, 0, 3, 2, 3})));
  Decoded first = DecodeAll(kAnimation, /*expand=*/false);
  ASSERT_TRUE(first.status.ok()) << first.status;
  EXPECT_EQ(first.frames, 1);
  EXPECT_THAT(first.pixels, ElementsAreArray(Colors({0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3})));
}

TEST(GifCodecTest, InterlacedRowsAreReordered) {
  Decoded d = DecodeAll(kInterlaced);
  ASSERT_TRUE(d.status.ok()) << d.status;
  EXPECT_THAT(d.pixels, ElementsAreArray(Colors({0, 1, 1, 2, 2, 3, 3, 0, 1, 1})));
}

TEST(GifCodecTest, ErrorsAreTensorFlows) {
  EXPECT_EQ(DecodeAll("GIF89a").status,
            absl::InvalidArgumentError("failed to open gif file: No screen descriptor detected"));
  EXPECT_EQ(DecodeAll(Bytes("GIF89a\x04\x00\x03\x00\x00\x00\x00;")).status,
            absl::InvalidArgumentError("failed to slurp gif file: No Image Descriptor detected"));
  EXPECT_EQ(DecodeAll(Bytes("GIF89a\x04\x00\x03\x00\x00\x00\x00?")).status,
            absl::InvalidArgumentError("failed to slurp gif file: Wrong record type detected"));
  EXPECT_EQ(DecodeAll(kNoColorMap).status,
            absl::InvalidArgumentError("missing color map for frame 0"));
  EXPECT_EQ(DecodeAll(kIndexOutside).status,
            absl::InvalidArgumentError("found color index 3 outside of color map range 2"));
}

// Without the trailer the frame is complete, so it is kept (TensorFlow logs the read error).
TEST(GifCodecTest, MissingTrailerKeepsTheFrames) {
  Decoded d = DecodeAll(kSingle.substr(0, kSingle.size() - 1));
  ASSERT_TRUE(d.status.ok()) << d.status;
  EXPECT_THAT(d.pixels, ElementsAreArray(Colors({0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3})));
}

// A frame whose data ends before its last pixel, or whose last data block is cut, is dropped;
// without another frame that is an error.
TEST(GifCodecTest, FrameCutShortIsDropped) {
  EXPECT_EQ(DecodeAll(kSingle.substr(0, 38)).status,
            absl::InvalidArgumentError("failed to slurp gif file: Failed to read from given file"));
  EXPECT_EQ(DecodeAll(kSingle.substr(0, kSingle.size() - 2)).status,
            absl::InvalidArgumentError("failed to slurp gif file: Failed to read from given file"));
  Decoded d = DecodeAll(kAnimation.substr(0, kAnimation.size() - 4));
  ASSERT_TRUE(d.status.ok()) << d.status;
  EXPECT_EQ(d.frames, 1);
}

// Damaged files (run under ASan too): every prefix, and every byte changed, decodes or is
// refused with InvalidArgument.
TEST(GifCodecTest, DamagedFilesDecodeOrAreRefused) {
  auto check = [](const std::string& data) {
    const absl::Status s = DecodeAll(data).status;
    EXPECT_TRUE(s.ok() || absl::IsInvalidArgument(s)) << s;
  };
  for (size_t n = 0; n <= kAnimation.size(); ++n) check(kAnimation.substr(0, n));
  for (size_t i = 6; i < kAnimation.size(); ++i) {
    for (int flip : {0x01, 0x10, 0x80, 0xff}) {
      std::string damaged = kAnimation;
      damaged[i] = static_cast<char>(damaged[i] ^ flip);
      check(damaged);
    }
  }
}

TEST(GifCodecTest, AllocatorErrorsAreReturnedAsTheyAre) {
  absl::Status s = Decode(kSingle, true, [](int, int, int) -> absl::StatusOr<uint8_t*> {
    return absl::ResourceExhaustedError("no memory");
  });
  EXPECT_EQ(s, absl::ResourceExhaustedError("no memory"));
}

}  // namespace
}  // namespace gif_codec
}  // namespace rill
