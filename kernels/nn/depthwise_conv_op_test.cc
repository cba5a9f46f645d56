#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Ramp(TensorShape s, int mod) {
  std::vector<float> v(s.num_elements());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 5 + 1) % mod) - 2;
  return Tensor::FromVector<float>(v, s);
}

absl::StatusOr<std::vector<Tensor>> Depthwise(const Tensor& in, const Tensor& f, int64_t stride,
                                              const std::string& padding) {
  OpTester t("DepthwiseConv2dNative");
  t.Attr("T", DT_FLOAT)
      .Attr("strides", std::vector<int64_t>{1, stride, stride, 1})
      .Attr("padding", padding)
      .Input(in)
      .Input(f);
  return t.Run();
}

TEST(DepthwiseConv2dNativeOpTest, EachChannelHasItsOwnFilters) {
  // 1x3x3x2 input, 2x2 filter with multiplier 2, SAME stride 2 -> 1x2x2x4 (pad 0 before).
  const Tensor in = Ramp(TensorShape({1, 3, 3, 2}), 7);
  const Tensor f = Ramp(TensorShape({2, 2, 2, 2}), 5);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Depthwise(in, f, 2, "SAME"));
  ASSERT_EQ(out[0].shape(), TensorShape({1, 2, 2, 4}));
  auto x = in.flat<float>();
  auto w = f.flat<float>();
  for (int oh = 0; oh < 2; ++oh)
    for (int ow = 0; ow < 2; ++ow)
      for (int c = 0; c < 2; ++c)
        for (int m = 0; m < 2; ++m) {
          float want = 0;
          for (int kh = 0; kh < 2; ++kh)
            for (int kw = 0; kw < 2; ++kw) {
              const int h = oh * 2 + kh, ww = ow * 2 + kw;
              if (h >= 3 || ww >= 3) continue;
              want += x[(h * 3 + ww) * 2 + c] * w[((kh * 2 + kw) * 2 + c) * 2 + m];
            }
          EXPECT_EQ(out[0].flat<float>()[((oh * 2 + ow) * 2 + c) * 2 + m], want)
              << oh << "," << ow << "," << c << "," << m;
        }
}

absl::StatusOr<std::vector<Tensor>> FusedDepthwise(const Tensor& in, const Tensor& f,
                                                   const Tensor& bias,
                                                   std::vector<std::string> fused_ops) {
  OpTester t("_FusedDepthwiseConv2dNative");
  t.Attr("T", in.dtype())
      .Attr("num_args", int64_t{1})
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("padding", "SAME")
      .Attr("fused_ops", fused_ops)
      .Input(in)
      .Input(f)
      .Input(bias);
  return t.Run();
}

// Issue 26 item 11: a dilation of 1e9 (oneDNN never finished building its kernel) is computed:
// with SAME padding every tap misses the input, so the output is zeros, as TensorFlow gives.
TEST(DepthwiseConv2dNativeOpTest, DilationsBeyondTheInputAreComputed) {
  OpTester t("DepthwiseConv2dNative");
  t.Attr("T", DT_FLOAT)
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("dilations", std::vector<int64_t>{1, 1000000000, 1000000000, 1})
      .Attr("padding", "SAME")
      .Input(Ramp(TensorShape({1, 5, 5, 2}), 7))
      .Input(Ramp(TensorShape({2, 2, 2, 1}), 5));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(
      out[0], Tensor::FromVector<float>(std::vector<float>(50, 0.0f), TensorShape({1, 5, 5, 2})));
}

// half as TensorFlow 2.21's CPU kernel computes it (values checked against TensorFlow): the
// accumulator is rounded to half after each tap, so 2048 + 1 + 1 stays 2048 (a float sum would
// give 2050), and padding taps are multiplied too, so an inf tap over the padding gives NaN.
TEST(DepthwiseConv2dNativeOpTest, HalfRoundsTheAccumulatorAfterEachTapAsTensorFlow) {
  auto run = [](std::vector<float> x, std::vector<float> f, const std::string& padding) {
    std::vector<half> hx(x.begin(), x.end()), hf(f.begin(), f.end());
    OpTester t("DepthwiseConv2dNative");
    t.Attr("T", DT_HALF)
        .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
        .Attr("padding", padding)
        .Input(Tensor::FromVector<half>(hx, TensorShape({1, 1, static_cast<int64_t>(x.size()), 1})))
        .Input(
            Tensor::FromVector<half>(hf, TensorShape({1, static_cast<int64_t>(f.size()), 1, 1})));
    return t.Run();
  };
  RILL_ASSERT_OK_AND_ASSIGN(auto valid, run({2048, 1, 1}, {1, 1, 1}, "VALID"));
  ASSERT_EQ(valid[0].NumElements(), 1);
  EXPECT_EQ(static_cast<float>(valid[0].flat<half>()[0]), 2048.0f);
  RILL_ASSERT_OK_AND_ASSIGN(auto padded, run({1}, {INFINITY, 1, 2}, "SAME"));
  ASSERT_EQ(padded[0].NumElements(), 1);
  EXPECT_TRUE(std::isnan(static_cast<float>(padded[0].flat<half>()[0])));
}

// The same rounding over 11 channels (eight in one vector, three after it): channel c holds the
// 2048 + 1 + 1 sum scaled by a power of two 2^(c % 5 - 2) (s halfway between 2048s and its
// neighbour, a tie to even) and channel 9's right filter tap is inf, which over the
// SAME padding of the last output pixel gives NaN there (inf over the input elsewhere).
TEST(DepthwiseConv2dNativeOpTest, HalfRoundsEachTapOnEveryChannel) {
  constexpr int64_t kC = 11;
  std::vector<half> x(3 * kC), f(3 * kC);
  for (int64_t c = 0; c < kC; ++c) {
    const float s = std::ldexp(1.0f, static_cast<int>(c % 5) - 2);
    for (int64_t w = 0; w < 3; ++w) {
      x[w * kC + c] = half(w == 0 ? 2048 * s : s);
      f[w * kC + c] = half(1.0f);
    }
  }
  f[2 * kC + 9] = half(INFINITY);
  OpTester t("DepthwiseConv2dNative");
  t.Attr("T", DT_HALF)
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("padding", "SAME")
      .Input(Tensor::FromVector<half>(x, TensorShape({1, 1, 3, kC})))
      .Input(Tensor::FromVector<half>(f, TensorShape({1, 3, kC, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ASSERT_EQ(out[0].NumElements(), 3 * kC);
  for (int64_t c = 0; c < kC; ++c) {
    const float s = std::ldexp(1.0f, static_cast<int>(c % 5) - 2);
    // Pixel 1 sums all three taps: 2048s + s rounds back to 2048s, then + s again.
    // Channel 9's inf tap over an input pixel gives inf.
    const float want = c == 9 ? INFINITY : 2048 * s;
    EXPECT_EQ(static_cast<float>(out[0].flat<half>()[kC + c]), want) << c;
    // Pixel 0: the padding tap (0 * 1), then 2048s and s: 2048s.
    EXPECT_EQ(static_cast<float>(out[0].flat<half>()[c]), want) << c;
    // Pixel 2: s + s, then the padding times the right tap.
    const float last = static_cast<float>(out[0].flat<half>()[2 * kC + c]);
    if (c == 9) {
      EXPECT_TRUE(std::isnan(last));
    } else {
      EXPECT_EQ(last, 2 * s) << c;
    }
  }
}

// half with multiplier 1 and column stride 1 runs a whole output row per tap: against the
// definition (taps in (kh, kw) order from a zero accumulator, each a float multiply-add rounded
// to half, padding taps multiplied as zeros), on values whose sums round (odd multiples of 1/8
// past 1024), for SAME and VALID, row strides 1 and 2, a dilation, a batch, channel counts 3, 16
// and 20, maps narrower than the window's reach, and an inf weight (NaN where it reads padding,
// inf elsewhere) beside an inf input; multiplier 2 and column stride 2 (the per-pixel loop) too.
TEST(DepthwiseConv2dNativeOpTest, HalfRowsAreThePerTapDefinition) {
  struct Case {
    int64_t n, h, w, c, kh, kw, mult, stride_h, stride_w, dil;
    std::string padding;
  };
  const std::vector<Case> cases = {
      {2, 16, 16, 16, 3, 3, 1, 1, 1, 1, "SAME"},
      {1, 7, 9, 3, 3, 3, 1, 2, 1, 1, "SAME"},
      {1, 6, 5, 20, 3, 2, 1, 1, 1, 1, "VALID"},
      {1, 7, 8, 4, 3, 3, 1, 1, 1, 2, "SAME"},
      {1, 2, 2, 5, 5, 5, 1, 1, 1, 1, "SAME"},
      {1, 5, 6, 3, 3, 3, 2, 1, 1, 1, "SAME"},
      {1, 5, 7, 4, 3, 3, 1, 1, 2, 1, "SAME"},
      // A 1x257 window over a 1x2048x8 map: 257 taps times a row of 16,384 elements is more
      // than the row path's tiled filter may take, so the per-pixel loop runs; same values.
      {1, 1, 2048, 8, 1, 257, 1, 1, 1, 1, "SAME"},
  };
  for (const Case& k : cases) {
    for (const bool non_finite : {false, true}) {
      SCOPED_TRACE(std::to_string(k.h) + "x" + std::to_string(k.w) + "x" + std::to_string(k.c) +
                   " " + k.padding + (non_finite ? " with inf" : ""));
      const int64_t out_c = k.c * k.mult;
      std::vector<float> x(k.n * k.h * k.w * k.c), f(k.kh * k.kw * out_c);
      for (size_t i = 0; i < x.size(); ++i) {
        x[i] = (i % 3 == 0 ? 1024.0f : 0.0f) + static_cast<float>(2 * (i % 5) + 1) * 0.125f;
      }
      for (size_t i = 0; i < f.size(); ++i) {
        f[i] = static_cast<float>(static_cast<int>(i % 7) - 3) * 0.5f;
      }
      if (non_finite) {
        f[1] = INFINITY;  // tap (0, 0), channel 1
        x[2 * k.c + 1] = INFINITY;
      }
      // Geometry as TensorFlow's: SAME pads total / 2 before.
      auto out_size = [&](int64_t in, int64_t kk, int64_t stride, int64_t* pad) {
        const int64_t span = (kk - 1) * k.dil + 1;
        const int64_t out =
            k.padding == "SAME" ? (in + stride - 1) / stride : (in - span + stride) / stride;
        *pad = k.padding == "SAME" ? std::max<int64_t>((out - 1) * stride + span - in, 0) / 2 : 0;
        return out;
      };
      int64_t pad_h = 0, pad_w = 0;
      const int64_t oh = out_size(k.h, k.kh, k.stride_h, &pad_h);
      const int64_t ow = out_size(k.w, k.kw, k.stride_w, &pad_w);
      std::vector<float> want(k.n * oh * ow * out_c);
      for (int64_t b = 0; b < k.n; ++b)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t z = 0; z < ow; ++z)
            for (int64_t o = 0; o < out_c; ++o) {
              float acc = 0;
              for (int64_t i = 0; i < k.kh; ++i)
                for (int64_t j = 0; j < k.kw; ++j) {
                  const int64_t hh = y * k.stride_h - pad_h + i * k.dil;
                  const int64_t ww = z * k.stride_w - pad_w + j * k.dil;
                  const bool inside = hh >= 0 && hh < k.h && ww >= 0 && ww < k.w;
                  const float xv = inside ? static_cast<float>(half(
                                                x[((b * k.h + hh) * k.w + ww) * k.c + o / k.mult]))
                                          : 0.0f;
                  const float fv = static_cast<float>(half(f[(i * k.kw + j) * out_c + o]));
                  acc = static_cast<float>(half(acc + xv * fv));
                }
              want[((b * oh + y) * ow + z) * out_c + o] = acc;
            }
      OpTester t("DepthwiseConv2dNative");
      t.Attr("T", DT_HALF)
          .Attr("strides", std::vector<int64_t>{1, k.stride_h, k.stride_w, 1})
          .Attr("dilations", std::vector<int64_t>{1, k.dil, k.dil, 1})
          .Attr("padding", k.padding)
          .Input(Tensor::FromVector<half>(std::vector<half>(x.begin(), x.end()),
                                          TensorShape({k.n, k.h, k.w, k.c})))
          .Input(Tensor::FromVector<half>(std::vector<half>(f.begin(), f.end()),
                                          TensorShape({k.kh, k.kw, k.c, k.mult})));
      RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
      ASSERT_EQ(out[0].NumElements(), static_cast<int64_t>(want.size()));
      for (size_t i = 0; i < want.size(); ++i) {
        const float g = static_cast<float>(out[0].flat<half>()[i]);
        if (std::isnan(want[i])) {
          EXPECT_TRUE(std::isnan(g)) << i << ": " << g;
        } else {
          EXPECT_EQ(g, want[i]) << i;
        }
      }
    }
  }
}

TEST(DepthwiseConv2dNativeOpTest, FusedBiasAndRelu6AreAppliedPerChannel) {
  const Tensor in = Ramp(TensorShape({1, 4, 4, 3}), 9);
  const Tensor f = Ramp(TensorShape({3, 3, 3, 2}), 6);
  const Tensor bias = Tensor::FromVector<float>({-4, -1, 0, 0.5, 2, 7}, TensorShape({6}));
  RILL_ASSERT_OK_AND_ASSIGN(auto plain, Depthwise(in, f, 1, "SAME"));
  for (const auto& [act, lo, hi] : {std::tuple<std::string, float, float>{"", -1e9f, 1e9f},
                                    {"Relu", 0.f, 1e9f},
                                    {"Relu6", 0.f, 6.f}}) {
    std::vector<std::string> ops = {"BiasAdd"};
    if (!act.empty()) ops.push_back(act);
    RILL_ASSERT_OK_AND_ASSIGN(auto fused, FusedDepthwise(in, f, bias, ops));
    ASSERT_EQ(fused[0].shape(), TensorShape({1, 4, 4, 6}));
    int clipped = 0;
    for (int64_t i = 0; i < fused[0].NumElements(); ++i) {
      const float biased = plain[0].flat<float>()[i] + bias.flat<float>()[i % 6];
      const float want = std::min(std::max(biased, lo), hi);
      clipped += want != biased;
      EXPECT_EQ(fused[0].flat<float>()[i], want) << act << " [" << i << "]";
    }
    if (!act.empty()) EXPECT_GT(clipped, 0) << act << " never clipped: the case proves nothing";
  }
}

Tensor ToDouble(const Tensor& t) {
  std::vector<double> v(t.NumElements());
  for (int64_t i = 0; i < t.NumElements(); ++i) v[i] = t.flat<float>()[i];
  return Tensor::FromVector<double>(v, t.shape());
}

TEST(DepthwiseConv2dNativeOpTest, FusedDoubleRunsTheLoopKernelWithTheSameEpilogue) {
  // float runs on oneDNN, double on Rill's own loop: both must agree with the plain kernel.
  const Tensor in = Ramp(TensorShape({1, 5, 4, 2}), 9);
  const Tensor f = Ramp(TensorShape({3, 3, 2, 3}), 6);
  const Tensor bias = Tensor::FromVector<float>({-4, -1, 0, 0.5, 2, 7}, TensorShape({6}));
  OpTester plain("DepthwiseConv2dNative");
  plain.Attr("T", DT_DOUBLE)
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("padding", "SAME")
      .Input(ToDouble(in))
      .Input(ToDouble(f));
  RILL_ASSERT_OK_AND_ASSIGN(auto want, plain.Run());
  RILL_ASSERT_OK_AND_ASSIGN(
      auto got, FusedDepthwise(ToDouble(in), ToDouble(f), ToDouble(bias), {"BiasAdd", "Relu6"}));
  RILL_ASSERT_OK_AND_ASSIGN(auto got_float, FusedDepthwise(in, f, bias, {"BiasAdd", "Relu6"}));
  ASSERT_EQ(got[0].shape(), TensorShape({1, 5, 4, 6}));
  int clipped = 0;
  for (int64_t i = 0; i < got[0].NumElements(); ++i) {
    const double biased = want[0].flat<double>()[i] + bias.flat<float>()[i % 6];
    const double expected = std::min(std::max(biased, 0.0), 6.0);
    clipped += expected != biased;
    EXPECT_EQ(got[0].flat<double>()[i], expected) << i;
    EXPECT_NEAR(got_float[0].flat<float>()[i], expected, 1e-5) << i;
  }
  EXPECT_GT(clipped, 0);
}

TEST(DepthwiseConv2dNativeOpTest, FusedSwishAndHardSwishOnFloatAndDouble) {
  // float on oneDNN's eltwise post-ops, double on Rill's loop in the unfused kernels' order:
  // x * sigmoid(x), and x * (Relu6(x + 3) / 6).
  const Tensor in = Ramp(TensorShape({1, 5, 4, 2}), 9);
  const Tensor f = Ramp(TensorShape({3, 3, 2, 3}), 6);
  const Tensor bias = Tensor::FromVector<float>({-4, -1, 0, 0.5, 2, 7}, TensorShape({6}));
  OpTester plain_op("DepthwiseConv2dNative");
  plain_op.Attr("T", DT_DOUBLE)
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("padding", "SAME")
      .Input(ToDouble(in))
      .Input(ToDouble(f));
  RILL_ASSERT_OK_AND_ASSIGN(auto plain, plain_op.Run());
  for (const std::string act : {"_MklSwish", "_FusedHardSwish"}) {
    RILL_ASSERT_OK_AND_ASSIGN(
        auto got, FusedDepthwise(ToDouble(in), ToDouble(f), ToDouble(bias), {"BiasAdd", act}));
    RILL_ASSERT_OK_AND_ASSIGN(auto got_float, FusedDepthwise(in, f, bias, {"BiasAdd", act}));
    int below = 0, above = 0;  // inputs where the hard sigmoid is 0 and 1: both bends covered
    for (int64_t i = 0; i < got[0].NumElements(); ++i) {
      const double x = plain[0].flat<double>()[i] + bias.flat<float>()[i % 6];
      const double want = act == "_MklSwish" ? x * (1 / (1 + std::exp(-x)))
                                             : x * (std::min(std::max(x + 3, 0.0), 6.0) / 6);
      below += x < -3;
      above += x > 3;
      EXPECT_EQ(got[0].flat<double>()[i], want) << act << " " << i;
      EXPECT_NEAR(got_float[0].flat<float>()[i], want, 1e-5 * std::max(1.0, std::abs(want)))
          << act << " " << i;
    }
    EXPECT_GT(below, 0) << "the case proves nothing";
    EXPECT_GT(above, 0) << "the case proves nothing";
  }
}

TEST(DepthwiseConv2dNativeOpTest, FusedBiasOfTheWrongSizeAndUnknownFusionsAreErrors) {
  const Tensor in = Ramp(TensorShape({1, 4, 4, 3}), 9);
  const Tensor f = Ramp(TensorShape({3, 3, 3, 2}), 6);
  EXPECT_THAT(
      FusedDepthwise(in, f, Tensor::FromVector<float>({1, 2, 3}, TensorShape({3})), {"BiasAdd"}),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Must provide as many biases as the last dimension of the input "
                         "tensor: [3] vs. [6]")));
  EXPECT_THAT(FusedDepthwise(in, f, Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, TensorShape({6})),
                             {"BiasAdd", "Elu"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Fusion is not implemented: [BiasAdd,Elu]")));
}

// An input of zero channels (so a filter of zero elements) is refused, as TensorFlow's kernel
// does, not computed as an empty output.
TEST(DepthwiseConv2dNativeOpTest, FilterWithoutElementsIsTensorFlowsError) {
  for (const std::string padding : {"SAME", "VALID"}) {
    EXPECT_THAT(Depthwise(Tensor(DT_FLOAT, TensorShape({1, 4, 4, 0})),
                          Tensor(DT_FLOAT, TensorShape({2, 2, 0, 1})), 1, padding),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         "filter must not have zero elements (i.e. all dimensions must be "
                         "non-zero)"));
  }
}

TEST(DepthwiseConv2dNativeOpTest, DepthMismatchIsTensorFlowsError) {
  EXPECT_THAT(
      Depthwise(Ramp(TensorShape({1, 3, 3, 3}), 7), Ramp(TensorShape({2, 2, 2, 1}), 5), 1, "VALID"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("input and filter must have the same depth: 3 vs 2")));
}

TEST(DepthwiseBackpropTest, BackpropsAreTheAdjointsOfTheForwardPass) {
  // <dw(x, f), g> = <x, backprop_input(f, g)> = <f, backprop_filter(x, g)>.
  const Tensor x = Ramp(TensorShape({1, 4, 4, 2}), 7);
  const Tensor f = Ramp(TensorShape({3, 3, 2, 2}), 5);
  const Tensor g = Ramp(TensorShape({1, 2, 2, 4}), 3);  // SAME, stride 2
  auto dot = [](const Tensor& a, const Tensor& b) {
    double s = 0;
    for (int64_t i = 0; i < a.NumElements(); ++i) s += a.flat<float>()[i] * b.flat<float>()[i];
    return s;
  };
  RILL_ASSERT_OK_AND_ASSIGN(auto y, Depthwise(x, f, 2, "SAME"));
  OpTester bi("DepthwiseConv2dNativeBackpropInput");
  bi.Attr("T", DT_FLOAT).Attr("strides", std::vector<int64_t>{1, 2, 2, 1}).Attr("padding", "SAME");
  bi.Input(Tensor::FromVector<int32_t>({1, 4, 4, 2}, TensorShape({4}))).Input(f).Input(g);
  RILL_ASSERT_OK_AND_ASSIGN(auto dx, bi.Run());
  OpTester bf("DepthwiseConv2dNativeBackpropFilter");
  bf.Attr("T", DT_FLOAT).Attr("strides", std::vector<int64_t>{1, 2, 2, 1}).Attr("padding", "SAME");
  bf.Input(x).Input(Tensor::FromVector<int32_t>({3, 3, 2, 2}, TensorShape({4}))).Input(g);
  RILL_ASSERT_OK_AND_ASSIGN(auto df, bf.Run());
  EXPECT_DOUBLE_EQ(dot(y[0], g), dot(x, dx[0]));
  EXPECT_DOUBLE_EQ(dot(y[0], g), dot(f, df[0]));
}

}  // namespace
}  // namespace rill
