// ResizeArea's and ResizeBicubic's channel-count paths (1, 3 and 4 channels fixed at compile time,
// any other count in one loop): each against the any-count path on the same pixels (the image's
// channels followed by two more, a 5-channel image) on random float and uint8 images with NaN and
// infinities, ResizeArea against its definition, and exact averages. The recorded TensorFlow cases
// (tests/conformance/data/ResizeArea.pbtxt.gz, ResizeBicubic.pbtxt.gz) cover the coordinate modes
// and TensorFlow's error texts.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<Tensor> Resize(const std::string& op, const Tensor& images, int32_t h, int32_t w,
                              bool align_corners = false, bool half_pixel_centers = false,
                              int threads = 1) {
  OpTester t(op);
  t.Attr("T", images.dtype()).Attr("align_corners", align_corners);
  if (op == "ResizeBicubic") t.Attr("half_pixel_centers", half_pixel_centers);
  t.Input(images).Input(Tensor::FromVector<int32_t>({h, w}, TensorShape({2})));
  t.SetIntraOpThreads(threads);
  RILL_ASSIGN_OR_RETURN(std::vector<Tensor> out, t.Run());
  return out[0];
}

// Pseudo-random values in [-1, 1) (uint8: 0..255), with a NaN and two infinities for float.
std::vector<double> Pixels(int64_t count, uint32_t seed, bool special) {
  std::vector<double> v(count);
  for (double& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<double>(seed >> 8) / static_cast<double>(1 << 24) * 2.0 - 1.0;
  }
  if (special && count > 40) {
    v[17] = std::numeric_limits<double>::quiet_NaN();
    v[count / 2] = std::numeric_limits<double>::infinity();
    v[count - 5] = -std::numeric_limits<double>::infinity();
  }
  return v;
}

bool Close(double got, double want, double tol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::abs(got - want) <= tol * std::max(1.0, std::abs(want));
}

// The channels [0, c) of the 5-channel image whose first c channels are `pixels` (c channels per
// pixel) and whose others are other values.
std::vector<double> WithMoreChannels(const std::vector<double>& pixels, int64_t c) {
  const int64_t count = static_cast<int64_t>(pixels.size()) / c;
  const std::vector<double> extra = Pixels(count * 5, 99, false);
  std::vector<double> out(count * 5);
  for (int64_t i = 0; i < count; ++i) {
    for (int64_t k = 0; k < 5; ++k) out[i * 5 + k] = k < c ? pixels[i * c + k] : extra[i * 5 + k];
  }
  return out;
}

struct Shape {
  int64_t batch, in_h, in_w, out_h, out_w;
};
const Shape kShapes[] = {{2, 9, 11, 4, 5}, {1, 16, 16, 7, 3}, {2, 5, 4, 10, 9}, {1, 1, 1, 3, 2}};

// Each fixed channel count's output equals the any-count path's on the same pixels (within a
// float rounding: the vector paths may fuse multiply-adds where the any-count loop does not).
void ExpectFixedChannelsMatchAnyCount(const std::string& op, DataType dtype) {
  for (int64_t c : {1, 3, 4}) {
    for (const Shape& s : kShapes) {
      for (int mode = 0; mode < (op == "ResizeBicubic" ? 3 : 2); ++mode) {
        const bool align = mode == 1, half = mode == 2;
        const std::vector<double> px =
            Pixels(s.batch * s.in_h * s.in_w * c, static_cast<uint32_t>(c * 7 + s.in_h),
                   dtype == DT_FLOAT);
        std::vector<double> values = px;
        if (dtype == DT_UINT8) {
          for (double& v : values) v = std::floor((v + 1.0) * 127.5);
        }
        const Tensor fixed = MakeTensor(dtype, TensorShape({s.batch, s.in_h, s.in_w, c}), values);
        const Tensor any = MakeTensor(dtype, TensorShape({s.batch, s.in_h, s.in_w, 5}),
                                      WithMoreChannels(values, c));
        const int32_t oh = static_cast<int32_t>(s.out_h), ow = static_cast<int32_t>(s.out_w);
        RILL_ASSERT_OK_AND_ASSIGN(Tensor got, Resize(op, fixed, oh, ow, align, half, 2));
        RILL_ASSERT_OK_AND_ASSIGN(Tensor want, Resize(op, any, oh, ow, align, half));
        const int64_t pixels = s.batch * s.out_h * s.out_w;
        ASSERT_EQ(got.NumElements(), pixels * c);
        for (int64_t i = 0; i < pixels; ++i) {
          for (int64_t k = 0; k < c; ++k) {
            const double g = got.flat<float>()[i * c + k], w = want.flat<float>()[i * 5 + k];
            EXPECT_TRUE(Close(g, w, 1e-6))
                << op << " " << DataTypeString(dtype) << " c " << c << " " << s.in_h << "x"
                << s.in_w << " mode " << mode << " pixel " << i << " channel " << k << ": " << g
                << " vs " << w;
          }
        }
      }
    }
  }
}

TEST(ResizeAreaOpTest, FixedChannelCountsMatchAnyCount) {
  ExpectFixedChannelsMatchAnyCount("ResizeArea", DT_FLOAT);
  ExpectFixedChannelsMatchAnyCount("ResizeArea", DT_UINT8);
}

TEST(ResizeBicubicOpTest, FixedChannelCountsMatchAnyCount) {
  ExpectFixedChannelsMatchAnyCount("ResizeBicubic", DT_FLOAT);
  ExpectFixedChannelsMatchAnyCount("ResizeBicubic", DT_UINT8);
}

// ResizeArea by its definition, in double: each output pixel averages the input over its box,
// each input pixel weighted by its overlap (scale in float, as the kernel's).
std::vector<double> AreaReference(const std::vector<double>& x, const Shape& s, int64_t c) {
  const double sh = static_cast<float>(s.in_h) / static_cast<float>(s.out_h);
  const double sw = static_cast<float>(s.in_w) / static_cast<float>(s.out_w);
  auto overlap = [](int64_t v, double lo, double hi) {
    return std::max(0.0, std::min(hi, v + 1.0) - std::max(lo, static_cast<double>(v)));
  };
  std::vector<double> out(s.batch * s.out_h * s.out_w * c, 0.0);
  for (int64_t n = 0; n < s.batch; ++n) {
    for (int64_t oy = 0; oy < s.out_h; ++oy) {
      for (int64_t ox = 0; ox < s.out_w; ++ox) {
        for (int64_t k = 0; k < c; ++k) {
          double sum = 0.0;
          for (int64_t iy = static_cast<int64_t>(oy * sh); iy < (oy + 1) * sh; ++iy) {
            for (int64_t ix = static_cast<int64_t>(ox * sw); ix < (ox + 1) * sw; ++ix) {
              const double w =
                  overlap(iy, oy * sh, (oy + 1) * sh) * overlap(ix, ox * sw, (ox + 1) * sw);
              const int64_t y = std::min(iy, s.in_h - 1), xx = std::min(ix, s.in_w - 1);
              sum += w * x[((n * s.in_h + y) * s.in_w + xx) * c + k];
            }
          }
          out[((n * s.out_h + oy) * s.out_w + ox) * c + k] = sum / (sh * sw);
        }
      }
    }
  }
  return out;
}

TEST(ResizeAreaOpTest, MatchesTheDefinition) {
  for (int64_t c : {1, 3, 4, 5, 64}) {
    for (const Shape& s : kShapes) {
      const std::vector<double> x =
          Pixels(s.batch * s.in_h * s.in_w * c, static_cast<uint32_t>(c + s.out_w), false);
      RILL_ASSERT_OK_AND_ASSIGN(
          Tensor got,
          Resize("ResizeArea", MakeTensor(DT_FLOAT, TensorShape({s.batch, s.in_h, s.in_w, c}), x),
                 static_cast<int32_t>(s.out_h), static_cast<int32_t>(s.out_w)));
      const std::vector<double> want = AreaReference(x, s, c);
      ASSERT_EQ(got.NumElements(), static_cast<int64_t>(want.size()));
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_TRUE(Close(got.flat<float>()[i], want[i], 1e-5))
            << "c " << c << " " << s.in_h << "x" << s.in_w << " element " << i << ": "
            << got.flat<float>()[i] << " vs " << want[i];
      }
    }
  }
}

// 4x4 -> 2x2 averages 2x2 blocks of integers: exact, for 1 and 4 channels; a NaN reaches only the
// output pixel whose box holds it, an infinity likewise.
TEST(ResizeAreaOpTest, ExactAveragesAndNonFiniteCells) {
  for (int64_t c : {1, 4}) {
    std::vector<double> x(16 * c);
    for (int64_t i = 0; i < 16; ++i) {
      for (int64_t k = 0; k < c; ++k) x[i * c + k] = static_cast<double>(i + 16 * k);
    }
    RILL_ASSERT_OK_AND_ASSIGN(
        Tensor got, Resize("ResizeArea", MakeTensor(DT_FLOAT, TensorShape({1, 4, 4, c}), x), 2, 2));
    // Block (by, bx) holds i = 4 (2 by + dy) + 2 bx + dx: mean 8 by + 2 bx + 2.5.
    std::vector<double> want(4 * c);
    for (int64_t b = 0; b < 4; ++b) {
      for (int64_t k = 0; k < c; ++k)
        want[b * c + k] = 8.0 * (b / 2) + 2.0 * (b % 2) + 2.5 + 16 * k;
    }
    ExpectTensorEqual(got, MakeTensor(DT_FLOAT, TensorShape({1, 2, 2, c}), want));
    x[5 * c] = std::numeric_limits<double>::quiet_NaN();  // block (0, 0)
    x[15 * c] = std::numeric_limits<double>::infinity();  // block (1, 1)
    RILL_ASSERT_OK_AND_ASSIGN(
        got, Resize("ResizeArea", MakeTensor(DT_FLOAT, TensorShape({1, 4, 4, c}), x), 2, 2));
    EXPECT_TRUE(std::isnan(got.flat<float>()[0]));
    EXPECT_EQ(got.flat<float>()[1 * c], want[1 * c]);
    EXPECT_EQ(got.flat<float>()[2 * c], want[2 * c]);
    EXPECT_EQ(got.flat<float>()[3 * c], std::numeric_limits<float>::infinity());
  }
}

}  // namespace
}  // namespace rill
