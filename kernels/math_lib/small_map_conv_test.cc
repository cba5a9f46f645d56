// SmallMapConv2D against a direct convolution loop, exactly: inputs are small integers and filter
// weights multiples of 1/4, so every partial sum is exact in float and any order of summation
// gives the same bits. Covers im2col with padding (SAME 3x3, asymmetric 1x7), strides, dilations,
// batches, one to four blocks of pixels (more than two only on maps of at most 4 columns), taps
// that read only padding (skipped: one tap, a row, a column, two runs, none left), a 1x1
// input read in place, channel counts that are not a multiple of 16, the bias, the residual sum
// into the output, 1 and 2 threads, and where SmallMapConvApplies draws its lines.
#include "kernels/math_lib/small_map_conv.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

std::vector<float> Ints(int64_t n, int seed, float scale) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = static_cast<float>((i * 5 + i / 11 + seed * 13) % 7 - 3) * scale;
  return v;
}

// HWIO [k_h, k_w, in_c, out_c] -> Ohwi16o [ceil(out_c / 16)][k_h][k_w][in_c][16], zeros past out_c.
std::vector<float> Pack(const SmallMapConvGeometry& g, const std::vector<float>& hwio) {
  const int64_t window = g.k_h * g.k_w * g.in_c;
  std::vector<float> packed(SmallMapPackedFilterSize(g), 0.f);
  for (int64_t k = 0; k < window; ++k) {
    for (int64_t co = 0; co < g.out_c; ++co) {
      packed[((co / 16) * window + k) * 16 + co % 16] = hwio[k * g.out_c + co];
    }
  }
  return packed;
}

std::vector<float> Reference(const SmallMapConvGeometry& g, const std::vector<float>& in,
                             const std::vector<float>& hwio, const float* bias,
                             const std::vector<float>* addend) {
  std::vector<float> out(g.batch * g.out_h * g.out_w * g.out_c);
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t oh = 0; oh < g.out_h; ++oh)
      for (int64_t ow = 0; ow < g.out_w; ++ow)
        for (int64_t co = 0; co < g.out_c; ++co) {
          double acc = 0;
          for (int64_t kh = 0; kh < g.k_h; ++kh)
            for (int64_t kw = 0; kw < g.k_w; ++kw) {
              const int64_t h = oh * g.stride_h - g.pad_top + kh * g.dil_h;
              const int64_t w = ow * g.stride_w - g.pad_left + kw * g.dil_w;
              if (h < 0 || h >= g.in_h || w < 0 || w >= g.in_w) continue;
              for (int64_t ci = 0; ci < g.in_c; ++ci) {
                acc += double{in[((n * g.in_h + h) * g.in_w + w) * g.in_c + ci]} *
                       hwio[((kh * g.k_w + kw) * g.in_c + ci) * g.out_c + co];
              }
            }
          if (bias != nullptr) acc += bias[co];
          const int64_t i = ((n * g.out_h + oh) * g.out_w + ow) * g.out_c + co;
          if (addend != nullptr) acc += (*addend)[i];
          out[i] = static_cast<float>(acc);
        }
  return out;
}

SmallMapConvGeometry Geometry(int64_t batch, int64_t in_h, int64_t in_w, int64_t in_c, int64_t k_h,
                              int64_t k_w, int64_t out_c, int64_t stride, int64_t dil,
                              int64_t pad_top, int64_t pad_left, int64_t out_h, int64_t out_w) {
  SmallMapConvGeometry g;
  g.batch = batch;
  g.in_h = in_h;
  g.in_w = in_w;
  g.in_c = in_c;
  g.k_h = k_h;
  g.k_w = k_w;
  g.out_c = out_c;
  g.stride_h = g.stride_w = stride;
  g.dil_h = g.dil_w = dil;
  g.pad_top = pad_top;
  g.pad_left = pad_left;
  g.out_h = out_h;
  g.out_w = out_w;
  return g;
}

bool HasAvx512() { return CpuSimdLevel() == SimdLevel::kAvx512; }

TEST(SmallMapConvTest, MatchesADirectConvolutionExactly) {
  if (!HasAvx512()) GTEST_SKIP() << "SmallMapConv2D runs only with AVX-512";
  struct Case {
    std::string name;
    SmallMapConvGeometry g;
  };
  const std::vector<Case> cases = {
      // 3x3 SAME on 5x5 (ResNet50's last stage), 520 channels: a last group of 8.
      {"same3x3", Geometry(1, 5, 5, 128, 3, 3, 520, 1, 1, 1, 1, 5, 5)},
      // 1x1 stride 1, 2064 input channels (129 cache lines a row: read in place), batch 2.
      {"pointwise_in_place", Geometry(2, 3, 3, 2064, 1, 1, 136, 1, 1, 0, 0, 3, 3)},
      // 1x1 stride 2 on 10x10 into 5x5 (the windows copied).
      {"pointwise_stride2", Geometry(1, 10, 10, 1024, 1, 1, 256, 2, 1, 0, 0, 5, 5)},
      // 1x7 with 3 columns of padding on each side (InceptionV3's 1x7 / 7x1 on a small map).
      {"one_by_seven", Geometry(1, 3, 3, 384, 1, 7, 200, 1, 1, 0, 3, 3, 3)},
      // Dilation 2, padding 2 before, VALID-like truncation after; 28 pixels (4 x 7).
      {"dilated", Geometry(1, 4, 7, 160, 3, 3, 200, 1, 2, 2, 2, 4, 7)},
      // An atrous convolution folded into dilation 4, padding 4, on an 8x8 map: 64 pixels of 8
      // columns, each reading 4 of the 9 taps (four groups of 16 when skipping zero taps).
      {"dilated_8x8", Geometry(1, 8, 8, 160, 3, 3, 200, 1, 4, 4, 4, 8, 8)},
      // 49 pixels (7x7 SAME 3x3): two blocks of 24 and 25.
      {"two_blocks", Geometry(1, 7, 7, 128, 3, 3, 232, 1, 1, 1, 1, 7, 7)},
      // 56 pixels over a batch of 2 (1x1 stride 1 on 4x7, 512 channels: windows copied).
      {"two_blocks_batch", Geometry(2, 4, 7, 512, 1, 1, 520, 1, 1, 0, 0, 4, 7)},
      // 64 pixels as 16 maps of 2x2 (an atrous 3x3 after SpaceToBatchND, VALID): three blocks.
      {"narrow_batch", Geometry(16, 4, 4, 160, 3, 3, 200, 1, 1, 0, 0, 2, 2)},
      // 112 pixels as 7 maps of 4x4 (1x1 stride 1, windows copied): four blocks of 28.
      {"narrow_four_blocks", Geometry(7, 4, 4, 512, 1, 1, 520, 1, 1, 0, 0, 4, 4)},
      // A single output pixel.
      {"one_pixel", Geometry(1, 1, 1, 1024, 1, 1, 300, 1, 1, 0, 0, 1, 1)},
      // Taps that read only padding are skipped. 3x3 SAME on a 1x1 map: the centre tap alone.
      {"one_pixel_same3x3", Geometry(1, 1, 1, 512, 3, 3, 136, 1, 1, 1, 1, 1, 1)},
      // 3x3 SAME on a 1x3 map: the middle tap row, its three taps one run of the filter.
      {"one_row_same3x3", Geometry(1, 1, 3, 256, 3, 3, 136, 1, 1, 1, 1, 1, 3)},
      // 1x7 with 3 columns of padding on a 3x1 map: the middle column alone.
      {"one_column_1x7", Geometry(1, 3, 1, 384, 1, 7, 200, 1, 1, 0, 3, 3, 1)},
      // 3x3 stride 2, padding 1, on 2x2 into 1x1: taps (1..2, 1..2), two runs of two taps.
      {"stride2_corner", Geometry(1, 2, 2, 256, 3, 3, 136, 2, 1, 1, 1, 1, 1)},
      // Padding 3 on a 1x1 input: every tap reads padding; the output is the bias (and addend).
      {"no_live_tap", Geometry(1, 1, 1, 512, 3, 3, 136, 1, 1, 3, 3, 1, 1)},
  };
  for (const Case& c : cases) {
    const SmallMapConvGeometry& g = c.g;
    ASSERT_TRUE(SmallMapConvApplies(g)) << c.name;
    const std::vector<float> in = Ints(g.batch * g.in_h * g.in_w * g.in_c, 1, 1.f);
    const std::vector<float> hwio = Ints(g.k_h * g.k_w * g.in_c * g.out_c, 2, 0.25f);
    const std::vector<float> packed = Pack(g, hwio);
    const std::vector<float> bias = Ints(g.out_c, 3, 0.5f);
    const std::vector<float> addend = Ints(g.batch * g.out_h * g.out_w * g.out_c, 4, 2.f);
    for (int threads : {1, 2}) {
      for (bool with_bias : {false, true}) {
        for (bool add : {false, true}) {
          for (bool skip : {false, true}) {
            const std::string name = c.name + " threads " + std::to_string(threads) +
                                     (with_bias ? " bias" : "") + (add ? " add" : "") +
                                     (skip ? " skipping zero taps" : "");
            std::vector<float> out = add ? addend : std::vector<float>(addend.size(), -99.f);
            SmallMapConv2D(g, threads, in.data(), packed.data(), with_bias ? bias.data() : nullptr,
                           add, out.data(), skip);
            const std::vector<float> want =
                Reference(g, in, hwio, with_bias ? bias.data() : nullptr, add ? &addend : nullptr);
            for (size_t i = 0; i < out.size(); ++i) {
              ASSERT_EQ(out[i], want[i]) << name << " [" << i << "]";
            }
          }
        }
      }
    }
  }
}

// An atrous 3x3 at rate 4 on an 8x8 map as TensorFlow writes it: SpaceToBatchND's 16 maps of
// 4x4 whose first and last rows and columns are its zero padding, VALID into 2x2. With
// skip_zero_taps each output pixel reads 4 of the 9 taps (4 sets of 16 pixels, grouped); with
// every third remaining input vector zero too, the sets get smaller than 8 pixels and every pixel
// reads every tap. Single zeros are not whole vectors. Exact against the direct loop; 1 and 2
// threads, with the bias and the residual sum.
TEST(SmallMapConvTest, PixelsSkipTapsThatReadOnlyZeros) {
  if (!HasAvx512()) GTEST_SKIP() << "SmallMapConv2D runs only with AVX-512";
  for (int64_t in_c : {160, 200}) {
    for (bool more_zero_vectors : {false, true}) {
      const SmallMapConvGeometry g = Geometry(16, 4, 4, in_c, 3, 3, 200, 1, 1, 0, 0, 2, 2);
      ASSERT_TRUE(SmallMapConvApplies(g));
      std::vector<float> in = Ints(g.batch * g.in_h * g.in_w * g.in_c, 1, 1.f);
      for (int64_t p = 0; p < g.batch * g.in_h * g.in_w; ++p) {
        const int64_t h = p / g.in_w % g.in_h, w = p % g.in_w;
        if (h == 0 || h == 3 || w == 0 || w == 3 || (more_zero_vectors && p % 3 == 0)) {
          std::fill(in.begin() + p * g.in_c, in.begin() + (p + 1) * g.in_c, 0.f);
        } else {
          in[p * g.in_c + p % g.in_c] = 0.f;
        }
      }
      const std::vector<float> hwio = Ints(g.k_h * g.k_w * g.in_c * g.out_c, 2, 0.25f);
      const std::vector<float> packed = Pack(g, hwio);
      const std::vector<float> bias = Ints(g.out_c, 3, 0.5f);
      const std::vector<float> addend = Ints(g.batch * g.out_h * g.out_w * g.out_c, 4, 2.f);
      const std::vector<float> want = Reference(g, in, hwio, bias.data(), &addend);
      for (int threads : {1, 2}) {
        std::vector<float> out = addend;
        SmallMapConv2D(g, threads, in.data(), packed.data(), bias.data(), true, out.data(), true);
        for (size_t i = 0; i < out.size(); ++i) {
          ASSERT_EQ(out[i], want[i])
              << in_c << " channels, threads " << threads
              << (more_zero_vectors ? " more zero vectors" : "") << " [" << i << "]";
        }
      }
    }
  }
}

TEST(SmallMapConvTest, AppliesOnlyToFewPixelsAndLargeFilters) {
  if (!HasAvx512()) {
    EXPECT_FALSE(SmallMapConvApplies(Geometry(1, 5, 5, 512, 3, 3, 512, 1, 1, 1, 1, 5, 5)));
    return;
  }
  // 25 pixels, 2.36M weights.
  EXPECT_TRUE(SmallMapConvApplies(Geometry(1, 5, 5, 512, 3, 3, 512, 1, 1, 1, 1, 5, 5)));
  // 56 pixels applies, 57 does not.
  EXPECT_TRUE(SmallMapConvApplies(Geometry(1, 7, 8, 512, 1, 1, 512, 1, 1, 0, 0, 7, 8)));
  EXPECT_FALSE(SmallMapConvApplies(Geometry(1, 3, 19, 512, 1, 1, 512, 1, 1, 0, 0, 3, 19)));
  // Batch counts: 2 x 6 x 5 = 60 pixels.
  EXPECT_FALSE(SmallMapConvApplies(Geometry(2, 6, 5, 512, 1, 1, 512, 1, 1, 0, 0, 6, 5)));
  // Maps of at most 4 columns take up to 112 pixels: 16 x 2 x 2 and 7 x 4 x 4 apply, 113 pixels
  // and a 64-pixel 8x8 map do not.
  EXPECT_TRUE(SmallMapConvApplies(Geometry(16, 4, 4, 512, 3, 3, 512, 1, 1, 0, 0, 2, 2)));
  EXPECT_TRUE(SmallMapConvApplies(Geometry(7, 4, 4, 512, 1, 1, 512, 1, 1, 0, 0, 4, 4)));
  EXPECT_FALSE(SmallMapConvApplies(Geometry(1, 113, 1, 512, 1, 1, 512, 1, 1, 0, 0, 113, 1)));
  EXPECT_FALSE(SmallMapConvApplies(Geometry(1, 8, 8, 512, 3, 3, 512, 1, 1, 1, 1, 8, 8)));
  // The same 8x8 map dilated (an atrous convolution folded from SpaceToBatchND): 64 pixels of 8
  // columns run here, up to 112.
  EXPECT_TRUE(SmallMapConvApplies(Geometry(1, 8, 8, 512, 3, 3, 512, 1, 4, 4, 4, 8, 8)));
  EXPECT_FALSE(SmallMapConvApplies(Geometry(1, 12, 12, 512, 3, 3, 512, 1, 2, 2, 2, 12, 12)));
  // Exactly kSmallMapMinWeights weights applies, one channel fewer does not.
  EXPECT_TRUE(SmallMapConvApplies(Geometry(1, 5, 5, 512, 1, 1, 512, 1, 1, 0, 0, 5, 5)));
  EXPECT_FALSE(SmallMapConvApplies(Geometry(1, 5, 5, 511, 1, 1, 512, 1, 1, 0, 0, 5, 5)));
  // Without AVX-512 the caller keeps oneDNN's kernels.
  ScopedSimdLevelForTesting avx2(SimdLevel::kAvx2);
  EXPECT_FALSE(SmallMapConvApplies(Geometry(1, 5, 5, 512, 3, 3, 512, 1, 1, 1, 1, 5, 5)));
}

}  // namespace
}  // namespace rill
