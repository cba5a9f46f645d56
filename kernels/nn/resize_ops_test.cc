#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor Size(int32_t h, int32_t w) { return Tensor::FromVector<int32_t>({h, w}, TensorShape({2})); }

absl::StatusOr<std::vector<Tensor>> Resize(const std::string& op, const Tensor& images,
                                           const Tensor& size, bool align_corners = false,
                                           bool half_pixel_centers = false) {
  OpTester t(op);
  t.Attr("T", images.dtype())
      .Attr("align_corners", align_corners)
      .Attr("half_pixel_centers", half_pixel_centers)
      .Input(images)
      .Input(size);
  return t.Run();
}

const Tensor& Square() {
  static const Tensor* t = new Tensor(F({0, 1, 2, 3}, TensorShape({1, 2, 2, 1})));
  return *t;
}

TEST(ResizeBilinearOpTest, LegacyCoordinates) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Resize("ResizeBilinear", Square(), Size(4, 4)));
  ExpectTensorEqual(out[0], F({0, 0.5, 1, 1, 1, 1.5, 2, 2, 2, 2.5, 3, 3, 2, 2.5, 3, 3},
                              TensorShape({1, 4, 4, 1})));
}

TEST(ResizeBilinearOpTest, AlignCorners) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Resize("ResizeBilinear", Square(), Size(3, 3), true));
  ExpectTensorEqual(out[0], F({0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3}, TensorShape({1, 3, 3, 1})));
}

TEST(ResizeBilinearOpTest, HalfPixelCenters) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Resize("ResizeBilinear", Square(), Size(4, 4), false, true));
  ExpectTensorEqual(
      out[0], F({0, 0.25, 0.75, 1, 0.5, 0.75, 1.25, 1.5, 1.5, 1.75, 2.25, 2.5, 2, 2.25, 2.75, 3},
                TensorShape({1, 4, 4, 1})));
}

TEST(ResizeBilinearOpTest, IntegerInputGivesFloat) {
  const Tensor x = Tensor::FromVector<int32_t>({0, 2, 4, 6}, TensorShape({1, 2, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Resize("ResizeBilinear", x, Size(3, 3), true));
  ExpectTensorEqual(out[0], F({0, 1, 2, 2, 3, 4, 4, 5, 6}, TensorShape({1, 3, 3, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Resize("ResizeBilinear", x, Size(2, 2)));
  ExpectTensorEqual(out[0], F({0, 2, 4, 6}, TensorShape({1, 2, 2, 1})));
}

// The definition, pixel by pixel: the 4 neighbours of TensorFlow's input coordinate, lerped along
// x then y in float.
std::vector<float> BilinearReference(const std::vector<float>& x, int64_t batch, int64_t in_h,
                                     int64_t in_w, int64_t c, int64_t out_h, int64_t out_w,
                                     bool align_corners, bool half_pixel) {
  auto scale = [&](int64_t in, int64_t out) {
    return align_corners && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                    : static_cast<float>(in) / static_cast<float>(out);
  };
  auto where = [&](int64_t i, int64_t in, float s, int64_t* lo, int64_t* hi, float* lerp) {
    const float v = half_pixel ? (static_cast<float>(i) + 0.5f) * s - 0.5f : i * s;
    *hi = std::min(static_cast<int64_t>(std::ceil(v)), in - 1);
    *lo = std::min(std::max(static_cast<int64_t>(std::floor(v)), int64_t{0}), *hi);
    *lerp = v - std::floor(v);
  };
  const float sh = scale(in_h, out_h), sw = scale(in_w, out_w);
  std::vector<float> out(batch * out_h * out_w * c);
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t oy = 0; oy < out_h; ++oy) {
      int64_t y0, y1;
      float ly;
      where(oy, in_h, sh, &y0, &y1, &ly);
      for (int64_t ox = 0; ox < out_w; ++ox) {
        int64_t x0, x1;
        float lx;
        where(ox, in_w, sw, &x0, &x1, &lx);
        for (int64_t k = 0; k < c; ++k) {
          auto at = [&](int64_t y, int64_t xx) { return x[((n * in_h + y) * in_w + xx) * c + k]; };
          const float top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * lx;
          const float bottom = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * lx;
          out[((n * out_h + oy) * out_w + ox) * c + k] = top + (bottom - top) * ly;
        }
      }
    }
  }
  return out;
}

// Random images of 1, 3, 4 and 64 channels (with a NaN and infinities), up and down, in all three
// coordinate modes: the kernel's separable rows give the definition's values, exactly at the
// baseline vector width and within a rounding of each lerp where the clones may fuse them.
void ExpectBilinearMatchesTheDefinition(bool exact) {
  const int64_t sizes[][4] = {{5, 7, 11, 13}, {9, 6, 4, 3}, {1, 1, 3, 2}, {6, 6, 6, 9}};
  uint32_t seed = 1;
  for (int64_t c : {1, 3, 4, 64}) {
    for (const auto& sz : sizes) {
      const int64_t batch = 2, in_h = sz[0], in_w = sz[1], out_h = sz[2], out_w = sz[3];
      std::vector<float> x(batch * in_h * in_w * c);
      for (float& v : x) {
        seed = seed * 1664525u + 1013904223u;
        v = static_cast<float>(seed >> 8) / static_cast<float>(1 << 24) * 2.0f - 1.0f;
      }
      if (x.size() > 7) {
        x[3] = std::numeric_limits<float>::quiet_NaN();
        x[x.size() - 2] = std::numeric_limits<float>::infinity();
        x[x.size() / 2] = -std::numeric_limits<float>::infinity();
      }
      const Tensor images = F(x, TensorShape({batch, in_h, in_w, c}));
      for (int mode = 0; mode < 3; ++mode) {
        const bool align = mode == 1, half = mode == 2;
        RILL_ASSERT_OK_AND_ASSIGN(
            auto out, Resize("ResizeBilinear", images, Size(out_h, out_w), align, half));
        const std::vector<float> want =
            BilinearReference(x, batch, in_h, in_w, c, out_h, out_w, align, half);
        ASSERT_EQ(out[0].NumElements(), static_cast<int64_t>(want.size()));
        for (size_t i = 0; i < want.size(); ++i) {
          const float got = out[0].flat<float>()[i];
          const bool close =
              exact ? got == want[i]
                    : std::abs(got - want[i]) <= 1e-6f * std::max(1.0f, std::abs(want[i]));
          EXPECT_TRUE(close || got == want[i] || (std::isnan(got) && std::isnan(want[i])))
              << "c " << c << " mode " << mode << " element " << i << ": " << got << " vs "
              << want[i];
        }
      }
    }
  }
}

TEST(ResizeBilinearOpTest, MatchesTheDefinitionForAnyChannelCount) {
  {
    ScopedSimdLevelForTesting baseline(SimdLevel::kBaseline);
    ExpectBilinearMatchesTheDefinition(/*exact=*/true);
  }
  ExpectBilinearMatchesTheDefinition(/*exact=*/false);
}

TEST(ResizeNearestNeighborOpTest, CoordinateRules) {
  const Tensor x = Tensor::FromVector<int32_t>({1, 2, 3, 4}, TensorShape({1, 2, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Resize("ResizeNearestNeighbor", x, Size(4, 4)));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<int32_t>({1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4},
                                                TensorShape({1, 4, 4, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Resize("ResizeNearestNeighbor", x, Size(3, 3), true));
  ExpectTensorEqual(
      out[0], Tensor::FromVector<int32_t>({1, 2, 2, 3, 4, 4, 3, 4, 4}, TensorShape({1, 3, 3, 1})));
  // Downsizing [1, 2, 3] to 2: legacy floor(i * 1.5) = 0, 1; half-pixel floor((i + .5) * 1.5) =
  // 0, 2; align_corners round(i * 2) = 0, 2.
  const Tensor row = F({1, 2, 3}, TensorShape({1, 1, 3, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Resize("ResizeNearestNeighbor", row, Size(1, 2)));
  ExpectTensorEqual(out[0], F({1, 2}, TensorShape({1, 1, 2, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Resize("ResizeNearestNeighbor", row, Size(1, 2), false, true));
  ExpectTensorEqual(out[0], F({1, 3}, TensorShape({1, 1, 2, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Resize("ResizeNearestNeighbor", row, Size(1, 2), true));
  ExpectTensorEqual(out[0], F({1, 3}, TensorShape({1, 1, 2, 1})));
}

TEST(ResizeOpsTest, ErrorsAreTensorFlows) {
  for (const char* op : {"ResizeBilinear", "ResizeNearestNeighbor"}) {
    SCOPED_TRACE(op);
    EXPECT_THAT(Resize(op, Square(), Size(2, 2), true, true),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         "If half_pixel_centers is True, align_corners must be False."));
    EXPECT_THAT(Resize(op, Square(), Size(0, 2)),
                StatusIs(absl::StatusCode::kInvalidArgument, "output dimensions must be positive"));
    EXPECT_THAT(Resize(op, F({1, 2}, TensorShape({1, 2, 1})), Size(2, 2)),
                StatusIs(absl::StatusCode::kInvalidArgument, "input must be 4-dimensional[1,2,1]"));
    EXPECT_THAT(Resize(op, Square(), Tensor::FromVector<int32_t>({2}, TensorShape({1}))),
                StatusIs(absl::StatusCode::kInvalidArgument, "shape_t must have two elements[1]"));
  }
}

// Issue 26: batch * height * width * channels from the size input overflowed int64 and aborted in
// TensorShape; it is InvalidArgument now.
TEST(ResizeBilinearOpTest, OutputSizeOverflowIsInvalidArgument) {
  const Tensor images = F(std::vector<float>(12, 1.f), TensorShape({1, 2, 2, 3}));
  for (const char* op : {"ResizeBilinear", "ResizeNearestNeighbor"}) {
    EXPECT_THAT(Resize(op, images, Size(2147483647, 2147483647)),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         ::testing::HasSubstr("Shape [1,2147483647,2147483647,3] has too many "
                                              "elements (overflows int64)")))
        << op;
  }
}

}  // namespace
}  // namespace rill
