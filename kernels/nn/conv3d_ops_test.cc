// What the recorded cases cannot show: the NCDHW refusals (TensorFlow's CPU kernels have none),
// and a multi-threaded Conv3D agreeing with the single-threaded one.
#include <cstdint>
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

}  // namespace
}  // namespace rill
