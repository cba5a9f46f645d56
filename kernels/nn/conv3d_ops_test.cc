// What the recorded cases cannot show: the NCDHW refusals (TensorFlow's CPU kernels have none),
// a multi-threaded Conv3D agreeing with the single-threaded one, and pools over more channels than
// the recorded shapes have.
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

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Ramp(TensorShape s) {
  std::vector<float> v(s.num_elements());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(static_cast<int>(i * 7 % 5) - 2);
  return Tensor::FromVector<float>(v, s);
}

TEST(Conv3DTest, NcdhwIsRefused) {
  OpTester conv("Conv3D");
  conv.Attr("T", DT_FLOAT)
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1, 1})
      .Attr("padding", std::string("VALID"))
      .Attr("data_format", std::string("NCDHW"))
      .Input(Ramp(TensorShape({1, 1, 2, 2, 2})))
      .Input(Ramp(TensorShape({1, 1, 1, 1, 1})));
  EXPECT_THAT(conv.Run(), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("NDHWC")));
  OpTester pool("MaxPool3D");
  pool.Attr("T", DT_FLOAT)
      .Attr("ksize", std::vector<int64_t>{1, 1, 1, 1, 1})
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1, 1})
      .Attr("padding", std::string("VALID"))
      .Attr("data_format", std::string("NCDHW"))
      .Input(Ramp(TensorShape({1, 1, 2, 2, 2})));
  EXPECT_THAT(pool.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                   "Default Pooling3DOp only supports NDHWC on device type CPU"));
}

// TensorFlow reads the 3-D window attrs as int32 (its shape functions' texts); a pool with a
// ksize of 2^63 - 1 ran.
TEST(Conv3DTest, WindowAttrsPastInt32AreTensorFlowsError) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  for (const char* op : {"MaxPool3D", "AvgPool3D"}) {
    OpTester pool(op);
    pool.Attr("T", DT_FLOAT)
        .Attr("ksize", std::vector<int64_t>{1, max, 1, 1, 1})
        .Attr("strides", std::vector<int64_t>{1, 1, 1, 1, 1})
        .Attr("padding", std::string("SAME"))
        .Input(Ramp(TensorShape({1, 2, 2, 2, 1})));
    EXPECT_THAT(pool.Run(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         "Attr ksize has value 9223372036854775807 out of range for an int32"))
        << op;
  }
  OpTester conv("Conv3D");
  conv.Attr("T", DT_FLOAT)
      .Attr("strides", std::vector<int64_t>{1, 2147483648, 1, 1, 1})
      .Attr("padding", std::string("SAME"))
      .Input(Ramp(TensorShape({1, 2, 2, 2, 1})))
      .Input(Ramp(TensorShape({1, 1, 1, 1, 1})));
  EXPECT_THAT(conv.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                   "Attr strides has value 2147483648 out of range for an int32"));
}

TEST(Conv3DTest, ThreadsAgree) {
  const Tensor x = Ramp(TensorShape({2, 9, 8, 7, 3}));
  const Tensor f = Ramp(TensorShape({3, 2, 3, 3, 4}));
  auto run = [&](int threads) {
    OpTester t("Conv3D");
    t.Attr("T", DT_FLOAT)
        .Attr("strides", std::vector<int64_t>{1, 2, 1, 2, 1})
        .Attr("padding", std::string("SAME"))
        .Input(x)
        .Input(f);
    t.SetIntraOpThreads(threads);
    return t.Run();
  };
  RILL_ASSERT_OK_AND_ASSIGN(auto one, run(1));
  RILL_ASSERT_OK_AND_ASSIGN(auto four, run(4));
  EXPECT_EQ(one[0].shape(), TensorShape({2, 5, 8, 4, 4}));
  ExpectTensorEqual(four[0], one[0]);  // small integers: exact in any order
}

// Channel counts that fill the pools' register blocks of 32 (40: one block and a tail of 8; 64: two
// blocks), with SAME windows cut at the edges, against the definition.
absl::StatusOr<std::vector<Tensor>> MaxPool3D(std::vector<float> x, TensorShape s,
                                              std::vector<int64_t> ksize, std::string padding) {
  OpTester t("MaxPool3D");
  t.Attr("T", DT_FLOAT)
      .Attr("ksize", std::move(ksize))
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1, 1})
      .Attr("padding", std::move(padding))
      .Input(Tensor::FromVector<float>(std::move(x), s));
  return t.Run();
}

// Expected 'N' (NaN), 'L' (lowest finite), 'I' (-inf) or the number itself.
void ExpectPattern(const Tensor& got, const std::vector<float>& want) {
  ASSERT_EQ(got.NumElements(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    const float g = got.flat<float>()[i];
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(g)) << "element " << i << ": " << g;
    } else {
      EXPECT_EQ(g, want[i]) << "element " << i;
    }
  }
}

// TensorFlow 2.21's results (tf.nn.max_pool3d on its CPU kernel, Eigen with 8-float vectors).
TEST(Pool3DTest, MaxPoolNaNAndPaddingAreTensorFlows) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float lowest = std::numeric_limits<float>::lowest();
  // All NaN, 1x1x1 windows, 4 pixels of 12 channels: aligned groups of 8 inside one pixel skip
  // NaN (-inf), groups straddling two pixels keep it.
  {
    RILL_ASSERT_OK_AND_ASSIGN(auto out,
                              MaxPool3D(std::vector<float>(48, nan), TensorShape({1, 1, 1, 4, 12}),
                                        {1, 1, 1, 1, 1}, "VALID"));
    std::vector<float> want;
    for (int g = 0; g < 6; ++g) want.insert(want.end(), 8, g % 3 == 1 ? nan : -inf);
    ExpectPattern(out[0], want);
  }
  // One channel (every group element-wise): a NaN kept when last, dropped by a later number or
  // by SAME padding (the lowest finite value).
  {
    RILL_ASSERT_OK_AND_ASSIGN(
        auto out, MaxPool3D({0, 0, nan}, TensorShape({1, 1, 1, 3, 1}), {1, 1, 1, 3, 1}, "SAME"));
    ExpectPattern(out[0], {0, nan, lowest});
  }
  // The window in depth, row, column order: after the NaN at (1, 1) come (1, 2), (2, 0), ...
  {
    std::vector<float> x(9, -100);
    x[4] = nan;
    x[6] = 9;  // (2, 0)
    x[2] = 7;  // (0, 2)
    RILL_ASSERT_OK_AND_ASSIGN(auto out,
                              MaxPool3D(x, TensorShape({1, 1, 3, 3, 1}), {1, 1, 3, 3, 1}, "VALID"));
    ExpectPattern(out[0], {9});
  }
  // 16 channels of NaN (vector groups): -inf where no padding, the lowest finite value beside it.
  {
    RILL_ASSERT_OK_AND_ASSIGN(auto out,
                              MaxPool3D(std::vector<float>(48, nan), TensorShape({1, 1, 1, 3, 16}),
                                        {1, 1, 1, 3, 1}, "SAME"));
    std::vector<float> want;
    for (const float v : {lowest, -inf, lowest}) want.insert(want.end(), 16, v);
    ExpectPattern(out[0], want);
  }
}

// Conv3DBackpropInputV2 on float: finite weights take oneDNN's deconvolution, a filter with an inf
// or NaN weight the im2col path; both against the definition (dyadic values: every sum exact),
// with a 3x3x3 stride-2 SAME filter whose windows leave no input element out.
TEST(Conv3DTest, BackpropInputOfFiniteAndNonFiniteFiltersIsTheDefinition) {
  const int64_t n = 2, d = 5, h = 4, w = 6, ci = 3, co = 5, k = 3;
  const int64_t od = 3, oh = 2, ow = 3;  // ceil(in / 2)
  const int64_t pd = ((od - 1) * 2 + k - d) / 2, ph = ((oh - 1) * 2 + k - h) / 2,
                pw = ((ow - 1) * 2 + k - w) / 2;
  std::vector<float> dy(n * od * oh * ow * co);
  for (size_t i = 0; i < dy.size(); ++i) dy[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
  for (const float bad :
       {0.5f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
    SCOPED_TRACE(bad);
    std::vector<float> f(k * k * k * ci * co);
    for (size_t i = 0; i < f.size(); ++i) {
      f[i] = static_cast<float>(static_cast<int>(i * 5 % 9) - 4) * 0.25f;
    }
    f[7] = bad;
    OpTester t("Conv3DBackpropInputV2");
    t.Attr("T", DT_FLOAT)
        .Attr("strides", std::vector<int64_t>{1, 2, 2, 2, 1})
        .Attr("padding", std::string("SAME"))
        .Input(Tensor::FromVector<int32_t>(
            {int32_t{n}, int32_t{d}, int32_t{h}, int32_t{w}, int32_t{ci}}, TensorShape({5})))
        .Input(Tensor::FromVector<float>(f, TensorShape({k, k, k, ci, co})))
        .Input(Tensor::FromVector<float>(dy, TensorShape({n, od, oh, ow, co})));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    std::vector<float> want(n * d * h * w * ci, 0.f);
    for (int64_t b = 0; b < n; ++b)
      for (int64_t a = 0; a < od; ++a)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t x = 0; x < ow; ++x)
            for (int64_t kd = 0; kd < k; ++kd)
              for (int64_t kh = 0; kh < k; ++kh)
                for (int64_t kw = 0; kw < k; ++kw) {
                  const int64_t id = a * 2 - pd + kd, ih = y * 2 - ph + kh, iw = x * 2 - pw + kw;
                  if (id < 0 || id >= d || ih < 0 || ih >= h || iw < 0 || iw >= w) continue;
                  for (int64_t c = 0; c < ci; ++c)
                    for (int64_t o = 0; o < co; ++o) {
                      want[(((b * d + id) * h + ih) * w + iw) * ci + c] +=
                          dy[(((b * od + a) * oh + y) * ow + x) * co + o] *
                          f[(((kd * k + kh) * k + kw) * ci + c) * co + o];
                    }
                }
    ASSERT_EQ(out[0].NumElements(), static_cast<int64_t>(want.size()));
    for (size_t i = 0; i < want.size(); ++i) {
      const float got = out[0].flat<float>()[i];
      if (std::isnan(want[i])) {
        EXPECT_TRUE(std::isnan(got)) << i << ": " << got;
      } else {
        EXPECT_EQ(got, want[i]) << i;
      }
    }
  }
}

// Channel counts whose groups of 8 straddle pixels (3: every element; 5 and 12: some), no NaN:
// each element is TensorFlow's max(x, acc) over the window in order, which keeps the last of
// equal zeros (-0 after +0 gives -0, +0 after -0 gives +0), and SAME padding takes part as the
// lowest finite value (a window of -inf beside the edge gives it). Against that definition for
// every element, including those of the vector groups, whose windows here hold no tie.
TEST(Pool3DTest, MaxPoolOverStraddlingGroupsWithoutNaNIsTensorFlows) {
  const float inf = std::numeric_limits<float>::infinity();
  for (const int64_t c : {3, 5, 12}) {
    SCOPED_TRACE(c);
    const int64_t d = 2, h = 3, w = 4;
    std::vector<float> x(d * h * w * c);
    for (size_t i = 0; i < x.size(); ++i) {
      x[i] = static_cast<float>(static_cast<int>(i * 37 % 23) - 11) * 0.25f;  // 0 at 11, 34, ...
    }
    if (c == 3) {  // channel 0: zeros of both signs only, so every window's max is a tie
      for (size_t i = 0; i < x.size(); i += 3) x[i] = (i / 3) % 3 == 0 ? -0.0f : 0.0f;
      for (size_t i = 1; i < x.size(); i += 3) x[i] = -inf;  // channel 1: -inf everywhere
    }
    RILL_ASSERT_OK_AND_ASSIGN(auto out,
                              MaxPool3D(x, TensorShape({1, d, h, w, c}), {1, 2, 2, 3, 1}, "SAME"));
    ASSERT_EQ(out[0].NumElements(), d * h * w * c);
    // SAME, stride 1: the window starts at o - (k - 1) / 2.
    for (int64_t a = 0; a < d; ++a) {
      for (int64_t b = 0; b < h; ++b) {
        for (int64_t e = 0; e < w; ++e) {
          for (int64_t ch = 0; ch < c; ++ch) {
            float acc = -inf;
            for (int64_t i = a; i < a + 2; ++i) {
              for (int64_t j = b; j < b + 2; ++j) {
                for (int64_t k = e - 1; k < e + 2; ++k) {
                  const bool inside = i < d && j < h && k >= 0 && k < w;
                  const float v = inside ? x[((i * h + j) * w + k) * c + ch]
                                         : std::numeric_limits<float>::lowest();
                  acc = acc > v ? acc : v;
                }
              }
            }
            const float got = out[0].flat<float>()[((a * h + b) * w + e) * c + ch];
            EXPECT_EQ(got, acc) << a << "," << b << "," << e << "," << ch;
            EXPECT_EQ(std::signbit(got), std::signbit(acc))
                << a << "," << b << "," << e << "," << ch;
          }
        }
      }
    }
  }
}

TEST(Pool3DTest, WideChannelsMatchTheDefinition) {
  for (const bool max : {true, false}) {
    for (const int64_t c : {40, 64}) {
      const int64_t d = 3, h = 5, w = 4;
      const Tensor x = Ramp(TensorShape({1, d, h, w, c}));
      OpTester t(max ? "MaxPool3D" : "AvgPool3D");
      t.Attr("T", DT_FLOAT)
          .Attr("ksize", std::vector<int64_t>{1, 2, 3, 2, 1})
          .Attr("strides", std::vector<int64_t>{1, 2, 2, 2, 1})
          .Attr("padding", std::string("SAME"))
          .Input(x);
      RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
      // SAME with stride 2: out = ceil(in / 2); the window starts at o * 2 - pad_before, where
      // pad_before = (total padding) / 2 and total = max((out - 1) * 2 + k - in, 0).
      const int64_t od = 2, oh = 3, ow = 2;
      const int64_t pd = std::max<int64_t>((od - 1) * 2 + 2 - d, 0) / 2;
      const int64_t ph = std::max<int64_t>((oh - 1) * 2 + 3 - h, 0) / 2;
      const int64_t pw = std::max<int64_t>((ow - 1) * 2 + 2 - w, 0) / 2;
      const float* in = x.flat<float>().data();
      std::vector<float> want;
      for (int64_t a = 0; a < od; ++a) {
        for (int64_t b = 0; b < oh; ++b) {
          for (int64_t e = 0; e < ow; ++e) {
            for (int64_t ch = 0; ch < c; ++ch) {
              float acc = max ? std::numeric_limits<float>::lowest() : 0.0f;
              int64_t count = 0;
              for (int64_t i = a * 2 - pd; i < a * 2 - pd + 2; ++i) {
                for (int64_t j = b * 2 - ph; j < b * 2 - ph + 3; ++j) {
                  for (int64_t k = e * 2 - pw; k < e * 2 - pw + 2; ++k) {
                    if (i < 0 || i >= d || j < 0 || j >= h || k < 0 || k >= w) continue;
                    const float v = in[((i * h + j) * w + k) * c + ch];
                    acc = max ? std::max(acc, v) : acc + v;
                    ++count;
                  }
                }
              }
              want.push_back(max ? acc : acc / static_cast<float>(count));
            }
          }
        }
      }
      ExpectTensorEqual(out[0], Tensor::FromVector<float>(want, TensorShape({1, od, oh, ow, c})));
    }
  }
}

}  // namespace
}  // namespace rill
