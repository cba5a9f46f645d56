// OneDnnConv2DBackpropInput against a direct loop over the convolution's windows, on dyadic
// values (every sum exact, so any summation order gives the same bits): strides 1, 2 and 3, SAME
// and VALID padding, dilation, a batch, channel counts that are not a multiple of 8, input rows
// and columns no window reaches (their gradient is zero), 1 and 2 threads, and gradients that
// are inf or NaN; OneDnnConv3DBackpropInput the same way in 3-D.
#include "kernels/math_lib/onednn_deconv.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/math_lib/onednn_conv.h"

namespace rill {
namespace {

std::vector<float> Dyadic(int64_t n, int seed) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = static_cast<float>((i * 7 + seed * 5 + i / 13) % 9 - 4) * 0.25f;
  return v;
}

// The geometry of a convolution of [batch, in_h, in_w, in_c] by [k, k, in_c, out_c].
ConvGeometry Geometry(int64_t batch, int64_t in_h, int64_t in_w, int64_t in_c, int64_t k,
                      int64_t out_c, int64_t stride, int64_t dil, Padding padding) {
  Conv2DAttrs a;
  a.strides = {1, stride, stride, 1};
  a.dilations = {1, dil, dil, 1};
  a.padding = padding;
  absl::StatusOr<ConvGeometry> g =
      NhwcConvGeometry(a, TensorShape({batch, in_h, in_w, in_c}), TensorShape({k, k, in_c, out_c}),
                       /*grouped=*/false);
  EXPECT_THAT(g.status(), IsOk());
  return g.ok() ? *g : ConvGeometry();
}

std::vector<float> Reference(const ConvGeometry& g, const std::vector<float>& filter,
                             const std::vector<float>& dy) {
  std::vector<float> dx(g.batch * g.in_h * g.in_w * g.in_c, 0.f);
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t oh = 0; oh < g.out_h; ++oh)
      for (int64_t ow = 0; ow < g.out_w; ++ow)
        for (int64_t kh = 0; kh < g.k_h; ++kh)
          for (int64_t kw = 0; kw < g.k_w; ++kw) {
            const int64_t h = oh * g.stride_h - g.pad_h + kh * g.dil_h;
            const int64_t w = ow * g.stride_w - g.pad_w + kw * g.dil_w;
            if (h < 0 || h >= g.in_h || w < 0 || w >= g.in_w) continue;
            for (int64_t ci = 0; ci < g.in_c; ++ci)
              for (int64_t co = 0; co < g.out_c; ++co) {
                dx[((n * g.in_h + h) * g.in_w + w) * g.in_c + ci] +=
                    dy[((n * g.out_h + oh) * g.out_w + ow) * g.out_c + co] *
                    filter[((kh * g.k_w + kw) * g.in_c + ci) * g.out_c + co];
              }
          }
  return dx;
}

TEST(OneDnnDeconvTest, MatchesTheConvolutionsGradientExactly) {
  struct Case {
    std::string name;
    ConvGeometry g;
  };
  const std::vector<Case> cases = {
      // DCGAN's: 4x4 stride 2 SAME into 8x8 (32 -> 16 channels), 5x5 stride 1 SAME (8 -> 3).
      {"stride2_same", Geometry(3, 8, 8, 16, 4, 32, 2, 1, Padding::kSame)},
      {"stride1_same_5x5", Geometry(3, 16, 16, 3, 5, 8, 1, 1, Padding::kSame)},
      {"stride2_valid_odd", Geometry(2, 9, 7, 5, 3, 6, 2, 1, Padding::kValid)},
      // 8 rows, 3x3 stride 2 VALID: 3 windows, the last input row read by none.
      {"stride2_valid_unreached", Geometry(1, 8, 8, 4, 3, 4, 2, 1, Padding::kValid)},
      {"dilated", Geometry(1, 9, 9, 3, 3, 5, 1, 2, Padding::kSame)},
      {"stride3_same", Geometry(1, 10, 11, 7, 3, 9, 3, 1, Padding::kSame)},
      // Past kOneDnnConvSplitMacs multiply-adds (18.9 M): run on the team when given 2 threads.
      {"split", Geometry(2, 64, 64, 32, 3, 32, 2, 1, Padding::kSame)},
  };
  for (const Case& c : cases) {
    const ConvGeometry& g = c.g;
    const std::vector<float> filter = Dyadic(g.k_h * g.k_w * g.in_c * g.out_c, 1);
    const std::vector<float> dy = Dyadic(g.batch * g.out_h * g.out_w * g.out_c, 2);
    const std::vector<float> want = Reference(g, filter, dy);
    for (int threads : {1, 2}) {
      std::vector<float> dx(want.size(), -99.f);
      ASSERT_THAT(OneDnnConv2DBackpropInput(g, threads, filter.data(), dy.data(), dx.data()),
                  IsOk())
          << c.name;
      for (size_t i = 0; i < dx.size(); ++i) {
        ASSERT_EQ(dx[i], want[i]) << c.name << " threads " << threads << " [" << i << "]";
      }
    }
  }
}

TEST(OneDnnDeconvTest, NonFiniteValuesReachTheGradientsTheyTouch) {
  const ConvGeometry g = Geometry(1, 6, 6, 2, 3, 3, 2, 1, Padding::kSame);
  std::vector<float> filter = Dyadic(3 * 3 * 2 * 3, 1);
  std::vector<float> dy = Dyadic(g.out_h * g.out_w * 3, 2);
  dy[4] = std::numeric_limits<float>::infinity();
  dy[10] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> want = Reference(g, filter, dy);
  std::vector<float> dx(want.size());
  ASSERT_THAT(OneDnnConv2DBackpropInput(g, 1, filter.data(), dy.data(), dx.data()), IsOk());
  for (size_t i = 0; i < dx.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(dx[i])) << i;
    } else {
      EXPECT_EQ(dx[i], want[i]) << i;
    }
  }
}

// A constant filter held in OneDnnPackedWeights: reordered on the first call and reused, exact
// on every call; holding another tensor gives that tensor's results.
TEST(OneDnnDeconvTest, PackedFiltersFollowTheHeldTensor) {
  const ConvGeometry g = Geometry(2, 8, 8, 16, 4, 32, 2, 1, Padding::kSame);
  const std::vector<float> dy = Dyadic(g.batch * g.out_h * g.out_w * g.out_c, 2);
  OneDnnPackedWeights packed;
  for (int seed : {1, 3}) {
    const Tensor filter = Tensor::FromVector<float>(Dyadic(g.k_h * g.k_w * g.in_c * g.out_c, seed),
                                                    TensorShape({g.k_h, g.k_w, g.in_c, g.out_c}));
    const std::vector<float> f(filter.flat<float>().data(),
                               filter.flat<float>().data() + filter.NumElements());
    const std::vector<float> want = Reference(g, f, dy);
    for (int call = 0; call < 2; ++call) {
      std::vector<float> dx(want.size(), -99.f);
      ASSERT_THAT(OneDnnConv2DBackpropInput(g, 1, filter.flat<float>().data(), dy.data(), dx.data(),
                                            HoldConstantWeights(&packed, filter)),
                  IsOk());
      for (size_t i = 0; i < dx.size(); ++i) {
        ASSERT_EQ(dx[i], want[i]) << "filter " << seed << " call " << call << " [" << i << "]";
      }
    }
  }
}

TEST(OneDnnDeconvTest, GroupedGeometriesAreRefused) {
  ConvGeometry g = Geometry(1, 4, 4, 4, 3, 4, 1, 1, Padding::kSame);
  g.groups = 2;
  std::vector<float> buffer(1024);
  EXPECT_THAT(OneDnnConv2DBackpropInput(g, 1, buffer.data(), buffer.data(), buffer.data()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "oneDNN deconvolution: grouped filters are not supported"));
}

// A 3-D convolution of [batch, d, h, w, in_c] by [k_d, k_h, k_w, in_c, out_c] with one stride
// and SAME (pad_before = total / 2) or VALID padding in every dim.
OneDnnConvShape Shape3d(int64_t batch, std::array<int64_t, 3> in, int64_t in_c,
                        std::array<int64_t, 3> k, int64_t out_c, int64_t stride, bool same) {
  OneDnnConvShape s;
  s.spatial_dims = 3;
  s.batch = batch;
  s.in_c = in_c;
  s.out_c = out_c;
  std::array<int64_t, 3> out, pad;
  for (int i = 0; i < 3; ++i) {
    out[i] = same ? (in[i] + stride - 1) / stride : (in[i] - k[i]) / stride + 1;
    pad[i] = same ? std::max<int64_t>((out[i] - 1) * stride + k[i] - in[i], 0) / 2 : 0;
  }
  s.in_d = in[0], s.in_h = in[1], s.in_w = in[2];
  s.k_d = k[0], s.k_h = k[1], s.k_w = k[2];
  s.out_d = out[0], s.out_h = out[1], s.out_w = out[2];
  s.stride_d = s.stride_h = s.stride_w = stride;
  s.pad_front = pad[0], s.pad_top = pad[1], s.pad_left = pad[2];
  return s;
}

std::vector<float> Reference3d(const OneDnnConvShape& s, const std::vector<float>& filter,
                               const std::vector<float>& dy) {
  std::vector<float> dx(s.batch * s.in_d * s.in_h * s.in_w * s.in_c, 0.f);
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t od = 0; od < s.out_d; ++od)
      for (int64_t oh = 0; oh < s.out_h; ++oh)
        for (int64_t ow = 0; ow < s.out_w; ++ow)
          for (int64_t kd = 0; kd < s.k_d; ++kd)
            for (int64_t kh = 0; kh < s.k_h; ++kh)
              for (int64_t kw = 0; kw < s.k_w; ++kw) {
                const int64_t d = od * s.stride_d - s.pad_front + kd;
                const int64_t h = oh * s.stride_h - s.pad_top + kh;
                const int64_t w = ow * s.stride_w - s.pad_left + kw;
                if (d < 0 || d >= s.in_d || h < 0 || h >= s.in_h || w < 0 || w >= s.in_w) continue;
                for (int64_t ci = 0; ci < s.in_c; ++ci)
                  for (int64_t co = 0; co < s.out_c; ++co) {
                    dx[(((n * s.in_d + d) * s.in_h + h) * s.in_w + w) * s.in_c + ci] +=
                        dy[(((n * s.out_d + od) * s.out_h + oh) * s.out_w + ow) * s.out_c + co] *
                        filter[(((kd * s.k_h + kh) * s.k_w + kw) * s.in_c + ci) * s.out_c + co];
                  }
              }
  return dx;
}

TEST(OneDnnDeconvTest, ThreeDimensionalMatchesTheConvolutionsGradientExactly) {
  struct Case {
    std::string name;
    OneDnnConvShape s;
  };
  const std::vector<Case> cases = {
      // Keras Conv3DTranspose's: 3x3x3 stride 2 SAME (8 -> 4 channels), 2x2x2 stride 2 VALID.
      {"stride2_same", Shape3d(2, {8, 8, 8}, 4, {3, 3, 3}, 8, 2, true)},
      {"stride2_valid", Shape3d(1, {8, 8, 8}, 2, {2, 2, 2}, 4, 2, false)},
      // 7 in each dim, 2x3x3 stride 2 VALID: the last depth plane read by no window.
      {"stride2_valid_unreached", Shape3d(1, {7, 7, 6}, 3, {2, 3, 3}, 5, 2, false)},
      {"stride1_same_odd_channels", Shape3d(2, {4, 5, 6}, 7, {3, 2, 3}, 9, 1, true)},
      // Past kOneDnnConvSplitMacs multiply-adds (7.1 M): run on the team when given 2 threads.
      {"split", Shape3d(1, {16, 16, 16}, 32, {3, 3, 3}, 16, 2, true)},
  };
  for (const Case& c : cases) {
    const OneDnnConvShape& s = c.s;
    const std::vector<float> filter = Dyadic(s.k_d * s.k_h * s.k_w * s.in_c * s.out_c, 1);
    std::vector<float> dy = Dyadic(s.batch * s.out_d * s.out_h * s.out_w * s.out_c, 2);
    dy[1] = std::numeric_limits<float>::infinity();
    dy[dy.size() / 2] = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> want = Reference3d(s, filter, dy);
    for (int threads : {1, 2}) {
      std::vector<float> dx(want.size(), -99.f);
      ASSERT_THAT(OneDnnConv3DBackpropInput(s, threads, filter.data(), dy.data(), dx.data()),
                  IsOk())
          << c.name;
      for (size_t i = 0; i < dx.size(); ++i) {
        if (std::isnan(want[i])) {
          ASSERT_TRUE(std::isnan(dx[i])) << c.name << " threads " << threads << " [" << i << "]";
        } else {
          ASSERT_EQ(dx[i], want[i]) << c.name << " threads " << threads << " [" << i << "]";
        }
      }
    }
  }
}

TEST(OneDnnDeconvTest, ThreeDimensionalShapesMustBeThreeDimensionalAndUngrouped) {
  std::vector<float> buffer(4096);
  OneDnnConvShape s = Shape3d(1, {4, 4, 4}, 2, {3, 3, 3}, 2, 1, true);
  s.spatial_dims = 2;
  EXPECT_THAT(OneDnnConv3DBackpropInput(s, 1, buffer.data(), buffer.data(), buffer.data()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "oneDNN 3-D deconvolution: the shape must be 3-D and ungrouped"));
  s.spatial_dims = 3;
  s.groups = 2;
  EXPECT_THAT(OneDnnConv3DBackpropInput(s, 1, buffer.data(), buffer.data(), buffer.data()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "oneDNN 3-D deconvolution: the shape must be 3-D and ungrouped"));
}

}  // namespace
}  // namespace rill
