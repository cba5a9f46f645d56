// OneDnnConv2D against a direct convolution loop (plain and depthwise): padding before and after
// (SAME with odd totals, VALID with rows no window reaches, explicit), strides, dilations, batches,
// the fused bias / Relu / Relu6, the plan cache across calls and threads, 3-D convolutions, and
// which convolutions run on one thread. Except in that last test, every shape runs on the threads
// it is given (SetOneDnnConvSplitMacsForTesting(0, 0)), so the small shapes here cover teams.
#include "kernels/math_lib/onednn_conv.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/math_lib/bounded_outputs.h"

namespace rill {
namespace {

// Every convolution on the threads it is given; SmallConvolutionsRunOnOneThread restores the
// lines for itself.
const bool kTeamsForAll = [] {
  SetOneDnnConvSplitMacsForTesting(0, 0);
  return true;
}();

std::vector<float> Values(int64_t n, int seed) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 7 + seed * 13) % 17) / 8.f - 1.f;
  return v;
}

std::vector<float> Reference(const OneDnnConvShape& s, const std::vector<float>& in,
                             const std::vector<float>& f, const std::vector<float>& bias) {
  std::vector<float> out(s.batch * s.out_h * s.out_w * s.out_c);
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t oh = 0; oh < s.out_h; ++oh)
      for (int64_t ow = 0; ow < s.out_w; ++ow)
        for (int64_t co = 0; co < s.out_c; ++co) {
          double acc = s.has_bias ? bias[co] : 0;
          for (int64_t kh = 0; kh < s.k_h; ++kh)
            for (int64_t kw = 0; kw < s.k_w; ++kw) {
              const int64_t h = oh * s.stride_h - s.pad_top + kh * s.dil_h;
              const int64_t w = ow * s.stride_w - s.pad_left + kw * s.dil_w;
              if (h < 0 || h >= s.in_h || w < 0 || w >= s.in_w) continue;
              const float* x = &in[((n * s.in_h + h) * s.in_w + w) * s.in_c];
              if (s.groups > 1) {  // depthwise: channel co reads input co / M, filter [c, m]
                const int64_t mult = s.out_c / s.in_c;
                acc += double{x[co / mult]} * f[(kh * s.k_w + kw) * s.out_c + co];
                continue;
              }
              for (int64_t ci = 0; ci < s.in_c; ++ci) {
                acc += double{x[ci]} * f[((kh * s.k_w + kw) * s.in_c + ci) * s.out_c + co];
              }
            }
          if (s.activation == FusedActivation::kSwish) {
            acc = acc / (1 + std::exp(-acc));
          } else if (s.activation == FusedActivation::kHardSwish) {
            acc = acc * std::min(std::max(acc + 3, 0.0), 6.0) / 6;
          } else if (s.activation != FusedActivation::kNone) {
            acc = std::max(acc, 0.0);
            if (s.activation == FusedActivation::kRelu6) acc = std::min(acc, 6.0);
          }
          out[((n * s.out_h + oh) * s.out_w + ow) * s.out_c + co] = static_cast<float>(acc);
        }
  return out;
}

struct Case {
  std::string name;
  OneDnnConvShape shape;
};

OneDnnConvShape Shape(int64_t batch, int64_t in_h, int64_t in_w, int64_t in_c, int64_t k,
                      int64_t out_c, int64_t stride, int64_t dil, int64_t pad_top, int64_t pad_left,
                      int64_t out_h, int64_t out_w) {
  OneDnnConvShape s;
  s.batch = batch;
  s.in_h = in_h;
  s.in_w = in_w;
  s.in_c = in_c;
  s.k_h = s.k_w = k;
  s.out_c = out_c;
  s.stride_h = s.stride_w = stride;
  s.dil_h = s.dil_w = dil;
  s.pad_top = pad_top;
  s.pad_left = pad_left;
  s.out_h = out_h;
  s.out_w = out_w;
  return s;
}

void ExpectMatchesReference(const OneDnnConvShape& s, int threads, const std::string& name,
                            OneDnnPackedWeights* packed = nullptr, int filter_seed = 2) {
  const std::vector<float> in = Values(s.batch * s.in_h * s.in_w * s.in_c, 1);
  const int64_t filter_size = s.k_h * s.k_w * (s.groups > 1 ? s.out_c : s.in_c * s.out_c);
  const std::vector<float> f = Values(filter_size, filter_seed);
  const std::vector<float> bias = Values(s.out_c, 3);
  std::vector<float> out(s.batch * s.out_h * s.out_w * s.out_c, -99.f);
  // As a kernel does: the filter is a tensor the packed copies hold on to.
  const Tensor filter = Tensor::FromVector<float>(f, TensorShape({filter_size}));
  ASSERT_THAT(OneDnnConv2D(s, threads, in.data(), filter.flat<float>().data(), bias.data(),
                           out.data(), HoldConstantWeights(packed, filter)),
              IsOk())
      << name;
  const std::vector<float> want = Reference(s, in, f, bias);
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_NEAR(out[i], want[i], 1e-4f * (1 + std::fabs(want[i]))) << name << " [" << i << "]";
  }
}

TEST(OneDnnConvTest, MatchesADirectConvolution) {
  const std::vector<Case> cases = {
      // 3x3 SAME stride 1 (pad 1 / 1).
      {"same3x3", Shape(1, 6, 5, 4, 3, 8, 1, 1, 1, 1, 6, 5)},
      // 4x4 SAME stride 1: TensorFlow pads 1 before and 2 after.
      {"same4x4_odd_total", Shape(2, 7, 7, 3, 4, 5, 1, 1, 1, 1, 7, 7)},
      // 7x7 stride 2 SAME on 20: out 10, total pad 5 (2 before, 3 after).
      {"same7x7s2", Shape(1, 20, 20, 3, 7, 16, 2, 1, 2, 2, 10, 10)},
      // VALID 3x3 stride 2 on 8: out 3, the last input row is read by no window.
      {"valid_unread_row", Shape(1, 8, 8, 2, 3, 4, 2, 1, 0, 0, 3, 3)},
      // Dilation 2, VALID: effective window 5.
      {"dilated", Shape(1, 9, 9, 3, 3, 6, 1, 2, 0, 0, 5, 5)},
      // Explicit padding 2 before, 0 after on 6 with 3x3: out 6 - 3 + 2 + 1 = 6.
      {"explicit", Shape(3, 6, 6, 5, 3, 7, 1, 1, 2, 2, 6, 6)},
      // Pointwise.
      {"pointwise", Shape(2, 4, 4, 16, 1, 24, 1, 1, 0, 0, 4, 4)},
  };
  for (const Case& c : cases) {
    for (bool bias : {false, true}) {
      for (FusedActivation act :
           {FusedActivation::kNone, FusedActivation::kRelu, FusedActivation::kRelu6,
            FusedActivation::kSwish, FusedActivation::kHardSwish}) {
        OneDnnConvShape s = c.shape;
        s.has_bias = bias;
        s.activation = act;
        ExpectMatchesReference(
            s, 1, c.name + (bias ? " bias" : "") + " act" + std::to_string(static_cast<int>(act)));
      }
    }
  }
}

TEST(OneDnnConvTest, DepthwiseIsAGroupedConvolutionInTensorFlowsChannelOrder) {
  // Multipliers 1 and 3; SAME 3x3, stride 2 with TensorFlow's 0-before / 1-after padding, and a
  // dilated VALID window.
  std::vector<Case> cases = {
      {"mult1_same", Shape(2, 7, 6, 8, 3, 8, 1, 1, 1, 1, 7, 6)},
      {"mult3_stride2", Shape(1, 8, 8, 4, 3, 12, 2, 1, 0, 0, 4, 4)},
      {"mult2_dilated", Shape(1, 9, 9, 3, 3, 6, 1, 2, 0, 0, 5, 5)},
  };
  for (Case& c : cases) {
    c.shape.groups = c.shape.in_c;
    for (FusedActivation act : {FusedActivation::kNone, FusedActivation::kRelu6}) {
      OneDnnConvShape s = c.shape;
      s.has_bias = act != FusedActivation::kNone;
      s.activation = act;
      ExpectMatchesReference(s, 1, c.name);
      ExpectMatchesReference(s, 2, c.name + " 2 threads");
    }
  }
}

TEST(OneDnnConvTest, PackedFiltersAreKeptPerAddressAndRemadeForANewOne) {
  OneDnnConvShape s = Shape(2, 9, 9, 16, 3, 32, 1, 1, 1, 1, 9, 9);
  s.has_bias = true;
  s.activation = FusedActivation::kRelu6;
  OneDnnPackedWeights packed;
  // Each call makes a fresh filter tensor (seeded differently; malloc may hand out the address
  // of the last one, which the packed copies must not mistake for it), and the copies must never
  // serve stale values; two threads share one packed copy.
  for (int seed : {2, 5, 2}) {
    ExpectMatchesReference(s, 1, "seed " + std::to_string(seed), &packed, seed);
    ExpectMatchesReference(s, 2, "2 threads seed " + std::to_string(seed), &packed, seed);
  }
  OneDnnConvShape dw = Shape(1, 8, 8, 6, 3, 12, 1, 1, 1, 1, 8, 8);
  dw.groups = 6;
  OneDnnPackedWeights dw_packed;
  ExpectMatchesReference(dw, 1, "depthwise packed", &dw_packed);
  ExpectMatchesReference(dw, 1, "depthwise packed again", &dw_packed);
}

// TensorFlow's Relu and Relu6 keep NaN; oneDNN's relu and clip post-ops would give 0.
// Few output pixels with a large constant filter run as small_map_conv.h's pass (on AVX-512; the
// primitive elsewhere): the same results, with every activation, a NaN kept through Relu / Relu6,
// and the residual sum into the output.
TEST(OneDnnConvTest, SmallOutputMapsWithAConstantFilterMatchADirectConvolution) {
  // 3x3 SAME on 5x5, 128 -> 520 channels; 1x1 stride 2 on 10x10 into 5x5, 1024 -> 264.
  for (const OneDnnConvShape& shape : {Shape(1, 5, 5, 128, 3, 520, 1, 1, 1, 1, 5, 5),
                                       Shape(1, 10, 10, 1024, 1, 264, 2, 1, 0, 0, 5, 5)}) {
    for (FusedActivation act :
         {FusedActivation::kNone, FusedActivation::kRelu, FusedActivation::kRelu6,
          FusedActivation::kSwish, FusedActivation::kHardSwish}) {
      OneDnnConvShape s = shape;
      s.has_bias = true;
      s.activation = act;
      OneDnnPackedWeights packed;
      for (int threads : {1, 2}) {
        ExpectMatchesReference(s, threads,
                               "k" + std::to_string(s.k_h) + " act" +
                                   std::to_string(static_cast<int>(act)) + " threads " +
                                   std::to_string(threads),
                               &packed);
      }
    }
    // A NaN input reaches every output through a 1x1 window at its pixel: Relu keeps it.
    OneDnnConvShape s = shape;
    s.has_bias = true;
    s.activation = FusedActivation::kRelu;
    std::vector<float> in = Values(s.in_h * s.in_w * s.in_c, 1);
    in[0] = std::nanf("");  // pixel (0, 0), read by output (0, 0) of both shapes
    const int64_t filter_size = s.k_h * s.k_w * s.in_c * s.out_c;
    const Tensor filter =
        Tensor::FromVector<float>(Values(filter_size, 2), TensorShape({filter_size}));
    const std::vector<float> bias = Values(s.out_c, 3);
    std::vector<float> out(s.out_h * s.out_w * s.out_c, -99.f);
    OneDnnPackedWeights packed;
    ASSERT_THAT(OneDnnConv2D(s, 1, in.data(), filter.flat<float>().data(), bias.data(), out.data(),
                             HoldConstantWeights(&packed, filter)),
                IsOk());
    for (int64_t c = 0; c < s.out_c; ++c) EXPECT_TRUE(std::isnan(out[c])) << c;
    for (size_t i = s.out_c; i < out.size(); ++i) {
      if (s.k_h == 1) {
        ASSERT_GE(out[i], 0.f) << i;  // no other 1x1 window reads pixel (0, 0)
      }
    }
  }
  // The residual sum: out = Relu((conv + bias) + out on entry).
  OneDnnConvShape s = Shape(1, 5, 5, 2048, 1, 512, 1, 1, 0, 0, 5, 5);
  s.has_bias = true;
  s.sum = true;
  s.activation = FusedActivation::kRelu;
  const std::vector<float> in = Values(25 * 2048, 1), bias = Values(512, 3);
  const Tensor filter = Tensor::FromVector<float>(Values(2048 * 512, 2), TensorShape({2048 * 512}));
  const std::vector<float> addend = Values(25 * 512, 4);
  std::vector<float> out = addend;
  OneDnnPackedWeights packed;
  ASSERT_THAT(OneDnnConv2D(s, 2, in.data(), filter.flat<float>().data(), bias.data(), out.data(),
                           HoldConstantWeights(&packed, filter)),
              IsOk());
  OneDnnConvShape plain = s;
  plain.sum = false;
  plain.activation = FusedActivation::kNone;
  const std::vector<float> conv = Reference(plain, in, Values(2048 * 512, 2), bias);
  for (size_t i = 0; i < out.size(); ++i) {
    const float want = std::max(0.f, conv[i] + addend[i]);
    ASSERT_NEAR(out[i], want, 1e-4f * (1 + std::fabs(want))) << i;
  }
}

TEST(OneDnnConvTest, ReluAndRelu6KeepANaNFromTheInput) {
  for (int groups : {1, 4}) {
    for (FusedActivation act : {FusedActivation::kRelu, FusedActivation::kRelu6}) {
      OneDnnConvShape s = Shape(1, 5, 5, 4, 3, groups == 1 ? 8 : 4, 1, 1, 1, 1, 5, 5);
      s.groups = groups;
      s.has_bias = true;
      s.activation = act;
      std::vector<float> in = Values(5 * 5 * 4, 1);
      in[(2 * 5 + 2) * 4] = std::nanf("");  // pixel (2, 2), channel 0
      const int64_t filter_size = 9 * (groups == 1 ? 4 * 8 : 4);
      const std::vector<float> f = Values(filter_size, 2), bias = Values(s.out_c, 3);
      std::vector<float> out(5 * 5 * s.out_c, -99.f);
      ASSERT_THAT(OneDnnConv2D(s, 1, in.data(), f.data(), bias.data(), out.data()), IsOk());
      for (int64_t h = 0; h < 5; ++h) {
        for (int64_t w = 0; w < 5; ++w) {
          for (int64_t c = 0; c < s.out_c; ++c) {
            // Every output whose window covers (2, 2) reads the NaN (depthwise: channel 0 only).
            const bool reads_nan =
                std::abs(h - 2) <= 1 && std::abs(w - 2) <= 1 && (groups == 1 || c == 0);
            const float v = out[(h * 5 + w) * s.out_c + c];
            EXPECT_EQ(std::isnan(v), reads_nan)
                << "groups " << groups << " act " << static_cast<int>(act) << " at " << h << ","
                << w << "," << c << " = " << v;
            if (!reads_nan) {
              EXPECT_GE(v, 0.f);
              if (act == FusedActivation::kRelu6) EXPECT_LE(v, 6.f);
            }
          }
        }
      }
    }
  }
}

// TensorFlow's Relu / Relu6 of a float, NaN kept, -0 as +0.
float TfClamp(float v, FusedActivation act) {
  if (std::isnan(v)) return v;
  v = v <= 0.f ? 0.f : v;
  return act == FusedActivation::kRelu6 && v > 6.f ? 6.f : v;
}

// With a constant filter, Relu / Relu6 run as oneDNN's post-op only where no NaN can reach it
// (onednn_common.h's ReluPostOpIsExact); for every input, finite or not, the fused output is the
// convolution without activation clamped as TensorFlow clamps, NaN for NaN.
TEST(OneDnnConvTest, ReluPostOpOnlyWhereNoNaNCanReachIt) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> poisons = {0.f, std::nanf(""), inf, -inf, 3e38f, -3e38f};
  for (int groups : {1, 4}) {
    for (FusedActivation act : {FusedActivation::kRelu, FusedActivation::kRelu6}) {
      for (size_t p = 0; p < poisons.size(); ++p) {
        for (int threads : {1, 2}) {
          SCOPED_TRACE(::testing::Message()
                       << "groups " << groups << " act " << static_cast<int>(act) << " poison "
                       << poisons[p] << " threads " << threads);
          OneDnnConvShape s = Shape(1, 5, 5, 4, 3, groups == 1 ? 8 : 4, 1, 1, 1, 1, 5, 5);
          s.groups = groups;
          s.has_bias = true;
          std::vector<float> in = Values(5 * 5 * 4, 1);
          if (p > 0) {
            in[(2 * 5 + 2) * 4] = poisons[p];   // pixel (2, 2), channel 0
            in[(2 * 5 + 3) * 4] = -poisons[p];  // and its right neighbour, negated
          }
          const int64_t filter_size = 9 * (groups == 1 ? 4 * 8 : 4);
          const Tensor filter =
              Tensor::FromVector<float>(Values(filter_size, 2), TensorShape({filter_size}));
          const std::vector<float> bias = Values(s.out_c, 3);
          std::vector<float> plain(5 * 5 * s.out_c, -99.f), fused(plain.size(), -99.f);
          OneDnnPackedWeights packed, packed_plain;
          ASSERT_THAT(OneDnnConv2D(s, threads, in.data(), filter.flat<float>().data(), bias.data(),
                                   plain.data(), HoldConstantWeights(&packed_plain, filter)),
                      IsOk());
          s.activation = act;
          ASSERT_THAT(OneDnnConv2D(s, threads, in.data(), filter.flat<float>().data(), bias.data(),
                                   fused.data(), HoldConstantWeights(&packed, filter)),
                      IsOk());
          int nans = 0;
          for (size_t i = 0; i < plain.size(); ++i) {
            const float want = TfClamp(plain[i], act);
            nans += std::isnan(want);
            if (std::isnan(want)) {
              EXPECT_TRUE(std::isnan(fused[i])) << "at " << i;
            } else {
              EXPECT_EQ(fused[i], want) << "at " << i;
              EXPECT_FALSE(std::signbit(fused[i])) << "at " << i;
            }
          }
          // The NaN and the infinities reach outputs as NaN (inf - inf, or NaN itself).
          if (p > 0 && p < 4) EXPECT_GT(nans, 0);
          if (p == 0) EXPECT_EQ(nans, 0);
        }
      }
    }
  }
}

// A Relu6 convolution whose clip ran inside oneDNN (finite input, constant filter) hands its
// output to the registry of bounded tensors; the depthwise Relu6 convolution reading it then
// takes it (no scan) and gives the same bits as on an unregistered copy of that input, which it
// scans. An output whose Relu6 was ClampInPlace's (a NaN reached it) and a Relu output are not
// kept.
TEST(OneDnnConvTest, AnInputKnownToBeARelu6OutputGivesTheSameResultsWithoutAScan) {
  constexpr int64_t kStep = 3;  // one Run's step id, as the kernels pass theirs
  OneDnnConvShape expand = Shape(1, 6, 6, 4, 1, 16, 1, 1, 0, 0, 6, 6);
  expand.has_bias = true;
  expand.activation = FusedActivation::kRelu6;
  OneDnnConvShape dw = Shape(1, 6, 6, 16, 3, 16, 1, 1, 1, 1, 6, 6);
  dw.groups = 16;
  dw.has_bias = true;
  dw.activation = FusedActivation::kRelu6;
  const Tensor f1 = Tensor::FromVector<float>(Values(16 * 4, 2), TensorShape({4, 16}));
  std::vector<float> w2 = Values(9 * 16, 4);
  for (float& v : w2) v *= 3.f;  // sums past 6, so the clip's top bound matters
  const Tensor f2 = Tensor::FromVector<float>(w2, TensorShape({9 * 16}));
  const std::vector<float> b1 = Values(16, 3), b2 = Values(16, 5);
  for (int threads : {1, 2}) {
    for (bool nan_input : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "threads " << threads << " NaN input " << nan_input);
      std::vector<float> in = Values(6 * 6 * 4, 1);
      for (float& v : in) v *= 4.f;
      if (nan_input) in[7] = std::nanf("");
      OneDnnPackedWeights p1, p2, p2_copy;
      Tensor mid(DT_FLOAT, TensorShape({1, 6, 6, 16}));
      ASSERT_THAT(OneDnnConv2D(expand, threads, in.data(), f1.flat<float>().data(), b1.data(),
                               mid.flat<float>().data(), HoldConstantWeights(&p1, f1), kStep),
                  IsOk());
      RecordOneDnnConvBound(mid, kStep);
      ASSERT_EQ(BoundedOutputsKept(), nan_input ? 0 : 1);
      const Tensor copy = Tensor::FromVector<float>(
          std::vector<float>(mid.flat<float>().begin(), mid.flat<float>().end()), mid.shape());
      std::vector<float> got(6 * 6 * 16, -99.f), want(got.size(), -99.f);
      ASSERT_THAT(OneDnnConv2D(dw, threads, mid.flat<float>().data(), f2.flat<float>().data(),
                               b2.data(), got.data(), HoldConstantWeights(&p2, f2), kStep),
                  IsOk());
      EXPECT_EQ(BoundedOutputsKept(), 0);  // taken by its reader
      ASSERT_THAT(OneDnnConv2D(dw, threads, copy.flat<float>().data(), f2.flat<float>().data(),
                               b2.data(), want.data(), HoldConstantWeights(&p2_copy, f2), kStep),
                  IsOk());
      int sixes = 0, nans = 0;
      for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i])) {
          ++nans;
          EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
          continue;
        }
        EXPECT_EQ(got[i], want[i]) << "at " << i;
        sixes += want[i] == 6.f;
      }
      EXPECT_GT(sixes, 0);
      EXPECT_EQ(nans > 0, nan_input);
    }
  }
  // Relu's outputs have no bound to keep.
  OneDnnConvShape relu = expand;
  relu.activation = FusedActivation::kRelu;
  OneDnnPackedWeights p;
  const std::vector<float> in = Values(6 * 6 * 4, 1);
  Tensor out(DT_FLOAT, TensorShape({1, 6, 6, 16}));
  ASSERT_THAT(OneDnnConv2D(relu, 1, in.data(), f1.flat<float>().data(), b1.data(),
                           out.flat<float>().data(), HoldConstantWeights(&p, f1), kStep),
              IsOk());
  RecordOneDnnConvBound(out, kStep);
  EXPECT_EQ(BoundedOutputsKept(), 0);
}

TEST(OneDnnConvTest, TwoThreadsAndConcurrentCallersGetTheSameResults) {
  OneDnnConvShape s = Shape(4, 14, 14, 32, 5, 64, 1, 1, 2, 2, 14, 14);
  s.has_bias = true;
  s.activation = FusedActivation::kRelu;
  ExpectMatchesReference(s, 2, "two threads");
  std::vector<std::thread> callers;
  for (int t = 0; t < 3; ++t) {
    callers.emplace_back([&s, t] { ExpectMatchesReference(s, 1 + t % 2, "concurrent"); });
  }
  for (std::thread& t : callers) t.join();
}

// A direct 3-D convolution: input NDHWC, filter DHWIO, output NDHWC.
std::vector<float> Reference3d(const OneDnnConvShape& s, const std::vector<float>& in,
                               const std::vector<float>& f) {
  std::vector<float> out(s.batch * s.out_d * s.out_h * s.out_w * s.out_c);
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t od = 0; od < s.out_d; ++od)
      for (int64_t oh = 0; oh < s.out_h; ++oh)
        for (int64_t ow = 0; ow < s.out_w; ++ow)
          for (int64_t co = 0; co < s.out_c; ++co) {
            double acc = 0;
            for (int64_t kd = 0; kd < s.k_d; ++kd)
              for (int64_t kh = 0; kh < s.k_h; ++kh)
                for (int64_t kw = 0; kw < s.k_w; ++kw) {
                  const int64_t d = od * s.stride_d - s.pad_front + kd;
                  const int64_t h = oh * s.stride_h - s.pad_top + kh;
                  const int64_t w = ow * s.stride_w - s.pad_left + kw;
                  if (d < 0 || d >= s.in_d || h < 0 || h >= s.in_h || w < 0 || w >= s.in_w) {
                    continue;
                  }
                  const float* x = &in[(((n * s.in_d + d) * s.in_h + h) * s.in_w + w) * s.in_c];
                  for (int64_t ci = 0; ci < s.in_c; ++ci) {
                    acc += double{x[ci]} *
                           f[(((kd * s.k_h + kh) * s.k_w + kw) * s.in_c + ci) * s.out_c + co];
                  }
                }
            out[(((n * s.out_d + od) * s.out_h + oh) * s.out_w + ow) * s.out_c + co] =
                static_cast<float>(acc);
          }
  return out;
}

TEST(OneDnnConvTest, SmallConvolutionsRunOnOneThread) {
  ASSERT_TRUE(kTeamsForAll);
  // Dense: 1 x 16 x 16 outputs x 64 channels x 3x3 x 64 inputs = 9,437,184 multiply-adds.
  OneDnnConvShape dense = Shape(1, 16, 16, 64, 3, 64, 1, 1, 1, 1, 16, 16);
  EXPECT_EQ(OneDnnConvMacs(dense), 9437184);
  EXPECT_EQ(OneDnnConvThreads(dense, 2), 2);
  EXPECT_EQ(OneDnnConvThreads(dense, 2, 9437184, 0), 2);  // at the line: split
  EXPECT_EQ(OneDnnConvThreads(dense, 2, 9437185, 0), 1);  // one below: one thread
  EXPECT_EQ(OneDnnConvThreads(dense, 0, 0, 0), 1);        // never fewer than 1
  // 8x8 outputs: 2,359,296, under kOneDnnConvSplitMacs (4,194,304).
  OneDnnConvShape small = Shape(1, 8, 8, 64, 3, 64, 1, 1, 1, 1, 8, 8);
  EXPECT_EQ(OneDnnConvThreads(small, 2), 1);
  // Depthwise, 128 channels on 32x32, 3x3: 1,179,648, over kOneDnnGroupedConvSplitMacs
  // (1,048,576) though under the dense line; on 16x16, 294,912: one thread.
  OneDnnConvShape dw = Shape(1, 32, 32, 128, 3, 128, 1, 1, 1, 1, 32, 32);
  dw.groups = 128;
  EXPECT_EQ(OneDnnConvMacs(dw), 1179648);
  EXPECT_EQ(OneDnnConvThreads(dw, 2), 2);
  dw = Shape(1, 16, 16, 128, 3, 128, 1, 1, 1, 1, 16, 16);
  dw.groups = 128;
  EXPECT_EQ(OneDnnConvThreads(dw, 2), 1);
  // OneDnnConv2D sets the calling thread's OpenMP team to the size it runs on; results match
  // the reference either way.
  SetOneDnnConvSplitMacsForTesting(kOneDnnConvSplitMacs, kOneDnnGroupedConvSplitMacs);
  ExpectMatchesReference(small, 2, "small on two threads");
  EXPECT_EQ(omp_get_max_threads(), 1);
  ExpectMatchesReference(dense, 2, "dense on two threads");
  EXPECT_EQ(omp_get_max_threads(), 2);
  SetOneDnnConvSplitMacsForTesting(0, 0);
  ExpectMatchesReference(small, 2, "small with no line");
  EXPECT_EQ(omp_get_max_threads(), 2);
}

TEST(OneDnnConvTest, ThreeDimensionalConvolutionMatchesADirectOne) {
  struct Case3d {
    std::string name;
    int64_t in[3], k[3], stride[3], pad[3], out[3];
  };
  const std::vector<Case3d> cases = {
      // 3x3x3 SAME stride 1 on 4x5x6.
      {"same", {4, 5, 6}, {3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {4, 5, 6}},
      // (2,3,3) VALID with depth stride 2 (the Video3D model's second convolution).
      {"valid_depth_stride", {4, 6, 6}, {2, 3, 3}, {2, 1, 1}, {0, 0, 0}, {2, 4, 4}},
      // 3x3x3 SAME stride 2 on 5x5x5: out 3, pad 1 before and after.
      {"same_stride2", {5, 5, 5}, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {3, 3, 3}},
  };
  for (const Case3d& c : cases) {
    OneDnnConvShape s;
    s.spatial_dims = 3;
    s.batch = 2;
    s.in_c = 3;
    s.out_c = 5;
    s.in_d = c.in[0];
    s.in_h = c.in[1];
    s.in_w = c.in[2];
    s.k_d = c.k[0];
    s.k_h = c.k[1];
    s.k_w = c.k[2];
    s.stride_d = c.stride[0];
    s.stride_h = c.stride[1];
    s.stride_w = c.stride[2];
    s.pad_front = c.pad[0];
    s.pad_top = c.pad[1];
    s.pad_left = c.pad[2];
    s.out_d = c.out[0];
    s.out_h = c.out[1];
    s.out_w = c.out[2];
    const std::vector<float> in = Values(s.batch * s.in_d * s.in_h * s.in_w * s.in_c, 1);
    const std::vector<float> f = Values(s.k_d * s.k_h * s.k_w * s.in_c * s.out_c, 2);
    const std::vector<float> want = Reference3d(s, in, f);
    for (int threads : {1, 2}) {
      std::vector<float> out(want.size(), -99.f);
      ASSERT_THAT(OneDnnConv2D(s, threads, in.data(), f.data(), nullptr, out.data()), IsOk())
          << c.name;
      for (size_t i = 0; i < out.size(); ++i) {
        ASSERT_NEAR(out[i], want[i], 1e-4f * (1 + std::fabs(want[i])))
            << c.name << " threads " << threads << " [" << i << "]";
      }
    }
  }
}

TEST(OneDnnConvTest, SwishIsWithin1e5OfTheConvolutionFollowedBySwish) {
  // The fused swish (a pass after the convolution on AVX-512, oneDNN's post-op elsewhere) against
  // the same convolution with its bias alone followed by x / (1 + e^-x) in double, as the unfused
  // graph computes it. Outputs of about 200k elements, so two threads split the pass.
  OneDnnConvShape depthwise = Shape(1, 64, 64, 48, 3, 48, 1, 1, 1, 1, 64, 64);
  depthwise.groups = 48;
  const std::vector<Case> cases = {
      {"pointwise", Shape(1, 48, 48, 16, 1, 96, 1, 1, 0, 0, 48, 48)},
      {"depthwise", depthwise},
  };
  for (const Case& c : cases) {
    OneDnnConvShape s = c.shape;
    s.has_bias = true;
    const std::vector<float> in = Values(s.batch * s.in_h * s.in_w * s.in_c, 1);
    const int64_t filter_size = s.k_h * s.k_w * (s.groups > 1 ? s.out_c : s.in_c * s.out_c);
    std::vector<float> f = Values(filter_size, 2);
    for (float& v : f) v *= 4.0f;  // outputs over about [-40, 40], both tails of the sigmoid
    const std::vector<float> bias = Values(s.out_c, 3);
    std::vector<float> plain(s.batch * s.out_h * s.out_w * s.out_c);
    ASSERT_THAT(OneDnnConv2D(s, 1, in.data(), f.data(), bias.data(), plain.data()), IsOk());
    s.activation = FusedActivation::kSwish;
    for (int threads : {1, 2}) {
      std::vector<float> out(plain.size(), -99.f);
      ASSERT_THAT(OneDnnConv2D(s, threads, in.data(), f.data(), bias.data(), out.data()), IsOk());
      for (size_t i = 0; i < out.size(); ++i) {
        const double x = plain[i];
        const double want = x / (1 + std::exp(-x));
        ASSERT_NEAR(out[i], want, std::max(1e-5 * std::fabs(want), 1e-30))
            << c.name << " threads " << threads << " [" << i << "] x = " << x;
      }
    }
  }
}

TEST(OneDnnConvTest, AShapeOneDnnRejectsIsAnInternalErrorNamingTheShape) {
  // A zero stride (Rill's kernels never pass one: their attrs are checked first).
  OneDnnConvShape s = Shape(1, 6, 6, 2, 3, 2, 1, 1, 0, 0, 4, 4);
  s.stride_h = 0;
  std::vector<float> in(72), f(36), out(4 * 4 * 2);
  EXPECT_THAT(OneDnnConv2D(s, 1, in.data(), f.data(), nullptr, out.data()),
              StatusIs(absl::StatusCode::kInternal,
                       ::testing::HasSubstr("oneDNN convolution failed for input [1,6,6,2] and "
                                            "filter [3,3,2,2]")));
}

}  // namespace
}  // namespace rill
