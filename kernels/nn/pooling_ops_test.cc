#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/half.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor I32(std::vector<int32_t> v) {
  return Tensor::FromVector<int32_t>(v, TensorShape({static_cast<int64_t>(v.size())}));
}

absl::StatusOr<std::vector<Tensor>> Pool(const std::string& op, const Tensor& x,
                                         std::vector<int64_t> ksize, std::vector<int64_t> strides,
                                         const std::string& padding,
                                         std::vector<int64_t> explicit_paddings = {},
                                         const std::string& format = "NHWC") {
  OpTester t(op);
  t.Attr("T", x.dtype())
      .Attr("ksize", ksize)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Attr("data_format", format)
      .Input(x);
  if (op == "MaxPool") t.Attr("explicit_paddings", explicit_paddings);
  return t.Run();
}

TEST(MaxPoolOpTest, TakesTheMaxOfEachWindow) {
  std::vector<float> ramp(16);
  for (int i = 0; i < 16; ++i) ramp[i] = static_cast<float>(i);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Pool("MaxPool", F(ramp, TensorShape({1, 4, 4, 1})),
                                           {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID"));
  ExpectTensorEqual(out[0], F({5, 7, 13, 15}, TensorShape({1, 2, 2, 1})));
}

TEST(MaxPoolOpTest, IgnoresPadding) {
  // SAME, 2x2 stride 1 over 3x3: padding after; negative inputs would lose to a padded zero.
  const Tensor x = F({-1, -2, -3, -4, -5, -6, -7, -8, -9}, TensorShape({1, 3, 3, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Pool("MaxPool", x, {1, 2, 2, 1}, {1, 1, 1, 1}, "SAME"));
  ExpectTensorEqual(out[0], F({-1, -2, -3, -4, -5, -6, -7, -8, -9}, TensorShape({1, 3, 3, 1})));
  // EXPLICIT: one padded row and column on each side, 2x2 stride 2: each window holds one input.
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Pool("MaxPool", F({-1, -2, -3, -4}, TensorShape({1, 2, 2, 1})), {1, 2, 2, 1},
                {1, 2, 2, 1}, "EXPLICIT", {0, 0, 1, 1, 1, 1, 0, 0}));
  ExpectTensorEqual(out[0], F({-1, -2, -3, -4}, TensorShape({1, 2, 2, 1})));
}

TEST(MaxPoolOpTest, PoolsAcrossDepth) {
  const Tensor x = F({1, 5, 2, 3, 8, 0, -1, -2}, TensorShape({1, 1, 2, 4}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Pool("MaxPool", x, {1, 1, 1, 2}, {1, 1, 1, 2}, "VALID"));
  ExpectTensorEqual(out[0], F({5, 3, 8, -1}, TensorShape({1, 1, 2, 2})));
}

TEST(MaxPoolOpTest, IntegerAndHalfTypes) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      Pool("MaxPool", Tensor::FromVector<int32_t>({3, -7, 9, 1}, TensorShape({1, 2, 2, 1})),
           {1, 2, 2, 1}, {1, 1, 1, 1}, "VALID"));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({9}, TensorShape({1, 1, 1, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Pool("MaxPool", MakeTensor(DT_HALF, TensorShape({1, 1, 2, 1}), {0.5, -2}), {1, 1, 2, 1},
                {1, 1, 1, 1}, "VALID"));
  ExpectTensorEqual(out[0], MakeTensor(DT_HALF, TensorShape({1, 1, 1, 1}), {0.5}));
}

TEST(MaxPoolV2OpTest, ReadsKsizeAndStridesFromInputs) {
  std::vector<float> ramp(16);
  for (int i = 0; i < 16; ++i) ramp[i] = static_cast<float>(i);
  OpTester t("MaxPoolV2");
  t.Attr("T", DT_FLOAT)
      .Attr("padding", "VALID")
      .Input(F(ramp, TensorShape({1, 4, 4, 1})))
      .Input(I32({1, 2, 2, 1}))
      .Input(I32({1, 2, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({5, 7, 13, 15}, TensorShape({1, 2, 2, 1})));

  OpTester bad("MaxPoolV2");
  bad.Attr("T", DT_FLOAT)
      .Attr("padding", "VALID")
      .Input(F(ramp, TensorShape({1, 4, 4, 1})))
      .Input(I32({1, 2, 2}))
      .Input(I32({1, 2, 2, 1}));
  EXPECT_THAT(bad.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  "Sliding window ksize field must specify 4 dimensions"));
}

TEST(AvgPoolOpTest, DividesByTheNumberOfNonPaddingElements) {
  const Tensor x = F({1, 2, 3, 4, 5, 6, 7, 8, 9}, TensorShape({1, 3, 3, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Pool("AvgPool", x, {1, 2, 2, 1}, {1, 1, 1, 1}, "SAME"));
  ExpectTensorEqual(out[0], F({3, 4, 4.5, 6, 7, 7.5, 7.5, 8.5, 9}, TensorShape({1, 3, 3, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Pool("AvgPool", MakeTensor(DT_HALF, TensorShape({1, 1, 2, 1}), {1, 2}), {1, 1, 2, 1},
                {1, 1, 1, 1}, "VALID"));
  ExpectTensorEqual(out[0], MakeTensor(DT_HALF, TensorShape({1, 1, 1, 1}), {1.5}));
}

// The channel loops run at the CPU's vector width: every width gives the baseline's bits (NaN
// skipped by max, kept by the average), over 37 channels (a vector and a tail).
TEST(PoolOpTest, EveryVectorWidthGivesTheSameResults) {
  std::vector<float> v(2 * 7 * 9 * 37);
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = i % 53 == 5 ? std::numeric_limits<float>::quiet_NaN()
                       : static_cast<float>((i * 29) % 97) * 0.37f - 17.f;
  }
  const Tensor x = F(v, TensorShape({2, 7, 9, 37}));
  for (const std::string op : {"MaxPool", "AvgPool"}) {
    for (int64_t k : {2, 3}) {
      SCOPED_TRACE(op + " " + std::to_string(k));
      std::vector<Tensor> base;
      {
        ScopedSimdLevelForTesting baseline(SimdLevel::kBaseline);
        RILL_ASSERT_OK_AND_ASSIGN(base, Pool(op, x, {1, k, k, 1}, {1, k - 1, k - 1, 1}, "SAME"));
      }
      RILL_ASSERT_OK_AND_ASSIGN(auto wide, Pool(op, x, {1, k, k, 1}, {1, k - 1, k - 1, 1}, "SAME"));
      ASSERT_EQ(base[0].NumElements(), wide[0].NumElements());
      EXPECT_EQ(std::memcmp(base[0].flat<float>().data(), wide[0].flat<float>().data(),
                            base[0].NumElements() * sizeof(float)),
                0);
    }
  }
}

// A float pooling as TensorFlow defines it, one output element at a time: the window's
// in-bounds elements row by row from 0 (the lowest float for max, which skips NaN), the average
// divided by their count.
std::vector<float> ReferencePool(bool max, const std::vector<float>& x, int64_t batch, int64_t h,
                                 int64_t w, int64_t c, int64_t k, int64_t stride, int64_t pad_h,
                                 int64_t pad_w, int64_t out_h, int64_t out_w,
                                 float lowest = std::numeric_limits<float>::lowest()) {
  std::vector<float> out;
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t oh = 0; oh < out_h; ++oh) {
      for (int64_t ow = 0; ow < out_w; ++ow) {
        for (int64_t ch = 0; ch < c; ++ch) {
          float acc = max ? lowest : 0.f;
          int64_t count = 0;
          for (int64_t i = oh * stride - pad_h; i < oh * stride - pad_h + k; ++i) {
            for (int64_t j = ow * stride - pad_w; j < ow * stride - pad_w + k; ++j) {
              if (i < 0 || i >= h || j < 0 || j >= w) continue;
              const float v = x[((n * h + i) * w + j) * c + ch];
              acc = max ? (acc < v ? v : acc) : acc + v;
              ++count;
            }
          }
          out.push_back(max ? acc : acc / static_cast<float>(count));
        }
      }
    }
  }
  return out;
}

// Float pooling keeps its window sums in vector registers in blocks of 64 and 16 channels and
// a tail: every channel count, padding edge and vector width gives the reference's bits (-0,
// infinities and NaN among the inputs).
TEST(PoolOpTest, FloatWindowsMatchTheReferenceBitForBit) {
  struct Window {
    int64_t k, stride;
    std::string padding;
  };
  const std::vector<Window> windows = {{3, 1, "SAME"},  {2, 2, "VALID"}, {3, 2, "SAME"},
                                       {3, 2, "VALID"}, {1, 2, "VALID"}, {5, 1, "SAME"}};
  const float specials[] = {-0.f, std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(), 3e38f};
  for (int64_t c : {1, 13, 16, 37, 64, 80, 150}) {
    const int64_t batch = 2, h = 6, w = 7;
    std::vector<float> v(batch * h * w * c);
    for (size_t i = 0; i < v.size(); ++i) {
      v[i] =
          i % 41 == 7 ? specials[(i / 41) % 5] : static_cast<float>((i * 37) % 101) * 0.13f - 6.f;
    }
    const Tensor x = F(v, TensorShape({batch, h, w, c}));
    for (const Window& win : windows) {
      const bool same = win.padding == "SAME";
      const int64_t out_h = same ? (h + win.stride - 1) / win.stride : (h - win.k) / win.stride + 1;
      const int64_t out_w = same ? (w + win.stride - 1) / win.stride : (w - win.k) / win.stride + 1;
      const int64_t pad_h =
          same ? std::max<int64_t>(0, (out_h - 1) * win.stride + win.k - h) / 2 : 0;
      const int64_t pad_w =
          same ? std::max<int64_t>(0, (out_w - 1) * win.stride + win.k - w) / 2 : 0;
      for (const bool max : {true, false}) {
        const std::vector<float> want =
            ReferencePool(max, v, batch, h, w, c, win.k, win.stride, pad_h, pad_w, out_h, out_w);
        for (SimdLevel level : {SimdLevel::kBaseline, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
          SCOPED_TRACE(std::string(max ? "MaxPool" : "AvgPool") + " c=" + std::to_string(c) +
                       " k=" + std::to_string(win.k) + " s=" + std::to_string(win.stride) + " " +
                       win.padding + " " + SimdLevelName(level));
          ScopedSimdLevelForTesting cap(level);
          RILL_ASSERT_OK_AND_ASSIGN(auto out,
                                    Pool(max ? "MaxPool" : "AvgPool", x, {1, win.k, win.k, 1},
                                         {1, win.stride, win.stride, 1}, win.padding));
          ASSERT_EQ(out[0].shape(), TensorShape({batch, out_h, out_w, c}));
          EXPECT_EQ(
              std::memcmp(out[0].flat<float>().data(), want.data(), want.size() * sizeof(float)),
              0);
        }
      }
    }
  }
}

// Equal bits, or both NaN (which operand's NaN a sum of two NaNs keeps is the compiler's choice).
bool SameHalf(half a, half b) {
  auto nan = [](half h) { return (h.bits & 0x7c00) == 0x7c00 && (h.bits & 0x3ff) != 0; };
  return a.bits == b.bits || (nan(a) && nan(b));
}

// half pools in float on the input widened by F16C and rounds each result once to half: every
// channel count, padding edge and vector width gives the reference's bits on the halves' float
// values (max from half's lowest, -65504, so a window of -inf and NaN gives -65504; average
// divided in float), with -0, +-inf, NaN, 65504 and subnormal halves among the inputs.
TEST(PoolOpTest, HalfWindowsMatchTheFloatReferenceRoundedOnce) {
  const uint16_t specials[] = {0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0x0001, 0x83ff, 0xfe01};
  for (int64_t c : {1, 13, 16, 37, 64, 80, 150}) {
    const int64_t batch = 2, h = 6, w = 7;
    std::vector<float> v(batch * h * w * c);
    std::vector<half> hv(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      hv[i] = i % 23 == 7 ? half::FromBits(specials[(i / 23) % 8])
                          : half(static_cast<float>((i * 37) % 101) * 0.13f - 6.f);
      v[i] = static_cast<float>(hv[i]);
    }
    // One window of -inf and NaN only (max: -65504).
    for (int64_t j = 0; j < 2; ++j) {
      hv[j * w * c] = half::FromBits(0xfc00);
      hv[j * w * c + c] = half::FromBits(0x7e00);
      v[j * w * c] = static_cast<float>(hv[j * w * c]);
      v[j * w * c + c] = static_cast<float>(hv[j * w * c + c]);
    }
    Tensor x(DT_HALF, TensorShape({batch, h, w, c}));
    std::copy(hv.begin(), hv.end(), x.flat<half>().data());
    for (int64_t k : {2, 3}) {
      for (int64_t stride : {1, 2}) {
        for (const std::string padding : {"SAME", "VALID"}) {
          const bool same = padding == "SAME";
          const int64_t out_h = same ? (h + stride - 1) / stride : (h - k) / stride + 1;
          const int64_t out_w = same ? (w + stride - 1) / stride : (w - k) / stride + 1;
          const int64_t pad_h = same ? std::max<int64_t>(0, (out_h - 1) * stride + k - h) / 2 : 0;
          const int64_t pad_w = same ? std::max<int64_t>(0, (out_w - 1) * stride + k - w) / 2 : 0;
          for (const bool max : {true, false}) {
            const std::vector<float> want = ReferencePool(max, v, batch, h, w, c, k, stride, pad_h,
                                                          pad_w, out_h, out_w, -65504.f);
            for (SimdLevel level : {SimdLevel::kBaseline, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
              SCOPED_TRACE(std::string(max ? "MaxPool" : "AvgPool") + " c=" + std::to_string(c) +
                           " k=" + std::to_string(k) + " s=" + std::to_string(stride) + " " +
                           padding + " " + SimdLevelName(level));
              ScopedSimdLevelForTesting cap(level);
              RILL_ASSERT_OK_AND_ASSIGN(auto out, Pool(max ? "MaxPool" : "AvgPool", x, {1, k, k, 1},
                                                       {1, stride, stride, 1}, padding));
              ASSERT_EQ(out[0].shape(), TensorShape({batch, out_h, out_w, c}));
              const half* got = out[0].flat<half>().data();
              int mismatches = 0;
              for (size_t i = 0; i < want.size(); ++i) {
                if (!SameHalf(got[i], half(want[i])) && ++mismatches <= 3) {
                  ADD_FAILURE() << "element " << i << ": " << got[i].bits << " vs "
                                << half(want[i]).bits;
                }
              }
              EXPECT_EQ(mismatches, 0);
            }
          }
        }
      }
    }
  }
}

TEST(PoolOpTest, ErrorsAreTensorFlows) {
  const Tensor x = F({1, 2, 3, 4}, TensorShape({1, 2, 2, 1}));
  EXPECT_THAT(Pool("MaxPool", x, {1, 2, 2, 1}, {1, 1, 1, 1}, "VALID", {}, "NCHW"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Default MaxPoolingOp only supports NHWC on device type CPU"));
  EXPECT_THAT(Pool("AvgPool", x, {1, 2, 2, 1}, {1, 1, 1, 1}, "VALID", {}, "NCHW"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Default AvgPoolingOp only supports NHWC on device type CPU"));
  EXPECT_THAT(Pool("MaxPool", x, {2, 1, 1, 1}, {1, 1, 1, 1}, "VALID"),
              StatusIs(absl::StatusCode::kUnimplemented,
                       "Pooling is not yet supported on the batch dimension."));
  EXPECT_THAT(Pool("AvgPool", F({1, 2}, TensorShape({1, 2})), {1, 1, 1, 1}, {1, 1, 1, 1}, "VALID"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("4-dimensional")));
  EXPECT_THAT(
      Pool("MaxPool", x, {1, 2, 2, 2}, {1, 1, 1, 2}, "VALID"),
      StatusIs(absl::StatusCode::kUnimplemented, HasSubstr("exactly one of pooling across depth")));
  EXPECT_THAT(
      Pool("AvgPool", F({1, 2}, TensorShape({1, 1, 1, 2})), {1, 1, 1, 2}, {1, 1, 1, 2}, "VALID"),
      StatusIs(absl::StatusCode::kUnimplemented, HasSubstr("Non-spatial pooling")));
  EXPECT_THAT(Pool("MaxPool", x, {1, 4, 4, 1}, {1, 1, 1, 1}, "VALID"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Computed output size would be negative")));
}

TEST(PoolGradTest, MaxRoutesToTheFirstMaximumAvgSpreadsEvenly) {
  // 1x2x4x1 input, 2x2 windows, stride 2: two windows.
  const Tensor x = Tensor::FromVector<float>({1, 5, 2, 2, 5, 0, 2, 1}, TensorShape({1, 2, 4, 1}));
  const Tensor grad = Tensor::FromVector<float>({10, 20}, TensorShape({1, 1, 2, 1}));
  const std::vector<int64_t> window = {1, 2, 2, 1};
  OpTester max_grad("MaxPoolGrad");
  max_grad.Attr("T", DT_FLOAT).Attr("ksize", window).Attr("strides", window);
  max_grad.Attr("padding", "VALID").Input(x);
  max_grad.Input(Tensor::FromVector<float>({5, 2}, TensorShape({1, 1, 2, 1}))).Input(grad);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, max_grad.Run());
  // Window 1 holds 5 twice: the first (row 0) gets the gradient; window 2's ties go to row 0 too.
  ExpectTensorEqual(
      out[0], Tensor::FromVector<float>({0, 10, 20, 0, 0, 0, 0, 0}, TensorShape({1, 2, 4, 1})));
  OpTester avg_grad("AvgPoolGrad");
  avg_grad.Attr("T", DT_FLOAT).Attr("ksize", window).Attr("strides", window);
  avg_grad.Attr("padding", "VALID");
  avg_grad.Input(Tensor::FromVector<int32_t>({1, 2, 4, 1}, TensorShape({4}))).Input(grad);
  RILL_ASSERT_OK_AND_ASSIGN(out, avg_grad.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({2.5, 2.5, 5, 5, 2.5, 2.5, 5, 5},
                                                      TensorShape({1, 2, 4, 1})));
}

TEST(PoolGradTest, MaxPoolGradRefusesAnOrigOutputOfAnotherShape) {
  const Tensor x =
      F({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, TensorShape({1, 4, 4, 1}));
  const std::vector<int64_t> window = {1, 2, 2, 1};
  for (const TensorShape& orig_output : {TensorShape({1, 3, 3, 1}), TensorShape({1, 0, 2, 1})}) {
    OpTester t("MaxPoolGrad");
    t.Attr("T", DT_FLOAT).Attr("ksize", window).Attr("strides", window).Attr("padding", "VALID");
    t.Input(x)
        .Input(Tensor::FromVector<float>(std::vector<float>(orig_output.num_elements(), 1.f),
                                         orig_output))
        .Input(F({1, 1, 1, 1}, TensorShape({1, 2, 2, 1})));
    EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  "Expected orig_output shape to be [1,2,2,1], but got " +
                                      orig_output.DebugString()));
  }
}

}  // namespace
}  // namespace rill
