#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor I32(std::vector<int32_t> v, TensorShape s) { return Tensor::FromVector<int32_t>(v, s); }
Tensor I64(std::vector<int64_t> v, TensorShape s) { return Tensor::FromVector<int64_t>(v, s); }

absl::StatusOr<std::vector<Tensor>> Range(int32_t start, int32_t limit, int32_t delta) {
  OpTester t("Range");
  t.Input(Tensor::Scalar<int32_t>(start)).Input(Tensor::Scalar<int32_t>(limit));
  t.Input(Tensor::Scalar<int32_t>(delta));
  return t.Run();
}

TEST(RangeOpTest, UpAndDownWithPartialLastStep) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Range(1, 8, 3));
  ExpectTensorEqual(out[0], I32({1, 4, 7}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Range(5, 0, -2));
  ExpectTensorEqual(out[0], I32({5, 3, 1}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Range(2, 2, 1));
  ExpectTensorEqual(out[0], I32({}, TensorShape({0})));
}

TEST(RangeOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(Range(0, 5, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Requires delta != 0: 0")));
  EXPECT_THAT(Range(5, 0, 1), StatusIs(absl::StatusCode::kInvalidArgument,
                                       HasSubstr("Requires start <= limit when delta > 0: 5/0")));
}

}  // namespace
}  // namespace rill
