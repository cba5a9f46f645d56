// Counting kernels asked for outputs too large to allocate fail with an error instead of
// crashing; the recorded TensorFlow cases (tests/conformance/data/DenseBincount.pbtxt,
// InTopKV2.pbtxt, BroadcastArgs.pbtxt) cover values and TensorFlow's error texts.
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

constexpr int64_t kHuge = int64_t{1} << 62;

TEST(DenseBincountTest, HugeSizeIsAnErrorNotACrash) {
  for (const TensorShape& shape : {TensorShape({2}), TensorShape({2, 2})}) {
    OpTester t("DenseBincount");
    t.Attr("T", DT_FLOAT).Attr("Tidx", DT_INT64);
    t.Input(Tensor::FromVector<int64_t>(std::vector<int64_t>(shape.num_elements(), 1), shape));
    t.Input(Tensor::Scalar<int64_t>(kHuge));
    t.Input(Tensor(DT_FLOAT, TensorShape({0})));
    EXPECT_FALSE(t.Run().ok()) << shape.DebugString();
  }
}

TEST(BincountTest, CountsAnyRankAsOneVector) {
  OpTester t("Bincount");
  t.Attr("T", DT_FLOAT);
  t.Input(Tensor::FromVector<int32_t>({1, 2, 2, 0, 5, 1}, TensorShape({1, 2, 3})));
  t.Input(Tensor::Scalar<int32_t>(3));
  t.Input(Tensor(DT_FLOAT, TensorShape({0})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({1, 2, 2}, TensorShape({3})));
}

}  // namespace
}  // namespace rill
