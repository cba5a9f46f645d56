// What the recorded cases cannot show: the NCDHW refusals (TensorFlow's CPU kernels have none),
// a multi-threaded Conv3D agreeing with the single-threaded one, and pools over more channels than
// the recorded shapes have.
#include <algorithm>
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
